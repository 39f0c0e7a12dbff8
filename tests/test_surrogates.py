"""deid_surrogates: shapes per label, gender, consistency and scopes, operators, presets, keys,
serialization and the offset contract."""
import json
import logging
import re

import pytest
import spacy
import spacy_deid
from spacy_deid.lexicons import load
from spacy_deid.surrogates import (DEMO_KEY, OPERATORS, InvalidKeyError, MissingKeyError, PolicyError,
                                   Resynthesizer, load_policy, resynthesize, tw_id_checksum_ok)
from spacy_deid.surrogates.engine import NOT_A_CALENDAR_DATE
from spacy_deid.surrogates.identifiers import tw_id_surrogate
from spacy_deid.surrogates.keys import Keyed

from test_surrogates_helpers import KEY, OTHER_KEY, make_doc, surrogates

SURNAMES = {e["text"] for e in load("surnames_zh").entries}
GIVEN = {e["text"]: e["gender"] for e in load("given_chars_zh").entries}
R = Resynthesizer(key=KEY)


def one(marked, engine=R, **kw):
    doc = engine(make_doc(marked, **kw))
    return doc._.replacements[0]["surrogate"]


def assert_offsets(doc):
    """The contract: every record's surrogate sits at its out offsets; everything else is unchanged."""
    out, pos, rebuilt = doc._.deid_text, 0, []
    for rec in doc._.replacements:
        assert out[rec["out_start"]:rec["out_end"]] == rec["surrogate"]
        rebuilt.append(doc.text[pos:rec["start"]])
        rebuilt.append(rec["surrogate"])
        pos = rec["end"]
    rebuilt.append(doc.text[pos:])
    assert "".join(rebuilt) == out


# -- shapes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["陳志明", "王明", "歐陽娜娜", "張簡宏", "陳林淑華", "林", "李宗翰"])
def test_han_name_keeps_length_and_surname(name):
    s = one(f"病人«{name}|PATIENT»今天出院")
    assert len(s) == len(name) and s != name
    assert re.fullmatch("[\u4e00-\u9fff]+", s)
    if name in ("陳志明", "王明", "林", "李宗翰"):
        assert s[0] in SURNAMES
    if name in ("歐陽娜娜", "張簡宏"):  # compound surname stays a compound surname
        assert s[:2] in SURNAMES and len(s[:2]) == 2


@pytest.mark.parametrize("name,pattern", [
    ("Lin Chia-Hao", r"[A-Z][a-z]+(-[A-Z][a-z]+)? [A-Z][a-z]+-[A-Z][a-z]+"),
    ("Chia-hao Lin", r"[A-Z][a-z]+-[a-z]+ [A-Z][a-z]+(-[A-Z][a-z]+)?"),
    ("CHEN CHIH-MING", r"[A-Z]+(-[A-Z]+)? [A-Z]+-[A-Z]+"),
    ("John Smith", r"[A-Z][a-z]+ [A-Z][a-z'A-Z]+"),
    ("Sarah L. Connor", r"[A-Z][a-z]+ [A-Z]\. [A-Z][a-z'A-Z]+"),
    ("cyh", r"[a-z]{3}"),
    ("LWT", r"[A-Z]{3}"),
])
def test_latin_name_keeps_casing_and_pattern(name, pattern):
    s = one(f"seen by «{name}|DOCTOR» today")
    assert re.fullmatch(pattern, s), s
    assert s.lower() != name.lower()


@pytest.mark.parametrize("label,original", [
    ("MEDICAL_RECORD", "5520931"), ("MEDICAL_RECORD", "32001CXM"), ("NIC", "0000-1234-5678"),
    ("ROOM", "7A"), ("ROOM", "8A-15"), ("NUMBER", "27"), ("ID_NUMBER", "AB-12345"),
])
def test_digits_and_letters_keep_count_and_separators(label, original):
    s = one(f"x «{original}|{label}» y")
    assert s != original and len(s) == len(original)
    for a, b in zip(original, s):
        assert a.isdigit() == b.isdigit() and a.isupper() == b.isupper() and (a.isalnum() or a == b)
    assert s[0] != "0"


