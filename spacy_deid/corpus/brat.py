"""BRAT standoff: a folder of `<id>.txt` (the text, byte for byte) and `<id>.ann` (annotations).

Read: text-bound annotations `T<n>\\tLABEL START END[;START END...]\\tTEXT`; AnnotatorNotes
`#<n>\\tAnnotatorNotes T<n>\\tnorm=<value>` carry a DATE's `norm`. Relations, events, attributes and
normalizations (R, E, A, M, N, *) are not PHI spans and are skipped. A discontinuous annotation whose
gaps are whitespace only (BRAT's way to annotate across a line break) becomes one span; otherwise each
fragment becomes a span of its own, since each fragment is PHI.
Write: one annotation per span; a span across line breaks is written as fragments split at the breaks
(BRAT cannot show a newline inside an annotation), which the reader joins again.
Records are one per file pair, so a bad .ann costs that record only (in collecting mode).
"""
import re
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple, Union

from ..han import HAN_RANGES
from ..labels import LABELS
from .atomic import atomic_open
from .reading import ErrorList, check_record, guarded
from .records import CorpusError, PhiSpan, Record

PathLike = Union[str, Path]
_SAFE_ID_RE = re.compile(f"[A-Za-z0-9_\\-{HAN_RANGES}][A-Za-z0-9_.\\-{HAN_RANGES}]{{0,199}}")
_OFFSETS_RE = re.compile(r"\d+ \d+(?:;\d+ \d+)*")
_LINEBREAK_RE = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x1c-\x1e\x85]+")
_SKIPPED = ("R", "E", "A", "M", "N", "*")


def file_stem_for(record: Record) -> str:
    """The record id as a file name; ids that are not safe file names are refused, not rewritten,
    because a rewritten id would no longer match the gold on evaluation."""
    if not _SAFE_ID_RE.fullmatch(record.id or "") or record.id in (".", ".."):
        raise CorpusError("record id is not usable as a file name (letters, digits, '_', '-', '.')",
                          record_id=record.id)
    return record.id


def _parse_ann(ann: str, text: str, record_id: str, source: str) -> List[PhiSpan]:
    spans: List[Tuple[str, PhiSpan]] = []
    notes = {}
    for number, line in enumerate(ann.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            continue

        def fail(msg: str) -> CorpusError:
            return CorpusError(msg, record_id=record_id, line=number, source=source)

        if line.startswith("T"):
            parts = line.split("\t", 2)
            if len(parts) != 3:
                raise fail("text-bound annotation needs 3 tab-separated fields")
            ann_id, type_offsets, surface = parts
            label, _, offsets = type_offsets.partition(" ")
            if not label or not _OFFSETS_RE.fullmatch(offsets):
                raise fail("malformed 'LABEL START END[;START END]' field")
            frags = [tuple(int(x) for x in frag.split(" ")) for frag in offsets.split(";")]
            for start, end in frags:
                if not (0 <= start < end <= len(text)):
                    raise fail(f"offsets [{start}, {end}) outside the text (length {len(text)})")
            if " ".join(text[s:e] for s, e in frags) != surface:
                raise fail(f"annotation {ann_id} text does not match the .txt at its offsets")
            for start, end in _join_fragments(frags, text):
                spans.append((ann_id, PhiSpan(start, end, label, text[start:end])))
        elif line.startswith("#"):
            parts = line.split("\t", 2)
            if len(parts) == 3 and parts[1].startswith("AnnotatorNotes ") and parts[2].startswith("norm="):
                notes[parts[1].split(" ", 1)[1]] = parts[2][len("norm="):]
        elif not line.startswith(_SKIPPED):
            raise fail("unknown annotation line type (expected T, #, R, E, A, M, N or *)")
    out = []
    for ann_id, span in spans:
        norm = notes.get(ann_id)
        out.append(PhiSpan(span.start, span.end, span.label, span.text, norm) if norm else span)
    return sorted(out, key=lambda s: (s.start, s.end, s.label))


def _join_fragments(frags: List[Tuple[int, int]], text: str) -> List[Tuple[int, int]]:
    """Fragments separated by whitespace only are one span; other gaps keep fragments apart."""
    merged: List[Tuple[int, int]] = []
    for start, end in sorted(frags):
        if merged and merged[-1][1] <= start and not text[merged[-1][1]:start].strip():
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _pairs(path: Path) -> Iterator[Tuple[Path, Path]]:
    if path.is_dir():
        for txt in sorted(path.glob("*.txt")):
            yield txt, txt.with_suffix(".ann")
    else:
        yield path.with_suffix(".txt"), path.with_suffix(".ann")


def read_brat_pair(txt: Path, ann: Path, *, label_map=None,
                   known_labels: Optional[frozenset] = LABELS) -> Record:
    record_id = txt.stem
    source = str(ann)
    try:
        text = txt.read_bytes().decode("utf-8")
        ann_text = ann.read_bytes().decode("utf-8")
    except FileNotFoundError as err:
        raise CorpusError(f"missing file {Path(err.filename).name}", record_id=record_id, source=source) from None
    except UnicodeDecodeError as err:
        raise CorpusError(f"invalid UTF-8 at byte {err.start}", record_id=record_id, source=source) from None
    spans = _parse_ann(ann_text, text, record_id, source)
    record = Record(id=record_id, text=text, spans=spans)
    return check_record(record, source=source, label_map=label_map, known_labels=known_labels)


def read_brat(path: PathLike, *, errors: ErrorList = None, label_map=None,
              known_labels: Optional[frozenset] = LABELS) -> Iterator[Record]:
    """Stream Records from a BRAT folder (sorted by file name) or one .txt/.ann pair."""
    return guarded(_pairs(Path(path)),
                   lambda pair: read_brat_pair(pair[0], pair[1], label_map=label_map, known_labels=known_labels),
                   errors)


def _fragments(span: PhiSpan) -> List[Tuple[int, int]]:
    frags = []
    pos = span.start
    for m in _LINEBREAK_RE.finditer(span.text):
        if m.start() > 0:
            frags.append((pos, span.start + m.start()))
        pos = span.start + m.end()
    if pos < span.end:
        frags.append((pos, span.end))
    return frags


def ann_lines(record: Record) -> List[str]:
    lines = []
    note = 0
    for i, span in enumerate(sorted(record.spans, key=lambda s: (s.start, s.end, s.label)), start=1):
        frags = _fragments(span)
        if not frags or (frags[0][0], frags[-1][1]) != (span.start, span.end):
            raise CorpusError("span starts or ends with a line break; BRAT cannot represent it",
                              record_id=record.id)
        offsets = ";".join(f"{s} {e}" for s, e in frags)
        surface = " ".join(record.text[s:e] for s, e in frags)
        lines.append(f"T{i}\t{span.label} {offsets}\t{surface}")
        if span.norm:
            note += 1
            lines.append(f"#{note}\tAnnotatorNotes T{i}\tnorm={span.norm}")
    return lines


def write_brat(records: Iterable[Record], folder: PathLike) -> int:
    """Write `<id>.txt` and `<id>.ann` per record (each file atomically); returns records written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for record in records:
        stem = file_stem_for(record)
        lines = ann_lines(record)
        with atomic_open(folder / f"{stem}.txt", newline="") as fh:
            fh.write(record.text)
        with atomic_open(folder / f"{stem}.ann") as fh:
            fh.write("".join(line + "\n" for line in lines))
        count += 1
    return count
