"""`CueRuleSet`: the cue rules a pipeline runs, read from rule files, matched around spans, written back.

A rule file holds `{"description": ..., "fragments": {NAME: regex}, "rules": [rule, ...]}` (`rule.py`).
The packaged files (`resources/cue_rules/*.json`) are the default set; a user's file or folder
(`deid.initialize(cue_rules=PATH)`) replaces the packaged file of the same name and adds the others, so
a hospital edits one topic without copying the rest. Rule ids are unique across a set.

How a group decides a span (`apply`): the rules of the group that read the span's label and whose cues
all hold (of those, the ones of the highest `priority`) vote for what they make of it (its bounds, cut by
an `end_before` or `start_after` cue or grown by an `end_after` or `start_before` one, and the label
they yield, or its own where `keep_labels` holds it); votes for one label compose their cuts (the span
keeps what every cut leaves: `[科別 外科門診]` loses the field's label and the visit word; of growths the
longest; a growth and a cut of one bound cancel), two different labels cancel (`Dr. Yang at [台大]
醫學系` speaks of care and of study: no change); a rule whose `unless` predicate holds on the new span's
text does not vote (as in `find`). `find` runs a group's rules that add spans (`finds`): each span their
regex matches right after their `before` cue, where the rule's other cues hold, no predicate vetoes it
and the rules of the highest priority that find it agree on its label. `frame` asks
several groups at once what the words around a span say, whatever its label (`cues/labels`: who a name
is), and a rule's `yields_from` does so.

The rules in force (`current_cue_rules`) are the running `deid` component's, else the packaged ones. A
saved set lacking a group that code reads, or that a rule's `yields_from` names, takes that group's
packaged rules (`_completed`): a pipeline saved before those rules existed runs as it did.
"""
import json
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ContextManager, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

from ..wordlists import WordLists, current_word_lists, in_force, read_json_files, write_json_folder
from .rule import DROPPED, LABELLERS, PREDICATES, Cue, CueRule, CueRuleError, expand, rule_from_dict

FILE_KEYS = ("description", "fragments", "rules")
_FOUND = "found_span"  # the group of a `finds` rule's pattern that holds the span it adds


@dataclass
class CueFile:
    """One rule file: its name (`workplaces.json`), what it is about, its fragments and rules."""

    name: str
    description: str = ""
    fragments: Dict[str, str] = field(default_factory=dict)
    rules: List[CueRule] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"description": self.description} if self.description else {}
        if self.fragments:
            out["fragments"] = dict(self.fragments)
        out["rules"] = [rule.to_dict() for rule in self.rules]
        return out


def parse_cue_file(data: Any, name: str, source: str) -> CueFile:
    """A `CueFile` from a file's parsed JSON; a CueRuleError names `source` (and the rule)."""
    if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
        raise CueRuleError(f"{source}: a cue rule file is an object with a 'rules' list")
    unknown = sorted(set(data) - set(FILE_KEYS))
    if unknown:
        raise CueRuleError(f"{source}: unknown key(s) {unknown}; allowed: {list(FILE_KEYS)}")
    fragments = data.get("fragments", {})
    if not isinstance(fragments, dict) or not all(isinstance(v, str) for v in fragments.values()):
        raise CueRuleError(f"{source}: 'fragments' maps names to regex strings")
    rules = [rule_from_dict(item, fragments, source) for item in data["rules"]]
    return CueFile(name, str(data.get("description", "")), dict(fragments), rules)


def read_cue_files(path: Union[str, Path]) -> List[CueFile]:
    """The rule files of `path`: one JSON file, or a folder's `*.json` in name order."""
    return [parse_cue_file(data, name, source)
            for name, data, source in read_json_files(path, "cue rule", CueRuleError)]


@lru_cache(maxsize=1)
def _default_files() -> Tuple[CueFile, ...]:
    folder = resources.files("spacy_deid") / "resources" / "cue_rules"
    files = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf8"))
            files.append(parse_cue_file(data, entry.name, f"default cue_rules/{entry.name}"))
    return tuple(files)


def default_cue_files() -> List[CueFile]:
    """The packaged rule files (`resources/cue_rules`), read once."""
    return list(_default_files())


