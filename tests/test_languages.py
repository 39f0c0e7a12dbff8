"""languages: a nationality word naming a spoken language is no PHI."""
import pytest

import spacy_deid
from spacy_deid.languages import spoken_language
from spacy_deid.spanshape import drop_misshapen


@pytest.mark.parametrize("text,word,spoken", [
    ("Pt is Spanish speaking, interpreter used via phone.", "Spanish", True),
    ("Taiwanese-speaking elderly woman", "Taiwanese", True),
    ("Pt speaks Tagalog and some English.", "Tagalog", True),
    ("Interpreter for Vietnamese present at bedside", "Vietnamese", True),
    ("She wrote the note in English", "English", True),
    ("Indonesian caregiver at bedside", "Indonesian", False),  # where she is from
    ("Pt is Filipino, works as a nurse aide", "Filipino", False),
])
def test_a_language_someone_speaks_is_not_a_nationality(text, word, spoken):
    start = text.index(word)
    assert spoken_language(text, start, start + len(word), "NATIONALITY") is spoken
    assert not spoken_language(text, start, start + len(word), "COUNTRY")


def test_the_shape_check_drops_the_language_and_keeps_the_origin():
    text = "Indonesian caregiver, Spanish speaking"
    doc = spacy_deid.blank()(text)
    doc.ents = [doc.char_span(0, 10, label="NATIONALITY"), doc.char_span(22, 29, label="NATIONALITY")]
    assert [s.text for s in drop_misshapen(doc)] == ["Spanish"]
    assert [e.text for e in doc.ents] == ["Indonesian"]
