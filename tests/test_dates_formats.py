"""Calendar library: Chinese numerals, render/parse round trips, shifts (hypothesis property tests)."""
import datetime as dt

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spacy_deid.dates import UnrenderableDate, not_a_calendar_date, parse, render, shift, shift_value
from spacy_deid.dates.finder import FinderSettings, dates_the_calendar_lacks
from spacy_deid.dates.numerals import parse_counted, parse_positional, render_counted, render_positional

# Every format the finder produces, by precision (the day formats cover every field style).
DAY_FORMATS = [
    "{Y:n4}/{M:n2}/{D:n2}", "{Y:n4}-{M:n2}-{D:n2}", "{Y:n4}.{M:n}.{D:n}", "{Y:n4}{M:n2}{D:n2}",
    "{R:n}.{M:n2}.{D:n2}", "{R:n}/{M:n}/{D:n}", "{R:n3}{M:n2}{D:n2}", "mk{R:n}{M:n2}{D:n2}",
    "MK{R:n}{M:zc}月{D:n2}日", "民國{R:zp〇}年{M:zc}月{D:zc}日", "民國{R:zc}年{M:zc}月{D:zc}日",
    "{Y:zp〇}年{M:zc}月{D:zc}日", "{Y:zp零}年{M:zc}月{D:zc}日", "{Y:n4}年{M:n}月{D:n}日",
    "{R:n} 年 {M:n} 月 {D:n} 日", "民國{R:n}年{M:n}月{D:n}號", "{M:n2}/{D:n2}/{Y:n4}",
    "{D:n2}/{M:n2}/{Y:n4}", "{M:n2}-{D:n2}-{Y:n4}", "{Y:c20}/{M:n2}/{D:n2}", "{D:n2}-{M:U3}-{Y:c20}",
    "{M:T3} {D:n}, {Y:n4}", "{M:T3}. {D:th}, {Y:n4}", "{M:T} {D:th}, {Y:n4}", "{D:th} of {M:T} {Y:n4}",
    "{D:n} {M:T3} {Y:n4}", "{Y:n4} {M:T3}. {D:n}", "{Y:n4}-{M:T3}-{D:n2}", "{M:U} {D:n}, {Y:n4}",
    "{M:L3} {D:n}, {Y:n4}", "{M:T4}. {D:n}, {Y:n4}", "民國 {R:n}.{M:n2}.{D:n2}", "mk{R:n}.{M:n2}.{D:n2}",
]
MONTH_FORMATS = ["{Y:n4}/{M:n}", "{Y:n4}.{M:n}", "{R:n}年{M:n}月", "{R:zc}年{M:zc}月", "{M:T3} {Y:n4}",
                 "{M:n}/{Y:n4}", "{M:T}, {Y:n4}", "mk{R:n}{M:n2}", "{Y:zp〇}年{M:zc}月", "{M:U3}-{Y:n4}"]
YEAR_FORMATS = ["mk{R:n}", "民國{R:n}年", "{Y:n4}年", "{R:zp〇}年", "民國{R:zc}年", "{Y:n4}", "MK{R:n}"]
MD_FORMATS = ["{M:n}/{D:n}", "{M:n}月{D:n}日", "{M:zc}月{D:zc}日", "{M:T} {D:n}", "{D:n} {M:T3}",
              "{M:n2}/{D:n2}", "{D:th} of {M:T}"]
MONTH_ONLY_FORMATS = ["{M:zc}月", "{M:n}月"]

# Years every format can write: Minguo 1..999, a two-digit year in its century, Christian 1800-2399.
# Two-digit years follow the strptime pivot (00-68 -> 20xx), so the format-free check stays below 2069.
dates = st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2068, 12, 31))
wide_dates = st.dates(min_value=dt.date(1912, 1, 1), max_value=dt.date(2399, 12, 31))


@pytest.mark.parametrize("text,value", [("一一〇", 110), ("二〇二一", 2021), ("九九", 99), ("〇九九", 99),
                                        ("一〇一", 101), ("一零一", 101)])
def test_positional_numerals(text, value):
    assert parse_positional(text)[0] == value


