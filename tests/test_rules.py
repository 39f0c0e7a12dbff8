"""deid_rules: each recognizer with positive and negative cases, value objects, serialization, timing."""
import json

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

import spacy_deid
from spacy_deid.rules import PatternRule, RuleError, Validators, load_patterns, tw_id_check_digit
from spacy_deid.rules.loading import default_pattern_files
from spacy_deid.rules.validators import tw_id_checksum, tw_old_resident_checksum

from linear import assert_linear


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules")
    return nlp


def found(nlp, text):
    """(span text, label) in order; every span's offsets hold its text."""
    doc = nlp(text)
    for ent in doc.ents:
        assert text[ent.start_char:ent.end_char] == ent.text
    return [(e.text, e.label_) for e in doc.ents]


# (text, expected (span text, label) pairs in order)
POSITIVE = [
    # ID_NUMBER: national ID (checksum), resident certificates old/new, typo'd ID next to its label
    ("身分證字號 A123456789.", [("A123456789", "ID_NUMBER")]),
    ("ID: F234567898 verified", [("F234567898", "ID_NUMBER")]),
    ("居留證 FC00000008", [("FC00000008", "ID_NUMBER")]),
    ("ARC HD23456780 (old format)", [("HD23456780", "ID_NUMBER")]),
    ("new ARC A800000014 issued", [("A800000014", "ID_NUMBER")]),
    ("身分證 B123456788 (誤植)", [("B123456788", "ID_NUMBER")]),
    ("護照號碼 312345678", [("312345678", "ID_NUMBER")]),
    # NIC with its context
    ("健保卡號 0000 1234 5678", [("0000 1234 5678", "NIC")]),
    ("NIC: 000012345678", [("000012345678", "NIC")]),
    # PHONE
    ("電話(02)2312-3456", [("(02)2312-3456", "PHONE")]),
    ("聯絡 02-2312-3456 白天", [("02-2312-3456", "PHONE")]),
    ("高雄 07 3121101", [("高雄", "CITY"), ("07 3121101", "PHONE")]),
    ("cell 0912-345-678", [("0912-345-678", "PHONE")]),
    ("手機0912345678", [("0912345678", "PHONE")]),
    ("call 0912 345 678 now", [("0912 345 678", "PHONE")]),
    ("06-2353535 分機 5106", [("06-2353535", "PHONE"), ("5106", "PHONE")]),
    ("office ext. 502", [("502", "PHONE")]),
    ("Tel 02-2312-3456 #502", [("02-2312-3456", "PHONE"), ("502", "PHONE")]),
    ("(04)2359-2525轉3310", [("(04)2359-2525", "PHONE"), ("3310", "PHONE")]),
    ("+886-2-2312-3456", [("+886-2-2312-3456", "PHONE")]),
    ("son: +886 912 345 678", [("+886 912 345 678", "PHONE")]),
    ("電話: 0223123456", [("0223123456", "PHONE")]),
    ("Covering MD: PG 72160", [("72160", "PHONE")]),  # a pager: the digits only
    ("call beeper #7731 if needed; see pg 3", [("7731", "PHONE")]),
    # a record or plan number with a letter prefix after its label; the `#` stays outside
    ("admitted (MRN: #XT-551204) today", [("XT-551204", "MEDICAL_RECORD")]),
    ("chart under MRN Q-402211 reviewed", [("Q-402211", "MEDICAL_RECORD")]),
    ("insurance number ZK-340918, policy no. 77120", [("ZK-340918", "NIC"), ("77120", "NIC")]),
    ("Record # 2 of 3; member id: A1", []),
    ("Insurance: KT-5521098; health plan number 99120-3", [("KT-5521098", "NIC"), ("99120-3", "NIC")]),
    ("insurance: Medicare, copay 20; insurance pending", []),  # a label without a number after it
    ("insur ID TR-44821; Medicare #2QK-77410", [("TR-44821", "NIC"), ("2QK-77410", "NIC")]),
    ("her insurance is GH-730012, policy # is ZZ-123456", [("GH-730012", "NIC"), ("ZZ-123456", "NIC")]),
    # any other identifier after its label; a health plan's ID stays a NIC
    ("Patient ID: 40918277 seen", [("40918277", "ID_NUMBER")]),
    ("ID# TK-55201, subject ID 3310", [("TK-55201", "ID_NUMBER"), ("3310", "ID_NUMBER")]),
    ("(Acct#: RT-440912) and case #QL-20931", [("RT-440912", "ID_NUMBER"), ("QL-20931", "ID_NUMBER")]),
    ("member ID: QW-98765", [("QW-98765", "NIC")]),
    # one span, two rules: the match that read the label wins (an SSN's shape after MRN or a plan's label)
    ("MRN: 512-44-7302; member ID 512-44-7303; SSN 512-44-7304", [
        ("512-44-7302", "MEDICAL_RECORD"), ("512-44-7303", "NIC"), ("512-44-7304", "ID_NUMBER")]),
    ("License No: RN-552019; certificate # QC-30931", [("RN-552019", "ID_NUMBER"), ("QC-30931", "ID_NUMBER")]),
    ("EMR: 3301928; Med Rec# KL-20931; MRN is QF-20418", [
        ("3301928", "MEDICAL_RECORD"), ("KL-20931", "MEDICAL_RECORD"), ("QF-20418", "MEDICAL_RECORD")]),
    # a number of any national format after a phone label
    ("Phone: 318 2271\nE-mail: none", [("318 2271", "PHONE")]),
    ("Mobile: 0471 52 66 09\nFax: 6125550187", [("0471 52 66 09", "PHONE"), ("6125550187", "PHONE")]),
    ("contact: 104-220-3381?", [("104-220-3381", "PHONE")]),  # an area code no NANP number has
    ("her phone number is (104) 388-2210.", [("(104) 388-2210", "PHONE")]),
    ("電話：2312-3456", [("2312-3456", "PHONE")]),
    ("please call me at 0418 37 20 55 today", [("0418 37 20 55", "PHONE")]),
    # an age after `turned` or `will turn`, or `the age of`
    ("she just turned 67. He'll turn 40 in May; retired at the age of 58", [
        ("67", "AGE"), ("40", "AGE"), ("58", "AGE")]),
    # a postal code after its label (no postal-code label in the scheme: LOCATION)
    ("ZIP: 47203; zip code is 60614-2203", [("47203", "LOCATION"), ("60614-2203", "LOCATION")]),
    ("Postal code: K1A 0B1", [("K1A 0B1", "LOCATION")]),
    ("郵遞區號 40447", [("40447", "LOCATION")]),
    # an address's last line: city (after a comma), state's code, postal code; a unit's or box's number
    ("4410 Birch Hollow Rd, Apt 2C, Dayton, OH 45402-1187", [
        ("4410", "NUMBER"), ("Birch Hollow Rd", "STREET"), ("2C", "NUMBER"),
        ("Dayton", "CITY"), ("OH", "STATE"), ("45402-1187", "LOCATION")]),
    ("P.O. Box #318, Fort Collins CO 80521.", [("318", "NUMBER"), ("CO", "STATE"), ("80521", "LOCATION")]),
    ("Suite 1207\nTWIN FALLS, ID 83301", [("1207", "NUMBER"), ("TWIN FALLS", "CITY"), ("ID", "STATE"),
                                          ("83301", "LOCATION")]),
    ("Ste. B-4, Sherbrooke, QC J1H 5N4", [("B-4", "NUMBER"), ("Sherbrooke", "CITY"), ("QC", "STATE"),
                                         ("J1H 5N4", "LOCATION")]),
    # EMAIL, URL
    ("Email: shu.hua+1@mail.example.com.tw.", [("shu.hua+1@mail.example.com.tw", "EMAIL")]),
    ("see https://www.example-clinic.org/booking?id=3.", [("https://www.example-clinic.org/booking?id=3", "URL")]),
    ("(www.ntuh.gov.tw)", [("www.ntuh.gov.tw", "URL")]),
    ("網站 clinic.example.com.tw/form 填寫", [("clinic.example.com.tw/form", "URL")]),
    # MEDICAL_RECORD by context
    ("病歷號: 5520931", [("5520931", "MEDICAL_RECORD")]),
    ("病歷號碼：32001CXM", [("32001CXM", "MEDICAL_RECORD")]),
    ("MRN 12345678", [("12345678", "MEDICAL_RECORD")]),
    ("chart no. 3345 reviewed", [("3345", "MEDICAL_RECORD")]),
    ("Record #77812", [("77812", "MEDICAL_RECORD")]),
    # ROOM and NUMBER
    ("請至12診報到", [("12診", "ROOM")]),
    ("第3診間", [("第3診間", "ROOM")]),
    ("轉入7B病房", [("7B", "ROOM")]),
    ("admitted to 7A ward", [("7A", "ROOM")]),
    ("moved to Room 502", [("502", "ROOM")]),
    ("TPE 13 Dec 2012  Room 847  Patient name: Lin", [("847", "ROOM")]),  # a field follows, no count
    ("seen at SURG clinic 612, chart no. 3345", [("SURG", "DEPARTMENT"), ("612", "ROOM"), ("3345", "MEDICAL_RECORD")]),
    ("Psychiatry Clinic #3 today", [("3", "ROOM")]),
    ("住8A-15床", [("8A", "ROOM"), ("15", "NUMBER")]),
    ("May 11, 2103 轉5A病房", [("5A", "ROOM")]),  # a transfer to a ward, not a phone's extension
    ("bed 12", [("12", "NUMBER")]),
    # a ward-bed code without 床: the ward is a ROOM, the bed a NUMBER (annotation.md)
    ("Pt: Lin   Bed 5D-18", [("5D", "ROOM"), ("18", "NUMBER")]),
    ("大夜 → 白班｜11D-22｜", [("11D", "ROOM"), ("22", "NUMBER")]),
    # the end of a date before 床號 is no bed (a match inside a token would widen to the whole date)
    ("血糖監測紀錄 2102/07/06\u3000床號4C-20", [("4C", "ROOM"), ("20", "NUMBER")]),
    ("2021-12-25 床號 12", []),
    ("台北市忠孝東路27號", [("台北市", "CITY"), ("27", "NUMBER")]),  # address parts are separate spans
    ("call (037)46-7966 ext. 205", [("(037)46-7966", "PHONE"), ("205", "PHONE")]),
    ("TEL 089 98-7831", [("089 98-7831", "PHONE")]),
    ("大學路27之1號", [("27之1", "NUMBER")]),
]

