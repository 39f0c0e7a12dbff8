"""The in-memory form of the annotation corpus format (docs/annotation.md): one Record per note.

Every reader produces Records and every writer consumes them, so offset checks live in one place.
Errors name the record id and line, never the text: a corpus is PHI.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..dates.formats import parse_value
from ..labels import LABELS


# Keys of a JSONL line that are Record fields; every other key is kept in `Record.meta`.
RESERVED_KEYS = frozenset({"id", "text", "spans", "patient_id"})


class CorpusError(ValueError):
    """A record that cannot be read or is inconsistent; the message names where, never what."""

    def __init__(self, message: str, *, record_id: Optional[str] = None, line: Optional[int] = None,
                 source: Optional[str] = None):
        where = []
        if source:
            where.append(str(source))
        if line is not None:
            where.append(f"line {line}")
        if record_id is not None:
            where.append(f"record {record_id!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.record_id = record_id
        self.line = line
        self.source = source


@dataclass(frozen=True)
class PhiSpan:
    start: int
    end: int
    label: str
    text: str
    norm: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"start": self.start, "end": self.end, "label": self.label, "text": self.text}
        if self.norm is not None:
            data["norm"] = self.norm
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "PhiSpan":
        start, end = data["start"], data["end"]
        # 1.5 or true would pass int(); an offset that is not an integer is a broken record.
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            raise TypeError("span offsets must be integers")
        return cls(start, end, str(data["label"]), str(data["text"]), data.get("norm"))


@dataclass
class Record:
    id: str
    text: str
    spans: List[PhiSpan] = field(default_factory=list)
    patient_id: Optional[str] = None
    meta: Dict[str, Any] = field(default_factory=dict)

    def validate(self, *, line: Optional[int] = None, source: Optional[str] = None,
                 known_labels: Optional[frozenset] = LABELS) -> None:
        """Check offsets (`text[start:end] == span.text`), labels and date norms (a real calendar date in
        annotation.md's form: `2021-02-30` is none); raise CorpusError naming the record."""
        n = len(self.text)
        for i, span in enumerate(self.spans):
            if not (0 <= span.start < span.end <= n):
                raise CorpusError(f"span {i} has offsets [{span.start}, {span.end}) outside the text "
                                  f"(length {n})", record_id=self.id, line=line, source=source)
            if self.text[span.start:span.end] != span.text:
                raise CorpusError(f"span {i} [{span.start}, {span.end}) does not match its text",
                                  record_id=self.id, line=line, source=source)
            if known_labels is not None and span.label not in known_labels:
                raise CorpusError(f"span {i} has unknown label {span.label!r}",
                                  record_id=self.id, line=line, source=source)
            if span.norm is not None:
                try:
                    parse_value(span.norm)
                except (TypeError, ValueError) as err:  # the value is a date of the note: not in the message
                    raise CorpusError(f"span {i} [{span.start}, {span.end}) has a norm that is {err}",
                                      record_id=self.id, line=line, source=source) from None

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"id": self.id}
        if self.patient_id is not None:
            data["patient_id"] = self.patient_id
        data["text"] = self.text
        data["spans"] = [s.to_dict() for s in self.spans]
        # `meta` holds every other top-level key of the JSONL line (from_dict), so it is written back
        # at the top level: a read/write round trip keeps a line's keys where they were.
        for key, value in self.meta.items():
            if key not in RESERVED_KEYS:
                data[key] = value
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any], *, line: Optional[int] = None,
                  source: Optional[str] = None) -> "Record":
        if not isinstance(data, dict):
            raise CorpusError("record is not a JSON object", line=line, source=source)
        rid = data.get("id")
        rid = str(rid) if rid is not None else (f"line-{line}" if line is not None else None)
        text = data.get("text")
        if not isinstance(text, str):
            raise CorpusError("record has no 'text' string", record_id=rid, line=line, source=source)
        try:
            spans = [PhiSpan.from_dict(s) for s in data.get("spans") or []]
        except (KeyError, TypeError, ValueError) as err:
            raise CorpusError(f"malformed span ({type(err).__name__})", record_id=rid, line=line,
                              source=source) from None
        pid = data.get("patient_id")
        meta = {k: v for k, v in data.items() if k not in RESERVED_KEYS}
        return cls(id=rid or "", text=text, spans=spans, patient_id=str(pid) if pid is not None else None,
                   meta=meta)
