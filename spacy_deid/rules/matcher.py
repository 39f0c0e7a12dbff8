"""The plain function behind `deid_rules`: run every rule over a text, return validated character spans.

Kept apart from the component so it can be tested (and timed on adversarial input) without spaCy.
"""
import re
from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from .rule import PatternRule
from .validators import Validators

_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


class RuleMatch(NamedTuple):
    start: int
    end: int
    label: str
    rule_id: str


@dataclass(frozen=True)
class CompiledRule:
    rule: PatternRule
    regex: "re.Pattern[str]"
    context: tuple  # lower-cased context words


def compile_rules(rules: Sequence[PatternRule], validators: Validators) -> List[CompiledRule]:
    compiled = []
    for rule in rules:
        if rule.validator is not None:
            validators.get(rule.validator)  # fail at load time, naming the validator, not mid-batch
        compiled.append(CompiledRule(rule, rule.compile(), tuple(c.lower() for c in rule.context)))
    return compiled


def _word_at(haystack: str, word: str, pos: int) -> bool:
    """A Latin context word must stand alone (`ID` must not fire inside `said` or `IDA`)."""
    if word[0] in _ASCII_ALNUM and pos > 0 and haystack[pos - 1] in _ASCII_ALNUM:
        return False
    end = pos + len(word)
    if word[-1] in _ASCII_ALNUM and end < len(haystack) and haystack[end] in _ASCII_ALNUM:
        return False
    return True


def has_context(text: str, start: int, words: Sequence[str], window: int) -> bool:
    """Whether one of `words` (lower-cased) occurs in the `window` characters before `start`."""
    if not words:
        return False
    haystack = text[max(0, start - window):start].lower()
    for word in words:
        pos = haystack.find(word)
        while pos != -1:
            if _word_at(haystack, word, pos):
                return True
            pos = haystack.find(word, pos + 1)
    return False


def _decide(crule: CompiledRule, text: str, start: int, end: int, validators: Validators) -> bool:
    rule = crule.rule
    verdict: Optional[bool] = None
    if rule.validator is not None:
        verdict = validators.get(rule.validator)(text, start, end)
    if verdict is not None:
        return verdict
    if rule.context_required:
        return has_context(text, start, crule.context, rule.context_window)
    return True


def find_matches(text: str, rules: Sequence[CompiledRule], validators: Validators) -> List[RuleMatch]:
    """Every accepted candidate of every rule, sorted by (start, end, label, rule id).

    Where rules give the same span, the one whose whole match read the most text keeps it: a label
    before the number says what it is (`MRN: <an SSN's shape>` is a record number, `member ID: ...` a
    health plan's), so no rule has to list the labels of the others to step aside. Other overlaps are
    kept: the pipeline's one overlap policy resolves them together with NER and dates.
    """
    read: Dict[Tuple[int, int], int] = {}  # a span -> the longest whole match that gave it
    found: Dict[RuleMatch, int] = {}
    for crule in rules:
        rule = crule.rule
        for m in crule.regex.finditer(text):
            start, end = m.span(rule.group)
            if start < 0:  # the PHI group did not take part in this alternative
                continue
            if rule.strip_trailing:
                while end > start and text[end - 1] in rule.strip_trailing:
                    end -= 1
            if end <= start:
                continue
            if _decide(crule, text, start, end, validators):
                whole = m.end() - m.start()
                match = RuleMatch(start, end, rule.label, rule.id)
                found[match] = max(whole, found.get(match, 0))
                read[(start, end)] = max(whole, read.get((start, end), 0))
    return sorted(match for match, whole in found.items() if whole == read[(match.start, match.end)])
