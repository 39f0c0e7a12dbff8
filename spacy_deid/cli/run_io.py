"""Input and output for `spacy-deid run`: JSONL, CSV or a folder of .txt notes; atomic writes.

Readers yield one item per record: a dict (a `LineRecord`, which remembers its line) or, for a record
that cannot be read (broken JSON, invalid UTF-8, a CSV quote never closed), a `CorpusError` naming
the line, so the batch keeps going and the error keeps its place. Nothing here logs or raises with
note text.

Temporary files: everything is written inside a private folder beside its target
(`.NAME.deid-tmp/`, mode 0700, files 0600) and renamed onto the target at the end. An interrupted
run removes it; a run killed with SIGKILL cannot, and the next run writing that target sweeps it
(`sweep_private_dir`), so PHI-bearing leftovers are never readable by others and never pile up.
"""
import csv
import io
import json
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, TextIO, Union

from ..corpus import CorpusError

FORMATS = ("jsonl", "csv", "txt")
PRIVATE_SUFFIX = ".deid-tmp"
_BOM = b"\xef\xbb\xbf"
_LINE_END_RE = re.compile(r"\r\n|\r|\n")


class UnsupportedInput(ValueError):
    """An input whose format `run` cannot read (named by file name, not content)."""


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
    raise UnsupportedInput(f"cannot tell the format of {path.name!r}: use .jsonl, .csv or a folder of .txt")


def _utf8_error(err: UnicodeDecodeError) -> str:
    return f"not valid UTF-8 (byte {err.start} of the line)"


# -- readers -------------------------------------------------------------------------------------
def read_jsonl(path: Path) -> Iterator[Union[LineRecord, CorpusError]]:
    source = path.name
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            if number == 1 and raw.startswith(_BOM):  # written by Windows tools; not part of the JSON
                raw = raw[len(_BOM):]
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
        return sum(1 for number, raw in enumerate(f, start=1)
                   if (raw[len(_BOM):] if number == 1 and raw.startswith(_BOM) else raw).strip())


def _csv_text(path: Path) -> str:
    # surrogateescape: a bad byte does not stop the file; the row holding it is reported below.
    data = path.read_bytes()
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    return data.decode("utf-8", errors="surrogateescape")


def _open_csv_text(path: Path) -> TextIO:
    return io.StringIO(_csv_text(path), newline="")


def _dialect(path: Path) -> str:
    return "excel-tab" if path.suffix.lower() == ".tsv" else "excel"


def _has_bad_bytes(values: List[Any]) -> bool:
    return any(isinstance(v, str) and any("\udc80" <= c <= "\udcff" for c in v) for v in values)


def csv_fieldnames(path: Path) -> List[str]:
    with _open_csv_text(path) as f:
        return next(csv.reader(f, dialect=_dialect(path)), [])


def read_csv(path: Path) -> Iterator[Union[LineRecord, CorpusError]]:
    """Rows as records. The reader is strict, so a quote that is never closed is an error on the line
    where its row starts (not, as a lenient reader would, one huge cell swallowing every row after
    it); reading then goes on from the next line, so the rows after it are still de-identified."""
    source, dialect = path.name, _dialect(path)
    text = _csv_text(path)
    line_starts = [0] + [m.end() for m in _LINE_END_RE.finditer(text)]  # offset of line n at [n-1]
    f = io.StringIO(text, newline="")
    reader = csv.reader(f, dialect=dialect, strict=True)
    try:
        header = next(reader, None)
    except csv.Error:
        yield CorpusError("malformed CSV header", line=1, source=source)
        return
    if not header:
        return
    if _has_bad_bytes(header):
        yield CorpusError("header is not valid UTF-8", line=1, source=source)
        return
    base = 0  # lines before the current reader's start
    while True:
        first = base + reader.line_num + 1  # the line where the next row starts
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as err:  # csv's messages name the problem, never the cell's content
            yield CorpusError(f"malformed CSV ({err}) in the row starting on line {first}; reading "
                              f"goes on from line {first + 1}", line=first, source=source)
            if first >= len(line_starts):
                return
            f.seek(line_starts[first])
            base = first
            reader = csv.reader(f, dialect=dialect, strict=True)
            continue
        if not row:
            continue
        if _has_bad_bytes(row):
            yield CorpusError("not valid UTF-8", line=first, source=source)
            continue
        if len(row) > len(header):
            yield CorpusError("row has more cells than the header", line=first, source=source)
            continue
        record = LineRecord(zip(header, row + [None] * (len(header) - len(row))))
        record.line = first
        yield record


def count_csv(path: Path) -> int:
    """How many items `read_csv` yields (records and errors), for the progress bar."""
    return sum(1 for _ in read_csv(path))


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


# -- atomic writing in a private folder ------------------------------------------------------------
def private_dir(target: Path) -> Path:
    """The private temporary folder of `target`: beside it (same file system, so the final rename is
    atomic), hidden, named after it."""
    return target.parent / f".{target.name}{PRIVATE_SUFFIX}"


def sweep_private_dir(target: Path) -> bool:
    """Remove what a killed run left for `target`; True when there was something."""
    folder = private_dir(target)
    if not folder.exists():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


def _make_private_dir(target: Path) -> Path:
    folder = private_dir(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)  # mkdir's mode is masked by the umask
    return folder


def _drop_private_dir(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # another temporary still in it (errors beside the output): removed with its last
        pass


@contextmanager
def atomic_file(path: Path, *, newline: Optional[str] = None) -> Iterator[TextIO]:
    """A UTF-8 handle on a 0600 file in `path`'s private folder, flushed and renamed onto `path` on
    success; removed (with the folder) on any failure or interruption."""
    folder = _make_private_dir(path)
    fd, tmp = tempfile.mkstemp(suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
        _drop_private_dir(folder)


@contextmanager
def atomic_dir(path: Path) -> Iterator[Path]:
    """A folder in `path`'s private folder, renamed to `path` at the end (`path` must not exist or
    be empty)."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise FileExistsError(f"output folder {path} exists and is not empty")
    folder = _make_private_dir(path)
    tmp = Path(tempfile.mkdtemp(suffix=".tmp", dir=folder))
    try:
        yield tmp
        if path.exists():
            path.rmdir()
        os.replace(tmp, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        _drop_private_dir(folder)


def encodable(text: str) -> bool:
    """False for a string holding a lone surrogate (`"\\udc00"`), which no UTF-8 file can take."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def printable(value: Any) -> Any:
    """`value` for an errors file or a message: a string with lone surrogates escaped (\\udc00)."""
    if isinstance(value, str) and not encodable(value):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def same_or_inside(output: Path, source: Path) -> bool:
    """True when writing `output` would overwrite `source` (the same file) or land inside the input
    folder `source` (whose notes would then be read as input next time)."""
    out, src = output.resolve(), source.resolve()
    if out == src:
        return True
    return source.is_dir() and src in out.parents


def json_line(data: Dict[str, Any]) -> str:
    # ensure_ascii=False keeps Chinese readable; sort_keys=False keeps the input's field order.
    return json.dumps(data, ensure_ascii=False) + "\n"
