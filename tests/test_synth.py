"""Synthetic corpus generator: determinism, coverage, shares, offsets, alignment and split hygiene."""
import collections
import datetime as dt
import random
import re

import pytest
from typer.testing import CliRunner

import spacy_deid
from spacy_deid import lexicons
from spacy_deid.cli import app
from spacy_deid.corpus import Record
from spacy_deid.labels import LABELS, NAME_LABELS, category_of
from spacy_deid.synth import generate, is_valid_taiwan_id, make_taiwan_id
from spacy_deid.synth import dates as D
from spacy_deid.synth.backgrounds import lower_ascii
from spacy_deid.synth.templates import TemplateError, all_templates, by_section, parse_file
from spacy_deid.synth.values import Pools, taiwan_id_check_digit

from linear import assert_linear

_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]{2,}")
_NORM = re.compile(r"\d{4}-\d{2}-\d{2}|\d{4}-\d{2}|\d{4}|--\d{2}-\d{2}|--\d{2}")


@pytest.fixture(scope="module")
def train():
    return list(generate(120, seed=11, split="train"))


@pytest.fixture(scope="module")
def heldout():
    return list(generate(120, seed=11, split="heldout"))


@pytest.fixture(scope="module")
def fresh():
    return list(generate(60, seed=11, split="fresh"))


@pytest.fixture(scope="module")
def blind():
    return list(generate(60, seed=11, split="blind"))


def _dump(records):
    return [r.to_dict() for r in records]


def test_same_seed_same_output_and_different_seed_differs():
    a, b = _dump(generate(15, seed=5)), _dump(generate(15, seed=5))
    assert a == b
    assert a != _dump(generate(15, seed=6))


def test_patient_does_not_depend_on_corpus_size():
    small = _dump(generate(3, seed=2))
    large = _dump(generate(10, seed=2))
    assert large[:len(small)] == small


def test_cli_writes_byte_identical_files(tmp_path):
    runner = CliRunner()
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        result = runner.invoke(app, ["synth", str(path), "--patients", "8", "--seed", "3", "--split", "heldout",
                                     "--notes-per-patient", "2-3"])
        assert result.exit_code == 0, result.output
        outs.append(path.read_bytes())
    assert outs[0] == outs[1]
    lines = outs[0].decode("utf-8").splitlines()
    assert 16 <= len(lines) <= 24
    rec = Record.from_dict(__import__("json").loads(lines[0]))
    rec.validate()
    assert rec.patient_id and rec.id.startswith(rec.patient_id)


@pytest.mark.parametrize("args", [["--split", "test"], ["--values", "fresh"], ["--notes-per-patient", "3-1"],
                                  ["--notes-per-patient", "x"]])
def test_cli_rejects_bad_options(tmp_path, args):
    result = CliRunner().invoke(app, ["synth", str(tmp_path / "x.jsonl"), "--patients", "1", *args])
    assert result.exit_code != 0
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.parametrize("kwargs", [{"split": "test"}, {"notes_per_patient": (0, 2)}, {"notes_per_patient": (3, 2)}])
def test_generate_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        list(generate(1, seed=0, **kwargs))


@pytest.mark.parametrize("split", ["train", "heldout", "fresh", "blind"])
def test_every_label_appears_in_50_patients(split):
    labels = {s.label for r in generate(50, seed=1, split=split) for s in r.spans}
    assert labels == set(LABELS)


def test_label_shares_near_real_corpus():
    records = list(generate(200, seed=4))
    labels = collections.Counter(s.label for r in records for s in r.spans)
    total = sum(labels.values())
    cats = collections.Counter()
    for label, n in labels.items():
        cats[category_of(label)] += n
    share = {c: n / total for c, n in cats.items()}
    assert 0.45 <= share["DATE"] <= 0.70
    assert 0.18 <= share["LOCATION"] <= 0.34
    assert 0.02 <= share["AGE"] <= 0.08
    assert share["NAME"] <= 0.15 and share["ID"] <= 0.10 and share["PROFESSION"] <= 0.05
    # every label frequent enough to learn from a few thousand notes
    assert min(labels[l] for l in LABELS) / total >= 0.0008


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_about_sixty_percent_of_lines_are_code_mixed(split):
    kinds = collections.Counter()
    for r in generate(150, seed=9, split=split):
        for line in r.text.splitlines():
            han, latin = bool(_HAN.search(line)), bool(_LATIN.search(line))
            if han or latin:
                kinds["mixed" if han and latin else "zh" if han else "en"] += 1
    total = sum(kinds.values())
    assert 0.50 <= kinds["mixed"] / total <= 0.72
    assert kinds["zh"] / total >= 0.10 and kinds["en"] / total >= 0.08


