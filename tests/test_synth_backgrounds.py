"""Real clinical background lines in the TRAIN split: present, noisy, exact offsets, and never in the
evaluation splits (held-out, fresh and blind must not depend on the background files)."""
import importlib.util
import re
from pathlib import Path
from random import Random

import pytest

from spacy_deid.lexicons import load
from spacy_deid.synth import generate
from spacy_deid.synth import backgrounds as B
from spacy_deid.synth.slots import Context
from spacy_deid.synth.values import EnglishName, Pools, make_patient
from spacy_deid.wordlists.clinical_terms import is_clinical_term

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_clinical_backgrounds",
                                               ROOT / "scripts" / "build_clinical_backgrounds.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

_zh_spec = importlib.util.spec_from_file_location("build_chinese_backgrounds",
                                                  ROOT / "scripts" / "build_chinese_backgrounds.py")
build_zh = importlib.util.module_from_spec(_zh_spec)
_zh_spec.loader.exec_module(build_zh)

_abbr_spec = importlib.util.spec_from_file_location("build_chart_abbreviations",
                                                    ROOT / "scripts" / "build_chart_abbreviations.py")
build_abbr = importlib.util.module_from_spec(_abbr_spec)
_abbr_spec.loader.exec_module(build_abbr)

MARKER = "Quokka zebrafish marker line, patient stable."
ZH_LINE = "我媽說醫生叫她去醫院再檢查一次，不要太擔心。"
FRAME = "Seen by Dr. {DOCTOR_SUR_EN} today, a {AGE_OTHER}-year-old with history of asthma."


def _context() -> Context:
    rng = Random(7)
    return Context(rng, Pools("train"), make_patient(rng, Pools("train"), "P1"), None)


def _dump(records):
    return [r.to_dict() for r in records]


def _assert_exact(records):
    for r in records:
        r.validate()
        for s in r.spans:
            assert r.text[s.start:s.end] == s.text


@pytest.mark.parametrize("split", ["heldout", "fresh", "blind"])
def test_evaluation_splits_do_not_depend_on_backgrounds(split):
    plain = _dump(generate(6, seed=4, split=split, backgrounds=()))
    assert _dump(generate(6, seed=4, split=split, backgrounds=(MARKER, FRAME))) == plain
    assert _dump(generate(6, seed=4, split=split)) == plain  # the asset files, when present, are not read
    assert all("quokka" not in r["text"].lower() for r in plain)


def test_train_notes_hold_background_lines_with_exact_offsets(monkeypatch):
    monkeypatch.setattr(B, "NURSING_SHARE", 0.0)  # every English line a real one (nurses' lines: test_synth_nursing)
    records = list(generate(12, seed=3, split="train", backgrounds=(MARKER, FRAME)))
    _assert_exact(records)
    with_marker = [r for r in records if "quokka" in r.text.lower()]
    assert len(with_marker) >= len(records) // 2
    doctors = [s for r in records for s in r.spans if s.label == "DOCTOR"
               and re.search(r"(?i)seen by dr\. ?$", r.text[max(0, s.start - 12):s.start])]
    ages = [s for r in records for s in r.spans if s.label == "AGE"
            and r.text[s.end:s.end + 9].lower() == "-year-old"]
    assert doctors and ages


def test_real_sentences_get_names_where_the_patient_or_a_relative_is_mentioned():
    line = "The patient was seen with his wife. She tolerated the procedure; the patient's son agreed."
    framed = [B.name_frames(Random(seed), line) for seed in range(40)]
    assert any(f.startswith("The patient was seen") for f in framed)  # a mention is kept at 1 - NAME_FRAME_SHARE
    assert any(f.startswith("{PATIENT_") for f in framed)
    assert any(re.search(r"his wife,? \{FAMILY_", f) for f in framed)
    assert all("tolerated the procedure" in f for f in framed)  # only mentions change
    assert all(". She tolerated" in f for f in framed)  # a sentence's first pronoun is no patient's name
    records = list(generate(12, seed=3, split="train", backgrounds=(line,)))
    _assert_exact(records)
    patients = [s for r in records for s in r.spans if s.label == "PATIENT"
                and re.match(r"(?i) (was seen|tolerated)", r.text[s.end:s.end + 13])]
    relatives = [s for r in records for s in r.spans if s.label == "FAMILY"
                 and re.search(r"(?i)(wife|son),? (mrs?\.? |ms\.? |mr )?$", r.text[max(0, s.start - 12):s.start])]
    assert patients and relatives


