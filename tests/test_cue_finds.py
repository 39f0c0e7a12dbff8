"""Cue rules that add spans (`finds`): a span the words before it mark, where no recognizer found one.

The notes here are written for these tests; none comes from an evaluation corpus.
"""
import json

import pytest
from spacy.tokens import Span

import spacy_deid
from spacy_deid.cues import CueRuleError, CueRuleSet, default_cue_rules, read_cue_files
from spacy_deid.refine import RefineStage
from spacy_deid.refine.stage import DEFAULT_NOTE_STEPS

from linear import assert_linear

# A user's rule: a name after `sitter` (a companion hired to watch a patient) is a PERSON.
SITTER = {"id": "name_after_sitter", "group": "own_cues", "before": {"words": ["sitter"], "gap": "space"},
          "finds": "[A-Z][a-z]+", "unless": ["ordinary_words"], "yields": "PERSON"}


def _rules(tmp_path, *rules):
    (tmp_path / "own.json").write_text(json.dumps({"rules": list(rules)}), encoding="utf8")
    return CueRuleSet.from_path(tmp_path, over_defaults=False)


def _refined(text, steps=("cued_spans",), rules=None, ents=()):
    doc = spacy_deid.blank().make_doc(text)
    doc.ents = [doc.char_span(text.index(found), text.index(found) + len(found), label=label) for found, label in ents]
    RefineStage(list(steps), [], cue_rules=rules).refine_note(doc)
    return [(e.text, e.label_, e._.source) for e in doc.ents]


@pytest.mark.parametrize("text,added", [
    ("Dispo: transfer to Linwood 4 after lunch.", "Linwood"),
    ("PT TRANS TO KMH BY AMBULANCE", "KMH"),
    ("arrived to elmhurst at 0300 with family", "elmhurst"),
    ("Pt was admitted from Harlow Hospital yesterday", "Harlow Hospital"),
    ("transferred back to Brightwater for rehab", "Brightwater"),
    ("transfer to floor once a bed opens", None),  # an ordinary word: a kind of place
    ("TRANSFERRED TO MICU FOR CLOSER MONITORING", None),  # a unit's abbreviation
    ("admitted to ED, then to cath lab", None),
    ("came to see pt with wife", None),
    ("transferred to the OR at 1400", None),  # a word of grammar (`or`)
    ("she was admitted to our clinic for a week", None),  # a determiner, and a type word alone
    ("admitted to the Lakeview Clinic on 3/2", "Lakeview Clinic"),
    ("pt is followed at kmh for years", "kmh"),  # a place of care
    ("pt went to Linwood for cath", "Linwood"),  # a word of going, then `to`
    ("went into afib overnight", None),
    ("followed in an outpatient clinic since May", None),
])
def test_a_hospital_after_a_word_of_transfer_or_care_is_added_where_nothing_was_found(text, added):
    assert _refined(text) == ([(added, "HOSPITAL", "cued")] if added else [])


@pytest.mark.parametrize("text,added,label", [
    ("RETURNED TO WORK AT NORVEX LAST MONTH", "NORVEX", "GENERAL_BUSINESS"),
    ("works at the bakery on weekends", None, None),
    ("husband living in ridgeway, visits daily", "ridgeway", "CITY"),
    ("lives in town with her son", None, None),
])
def test_a_workplace_and_a_town_are_added_after_words_of_work_and_of_living(text, added, label):
    assert _refined(text) == ([(added, label, "cued")] if added else [])


def test_a_found_span_is_added_only_where_no_entity_stands():
    text = "transferred to Linwood 2 yesterday"
    assert _refined(text, ents=[("Linwood 2", "ROOM")]) == [("Linwood 2", "ROOM", None)]
    assert _refined(text, ents=[("yesterday", "DATE")]) == [("Linwood", "HOSPITAL", "cued"), ("yesterday", "DATE", None)]


def test_a_users_finds_rule_adds_its_spans_saves_and_loads(tmp_path):
    rules = _rules(tmp_path, SITTER)
    text = "sitter Marla at bedside; sitter Today arrived; sitter marla"
    # `Today` is an ordinary word; `marla` is not capitalised
    assert rules.find(text, "own_cues") == [(7, 12, "PERSON")]
    assert _refined(text, ["cues:own_cues"], rules) == [("Marla", "PERSON", "cued")]
    rules.to_disk(tmp_path / "saved")
    saved = json.loads((tmp_path / "saved" / "own.json").read_text(encoding="utf8"))["rules"][0]
    assert "labels" not in saved and saved["finds"] == "[A-Z][a-z]+"
    again = CueRuleSet.from_disk(tmp_path / "saved")
    assert again.find(text, "own_cues") == rules.find(text, "own_cues")


def test_a_finds_rule_reads_no_existing_span_and_its_other_cues_still_hold(tmp_path):
    rules = _rules(tmp_path, {**SITTER, "not_after": {"words": [" (agency)"]}})
    text = "sitter Marla (agency); sitter Nadia here"
    assert rules.find(text, "own_cues") == [(30, 35, "PERSON")]
    assert rules.apply(text, 7, 12, "CITY", "own_cues") is None  # a span found otherwise: not this rule's
    assert rules.frame(text, 7, 12, None, "own_cues") is None


def test_the_highest_priority_rules_that_find_a_span_must_agree_on_its_label(tmp_path):
    family = {**SITTER, "id": "sitter_is_family", "yields": "FAMILY"}
    assert _rules(tmp_path, SITTER, family).find("sitter Marla", "own_cues") == []
    assert _rules(tmp_path, SITTER, {**family, "priority": 1}).find("sitter Marla", "own_cues") == [(7, 12, "FAMILY")]


@pytest.mark.parametrize("rule,message", [
    ({**SITTER, "before": None}, "needs a 'before'"),
    ({**SITTER, "drops": True, "yields": None}, "neither drops"),
    ({**SITTER, "finds": "(?:[A-Z]+)+"}, "nested quantifier"),
    ({**SITTER, "finds": 3}, "finds must be a regex string"),
])
def test_a_malformed_finds_rule_is_refused_naming_its_file_and_rule(tmp_path, rule, message):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"rules": [{k: v for k, v in rule.items() if v is not None}]}), encoding="utf8")
    with pytest.raises(CueRuleError) as err:
        read_cue_files(path)
    assert "broken.json" in str(err.value) and "'name_after_sitter'" in str(err.value) and message in str(err.value)


@pytest.mark.parametrize("unit", [
    "A" * 50 + " ",  # a line typed in capitals
    "TRANSFERRED TO TRANSFERRED TO ",  # the cue again and again, each followed by the next cue
    "transfer to Linwood, ",  # a span found at every repetition
    "0" * 50 + " ",
])
def test_finding_spans_is_linear_on_long_adversarial_text(unit):
    stage = RefineStage(["cued_spans"], [])
    nlp = spacy_deid.blank()

    def run(n: int) -> None:
        doc = nlp.make_doc(unit * n)
        doc.ents = [Span(doc, t.i, t.i + 1, label="DATE") for t in doc if t.i % 7 == 0 and not t.is_space]
        stage.refine_note(doc)
    assert_linear(run, 200_000 // len(unit))


def test_the_packaged_finds_rules_are_in_the_default_steps():
    assert "cued_spans" in DEFAULT_NOTE_STEPS and "cued_spans" in default_cue_rules().groups
    assert all(rule.finds and rule.yields for rule in default_cue_rules().rules if rule.group == "cued_spans")