@pytest.mark.parametrize("text,value", [("十", 10), ("十二", 12), ("二十", 20), ("二十五", 25), ("三十一", 31),
                                        ("一百", 100), ("一百一十", 110), ("一百零五", 105), ("九十九", 99),
                                        ("二千零二十一", 2021), ("五", 5)])
def test_counted_numerals(text, value):
    assert parse_counted(text) == value
    assert render_counted(value) == text


@pytest.mark.parametrize("text", ["一百五", "十百", "一百十", "零", "", "一二", "百"])
def test_malformed_counted_numerals_are_refused(text):
    assert parse_counted(text) is None


@given(st.integers(min_value=1, max_value=9999))
def test_counted_round_trip(n):
    assert parse_counted(render_counted(n)) == n


@given(st.integers(min_value=0, max_value=9999), st.sampled_from("〇零○"))
def test_positional_round_trip(n, zero):
    assert parse_positional(render_positional(n, zero))[0] == n


@settings(max_examples=60, deadline=None)
@given(dates, st.sampled_from(DAY_FORMATS))
def test_day_formats_round_trip(date, fmt):
    value = date.isoformat()
    text = render(value, fmt)
    assert parse(text, fmt)[0]["value"] == value
    # the format-free parser (what the finder uses) also reads it, with this value among its readings
    assert value in {r["value"] for r in parse(text)}


@settings(max_examples=60, deadline=None)
@given(wide_dates, st.sampled_from([f for f in DAY_FORMATS if "c20" not in f]))
def test_day_formats_round_trip_wide_years(date, fmt):
    value = date.isoformat()
    assert parse(render(value, fmt), fmt)[0]["value"] == value


@settings(max_examples=40, deadline=None)
@given(wide_dates, st.sampled_from(MONTH_FORMATS), st.sampled_from(YEAR_FORMATS))
def test_month_and_year_formats_round_trip(date, month_fmt, year_fmt):
    month_value = date.isoformat()[:7]
    year_value = date.isoformat()[:4]
    assert parse(render(month_value, month_fmt), month_fmt)[0]["value"] == month_value
    assert parse(render(year_value, year_fmt), year_fmt)[0]["value"] == year_value


@settings(max_examples=40, deadline=None)
@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2000, 12, 31)),
       st.sampled_from(MD_FORMATS + MONTH_ONLY_FORMATS))
def test_partial_formats_round_trip(date, fmt):
    value = "--" + date.isoformat()[5:] if "{D:" in fmt else "--" + date.isoformat()[5:7]
    text = render(value, fmt)
    assert parse(text, fmt)[0]["value"] == value


@settings(max_examples=80, deadline=None)
@given(dates, st.sampled_from(DAY_FORMATS + MONTH_FORMATS + YEAR_FORMATS + MD_FORMATS + MONTH_ONLY_FORMATS),
       st.integers(min_value=-400, max_value=400))
def test_shift_forward_then_back_is_identity(date, fmt, days):
    fields = {f[0] for f in fmt.split("{")[1:]}
    iso = date.isoformat()
    if "Y" in fields or "R" in fields:
        value = iso if "D" in fields else (iso[:7] if "M" in fields else iso[:4])
    else:
        value = "--" + iso[5:] if "D" in fields else "--" + iso[5:7]
    reading = parse(render(value, fmt), fmt)[0]
    moved = shift(render(value, fmt), days, reading)
    assume(moved is not None)
    back_reading = parse(moved, fmt)
    assume(back_reading)  # the documented Christian fallback changes the format: not a round trip
    assert shift(moved, -days, back_reading[0]) == render(value, fmt)


@pytest.mark.parametrize("text,days,expected", [
    ("110.12.25", 10, "111.01.04"),
    ("110.1.5", 30, "110.2.4"),
    ("1101225", 7, "1110101"),
    ("mk1101225", -365, "mk1091225"),
    ("民國一一〇年十二月二十五日", 7, "民國一一一年一月一日"),
    ("民國一百一十年十二月二十五日", 7, "民國一百一十一年一月一日"),
    ("MK110十二月25日", 20, "MK111一月14日"),
    ("Dec. 25th, 2021", 8, "Jan. 2nd, 2022"),
    ("25-DEC-21", 10, "04-JAN-22"),
    ("2021/12/25", -25, "2021/11/30"),
    ("3/14", 1, "3/15"),
    ("12/31", 1, "01/01"),  # no written evidence of padding: padded, the commoner style
    ("3/31", 1, "4/1"),
    ("九月", 40, "十月"),
    ("九月", 5, "十月"),  # month precision moves at least one month: never equal to the original
    ("108年8月", -31, "108年7月"),
    ("mk87", 10, "mk88"),
    ("Aug 2019", 365, "Aug 2020"),
])
def test_shift_keeps_format(text, days, expected):
    assert shift(text, days) == expected


