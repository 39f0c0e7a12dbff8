"""JSON Lines, the project's own corpus format (annotation.md): one Record per line.

Lines are read as bytes and decoded one by one, so invalid UTF-8 costs one record, not the file.
Blank lines are skipped. Writing is atomic: a temporary file in the target folder, then a rename.
"""
import json
from pathlib import Path
from typing import IO, Iterable, Iterator, Optional, Tuple, Union

from ..labels import LABELS
from .atomic import atomic_open
from .reading import ErrorList, check_record, guarded
from .records import CorpusError, Record

PathLike = Union[str, Path]


def _raw_lines(path: PathLike) -> Iterator[Tuple[int, bytes]]:
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            yield number, raw


def parse_line(raw: Union[bytes, str], *, line: Optional[int] = None, source: Optional[str] = None,
               label_map=None, known_labels: Optional[frozenset] = LABELS) -> Optional[Record]:
    """One JSONL line to a checked Record; None for a blank line; CorpusError naming the line otherwise."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise CorpusError(f"invalid UTF-8 at byte {err.start} of the line", line=line, source=source) from None
    if line == 1 and raw.startswith("\ufeff"):
        raw = raw[1:]  # a byte-order mark written by some Windows tools
    if not raw.strip():
        return None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        # err.msg names the syntax problem only; the line itself is never quoted (it is PHI).
        raise CorpusError(f"invalid JSON ({err.msg} at column {err.colno})", line=line, source=source) from None
    record = Record.from_dict(data, line=line, source=source)
    return check_record(record, line=line, source=source, label_map=label_map, known_labels=known_labels)


def read_jsonl(path: PathLike, *, errors: ErrorList = None, label_map=None,
               known_labels: Optional[frozenset] = LABELS) -> Iterator[Record]:
    """Stream Records from a JSONL file.

    errors: None = strict (the first bad line raises CorpusError); a list = bad lines are appended to
        it as CorpusErrors (naming the line and record id) and the other lines are still read.
    label_map: a LabelMap applied after the offset check (spans are checked in the corpus's labels).
    known_labels: labels allowed after mapping; None accepts any label (a foreign corpus, unmapped).
    """
    source = str(path)

    def parse(item: Tuple[int, bytes]) -> Optional[Record]:
        number, raw = item
        return parse_line(raw, line=number, source=source, label_map=label_map, known_labels=known_labels)

    yield from guarded(_raw_lines(path), parse, errors)


def dump_record(record: Record) -> str:
    """One JSONL line (no newline); non-ASCII kept as is so Chinese stays readable."""
    return json.dumps(record.to_dict(), ensure_ascii=False)


def write_records_to(fh: IO[str], records: Iterable[Record]) -> int:
    count = 0
    for record in records:
        fh.write(dump_record(record))
        fh.write("\n")
        count += 1
    return count


def write_jsonl(records: Iterable[Record], path: PathLike) -> int:
    """Write Records as JSONL atomically; returns the number written."""
    with atomic_open(path) as fh:
        return write_records_to(fh, records)
