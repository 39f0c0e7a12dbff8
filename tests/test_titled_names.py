"""titles (cue rules `resources/cue_rules/titles.json`): a place span with an English title before it,
or a staff credential or a relation word in apposition after it, is a person's name; the title also
leaves a name span's start."""
import pytest

from spacy_deid.cues import default_cue_rules
from spacy_deid.refine.cue_steps import cue_repair
from spacy_deid.refine.relations import by_relation

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of, repair_ner_spans, repaired, stepped

titled_place = cue_repair(default_cue_rules(), "titles")


@pytest.mark.parametrize("text,found,label", [
    ("Pt seen by Dr. Patel this am.", ("Patel", "DEPARTMENT"), "DOCTOR"),
    ("Discussed with Dr Kowalski today", ("Kowalski", "HOSPITAL"), "DOCTOR"),
    ("Mrs. Garcia was admitted for CHF.", ("Garcia", "NATIONALITY"), "PERSON"),
    ("Ms Lin called back.", ("Lin", "CITY"), "PERSON"),
    ("Report given to Jessica, RN, on the oncoming shift.", ("Jessica", "GENERAL_BUSINESS"), "PERSON"),
    ("Note co-signed by Hsu Li-Wen, MD", ("Hsu Li-Wen", "SCHOOL"), "DOCTOR"),
    ("Grace and Peter (brother-in-law) came to visit.", ("Peter", "CITY"), "FAMILY"),
    ("Call from Kelly, the patient's case worker, re placement.", ("Kelly", "GENERAL_BUSINESS"), "PERSON"),
])
def test_a_titled_place_span_is_a_name(text, found, label):
    assert repaired(text, found, titled_place) == (1, [(found[0], label)])


@pytest.mark.parametrize("text,found", [
    ("Referred to Dr. Chen Clinic for follow-up.", ("Chen Clinic", "HOSPITAL")),  # an institution
    ("Transferred to Taipei Veterans General Hospital.", ("Taipei Veterans General Hospital", "HOSPITAL")),
    ("Mr. 7B", ("7B", "ROOM")),  # rooms and numbers are not names
    ("seen by Dr. ortho team", ("ortho", "DEPARTMENT")),  # not a capitalised word
    ("Addr. Taipei", ("Taipei", "CITY")),  # `Dr` inside a word is no title
    ("Mrs. Garcia was admitted.", ("Garcia", "PATIENT")),  # already a name: `relations` decides
    ("Moved to Kaohsiung, the patient's hometown.", ("Kaohsiung", "CITY")),  # no relation word
])
def test_other_spans_stay(text, found):
    assert repaired(text, found, titled_place) == (0, [found])


@pytest.mark.parametrize("text,found,expected", [
    ("Nurse Linda reported that the pt refused meds.", ("Nurse Linda", "PERSON"), ("Linda", "PERSON")),
    ("Discussed with Dr. Lin Chia-Hao.", ("Dr. Lin Chia-Hao", "PERSON"), ("Lin Chia-Hao", "DOCTOR")),
    ("Judge Liao ordered the evaluation.", ("Judge Liao", "PERSON"), ("Liao", "PERSON")),  # a role as a title
    ("Prosecutor Huang requested the records.", ("Prosecutor Huang", "PERSON"), ("Huang", "PERSON")),
    ("TEACHER LEE CALLED.", ("TEACHER LEE", "FAMILY"), ("LEE", "PERSON")),
])
def test_a_name_span_drops_the_english_title_it_starts_with(text, found, expected):
    assert stepped(text, found, "relations") == (1, [expected])


def test_relations_refine_a_titled_name_after_it():
    text = "his wife, Mrs. Garcia, at bedside"
    doc = doc_with_ents(text, [("Garcia", "NATIONALITY")])
    counts = repair_ner_spans(doc)
    assert counts["titles"] == 1 and counts["relations"] == 1
    assert ents_of(doc) == [("Garcia", "FAMILY")]


def test_cost_grows_linearly_with_the_length_of_a_span():
    def run(n):
        text = "Dr. " + "A" * n + ", RN"
        doc = doc_with_ents(text, [("A" * n, "HOSPITAL")])
        repair_ner_spans(doc)
    assert_linear(run, 20000)


@pytest.mark.parametrize("text,found,expected", [
    ("案母表示病人之前在許老闆的工廠工作。", ("許老闆", "GENERAL_BUSINESS"), ("許", "PERSON")),
    ("病人住在紀先生家中", ("紀先生", "CITY"), ("紀", "PERSON")),
    ("由王主治醫師查房", ("王主治醫師", "PERSON"), ("王", "DOCTOR")),
    ("教會的章姊妹常來關心病人", ("章姊妹", "FAMILY"), ("章", "PERSON")),
    # titles the shared list (titles_zh) brought from the span checks' list
    ("出院前由郭護理師衛教用藥", ("郭護理師", "HOSPITAL"), ("郭", "PERSON")),
    ("請何院長協助安排床位", ("何院長", "GENERAL_BUSINESS"), ("何", "PERSON")),
])
def test_a_surname_and_its_title_keep_the_surname_alone(text, found, expected):
    assert repaired(text, found, titled_place) == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("在三商老闆那裡工作", ("三商老闆", "GENERAL_BUSINESS")),  # 三商 is no surname
    ("王大明先生來電", ("王大明先生", "PERSON")),  # a full name before the title: relations trims it
])
def test_other_spans_with_a_title_stay(text, found):
    assert repaired(text, found, titled_place) == (0, [found])
