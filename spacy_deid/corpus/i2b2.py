"""i2b2 2014 de-identification XML: `<deIdi2b2><TEXT><![CDATA[...]]></TEXT><TAGS>...</TAGS></deIdi2b2>`.

Each tag under <TAGS> is one span: `<NAME id="P0" start="16" end="26" text="..." TYPE="PATIENT" .../>`.
The tag name is the i2b2 category; the label read is the TYPE attribute (the tag name when TYPE is
absent), so `resources/labelmaps/i2b2_2014.json` maps TYPEs. Offsets are code points into TEXT.
One file is one record; the record id is the file stem, and in i2b2's `<patient>-<note>.xml` naming
(e.g. `220-01`) the patient id is the part before the dash, unless the root element carries a
`patient_id` attribute (which the writer adds; i2b2 tools ignore it).
Written files use our category as the tag name and our label as TYPE. Text goes in CDATA; a carriage
return (which any XML parser would turn into a newline) is written as `&#13;` between CDATA sections.
"""
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from ..labels import CATEGORY_OF, LABELS
from .atomic import atomic_open
from .brat import file_stem_for
from .reading import ErrorList, check_record, guarded
from .records import CorpusError, PhiSpan, Record

PathLike = Union[str, Path]
_I2B2_NAME_RE = re.compile(r"(\d+)-\d+")
# Characters XML 1.0 cannot carry at all (not even as references).
_XML_INVALID_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def parse_i2b2(data: bytes, *, record_id: str, source: Optional[str] = None) -> Record:
    """One i2b2 XML document (bytes) to an unchecked Record."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        # Entity definitions are how XML bombs work; i2b2 files never declare any.
        raise CorpusError("XML with a DOCTYPE or ENTITY declaration is refused", record_id=record_id, source=source)
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        line, col = err.position
        raise CorpusError(f"malformed XML (column {col})", record_id=record_id, line=line, source=source) from None
    text_el = root.find("TEXT")
    if text_el is None:
        raise CorpusError("no <TEXT> element", record_id=record_id, source=source)
    text = text_el.text or ""
    spans = []
    tags = root.find("TAGS")
    for i, tag in enumerate(list(tags) if tags is not None else []):
        label = tag.get("TYPE") or tag.tag
        try:
            start, end = int(tag.get("start", "")), int(tag.get("end", ""))
        except ValueError:
            raise CorpusError(f"tag {i} ({tag.get('id') or tag.tag}) has no integer start/end",
                              record_id=record_id, source=source) from None
        surface = tag.get("text")
        if surface is None:
            surface = text[start:end] if 0 <= start < end <= len(text) else ""
        spans.append(PhiSpan(start, end, label, surface, tag.get("norm") or None))
    m = _I2B2_NAME_RE.fullmatch(record_id)
    patient_id = root.get("patient_id") or (m.group(1) if m else None)
    return Record(id=record_id, text=text, spans=sorted(spans, key=lambda s: (s.start, s.end, s.label)),
                  patient_id=patient_id)


def read_i2b2_file(path: Path, *, label_map=None, known_labels: Optional[frozenset] = LABELS) -> Record:
    source = str(path)
    record = parse_i2b2(path.read_bytes(), record_id=path.stem, source=source)
    return check_record(record, source=source, label_map=label_map, known_labels=known_labels)


def read_i2b2(path: PathLike, *, errors: ErrorList = None, label_map=None,
              known_labels: Optional[frozenset] = LABELS) -> Iterator[Record]:
    """Stream Records from a folder of i2b2 XML files (sorted by name) or one file.

    i2b2 labels are not this scheme's: pass `label_map=load_label_map("i2b2_2014")`, or
    `known_labels=None` to keep them as they are.
    """
    path = Path(path)
    files = sorted(path.glob("*.xml")) if path.is_dir() else [path]
    return guarded(files, lambda f: read_i2b2_file(f, label_map=label_map, known_labels=known_labels), errors)


def _attr(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;"))


def _cdata(text: str) -> str:
    out = []
    for i, part in enumerate(text.split("\r")):
        if i:
            out.append("&#13;")
        if part:
            out.append("<![CDATA[" + part.replace("]]>", "]]]]><![CDATA[>") + "]]>")
    return "".join(out)


def to_i2b2_xml(record: Record) -> str:
    """The i2b2 2014 XML of one record."""
    if _XML_INVALID_RE.search(record.text):
        raise CorpusError("text holds control characters that XML 1.0 cannot represent", record_id=record.id)
    root = f'<deIdi2b2 patient_id="{_attr(record.patient_id)}">' if record.patient_id is not None else "<deIdi2b2>"
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', root, f"<TEXT>{_cdata(record.text)}</TEXT>", "<TAGS>"]
    for i, span in enumerate(sorted(record.spans, key=lambda s: (s.start, s.end, s.label))):
        tag = CATEGORY_OF.get(span.label, "PHI")
        norm = f' norm="{_attr(span.norm)}"' if span.norm else ""
        lines.append(f'<{tag} id="P{i}" start="{span.start}" end="{span.end}" text="{_attr(span.text)}" '
                     f'TYPE="{_attr(span.label)}" comment=""{norm} />')
    lines += ["</TAGS>", "</deIdi2b2>", ""]
    return "\n".join(lines)


def write_i2b2(records: Iterable[Record], folder: PathLike) -> int:
    """Write `<id>.xml` per record, each atomically; returns records written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for record in records:
        xml = to_i2b2_xml(record)
        with atomic_open(folder / f"{file_stem_for(record)}.xml", newline="") as fh:
            fh.write(xml)
        count += 1
    return count
