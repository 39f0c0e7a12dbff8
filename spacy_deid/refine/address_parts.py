"""An address's parts stand together: a street written next to an address part that was found is PHI
too, and so is the house number written right before that street.

WHY: a model or rule that finds the house number and the city of `address 7, Xinyi Rd., Taipei` but
not the street between them leaves `Xinyi Rd.` in the output beside the surrogate number and city,
and the street with the city is enough to find the house. A street here is one to three capitalised
(or all-capital) words and a street type of the address patterns (`resources/patterns/addresses.json`:
Road, Rd., Street, Ave., ...), with nothing but spaces, commas and periods between it and a found
place part (`LOCATION_LABELS`: number, street, city, district, ...). Only text outside every entity
gets a span; Latin script only (a Chinese street holds its kind, 路 街 段, and the NER reads it).
"""
import json
import re
from functools import lru_cache
from importlib import resources
from typing import List, Pattern, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..doctext import doc_text
from ..labels import LOCATION_LABELS

SOURCE = "propagated"
_GAP = re.compile(r"[ ,.]{0,3}")
_HOUSE_NUMBER = re.compile(r"(?<![\w#-])(?:No\.[ ]?)?(?P<num>\d{1,6}[A-Z]?),?[ ]$")


@lru_cache(maxsize=1)
def street_types() -> Tuple[str, ...]:
    """The street types of the English street-address pattern (the one list, kept as data)."""
    data = json.loads(resources.files("spacy_deid").joinpath("resources/patterns/addresses.json").read_text("utf-8"))
    pattern = next(p["pattern"] for p in data["patterns"] if p["label"] == "STREET")
    types = re.search(r"\(\?:(Street\|[^)]*)\)", pattern)
    if types is None:
        raise ValueError("addresses.json: the STREET pattern names no street types")
    return tuple(t.replace("\\.", ".") for t in types.group(1).split("|"))


@lru_cache(maxsize=1)
def _street() -> Pattern[str]:
    kinds = "|".join(re.escape(t) for t in sorted(street_types(), key=len, reverse=True))
    word = r"(?:[A-Z][a-z'-]+|[A-Z][A-Z'-]+)"
    return re.compile(rf"(?<![A-Za-z'-]){word}(?:[ ]{word}){{0,2}}[ ](?i:{kinds})(?![A-Za-z])")


def street_parts(doc: Doc) -> List[Span]:
    """Add the streets (and the house numbers right before them) that stand next to a found place
    part (module docstring); returns the spans added."""
    text = doc_text(doc)
    ents = sorted(doc.ents, key=lambda e: e.start_char)
    places = [e for e in ents if e.label_ in LOCATION_LABELS]
    if not places:
        return []
    taken = [(e.start_char, e.end_char) for e in ents]
    added: List[Span] = []
    for match in _street().finditer(text):
        start, end = match.span()
        if any(s < end and start < e for s, e in taken) or not _next_to(text, places, start, end):
            continue
        span = doc.char_span(start, end, label="STREET")
        if span is None:
            continue
        added.append(span)
        number = _HOUSE_NUMBER.search(text, max(0, start - 12), start)
        if number is not None and not any(s < number.end("num") and number.start("num") < e for s, e in taken):
            num_span = doc.char_span(number.start("num"), number.end("num"), label="NUMBER")
            if num_span is not None:
                added.append(num_span)
    if added:
        doc.ents = list(doc.ents) + added
        for span in added:
            span._.source = SOURCE
    return added


def _next_to(text: str, places: Sequence[Span], start: int, end: int) -> bool:
    """Is a found place part separated from [start, end) by at most a few spaces, commas, periods?"""
    for ent in places:
        if ent.end_char <= start and _GAP.fullmatch(text, ent.end_char, start):
            return True
        if end <= ent.start_char and _GAP.fullmatch(text, end, ent.start_char):
            return True
    return False


__all__ = ["street_parts", "street_types"]
