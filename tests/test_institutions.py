"""institutions: NER spans take the type word that ends an institution's name, and its label."""
import pytest
from spacy.language import Language

import spacy_deid
from spacy_deid.predicates import type_word_after, type_word_ending
from spacy_deid.refine import DEFAULT_NOTE_STEPS, RefineStage

from linear import assert_linear
from ner_spans import deid_after, doc_with_ents, ents_of, stepped


@pytest.mark.parametrize("text,found,expected", [
    ("他就讀國立成功大學三年。", ("國立成功", "STATE"), ("國立成功大學", "SCHOOL")),
    ("曾在台北果菜市場工作。", ("台北", "CITY"), ("台北果菜市場", "MARKET")),
    ("出獄前關在台中監獄。", ("台中", "CITY"), ("台中監獄", "LOCATION")),
    ("轉往阮綜合醫院治療。", ("阮綜合", "DOCTOR"), ("阮綜合醫院", "HOSPITAL")),
    ("晚上去士林夜市散步。", ("士林", "CITY"), ("士林夜市", "MARKET")),
    ("transferred from Calvert Memorial Hospital today", ("Calvert", "CITY"), ("Calvert Memorial Hospital", "HOSPITAL")),
    ("TRANSFERRED FROM CALVERT HOSPITAL ER", ("CALVERT", "PATIENT"), ("CALVERT HOSPITAL", "HOSPITAL")),
    ("She studied at Tunghai University before.", ("Tunghai", "CITY"), ("Tunghai University", "SCHOOL")),
    ("Referred to Pier-2 Art Center for art therapy", ("Pier-2", "HOSPITAL"), ("Pier-2 Art Center", "LOCATION")),
    ("到南港軟體園區上班", ("南港軟體", "CITY"), ("南港軟體園區", "LOCATION")),
    # an institution named after its place: the NER stopped at the place
    ("住北京協和醫院(東京)。", ("北京", "CITY"), ("北京協和醫院", "HOSPITAL")),
    ("於臺北市立關渡醫院住院。", ("臺北市", "CITY"), ("臺北市立關渡醫院", "HOSPITAL")),
    ("畢業於加州理工學院。", ("加州", "STATE"), ("加州理工學院", "SCHOOL")),
    # the institution's last type word decides
    ("於高雄醫學大學附設醫院開刀。", ("高雄", "CITY"), ("高雄醫學大學附設醫院", "HOSPITAL")),
    ("於國立成功大學附設醫院開刀。", ("國立成功", "STATE"), ("國立成功大學附設醫院", "HOSPITAL")),
    ("病人原在台北市立聯合醫院松德院區就醫", ("台北市", "CITY"), ("台北市立聯合醫院", "HOSPITAL")),
    # the short forms hospitals' names end with
    ("三次 manic episode, 皆住高市聯醫\n", ("高市", "CITY"), ("高市聯醫", "HOSPITAL")),
    ("經台中榮總轉介", ("台中", "CITY"), ("台中榮總", "HOSPITAL")),
    # a general hospital's short name, 醫院 left off
    ("三次 manic episode, 皆住郭綜合", ("郭綜合", "DOCTOR"), ("郭綜合", "HOSPITAL")),
    ("To: 阮綜合 外科   From: General Psychiatry", ("阮綜合", "PERSON"), ("阮綜合", "HOSPITAL")),
    # more capitalised words of the name before the type word
    ("Records faxed from Tungs' Taichung MetroHarbor Hospital (02-80670059)", ("Tungs' Taichung", "DOCTOR"),
     ("Tungs' Taichung MetroHarbor Hospital", "HOSPITAL")),
    ("ADMITTED TO KAOHSIUNG MUNICIPAL KAI-SYUAN PSYCHIATRIC HOSPITAL", ("KAOHSIUNG", "CITY"),
     ("KAOHSIUNG MUNICIPAL KAI-SYUAN PSYCHIATRIC HOSPITAL", "HOSPITAL")),
    ("Job: tour guide at a Taipei Fruit and Vegetable Market stall", ("Taipei Fruit", "LOCATION"),
     ("Taipei Fruit and Vegetable Market", "MARKET")),
    ("2098.03.24 REFERRED TO GARDEN OF HOPE FOUNDATION;", ("GARDEN", "HOSPITAL"), ("GARDEN OF HOPE FOUNDATION", "LOCATION")),
    # no person's name ends with an English type word
    ("Prior admissions: (1) Yuan's General Hospital, 2010", ("Yuan's General Hospital", "PATIENT"),
     ("Yuan's General Hospital", "HOSPITAL")),
])
def test_a_span_takes_the_type_word_after_it(text, found, expected):
    assert stepped(text, found, "institutions") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("住在台南大學路二段。", ("台南", "CITY")),  # 大學路 is a street
    ("母親是大安國小老師。", ("大安", "CITY")),  # the school's teacher: a profession phrase
    ("目前在高級中學就讀。", ("高級", "SCHOOL")),  # a generic modifier names no school
    ("子宮切除後。", ("子", "PATIENT")),  # one-character type words never extend: an organ
    ("lives near Lee park now", ("Lee", "PERSON")),  # a lower-case word is no type word
    ("Dr. Park Hospitalized him", ("Park", "DOCTOR")),  # `Hospitalized` is not `Hospital`
    ("去台北的醫院看病。", ("台北", "CITY")),  # a phrase, not a name: 的
    ("轉到台北某大醫院。", ("台北", "CITY")),  # 某: no institution named
    ("調到台東縣分公司。", ("台東縣", "CITY")),  # a one-character name: a company's branch
    ("住在台南市新化大學路。", ("台南市", "CITY")),  # the type word runs on into a street
    ("病人王小明大安醫院轉來。", ("王小明", "PATIENT")),  # only places name institutions
    ("住在台北市信義區忠孝東路附近的長庚醫院", ("台北市", "CITY")),  # too far: more than five characters
    ("Seen by Chen at Kuo General Hospital", ("Chen", "DOCTOR")),  # a lower-case word between
    ("Taipei Mayor Ko Wen Je Hospital visit", ("Taipei", "CITY")),  # more than three words between
    ("He moved between Taipei and Taichung Hospital twice", ("Taipei", "CITY")),  # a list of two places
])
def test_words_that_only_look_like_type_words_leave_the_span_alone(text, found):
    assert stepped(text, found, "institutions") == (0, [found])


