"""`PatternRule`: one recognizer as a small value object a hospital can write in a data file.

A rule is a regular expression for the PHI candidate, the group that is the PHI (so trigger words like
`病歷號` or `分機` can sit in the pattern but stay outside the span), an optional validator (checksum or
veto) and optional nearby context words. A rule may instead hold a phrase list (a gazetteer of closed
classes such as country names), compiled to one linear-time trie regex (`phrases.py`). `from_dict`
rejects unknown keys and names the allowed ones, so a typo in a hospital's pattern file (`contxt`)
fails loudly instead of silently widening a rule.
"""
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

from ..labels import LABELS
from .phrases import phrase_regex

# Whole-match group; any other value names a group in the pattern.
WHOLE_MATCH = 0


class RuleError(ValueError):
    """A pattern rule that cannot be used; names the rule id and (when known) its file."""


@dataclass(frozen=True)
class PatternRule:
    """One pattern recognizer.

    id: unique name, used in errors and to let a later file replace a default rule.
    label: the PHI subcategory the span gets (docs/annotation.md).
    pattern: regex for a candidate. Must run in linear time: no nested quantifiers, no adjacent
        quantifiers over overlapping character classes (every default is checked by a long-input test).
    phrases: instead of `pattern`, the exact strings to find (longest first at one start; a phrase
        that starts or ends with an ASCII letter or digit must stand alone there).
    group: the regex group that is the PHI span (0 = the whole match, or a group name).
    ignore_case: compile with re.IGNORECASE.
    validator: name of a validator (see validators.py): True confirms, False rejects, None defers to context.
    context: words that, within `context_window` characters before the candidate, support it.
    context_required: when true, a candidate the validator did not confirm needs a context word.
    context_window: how far back (in characters) context words are looked for.
    strip_trailing: characters removed from the end of a span (a URL's sentence-final period).
    description: what the rule finds and why; shown by `rules.describe()`.
    """

    id: str
    label: str
    pattern: str = ""
    phrases: Tuple[str, ...] = field(default_factory=tuple)
    group: Union[int, str] = WHOLE_MATCH
    ignore_case: bool = False
    validator: Optional[str] = None
    context: Tuple[str, ...] = field(default_factory=tuple)
    context_required: bool = False
    context_window: int = 24
    strip_trailing: str = ""
    description: str = ""

    FIELDS = (
        "id", "label", "pattern", "phrases", "group", "ignore_case", "validator", "context",
        "context_required", "context_window", "strip_trailing", "description",
    )

    def __post_init__(self) -> None:
        if not self.id or not isinstance(self.id, str):
            raise RuleError("pattern rule needs a non-empty string 'id'")
        if self.label not in LABELS:
            raise RuleError(f"rule {self.id!r}: unknown label {self.label!r}; known: {sorted(LABELS)}")
        if not isinstance(self.context_window, int) or not 0 <= self.context_window <= 200:
            # A bounded window keeps context checks O(1) per candidate (linear time overall).
            raise RuleError(f"rule {self.id!r}: context_window must be an int in [0, 200]")
        if bool(self.pattern) == bool(self.phrases):
            raise RuleError(f"rule {self.id!r}: give either 'pattern' or 'phrases' (a list of strings)")
        if self.context_required and not self.context:
            raise RuleError(f"rule {self.id!r}: context_required is true but no context words are given")
        try:
            compiled = self.compile()
        except re.error as err:
            raise RuleError(f"rule {self.id!r}: invalid regex ({err})") from None
        if isinstance(self.group, str) and self.group not in compiled.groupindex:
            raise RuleError(f"rule {self.id!r}: pattern has no group named {self.group!r}")
        if isinstance(self.group, int) and not 0 <= self.group <= compiled.groups:
            raise RuleError(f"rule {self.id!r}: pattern has no group {self.group}")

    def compile(self) -> "re.Pattern[str]":
        source = phrase_regex(self.phrases, ignore_case=self.ignore_case) if self.phrases else self.pattern
        return re.compile(source, re.IGNORECASE if self.ignore_case else 0)

    # -- data-file form -------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Dict[str, Any], *, source: Optional[str] = None) -> "PatternRule":
        where = f" in {source}" if source else ""
        if not isinstance(data, dict):
            raise RuleError(f"pattern rule{where} is not an object")
        unknown = sorted(set(data) - set(cls.FIELDS))
        if unknown:
            raise RuleError(f"rule {data.get('id')!r}{where}: unknown key(s) {unknown}; "
                            f"allowed keys: {list(cls.FIELDS)}")
        missing = [k for k in ("id", "label") if k not in data]
        if "pattern" not in data and "phrases" not in data:
            missing.append("pattern")
        if missing:
            raise RuleError(f"rule {data.get('id')!r}{where}: missing key(s) {missing}")
        values = dict(data)
        for name, what in (("context", "words"), ("phrases", "strings")):
            if name in values:
                items = values[name]
                if isinstance(items, str) or not all(isinstance(c, str) and c for c in items):
                    raise RuleError(f"rule {data.get('id')!r}{where}: {name!r} must be a list of {what}")
                values[name] = tuple(items)
        try:
            return cls(**values)
        except RuleError as err:
            raise RuleError(f"{err}{where}") from None
        except TypeError as err:
            raise RuleError(f"rule {data.get('id')!r}{where}: {err}") from None

    def to_dict(self) -> Dict[str, Any]:
        """Only the keys that differ from the defaults, so data files stay short."""
        data: Dict[str, Any] = {"id": self.id, "label": self.label}
        if self.pattern:
            data["pattern"] = self.pattern
        else:
            data["phrases"] = list(self.phrases)
        defaults = PatternRule.__dataclass_fields__
        for name in self.FIELDS[4:]:
            value = getattr(self, name)
            default = defaults[name].default
            if name == "context":
                if value:
                    data[name] = list(value)
            elif value != default:
                data[name] = value
        return data


def rules_from_list(items: List[Dict[str, Any]], *, source: Optional[str] = None) -> List[PatternRule]:
    return [PatternRule.from_dict(item, source=source) for item in items]
