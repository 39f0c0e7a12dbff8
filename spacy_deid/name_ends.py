"""A Chinese name the NER cut short before its end: `通知 VS [楊]友昌, 改為口溶錠` -> `[楊友昌]`.

WHY: a NER that reads Chinese one character at a time may stop after a surname or the first character
of a given name it has not seen (`[楊]友昌`, `[劉華]友,`), and the surrogate then leaves the rest of the
name in the text: a leak. Where the name's end is plain, after at most three characters in all, the
span takes the characters up to it: a name span of one or two Han characters that starts with a surname,
followed by one or two Han characters that are not a common word (`[王]今天`), hold no grammatical
character (`[林]說`, `[陳]的`), and do not start a title (`[王]先生`, `[葉]醫師`: annotation.md keeps
titles outside), and then by no Han character or by a title (`[楊]友昌,`, `[楊]友昌主任`).
"""
import re
from typing import Optional

from spacy.tokens import Doc, Span

from .common_words_zh import common_words_zh, surnames_zh
from .han import HAN_CHAR
from .labels import NAME_LABELS
from .titles_zh import TITLES_AFTER_NAME_ZH

_MAX_NAME = 3
# Characters of grammar and speech that end a name where they follow it: `[林]說`, `[陳]的`, `[王]們`.
_NOT_IN_NAME = frozenset("的之了在是和與及跟說講問也都就又才被把給向對從到於為們等很再還會要想有無不沒")
_TITLE_START = re.compile("|".join(sorted(TITLES_AFTER_NAME_ZH, key=len, reverse=True)))


def _name_ends_at(text: str, end: int) -> bool:
    return end >= len(text) or not HAN_CHAR.match(text[end]) or _TITLE_START.match(text, end) is not None


def completed_name(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` with the rest of the Chinese name it was cut from (module docstring), else None."""
    s, e = ent.start_char, ent.end_char
    if (ent.label_ not in NAME_LABELS or not 1 <= e - s < _MAX_NAME or text[s] not in surnames_zh()
            or not all(HAN_CHAR.match(c) for c in text[s:e]) or _TITLE_START.match(text, e) is not None):
        return None
    for end in range(e + 1, s + _MAX_NAME + 1):
        if end > len(text) or not HAN_CHAR.match(text[end - 1]) or text[end - 1] in _NOT_IN_NAME:
            return None
        if following is not None and following.start_char < end:
            return None
        if _name_ends_at(text, end):
            if text[e:end] in common_words_zh():
                return None
            return doc.char_span(s, end, label=ent.label_)
    return None


__all__ = ["completed_name"]
