"""`CueRule`: one context heuristic as data ("a word of work after a locative word makes a span a
business"), read from a rule file a knowledge engineer can edit (`resources/cue_rules/*.json`).

A rule says which spans it reads (`labels`, `not_labels`), the cue words around them (`before`, `after`:
both given, both are required; `not_before`, `not_after`: cues that keep it from holding, as ConText's
pseudo-triggers; `line_start`: the header the span's line starts with), which named predicates veto it
(`unless`, from `predicates.py`: a known place, a type word of another kind) and the label it yields
(`yields`; `keep_labels`: labels that stand), or that the span is no PHI at all (`drops`: a word heading
a line before a colon is the line's section, `NEURO:`). `text`, a regex the whole span must match,
limits a rule to spans of one shape, and `listed`, word lists of the pipeline, to spans that are a word
of them (`早餐店`, a common word: a place, no trade); a rule may be a shape alone (`恩哼` is no name
wherever it stands; `[郭綜合]` is a hospital). `sources` says which recognizers' spans it reads (default
the NER's, `["ner"]`: a rule or the date finder read their own context; `["ner", "date"]` lets a rule
drop a date the finder read where the words before it say it is a measured value, `fevers up to [102.7]`).
Boundary actions: `end_before`, a cue that starts inside the span (or right after it), `min_length` to
`max_length` characters from its start, cuts the span before it (`[台中地]方法院` -> `[台中]`: a place
before a public office's name); with `closes` the cue must run to the span's end (`[許老闆]` -> `[許]`: a
title after a surname), with `crosses_end` past it (`[交大研]究所` -> `[交大]`: a word the span ends
inside of). Its mirror, `start_after`, a cue that runs from the span's start, cuts the span after it
when `min_length` to `max_length` characters remain (`[科別 外科]` -> `[外科]`: a field's label); with
`reach` the cue may start up to that many characters before the span, for a word the span starts inside
of (`先[生盧瑋]` -> `[盧瑋]`). `end_after` grows the span to the end of a cue read at its end, or
starting up to `reach` characters inside it with `min_length` characters of the span before it
(`[國立成功]大學`, `[德光高]中` -> `[德光高中]`), `start_before` to the start of a cue that ends where it
starts (`台南市歸[仁區]` -> `[歸仁區]`). A rule may move both ends; the rules of one group that move
a span's bounds for one label compose (it keeps what every cut leaves, the longest growth; a growth and
a cut of one bound cancel). `yields_by` names a function of `LABELLERS` that reads the label from the new
span's text (`type_word`: the institution's type word it ends with).
A rule that adds: `finds`, a regex of the span's own text, matched right after each place its `before`
cue holds, makes a new span where no entity stands (`transferred to [Linwood] 2` a hospital), labelled
as `yields` (or `yields_from`) says, unless a predicate vetoes it; it reads no span, so it needs no
`labels`, and its other cues hold as they do for a span found another way.
`yields_from` names the groups of rules whose frame gives the label (`["relations", "relation_after"]`:
the words around the new span say FAMILY, DOCTOR...), falling back to `yields`, or without `yields`
holding only where those rules say something; of the rules that hold, only those of the highest
`priority` (default 0) vote (`Dr` before a name outranks a relation word after it).
Compare medspaCy's ConText rules (literal, direction, window) and Presidio's context words; here a cue
is literal words, the words of the pipeline's word lists (`lists`: `["honorifics_zh"]`,
`spacy_deid.wordlists`, so rules and steps read one vocabulary), slot sequences (`[["transferred",
"referred"], ["from", "to"]]`: one word of each slot, a space between) and regex fragments (`{{DEPT_ZH}}`:
a fragment of the file's own `fragments`, which may name fragments and lists in turn, or of the shipped
pattern files; `{{HAN}}`: the Han character ranges, `{{NUMERALS}}`: the Chinese numerals;
`{{list:kinship_en}}`: a word list in force, as one trie regex, `rules/phrases.py`;
`{{lexicon:surnames_zh}}`: a packaged lexicon's entries); `gap` is what stands between cue and span
(`none`, `space`, `optional_space`), `alone` (default true) keeps a Latin letter from being glued to a
Latin cue word's outer end (`at` is not the end of `chat`), `window` bounds where it is read.

WHY linear time holds for any rule a user writes: a cue is only ever read in a bounded window next to
a span (`window` characters, at most `MAX_WINDOW`), and a regex with a nested quantifier (`(a+)+`,
which backtracks exponentially inside even a short window) is refused when the file is read.
"""
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, Union