NEGATIVE = [
    "A123456788",  # national-ID shape, checksum fails, no ID label nearby: a lot number
    "lot AB12345678",  # old-resident shape, checksum fails, no label
    "order 0000 1234 5678",  # 12 digits without a card label
    "健保卡號 0000 0000 0000",  # placeholder in a form template
    "07 1101225",  # a day then a compact Minguo date: local numbers never start with 1
    "03 0930",  # a count then a time
    "09 12345678",  # no area code 09 for landlines, not a mobile either
    "BP 120/80 mmHg",
    "WBC 12345678",  # a 8-digit lab value without a record-number label
    "病歷號: 待補",  # no digits: not a record number
    "MRN pending",
    # two capitals and five digits that are no address's last line
    "insulin IN 10000 units", "CO 45000", "WBC 12000 PA 12345", "seen by MD 12345",
    "turned 30 degrees", "TURNED 2 HRS AGO", "turned 3-4 times", "turned 67.5 mg", "turned 180 to the left", "turned 0 overnight",
    "STEP DAUGHTER AT BEDSIDE", "apt 3 appointments", "Ste 2x daily",
    "PHQ-9 = 19",
    "3月27號回診",  # a date, not a house number
    "12診斷",  # 診斷 = diagnosis
    "bedside 12",
    "O: wound clean, no discharge; drain 20 ml/d",  # `clean` is no nationality before an occupation
    "graded 4a-12 on the scale",  # lower-case letter: no ward
    "lot 5D-18-3",  # part of a longer code
    "於110.03.02病房會談",  # the end of a date before 病房 is no ward
    "arrived our ward 14:40",  # a time, a date or a code after `ward` is no ward
    "readmitted to our ward 2013/09",
    "back on the ward 31-Oct-2222",
    "stayed in Day Ward 2 days",  # a duration
    "arrived our ward 0350",
    "our ward 109年9月",
    "down to the general ward\n189年4月12日",
    "2021/03/02 護理站通知家屬",
    "follow up at clinic 2 weeks later",
    "back to clinic 3 times, clinic 10:30",
    "02-12-2023",  # a date, not (02) and six digits: Taipei numbers have eight
    "said 0000 1234 5678",  # `id` inside `said` is not an ID label
    "x@y",  # no domain
    "Fluoxetine 20mg qd",
    "1/2 tab bid",
    "Record #",
    "www.",
    # infectious disease, counts and SOAP headings after an identifier's or a phone's label word
    "ID consult today; ID 2/12 recs; ID: vanc 1g q12; ID 2019 consult",
    "case 2 of 3; EMR 2019 notes; Plan: 40mg lasix; insurance is 20% copay",
    "cell count 12000; tele: 80-90 SR; Fax 3 pages; contact precautions 10/12/2020",
    "call me 2 times; zip lock bag 2; postcode 12; the licence renewed 2019",
]


