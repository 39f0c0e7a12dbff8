"""AGE patterns: the number only, in every form notes use; durations, floors and scores are not ages."""

import pytest

import spacy_deid

from linear import assert_linear


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules")
    nlp.initialize()
    return nlp


@pytest.mark.parametrize(
    "text,age",
    [
        ("The 49-year-old pastor was admitted.", "49"),
        ("a 25 year old woman", "25"),
        ("Patient: 王小明  Age 57  MRN 123", "57"),
        ("Age: 8, female", "8"),
        ("aged 80, lives alone", "80"),
        ("呂品承 (50歲) was referred", "50"),
        ("吳先生, 52 歲, 回國", "52"),
        ("32y/o male s/p fall", "32"),
        ("45 y.o. female", "45"),
        ("Progress note (40M)", "40"),
        ("OPD note (63 F)", "63"),
        ("年齡: 71", "71"),
        ("病人: 劉安珍 / F / 38", "38"),  # a chart header's sex and age
        ("Transfer summary, M/45, from ER", "45"),
    ],
)
def test_ages_found(nlp, text, age):
    ages = [e.text for e in nlp(text).ents if e.label_ == "AGE"]
    assert ages == [age]


@pytest.mark.parametrize(
    "text",
    ["會計18y, 喝酒20年", "住在5F", "age 3/12 months", "150歲的老房子", "0歲", "MMSE 24/30, PHQ-9 = 19",
     "BP 120/80 HR 88", "room 5F-3", "F/U in 2 weeks", "2/F lobby", "Dx F33.2/41"],
)
def test_not_ages(nlp, text):
    assert [e.text for e in nlp(text).ents if e.label_ == "AGE"] == []


def test_age_patterns_are_linear(nlp):
    assert_linear(lambda n: nlp(("1" * (5 * n) + "歲") + (" age " * n) + ("9-year-" * n) + ("M/" * n)), 10_000)
