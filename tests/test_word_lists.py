"""Word lists (`spacy_deid.wordlists`): the vocabularies the recognition steps read, as data files read
in `deid.initialize(word_lists=...)`, saved with the pipeline as editable JSON, validated on reading,
and in force only while their own pipeline runs."""
import json
from pathlib import Path

import pytest
import spacy

from spacy_deid.cues import CueRuleError
from spacy_deid.cues.labels import relation_label
from spacy_deid.wordlists import (WordListError, WordLists, active_word_lists, current_word_lists,
                                  default_word_lists, read_word_list_files)

from ner_spans import deid_after, register_fake_ner

# `godmother` is no relation word of the packaged lists: a name after it says nothing of FAMILY.
GODMOTHER = "Seen with his godmother Mary Chen today."
NAME = (GODMOTHER.index("Mary"), GODMOTHER.index(" today"))


# Stands in for a trained NER that called the godmother the patient.
GODMOTHER_NER = register_fake_ner("fake_ner_for_word_lists", "Mary Chen", "PATIENT")


def _labels(nlp, text):
    return [(e.text, e.label_) for e in nlp(text).ents]


def _add_word(path: Path, list_name: str, word: str) -> None:
    data = json.loads(path.read_text(encoding="utf8"))
    data["lists"][list_name].append(word)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf8")


def test_the_packaged_lists_are_read_by_name_and_per_language():
    lists = default_word_lists()
    assert {"kinship_zh", "kinship_en", "others_zh", "others_en", "physician_titles_zh",
            "honorifics_zh"} <= set(lists.names)
    assert "wife" in lists["kinship_en"] and "配偶" in lists["kinship_zh"]
    both = lists.words("kinship_zh", "kinship_zh")
    assert both == lists["kinship_zh"]  # each word once
    assert lists.word_set("kinship_zh", "kinship_en") == frozenset(lists["kinship_zh"] + lists["kinship_en"])
    assert lists.word_set("kinship_zh") is lists.word_set("kinship_zh")  # built once per set
    with pytest.raises(KeyError, match="no word list 'nope'"):
        lists["nope"]


def test_lists_in_force_change_what_the_steps_read(tmp_path):
    assert relation_label(GODMOTHER, *NAME) is None
    user = tmp_path / "relations.json"
    data = default_word_lists().to_dicts()["relations.json"]
    data["lists"]["kinship_en"].append("godmother")
    user.write_text(json.dumps(data, ensure_ascii=False), encoding="utf8")
    edited = WordLists.from_path(user)
    with active_word_lists(edited):
        assert current_word_lists() is edited
        assert relation_label(GODMOTHER, *NAME) == "FAMILY"
    # outside the block the packaged lists are in force again
    assert relation_label(GODMOTHER, *NAME) is None


def test_a_saved_pipeline_carries_its_lists_and_an_edited_list_changes_the_output(tmp_path):
    nlp = deid_after(GODMOTHER_NER, note_steps=["relations"])
    assert _labels(nlp, GODMOTHER) == [("Mary Chen", "PATIENT")]
    nlp.to_disk(tmp_path / "p")
    saved = tmp_path / "p" / "deid" / "word_lists" / "relations.json"
    assert "wife" in saved.read_text(encoding="utf8")  # readable, editable JSON
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("deid").word_lists.names == default_word_lists().names
    assert _labels(loaded, GODMOTHER) == [("Mary Chen", "PATIENT")]
    _add_word(saved, "kinship_en", "godmother")
    edited = spacy.load(tmp_path / "p")
    assert _labels(edited, GODMOTHER) == [("Mary Chen", "FAMILY")]
    # two pipelines in one process keep their own lists
    assert _labels(loaded, GODMOTHER) == [("Mary Chen", "PATIENT")]
    # the edited lists travel on: saved again, and through bytes
    edited.to_disk(tmp_path / "q")
    assert _labels(spacy.load(tmp_path / "q"), GODMOTHER) == [("Mary Chen", "FAMILY")]
    fresh = deid_after(GODMOTHER_NER, note_steps=["relations"])
    fresh.get_pipe("deid").from_bytes(edited.get_pipe("deid").to_bytes())
    assert _labels(fresh, GODMOTHER) == [("Mary Chen", "FAMILY")]


def test_initialize_reads_a_users_file_over_the_packaged_ones(tmp_path):
    user = tmp_path / "mine"
    user.mkdir()
    data = default_word_lists().to_dicts()["relations.json"]
    data["lists"]["kinship_en"].append("godmother")
    (user / "relations.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf8")
    nlp = deid_after(GODMOTHER_NER, note_steps=["relations"])
    nlp.get_pipe("deid").initialize(word_lists=user)
    assert _labels(nlp, GODMOTHER) == [("Mary Chen", "FAMILY")]
    assert "titles.json" in {f.name for f in nlp.get_pipe("deid").word_lists.files}  # the others stay


def test_a_pipeline_saved_without_lists_keeps_the_packaged_ones(tmp_path):
    nlp = deid_after(GODMOTHER_NER, note_steps=["relations"])
    nlp.to_disk(tmp_path / "p")
    folder = tmp_path / "p" / "deid" / "word_lists"
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    assert spacy.load(tmp_path / "p").get_pipe("deid").word_lists.names == default_word_lists().names