from ..dates.numerals import NUMERAL_CHARS
from ..han import HAN_RANGES
from ..labels import CATEGORY_OF, LABELS
from ..lexicons import LexiconError, load as load_lexicon
from ..predicates import (district_name, ends_in_an_abbreviation, holds_a_department_word, known_place,
                          grown_type_word, may_name_a_trade, no_type_word_ending, not_name_like, ordinary_words,
                          typed_otherwise)
from .people import institution, not_a_han_full_name, not_a_han_name, not_latin_capital, not_surname_zh
from ..wordlists import WordLists, default_word_lists
from ..rules.loading import default_fragment
from ..rules.phrases import phrase_regex

try:  # Python >= 3.11
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.9, 3.10
    import sre_parse  # type: ignore[no-redef]

# The exceptions a rule may name: (span text, the label the rule yields) -> the rule does not apply.
PREDICATES: Dict[str, Callable[[str, str], bool]] = {
    "known_place": known_place, "typed_otherwise": typed_otherwise, "not_name_like": not_name_like,
    "names_an_institution": institution, "not_latin_capital": not_latin_capital, "not_surname_zh": not_surname_zh,
    "ordinary_words": ordinary_words, "may_name_a_trade": may_name_a_trade,
    "a_district": lambda name, label: district_name(name), "not_a_han_name": not_a_han_name,
    "ends_in_an_abbreviation": ends_in_an_abbreviation, "holds_a_department_word": holds_a_department_word,
    "no_type_word_ending": no_type_word_ending, "not_a_han_full_name": not_a_han_full_name}
# The functions a rule's `yields_by` may name: the new span's text -> its label, or None (the rule does
# not hold): `type_word` reads the label of the institution's type word the span ends with.
LABELLERS: Dict[str, Callable[[str], Optional[str]]] = {"type_word": grown_type_word}
# Names a rule file written before `yields_from` named groups may give, and the groups they stand for.
LABELLER_GROUPS: Dict[str, Tuple[str, ...]] = {
    "relation_label": ("relations", "relation_after"), "relation_after": ("relation_after",)}
# What may stand between a cue and the span.
GAPS = {"none": "", "space": "[ ]", "optional_space": "[ ]?"}
MAX_WINDOW = 200
DEFAULT_WINDOW = 32
BUILTIN_FRAGMENTS = {"HAN": HAN_RANGES, "NUMERALS": NUMERAL_CHARS}
_FRAGMENT = re.compile(r"\{\{(?:([A-Z][A-Z0-9_]{0,40})|list:([a-z][a-z0-9_]{0,60})|lexicon:([a-z][a-z0-9_]{0,60}))\}\}")
_MAX_DEPTH = 4  # fragments within fragments, so a fragment naming itself fails instead of looping
_LATIN = re.compile(r"[A-Za-z]")

RULE_KEYS = ("id", "group", "labels", "not_labels", "text", "before", "after", "not_before", "not_after",
             "line_start", "end_before", "end_after", "start_after", "start_before", "unless", "yields", "yields_from",
             "yields_by", "keep_labels", "drops", "priority",
             "sources", "finds", "listed", "description")
