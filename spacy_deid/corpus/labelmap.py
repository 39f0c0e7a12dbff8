"""Label maps: another corpus's label names → this project's subcategories (annotation.md).

A map is a data file (`resources/labelmaps/<name>.json`, or any JSON file of the same shape):

    {"name": "...", "source": "...", "description": "...",
     "map": {"THEIR_LABEL": "OUR_LABEL" | null, ...},
     "notes": {"THEIR_LABEL": "why this mapping, or why null", ...}}

`titles_inside` (optional) lists their labels whose spans hold the title said after a Chinese name
(`[林醫師]`), where annotation.md keeps it outside (`[林]醫師`). Loaded with `scheme_spans=True`, such a
span loses that title (the scheme's own title lists, `titles.json`), so a score counts what this scheme
asks a model to find; counted in `report.trimmed`. Off by default: a corpus is scored as written.

`null` means the label has no PHI counterpart in this scheme (money, lab values, kinship terms):
spans with it are dropped and counted in `report.ignored`, never silently. A label that the map does
not list at all is an *unmapped* label: by default a CorpusError naming the record and the label (a
label name is not PHI), so a corpus revision that adds a type is noticed; `unmapped="ignore"` drops
and counts them instead, `unmapped="keep"` passes them through unchanged.
"""
import json
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

from ..labels import LABELS
from ..wordlists import default_word_lists
from ..wordlists.titles_zh import titles_after_name
from .records import CorpusError, PhiSpan, Record

UNMAPPED_POLICIES = ("error", "ignore", "keep")
_KEYS = {"name", "source", "description", "map", "notes", "titles_inside"}


@dataclass
class LabelMapReport:
    """Span counts per original label: mapped, ignored (mapped to null), unmapped, and titles trimmed."""

    mapped: Counter = field(default_factory=Counter)
    ignored: Counter = field(default_factory=Counter)
    unmapped: Counter = field(default_factory=Counter)
    trimmed: Counter = field(default_factory=Counter)

    def to_dict(self) -> Dict[str, Dict[str, int]]:
        return {k: dict(sorted(getattr(self, k).items())) for k in ("mapped", "ignored", "unmapped", "trimmed")}


@dataclass
class LabelMap:
    name: str
    mapping: Dict[str, Optional[str]]
    description: str = ""
    source: str = ""
    notes: Dict[str, str] = field(default_factory=dict)
    unmapped: str = "error"
    titles_inside: Tuple[str, ...] = ()
    scheme_spans: bool = False
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
            if self.scheme_spans and span.label in self.titles_inside:
                span = self._without_title(span)
            spans.append(replace(span, label=target))
        return replace(record, spans=spans)

    def _without_title(self, span: PhiSpan) -> PhiSpan:
        """`林醫師` -> `林`; a span that is a title alone, or holds none at its end, is kept."""
        for title in _titles():
            if len(span.text) > len(title) and span.text.endswith(title):
                self.report.trimmed[span.label] += 1
                return replace(span, end=span.end - len(title), text=span.text[:-len(title)])
        return span

    def to_dict(self) -> Dict[str, Any]:
        data = {"name": self.name, "source": self.source, "description": self.description,
                "map": dict(self.mapping), "notes": dict(self.notes)}
        if self.titles_inside:
            data["titles_inside"] = list(self.titles_inside)
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any], *, unmapped: str = "error", where: str = "label map",
                  scheme_spans: bool = False) -> "LabelMap":
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
        titles = data.get("titles_inside") or []
        if not isinstance(titles, list) or not all(t in mapping for t in titles):
            raise ValueError(f"{where}: titles_inside must list labels of its map")
        return cls(name=str(data.get("name") or where), mapping=mapping,
                   description=str(data.get("description") or ""), source=str(data.get("source") or ""),
                   notes={str(k): str(v) for k, v in (data.get("notes") or {}).items()}, unmapped=unmapped,
                   titles_inside=tuple(titles), scheme_spans=scheme_spans)


@lru_cache(maxsize=1)
def _titles() -> Tuple[str, ...]:
    return titles_after_name(default_word_lists())  # longest first: 主治醫師 before 醫師


def available_label_maps() -> List[str]:
    """Names of the label maps shipped with the package."""
    folder = resources.files("spacy_deid") / "resources" / "labelmaps"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_label_map(name_or_path: Union[str, Path], *, unmapped: str = "error", scheme_spans: bool = False) -> LabelMap:
    """A shipped map by name (`i2b2_2014`, `aicup2020`, ...) or a JSON file of the same shape; `scheme_spans`
    trims the titles of its `titles_inside` labels."""
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
    return LabelMap.from_dict(data, unmapped=unmapped, where=where, scheme_spans=scheme_spans)