@pytest.mark.parametrize("text,found,label", [
    ("弟弟讀大安國小五年級。", ("大安國小", "STATE"), "SCHOOL"),
    ("轉至新加坡中央醫院。", ("新加坡中央醫院", "LOCATION"), "HOSPITAL"),
    ("於高雄醫學大學附設醫院開刀。", ("高雄醫學大學附設醫院", "SCHOOL"), "HOSPITAL"),
    ("畢業於高雄醫學大學。", ("高雄醫學大學", "HOSPITAL"), "SCHOOL"),
    ("每年去北港朝天宮拜拜。", ("北港朝天宮", "CITY"), "LOCATION"),
    ("volunteers at Eden Social Welfare Foundation", ("Eden Social Welfare Foundation", "HOSPITAL"), "LOCATION"),
])
def test_a_place_span_ending_in_a_type_word_takes_its_label(text, found, label):
    assert stepped(text, found, "institutions") == (1, [(found[0], label)])


@pytest.mark.parametrize("text,found,expected", [
    ("經國軍台中總醫院楊勳鴻轉介.", ("國軍台中總醫院楊勳鴻", "HOSPITAL"),
     [("國軍台中總醫院", "HOSPITAL"), ("楊勳鴻", "PERSON")]),
    ("由大安國小林美轉來.", ("大安國小林美", "SCHOOL"), [("大安國小", "SCHOOL"), ("林美", "PERSON")]),
    ("家屬說花蓮慈濟醫院陳美華有來.", ("花蓮慈濟醫院陳美華", "HOSPITAL"), [("花蓮慈濟醫院", "HOSPITAL"), ("陳美華", "PERSON")]),
    ("整晚在美術館公園遊蕩.", ("美術館公園遊蕩", "LOCATION"), [("美術館公園", "LOCATION")]),  # a common word: no name
    ("Seen at Mennonite Christian Hospital Department of Surgery.",
     ("Mennonite Christian Hospital Department", "HOSPITAL"), [("Mennonite Christian Hospital", "HOSPITAL")]),
])
def test_an_institution_span_that_runs_into_a_name_is_cut_where_the_institution_ends(text, found, expected):
    assert stepped(text, found, "institutions") == (1, expected)