def test_real_sentences_name_people_in_apposition_and_places_after_a_preposition():
    line = "The patient is a 45-year-old man who was transferred to the hospital. Pain improved."
    framed = [B.name_frames(Random(seed), line) for seed in range(40)]
    assert any(re.match(r"The patient, \{PATIENT_[A-Z_]+\}, is a ", f) for f in framed)
    assert all(not f.startswith("The patient, {PATIENT") or f.count("{PATIENT") == 1 for f in framed)  # named once
    assert any(re.search(r"-year-old man (from|of|who lives in) \{(CITY|DISTRICT|COUNTRY)_EN\} who", f) for f in framed)
    assert any("transferred to {HOSPITAL_EN}." in f for f in framed)
    assert any("transferred to the hospital." in f for f in framed)  # kept at 1 - NAME_FRAME_SHARE
    assert all(f.endswith(" Pain improved.") for f in framed)  # only mentions change
    assert B.name_frames(Random(0), "Hospital course was smooth; the clinic called.") == (
        "Hospital course was smooth; the clinic called.")  # no preposition, no place
    records = list(generate(12, seed=3, split="train", backgrounds=(line,)))
    _assert_exact(records)
    named = [s for r in records for s in r.spans if s.label == "PATIENT" and r.text[s.start - 2:s.start] == ", "]
    places = [s for r in records for s in r.spans if s.label == "HOSPITAL"
              and r.text[s.end:s.end + 14].lower() == ". pain improve"]
    assert named and places


def test_chinese_lines_get_a_relative_a_physician_and_a_hospital_where_one_is_mentioned():
    framed = [B.name_frames_zh(Random(seed), ZH_LINE) for seed in range(40)]
    assert any(f.startswith("我媽說") for f in framed)  # a mention is kept at 1 - NAME_FRAME_SHARE
    assert any("我媽{FAMILY_ZH}說" in f for f in framed)
    assert any("{DOCTOR_TITLED_ZH}叫她" in f and "醫生" not in f for f in framed)
    assert any("去{HOSPITAL_ZH}再檢查" in f for f in framed)
    assert all(f.endswith("再檢查一次，不要太擔心。") for f in framed)  # only mentions change
    records = list(generate(12, seed=3, split="train", backgrounds=(MARKER, ZH_LINE)))
    _assert_exact(records)
    assert sum("quokka" in r.text.lower() for r in records) >= len(records) // 2  # English lines as before
    relatives = [s for r in records for s in r.spans if s.label == "FAMILY" and r.text[s.start - 2:s.start] == "我媽"]
    hospitals = [s for r in records for s in r.spans if s.label == "HOSPITAL" and r.text[s.end:s.end + 3] == "再檢查"]
    doctors = [s for r in records for s in r.spans if s.label == "DOCTOR" and "叫她" in r.text[s.end:s.end + 6]]
    assert relatives and hospitals and doctors


