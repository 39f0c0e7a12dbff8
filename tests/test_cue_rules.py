"""Cue rules (`spacy_deid.cues`): context heuristics as JSON rules run by one engine, read in
`deid.initialize(cue_rules=...)`, saved with the pipeline as editable files, validated on reading, and
linear in the text."""
import json
import re
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, Span

import spacy_deid
from spacy_deid.cues import CueRuleError, CueRuleSet, check_linear, default_cue_rules, read_cue_files
from spacy_deid.cues.labels import RELATION_GROUPS, honorific_beside, person_label, titled
from spacy_deid.refine import RefineStage
from spacy_deid.wordlists import WordLists, active_word_lists

from linear import assert_linear
from ner_spans import deid_after, doc_with_ents, ents_of, register_fake_ner

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
    assert {"jurisdictions", "titles", "workplaces", "care_or_study", "relations", "relation_after",
            "not_phi", "apposition", "departments", "edges", "institutions"} <= set(rules.groups)
    assert {f.name for f in rules.files} == {
        "ages.json", "care.json", "cued_spans.json", "departments.json", "edges.json", "given_names.json",
            "hospital_units.json",
        "institutions.json", "jurisdictions.json", "languages.json", "measurements.json",
        "month_words.json", "shapes.json", "public_numbers.json", "relations.json", "section_heads.json",
        "spoken_words.json", "study.json", "titles.json", "workplaces.json"}
    assert all((rule.labels or rule.finds) and (rule.yields or rule.yields_from or rule.yields_by or rule.drops) for rule in rules.rules)


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
    with pytest.raises(ValueError, match=r"\['titles'\].*groups: .*care_or_study"):
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
    (_rule(before=None), "needs a 'before', an 'after' or a bound's cue"),
    (_rule(before={"words": ["在"], "not_followed_by": ["長"]}), "not_followed_by reads after the cue"),
    (_rule(before=None, end_before={"words": ["局"], "min_length": 5, "max_length": 2}), "min_length is over"),
    (_rule(before={"regex": "[unclosed"}), "'before'"),
    (_rule(before={"regex": "{{NO_SUCH_FRAGMENT}}"}), "NO_SUCH_FRAGMENT"),
    (_rule(before={"regex": "{{lexicon:no_such_lexicon}}"}), "no lexicon 'no_such_lexicon'"),
    (_rule(contxt=["x"]), "unknown rule key"),
    (_rule(yields=None), "needs a non-empty string 'yields'"),
    (_rule(priority="high"), "priority must be an int"),
    (_rule(drops="yes"), "drops must be true or false"),
    (_rule(drops=True), "a rule that drops a span yields no label"),
    (_rule(text="(?:[A-Z]+)+"), "nested quantifier"),
    (_rule(sources=["ner", "surrogates"]), "sources must name one or more of"),
    (_rule(sources=[]), "sources must name one or more of"),
    (_rule(sources="ner"), "sources must be a list of non-empty strings"),
])
def test_a_malformed_rule_is_refused_naming_its_file_and_rule(tmp_path, rule, message):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    with pytest.raises(CueRuleError) as err:
        read_cue_files(path)
    assert "broken.json" in str(err.value) and "'r1'" in str(err.value) and message in str(err.value)


def test_yields_from_names_groups_of_the_set_without_chains_and_fragments_may_not_loop(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"rules": [_rule(yields_from=["astrology"])]}), encoding="utf8")
    with pytest.raises(CueRuleError, match=r"broken.json: cue rule 'r1': yields_from names groups the rules lack"):
        CueRuleSet(read_cue_files(path))
    path.write_text(json.dumps({"rules": [_rule(id="a", group="g1", yields_from=["g2"]),
                                          _rule(id="b", group="g2", yields_from=["g1"])]}), encoding="utf8")
    with pytest.raises(CueRuleError, match="may not read one itself"):
        CueRuleSet(read_cue_files(path))
    path.write_text(json.dumps({"fragments": {"LOOP": "a{{LOOP}}"}, "rules": [_rule(before={"regex": "{{LOOP}}"})]}),
                    encoding="utf8")
    with pytest.raises(CueRuleError, match="nested more than"):
        read_cue_files(path)
    # an older file's labeller name reads as the groups it stood for
    path.write_text(json.dumps({"rules": [_rule(yields_from="relation_label")]}), encoding="utf8")
    assert read_cue_files(path)[0].rules[0].yields_from == ("relations", "relation_after")


def test_a_regex_may_name_a_word_list_and_reads_the_lists_in_force(tmp_path):
    """`{{list:NAME}}` in a cue's regex is that word list of the lists in force, so one edit of a list
    changes every rule and step that reads it."""
    rule = _rule(before={"regex": "{{list:others_zh}}[ ]?"}, yields="PERSON")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    mine = CueRuleSet(read_cue_files(path))
    assert mine.apply("鄰居王大明", 2, 5, "CITY", "g") == (2, 5, "PERSON")
    assert mine.apply("牌搭子王大明", 3, 6, "CITY", "g") is None
    lists = WordLists.from_dicts({"others.json": {"lists": {"others_zh": ["牌搭子"]}}})
    with active_word_lists(lists):
        assert mine.apply("牌搭子王大明", 3, 6, "CITY", "g") == (3, 6, "PERSON")
        assert mine.apply("鄰居王大明", 2, 5, "CITY", "g") is None


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


