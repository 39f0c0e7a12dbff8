"""The compiled date scanner (`spacy_deid/dates/_scan.pyx`) against the pure-Python reference it
replaces (`finder._scan`, `finder._merge`), and the token write path (`entcolumns`, compiled as
`_entcolumns.pyx`, and its Python path) against spaCy's `doc.char_span` and `doc.ents = spans`.

The README's install builds the extensions; a machine without a C/C++ compiler installs without them
and runs the Python code. Set SPACY_DEID_PURE_PYTHON=1 there to say so: otherwise a missing extension
is a failed build and fails here.
"""
import importlib.util
import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy.tokens import Doc, Span

import spacy_deid
from spacy_deid.corpus import parse_inline
from spacy_deid.dates import entcolumns, finder

from linear import assert_linear

PURE_PYTHON = os.environ.get("SPACY_DEID_PURE_PYTHON") == "1"
needs_compiled = pytest.mark.skipif(
    PURE_PYTHON and not finder.COMPILED,
    reason="SPACY_DEID_PURE_PYTHON=1: installed without a C compiler, nothing compiled to compare")
needs_compiled_write_path = pytest.mark.skipif(
    PURE_PYTHON and not entcolumns.COMPILED,
    reason="SPACY_DEID_PURE_PYTHON=1: installed without a C++ compiler, no compiled write path")

SETTINGS = finder.FinderSettings()
TABLE = Path(__file__).parent / "data" / "dates" / "table.txt"
# Pieces of dates, their look-alikes and their contexts (veto words, units, prefixes, numerals).
PIECES = ["12", "3", "07", "110", "2021", "1234567", "20211225", "12345", "0", "00", "31", "29", "02", "99",
          "1999", "2095", "1101225", ".", "/", "-", ":", " ", "  ", ", ", ".,", "\n", "\t", "Dec", "dec", "DEC",
          "Sept", "August", "may", "Mar", "march", "of", "th", "st", "nd", "Hb", "K", "BP", "tab", "mg", "pain",
          "was", "since", "on", "in", "mk", "MK", "Mk", "mk ", "民國", "民國 ", "國", "k", "年", "月", "日", "號",
          "十二", "一一〇", "二十五", "〇", "九", "十", "兩", "於", "電話", "分機", "血壓", "x", "A", "_", "²", "１",
          "ſep", "Aprıl", "'", "’", "'s"]


def _reference(text: str):
    finder.clear_caches()
    return finder._scan(text, SETTINGS)


def _compiled(text: str):
    finder.clear_caches()
    return finder._compiled.scan(text, SETTINGS, finder._read_cache(SETTINGS))


def _bench_notes(n: int, seed: int):
    spec = importlib.util.spec_from_file_location(
        "bench_dates", Path(__file__).parents[1] / "benchmarks" / "bench_dates.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.generate_notes(n, seed=seed)


def _table_texts():
    return [parse_inline(line).text for line in TABLE.read_text(encoding="utf8").splitlines()
            if line.strip() and not line.startswith("#")]


@needs_compiled
def test_the_extension_was_built():
    assert finder.COMPILED, ("spacy_deid.dates._scan was not built: reinstall with a C compiler "
                             "(pip install -e .), or set SPACY_DEID_PURE_PYTHON=1 to run without it")


@needs_compiled_write_path
def test_the_write_path_extension_was_built():
    assert entcolumns.COMPILED, ("spacy_deid.dates._entcolumns was not built: reinstall with a C++ "
                                 "compiler (pip install -e .), or set SPACY_DEID_PURE_PYTHON=1")


@needs_compiled
def test_same_candidates_on_the_table_and_generated_notes():
    texts = _table_texts() + _bench_notes(150, seed=11)
    differing = [t for t in texts if _compiled(t) != _reference(t)]
    assert not differing, f"{len(differing)} of {len(texts)} texts differ, first: {differing[0][:200]!r}"


@needs_compiled
def test_same_merged_dates_as_the_reference():
    for text in _table_texts() + _bench_notes(60, seed=12):
        finder.clear_caches()
        fast = finder.find_readings(text)
        assert fast == finder._merge(_reference(text))
        assert [(s, e) for s, e, _ in fast] == sorted((s, e) for s, e, _ in fast)


@needs_compiled
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=18))
def test_same_candidates_on_generated_pieces(pieces):
    text = "".join(pieces)
    assert _compiled(text) == _reference(text)


@needs_compiled
def test_same_candidates_on_random_piece_strings():
    """A wider sweep than hypothesis' examples: 20,000 strings from the same pieces."""
    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 16)))
        assert _compiled(text) == _reference(text), repr(text)


@needs_compiled
def test_warm_cache_gives_the_same_candidates():
    text = _bench_notes(1, seed=4)[0]
    cold = _compiled(text)
    warm = finder._compiled.scan(text, SETTINGS, finder._read_cache(SETTINGS))
    assert warm == cold == _reference(text)


@needs_compiled
def test_settings_reach_the_compiled_scan():
    narrow = finder.FinderSettings(max_year=2100, two_digit_year_pivot=30, bare_years=False)
    text = "seen 2223/3/4, since 2019, 23/04/05 and 45/04/05"
    finder.clear_caches()
    fast = finder._compiled.scan(text, narrow, finder._read_cache(narrow))
    finder.clear_caches()
    assert fast == finder._scan(text, narrow)
    assert all(text[s:e] not in ("2223/3/4", "2019") for s, e, _ in fast)


