"""Atomic file writes: readers never see half a corpus, and a crash leaves the old file intact."""
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, ContextManager, Iterator, Optional, Union


@contextmanager
def _atomic(path: Union[str, Path], mode: str, **open_args) -> Iterator[IO]:
    """A handle on a temporary file beside `path`, flushed to disk and renamed onto `path` on
    success, removed on failure."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, mode, **open_args) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_open(path: Union[str, Path], *, newline: Optional[str] = "\n") -> ContextManager[IO[str]]:
    """A UTF-8 text handle on a temporary file beside `path`, renamed onto `path` on success."""
    return _atomic(path, "w", encoding="utf-8", newline=newline)


def atomic_open_bytes(path: Union[str, Path]) -> ContextManager[IO[bytes]]:
    return _atomic(path, "wb")
