"""`doc_text`: the tokenizer's text, or the text rebuilt from the tokens, always equal to `doc.text`."""
import pytest
from spacy.tokens import Doc

import spacy_deid
from spacy_deid import doctext

TEXTS = [
    "", " ", "  lead", "trail  ", "a\n\nb", "Seen on 2021/12/25,  BP 120/80 mmHg.\t病人於110年1月5日入院。",
    "mk1101225 MK 110.1.5 民國 一一〇年十二月二十五日", "x" * 3000, "\u3000全形空白 and\u00a0nbsp",
]


@pytest.fixture(scope="module")
def nlp():
    return spacy_deid.blank()


@pytest.mark.parametrize("text", TEXTS)
def test_the_tokenizer_leaves_its_text(nlp, text):
    doctext.clear_caches()
    doc = nlp.make_doc(text)
    assert doctext.doc_text(doc) is text  # the very string the tokenizer was given
    assert doc.text == text


@pytest.mark.parametrize("text", TEXTS)
def test_a_doc_from_elsewhere_gets_its_text_rebuilt(nlp, text):
    words, spaces = nlp.tokenizer.split(text)
    doc = Doc(nlp.vocab, words=words, spaces=spaces)  # not made by our tokenizer: nothing remembered
    doctext.clear_caches()
    assert doctext.rebuild_text(doc) == doc.text == text
    assert doctext.doc_text(doc) == text
    assert doctext.doc_text(doc) == text  # remembered after the first rebuild


def test_a_doc_loaded_in_place_is_not_given_its_old_text(nlp):
    # spaCy loads into an empty doc only (E033); the tokenizer's doc of "" remembered "".
    doc = nlp.make_doc("")
    assert doctext.doc_text(doc) == ""
    doc.from_bytes(nlp.make_doc("Seen on 2021/12/25 by Dr. Wang.").to_bytes())
    assert doctext.doc_text(doc) == doc.text == "Seen on 2021/12/25 by Dr. Wang."


def test_remembered_texts_go_with_their_docs(nlp):
    import gc

    doctext.clear_caches()
    docs = [nlp.make_doc(f"note {i}") for i in range(50)]
    assert len(doctext._TEXTS) == 50
    del docs
    gc.collect()
    assert len(doctext._TEXTS) == 0
