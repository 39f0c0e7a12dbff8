"""Date formats as templates: one string says exactly how a date was written, so it can be written again.

A format is literal text with fields `{F:style}`:

| field | meaning |
|---|---|
| `Y` | Christian year |
| `R` | Minguo (ROC) year: Christian year - 1911 |
| `M` | month |
| `D` | day |

| style | writes | example |
|---|---|---|
| `n` | Arabic digits, no padding | `5`, `110` |
| `n2`, `n3`, `n4` | Arabic digits zero-padded to that width | `05`, `099`, `2021` |
| `c19`, `c20`, ... | a two-digit Christian year in that century (`Y` only) | `{Y:c20}` 2023 -> `23` |
| `zp〇`, `zp零`, `zp○` (+ width) | positional Chinese numerals with that zero | `一一〇`, `二〇二一` |
| `zc` | counted Chinese numerals | `十二`, `一百一十` |
| `th` | Arabic day with its English ordinal (`D` only) | `1st`, `25th` |
| `T3` `U3` `L3` / `T` `U` `L` / `T4` `U4` `L4` | English month name (`M` only): Title/UPPER/lower case, 3-letter, full, or `Sept`-style | `Dec`, `DECEMBER`, `Sept` |

Everything else is literal and comes back verbatim: separators, spaces, commas, 年月日, prefixes
(`mk`, `MK`, `民國`). So `民國一一〇年十二月二十五日` is `民國{R:zp〇}年{M:zc}月{D:zc}日` and
`Dec. 25th, 2021` is `{M:T3}. {D:th}, {Y:n4}`. The format is a plain string, so it survives msgpack.

Values are ISO-like strings by precision: `2021-12-25` (day), `2021-12` (month), `2021` (year),
`--12-25` (month-day), `--12` (month-only).
"""
import datetime as _dt
import re
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from .numerals import parse_counted, parse_positional, render_counted, render_positional

MINGUO_OFFSET = 1911  # 民國1年 = 1912
_FIELD_RE = re.compile(r"\{([YRMD]):([^{}]+)\}")
MONTHS_FULL = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")
PRECISIONS = ("day", "month", "year", "month-day", "month-only")
YMD = Tuple[Optional[int], Optional[int], Optional[int]]


class UnrenderableDate(ValueError):
    """The date has no spelling in the requested format (e.g. before 民國1年, or a 2-digit year outside
    the format's century). The message never contains the date."""


# -- values -----------------------------------------------------------------------------------
def precision_of(year: Optional[int], month: Optional[int], day: Optional[int]) -> str:
    if year is not None:
        return "day" if day is not None else ("month" if month is not None else "year")
    if month is None:
        raise ValueError("a date needs a year or a month")
    return "month-day" if day is not None else "month-only"


def format_value(year: Optional[int], month: Optional[int], day: Optional[int]) -> str:
    """(2021, 12, 25) -> '2021-12-25'; (None, 3, 14) -> '--03-14'."""
    if year is None:
        return f"--{month:02d}" + (f"-{day:02d}" if day is not None else "")
    out = f"{year:04d}"
    if month is not None:
        out += f"-{month:02d}"
        if day is not None:
            out += f"-{day:02d}"
    return out


_VALUE_RE = re.compile(r"(?:([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?|--([0-9]{2})(?:-([0-9]{2}))?)")


def parse_value(value: str) -> YMD:
    """'2021-12-25' -> (2021, 12, 25); '--03' -> (None, 3, None). Raises ValueError if malformed."""
    if isinstance(value, _dt.date):
        return value.year, value.month, value.day
    m = _VALUE_RE.fullmatch(value or "")
    if not m:
        raise ValueError("not a date value in the annotation format (YYYY[-MM[-DD]] or --MM[-DD])")
    if m.group(1):
        ymd = (int(m.group(1)), _int(m.group(2)), _int(m.group(3)))
    else:
        ymd = (None, int(m.group(4)), _int(m.group(5)))
    if not is_valid(*ymd):
        raise ValueError("not a valid calendar date")
    return ymd


def _int(s: Optional[str]) -> Optional[int]:
    return int(s) if s else None