def test_a_rule_whose_unless_holds_does_not_vote_and_vetoes_no_other_rule(tmp_path):
    """`apply` counts a rule's `unless` as `find` does: the rule stays out of the vote."""
    plain = {"id": "plain", "group": "g", "labels": ["CITY"], "text": "[a-z ]+", "drops": True}
    vetoed = dict(plain, id="vetoed", unless=["ordinary_words"])
    (tmp_path / "r.json").write_text(json.dumps({"rules": [vetoed]}), encoding="utf8")
    alone = CueRuleSet(read_cue_files(tmp_path))
    assert alone.apply("lives in heart", 9, 14, "CITY", "g") is None  # an ordinary word: vetoed
    assert alone.apply("lives in taipeh", 9, 15, "CITY", "g") == (9, 15, "")
    (tmp_path / "r.json").write_text(json.dumps({"rules": [vetoed, plain]}), encoding="utf8")
    both = CueRuleSet(read_cue_files(tmp_path))
    assert both.apply("lives in heart", 9, 14, "CITY", "g") == (9, 14, "")  # the other rule still drops it


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
    # `Dr` (group person_titles, priority 7) outranks a relation word after the name (priority 5): no disagreement
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


# Stands in for a trained NER that found a name and guessed its label.
NAME_NER = register_fake_ner("fake_ner_for_relation_rules", "林美玲", "PERSON")
GODDAUGHTER = "乾女兒林美玲來探望"  # 乾女兒 is no kinship word of the packaged lists
NEIGHBOUR = "鄰居林美玲來電"


def test_a_pipelines_relation_rules_label_its_names_and_an_edited_rule_changes_the_output(tmp_path):
    """Who a name is comes from the pipeline's `relations.json` (`cues/labels.relation_label`, in force
    while `deid` runs): an edit of the saved rule file changes the labels, and a pipeline saved before
    the file existed takes it from the package."""
    nlp = deid_after(NAME_NER, note_steps=["relations"])
    assert _labels(nlp, "案母林美玲來電") == [("林美玲", "FAMILY")]
    assert _labels(nlp, GODDAUGHTER) == [("林美玲", "FAMILY")]  # 探望: a third party to the care
    assert _labels(nlp, NEIGHBOUR) == [("林美玲", "PERSON")]
    nlp.to_disk(tmp_path / "p")
    saved = tmp_path / "p" / "deid" / "cue_rules" / "relations.json"
    data = json.loads(saved.read_text(encoding="utf8"))
    rule = next(r for r in data["rules"] if r["id"] == "other_person_before")
    rule["yields"] = "FAMILY"  # a hospital that writes its neighbours' names as family
    saved.write_text(json.dumps(data, ensure_ascii=False), encoding="utf8")
    assert _labels(spacy.load(tmp_path / "p"), NEIGHBOUR) == [("林美玲", "FAMILY")]
    assert _labels(nlp, NEIGHBOUR) == [("林美玲", "PERSON")]  # the first pipeline keeps its own rules
    saved.unlink()
    loaded = spacy.load(tmp_path / "p")
    assert {"relations", "relation_after", "third_party", "kin_address"} <= set(loaded.get_pipe("deid").cue_rules.groups)
    assert _labels(loaded, NEIGHBOUR) == [("林美玲", "PERSON")]


def test_not_before_and_not_after_keep_a_rule_from_holding(tmp_path):
    rule = _rule(before=None, after={"words": ["先生"]}, not_before={"regex": "(?:局|處)[ ]?", "window": 4},
                 not_after={"words": ["先生娘"]}, yields="FAMILY")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    mine = CueRuleSet(read_cue_files(path))
    assert mine.apply("與呂先生討論", 1, 2, "CITY", "g") == (1, 2, "FAMILY")
    assert mine.apply("社會局呂先生", 3, 4, "CITY", "g") is None
    assert mine.apply("社會局 呂先生", 4, 5, "CITY", "g") is None
    assert mine.apply("呂先生娘來了", 0, 1, "CITY", "g") is None  # a doctor's wife, not Mr Lu
    assert [r.to_dict() for r in CueRuleSet.from_dicts(mine.to_dicts()).rules] == [r.to_dict() for r in mine.rules]
    path.write_text(json.dumps({"rules": [_rule(not_before={"words": ["x"], "not_followed_by": ["y"]})]}),
                    encoding="utf8")
    with pytest.raises(CueRuleError, match="'not_before': not_followed_by"):
        read_cue_files(path)