@pytest.mark.parametrize("phone,kept", [
    ("0921-556-338", "09"), ("(02)2312-3456", None), ("06-2353535", None), ("+886-912-345-678", "+886-9"),
    ("2234", None), ("(555) 123-4567", None), ("037-123456", None),
])
def test_phone_keeps_layout_and_area_code_style(phone, kept):
    s = one(f"電話 «{phone}|PHONE» 找")
    assert s != phone
    assert re.sub(r"\d", "9", s) == re.sub(r"\d", "9", phone)
    if kept:
        assert s.startswith(kept)
    area = re.match(r"\(?(0[1-8]\d{0,2})[)-]", phone)
    if area:  # a landline keeps a real Taiwan area code of the same length
        new_area = re.match(r"\(?(0\d{1,3})[)-]", s).group(1)
        assert new_area in {"02", "03", "04", "05", "06", "07", "08", "037", "049", "089", "082"}
        assert len(new_area) == len(area.group(1))


@pytest.mark.parametrize("tw_id", ["H133482903", "A123456789", "F231234568", "a123456789"])
def test_taiwan_id_stays_valid_with_same_gender_digit(tw_id):
    s = one(f"身分證 «{tw_id}|ID_NUMBER» 號")
    assert s != tw_id and len(s) == 10 and s[1] == tw_id[1]
    assert s[0].islower() == tw_id[0].islower()
    assert tw_id_checksum_ok(s)


def test_taiwan_id_checksum_helper():
    assert tw_id_checksum_ok("A123456789")
    assert not tw_id_checksum_ok("A123456788")
    keyed = Keyed(KEY.encode(), "t")
    ids = {tw_id_surrogate("A223456781", keyed.draw("ID", str(i))) for i in range(300)}
    assert all(tw_id_checksum_ok(i) and i[1] == "2" for i in ids) and len(ids) > 250


@pytest.mark.parametrize("label,original", [
    ("EMAIL", "shuhua.chang@example.com"), ("EMAIL", "wang_99@ntuh.gov.tw"),
    ("URL", "https://www.ntuh.gov.tw/psy/index.html"), ("URL", "www.blog.com/chen"),
])
def test_email_and_url_keep_structure(label, original):
    s = one(f"見 «{original}|{label}» 。")
    assert s != original
    assert re.sub(r"[A-Za-z0-9]", "a", s) == re.sub(r"[A-Za-z0-9]", "a", original)
    host = lambda u: u.split("://")[-1].split("/")[0]  # noqa: E731
    assert host(s).rsplit(".", 1)[1] == host(original).rsplit(".", 1)[1] and host(s) != host(original)
    if "://" in original:
        assert s.startswith("https://www.")


@pytest.mark.parametrize("label,original", [
    ("HOSPITAL", "NTUH"), ("HOSPITAL", "成大醫院"), ("CITY", "台南市"), ("CITY", "東區"), ("STREET", "大學路"),
    ("DEPARTMENT", "身心科"), ("COUNTRY", "美國"), ("STATE", "Utah"), ("PROFESSION", "editor"),
    ("SCHOOL", "高雄科技大學"), ("MARKET", "士林夜市"), ("GENERAL_BUSINESS", "TSMC"),
])
def test_places_stay_in_script_and_kind(label, original):
    s = one(f"at «{original}|{label}» now")
    assert s != original
    assert bool(re.search("[\u4e00-\u9fff]", s)) == bool(re.search("[\u4e00-\u9fff]", original))
    if original.isupper():
        assert s.isupper() and s.isalpha()
    if original[-1] in "市區路科院":  # a city stays a city, a street a street
        assert s[-1] == original[-1]


# -- gender ----------------------------------------------------------------------------------------
def _given_genders(s):
    return {GIVEN.get(c) for c in s[1:]}


