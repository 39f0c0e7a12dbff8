"""Validated pattern recognizers (`deid_rules`): IDs, phones, e-mail, URLs, record numbers, rooms."""
from .component import DeidRules, make_deid_rules, rule_spans, score_rule_spans
from .loading import default_pattern_files, load_patterns
from .matcher import RuleMatch, compile_rules, find_matches
from .rule import PatternRule, RuleError
from .validators import Validators, make_default_validators, tw_id_check_digit, tw_id_checksum

__all__ = [
    "DeidRules", "make_deid_rules", "rule_spans", "score_rule_spans", "default_pattern_files",
    "load_patterns", "RuleMatch", "compile_rules", "find_matches", "PatternRule", "RuleError",
    "Validators", "make_default_validators", "tw_id_check_digit", "tw_id_checksum",
]
