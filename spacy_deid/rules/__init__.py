"""Validated pattern recognizers (`deid_rules`): IDs, phones, e-mail, URLs, record numbers, rooms.

The package's names load on first use (PEP 562): the passes read the pattern files (`rules.loading`,
`rules.phrases`) without loading the component and its validators, which read the passes.
"""
from importlib import import_module
from typing import Any

_WHERE = {
    "DeidRules": "component", "make_deid_rules": "component", "rule_spans": "component",
    "score_rule_spans": "component", "default_pattern_files": "loading", "load_patterns": "loading",
    "RuleMatch": "matcher", "compile_rules": "matcher", "find_matches": "matcher", "PatternRule": "rule",
    "RuleError": "rule", "Validators": "validators", "make_default_validators": "validators",
    "tw_id_check_digit": "validators", "tw_id_checksum": "validators",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)
