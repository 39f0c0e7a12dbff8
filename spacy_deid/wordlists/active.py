"""The word lists in force: the pipeline's own while its `deid` component runs, else the packaged ones.

WHY a context variable rather than an argument: the lists are read deep inside shared predicates
(`relations.relation_label` alone has eight callers across steps, cue rule labellers, the pattern rules'
validators and patient steps), and threading a parameter through all of them would make every caller
carry what only the innermost reads. thinc keeps its current `Ops` the same way (`use_ops`). The `deid`
component activates its lists around each call; code run outside one reads the packaged lists.
"""
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, ContextManager, FrozenSet, Iterator, Optional, Tuple, TypeVar

from .store import WordLists, default_word_lists

T = TypeVar("T")
_ACTIVE: ContextVar[Optional[WordLists]] = ContextVar("spacy_deid_word_lists", default=None)


@contextmanager
def in_force(var: "ContextVar[Optional[T]]", value: Optional[T]) -> Iterator[None]:
    """Run the block with `var` set to `value`, and as it was after (the cue rules in force use it too)."""
    token = var.set(value)
    try:
        yield
    finally:
        var.reset(token)


def active_word_lists(lists: Optional[WordLists]) -> "ContextManager[None]":
    """Run the block with `lists` in force (None: the packaged lists)."""
    return in_force(_ACTIVE, lists)


def current_word_lists() -> WordLists:
    lists = _ACTIVE.get()
    return lists if lists is not None else default_word_lists()


def words(*names: str) -> Tuple[str, ...]:
    """The words of the lists `names` in force (`WordLists.words`)."""
    return current_word_lists().words(*names)


def word_set(*names: str) -> FrozenSet[str]:
    """The words of the lists `names` in force, as a set (`WordLists.word_set`)."""
    return current_word_lists().word_set(*names)


def compiled(build: Callable[[WordLists], T]) -> T:
    """What `build` makes of the lists in force, built once per set (`WordLists.compiled`)."""
    return current_word_lists().compiled(build)
