"""spanshape: NER spans whose text cannot carry their label are dropped (the refine stage's last note step, `ner_shapes`)."""
import json
from pathlib import Path

import pytest
from spacy.language import Language
from spacy.tokens import Span

import spacy_deid
from spacy_deid.cues import CueRuleSet, active_cue_rules
from spacy_deid.pipeline.deid import CODE_GROUPS
from spacy_deid.refine import DEFAULT_NOTE_STEPS
from spacy_deid.refine.spanshape import drop_misshapen, fits_label, lone_surname

from ner_spans import deid_after


@pytest.mark.parametrize("text,label", [
    ("110.12.25", "DATE"), ("九月", "DATE"), ("Dec", "DATE"), ("民國一一〇年", "DATE"),
    ("on 2021/12/25", "DATE"), ("去年6月", "DATE"), ("mk1101225", "DATE"), ("Dec. 25th, 2021", "DATE"),
    ("2003", "DATE"), ("90年", "DATE"), ("970922", "DATE"), ("1190220", "DATE"), ("20211225", "DATE"),
    ("2019-2020", "DATE"), ("1999", "DATE"), ("0670922", "DATE"),
    # a month beside a day or a year: `10 - 12` may be a date, `110-12` a Minguo year and month
    ("10 - 12", "DATE"), ("110-12", "DATE"), ("12/31", "DATE"), ("13-12", "DATE"), ("03.02", "DATE"),
    ("38", "AGE"), ("三十八", "AGE"), ("27", "NUMBER"), ("十五", "NUMBER"),
    ("(02)2312-3456", "PHONE"), ("2234", "PHONE"), ("02-2312-3456 ext. 12", "PHONE"), ("+886-912-345-678", "PHONE"),
    ("32001CXM", "MEDICAL_RECORD"), ("A123456789", "ID_NUMBER"),
    ("x@y.tw", "EMAIL"), ("www.ntuh.gov.tw", "URL"), ("blog.xuite.net/abc", "URL"), ("line.me/ti/p/abc", "URL"),
    ("930.167.3943", "PHONE"), ("345-899-3560x4587", "PHONE"), ("201/324/1423", "PHONE"),  # US forms
    ("ABC-987654", "PHONE"),  # an identifier the NER calls a PHONE is still PHI to replace
    ("葉", "DOCTOR"), ("ydh", "DOCTOR"), ("Ho", "PATIENT"), ("He", "DOCTOR"), ("An", "FAMILY"), ("Ford", "PERSON"),
    ("The Hague", "CITY"), ("With Chen", "PERSON"), ("Wang Mei-Ling", "PERSON"), ("黃大銘", "FAMILY"),
    ("editor", "PROFESSION"), ("英語補習班老師", "PROFESSION"),
    ("804", "HOSPITAL"), ("7B", "ROOM"), ("12診", "ROOM"), ("711", "GENERAL_BUSINESS"), ("台灣", "COUNTRY"),
    ("Taipei City Hospital (Renai Branch)", "HOSPITAL"), ("台北市立聯合醫院（仁愛院區）", "HOSPITAL"),
    ("taipei city", "CITY"), ("de la Cruz Park", "LOCATION"), ("sung Hsiung-Cheng", "PERSON"),
    # a name typed in lower case is made of name syllables and names: it stays
    ("mei-ling", "FAMILY"), ("chen chih-ming", "PATIENT"), ("smith-jones", "PERSON"), ("Co-Sign", "PERSON"),
    ("x-ray", "HOSPITAL"),  # the check is for names only
    ("忠孝東路", "STREET"), ("台灣大道二段", "STREET"), ("民生路123巷", "STREET"), ("大街", "STREET"),
    ("Sec. 2, 中山北路", "STREET"), ("Main Street", "STREET"), ("Broadway", "STREET"), ("1234 Elm", "STREET"),
    ("Taipei to Kaohsiung", "CITY"), ("Lamictal Pharma and Sons", "GENERAL_BUSINESS"),  # not terms only
    ("Ward 200", "LOCATION"), ("Taiwanese", "NATIONALITY"), ("Foreigner Bar", "GENERAL_BUSINESS"),
])
def test_shapes_the_annotation_guide_allows(text, label):
    assert fits_label(text, label)