def test_offsets_norms_and_note_lengths(train, heldout, fresh, blind):
    for r in train + heldout + fresh + blind:
        r.validate()
        # 5..25 templated lines, plus a third to two thirds as many PHI-free lines
        assert 5 + 1 <= len(r.text.splitlines()) <= 25 + (2 * 25) // 3
        ends = -1
        for s in r.spans:
            assert s.start >= ends, "spans must not overlap"
            ends = s.end
            assert r.text[s.start:s.end] == s.text and s.text == s.text.strip()
            if s.label == "DATE":
                assert s.norm and _NORM.fullmatch(s.norm), s.norm
            else:
                assert s.norm is None


def test_every_span_aligns_to_the_code_mixing_tokenizer(train, heldout, fresh, blind):
    nlp = spacy_deid.blank()
    records = train[:250] + heldout[:250] + fresh[:150] + blind[:150]
    assert len(records) >= 400
    bad = [(r.id, s.label, s.start, s.end) for r in records for s, doc in [(s, nlp.make_doc(r.text)) for s in r.spans]
           if doc.char_span(s.start, s.end) is None]
    assert not bad


def test_hard_negatives_are_not_spans(train):
    negative = re.compile(r"BP \d+/\d+|MMSE \d+/30|1/2 tab|\d/\d/\d(?:/\d)? taper|會計\d+y")
    seen = 0
    for r in train:
        for m in negative.finditer(r.text):
            seen += 1
            assert not any(s.start < m.end() and m.start() < s.end for s in r.spans), m.group()
    assert seen > 50


def test_ids_are_structurally_valid(train):
    ids = [s.text for r in train for s in r.spans if s.label == "ID_NUMBER"]
    assert ids and all(is_valid_taiwan_id(i) for i in ids)
    phones = [s.text for r in train for s in r.spans if s.label == "PHONE"]
    assert all(re.fullmatch(r"[0-9()+\-]+", p) for p in phones)
    emails = [s.text for r in train for s in r.spans if s.label == "EMAIL"]
    assert emails and all(re.fullmatch(r"[a-z0-9.]+@[a-z0-9.]+\.[a-z]+", e.lower()) for e in emails)


@pytest.mark.parametrize("letter,digits,check", [("A", "12345678", 9), ("F", "13198795", 8), ("Z", "20000000", 4)])
def test_taiwan_id_check_digit(letter, digits, check):
    assert taiwan_id_check_digit(letter, digits) == check
    assert is_valid_taiwan_id(f"{letter}{digits}{check}")
    assert not is_valid_taiwan_id(f"{letter}{digits}{(check + 1) % 10}")


def test_generated_taiwan_ids_match_gender():
    rng = random.Random("ids")
    assert all(make_taiwan_id(rng, "M")[1] == "1" and is_valid_taiwan_id(make_taiwan_id(rng, "F")) for _ in range(200))


def test_date_forms_cover_both_calendars_and_far_future_years(train):
    texts = [s.text for r in train for s in r.spans if s.label == "DATE"]
    joined = "\n".join(texts)
    for pattern in [r"^\d{3}\.\d{2}\.\d{2}$", r"^(mk|MK)\d{6,7}$", r"^(mk|MK)\d{2,3}$", r"^民國", r"年\d+月$",
                    r"^\d{1,2}/\d{1,2}$", r"^[一二三四五六七八九十]+月$", r"^[A-Z][a-z]+\.? \d{4}$", r"^2[12]\d\d[./-]"]:
        assert re.search(pattern, joined, re.M), pattern
    years = {int(s.norm[:4]) for r in train for s in r.spans if s.norm and s.norm[0] != "-"}
    assert any(y > 2200 for y in years) and any(2080 < y < 2120 for y in years) and any(y < 2030 for y in years)