@needs_compiled
def test_a_month_name_in_unicode_lookalikes_is_not_read():
    """`ſep` (long s) folds to `sep` under Unicode case folding; it used to raise StopIteration."""
    for text in ("2019 ſep 5", "2019 Aprıl 5", "5 ſep 2019"):
        assert finder.find_readings(text) == finder._merge(_reference(text)) == []


@needs_compiled
@pytest.mark.parametrize("unit", ["A" * 40 + " ", "1" * 97 + "/", "12/" * 30, "Dec " * 20, "110年" * 20,
                                  "mk" + "9" * 50])
def test_adversarial_input_is_linear_and_equal(unit):
    assert _compiled(unit * 50) == _reference(unit * 50)
    assert_linear(lambda n: finder.find_readings(unit * n), 400)


# -- the token write path ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tokenizer():
    return spacy_deid.blank().tokenizer


@pytest.fixture(params=["compiled", "python"])
def write_path(request, monkeypatch):
    if request.param == "python":
        monkeypatch.setattr(entcolumns, "_compiled", None)
    elif PURE_PYTHON and not entcolumns.COMPILED:
        pytest.skip("SPACY_DEID_PURE_PYTHON=1: installed without a C++ compiler, no compiled write path")
    return request.param


def _char_span_bounds(doc, candidates):
    out = []
    for start, end, _ in candidates:
        span = doc.char_span(start, end)
        out.append(None if span is None else (span.start, span.end))
    return out


def test_token_bounds_equal_char_span(tokenizer, write_path):
    texts = _table_texts() + _bench_notes(40, seed=13)
    for text in texts:
        doc = tokenizer(text)
        candidates = finder.find_readings(text)
        assert entcolumns.token_bounds(doc, candidates) == _char_span_bounds(doc, candidates)


def test_token_bounds_refuse_offsets_inside_tokens(tokenizer, write_path):
    doc = tokenizer("ab 2021/12/25 cd")  # tokens: ab | 2021/12/25 | cd
    for start, end in [(1, 2), (3, 9), (4, 13), (2, 13), (3, 15), (14, 16), (16, 16), (3, 13), (0, 16)]:
        expected = _char_span_bounds(doc, [(start, end, ())])
        assert entcolumns.token_bounds(doc, [(start, end, ())]) == expected, (start, end)
    assert entcolumns.token_bounds(doc, [(4, 13, ())]) == [None]
    assert entcolumns.token_bounds(doc, [(3, 13, ())]) == [(1, 2)]


def test_ent_columns_equal_setting_doc_ents(tokenizer, write_path):
    for text in _table_texts()[:80] + _bench_notes(10, seed=14) + ["", "2021/12/25", "no dates here"]:
        fast, slow = tokenizer(text), tokenizer(text)
        bounds = [b for b in entcolumns.token_bounds(fast, finder.find_readings(text)) if b is not None]
        entcolumns.set_ents_outside(fast, bounds, "DATE")
        slow.ents = [Span(slow, s, e, label="DATE") for s, e in bounds]
        assert [(t.ent_iob_, t.ent_type_) for t in fast] == [(t.ent_iob_, t.ent_type_) for t in slow]
        assert [(e.start, e.end, e.label_) for e in fast.ents] == [(e.start, e.end, e.label_) for e in slow.ents]


def test_write_path_on_a_doc_not_from_our_tokenizer(write_path):
    """Any spaCy doc: words and spaces given, whitespace tokens included."""
    nlp = spacy_deid.blank()
    doc = Doc(nlp.vocab, words=["seen", "on", "2021/12/25", "  ", "and", "110.1.5", "."],
              spaces=[True, True, True, False, True, False, False])
    text = doc.text
    candidates = [(text.index("2021"), text.index("2021") + 10, ()), (text.index("110"), text.index("110") + 7, ()),
                  (0, 3, ())]
    candidates.sort()
    bounds = entcolumns.token_bounds(doc, candidates)
    assert bounds == _char_span_bounds(doc, candidates) == [None, (2, 3), (5, 6)]
    entcolumns.set_ents_outside(doc, [b for b in bounds if b], "DATE")
    assert [(e.text, e.label_) for e in doc.ents] == [("2021/12/25", "DATE"), ("110.1.5", "DATE")]
    assert [t.ent_iob_ for t in doc] == ["O", "O", "B", "O", "O", "B", "O"]


@pytest.mark.parametrize("bad", [(0, 9), (3, 3), (-1, 2), (5, 4)])
def test_write_path_refuses_bounds_outside_the_doc(tokenizer, write_path, bad):
    doc = tokenizer("seen on 2021/12/25 .")
    with pytest.raises(IndexError):
        entcolumns.set_ents_outside(doc, [bad], "DATE")


def test_has_entities_equals_bool_doc_ents(tokenizer, write_path):
    doc = tokenizer("seen on 2021/12/25 by Dr. Lin .")
    assert entcolumns.has_entities(doc) is False  # no annotation at all
    doc.ents = []
    assert entcolumns.has_entities(doc) is False  # every token O
    doc.ents = [Span(doc, 5, 6, label="PERSON")]
    assert entcolumns.has_entities(doc) is True
    one = tokenizer("2021/12/25")
    one.ents = [Span(one, 0, 1, label="DATE")]
    assert entcolumns.has_entities(one) is True and bool(one.ents)
    assert entcolumns.has_entities(tokenizer("")) is False