@pytest.mark.parametrize("text,label", [
    (">", "PHONE"), ("+bs", "PHONE"), ("-", "DATE"), ("tomorrow", "DATE"), ("old", "AGE"), ("號", "NUMBER"),
    ("w", "DOCTOR"), ("Dr2", "DOCTOR"), ("2", "PROFESSION"), ("...", "HOSPITAL"), ("MRN", "MEDICAL_RECORD"),
    ("name at host", "EMAIL"), ("homepage", "URL"), ("（）", "CITY"),
    ("03-7452939 ext. 9558", "DATE"), ("ext. 5228", "DATE"), ("14:30", "DATE"), ("3 days", "DATE"),
    ("BP 120/80", "DATE"), ("180k", "DATE"), ("3週", "DATE"), ("180", "DATE"), ("12", "DATE"), ("55555", "DATE"),
    ("0600", "DATE"), ("0930", "DATE"), ("1900-0700", "DATE"), ("0700 - 1900", "DATE"), ("2300~0700", "DATE"),
    ("1600-2400", "DATE"), ("2400", "DATE"),
    # cut at a mark (`[86 -]> 62`, `[12-]lead`, `[.25] mg`); two numbers neither of which is a month
    ("86 -", "DATE"), ("12-", "DATE"), (".5", "DATE"), ("2021/", "DATE"), ("- 03.02", "DATE"),
    ("65 - 85", "DATE"), ("120-260", "DATE"), ("140/85", "DATE"), ("24~48", "DATE"), ("13 – 31", "DATE"),
    ("https://line.me/ti/p/abc 直播", "LOCATION"), ("www.ntuh.gov.tw", "HOSPITAL"), ("chen@ntu.edu.tw", "SCHOOL"),
    ("for", "DOCTOR"), ("FOR", "PATIENT"), ("the", "SCHOOL"), ("With", "HOSPITAL"), ("which", "PROFESSION"),
    ("https://www.youtube.com/@meiling.liu", "PERSON"), ("lin@ntuh.gov.tw", "DOCTOR"), ("7B://", "ROOM"),
    ("supervisor)參加", "COUNTRY"), ("Chen (nephew", "FAMILY"), ("holds an ARC", "COUNTRY"),
    ("moved to Taipei", "CITY"),
    ("(1) NTUH", "PHONE"), ("(3) 長庚醫院", "PHONE"), ("(2) Mackay Memorial", "PHONE"),  # a list marker and a hospital
    ("0130", "PHONE"), ("0610", "PHONE"), ("2400", "PHONE"),  # clock readings: `0130 及 0430 各醒一次`
    ("75-100cc", "PHONE"), ("600U", "PHONE"), ("104.4", "PHONE"), ("0.125", "PHONE"),  # amounts and values
    ("50-60/23-25", "PHONE"), ("750/24/60%", "PHONE"),
    ("hr.also", "URL"), ("held.Cardiac", "URL"), ("95-110/50-60", "URL"),  # a missing space, a range
    ("溝通良好", "STREET"), ("仁愛", "STREET"), ("中山北", "STREET"), ("Sec. 2, 中山", "STREET"),
    ("woman", "PROFESSION"), ("smoker", "PROFESSION"), ("Patient", "PROFESSION"), ("個案", "PROFESSION"),
    ("unemployed", "PROFESSION"), ("Retired", "PROFESSION"), ("無業", "PROFESSION"),  # no trade at all
    ("knife", "PROFESSION"), ("Razor", "PROFESSION"), ("水果刀", "PROFESSION"),  # a means of harm: `with a knife`
    ("Lamictal to Cymbalta", "LOCATION"), ("Effexor and Lamictal", "PERSON"), ("Cymbalta/Effexor", "HOSPITAL"),
    ("Effexor 200", "GENERAL_BUSINESS"), ("Effexor 3/3", "GENERAL_BUSINESS"), ("Effexor 1#", "PERSON"),  # a dose
    ("Foreign", "NATIONALITY"), ("overseas", "NATIONALITY"),  # from elsewhere, no country named
    # lower-case hyphenated chart words, a part of which is no word of any name
    ("co-sign", "DOCTOR"), ("well-groomed", "PATIENT"), ("x-ray", "PERSON"), ("re-check", "DOCTOR"),
    ("s-o-b", "PATIENT"), ("pt-ot", "DOCTOR"),
])
def test_shapes_no_annotator_could_give(text, label):
    assert not fits_label(text, label)



