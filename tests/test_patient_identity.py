"""patient_identity: a name called the patient whose title states the other sex, or whose bare surname is
another surname, than the patient's notes write is a relative."""
import re

import pytest
from spacy.language import Language

from linear import assert_linear
from spacy_deid.patient_identity import patient_sex, sex_markers, title_sex

from ner_spans import deid_after

# Stands in for a trained NER that reads every surname before a title, and the name in the `病人`
# field, as the patient (as a model that learned `[陳]先生來電` from patients' frames might).
PATIENT_LIKE = re.compile(r"(?P<zh>[\u4e00-\u9fff])(?=先生|小姐|女士|太太)|(?:Mr|Ms|Mrs|Miss)\.? (?P<en>[A-Z][a-z]+)"
                          r"|病人: (?P<field>[\u4e00-\u9fff]{3})")


@Language.component("fake_ner_for_patient_identity")
def fake_ner_for_patient_identity(doc):
    spans = []
    for match in PATIENT_LIKE.finditer(doc.text):
        group = next(g for g in ("zh", "en", "field") if match.group(g))
        spans.append(doc.char_span(*match.span(group), label="PATIENT"))
    doc.ents = [s for s in spans if s is not None]
    return doc


@pytest.fixture(scope="module")
def nlp():
    return deid_after("fake_ner_for_patient_identity")


def _labels(doc):
    text = doc.text
    for ent in doc.ents:
        assert text[ent.start_char:ent.end_char] == ent.text
    return [(ent.text, ent.label_) for ent in doc.ents if ent.label_ in ("PATIENT", "FAMILY")]


@pytest.mark.parametrize("text,expected", [
    ("病人為38歲男性, 因失眠入院", ["M"]),
    ("45 y/o F, admitted for insomnia", ["F"]),
    ("This 45-year-old female was brought in", ["F"]),
    ("a 70 year old man with COPD", ["M"]),
    ("病人: 王美玲 / F / 38", ["F"]),
    ("Age/Sex: 16/F", ["F"]),
    ("性別：女  年齡：52", ["F"]),
    ("Sex: M", ["M"]),
    ("(M/37), 住院第3天", ["M"]),
    ("45 Y/O MALE, BROUGHT IN BY EMS", ["M"]),  # all capitals, title case
    ("A 45-year-old Female with MDD", ["F"]),
    # diagnosis codes, doses and a floor are no sex
    ("Dx codes F33.2 / F41.1", []),
    ("16/F1 病房, 2F/3 床", []),
    ("MMSE 24/30, Mg 2.1", []),
    ("45 y/o manic episode", []),  # a word that starts like one
])
def test_sex_markers(text, expected):
    assert list(sex_markers(text)) == expected


def test_patient_sex_needs_every_marker_to_agree():
    assert patient_sex(["38歲女性", "Age/Sex: 38/F"]) == "F"
    assert patient_sex(["38歲女性", "38 y/o M"]) is None
    assert patient_sex(["no marker here"]) is None


@pytest.mark.parametrize("text,start,end,expected", [
    ("陳先生來電", 0, 1, "M"),
    ("陳小姐來電", 0, 1, "F"),
    ("由陳太太陪同", 1, 2, "F"),
    ("Ms. Lin called", 4, 7, "F"),
    ("MR CHEN called", 3, 7, "M"),
    ("Mrs Lin called", 4, 7, "F"),
    ("陳志明來電", 0, 3, None),
    ("Dr. Lin called", 4, 7, None),
])
def test_title_sex(text, start, end, expected):
    assert title_sex(text, start, end) == expected


def test_a_title_of_the_other_sex_is_a_relative(nlp):
    doc = nlp("病人為45歲女性, 因失眠入院.\n陳先生來電詢問探視時間.\n陳小姐今日情緒平穩.")
    assert _labels(doc) == [("陳", "FAMILY"), ("陳", "PATIENT")]


def test_english_titles_too(nlp):
    doc = nlp("This 60-year-old male was admitted.\nMs. Chen called about visiting hours.\nMr. Chen slept well.")
    assert _labels(doc) == [("Chen", "FAMILY"), ("Chen", "PATIENT")]


def test_the_patient_field_and_unread_sex_stand(nlp):
    # a patient field is the patient whatever title follows; without a sex marker nothing changes
    assert _labels(nlp("38歲男性\n病人: 王美玲小姐")) == [("王美玲", "PATIENT")]
    assert _labels(nlp("陳先生來電詢問探視時間.")) == [("陳", "PATIENT")]
    # markers that disagree say nothing
    assert _labels(nlp("38歲男性, 38 y/o F\n陳小姐來電.")) == [("陳", "PATIENT")]


def test_a_bare_surname_that_is_not_the_patients_is_a_relative(nlp):
    doc = nlp("病人: 王美玲\n林小姐來電詢問探視時間.\n王小姐今日情緒平穩.")
    assert _labels(doc) == [("王美玲", "PATIENT"), ("林", "FAMILY"), ("王", "PATIENT")]
    # without a patient field the surname says nothing
    assert _labels(nlp("林小姐來電詢問探視時間.")) == [("林", "PATIENT")]


def test_the_patients_other_notes_decide(nlp):
    # the sex is written in one note, the title in another: the patient's notes are resolved together
    docs = [nlp.make_doc(text) for text in ("Age/Sex: 52/F", "陳先生來電.")]
    for doc in docs:
        nlp.get_pipe("fake_ner_for_patient_identity")(doc)
        nlp.get_pipe("deid").recognize(doc)
    assert _labels(docs[1]) == [("陳", "PATIENT")]
    nlp.get_pipe("deid").resolve(docs)
    assert _labels(docs[1]) == [("陳", "FAMILY")]


@pytest.mark.parametrize("unit", ["1", "12歲 ", "F/", "1/", "MALE ", "SEX: "])
def test_sex_markers_run_in_linear_time(unit):
    # long digit runs, all capitals and markers without a sex after them
    assert_linear(lambda n: list(sex_markers(unit * n)), 50_000)
