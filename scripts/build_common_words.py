"""Build `spacy_deid/resources/word_lists/common_words.json`: frequent words that are no name or place.

Its list `common_words_en` backs `spacy_deid.wordlists.common_words`, `common_words_zh` backs
`spacy_deid.wordlists.common_words_zh` (why: see there); like every word list it is saved with a pipeline
(`spacy_deid.wordlists`). Source: wordfreq's English frequency list
(CC-BY-SA 4.0; the written list carries the attribution). Removed from it: every word of a value of
the package's name and place lexicons, and every name, and every city, state and country Faker
lists, of Faker's English-speaking locales, of the romanized names of its Chinese ones and of other
Latin-script locales (Indonesian, Vietnamese, Filipino, European), so that `Mary`, `Young`, `Chen`,
`Abdullah` or `Taipei` are never in it. The Chinese list: wordfreq's Chinese words of two or more Han
characters (wordfreq writes them Simplified; each is written out in every Traditional form its
characters map back to, by wordfreq's own Traditional-to-Simplified table, and in its own form), less
every Han value of the same lexicons and of Faker's Chinese name and place lists and every part of one
of two or more characters (`中山` of `中山路`), and less every word shaped like a person's name: a
surname of those lists then one or two characters of their given names (`高明`, `志明`), and less every
word jieba's dictionary tags as a proper noun (a person's name, a transliterated one, a place, an
organisation, another proper noun, an abbreviation: `彼得`, `史密斯`, `瑪利亞`, `豐田`, `三星`, `牛津`):
the lexicons and Faker hold Taiwan's names and places, not the transliterated foreign names of
caregivers and spouses or the brands and employers that wordfreq's list is full of. Needs
`pip install wordfreq faker jieba` (build time only; none is a dependency).

The English list also takes the words real clinical prose writes in lower case: every word of letters
that `assets/clinical_text/mtsamples_lines.txt` (MTSamples transcriptions, CC0; see that folder's
README) writes in lower case at least `--clinical-min-count` times, less the same names and places.
WHY: wordfreq counts general text, so chart words (`extremities`, `hepatic`, `fullness`) are not in
its top words, and in a note typed in capitals a model calls them names; their lower-case use in real
notes says they are ordinary words. Once is enough: the committed subset is 9,369 lines, so most
clinical words occur in it once (`necrosis`, `oxycodone`), names and places are removed as above, and a
lower-cased name there would have to be missing from both the lexicons and Faker (the thirty-first
session measured the change from twice to once: PhysioNet dev token precision 15.85 -> 16.03, no
corpus or split losing recall; docs/results_history.md).

A third list, `frequent_words_en`, takes back the most frequent words (`--frequent-size`) that the first
leaves out only as words of a place or an organisation (`in`, `plan`, `states`), less every word of a
person's name in the lexicons (romanized Chinese syllables too: `ya`, `pin`) and Faker's English
locales (`john`, `rose`, `brown`) and the particles of surnames (`van`). WHY: where
no capital marks a name (a line typed in one case), these are the sentence going on, and a person's
name is never one (`common_words.ordinary_word`; the thirty-second session measured it, results_history).

    python scripts/build_common_words.py [--size 20000] [--size-zh 20000] [--clinical-min-count 1]
                                         [--frequent-size 5000]
"""
import argparse
import gzip
import itertools
import json
import re
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Set, Tuple

import jieba
import msgpack
from faker import Faker
from wordfreq import top_n_list
from wordfreq.util import data_path

from spacy_deid.wordlists.common_words import NAME_AND_PLACE_LEXICONS, name_and_place_words
from spacy_deid.han import HAN_RUN
from spacy_deid.lexicons import load
from spacy_deid.wordlists import default_word_lists

RESOURCES = Path(__file__).resolve().parent.parent / "spacy_deid" / "resources"
OUT = RESOURCES / "word_lists" / "common_words.json"
CLINICAL_TEXT = Path(__file__).resolve().parent.parent / "assets" / "clinical_text" / "mtsamples_lines.txt"
_LETTERS = re.compile(r"[A-Za-z]+")
# English-speaking locales, the romanized names of the Chinese ones, and the countries Taiwan's foreign
# caregivers and spouses come from (Indonesia, Vietnam, the Philippines) and other Latin-script ones.
NAME_LOCALES = ("en_US", "en_GB", "en_AU", "en_CA", "en_IE", "en_NZ", "en_IN", "en_PH", "zh_TW", "zh_CN",
                "id_ID", "vi_VN", "fil_PH", "tl_PH", "es_ES", "es_MX", "pt_BR", "fr_FR", "de_DE", "it_IT",
                "nl_NL", "tr_TR", "pl_PL")
# Name and place lists of Faker's providers: people's names, and the real cities, states and countries
# some locales list.
PERSON_ATTRIBUTES = ("first_names", "first_names_male", "first_names_female", "last_names",
                     "first_romanized_names", "last_romanized_names")