def test_pronouns_become_names_in_both_languages():
    """`he`/`she` inside a sentence, `他`/`她` and the addressed `你` become names: real sentences whose subject
    is a person, not only those with a kinship or title word."""
    line = "Pain improved and she walked, so he was told to rest."
    framed = [B.name_frames(Random(seed), line) for seed in range(40)]
    assert any("and she walked" in f for f in framed)  # a pronoun is kept at 1 - PRONOUN_FRAME_SHARE
    assert any(f.startswith("Pain improved and {") and f.endswith("} was told to rest.") for f in framed)
    objects = [B.name_frames(Random(seed), "His wife gave him his meds.") for seed in range(40)]
    assert any(re.fullmatch(r"His wife,? \{[A-Z_]+\} gave \{[A-Z_]+\} \{[A-Z_]+\}'s meds\.", f) for f in objects)
    assert all(f.startswith("His wife") for f in objects)  # a kinship word's `his` is no owner to name
    zh = "他說你最近睡不好，其他人和他們都很擔心。"
    framed_zh = [B.name_frames_zh(Random(seed), zh) for seed in range(40)]
    assert any(f.startswith("他說") for f in framed_zh)
    assert any(f.startswith("{") and "說{PATIENT_TITLED_ZH}最近" in f for f in framed_zh)
    assert all("其他人和他們都很擔心" in f for f in framed_zh)  # `other` and plural pronouns stay
    records = list(generate(12, seed=3, split="train", backgrounds=(line, zh, "His wife gave him his meds.")))
    _assert_exact(records)
    assert any(r.text[s.end:s.end + 8] == "'s meds." for r in records for s in r.spans)
    subjects = [s for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY", "PERSON")
                and (r.text[s.end:s.end + 4].lower() in (" was", " wal") or r.text[s.end:s.end + 1] in ("說", "最"))]
    assert subjects


def test_chinese_lines_name_people_by_their_given_name_too():
    """`他說` -> `美玲說` or `阿玲說`: a given name alone, one span, as dialogues name family and friends."""
    records = list(generate(30, seed=2, split="train", backgrounds=("他說最近睡不好。",)))
    _assert_exact(records)
    spoken = [s.text for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY", "PERSON")
              and r.text[s.end:s.end + 6] == "說最近睡不好"]
    given_only = [t for t in spoken if 1 <= len(t) <= 2 and all("\u4e00" <= c <= "\u9fff" for c in t)]
    assert given_only and any(t.startswith("阿") for t in given_only) and len(given_only) < len(spoken)
    assert any(t.startswith("小") for t in given_only)  # `小玲`, `小陳`: nicknames the NER had never seen


def test_chinese_lines_address_the_patient_by_name():
    """`建議你` -> `建議美玲`, and `美玲，` before a turn: the listener named as a dialogue names them."""
    framed = [B.name_frames_zh(Random(seed), "建議你多喝水。") for seed in range(80)]
    assert any(f.startswith("建議{PATIENT_GIVEN_ZH}") for f in framed)
    assert any(f.startswith("{PATIENT_GIVEN_ZH}，建議") for f in framed)
    assert sum(f.startswith("建議") for f in framed) > len(framed) // 2  # most lines open as they were
    assert B.name_frames_zh(Random(0), "CT 正常。").startswith("CT")  # a vocative comes before Chinese only
    records = list(generate(30, seed=2, split="train", backgrounds=("建議你多喝水。",)))
    _assert_exact(records)
    vocatives = [s for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY")
                 and r.text[s.end:s.end + 3] in ("，建議", "小姐，", "先生，", "女士，", "太太，", "伯伯，", "大哥，", "阿姨，")]
    assert vocatives


def test_the_english_mix_is_unchanged_by_chinese_lines():
    """Chinese lines come after the English ones from the same stream: a split without them is as before."""
    english_only = _dump(generate(4, seed=6, split="train", backgrounds=(MARKER,)))
    both = list(generate(4, seed=6, split="train", backgrounds=(MARKER, ZH_LINE)))
    assert [r["text"].lower().count("quokka") for r in english_only] == [r.text.lower().count("quokka") for r in both]
    assert any("不要太擔心" in r.text for r in both)


def _hospitals_masked(record) -> str:
    text = record.text
    for s in sorted(record.spans, key=lambda s: -s.start):
        if s.label == "HOSPITAL":
            text = text[:s.start] + "<HOSPITAL>" + text[s.end:]
    return text