def test_a_start_after_cut_and_cuts_of_one_label_compose(tmp_path):
    """`start_after` (a cue from the span's start) cuts the span after it, keeping `min_length` to
    `max_length` characters; the rules of a group that cut a span to one label compose; a rule that
    would also relabel it disagrees and keeps the span."""
    lead = _rule(id="lead", before=None, labels=["DEPARTMENT"], yields="DEPARTMENT",
                 start_after={"words": ["Ward"], "gap": "space", "min_length": 2, "max_length": 20})
    tail = _rule(id="tail", before=None, labels=["DEPARTMENT"], yields="DEPARTMENT",
                 end_before={"words": ["team"], "gap": "space", "closes": True, "min_length": 2, "max_length": 40})
    path = tmp_path / "cuts.json"
    path.write_text(json.dumps({"rules": [lead, tail]}), encoding="utf8")
    rules = CueRuleSet(read_cue_files(path))
    text = "seen by Ward Oncology team today"
    start, end = text.index("Ward"), text.index(" today")
    assert rules.apply(text, start, end, "DEPARTMENT", "g") == (text.index("Oncology"), text.index(" team"), "DEPARTMENT")
    assert rules.apply("Ward X", 0, 6, "DEPARTMENT", "g") is None  # one character would be left
    assert rules.apply("Wardrobe team", 0, 13, "DEPARTMENT", "g") == (0, 8, "DEPARTMENT")  # `Ward` is no word here
    assert [r.to_dict() for r in CueRuleSet.from_dicts(rules.to_dicts()).rules] == [r.to_dict() for r in rules.rules]
    # `crosses_end`: a cue the span ends inside of (`[交大研]究所`), not one inside it
    assert default_cue_rules().apply("讀交大研究所", 1, 4, "SCHOOL", "edges") == (1, 3, "SCHOOL")
    assert default_cue_rules().apply("讀交大研究所", 1, 6, "SCHOOL", "edges") == (1, 3, "SCHOOL")  # at its end
    # with `reach` the cue may start before the span: a word the span starts inside of
    assert default_cue_rules().apply("先生盧瑋來電", 1, 4, "FAMILY", "relation_word_in_span") == (2, 4, "FAMILY")
    assert default_cue_rules().apply("盧瑋來電", 0, 2, "FAMILY", "relation_word_in_span") is None
    relabel = _rule(id="relabel", before=None, labels=["DEPARTMENT"], yields="HOSPITAL",
                    after={"words": ["today"], "gap": "space"})
    path.write_text(json.dumps({"rules": [lead, tail, relabel]}), encoding="utf8")
    assert CueRuleSet(read_cue_files(path)).apply(text, start, end, "DEPARTMENT", "g") is None


@pytest.mark.parametrize("rule,message", [
    (_rule(start_after={"words": ["科別"], "min_length": 5, "max_length": 2}), "start_after: min_length is over"),
    (_rule(start_after={"words": ["科別"], "closes": True}), "unknown 'start_after' key"),
    (_rule(start_after={"words": ["科別"], "reach": 500}), "start_after.reach must be an int"),
    (_rule(before=None, end_before={"words": ["所"], "closes": True, "crosses_end": True}), "does not cross its end"),
    (_rule(yields=None, drops=True, start_after={"words": ["科別"]}), "a rule that drops a span yields no label"),
    (_rule(yields=None, yields_by="famous"), "yields_by names one of ['type_word']"),
    (_rule(yields_by="type_word"), "yields_by names one of"),
    (_rule(before=None, end_before={"words": ["所"]}, end_after={"words": ["所"]}), "not both"),
    (_rule(before=None, start_after={"words": ["所"]}, start_before={"words": ["所"]}), "not both"),
    (_rule(before=None, start_before={"words": ["所"], "not_followed_by": ["x"]}), "not_followed_by reads after"),
    (_rule(before=None, end_after={"words": ["所"], "reach": 0.5}), "end_after.reach must be an int"),
    (_rule(yields=None, drops=True, end_after={"words": ["所"]}), "a rule that drops a span yields no label"),
])
def test_a_malformed_bound_or_yields_by_is_refused(tmp_path, rule, message):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    with pytest.raises(CueRuleError, match=re.escape(message)):
        read_cue_files(path)