def test_gender_from_given_characters():
    female = [n for n in ("林淑芬", "陳美玲", "王怡君") if all(GIVEN.get(c) == "F" for c in n[1:])]
    male = [n for n in ("林志明", "陳建宏", "王俊傑") if all(GIVEN.get(c) == "M" for c in n[1:])]
    assert female and male
    for name in female:
        assert _given_genders(one(f"«{name}|PATIENT»")) <= {"F", "U"}
    for name in male:
        assert _given_genders(one(f"«{name}|PATIENT»")) <= {"M", "U"}


@pytest.mark.parametrize("context,gender", [
    ("«{n}|PATIENT»先生今天來", "M"), ("«{n}|PATIENT»小姐今天來", "F"),
    ("Mr. «{n}|PATIENT» came", "M"), ("Ms. «{n}|PATIENT» came", "F"),
    ("«{n}|PATIENT» said she was tired", "F"), ("«{n}|PATIENT» said he was tired", "M"),
])
def test_gender_from_context_when_name_is_silent(context, gender):
    # given characters outside the lexicon carry no gender: the context decides
    for name in ("趙鑫淼", "錢燚焱", "孫犇骉"):
        assert _given_genders(one(context.format(n=name))) <= {gender, "U"}


@pytest.mark.parametrize("first,gender", [("John", "M"), ("Mary", "F"), ("Chia-Hao", "M")])
def test_gender_of_first_names(first, gender):
    genders = {e["text"]: e["gender"] for e in load("given_names_en").entries}
    genders.update({e["text"]: e["gender"] for e in load("given_names_romanized").entries})
    assert genders.get(first) == gender
    s = one(f"«{first} Smith|PERSON» came")
    new_first = s.split()[0]
    if "-" in first:
        rom = {e["romanized"].lower(): e["gender"] for e in load("given_chars_zh").entries}
        assert all(rom.get(p.lower()) in (gender, "U") for p in new_first.split("-"))
    else:
        assert genders.get(new_first) in (gender, "U")


# -- consistency and scope -------------------------------------------------------------------------
NOTE_A = "«陳志明|PATIENT» 110.03.02 入院, «陳|PATIENT»先生 tel «0912-345-678|PHONE», 弟«志明|FAMILY»"
NOTE_B = "Follow-up 2021/04/01: «陳志明|PATIENT» stable. «0912-345-678|PHONE». Dr. «周|DOCTOR»"


def test_same_patient_same_surrogates_across_notes():
    a = R(make_doc(NOTE_A, patient_id="P1", doc_id="a"))
    b = R(make_doc(NOTE_B, patient_id="P1", doc_id="b"))
    full_a, sur_a, phone_a, given_a = surrogates(a)
    full_b, phone_b, _ = surrogates(b)
    assert full_a == full_b and phone_a == phone_b
    assert sur_a == full_a[0]  # 陳先生 → the full name's surrogate surname
    assert given_a == full_a[1:]  # 志明 → the full name's given part


def test_romanized_name_links_to_han_name():
    doc = R(make_doc("«張淑華|PATIENT» / «Chang Shu-Hua|PATIENT» / Ms. «Chang|PATIENT»"))
    han, rom, sur = surrogates(doc)
    tables = {e["text"]: e["romanized"] for e in load("surnames_zh").entries}
    chars = {e["text"]: e["romanized"] for e in load("given_chars_zh").entries}
    assert rom == f"{tables[han[0]]} {chars[han[1]]}-{chars[han[2]]}"
    assert sur == tables[han[0]]


NAMES = ["陳志明", "林美玲", "王大同", "黃建國", "張淑芬", "李俊傑"]
MARKED = " ".join(f"«{n}|PATIENT»" for n in NAMES) + " «0912-345-678|PHONE» 2021/03/02"


@pytest.mark.parametrize("scope,same_patient_other_doc,other_patient", [
    ("patient", True, False), ("document", False, False), ("corpus", True, True)])
