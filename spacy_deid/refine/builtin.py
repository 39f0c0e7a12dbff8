"""The built-in refine steps, registered under the names the `deid` config lists.

Span repairs (`repairs.span_repair`) take one NER span (with the entity after it) and return its
repaired span, spans where one is split, or None to keep it; they change only spans whose source is the
NER (a rule or the date finder read its own context). The WHY of each lives in its module:
- `ner_shapes` (`spanshape`): a NER span whose text cannot carry its label is dropped;
- `joined_institutions` (`institutions.joined`): two NER spans one institution was cut into are one;
- `edges`, `relations`, `institutions`, `departments` (`CODE_AND_RULES`): the cue rules of a group and
  a module's repair. `edges` and `relations` run the rules first, so that the code reads what they cut
  (`edges.json`: punctuation, a preposition, function word or activity at a span's edges, a district's
  first character, then `spanedges.trimmed`; `relation_word_in_span`: a relation word or title a span starts with, then
  `relations.by_relation`); `institutions` and `departments` run their module's repair first, then
  their rules (`institutions.json`: a span grows to the type word after it, and one that ends with a
  type word takes its label;
  `departments.json`: a department's span drops a field's label, `of` and a visit word);
- `jurisdictions`, `titles`, `workplaces`, `care_or_study`, `apposition` (a relation word no frame
  states as an occupation is no PROFESSION), `not_phi` (spans the words
  around them or their shape say are no PHI: section heads, measured values, spoken words): the cue rules of those groups
  (`cue_steps.CueStep`; the rules and their WHY in `resources/cue_rules/*.json`), run on the rule set
  the stage holds;
- `restore_displaced` (`overlap.restore_displaced`): a rule's, date's or principle's span that a longer
  NER span displaced in the merge comes back where the steps before trimmed or dropped that span;
- `cued_names`: adds a name a relation word or title marks, where nothing was found;
- `cued_spans`: the cue rules that add a span where nothing was found (`finds`: a hospital after a word
  of transfer, `resources/cue_rules/cued_spans.json`);
- `prototypes` (`prototypes.py`, optional): a span takes the subcategory whose prototype context is
  closest to its own.
Patient steps read one patient's notes together (in `recognize`, the one note): `propagate` (first the
cue rules of group `given_name_after_surname`, `given_names.json`), `spread_relations`, `given_names`.
"""
from typing import Dict, Sequence, Tuple

from spacy.tokens import Doc

from .cued_names import cued_names
from ..cues import current_cue_rules
from ..doctext import doc_text
from ..departments import by_department
from .institutions import completed, joined
from .name_parts import relabel_given_names
from ..overlap import restore_displaced
from .propagate import propagate, spread_relations
from .relations import by_relation
from .spanedges import trimmed
from .spanshape import drop_misshapen
from .cue_steps import CueStep
from .prototypes import relabel_by_prototype
from .registry import note_steps, patient_steps
from .repairs import SpanRepair, apply_span_repair, span_repair

__all__ = ["SpanRepair", "apply_span_repair", "span_repair", "CUE_STEPS", "CODE_AND_RULES", "RULES_OF_FORMER_CODE"]

# steps that run a group of the pipeline's cue rules (the stage passes the rules)
CUE_STEPS = ("jurisdictions", "titles", "workplaces", "care_or_study", "apposition", "not_phi", "cued_spans")
for _group in CUE_STEPS:
    note_steps.register(_group, func=CueStep(_group))
# steps whose knowledge is partly code (a span repair) and partly rules: step -> (rule group, repair,
# whether the rules run first)
CODE_AND_RULES: Dict[str, Tuple[str, SpanRepair, bool]] = {
    "edges": ("edges", trimmed, True), "institutions": ("institutions", completed, False),
    "departments": ("departments", by_department, False), "relations": ("relation_word_in_span", by_relation, True),
}
for _name, (_group, _repair, _first) in CODE_AND_RULES.items():
    note_steps.register(_name, func=CueStep(_group, code=_repair, rules_first=_first))
# `propagate` first grows the names a span cut short by the rules of this group (a given name after a
# tagged surname, `given_names.json`), so the full name is what spreads
GIVEN_NAMES_GROUP = "given_name_after_surname"
_GIVEN_NAMES = CueStep(GIVEN_NAMES_GROUP)
# the groups of steps that were code alone before (a pipeline saved then has no rule file of theirs:
# `deid` completes its rules with the packaged ones of these groups)
RULES_OF_FORMER_CODE = ("apposition", GIVEN_NAMES_GROUP) + tuple(group for group, _, _ in CODE_AND_RULES.values())


@note_steps.register("ner_shapes")
def ner_shapes(doc: Doc, text: str) -> int:
    return len(drop_misshapen(doc)) if doc.ents else 0


@note_steps.register("joined_institutions")
def joined_institutions(doc: Doc, text: str) -> int:
    return joined(doc, text) if doc.ents else 0


note_steps.register("prototypes", func=relabel_by_prototype)  # optional: not in the default steps


@note_steps.register("restore_displaced")
def put_back_displaced(doc: Doc, text: str) -> int:
    return restore_displaced(doc)


@note_steps.register("cued_names")
def add_cued_names(doc: Doc, text: str) -> int:
    return len(cued_names(doc))


# the patient-level passes are steps as they are: (docs) -> spans changed
@patient_steps.register("propagate")
def propagate_found(docs: Sequence[Doc]) -> int:
    """Grow a given name after a tagged surname into its span (the cue rules of `given_names.json`, in
    force while `deid` runs), then mark what was found wherever it stands (`propagate.propagate`);
    returns how many spans changed."""
    rules = current_cue_rules()
    return sum(_GIVEN_NAMES(doc, doc_text(doc), rules) for doc in docs) + propagate(docs)
patient_steps.register("spread_relations", func=spread_relations)
patient_steps.register("given_names", func=relabel_given_names)
