"""Input and output for `spacy-deid run`: JSONL, CSV or a folder of .txt notes; atomic writes.

Readers yield one item per record: a dict (a `LineRecord`, which remembers its line) or, for a record
that cannot be read (broken JSON, invalid UTF-8), a `CorpusError` naming the line, so the batch keeps
going and the error keeps its place. Nothing here logs or raises with note text.
"""
import csv
import io
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ContextManager, Dict, Iterator, List, Optional, TextIO, Union

from ..corpus import CorpusError
from ..corpus.atomic import atomic_open

FORMATS = ("jsonl", "csv", "txt")


class LineRecord(dict):
    """A record dict that remembers where it came from (line or file), for error messages."""

    line: Optional[int] = None


def detect_format(path: Path) -> str:
    if path.is_dir():
        return "txt"
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    if suffix in (".csv", ".tsv"):
        return "csv"
    raise ValueError(f"cannot tell the format of {path.name!r}: use .jsonl, .csv or a folder of .txt")


def _utf8_error(err: UnicodeDecodeError) -> str:
    return f"not valid UTF-8 (byte {err.start} of the line)"


# -- readers -------------------------------------------------------------------------------------
def read_jsonl(path: Path) -> Iterator[Union[LineRecord, CorpusError]]:
    source = path.name
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                yield CorpusError(_utf8_error(err), line=number, source=source)
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as err:
                yield CorpusError(f"invalid JSON ({err.msg}, column {err.colno})", line=number, source=source)
                continue
            if not isinstance(data, dict):
                yield CorpusError("line is not a JSON object", line=number, source=source)
                continue
            record = LineRecord(data)
            record.line = number
            yield record


def count_jsonl(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for raw in f if raw.strip())


def _open_csv_text(path: Path) -> TextIO:
    # surrogateescape: a bad byte does not stop the file; the row holding it is reported below.
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return io.StringIO(data.decode("utf-8", errors="surrogateescape"), newline="")


def _has_bad_bytes(values: List[Any]) -> bool:
    return any(isinstance(v, str) and any("\udc80" <= c <= "\udcff" for c in v) for v in values)


def csv_fieldnames(path: Path) -> List[str]:
    with _open_csv_text(path) as f:
        dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
        return next(csv.reader(f, dialect=dialect), [])


def read_csv(path: Path) -> Iterator[Union[LineRecord, CorpusError]]:
    source = path.name
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    with _open_csv_text(path) as f:
        reader = csv.DictReader(f, dialect=dialect)
        if reader.fieldnames and _has_bad_bytes(list(reader.fieldnames)):
            yield CorpusError("header is not valid UTF-8", line=1, source=source)
            return
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                yield CorpusError(f"malformed CSV ({type(err).__name__})", line=reader.line_num, source=source)
                continue
            if _has_bad_bytes(list(row.values())):
                yield CorpusError("not valid UTF-8", line=reader.line_num, source=source)
                continue
            if None in row:  # more cells than header columns
                yield CorpusError("row has more cells than the header", line=reader.line_num, source=source)
                continue
            record = LineRecord(row)
            record.line = reader.line_num
            yield record


def count_csv(path: Path) -> int:
    with _open_csv_text(path) as f:
        dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
        return max(0, sum(1 for _ in csv.reader(f, dialect=dialect)) - 1)


def txt_files(folder: Path) -> List[Path]:
    return sorted(p for p in folder.rglob("*.txt") if p.is_file())


def read_txt_dir(folder: Path, *, id_field: str, text_field: str, patient_field: str
                 ) -> Iterator[Union[LineRecord, CorpusError]]:
    """One record per .txt file; id = path relative to the folder without `.txt`. A file inside a
    subfolder belongs to the patient named by its first-level folder (`P001/2023-01-02.txt`), so
    notes laid out one folder per patient are voted on together."""
    for file in txt_files(folder):
        rel = file.relative_to(folder)
        rid = rel.with_suffix("").as_posix()
        try:
            text = file.read_bytes().decode("utf-8")
        except UnicodeDecodeError as err:
            yield CorpusError(f"not valid UTF-8 (byte {err.start})", record_id=rid, source=folder.name)
            continue
        record = LineRecord({id_field: rid, text_field: text})
        if len(rel.parts) > 1:
            record[patient_field] = rel.parts[0]
        yield record


# -- atomic writing ------------------------------------------------------------------------------
def atomic_file(path: Path, *, newline: Optional[str] = None) -> ContextManager[TextIO]:
    """Write to a temporary file next to `path`, then rename over it (see corpus.atomic)."""
    return atomic_open(path, newline=newline)


@contextmanager
def atomic_dir(path: Path) -> Iterator[Path]:
    """A temporary folder renamed to `path` at the end (`path` must not exist or be empty)."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise FileExistsError(f"output folder {path} exists and is not empty")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield tmp
        if path.exists():
            path.rmdir()
        os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def json_line(data: Dict[str, Any]) -> str:
    # ensure_ascii=False keeps Chinese readable; sort_keys=False keeps the input's field order.
    return json.dumps(data, ensure_ascii=False) + "\n"