def test_end_after_grows_a_span_to_its_cue_and_yields_by_labels_it(tmp_path):
    """`end_after` grows the span to the end of a cue read at its end, or one starting up to `reach`
    characters inside it (keeping `min_length` before it); `yields_by` reads the label from the grown
    text; a group whose rules grow and cut one end keeps the span; a step keeps a span that would grow
    into the next entity."""
    grow = _rule(id="grow", before=None, labels=["CITY"], yields=None, yields_by="type_word",
                 end_after={"regex": "(?:{{list:school_type_words_zh}})", "reach": 2, "min_length": 2})
    path = tmp_path / "grow.json"
    path.write_text(json.dumps({"rules": [grow]}), encoding="utf8")
    rules = CueRuleSet(read_cue_files(path))
    assert rules.apply("讀南山高中二年級", 1, 3, "CITY", "g") == (1, 5, "SCHOOL")  # right after
    assert rules.apply("讀南山高中二年級", 1, 4, "CITY", "g") == (1, 5, "SCHOOL")  # stopped inside 高中
    assert rules.apply("讀南高中二年級", 1, 3, "CITY", "g") is None  # one character would precede the cue
    assert rules.apply("讀南山二年級", 1, 3, "CITY", "g") is None
    assert [r.to_dict() for r in CueRuleSet.from_dicts(rules.to_dicts()).rules] == [r.to_dict() for r in rules.rules]
    cut = _rule(id="cut", before=None, labels=["CITY"], yields="SCHOOL",
                end_before={"words": ["山"], "min_length": 1})
    path.write_text(json.dumps({"rules": [grow, cut]}), encoding="utf8")
    assert CueRuleSet(read_cue_files(path)).apply("讀南山高中二年級", 1, 3, "CITY", "g") is None
    stage = RefineStage(["cues:g"], [], rules)
    doc = doc_with_ents("讀南山高中二年級", [("南山", "CITY")])
    stage.refine_note(doc)
    assert ents_of(doc) == [("南山高中", "SCHOOL")]
    doc = doc_with_ents("讀南山高中二年級", [("南山", "CITY"), ("高中", "SCHOOL")])
    stage.refine_note(doc)
    assert ents_of(doc) == [("南山", "CITY"), ("高中", "SCHOOL")]


def test_start_before_grows_a_span_back_to_its_cue_unless_the_span_before_holds_it(tmp_path):
    """`start_before` grows the span to the start of a cue that ends where it starts (`edges.json`: a
    district's name cut short takes its first character); a span grown into the one before it stays
    as it was."""
    rules = default_cue_rules()
    assert rules.apply("住台南市歸仁區", 5, 7, "CITY", "edges") == (4, 7, "CITY")
    assert rules.apply("住在仁區", 2, 4, "CITY", "edges") is None  # a preposition before it
    assert rules.apply("台中市東區", 3, 5, "CITY", "edges") is None  # a direction names a district alone
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"rules": [_rule(before=None, start_before={"words": ["國立"]}, yields="SCHOOL")]}),
                    encoding="utf8")
    mine = CueRuleSet(read_cue_files(path))
    assert mine.apply("讀國立成功", 3, 5, "CITY", "g") == (1, 5, "SCHOOL")
    assert [r.to_dict() for r in CueRuleSet.from_dicts(mine.to_dicts()).rules] == [r.to_dict() for r in mine.rules]
    doc = doc_with_ents("讀國立成功", [("國立", "STATE"), ("成功", "CITY")])
    RefineStage(["cues:g"], [], mine).refine_note(doc)
    assert ents_of(doc) == [("國立", "STATE"), ("成功", "CITY")]



def test_a_rule_may_read_a_spans_shape_alone_and_listed_asks_for_a_word_of_a_list(tmp_path):
    """A rule with `text` or `listed` alone relabels or drops by the span's shape; `listed` holds only
    where the span's whole text is a word of the lists in force; a list the lists lack is refused when
    the rules are compiled for them, naming the file, the rule and the list."""
    shape = _rule(id="short", before=None, labels=["PERSON"], text="[A-Z]{2}", yields="HOSPITAL")
    listed = _rule(id="listed", before=None, labels=["CITY"], listed=["kinship_zh"], drops=True, yields=None)
    path = tmp_path / "shape.json"
    path.write_text(json.dumps({"rules": [shape, listed]}), encoding="utf8")
    rules = CueRuleSet(read_cue_files(path))
    assert rules.apply("at KH today", 3, 5, "PERSON", "g") == (3, 5, "HOSPITAL")
    assert rules.apply("at Kho today", 3, 6, "PERSON", "g") is None
    assert rules.apply("住在爸爸家", 2, 4, "CITY", "g") == (2, 4, "")  # a kinship word, no place
    assert rules.apply("住在台中", 2, 4, "CITY", "g") is None
    assert [r.to_dict() for r in CueRuleSet.from_dicts(rules.to_dicts()).rules] == [r.to_dict() for r in rules.rules]
    path.write_text(json.dumps({"rules": [dict(listed, listed=["no_such_list"])]}), encoding="utf8")
    with pytest.raises(CueRuleError, match=r"shape.json: cue rule 'listed': .*no_such_list"):
        CueRuleSet(read_cue_files(path)).apply("住在台中", 2, 4, "CITY", "g")
    path.write_text(json.dumps({"rules": [_rule(finds="[A-Z]+", labels=None, listed=["kinship_zh"])]}), encoding="utf8")
    with pytest.raises(CueRuleError, match="no 'listed'"):
        read_cue_files(path)