def test_generated_lines_are_unchanged_by_the_backgrounds():
    """Background lines come from their own random stream: the generated lines stay as they were, but for the
    English names of the patient's hospital (`wide_institution`)."""
    plain = list(generate(8, seed=5, split="train", backgrounds=()))
    mixed = list(generate(8, seed=5, split="train", backgrounds=(MARKER,)))
    assert len(plain) == len(mixed)
    for a, b in zip(plain, mixed):
        if b.text == b.text.lower() and a.text != a.text.lower():
            continue  # a note typed all in lower case
        lines = iter(_hospitals_masked(b).split("\n"))
        assert all(any(line == other for other in lines) for line in _hospitals_masked(a).split("\n"))
        assert len(b.text) > len(a.text)


def test_train_notes_name_institutions_as_english_speaking_countries_do():
    """About WIDE_PLACE_SHARE of the mixed train notes give the patient's hospital an English name that the
    lexicon does not hold, possessive ones among them, with exact spans; the Chinese names stay."""
    records = list(generate(40, seed=3, split="train", backgrounds=(MARKER,)))
    _assert_exact(records)
    folded = {h[key].casefold() for h in Pools("train").entries("hospitals") for key in ("en", "abbr_en")}
    english = [s.text for r in records for s in r.spans if s.label == "HOSPITAL" and s.text.isascii()]
    wide = [t for t in english if t.casefold() not in folded]
    assert wide and len(wide) < len(english)
    assert any(re.search(r"(?i)[a-z]'s\b", t) for t in wide)
    plain = list(generate(40, seed=3, split="train", backgrounds=()))
    assert all(s.text.casefold() in folded for r in plain for s in r.spans  # codes such as `805` aside
               if s.label == "HOSPITAL" and re.search("[A-Za-z]", s.text) and s.text.isascii())


def test_an_institution_names_the_same_people_and_town_in_its_full_and_short_forms(tmp_path):
    rng = Random(11)
    pairs = [B.institution(rng) for _ in range(400)]
    for full, short in pairs:
        assert full and short
        for word in re.findall(r"[A-Z][A-Za-z'-]+", short):
            assert word in full or word in ("St", "University", "Rehab"), (full, short)
    assert len({full for full, _ in pairs}) > 300 and not any(full.isupper() for full, _ in pairs)
    assert B.institution(rng, str(tmp_path)) == ("", "")
    ctx = _context()
    assert B.wide_institution(Random(0), ctx).patient.hospital["zh"] == ctx.patient.hospital["zh"]


def test_train_split_with_backgrounds_is_deterministic():
    lines = (MARKER, FRAME)
    assert _dump(generate(5, seed=9, split="train", backgrounds=lines)) == _dump(
        generate(5, seed=9, split="train", backgrounds=lines))


def test_backgrounds_are_opt_in_through_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv(B.ENV, raising=False)
    plain = _dump(generate(4, seed=2, split="train"))
    assert plain == _dump(generate(4, seed=2, split="train", backgrounds=()))
    folder = tmp_path / "bg"
    folder.mkdir()
    (folder / B.FILES[0]).write_text("# a comment\n" + MARKER + "\n", encoding="utf8")
    monkeypatch.setenv(B.ENV, str(folder))
    mixed = _dump(generate(4, seed=2, split="train"))
    assert mixed != plain and any("quokka" in r["text"].lower() for r in mixed)
    assert _dump(generate(4, seed=2, split="heldout")) == _dump(generate(4, seed=2, split="heldout", backgrounds=()))


