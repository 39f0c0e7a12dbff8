"""Build `spacy_deid/resources/common_words_en.txt`: frequent English words that are no name or place.

The list backs `spacy_deid.common_words` (why: see there). Source: wordfreq's English frequency list
(CC-BY-SA 4.0; the written list carries the attribution). Removed from it: every word of a value of
the package's name and place lexicons, and every name, and every city, state and country Faker
lists, of Faker's English-speaking locales, of the romanized names of its Chinese ones and of other
Latin-script locales (Indonesian, Vietnamese, Filipino, European), so that `Mary`, `Young`, `Chen`,
`Abdullah` or `Taipei` are never in it. Needs `pip install wordfreq faker` (build time only; neither is a dependency).

    python scripts/build_common_words.py [--size 20000]
"""
import argparse
import re
from pathlib import Path

from faker import Faker
from wordfreq import top_n_list

from spacy_deid.common_words import name_and_place_words

OUT = Path(__file__).resolve().parent.parent / "spacy_deid" / "resources" / "common_words_en.txt"
# English-speaking locales, the romanized names of the Chinese ones, and the countries Taiwan's foreign
# caregivers and spouses come from (Indonesia, Vietnam, the Philippines) and other Latin-script ones.
NAME_LOCALES = ("en_US", "en_GB", "en_AU", "en_CA", "en_IE", "en_NZ", "en_IN", "en_PH", "zh_TW", "zh_CN",
                "id_ID", "vi_VN", "fil_PH", "tl_PH", "es_ES", "es_MX", "pt_BR", "fr_FR", "de_DE", "it_IT",
                "nl_NL", "tr_TR", "pl_PL")
# Name and place lists of Faker's providers: people's names, and the real cities, states and countries
# some locales list.
NAME_ATTRIBUTES = ("first_names", "first_names_male", "first_names_female", "last_names",
                   "first_romanized_names", "last_romanized_names", "countries", "cities", "states",
                   "provinces", "city_names")
_WORD = re.compile(r"[a-z]+")


def faker_names() -> set:
    words = set()
    for locale in NAME_LOCALES:
        person = Faker(locale)
        for attr in NAME_ATTRIBUTES:
            for provider in person.providers:
                values = getattr(provider, attr, None)
                if values and not callable(values):
                    for value in values:
                        words.update(_WORD.findall(str(value).casefold()))
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20000, help="Most frequent English words to start from.")
    args = parser.parse_args()
    excluded = name_and_place_words() | faker_names()
    words = sorted({w for w in top_n_list("en", args.size) if _WORD.fullmatch(w) and len(w) > 1} - excluded)
    header = (f"# The {args.size} most frequent English words of wordfreq (https://github.com/rspeer/wordfreq),\n"
              "# licensed CC-BY-SA 4.0, less one-letter words and every word of a name or place value of the\n"
              "# package's lexicons and of Faker's name and place lists. Built by scripts/build_common_words.py;\n"
              "# read by spacy_deid.common_words. This file, as a derivative of wordfreq, is CC-BY-SA 4.0.\n")
    OUT.write_text(header + "\n".join(words) + "\n", encoding="utf8")
    print(f"{len(words)} words written to {OUT} ({len(excluded)} name and place words excluded)")


if __name__ == "__main__":
    main()