def _note_steps(check: bool):
    """The default refine steps, with or without the shape check."""
    return [s for s in DEFAULT_NOTE_STEPS if check or s != "ner_shapes"]


@Language.component("fake_ner_for_shapes")
def fake_ner_for_shapes(doc):
    """Stands in for a trained NER: marks fixed token ranges, some misshapen."""
    wanted = {">": "PHONE", "w": "DOCTOR", "張家明": "DOCTOR", "60": "AGE"}
    spans = []
    for token in doc:
        if token.text in wanted:
            spans.append(Span(doc, token.i, token.i + 1, label=wanted[token.text]))
    if "張" in doc.text:
        start = doc.text.index("張")
        spans = [s for s in spans if s.label_ != "DOCTOR" or s.text == "w"]
        spans.append(doc.char_span(start, start + 3, label="DOCTOR"))
    doc.ents = spans
    return doc


def _pipeline(check: bool):
    return deid_after("fake_ner_for_shapes", note_steps=_note_steps(check))


def test_deid_drops_misshapen_ner_spans_and_keeps_the_rest():
    text = "BP > 90, w 60 kg. Dr. 張家明 saw him, age 60."
    doc = _pipeline(True)(text)
    kept = {(e.text, e.label_) for e in doc.ents}
    assert (">", "PHONE") not in kept and ("w", "DOCTOR") not in kept
    assert ("張家明", "DOCTOR") in kept and ("60", "AGE") in kept
    assert "張家明" not in doc._.deid_text and " w " in doc._.deid_text and "> 90" in doc._.deid_text
    for ent in doc.ents:
        assert text[ent.start_char:ent.end_char] == ent.text


def test_switch_off_keeps_every_ner_span():
    doc = _pipeline(False)("BP > 90, w 60 kg. Dr. 張家明.")
    kept = {(e.text, e.label_) for e in doc.ents}
    assert (">", "PHONE") in kept and ("w", "DOCTOR") in kept


def test_rule_and_date_spans_are_never_checked():
    nlp = spacy_deid.blank()
    doc = nlp.make_doc("call > now")
    span = Span(doc, 1, 2, label="PHONE")
    doc.ents = [span]
    span._.source = "rule"
    assert drop_misshapen(doc) == [] and len(doc.ents) == 1
    span._.source = None
    assert [s.text for s in drop_misshapen(doc)] == [">"] and not doc.ents


def test_a_ner_date_the_finder_reads_in_its_context_stays():
    """`'97` after a history's event is a year to the finder; the NER's `97` with the same bounds stays, while
    the NER's two digits the finder does not read (`rr 12`) are a value and go."""
    nlp = spacy_deid.blank()
    text = "pmh: s/p mi '97, rr 12 on cpap"
    doc = nlp.make_doc(text)
    year, value = text.index("97"), text.index("12")
    doc.ents = [doc.char_span(year, year + 2, label="DATE"), doc.char_span(value, value + 2, label="DATE")]
    assert [(s.text, s.start_char) for s in drop_misshapen(doc)] == [("12", value)]
    assert [(e.text, e.start_char, e.label_) for e in doc.ents] == [("97", year, "DATE")]
    assert not fits_label("97", "DATE")  # alone, two digits are no date


def test_setting_survives_save_and_load(tmp_path):
    import spacy

    _pipeline(False).to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert "ner_shapes" not in loaded.get_pipe("deid").refine.note_step_names


@Language.component("fake_ner_swallowing_url")
def fake_ner_swallowing_url(doc):
    """A NER that tags a web address and the next word as one LOCATION (a real model's error)."""
    start = doc.text.index("https://")
    end = doc.text.index("直播") + 2
    doc.ents = [doc.char_span(start, end, label="LOCATION")]
    return doc


