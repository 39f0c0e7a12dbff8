"""The refine stage: steps named in the `deid` config, run in that order after the one merge, each
counting the spans it changed; saved with the pipeline; unknown names fail with the registered ones."""
import pytest
import spacy
from spacy.language import Language

import spacy_deid
from ner_spans import deid_after, doc_with_ents
from spacy_deid.refine import (COUNTS_KEY, DEFAULT_NOTE_STEPS, DEFAULT_PATIENT_STEPS, RefineStage, note_steps,
                               step_counts)

TEXT = "他常去國立成功大學。配偶: 彭恆彥陪同。"


@Language.component("fake_ner_for_refine")
def fake_ner_for_refine(doc):
    """Stands in for a trained NER: a school cut before its type word, a relative called PERSON."""
    a, b = doc.text.index("國立成功"), doc.text.index("彭恆彥")
    doc.ents = [doc.char_span(a, a + 4, label="STATE"), doc.char_span(b, b + 3, label="PERSON")]
    return doc


def _nlp(**deid_config):
    return deid_after("fake_ner_for_refine", surrogates=False, **deid_config)


def _ents(doc):
    for ent in doc.ents:
        assert doc.text[ent.start_char:ent.end_char] == ent.text
    return [(e.text, e.label_) for e in doc.ents]


def test_the_default_steps_repair_what_the_ner_found_after_the_merge():
    doc = _nlp()(TEXT)
    assert _ents(doc) == [("國立成功大學", "SCHOOL"), ("彭恆彥", "FAMILY")]
    counts = doc.user_data[COUNTS_KEY]
    assert list(counts) == list(dict.fromkeys(DEFAULT_NOTE_STEPS + DEFAULT_PATIENT_STEPS))
    assert counts["institutions"] == 1 and counts["relations"] == 1 and counts["ner_shapes"] == 0


def test_the_config_decides_which_steps_run():
    doc = _nlp(note_steps=[], patient_steps=[])(TEXT)
    assert _ents(doc) == [("國立成功", "STATE"), ("彭恆彥", "PERSON")]
    assert doc.user_data.get(COUNTS_KEY, {}) == {}
    only_relations = _nlp(note_steps=["relations"], patient_steps=[])(TEXT)
    assert _ents(only_relations) == [("國立成功", "STATE"), ("彭恆彥", "FAMILY")]


def _drop_family(doc, text):
    kept = [e for e in doc.ents if e.label_ != "FAMILY"]
    changed = len(doc.ents) - len(kept)
    doc.ents = kept
    return changed


note_steps.register("test_drop_family", func=_drop_family)


def test_the_config_decides_the_order():
    # `relations` makes the spouse's name FAMILY; a step that drops FAMILY spans sees it only after
    relations_first, drop_first = (doc_with_ents(TEXT, [("彭恆彥", "PERSON")]) for _ in range(2))
    RefineStage(["relations", "test_drop_family"], []).refine_note(relations_first)
    RefineStage(["test_drop_family", "relations"], []).refine_note(drop_first)
    assert _ents(relations_first) == []
    assert _ents(drop_first) == [("彭恆彥", "FAMILY")]


def test_a_retired_step_in_a_saved_config_is_skipped_with_a_warning():
    with pytest.warns(UserWarning) as caught:
        stage = RefineStage(["edges", "name_ends", "relations"], ["propagate", "not_the_patient"])
    assert [str(w.message).split(" was retired")[0] for w in caught] == [
        "deid: the note step 'name_ends'", "deid: the patient step 'not_the_patient'"]
    assert [name for name, _ in stage.note_steps] == ["edges", "relations"]
    assert [name for name, _ in stage.patient_steps] == ["propagate"]


def test_an_unknown_step_names_the_registered_ones():
    with pytest.raises(ValueError, match="unknown note step 'no_such_step'.*edges"):
        _nlp(note_steps=["edges", "no_such_step"])


def test_a_step_registered_by_a_user_runs_where_the_config_names_it():
    doc = _nlp(note_steps=list(DEFAULT_NOTE_STEPS) + ["test_drop_family"])(TEXT)
    assert all(label != "FAMILY" for _, label in _ents(doc))
    assert doc.user_data[COUNTS_KEY]["test_drop_family"] == 1


def test_the_steps_are_saved_with_the_pipeline(tmp_path):
    steps = [s for s in DEFAULT_NOTE_STEPS if s != "institutions"]
    _nlp(note_steps=steps).to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("deid").refine.note_step_names == steps
    assert ("國立成功大學", "SCHOOL") not in _ents(loaded(TEXT))


def test_patient_steps_run_over_a_patients_notes_and_count_once_per_patient():
    nlp = spacy_deid.blank()
    docs = [nlp.make_doc(t) for t in ("Pt 林美玲 admitted.", "今日林美玲情緒穩定.")]
    docs[0].ents = [docs[0].char_span(3, 6, label="PATIENT")]
    RefineStage([], DEFAULT_PATIENT_STEPS).refine_patient(docs)
    assert [(e.text, e.label_) for e in docs[1].ents] == [("林美玲", "PATIENT")]
    assert step_counts(docs)["propagate"] == 1 and COUNTS_KEY not in docs[1].user_data


@Language.component("fake_ner_family_everywhere")
def fake_ner_family_everywhere(doc):
    """Stands in for a NER that calls every capitalised name after the first word a relative."""
    start = next(t.i for t in doc[1:] if t.text[:1].isupper())
    doc.ents = [doc[start:start + 2].char_span(0, len(doc[start:start + 2].text), label="FAMILY")]
    return doc


