"""propagate: a name, profession or place found once is PHI wherever else it stands in the note and in
the same patient's other notes, where the model found at least half of its occurrences."""
import re

import pytest
from spacy.language import Language
from spacy.tokens import Span

import spacy_deid
from linear import assert_linear
from spacy_deid.cues import default_cue_rules
from spacy_deid.refine.propagate import SOURCE, found_strings, propagate, spread_relations, spreads
from spacy_deid.refine import RefineStage
from spacy_deid.refine.builtin import GIVEN_NAMES_GROUP
from spacy_deid.romanize import NAME_LINK

from ner_spans import deid_after, doc_with_ents, ents_of

# Stands in for a trained NER that finds a name only after `Dr.` or in the `病人` header (as a model
# reading each context on its own might), and `Ho` and `復健科` wherever they stand.
FOUND_AFTER = re.compile(r"(?:Dr\. |病人|由)(?P<name>[\u4e00-\u9fff]{3}|[A-Z][a-z]+)")


@Language.component("fake_ner_for_propagation")
def fake_ner_for_propagation(doc):
    spans = []
    for match in FOUND_AFTER.finditer(doc.text):
        label = "DOCTOR" if match.group().startswith("Dr.") else "PATIENT"
        spans.append(doc.char_span(*match.span("name"), label=label))
    for word, label in (("Ho", "PATIENT"), ("復健科", "DEPARTMENT")):
        for match in re.finditer(word, doc.text):
            spans.append(doc.char_span(*match.span(), label=label))
    doc.ents = [s for s in spans if s is not None]
    return doc


def _nlp(**deid_config):
    return deid_after("fake_ner_for_propagation", **deid_config)


def _ents(doc):
    for ent in doc.ents:
        assert doc.text[ent.start_char:ent.end_char] == ent.text
    return [(ent.text, ent.label_, ent._.source) for ent in doc.ents]


@pytest.mark.parametrize("text,spread", [
    ("林美玲", True), ("Chen Mei", True), ("Chen", True), ("Ho", False), ("He", False), ("美", False),
    ("Cymbalta", False), (" Chen", False), ("1234", False),
])
def test_which_strings_spread(text, spread):
    assert spreads(text) is spread


def test_other_occurrences_in_the_note_are_marked():
    doc = _nlp(surrogates=False)("病人林美玲入院. 今日林美玲情緒穩定; Dr. Chen saw Chen and Cheng. Ho said 復健科, 復健科.")
    assert _ents(doc) == [
        ("林美玲", "PATIENT", "ner"), ("林美玲", "PATIENT", SOURCE), ("Chen", "DOCTOR", "ner"),
        ("Chen", "DOCTOR", SOURCE), ("Ho", "PATIENT", "ner"), ("復健科", "DEPARTMENT", "rule"),
        ("復健科", "DEPARTMENT", "rule")]  # the department rule reads every department name; none spreads


def test_a_string_the_model_found_in_too_few_of_its_occurrences_does_not_spread():
    nlp = _nlp(surrogates=False)
    doc = nlp("Dr. Chen came. Chen and Chen visited.")  # found once in three
    assert [e._.source for e in doc.ents] == ["ner"]
    doc = nlp("Dr. Chen came. Chen visited.")  # found once in two
    assert [e._.source for e in doc.ents] == ["ner", SOURCE]


def test_a_full_name_spreads_whatever_share_was_found():
    """A person's full name is a name by its shape: found once, it is found everywhere (issue 47)."""
    doc = _nlp(surrogates=False)("病人林美玲入院. 林美玲 and 林美玲 visited.")
    assert [e._.source for e in doc.ents] == ["ner", SOURCE, SOURCE]


def test_switched_off_nothing_spreads():
    steps = ["spread_relations", "given_names"]  # no `propagate`
    doc = _nlp(surrogates=False, patient_steps=steps)("病人林美玲入院. 今日林美玲情緒穩定.")
    assert _ents(doc) == [("林美玲", "PATIENT", "ner")]


