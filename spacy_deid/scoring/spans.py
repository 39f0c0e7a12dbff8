"""Entity scores: strict (exact span and label) and relaxed (any overlap, same label).

Spans are compared as sets of (start, end, label) per document, like spaCy's Scorer.score_spans,
but on character offsets: gold and prediction may come from different tokenizers, and a boundary
error of one character is an error in de-identification. Both sides are deduplicated.
"""
from bisect import bisect_left
from collections import defaultdict
from itertools import accumulate
from typing import Callable, Dict, Iterable, List, Sequence, Set, Tuple

from ..corpus.records import PhiSpan
from .prf import PRF, RelaxedPRF

Key = Tuple[int, int, str]
LabelFn = Callable[[str], str]


def _keys(spans: Iterable[PhiSpan], label_fn: LabelFn) -> Set[Key]:
    return {(s.start, s.end, label_fn(s.label)) for s in spans}


def strict_counts(gold: Iterable[PhiSpan], pred: Iterable[PhiSpan], per_type: Dict[str, PRF],
                  label_fn: LabelFn = str) -> PRF:
    """Add one document's exact-match counts to `per_type`; return the document's overall counts."""
    g, p = _keys(gold, label_fn), _keys(pred, label_fn)
    for key in g | p:
        score = per_type.setdefault(key[2], PRF())
        if key in g and key in p:
            score.tp += 1
        elif key in p:
            score.fp += 1
        else:
            score.fn += 1
    both = len(g & p)
    return PRF(both, len(p) - both, len(g) - both)


class _Intervals:
    """Sorted intervals answering "does [s, e) overlap any of them?" in O(log n)."""

    def __init__(self, spans: Sequence[Tuple[int, int]]):
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.max_end = list(accumulate((e for _, e in ordered), max))

    def overlaps(self, start: int, end: int) -> bool:
        # Intervals with start < end are candidates; the furthest-reaching of them decides.
        k = bisect_left(self.starts, end)
        return k > 0 and self.max_end[k - 1] > start


def relaxed_counts(gold: Iterable[PhiSpan], pred: Iterable[PhiSpan], per_type: Dict[str, RelaxedPRF],
                   label_fn: LabelFn = str) -> RelaxedPRF:
    """Overlap match with the same label: a prediction counts for precision when it overlaps a gold
    span of its label; a gold span counts for recall when a prediction of its label overlaps it."""
    by_label: Dict[str, Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]] = defaultdict(lambda: ([], []))
    for s, e, label in _keys(gold, label_fn):
        by_label[label][0].append((s, e))
    for s, e, label in _keys(pred, label_fn):
        by_label[label][1].append((s, e))
    doc = RelaxedPRF()
    for label in sorted(by_label):
        g, p = by_label[label]
        gi, pi = _Intervals(g), _Intervals(p)
        score = RelaxedPRF(pred=len(p), gold=len(g),
                           pred_matched=sum(gi.overlaps(s, e) for s, e in p),
                           gold_matched=sum(pi.overlaps(s, e) for s, e in g))
        per_type.setdefault(label, RelaxedPRF()).__iadd__(score)
        doc += score
    return doc