def _with_context_vectors(nlp):
    """Context words of one kind of name along one axis, of another along another (words no rule or
    cue of the package reads, so only the prototypes can tell the two apart)."""
    import numpy

    for word in ("kib", "zat", "lom"):
        nlp.vocab.set_vector(word, numpy.array([1.0, 0.0, 0.0], dtype="float32"))
    for word in ("mep", "vor", "dux"):
        nlp.vocab.set_vector(word, numpy.array([0.0, 1.0, 0.0], dtype="float32"))


def test_prototypes_relabel_a_name_by_the_words_around_it(tmp_path):
    from spacy.training import Example

    nlp = spacy_deid.blank()
    _with_context_vectors(nlp)
    nlp.add_pipe("fake_ner_family_everywhere")
    steps = list(DEFAULT_NOTE_STEPS[:-1]) + ["prototypes", "ner_shapes"]
    nlp.add_pipe("deid", config={"surrogates": False, "note_steps": steps})

    def gold(text, name, label):
        doc = nlp.make_doc(text)
        start = text.index(name)
        doc.ents = [doc.char_span(start, start + len(name), label=label)]
        return Example(nlp.make_doc(text), doc)

    examples = [gold("kib Amy Lin zat lom", "Amy Lin", "DOCTOR"),
                gold("mep Tom Wu vor dux", "Tom Wu", "FAMILY")]
    before = nlp("kib Ken Ho zat lom")
    assert [(e.text, e.label_) for e in before.ents] == [("Ken Ho", "FAMILY")]
    nlp.get_pipe("deid").initialize(lambda: examples, nlp=nlp, prototypes=True)
    doc = nlp("kib Ken Ho zat lom")
    assert [(e.text, e.label_) for e in doc.ents] == [("Ken Ho", "DOCTOR")]
    assert doc.user_data[COUNTS_KEY]["prototypes"] == 1
    assert [(e.text, e.label_) for e in nlp("mep Ken Ho vor dux").ents] == [("Ken Ho", "FAMILY")]
    nlp.to_disk(tmp_path / "p")
    assert [(e.text, e.label_) for e in spacy.load(tmp_path / "p")("kib Ken Ho zat lom").ents] == [
        ("Ken Ho", "DOCTOR")]


def test_without_prototypes_the_step_changes_nothing():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_family_everywhere")
    nlp.add_pipe("deid", config={"surrogates": False, "note_steps": ["prototypes"], "patient_steps": []})
    doc = nlp("kib Ken Ho zat lom")
    assert [(e.text, e.label_) for e in doc.ents] == [("Ken Ho", "FAMILY")]
    assert doc.user_data[COUNTS_KEY] == {"prototypes": 0}


def test_a_recognizers_span_a_wrong_ner_span_displaced_comes_back():
    from spacy.tokens import Span

    from spacy_deid.overlap import DISPLACED_KEY, make_longest_span_wins, merge_into_ents, restore_displaced

    text = "病人住台北市中正區"
    doc = spacy_deid.blank().make_doc(text)
    doc.ents = [doc.char_span(2, 6, label="LOCATION")]  # the NER took the verb into the place
    rule = doc.char_span(3, 6, label="CITY")
    rule._.source = "rule"
    merge_into_ents(doc, [rule], make_longest_span_wins())
    assert [(e.text, e.label_) for e in doc.ents] == [("住台北市", "LOCATION")]
    assert [s.text for s in doc.spans[DISPLACED_KEY]] == ["台北市"]
    assert restore_displaced(doc) == 0  # the NER's span still stands there
    doc.ents = []  # a refine step dropped the NER span
    assert restore_displaced(doc) == 1
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("台北市", "CITY", "rule")]
    assert restore_displaced(doc) == 0
    # a NER span that lost a merge never comes back
    doc2 = spacy_deid.blank().make_doc(text)
    date = Span(doc2, 1, 2, label="DATE")
    date._.source = "ner"
    doc2.spans[DISPLACED_KEY] = [date]
    assert restore_displaced(doc2) == 0 and list(doc2.ents) == []


def test_an_exact_tie_with_a_displaced_recognizers_span_goes_to_the_recognizer():
    from spacy_deid.overlap import make_longest_span_wins, merge_into_ents, restore_displaced

    text = "最近打算去約旦遊學"
    doc = spacy_deid.blank().make_doc(text)
    doc.ents = [doc.char_span(5, 9, label="LOCATION")]  # the NER ran on into the activity
    rule = doc.char_span(5, 7, label="COUNTRY")
    rule._.source = "rule"
    merge_into_ents(doc, [rule], make_longest_span_wins())
    doc.ents = [doc.char_span(5, 7, label="LOCATION")]  # `edges` cut the activity off the NER's span
    assert restore_displaced(doc) == 1
    assert [(e.text, e.label_) for e in doc.ents] == [("約旦", "COUNTRY")]


def test_a_tie_between_two_recognizers_spans_stays_as_the_merge_settled_it():
    from spacy_deid.overlap import make_longest_span_wins, merge_into_ents, restore_displaced

    text = "SSN: 123-45-6789."
    doc = spacy_deid.blank().make_doc(text)
    first, second = doc.char_span(5, 16, label="MEDICAL_RECORD"), doc.char_span(5, 16, label="ID_NUMBER")
    first._.source = second._.source = "rule"
    merge_into_ents(doc, [first, second], make_longest_span_wins())
    settled = [(e.text, e.label_) for e in doc.ents]
    assert len(settled) == 1
    assert restore_displaced(doc) == 0
    assert [(e.text, e.label_) for e in doc.ents] == settled