def test_a_patients_notes_share_what_was_found_and_get_one_surrogate():
    nlp = _nlp()
    records = [{"id": "a", "patient_id": "p1", "text": "病人林美玲入院."},
               {"id": "b", "patient_id": "p1", "text": "今日林美玲情緒穩定."},
               {"id": "c", "patient_id": "p2", "text": "今日林美玲情緒穩定."}]
    results = {r.id: r for r in spacy_deid.deidentify(nlp, records)}
    assert "林美玲" not in results["a"].deid_text and "林美玲" not in results["b"].deid_text
    first = results["a"].replacements[0]["surrogate"]
    assert [r["surrogate"] for r in results["b"].replacements] == [first]
    assert results["b"].replacements[0]["source"] == SOURCE
    assert results["c"].deid_text == "今日林美玲情緒穩定."  # another patient: nothing was found there


def test_found_strings_take_the_label_most_entities_carry_and_skip_what_does_not_spread():
    nlp = spacy_deid.blank()
    docs = [nlp.make_doc("Ho met 林美玲"), nlp.make_doc("林美玲 again"), nlp.make_doc("林美玲 called")]
    docs[0].ents = [Span(docs[0], 0, 1, label="PATIENT"), docs[0].char_span(7, 10, label="FAMILY")]
    for doc in docs[1:]:
        doc.ents = [doc.char_span(0, 3, label="PATIENT")]
    assert found_strings(docs) == found_strings(docs[::-1]) == {"林美玲": "PATIENT"}
    assert found_strings(docs[:2]) == found_strings(docs[1::-1]) == {"林美玲": "FAMILY"}  # a tie: alphabetical
    assert propagate(docs) == 0  # every occurrence is already an entity


def test_a_patients_spans_and_name_links_do_not_depend_on_the_order_of_the_notes():
    """A tie between a person's label and another goes to the person's in either order, so the romanized
    form in the third note is marked and linked to the Han name whichever note comes first."""
    def notes():
        return _docs_with_names(("林美玲來電詢問.", [("林美玲", "GENERAL_BUSINESS", "ner")]),
                                ("朋友林美玲來訪.", [("林美玲", "PERSON", "ner")]),
                                ("Lin Mei-Ling called again.", []))
    for order in ((0, 1, 2), (1, 0, 2), (2, 1, 0)):
        docs = notes()
        assert propagate([docs[i] for i in order]) == 1
        form = [(e.text, e.label_, e._.source, docs[2].user_data.get(("._.", NAME_LINK, e.start_char, e.end_char)))
                for e in docs[2].ents]
        assert form == [("Lin Mei-Ling", "PERSON", SOURCE, "林美玲")], order


def _docs_with_names(*notes):
    """Docs whose entities are given as (text, [(name, label, source), ...]); each name's first occurrence."""
    nlp = spacy_deid.blank()
    docs = []
    for text, names in notes:
        doc = nlp.make_doc(text)
        spans = [doc.char_span(text.index(name), text.index(name) + len(name), label=label)
                 for name, label, _ in names]
        doc.ents = spans
        for span, (_, _, source) in zip(spans, names):
            span._.source = source
        docs.append(doc)
    return docs


def test_a_relation_said_once_holds_for_every_mention_of_the_name():
    docs = _docs_with_names(("家庭會談: 女兒林美玲參加.", [("林美玲", "FAMILY", "ner")]),
                            ("林美玲來電詢問出院日期.", [("林美玲", "PATIENT", "ner")]),
                            ("Seen by psychiatrist Chen Yu-Ting. Chen Yu-Ting will follow up.",
                             [("Chen Yu-Ting", "PERSON", "ner")]))
    docs[2].ents = list(docs[2].ents) + [docs[2].char_span(35, 47, label="PERSON")]
    assert spread_relations(docs) == 3
    assert [(e.text, e.label_, e._.source) for d in docs for e in d.ents] == [
        ("林美玲", "FAMILY", "ner"), ("林美玲", "FAMILY", "ner"),
        ("Chen Yu-Ting", "DOCTOR", "ner"), ("Chen Yu-Ting", "DOCTOR", None)]


