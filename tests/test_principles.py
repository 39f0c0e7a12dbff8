"""Principles learned from annotated notes find the PHI of held-out notes written in the same frames;
a person reviews them; accepted ones run in `deid`, saved with the pipeline, and an edited file changes
what is found. The corpus is the tests' own: frames and values written here."""
import json
import random

import pytest
import spacy
from typer.testing import CliRunner

import spacy_deid
from spacy_deid.cli import app
from spacy_deid.corpus.records import PhiSpan, Record
from spacy_deid.corpus.jsonl import write_jsonl
from spacy_deid.principles import (Principle, PrincipleError, PrincipleMatcher, learn_principles, read_principles,
                                   span_shape, write_principles)

from linear import assert_linear

SURNAMES = ["王", "陳", "林", "黃", "張", "李", "吳", "劉", "蔡", "楊", "許", "鄭", "謝", "郭", "洪", "歐陽"]
GIVEN = list("志明美玲家豪淑芬俊宏雅婷冠宇佳穎建華怡君")
FIRST = ["Amy", "Brian", "Carol", "David", "Emma", "Frank", "Grace", "Henry", "Irene", "Jason", "Kevin", "Laura"]
LAST = ["Lin", "Chen", "Wang", "Huang", "Chang", "Lee", "Wu", "Liu", "Tsai", "Yang", "Hsu", "Cheng"]
# (frame, label); {} is the PHI value, of the kind the third field names
FRAMES = [
    ("配偶: {}陪同就診。", "FAMILY", "zh"),
    ("今日由{}醫師看診。", "DOCTOR", "zh"),
    ("病人{}主訴頭痛三天。", "PATIENT", "zh"),
    ("His daughter {} called the ward.", "FAMILY", "en"),
    ("Dr. {} saw the patient this morning.", "DOCTOR", "en"),
    ("入院日期: {}, 住院中。", "DATE", "date"),
]
FILLER = ["配偶: 無。", "今日由護理師衛教。", "病人主訴頭痛三天。", "His daughter called the ward.",
          "The patient saw the doctor this morning.", "入院日期: 不詳, 住院中。", "生命徵象穩定。"]


def _value(kind: str, rng: random.Random) -> str:
    if kind == "zh":
        return rng.choice(SURNAMES) + "".join(rng.sample(GIVEN, rng.choice((1, 2))))
    if kind == "en":
        return f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    return f"{rng.randint(100, 112)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"


def _corpus(n: int, seed: int):
    rng = random.Random(seed)
    records = []
    for i in range(n):
        text, spans = "", []
        for frame, label, kind in rng.sample(FRAMES, 3):
            text += rng.choice(FILLER) + " "
            value = _value(kind, rng)
            start = len(text) + frame.index("{}")
            spans.append(PhiSpan(start, start + len(value), label, value))
            text += frame.format(value) + " "
        records.append(Record(id=f"n{seed}-{i}", text=text.strip(), spans=spans))
    return records


@pytest.fixture(scope="module")
def learned():
    return learn_principles(_corpus(60, seed=1), min_support=2, min_precision=0.9)


def test_shapes_abstract_the_value_and_keep_its_kind():
    assert span_shape("陳志明") == "S1+G" and span_shape("陳明") == "S1+G" and span_shape("歐陽娜娜") == "S2+G"
    assert span_shape("Amy Lin") == "Aa Aa" and span_shape("NTUH") == "A"
    assert span_shape("110.03.02") == "9{3}.9{2}.9{2}" and span_shape("台北市") == "H3"


def test_learned_principles_are_readable_and_scored(learned):
    readable = {p.readable() for p in learned}
    assert "[S1+G]醫師 -> DOCTOR" in readable and "[Aa Aa] saw -> DOCTOR" in readable
    for principle in learned:
        assert principle.precision >= 0.9 and principle.support >= 2 and principle.status == "candidate"
        assert principle.left or principle.right


def test_learned_principles_find_the_held_out_phi_of_the_same_frames(learned):
    held_out = _corpus(30, seed=2)
    for principle in learned:
        principle.status = "accepted"
    matcher = PrincipleMatcher(learned)
    gold = {(r.id, s.start, s.end, s.label) for r in held_out for s in r.spans}
    found = {(r.id, s, e, label) for r in held_out for s, e, label in matcher.find(r.text)}
    assert len(gold & found) / len(gold) >= 0.9
    assert len(gold & found) / len(found) >= 0.9


def test_only_accepted_principles_run():
    text = "配偶: 陳志明陪同就診。"
    candidate = Principle("配偶: ", "S1+G", "", "FAMILY")
    assert PrincipleMatcher([candidate]).find(text) == []
    candidate.status = "accepted"
    assert PrincipleMatcher([candidate]).find(text) == [(4, 7, "FAMILY")]


def test_the_more_precise_principle_decides_the_label():
    text = "今日由陳志明醫師看診。"
    doctor = Principle("", "S1+G", "醫師", "DOCTOR", support=5, precision=0.99, status="accepted")
    patient = Principle("今日由", "S1+G", "", "PATIENT", support=9, precision=0.8, status="accepted")
    assert PrincipleMatcher([patient, doctor]).find(text) == [(3, 6, "DOCTOR")]


