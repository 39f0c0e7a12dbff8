"""ages (cue rules `resources/cue_rules/ages.json`, group `not_phi`): a number the NER calls an AGE stays
only when the words around it write it as an age."""
import pytest

import spacy_deid
from spacy_deid.cues import default_cue_rules
from spacy_deid.refine import RefineStage

from linear import assert_linear


def uncued_age(text: str, start: int, end: int, label: str) -> bool:
    """Do the packaged `not_phi` rules drop text[start:end] labelled `label`?"""
    return default_cue_rules().apply(text, start, end, label, "not_phi") == (start, end, "")


def _at(text: str, value: str, nth: int = 0) -> tuple:
    start = -1
    for _ in range(nth + 1):
        start = text.index(value, start + 1)
    return start, start + len(value)


@pytest.mark.parametrize("text,value", [
    ("病人為38歲男性", "38"),
    ("A 25-year-old woman", "25"),
    ("32 y/o F with MDD", "32"),
    ("Age: 57", "57"),
    ("年齡：61", "61"),
    ("現年45歲", "45"),
    ("【出院摘要】王小明 (M/37)  署北  6A病房", "37"),
    ("王明潔 (F, 81)", "81"),
    ("Her sister Chun-Yen Lin, 18, works at a bakery.", "18"),
    ("Household: Chang Yu (mother, 50), Yu Chang (uncle).", "50"),
    ("parents divorced when pt was 9; raised by grandma", "9"),
    ("husband died at 52 of stroke.", "52"),
    ("a woman in her 80's", "80"),
    ("a 3 days old neonate", "3"),
    ("嬰兒5個月大", "5"),
    ("Name  Age  Sex\n王五  45  M", "45"),  # the column's header
    ("王五 45 M", "45"),  # a sex letter after it
])
def test_an_age_written_as_one_keeps_its_cue(text, value):
    start, end = _at(text, value)
    assert not uncued_age(text, start, end, "AGE")


@pytest.mark.parametrize("text,value,nth", [
    ("GAF 45 at admission, 60 at discharge.", "60", 0),
    ("He scored 12 on the BDI", "12", 0),
    ("住院天數 23 天", "23", 0),
])
def test_a_bare_number_is_no_age(text, value, nth):
    start, end = _at(text, value, nth)
    assert uncued_age(text, start, end, "AGE")
    assert not uncued_age(text, start, end, "ROOM")  # only AGE spans are judged


def test_a_bracketed_digit_is_an_apposition():
    text = "her son (5) lives with her"
    start, end = _at(text, "5")
    assert not uncued_age(text, start, end, "AGE")  # an apposition, kept


def test_numerals_and_longer_numbers_are_not_judged():
    text = "三十八歲; 1234 units"
    assert not uncued_age(text, 0, 3, "AGE")
    start, end = _at(text, "1234")
    assert not uncued_age(text, start, end, "AGE")  # four digits: no age


def test_the_not_phi_step_drops_an_uncued_ner_age_and_keeps_a_cued_one():
    text = "Pt 45 y/o, GAF 45 at admission, 60 at discharge."
    doc = spacy_deid.blank()(text)
    doc.ents = [doc.char_span(*_at(text, "45"), label="AGE"), doc.char_span(*_at(text, "60"), label="AGE")]
    RefineStage(["not_phi"], []).refine_note(doc)
    assert [(e.text, e.label_, e.start_char) for e in doc.ents] == [("45", "AGE", 3)]


def test_cues_run_in_linear_time_on_one_endless_line():
    def run(n: int) -> None:
        text = "(1) x " * n + "(2) " + "7 " * n
        for i in range(0, len(text) - 1, max(1, len(text) // 200)):
            if text[i].isdigit():
                uncued_age(text, i, i + 1, "AGE")
    assert_linear(run, 20000)
