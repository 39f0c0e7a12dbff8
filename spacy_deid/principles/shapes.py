"""The shape slot of a principle: what a PHI string looks like, abstract enough to hold other values of
the same kind and exact enough to compile to a linear-time pattern.

Han characters count (`H3`); a Han run that starts with a listed surname and has one or two characters
after it is a surname and a given name (`S1+G`: the `[Surname][Given name]` slot of the method); a
Latin word is capitalised (`Aa`), all caps (`A`) or lower case (`a`), whatever its length; ASCII digits
count (`9{3}`); every other character stands for itself. `Amy Lin` is `Aa Aa`, `陳志明` is `S1+G`,
`110.03.02` is `9{3}.9{2}.9{2}`.
"""
import re
from functools import lru_cache
from typing import Dict, List

from ..wordlists.common_words_zh import surnames_zh
from ..han import HAN_CHAR, HAN_RANGES

_LONGEST_SURNAME = 2
_SHAPE_PART = re.compile(r"S(\d)\+G|H(\d+)|Aa|A|a|9\{(\d+)\}")


def span_shape(text: str) -> str:
    """The shape of `text` (module docstring)."""
    parts: List[str] = []
    i = 0
    while i < len(text):
        c, j = text[i], i + 1
        if HAN_CHAR.match(c):
            while j < len(text) and HAN_CHAR.match(text[j]):
                j += 1
            parts.append(f"H{j - i}")
        elif c.isascii() and c.isdigit():
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
            parts.append(f"9{{{j - i}}}")
        elif c.isascii() and c.isalpha():
            while j < len(text) and text[j].isascii() and text[j].isalpha():
                j += 1
            word = text[i:j]
            parts.append("A" if len(word) > 1 and word.isupper() else "Aa" if word[0].isupper() else "a")
        else:
            parts.append(c)
        i = j
    if len(parts) == 1 and parts[0].startswith("H"):
        for k in range(min(_LONGEST_SURNAME, len(text) - 1), 0, -1):
            if text[:k] in surnames_zh() and 1 <= len(text) - k <= 2:
                return f"S{k}+G"
    return "".join(parts)


@lru_cache(maxsize=1)
def _surname_alternations() -> Dict[int, str]:
    by_length: Dict[int, List[str]] = {}
    for name in sorted(surnames_zh()):
        by_length.setdefault(len(name), []).append(re.escape(name))
    return {n: "|".join(names) for n, names in by_length.items()}


def shape_pattern(shape: str) -> str:
    """A regular expression for the strings of `shape`: bounded character classes and literal
    alternations, no nested quantifier, so matching is linear in the text."""
    out: List[str] = []
    i = 0
    while i < len(shape):
        m = _SHAPE_PART.match(shape, i)
        if m is None:
            out.append(re.escape(shape[i]))
            i += 1
            continue
        if m.group(1):
            out.append(f"(?:{_surname_alternations()[int(m.group(1))]})[{HAN_RANGES}]{{1,2}}")
        elif m.group(2):
            out.append(f"[{HAN_RANGES}]{{{m.group(2)}}}")
        elif m.group(3):
            out.append(f"[0-9]{{{m.group(3)}}}")
        else:
            out.append({"Aa": "[A-Z][a-z]+", "A": "[A-Z]{2,}", "a": "[a-z]+"}[m.group(0)])
        i = m.end()
    # a Latin word or a number is whole: no letter or digit glued to either end
    return "(?<![A-Za-z0-9])" + "".join(out) + "(?![A-Za-z0-9])"
