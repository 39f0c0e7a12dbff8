"""The knowledge layer: stretches and their exact offsets, the all-caps copy, the `deid_knowledge`
component with a small real spaCy tagger (an entity ruler), its serialization, and the voting steps
on hand-written notes. The pretrained taggers themselves: tests/test_knowledge_taggers.py."""
import pytest
import spacy
from hypothesis import given, settings, strategies as st
from spacy.tokens import Span
from spacy.training import Example
from thinc.api import NumpyOps

from spacy_deid.blas_ops import BlasOps
from spacy_deid.knowledge import SPANS_KEY, SpacyTagger, han_stretches, latin_stretches, title_case_upper_lines
from spacy_deid.knowledge.stretches import bounded
from spacy_deid.knowledge.steps import (knowledge_add_cued, knowledge_drop_caseless, knowledge_drop_han,
                                        knowledge_drop_latin)
from spacy_deid.refine import note_steps
from spacy_deid.tokenizer import blank


# -- stretches ------------------------------------------------------------------------------------
def test_stretches_split_a_code_mixed_note_by_script():
    text = "Pt seen by Dr. Lee 今天王小明在台北市，family at bedside"
    han = list(han_stretches(text))
    latin = list(latin_stretches(text))
    assert [text[s.start:s.end] for s in han] == ["今天王小明在台北市，"]
    assert [text[s.start:s.end] for s in latin] == ["Pt seen by Dr. Lee ", "family at bedside"]
    assert all(s.copy == text[s.start:s.end] for s in han + latin)


def test_all_caps_lines_are_title_cased_and_nothing_else():
    text = "SEEN BY DR SMITH, BP 120/80\nwife Mary at bedside\nCCU"
    assert title_case_upper_lines(text) == "Seen By Dr Smith, Bp 120/80\nwife Mary at bedside\nCCU"
    # a line with a lower-case letter, or under four letters, says its case means something: kept
    assert title_case_upper_lines("MRI today") == "MRI today"
    # only ASCII letters change: the copy keeps every offset
    assert title_case_upper_lines("ÉCOLE ÀLA MAISON") == "ÉCole ÀLa Maison"


def test_latin_copy_without_title_casing_is_the_text():
    text = "SEEN BY DR SMITH"
    assert [s.copy for s in latin_stretches(text, title_case_upper=False)] == [text]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ABCxyz .,\n:王小明台北，。0123")), max_size=60))
def test_stretch_copies_keep_every_offset(text):
    spans = sorted(list(han_stretches(text)) + list(latin_stretches(text)))
    last = 0
    for s in spans:
        assert s.start >= last and len(s.copy) == s.end - s.start
        assert s.copy.casefold() == text[s.start:s.end].casefold()
        last = s.end


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ABC xyz\n王小明，")), max_size=80), st.integers(1, 12))
def test_bounded_pieces_tile_each_stretch_within_the_limit(text, limit):
    for stretches in (list(han_stretches(text)), list(latin_stretches(text))):
        pieces = list(bounded(stretches, limit))
        assert all(len(p.copy) <= limit and p.end - p.start == len(p.copy) for p in pieces)
        assert "".join(p.copy for p in pieces) == "".join(s.copy for s in stretches)
        assert all(p.copy.casefold() == text[p.start:p.end].casefold() for p in pieces)


def test_bounded_cuts_after_a_line_break():
    text = "Mary Jones seen\nBoston today"
    assert [p.copy for p in bounded(latin_stretches(text), 20)] == ["Mary Jones seen\n", "Boston today"]


# -- the component, with a small real tagger ------------------------------------------------------
def ruler_tagger(lang: str, patterns) -> SpacyTagger:
    tagger_nlp = spacy.blank(lang)
    tagger_nlp.add_pipe("entity_ruler").add_patterns(patterns)
    return SpacyTagger(tagger_nlp)


EN_PATTERNS = [{"label": "PERSON", "pattern": "Mary Jones"}, {"label": "PERSON", "pattern": "Mary"},
               {"label": "GPE", "pattern": "Boston"}, {"label": "DATE", "pattern": "Monday"},
               {"label": "ORG", "pattern": "Boston Hospital"}]
ZH_PATTERNS = [{"label": "PERSON", "pattern": "王小明"}]


@pytest.fixture()
def nlp():
    nlp = blank()
    comp = nlp.add_pipe("deid_knowledge", config={"chinese": None, "english": None})
    comp.use_taggers(chinese=ruler_tagger("zh", ZH_PATTERNS), english=ruler_tagger("en", EN_PATTERNS))
    return nlp


def tags(doc):
    return [(s.start_char, s.end_char, s.text, s.label_) for s in doc.spans[SPANS_KEY]]


