"""Date spans onto a doc's tokens, for a doc without entities: the date pass's write path.

WHY: `doc.char_span` (six token lookups per span) and `doc.set_ents` (a Python-level visit of every
token) are most of what attaching thousands of dates per second costs. Here the token offsets are read
once per doc (`to_array`), the spans are aligned in one merge walk, and the entity columns are written
with one `from_array`. The compiled scanner (`_scan.pyx`) does both walks; without it the same
results come from spaCy's own calls. Tests check both against `char_span` and `doc.ents = spans`.
"""
from typing import List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH
from spacy.tokens import Doc

from .finder import _compiled

_OFFSET_ATTRS = [IDX, LENGTH]
_ENT_ATTRS = [ENT_IOB, ENT_TYPE]
Bounds = Optional[Tuple[int, int]]


def token_bounds(doc: Doc, candidates: Sequence[Tuple[int, int, object]]) -> List[Bounds]:
    """(start token, end token) of each (start_char, end_char, ...) candidate, or None where the
    offsets are not token boundaries (strict alignment: never widen a PHI span). Candidates sorted by
    start and not overlapping, as the finder returns them."""
    if not candidates:
        return []
    if _compiled is not None and len(doc):
        return _compiled.token_bounds(doc.to_array(_OFFSET_ATTRS), list(candidates))
    out: List[Bounds] = []
    for cand in candidates:
        span = doc.char_span(cand[0], cand[1])
        out.append(None if span is None else (span.start, span.end))
    return out


def set_ents_outside(doc: Doc, bounds: Sequence[Tuple[int, int]], label: str) -> None:
    """What `doc.ents = spans` does on a doc without entities, for sorted, non-overlapping spans of
    one label given as token bounds: B/I inside them, O everywhere else."""
    n = len(doc)
    if not n:
        return
    label_id = doc.vocab.strings.add(label)
    if _compiled is not None:
        cols = numpy.frombuffer(_compiled.ent_columns(n, list(bounds), label_id), dtype=numpy.uint64)
        doc.from_array(_ENT_ATTRS, cols.reshape(n, 2))
        return
    arr = numpy.zeros((n, 2), dtype=numpy.uint64)
    arr[:, 0] = 2  # O
    for start, end in bounds:
        arr[start, 0] = 3  # B
        arr[start + 1:end, 0] = 1  # I
        arr[start:end, 1] = label_id
    doc.from_array(_ENT_ATTRS, arr)