@pytest.mark.parametrize("text,expected", POSITIVE)
def test_rules_find(nlp, text, expected):
    doc = nlp(text)
    assert [(e.text, e.label_) for e in doc.ents] == expected
    for ent in doc.ents:
        assert ent._.source == "rule"
        assert text[ent.start_char:ent.end_char] == ent.text


@pytest.mark.parametrize("text", NEGATIVE)
def test_rules_reject(nlp, text):
    assert found(nlp, text) == []


@pytest.mark.parametrize("value,ok", [
    ("A123456789", True), ("A123456788", False), ("F234567898", True), ("A800000014", True),
    ("a123456789", True), ("A12345678", False), ("AA23456789", False),
])
def test_national_id_checksum(value, ok):
    assert tw_id_checksum(value) is ok


@pytest.mark.parametrize("value,ok", [("FC00000008", True), ("FC00000007", False), ("HE23456780", False)])
def test_old_resident_checksum(value, ok):
    assert tw_old_resident_checksum(value) is ok


def test_check_digit_roundtrip():
    for prefix in ["A12345678", "Z28765432", "O10000001", "W29999999"]:
        assert tw_id_checksum(prefix + tw_id_check_digit(prefix))


def test_dev_notes_rule_labels(nlp, dev_records):
    """Every gold span with a rule-only label in the dev notes is found exactly."""
    rule_only = {"ID_NUMBER", "PHONE", "EMAIL", "URL", "MEDICAL_RECORD", "NIC"}
    for record in dev_records:
        doc = nlp(record.text)
        got = {(e.start_char, e.end_char, e.label_) for e in doc.ents}
        gold = {(s.start, s.end, s.label) for s in record.spans if s.label in rule_only}
        assert gold <= got, record.id


