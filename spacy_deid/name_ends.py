"""A name the NER cut short: `通知 VS [楊]友昌, 改為口溶錠` -> `[楊友昌]`, `/ 曾[華炳] (外甥)` -> `[曾華炳]`,
`今天 SUNG, [CHING-YU] 來電` -> `[SUNG, CHING-YU]`; or ran on: `社工[楊玥聯]絡` -> `[楊玥]`.

WHY: a NER that reads Chinese one character at a time may stop after a surname or the first character
of a given name it has not seen (`[楊]友昌`, `[劉華]友,`), and the surrogate then leaves the rest of the
name in the text: a leak. Where the name's end is plain, after at most three characters in all, the
span takes the characters up to it: a name span of one or two Han characters that starts with a surname,
followed by one or two Han characters that are not a common word (`[王]今天`), hold no grammatical
character or verb no name holds (`[林]說`, `[陳]的`, `[王]去`), and do not start a title (`[王]先生`,
`[葉]醫師`: annotation.md keeps titles outside), and then by no Han character, by a title or by a common
word (`[楊]友昌,`, `[楊]友昌主任`, `牧師: [呂靖]友參加`).
The NER may drop the surname instead where it is also a word (曾, once: `/ 曾[華炳] (外甥)`): a given name
of two Han characters that ends plainly takes the surname right before it when no Han character stands
before that (the surname's token in no other entity).

The NER may also run one character on into the word after a name (`社工[楊玥聯]絡台中監獄`, `觀護人
[劉宏定]期約談`): a Chinese name of three to five Han characters that starts with a surname, whose last
character starts a common word with the text after it (`聯絡`, `定期`) while the text right after the
span starts none (`絡台`), ends before that character. Where the text after the span starts a word too,
the name may end there as well (`[劉靖安]定期約談`: 安定 and 定期), and the span stands.

A romanized Chinese name is a surname and a given name, written either way round: the NER that knows the
given name's syllables may leave the surname out (`[Fan, Ting-Jung]` read as `Fan, [Ting-Jung]`,
`[HSIUNG-CHANG] FAN`). A name span that is one hyphenated given name (`Ting-Jung`, `chiung-feng`) takes the
word before it (with a comma or a space between) or after it (with a space) when that word is a
romanized Chinese surname (`surnames_zh`) written in the same case, is not a common English word (`to`,
`he`: a sentence's words; nor `an` in lower case), and stands alone (no letter beyond it).
"""
import re
from functools import lru_cache
from typing import FrozenSet, Optional

from spacy.tokens import Doc, Span

from .common_words import common_words
from .common_words_zh import common_words_zh, starts_a_word, surnames_zh
from .han import HAN_CHAR, HAN_RANGES
from .labels import NAME_LABELS
from .lexicons import load
from .titles_zh import TITLES_AFTER_NAME_ZH

_MAX_NAME = 3
_SURNAME_REACH = 12  # the longest romanized surname and a comma
# Characters of grammar and speech that end a name where they follow it: `[林]說`, `[陳]的`, `[王]們`.
NOT_IN_NAME_ZH = frozenset("的之了在是和與及跟說講問也都就又才被把給向對從到於為們等很再還會要想有無不沒"
                         "去來打叫請找帶看陪送")


def _name_ends_at(text: str, end: int) -> bool:
    return (end >= len(text) or not HAN_CHAR.match(text[end]) or text.startswith(TITLES_AFTER_NAME_ZH, end)
            or text[end:end + 2] in common_words_zh())


@lru_cache(maxsize=1)
def _romanized_surnames() -> FrozenSet[str]:
    """Romanized Chinese surnames (`Chen`, `Fan`), lower case, less common English words (`to`, `an`)."""
    words = common_words()
    return frozenset(entry["romanized"].casefold() for entry in load("surnames_zh").entries
                     if entry.get("romanized") and entry["romanized"].casefold() not in words)


_HYPHENATED_GIVEN_NAME = re.compile(r"[A-Za-z]+-[A-Za-z]+")
_SURNAME_BEFORE = re.compile(r"(?<![A-Za-z])([A-Za-z]+)(?:,[ ]?|[ ])$")
_SURNAME_AFTER = re.compile(r"[ ]([A-Za-z]+)(?![A-Za-z])")


