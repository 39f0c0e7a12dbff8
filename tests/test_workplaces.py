"""workplaces (cue rules `resources/cue_rules/workplaces.json`): a span in a frame of work (`在[中鋼]上班`,
`works at [IKEA]`) is a GENERAL_BUSINESS;
apposition (`relations.json`): a relation word in apposition after a name is not the patient's PROFESSION."""
import pytest

import spacy_deid
from spacy_deid.cues import default_cue_rules
from spacy_deid.predicates import place_phrases
from spacy_deid.refine.builtin import apply_span_repair
from spacy_deid.refine.cue_steps import cue_repair

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of, repaired

as_workplace = cue_repair(default_cue_rules(), "workplaces")
relation_in_apposition = cue_repair(default_cue_rules(), "apposition")


def in_work_frame(text: str, start: int, end: int) -> bool:
    return default_cue_rules().frame(text, start, end, "CITY", "workplaces") == "GENERAL_BUSINESS"


@pytest.mark.parametrize("text,found", [
    ("外配水電工, 38歲, 於鼎泰豐工作時坐立不安.", ("鼎泰豐", "HOSPITAL")),
    ("朋友孫勳昌從肯德基下班後來訪.", ("肯德基", "CITY")),
    ("111.10.10回中油上班, 診斷書交給主管.", ("中油", "CITY")),
    ("她97年畢業後到富邦上班.", ("富邦", "FAMILY")),
    ("在 義美 任職三年", ("義美", "SCHOOL")),
    ("Works at IKEA; FB www.facebook.com/x", ("IKEA", "SCHOOL")),
    ("He quit Bafang Dumpling on 8/9 after a fight.", ("Bafang Dumpling", "PERSON")),
    ("she was working for Asia Cement until 2019", ("Asia Cement", "HOSPITAL")),
    ("He quit his job at Uber Eats last year.", ("Uber Eats", "LOCATION")),
    ("after being laid off by KFC; Mr. Yang noted", ("KFC", "DOCTOR")),
    ("Works remotely for Fubon (Arizona office)", ("Fubon", "PERSON")),
    ("after a quarrel with supervisor Lu at the IKEA plant in Changhua", ("IKEA", "SCHOOL")),
    ("lives on Anhe St., above a Din Tai Fung outlet", ("Din Tai Fung", "DOCTOR")),
    ("症狀始於2019, 當時在中鋼上大夜班.", ("中鋼", "CITY")),
])
def test_a_span_in_a_frame_of_work_is_a_business(text, found):
    assert repaired(text, found, as_workplace) == (1, [(found[0], "GENERAL_BUSINESS")])


@pytest.mark.parametrize("text,found", [
    ("他在台北工作十年.", ("台北", "CITY")),  # a known place: the city where one works
    ("在高雄市上班", ("高雄市", "CITY")),
    ("works at Tokyo", ("Tokyo", "CITY")),
    ("在台大醫院上班", ("台大醫院", "HOSPITAL")),  # the type word says what it is
    ("於國立成功大學工作", ("國立成功大學", "SCHOOL")),
    ("在急診部上班", ("急診部", "DEPARTMENT")),  # a department is a place of work inside a hospital
    ("在中鋼上班", ("中鋼", "GENERAL_BUSINESS")),  # already one
    ("從中油回家", ("中油", "CITY")),  # no word of work after it
    ("中油上班", ("中油", "CITY")),  # no locative word before it
    ("employed by Yang Pin-Hsia, the patient's uncle", ("Yang Pin-Hsia", "FAMILY")),  # people employ too
    ("He walks at Daan Park daily.", ("Daan Park", "LOCATION")),
    ("a power plant near Taichung", ("Taichung", "CITY")),  # the site word before the name
    ("the Taipei plant", ("Taipei", "CITY")),  # a known place: the city's plant
])
def test_places_institutions_and_spans_outside_a_frame_of_work_keep_their_label(text, found):
    assert repaired(text, found, as_workplace) == (0, [found])


