"""Move a date by N days and write it back in its own format (the date surrogate).

Rules by precision (all are odd functions of N, so shifting by +N then -N is the identity):
- day (`2021-12-25`): calendar arithmetic.
- month (`2021-12`) and month-only (`--12`): by k = round(N / 30.436875) months, and at least one
  month when N != 0, so a shifted month-precision date never equals its original (a leak).
- year (`2021`): by round(N / 365.2425) years, at least one when N != 0, for the same reason.
- month-day (`--03-14`): the day of a 366-day year moves by N modulo 366 (Feb 29 exists in some year);
  when resolution gave the span a year from context (`date_norm` `2021-03-14`), the real date moves.
Unwritable results: a date that cannot be written in its own format (before 民國1年 or past 民國999年,
a two-digit year leaving its century) is written in the format's Christian counterpart: the Minguo year
becomes a 4-digit Christian year in the same numerals and the `mk`/`MK`/`民國` prefix is dropped
(`110.01.05` shifted to 1911 -> `1911.12.25`); a two-digit year becomes four digits. Outside years
1..9999, or without a usable reading, `shift` returns None. It never raises on data.
"""
import datetime as _dt
import re
from functools import lru_cache
from typing import Dict, Optional, Union

from spacy.tokens import Span

from .finder import parse
from .resolve import selected_reading
from .formats import YMD, UnrenderableDate, format_value, parse_value, render_ymd

_AVG_MONTH = 30.436875
_AVG_YEAR = 365.2425
_PREFIX_RE = re.compile(r"^(?:民國|[mM][kK])[ ]?(?=\{R:)")


def _steps(days: int, unit: float) -> int:
    if days == 0:
        return 0
    k = max(1, int(abs(days) / unit + 0.5))
    return k if days > 0 else -k


def shift_value(value: str, days: int) -> Optional[str]:
    """The value moved by `days` under the precision rules above; None outside years 1..9999."""
    moved = shift_ymd(parse_value(value), days)
    return format_value(*moved) if moved is not None else None


def shift_ymd(ymd: YMD, days: int) -> Optional[YMD]:
    """`shift_value` on a (year, month, day) already read and validated: what `shift` uses, so a
    date is read once and rendered once."""
    year, month, day = ymd
    try:
        if year is not None and day is not None:
            moved = _dt.date(year, month, day) + _dt.timedelta(days=days)
            return moved.year, moved.month, moved.day
        if year is not None and month is not None:
            idx = year * 12 + month - 1 + _steps(days, _AVG_MONTH)
            year2, month2 = divmod(idx, 12)
            return (year2, month2 + 1, None) if 1 <= year2 <= 9999 else None
        if year is not None:
            year2 = year + _steps(days, _AVG_YEAR)
            return (year2, None, None) if 1 <= year2 <= 9999 else None
        if day is not None:
            doy = (_dt.date(2000, month, day) - _dt.date(2000, 1, 1)).days
            moved = _dt.date(2000, 1, 1) + _dt.timedelta(days=(doy + days) % 366)
            return None, moved.month, moved.day
        return None, (month - 1 + _steps(days, _AVG_MONTH)) % 12 + 1, None
    except (OverflowError, ValueError):
        return None


@lru_cache(maxsize=1024)
def christian_counterpart(fmt: str) -> str:
    """The documented fallback format: Minguo years as 4-digit Christian years, prefix dropped."""
    fmt = _PREFIX_RE.sub("", fmt)

    def year_field(m: "re.Match[str]") -> str:
        style = m.group(1)
        if style.startswith("zp"):
            return "{Y:%s}" % style[:3]
        if style == "zc":
            return "{Y:zc}"
        return "{Y:n4}"

    return re.sub(r"\{[YR]:([^{}]+)\}", lambda m: year_field(m) if (m.group(0)[1] == "R" or m.group(1)[0] == "c")
                  else m.group(0), fmt)


def render_shifted(ymd: YMD, fmt: str) -> Optional[str]:
    """`ymd` written in `fmt`, else in its Christian counterpart (module docstring), else None."""
    try:
        return render_ymd(ymd, fmt)
    except UnrenderableDate:
        try:
            return render_ymd(ymd, christian_counterpart(fmt))
        except (UnrenderableDate, ValueError):
            return None


def shift(target: Union[Span, str], days: int, reading: Optional[Dict] = None) -> Optional[str]:
    """`target` (a DATE span, or a date string) moved by `days`, written in its own format.

    For a span the reading chosen by resolution is used (else its preferred reading); for a string,
    `reading` if given, else the preferred reading of `parse(target)`. None when there is no usable
    reading."""
    norm = None
    if isinstance(target, Span):
        reading = reading or selected_reading(target)
        norm = target._.date_norm
        if reading is None:
            readings = parse(target.text)
            reading = readings[0] if readings else None
    elif reading is None:
        readings = parse(target)
        reading = readings[0] if readings else None
    if reading is None:
        return None
    try:
        if reading.get("precision") == "month-day" and norm and not norm.startswith("--"):
            moved = shift_ymd(parse_value(norm), days)  # the year from context makes day arithmetic exact
            moved = (None, moved[1], moved[2]) if moved and moved[2] is not None else None
        else:
            moved = shift_ymd(parse_value(reading["value"]), days)
    except (KeyError, TypeError, ValueError):
        return None
    if moved is None:
        return None
    return render_shifted(moved, reading["format"])
