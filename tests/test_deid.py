"""The `deid` component: one line on a blank pipeline or after an entity recognizer; serialization."""
import pytest
import spacy

import spacy_deid
from spacy_deid.pipeline import Deid

from linear import assert_linear

TEXT = "Patient 陳志明, 病歷號: 5520931, admitted 110.03.02, 電話 0912-345-678 分機 2234."


NER_PATTERNS = [{"label": "PATIENT", "pattern": "陳志明"},
                {"label": "NUMBER", "pattern": [{"TEXT": "0912-345-678"}]}]


def make(config=None, ner=False, ner_patterns=None):
    """A blank pipeline with `deid`; with `ner` (or `ner_patterns`) an entity ruler named `ner` before
    it stands in for a trained `ner`: any component that sets doc.ents before deid."""
    nlp = spacy_deid.blank()
    if ner or ner_patterns:
        ruler = nlp.add_pipe("entity_ruler", name="ner")
        ruler.add_patterns(ner_patterns or NER_PATTERNS)
    nlp.add_pipe("deid", config={"demo_key": True, **(config or {})})
    return nlp


def ents(doc):
    return [(e.text, e.label_, e._.source) for e in doc.ents]


def test_recognition_only_on_blank():
    doc = make({"surrogates": False})(TEXT)
    assert ents(doc) == [("5520931", "MEDICAL_RECORD", "rule"), ("110.03.02", "DATE", "date"),
                         ("0912-345-678", "PHONE", "rule"), ("2234", "PHONE", "rule")]
    assert doc._.deid_text is None


def test_merges_with_existing_entities():
    doc = make({"surrogates": False}, ner=True)(TEXT)
    # NER's PATIENT stays (source ner); the rule's PHONE wins the exact-offset tie with NER's NUMBER
    assert ents(doc)[0] == ("陳志明", "PATIENT", "ner")
    assert ("0912-345-678", "PHONE", "rule") in ents(doc)


@pytest.mark.parametrize("ner_pattern, label", [
    ([{"LOWER": "ext."}, {"ORTH": "502"}, {"ORTH": "."}], "HOSPITAL"),
    ([{"ORTH": "3345678"}, {"LOWER": "ext."}], "ROOM"),
])
def test_ner_span_of_another_category_never_beats_a_rule_identifier(ner_pattern, label):
    nlp = make({"surrogates": False}, ner_patterns=[{"label": label, "pattern": ner_pattern}])
    doc = nlp("電話 07 3345678 ext. 502.")
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [
        ("07 3345678", "PHONE", "rule"), ("502", "PHONE", "rule")]


def test_ner_identifier_longer_than_the_rule_span_still_wins():
    # same category: the longest span wins as before (the model may see a prefix the pattern did not)
    nlp = make({"surrogates": False},
               ner_patterns=[{"label": "PHONE", "pattern": [{"ORTH": "886"}, {"ORTH": "0912-345-678"}]}])
    doc = nlp("call 886 0912-345-678 now")
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("886 0912-345-678", "PHONE", "ner")]


@pytest.mark.parametrize("text, ner_pattern, expected", [
    # the model's date ran into the number before it: the date finder's reading wins
    ("ECT #1, 20911109 ECT #2", [{"ORTH": "1"}, {"ORTH": ","}, {"ORTH": "20911109"}], [("20911109", "DATE")]),
])
def test_ner_date_never_beats_a_date_the_date_finder_read(text, ner_pattern, expected):
    nlp = make({"surrogates": False}, ner_patterns=[{"label": "DATE", "pattern": ner_pattern}])
    doc = nlp(text)
    assert [(e.text, e.label_) for e in doc.ents] == expected
    assert all(e._.source == "date" for e in doc.ents)


def test_what_an_overruled_ner_date_holds_beyond_the_finders_dates_stays_when_it_is_a_date():
    # one model date over two: the finder read `2083年`; the bare year `2087` is the model's own
    nlp = make({"surrogates": False}, ner_patterns=[{"label": "DATE", "pattern": [
        {"ORTH": "2083"}, {"ORTH": "年"}, {"ORTH": "、"}, {"ORTH": "2087"}]}])
    doc = nlp("2083年、2087 兩次住院")
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("2083年", "DATE", "date"), ("2087", "DATE", "ner")]


@pytest.mark.parametrize("text, ner_pattern, expected", [
    # speech writes a day without 日: the finder reads `9月`, the model the whole date
    ("我9月15回診", [{"ORTH": "9"}, {"ORTH": "月"}, {"ORTH": "15"}], "9月15"),
    # a two-digit year after the day: the finder reads `Jan 12th`
    ("seen Jan 12th '23 in clinic", [{"ORTH": "Jan"}, {"ORTH": "12th"}, {"ORTH": "'"}, {"ORTH": "23"}],
     "Jan 12th '23"),
    # a year after a comma continues the date the finder read without it
    ("admitted 12 Oct, 93 for", [{"ORTH": "12"}, {"ORTH": "Oct"}, {"ORTH": ","}, {"ORTH": "93"}], "12 Oct, 93"),
])
def test_ner_date_with_more_digits_and_no_list_separator_stays(text, ner_pattern, expected):
    nlp = make({"surrogates": False}, ner_patterns=[{"label": "DATE", "pattern": ner_pattern}])
    doc = nlp(text)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [(expected, "DATE", "ner")]