_DAYS_IN_MONTH = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_valid(year: Optional[int], month: Optional[int], day: Optional[int]) -> bool:
    """Real calendar dates only: 110.02.30 and 13/13/2020 are not dates. A month-day without a year
    allows Feb 29 (it exists in some year). A table and the leap-year rule: the finder checks every
    candidate with it, so it avoids the calendar module's slower `monthrange`."""
    if year is not None and not 1 <= year <= 9999:
        return False
    if month is None:
        return year is not None and day is None
    if not 1 <= month <= 12:
        return False
    if day is None:
        return True
    if not 1 <= day <= _DAYS_IN_MONTH[month]:
        return False
    return not (month == 2 and day == 29 and year is not None
                and (year % 4 or (year % 100 == 0 and year % 400)))


# -- templates --------------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def fields_of(fmt: str) -> Tuple[Tuple[str, str], ...]:
    """((field, style), ...) in order of appearance."""
    return tuple((m.group(1), m.group(2)) for m in _FIELD_RE.finditer(fmt))


@lru_cache(maxsize=4096)
def calendar_of(fmt: str) -> str:
    return "minguo" if any(f == "R" for f, _ in fields_of(fmt)) else "christian"


@lru_cache(maxsize=4096)
def order_of(fmt: str) -> str:
    """Field order, e.g. 'ymd', 'mdy', 'dmy', 'ym', 'my', 'md', 'dm', 'y', 'm'."""
    return "".join({"Y": "y", "R": "y", "M": "m", "D": "d"}[f] for f, _ in fields_of(fmt))


def order_family(order: str) -> str:
    """The full order a partial order votes with: 'md' writers write 'mdy', 'dm' writers 'dmy'."""
    if order in ("md", "my"):
        return "mdy"
    if order in ("dm",):
        return "dmy"
    if order in ("mdy", "dmy"):
        return order
    return "ymd"


@lru_cache(maxsize=4096)
def style_key(fmt: str) -> str:
    """The voting key of a format: calendar and field order (e.g. 'minguo/ymd')."""
    return f"{calendar_of(fmt)}/{order_family(order_of(fmt))}"


def _month_names(style: str) -> List[str]:
    case, length = style[0], style[1:]
    names = []
    for full in MONTHS_FULL:
        if length == "3":
            name = full[:3]
        elif length == "4":
            name = "Sept" if full == "September" else full[:3]
        else:
            name = full
        names.append(name.upper() if case == "U" else name.lower() if case == "L" else name)
    return names


