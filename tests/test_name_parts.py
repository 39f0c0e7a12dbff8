"""name_parts: a lone given name is the person whose full name holds it in the same notes, and takes
the role that full name has; a surname, a short word, a mention with its own relation word, a rule's
span and a full name of two roles stay as they are."""
import re

import pytest
from spacy.language import Language

import spacy_deid
from linear import assert_linear
from spacy_deid.refine.name_parts import given_name_roles, is_given_name, relabel_given_names, romanized_given_names

# Stands in for a trained NER that reads a full name after a kinship word or `Dr.` by that word, and
# every other capitalised word after `with`, `by` or at a line's start as a friend (a PERSON), as a
# model that learned those frames from friends' names might.
FULL = re.compile(r"(?P<kin>daughter|son|Dr\.) (?P<name>[A-Z][a-z]+ [A-Z][a-z]+-[A-Z][a-z]+)")
LONE = re.compile(r"(?:(?<=with )|(?<=by )|(?<=friend )|(?<=Mr\. )|^)(?P<name>[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?= )", re.M)


@Language.component("fake_ner_for_name_parts")
def fake_ner_for_name_parts(doc):
    spans = []
    for match in FULL.finditer(doc.text):
        label = "DOCTOR" if match.group("kin") == "Dr." else "FAMILY"
        spans.append(doc.char_span(*match.span("name"), label=label))
    for match in LONE.finditer(doc.text):
        if not any(s.start_char <= match.start("name") < s.end_char for s in spans):
            spans.append(doc.char_span(*match.span("name"), label="PERSON"))
    doc.ents = sorted((s for s in spans if s is not None), key=lambda s: s.start_char)
    return doc


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_for_name_parts")
    nlp.add_pipe("deid", config={"demo_key": True, "surrogates": False})
    nlp.initialize()
    return nlp


def _names(doc):
    for ent in doc.ents:
        assert doc.text[ent.start_char:ent.end_char] == ent.text
    return [(ent.text, ent.label_) for ent in doc.ents if ent.label_ in ("PATIENT", "FAMILY", "PERSON", "DOCTOR")]


@pytest.mark.parametrize("word,given", [
    ("Mei-Ling", True), ("Yu-Ting", True), ("Jessica", True), ("Kevin", True),
    ("Wang", False), ("Chen", False), ("Smith", False), ("Ou-Yang", False),  # surnames
    ("Amy", False), ("Ho", False),  # too short to say whose
])
def test_which_words_of_a_full_name_are_given_names(word, given):
    assert is_given_name(word) is given


def test_a_lone_given_name_takes_the_role_of_its_full_name(nlp):
    doc = nlp("His daughter Wang Mei-Ling came on Sunday.\nMei-Ling asked about discharge.")
    assert _names(doc) == [("Wang Mei-Ling", "FAMILY"), ("Mei-Ling", "FAMILY")]


def test_a_physicians_given_name_is_the_physician(nlp):
    doc = nlp("Seen by Dr. Chen Yu-Ting today.\nDiscussed with Yu-Ting about the plan.")
    assert _names(doc) == [("Chen Yu-Ting", "DOCTOR"), ("Yu-Ting", "DOCTOR")]


def test_a_surname_alone_says_nothing_of_whose_it_is(nlp):
    # the patient and her father share `Wang`
    doc = nlp("His daughter Wang Mei-Ling came.\nWang said he slept well.")
    assert _names(doc) == [("Wang Mei-Ling", "FAMILY"), ("Wang", "PERSON")]


def test_the_mentions_own_relation_word_wins(nlp):
    doc = nlp("His daughter Wang Mei-Ling came.\nHer friend Mei-Ling called too.")
    assert _names(doc) == [("Wang Mei-Ling", "FAMILY"), ("Mei-Ling", "PERSON")]


def test_an_honorific_keeps_a_mention_from_the_physician(nlp):
    doc = nlp("Seen by Dr. Chen Yu-Ting.\nMr. Yu-Ting came in again.")
    assert _names(doc) == [("Chen Yu-Ting", "DOCTOR"), ("Yu-Ting", "PERSON")]