def test_date_ranges_are_two_spans(train):
    found = 0
    for r in train:
        for a, b in zip(r.spans, r.spans[1:]):
            if a.label == b.label == "DATE" and r.text[a.end:b.start] == "-":
                found += 1
    assert found > 10


@pytest.mark.parametrize("fmt,day,text,norm", [
    ("roc_dot", dt.date(2021, 12, 25), "110.12.25", "2021-12-25"),
    ("roc_slash_nopad", dt.date(2021, 1, 5), "110/1/5", "2021-01-05"),
    ("roc_compact", dt.date(2021, 12, 25), "1101225", "2021-12-25"),
    ("roc_zh_numerals", dt.date(2021, 12, 25), "民國一一〇年十二月二十五日", "2021-12-25"),
    ("roc_mk_mixed", dt.date(2021, 12, 25), "MK110十二月25日", "2021-12-25"),
    ("ce_slash", dt.date(2105, 12, 15), "2105/12/15", "2105-12-15"),
    ("en_ymd", dt.date(2021, 12, 25), "2021 Dec. 25", "2021-12-25"),
    ("roc_zh_month", dt.date(2019, 8, 1), "108年8月", "2019-08"),
    ("ce_dot_month", dt.date(2223, 3, 1), "2223.3", "2223-03"),
    ("md_slash", dt.date(2021, 3, 14), "3/14", "--03-14"),
    ("month_zh_numeral", dt.date(2021, 9, 1), "九月", "--09"),
    ("roc_zh_year_prefix", dt.date(1998, 1, 1), "民國87年", "1998"),
])
def test_date_renderer(fmt, day, text, norm):
    assert D.render(day, fmt, random.Random(0)) == (text, norm)


def test_each_split_uses_only_its_own_templates(train, heldout, fresh, blind):
    split_of = {t.id: t.split for t in all_templates()}
    used = {name: {i for r in records for i in r.meta["templates"]}
            for name, records in (("train", train), ("heldout", heldout), ("fresh", fresh), ("blind", blind))}
    assert all(used.values())
    assert not used["train"] & used["heldout"] and not used["fresh"] & (used["train"] | used["heldout"])
    assert not used["blind"] & (used["train"] | used["heldout"] | used["fresh"])
    for name, ids in used.items():
        assert {split_of[i] for i in ids} == {name}


def test_fresh_and_blind_notes_take_heldout_values_and_their_own_ids(fresh, blind):
    assert {r.meta["values"] for r in fresh + blind} == {"heldout"}
    assert all(r.patient_id.startswith("SYNF11-") for r in fresh)
    assert all(r.patient_id.startswith("SYNB11-") for r in blind)


def test_every_section_has_templates_in_every_split():
    assert (set(by_section("train")) == set(by_section("heldout")) == set(by_section("fresh"))
            == set(by_section("blind")))


def _skeleton(template) -> str:
    """A template's literal text with each slot reduced to its label family (`{HOSPITAL}` for
    `{HOSPITAL_ZH}`), so a paraphrase that only swaps language variants still reads the same."""
    return "".join(p if isinstance(p, str) else "{" + re.sub(r"_(ZH|EN)$", "", p[0]) + "}"
                   for p in template.parts)


@pytest.mark.parametrize("other_split", ["heldout", "fresh", "blind"])
def test_training_templates_are_not_near_copies_of_evaluation_ones(other_split):
    # The held-out, fresh and blind splits measure unseen sentence frames; a training frame that copies one
    # (character similarity >= 0.9 of the skeletons) would turn that measure into one of memory.
    import difflib
    templates = all_templates()
    held = [_skeleton(t) for t in templates if t.split == other_split]
    close = []
    for t in templates:
        if t.split != "train":
            continue
        mine = _skeleton(t)
        for other in held:
            m = difflib.SequenceMatcher(None, mine, other, autojunk=False)
            if m.real_quick_ratio() >= 0.9 and m.quick_ratio() >= 0.9 and m.ratio() >= 0.9:
                close.append((t.id, other))
    assert not close