# -- value objects and data files -------------------------------------------------------------------
def test_rule_from_dict_rejects_unknown_key():
    with pytest.raises(RuleError, match="contxt.*allowed keys"):
        PatternRule.from_dict({"id": "x", "label": "PHONE", "pattern": r"\d+", "contxt": ["tel"]})


@pytest.mark.parametrize("data,message", [
    ({"id": "x", "label": "PHONES", "pattern": r"\d"}, "unknown label"),
    ({"id": "x", "label": "PHONE", "pattern": r"(\d"}, "invalid regex"),
    ({"id": "x", "label": "PHONE", "pattern": r"\d", "group": "phi"}, "no group named"),
    ({"id": "x", "label": "PHONE", "pattern": r"\d", "context_required": True}, "no context words"),
    ({"id": "x", "label": "PHONE"}, "missing key"),
    ({"id": "x", "label": "PHONE", "pattern": r"\d", "context": "tel"}, "list of words"),
])
def test_rule_from_dict_errors(data, message):
    with pytest.raises(RuleError, match=message):
        PatternRule.from_dict(data)


def test_rule_to_dict_roundtrip():
    for rule in load_patterns("default"):
        assert PatternRule.from_dict(rule.to_dict()) == rule


def test_unknown_validator_fails_at_load(nlp_blank):
    nlp = spacy_deid.blank()
    rules = nlp.add_pipe("deid_rules", config={"patterns": ""})
    with pytest.raises(KeyError, match="Unknown validator 'luhn'"):
        rules.add_patterns([{"id": "card", "label": "ID_NUMBER", "pattern": r"\d{16}", "validator": "luhn"}])


