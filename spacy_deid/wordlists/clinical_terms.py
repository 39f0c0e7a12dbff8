"""Clinical vocabulary that is never PHI (`resources/clinical_terms.txt`): medications, chart
shorthand, and diseases named after places (`日本腦炎`, `German measles`).

WHY: a NER trained on synthetic notes calls an unfamiliar capitalised word in a name-like slot a
person or a place (`Cymbalta` as a CITY, `CVP` as a DOCTOR). Drug names are what research on the
de-identified notes needs most, and a surrogate city in place of a drug corrupts the note, so a
name, profession or place whose whole text is a clinical term is dropped (see `spanshape`). The list
is closed-class vocabulary, not PHI values: no entry equals a value of any PHI lexicon (tested).
The place-name rules ask the other question, whether a match lies inside such a term in the text
(`日本` in `日本腦炎` is no country): `inside_clinical_term`.
"""
import re
from functools import lru_cache
from importlib import resources
from typing import FrozenSet, Tuple

# A result written after a test or scale (`CAM-ICU neg`, `Cx pending`, `CXR (-)`): the span is still
# the term, not a name.
_RESULT_AFTER = re.compile(r"[ ]?(?:\([+-]\)|[+-]|neg|negative|pos|positive|pending|wnl)\.?$")


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
    """Is the whole of `text` (case and spacing aside) a medication or a chart shorthand, alone or
    with its result after it?"""
    normalized = _normalize(text)
    if normalized in clinical_terms():
        return True
    result = _RESULT_AFTER.search(normalized)
    return result is not None and result.start() > 0 and normalized[:result.start()] in clinical_terms()


# Words that join two clinical terms in a note (`switched from Lamictal to Cymbalta`, `Effexor and Xanax`).
_TERMS_JOINED = re.compile(r"[ ]+(?:to|and|or|->|→|/)[ ]+|[ ]*/[ ]*", re.IGNORECASE)


def clinical_terms_joined(text: str) -> bool:
    """Is `text` two or more clinical terms joined by `to`, `and`, `or`, an arrow or a slash
    (`[Lamictal to Cymbalta]`), or one and its dose (`[Effexor 200] mg/day`)? No name or place is."""
    dose = _DOSE_AFTER.search(text)
    if dose is not None and dose.start() > 0 and is_clinical_term(text[:dose.start()]):
        return True
    parts = _TERMS_JOINED.split(text)
    return len(parts) > 1 and all(part and is_clinical_term(part) for part in parts)


# A dose after a medication's name: a number, a fraction or a count of tablets (`200`, `3/3`, `1#`).
_DOSE_AFTER = re.compile(r"[ ]+[0-9]+(?:[./][0-9]+)?#?$")


@lru_cache(maxsize=4096)
def _terms_holding(part: str) -> Tuple[Tuple[str, int], ...]:
    """(term, offset of `part` in it) for every clinical term that contains `part` (normalized)."""
    out = []
    for term in clinical_terms():
        pos = term.find(part)
        while pos != -1:
            out.append((term, pos))
            pos = term.find(part, pos + 1)
    return tuple(out)


def inside_clinical_term(text: str, start: int, end: int) -> bool:
    """Does `text[start:end]` stand inside an occurrence of a clinical term (`日本` in `日本腦炎`)?
    Cost: one cached look-up per distinct string, then a comparison per term that holds it."""
    part = _normalize(text[start:end])
    if not part:
        return False
    for term, offset in _terms_holding(part):
        begin = start - offset
        if begin >= 0 and _normalize(text[begin:begin + len(term)]) == term:
            return True
    return False


__all__ = ["clinical_terms", "clinical_terms_joined", "inside_clinical_term", "is_clinical_term"]
