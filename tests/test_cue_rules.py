"""Cue rules (`spacy_deid.cues`): context heuristics as JSON rules run by one engine, read in
`deid.initialize(cue_rules=...)`, saved with the pipeline as editable files, validated on reading, and
linear in the text."""
import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Span

import spacy_deid
from spacy_deid.cues import CueRuleError, CueRuleSet, check_linear, default_cue_rules, read_cue_files
from spacy_deid.refine import RefineStage

from linear import assert_linear
from ner_spans import deid_after, register_fake_ner

WORKS = "他在鼎泰豐上班三年"
MOONLIGHTS = "他在鼎泰豐兼差三年"  # 兼差 (a side job) is no word of work of the packaged rules


# Stands in for a trained NER that called a company a city.
CITY_NER = register_fake_ner("fake_ner_for_cue_rules", "鼎泰豐", "CITY")


def _pipeline(steps=("workplaces",)):
    return deid_after(CITY_NER, note_steps=list(steps))


def _labels(nlp, text):
    return [(e.text, e.label_) for e in nlp(text).ents]


def _add_work_word(path: Path, word: str) -> None:
    data = json.loads(path.read_text(encoding="utf8"))
    rule = next(r for r in data["rules"] if r["id"] == "work_zh")
    rule["after"]["words"].append(word)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf8")


def test_the_packaged_rules_hold_the_step_groups():
    rules = default_cue_rules()
    assert {"jurisdictions", "titles", "workplaces", "care_or_study"} <= set(rules.groups)
    assert {f.name for f in rules.files} == {
        "care.json", "jurisdictions.json", "study.json", "titles.json", "workplaces.json"}
    assert all(rule.labels and (rule.yields or rule.yields_from) for rule in rules.rules)


def test_a_saved_pipeline_carries_its_rules_and_an_edited_rule_file_changes_the_output(tmp_path):
    nlp = _pipeline()
    assert _labels(nlp, WORKS) == [("鼎泰豐", "GENERAL_BUSINESS")]
    assert _labels(nlp, MOONLIGHTS) == [("鼎泰豐", "CITY")]
    nlp.to_disk(tmp_path / "p")
    saved = tmp_path / "p" / "deid" / "cue_rules" / "workplaces.json"
    assert "上班" in saved.read_text(encoding="utf8")  # readable, editable JSON
    loaded = spacy.load(tmp_path / "p")
    assert len(loaded.get_pipe("deid").cue_rules) == len(default_cue_rules())
    assert _labels(loaded, WORKS) == [("鼎泰豐", "GENERAL_BUSINESS")]
    assert _labels(loaded, MOONLIGHTS) == [("鼎泰豐", "CITY")]
    _add_work_word(saved, "兼差")
    edited = spacy.load(tmp_path / "p")
    assert _labels(edited, MOONLIGHTS) == [("鼎泰豐", "GENERAL_BUSINESS")]
    # the edited rules travel on: saved again, and through bytes
    edited.to_disk(tmp_path / "q")
    assert _labels(spacy.load(tmp_path / "q"), MOONLIGHTS) == [("鼎泰豐", "GENERAL_BUSINESS")]
    fresh = _pipeline()
    fresh.get_pipe("deid").from_bytes(edited.get_pipe("deid").to_bytes())
    assert _labels(fresh, MOONLIGHTS) == [("鼎泰豐", "GENERAL_BUSINESS")]


def test_a_pipeline_saved_without_rules_keeps_the_packaged_ones(tmp_path):
    nlp = _pipeline()
    nlp.to_disk(tmp_path / "p")
    for path in (tmp_path / "p" / "deid" / "cue_rules").iterdir():
        path.unlink()
    (tmp_path / "p" / "deid" / "cue_rules").rmdir()
    assert len(spacy.load(tmp_path / "p").get_pipe("deid").cue_rules) == len(default_cue_rules())


def test_a_saved_rule_folder_without_a_configured_steps_group_is_refused_naming_the_step(tmp_path):
    nlp = _pipeline(("workplaces", "titles"))
    nlp.to_disk(tmp_path / "p")
    (tmp_path / "p" / "deid" / "cue_rules" / "titles.json").unlink()
    with pytest.raises(ValueError, match=r"\['titles'\].*groups: care_or_study"):
        spacy.load(tmp_path / "p")


