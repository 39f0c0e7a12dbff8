"""Is a number the NER calls an AGE written as an age? The words around an age say so.

WHY: notes are full of bare numbers (scores, counts, list markers, values in a row), and a NER that
has learnt that `38` beside a name is an age also calls `60` in `GAF 45 at admission, 60 at discharge`
one. An age is written with something that makes it
one (annotation.md: `[25]-year-old`, `[38]歲`, `[32] y/o`), and every way our training notes and
Taiwan charts write it has such a cue:

- a unit or a sex after it: 歲, 足歲, 個月大, y/o, yo, y, year-old, days old, years, yrs, M, F, 男, 女,
  `'s` (`in his [70]s`);
- a field or verb before it: Age, aged, Age/Sex, 年齡, 年紀, 現年, 今年, 享年, a sex letter (`(M/[37])`,
  `(F, [81])`), `was`, `at`, `turned` (`when pt was [79]`, `died at [52]`);
- an apposition: between commas or brackets after a name (`Lin Mei, [18], works`, `(brother, [49])`);
- a header that names the column: `Age` or 年齡 in its line or the line before (`Name Age Sex` then
  `王五 45 M`).

A span of one to three ASCII digits the NER labelled AGE with none of these is dropped.
Numbers written in Han numerals (`三十八歲`) are left alone: they carry their own unit.
"""
import re

_UNIT_AFTER = re.compile(
    r"[ ]?(?:歲|足歲|週歲|個月大|y/o|y\.o\.|yo(?![A-Za-z])|y(?![A-Za-z])"
    r"|[ -]?(?:years?|yrs?|y|months?|mos?|weeks?|wks?|days?)[ -]?old"
    r"|-year|years?(?![A-Za-z])|yrs?(?![A-Za-z])|[MF](?![A-Za-z])|/[MF]|男|女|'?s(?![A-Za-z]))",
    re.IGNORECASE)
_FIELD_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?i:age|aged|ages|age/sex|sex/age)[ ]?[:：]?[ ]?|年齡[ ]?[:：]?[ ]?|年紀[ ]?[:：]?[ ]?"
    r"|現年|今年|享年|[/／]?[MF][/／]|[MF][ ]?[,，][ ]?|(?<![A-Za-z])(?i:was|at|turned|turning)[ ])$")
_FIELD_WINDOW = 14
_APPOSITION_BEFORE = re.compile(r"[,，(（][ ]?$")
_APPOSITION_AFTER = re.compile(r"[ ]?[,，)）]")
_AGE_HEADER = re.compile(r"(?<![A-Za-z])(?i:age)(?![A-Za-z])|年齡|年紀")
_BARE_AGE = re.compile(r"[0-9]{1,3}")


# How far a header is looked for: a table row is short, and a bounded window keeps the check linear on
# a note of one endless line.
_WINDOW = 400


def _line_and_previous(text: str, start: int, end: int) -> tuple:
    low = max(0, start - _WINDOW)
    line_start = text.rfind("\n", low, start)
    previous_start = text.rfind("\n", low, line_start) + 1 if line_start >= 0 else low
    line_end = text.find("\n", end, end + _WINDOW)
    return previous_start, min(len(text), end + _WINDOW) if line_end < 0 else line_end


def age_cue(text: str, start: int, end: int) -> bool:
    """Is text[start:end] written as an age (module docstring)?"""
    if _UNIT_AFTER.match(text, end) or _FIELD_BEFORE.search(text, max(0, start - _FIELD_WINDOW), start):
        return True
    if _APPOSITION_BEFORE.search(text, max(0, start - 2), start) and _APPOSITION_AFTER.match(text, end):
        return True
    return _AGE_HEADER.search(text, *_line_and_previous(text, start, end)) is not None


def uncued_age(text: str, start: int, end: int, label: str) -> bool:
    """An AGE span of ASCII digits that nothing marks as an age."""
    if label != "AGE" or not _BARE_AGE.fullmatch(text, start, end):
        return False
    return not age_cue(text, start, end)
