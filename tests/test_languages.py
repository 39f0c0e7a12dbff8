"""The `not_phi` rules of `languages.json`: a nationality word naming a spoken language is no PHI."""
import pytest

import spacy_deid
from spacy_deid.cues import default_cue_rules
from spacy_deid.refine import RefineStage


@pytest.mark.parametrize("text,word,spoken", [
    ("Pt is Spanish speaking, interpreter used via phone.", "Spanish", True),
    ("Elderly Taiwanese-speaking woman", "Taiwanese", True),
    ("Pt speaks Tagalog and some English.", "Tagalog", True),
    ("Interpreter for Vietnamese present at bedside", "Vietnamese", True),
    ("She wrote the note in English", "English", True),
    ("Indonesian caregiver at bedside", "Indonesian", False),  # where she is from
    ("Pt is Filipino, works as a nurse aide", "Filipino", False),
])
def test_a_language_someone_speaks_is_not_a_nationality(text, word, spoken):
    start, rules = text.index(word), default_cue_rules()
    dropped = (start, start + len(word), "")
    assert (rules.apply(text, start, start + len(word), "NATIONALITY", "not_phi") == dropped) is spoken
    assert rules.apply(text, start, start + len(word), "COUNTRY", "not_phi") is None


def test_the_not_phi_step_drops_the_language_and_keeps_the_origin():
    text = "Indonesian caregiver, Spanish speaking"
    doc = spacy_deid.blank()(text)
    doc.ents = [doc.char_span(0, 10, label="NATIONALITY"), doc.char_span(22, 29, label="NATIONALITY")]
    RefineStage(["not_phi"], []).refine_note(doc)
    assert [e.text for e in doc.ents] == ["Indonesian"]