def _ordinal(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return f"{day}th"
    return f"{day}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th') }"


def _render_field(field: str, style: str, year: Optional[int], month: Optional[int],
                  day: Optional[int]) -> str:
    if field in ("Y", "R"):
        if year is None:
            raise UnrenderableDate("the format has a year but the value does not")
        value = year - MINGUO_OFFSET if field == "R" else year
        if field == "R" and not 1 <= value <= 999:
            raise UnrenderableDate("the year is outside the Minguo years this format can write (1-999)")
        if style.startswith("c"):
            if value // 100 != int(style[1:]):
                raise UnrenderableDate("the year is outside the century of this two-digit-year format")
            return f"{value % 100:02d}"
    elif field == "M":
        if month is None:
            raise UnrenderableDate("the format has a month but the value does not")
        value = month
        if style[0] in "TUL":
            return _month_names(style)[month - 1]
    else:
        if day is None:
            raise UnrenderableDate("the format has a day but the value does not")
        value = day
        if style == "th":
            return _ordinal(day)
    if style == "n":
        return str(value)
    if style[0] == "n" and style[1:].isdigit():
        out = str(value).zfill(int(style[1:]))
        if len(out) > int(style[1:]):
            raise UnrenderableDate("the number is wider than this format writes")
        return out
    if style.startswith("zp"):
        zero = style[2]
        width = int(style[3:]) if style[3:] else 0
        return render_positional(value, zero, width)
    if style == "zc":
        return render_counted(value)
    raise ValueError(f"unknown style {style!r} for field {field}")


@lru_cache(maxsize=4096)
def _render_plan(fmt: str) -> Tuple[Tuple[Tuple[str, Optional[str], Optional[str]], ...], Tuple[bool, bool, bool]]:
    """The format cut once into (literal text, field, style) pieces, and which of year, month, day
    it writes: surrogate passes render thousands of dates in a few dozen formats."""
    pieces: List[Tuple[str, Optional[str], Optional[str]]] = []
    pos = 0
    for m in _FIELD_RE.finditer(fmt):
        pieces.append((fmt[pos:m.start()], m.group(1), m.group(2)))
        pos = m.end()
    pieces.append((fmt[pos:], None, None))
    fields = {field for _, field, _ in pieces}
    return tuple(pieces), (bool(fields & {"Y", "R"}), "M" in fields, "D" in fields)


def render(value, fmt: str) -> str:
    """Write `value` (ISO-like string or datetime.date) exactly in format `fmt`.

    The format's fields must match the value's precision (a day format needs a day value); raises
    UnrenderableDate when the date has no spelling in this format, ValueError when they do not fit."""
    return render_ymd(parse_value(value), fmt)


def render_ymd(ymd: YMD, fmt: str) -> str:
    """`render` for a value already read (and validated) into (year, month, day): the shift path
    moves dates as tuples and would otherwise write and re-read an ISO string per date."""
    year, month, day = ymd
    pieces, (has_year, has_month, has_day) = _render_plan(fmt)
    if has_year != (year is not None) or has_month != (month is not None) or has_day != (day is not None):
        raise ValueError("the value's precision does not match the format's fields")
    out = []
    for literal, field, style in pieces:
        out.append(literal)
        if field is not None:
            out.append(_render_field(field, style, year, month, day))
    return "".join(out)


# -- parsing with a known format --------------------------------------------------------------
def _field_regex(field: str, style: str) -> str:
    if style == "n":
        return "[1-9][0-9]{0,3}"
    if style[0] == "n":
        return f"[0-9]{{{int(style[1:])}}}"
    if style[0] == "c":
        return "[0-9]{2}"
    if style.startswith("zp"):
        width = style[3:]
        return f"[〇零○一二三四五六七八九]{{{width}}}" if width else "[〇零○一二三四五六七八九]{1,4}"
    if style == "zc":
        return "[〇零一二三四五六七八九十百千]{1,9}"
    if style == "th":
        return "[1-9][0-9]?(?:st|nd|rd|th)"
    if style[0] in "TUL":
        return "|".join(sorted(set(_month_names(style)), key=len, reverse=True))
    raise ValueError(f"unknown style {style!r} for field {field}")


@lru_cache(maxsize=1024)
def compile_format(fmt: str) -> "re.Pattern[str]":
    parts = []
    pos = 0
    for m in _FIELD_RE.finditer(fmt):
        parts.append(re.escape(fmt[pos:m.start()]))
        parts.append(f"(?P<{m.group(1)}>{_field_regex(m.group(1), m.group(2))})")
        pos = m.end()
    parts.append(re.escape(fmt[pos:]))
    return re.compile("".join(parts))


def field_value(field: str, style: str, text: str) -> Optional[int]:
    """The number a field's text stands for under `style`; None when the text does not fit it."""
    if style[0] in "TUL" and field == "M":
        names = _month_names(style)
        return names.index(text) + 1 if text in names else None
    if style == "th":
        return int(text[:-2])
    if style.startswith("zp"):
        parsed = parse_positional(text)
        return parsed[0] if parsed and parsed[1] in ("", style[2]) else None
    if style == "zc":
        return parse_counted(text)
    if style[0] == "c":
        return int(style[1:]) * 100 + int(text)
    return int(text)


def values_from_fields(found: Dict[str, int]) -> YMD:
    year = found.get("Y")
    if "R" in found:
        year = found["R"] + MINGUO_OFFSET
    return year, found.get("M"), found.get("D")


def make_reading(fmt: str, year: Optional[int], month: Optional[int], day: Optional[int]) -> Dict:
    """The plain-dict reading stored in `span._.date_readings`."""
    return {"format": fmt, "calendar": calendar_of(fmt), "value": format_value(year, month, day),
            "precision": precision_of(year, month, day), "order": order_of(fmt)}


def parse_with_format(text: str, fmt: str) -> Optional[Dict]:
    """The reading of `text` written in `fmt`, or None when the text is not a valid date in it."""
    m = compile_format(fmt).fullmatch(text)
    if not m:
        return None
    found: Dict[str, int] = {}
    for field, style in fields_of(fmt):
        value = field_value(field, style, m.group(field))
        if value is None:
            return None
        found[field] = value
    if "R" in found and found["R"] < 1:
        return None
    ymd = values_from_fields(found)
    if not is_valid(*ymd):
        return None
    return make_reading(fmt, *ymd)
