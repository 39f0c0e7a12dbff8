"""Build a list of English clinical vocabulary that is never a person's name or a place.

The list `clinical_vocabulary_en` holds chart and nursing abbreviations and shorthand (`npo`, `vss`,
`bilat`, `heme`, `pulm`) and medication names, generic and brand (`lopressor`, `combivent`), written
as the word list file `clinical_vocabulary.json` (`{"description": ..., "lists": {"clinical_vocabulary_en":
[sorted lower-case words]}}`, `spacy_deid/resources/word_lists/`) to `--out`. `spacy_deid.wordlists.common_words`
reads it: where capitals say nothing (a line typed in one case), a name or place span made only of
these words is chart language, not PHI.

Sources (each a file given on the command line; the reader is chosen by the file's name):

1. imantsm/medical_abbreviations @ ce0e8397e88afc953a18681100e75bcc145dd4b5, `CSVs/*, medical
   abbreviations.csv` (15 files), column `Abbreviation/Shorthand`. Licence: MIT (`LICENSE` of the
   repository, "Copyright (c) 2020 imantsm"). The author says the terms come from many sources.
2. lisavirginia/clinical-abbreviations (the Medical Abbreviation and Acronym Meta-Inventory, Columbia
   DBMI) @ c2530a6519ec02246a4f577bf073e4dfe9428518, the short forms (first column) of its source
   inventories: `sources/4-vanderbilt/vanderbilt_clinic_notes.txt`,
   `sources/4-vanderbilt/vanderbilt_discharge_sums.txt` (Vanderbilt sign-out and discharge notes),
   `sources/6-stetson/sense_distribution_448.txt` (Stetson, cross-coverage sign-outs),
   `sources/7-columbia/obgyn.txt` (Columbia obstetric notes),
   `sources/5-wikipedia/wikipedia_abbreviation_database.csv` (Wikipedia's "List of medical
   abbreviations", itself CC BY-SA) and `sources/3-berman/12000_pathology_abbreviations.txt` (Berman's
   pathology abbreviations). Licence: CC BY 4.0 (`LICENSE.txt` of the repository); its
   `sources/README.md` asks users to keep to each source inventory's own terms as well.
3. PyPI `drug-named-entity-recognition` 2.0.9 (Fast Data Science), file
   `drug_named_entity_recognition/drug_ner_dictionary.pkl.bz2` of the wheel: every variant name
   (generic, brand, synonym) of its drug dictionary. Licence: MIT (`*.dist-info/licenses/LICENSE`); its
   README states the data come from DrugBank open data (CC0), MeSH and MedlinePlus (NLM), NHS and
   Wikipedia (CC BY-SA 3.0 / GFDL) and PubChem.
4. PyPI `medspacy` 1.3.1, file `medspacy-1.3.1/resources/en/section_patterns.json` of the sdist: the
   one-word section-header literals (`HPI:`, `Neuro:`, `PMHx:`). Licence: MIT (`LICENSE` of the sdist).
5. For `clinical_vocabulary_zh`: thunlp/THUOCL (Tsinghua Open Chinese Lexicon) @
   a30ce79d895d01ab5132a5c74c29703ff7efb4cc, `data/THUOCL_medical.txt` (medical terms with their
   document frequency, Simplified). Licence: MIT (`LICENSE` of the repository, "Copyright (c) 2018
   THUNLP"). Each term is kept when `build_common_words.chinese_word_filter` keeps it (no name, place,
   proper noun or name-shaped run) and it ends in no unit's or institution's character (`內科`, `醫院`,
   `診所`: annotation.md's DEPARTMENT and HOSPITAL are PHI), then written in its Traditional forms.

Rules: an entry is kept only if, lower-cased, stripped of surrounding space and of trailing periods
(and, for section headers, of a trailing colon), it is one token of 2-25 ASCII letters and digits
with at least one letter. Removed: every word of a person's name (`spacy_deid.wordlists.common_words.name_words`:
given names, surnames, romanized Chinese syllables) and the same name and place words that
`scripts/build_common_words.py` leaves out of `common_words_en` (`name_and_place_words()`: the words of
every value of the package's name and place lexicons, and `faker_names()`: Faker's names, cities,
states and countries of many locales). `--keep-lexicon` and `--faker-attribute` narrow that exclusion
(for measuring what it costs); the defaults apply it whole. `--exclude-words FILE` removes more words
(the first token of each line of FILE, lower-cased: e.g. a census list of names). `--min-length`
(default 3) leaves out shorter words: two letters are as often a person's initials.

The shipped list is built from sources 1, 2 (less Berman's pathology list: 4,000 words no other
source has, many of them a person's initials) and 3-4, with the US Census name lists of PyPI `names`
0.3.0 (MIT; `names/dist.all.last`, `dist.female.first`, `dist.male.first`) as `--exclude-words`:

    python scripts/build_clinical_vocabulary.py --out spacy_deid/resources/word_lists/clinical_vocabulary.json \
        --exclude-words dist.all.last --exclude-words dist.female.first --exclude-words dist.male.first \
        "CSVs/"*"medical abbreviations.csv" vanderbilt_clinic_notes.txt vanderbilt_discharge_sums.txt \
        sense_distribution_448.txt obgyn.txt wikipedia_abbreviation_database.csv \
        drug_ner_dictionary.pkl.bz2 section_patterns.json THUOCL_medical.txt

Needs (build time only) what `scripts/build_common_words.py` imports: `pip install wordfreq faker jieba`.

    python scripts/build_clinical_vocabulary.py --out clinical_vocabulary.json SOURCE_FILE [SOURCE_FILE ...]
"""
from __future__ import annotations