def test_ner_date_the_date_finder_missed_stays():
    nlp = make({"surrogates": False}, ner_patterns=[{"label": "DATE", "pattern": [{"ORTH": "May"}]}])
    doc = nlp("去年May曾自行停藥")
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("May", "DATE", "ner")]


def test_adds_only_what_is_missing():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules")
    deid = nlp.add_pipe("deid", config={"surrogates": False})
    assert isinstance(deid, Deid)
    assert deid.rules is None and deid.dates is not None
    doc = nlp(TEXT)
    assert ("5520931", "MEDICAL_RECORD", "rule") in ents(doc)


def test_parts_can_be_switched_off():
    deid = make({"surrogates": False, "dates": False}).get_pipe("deid")
    assert sorted(deid.parts) == ["rules"]


def test_rules_config_reaches_the_part(tmp_path):
    path = tmp_path / "p.json"
    path.write_text('[{"id": "kh", "label": "MEDICAL_RECORD", "pattern": "KH\\\\d{7}"}]', encoding="utf8")
    nlp = make({"surrogates": False, "dates": False, "rules_config": {"patterns": str(path)}})
    assert ents(nlp("KH1234567 0912-345-678")) == [("KH1234567", "MEDICAL_RECORD", "rule")]


def test_serialization_roundtrip_without_pattern_files(tmp_path):
    path = tmp_path / "p.json"
    path.write_text('[{"id": "kh", "label": "MEDICAL_RECORD", "pattern": "KH\\\\d{7}"}]', encoding="utf8")
    nlp = make({"surrogates": False, "rules_config": {"patterns": str(path)}})
    nlp.to_disk(tmp_path / "pipe")
    path.unlink()  # a packaged pipeline must not need the original pattern file
    loaded = spacy.load(tmp_path / "pipe")
    assert ents(loaded("KH1234567")) == [("KH1234567", "MEDICAL_RECORD", "rule")]
    again = make({"surrogates": False})
    again.get_pipe("deid").from_bytes(nlp.get_pipe("deid").to_bytes())
    assert ents(again("KH1234567")) == [("KH1234567", "MEDICAL_RECORD", "rule")]


def test_literal_key_in_config_warns():
    with pytest.warns(UserWarning, match="SPACY_DEID_KEY"):
        make({"surrogates": False, "key": "a-literal-key-in-the-config-0001"})


# -- with surrogates --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def full():
    pytest.importorskip("spacy_deid.surrogates.component")
    return make()


def test_deid_text_and_replacements(full):
    doc = full(TEXT)
    out = doc._.deid_text
    assert isinstance(out, str) and out != TEXT
    for phi in ("5520931", "110.03.02", "0912-345-678"):
        assert phi not in out
    labels = [r["label"] for r in doc._.replacements]
    assert labels == ["MEDICAL_RECORD", "DATE", "PHONE", "PHONE"]
    for rep in doc._.replacements:
        assert out[rep["out_start"]:rep["out_end"]] == rep["surrogate"]
        assert TEXT[rep["start"]:rep["end"]] != rep["surrogate"]
        assert rep["source"] in ("rule", "date")


def test_full_pipeline_roundtrip_same_output(full, tmp_path):
    full.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert loaded(TEXT)._.deid_text == full(TEXT)._.deid_text


def test_n_process_2_same_output(full):
    texts = [TEXT, "MRN 1234567", "電話 02-2312-3456"] * 3
    single = [full(t)._.deid_text for t in texts]
    assert [d._.deid_text for d in full.pipe(texts, n_process=2, batch_size=2)] == single


def test_extra_patterns_from_initialize_section():
    """`[initialize.components.deid.rules]` reaches the rules: a hospital adds a pattern in config."""
    extra = [{"id": "kh", "label": "MEDICAL_RECORD", "pattern": r"KH\d{7}"}]
    nlp = spacy_deid.blank(config={"initialize": {"components": {"deid": {"rules": {"patterns": extra}}}}})
    nlp.add_pipe("deid", config={"surrogates": False, "dates": False})
    nlp.initialize()
    assert ents(nlp("KH1234567 0912-345-678")) == [("KH1234567", "MEDICAL_RECORD", "rule"),
                                                   ("0912-345-678", "PHONE", "rule")]


def test_evaluate_reports_rule_and_date_scores():
    from spacy.training import Example

    nlp = make({"surrogates": False})
    text = "電話 0912-345-678 on 2023/03/14"
    ref = nlp.make_doc(text)
    ref.ents = [ref.char_span(3, 15, label="PHONE"), ref.char_span(19, 29, label="DATE")]
    scores = nlp.evaluate([Example(nlp.make_doc(text), ref)])
    assert scores["deid_rules_f"] == 1.0
    assert scores["deid_dates_f"] == 1.0


@pytest.mark.parametrize("unit,size", [("A", 100_000), ("1", 100_000), ("ABC123 ", 15_000), ("電話 ", 30_000),
                                       pytest.param("0912-345-678 ", 8_000, marks=pytest.mark.slow)])
def test_long_adversarial_notes_whole_component(full, unit, size):
    assert_linear(lambda n: full(unit * n), size)
    doc = full(unit * size)
    for rep in doc._.replacements:
        assert doc._.deid_text[rep["out_start"]:rep["out_end"]] == rep["surrogate"]