# The recognizers and note steps whose spans a rule may read (`span._.source`; an unset source is the
# NER's; a cue step placed after `cued_names` or `knowledge_add_cued` meets theirs), and the default: the
# NER's alone.
SOURCES = ("ner", "rule", "date", "principle", "cued", "knowledge")
DEFAULT_SOURCES = ("ner",)
# The label a `drops` rule's outcome carries: the span is no PHI, the step removes it.
DROPPED = ""
_BEFORE_SIDES = ("before", "not_before", "start_before")  # cues that end where the span starts
CUE_KEYS = ("words", "lists", "sequences", "regex", "ignore_case", "alone", "gap", "window", "not_followed_by")
END_BEFORE_KEYS = CUE_KEYS + ("min_length", "max_length", "closes", "crosses_end")
START_AFTER_KEYS = CUE_KEYS + ("min_length", "max_length", "reach")
END_AFTER_KEYS = CUE_KEYS + ("min_length", "reach")
LINE_KEYS = ("regex", "ignore_case", "reach")


class CueRuleError(ValueError):
    """A cue rule that cannot be used; names the file and the rule."""


def _nested_quantifier(parsed: Any, inside_repeat: bool = False) -> bool:
    """Does the parsed regex repeat (more than once) something that itself repeats?"""
    for op, av in parsed:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = av
            if inside_repeat and high > 1:
                return True
            if _nested_quantifier(sub, inside_repeat or high > 1):
                return True
        elif name == "SUBPATTERN":
            if _nested_quantifier(av[-1], inside_repeat):
                return True
        elif name == "BRANCH":
            if any(_nested_quantifier(branch, inside_repeat) for branch in av[1]):
                return True
        elif name in ("ASSERT", "ASSERT_NOT"):
            if _nested_quantifier(av[1], inside_repeat):
                return True
        elif name == "ATOMIC_GROUP":
            if _nested_quantifier(av, inside_repeat):
                return True
    return False


def check_linear(pattern: str) -> None:
    """Raise ValueError when `pattern` has a nested quantifier (it could backtrack exponentially)."""
    if _nested_quantifier(sre_parse.parse(pattern)):
        raise ValueError("nested quantifier (a repeated group that repeats inside): not linear-time")


def expand(pattern: str, fragments: Dict[str, str], word_lists: Optional[WordLists] = None) -> str:
    """`{{NAME}}` -> the file's fragment (expanded in turn), a built-in one, or the shipped pattern
    files' one, as a group; `{{list:NAME}}` -> the words of that list of `word_lists` (None: the packaged
    lists, a list they lack matching nothing: a rule may name a list only a user's lists hold)."""
    def one(m: "re.Match[str]") -> str:
        name, listed, lexicon = m.groups()
        if lexicon:
            return _lexicon_regex(lexicon)
        if listed:
            if word_lists is None and listed not in default_word_lists().names:
                return "(?!)"
            return phrase_regex((word_lists or default_word_lists()).words(listed))
        if name in fragments:
            return f"(?:{fragments[name]})"
        if name in BUILTIN_FRAGMENTS:
            return BUILTIN_FRAGMENTS[name]
        return f"(?:{default_fragment(name)})"
    for _ in range(_MAX_DEPTH):
        pattern, count = _FRAGMENT.subn(one, pattern)
        if not count:
            return pattern
    raise ValueError(f"fragments nested more than {_MAX_DEPTH} deep (a fragment naming itself?)")


@lru_cache(maxsize=None)
def _lexicon_regex(name: str) -> str:
    """The entries of a packaged lexicon (`surnames_zh`) as one trie regex; an unknown one is refused."""
    try:
        return phrase_regex(tuple(entry["text"] for entry in load_lexicon(name).entries))
    except LexiconError as err:
        raise KeyError(f"no lexicon {name!r}: {err}") from None


def _alternatives(words: Sequence[str], alone: bool, side: str) -> List[str]:
    """Escaped literals, longest first; with `alone`, a word whose outer end is a Latin letter gets no
    letter glued there (`at` is not the end of `chat`)."""
    out = []
    for word in sorted(set(words), key=lambda w: (-len(w), w)):
        piece = re.escape(word)
        if alone and side == "before" and _LATIN.match(word[0]):
            piece = "(?<![A-Za-z])" + piece
        if alone and side == "after" and _LATIN.match(word[-1]):
            piece += "(?![A-Za-z])"
        out.append(piece)
    return out


