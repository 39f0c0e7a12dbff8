# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of `entcolumns.py`: date spans onto a doc's tokens, reading and writing spaCy's token
structs in place.

WHY: read through Python, the tokens' offsets (`doc.to_array`) and the entity columns
(`doc.from_array`) cost as much as finding the dates; here both are one C loop over `doc.c`. Built
against spaCy's own declarations (`spacy/tokens/doc.pxd`, `spacy/structs.pxd`), as spaCy's compiled
components are; `entcolumns.py` does the same through spaCy's Python API when this was not built.
"""
from spacy.structs cimport TokenC
from spacy.tokens.doc cimport Doc
from spacy.typedefs cimport attr_t

# spaCy's ENT_IOB codes (Token.iob_strings(): "", "I", "O", "B").
cdef enum:
    IOB_I = 1
    IOB_O = 2
    IOB_B = 3


def has_entities(Doc doc) -> bool:
    """`bool(doc.ents)`, without building the spans: some token begins or is inside an entity."""
    cdef Py_ssize_t i
    cdef const TokenC* tokens = doc.c
    for i in range(doc.length):
        if tokens[i].ent_iob == IOB_B or tokens[i].ent_iob == IOB_I:
            return True
    return False


def token_bounds(Doc doc, list candidates) -> list:
    """For candidates sorted by start and not overlapping: (first token, end token) of each, or None
    where its offsets are not token boundaries (`doc.char_span`'s strict alignment)."""
    cdef Py_ssize_t n = doc.length, i = 0, j, start, end
    cdef const TokenC* tokens = doc.c
    cdef list out = []
    for cand in candidates:
        start = cand[0]
        end = cand[1]
        while i < n and tokens[i].idx < start:
            i += 1
        if i == n or tokens[i].idx != start or end <= start:
            out.append(None)
            continue
        j = i
        while j < n and tokens[j].idx + tokens[j].lex.length < end:
            j += 1
        if j == n or tokens[j].idx + tokens[j].lex.length != end:
            out.append(None)
            continue
        out.append((i, j + 1))
    return out


def set_ents_outside(Doc doc, list bounds, attr_t label) -> None:
    """What `doc.ents = spans` does on a doc without entities, for sorted, non-overlapping spans of
    one label given as token bounds: B/I inside them, O everywhere else."""
    cdef Py_ssize_t i, start, end, n = doc.length
    cdef TokenC* tokens = doc.c
    for i in range(n):
        tokens[i].ent_iob = IOB_O
        tokens[i].ent_type = 0
    for bound in bounds:
        start = bound[0]
        end = bound[1]
        if start < 0 or end > n or start >= end:
            raise IndexError(f"[spacy_deid] token bounds ({start}, {end}) outside a doc of {n} tokens")
        tokens[start].ent_iob = IOB_B
        tokens[start].ent_type = label
        for i in range(start + 1, end):
            tokens[i].ent_iob = IOB_I
            tokens[i].ent_type = label