import argparse
import bz2
import csv
import io
import json
import pickle
import re
import sys
from pathlib import Path
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_common_words import (NAME_ATTRIBUTES, NAME_LOCALES, chinese_word_filter, faker_names,  # noqa: E402
                                traditional_forms)

from spacy_deid.wordlists.common_words import NAME_AND_PLACE_LEXICONS, name_words  # noqa: E402
from spacy_deid.lexicons import load  # noqa: E402
from spacy_deid.wordlists import default_word_lists  # noqa: E402

_TOKEN = re.compile(r"[a-z0-9]{2,25}")
CHINESE_SOURCE = "THUOCL_medical.txt"
# An institution's type word, or its abbreviation, is part of a place's name (`Boston Children's Hosp.`):
# the words of the package's `*_type_words_en` lists and these are left out.
INSTITUTION_ABBREVIATIONS = ("hosp", "hospl", "univ", "coll", "ctr", "cntr", "inst", "dept", "assoc", "corp",
                             "inc", "ltd", "med", "gen", "mem", "meml", "clin", "sch", "acad", "intl", "natl")
# Last characters of a unit's or an institution's name (`內科`, `急診部`, `醫院`, `診所`, `12診`, `病房`, `中心`):
# those words are annotation.md's DEPARTMENT, HOSPITAL or ROOM, never chart language to drop.
_INSTITUTION_ENDS = tuple("科部院所室站處組診房心局會")
DESCRIPTION = (
    "Clinical vocabulary, never a person's name or a place. `clinical_vocabulary_en`: chart and nursing "
    "abbreviations (`npo`, `bilat`, `heme`), section heads and medication names, generic and brand "
    "(`lopressor`), from imantsm/medical_abbreviations (MIT), the Medical Abbreviation and Acronym "
    "Meta-Inventory's short forms (CC BY 4.0; Wikipedia's list CC BY-SA), drug-named-entity-recognition's "
    "drug dictionary (MIT) and medspaCy's section heads (MIT), less every word of a name or place of the "
    "package's lexicons, Faker and the US Census name lists, and words under three letters. "
    "`clinical_vocabulary_zh`: the medical terms of THUOCL (MIT) in Traditional forms, less names, places, "
    "proper nouns and the words of units and institutions (`內科`, `醫院`). Built by "
    "`scripts/build_clinical_vocabulary.py` (its docstring names each source, commit and licence). "
    "`common_words` and `common_words_zh` read it: where capitals say nothing (a line typed in one case) an "
    "English name or place span of these words is chart language, and so is a Chinese span of these and "
    "common words.")
_LETTER = re.compile(r"[a-z]")
_WORD = re.compile(r"[A-Za-z]+")  # as common_words.name_and_place_words splits a value


def normalize(entry: str, strip_colon: bool = False) -> Optional[str]:
    """The entry as one lower-case word, or None where it is no single word of 2-25 letters/digits."""
    text = entry.strip().lower()
    if strip_colon:
        text = text.rstrip(":").rstrip()
    text = text.rstrip(".")
    if _TOKEN.fullmatch(text) and _LETTER.search(text):
        return text
    return None


# -- readers: each yields the raw entries of one source file ------------------------------------------


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig", errors="replace")


def read_imantsm_csv(path: Path) -> Iterator[str]:
    """imantsm/medical_abbreviations: column `Abbreviation/Shorthand`."""
    for row in csv.DictReader(io.StringIO(_read_text(path))):
        value = row.get("Abbreviation/Shorthand")
        if value:
            yield value