@dataclass(frozen=True)
class Cue:
    """Words on one side of a span; compiled so that `before` cues end where the span starts (after the
    gap) and `after` cues start where it ends."""

    words: Tuple[str, ...] = ()
    lists: Tuple[str, ...] = ()  # word lists of the pipeline (`spacy_deid.wordlists`), their words cues too
    sequences: Tuple[Tuple[Union[str, Tuple[str, ...]], ...], ...] = ()
    regex: str = ""
    ignore_case: bool = False
    alone: bool = True
    gap: str = "none"
    window: int = DEFAULT_WINDOW
    not_followed_by: Tuple[str, ...] = ()

    def pattern(self, side: str, fragments: Dict[str, str], word_lists: Optional[WordLists] = None,
                anchored: bool = True) -> str:
        """The cue's regex, its `lists` read from `word_lists` (None: the packaged lists, a list they
        lack left out: a rule may name a list only a user's word lists hold); a `before` cue ends at the
        window's end unless not `anchored` (a rule that `finds` scans the text for it); a `start` cue
        (`start_after`) is read from the span's start, its gap after it, where the rest of the span starts."""
        if word_lists is None:
            known = default_word_lists().names
            listed = default_word_lists().words(*[name for name in self.lists if name in known])
        else:
            listed = word_lists.words(*self.lists)
        outer = "after" if side == "start" else side  # the end of a `start` cue meets the rest of the span
        alternatives = _alternatives(self.words + listed, self.alone, outer)
        for sequence in self.sequences:
            slots = []
            for i, slot in enumerate(sequence):
                if isinstance(slot, str):
                    slots.append(f"(?:{expand(slot, fragments, word_lists)})")
                else:
                    edge = "before" if side == "before" and i == 0 else (
                        "after" if outer == "after" and i == len(sequence) - 1 else "")
                    slots.append("(?:" + "|".join(_alternatives(slot, self.alone, edge)) + ")")
            alternatives.append("[ ]".join(slots))
        if self.regex:
            alternatives.append(f"(?:{expand(self.regex, fragments, word_lists)})")
        body = "(?:" + "|".join(alternatives) + ")"
        if self.ignore_case:
            body = f"(?i:{body})"
        if self.not_followed_by:
            body += "(?!" + "|".join(re.escape(w) for w in self.not_followed_by) + ")"
        if side == "start":
            return body + GAPS[self.gap]
        if side != "before":
            return GAPS[self.gap] + body
        return body + GAPS[self.gap] + ("$" if anchored else "")

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        if self.words:
            out["words"] = list(self.words)
        if self.lists:
            out["lists"] = list(self.lists)
        if self.sequences:
            out["sequences"] = [[s if isinstance(s, str) else list(s) for s in seq] for seq in self.sequences]
        if self.regex:
            out["regex"] = self.regex
        if self.ignore_case:
            out["ignore_case"] = True
        if not self.alone:
            out["alone"] = False
        if self.gap != "none":
            out["gap"] = self.gap
        if self.window != DEFAULT_WINDOW:
            out["window"] = self.window
        if self.not_followed_by:
            out["not_followed_by"] = list(self.not_followed_by)
        return out


@dataclass(frozen=True)
class EndBefore:
    """A cue at which the span is cut: it starts `min_length` to `max_length` characters after the
    span's start, inside the span or right at its end."""

    cue: Cue
    min_length: int = 1
    max_length: int = DEFAULT_WINDOW
    closes: bool = False  # the cue runs to the span's end (`[許]老闆`: a title said after a surname)
    crosses_end: bool = False  # the cue runs past the span's end (`[交大研]究所`)

    def to_dict(self) -> Dict[str, Any]:
        out = {**self.cue.to_dict(), "min_length": self.min_length, "max_length": self.max_length}
        if self.crosses_end:
            out["crosses_end"] = True
        return {**out, "closes": True} if self.closes else out