def overlaid(base: Sequence[CueFile], extra: Sequence[CueFile]) -> List[CueFile]:
    """`base` with each file of `extra` replacing the one of the same name, the others added."""
    by_name = {f.name: f for f in base}
    by_name.update({f.name: f for f in extra})
    return [by_name[name] for name in sorted(by_name)]


@dataclass(frozen=True)
class _Compiled:
    rule: CueRule
    before: Optional["re.Pattern[str]"]
    before_window: int
    after: Optional["re.Pattern[str]"]
    after_window: int
    line: Optional["re.Pattern[str]"]
    line_reach: int
    end_before: Optional["re.Pattern[str]"]
    cut_window: int
    not_before: Optional["re.Pattern[str]"] = None
    not_before_window: int = 0
    not_after: Optional["re.Pattern[str]"] = None
    not_after_window: int = 0
    text: Optional["re.Pattern[str]"] = None
    finds: Optional["re.Pattern[str]"] = None  # the `before` cue, then the span the rule adds (group `_FOUND`)
    start_after: Optional["re.Pattern[str]"] = None
    listed: Optional[FrozenSet[str]] = None  # the words of the rule's `listed` lists
    end_after: Optional["re.Pattern[str]"] = None
    start_before: Optional["re.Pattern[str]"] = None
    start_before_window: int = 0

    def outcome(self, text: str, start: int, end: int, label: Optional[str], rules: "CueRuleSet"
                ) -> Optional[Tuple[int, int, str]]:
        """(start, end, label) the rule makes of text[start:end] labelled `label`, or None when its cues
        do not hold; `rules` (the set the rule is in) gives a `yields_from` rule its label."""
        if not self.holds(text, start, end):
            return None
        if self.rule.drops:
            return start, end, DROPPED
        opening = self.rule.start_after
        if opening is not None and self.start_after is not None:
            # the cue furthest back that ends inside the span (`先[生盧瑋]`: the word 先生 the span cut)
            cut = next((m.end() for back in range(min(opening.reach, start), -1, -1)
                        for m in (self.start_after.match(text, start - back, end),) if m is not None
                        and m.end() > start), None)
            if cut is None or not opening.min_length <= end - cut <= opening.max_length:
                return None
            start = cut
        if self.start_before is not None:
            m = self.start_before.search(text, max(0, start - self.start_before_window), start)
            if m is None or m.start() == start:
                return None
            start = m.start()
        new_end = end
        cut = self.rule.end_before
        if cut is not None and self.end_before is not None:
            window = self.cut_window
            cue = self.end_before
            new_end = next((at for at in range(start + cut.min_length, min(end, start + cut.max_length) + 1)
                            for m in ((cue.fullmatch(text, at, end) if cut.closes else cue.match(text, at, at + window)),)
                            if m is not None and (not cut.crosses_end or m.end() > end)), -1)
            if new_end < 0:
                return None
        grow = self.rule.end_after
        if grow is not None and self.end_after is not None:
            # the cue furthest back that runs past the span's end (`[德光高]中`: the type word 高中)
            new_end = next((m.end() for at in range(max(start + grow.min_length, end - grow.reach), end + 1)
                            for m in (self.end_after.match(text, at, end + grow.cue.window),)
                            if m is not None and m.end() > end), -1)
            if new_end < 0:
                return None
        if label in self.rule.keep_labels:
            return start, new_end, label
        if self.rule.yields_by:
            said = LABELLERS[self.rule.yields_by](text[start:new_end])
            return (start, new_end, said) if said else None
        if self.rule.yields_from:
            said = rules.frame(text, start, new_end, None, self.rule.yields_from) or self.rule.yields
            return (start, new_end, said) if said else None
        return start, new_end, self.rule.yields

    def holds(self, text: str, start: int, end: int) -> bool:
        """Do all the rule's cues stand around text[start:end]? Each reads a bounded window."""
        if self.text is not None and self.text.fullmatch(text, start, end) is None:
            return False
        if self.listed is not None and text[start:end] not in self.listed:
            return False
        if self.before is not None and self.before.search(text, max(0, start - self.before_window), start) is None:
            return False
        if self.after is not None and self.after.match(text, end, end + self.after_window) is None:
            return False
        if (self.not_before is not None
                and self.not_before.search(text, max(0, start - self.not_before_window), start) is not None):
            return False
        if self.not_after is not None and self.not_after.match(text, end, end + self.not_after_window) is not None:
            return False
        if self.line is not None:
            newline = text.rfind("\n", max(0, start - self.line_reach), start)
            if newline < 0 and start > self.line_reach:
                return False
            if self.line.match(text, newline + 1, start) is None:
                return False
        return True


