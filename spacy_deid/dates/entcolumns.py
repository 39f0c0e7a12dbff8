"""Date spans onto a doc's tokens, for a doc without entities: the date pass's write path.

WHY: `doc.char_span` (six token lookups per span) and `doc.set_ents` (a Python-level visit of every
token) are most of what attaching thousands of dates per second costs. The compiled twin
(`_entcolumns.pyx`, built by `pip install` against spaCy's declarations) reads the tokens' offsets and
writes their entity columns in spaCy's token structs in one C loop each. Without it, the same results
come from spaCy's Python API: the offsets read once per doc (`to_array`), the spans aligned in one
merge walk, the columns written with one `from_array`. Tests check both against `char_span` and
`doc.ents = spans`.
"""
from typing import List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH
from spacy.tokens import Doc

try:
    from . import _entcolumns as _compiled
except ImportError:  # not built (no compiler): the Python path below is complete on its own
    _compiled = None

COMPILED = _compiled is not None
_OFFSET_ATTRS = [IDX, LENGTH]
_ENT_ATTRS = [ENT_IOB, ENT_TYPE]
Bounds = Optional[Tuple[int, int]]


def has_entities(doc: Doc) -> bool:
    """`bool(doc.ents)`: the compiled check reads the tokens' entity columns without building spans."""
    if _compiled is not None:
        return _compiled.has_entities(doc)
    return bool(doc.ents)


def token_bounds(doc: Doc, candidates: Sequence[Tuple[int, int, object]]) -> List[Bounds]:
    """(start token, end token) of each (start_char, end_char, ...) candidate, or None where the
    offsets are not token boundaries (strict alignment: never widen a PHI span). Candidates sorted by
    start and not overlapping, as the finder returns them."""
    if not candidates:
        return []
    if _compiled is not None:
        return _compiled.token_bounds(doc, list(candidates))
    if not len(doc):
        return [None] * len(candidates)
    offsets = doc.to_array(_OFFSET_ATTRS).tolist()
    out: List[Bounds] = []
    i, n = 0, len(offsets)
    for cand in candidates:
        start, end = cand[0], cand[1]
        while i < n and offsets[i][0] < start:
            i += 1
        if i == n or offsets[i][0] != start or end <= start:
            out.append(None)
            continue
        j = i
        while j < n and offsets[j][0] + offsets[j][1] < end:
            j += 1
        out.append((i, j + 1) if j < n and offsets[j][0] + offsets[j][1] == end else None)
    return out


def set_ents_outside(doc: Doc, bounds: Sequence[Tuple[int, int]], label: str) -> None:
    """What `doc.ents = spans` does on a doc without entities, for sorted, non-overlapping spans of
    one label given as token bounds: B/I inside them, O everywhere else."""
    n = len(doc)
    if not n:
        return
    label_id = doc.vocab.strings.add(label)
    if _compiled is not None:
        _compiled.set_ents_outside(doc, list(bounds), label_id)
        return
    arr = numpy.zeros((n, 2), dtype=numpy.uint64)
    arr[:, 0] = 2  # O
    for start, end in bounds:
        if start < 0 or end > n or start >= end:
            raise IndexError(f"[spacy_deid] token bounds ({start}, {end}) outside a doc of {n} tokens")
        arr[start, 0] = 3  # B
        arr[start + 1:end, 0] = 1  # I
        arr[start:end, 1] = label_id
    doc.from_array(_ENT_ATTRS, arr)