@pytest.mark.parametrize("check", [True, False])
def test_a_url_swallowed_into_a_place_goes_back_to_the_rules(check):
    # the shape check drops the place; without it, the overlap policy still gives the URL the rules
    # found precedence over a NER span of another category
    text = "病人在 https://line.me/ti/p/mei92 直播, 內容混亂."
    nlp = deid_after("fake_ner_swallowing_url", note_steps=_note_steps(check))
    doc = nlp(text)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("https://line.me/ti/p/mei92", "URL", "rule")]
    assert "mei92" not in doc._.deid_text
    assert "直播" in doc._.deid_text


@pytest.mark.parametrize("check", [True, False])
def test_the_shape_check_alone_drops_a_place_holding_a_url(check):
    # with the rules switched off no identifier protects the URL: only the shape check removes the span
    text = "病人在 https://line.me/ti/p/mei92 直播, 內容混亂."
    nlp = deid_after("fake_ner_swallowing_url", note_steps=_note_steps(check), rules=False)
    doc = nlp(text)
    assert [(e.text, e.label_) for e in doc.ents] == ([] if check else [("https://line.me/ti/p/mei92 直播", "LOCATION")])


@Language.component("fake_ner_phone_as_date")
def fake_ner_phone_as_date(doc):
    """A NER that calls a phone number and its extension one DATE (a real model's error)."""
    start = doc.text.index("03-")
    doc.ents = [doc.char_span(start, len(doc.text) - 1, label="DATE")]
    return doc


def test_a_phone_called_a_date_goes_back_to_the_rules():
    text = "call 03-7452939 ext. 9558."
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_phone_as_date")
    nlp.add_pipe("deid", config={"demo_key": True})
    nlp.initialize()
    doc = nlp(text)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("03-7452939", "PHONE", "rule"),
                                                                  ("9558", "PHONE", "rule")]
    assert "7452939" not in doc._.deid_text and "9558" not in doc._.deid_text and " ext. " in doc._.deid_text


@pytest.mark.parametrize("text,name,alone", [
    ("日期 2106/12/31 班別 小夜  床號 5C-25", "別", True),  # a nursing header's word, not a name
    ("由王說明病情", "王", False),  # a Han character follows: maybe a name cut short, kept
    ("據周先生表示", "周", False), ("會診葉 醫師", "葉", False), ("家屬陳小姐, 王阿姨", "陳", False),
    ("家屬陳小姐, 王阿姨", "王", False), ("Discussed with Dr. 林.", "林", False), ("MR.王, 28y", "王", False),
    ("老王今天沒來", "王", False), ("住院中, 別.", "別", True), ("由社工 謝 轉介", "謝", False),
    ("主治醫師: 王\n", "王", False), ("VS 王, R 林", "王", False), ("VS 王, R 林", "林", False), ("班 別", "別", True),
])
def test_a_one_character_name_needs_its_title(text, name, alone):
    start = text.index(name)
    assert lone_surname(text, start, start + 1, "PATIENT") is alone
    assert not lone_surname(text, start, start + 1, "HOSPITAL")  # places of one character are not names


def test_a_lone_one_character_name_is_dropped_and_a_titled_one_kept():
    nlp = spacy_deid.blank()
    text = "日期 2106/12/31 班別 小夜 據周先生表示"
    doc = nlp(text)
    doc.ents = [doc.char_span(text.index("別"), text.index("別") + 1, label="PATIENT"),
                doc.char_span(text.index("周"), text.index("周") + 1, label="FAMILY")]
    assert [(s.text, s.label_) for s in drop_misshapen(doc)] == [("別", "PATIENT")]
    assert [(e.text, e.label_) for e in doc.ents] == [("周", "FAMILY")]


@pytest.mark.parametrize("text,phone", [
    ("0200-0600", False),  # slept from 2 to 6
    ("1900-0700", False),  # a night shift
    ("0700 - 1900", False),
    ("2300-0600", True),  # could be a Taipei local number: kept
    ("1234-5678", True),  # 5678 is no clock reading
    ("0912-345-678", True),
    ("(02)2312-3456", True),
])
def test_a_shift_of_two_clock_readings_from_0_or_1_is_no_phone(text, phone):
    assert fits_label(text, "PHONE") is phone