def test_hospital_pattern_file_and_extra_patterns(tmp_path):
    path = tmp_path / "hospital.json"
    path.write_text(json.dumps({"patterns": [
        {"id": "kh_mrn", "label": "MEDICAL_RECORD", "pattern": r"(?<![A-Z0-9])KH\d{7}(?!\d)"}]}), encoding="utf8")
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules", config={"patterns": str(path)})
    nlp.initialize()
    assert found(nlp, "see KH1234567 and 0912-345-678") == [("KH1234567", "MEDICAL_RECORD")]

    # what `[initialize.components.deid_rules]` passes: extra files and extra patterns
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules").initialize(pattern_files=[str(path)], patterns=[
        {"id": "tw_mobile", "label": "PHONE", "pattern": r"(?<!\d)09\d{8}(?!\d)"}])
    # the extra file adds a rule; the extra `tw_mobile` replaces the default one (no dashed form)
    assert found(nlp, "KH1234567 0912345678 0912-345-678") == [("KH1234567", "MEDICAL_RECORD"),
                                                              ("0912345678", "PHONE")]


def test_yaml_without_pyyaml_is_a_clear_error(tmp_path):
    path = tmp_path / "p.yml"
    path.write_text("patterns: []\n", encoding="utf8")
    try:
        import yaml  # noqa: F401
    except ImportError:
        with pytest.raises(RuleError, match="PyYAML"):
            load_patterns(path)
    else:
        assert load_patterns(path) == []


def test_of_two_rules_on_one_span_the_one_that_read_more_keeps_it():
    from spacy_deid.rules import compile_rules, find_matches

    rules = [PatternRule(id="number", label="NUMBER", pattern=r"(?P<n>[0-9]{4})", group="n"),
             PatternRule(id="coded", label="ROOM", pattern=r"code[ ](?P<n>[0-9]{4})", group="n"),
             PatternRule(id="also", label="AGE", pattern=r"e[ ](?P<n>[0-9]{4})", group="n"),
             PatternRule(id="wider", label="PHONE", pattern=r"[0-9]{4}-[0-9]{2}")]
    validators = Validators({})
    text = "code 1234, 5678, 4321-12"
    assert [(text[m.start:m.end], m.label) for m in find_matches(text, compile_rules(rules, validators), validators)] \
        == [("1234", "ROOM"), ("5678", "NUMBER"), ("4321", "NUMBER"), ("4321-12", "PHONE")]  # other overlaps kept


def test_missing_pattern_file_error(tmp_path):
    with pytest.raises(RuleError, match="not found"):
        load_patterns(tmp_path / "nope.json")