# label -> lexicons whose (any field) values a span of that label may take
_LEXICON_OF = {"HOSPITAL": ["hospitals"], "SCHOOL": ["schools"], "MARKET": ["markets"], "LOCATION": ["locations"],
               "GENERAL_BUSINESS": ["companies"], "PROFESSION": ["professions"], "COUNTRY": ["countries"],
               "STATE": ["states"], "NATIONALITY": ["nationalities"], "REGION": ["regions"], "STREET": ["streets"],
               "DEPARTMENT": ["departments"], "CITY": ["cities", "districts"]}


def _values(names, part):
    out = set()
    for name in names:
        lex = lexicons.load(name)
        for field in lex.fields:
            values = [v for v in lex.values(field, part) if field not in ("country", "kind", "city")]
            out.update(values)
            out.update(v.upper() for v in values)  # notes typed in capitals (nursing style)
            out.update(lower_ascii(v) for v in values)  # train notes typed in lower case (synth.backgrounds)
    return out


@pytest.mark.parametrize("label", sorted(_LEXICON_OF))
def test_heldout_values_come_from_heldout_lexicon_entries(label, train, heldout):
    names = _LEXICON_OF[label]
    held_values, train_values = _values(names, "heldout"), _values(names, "train")
    train_primary = {e[lexicons.load(n).primary] for n in names for e in lexicons.load(n).split("train")}
    held_spans = {s.text for r in heldout for s in r.spans if s.label == label}
    train_spans = {s.text for r in train for s in r.spans if s.label == label}
    assert held_spans and train_spans
    assert held_spans <= held_values
    assert train_spans <= train_values
    assert not held_spans & train_primary


def test_heldout_chinese_names_use_heldout_surnames_and_characters(heldout):
    sur = {e["text"] for e in lexicons.load("surnames_zh").split("heldout")}
    chars = {e["text"] for e in lexicons.load("given_chars_zh").split("heldout")}
    checked = 0
    for r in heldout:
        for s in r.spans:
            if s.label in ("PATIENT", "FAMILY", "DOCTOR", "PERSON") and _HAN.fullmatch(s.text[0]):
                head = s.text[:2] if s.text[:2] in sur else s.text[:1]
                assert head in sur and set(s.text[len(head):]) <= chars, s.text
                checked += 1
    assert checked > 100


def _name_chars(part):
    return {c for n in ("surnames_zh", "given_chars_zh") for e in lexicons.load(n).split(part) for c in e["text"]}


def _han_names(records):
    return [s.text for r in records for s in r.spans if s.label in NAME_LABELS and re.fullmatch("[\u4e00-\u9fff]+", s.text)]


def test_training_names_never_use_heldout_name_characters(train):
    """Training names are spelled with train-split surnames and given-name characters, or (a share,
    values.OTHER_CHARACTER_NAMES) with characters of other train-split values: never with a
    character of a held-out surname or given name."""
    allowed = _name_chars("train")
    other = set(Pools("train").name_chars())
    assert other and not other & _name_chars("heldout")
    han_names = _han_names(train)
    assert han_names
    for name in han_names:
        assert set(name) <= allowed | other, name
    assert any(not set(name) <= allowed for name in han_names)  # the respelled share exists


def test_template_parser_rejects_malformed_lines():
    with pytest.raises(TemplateError, match="line 2"):
        parse_file("[s]\nT bad line without separator\n", "x.txt")
    with pytest.raises(TemplateError, match="unknown slot"):
        parse_file("[s]\nT a.1 | {NO_SUCH_SLOT}\n", "x.txt")
    with pytest.raises(TemplateError):
        parse_file("T a.1 | no section\n", "x.txt")
    parsed = parse_file("[s]\nH a.1 w=2 | {AGE}歲\\n第二行\n", "x.txt")
    assert parsed[0].split == "heldout" and parsed[0].weight == 2.0 and parsed[0].slots == ["AGE"]


