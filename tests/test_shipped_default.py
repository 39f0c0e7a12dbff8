"""The shipped default pipeline carries a snapshot of the rules (`deid/rules/patterns.json`, written when
it was assembled): it must be the pattern files of this version, or `spacy_deid.load()` would run
rules other than those the code and docs describe. Refresh it with `install-default` after
`spacy project run assemble`, or by writing the rules part (`rules.to_disk`)."""
import pytest
import srsly

import spacy_deid
from spacy_deid.loading import default_pipeline_path
from spacy_deid.rules.loading import load_patterns


def test_the_shipped_rules_are_this_versions_pattern_files():
    shipped = srsly.read_json(default_pipeline_path() / "deid" / "rules" / "patterns.json")
    current = [rule.to_dict() for rule in load_patterns("default")]
    assert [r["id"] for r in shipped] == [r["id"] for r in current]
    assert shipped == current


@pytest.fixture(scope="module")
def shipped():
    """The shipped default, loaded once for this module's end-to-end tests (the demo key: made-up notes)."""
    return spacy_deid.load(config={"components": {"deid": {"demo_key": True}}})


def test_the_default_replaces_every_part_of_an_english_address(shipped):
    """The address rules hold in the whole pipeline: no NER span of another kind or refine step takes the
    parts back (`Columbus` is a city here, not a person)."""
    text = "Lives at 4172 Maple Grove Rd, Apt 3B, Columbus, OH 43215; mail to PO Box 1193. She just turned 67."
    doc = shipped(text)
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("4172", "NUMBER"), ("Maple Grove Rd", "STREET"), ("3B", "NUMBER"), ("Columbus", "CITY"), ("OH", "STATE"),
        ("43215", "LOCATION"), ("1193", "NUMBER"), ("67", "AGE")]
    for part in ("4172", "Maple Grove", "3B", "Columbus", "43215", "1193"):  # an age under 90 may stay
        assert part not in doc._.deid_text, part


def test_a_company_takes_its_legal_suffix(shipped):
    """`Inc`, `LLC`, `Group` are type words of a business (`general_business_type_words_en`): the
    `institutions` rules grow a name the NER cut before them and label it by them."""
    doc = shipped("He works for Norvex Systems Inc as an engineer. Her son works at Kestrel Group in Boston.")
    assert [(e.text, e.label_) for e in doc.ents if e.label_ == "GENERAL_BUSINESS"] == [
        ("Norvex Systems Inc", "GENERAL_BUSINESS"), ("Kestrel Group", "GENERAL_BUSINESS")]