def read_first_tab_column(path: Path) -> Iterator[str]:
    """Meta-Inventory sources in TSV (Vanderbilt, Stetson): the short form, first column; header aside."""
    for number, line in enumerate(_read_text(path).splitlines()):
        if number == 0 and line.lower().startswith("abbreviation\t"):
            continue
        if line.strip():
            yield line.split("\t", 1)[0]


def read_first_space_column(path: Path) -> Iterator[str]:
    """Columbia obstetric inventory: `SHORT long form`, the short form first."""
    for line in _read_text(path).splitlines():
        if line.strip():
            yield line.split(None, 1)[0]


def read_equals_list(path: Path) -> Iterator[str]:
    """Berman's pathology abbreviations: `short = long form`."""
    for line in _read_text(path).splitlines():
        if " = " in line:
            yield line.split(" = ", 1)[0]


def read_wikipedia_csv(path: Path) -> Iterator[str]:
    """Wikipedia's list of medical abbreviations as the Meta-Inventory stores it: column `abr`."""
    for row in csv.DictReader(io.StringIO(_read_text(path))):
        value = row.get("abr")
        if value:
            yield value


class _PlainDataUnpickler(pickle.Unpickler):
    """Unpickles built-in containers and scalars only: a data file must run no code."""

    def find_class(self, module: str, name: str):  # type: ignore[override]
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


def read_drug_dictionary(path: Path) -> Iterator[str]:
    """drug-named-entity-recognition: every variant name of `drug_variant_to_canonical`."""
    with bz2.open(path, "rb") as stream:
        data = _PlainDataUnpickler(stream).load()
    yield from data["drug_variant_to_canonical"]


def read_section_patterns(path: Path) -> Iterator[str]:
    """medspacy section patterns: the `literal` of each rule."""
    for rule in json.loads(_read_text(path))["section_rules"]:
        literal = rule.get("literal")
        if isinstance(literal, str):
            yield literal


# (source name, test of a file's name, reader, strip a trailing colon)
Reader = Tuple[str, Callable[[str], bool], Callable[[Path], Iterator[str]], bool]
READERS: Sequence[Reader] = (
    ("imantsm/medical_abbreviations", lambda n: n.endswith("medical abbreviations.csv"), read_imantsm_csv, False),
    ("meta-inventory:vanderbilt", lambda n: n.startswith("vanderbilt_") and n.endswith(".txt"),
     read_first_tab_column, False),
    ("meta-inventory:stetson", lambda n: n == "sense_distribution_448.txt", read_first_tab_column, False),
    ("meta-inventory:columbia", lambda n: n == "obgyn.txt", read_first_space_column, False),
    ("meta-inventory:berman", lambda n: n == "12000_pathology_abbreviations.txt", read_equals_list, False),
    ("meta-inventory:wikipedia", lambda n: n == "wikipedia_abbreviation_database.csv", read_wikipedia_csv, False),
    ("drug-named-entity-recognition", lambda n: n == "drug_ner_dictionary.pkl.bz2", read_drug_dictionary, False),
    ("medspacy:section_patterns", lambda n: n == "section_patterns.json", read_section_patterns, True),
)


def reader_for(path: Path) -> Reader:
    for reader in READERS:
        if reader[1](path.name):
            return reader
    known = ", ".join(name for name, *_ in READERS)
    raise SystemExit(f"{path}: no reader for this file name (known sources: {known})")


def source_words(paths: Iterable[Path]) -> Dict[str, Set[str]]:
    """The normalized words of each source, by source name (files of one source are merged)."""
    words: Dict[str, Set[str]] = {}
    for path in paths:
        name, _, read, strip_colon = reader_for(path)
        bucket = words.setdefault(name, set())
        for entry in read(path):
            word = normalize(entry, strip_colon)
            if word is not None:
                bucket.add(word)
    return words


# -- exclusion: the name and place words of scripts/build_common_words.py ------------------------------


def lexicon_words(lexicons: Iterable[str]) -> Set[str]:
    """As `common_words.name_and_place_words`, for the given lexicons only."""
    return {word for name in lexicons for value in load(name).strings()
            for word in _WORD.findall(value.casefold())}


