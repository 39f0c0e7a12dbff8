"""One entry point per direction for every corpus format: `read_corpus` and `write_corpus`.

Formats: `jsonl` (a file), `brat` (a folder of .txt/.ann), `i2b2` (a folder of .xml, or one file),
`conll` (a file), `spacy` (a DocBin file).
"""
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from spacy.language import Language

from ..labels import LABELS
from .brat import read_brat, write_brat
from .conll import read_conll, write_conll
from .docbin import read_docbin, write_docbin
from .docs import DEFAULT_MISALIGNED, AlignmentReport
from .i2b2 import read_i2b2, write_i2b2
from .jsonl import read_jsonl, write_jsonl
from .reading import ErrorList
from .records import Record

PathLike = Union[str, Path]
READ_FORMATS = ("jsonl", "brat", "i2b2", "conll", "spacy")
WRITE_FORMATS = ("jsonl", "brat", "i2b2", "conll", "spacy")


def guess_format(path: PathLike) -> str:
    """The format a path most likely holds, from its suffix or (for folders) its files."""
    path = Path(path)
    suffixes = {".jsonl": "jsonl", ".json": "jsonl", ".spacy": "spacy", ".conll": "conll", ".bio": "conll",
                ".iob": "conll", ".tsv": "conll", ".xml": "i2b2", ".ann": "brat", ".txt": "brat"}
    if path.suffix.lower() in suffixes:
        return suffixes[path.suffix.lower()]
    if path.is_dir():
        if any(path.glob("*.ann")):
            return "brat"
        if any(path.glob("*.xml")):
            return "i2b2"
    raise ValueError(f"cannot tell the corpus format of {path.name!r}; name it ({', '.join(READ_FORMATS)})")


def read_corpus(path: PathLike, fmt: Optional[str] = None, *, errors: ErrorList = None, label_map=None,
                known_labels: Optional[frozenset] = LABELS, nlp: Optional[Language] = None) -> Iterator[Record]:
    """Stream Records from `path` in format `fmt` (guessed from the path when None).

    errors: None = strict, a list = collect CorpusErrors and go on. label_map: a LabelMap applied
    after the offset check. known_labels: the labels allowed after mapping (None: any).
    """
    fmt = fmt or guess_format(path)
    kwargs = dict(errors=errors, label_map=label_map, known_labels=known_labels)
    if fmt == "jsonl":
        return read_jsonl(path, **kwargs)
    if fmt == "brat":
        return read_brat(path, **kwargs)
    if fmt == "i2b2":
        return read_i2b2(path, **kwargs)
    if fmt == "conll":
        return read_conll(path, **kwargs)
    if fmt == "spacy":
        return read_docbin(path, nlp=nlp, **kwargs)
    raise ValueError(f"unknown corpus format {fmt!r}; known: {', '.join(READ_FORMATS)}")


def write_corpus(records: Iterable[Record], path: PathLike, fmt: Optional[str] = None, *,
                 nlp: Optional[Language] = None, misaligned: str = DEFAULT_MISALIGNED,
                 report: Optional[AlignmentReport] = None) -> int:
    """Write Records to `path` in format `fmt`; returns the number written. `misaligned`/`report`
    apply to the token-based formats (conll, spacy)."""
    fmt = fmt or guess_format(path)
    if fmt == "jsonl":
        return write_jsonl(records, path)
    if fmt == "brat":
        return write_brat(records, path)
    if fmt == "i2b2":
        return write_i2b2(records, path)
    if fmt == "conll":
        return write_conll(records, path, nlp=nlp, misaligned=misaligned, report=report)
    if fmt == "spacy":
        return write_docbin(records, path, nlp=nlp, misaligned=misaligned, report=report)
    raise ValueError(f"unknown corpus format {fmt!r}; known: {', '.join(WRITE_FORMATS)}")
