"""Principles induced from an annotated corpus (the method's knowledge acquisition).

For every gold span: its shape (`shapes.py`) and the literal words around it, on the left, on the
right, and on both sides, at a few widths (2 to 4 characters of Han, or one or two Latin words with
what separates them; a Han context holds 2 to 4 characters); a context never crosses a line and never cuts a Latin word or number. Each
(left, shape, right, label) seen around at least `min_support` gold spans is a candidate; it is run
over the whole corpus, and its precision is the share of its matches that are gold spans of its
label. A context never holds a character of another gold span, so the file holds no PHI value.
Candidates at `min_precision` or more are kept, most precise first, each only if it finds a
gold span that the ones kept before it do not (a greedy cover), so the file stays short enough for a
person to review. Nothing of the corpus but the context words and the shapes is written.
"""
import re
from collections import defaultdict
from typing import Dict, Iterable, List, Sequence, Set, Tuple

from ..corpus.records import Record
from .matcher import compile_principle, matches_of
from .shapes import span_shape
from .store import Principle

_HAN_WIDTHS = (2, 3, 4)  # a single character is rarely a cue of its own
_LATIN_WORDS = (1, 2)
_WORD = re.compile(r"[A-Za-z0-9]")
_HAS_CONTENT = re.compile(r"[^\W_]")
# how far a Latin context is read: two words of at most 31 letters and what separates them
_LATIN_REACH = 2 * (31 + 3)


def _left_contexts(text: str, start: int) -> List[str]:
    out: List[str] = []
    line_start = text.rfind("\n", 0, start) + 1
    for width in _HAN_WIDTHS:
        cut = start - width
        if cut < line_start:
            break
        if _WORD.match(text[cut]) and cut > 0 and _WORD.match(text[cut - 1]):
            continue  # would cut a Latin word or a number
        out.append(text[cut:start])
    tail = text[max(line_start, start - _LATIN_REACH):start]
    for n in _LATIN_WORDS:
        found = re.search(r"(?:[A-Za-z][A-Za-z'.-]{0,30}[^A-Za-z\n]{0,3}){%d}$" % n, tail)
        if found and (found.start() == 0 or not _WORD.match(tail[found.start() - 1])):
            out.append(found.group(0))
    return [c for c in dict.fromkeys(out) if _HAS_CONTENT.search(c)]


def _right_contexts(text: str, end: int) -> List[str]:
    out: List[str] = []
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    for width in _HAN_WIDTHS:
        cut = end + width
        if cut > line_end:
            break
        if _WORD.match(text[cut - 1]) and cut < len(text) and _WORD.match(text[cut]):
            continue
        out.append(text[end:cut])
    head = text[end:min(line_end, end + _LATIN_REACH)]
    for n in _LATIN_WORDS:
        found = re.match(r"(?:[^A-Za-z\n]{0,3}[A-Za-z][A-Za-z'-]{0,30}){%d}" % n, head)
        if found and (found.end() == len(head) or not _WORD.match(head[found.end()])):
            out.append(found.group(0))
    return [c for c in dict.fromkeys(out) if _HAS_CONTENT.search(c)]


def candidates(records: Iterable[Record]) -> Dict[Tuple[str, str, str, str], int]:
    """(left, shape, right, label) -> how many gold spans it was seen around."""
    seen: Dict[Tuple[str, str, str, str], int] = defaultdict(int)
    for record in records:
        phi = bytearray(len(record.text))
        for span in record.spans:
            phi[span.start:span.end] = b"\x01" * (span.end - span.start)
        for span in record.spans:
            shape = span_shape(record.text[span.start:span.end])
            # a context never holds another span's characters: the file must hold no PHI
            lefts = [c for c in _left_contexts(record.text, span.start) if not any(phi[span.start - len(c):span.start])]
            rights = [c for c in _right_contexts(record.text, span.end) if not any(phi[span.end:span.end + len(c)])]
            keys = {(left, shape, "", span.label) for left in lefts}
            keys |= {("", shape, right, span.label) for right in rights}
            keys |= {(left, shape, right, span.label) for left in lefts[:2] for right in rights[:2]}
            for key in keys:
                seen[key] += 1
    return seen


def learn_principles(records: Sequence[Record], *, min_support: int = 2, min_precision: float = 0.9
                     ) -> List[Principle]:
    """Candidate principles of `records` (module docstring), most precise first."""
    records = list(records)
    texts = [r.text for r in records]
    gold: Dict[Tuple[int, int, int], str] = {(i, s.start, s.end): s.label
                                             for i, r in enumerate(records) for s in r.spans}
    scored: List[Tuple[Principle, Set[Tuple[int, int, int]]]] = []
    for (left, shape, right, label), count in candidates(records).items():
        if count < min_support:
            continue
        principle = Principle(left, shape, right, label)
        found, matches = set(), 0
        for where in matches_of(compile_principle(principle), texts):
            matches += 1
            if gold.get(where) == label:
                found.add(where)
        if not matches or len(found) < min_support or len(found) / matches < min_precision:
            continue
        principle.support, principle.precision = len(found), round(len(found) / matches, 4)
        scored.append((principle, found))
    scored.sort(key=lambda item: (-item[0].precision, -item[0].support,
                                  len(item[0].left) + len(item[0].right), item[0].key))
    kept: List[Principle] = []
    covered: Set[Tuple[int, int, int]] = set()
    for principle, found in scored:
        if found - covered:
            kept.append(principle)
            covered |= found
    return kept