def test_the_frame_and_the_place_lists():
    text = "朋友從肯德基下班後來訪"
    assert in_work_frame(text, 3, 6)
    assert not in_work_frame(text, 0, 2)
    assert {"台北", "tokyo", "taiwan"} <= place_phrases()


def test_rule_spans_keep_their_label():
    text = "111.10.10回中油上班"
    doc = doc_with_ents(text, [("中油", "CITY")], source="rule")
    assert apply_span_repair(doc, text, as_workplace) == 0


@pytest.mark.parametrize("text,name,word", [
    ("10/18 Nunez, a pastor,來電, 詢問病人近況", "Nunez", "pastor"),
    ("Hsun-Chang, a colleague, admitted to it.", "Hsun-Chang", "colleague,"),
    ("TING-YUEH LIU, A SUPERVISOR, ADMITTED IT", "TING-YUEH LIU", "SUPERVISOR"),
    ("Yang Ying, her coach, called.", "Yang Ying", "coach"),
    ("Contacts: Wang Po (coach), Lin Mei (tutor)", "Wang Po", "coach"),  # in brackets after the name
    ("The village chief, Mr. Tsai, helped.", "Tsai", "village chief"),  # before the name
    ("A police officer named Lin escorted him.", "Lin", "police officer"),
])
def test_a_relation_word_in_apposition_after_a_name_is_no_profession(text, name, word):
    doc = doc_with_ents(text, [(name, "PERSON"), (word, "PROFESSION")])
    assert apply_span_repair(doc, text, relation_in_apposition) == 1
    assert ents_of(doc) == [(name, "PERSON")]


@pytest.mark.parametrize("text,ents", [
    ("OCCUPATION: pastor. Lives alone.", [("pastor", "PROFESSION")]),  # stated as the occupation
    ("Lee, a plumber, lives alone.", [("Lee", "PATIENT"), ("plumber", "PROFESSION")]),  # not a relation word
    ("She is a pastor at a small church.", [("pastor", "PROFESSION")]),  # an occupation stated
    ("Works part-time as a volunteer at a daycare.", [("volunteer", "PROFESSION")]),
    ("Lee was a retired police officer.", [("Lee", "PATIENT"), ("police officer", "PROFESSION")]),
    ("職業：志工", [("志工", "PROFESSION")]),
    ("案母擔任志工多年", [("志工", "PROFESSION")]),
])
def test_occupations_stated_as_one_stay(text, ents):
    doc = doc_with_ents(text, ents)
    assert apply_span_repair(doc, text, relation_in_apposition) == 0
    assert ents_of(doc) == ents


def test_cost_grows_linearly_with_the_number_of_spans():
    def run(n: int) -> None:
        unit = "在在在中油上班上班, works at works at IKEA; "
        text = unit * n
        doc = spacy_deid.blank().make_doc(text)
        spans = []
        for i in range(n):
            for part in ("中油", "IKEA"):
                start = i * len(unit) + unit.index(part)
                spans.append(doc.char_span(start, start + len(part), label="CITY"))
        doc.ents = spans
        assert apply_span_repair(doc, text, as_workplace) == 2 * n
    assert_linear(run, 2000)


@pytest.mark.parametrize("text,ents,kept", [
    ("Helped by a neighbor and a volunteer.", [("neighbor", "PROFESSION"), ("volunteer", "PROFESSION")], []),
    ("Supported by a pastor at church.", [("pastor", "PROFESSION")], []),
    ("Taipei, a pastor, said so.", [("Taipei", "CITY"), ("pastor", "PROFESSION")], [("Taipei", "CITY")]),
    ("由社工陪同就醫", [("社工", "PROFESSION")], []),
])
def test_a_relation_word_no_frame_states_as_an_occupation_is_no_profession(text, ents, kept):
    doc = doc_with_ents(text, ents)
    apply_span_repair(doc, text, relation_in_apposition)
    assert ents_of(doc) == kept