def test_deid_runs_accepted_principles_and_saves_them_with_the_pipeline(tmp_path):
    text = "簽收人 陳志明 已簽。"  # a frame no rule or cue of the package reads
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    nlp.initialize()
    assert list(nlp(text).ents) == []
    nlp.get_pipe("deid").add_principles([{"left": "簽收人 ", "shape": "S1+G", "right": "", "label": "FAMILY",
                                          "status": "accepted"}])
    doc = nlp(text)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [("陳志明", "FAMILY", "principle")]
    nlp.to_disk(tmp_path / "p")
    assert json.loads((tmp_path / "p" / "deid" / "principles.json").read_text("utf8"))[0]["label"] == "FAMILY"
    loaded = spacy.load(tmp_path / "p")
    assert [(e.text, e.label_) for e in loaded(text).ents] == [("陳志明", "FAMILY")]
    # a person edits the saved file: the principle now names the patient
    edited = read_principles(tmp_path / "p" / "deid" / "principles.json")
    edited[0].label = "PATIENT"
    write_principles(edited, tmp_path / "p" / "deid" / "principles.json")
    assert [(e.text, e.label_) for e in spacy.load(tmp_path / "p")(text).ents] == [("陳志明", "PATIENT")]
    restored = spacy_deid.blank()
    restored.add_pipe("deid", config={"surrogates": False}).from_bytes(nlp.get_pipe("deid").to_bytes())
    assert len(restored.get_pipe("deid").principles) == 1


def test_a_bad_principle_file_names_the_principle(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"left": "Dr. ", "shape": "Aa", "right": "", "label": "DOCTOR"},
                                {"left": "", "shape": "Aa", "right": "", "label": "DOCTOR"}]), "utf8")
    with pytest.raises(PrincipleError, match=r"principle 1: .*context"):
        read_principles(path)
    path.write_text("{not json", "utf8")
    with pytest.raises(PrincipleError, match="cannot read"):
        read_principles(path)


def test_the_cli_learns_reviews_and_applies(tmp_path):
    corpus, out = tmp_path / "corpus.jsonl", tmp_path / "principles.json"
    write_jsonl(_corpus(40, seed=3), corpus)
    runner = CliRunner()
    result = runner.invoke(app, ["principles", "learn", str(corpus), str(out)])
    assert result.exit_code == 0, result.output
    learned = read_principles(out)
    assert learned and all(p.status == "candidate" for p in learned)
    # a person: accept the first, reject the second, then stop
    result = runner.invoke(app, ["principles", "review", str(out)], input="a\nr\nq\n")
    assert result.exit_code == 0, result.output
    statuses = [p.status for p in read_principles(out)]
    assert statuses[:2] == ["accepted", "rejected"] and set(statuses[2:]) <= {"candidate"}
    result = runner.invoke(app, ["principles", "review", str(out), "--accept-min-precision", "0.95"])
    assert result.exit_code == 0, result.output
    reviewed = read_principles(out)
    assert all(p.status == "accepted" for p in reviewed[2:] if p.precision >= 0.95)
    assert reviewed[1].status == "rejected"
    blank_dir = tmp_path / "blank"
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    nlp.to_disk(blank_dir)
    result = runner.invoke(app, ["principles", "apply", str(out), str(blank_dir), str(tmp_path / "with")])
    assert result.exit_code == 0, result.output
    assert len(spacy.load(tmp_path / "with").get_pipe("deid").principles) == sum(
        p.status == "accepted" for p in reviewed)


@pytest.mark.parametrize("unit", ["陳", "A", "1", "Aa "])
def test_cost_grows_linearly_on_long_runs(unit):
    principles = [Principle("配偶: ", "S1+G", "", "FAMILY", status="accepted"),
                  Principle("", "Aa Aa", " called", "FAMILY", status="accepted"),
                  Principle("入院日期: ", "9{3}.9{2}.9{2}", "", "DATE", status="accepted")]
    matcher = PrincipleMatcher(principles)

    def run(n):
        matcher.find("配偶: " + unit * n)
    assert_linear(run, 20000)


def test_no_context_holds_another_spans_characters():
    records = [Record(id=f"r{i}", text=f"配偶{name}陪同。", spans=[PhiSpan(2, 2 + len(name), "FAMILY", name)])
               for i, name in enumerate(["陳志明", "林美玲", "王大明"])]
    # a note where two names stand side by side: neither may become the other's context
    records += [Record(id=f"s{i}", text=f"配偶{a}{b}陪同。", spans=[PhiSpan(2, 5, "FAMILY", a), PhiSpan(5, 8, "FAMILY", b)])
                for i, (a, b) in enumerate([("陳志明", "林美玲"), ("王大明", "張家豪")])]
    values = {s.text for r in records for s in r.spans}
    for principle in learn_principles(records, min_support=2, min_precision=0.5):
        assert not any(c in principle.left + principle.right for v in values for c in v[1:])
