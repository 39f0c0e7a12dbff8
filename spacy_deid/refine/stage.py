"""`RefineStage`: the steps a `deid` config names, looked up in the registries and run in config order.

Each run adds its steps' counts of changed spans to `doc.user_data[COUNTS_KEY]` (step name -> count;
plain data, so it travels through `Doc.to_bytes` and worker processes), for `step_counts` and the
per-step evaluation (`scripts/evaluate_steps.py`). Counts only: span text is PHI.

The stage holds the pipeline's cue rules (`cue_rules`, a compiled `spacy_deid.cues.CueRuleSet`: the
packaged ones unless the `deid` component read others) and hands them to the steps that run them
(`cue_steps.CueStep`; WHY there).
"""
import warnings
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..cues import CueRuleSet, default_cue_rules
from ..doctext import doc_text
from .cue_steps import CueStep, named_cue_step
from .registry import NoteStep, PatientStep, note_steps, patient_steps

COUNTS_KEY = "deid_refine_counts"

# After the merge, in this order: the span repairs, the shape check on what they made of each span,
# the recognizers' spans those displaced put back, then the steps that add spans where nothing stands.
# `edges` runs again once `institutions` has made a span an institution.
DEFAULT_NOTE_STEPS: Tuple[str, ...] = (
    "joined_institutions", "edges", "jurisdictions", "institutions", "edges", "departments", "workplaces",
    "care_or_study", "titles", "relations", "apposition", "not_phi", "ner_shapes", "restore_displaced",
    "cued_names", "cued_spans",
)
DEFAULT_PATIENT_STEPS: Tuple[str, ...] = ("propagate", "spread_relations", "given_names")
# Steps deleted because leaving them out moved nothing measurable (docs/results_history.md, twenty-ninth
# session: together at most 0.22 strict F on the synthetic splits, nothing on real text). A pipeline
# saved before still names them in its config: it loads, with a warning, and runs without them.
RETIRED_STEPS = frozenset({"districts", "hospital_physician", "name_ends", "hospital_units", "not_the_patient"})


def _resolve(registry, names: Iterable[str], kind: str) -> List[Tuple[str, object]]:
    steps = []
    for name in names:
        if name in RETIRED_STEPS:
            warnings.warn(f"deid: the {kind} step {name!r} was retired (it moved nothing measurable) and "
                          f"is skipped; drop it from the pipeline's config")
            continue
        cue_step = named_cue_step(name) if kind == "note" else None
        if cue_step is not None:
            steps.append((name, cue_step))
            continue
        try:
            steps.append((name, registry.get(name)))
        except Exception as err:  # catalogue.RegistryError: name it and list what exists
            known = ", ".join(sorted(registry.get_all()))
            raise ValueError(f"deid: unknown {kind} step {name!r}; registered: {known}"
                             + ("; or cues:GROUP for a group of cue rules" if kind == "note" else "")) from err
    return steps


def _count(doc: Doc, name: str, changed: int) -> None:
    counts = doc.user_data.setdefault(COUNTS_KEY, {})
    counts[name] = counts.get(name, 0) + changed


class RefineStage:
    """The note steps (run on each note after the recognizers' spans are merged) and the patient steps
    (run on the note, then again on all of a patient's notes once they are together); `cue_rules` for
    the steps that run cue rules (None: the packaged ones)."""

    def __init__(self, note_step_names: Sequence[str] = DEFAULT_NOTE_STEPS,
                 patient_step_names: Sequence[str] = DEFAULT_PATIENT_STEPS,
                 cue_rules: Optional[CueRuleSet] = None):
        self.note_step_names = list(note_step_names)
        self.patient_step_names = list(patient_step_names)
        self._note: List[Tuple[str, NoteStep]] = _resolve(note_steps, self.note_step_names, "note")  # type: ignore
        self._patient: List[Tuple[str, PatientStep]] = _resolve(patient_steps, self.patient_step_names,
                                                                "patient")  # type: ignore
        # checked when rules are set (initialize, a saved pipeline) and before the first note: a
        # `cues:GROUP` step's own rules arrive with `deid.initialize(cue_rules=...)`, after construction
        self._cue_rules: CueRuleSet = cue_rules if cue_rules is not None else default_cue_rules()
        self._rules_checked = False

    @property
    def cue_rules(self) -> CueRuleSet:
        return self._cue_rules

    @cue_rules.setter
    def cue_rules(self, rules: CueRuleSet) -> None:
        """A configured cue step whose group the rules lack would quietly change nothing (a saved rule
        folder without that group's file): an error that names the step and the groups there are."""
        self._check(rules)
        self._cue_rules = rules

    def _check(self, rules: CueRuleSet) -> None:
        missing = [name for name, step in self._note
                   if isinstance(step, CueStep) and step.group not in rules.groups]
        if missing:
            raise ValueError(f"deid: the note steps {missing} run cue rule groups the pipeline's cue rules "
                             f"lack (groups: {', '.join(rules.groups) or 'none'}); add their rule files "
                             f"(spacy_deid/resources/cue_rules/) to the rule folder or drop the steps")
        self._rules_checked = True

    @property
    def note_steps(self) -> List[Tuple[str, NoteStep]]:
        """(name, step) of the note steps, in order (a step named twice runs twice)."""
        return list(self._note)

    @property
    def patient_steps(self) -> List[Tuple[str, PatientStep]]:
        return list(self._patient)

    def refine_note(self, doc: Doc) -> Doc:
        if not self._rules_checked:
            self._check(self._cue_rules)
        text = doc_text(doc)
        for name, step in self._note:
            changed = step(doc, text, self.cue_rules) if isinstance(step, CueStep) else step(doc, text)
            _count(doc, name, changed)
        return self.refine_patient([doc])[0]

    def refine_patient(self, docs: Sequence[Doc]) -> Sequence[Doc]:
        for name, step in self._patient:
            changed = step(docs)
            if docs:  # a patient's count is kept on its first note
                _count(docs[0], name, changed)
        return docs


def step_counts(docs: Iterable[Doc]) -> Dict[str, int]:
    """Changed spans per step, summed over `docs`."""
    total: Dict[str, int] = {}
    for doc in docs:
        for name, count in doc.user_data.get(COUNTS_KEY, {}).items():
            total[name] = total.get(name, 0) + count
    return total
