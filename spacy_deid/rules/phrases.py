"""A phrase list (a gazetteer: country names, cities) as one linear-time regular expression.

WHY a trie and not `a|b|c`: Python's regex engine tries the alternatives of a flat alternation one by
one at every position, so a list of a thousand names costs a thousand attempts per character. Shared
prefixes folded into a character trie leave at most one live branch per step (every branch of a node
starts with a different character), so a match attempt costs at most the length of the longest
phrase, whatever the list's size, and nothing backtracks further than that: linear in the text.
At one start the longest phrase wins (`美國籍` before `美國`).

A phrase that starts or ends with an ASCII letter or digit must stand alone there (`Chad` is not found
in `Chadwick`, `Taiwan` not in `Taiwanese`); Han characters need no boundary (Chinese has no spaces).
"""
import re
from typing import Dict, Iterable, List, Tuple

_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")
_LEFT_EDGE_AFTER_FIRST = r"(?<![A-Za-z0-9].)"
_RIGHT_EDGE = r"(?![A-Za-z0-9])"
_END = ""  # trie key marking that a phrase ends at this node (no character is the empty string)


def _trie(phrases: Iterable[str]) -> Dict[str, dict]:
    root: Dict[str, dict] = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(char, {})
        node[_END] = {}
    return root


def _branches(node: Dict[str, dict], last_char: str) -> str:
    """The regex for what may follow `node`, reached by `last_char`: children first (longest match),
    then the end of a phrase (with its right boundary) when a phrase ends here."""
    alternatives = [re.escape(char) + _branches(child, char) for char, child in sorted(node.items()) if char]
    if _END in node:
        alternatives.append(_RIGHT_EDGE if _ASCII_ALNUM.match(last_char) else "")
    if len(alternatives) == 1:
        return alternatives[0]
    return "(?:" + "|".join(alternatives) + ")"


def phrase_regex(phrases: Iterable[str], *, ignore_case: bool = False) -> str:
    """The trie regex of `phrases` (lower-cased first when matching will ignore case)."""
    wanted = sorted({p.lower() if ignore_case else p for p in phrases})
    if not wanted or not all(wanted):
        raise ValueError("a phrase list needs at least one phrase and no empty phrase")
    root = _trie(wanted)
    alternatives = []
    for char, child in sorted(root.items()):
        # The left edge is checked after the first character (what stands before it), so every branch
        # starts with a literal and the engine skips positions no phrase can start at.
        edge = _LEFT_EDGE_AFTER_FIRST if _ASCII_ALNUM.match(char) else ""
        alternatives.append(re.escape(char) + edge + _branches(child, char))
    return "(?:" + "|".join(alternatives) + ")"


def phrase_spans(text: str, phrases: Iterable[str]) -> List[Tuple[int, int]]:
    """(start, end) of `phrases` in `text` as `re.finditer` of their `phrase_regex` finds them (leftmost,
    then longest, not overlapping, the same edges), without compiling a pattern: for a short list built
    per note (the strings a note's recognizers found) compiling costs more than the scan."""
    candidates = []
    for phrase in set(phrases):
        if not phrase:
            raise ValueError("a phrase list needs no empty phrase")
        left, right = _ASCII_ALNUM.match(phrase[0]), _ASCII_ALNUM.match(phrase[-1])
        start = text.find(phrase)
        while start >= 0:
            end = start + len(phrase)
            if not (left and start > 0 and _ASCII_ALNUM.match(text[start - 1])) and not (
                    right and end < len(text) and _ASCII_ALNUM.match(text[end])):
                candidates.append((start, -end))
            start = text.find(phrase, start + 1)
    spans: List[Tuple[int, int]] = []
    for start, neg_end in sorted(candidates):
        if not spans or start >= spans[-1][1]:
            spans.append((start, -neg_end))
    return spans


__all__ = ["phrase_regex", "phrase_spans"]