def test_initialize_reads_a_users_file_over_the_packaged_ones_and_cues_group_runs_its_group(tmp_path):
    rule = {"id": "side_job", "group": "side_jobs", "labels": ["CITY"],
            "before": {"words": ["在"]}, "after": {"words": ["兼差"]}, "unless": ["known_place"],
            "yields": "GENERAL_BUSINESS"}
    (tmp_path / "mine.json").write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    nlp = _pipeline(steps=("workplaces", "cues:side_jobs"))
    nlp.get_pipe("deid").initialize(cue_rules=tmp_path / "mine.json")
    rules = nlp.get_pipe("deid").cue_rules
    assert len(rules) == len(default_cue_rules()) + 1 and "side_jobs" in rules.groups
    assert _labels(nlp, MOONLIGHTS) == [("鼎泰豐", "GENERAL_BUSINESS")]
    assert _labels(nlp, WORKS) == [("鼎泰豐", "GENERAL_BUSINESS")]  # the packaged rules still run
    with pytest.raises(ValueError, match="cues:GROUP"):
        _pipeline(steps=("no_such_step",))
    with pytest.raises(ValueError, match=r"\['cues:side_jobs'\]"):  # its rules were never given
        _pipeline(steps=("workplaces", "cues:side_jobs"))(MOONLIGHTS)


def _rule(**changes):
    rule = {"id": "r1", "group": "g", "labels": ["CITY"], "before": {"words": ["在"]}, "yields": "SCHOOL"}
    rule.update(changes)
    return {key: value for key, value in rule.items() if value is not None}


@pytest.mark.parametrize("rule,message", [
    (_rule(before={"regex": "(?:[A-Z]+)+"}), "nested quantifier"),
    (_rule(before={"words": ["在"], "windw": 10}), "unknown 'before' key"),
    (_rule(before={"words": ["在"], "window": 5000}), "window must be an int"),
    (_rule(unless=["is_famous"]), "unknown predicate 'is_famous'"),
    (_rule(labels=["TOWN"]), "unknown label 'TOWN'"),
    (_rule(yields="TOWN"), "yields unknown label"),
    (_rule(before=None), "needs a 'before', an 'after' or an 'end_before' cue"),
    (_rule(before={"words": ["在"], "not_followed_by": ["長"]}), "not_followed_by reads after the cue"),
    (_rule(before=None, end_before={"words": ["局"], "min_length": 5, "max_length": 2}), "min_length is over"),
    (_rule(before={"regex": "[unclosed"}), "'before'"),
    (_rule(before={"regex": "{{NO_SUCH_FRAGMENT}}"}), "NO_SUCH_FRAGMENT"),
    (_rule(contxt=["x"]), "unknown rule key"),
    (_rule(yields_from="astrology"), "unknown labeller 'astrology'"),
    (_rule(yields=None), "needs a non-empty string 'yields'"),
    (_rule(priority="high"), "priority must be an int"),
])
def test_a_malformed_rule_is_refused_naming_its_file_and_rule(tmp_path, rule, message):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    with pytest.raises(CueRuleError) as err:
        read_cue_files(path)
    assert "broken.json" in str(err.value) and "'r1'" in str(err.value) and message in str(err.value)


def test_a_broken_saved_rule_file_fails_loading_the_pipeline_naming_it(tmp_path):
    _pipeline().to_disk(tmp_path / "p")
    saved = tmp_path / "p" / "deid" / "cue_rules" / "study.json"
    saved.write_text(saved.read_text(encoding="utf8").replace('"study_after"', '"study_after", "windoe": 3'),
                     encoding="utf8")
    with pytest.raises(CueRuleError, match=r"study\.json: cue rule 'study_after'"):
        spacy.load(tmp_path / "p")
    saved.write_text("{not json", encoding="utf8")
    with pytest.raises(CueRuleError, match=r"study\.json: not valid JSON"):
        spacy.load(tmp_path / "p")


def test_duplicate_ids_are_refused(tmp_path):
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps({"rules": [_rule()]}), encoding="utf8")
    with pytest.raises(CueRuleError, match="'r1': id already used in a.json"):
        CueRuleSet(read_cue_files(tmp_path))


def test_the_linear_time_check():
    check_linear(r"[A-Za-z][A-Za-z-]*[ ](?:at|of)(?:[ ]in)?")
    for pattern in (r"(?:a+)+", r"(?:[0-9]{1,3}[ ]?)*", r"(?:(?:ab)*c)+"):
        with pytest.raises(ValueError):
            check_linear(pattern)


def test_disagreeing_rules_keep_the_span_and_an_unless_predicate_vetoes():
    rules = default_cue_rules()
    text = "Dr. Yang at 台大 醫學系"  # care (a physician of it) and study (a department of study)
    assert rules.relabel(text, 12, 14, "GENERAL_BUSINESS", "care_or_study") is None
    text = "transferred from Taipei"
    assert rules.frame(text, 17, 23, "LOCATION", "care_or_study") == "HOSPITAL"
    assert rules.relabel(text, 17, 23, "LOCATION", "care_or_study") is None  # a known place


