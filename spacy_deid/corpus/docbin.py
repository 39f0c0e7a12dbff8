"""`.spacy` files (DocBin) from Records and back, through corpus/docs.py.

User data is stored (`store_user_data=True`) so `doc._.doc_id`, `doc._.patient_id`, DATE norms and
the record's other keys survive; a DocBin is then as complete as the JSONL it came from.
"""
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from spacy.language import Language
from spacy.tokens import DocBin

from .atomic import atomic_open_bytes
from .docs import DEFAULT_MISALIGNED, AlignmentReport, doc_to_record, records_to_docs, _blank
from ..labels import LABELS
from .reading import ErrorList, check_record, guarded, handle
from .records import CorpusError, Record

PathLike = Union[str, Path]
_ATTRS = ["ORTH", "SPACY", "ENT_IOB", "ENT_TYPE", "ENT_KB_ID", "ENT_ID"]


def records_to_docbin(records: Iterable[Record], *, nlp: Optional[Language] = None,
                      misaligned: str = DEFAULT_MISALIGNED, report: Optional[AlignmentReport] = None) -> DocBin:
    docbin = DocBin(attrs=_ATTRS, store_user_data=True)
    for doc in records_to_docs(records, nlp=nlp, misaligned=misaligned, report=report):
        docbin.add(doc)
    return docbin


def write_docbin(records: Iterable[Record], path: PathLike, *, nlp: Optional[Language] = None,
                 misaligned: str = DEFAULT_MISALIGNED, report: Optional[AlignmentReport] = None) -> int:
    """Write Records to a `.spacy` file atomically; returns the number of docs."""
    docbin = records_to_docbin(records, nlp=nlp, misaligned=misaligned, report=report)
    with atomic_open_bytes(path) as fh:
        fh.write(docbin.to_bytes())
    return len(docbin)


def read_docbin(path: PathLike, *, nlp: Optional[Language] = None, errors: ErrorList = None,
                label_map=None, known_labels: Optional[frozenset] = LABELS) -> Iterator[Record]:
    """Stream Records from a `.spacy` file; a file that is not a DocBin is one CorpusError."""
    nlp = nlp if nlp is not None else _blank()
    source = str(path)
    try:
        docbin = DocBin(store_user_data=True).from_disk(path)
    except (ValueError, KeyError, TypeError, OSError) as err:
        handle(CorpusError(f"not a readable DocBin ({type(err).__name__})", source=source), errors)
        return
    items = enumerate(docbin.get_docs(nlp.vocab), start=1)

    def convert(item) -> Record:
        number, doc = item
        record = doc_to_record(doc)
        if not record.id:
            record.id = f"doc-{number}"
        return check_record(record, source=source, label_map=label_map, known_labels=known_labels)

    yield from guarded(items, convert, errors)
