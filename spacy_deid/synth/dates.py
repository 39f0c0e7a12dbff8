"""Surface forms of dates as Taiwan charts write them, each with its annotation `norm`.

Charts mix Christian and Minguo (民國, year - 1911) calendars, Arabic and Chinese numerals, compact
forms (`1101225`, `mk1101225`) and partial dates (`108年8月`, `3/14`, `九月`); a recognizer trained on one
form misses the others, so the synthesizer draws every form. Years far in the future (2105, 2223) occur
in resynthesized corpora, so the renderer makes no assumption about the century.
"""
import datetime as _dt
from random import Random
from typing import Callable, Dict, List, Tuple

from ..dates.numerals import render_counted, render_positional

MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH_FULL = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December"]

Date = _dt.date
Rendered = Tuple[str, str]  # (surface, norm)


def roc(year: int) -> int:
    return year - 1911


def norm_day(d: Date) -> str:
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


def norm_month(d: Date) -> str:
    return f"{d.year:04d}-{d.month:02d}"


def _roc_compact(d: Date) -> str:
    return f"{roc(d.year)}{d.month:02d}{d.day:02d}"


def _en_month(d: Date, r: Random) -> str:
    """`Dec`, `Dec.` or `December`: all three occur in English-written notes."""
    if r.random() < 0.3:
        return MONTH_FULL[d.month - 1]
    return MONTH_ABBR[d.month - 1] + ("." if d.month != 5 and r.random() < 0.4 else "")


# precision -> list of (format name, weight, renderer). Weights follow how often charts use each form.
DAY: List[Tuple[str, float, Callable[[Date, Random], str]]] = [
    ("ce_slash", 3, lambda d, r: f"{d.year}/{d.month:02d}/{d.day:02d}"),
    ("ce_dot", 3, lambda d, r: f"{d.year}.{d.month:02d}.{d.day:02d}"),
    ("ce_dash", 2, lambda d, r: f"{d.year}-{d.month:02d}-{d.day:02d}"),
    ("ce_slash_nopad", 1.5, lambda d, r: f"{d.year}/{d.month}/{d.day}"),
    ("en_mdy", 1.5, lambda d, r: f"{_en_month(d, r)} {d.day}, {d.year}"),
    ("en_ymd", 1, lambda d, r: f"{d.year} {MONTH_ABBR[d.month - 1]}{'.' if d.month != 5 else ''} {d.day}"),
    ("en_dmy", 1, lambda d, r: f"{d.day} {MONTH_ABBR[d.month - 1]} {d.year}"),
    ("en_dmy_dash", 0.5, lambda d, r: f"{d.day:02d}-{MONTH_ABBR[d.month - 1]}-{d.year}"),
    ("us_slash", 0.7, lambda d, r: f"{d.month}/{d.day}/{d.year}"),
    ("roc_dot", 3, lambda d, r: f"{roc(d.year)}.{d.month:02d}.{d.day:02d}"),
    ("roc_slash", 2, lambda d, r: f"{roc(d.year)}/{d.month:02d}/{d.day:02d}"),
    ("roc_slash_nopad", 1.5, lambda d, r: f"{roc(d.year)}/{d.month}/{d.day}"),
    ("roc_compact", 1.5, lambda d, r: _roc_compact(d)),
    ("roc_mk", 1.5, lambda d, r: r.choice(["mk", "MK"]) + _roc_compact(d)),
    ("roc_zh", 1.5, lambda d, r: f"{roc(d.year)}年{d.month}月{d.day}日"),
    ("roc_zh_prefix", 1, lambda d, r: f"民國{roc(d.year)}年{d.month}月{d.day}日"),
    ("roc_zh_numerals", 0.5,
     lambda d, r: f"民國{render_positional(roc(d.year))}年{render_counted(d.month)}月{render_counted(d.day)}日"),
    ("roc_mk_mixed", 0.3, lambda d, r: f"MK{roc(d.year)}{render_counted(d.month)}月{d.day}日"),
    ("ce_zh", 1, lambda d, r: f"{d.year}年{d.month}月{d.day}日"),
    ("ce_compact", 0.5, lambda d, r: f"{d.year}{d.month:02d}{d.day:02d}"),
]
MONTH: List[Tuple[str, float, Callable[[Date, Random], str]]] = [
    ("roc_zh_month", 2, lambda d, r: f"{roc(d.year)}年{d.month}月"),
    ("roc_zh_month_prefix", 1, lambda d, r: f"民國{roc(d.year)}年{d.month}月"),
    ("en_month_year", 2, lambda d, r: f"{MONTH_ABBR[d.month - 1]}{r.choice(['', '.']) if d.month != 5 else ''} {d.year}"),
    ("en_fullmonth_year", 1, lambda d, r: f"{MONTH_FULL[d.month - 1]} {d.year}"),
    ("ce_slash_month", 1, lambda d, r: f"{d.year}/{d.month:02d}"),
    ("ce_dot_month", 1.5, lambda d, r: f"{d.year}.{d.month}"),
    ("roc_dot_month", 0.7, lambda d, r: f"{roc(d.year)}.{d.month:02d}"),
    ("ce_zh_month", 1, lambda d, r: f"{d.year}年{d.month}月"),
    ("mm_yyyy", 0.5, lambda d, r: f"{d.month:02d}/{d.year}"),
]
YEAR: List[Tuple[str, float, Callable[[Date, Random], str]]] = [
    ("roc_mk_year", 2, lambda d, r: f"{r.choice(['mk', 'MK'])}{roc(d.year)}"),
    ("ce_year", 2, lambda d, r: f"{d.year}"),
    ("roc_zh_year_prefix", 1, lambda d, r: f"民國{roc(d.year)}年"),
    ("roc_zh_year", 1, lambda d, r: f"{roc(d.year)}年"),
    ("ce_zh_year", 1, lambda d, r: f"{d.year}年"),
]
MONTH_DAY: List[Tuple[str, float, Callable[[Date, Random], str]]] = [
    ("md_slash", 3, lambda d, r: f"{d.month}/{d.day}"),
    ("md_zh", 2, lambda d, r: f"{d.month}月{d.day}日"),
    ("md_en", 1, lambda d, r: f"{MONTH_ABBR[d.month - 1]} {d.day}"),
    ("md_slash_pad", 1, lambda d, r: f"{d.month:02d}/{d.day:02d}"),
]
MONTH_ONLY: List[Tuple[str, float, Callable[[Date, Random], str]]] = [
    ("month_zh_numeral", 2, lambda d, r: f"{render_counted(d.month)}月"),
    ("month_zh", 1, lambda d, r: f"{d.month}月"),
    ("month_en", 1, lambda d, r: MONTH_FULL[d.month - 1]),
]
PRECISIONS: Dict[str, list] = {"day": DAY, "month": MONTH, "year": YEAR, "month-day": MONTH_DAY,
                               "month-only": MONTH_ONLY}