def test_the_synth_command_takes_backgrounds_as_an_option(monkeypatch, tmp_path):
    """`--backgrounds FOLDER` mixes that folder's lines in, `--backgrounds 0` none, whatever the environment says:
    `spacy project run synth` passes it from a project variable, where an environment variable cannot be set."""
    from typer.testing import CliRunner
    from spacy_deid.cli import app
    folder = tmp_path / "bg"
    folder.mkdir()
    (folder / B.FILES[0]).write_text(MARKER + "\n", encoding="utf8")
    monkeypatch.setenv(B.ENV, str(folder))
    runs = {}
    for value in (str(folder), "0", None):
        if value is None:
            monkeypatch.delenv(B.ENV)
        out = tmp_path / f"{len(runs)}.jsonl"
        option = [] if value is None else ["--backgrounds", value]
        result = CliRunner().invoke(app, ["synth", str(out), "-n", "3", "--seed", "1", *option])
        assert result.exit_code == 0, result.output
        runs[value] = out.read_text(encoding="utf8")
    assert "quokka" in runs[str(folder)].lower() and "quokka" not in runs["0"].lower()
    assert runs["0"] == runs[None]  # 0 is the train split as it is without backgrounds


def test_noise_keeps_lengths_where_spans_need_it():
    assert B.lower_ascii("Dr. Smith 王") == "dr. smith 王"
    text = "The patient was seen in the intensive care unit with shortness of breath."
    short = B.shorthand(Random(1), text)
    assert short != text and short == B.shorthand(Random(1), text)
    assert len(B.drop_a_space(Random(0), "alert, oriented. calm")) == len("alert, oriented. calm") - 1


def test_the_clinicians_inventory_abbreviates_phrases_the_table_lacks(tmp_path):
    """A phrase of the inventory file is written in one of its forms; the hand-written table keeps its own."""
    (tmp_path / B.ABBREVIATIONS).write_text("blood culture\tBCx|bcx\nweeks\twks\npatient\tPATIENTX\n", encoding="utf8")
    pattern, table = B.shorthand_table(str(tmp_path))
    assert table["blood culture"] == ("BCx", "bcx") and table["patient"] == dict(B.SHORTHAND)["patient"]
    assert pattern.search("Two Blood Cultures") is None and pattern.search("drew blood culture today")
    assert set(B.shorthand_table(str(tmp_path / "absent"))[1]) == {k for k, _ in B.SHORTHAND}


def test_the_shipped_inventory_is_used_and_written_forms_are_short():
    _, table = B.shorthand_table()
    inventory = dict(line.split("\t") for line in
                     (B.CLINICAL_TEXT / B.ABBREVIATIONS).read_text(encoding="utf8").splitlines())
    assert len(inventory) > 1000 and set(inventory) <= set(table)
    text = "Seen for 3 weeks, blood culture drawn, catheter removed."
    outs = {B.shorthand(Random(seed), text) for seed in range(40)}
    assert any("wks" in out for out in outs) and any(re.search(r"\bcath\b", out, re.I) for out in outs)
    for forms in inventory.values():
        assert all(1 <= len(form) <= 6 for form in forms.split("|"))


def test_inventory_building_keeps_dominant_senses_and_drops_names(tmp_path):
    vanderbilt = tmp_path / "v.txt"
    vanderbilt.write_text("abbreviation\tsense\tvariation\tCUI\tfrequency\n"
                          "bld\tblood\tbld_9|BLD_2\tc1\t0.9\n"
                          "bld\tbold\tbld_1\tc2\t0.1\n"
                          "pat\tpatellar\tPat_3\tc3\t0.8\n"
                          "x\tthe sign 3/4\tx_1\tc4\t1\n", encoding="utf8")
    table = {}
    build_abbr.read_vanderbilt(vanderbilt, table, {"pat"})
    assert table == {"blood": {"bld", "BLD"}}