def test_a_pipeline_saved_before_a_step_became_rules_runs_as_it_did(tmp_path):
    """A rule folder saved before the `apposition` and `departments` steps read rules lacks their
    groups: the pipeline loads and takes the packaged ones."""
    nlp = _pipeline(("departments", "apposition"))
    nlp.to_disk(tmp_path / "p")
    folder = tmp_path / "p" / "deid" / "cue_rules"
    (folder / "departments.json").unlink()
    relations = json.loads((folder / "relations.json").read_text(encoding="utf8"))
    relations["rules"] = [r for r in relations["rules"] if r["group"] != "apposition"]
    (folder / "relations.json").write_text(json.dumps(relations), encoding="utf8")
    rules = spacy.load(tmp_path / "p").get_pipe("deid").cue_rules
    assert {"departments", "apposition"} <= set(rules.groups)
    assert rules.apply("科別 外科", 0, 5, "DEPARTMENT", "departments") == (3, 5, "DEPARTMENT")


def test_a_saved_rule_set_lacking_a_group_code_reads_takes_that_groups_packaged_rules():
    """A pipeline saved before a group existed (its `relations.json` without the `titled` rules, or
    without the file) runs as it did: the packaged rules of the groups code reads are added, and its own
    rules stay as saved."""
    saved = default_cue_rules().to_dicts()
    relations = saved["relations.json"]
    relations["rules"] = [r for r in relations["rules"] if r["group"] != "titled"]
    kinship = next(r for r in relations["rules"] if r["id"] == "kinship_before")
    kinship["yields"] = "PERSON"  # the saved pipeline's own edit
    rules = CueRuleSet.from_dicts(saved, complete=RELATION_GROUPS)
    assert "titled" in rules.groups
    assert len(rules) == len(default_cue_rules())
    assert rules.frame("陳先生", 0, 1, None, "titled") == "PERSON"
    assert rules.frame("wife Mary came", 5, 9, None, "relations") == "PERSON"
    assert CueRuleSet.from_dicts(saved).groups == sorted(set(default_cue_rules().groups) - {"titled"})
    del saved["relations.json"]
    assert set(RELATION_GROUPS) <= set(CueRuleSet.from_dicts(saved, complete=RELATION_GROUPS).groups)


@pytest.mark.parametrize("text,name,beside", [
    ("update Ms. Yang by phone", "Yang", True),
    ("王先生來電", "王", True),
    ("Dr. Yang saw her", "Yang", False),
    ("王醫師查房", "王", False),
    ("Adams Yang came", "Yang", False),  # `ms` ending a word is no honorific
])
def test_an_honorific_beside_a_name_is_read_from_the_rules(text, name, beside):
    start = text.index(name)
    assert honorific_beside(text, start, start + len(name)) is beside