def test_tags_are_mapped_to_our_labels_with_exact_offsets(nlp):
    text = "Mary Jones moved to Boston on Monday; seen at Boston Hospital. 個案王小明。"
    doc = nlp(text)
    found = tags(doc)
    assert (0, 10, "Mary Jones", "PERSON") in found
    assert (20, 26, "Boston", "CITY") in found
    assert any(t[2] == "Boston Hospital" and t[3] == "HOSPITAL" for t in found)
    assert any(t[2] == "王小明" and t[3] == "PERSON" for t in found)
    assert not any(t[2] == "Monday" for t in found)  # dates are the date finder's
    assert all(text[start:end] == value for start, end, value, _ in found)


def test_an_all_caps_note_is_read_title_cased_and_tagged_in_its_own_case(nlp):
    text = "FAMILY MEETING TODAY\nSPOKE WITH MARY JONES IN BOSTON"
    doc = nlp(text)
    found = tags(doc)
    assert (32, 42, "MARY JONES", "PERSON") in found
    assert (46, 52, "BOSTON", "CITY") in found
    nlp.get_pipe("deid_knowledge").title_case_upper = False
    assert tags(nlp(text)) == []


def test_settings_travel_with_the_pipeline(tmp_path):
    nlp = blank()
    nlp.add_pipe("deid_knowledge", config={"chinese": None, "english": None, "title_case_upper": False})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    comp = loaded.get_pipe("deid_knowledge")
    assert comp.settings() == {"chinese": None, "english": None, "title_case_upper": False, "spans_key": SPANS_KEY,
                               "token_tags": False}
    assert (tmp_path / "p" / "deid_knowledge" / "knowledge.json").is_file()
    loaded.initialize()  # no tagger named: nothing to load, and no error
    assert list(loaded("Mary Jones").spans[SPANS_KEY]) == []


def test_token_tags_carry_each_tag_to_its_tokens_as_a_feature_the_embedding_reads(nlp):
    text = "Mary Jones moved to Boston. 個案王小明。"
    assert [t.tag_ for t in nlp(text)] == [""] * len(nlp.make_doc(text))  # off unless asked for
    nlp.get_pipe("deid_knowledge").token_tags = True
    doc = nlp(text)
    tagged = [(t.text, t.tag_) for t in doc if t.tag_]
    assert tagged == [("Mary", "B-PERSON"), ("Jones", "I-PERSON"), ("Boston", "B-CITY"),
                      ("王", "B-PERSON"), ("小", "I-PERSON"), ("明", "I-PERSON")]
    # the hash embedding's feature: the tagged tokens' TAG ids differ from the untagged ones'
    ids = doc.to_array(["TAG"])
    assert all((ids[t.i] != 0) == bool(t.tag_) for t in doc)
    # a second run over a doc that already holds tags gives the same tags, never a union
    again = nlp.get_pipe("deid_knowledge")(doc)
    assert [(t.text, t.tag_) for t in again if t.tag_] == tagged


def test_token_tags_travel_with_the_pipeline(tmp_path):
    nlp = blank()
    nlp.add_pipe("deid_knowledge", config={"chinese": None, "english": None, "token_tags": True})
    nlp.to_disk(tmp_path / "p")
    assert spacy.load(tmp_path / "p").get_pipe("deid_knowledge").token_tags is True


def test_an_unknown_tagger_is_named_in_the_error():
    nlp = blank()
    nlp.add_pipe("deid_knowledge", config={"chinese": "jieba", "english": None})
    with pytest.raises(ValueError, match="jieba"):
        nlp.initialize()


def test_a_tagger_not_installed_names_the_extra_at_initialize():
    nlp = blank()
    nlp.add_pipe("deid_knowledge", config={"chinese": None, "english": "en_no_such_pipeline_installed"})
    with pytest.raises(ImportError, match=r"spacy-deid\[knowledge\]"):
        nlp.initialize()


# -- the voting steps -----------------------------------------------------------------------------
def with_ents(nlp, text, ents):
    """`text` through the knowledge component, then `ents` ((value, label, source), found in order) as
    the merged recognizers would leave them."""
    doc = nlp(text)
    spans, start = [], 0
    for value, label, source in ents:
        begin = text.index(value, start)
        span = doc.char_span(begin, begin + len(value), label=label)
        span._.source = source
        spans.append(span)
        start = begin + len(value)
    doc.ents = spans
    return doc


def ent_texts(doc):
    return [(e.text, e.label_) for e in doc.ents]