def test_long_words_are_clipped_as_charts_abbreviate():
    """`tolerated` -> `tol` or `tlrtd`: a prefix of 3-5 letters or the first letter and consonants; short words stay."""
    text = "Patient tolerated suction with frequent secretions and was calm."
    clipped = [B.clip_words(Random(seed), text) for seed in range(30)]
    assert len(set(clipped)) > 5 and clipped == [B.clip_words(Random(seed), text) for seed in range(30)]
    for out in clipped:
        words, originals = out.split(), text.split()
        assert len(words) == len(originals)
        for word, original in zip(words, originals):
            core, full = word.strip(".,"), original.strip(".,")
            if core != full:
                assert len(full) >= 6 and 3 <= len(core) <= 5
                assert full.startswith(core) or core == (full[0] + re.sub("[aeiou]", "", full[1:]))[:len(core)]
    assert all(" with " in out and " was " in out for out in clipped)


def test_real_lines_name_people_the_lexicons_do_not_hold():
    """About WIDE_NAME_SHARE of the English lines name their people from `person_names_en.tsv`, with exact
    spans; the rest keep the note's own (romanized) people."""
    given, surnames = B.person_names()
    assert len(given) > 5000 and len(surnames) > 10000
    lexicon_surnames = {v.casefold() for v in load("surnames_en").values()}
    pool = {v.casefold() for v in surnames}
    line = "The patient was seen with his wife in clinic today."
    records = list(generate(20, seed=5, split="train", backgrounds=(line,)))
    _assert_exact(records)
    people = [s.text for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY")
              and re.match(r"(?i) (was seen|in clinic)", r.text[s.end:s.end + 10])]
    last_words = [p.split()[-1].strip(",").casefold() for p in people]
    strangers = [w for w in last_words if w in pool and w not in lexicon_surnames]
    romanized = [p for p in people if "-" in p]
    assert len(people) >= 20 and strangers and romanized


def test_real_lines_write_their_people_with_initials_too():
    """`Smith J.`, `J. Smith`, `John A. Smith`: the initial belongs to the span. Only the real lines' people are
    written so; a generated line's English names never are."""
    line = "The patient was seen with his wife in clinic today."
    records = list(generate(20, seed=5, split="train", backgrounds=(line,)))
    _assert_exact(records)
    people = [s.text for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY")
              and re.match(r"(?i) (was seen|in clinic)", r.text[s.end:s.end + 10])]
    initialed = [p for p in people if re.search(r"(?i)\b[a-z]\.", p)]
    assert initialed and len(initialed) < len(people)
    assert any(re.fullmatch(r"(?i)[a-z'-]+ [a-z]\.", p) for p in initialed)  # the trailing initial kept
    plain = EnglishName("John", "Smith")
    rng = Random(0)
    assert {plain.en(rng) for _ in range(200)} == {"John Smith", "Smith"}
    assert B.strangers(_context()).patient.name.with_initials


def test_strangers_rename_every_person_and_keep_the_note_without_the_list(tmp_path):
    ctx = _context()
    renamed = B.strangers(ctx)
    patient = renamed.patient
    assert patient.name != ctx.patient.name and patient.family[0].surname == patient.name.surname
    assert patient.attending is patient.doctors[0] and all(p.gender in ("M", "F") for p in patient.doctors)
    assert patient.hospital == ctx.patient.hospital and renamed.rng is ctx.rng
    assert B.strangers(ctx, str(tmp_path)) is ctx


def test_person_names_hold_no_held_out_name_and_no_chart_word():
    """The synthetic held-out, fresh and blind splits are filled with the lexicons' held-out names: no training
    line may hold one. A chart word as a name would teach that a drug is a person."""
    given, surnames = B.person_names()
    held_out = {v.casefold() for name in ("given_names_en", "surnames_en") for v in load(name).values(part="heldout")}
    assert not held_out & {name.casefold() for name, _ in given} and not held_out & {s.casefold() for s in surnames}
    assert not [name for name in [n for n, _ in given] + list(surnames) if is_clinical_term(name)]
    assert {sex for _, sex in given} == {"M", "F", "U"}