def test_scope(scope, same_patient_other_doc, other_patient):
    eng = Resynthesizer(key=KEY, scope=scope)
    base = surrogates(eng(make_doc(MARKED, patient_id="P1", doc_id="d1")))
    other_doc = surrogates(eng(make_doc(MARKED, patient_id="P1", doc_id="d2")))
    other_pat = surrogates(eng(make_doc(MARKED, patient_id="P2", doc_id="d3")))
    assert (base == other_doc) is same_patient_other_doc
    assert (base == other_pat) is other_patient


def test_key_changes_everything():
    a = surrogates(Resynthesizer(key=KEY)(make_doc(MARKED)))
    b = surrogates(Resynthesizer(key=OTHER_KEY)(make_doc(MARKED)))
    assert sum(x != y for x, y in zip(a, b)) >= len(a) - 1


def test_set_key_takes_effect_on_a_used_engine():
    eng = Resynthesizer(key=KEY)
    first = surrogates(eng(make_doc(MARKED)))
    eng.set_key(OTHER_KEY)
    assert surrogates(eng(make_doc(MARKED))) == surrogates(Resynthesizer(key=OTHER_KEY)(make_doc(MARKED)))
    assert surrogates(eng(make_doc(MARKED))) != first


def test_date_offset_per_patient_and_range():
    eng = Resynthesizer(key=KEY, date_shift_days=[1, 1])
    doc = eng(make_doc("入院 «110.03.02|DATE», «2021/12/31|DATE», «民國110年12月25日|DATE»"))
    assert surrogates(doc) == ["110.03.03", "2022/01/01", "民國110年12月26日"]
    offsets = set()
    eng = Resynthesizer(key=KEY, date_shift_days={"min": -2, "max": 2})
    for i in range(60):
        s = surrogates(eng(make_doc("«2021/03/10|DATE»", patient_id=f"P{i}")))[0]
        offsets.add(int(s[-2:]) - 10)
    assert offsets == {-2, -1, 1, 2}  # never 0
    a = surrogates(R(make_doc("«2021/03/10|DATE»", doc_id="x")))
    assert a == surrogates(R(make_doc("«2021/03/10|DATE»", doc_id="y")))


def test_date_unreadable_falls_back_to_digit_shape():
    s = one("«2021/99/99|DATE»")
    assert s != "2021/99/99" and re.fullmatch(r"\d{4}/\d\d/\d\d", s)


@pytest.mark.parametrize("marked,warned", [
    ("入院 «110.02.30|DATE», 出院 «110.03.02|DATE»", [True, False]),
    ("seen «2021/02/29|DATE» and «Feb 30, 2021|DATE»", [True, True]),
    ("«年三月|DATE» 回診, «3/4|DATE»", [False, False]),
])
def test_date_the_calendar_lacks_is_replaced_with_a_warning(marked, warned):
    """`110.02.30` cannot be shifted: replaced by other characters of its shape, its record says so
    (without the text); a date that is one, or a DATE not written as a date, gets no warning."""
    doc = R(make_doc(marked, doc_id="r7"))
    assert_offsets(doc)
    assert [bool(rec.get("warning")) for rec in doc._.replacements] == warned
    for rec in doc._.replacements:
        original = doc.text[rec["start"]:rec["end"]]
        assert rec["surrogate"] != original
        if rec.get("warning"):
            assert rec["warning"] == NOT_A_CALENDAR_DATE and original not in rec["warning"]
            shape = lambda t: re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "0", t))  # noqa: E731
            assert shape(rec["surrogate"]) == shape(original)


@pytest.mark.parametrize("text,masked", [("年三月", False), ("去年九月底", False), ("年十月", True), ("上個月", True)])
def test_date_unreadable_without_ascii_digits_never_kept(text, masked):
    """A NER DATE nothing can read (`年三月`): other Chinese digits in place, or a mask when it has none."""
    s = one(f"«{text}|DATE»")
    assert s != text
    if masked:
        assert s == "[DATE]"
    else:
        digits = "一二三四五六七八九"
        assert len(s) == len(text) and all(a == b or (a in digits and b in digits) for a, b in zip(text, s))