FORMATS: Dict[str, Tuple[str, Callable[[Date, Random], str]]] = {
    name: (prec, fn) for prec, table in PRECISIONS.items() for name, _, fn in table
}


def norm_of(d: Date, precision: str) -> str:
    """The annotation-format norm for a date shown with `precision`."""
    if precision == "day":
        return norm_day(d)
    if precision == "month":
        return norm_month(d)
    if precision == "year":
        return f"{d.year:04d}"
    if precision == "month-day":
        return f"--{d.month:02d}-{d.day:02d}"
    if precision == "month-only":
        return f"--{d.month:02d}"
    raise ValueError(f"Unknown precision {precision!r}")


def pick_format(rng: Random, precision: str) -> str:
    table = PRECISIONS[precision]
    return rng.choices([n for n, _, _ in table], weights=[w for _, w, _ in table])[0]


def render(d: Date, fmt: str, rng: Random) -> Rendered:
    """(surface, norm) of `d` in format `fmt`."""
    precision, fn = FORMATS[fmt]
    return fn(d, rng), norm_of(d, precision)


def range_pair(start: Date, end: Date, rng: Random) -> Tuple[Rendered, Rendered]:
    """Two ends of a range in one shared format (`2223.3-2224.9`, `110/1/5-110/2/3`, `1101225-1110103`)."""
    fmt = rng.choice(["ce_dot_month", "ce_dot_month", "roc_slash_nopad", "roc_compact", "ce_slash", "roc_dot"])
    return render(start, fmt, rng), render(end, fmt, rng)