def _compile(rule: CueRule, fragments: Dict[str, str], lists: WordLists) -> _Compiled:
    cut = rule.end_before
    line = None
    if rule.line_start is not None:
        flags = re.IGNORECASE if rule.line_start.ignore_case else 0
        line = re.compile(expand(rule.line_start.regex, fragments, lists), flags)
    return _Compiled(
        rule, *_cue_and_window(rule.before, "before", fragments, lists),
        *_cue_and_window(rule.after, "after", fragments, lists),
        line, rule.line_start.reach if rule.line_start else 0,
        *_cue_and_window(cut.cue if cut else None, "after", fragments, lists),
        *_cue_and_window(rule.not_before, "before", fragments, lists),
        *_cue_and_window(rule.not_after, "after", fragments, lists),
        re.compile(expand(rule.text, fragments, lists)) if rule.text else None,
        re.compile(rule.before.pattern("before", fragments, lists, anchored=False)
                   + f"(?P<{_FOUND}>{expand(rule.finds, fragments, lists)})")
        if rule.finds and rule.before is not None else None,
        re.compile(rule.start_after.cue.pattern("start", fragments, lists)) if rule.start_after else None,
        lists.word_set(*rule.listed) if rule.listed else None,
        re.compile(rule.end_after.cue.pattern("after", fragments, lists)) if rule.end_after else None,
        *_cue_and_window(rule.start_before, "before", fragments, lists))


def _cue_and_window(cue: Optional[Cue], side: str, fragments: Dict[str, str], lists: WordLists
                    ) -> Tuple[Optional["re.Pattern[str]"], int]:
    return (re.compile(cue.pattern(side, fragments, lists)), cue.window) if cue is not None else (None, 0)