@pytest.mark.parametrize("bad", [[5, 1], [0, 0], [1], {"min": 1}, ["a", 2]])
def test_bad_shift_range(bad):
    with pytest.raises(ValueError):
        Resynthesizer(key=KEY, date_shift_days=bad)


def test_ages_kept_by_default_and_capped_on_request():
    marked = "«45|AGE»歲, «95|AGE» y/o, «89|AGE», «101|AGE»"
    assert surrogates(R(make_doc(marked))) == ["45", "95", "89", "101"]
    doc = Resynthesizer(key=KEY, age_cap=True)(make_doc(marked))
    assert surrogates(doc) == ["45", "90+", "89", "90+"]
    assert [r["operator"] for r in doc._.replacements] == ["keep", "age_cap", "keep", "age_cap"]


# -- operators and policies ------------------------------------------------------------------------
NOTE = "Dr. «Wang|DOCTOR» saw «陳志明|PATIENT» at «NTUH|HOSPITAL» on «2021/03/02|DATE», age «93|AGE»."


@pytest.mark.parametrize("operator,params,check", [
    ("mask", {}, lambda s, o, l: s == f"[{l}]"),
    ("mask", {"format": "<{category}>"}, lambda s, o, l: s in ("<NAME>", "<LOCATION>", "<DATE>", "<AGE>")),
    ("redact", {}, lambda s, o, l: s == ""),
    ("hash", {}, lambda s, o, l: re.fullmatch("[0-9a-f]{16}", s) is not None),
    ("hash", {"length": 8}, lambda s, o, l: re.fullmatch("[0-9a-f]{8}", s) is not None),
    ("keep", {}, lambda s, o, l: s == o),
])
def test_each_operator(operator, params, check):
    eng = Resynthesizer(key=KEY, policy={"name": "t", "default": {"operator": operator, "params": params}})
    doc = eng(make_doc(NOTE))
    assert_offsets(doc)
    for rec in doc._.replacements:
        assert rec["operator"] == operator
        assert check(rec["surrogate"], doc.text[rec["start"]:rec["end"]], rec["label"])


def test_hash_is_keyed_and_consistent():
    pol = {"default": "hash"}
    a = surrogates(Resynthesizer(key=KEY, policy=pol)(make_doc("«陳志明|PATIENT» «陳志明|FAMILY»")))
    b = surrogates(Resynthesizer(key=OTHER_KEY, policy=pol)(make_doc("«陳志明|PATIENT»")))
    assert a[0] == a[1] and a[0] != b[0]


def test_label_then_category_then_default():
    pol = load_policy({"default": "keep", "labels": {"NAME": "mask", "DOCTOR": "redact"}})
    assert [pol.for_label(l).operator for l in ("DOCTOR", "PATIENT", "DATE")] == ["redact", "mask", "keep"]


@pytest.mark.parametrize("policy,message", [
    ({"default": "shred"}, "unknown operator 'shred'"),
    ({"labels": {"DOCTORS": "mask"}}, "unknown label 'DOCTORS'"),
    ({"labels": {"NAME": {"operator": "hash", "params": {"length": 4}}}}, "8..64"),
    ({"labels": {"NAME": {"operator": "mask", "params": {"fmt": "x"}}}}, "unknown parameter"),
    ({"labels": {"NAME": {"operator": "mask", "params": {"format": "{text}"}}}}, "{label}"),
    ({"default": "mask", "colour": 1}, "unknown key"),
    ("no-such-preset", "unknown policy"),
])
def test_policy_errors_are_clear(policy, message):
    with pytest.raises(PolicyError, match=re.escape(message)):
        load_policy(policy)


def test_surrogate_preset():
    doc = Resynthesizer(key=KEY, policy="surrogate")(make_doc(NOTE))
    ops = {r["label"]: r["operator"] for r in doc._.replacements}
    assert ops == {"DOCTOR": "surrogate", "PATIENT": "surrogate", "HOSPITAL": "surrogate",
                   "DATE": "surrogate", "AGE": "keep"}


