"""`deid`: the one-line entry point, `nlp.add_pipe("deid")` on any pipeline.

Design: `deid` is ONE component that holds its own rule, date and surrogate components, built from
their registered factories with `nlp.create_pipe` (so their defaults stay in their own
`default_config`), and serializes them into its own folder (`deid/rules`, `deid/dates`,
`deid/surrogates`). It does not add components to the pipeline: a factory that edits the pipeline
would add them again every time `spacy.load` rebuilds the pipeline from its config, and a wheel from
`spacy package` would break. One component, one config block, one folder: `nlp.to_disk`,
`spacy.load` and `spacy package` work unchanged.

"Adds what is missing": when the pipeline already has a `deid_rules`, `deid_dates` or
`deid_surrogates` component at the time `deid` is added, `deid` does not run its own copy. Entities
already in `doc.ents` (a trained `ner` before `deid`) are merged with the rule and date spans under
the one overlap policy (`spacy_deid.overlap`), marked `span._.source = "ner"`.

Surrogate settings (`key`, `demo_key`, `policy`, `scope`, `date_shift_days`, `age_cap`) are passed to
`deid_surrogates`; `null` means "that component's default". The key is best given at run time in the
environment variable `SPACY_DEID_KEY`, or referenced (`key = "env:VAR"`, `key = "file:PATH"`): a
literal key written in the config would be saved with the pipeline (config.cfg, and a wheel), so
`deid` warns about it at creation and refuses to save such a pipeline (`to_disk`, `to_bytes`, hence
`spacy package`) with an error, removing the config.cfg spaCy wrote just before. Without a key, processing fails unless
`demo_key = true` (a fixed, public key: fine for demos, NOT de-identification).

Cue rules (`spacy_deid.cues`), like `span_ruler`'s patterns: the packaged rule files by default,
`initialize(cue_rules=PATH)` reads a user's file or folder over them, `to_disk` writes the active rules
as editable JSON (`deid/cue_rules/*.json`) and `from_disk` reads that folder back (a pipeline saved
without one, like the shipped pipeline before the rules existed, keeps the packaged rules; one saved
before `relations.json` existed takes that file from the package: `cues/labels` reads its groups). The
refine stage holds them and hands them to its cue steps (`refine/cue_steps.py`); both the rules and the
word lists are in force while `deid` runs (`cues/labels.relation_label` reads them). Word lists
(`spacy_deid.wordlists`: kinship words, titles) are kept the same way (`initialize(word_lists=PATH)`,
`deid/word_lists/*.json`) and are in force while `deid` recognizes and resolves.
"""
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

import srsly
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy import util

from ..extensions import install_extensions
from ..doctext import doc_text
from ..surrogates.keys import discard_config_with_key, is_literal_key, refuse_literal_key
from ..cues import CueRuleSet, active_cue_rules
from ..cues.labels import RELATION_GROUPS
from ..refine.spanshape import SHAPES_GROUP
from ..overlap import OverlapPolicy, merge_into_ents
from ..principles import Principle, PrincipleMatcher, read_principles, write_principles
from ..refine import DEFAULT_NOTE_STEPS, DEFAULT_PATIENT_STEPS, RefineStage
from ..refine.builtin import RULES_OF_FORMER_CODE
from ..refine.prototypes import compute_prototypes, store_prototypes
from ..wordlists import WordLists, active_word_lists, default_word_lists

SUBCOMPONENTS = ("rules", "dates", "surrogates")
FACTORY_OF = {"rules": "deid_rules", "dates": "deid_dates", "surrogates": "deid_surrogates"}
SURROGATE_SETTINGS = ("key", "demo_key", "policy", "scope", "date_shift_days", "age_cap")
CUE_RULES_DIR = "cue_rules"
WORD_LISTS_DIR = "word_lists"
# The cue rule groups code reads, or of a step that was code before: a saved rule folder lacking one
# takes the packaged rules of it (a pipeline saved before runs as it did).
CODE_GROUPS = RELATION_GROUPS + (SHAPES_GROUP,) + RULES_OF_FORMER_CODE