def test_asset_lines_hold_no_dates_or_identifiers():
    lines = B.load_lines()
    if not lines:
        pytest.skip("assets/clinical_text not present")
    assert len(lines) > 1000
    for line in lines:
        assert not re.search(r"\b(?:19|20)\d\d\b|\d{5,}|\b(?:Dr|Mr|Mrs|Ms)\. [A-Z][a-z]", line), line
        assert set(re.findall(r"\{([A-Z_]+)\}", line)) <= {"DOCTOR_SUR_EN", "PATIENT_SUR_EN", "AGE_OTHER"}


def test_chinese_asset_lines_hold_no_numbers_letters_or_places():
    lines = [line for line in B.load_lines() if re.search(r"[\u4e00-\u9fff]", line)]
    if not lines:
        pytest.skip("assets/clinical_text not present")
    assert len(lines) > 1000
    for line in lines:
        assert build_zh.MIN_CHARS <= len(line) <= build_zh.MAX_CHARS and not build_zh.may_hold_phi(line), line
        assert not re.search(r"[0-9A-Za-z]", line) and "{" not in line, line


@pytest.mark.parametrize("unit,kept", [
    ("平時要注意飲食清淡，多喝水。", True),
    ("我爺爺今年68了，血壓一直很高。", False),         # an age
    ("我住在台北市，想問一下。", False),               # a place
    ("建議去醫院做個CT看看。", False),                 # Latin letters (a name could be written so)
    ("她三十五歲，月經一直不規律。", False),           # an age in Chinese numbers
    ("之前在仁愛醫院看過，沒有好轉。", False),         # an institution
])
def test_chinese_cleaning_drops_units_that_may_hold_phi(unit, kept):
    assert build_zh.may_hold_phi(unit) is not kept


def test_chinese_units_are_sentences_and_long_ones_are_cut_at_commas():
    text = "頭痛兩天了。" + "，".join(["晚上睡不好覺"] * 12) + "。要多休息一下！"
    got = list(build_zh.units(text))
    assert got[0] == "頭痛兩天了。" and got[-1] == "要多休息一下！"
    assert all(build_zh.MIN_CHARS <= len(u) <= build_zh.MAX_CHARS for u in got)
    assert "晚上睡不好覺，" in got


@pytest.mark.parametrize("unit,expected", [
    ("Dr. X saw the patient in clinic.", "Dr. {DOCTOR_SUR_EN} saw the patient in clinic."),
    ("This 45-year-old female has asthma.", "This {AGE_OTHER}-year-old female has asthma."),
    ("Blood pressure 124/78, pulse 80.", "Blood pressure 124/78, pulse 80."),
    ("Seen by Dr. Smith in clinic today.", ""),
    ("She was admitted on 12/03/2008 for pain.", ""),
    ("She lived in Seattle until last spring.", ""),
    ("He works as a carpenter and smokes.", ""),
    ("Transferred from Mercy Hospital for care.", ""),
    ("X and Dr. Y placed the patient supine.", ""),
])
def test_cleaning_keeps_frames_and_drops_leftover_phi(unit, expected):
    assert build.clean(unit, {"Smith"}) == expected


def test_real_lines_are_typed_with_slips(monkeypatch):
    """A word of five letters or more is now and then misspelt as a hurried typist does: first and last letters
    kept, two letters swapped or one dropped; short words and spacing untouched."""
    text = "pt tolerated medication without complications overnight, no pain. " * 100
    out = B.typos(Random(3), text)
    pairs = list(zip(text.split(" "), out.split(" ")))
    changed = [(a, b) for a, b in pairs if a != b]
    assert len(pairs) == len(text.split(" ")) and 5 < len(changed) < 0.1 * len(pairs)
    assert all(b[0] == a[0] and (sorted(b) == sorted(a) or any(b == a[:i] + a[i + 1:] for i in range(len(a))))
               for a, b in changed)
    assert all(a == b for a, b in pairs if len(a.strip(",.")) < 5)
    monkeypatch.setattr(B, "TYPO_SHARE", 0.0)
    assert B.typos(Random(3), text) == text