@dataclass(frozen=True)
class StartAfter:
    """A cue read from the span's start (or up to `reach` characters before it), after which the span
    starts: `min_length` to `max_length` characters of it remain."""

    cue: Cue
    min_length: int = 1
    max_length: int = MAX_WINDOW
    reach: int = 0

    def to_dict(self) -> Dict[str, Any]:
        out = {**self.cue.to_dict(), "min_length": self.min_length}
        if self.reach:
            out["reach"] = self.reach
        return {**out, "max_length": self.max_length} if self.max_length != MAX_WINDOW else out


@dataclass(frozen=True)
class EndAfter:
    """A cue that runs past the span's end, to which the span grows: it starts right at the end (after
    its gap) or up to `reach` characters before it, keeping `min_length` characters of the span before it."""

    cue: Cue
    min_length: int = 1
    reach: int = 0

    def to_dict(self) -> Dict[str, Any]:
        out = {**self.cue.to_dict(), "min_length": self.min_length}
        return {**out, "reach": self.reach} if self.reach else out


@dataclass(frozen=True)
class LineStart:
    """The header the span's line starts with (`Prior admissions:`), the line's start within `reach`."""

    regex: str
    ignore_case: bool = False
    reach: int = MAX_WINDOW

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"regex": self.regex}
        if self.ignore_case:
            out["ignore_case"] = True
        if self.reach != MAX_WINDOW:
            out["reach"] = self.reach
        return out


@dataclass(frozen=True)
class CueRule:
    id: str
    group: str
    labels: FrozenSet[str]
    yields: str
    before: Optional[Cue] = None
    after: Optional[Cue] = None
    not_before: Optional[Cue] = None  # a cue that, standing there, keeps the rule from holding
    not_after: Optional[Cue] = None
    line_start: Optional[LineStart] = None
    end_before: Optional[EndBefore] = None
    end_after: Optional[EndAfter] = None
    start_after: Optional[StartAfter] = None
    start_before: Optional[Cue] = None  # a cue that ends where the span starts, to whose start it grows
    unless: Tuple[str, ...] = ()
    keep_labels: FrozenSet[str] = frozenset()
    yields_from: Tuple[str, ...] = ()  # groups of the rule set whose frame gives the label
    yields_by: str = ""  # a function of `LABELLERS` that gives the label from the new span's text
    priority: int = 0
    description: str = ""
    text: str = ""  # a regex the span's whole text must match
    drops: bool = False  # the cues say the span is no PHI
    sources: Tuple[str, ...] = DEFAULT_SOURCES  # the recognizers whose spans the rule reads
    finds: str = ""  # a regex of the text of a span the rule adds right after its `before` cue
    listed: Tuple[str, ...] = ()  # word lists the span's text must be a word of
    # as written in the file (`@NAME` for a category), so a saved rule reads as its author wrote it
    written_labels: Tuple[str, ...] = field(default=(), compare=False)
    written_not_labels: Tuple[str, ...] = field(default=(), compare=False)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"id": self.id, "group": self.group}
        if self.written_labels or not self.finds:
            out["labels"] = list(self.written_labels)
        if self.written_not_labels:
            out["not_labels"] = list(self.written_not_labels)
        if self.text:
            out["text"] = self.text
        for key in ("before", "after", "not_before", "not_after", "line_start", "end_before", "end_after", "start_after",
                    "start_before"):
            part = getattr(self, key)
            if part is not None:
                out[key] = part.to_dict()
        if self.unless:
            out["unless"] = list(self.unless)
        if self.yields:
            out["yields"] = self.yields
        if self.yields_from:
            out["yields_from"] = list(self.yields_from)
        if self.yields_by:
            out["yields_by"] = self.yields_by
        if self.priority:
            out["priority"] = self.priority
        if self.keep_labels:
            out["keep_labels"] = sorted(self.keep_labels)
        if self.drops:
            out["drops"] = True
        if self.sources != DEFAULT_SOURCES:
            out["sources"] = list(self.sources)
        if self.finds:
            out["finds"] = self.finds
        if self.listed:
            out["listed"] = list(self.listed)
        if self.description:
            out["description"] = self.description
        return out