# English words written as romanized surnames too; lower case, they are the sentence's (`an in-patient`).
_ENGLISH_IN_LOWER_CASE = frozenset({"an", "he", "so", "in", "on", "or", "is", "do", "go", "no", "me", "we"})


def _is_surname(word: str, name: str) -> bool:
    if word.islower() and word in _ENGLISH_IN_LOWER_CASE:
        return False
    return word.casefold() in _romanized_surnames() and _same_case(word, name)


def _same_case(word: str, name: str) -> bool:
    if name.isupper():
        return word.isupper()
    if name.islower():
        return word.islower()
    return word[:1].isupper() and word[1:].islower()


def _with_surname(doc: Doc, text: str, ent: Span, following: Optional[Span]) -> Optional[Span]:
    """`ent`, a romanized given name, with the surname written next to it, else None."""
    name = ent.text
    before = _SURNAME_BEFORE.search(text, max(0, ent.start_char - _SURNAME_REACH), ent.start_char)
    if before is not None and _is_surname(before.group(1), name):
        surname = doc.char_span(before.start(1), before.end(1))
        # the surname's tokens only: another entity there keeps it (reading `doc.ents` would cost each span all)
        if surname is not None and all(token.ent_iob_ in ("O", "") for token in surname):
            return doc.char_span(before.start(), ent.end_char, label=ent.label_)
    after = _SURNAME_AFTER.match(text, ent.end_char)
    if (after is not None and _is_surname(after.group(1), name)
            and (following is None or following.start_char >= after.end())):
        return doc.char_span(ent.start_char, after.end(), label=ent.label_)
    return None


def _after_its_surname(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a Chinese given name of two characters that ends plainly, right after a surname
    with no Han character before it (`/ 曾[華炳] (外甥)`, `: 曾[昌振] refused`)?"""
    return (end - start == 2 and start >= 1 and all(HAN_CHAR.match(c) for c in text[start:end])
            and text[start - 1] in surnames_zh() and text[start - 1] not in NOT_IN_NAME_ZH
            and (start == 1 or not HAN_CHAR.match(text[start - 2])) and _name_ends_at(text, end))


_RUN_ON_NAME = re.compile(f"[{HAN_RANGES}]{{3,5}}")


def _runs_into_a_word(text: str, start: int, end: int) -> bool:
    """Did the Chinese name at text[start:end] run one character on into the word after it (module
    docstring)?"""
    return (_RUN_ON_NAME.fullmatch(text, start, end) is not None and text[start] in surnames_zh()
            and starts_a_word(text, end - 1) and not starts_a_word(text, end))


def completed_name(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` with the rest of the name it was cut from, or without the character it ran on into the
    next word (module docstring), else None."""
    s, e = ent.start_char, ent.end_char
    if ent.label_ in NAME_LABELS and _runs_into_a_word(text, s, e):
        return doc.char_span(s, e - 1, label=ent.label_)
    if ent.label_ in NAME_LABELS and _HYPHENATED_GIVEN_NAME.fullmatch(ent.text):
        return _with_surname(doc, text, ent, following)
    if ent.label_ in NAME_LABELS and _after_its_surname(text, s, e):
        surname = doc.char_span(s - 1, s)
        if surname is not None and all(token.ent_iob_ in ("O", "") for token in surname):
            return doc.char_span(s - 1, e, label=ent.label_)
        return None
    if (ent.label_ not in NAME_LABELS or not 1 <= e - s < _MAX_NAME or text[s] not in surnames_zh()
            or not all(HAN_CHAR.match(c) for c in text[s:e]) or text.startswith(TITLES_AFTER_NAME_ZH, e)):
        return None
    for end in range(e + 1, s + _MAX_NAME + 1):
        if end > len(text) or not HAN_CHAR.match(text[end - 1]) or text[end - 1] in NOT_IN_NAME_ZH:
            return None
        if following is not None and following.start_char < end:
            return None
        if _name_ends_at(text, end):
            if text[e:end] in common_words_zh():
                return None
            return doc.char_span(s, end, label=ent.label_)
    return None


__all__ = ["completed_name"]