class CueRuleSet:
    """The rules of some rule files, by group and by the label they read, compiled once for each set of
    word lists they run with (a rule's `lists` are the lists in force: `spacy_deid.wordlists`)."""

    def __init__(self, files: Iterable[CueFile] = ()):
        self.files: List[CueFile] = list(files)
        seen: Dict[str, str] = {}
        for cue_file in self.files:
            for rule in cue_file.rules:
                if rule.id in seen:
                    raise CueRuleError(f"{cue_file.name}: cue rule {rule.id!r}: id already used in {seen[rule.id]}")
                seen[rule.id] = cue_file.name
        self._groups = sorted({rule.group for rule in self.rules})
        self._sources: Dict[str, FrozenSet[str]] = {}
        for rule in self.rules:
            self._sources[rule.group] = self._sources.get(rule.group, frozenset()) | frozenset(rule.sources)
        read_from = {g for rule in self.rules for g in rule.yields_from}
        for cue_file in self.files:
            for rule in cue_file.rules:
                missing = [g for g in rule.yields_from if g not in self._groups]
                if missing or (rule.yields_from and rule.group in read_from):
                    raise CueRuleError(f"{cue_file.name}: cue rule {rule.id!r}: " + (
                        f"yields_from names groups the rules lack: {missing}" if missing else
                        f"its group {rule.group!r} is read by another rule's yields_from, so it may not "
                        f"read one itself (a chain could loop)"))

    def compiled_for(self, lists: WordLists) -> Dict[str, Dict[Optional[str], List["_Compiled"]]]:
        """group -> label -> the compiled rules that read it (None -> all the group's rules), with
        `lists`' words; a rule that names a list `lists` lack is refused, naming the file, the rule and
        the list."""
        by_group: Dict[str, Dict[Optional[str], List[_Compiled]]] = {}
        for cue_file in self.files:
            for rule in cue_file.rules:
                try:
                    compiled = _compile(rule, cue_file.fragments, lists)
                except KeyError as err:
                    raise CueRuleError(f"{cue_file.name}: cue rule {rule.id!r}: {err.args[0]}") from None
                by_label = by_group.setdefault(rule.group, {})
                for label in (None, *sorted(rule.labels)):
                    by_label.setdefault(label, []).append(compiled)
        return by_group

    @property
    def _by_group(self) -> Dict[str, Dict[Optional[str], List["_Compiled"]]]:
        return current_word_lists().compiled(self.compiled_for)

    @classmethod
    def default(cls) -> "CueRuleSet":
        return default_cue_rules()

    @classmethod
    def from_path(cls, path: Union[str, Path], over_defaults: bool = True) -> "CueRuleSet":
        """A user's file or folder, over the packaged files (`overlaid`) or alone."""
        files = read_cue_files(path)
        return cls(overlaid(default_cue_files(), files) if over_defaults else files)

    @property
    def rules(self) -> List[CueRule]:
        return [rule for f in self.files for rule in f.rules]

    @property
    def groups(self) -> List[str]:
        return list(self._groups)

    def sources(self, group: str) -> FrozenSet[str]:
        """The recognizers whose spans some rule of `group` reads (`CueRule.sources`)."""
        return self._sources.get(group, frozenset())

    def __len__(self) -> int:
        return len(self.rules)

    def _outcomes(self, text: str, start: int, end: int, label: Optional[str], groups: Union[str, Sequence[str]],
                  source: Optional[str] = None) -> List[Tuple[CueRule, Tuple[int, int, str]]]:
        out = []
        by_group = self._by_group
        for group in (groups,) if isinstance(groups, str) else groups:
            for compiled in by_group.get(group, {}).get(label, ()):
                if compiled.finds is not None or (source is not None and source not in compiled.rule.sources):
                    continue  # a rule that adds spans reads none
                outcome = compiled.outcome(text, start, end, label, self)
                if outcome is not None:
                    out.append((compiled.rule, outcome))
        if len(out) > 1:  # only the rules of the highest priority vote
            top = max(rule.priority for rule, _ in out)
            out = [(rule, outcome) for rule, outcome in out if rule.priority == top]
        return out

    def frame(self, text: str, start: int, end: int, label: Optional[str],
              groups: Union[str, Sequence[str]]) -> Optional[str]:
        """The label the words around text[start:end] give a span labelled `label` (None: whatever its
        label) by the rules of `groups` (their cues only, no `unless`): None when no rule holds or two
        rules of the highest priority that holds disagree on the label."""
        said = {outcome[2] for _, outcome in self._outcomes(text, start, end, label, groups)}
        return said.pop() or None if len(said) == 1 else None

    def apply(self, text: str, start: int, end: int, label: str, group: Union[str, Sequence[str]],
              source: Optional[str] = None) -> Optional[Tuple[int, int, str]]:
        """(start, end, label) of what the group's rules make of a span labelled `label` at
        text[start:end] (label `DROPPED` where a `drops` rule says it is no PHI), or None to keep it
        (module docstring: the rules that hold vote unless their `unless` vetoes, their cuts compose,
        disagreement on the label keeps);
        with a `source`, only the rules that read that recognizer's spans."""
        outcomes = {outcome for rule, outcome in self._outcomes(text, start, end, label, group, source)
                    if not any(PREDICATES[p](text[outcome[0]:outcome[1]], outcome[2]) for p in rule.unless)}
        said = {outcome[2] for outcome in outcomes}
        grown_end = [o[1] for o in outcomes if o[1] > end]
        grown_start = [o[0] for o in outcomes if o[0] < start]
        if len(said) != 1 or (grown_end and any(o[1] < end for o in outcomes)) or (
                grown_start and any(o[0] > start for o in outcomes)):
            return None  # two labels, or one rule grows a bound another cuts
        new = (min(grown_start) if grown_start else max(o[0] for o in outcomes),
               max(grown_end) if grown_end else min(o[1] for o in outcomes), said.pop())
        return None if new == (start, end, label) or new[0] >= new[1] else new

    def find(self, text: str, group: str) -> List[Tuple[int, int, str]]:
        """(start, end, label) of the spans the `finds` rules of `group` add to `text`, in text order, the
        longest first at one start; they may overlap each other and the doc's entities (the step adds each
        only where nothing stands: a shorter one where a longer one meets an entity)."""
        votes: Dict[Tuple[int, int], List[Tuple[CueRule, str]]] = {}
        for compiled in self._by_group.get(group, {}).get(None, ()):
            if compiled.finds is None:
                continue
            for match in compiled.finds.finditer(text):
                start, end = match.span(_FOUND)
                outcome = compiled.outcome(text, start, end, None, self) if end > start else None
                if outcome is None or not outcome[2] or any(
                        PREDICATES[p](text[start:end], outcome[2]) for p in compiled.rule.unless):
                    continue
                votes.setdefault((start, end), []).append((compiled.rule, outcome[2]))
        out = []
        for (start, end), said in sorted(votes.items(), key=lambda item: (item[0][0], -item[0][1])):
            top = max(rule.priority for rule, _ in said)
            labels = {label for rule, label in said if rule.priority == top}
            if len(labels) == 1:
                out.append((start, end, labels.pop()))
        return out

    def relabel(self, text: str, start: int, end: int, label: str, group: Union[str, Sequence[str]]) -> Optional[str]:
        """The label `apply` gives the span, or None to keep it."""
        new = self.apply(text, start, end, label, group)
        return None if new is None else new[2] or None

    # -- serialization --------------------------------------------------------------------------
    def to_dicts(self) -> Dict[str, Dict[str, Any]]:
        """File name -> the file's JSON object, as the author wrote it (fragments unexpanded)."""
        return {f.name: f.to_dict() for f in self.files}

    @classmethod
    def from_dicts(cls, data: Dict[str, Any], source: str = "", complete: Iterable[str] = ()) -> "CueRuleSet":
        """A saved set (`complete`: as `from_disk`)."""
        return cls(_completed([parse_cue_file(item, name, f"{source}{name}") for name, item in sorted(data.items())],
                              complete))

    def to_disk(self, folder: Union[str, Path]) -> None:
        """One editable JSON file per rule file (`wordlists.write_json_folder`)."""
        write_json_folder(folder, self.to_dicts())

    @classmethod
    def from_disk(cls, folder: Union[str, Path], complete: Iterable[str] = ()) -> "CueRuleSet":
        """A saved folder; the groups of `complete` (those code reads, `cues/labels.RELATION_GROUPS`) and
        those its rules' `yields_from` name are taken from the packaged rules where the folder lacks them
        (a pipeline saved before those rules existed runs as it did; `_completed`)."""
        return cls(_completed(read_cue_files(folder), complete))


