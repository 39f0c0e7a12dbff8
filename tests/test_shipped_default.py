"""The shipped default pipeline carries a snapshot of the rules (`deid/rules/patterns.json`, written when
it was assembled): it must be the pattern files of this version, or `spacy_deid.load()` would run
rules other than those the code and docs describe. Refresh it with `install-default` after
`spacy project run assemble`, or by writing the rules part (`rules.to_disk`)."""
import srsly

from spacy_deid.loading import default_pipeline_path
from spacy_deid.rules.loading import load_patterns


def test_the_shipped_rules_are_this_versions_pattern_files():
    shipped = srsly.read_json(default_pipeline_path() / "deid" / "rules" / "patterns.json")
    current = [rule.to_dict() for rule in load_patterns("default")]
    assert [r["id"] for r in shipped] == [r["id"] for r in current]
    assert shipped == current
