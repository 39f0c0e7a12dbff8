"""Leak rate: the share of gold PHI spans whose original text survives in de-identified output.

Input per note: the gold Record and the output's `deid_text` and `replacements` (dicts with `start`,
`end` (original offsets), `out_start`, `out_end`, `surrogate`, `label`), as written by
`deid_surrogates`. The replacements say where every output character came from, so leaks are judged
by position, not by searching the whole output (a searched "1" or "周" would be found everywhere).

A gold span **leaks** when either
- one of its letters, digits or Han characters is covered by no replacement (it was copied through:
  `Chang Shu-Hua` with only `Chang` replaced leaks `Shu-Hua`); spaces and punctuation alone do not
  count, or
- its whole text (case-folded, whitespace collapsed) appears in the output that stands in its place
  (the surrogates that replaced it plus any copied-through characters): a surrogate equal to, or
  containing, the original.
It leaks **fully** when the second holds: the complete original is readable in its place.
Replacement records that do not describe the output (overlapping, offsets out of range,
`deid_text[out_start:out_end] != surrogate`, or copied-through text that differs from the original)
are a CorpusError naming the record: a leak rate computed from them would mean nothing.
"""
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..corpus.records import CorpusError, PhiSpan, Record


@dataclass
class LeakCounts:
    spans: int = 0
    leaked: int = 0
    full: int = 0

    def add(self, leaked: bool, full: bool) -> None:
        self.spans += 1
        self.leaked += int(leaked)
        self.full += int(full)

    def to_dict(self) -> Dict[str, Any]:
        return {"spans": self.spans, "leaked": self.leaked, "full": self.full,
                "rate": self.leaked / self.spans if self.spans else None,
                "full_rate": self.full / self.spans if self.spans else None}


@dataclass
class LeakReport:
    total: LeakCounts = field(default_factory=LeakCounts)
    per_type: Dict[str, LeakCounts] = field(default_factory=dict)

    def add(self, label: str, leaked: bool, full: bool) -> None:
        self.total.add(leaked, full)
        self.per_type.setdefault(label, LeakCounts()).add(leaked, full)

    def scores(self) -> Dict[str, Any]:
        t = self.total.to_dict()
        return {"deid_leak_rate": t["rate"], "deid_leak_full_rate": t["full_rate"],
                "deid_leak_spans": t["spans"], "deid_leak_leaked": t["leaked"],
                "deid_leak_per_type": {k: self.per_type[k].to_dict() for k in sorted(self.per_type)}}


Repl = Tuple[int, int, int, int, str]


def _checked_replacements(record_id: str, text: str, deid_text: str, replacements: Sequence[Any]) -> List[Repl]:
    def fail(msg: str) -> CorpusError:
        return CorpusError(f"replacement records do not describe deid_text: {msg}", record_id=record_id)

    out: List[Repl] = []
    for i, r in enumerate(replacements):
        try:
            item = (int(r["start"]), int(r["end"]), int(r["out_start"]), int(r["out_end"]), str(r["surrogate"]))
        except (KeyError, TypeError, ValueError):
            raise fail(f"replacement {i} lacks integer start/end/out_start/out_end or a surrogate") from None
        out.append(item)
    out.sort()
    prev_end = prev_out_end = 0
    for i, (s, e, os_, oe, sur) in enumerate(out):
        if not (prev_end <= s <= e <= len(text)) or not (prev_out_end <= os_ <= oe <= len(deid_text)):
            raise fail(f"replacement {i} overlaps another or lies outside the text")
        if deid_text[os_:oe] != sur:
            raise fail(f"replacement {i}: deid_text[out_start:out_end] != surrogate")
        if text[prev_end:s] != deid_text[prev_out_end:os_]:
            raise fail(f"text before replacement {i} was not copied through unchanged")
        prev_end, prev_out_end = e, oe
    if text[prev_end:] != deid_text[prev_out_end:]:
        raise fail("text after the last replacement was not copied through unchanged")
    return out


def _norm(value: str) -> str:
    return " ".join(value.casefold().split())


def span_leak(span: PhiSpan, text: str, repls: List[Repl], starts: List[int]) -> Tuple[bool, bool]:
    """(leaked, fully leaked) for one gold span against checked, sorted replacements."""
    region: List[str] = []
    copied_alnum = False
    pos = span.start
    k = max(bisect_right(starts, span.start) - 1, 0)
    while k < len(repls) and repls[k][0] < span.end:
        s, e, _, _, sur = repls[k]
        if e > span.start and e > s:  # covers part of the span (insertions cover nothing)
            if s > pos:
                gap = text[pos:s]
                copied_alnum = copied_alnum or any(c.isalnum() for c in gap)
                region.append(gap)
            region.append(sur)
            pos = max(pos, e)
        k += 1
    if pos < span.end:
        gap = text[pos:span.end]
        copied_alnum = copied_alnum or any(c.isalnum() for c in gap)
        region.append(gap)
    original = _norm(span.text)
    full = bool(original) and original in _norm("".join(region))
    return copied_alnum or full, full


def record_leaks(gold: Record, output: Record, report: Optional[LeakReport] = None) -> LeakReport:
    """Add one note's gold spans to `report`; `output.meta` must hold `deid_text` and `replacements`."""
    report = report if report is not None else LeakReport()
    deid_text = output.meta.get("deid_text")
    if not isinstance(deid_text, str):
        raise CorpusError("output record has no 'deid_text' string", record_id=output.id)
    repls = _checked_replacements(gold.id, gold.text, deid_text, output.meta.get("replacements") or [])
    starts = [r[0] for r in repls]
    for span in gold.spans:
        leaked, full = span_leak(span, gold.text, repls, starts)
        report.add(span.label, leaked, full)
    return report