@pytest.mark.parametrize("text,found", [
    ("轉至台大醫院新竹分院.", ("台大醫院新竹分院", "HOSPITAL")),  # a branch of the hospital
    ("轉至馬偕醫院淡水院區.", ("馬偕醫院淡水院區", "HOSPITAL")),
    ("轉至台大醫院精神科.", ("台大醫院精神科", "HOSPITAL")),  # its department (departments.py splits it)
    ("聯絡台大醫院護理師.", ("台大醫院護理師", "HOSPITAL")),  # staff, not a name
    ("聯絡台大醫院職員.", ("台大醫院職員", "HOSPITAL")),
    ("轉至林口長庚醫院.", ("林口長庚醫院", "HOSPITAL")),  # nothing after the type word
    ("去南機場夜市吃宵夜.", ("南機場夜市", "MARKET")),  # a type word after a type word: one market
    ("Seen at Mercy Department today.", ("Mercy Department", "HOSPITAL")),  # no type word before it
])
def test_an_institution_with_its_own_parts_after_the_type_word_stays_whole(text, found):
    assert stepped(text, found, "institutions") == (0, [found])


def test_names_of_people_and_rule_spans_are_not_relabelled():
    text = "病人王醫院今日出院。"  # an odd name, but a name: the NER called it one
    assert stepped(text, ("王醫院", "PATIENT"), "institutions") == (0, [("王醫院", "PATIENT")])
    text = "轉往台中監獄。"
    doc = doc_with_ents(text, [("台中", "CITY")], source="rule")
    RefineStage(["institutions"], []).refine_note(doc)
    assert ents_of(doc) == [("台中", "CITY")]


def test_a_longer_span_never_reaches_into_the_next_entity():
    text = "曾在台北果菜市場工作。"
    doc = doc_with_ents(text, [("台北", "CITY"), ("果菜市場", "GENERAL_BUSINESS")])
    RefineStage(["institutions"], []).refine_note(doc)
    assert ("台北", "CITY") in ents_of(doc)


def test_lookups():
    assert type_word_after("國立成功大學", 4) == (6, "SCHOOL")
    assert type_word_after("台南大學路", 2) is None
    assert type_word_after("Tunghai University", 7) == (18, "SCHOOL")
    assert type_word_ending("大學") is None  # the type word alone names nothing
    assert type_word_ending("大安國小") == "SCHOOL"
    assert type_word_ending("Taoyuan Airport") == "LOCATION"
    assert type_word_ending("Taoyuan airport") is None


@Language.component("fake_ner_for_institutions")
def fake_ner_for_institutions(doc):
    """Stands in for a trained NER that stopped before the type word."""
    start = doc.text.index("國立成功")
    doc.ents = [doc.char_span(start, start + 4, label="STATE")]
    return doc


def _pipeline(complete: bool):
    steps = DEFAULT_NOTE_STEPS if complete else [s for s in DEFAULT_NOTE_STEPS if s != "institutions"]
    return deid_after("fake_ner_for_institutions", note_steps=list(steps))


def test_deid_completes_ner_spans_and_leaving_the_step_out_turns_it_off(tmp_path):
    import spacy

    text = "他常去國立成功大學。"  # (not after a word of study: schools.json has a rule for that)
    doc = _pipeline(True)(text)
    assert [(e.text, e.label_) for e in doc.ents] == [("國立成功大學", "SCHOOL")]
    assert doc._.deid_text.startswith("他常去") and "成功" not in doc._.deid_text
    off = _pipeline(False)
    assert [(e.text, e.label_) for e in off(text).ents] == [("國立成功", "STATE")]
    off.to_disk(tmp_path / "p")
    assert "institutions" not in spacy.load(tmp_path / "p").get_pipe("deid").refine.note_step_names


def test_cost_grows_linearly_with_the_number_of_spans():
    def run(n: int) -> None:
        text = "去台北果菜市場和大安國小。" * n
        doc = spacy_deid.blank().make_doc(text)
        spans, pos = [], 0
        for _ in range(n):
            a = text.index("台北", pos)
            b = text.index("大安國小", pos)
            spans += [doc.char_span(a, a + 2, label="CITY"), doc.char_span(b, b + 4, label="STATE")]
            pos = b + 4
        doc.ents = spans
        RefineStage(["institutions"], []).refine_note(doc)

    assert_linear(run, 2000)
