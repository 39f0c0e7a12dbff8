"""Inline markup `«surface|LABEL=norm»` (as in shared/data/dev_notes.txt) to Records and back.

Handy for writing test tables by hand: the offsets are computed, so they cannot be wrong.
"""
import re
from typing import Optional

from .records import PhiSpan, Record

_MARK_RE = re.compile(r"«([^«»|]+)\|([A-Z_]+)(?:=([^«»]+))?»")


def parse_inline(marked: str, *, record_id: str = "inline", patient_id: Optional[str] = None) -> Record:
    """Strip the marks and return the plain text with one span per mark."""
    parts = []
    spans = []
    pos = 0
    out_len = 0
    for m in _MARK_RE.finditer(marked):
        before = marked[pos:m.start()]
        parts.append(before)
        out_len += len(before)
        surface, label, norm = m.group(1), m.group(2), m.group(3)
        spans.append(PhiSpan(out_len, out_len + len(surface), label, surface, norm))
        parts.append(surface)
        out_len += len(surface)
        pos = m.end()
    parts.append(marked[pos:])
    return Record(id=record_id, text="".join(parts), spans=spans, patient_id=patient_id)


def to_inline(record: Record) -> str:
    """The inverse of parse_inline for non-overlapping spans."""
    out = []
    pos = 0
    for span in sorted(record.spans, key=lambda s: (s.start, s.end)):
        out.append(record.text[pos:span.start])
        norm = f"={span.norm}" if span.norm else ""
        out.append(f"«{span.text}|{span.label}{norm}»")
        pos = span.end
    out.append(record.text[pos:])
    return "".join(out)