def test_hipaa_safe_harbor_preset():
    marked = ("«陳志明|PATIENT» «93|AGE»歲 «45|AGE»歲 住«台北市|CITY»«忠孝東路|STREET»«27|NUMBER»號, 來自«加州|STATE», "
              "«民國110年12月25日|DATE» «2021/03/02|DATE» «3/14|DATE» «A123456789|ID_NUMBER» «NTUH|HOSPITAL»")
    doc = Resynthesizer(key=KEY, policy="hipaa-safe-harbor")(make_doc(marked))
    s = surrogates(doc)
    assert s[1:] == ["90+", "45", "[CITY]", "[STREET]", "[NUMBER]", "加州", "民國110年", "2021", "[DATE]",
                     s[10], "[HOSPITAL]"]
    assert s[0] != "陳志明" and len(s[0]) == 3 and tw_id_checksum_ok(s[10]) and s[10] != "A123456789"


def test_custom_operator_registers():
    from spacy_deid.surrogates import Operator, OperatorRegistry

    class Upper(Operator):
        name = "upper"

        def apply(self, text, ctx, params):
            return text.upper()

    reg = OperatorRegistry([Upper])
    eng = Resynthesizer(key=KEY, policy={"default": "upper"}, registry=reg)
    assert surrogates(eng(make_doc("«cyh|DOCTOR»"))) == ["CYH"]
    assert "upper" not in OPERATORS


# -- keys ------------------------------------------------------------------------------------------
def test_missing_key_is_a_clear_error_at_first_use(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)
    nlp = spacy_deid.blank()
    comp = nlp.add_pipe("deid_surrogates")  # loads fine without a key
    with pytest.raises(MissingKeyError, match="SPACY_DEID_KEY"):
        comp(make_doc("«陳志明|PATIENT»"))


def test_env_key_and_demo_key(monkeypatch, caplog):
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    assert surrogates(resynthesize(make_doc(MARKED))) == surrogates(Resynthesizer(key=KEY)(make_doc(MARKED)))
    monkeypatch.delenv("SPACY_DEID_KEY")
    with caplog.at_level(logging.WARNING):
        demo = surrogates(resynthesize(make_doc(MARKED), demo_key=True))
    assert "NOT de-identified" in caplog.text
    assert demo == surrogates(Resynthesizer(key=DEMO_KEY)(make_doc(MARKED)))


def test_short_key_refused_and_key_references(monkeypatch, tmp_path):
    with pytest.raises(InvalidKeyError, match="at least 16"):
        resynthesize(make_doc(MARKED), key="short")
    monkeypatch.setenv("MY_DEID_KEY", KEY)
    (tmp_path / "k").write_text(KEY + "\n")
    expected = surrogates(Resynthesizer(key=KEY)(make_doc(MARKED)))
    assert surrogates(resynthesize(make_doc(MARKED), key="env:MY_DEID_KEY")) == expected
    assert surrogates(resynthesize(make_doc(MARKED), key=f"file:{tmp_path / 'k'}")) == expected


def _all_bytes(path):
    return b"".join(p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file())


def test_key_is_never_serialized(monkeypatch, tmp_path):
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    nlp = spacy_deid.blank()
    comp = nlp.add_pipe("deid_surrogates", config={"policy": "hipaa-safe-harbor", "scope": "document"})
    comp.set_key(OTHER_KEY)
    comp(make_doc(MARKED))
    for key in (KEY, OTHER_KEY):
        assert key.encode() not in comp.to_bytes()
        assert key.encode() not in nlp.to_bytes()
    nlp.to_disk(tmp_path / "p")
    comp.to_disk(tmp_path / "c")
    data = _all_bytes(tmp_path)
    assert data and KEY.encode() not in data and OTHER_KEY.encode() not in data
    with pytest.warns(UserWarning, match="literal key"):
        nlp2 = spacy_deid.blank()
        comp2 = nlp2.add_pipe("deid_surrogates", config={"key": OTHER_KEY})
    with pytest.raises(InvalidKeyError, match="literal key"):
        comp2.to_bytes()


