"""Principles as editable JSON: one object per principle, the file a knowledge engineer reads, edits and
reviews, and the form in which a pipeline saves them (`deid/principles.json`).

A principle: `left` (the literal words right before the PHI, "" for none), `shape` (`shapes.py`),
`right` (the literal words right after, "" for none), `label` (the subcategory it yields), `support`
(gold spans of the learning corpus it finds), `precision` (share of its matches there that are gold
spans of its label) and `status` (`candidate`, `accepted` or `rejected`; only accepted ones run).
"""
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, List, Union

from ..labels import LABELS
from .shapes import _SHAPE_PART

STATUSES = ("candidate", "accepted", "rejected")


class PrincipleError(ValueError):
    """A principle file that cannot be read; names the file and the principle's index."""


@dataclass
class Principle:
    left: str
    shape: str
    right: str
    label: str
    support: int = 0
    precision: float = 0.0
    status: str = "candidate"

    @property
    def key(self):
        return (self.left, self.shape, self.right, self.label)

    def readable(self) -> str:
        """`配偶: [S1+G] -> FAMILY`: the slot sequence as a person reads it."""
        return f"{self.left}[{self.shape}]{self.right} -> {self.label}"

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Principle":
        fields = {k: data[k] for k in ("left", "shape", "right", "label") if k in data}
        if len(fields) != 4 or not all(isinstance(v, str) for v in fields.values()):
            raise PrincipleError("a principle needs string fields left, shape, right and label")
        if fields["label"] not in LABELS:
            raise PrincipleError(f"unknown label {fields['label']!r}")
        if not fields["shape"] or not (fields["left"] or fields["right"]):
            raise PrincipleError("a principle needs a shape and a left or right context")
        status = data.get("status", "candidate")
        if status not in STATUSES:
            raise PrincipleError(f"status must be one of {', '.join(STATUSES)}")
        if not _SHAPE_PART.search(fields["shape"]):
            raise PrincipleError("the shape holds no Han, Latin or digit slot")
        return cls(**fields, support=int(data.get("support", 0)), precision=float(data.get("precision", 0.0)),
                   status=status)

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


def read_principles(path: Union[str, Path]) -> List[Principle]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise PrincipleError(f"{path}: cannot read principles ({type(err).__name__})") from None
    if not isinstance(data, list):
        raise PrincipleError(f"{path}: principles are a JSON list")
    out = []
    for i, item in enumerate(data):
        try:
            out.append(Principle.from_dict(item if isinstance(item, dict) else {}))
        except PrincipleError as err:
            raise PrincipleError(f"{path}: principle {i}: {err}") from None
    return out


def write_principles(principles: Iterable[Principle], path: Union[str, Path]) -> None:
    text = json.dumps([p.to_dict() for p in principles], ensure_ascii=False, indent=1)
    Path(path).write_text(text + "\n", encoding="utf8")
