"""hospital_units: the department written right after a hospital is found where nothing was."""
import pytest

import spacy_deid
from spacy_deid.refine import DEFAULT_NOTE_STEPS
from spacy_deid.hospital_units import SOURCE, hospital_units, unit_after

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of


def _added(text, ents):
    doc = doc_with_ents(text, ents)
    added = hospital_units(doc)
    ents_of(doc)  # offsets checked
    assert all(span._.source == SOURCE for span in added)
    return [(s.text, s.label_) for s in added]


@pytest.mark.parametrize("text,hospital,unit", [
    ("Summary faxed to NTUH RAD (02-2312-3456) on 2020/3/1.", "NTUH", "RAD"),
    ("He was seen at CGMH ED yesterday.", "CGMH", "ED"),
    ("Reviewed at Chi Mei Medical Center Nephrology on 2019/05/01.", "Chi Mei Medical Center", "Nephrology"),
    ("FAXED TO SINGAPORE GENERAL HOSPITAL INTENSIVE CARE UNIT ON 5/1", "SINGAPORE GENERAL HOSPITAL",
     "INTENSIVE CARE UNIT"),
    ("To: Kuo General Hospital Child and Adolescent Psychiatry   From: ward", "Kuo General Hospital",
     "Child and Adolescent Psychiatry"),
    ("轉診單: 高雄長庚醫院加護病房 王大明 醫師", "高雄長庚醫院", "加護病房"),
    ("To: 門諾 老年醫學科   From: 精神科", "門諾", "老年醫學科"),
    ("轉至慈濟醫院一般外科", "慈濟醫院", "一般外科"),  # the longest name, not 外科 of it
])
def test_a_department_right_after_a_hospital_is_added(text, hospital, unit):
    assert _added(text, [(hospital, "HOSPITAL")]) == [(unit, "DEPARTMENT")]


@pytest.mark.parametrize("text,found", [
    ("She works at NTUH RADIUS project.", ("NTUH", "HOSPITAL")),  # the abbreviation ends no word
    ("seen at NTUH rad clinic", ("NTUH", "HOSPITAL")),  # abbreviations only in capitals
    ("seen at NTUH  RAD", ("NTUH", "HOSPITAL")),  # two spaces are a column gap
    ("He works at TSMC RAD team", ("TSMC", "GENERAL_BUSINESS")),  # only after a hospital
    ("transferred from NTUH Police Department", ("NTUH", "HOSPITAL")),  # a generic head names no unit
    ("住台大醫院, 精神科藥物調整", ("台大醫院", "HOSPITAL")),  # a comma between: no unit of it
    ("admitted to Mackay Memorial Hospital on 2020/1/1", ("Mackay Memorial Hospital", "HOSPITAL")),
])
def test_nothing_is_added_without_a_department_right_after_a_hospital(text, found):
    assert _added(text, [found]) == []


def test_a_hospital_that_starts_the_department_name_joins_it():
    doc = doc_with_ents("RETURN TO THORACIC SURGERY OPD ON 2021.09.15", [("THORACIC", "HOSPITAL")])
    hospital_units(doc)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("THORACIC SURGERY", "DEPARTMENT", SOURCE)]


def test_nothing_is_added_where_an_entity_stands():
    assert _added("faxed to NTUH RAD today", [("NTUH", "HOSPITAL"), ("RAD", "SCHOOL")]) == []


@pytest.mark.parametrize("text,unit,hospital", [
    ("7月7日被登山客發現, 先送協和加護病房, 穩定後轉本院.", "加護病房", "協和"),
    ("轉至彰基精神科", "精神科", "彰基"),
])
def test_a_hospital_is_added_before_its_unit_after_a_verb_of_sending(text, unit, hospital):
    assert _added(text, [(unit, "DEPARTMENT")]) == [(hospital, "HOSPITAL")]


@pytest.mark.parametrize("text,unit", [
    ("2008/12/05  科別 外科  醫師 孫瑋彥", "外科"),  # a field's label
    ("QTc prolongation 會診老年醫學科, 建議停用", "老年醫學科"),  # a consult
    ("轉入成人加護病房", "加護病房"),  # a common word
    ("送本院急診", "急診"),  # this hospital
    ("To: 門諾 一般外科", "一般外科"),  # no verb of sending: left to the NER and the rules
])
def test_no_hospital_is_added_before_a_unit_without_one(text, unit):
    assert _added(text, [(unit, "DEPARTMENT")]) == []


def test_unit_after_reads_the_text_only():
    text = "To: 門諾 一般外科"
    assert unit_after(text, text.index("門諾") + 2) == (text.index("一般外科"), len(text))
    assert unit_after(text, len(text)) is None


def test_the_deid_pipeline_adds_the_unit_after_a_rule_hospital():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"demo_key": True})
    doc = nlp.get_pipe("deid").recognize(nlp.make_doc("Pt was diagnosed at TTMHH Nephrology on 2020/3/1."))
    assert [(e.text, e.label_, e._.source) for e in doc.ents if e.label_ in ("HOSPITAL", "DEPARTMENT")] == [
        ("TTMHH", "HOSPITAL", "rule"), ("Nephrology", "DEPARTMENT", SOURCE)]
    off = spacy_deid.blank()
    steps = [s for s in DEFAULT_NOTE_STEPS if s != "hospital_units"]
    off.add_pipe("deid", config={"demo_key": True, "note_steps": steps})
    doc = off.get_pipe("deid").recognize(off.make_doc("Pt was diagnosed at TTMHH Nephrology on 2020/3/1."))
    assert [e.text for e in doc.ents if e.label_ == "DEPARTMENT"] == []


def test_cost_grows_linearly_with_the_number_of_hospitals():
    def run(n):
        text = "faxed to NTUH RAD; " * n
        doc = spacy_deid.blank()(text)
        doc.ents = [doc.char_span(i * 19 + 9, i * 19 + 13, label="HOSPITAL") for i in range(n)]
        return lambda: hospital_units(doc)
    assert_linear(run, 500)