@pytest.mark.parametrize("text,profession", [
    ("noodle shop", False),  # where someone works, not what they do
    ("convenience store", False),
    ("餐廳", False),
    ("工廠", False),
    ("Lincoln High School", True),  # a named place: PHI of another label, kept for the overlap
    ("阿美早餐店", True),
    ("職", False),  # one character
    ("store clerk", True),
    ("店員", True),
    ("工廠作業員", True),
    ("school teacher", True),
    ("shopkeeper", True),
])
def test_a_profession_is_no_place_of_work(text, profession):
    assert fits_label(text, "PROFESSION") is profession


@pytest.mark.parametrize("text,profession", [
    ("thick sputum", False),  # a finding, no trade
    ("oxygen mask", False),  # a device
    ("pressure dressing", False),  # a dressing
    ("Nebulizer", False),
    ("process engineer", True),  # a word for a person (WordNet's nouns of persons)
    ("fortune tellers", True),  # a plural
    ("FIREMEN", True),
    ("retired longshoreman", True),
    ("Chinese", True),  # a nationality the NER called a trade: a word no common list holds, kept for the others
    ("named Wilhelmina", True),  # a name the NER called a trade
    ("程式設計師", True),  # a trade in Chinese: the other rules judge it
])
def test_an_english_profession_holds_a_word_for_a_person(text, profession):
    assert fits_label(text, "PROFESSION") is profession


@pytest.mark.parametrize("text,is_date", [
    ("2019", True), ("1800", True), ("2399", True), ("2105", True),  # the date finder's years
    ("0600", False), ("2400", False),  # clock readings
    ("5400", False), ("1200", False), ("2450", False), ("9999", False),  # counts: no year
    ("970922", True), ("1190220", True), ("20211225", True), ("180", False),
])
def test_four_digits_are_a_date_only_within_the_finders_years(text, is_date):
    assert fits_label(text, "DATE") is is_date


@pytest.mark.parametrize("text,label,fits", [
    ("元", "DEPARTMENT", False),  # the currency after `2000元`
    ("科", "DEPARTMENT", False),
    ("院", "HOSPITAL", False),
    ("店", "GENERAL_BUSINESS", False),
    ("台大", "HOSPITAL", True),
    ("精神科", "DEPARTMENT", True),
    ("804", "HOSPITAL", True),
    ("葉", "DOCTOR", True),  # a name may be one character (`[葉]醫師`)
])
def test_an_organisation_is_not_one_han_character(text, label, fits):
    assert fits_label(text, label) is fits


def test_lab_values_scores_and_money_keep_their_digits_in_the_shipped_pipeline():
    """End to end on the shipped default: numbers the NER could read as years are measured values."""
    nlp = spacy_deid.load()
    text = ("Clozapine 已滿 18 週, ANC 2100, WBC 5400, CK 2450, TG 1200. PHQ-9: 8/27, GAD-7: 11/21. "
            "夜眠約 4-5 hr, 2330 入睡. 隨身財物: 手機一支、現金2000元.")
    doc = nlp(text)
    for value in ("2100", "5400", "2450", "1200", "8/27", "11/21", "2330", "2000元"):
        assert value in doc._.deid_text, value
    assert not [e for e in doc.ents if e.label_ in ("DATE", "DEPARTMENT")]


def test_the_shapes_a_regex_states_are_rules_saved_with_the_pipeline_and_editable(tmp_path):
    """`fits_label` reads the `shapes` cue rules in force: a hospital that drops a rule from its copy of
    `shapes.json` keeps what the rule dropped; a saved rule folder without the file takes the packaged
    rules (`Deid.from_disk`: the groups code reads)."""
    assert not fits_label("no address given", "EMAIL")
    data = json.loads((Path(spacy_deid.__file__).parent / "resources" / "cue_rules" / "shapes.json").read_text("utf8"))
    data["rules"] = [r for r in data["rules"] if r["id"] != "email_without_at"]
    (tmp_path / "shapes.json").write_text(json.dumps(data), encoding="utf8")
    with active_cue_rules(CueRuleSet.from_path(tmp_path)):
        assert fits_label("no address given", "EMAIL")
        assert not fits_label("w", "DOCTOR")  # the file's other rules hold
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "titles.json").write_text(json.dumps({"rules": []}), encoding="utf8")
    saved = CueRuleSet.from_disk(tmp_path / "saved", complete=CODE_GROUPS)
    assert "shapes" in saved.groups