class Deid:
    """Runs rules and dates (what the pipeline lacks), then replaces every PHI span with a surrogate."""

    def __init__(self, nlp: Language, name: str = "deid", *, rules: bool, dates: bool, surrogates: bool,
                 rules_config: Dict[str, Any], dates_config: Dict[str, Any],
                 surrogates_config: Dict[str, Any], overlap_policy: OverlapPolicy,
                 note_steps: Sequence[str] = DEFAULT_NOTE_STEPS,
                 patient_steps: Sequence[str] = DEFAULT_PATIENT_STEPS):
        install_extensions()
        self.name = name
        self.overlap_policy = overlap_policy
        self.refine = RefineStage(note_steps, patient_steps)
        self.principles = PrincipleMatcher()
        self.word_lists: WordLists = default_word_lists()
        self.config_key: Optional[str] = None  # the config's `key`, checked before any save
        present = set(nlp.pipe_factories.values())
        wanted = {"rules": rules, "dates": dates, "surrogates": surrogates}
        configs = {"rules": rules_config, "dates": dates_config, "surrogates": surrogates_config}
        self.parts: Dict[str, Any] = {}
        for part in SUBCOMPONENTS:
            if not wanted[part] or FACTORY_OF[part] in present:
                continue
            if not nlp.has_factory(FACTORY_OF[part]):
                raise ValueError(f"deid: the factory {FACTORY_OF[part]!r} is not registered; "
                                 f"reinstall spacy-deid or set {part} = false")
            self.parts[part] = nlp.create_pipe(FACTORY_OF[part], name=f"{name}_{part}",
                                               config=configs[part])

    # -- parts ----------------------------------------------------------------------------------
    @property
    def rules(self):
        return self.parts.get("rules")

    @property
    def dates(self):
        return self.parts.get("dates")

    @property
    def surrogates(self):
        return self.parts.get("surrogates")

    @property
    def cue_rules(self) -> CueRuleSet:
        """The cue rules the refine stage runs (`spacy_deid.cues`)."""
        return self.refine.cue_rules

    @cue_rules.setter
    def cue_rules(self, rules: CueRuleSet) -> None:
        self.refine.cue_rules = rules

    def _compile_cue_rules(self) -> None:
        """Compile the cue rules with the word lists now, so that a rule naming a list the lists lack is
        refused when the pipeline is set up, not at its first note."""
        self.word_lists.compiled(self.cue_rules.compiled_for)

    # -- processing -----------------------------------------------------------------------------
    def recognize(self, doc: Doc) -> Doc:
        """Find PHI: the entities already in `doc.ents` (a trained NER), the rules' and the date
        finder's spans, merged under one overlap policy; then the refine stage's note steps and patient
        steps on this note, in config order (`note_steps`, `patient_steps`; `spacy_deid.refine`), with the
        pipeline's word lists and cue rules in force."""
        with self._in_force():
            return self._recognize(doc)

    @contextmanager
    def _in_force(self) -> Iterator[None]:
        """The pipeline's word lists and cue rules, for the code that reads them wherever it runs
        (`wordlists/active.py`, `cues/ruleset.current_cue_rules`)."""
        with active_word_lists(self.word_lists), active_cue_rules(self.cue_rules):
            yield

    def _recognize(self, doc: Doc) -> Doc:
        if self.rules is not None:
            self.rules(doc)
        if self.dates is not None:
            self.dates(doc)
        if len(self.principles):
            merge_into_ents(doc, self.principle_spans(doc), self.overlap_policy)
        elif self.rules is None and self.dates is None:
            merge_into_ents(doc, [], self.overlap_policy)  # still mark NER entities' source
        return self.refine.refine_note(doc)

    def principle_spans(self, doc: Doc) -> List[Span]:
        """Spans of the accepted principles (`spacy_deid.principles`), `span._.source = "principle"`;
        a match that does not align with the tokens is left out."""
        spans = []
        for start, end, label in self.principles.find(doc_text(doc)):
            span = doc.char_span(start, end, label=label)
            if span is not None:
                span._.source = "principle"
                spans.append(span)
        return spans

    def add_principles(self, principles: Iterable[Union[Principle, Dict[str, Any]]]) -> None:
        """Add principles (only `accepted` ones run), e.g. those `spacy-deid principles learn` wrote."""
        self.principles.add(p if isinstance(p, Principle) else Principle.from_dict(p) for p in principles)

    def resolve(self, docs: List[Doc]) -> List[Doc]:
        """Over one patient's notes: re-resolve ambiguous dates (majority vote), then the patient steps
        over all the notes together (names found in one note marked in the others, ...)."""
        if self.dates is not None and hasattr(self.dates, "resolve_docs"):
            self.dates.resolve_docs(docs, same_patient=True)
        with self._in_force():
            self.refine.refine_patient(docs)
        return docs

    def resynthesize(self, doc: Doc) -> Doc:
        """Write `doc._.deid_text` and `doc._.replacements` (no-op when surrogates are off)."""
        if self.surrogates is not None:
            self.surrogates(doc)
        return doc

    def __call__(self, doc: Doc, resynthesize: bool = True) -> Doc:
        """`resynthesize=False` (via `component_cfg`) stops after recognition, so the batch API can
        vote on a patient's dates across notes before any surrogate is chosen."""
        self.recognize(doc)
        if resynthesize:
            self.resynthesize(doc)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128, resynthesize: bool = True
             ) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc, resynthesize=resynthesize)

    def initialize(self, get_examples: Optional[Callable[[], Iterable[Example]]] = None, *,
                   nlp: Optional[Language] = None, rules: Optional[Dict[str, Any]] = None,
                   dates: Optional[Dict[str, Any]] = None,
                   surrogates: Optional[Dict[str, Any]] = None, principles: Optional[str] = None,
                   prototypes: bool = False, cue_rules: Optional[Union[str, Path]] = None,
                   word_lists: Optional[Union[str, Path]] = None) -> None:
        """Initialize each part; `[initialize.components.deid.rules]` etc. pass their settings on
        (e.g. extra `patterns` for the rules); `principles` is a principle file (JSON) to load;
        `prototypes` computes the subcategory prototypes of the `prototypes` step from the training
        examples' gold spans (`refine/prototypes.py`; saved in the vocab's lookups); `cue_rules` is a
        cue rule file or folder, read over the packaged files (a file of the same name replaces one), and
        `word_lists` a word list file or folder, read the same way (`spacy_deid.wordlists`)."""
        if cue_rules:
            self.cue_rules = CueRuleSet.from_path(cue_rules)
        if word_lists:
            self.word_lists = WordLists.from_path(word_lists)
        self._compile_cue_rules()
        if principles:
            self.principles = PrincipleMatcher(read_principles(principles))
        if prototypes and get_examples is not None and nlp is not None:
            store_prototypes(nlp.vocab, compute_prototypes(get_examples()))
        settings = {"rules": rules or {}, "dates": dates or {}, "surrogates": surrogates or {}}
        for part, comp in self.parts.items():
            if hasattr(comp, "initialize"):
                comp.initialize(get_examples, nlp=nlp, **settings[part])

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """The parts' own scores (`deid_rules_*`, `deid_dates_*`, ...), merged."""
        examples = list(examples)
        scores: Dict[str, Any] = {}
        for comp in self.parts.values():
            if hasattr(comp, "score"):
                scores.update(comp.score(examples, **kwargs))
        return scores

    # -- serialization --------------------------------------------------------------------------
    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = util.ensure_path(path)
        if is_literal_key(self.config_key):  # spaCy has just written config.cfg, key included
            discard_config_with_key(path.parent, self.config_key)
            refuse_literal_key(self.config_key, f"deid {self.name!r}")
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "parts.json", sorted(self.parts))
        if self.principles.principles:
            write_principles(self.principles.principles, path / "principles.json")
        self.cue_rules.to_disk(path / CUE_RULES_DIR)
        self.word_lists.to_disk(path / WORD_LISTS_DIR)
        for part, comp in self.parts.items():
            if hasattr(comp, "to_disk"):
                comp.to_disk(path / part, exclude=exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Deid":
        path = util.ensure_path(path)
        if (path / "principles.json").exists():
            self.principles = PrincipleMatcher(read_principles(path / "principles.json"))
        if (path / CUE_RULES_DIR).is_dir():
            self.cue_rules = CueRuleSet.from_disk(path / CUE_RULES_DIR, complete=CODE_GROUPS)
        if (path / WORD_LISTS_DIR).is_dir():
            self.word_lists = WordLists.from_disk(path / WORD_LISTS_DIR)
        self._compile_cue_rules()
        for part, comp in self.parts.items():
            if hasattr(comp, "from_disk") and (path / part).exists():
                comp.from_disk(path / part, exclude=exclude)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        refuse_literal_key(self.config_key, f"deid {self.name!r}")
        data = {part: comp.to_bytes(exclude=exclude) for part, comp in self.parts.items()
                if hasattr(comp, "to_bytes")}
        data["principles"] = [p.to_dict() for p in self.principles.principles]
        data[CUE_RULES_DIR] = self.cue_rules.to_dicts()
        data[WORD_LISTS_DIR] = self.word_lists.to_dicts()
        return srsly.msgpack_dumps(data)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "Deid":
        data = srsly.msgpack_loads(bytes_data)
        self.principles = PrincipleMatcher(Principle.from_dict(p) for p in data.get("principles", []))
        if CUE_RULES_DIR in data:
            self.cue_rules = CueRuleSet.from_dicts(data[CUE_RULES_DIR], source="deid bytes: ",
                                                   complete=CODE_GROUPS)
        if WORD_LISTS_DIR in data:
            self.word_lists = WordLists.from_dicts(data[WORD_LISTS_DIR], source="deid bytes: ")
        self._compile_cue_rules()
        for part, comp in self.parts.items():
            if part in data and hasattr(comp, "from_bytes"):
                comp.from_bytes(data[part], exclude=exclude)
        return self


def _surrogate_config(surrogates_config: Dict[str, Any], settings: Dict[str, Any]) -> Dict[str, Any]:
    config = dict(surrogates_config)
    for key, value in settings.items():
        if value is not None:
            config[key] = value
    return config


@Language.factory(
    "deid",
    assigns=["doc.ents", "span._.source", "span._.date_readings", "span._.surrogate", "doc._.deid_text",
             "doc._.replacements"],
    default_config={
        "rules": True,
        "dates": True,
        "surrogates": True,
        "key": None,
        "demo_key": None,
        "policy": None,
        "scope": None,
        "date_shift_days": None,
        "age_cap": None,
        "rules_config": {},
        "dates_config": {},
        "surrogates_config": {},
        "overlap_policy": {"@misc": "spacy_deid.LongestSpanWins.v1"},
        "note_steps": list(DEFAULT_NOTE_STEPS),
        "patient_steps": list(DEFAULT_PATIENT_STEPS),
    },
    default_score_weights={"deid_rules_f": 0.5, "deid_dates_f": 0.5},
)
def make_deid(nlp: Language, name: str, *, rules: bool, dates: bool, surrogates: bool, key: Optional[str],
              demo_key: Optional[bool], policy: Optional[Any], scope: Optional[Any],
              date_shift_days: Optional[Any], age_cap: Optional[Any], rules_config: Dict[str, Any],
              dates_config: Dict[str, Any], surrogates_config: Dict[str, Any],
              overlap_policy: OverlapPolicy, note_steps: List[str], patient_steps: List[str]) -> Deid:
    """`rules`/`dates`/`surrogates` switch parts off; `*_config` override a part's own defaults;
    the surrogate settings (`key` ... `age_cap`) are `null` for "deid_surrogates' default";
    `note_steps` and `patient_steps` name the refine stage's registered steps, run in that order
    (`spacy_deid.refine`; an empty list switches the stage off)."""
    if key is not None and not str(key).startswith(("env:", "file:")):
        warnings.warn("deid: a literal key in the config would be saved with the pipeline (config.cfg, "
                      "wheels), so saving this pipeline is refused; prefer the SPACY_DEID_KEY "
                      "environment variable or a reference (key = \"env:VAR\" or \"file:PATH\")",
                      UserWarning, stacklevel=2)
    settings = {"key": key, "demo_key": demo_key, "policy": policy, "scope": scope,
                "date_shift_days": date_shift_days, "age_cap": age_cap}
    deid = Deid(nlp, name, rules=rules, dates=dates, surrogates=surrogates, rules_config=rules_config,
                dates_config=dates_config,
                surrogates_config=_surrogate_config(surrogates_config, settings),
                overlap_policy=overlap_policy, note_steps=note_steps, patient_steps=patient_steps)
    deid.config_key = key
    return deid