def test_fragments_serve_every_file_of_a_folder(tmp_path):
    folder = tmp_path / "patterns"
    folder.mkdir()
    (folder / "a.json").write_text(json.dumps({"fragments": {"WARD": "7B|12A"}, "patterns": [
        {"id": "ward_room", "label": "ROOM", "pattern": r"(?<![A-Z0-9])(?P<r>{{WARD}})(?=病房)", "group": "r"}]}),
        encoding="utf8")
    (folder / "b.json").write_text(json.dumps([
        {"id": "ward_bed", "label": "NUMBER", "pattern": r"{{WARD}}-(?P<n>\d{1,2})(?=床)", "group": "n"}]),
        encoding="utf8")
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules", config={"patterns": ""}).initialize(pattern_files=[str(folder)])
    assert found(nlp, "轉到7B病房, 12A-15床, 9C-3床") == [("7B", "ROOM"), ("15", "NUMBER")]
    # the rule keeps the expanded regex, so a saved pipeline needs no pattern files
    assert [r.pattern for r in load_patterns(folder)][1] == r"(?:7B|12A)-(?P<n>\d{1,2})(?=床)"



def test_a_fragment_may_build_on_another(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"fragments": {"WARD": "7B|12A", "BED": "{{WARD}}-[0-9]{1,2}"},
                                                 "patterns": [{"id": "bed", "label": "ROOM", "pattern": "{{BED}}"}]}),
                                     encoding="utf8")
    assert load_patterns(tmp_path)[0].pattern == "(?:(?:7B|12A)-[0-9]{1,2})"


@pytest.mark.parametrize("files,message", [
    ({"a.json": [{"id": "x", "label": "ROOM", "pattern": "{{WARD}}"}]}, "rule 'x' in .*a.json: unknown fragment"),
    ({"a.json": {"fragments": {"W": "7B"}, "patterns": []},
      "b.json": {"fragments": {"W": "8C"}, "patterns": []}}, "b.json: fragment 'W' is defined differently"),
    ({"a.json": {"fragments": {"W-1": "7B"}, "patterns": []}}, "a.json: `fragments` must map names"),
    ({"a.json": {"fragments": ["7B"], "patterns": []}}, "a.json: `fragments` must map names"),
    ({"a.json": {"fragments": {"A": "x{{B}}", "B": "{{A}}"}, "patterns": []}}, "fragment 'A' names itself"),
    ({"a.json": {"fragments": {"A": "x{{C}}"}, "patterns": []}}, "fragment 'A': unknown fragment"),
])
def test_fragment_errors_name_the_file_and_rule(tmp_path, files, message):
    for name, content in files.items():
        (tmp_path / name).write_text(json.dumps(content), encoding="utf8")
    with pytest.raises(RuleError, match=message):
        load_patterns(tmp_path)


def test_shipped_department_list_is_written_once():
    from importlib import resources
    folder = resources.files("spacy_deid") / "resources" / "patterns"
    raw = "".join((folder / name).read_text(encoding="utf8") for name in default_pattern_files())
    assert raw.count("CHEST|CVICU|") == 1
    using = {r.id for r in load_patterns("default") if r.pattern and "(?:CHEST|CVICU|" in r.pattern}
    assert using >= {"department_abbr_after_hospital", "department_abbr_of",
                     "hospital_abbr_before_department", "hospital_abbr_after_department"}
    assert all("{{" not in r.pattern for r in load_patterns("default") if r.pattern)


def test_patterns_serialize_with_pipeline(tmp_path):
    nlp = spacy_deid.blank()
    rules = nlp.add_pipe("deid_rules", config={"patterns": ""})
    rules.add_patterns([{"id": "kh_mrn", "label": "MEDICAL_RECORD", "pattern": r"KH\d{7}"}])
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert found(loaded, "KH1234567") == [("KH1234567", "MEDICAL_RECORD")]
    again = spacy_deid.blank()
    again.add_pipe("deid_rules", config={"patterns": ""}).from_bytes(rules.to_bytes())
    assert found(again, "KH1234567") == [("KH1234567", "MEDICAL_RECORD")]