def test_drop_latin_drops_shorthand_no_tagger_supports(nlp):
    text = "Pt transferred to ccu overnight. Seen by Dr. smith. Spoke with Mary Jones."
    doc = with_ents(nlp, text, [("ccu", "DEPARTMENT", "ner"), ("smith", "DOCTOR", "ner"),
                                ("Mary Jones", "PERSON", "ner")])
    assert knowledge_drop_latin(doc, text) == 1
    # `smith` has a title before it, `Mary Jones` a capital that marks a name
    assert ent_texts(doc) == [("smith", "DOCTOR"), ("Mary Jones", "PERSON")]


def test_drop_latin_keeps_a_place_the_lexicons_know_but_no_acronym(nlp):
    text = "transferred from chicago to micu, then ccu"
    doc = with_ents(nlp, text, [("chicago", "CITY", "ner"), ("micu", "DEPARTMENT", "ner"), ("ccu", "SCHOOL", "ner")])
    # `CCU` is a university's acronym in the lexicons: written in one case it says nothing
    assert knowledge_drop_latin(doc, text) == 2
    assert ent_texts(doc) == [("chicago", "CITY")]


def test_drop_latin_keeps_an_all_caps_name_the_tagger_supports_and_spans_of_rules(nlp):
    text = "SPOKE WITH MARY JONES ABOUT PLAN. TO MICU AT 0800, CALL 555-1234"
    ents = [("MARY JONES", "PERSON", "ner"), ("MICU", "DEPARTMENT", "ner"), ("555-1234", "PHONE", "rule")]
    doc = with_ents(nlp, text, ents)
    assert knowledge_drop_latin(doc, text) == 1
    assert ent_texts(doc) == [("MARY JONES", "PERSON"), ("555-1234", "PHONE")]
    # the case test alone, the tagger not asked, drops the name too
    doc = with_ents(nlp, text, ents)
    assert knowledge_drop_caseless(doc, text) == 2
    assert ent_texts(doc) == [("555-1234", "PHONE")]


def test_drop_han_keeps_a_name_the_chinese_tagger_supports(nlp):
    text = "個案王小明，今天精神好轉。"
    doc = with_ents(nlp, text, [("王小明", "PATIENT", "ner"), ("精神", "FAMILY", "ner")])
    assert knowledge_drop_han(doc, text) == 1
    assert ent_texts(doc) == [("王小明", "PATIENT")]


def test_add_cued_adds_a_tagged_name_a_relation_word_stands_beside(nlp):
    text = "wife Mary at bedside. Mary Jones called."
    doc = with_ents(nlp, text, [])
    assert knowledge_add_cued(doc, text) == 1  # `Mary Jones`: no cue, nothing found elsewhere
    assert ent_texts(doc) == [("Mary", "FAMILY")]
    assert doc.ents[0]._.source == "knowledge"
    assert text[doc.ents[0].start_char:doc.ents[0].end_char] == "Mary"


def test_add_cued_never_overlaps_what_was_found(nlp):
    text = "wife Mary Jones at bedside"
    doc = with_ents(nlp, text, [("Mary Jones", "FAMILY", "ner")])
    assert knowledge_add_cued(doc, text) == 0
    assert ent_texts(doc) == [("Mary Jones", "FAMILY")]


def test_steps_are_found_by_name_and_need_the_component():
    assert note_steps.get("knowledge_drop_latin") is knowledge_drop_latin
    doc = blank()("Seen by ccu team")
    doc.ents = [Span(doc, 2, 3, label="DEPARTMENT")]
    with pytest.raises(ValueError, match="deid_knowledge"):
        knowledge_drop_latin(doc, doc.text)


def test_an_english_tagger_multiplies_on_numpys_blas_and_tags_as_before():
    """Its matrix products move to BlasOps (blis was 43 % of the taggers' time); what it tags stays."""
    spacy.util.fix_random_seed(0)
    tagger_nlp = spacy.blank("en")
    tagger_nlp.add_pipe("ner")
    texts = ["Mary Jones saw Dr. Smith in Boston on Monday.", "No names here at all."]
    gold = [[(0, 10, "PERSON"), (19, 24, "PERSON")], []]
    examples = [Example.from_dict(tagger_nlp.make_doc(text), {"entities": ents}) for text, ents in zip(texts, gold)]
    optimizer = tagger_nlp.initialize(lambda: examples)
    for _ in range(30):
        tagger_nlp.update(examples, sgd=optimizer)
    before = [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in tagger_nlp.pipe(texts)]
    assert before == gold  # a tagger that tags
    assert any(type(node.ops) is NumpyOps for node in tagger_nlp.get_pipe("ner").model.walk())
    tagger = SpacyTagger(tagger_nlp)
    assert all(isinstance(node.ops, BlasOps) for node in tagger_nlp.get_pipe("ner").model.walk())
    assert tagger.tag(texts) == before