def test_shift_before_minguo_1_uses_christian_counterpart():
    assert shift("民國1年1月5日", -10) == "1911年12月26日"
    assert shift("mk0010105", -10) == "19111226"
    assert shift("001.01.05", -10) == "1911.12.26"
    assert shift("1.1.5", -10) is None  # a one-digit year is not a supported surface: None, no crash


def test_shift_out_of_two_digit_century_writes_four_digits():
    assert shift("31/12/99", 1, parse("31/12/99", "{D:n2}/{M:n2}/{Y:c19}")[0]) == "01/01/2000"


def test_shift_never_raises_on_junk():
    assert shift("not a date", 5) is None
    assert shift("", 5) is None
    assert shift("9999/12/31", 1) is None
    assert shift_value("0001-01-01", -1) is None


@pytest.mark.parametrize("value,fmt", [("1911-05-01", "{R:n}.{M:n}.{D:n}"), ("2021-12-25", "{Y:c19}/{M:n}/{D:n}")])
def test_render_refuses_unwritable_dates(value, fmt):
    with pytest.raises(UnrenderableDate):
        render(value, fmt)


def test_render_checks_precision():
    with pytest.raises(ValueError):
        render("2021-12", "{Y:n4}/{M:n2}/{D:n2}")
    with pytest.raises(ValueError):
        render("2021-02-30", "{Y:n4}/{M:n2}/{D:n2}")


@pytest.mark.parametrize("text", ["110.02.30", "13/13/2020", "2021/02/29", "1100230", "二月三十日"])
def test_impossible_dates_have_no_reading(text):
    assert parse(text) == []


def test_the_finders_years_decide_which_year_is_written_today():
    """The component's own settings: a year past its last one is no year a note writes."""
    assert dates_the_calendar_lacks("入院 2035/02/30") == [(3, 13)]
    assert dates_the_calendar_lacks("入院 2035/02/30", FinderSettings(max_year=2030)) == []
    assert not_a_calendar_date("2035/02/30", FinderSettings(max_year=2030)) is False


@pytest.mark.parametrize("text,expected", [
    # written as a date, and no date of the calendar
    ("110.02.30", True), ("2021/02/29", True), ("2021-02-30", True), ("31/04/2021", True),
    ("mk1100230", True), ("民國110年2月30日", True), ("110年02月30日", True),
    ("二月三十日", True), ("民國一一〇年二月三十日", True), ("Feb 30, 2021", True), ("30 Feb 2021", True),
    ("April 31st, 2021", True), ("31-APR-2021", True),
    # dates of the calendar
    ("110.02.28", False), ("2020/02/29", False), ("110.2.3", False), ("mk1100228", False), ("民國一一〇年二月三日", False),
    # not written as a date: a ratio, a reading, vent settings (no year of the finder's), a bare number, words
    ("2/30", False), ("120/80", False), ("450/14/5", False), ("999-99-99", False), ("120/80/60", False),
    # no month of the calendar: garbage, not a typo of a day
    ("13/13/2020", False), ("110.13.01", False),
    # a month and number without a year (`may 40`), a form the finder leaves for being weak (`25 Dec 21`)
    ("February 30", False), ("may 40", False), ("25 Dec 21", False), ("31 Apr 21", False), ("1100230", False), ("2300", False), ("年三月", False), ("yesterday", False),
])
def test_not_a_calendar_date(text, expected):
    assert not_a_calendar_date(text) is expected
    # in running text, each shape's family is scanned only where what its dates hold is there
    note = f"入院 {text} 追蹤"
    assert dates_the_calendar_lacks(note) == ([(3, 3 + len(text))] if expected else [])