NAME_ATTRIBUTES = PERSON_ATTRIBUTES + ("countries", "cities", "states", "provinces", "city_names")
_WORD = re.compile(r"[a-z]+")
# Lexicons of people's names: a frequent word one of them holds may be a name in any case.
PERSON_LEXICONS = ("given_names_en", "surnames_en", "given_names_romanized", "surnames_zh")
# Faker's locales whose people's names are English ones (others hold syllables that are English
# function words: `in`, `on`, `an`).
ENGLISH_LOCALES = tuple(locale for locale in NAME_LOCALES if locale.startswith("en_"))


def provider_values(fake: Faker, attribute: str) -> Iterator[str]:
    """Every value of one list attribute (`last_names`) of a Faker's providers."""
    for provider in fake.providers:
        values = getattr(provider, attribute, None)
        if values and not callable(values):
            yield from (str(value) for value in values)


def faker_names(attributes=NAME_ATTRIBUTES, locales=NAME_LOCALES) -> set:
    words = set()
    for locale in locales:
        person = Faker(locale)
        for attr in attributes:
            for value in provider_values(person, attr):
                words.update(_WORD.findall(value.casefold()))
    return words


_HAN = HAN_RUN
ZH_LOCALES = ("zh_TW", "zh_CN")
ZH_PLACE_ATTRIBUTES = ("cities", "city_names", "provinces", "districts", "street_names", "countries")
# Forms of one word to write out at most: a few characters map back to several Traditional ones
# (发: 發 髮), and their products are bounded.
MAX_FORMS = 16


def _to_simplified() -> Dict[int, str]:
    with gzip.open(data_path("_chinese_mapping.msgpack.gz")) as stream:
        table = msgpack.load(stream, raw=False, strict_map_key=False)
    return {int(k): (chr(v) if isinstance(v, int) else v) for k, v in table.items()}


def _simplify(text: str, table: Dict[int, str]) -> str:
    return text.translate(table)


def _faker_zh(attributes) -> List[str]:
    out = []
    for locale in ZH_LOCALES:
        for provider in Faker(locale).providers:
            for attr in attributes:
                values = getattr(provider, attr, None)
                if values and not callable(values):
                    out.extend(str(v) for v in values)
    return [v for v in out if _HAN.fullmatch(v)]


def _han_lexicon_values(names) -> List[str]:
    return [v for name in names for v in load(name).strings() if _HAN.fullmatch(v)]


def zh_excluded(table: Dict[int, str]) -> Set[str]:
    """Simplified forms of every Han name and place value and of each of its parts of 2+ characters."""
    excluded = set()
    for value in _han_lexicon_values(NAME_AND_PLACE_LEXICONS) + _faker_zh(ZH_PLACE_ATTRIBUTES + (
            "first_names", "last_names")):
        value = _simplify(value, table)
        excluded.update(value[i:j] for i in range(len(value)) for j in range(i + 2, len(value) + 1))
    return excluded


# jieba's part-of-speech tags of proper nouns: person names (Chinese, transliterated, foreign), places,
# organisations, other proper nouns, and abbreviations (mostly of organisations and places).
PROPER_NOUN_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz", "j"})


def jieba_proper_nouns() -> Set[str]:
    """The words jieba's dictionary (Simplified, like wordfreq's list) tags as proper nouns."""
    path = Path(jieba.__file__).parent / "dict.txt"
    words = set()
    with path.open(encoding="utf8") as lines:
        for line in lines:
            fields = line.split()
            if len(fields) == 3 and fields[2] in PROPER_NOUN_TAGS:
                words.add(fields[0])
    return words


def name_shaped(word: str, surnames: Set[str], given: Set[str]) -> bool:
    for cut in (1, 2):
        rest = word[cut:]
        if word[:cut] in surnames and 1 <= len(rest) <= 2 and all(ch in given for ch in rest):
            return True
    return False


def traditional_forms(word: str, back: Dict[str, List[str]]) -> List[str]:
    choices = [[ch] + back.get(ch, []) for ch in word]
    return ["".join(form) for form in itertools.islice(itertools.product(*choices), MAX_FORMS)]


def chinese_word_filter() -> Tuple[Callable[[str], bool], Dict[str, List[str]]]:
    """(keep, back): `keep(word)` says whether a Simplified word of 2+ Han characters is no name, place,
    proper noun or name-shaped run (`zh_excluded`, jieba's proper nouns, `name_shaped`); `back` maps a
    Simplified character to its Traditional ones, for `traditional_forms`. Shared with
    `build_clinical_vocabulary.py`."""
    table = _to_simplified()
    back: Dict[str, List[str]] = {}
    for traditional, simplified in sorted(table.items()):
        if len(simplified) == 1 and chr(traditional) != simplified and _HAN.fullmatch(chr(traditional)):
            back.setdefault(simplified, []).append(chr(traditional))
    excluded = zh_excluded(table)
    surnames = {_simplify(v, table) for v in _han_lexicon_values(("surnames_zh",)) + _faker_zh(("last_names",))}
    given = {_simplify(ch, table) for v in _han_lexicon_values(("given_chars_zh",)) + _faker_zh(("first_names",))
             for ch in v}
    excluded |= jieba_proper_nouns()

    def keep(word: str) -> bool:
        return (len(word) >= 2 and _HAN.fullmatch(word) is not None and word not in excluded
                and not name_shaped(word, surnames, given))
    return keep, back