# The packaged rules that drop a span (step `not_phi`): (text, the span, its label, dropped?).
# A NER span heading a line before a colon or a dash names the line's topic (`section_heads.json`).
SECTION_HEADS = [
    ("NEURO: alert, follows commands", "NEURO", "DEPARTMENT", True),
    ("pt resting\n  Heme: hct stable", "Heme", "HOSPITAL", True),
    ("CV - hr 80s sr\nresp: clear", "CV", "DEPARTMENT", True),
    ("CCU NPN: pt stable", "CCU NPN", "DEPARTMENT", True),
    ("pt resting\nheme: hct stable", "heme", "PERSON", True),  # a name's label, in lower case
    ("Dr. Smith: called back", "Smith", "DOCTOR", False),  # not the line's head
    ("Smith called at noon", "Smith", "DOCTOR", False),  # no colon or dash after it
    ("平安醫院: 會診", "平安醫院", "HOSPITAL", False),  # the rule reads Latin words only
    ("seen by Dr. Wu\nLee: agrees", "Lee", "DOCTOR", False),  # a capitalised name heading a line: a speaker
    ("I talked like this!\nMelanie: You saved my life", "Melanie", "PERSON", False),
    ('mika: "who are you?"', "mika", "PERSON", False),  # a speaker's words: a quotation
]
# A number right after the name of a measurement is its value (`measurements.json`).
MEASURED_VALUES = [
    ("on CPAP/PS overnight, FiO2 40%", "PS", "DEPARTMENT", True),  # pressure support
    ("weaned to PS 10/5 at noon", "PS", "DEPARTMENT", True),
    ("referred to PS for the wound flap", "PS", "DEPARTMENT", False),  # plastic surgery
    ("ID: T max 101.4, started on flagyl", "101.4", "DATE", True),
    ("fevers up to 102.7, pan cultured", "102.7", "DATE", True),
    ("resp: rr 23 - 28, sats 95%", "23 - 28", "DATE", True),
    ("vent: tv to 700, peep 5", "700", "ROOM", True),
    ("體溫38.5度, 血壓正常", "38.5", "DATE", True),
    ("CVP: 12, PAD 18", "12", "NUMBER", True),
    ("recheck INR 07/22.", "07/22", "DATE", True),  # right after the name: a value, as the date finder reads it
    ("體重 2096-03-19 48 kg", "2096-03-19", "DATE", False),  # another number follows: the value's date
    ("Wt 98.10 72 kg", "98.10", "DATE", False),
    ("admitted 110.03.02 for fever", "110.03.02", "DATE", False),  # no measurement's name before it
    ("rm 700 on the left", "700", "ROOM", False),
    ("58 yo, pt 58 years old", "58", "AGE", False),  # an age is not read
    ("last dose 2018.10, next due", "2018.10", "DATE", False),  # the date of a dose
    ("settings ac/500/14/5 now", "500", "ROOM", True),  # a value of a slashed series
    ("rm 12 / 3 bed", "3", "ROOM", False),  # a room's number
    ("resp: 4L nc with sats 96%", "4L", "ROOM", True),  # litres of a flow
    ("insulin gtt @ 7U/hr", "7U", "ROOM", True),
    ("moved to 7B ward", "7B", "ROOM", False),
    ("send ABG at 6:30am. Bun", "6:30am", "ROOM", True),  # a clock reading
    ("CCU\n11 PM - 7 AM", "7", "NUMBER", True),  # an hour, its half of the day after it
    # digits after a measurement's name, whatever the label; values with `.` or `/` read as dates
    ("FS 180 covered w/ 4 units SSI", "180", "ROOM", True),
    ("HR 78/min, RR 20", "78", "AGE", True),
    ("血壓 128 mmHg", "128", "NUMBER", True),
    ("Cr 1.2, eGFR 45, K 4.1", "45", "NUMBER", True),
    ("CK 1200 on day 2", "1200", "ROOM", True),
    ("pain score was 7 today", "7", "AGE", True),  # a linking word between name and value
    ("moved to room 302 today", "302", "ROOM", False),  # a room after a plain word stays
    ("Visit date 2020/1/2, PSY clinic 932", "932", "ROOM", False),
    ("Clozapine 滿 18 週, ANC 2100, 改為每月抽血", "2100", "DATE", True),  # a count that reads as a year
    ("WBC 2300, Hb 12.1", "2300", "DATE", True),
    ("TG 2000 mg/dL", "2000", "DATE", True),
    ("breast Ca 2019 s/p MRM", "2019", "DATE", False),  # Ca is cancer too: a year stays
    ("CA: 2019 s/p op", "2019", "DATE", False),
    ("unemployed since 2019", "2019", "DATE", False),
    ("HbA1c 1100305 7.2", "1100305", "DATE", False),  # a compact date: the date of the result
    ("Cr 20210305: 1.2", "20210305", "DATE", False),
    ("Tmax 101.2, blood cx x2 sent", "101.2", "DATE", True),
    ("BP 120/80, HR 88", "120/80", "DATE", True),
    ("MMSE 24/30 today", "24/30", "DATE", True),
    ("PHQ-9: 8/27, GAD-7: 11/21", "8/27", "DATE", True),  # rating scales with their maximum
    ("PHQ-9: 8/27, GAD-7: 11/21", "11/21", "DATE", True),
    ("BSRS-5 = 4/20 today", "4/20", "DATE", True),
    ("insight 1/4, judgment fair", "1/4", "DATE", True),
    ("admitted since 110.3.2", "110.3.2", "DATE", False),  # a Minguo date after no measurement word
    ("seen 3/14 in OPD", "3/14", "DATE", False),
    ("HbA1c 110/3/5 7.2", "110/3/5", "DATE", False),  # a full date: the date of the result
    ("BP 2021/12/25 120/80", "2021/12/25", "DATE", False),
    ("BP 12//80", "12//80", "DATE", False),  # no value is written with two marks together
    # a decade that is no one's is a vital sign's range; someone's is an age
    ("HR in the 70's, stable", "70", "AGE", True),
    ("SBP 90s-100s overnight", "90", "AGE", True),
    ("RR 20'S, NO DISTRESS", "20", "AGE", True),
    ("A woman in her 80's, lives alone", "80", "AGE", False),
    ("He is in his late 70s", "70", "AGE", False),
    ("pt's early 60s", "60", "AGE", False),
    ("age 70, admitted", "70", "AGE", False),  # no decade after it
    ("HR 75s", "75", "AGE", True),  # not a decade, but a value after a measurement's name
    ("seen at 75s", "75", "AGE", False),
    ("in the 70's", "70", "ROOM", False),  # only an age is read as a decade
]
# A hospital unit's abbreviation alone is no name and no named place (`hospital_units.json`).
HOSPITAL_UNITS = [
    ("transfer to CCU today", "CCU", "HOSPITAL", True),
    ("ccu team aware of k", "ccu", "SCHOOL", True),
    ("NEURO resident at bedside", "NEURO", "DOCTOR", True),
    ("transfer to CCU today", "CCU", "DEPARTMENT", True),  # the NER's unit alone; the department rules' spans stand
    ("Written by (hh/psy), Radiology", "psy", "DOCTOR", False),  # a physician's initials
    ("seen by Geri today", "Geri", "PERSON", False),  # capitalised: a name
    ("GI doc aware", "GI", "DOCTOR", False),  # two letters: initials as often
    ("admitted to NTUH", "NTUH", "HOSPITAL", False),
    ("lines pulled by HO, site clean", "HO", "DOCTOR", True),  # house officer: a role
    ("uo low, notified ho.", "ho", "PERSON", True),
    ("seen by Dr. HO today", "HO", "DOCTOR", False),  # a title: the surname
    ("HO CHIA-MING, 63 y/o", "HO", "PATIENT", False),  # a given name after it
    ("came over from the OSH by ambulance", "OSH", "HOSPITAL", True),  # a kind of place, no name
    ("moved back to stepdown tonight", "stepdown", "DEPARTMENT", True),
    ("referred to Lakeview Hospice today", "Lakeview Hospice", "HOSPITAL", False),  # a named one
]
# A span of interjections and fillers is no PHI (`spoken_words.json`, a rule of its shape alone).
SPOKEN_WORDS = [
    ("醫師：恩哼，所以應該是飲食的問題。", "恩哼", "DOCTOR", True),
    ("家屬：哈哈哈，好啦。", "哈哈哈", "SCHOOL", True),
    ("醫師：恩，恩，我幫你排。", "恩，恩", "PERSON", True),
    ("醫師：啊阿明，你這個月感覺怎麼樣？", "阿明", "PERSON", False),  # 阿 starts a nickname
    ("恩典醫院轉來", "恩典醫院", "HOSPITAL", False),  # an interjection's character inside a name
    ("哈小姐 85歲", "哈", "PATIENT", False),  # a title after it: 哈 is a surname
]


