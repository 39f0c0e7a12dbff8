"""Label maps: another corpus's label names → this project's subcategories (annotation.md).

A map is a data file (`resources/labelmaps/<name>.json`, or any JSON file of the same shape):

    {"name": "...", "source": "...", "description": "...",
     "map": {"THEIR_LABEL": "OUR_LABEL" | null, ...},
     "notes": {"THEIR_LABEL": "why this mapping, or why null", ...}}

`null` means the label has no PHI counterpart in this scheme (money, lab values, kinship terms):
spans with it are dropped and counted in `report.ignored`, never silently. A label that the map does
not list at all is an *unmapped* label: by default a CorpusError naming the record and the label (a
label name is not PHI), so a corpus revision that adds a type is noticed; `unmapped="ignore"` drops
and counts them instead, `unmapped="keep"` passes them through unchanged.
"""
import json
from collections import Counter
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ..labels import LABELS
from .records import CorpusError, Record

UNMAPPED_POLICIES = ("error", "ignore", "keep")
_KEYS = {"name", "source", "description", "map", "notes"}


@dataclass
class LabelMapReport:
    """Span counts per original label: mapped, ignored (mapped to null) and unmapped."""

    mapped: Counter = field(default_factory=Counter)
    ignored: Counter = field(default_factory=Counter)
    unmapped: Counter = field(default_factory=Counter)

    def to_dict(self) -> Dict[str, Dict[str, int]]:
        return {k: dict(sorted(getattr(self, k).items())) for k in ("mapped", "ignored", "unmapped")}


@dataclass
class LabelMap:
    name: str
    mapping: Dict[str, Optional[str]]
    description: str = ""
    source: str = ""
    notes: Dict[str, str] = field(default_factory=dict)
    unmapped: str = "error"
    report: LabelMapReport = field(default_factory=LabelMapReport)

    def __post_init__(self) -> None:
        if self.unmapped not in UNMAPPED_POLICIES:
            raise ValueError(f"unmapped must be one of {UNMAPPED_POLICIES}, not {self.unmapped!r}")
        bad = sorted(f"{k}->{v}" for k, v in self.mapping.items() if v is not None and v not in LABELS)
        if bad:
            raise ValueError(f"label map {self.name!r} maps to labels outside the scheme: {bad}; "
                             f"known labels: {sorted(LABELS)}")

    @property
    def ignored_labels(self) -> List[str]:
        return sorted(k for k, v in self.mapping.items() if v is None)

    def map_label(self, label: str) -> Optional[str]:
        """The target label, None when ignored; KeyError when the map does not list `label`."""
        return self.mapping[label]

    def apply(self, record: Record, *, line: Optional[int] = None, source: Optional[str] = None) -> Record:
        """A copy of `record` with mapped labels; spans mapped to null are dropped and counted."""
        missing = sorted({s.label for s in record.spans if s.label not in self.mapping})
        if missing and self.unmapped == "error":
            raise CorpusError(f"label(s) {missing} not in label map {self.name!r} (map them, or to null "
                              f"to ignore them)", record_id=record.id, line=line, source=source)
        spans = []
        for span in record.spans:
            if span.label not in self.mapping:
                self.report.unmapped[span.label] += 1
                if self.unmapped == "keep":
                    spans.append(span)
                continue
            target = self.mapping[span.label]
            if target is None:
                self.report.ignored[span.label] += 1
                continue
            self.report.mapped[span.label] += 1
            spans.append(replace(span, label=target))
        return replace(record, spans=spans)

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "source": self.source, "description": self.description,
                "map": dict(self.mapping), "notes": dict(self.notes)}

    @classmethod
    def from_dict(cls, data: Dict[str, Any], *, unmapped: str = "error", where: str = "label map") -> "LabelMap":
        if not isinstance(data, dict) or not isinstance(data.get("map"), dict):
            raise ValueError(f"{where}: expected a JSON object with a 'map' object")
        extra = sorted(set(data) - _KEYS)
        if extra:
            raise ValueError(f"{where}: unknown keys {extra}; allowed keys: {sorted(_KEYS)}")
        mapping = {}
        for key, value in data["map"].items():
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{where}: target of {key!r} must be a label string or null")
            mapping[str(key)] = value
        return cls(name=str(data.get("name") or where), mapping=mapping,
                   description=str(data.get("description") or ""), source=str(data.get("source") or ""),
                   notes={str(k): str(v) for k, v in (data.get("notes") or {}).items()}, unmapped=unmapped)


def available_label_maps() -> List[str]:
    """Names of the label maps shipped with the package."""
    folder = resources.files("spacy_deid") / "resources" / "labelmaps"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_label_map(name_or_path: Union[str, Path], *, unmapped: str = "error") -> LabelMap:
    """A shipped map by name (`i2b2_2014`, `aicup2020`, ...) or a JSON file of the same shape."""
    path = Path(name_or_path)
    if path.suffix == ".json" and path.is_file():
        text, where = path.read_text(encoding="utf-8"), str(path)
    else:
        name = str(name_or_path)
        if name not in available_label_maps():
            raise ValueError(f"no label map {name!r}: give a JSON file or one of {available_label_maps()}")
        res = resources.files("spacy_deid") / "resources" / "labelmaps" / f"{name}.json"
        text, where = res.read_text(encoding="utf-8"), f"label map {name!r}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{where}: invalid JSON at line {err.lineno}") from None
    return LabelMap.from_dict(data, unmapped=unmapped, where=where)
