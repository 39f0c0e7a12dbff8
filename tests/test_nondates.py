"""Clock times and amounts with a unit are not PHI (annotation.md): the date finder's vetoes and the
NER span checks both ask `dates/nondates.py`."""
import pytest

import spacy_deid
from spacy_deid.dates import finder
from spacy_deid.dates.finder import FinderSettings, find_dates
from spacy_deid.dates.nondates import clock_time, unit_after, years_of_duration
from spacy_deid.refine.spanshape import drop_misshapen, measured_amount

from linear import assert_linear


def _at(text: str, value: str, occurrence: int = 0):
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(value, start + 1)
    return start, start + len(value)


@pytest.mark.parametrize("text,value,is_clock", [
    ("first unit hung at 2045.", "2045", True),
    ("Dressing changed @1400", "1400", True),
    ("VS stable; at 2200 temp 37.8", "2200", True),
    ("2200 hrs: febrile", "2200", True),
    ("晚上 2300 入睡", "2300", True),
    ("凌晨0400醒來", "0400", True),
    ("2300時入睡", "2300", True),
    ("slept from 2300 to 0600", "2300", True),
    ("slept from 2300 to 0600", "0600", True),
    ("night shift 1900-0700", "1900", True),
    ("day shift 0700~1900", "1900", True),
    ("晚班 1600-2400 無特殊", "1600", True),
    ("since 2019 unemployed", "2019", False),
    ("from 2019 to 2021", "2019", False),  # a range of years: neither end has a leading zero
    ("from 2019 to 2021", "2021", False),
    ("2019-2021 in Taipei", "2019", False),
    ("at 2460 Main St", "2460", False),  # no HHMM: 24 is no hour
    ("at 1275", "1275", False),  # 75 is no minute
    ("at 20451", "2045", False),  # part of a longer number
    ("mk1101225 at", "1101", False),
    ("夜眠約 4-5 hr, 2330 入睡.", "2330", True),  # sleep and waking are told by the clock
    ("0530醒來後未再入睡", "0530", True),
    ("2019 入院後", "2019", False),
])
def test_clock_times_in_context(text, value, is_clock):
    start, end = _at(text, value)
    assert text[start:end] == value
    assert clock_time(text, start, end) is is_clock


@pytest.mark.parametrize("text,value,has_unit", [
    ("Fentanyl gtt at 50 mcg/hr", "50", True),
    ("Heparin 1200 units/hr", "1200", True),
    ("1200 kcal diet", "1200", True),
    ("Ativan 2mg", "2", True),
    ("給予 3顆", "3", True),
    ("38歲 female", "38", False),
    ("38 y/o", "38", False),
    ("忠孝東路27號", "27", False),
    ("8A-15床", "15", False),
    ("room 12 Lee", "12", False),
    ("seen 3 guys", "3", False),  # `g` is a unit only as a word
    ("隨身財物: 現金2000元", "2000", True),  # New Taiwan dollars
    ("2021元旦", "2021", False),  # New Year's Day, not dollars
    ("2020元宵節返家", "2020", False),
])
def test_units_after_a_number(text, value, has_unit):
    _, end = _at(text, value)
    assert unit_after(text, end) is has_unit


@pytest.mark.parametrize("text,expected", [
    ("Muscle power 5/5 in all limbs", []),
    ("Neuro: strength 5/5 bilat", []),
    ("RUE 4/5, LLE 3/5", []),
    ("肌力 4/5", []),
    ("smokes 1/2 ppd", []),
    ("drinks 3/4 cups of coffee daily", []),
    ("Sleep 6/7 hours", []),
    ("sleeps 4/5 hrs", []),
    ("for 2/3 days", []),
    ("Blood cultures 2/2 sets positive", []),
    ("1/3 specimens hemolyzed, 2/3 attempts failed", []),
    ("slept from 2300 to 0600", []),
    ("since 2200 hrs", []),
    ("ID: TMAX 100.8, WBC 14.2", []),  # not 民國100年8月
    ("Tmax 38.4", []),
    # kept: dates in the same words' company
    ("Seen on 3/4 in OPD", ["3/4"]),
    ("since 2019, from 2019 until 2021", ["2019", "2019", "2021"]),
    ("power outage on 3/4", ["3/4"]),
    ("2/3 to 2/5 admitted, 5 days", ["2/3", "2/5"]),
])
def test_finder_vetoes_amounts_and_times(text, expected):
    assert [text[c.start:c.end] for c in find_dates(text)] == expected