# The modal `may` is no month (`month_words.json`; WordNet's verbs, word list `verbs_en`).
MONTH_WORDS = [
    ("pt may require more diuretics tonight", "may", "DATE", True),
    ("SON MAY BE HCP, SW AWARE", "MAY", "DATE", True),
    ("May we call you back?", "May", "DATE", True),
    ("Clinic visit in May followed by labs", "May", "DATE", False),  # no verb's base form after it
    ("Planned since May need unchanged", "May", "DATE", False),  # a word of time before it
    ("May 5 recheck", "May", "DATE", False),
]


@pytest.mark.parametrize("text,found,label,dropped",
                         SECTION_HEADS + MEASURED_VALUES + HOSPITAL_UNITS + SPOKEN_WORDS + MONTH_WORDS)
def test_the_packaged_rules_drop_what_is_no_phi(text, found, label, dropped):
    stage = RefineStage(["not_phi"], [])
    doc = _doc_with_span(text, found, label)
    stage.refine_note(doc)
    assert [(e.text, e.label_) for e in doc.ents] == ([] if dropped else [(found, label)])


@pytest.mark.parametrize("text,found", [
    ("Return to NEPH clinic on Monday", "NEPH"),
    ("Department of SURG", "SURG"),
    ("會診 GI，Dr. Lin 建議", "GI"),  # before its physician, after a full-width comma
])
def test_a_unit_the_department_rules_found_is_kept(text, found):
    """A unit alone in the NER's spans is dropped (`HOSPITAL_UNITS`); the same unit where the department
    patterns read it (`patterns/departments.json`: a clinic, a department's field, its physician) is
    theirs and stays."""
    stage = RefineStage(["not_phi"], [])
    doc = _doc_with_span(text, found, "DEPARTMENT", source="rule")
    stage.refine_note(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [(found, "DEPARTMENT")]
    rules = spacy_deid.blank()
    rules.add_pipe("deid_rules")
    assert [(e.text, e.label_) for e in rules(text).ents if e.label_ == "DEPARTMENT"] == [(found, "DEPARTMENT")]


def _doc_with_span(text, found, label, source=None):
    """`_doc_of_words(text)` with one entity: `found`'s first occurrence, labelled `label`, from `source`."""
    start = text.index(found)
    doc = _doc_of_words(text)
    doc.ents = [doc.char_span(start, start + len(found), label=label)]
    if source is not None:
        doc.ents[0]._.source = source
    return doc


def _doc_of_words(text):
    """A doc whose tokens split digits from letters (`[90]s`, as the NER's tokenizer may not) and Han
    characters one by one."""
    words, spaces = [], []
    for piece in re.findall(r"[0-9]+|[A-Za-z]+|\s|\S", text):
        if piece == " " and words and not spaces[-1]:
            spaces[-1] = True
        else:
            words.append(piece)
            spaces.append(False)
    doc = Doc(spacy_deid.blank().vocab, words=words, spaces=spaces)
    assert doc.text == text
    return doc


@pytest.mark.parametrize("text,found,dropped", [
    ("ID: T max 101.4, started on flagyl", "101.4", True),  # the finder reads 101.4 as Minguo 101, April
    ("fevers up to 102.7, pan cultured", "102.7", True),
    ("衛教個案可撥打生命線1995。", "1995", True),  # a hotline's number read as a year
    ("seen on 110.5 at NTUH", "110.5", False),  # no measurement's name before it: a date
    ("born 1995 in Taipei", "1995", False),
])
def test_rules_that_read_the_date_finders_spans_drop_its_values_and_keep_its_dates(text, found, dropped):
    doc = _doc_with_span(text, found, "DATE", source="date")
    RefineStage(["not_phi"], []).refine_note(doc)
    assert [(e.text, e._.source) for e in doc.ents] == ([] if dropped else [(found, "date")])


def test_a_rule_reads_only_the_sources_it_names_and_saves_them(tmp_path):
    rule = {"id": "value_after_temp", "group": "no_phi", "labels": ["DATE"], "text": "[0-9.]+",
            "before": {"words": ["temp"], "gap": "space"}, "drops": True}
    (tmp_path / "ner_only" / "no_phi.json").parent.mkdir()
    (tmp_path / "ner_only" / "no_phi.json").write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    (tmp_path / "both" / "no_phi.json").parent.mkdir()
    (tmp_path / "both" / "no_phi.json").write_text(json.dumps({"rules": [{**rule, "sources": ["ner", "date"]}]}),
                                                   encoding="utf8")
    ner_only, both = CueRuleSet.from_path(tmp_path / "ner_only"), CueRuleSet.from_path(tmp_path / "both")
    text = "temp 101.2 po"
    assert ner_only.sources("no_phi") == {"ner"} and both.sources("no_phi") == {"ner", "date"}
    assert ner_only.apply(text, 5, 10, "DATE", "no_phi", "date") is None
    assert both.apply(text, 5, 10, "DATE", "no_phi", "date") == (5, 10, "")
    for rules, kept in ((ner_only, ["101.2"]), (both, [])):
        doc = _doc_with_span(text, "101.2", "DATE", source="date")
        RefineStage(["cues:no_phi"], [], cue_rules=rules).refine_note(doc)
        assert [e.text for e in doc.ents] == kept
    both.to_disk(tmp_path / "saved")
    saved = {rule.id: rule for rule in CueRuleSet.from_disk(tmp_path / "saved").rules}
    assert saved["value_after_temp"].sources == ("ner", "date")


def test_a_users_drop_rule_with_a_text_shape_removes_only_spans_of_that_shape(tmp_path):
    rule = {"id": "bare_room_number", "group": "no_phi", "labels": ["ROOM"], "text": "[0-9]+",
            "before": {"words": ["to"], "gap": "space"}, "drops": True}
    (tmp_path / "no_phi.json").write_text(json.dumps({"rules": [rule]}), encoding="utf8")
    rules = CueRuleSet.from_path(tmp_path)
    assert rules.apply("tv to 700 now", 6, 9, "ROOM", "no_phi") == (6, 9, "")
    assert rules.apply("moved to 7B now", 9, 11, "ROOM", "no_phi") is None  # not the shape
    assert rules.apply("moved from 700 now", 11, 14, "ROOM", "no_phi") is None  # not the cue
    assert rules.relabel("tv to 700 now", 6, 9, "ROOM", "no_phi") is None and rules.frame(
        "tv to 700 now", 6, 9, "ROOM", "no_phi") is None  # no label comes of a drop
    rules.to_disk(tmp_path / "saved")
    again = CueRuleSet.from_disk(tmp_path / "saved")
    assert [r.to_dict() for r in again.rules] == [r.to_dict() for r in rules.rules]
    stage = RefineStage(["cues:no_phi"], [], cue_rules=again)
    doc = spacy_deid.blank().make_doc("tv to 700 now")
    doc.ents = [doc.char_span(6, 9, label="ROOM")]
    stage.refine_note(doc)
    assert list(doc.ents) == []


@pytest.mark.parametrize("text,found,signed", [
    ("note written by (pcy/lch), Thoracic", "lch", True),
    ("note written by (pcy/lch), Thoracic", "pcy", True),
    ("2/5 13:00 by lyp (cosign)", "lyp", True),
    ("BP'S BY CUFF. CT'S TO SUX", "CUFF", False),  # four letters: a word, no initials
    ("family notified by the team", "team", False),
])
def test_initials_in_a_signature_count_as_titled(text, found, signed):
    """Group `titled` (`relations.json`, rule `signed_by`): initials after `by` stay a clinician's even
    where they spell a word of chart language (`spanshape.plain_word_name` keeps a titled name)."""
    start = text.rindex(found)
    assert titled(text, start, start + len(found)) is signed


@pytest.mark.parametrize("text,found,is_titled", [
    ("主治醫師: 王 負責", "王", True),  # a field: the role titles the name
    ("會診\n醫師：林 已看過", "林", True),
    ("對。醫師：血壓有比較好", "血壓", False),  # a speaker's turn in a dialogue, after a sentence's end
    ("好嗎？護理師：吃藥了嗎", "吃", False),
])
def test_a_speakers_turn_in_a_dialogue_titles_no_name(text, found, is_titled):
    start = text.index(found)
    assert titled(text, start, start + len(found)) is is_titled


@pytest.mark.parametrize("text,found,label", [
    ("   mr wu slept well overnight", "wu", "PERSON"),  # an honorific in lower case
    ("seen by mrs.lo today", "lo", "PERSON"),
    ("SEVERE MR DEXTRO NOTED", "DEXTRO", None),  # `MR` in capitals: mitral regurgitation as often
])
def test_an_honorific_in_lower_case_says_person(text, found, label):
    start = text.index(found)
    assert person_label(text, start, start + len(found)) == label