def _unknown_keys(item: Dict[str, Any], allowed: Sequence[str], what: str) -> None:
    unknown = sorted(set(item) - set(allowed))
    if unknown:
        raise ValueError(f"unknown {what} key(s) {unknown}; allowed: {list(allowed)}")


def _strings(value: Any, what: str) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{what} must be a list of non-empty strings")
    return tuple(value)


def _window(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_WINDOW:
        raise ValueError(f"{what} must be an int in [1, {MAX_WINDOW}] (a bounded window keeps matching linear)")
    return value


def _labels(written: Tuple[str, ...]) -> FrozenSet[str]:
    out = set()
    for label in written:
        if label.startswith("@"):
            members = {l for l, c in CATEGORY_OF.items() if c == label[1:]}
            if not members:
                raise ValueError(f"unknown category {label!r}; known: {sorted(set(CATEGORY_OF.values()))}")
            out |= members
        elif label in LABELS:
            out.add(label)
        else:
            raise ValueError(f"unknown label {label!r}; known: {sorted(LABELS)}")
    return frozenset(out)


def _cue(item: Any, side: str, fragments: Dict[str, str], keys: Sequence[str] = CUE_KEYS) -> Cue:
    if not isinstance(item, dict):
        raise ValueError(f"{side!r} must be an object with keys {list(keys)}")
    _unknown_keys(item, keys, f"{side!r}")
    sequences = []
    for seq in item.get("sequences", []):
        if not isinstance(seq, list) or not seq:
            raise ValueError(f"{side!r}: a sequence is a non-empty list of slots")
        sequences.append(tuple(s if isinstance(s, str) else _strings(s, f"{side!r}: a slot") for s in seq))
    gap = item.get("gap", "none")
    if gap not in GAPS:
        raise ValueError(f"{side!r}: gap must be one of {list(GAPS)}")
    cue = Cue(words=_strings(item["words"], f"{side!r}.words") if "words" in item else (),
              lists=_strings(item["lists"], f"{side!r}.lists") if "lists" in item else (),
              sequences=tuple(sequences), regex=item.get("regex", ""),
              ignore_case=bool(item.get("ignore_case", False)), alone=bool(item.get("alone", True)), gap=gap,
              window=_window(item.get("window", DEFAULT_WINDOW), f"{side!r}.window"),
              not_followed_by=_strings(item["not_followed_by"], f"{side!r}.not_followed_by")
              if "not_followed_by" in item else ())
    if cue.not_followed_by and side in _BEFORE_SIDES:
        raise ValueError(f"{side!r}: not_followed_by reads after the cue, where the span starts")
    if not (cue.words or cue.lists or cue.sequences or cue.regex):
        raise ValueError(f"{side!r}: give words, lists, sequences or a regex")
    _compile_checked(cue.pattern("before" if side in _BEFORE_SIDES else "start" if side == "start_after" else "after",
                                 fragments), f"{side!r}")
    return cue


def _lengths(item: Dict[str, Any], side: str, longest: int) -> Tuple[int, int]:
    """A cut's `min_length` and `max_length`: the characters the span keeps."""
    low = _window(item.get("min_length", 1), f"{side}.min_length")
    high = _window(item.get("max_length", longest), f"{side}.max_length")
    if low > high:
        raise ValueError(f"{side}: min_length is over max_length")
    return low, high


def _end_before(item: Any, fragments: Dict[str, str]) -> EndBefore:
    cue = _cue(item, "end_before", fragments, END_BEFORE_KEYS)
    low, high = _lengths(item, "end_before", DEFAULT_WINDOW)
    closes, crosses = bool(item.get("closes", False)), bool(item.get("crosses_end", False))
    if closes and crosses:
        raise ValueError("end_before: a cue that closes the span does not cross its end")
    return EndBefore(cue, low, high, closes, crosses)


def _start_after(item: Any, fragments: Dict[str, str]) -> StartAfter:
    cue = _cue(item, "start_after", fragments, START_AFTER_KEYS)
    low, high = _lengths(item, "start_after", MAX_WINDOW)
    reach = item.get("reach", 0)
    if reach != 0:
        reach = _window(reach, "start_after.reach")
    return StartAfter(cue, low, high, reach)


def _end_after(item: Any, fragments: Dict[str, str]) -> EndAfter:
    cue = _cue(item, "end_after", fragments, END_AFTER_KEYS)
    low = _window(item.get("min_length", 1), "end_after.min_length")
    reach = item.get("reach", 0)
    return EndAfter(cue, low, _window(reach, "end_after.reach") if reach != 0 else 0)


def _groups(value: Any) -> Tuple[str, ...]:
    """`yields_from`: a list of groups (or one; an older file's labeller name, `LABELLER_GROUPS`)."""
    if isinstance(value, str):
        return LABELLER_GROUPS.get(value, (value,))
    return _strings(value, "yields_from") if value else ()


def _compile_checked(pattern: str, what: str) -> "re.Pattern[str]":
    try:
        compiled = re.compile(pattern)
        check_linear(pattern)
    except (re.error, KeyError, ValueError) as err:
        raise ValueError(f"{what}: {err}") from None
    return compiled


def rule_from_dict(item: Any, fragments: Dict[str, str], source: str) -> CueRule:
    """A validated rule; a CueRuleError names `source` (the file) and the rule's id (or index)."""
    rule_id = item.get("id") if isinstance(item, dict) else None
    where = f"{source}: cue rule {rule_id!r}"
    try:
        if not isinstance(item, dict):
            raise ValueError("a rule is an object")
        _unknown_keys(item, RULE_KEYS, "rule")
        drops = item.get("drops", False)
        if not isinstance(drops, bool):
            raise ValueError("drops must be true or false")
        bounds = ("end_before", "end_after", "start_after", "start_before")
        if drops and any(key in item for key in ("yields", "yields_from", "yields_by", "keep_labels") + bounds):
            raise ValueError("a rule that drops a span yields no label and changes no bound: no 'yields', "
                             "'yields_from', 'yields_by', 'keep_labels', " + ", ".join(map(repr, bounds)))
        yields_by = item.get("yields_by", "")
        if yields_by and (yields_by not in LABELLERS or "yields" in item or "yields_from" in item):
            raise ValueError(f"yields_by names one of {sorted(LABELLERS)}, instead of 'yields' and 'yields_from'")
        if ("end_before" in item and "end_after" in item) or ("start_after" in item and "start_before" in item):
            raise ValueError("a rule cuts a bound of its span ('end_before', 'start_after') or grows it "
                             "('end_after', 'start_before'), not both")
        needs_yields = not drops and not yields_by and ("yields_from" not in item or "yields" in item)
        for key in ("id", "group") + (("yields",) if needs_yields else ()):
            if not isinstance(item.get(key), str) or not item.get(key):
                raise ValueError(f"needs a non-empty string {key!r}")
        if item.get("yields", "") and item["yields"] not in LABELS:
            raise ValueError(f"yields unknown label {item['yields']!r}")
        yields_from = _groups(item.get("yields_from", []))
        priority = item.get("priority", 0)
        if not isinstance(priority, int) or isinstance(priority, bool):
            raise ValueError("priority must be an int")
        finds = item.get("finds", "")
        if not isinstance(finds, str):
            raise ValueError("finds must be a regex string")
        if finds and (drops or any(key in item for key in bounds + ("keep_labels",)) or "before" not in item):
            raise ValueError("a rule that finds a span adds it right after its 'before' cue: it needs a 'before' "
                             "and neither drops, moves a bound (" + ", ".join(map(repr, bounds)) + ") nor "
                             "keeps labels")
        written = _strings(item.get("labels"), "labels") if "labels" in item or not finds else ()
        written_not = _strings(item["not_labels"], "not_labels") if "not_labels" in item else ()
        before = _cue(item["before"], "before", fragments) if "before" in item else None
        after = _cue(item["after"], "after", fragments) if "after" in item else None
        not_before = _cue(item["not_before"], "not_before", fragments) if "not_before" in item else None
        not_after = _cue(item["not_after"], "not_after", fragments) if "not_after" in item else None
        end_before = _end_before(item["end_before"], fragments) if "end_before" in item else None
        start_after = _start_after(item["start_after"], fragments) if "start_after" in item else None
        end_after = _end_after(item["end_after"], fragments) if "end_after" in item else None
        start_before = _cue(item["start_before"], "start_before", fragments) if "start_before" in item else None
        if before is None and after is None and not any(key in item for key in bounds) and not yields_from and not (
                "line_start" in item or "text" in item or "listed" in item):
            raise ValueError("needs a 'before', an 'after' or a bound's cue ('end_before', 'end_after', "
                             "'start_after', 'start_before'), or a 'yields_from' (several: all are required); a "
                             "rule may read its line's start or its span's shape ('text', 'listed') alone")
        text = item.get("text", "")
        if not isinstance(text, str):
            raise ValueError("text must be a regex string")
        if text:
            _compile_checked(expand(text, fragments), "text")
        if finds:
            _compile_checked(before.pattern("before", fragments, anchored=False) + f"({expand(finds, fragments)})",
                             "finds")
        line = item.get("line_start")
        line_start = None
        if line is not None:
            if not isinstance(line, dict) or not isinstance(line.get("regex"), str):
                raise ValueError("line_start must be an object with a 'regex'")
            _unknown_keys(line, LINE_KEYS, "line_start")
            line_start = LineStart(line["regex"], bool(line.get("ignore_case", False)),
                                   _window(line.get("reach", MAX_WINDOW), "line_start.reach"))
            _compile_checked(expand(line_start.regex, fragments), "line_start")
        unless = _strings(item["unless"], "unless") if "unless" in item else ()
        for name in unless:
            if name not in PREDICATES:
                raise ValueError(f"unknown predicate {name!r} in 'unless'; known: {sorted(PREDICATES)}")
        keep = _labels(_strings(item["keep_labels"], "keep_labels")) if "keep_labels" in item else frozenset()
        listed = _strings(item["listed"], "listed") if "listed" in item else ()
        if listed and finds:
            raise ValueError("a rule that finds a span reads no span's text: no 'listed'")
        sources = _strings(item["sources"], "sources") if "sources" in item else DEFAULT_SOURCES
        unknown_sources = sorted(set(sources) - set(SOURCES))
        if not sources or unknown_sources:
            raise ValueError(f"sources must name one or more of {list(SOURCES)}; unknown: {unknown_sources}")
        return CueRule(id=item["id"], group=item["group"], labels=_labels(written) - _labels(written_not),
                       yields=item.get("yields", ""), before=before, after=after, not_before=not_before,
                       not_after=not_after, line_start=line_start,
                       end_before=end_before, end_after=end_after, start_after=start_after,
                       start_before=start_before, unless=unless,
                       keep_labels=keep, yields_from=yields_from, yields_by=yields_by,
                       priority=priority, text=text, drops=drops, sources=sources, finds=finds, listed=listed,
                       description=item.get("description", ""), written_labels=written,
                       written_not_labels=written_not)
    except KeyError as err:  # an unknown `{{FRAGMENT}}`
        raise CueRuleError(f"{where}: {err.args[0]}") from None
    except (ValueError, TypeError) as err:
        raise CueRuleError(f"{where}: {err}") from None