def excluded_words(keep_lexicons: Sequence[str] = (),
                   faker_attributes: Sequence[str] = NAME_ATTRIBUTES) -> Set[str]:
    """Every word of a person's name (`name_words`), and the exclusion of `build_common_words.py`:
    the words of the name and place lexicons (less `keep_lexicons`) and Faker's names and places; and
    institutions' type words and their abbreviations (`INSTITUTION_ABBREVIATIONS`)."""
    unknown = set(keep_lexicons) - set(NAME_AND_PLACE_LEXICONS)
    if unknown:
        raise SystemExit(f"--keep-lexicon: not a name or place lexicon: {sorted(unknown)}")
    lexicons = [name for name in NAME_AND_PLACE_LEXICONS if name not in keep_lexicons]
    lists = default_word_lists()
    type_words = {word for name in lists.names if name.endswith("_type_words_en")
                  for value in lists[name] for word in _WORD.findall(value.casefold())}
    return (set(name_words()) | lexicon_words(lexicons) | faker_names(tuple(faker_attributes), NAME_LOCALES)
            | type_words | set(INSTITUTION_ABBREVIATIONS))


def word_file(path: Path) -> Set[str]:
    """The first token of each line of `path`, lower-cased."""
    return {line.split(None, 1)[0].lower() for line in _read_text(path).splitlines() if line.strip()}


def build(paths: Sequence[Path], excluded: Set[str]) -> Tuple[List[str], Dict[str, Dict[str, int]]]:
    by_source = source_words(paths)
    kept = {name: words - excluded for name, words in by_source.items()}
    vocabulary = sorted(set().union(*kept.values())) if kept else []
    stats: Dict[str, Dict[str, int]] = {}
    for name, words in kept.items():
        others = set().union(*(w for n, w in kept.items() if n != name))
        stats[name] = {"single_words": len(by_source[name]), "kept": len(words),
                       "only_here": len(words - others)}
    return vocabulary, stats


def chinese_terms(path: Path) -> List[str]:
    """THUOCL's medical terms that are no name, place or institution, in Simplified and in their
    Traditional forms."""
    keep, back = chinese_word_filter()
    terms = [line.split("\t", 1)[0].strip() for line in _read_text(path).splitlines() if line.strip()]
    kept = [t for t in terms if keep(t) and not t.endswith(_INSTITUTION_ENDS)]
    forms = set(kept)  # the Simplified, and the Traditional forms with no Simplified character left
    for term in kept:
        forms.update(form for form in traditional_forms(term, back)
                     if not any(ch in back for ch in form) and not form.endswith(_INSTITUTION_ENDS))
    return sorted(forms)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", type=Path, help="Downloaded source files (see the module doc).")
    parser.add_argument("--out", type=Path, required=True, help="Where to write the JSON list.")
    parser.add_argument("--keep-lexicon", action="append", default=[], metavar="NAME",
                        help="A name or place lexicon whose words are NOT excluded (repeatable; default none).")
    parser.add_argument("--faker-attribute", action="append", default=None, metavar="ATTR",
                        help=f"Faker lists to exclude (repeatable; default all of {', '.join(NAME_ATTRIBUTES)}).")
    parser.add_argument("--exclude-words", action="append", default=[], type=Path, metavar="FILE",
                        help="More words to remove: the first token of each line (repeatable).")
    parser.add_argument("--min-length", type=int, default=3, help="Shortest word kept (default 3).")
    parser.add_argument("--stats", type=Path, help="Also write per-source counts as JSON here.")
    args = parser.parse_args(argv)
    excluded = excluded_words(args.keep_lexicon, args.faker_attribute or NAME_ATTRIBUTES)
    for path in args.exclude_words:
        excluded |= word_file(path)
    english = [path for path in args.sources if path.name != CHINESE_SOURCE]
    chinese = [term for path in args.sources if path.name == CHINESE_SOURCE for term in chinese_terms(path)]
    vocabulary, stats = build(english, excluded)
    vocabulary = [word for word in vocabulary if len(word) >= args.min_length]
    out = {"description": DESCRIPTION, "lists": {"clinical_vocabulary_en": vocabulary,
                                                 "clinical_vocabulary_zh": sorted(set(chinese))}}
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n", encoding="utf8")
    for name, counts in sorted(stats.items()):
        print(f"{name}: {counts['single_words']} single words, {counts['kept']} kept, "
              f"{counts['only_here']} from this source only")
    print(f"{len(vocabulary)} English words and {len(out['lists']['clinical_vocabulary_zh'])} Chinese forms "
          f"written to {args.out} ({len(excluded)} name and place words excluded)")
    if args.stats:
        args.stats.write_text(json.dumps({"sources": stats, "total": len(vocabulary),
                                          "excluded_words": len(excluded)}, indent=1) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
