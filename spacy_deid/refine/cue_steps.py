"""Steps that run a group of cue rules (`spacy_deid.cues`) on the NER's spans, and on the spans of the
other recognizers a rule of the group names (`CueRule.sources`: `not_phi` reads the date finder's values
too): `jurisdictions`, `titles`, `workplaces`, `care_or_study` and `not_phi` are the groups of the
packaged rule files; `cues:GROUP` in the config runs any group, a user's own included. A group's rules
that add spans (`CueRule.finds`: `cued_spans`, a hospital after a word of transfer) add them where no
entity stands, with the source `cued`, after its other rules have read the spans there are.

WHY the stage hands the rules to the step (`CueStep.__call__(doc, text, rules)`) instead of the step
reading a module-level default: the rules are the pipeline's, read in `deid.initialize(cue_rules=...)`
or from the saved pipeline, so two pipelines in one process may run different rules. The stage holds
one compiled set (`RefineStage.cue_rules`) and passes it on; a vocab lookups table (as `prototypes`
uses) would be saved in the vocab, not as editable files under `deid/`, and recompiled per doc.
"""
from typing import Optional

from spacy.tokens import Doc, Span

from ..cues import DROPPED, CueRuleSet
from ..overlap import add_where_free
from .repairs import SpanRepair, apply_span_repair

PREFIX = "cues:"
SOURCE = "cued"  # the source of the spans a group's `finds` rules add


def cue_repair(rules: CueRuleSet, group: str) -> SpanRepair:
    """The span repair that relabels, cuts, grows or drops a span as those of `group`'s rules of `rules` that
    read its source say (`CueRuleSet.apply`); a relabelled or cut span keeps its source, unless it is
    now the very span a rule found."""
    def repair(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
        source = ent._.source or "ner"
        new = rules.apply(text, ent.start_char, ent.end_char, ent.label_, group, source)
        if new is None:
            return None
        start, end, label = new
        if label == DROPPED:
            return ()  # no span in its place
        if (start, end) == (ent.start_char, ent.end_char):
            span = Span(doc, ent.start, ent.end, label=label)
        else:
            span = doc.char_span(start, end, label=label)  # None (kept) where the cut splits a token
        if span is not None and ent._.source is not None and span._.source is None:
            span._.source = ent._.source  # a cut to the very span a rule found stays the rule's
        return span
    return repair


class CueStep:
    """A note step that reads the stage's cue rules: relabel, cut, grow or drop each span the rules of `group`
    read (the NER's, and those of the recognizers a rule names) as they say, then add the spans its
    `finds` rules find where nothing stands. A step whose knowledge is partly rules and partly code
    (`departments`) runs its `code` span repair on the NER's spans first, or after the rules with
    `rules_first` (`edges`: the code reads a span without the punctuation the rules cut)."""

    def __init__(self, group: str, code: Optional[SpanRepair] = None, rules_first: bool = False):
        self.group = group
        self.code = code
        self.rules_first = rules_first
        self.__doc__ = f"Relabel, cut, grow, drop or add spans by the cue rules of group {group!r} (spacy_deid.cues)."

    def __call__(self, doc: Doc, text: str, rules: CueRuleSet) -> int:
        changed = self._code(doc, text) if not self.rules_first else 0
        if doc.ents:
            changed += apply_span_repair(doc, text, cue_repair(rules, self.group), rules.sources(self.group))
        changed += self._code(doc, text) if self.rules_first else 0
        return changed + len(add_where_free(doc, rules.find(text, self.group), SOURCE))

    def _code(self, doc: Doc, text: str) -> int:
        return apply_span_repair(doc, text, self.code) if doc.ents and self.code is not None else 0


def named_cue_step(name: str) -> Optional[CueStep]:
    """`cues:GROUP` -> the step of that group; any other name is no cue step."""
    return CueStep(name[len(PREFIX):]) if name.startswith(PREFIX) and len(name) > len(PREFIX) else None