@pytest.mark.parametrize("content, message", [
    ("{", r"not valid JSON \(line 1"),
    ('{"lists": []}', "an object with a 'lists' object"),
    ('{"lists": {}, "rules": []}', r"unknown key\(s\) \['rules'\]"),
    ('{"lists": {"Kinship": ["wife"]}}', "list 'Kinship': a list name is lower-case"),
    ('{"lists": {"kinship_en": ["wife", " son"]}}', "list 'kinship_en': a list of non-empty words"),
    ('{"lists": {"kinship_en": ["wife", ""]}}', "list 'kinship_en': a list of non-empty words"),
    ('{"lists": {"kinship_en": ["wife", "wife"]}}', r"list 'kinship_en': 1 word\(s\) listed twice"),
])
def test_a_broken_file_is_refused_naming_the_file_and_the_list(tmp_path, content, message):
    path = tmp_path / "relations.json"
    path.write_text(content, encoding="utf8")
    with pytest.raises(WordListError, match=message) as err:
        WordLists.from_path(path)
    assert "relations.json" in str(err.value)
    assert "wife" not in str(err.value)  # names the list, not its words


def test_a_list_the_files_lack_comes_from_the_package(tmp_path):
    """A pipeline saved by a version with fewer lists, or a user's file that leaves one out, still runs."""
    path = tmp_path / "relations.json"
    path.write_text('{"lists": {"kinship_en": ["godmother"]}}', encoding="utf8")
    lists = WordLists.from_path(path)
    assert lists["kinship_en"] == ("godmother",)
    assert lists["kinship_zh"] == default_word_lists()["kinship_zh"]
    assert lists.names == default_word_lists().names
    saved = tmp_path / "saved"
    saved.mkdir()
    path.rename(saved / "relations.json")
    assert WordLists.from_disk(saved).names == default_word_lists().names
    with active_word_lists(WordLists.from_disk(saved)):
        assert relation_label(GODMOTHER, *NAME) == "FAMILY"
        wife = "Seen with his wife Mary Chen today."
        name = (wife.index("Mary"), wife.index(" today"))
        assert relation_label(wife, *name) is None  # `wife` is no longer a word of the list
    assert relation_label(wife, *name) == "FAMILY"


def test_a_list_name_is_unique_across_files(tmp_path):
    (tmp_path / "extra.json").write_text('{"lists": {"kinship_en": ["wife"]}}', encoding="utf8")
    with pytest.raises(WordListError, match="extra.json.*'kinship_en': name already used in relations.json|"
                                            "relations.json.*'kinship_en': name already used in extra.json"):
        WordLists.from_path(tmp_path)


def test_lists_round_trip_through_a_folder_and_stale_files_go(tmp_path):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "old.json").write_text('{"lists": {"old_words_en": ["x"]}}', encoding="utf8")
    default_word_lists().to_disk(folder)
    assert not (folder / "old.json").exists()
    back = WordLists.from_disk(folder)
    assert back.to_dicts() == default_word_lists().to_dicts()
    assert [f.name for f in read_word_list_files(folder)] == sorted(f.name for f in back.files)
    with pytest.raises(WordListError, match="no such word list file"):
        read_word_list_files(tmp_path / "missing")


SECRETARY = "今天與許幹事討論"  # 幹事 (an officer, a secretary) is no title of the packaged lists


# Stands in for a trained NER that read a surname and its title as a business.
SURNAME_NER = register_fake_ner("fake_ner_for_titled_surname", "許幹事", "GENERAL_BUSINESS")


def test_cue_rules_read_the_pipelines_word_lists(tmp_path):
    """The `titles` cue rules name the title lists (`"lists"`), so one edit of a list reaches the rules."""
    nlp = deid_after(SURNAME_NER, note_steps=["titles"])
    assert _labels(nlp, SECRETARY) == [("許幹事", "GENERAL_BUSINESS")]
    nlp.to_disk(tmp_path / "p")
    _add_word(tmp_path / "p" / "deid" / "word_lists" / "titles.json", "other_titles_zh", "幹事")
    edited = spacy.load(tmp_path / "p")
    assert _labels(edited, SECRETARY) == [("許", "PERSON")]
    assert _labels(nlp, SECRETARY) == [("許幹事", "GENERAL_BUSINESS")]  # the other pipeline's lists stand


def test_a_cue_rule_naming_a_list_the_pipeline_lacks_is_refused_naming_rule_and_list(tmp_path):
    rules = tmp_path / "mine.json"
    rules.write_text(json.dumps({"rules": [{
        "id": "officer_title", "group": "titles", "labels": ["GENERAL_BUSINESS"], "yields": "PERSON",
        "end_before": {"lists": ["officer_titles_zh"], "min_length": 1, "max_length": 2, "closes": True}}]}),
        encoding="utf8")
    nlp = deid_after(SURNAME_NER, note_steps=["titles"])
    with pytest.raises(CueRuleError, match=r"mine.json: cue rule 'officer_title': .*no word list 'officer_titles_zh'"):
        nlp.get_pipe("deid").initialize(cue_rules=rules)
    # a user's word lists may hold the list the rule names
    lists = tmp_path / "officers.json"
    lists.write_text('{"lists": {"officer_titles_zh": ["幹事"]}}', encoding="utf8")
    nlp.get_pipe("deid").initialize(cue_rules=rules, word_lists=lists)
    assert _labels(nlp, SECRETARY) == [("許", "PERSON")]
