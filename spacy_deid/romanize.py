"""Romanized forms of a Chinese name: how a note may write `王大明` in Latin letters.

WHY: a code-mixed note names one person `王大明` in one line and `Wang Da-Ming`, `Wang Ta-Ming`,
`Wang Da Ming`, `Wang Daming` or `Wang DM` in another. Finding those forms (`propagate`) and giving
them the romanization of the Han name's surrogate (`surrogates.names`) needs each character's
syllable in both systems a note uses: Hanyu Pinyin and Wade-Giles (Taiwan's passports). The
syllables come from `pypinyin` (data, not tables of our own); Wade-Giles is written as passports
write it, without apostrophes or umlauts (`ch'en` -> `chen`, `hsü` -> `hsu`), and the lexicons'
own romanization of a character (`given_chars_zh`, `surnames_zh`) is one more Wade-Giles spelling.
"""
import re
from functools import lru_cache
from typing import Dict, FrozenSet, List, Sequence, Tuple

from pypinyin import Style, lazy_pinyin

from .lexicons import load

# The span extension (`span._.name_link`, kept in `doc.user_data` by offsets like every span value)
# that names the Han name a mention is part or a romanized form of; `propagate` writes it, the
# surrogate engine reads it.
NAME_LINK = "name_link"
PINYIN = "pinyin"
WADE_GILES = "wade-giles"
STYLES = (WADE_GILES, PINYIN)
_NON_LETTER = re.compile(r"[^a-z]")


def _plain(syllable: str) -> str:
    """A syllable as passports write it: lower-case ASCII letters (`ch'en` -> `chen`, `lv` -> `lu`)."""
    return _NON_LETTER.sub("", syllable.lower().replace("ü", "u").replace("v", "u"))


@lru_cache(maxsize=1)
def _lexicon_syllables() -> Dict[str, str]:
    """Han character or surname -> the lexicons' romanization (Wade-Giles), plain."""
    out: Dict[str, str] = {}
    for lexicon in ("surnames_zh", "given_chars_zh"):
        for entry in load(lexicon).entries:
            if entry.get("romanized") and entry["text"] not in out:
                out[entry["text"]] = _plain(entry["romanized"])
    return out


@lru_cache(maxsize=4096)
def syllable(chars: str, style: str) -> str:
    """The plain syllable(s) of `chars` (one character, or a compound surname) in `style`; Wade-Giles
    prefers the lexicons' spelling, so the surrogate engine's romanization and this one agree."""
    if style == WADE_GILES and chars in _lexicon_syllables():
        return _lexicon_syllables()[chars]
    pin_style = Style.WADEGILES if style == WADE_GILES else Style.NORMAL
    return "".join(_plain(s) for s in lazy_pinyin(chars, style=pin_style))


def spellings(chars: str) -> FrozenSet[str]:
    """Every plain spelling of `chars` in either system (`大` -> `da`, `ta`)."""
    return frozenset(s for s in (syllable(chars, style) for style in STYLES) if s)


def style_of(pieces: Sequence[Tuple[str, str]]) -> str:
    """The system a romanized name is written in, from (Han chars, plain spelling) pairs: pinyin when
    some spelling is pinyin only, else Wade-Giles (Taiwan's default; `Ming` is both)."""
    for chars, spelled in pieces:
        if spelled == syllable(chars, PINYIN) and spelled != syllable(chars, WADE_GILES):
            return PINYIN
    return WADE_GILES


def given_forms(given: str) -> List[str]:
    """The ways a note writes a Han given name of one or two characters in Latin letters, in title
    case: hyphenated, spaced and joined syllables, in each system (`大明` -> `Da-Ming`, `Da Ming`,
    `Daming`, `Ta-Ming`, ...)."""
    forms: Dict[str, None] = {}
    for style in STYLES:
        parts = [syllable(char, style).capitalize() for char in given]
        if not all(parts):
            continue
        forms["-".join(parts)] = None
        if len(parts) > 1:
            forms[" ".join(parts)] = None
            forms["".join(parts).capitalize()] = None
            forms["-".join(parts[:1] + [p.lower() for p in parts[1:]])] = None
    return list(forms)


def initials_forms(given: str) -> List[str]:
    """The given name as initials (`大明` -> `DM`, `D.M.`, `D-M`, `TM`, ...), in each system."""
    forms: Dict[str, None] = {}
    for style in STYLES:
        letters = [syllable(char, style)[:1].upper() for char in given]
        if not all(letters):
            continue
        forms["".join(letters)] = None
        forms[".".join(letters) + "."] = None
        if len(letters) > 1:
            forms["-".join(letters)] = None
    return list(forms)


def full_forms(surname: str, given: str) -> List[str]:
    """The romanized full names of a Han name (`王`, `大明`): surname first or last, the given name in
    every form of `given_forms`, with initials after a surname (`Wang DM`), in title and upper case."""
    surnames = sorted({s.capitalize() for s in spellings(surname)})
    forms: Dict[str, None] = {}
    for sur in surnames:
        for first in given_forms(given):
            for form in (f"{sur} {first}", f"{sur}, {first}", f"{first} {sur}"):
                forms[form] = None
                forms[form.upper()] = None
        for letters in initials_forms(given):
            forms[f"{sur} {letters}"] = None
            forms[f"{sur.upper()} {letters}"] = None
    return list(forms)


__all__ = ["NAME_LINK", "PINYIN", "STYLES", "WADE_GILES", "full_forms", "given_forms", "initials_forms", "spellings",
           "style_of", "syllable"]
