"""Precision/recall/F1 counts, with spaCy's conventions so our numbers read like `nlp.evaluate`'s.

Conventions (those of spacy.scorer.PRFScore and Scorer.score_spans):
- P = tp / (tp + fp) and R = tp / (tp + fn) are 0.0 when their denominator is 0; F is 0.0 when P + R is 0.
  So gold spans but no predictions give P = R = F = 0, and predictions but no gold give P = R = F = 0.
- With no gold and no predicted spans at all, the micro scores are None (undefined), not 0 or 1.
- `*_per_type` lists exactly the labels seen in gold or prediction.
- Macro scores are the unweighted means of the per-type P, R and F (macro F is the mean of the
  per-type F, not the F of the macro P and R); None when no label is seen.
"""
from dataclasses import dataclass
from typing import Dict, Iterable, Optional


@dataclass
class PRF:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __len__(self) -> int:
        return self.tp + self.fp + self.fn

    def __iadd__(self, other: "PRF") -> "PRF":
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        return self

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def fscore(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> Dict[str, float]:
        return {"p": self.precision, "r": self.recall, "f": self.fscore}


@dataclass
class RelaxedPRF:
    """Overlap match: precision and recall count different things (matched predictions vs. matched
    gold spans), so they are kept apart instead of forced into one tp."""

    pred: int = 0
    pred_matched: int = 0
    gold: int = 0
    gold_matched: int = 0

    def __len__(self) -> int:
        return self.pred + self.gold

    def __iadd__(self, other: "RelaxedPRF") -> "RelaxedPRF":
        self.pred += other.pred
        self.pred_matched += other.pred_matched
        self.gold += other.gold
        self.gold_matched += other.gold_matched
        return self

    @property
    def precision(self) -> float:
        return self.pred_matched / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return self.gold_matched / self.gold if self.gold else 0.0

    @property
    def fscore(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> Dict[str, float]:
        return {"p": self.precision, "r": self.recall, "f": self.fscore}


def micro(prefix: str, score, *, per_type: Optional[Dict[str, object]] = None) -> Dict[str, object]:
    """`{prefix}_p/_r/_f` (+ `_per_type`), None throughout when nothing was annotated or predicted."""
    out: Dict[str, object] = {f"{prefix}_p": None, f"{prefix}_r": None, f"{prefix}_f": None}
    if per_type is not None:
        out[f"{prefix}_per_type"] = None
    if len(score) > 0:
        out.update({f"{prefix}_p": score.precision, f"{prefix}_r": score.recall, f"{prefix}_f": score.fscore})
        if per_type is not None:
            out[f"{prefix}_per_type"] = {k: per_type[k].to_dict() for k in sorted(per_type)}
    return out


def macro(prefix: str, per_type: Dict[str, object]) -> Dict[str, Optional[float]]:
    scores = [per_type[k] for k in sorted(per_type) if len(per_type[k]) > 0]
    if not scores:
        return {f"{prefix}_p": None, f"{prefix}_r": None, f"{prefix}_f": None}
    n = len(scores)
    return {f"{prefix}_p": sum(s.precision for s in scores) / n,
            f"{prefix}_r": sum(s.recall for s in scores) / n,
            f"{prefix}_f": sum(s.fscore for s in scores) / n}


def total(scores: Iterable) -> PRF:
    out = PRF()
    for s in scores:
        out += s
    return out