@pytest.mark.parametrize("unit", [
    "A" * 50 + " ",  # a line typed in capitals
    "0" * 50 + " ",  # a long digit run
    "WORKS AT TRANSFERRED FROM (1) 在 ",  # cue words, again and again
    "Dr. Mrs. , MD , RN (brother) 王先生 ",  # titles, credentials, relation words
])
def test_the_cue_steps_are_linear_on_long_adversarial_text(unit):
    """Every token of a 200k-character text is a span the rules read (labels of every kind)."""
    stage = RefineStage(["workplaces", "care_or_study", "titles"], [])
    nlp = spacy_deid.blank()
    labels = ("CITY", "SCHOOL", "PERSON", "HOSPITAL")

    def run(n: int) -> None:
        doc = nlp.make_doc(unit * n + "IKEA")
        doc.ents = [Span(doc, t.i, t.i + 1, label=labels[t.i % 4]) for t in doc if not t.is_space]
        stage.refine_note(doc)
    assert_linear(run, 200_000 // len(unit))


def test_the_cue_steps_are_linear_in_the_number_of_spans():
    stage = RefineStage(["workplaces", "care_or_study", "titles"], [])
    nlp = spacy_deid.blank()

    def run(n: int) -> None:
        unit = "works at IKEA, transferred from 長庚, 就讀台大; "
        text = unit * n
        doc = nlp.make_doc(text)
        spans = []
        for i in range(n):
            for part, label in (("IKEA", "CITY"), ("長庚", "SCHOOL"), ("台大", "HOSPITAL")):
                start = i * len(unit) + unit.index(part)
                spans.append(doc.char_span(start, start + len(part), label=label))
        doc.ents = spans
        stage.refine_note(doc)
        assert [(e.text, e.label_) for e in doc.ents[:3]] == [
            ("IKEA", "GENERAL_BUSINESS"), ("長庚", "HOSPITAL"), ("台大", "SCHOOL")]
    assert_linear(run, 2000)


def test_a_boundary_rule_cuts_the_span_and_keeps_the_labels_it_names(tmp_path):
    rules = default_cue_rules()
    assert rules.apply("遭台中地方法院判緩刑", 1, 4, "SCHOOL", "jurisdictions") == (1, 3, "CITY")
    assert rules.apply("經加州法院判決", 1, 4, "STATE", "jurisdictions") == (1, 3, "STATE")
    rules.to_disk(tmp_path)  # written back as read: the boundary action and the kept labels too
    again = CueRuleSet.from_disk(tmp_path)
    assert [r.to_dict() for r in again.rules] == [r.to_dict() for r in rules.rules]
    assert again.apply("經加州法院判決", 1, 4, "STATE", "jurisdictions") == (1, 3, "STATE")


def test_priority_a_labeller_and_a_closing_cut(tmp_path):
    """Of the rules that hold, the highest priority votes; `yields_from` reads the label from the words
    around the span (falling back to `yields`; without it the rule holds only where the labeller speaks);
    a `closes` cut must run to the span's end."""
    rules = default_cue_rules()
    # `Dr` (priority 1) outranks a relation word after the name (priority -1): no disagreement
    assert rules.apply("Dr. Peter (brother) came", 4, 9, "CITY", "titles") == (4, 9, "DOCTOR")
    assert rules.apply("Grace and Peter (brother) came", 10, 15, "CITY", "titles") == (10, 15, "FAMILY")
    assert rules.apply("Moved to Kaohsiung today", 9, 18, "CITY", "titles") is None  # the labeller is silent
    # the title closes the span: the surname is kept, labelled by the words around it, else PERSON
    assert rules.apply("病人住在紀先生家中", 4, 7, "CITY", "titles") == (4, 5, "PERSON")
    assert rules.apply("案母表示病人之前在許老闆的工廠", 9, 12, "CITY", "titles") == (9, 10, "PERSON")
    assert rules.apply("王先生說完", 0, 4, "CITY", "titles") is None  # the title does not close the span
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"rules": [
        _rule(id="low", before={"words": ["在"]}, yields="SCHOOL"),
        _rule(id="high", before={"words": ["在"]}, yields="HOSPITAL", priority=1)]}), encoding="utf8")
    mine = CueRuleSet(read_cue_files(path))
    assert mine.apply("在某處", 1, 3, "CITY", "g") == (1, 3, "HOSPITAL")
    mine.to_disk(tmp_path / "out")  # written back as read
    assert [r.to_dict() for r in CueRuleSet.from_disk(tmp_path / "out").rules] == [r.to_dict() for r in mine.rules]