def build_zh(size: int) -> List[str]:
    keep, back = chinese_word_filter()
    kept = [w for w in top_n_list("zh", size) if keep(w)]
    words = sorted({form for w in kept for form in traditional_forms(w, back)})
    print(f"{len(words)} forms of {len(kept)} Chinese words")
    return words


def clinical_lower_words(path: Path, min_count: int) -> Set[str]:
    """The words of letters `path` writes in lower case at least `min_count` times (one-letter words aside)."""
    counts: Dict[str, int] = {}
    for word in _LETTERS.findall(path.read_text(encoding="utf8")):
        if word.islower() and len(word) > 1:
            counts[word] = counts.get(word, 0) + 1
    return {word for word, count in counts.items() if count >= min_count}


def frequent_words(size: int, excluded: Set[str]) -> List[str]:
    """The `size` most frequent English words that `common_words_en` leaves out as words of a name or a
    place (`in`, `states`, `plan`, `street`), less every word of a person's name (`john`, `rose`,
    `brown` stay out of it) and the particles of surnames (`van`, `de la`). WHY: in a line typed in one
    case no capital tells a name (`dr smith`, `SON TOM`), and after a relation word these words are the
    sentence going on (`wife in to visit`, `son met with`), not a name."""
    people = faker_names(PERSON_ATTRIBUTES, ENGLISH_LOCALES) | {
        word for name in PERSON_LEXICONS for value in load(name).strings() for word in _WORD.findall(value.casefold())
    } | set(default_word_lists()["surname_particles_en"])
    return sorted(w for w in top_n_list("en", size) if _WORD.fullmatch(w) and len(w) > 1
                  and w in excluded and w not in people)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20000, help="Most frequent English words to start from.")
    parser.add_argument("--size-zh", type=int, default=20000, help="Most frequent Chinese words to start from.")
    parser.add_argument("--clinical-min-count", type=int, default=1,
                        help="Lower-case uses in the clinical text a word needs to be taken.")
    parser.add_argument("--frequent-size", type=int, default=5000,
                        help="Most frequent English words frequent_words_en is drawn from.")
    args = parser.parse_args()
    words_zh = build_zh(args.size_zh)
    excluded = name_and_place_words() | faker_names()
    general = {w for w in top_n_list("en", args.size) if _WORD.fullmatch(w) and len(w) > 1}
    clinical = clinical_lower_words(CLINICAL_TEXT, args.clinical_min_count)
    words = sorted((general | clinical) - excluded)
    frequent = frequent_words(args.frequent_size, excluded)
    description = (
        f"Frequent words that are no name or place. common_words_en: the {args.size} most frequent English "
        "words of wordfreq (https://github.com/rspeer/wordfreq), licensed CC-BY-SA 4.0, and the words "
        "MTSamples' clinical transcriptions (CC0, assets/clinical_text/) write in lower case at least "
        f"{'once' if args.clinical_min_count == 1 else f'{args.clinical_min_count} times'}, less one-letter words "
        "and every word of a name or place value of "
        "the package's lexicons and of Faker's name and place lists; read by spacy_deid.wordlists.common_words. "
        f"frequent_words_en: the words of wordfreq's {args.frequent_size} most frequent English words that "
        "common_words_en leaves out as words of a name or a place, less every word of a person's name of the "
        "lexicons and Faker and the particles of surnames: in a line typed in one case they are no name "
        "(spacy_deid.wordlists.common_words.ordinary_word). "
        f"common_words_zh: the {args.size_zh} most frequent Chinese words of wordfreq, those of two or more "
        "Han characters, in their Simplified and Traditional forms, less every name or place value of the "
        "package's lexicons and of Faker's Chinese lists, every part of one, every word shaped like a "
        "person's name, and every word jieba's dictionary (MIT) tags as a proper noun; read by "
        "spacy_deid.wordlists.common_words_zh. Built by scripts/build_common_words.py. This file, as a derivative "
        "of wordfreq, is CC-BY-SA 4.0.")
    data = {"description": description, "lists": {"common_words_en": words, "common_words_zh": words_zh,
                                                   "frequent_words_en": frequent}}
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf8")
    print(f"{len(words)} English words written to {OUT} ({len(clinical - general - excluded)} from the "
          f"clinical text; {len(excluded)} name and place words excluded), {len(frequent)} frequent words that "
          f"are also words of a place, and {len(words_zh)} Chinese forms")


if __name__ == "__main__":
    main()