def test_corpus_generation_grows_linearly_with_patients():
    assert_linear(lambda n: sum(1 for _ in generate(n, seed=0)), 240)
    assert sum(1 for _ in generate(300, seed=0)) >= 600


def test_cue_lists_are_split_and_heldout_uses_only_heldout_cues():
    from spacy_deid.synth.cues import all_cues
    cues = all_cues()
    assert len(cues) >= 20
    for name, splits in cues.items():
        assert splits["train"] and splits["heldout"], name
        assert not set(splits["train"]) & set(splits["heldout"]), name
    fam_train = {p[0] for p in cues["FAMREL_ZH"]["train"]}
    fam_held = {p[0] for p in cues["FAMREL_ZH"]["heldout"]}
    held_text = "\n".join(r.text for r in generate(60, seed=2, split="heldout"))
    assert any(w in held_text for w in fam_held)


def test_cue_parser_rejects_malformed_lines():
    from spacy_deid.synth.cues import CueError, parse_cues
    with pytest.raises(CueError, match="line 2"):
        parse_cues("[A]\nX phrase\n", "x.cues")
    with pytest.raises(CueError):
        parse_cues("T phrase before a list\n", "x.cues")
    parsed = parse_cues("[REL]\nT 父親\nH {FAMILY_ZH}\\s先生\n", "x.cues")
    assert parsed["REL"]["train"] == [("父親",)] and parsed["REL"]["heldout"] == [(("FAMILY_ZH",), " 先生")]


def test_cue_lists_drawn_from_the_rules_word_lists_frame_the_spans_of_training_notes():
    """`T @list:NAME` draws a cue list's phrases from a word list the cue rules read (`rules.cues`), and
    the training frames write those words where the rules look for them, outside the span."""
    from spacy_deid.synth.cues import CueError, parse_cues
    from spacy_deid.wordlists import default_word_lists
    lists = default_word_lists()
    parsed = parse_cues("[PREP]\nT @list:leading_prepositions_zh\nH 前往\n", "x.cues")
    assert [p[0] for p in parsed["PREP"]["train"]] == list(lists.words("leading_prepositions_zh"))
    with pytest.raises(CueError, match="line 2: no word list 'no_such_list'"):
        parse_cues("[A]\nT @list:no_such_list\n", "x.cues")
    framed = []
    for record in generate(300, seed=0, split="train"):
        at = record.text.find(", 之後症狀反覆")
        city = [s for s in record.spans if s.label == "CITY" and s.start < at and at - s.end <= 4]
        if at >= 0 and city:
            framed.append((record.text[city[-1].start - 1], record.text[city[-1].end:at]))
    assert framed and all(prep in lists.words("leading_prepositions_zh") and act in lists.words("activity_words_zh")
                          for prep, act in framed)


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_names_and_ages_come_in_many_surface_forms(split):
    records = list(generate(150, seed=3, split=split))
    names = [(r.text, s) for r in records for s in r.spans if s.label in ("PATIENT", "FAMILY", "PERSON", "DOCTOR")]
    after = collections.Counter(t[s.end:s.end + 2] for t, s in names)
    before = collections.Counter(t[max(0, s.start - 4):s.start].strip() for t, s in names)
    assert after["先生"] and after["醫師"] and before["Dr."] and (before["Mr."] or before["Ms."])
    assert any(s.text.isupper() for _, s in names) and any(s.text.islower() for _, s in names)
    ages = collections.Counter(re.sub(r"\d+", "N", t[max(0, s.start - 5):s.end + 9])
                               for r in records for t, s in [(r.text, s) for s in r.spans if s.label == "AGE"])
    forms = {"歲", "-year-old", "y/o", "yo", "Age", "年齡"}
    assert sum(any(f in k for k in ages) for f in forms) >= 5


