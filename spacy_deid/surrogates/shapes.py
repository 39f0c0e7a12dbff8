"""Script and shape helpers: what kind of string an original is, and how to write a replacement in
the same casing and layout (`NTUH` → upper-case, `Chia-hao` → `Yi-chen`, `0921-556-338` keeps its
dashes)."""
import re
import string
from typing import Callable, Optional

from ..han import has_han, is_han
from .keys import KeyedDraw

_LATIN_RE = re.compile("[A-Za-z\u00c0-\u024f]")
_FULLWIDTH_DIGITS = "０１２３４５６７８９"
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
# Vowels and consonants are drawn apart so letter surrogates of words stay pronounceable-looking
# and an all-caps abbreviation stays an abbreviation.
_VOWELS_U, _VOWELS_L = "AEIOU", "aeiou"
_CONS_U = "".join(c for c in UPPER if c not in _VOWELS_U)
_CONS_L = _CONS_U.lower()


def has_latin(text: str) -> bool:
    return _LATIN_RE.search(text) is not None


def script_of(text: str) -> str:
    """`han` if any Han character, else `latin` if any letter, else `digits` if any digit, else `other`."""
    if has_han(text):
        return "han"
    if has_latin(text):
        return "latin"
    if any(c.isdigit() for c in text):
        return "digits"
    return "other"


def case_of(word: str) -> str:
    """`upper` (NTUH; one capital letter too), `lower`, `title` (Chen, Chia-Hao) or `mixed` (McDonald)."""
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return "none"
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    if letters[0].isupper() and all(c.islower() for c in letters[1:]):
        return "title"
    return "mixed"


def _cap(part: str) -> str:
    return part[:1].upper() + part[1:].lower()


def match_case(original: str, new: str) -> str:
    """`new` written with the casing of `original`, hyphen part by hyphen part (`Chia-hao` → `Yi-chen`)."""
    kind = case_of(original)
    if kind == "upper" and sum(c.isalpha() for c in original) > 1:
        return new.upper()
    if kind == "lower":
        return new.lower()
    o_parts, n_parts = original.split("-"), new.split("-")
    if len(o_parts) > 1 and len(n_parts) > 1:
        out = []
        for i, part in enumerate(n_parts):
            ref = o_parts[min(i, len(o_parts) - 1)]
            out.append(part.lower() if case_of(ref) == "lower" else _cap(part))
        return "-".join(out)
    return "-".join(_cap(p) for p in n_parts)


def _digit_like(ch: str, draw: KeyedDraw, nonzero: bool) -> str:
    d = str(draw.below(9) + 1) if nonzero else str(draw.below(10))
    if ch in _FULLWIDTH_DIGITS:
        return _FULLWIDTH_DIGITS[int(d)]
    return d


def _letter_like(ch: str, draw: KeyedDraw) -> str:
    upper = ch.isupper()
    if ch.upper() in _VOWELS_U:
        pool = _VOWELS_U if upper else _VOWELS_L
    else:
        pool = _CONS_U if upper else _CONS_L
    return pool[draw.below(len(pool))]


_ZH_DIGITS = "一二三四五六七八九"


def shape_surrogate(original: str, draw: KeyedDraw, *, han: Optional[Callable[[KeyedDraw], str]] = None,
                    keep_leading_nonzero: bool = True, tries: int = 8, zh_digits: bool = False) -> str:
    """Same layout: every ASCII/full-width digit becomes a digit, every ASCII letter a letter of the same
    case (vowel for vowel), separators and other characters stay; Han characters are replaced by
    `han(draw)` when given, or, with `zh_digits`, a Chinese digit 一..九 by another (`年三月` of a date
    nothing could read). A digit run's first digit stays non-zero when it was (`5520931` never
    becomes `0520931`, which some systems would read as a different length). Never returns `original`
    when it has anything to replace."""
    for _ in range(tries):
        out = []
        prev_digit = False
        for ch in original:
            if ch.isdigit() and (ch.isascii() or ch in _FULLWIDTH_DIGITS):
                nonzero = keep_leading_nonzero and not prev_digit and ch not in "0０"
                out.append(_digit_like(ch, draw, nonzero))
                prev_digit = True
                continue
            prev_digit = False
            if ch.isascii() and ch.isalpha():
                out.append(_letter_like(ch, draw))
            elif zh_digits and ch in _ZH_DIGITS:
                out.append(_ZH_DIGITS[draw.below(9)])
            elif han is not None and is_han(ch):
                out.append(han(draw))
            else:
                out.append(ch)
        result = "".join(out)
        if result != original:
            return result
    return _force_change(original, draw, han, zh_digits)


def _force_change(original: str, draw: KeyedDraw, han: Optional[Callable[[KeyedDraw], str]],
                  zh_digits: bool = False) -> str:
    """Last resort after repeated equal draws (a one-digit `1`... can repeat): change the last
    replaceable character to a different one, deterministically."""
    chars = list(original)
    for i in range(len(chars) - 1, -1, -1):
        ch = chars[i]
        if ch.isdigit() and ch.isascii():
            leading = i == 0 or not original[i - 1].isdigit()
            pool = [d for d in ("123456789" if leading and ch != "0" else "0123456789") if d != ch]
            chars[i] = pool[draw.below(len(pool))]
            return "".join(chars)
        if ch.isascii() and ch.isalpha():
            pool = UPPER if ch.isupper() else LOWER
            chars[i] = pool[(pool.index(ch) + 1 + draw.below(25)) % 26]
            return "".join(chars)
        if zh_digits and ch in _ZH_DIGITS:
            pool = _ZH_DIGITS.replace(ch, "")
            chars[i] = pool[draw.below(len(pool))]
            return "".join(chars)
        if han is not None and is_han(ch):
            for _ in range(16):
                new = han(draw)
                if new != ch:
                    chars[i] = new
                    return "".join(chars)
    return original  # nothing replaceable: the caller decides (mask) — never silently reached for PHI
