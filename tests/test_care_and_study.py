"""care_or_study (cue rules `resources/cue_rules/care.json`, `study.json`): an institution someone is
treated at is a HOSPITAL, one someone studies at a SCHOOL."""
import pytest

from spacy_deid.cues import default_cue_rules
from spacy_deid.refine.cue_steps import cue_repair

from linear import assert_linear
from ner_spans import doc_with_ents, repaired

by_care_or_study = cue_repair(default_cue_rules(), "care_or_study")


@pytest.mark.parametrize("text,found,label", [
    ("Patient was transferred from Linkou Chang Gung for care.", ("Linkou Chang Gung", "SCHOOL"), "HOSPITAL"),
    ("Transferred from 長庚 for further psychiatric care.", ("長庚", "SCHOOL"), "HOSPITAL"),
    ("Mother was admitted to Shin Kong for a stroke.", ("Shin Kong", "GENERAL_BUSINESS"), "HOSPITAL"),
    ("個案去國泰 ER for chest pain.", ("國泰", "GENERAL_BUSINESS"), "HOSPITAL"),
    ("案母因中風住進新光。", ("新光", "GENERAL_BUSINESS"), "HOSPITAL"),
    ("案女目前於台大就讀研究所。", ("台大", "HOSPITAL"), "SCHOOL"),
    ("成大 graduate student, 1st episode psychosis.", ("成大", "HOSPITAL"), "SCHOOL"),
    ("案女 studies at 高醫 醫學系, 大三.", ("高醫", "HOSPITAL"), "SCHOOL"),
    ("個案由北醫的同學陪同至急診。", ("北醫", "HOSPITAL"), "SCHOOL"),
    ("ER from 嘉基, 意識改變兩天.", ("嘉基", "FAMILY"), "HOSPITAL"),  # a person's label, in words of care
    ("個案去國泰 ER for chest pain.", ("國泰", "FAMILY"), "HOSPITAL"),
    # an ambulance from it, a transfer from it, a physician of it, one of its departments right after it
    ("14:20 新入院, 由彰基救護車轉入", ("彰基", "SCHOOL"), "HOSPITAL"),
    ("14:20 新入院, 由彰基救護車轉入", ("彰基", "DOCTOR"), "HOSPITAL"),
    ("今日從澄清轉來, 攜帶轉診單.", ("澄清", "SCHOOL"), "HOSPITAL"),
    ("病人要求轉院至澄清, 已聯繫.", ("澄清", "FAMILY"), "HOSPITAL"),
    ("S: claims Dr. Yang at PUMCH put poison in the soup", ("PUMCH", "SCHOOL"), "HOSPITAL"),
    ("轉診單: 郭綜合加護病房 王大明 醫師", ("郭綜合", "DOCTOR"), "HOSPITAL"),
    ("Summary faxed to KMUNH RAD (07-312-1101)", ("KMUNH", "GENERAL_BUSINESS"), "HOSPITAL"),
    ("To: 門諾 一般外科   From: ward", ("門諾", "SCHOOL"), "HOSPITAL"),
    # enrolment, the school's offices and exams; a place or nationality the NER read, or a person
    ("學業: 2019年 入學竹中; 2021年3月 休學", ("竹中", "NATIONALITY"), "SCHOOL"),
    ("學業: 民國108年 入學彰師大; 110年休學", ("彰師大", "PERSON"), "SCHOOL"),
    ("協助病人用病房電話聯絡交大導師, 請假", ("交大", "HOSPITAL"), "SCHOOL"),
    ("A/P: 已聯絡儒林學務處, 安排返校.", ("儒林", "CITY"), "SCHOOL"),
    ("She overslept and skipped the TCFSH midterms.", ("TCFSH", "HOSPITAL"), "SCHOOL"),
    ("她轉學到陽明交大, 畢業後上班", ("陽明交大", "GENERAL_BUSINESS"), "SCHOOL"),
    # an item of a list of past admissions
    ("Prior admissions: (1) KUOGH, 2010, psychosis; (2) 亞東, 2015.3", ("KUOGH", "SCHOOL"), "HOSPITAL"),
    ("Prior admissions: (1) KUOGH, 2010, psychosis; (2) 亞東, 2015.3", ("亞東", "PATIENT"), "HOSPITAL"),
    ("住院史: (1) 奇美 2019年, (2) 雙和 2021年", ("雙和", "GENERAL_BUSINESS"), "HOSPITAL"),
])
def test_the_frame_says_hospital_or_school(text, found, label):
    assert repaired(text, found, by_care_or_study) == (1, [(found[0], label)])


@pytest.mark.parametrize("text,found", [
    ("Transferred from Taipei for care.", ("Taipei", "CITY")),  # a place, not an institution
    ("transferred from 長庚大學 for care", ("長庚大學", "SCHOOL")),  # its type word says school
    ("由王大明轉介至本院", ("王大明", "PERSON")),  # people refer too
    ("在王大明住院期間, 病人獨居", ("王大明", "FAMILY")),  # a relative's stay
    ("Pt 由王大明 transfer 至本院", ("王大明", "FAMILY")),
    ("在台積電工作", ("台積電", "GENERAL_BUSINESS")),  # a workplace: no care or study
    ("transferred from 台大 after graduating from 台大 醫學系", ("台大", "HOSPITAL")),  # the first: care only
    ("studied at 台大 and was admitted to it", ("台大", "SCHOOL")),
    ("由王大明轉來病房探視", ("王大明", "FAMILY")),  # 轉來 after a name: only other institutions change
    ("To: 王大明 一般外科", ("王大明", "DOCTOR")),  # a name before a department after a space: a signature
    ("Dr. Yang at 台大 醫學系 lectures", ("台大", "SCHOOL")),  # care and study both said: no change
    ("Mei, a 68-yr-old Vietnamese student at NCTU", ("Vietnamese", "NATIONALITY")),  # her nationality
    ("入學台北, 後轉學", ("台北", "CITY")),  # a known place stays a place
    ("王大明導師來訪", ("王大明", "PERSON")),  # a teacher's name
    ("PMH: (1) SAH, (2) ICH", ("ICH", "GENERAL_BUSINESS")),  # a problem list is no list of admissions
])
def test_other_spans_stay(text, found):
    assert repaired(text, found, by_care_or_study) == (0, [found])


def test_cost_grows_linearly_with_the_text():
    def run(n):
        text = "transferred from " * n + "Shin Kong" + " admission" * n
        doc = doc_with_ents(text, [("Shin Kong", "GENERAL_BUSINESS")])
        by_care_or_study(doc, text, doc.ents[0])
    assert_linear(run, 4000)