def test_settings_round_trip(tmp_path):
    nlp = spacy_deid.blank()
    comp = nlp.add_pipe("deid_surrogates", config={"policy": "hipaa-safe-harbor", "scope": "corpus",
                                                   "date_shift_days": [-30, -10], "age_cap": True})
    comp.set_key(KEY)
    nlp.to_disk(tmp_path / "p")
    comp2 = spacy.load(tmp_path / "p").get_pipe("deid_surrogates")
    assert comp2.engine.settings() == comp.engine.settings()
    comp2.set_key(KEY)
    assert surrogates(comp2(make_doc(NOTE))) == surrogates(comp(make_doc(NOTE)))


def test_settings_given_at_load_time_win(tmp_path):
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_surrogates", config={"policy": "surrogate", "scope": "patient"})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p", config={"components": {"deid_surrogates": {
        "policy": "hipaa-safe-harbor", "demo_key": True, "scope": "document"}}})
    settings = loaded.get_pipe("deid_surrogates").engine.settings()
    assert settings["scope"] == "document" and settings["demo_key"] is True
    assert loaded.get_pipe("deid_surrogates").policy.name == "hipaa-safe-harbor"


# -- the component -----------------------------------------------------------------------------------
def test_component_writes_contract(dev_records):
    nlp = spacy_deid.blank()
    comp = nlp.add_pipe("deid_surrogates")
    comp.set_key(KEY)
    nlp.initialize()
    assert comp.score([]) == {}
    for rec in dev_records:
        doc = nlp.make_doc(rec.text)
        doc._.patient_id, doc._.doc_id = rec.patient_id, rec.id
        doc.ents = [doc.char_span(s.start, s.end, label=s.label) for s in rec.spans]
        doc = comp(doc)
        assert_offsets(doc)
        assert len(doc._.replacements) == len(rec.spans)
        for r, ent in zip(doc._.replacements, doc.ents):
            assert set(r) == {"label", "source", "start", "end", "out_start", "out_end", "surrogate", "operator"}
            assert ent._.surrogate == r["surrogate"]
            # no original text in the records (except where the policy keeps it)
            if r["operator"] != "keep":
                assert doc.text[r["start"]:r["end"]] not in json.dumps(r, ensure_ascii=False)
        json.dumps(doc._.replacements)  # plain data


def test_doc_without_ents_and_doc_bytes_roundtrip():
    doc = R(make_doc("nothing to hide here"))
    assert doc._.deid_text == doc.text and doc._.replacements == []
    doc = R(make_doc(NOTE))
    from spacy.tokens import Doc

    doc2 = Doc(doc.vocab).from_bytes(doc.to_bytes())
    assert doc2._.deid_text == doc._.deid_text and doc2._.replacements == doc._.replacements


def test_errors_name_the_record_not_the_text(monkeypatch):
    from spacy_deid.surrogates import SurrogateError
    from spacy_deid.surrogates.generators import SurrogateGenerator

    def boom(*a, **k):
        raise ValueError("陳志明")

    monkeypatch.setattr(SurrogateGenerator, "generate", boom)
    with pytest.raises(SurrogateError) as err:
        Resynthesizer(key=KEY)(make_doc("«陳志明|PATIENT»", doc_id="rec-7"))
    assert "rec-7" in str(err.value) and "陳志明" not in str(err.value)


@pytest.mark.parametrize("room", ["12診", "第3診間", "7B病房", "3F-2室"])
def test_room_units_stay_and_digits_change(room):
    nlp = spacy_deid.blank()
    comp = nlp.add_pipe("deid_surrogates")
    comp.set_key(KEY)
    doc = nlp.make_doc(f"OPD {room} 候診")
    doc.ents = [doc.char_span(4, 4 + len(room), label="ROOM")]
    out = comp(doc)._.replacements[0]["surrogate"]
    assert out != room and len(out) == len(room)
    assert [c for c in out if not c.isascii()] == [c for c in room if not c.isascii()]