@pytest.mark.skipif(not finder.COMPILED, reason="compiled scanner not built")
@pytest.mark.parametrize("text", [
    "slept from 2300 to 0600, since 2019, from 2019 to 2021, since 2200 hrs",
    "RUE 4/5, smokes 1/2 ppd, Sleep 6/7 hours, Seen on 3/4",
    "cultures 2/2 sets, 1/3 specimens, 2/3 attempts, drawn 2/3",
])
def test_compiled_scan_applies_the_same_vetoes(text):
    settings = FinderSettings()
    finder.clear_caches()
    reference = finder._scan(text, settings)
    finder.clear_caches()
    assert finder._compiled.scan(text, settings, finder._read_cache(settings)) == reference


@pytest.mark.parametrize("text,value,label,dropped", [
    ("first unit hung at 2045.", "2045", "DATE", True),
    ("12 lead EKG done at 0815", "0815", "PHONE", True),
    ("上午 0900 給予 Ativan", "0900", "PHONE", True),
    ("Fentanyl gtt at 50 mcg/hr", "50", "AGE", True),
    ("1200 kcal diet", "1200", "DATE", True),
    ("BP:128/76mmHg SpO2:98%", "76mmHg", "ROOM", True),
    ("drank 500cc", "500cc", "NUMBER", True),
    ("moved to 7B-12", "7B", "ROOM", False),
    ("She drinks 2-3 glasses of wine", "2-3", "DATE", True),
    ("smokes 1 ppd", "1", "AGE", True),
    ("45 years old", "45", "AGE", False),  # years, months, days: ages are counted in them
    ("3 days old", "3", "AGE", False),
    ("seen 2019-2021 at", "2019-2021", "DATE", False),
    ("since 2019 unemployed", "2019", "DATE", False),
    ("38 y/o male", "38", "AGE", False),
    ("分機 2234", "2234", "PHONE", False),
    ("moved to 302 today", "302", "ROOM", False),
])
def test_ner_amounts_and_times_are_dropped(text, value, label, dropped):
    start, end = _at(text, value)
    assert measured_amount(text, start, end, label) is dropped
    doc = spacy_deid.blank()(text)
    span = doc.char_span(start, end, label=label)
    assert span is not None and span.text == value
    doc.ents = [span]
    assert [(s.text, s.label_) for s in drop_misshapen(doc)] == ([(value, label)] if dropped else [])
    assert [(e.text, e.label_) for e in doc.ents] == ([] if dropped else [(value, label)])


@pytest.mark.parametrize("unit", ["at 2045 ", "2300 to 0600 ", "0" * 97 + " ", "at " * 40, "1/2 ppd "])
def test_adversarial_input_is_linear(unit):
    def run(n: int) -> None:
        text = unit * n
        find_dates(text)
        for start in range(0, len(text), 7):
            clock_time(text, start, min(len(text), start + 4))
            unit_after(text, start)

    assert_linear(run, 400)


@pytest.mark.parametrize("text,value,is_duration", [
    ("在中鋼上班22年, 健保卡號", "22年", True),
    ("與太太結婚 20 年，育有二子", "20 年", True),
    ("在工地做過 3 年，後失業", "3 年", True),
    ("喝了 10 年", "10 年", True),
    ("抽菸30年, 每天一包", "30年", True),
    ("89年結婚, 育有一子", "89年", False),  # a Minguo year stands before the event
    ("於89年住院", "89年", False),
    ("約89年開始飲酒", "89年", False),  # an approximation may be a year
    ("上班後22年3月離職", "22年3月", False),  # a year and a month: a date
])
def test_years_of_duration(text, value, is_duration):
    start, end = _at(text, value)
    assert years_of_duration(text, start, end) is is_duration


@pytest.mark.parametrize("text,value,dropped", [
    ("在中鋼上班22年, 健保卡號", "22年", True),
    ("與太太結婚 20 年，育有二子", "20 年", True),
    ("89年結婚, 育有一子", "89年", False),
])
def test_ner_years_of_duration_are_dropped(text, value, dropped):
    start, end = _at(text, value)
    doc = spacy_deid.blank()(text)
    span = doc.char_span(start, end, label="DATE", alignment_mode="expand")
    assert span is not None
    doc.ents = [span]
    assert [e.text for e in drop_misshapen(doc)] == ([span.text] if dropped else [])