def test_crossed_splits_take_templates_from_one_and_values_from_the_other(train, heldout):
    """`values=` crosses the splits: held-out templates with training values isolate unseen contexts,
    training templates with held-out values isolate unseen names and places."""
    crossed = list(generate(40, seed=11, split="heldout", values="train"))
    split_of = {t.id: t.split for t in all_templates()}
    assert {split_of[i] for r in crossed for i in r.meta["templates"]} == {"heldout"}
    assert {r.meta["values"] for r in crossed} == {"train"}
    held_names = {s.text for r in heldout for s in r.spans if s.label == "HOSPITAL"}
    train_hospitals = _values(["hospitals"], "train")
    spans = {s.text for r in crossed for s in r.spans if s.label == "HOSPITAL"}
    assert spans and spans <= train_hospitals and not spans & (held_names - train_hospitals)
    other = list(generate(40, seed=11, split="train", values="heldout"))
    assert {split_of[i] for r in other for i in r.meta["templates"]} == {"train"}
    assert {s.text for r in other for s in r.spans if s.label == "HOSPITAL"} <= _values(["hospitals"], "heldout")
    assert "values" not in heldout[0].meta
    # Only a training corpus respells names (values.OTHER_CHARACTER_NAMES): crossed ones keep lexicon names.
    crossed_names = _han_names(crossed)
    assert crossed_names and all(set(name) <= _name_chars("train") for name in crossed_names)
    with pytest.raises(ValueError, match="value split"):
        next(generate(1, split="train", values="dev"))


def test_synth_cli_values_option(tmp_path):
    out = tmp_path / "crossed.jsonl"
    result = CliRunner().invoke(app, ["synth", str(out), "-n", "2", "--split", "heldout", "--values", "train"])
    assert result.exit_code == 0, result.output
    assert "heldout templates, train values" in result.output
    assert CliRunner().invoke(app, ["synth", str(out), "-n", "1", "--values", "x"]).exit_code != 0


def test_a_full_name_is_one_span(train, heldout):
    """`Dr. [Ying-Yueh Sung]`, never `Dr. [Ying-Yueh] [Sung]` (annotation.md: `Ms. [Wang Mei-Ling]`):
    a one-word Latin name span is never followed, after one space, by another of the same label."""
    given_first = 0
    for r in train + heldout:
        for a, b in zip(r.spans, r.spans[1:]):
            if a.label in NAME_LABELS and b.label == a.label and r.text[a.end:b.start] == " ":
                assert not (a.text.isascii() and " " not in a.text and "," not in a.text), (r.id, a.start)
        given_first += sum(1 for s in r.spans if s.label in ("DOCTOR", "PATIENT")
                           and re.fullmatch(r"[A-Za-z]+-[A-Za-z]+ [A-Za-z]+", s.text) is not None)
    assert given_first > 20


def test_nationality_is_not_followed_by_its_own_suffix(train, heldout):
    """Chinese nationality values are whole words (`越南籍`, `台灣人`): a template never adds `籍`."""
    seen = 0
    for r in train + heldout:
        for s in r.spans:
            if s.label == "NATIONALITY" and s.text.endswith("籍"):
                seen += 1
                assert r.text[s.end:s.end + 1] != "籍", r.id
    assert seen > 10


def test_negative_slots_write_numbers_a_model_could_take_for_years():
    """TIME writes `2330` beside `23:30`, LAB four-digit counts, SCORE scales with their maximum: all
    outside every span, so the NER learns them as clock readings, values and scores, not DATE."""
    import re
    from random import Random

    from spacy_deid.synth.slots import SLOTS, Context

    ctx = Context(rng=Random(0), pools=None, patient=None, note_date=None)
    times = [SLOTS["TIME"](ctx) for _ in range(300)]
    labs = [SLOTS["LAB"](ctx) for _ in range(300)]
    scores = [SLOTS["SCORE"](ctx) for _ in range(300)]
    for pieces in times + labs + scores:
        assert [label for _, label, _ in pieces] == [None]
    time_texts = [pieces[0][0] for pieces in times]
    assert all(re.fullmatch(r"(?:[01][0-9]|2[0-3]):?[0-5][0-9]", t) for t in time_texts)
    assert {":" in t for t in time_texts} == {True, False}
    assert any(re.search(r"(?:WBC|ANC|CK) [0-9]{4}\b", pieces[0][0]) for pieces in labs)
    assert any(re.fullmatch(r"(?:PHQ-9|GAD-7): [0-9]{1,2}/(?:27|21)", pieces[0][0]) for pieces in scores)