def test_rules_merge_with_existing_entities(nlp):
    """Same boundaries: the rule's label wins the tie (rule > date > ner); other NER spans stay."""
    doc = nlp.make_doc("Dr. 周 0912-345-678")
    doc.ents = [doc.char_span(4, 5, label="DOCTOR"), doc.char_span(6, 18, label="NUMBER")]
    doc = nlp.get_pipe("deid_rules")(doc)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [
        ("周", "DOCTOR", "ner"), ("0912-345-678", "PHONE", "rule")]


def test_score(nlp):
    text = "電話 0912-345-678 病歷號 5520931 bed 12"
    pred = nlp(text)
    ref = nlp.make_doc(text)
    ref.ents = [ref.char_span(3, 15, label="PHONE"), ref.char_span(20, 27, label="MEDICAL_RECORD"),
                ref.char_span(28, 34, label="ROOM")]
    scores = nlp.get_pipe("deid_rules").score([Example(pred, ref)])
    assert scores["deid_rules_p"] == pytest.approx(2 / 3)
    assert scores["deid_rules_r"] == pytest.approx(2 / 3)
    assert scores["deid_rules_per_type"]["PHONE"]["f"] == 1.0
    assert scores["deid_rules_per_type"]["NUMBER"]["p"] == 0.0


def test_n_process_2(nlp):
    texts = ["cell 0912-345-678", "MRN 12345678", "bed 12"] * 4
    single = [found(nlp, t) for t in texts]
    multi = [[(e.text, e.label_) for e in d.ents] for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert multi == single


def test_validators_registry_object():
    v = Validators({"yes": lambda t, s, e: True})
    assert "yes" in v and list(v) == ["yes"]
    with pytest.raises(KeyError):
        v.get("no")


@pytest.mark.parametrize("make,size", [
    (lambda n: "A" * n, 100_000), (lambda n: "1" * n, 100_000), (lambda n: "0912-" * n, 20_000),
    (lambda n: "a@" * n, 50_000), (lambda n: "www." * n, 25_000), (lambda n: "病歷號 " * n, 25_000),
    (lambda n: "a." * n, 50_000), (lambda n: "+886 9" * n, 16_000), (lambda n: "12號" * n, 33_000),
    (lambda n: "9-" * n, 50_000), (lambda n: "x" * n + "@", 100_000), (lambda n: "A1" * n, 50_000),
    (lambda n: "1:" * n, 50_000), (lambda n: "ab:" * n + "::", 33_000), (lambda n: "4111 " * n, 20_000),
    (lambda n: "GB82 " * n, 20_000), (lambda n: "+44 20 " * n, 14_000), (lambda n: "1." * n, 50_000),
    (lambda n: "123-45-" * n, 14_000), (lambda n: "(555) " * n, 16_000),
    (lambda n: "12 Main " * n, 12_000), (lambda n: "Phone: " + "12 " * n, 33_000), (lambda n: "ID# A-" * n, 16_000),
    (lambda n: "phone 1-" * n, 12_000), (lambda n: "zip code is " + "1-" * n, 50_000), (lambda n: "insurance is " * n, 7_000), (lambda n: "1 Aa Bb Cc " * n, 9_000), (lambda n: "1 " + "Aa " * n, 33_000),
    (lambda n: "Aa " * n + "OH 12345", 33_000), (lambda n: "Aa, OH " * n, 14_000), (lambda n: "Apt " * n, 25_000),
    (lambda n: "P.O. Box " * n, 11_000), (lambda n: "I'll turn " * n, 10_000), (lambda n: "turned 1 " * n, 11_000),
])
def test_linear_time_on_adversarial_notes(make, size):
    from spacy_deid.rules import compile_rules, find_matches
    from spacy_deid.rules.validators import make_default_validators

    validators = make_default_validators()
    compiled = compile_rules(load_patterns("default"), validators)
    assert_linear(lambda n: find_matches(make(n), compiled, validators), size)
