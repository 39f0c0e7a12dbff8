"""Clinical vocabulary that is never PHI (`resources/clinical_terms.txt`): medications and chart
shorthand.

WHY: a NER trained on synthetic notes calls an unfamiliar capitalised word in a name-like slot a
person or a place (`Cymbalta` as a CITY, `CVP` as a DOCTOR). Drug names are what research on the
de-identified notes needs most, and a surrogate city in place of a drug corrupts the note, so a
name, profession or place whose whole text is a clinical term is dropped (see `spanshape`). The list
is closed-class vocabulary, not PHI values: no entry equals a value of any PHI lexicon (tested).
"""
from functools import lru_cache
from importlib import resources
from typing import FrozenSet


def _normalize(text: str) -> str:
    return " ".join(text.split()).casefold()


@lru_cache(maxsize=1)
def clinical_terms() -> FrozenSet[str]:
    """The packaged terms, normalized (whitespace collapsed, case-folded)."""
    raw = resources.files("spacy_deid").joinpath("resources", "clinical_terms.txt").read_text(encoding="utf8")
    terms = set()
    for line in raw.splitlines():
        term = line.split("#", 1)[0].strip()
        if term:
            terms.add(_normalize(term))
    return frozenset(terms)


def is_clinical_term(text: str) -> bool:
    """Is the whole of `text` (case and spacing aside) a medication or a chart shorthand?"""
    return _normalize(text) in clinical_terms()


__all__ = ["clinical_terms", "is_clinical_term"]