def _completed(files: List[CueFile], groups: Iterable[str]) -> List[CueFile]:
    """`files` with the packaged rules of each group of `groups`, or named by a rule's `yields_from`,
    that they lack: added to the file of the packaged file's name, or in that file of its own."""
    present = {rule.group for f in files for rule in f.rules}
    missing = (set(groups) | {g for f in files for rule in f.rules for g in rule.yields_from}) - present
    out = {f.name: f for f in files}
    for packaged in default_cue_files():
        rules = [rule for rule in packaged.rules if rule.group in missing]
        if rules:
            own = out.get(packaged.name)
            out[packaged.name] = (CueFile(packaged.name, packaged.description, packaged.fragments, rules) if own is None
                                  else CueFile(own.name, own.description, {**packaged.fragments, **own.fragments},
                                               own.rules + rules))
    return [out[name] for name in sorted(out)]


@lru_cache(maxsize=1)
def default_cue_rules() -> CueRuleSet:
    """The packaged rule set, compiled once (the rules' validators read it, `cue_frame`)."""
    return CueRuleSet(default_cue_files())


_ACTIVE: ContextVar[Optional[CueRuleSet]] = ContextVar("spacy_deid_cue_rules", default=None)


def active_cue_rules(rules: Optional[CueRuleSet]) -> "ContextManager[None]":
    """Run the block with `rules` in force (None: the packaged ones). WHY a context variable: as for
    the word lists (`wordlists/active.py`), the rules are read deep inside shared labellers
    (`cues/labels.relation_label` has callers in steps, rules' validators and patient steps); the `deid`
    component activates its rules around each call."""
    return in_force(_ACTIVE, rules)


def current_cue_rules() -> CueRuleSet:
    rules = _ACTIVE.get()
    return rules if rules is not None else default_cue_rules()


def cue_frame(text: str, start: int, end: int, label: Optional[str], groups: Union[str, Sequence[str]]
              ) -> Optional[str]:
    """`CueRuleSet.frame` of the rules in force."""
    return current_cue_rules().frame(text, start, end, label, groups)
