"""The speed-ups of the dates package against the plain code they replace: bulk span values vs
`span._`, the table calendar check vs `formats.is_valid`, the
reversed-regex left veto vs the word-by-word rule, the pruned prefilter vs the unpruned one, and the
per-surface read cache."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spacy_deid
from spacy_deid.dates import finder, find_dates, spanvalues
from spacy_deid.dates.formats import is_valid
from spacy_deid.extensions import install_extensions


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates")
    return nlp


# -- span values ------------------------------------------------------------------------------
def test_set_span_values_equals_underscore_writes(nlp):
    install_extensions()
    text = "Seen 2021/12/25 and 110.1.5 by 王小明"
    fast, slow = nlp.make_doc(text), nlp.make_doc(text)
    values = [((5, 15), {"date_norm": "2021-12-25", "source": "date", "date_readings": [{"format": "x"}]}),
              ((20, 27), {"date_resolution": "default", "surrogate": None})]
    spanvalues.set_span_values(fast, [(s, e, v) for (s, e), v in values])
    for (start, end), vals in values:
        span = slow.char_span(start, end)
        for name, value in vals.items():
            setattr(span._, name, value)
    assert fast.user_data == slow.user_data
    span = fast.char_span(5, 15)
    assert span._.date_norm == "2021-12-25" and span._.date_readings == [{"format": "x"}]
    assert spanvalues.get_span_value(fast, 5, 15, "source") == "date"
    assert spanvalues.get_span_value(fast, 20, 27, "date_norm") is None  # the extension's default


def test_set_span_values_uses_getters_and_setters(nlp):
    from spacy.tokens import Span
    stored = {}
    Span.set_extension("test_dates_setter", getter=lambda s: stored.get(s.start_char),
                       setter=lambda s, v: stored.__setitem__(s.start_char, v), force=True)
    try:
        doc = nlp.make_doc("Seen 2021/12/25")
        spanvalues.set_span_values(doc, [(5, 15, {"test_dates_setter": "via setter"})])
        assert stored == {5: "via setter"} and not doc.user_data
        assert spanvalues.get_span_value(doc, 5, 15, "test_dates_setter") == "via setter"
    finally:
        Span.remove_extension("test_dates_setter")


def test_unknown_extension_is_a_clear_error(nlp):
    with pytest.raises(AttributeError, match="no_such_extension"):
        spanvalues.set_span_values(nlp.make_doc("x"), [(0, 1, {"no_such_extension": 1})])


# -- calendar check ---------------------------------------------------------------------------
def test_valid_equals_is_valid():
    for year in (None, 1, 1900, 1999, 2000, 2020, 2021, 2100, 2400, 9999, 10000, 0):
        for month in (None, 0, 1, 2, 4, 12, 13):
            for day in (None, 0, 1, 28, 29, 30, 31, 32):
                assert finder._valid(year, month, day) == is_valid(year, month, day), (year, month, day)


# -- left veto --------------------------------------------------------------------------------
def _left_vetoed_reference(left: str) -> bool:
    """The original word-by-word rule (kept here as the specification of the regex)."""
    for _ in range(2):
        left = left.rstrip(finder._LEFT_STRIP)
        if left.lower().endswith(finder._LEFT_VETO_PHRASES):
            return True
        j = len(left)
        while j and left[j - 1].isascii() and left[j - 1].isalnum():
            j -= 1
        word = left[j:].lower()
        if word in finder._LEFT_VETO_WORDS:
            return True
        if word not in finder._LINKING_WORDS:
            return False
        left = left[:j]
    return False


_VETO_PIECES = ["BP", "bp", "Sbp", "score", "SCORE", "was", "Was", "is", "of", "at", "of the", " ", "  ", ":",
                "=", "：", "\t", "\n", "血壓", "體溫", "blood pressure", "Blood Pressure", "vital signs", "K",
                "\u212a", "\u0130", "x", "9", "a1c", "HbA1c", "vas", "pain", "painful", "tab", "ps", "psi", "(",
                ".", "。", "dose"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_VETO_PIECES), max_size=8))
def test_left_veto_regex_equals_word_rule(pieces):
    left = "".join(pieces)[-24:]
    assert finder._left_vetoed(left) == _left_vetoed_reference(left)


@pytest.mark.parametrize("left,vetoed", [
    ("BP ", True), ("BP: ", True), ("score was ", True), ("血壓", True), ("Blood Pressure = ", True),
    ("taper ", True), ("Seen on ", False), ("BPx ", False), ("was ", False), ("於", False),
])
def test_left_veto_examples(left, vetoed):
    assert finder._left_vetoed(left) is vetoed


# -- prefilter pruning ------------------------------------------------------------------------
# The prefilter as it was before pruning anchors no shape can use (decimals, phone numbers, words that
# cannot end a month, `k`/`國` that are no prefix): the pruned one must find exactly the same.
_UNPRUNED_ANCHOR = re.compile(
    r"[0-9年月](?:"
    r"(?<=[〇零○一二三四五六七八九十百千兩][年月])"
    r"|(?<![0-9][0-9])(?:(?<=[A-Za-z]{3}[ \-][0-9])|(?<=[A-Za-z]{3}\.[ ][0-9])|(?<=[A-Za-z]{3},[ ][0-9])"
    r"|(?<=[A-Za-z]{3}\.[0-9])|(?<=[kK國][0-9])|(?<=[kK國][ ][0-9]))[0-9]*"
    r"|(?<![0-9][0-9])(?<=[0-9])[0-9]*(?![0-9])(?:(?=[./\-][0-9A-Za-z])|(?=[ ]?[年月])"
    r"|(?=(?:st|nd|rd|th)?,?[ ]{1,2}(?:of[ ])?[A-Za-z]{3})"
    r"|(?<=(?<![0-9])[0-9]{4})|(?<=(?<![0-9])[0-9]{7})|(?<=(?<![0-9])[0-9]{8}))"
    r")")
_TEXT_PIECES = ["12", "3", "07", "110", "2021", "1234567", "20211225", "12345", ".", "/", "-", " ", "  ", ", ",
                ".,", "Dec", "dec", "Sept", "August", "Hb", "K", "mk", "MK", "Mk", "民國", "國", "k", "年", "月",
                "日", "十二", "一一〇", "th", "of", "BP", "tab", "mg", "since", "於", "電話", "x", "\n"]


def _scan_with(anchor, text, monkeypatch):
    monkeypatch.setattr(finder, "_ANCHOR", anchor)
    finder.clear_caches()
    return finder._merge(finder._scan(text, finder.FinderSettings()))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TEXT_PIECES), max_size=14))
def test_pruned_prefilter_finds_the_same(pieces):
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as mp:
        unpruned = _scan_with(_UNPRUNED_ANCHOR, text, mp)
    assert finder._merge(finder._scan(text, finder.FinderSettings())) == unpruned


@pytest.mark.parametrize("text,found", [
    ("Hb 12.3, K 4.2, Cr 1.5", []),
    ("電話 07-1234567", []),
    ("sertraline 50mg since Dec 25, 2021", ["Dec 25, 2021"]),
    ("Dec  12.5 follow up", ["Dec  12"]),
    ("mk 12.3 and 民國 99.5", ["mk 12.3", "民國 99.5"]),
])
def test_pruned_anchors_keep_dates(text, found):
    assert [text[c.start:c.end] for c in find_dates(text)] == found


# -- read cache -------------------------------------------------------------------------------
def test_read_cache_gives_the_same_readings_and_fresh_dicts():
    text = "門診 99/05/12, 99/05/12 again; Dec 25, 2021 and 110年1月5日"
    finder.clear_caches()
    cold = [(c.start, c.end, c.readings) for c in find_dates(text)]
    first = find_dates(text)
    first[0].readings[0]["value"] = "changed by a caller"
    first[0].readings.append({"format": "junk"})
    warm = [(c.start, c.end, c.readings) for c in find_dates(text)]
    assert warm == cold
    assert len(cold[0][2]) == 2  # 99/05/12 reads as Minguo or two-digit Christian


def test_cache_is_per_settings():
    finder.clear_caches()
    assert [c.readings[0]["value"] for c in find_dates("seen 2223/3/4")] == ["2223-03-04"]
    assert find_dates("seen 2223/3/4", finder.FinderSettings(max_year=2100)) == []
    assert [c.readings[0]["value"] for c in find_dates("seen 2223/3/4")] == ["2223-03-04"]


def test_single_reading_dates_resolve_without_a_vote(nlp):
    doc = nlp("Seen 2021/12/25 and Dec 5, 2020")
    assert [(e._.date_norm, e._.date_resolution) for e in doc.ents] == [
        ("2021-12-25", "unambiguous"), ("2020-12-05", "unambiguous")]
    assert [[r["selected"] for r in e._.date_readings] for e in doc.ents] == [[True], [True]]
    assert all(e._.source == "date" for e in doc.ents)
