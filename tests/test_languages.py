"""The `not_phi` rules of `languages.json`: a word naming a spoken language is no PHI, whatever its label."""
import pytest

import spacy_deid
from spacy_deid.cues import default_cue_rules
from spacy_deid.refine import RefineStage


@pytest.mark.parametrize("text,word,spoken,as_other_label", [
    ("Pt is Spanish speaking, interpreter used via phone.", "Spanish", True, True),
    ("Elderly Taiwanese-speaking woman", "Taiwanese", True, True),
    ("Pt speaks Tagalog and some English.", "Tagalog", True, True),
    ("Interpreter for Vietnamese present at bedside", "Vietnamese", True, True),
    ("She wrote the note in English", "English", True, False),  # `in` alone: a place for other labels
    ("Indonesian caregiver at bedside", "Indonesian", False, False),  # where she is from
    ("Pt is Filipino, works as a nurse aide", "Filipino", False, False),
    ("Moved here from Lisbon, lives in Taipei", "Taipei", True, False),  # a nationality after `in` is a language
])
def test_a_language_someone_speaks_is_not_a_nationality_nor_a_name_or_place(text, word, spoken, as_other_label):
    start, rules = text.index(word), default_cue_rules()
    dropped = (start, start + len(word), "")
    assert (rules.apply(text, start, start + len(word), "NATIONALITY", "not_phi") == dropped) is spoken
    for label in ("COUNTRY", "PERSON"):  # a NER may call a language a country or a name
        assert (rules.apply(text, start, start + len(word), label, "not_phi") == dropped) is as_other_label


def test_the_not_phi_step_drops_the_language_and_keeps_the_origin():
    text = "Indonesian caregiver, Spanish speaking"
    doc = spacy_deid.blank()(text)
    doc.ents = [doc.char_span(0, 10, label="NATIONALITY"), doc.char_span(22, 29, label="NATIONALITY")]
    RefineStage(["not_phi"], []).refine_note(doc)
    assert [e.text for e in doc.ents] == ["Indonesian"]