def test_relations_that_disagree_short_names_and_rule_spans_keep_their_labels():
    disagree = _docs_with_names(("女兒林美玲來訪.", [("林美玲", "FAMILY", "ner")]),
                                ("朋友林美玲來電.", [("林美玲", "PERSON", "ner")]),
                                ("林美玲再次來電.", [("林美玲", "PATIENT", "ner")]))
    assert spread_relations(disagree) == 0
    short = _docs_with_names(("Dr. Lin agreed.", [("Lin", "DOCTOR", "ner")]),
                             ("Lin called.", [("Lin", "PATIENT", "ner")]))
    assert spread_relations(short) == 0  # `Lin` alone may be anyone's
    ruled = _docs_with_names(("配偶: 王大明來訪.", [("王大明", "FAMILY", "ner")]),
                             ("姓名: 王大明", [("王大明", "PATIENT", "rule")]))
    assert spread_relations(ruled) == 0  # a rule read its own context (and the field there disagrees)


def test_a_patients_notes_share_the_label_a_relation_word_says():
    # The stand-in NER calls the name after 由 the patient; the second note says whose she is (in words
    # that run on after the name into no common word, so that no cued name is added there: the
    # propagation adds it).
    records = [{"id": "a", "patient_id": "p1", "text": "由林美玲簽署同意書."},
               {"id": "b", "patient_id": "p1", "text": "家屬林美玲昨來電."}]
    nlp = _nlp(surrogates=False)
    stages = spacy_deid.batch.Stages(nlp)
    docs = stages.recognize([r["text"] for r in records])
    assert [_ents(d) for d in docs] == [[("林美玲", "PATIENT", "ner")], []]
    stages.vote(docs)
    assert [_ents(d) for d in docs] == [[("林美玲", "FAMILY", "ner")], [("林美玲", "FAMILY", SOURCE)]]


def test_long_adversarial_notes_take_linear_time():
    nlp = spacy_deid.blank()
    names = [f"Name{i:04d}" for i in range(300)]
    head = " ".join(names) + " "
    text = head + "NAME" * 20_000 + " " + " ".join(names[::-1])
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(text.index(n), text.index(n) + len(n), label="PERSON") for n in names]
    assert propagate([doc]) == 300
    assert sum(1 for e in doc.ents if e._.source == SOURCE) == 300

    def run(n):  # the found names, then n repetitions of one name's near miss (all caps, no edge)
        long_doc = nlp.make_doc(head + "NAME0001" * n)
        long_doc.ents = [long_doc.char_span(head.index(x), head.index(x) + len(x), label="PERSON") for x in names]
        propagate([long_doc])

    assert_linear(run, 4000)


@pytest.mark.parametrize("text,start,end,expected", [
    ("郭大衛 ID F134567890", 0, 1, (0, 3, "PATIENT")),  # a given name after a tagged surname
    ("病人陳明", 2, 3, (2, 4, "PATIENT")),  # up to the text's end
    ("王先生 said", 0, 1, None),  # a title, no given name
    ("郭大衛斯 ID", 0, 1, None),  # no plain end within two characters
    ("的大衛 ID", 0, 1, None),  # no surname
])
def test_a_given_name_after_a_tagged_surname_grows_its_span(text, start, end, expected):
    assert default_cue_rules().apply(text, start, end, "PATIENT", GIVEN_NAMES_GROUP) == expected


def test_the_propagate_step_grows_the_surname_before_it_spreads():
    text = "郭大衛 ID F134567890. 郭大衛 called."
    doc = doc_with_ents(text, [("郭", "PATIENT")])
    RefineStage([], ["propagate"]).refine_note(doc)
    assert ents_of(doc) == [("郭大衛", "PATIENT"), ("郭大衛", "PATIENT")]
