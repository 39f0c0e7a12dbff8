"""What every reader shares: strict vs. collecting error mode, and the checks run on each record.

A reader is a generator of Records. With `errors=None` (strict) the first bad record raises a
CorpusError; with `errors=[]` each bad record's CorpusError is appended to that list and reading goes
on, so one broken line in a 100k-note export does not lose the batch. Checks run in a fixed order:
offsets against the text with the corpus's own labels, then the label map, then the label scheme.
"""
from typing import Callable, Iterable, Iterator, List, Optional, TypeVar

from ..labels import LABELS
from .records import CorpusError, Record

T = TypeVar("T")
ErrorList = Optional[List[CorpusError]]


def handle(error: CorpusError, errors: ErrorList) -> None:
    """Raise in strict mode (`errors is None`), otherwise record the error and carry on."""
    if errors is None:
        raise error
    errors.append(error)


def check_record(record: Record, *, line: Optional[int] = None, source: Optional[str] = None,
                 label_map=None, known_labels: Optional[frozenset] = LABELS) -> Record:
    """Offsets first (in the corpus's own labels), then map labels, then check them against the scheme."""
    record.validate(line=line, source=source, known_labels=None if label_map is not None else known_labels)
    if label_map is not None:
        record = label_map.apply(record, line=line, source=source)
        record.validate(line=line, source=source, known_labels=known_labels)
    return record


def guarded(items: Iterable[T], fn: Callable[[T], Optional[Record]], errors: ErrorList) -> Iterator[Record]:
    """Apply `fn` to each item, routing CorpusErrors through `handle`; `None` results are skipped."""
    for item in items:
        try:
            record = fn(item)
        except CorpusError as err:
            handle(err, errors)
            continue
        if record is not None:
            yield record