def test_a_given_name_of_two_roles_stays(nlp):
    doc = nlp("His daughter Wang Mei-Ling came. Seen by Dr. Lin Mei-Ling.\nMei-Ling asked about it.")
    assert _names(doc)[-1] == ("Mei-Ling", "PERSON")


def test_a_patients_notes_share_the_role():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_for_name_parts")
    nlp.add_pipe("deid", config={"demo_key": True})
    nlp.initialize()
    records = [{"id": "a", "patient_id": "p1", "text": "His son Lin Chih-Ming visited.\n"},
               {"id": "b", "patient_id": "p1", "text": "Chih-Ming brought clothes.\n"},
               {"id": "c", "patient_id": "p2", "text": "Chih-Ming brought clothes.\n"}]
    results = {r.id: r for r in spacy_deid.deidentify(nlp, records)}
    assert [r["label"] for r in results["b"].replacements] == ["FAMILY"]
    assert [r["label"] for r in results["c"].replacements] == ["PERSON"]  # another patient: nothing says so
    # the son keeps one surrogate: his given name alone is the given name of his full surrogate
    full, lone = results["a"].replacements[0]["surrogate"], results["b"].replacements[0]["surrogate"]
    assert full.endswith(" " + lone)


def test_rule_spans_and_full_names_are_never_relabelled():
    nlp = spacy_deid.blank()
    doc = nlp.make_doc("daughter Wang Mei-Ling; Mei-Ling; Mei-Ling")
    doc.ents = [doc.char_span(9, 22, label="FAMILY"), doc.char_span(24, 32, label="PERSON"),
                doc.char_span(34, 42, label="PATIENT")]
    doc.ents[2]._.source = "rule"
    assert given_name_roles([doc]) == {"mei-ling": "FAMILY"}
    assert relabel_given_names([doc]) == 1
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("Wang Mei-Ling", "FAMILY"), ("Mei-Ling", "FAMILY"), ("Mei-Ling", "PATIENT")]


def test_given_name_roles_run_in_linear_time():
    nlp = spacy_deid.blank()

    def run(n):
        text = "Aaaa Bbbb-Cccc, " * n + "!"
        doc = nlp.make_doc(text)
        doc.ents = [doc.char_span(0, len(text) - 3, label="FAMILY")]
        given_name_roles([doc])

    assert_linear(run, 20_000)


@pytest.mark.parametrize("name,given", [
    ("林美玲", ("mei-ling", "meiling")), ("王明", ("ming",)), ("歐陽娜", ("na",)),
    ("本院", ()), ("林", ()), ("陳志明醫師", ()), ("林龘龘", ()),  # no given name the lexicon romanizes
])
def test_a_han_full_name_holds_its_romanized_given_name(name, given):
    assert romanized_given_names(name) == given


def test_a_romanized_given_name_is_the_person_a_han_name_names():
    nlp = spacy_deid.blank()
    notes = [("家庭會談: 案女 林美玲 參加.", [("林美玲", "FAMILY")]),
             ("Mei-Ling called to ask about discharge.", [("Mei-Ling", "PERSON")]),
             ("MEILING brought clothes; 社工 王明 visited.", [("MEILING", "PERSON"), ("王明", "PERSON")])]
    docs = []
    for text, names in notes:
        doc = nlp.make_doc(text)
        doc.ents = [doc.char_span(text.index(name), text.index(name) + len(name), label=label) for name, label in names]
        docs.append(doc)
    assert given_name_roles(docs) == {"mei-ling": "FAMILY", "meiling": "FAMILY", "ming": "PERSON"}
    assert relabel_given_names(docs) == 2
    assert [(e.text, e.label_) for doc in docs for e in doc.ents] == [
        ("林美玲", "FAMILY"), ("Mei-Ling", "FAMILY"), ("MEILING", "FAMILY"), ("王明", "PERSON")]
