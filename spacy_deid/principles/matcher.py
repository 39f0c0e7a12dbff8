"""One matcher for every accepted principle: each compiles to `(?<=left)(shape)(?=right)` (literal
contexts, Latin ones case-insensitive; the shape's bounded classes), so a note costs time linear in its
length per principle. Where principles of different labels find the same characters, the more precise
one wins (then the better supported, then the earlier in the file)."""
import re
from typing import Dict, Iterable, List, Sequence, Tuple

from .shapes import shape_pattern
from .store import Principle


def _context(text: str) -> str:
    escaped = re.escape(text)
    return f"(?i:{escaped})" if any(c.isascii() and c.isalpha() for c in text) else escaped


def compile_principle(principle: Principle) -> "re.Pattern[str]":
    left = f"(?<={_context(principle.left)})" if principle.left else ""
    right = f"(?={_context(principle.right)})" if principle.right else ""
    return re.compile(left + "(" + shape_pattern(principle.shape) + ")" + right)


class PrincipleMatcher:
    """The accepted principles of a list, compiled once; `find(text)` -> (start, end, label)."""

    def __init__(self, principles: Iterable[Principle] = ()):
        self.principles: List[Principle] = []
        self._compiled: List[Tuple[Principle, "re.Pattern[str]"]] = []
        self.add(principles)

    def add(self, principles: Iterable[Principle]) -> None:
        for principle in principles:
            self.principles.append(principle)
            if principle.status == "accepted":
                self._compiled.append((principle, compile_principle(principle)))

    def __len__(self) -> int:
        return len(self._compiled)

    def find(self, text: str) -> List[Tuple[int, int, str]]:
        best: Dict[Tuple[int, int], Tuple[Tuple[float, int, int], str]] = {}
        for order, (principle, pattern) in enumerate(self._compiled):
            rank = (principle.precision, principle.support, -order)
            for m in pattern.finditer(text):
                where = m.span(1)
                if where not in best or rank > best[where][0]:
                    best[where] = (rank, principle.label)
        return sorted((start, end, label) for (start, end), (_, label) in best.items())


def matches_of(pattern: "re.Pattern[str]", texts: Sequence[str]) -> Iterable[Tuple[int, int, int]]:
    """(text index, start, end) of every match of one compiled principle."""
    for i, text in enumerate(texts):
        for m in pattern.finditer(text):
            yield (i,) + m.span(1)
