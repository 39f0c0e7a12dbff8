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
literal key written in the config is saved with the pipeline (config.cfg, and a wheel), which is why
`deid` warns about it. Without a key, processing fails unless
`demo_key = true` (a fixed, public key: fine for demos, NOT de-identification).
"""
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

import srsly
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy import util

from ..doctext import doc_text
from ..extensions import install_extensions
from ..repairs import repair_ner_spans
from ..overlap import OverlapPolicy, merge_into_ents
from ..cued_names import cued_names as add_cued_names
from ..hospital_units import hospital_units as add_hospital_units
from ..patient_identity import relabel_not_the_patient
from ..name_parts import relabel_given_names
from ..propagate import propagate, spread_relations
from ..spanshape import drop_misshapen

SUBCOMPONENTS = ("rules", "dates", "surrogates")
FACTORY_OF = {"rules": "deid_rules", "dates": "deid_dates", "surrogates": "deid_surrogates"}
SURROGATE_SETTINGS = ("key", "demo_key", "policy", "scope", "date_shift_days", "age_cap")


class Deid:
    """Runs rules and dates (what the pipeline lacks), then replaces every PHI span with a surrogate."""

    def __init__(self, nlp: Language, name: str = "deid", *, rules: bool, dates: bool, surrogates: bool,
                 rules_config: Dict[str, Any], dates_config: Dict[str, Any],
                 surrogates_config: Dict[str, Any], overlap_policy: OverlapPolicy,
                 check_ner_shapes: bool = True, propagate_found: bool = True,
                 repair_ner_spans: bool = True, cued_names: bool = True, hospital_units: bool = True,
                 patient_identity: bool = True):
        install_extensions()
        self.name = name
        self.overlap_policy = overlap_policy
        self.check_ner_shapes = check_ner_shapes
        self.propagate_found = propagate_found
        self.repair_ner_spans = repair_ner_spans
        self.cued_names = cued_names
        self.hospital_units = hospital_units
        self.patient_identity = patient_identity
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

    # -- processing -----------------------------------------------------------------------------
    def recognize(self, doc: Doc) -> Doc:
        """Find PHI: rules, then dates (resolved within the document), merged with existing entities;
        then the other occurrences of the names, professions and places found, the label a relation
        word says of a name in every mention of it, and a lone given name's role from the full name that
        holds it (`propagate_found`; `name_parts`).
        NER entities that cannot carry their label (`spanshape`) are dropped first, and the others
        repaired where general knowledge of names decides (`repairs`: edges, type words, relations);
        English names that a relation word or title marks are added where nothing was found
        (`cued_names`), and departments written right after a hospital (`hospital_units`)."""
        if self.check_ner_shapes and doc.ents:
            drop_misshapen(doc)
        if self.repair_ner_spans and doc.ents:
            repair_ner_spans(doc, doc_text(doc))
        if self.rules is not None:
            self.rules(doc)
        if self.dates is not None:
            self.dates(doc)
        if self.rules is None and self.dates is None:
            merge_into_ents(doc, [], self.overlap_policy)  # still mark NER entities' source
        if self.cued_names:
            add_cued_names(doc)
        if self.hospital_units:
            add_hospital_units(doc)
        if self.propagate_found:
            propagate([doc])
            spread_relations([doc])
            relabel_given_names([doc])
        if self.patient_identity:
            relabel_not_the_patient([doc])
        return doc

    def resolve(self, docs: List[Doc]) -> List[Doc]:
        """Over one patient's notes: re-resolve ambiguous dates (majority vote), and mark in every note
        the names, professions and places found in any of them, with the labels relation words say and
        the roles full names give their given names (`propagate_found`; `name_parts`)."""
        if self.dates is not None and hasattr(self.dates, "resolve_docs"):
            self.dates.resolve_docs(docs, same_patient=True)
        if self.propagate_found:
            propagate(docs)
            spread_relations(docs)
            relabel_given_names(docs)
        if self.patient_identity:
            relabel_not_the_patient(docs)
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
                   surrogates: Optional[Dict[str, Any]] = None) -> None:
        """Initialize each part; `[initialize.components.deid.rules]` etc. pass their settings on
        (e.g. extra `patterns` for the rules)."""
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
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "parts.json", sorted(self.parts))
        for part, comp in self.parts.items():
            if hasattr(comp, "to_disk"):
                comp.to_disk(path / part, exclude=exclude)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "Deid":
        path = util.ensure_path(path)
        for part, comp in self.parts.items():
            if hasattr(comp, "from_disk") and (path / part).exists():
                comp.from_disk(path / part, exclude=exclude)
        return self

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        data = {part: comp.to_bytes(exclude=exclude) for part, comp in self.parts.items()
                if hasattr(comp, "to_bytes")}
        return srsly.msgpack_dumps(data)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "Deid":
        data = srsly.msgpack_loads(bytes_data)
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
        "check_ner_shapes": True,
        "propagate_found": True,
        "repair_ner_spans": True,
        "cued_names": True,
        "hospital_units": True,
        "patient_identity": True,
    },
    default_score_weights={"deid_rules_f": 0.5, "deid_dates_f": 0.5},
)
def make_deid(nlp: Language, name: str, *, rules: bool, dates: bool, surrogates: bool, key: Optional[str],
              demo_key: Optional[bool], policy: Optional[Any], scope: Optional[Any],
              date_shift_days: Optional[Any], age_cap: Optional[Any], rules_config: Dict[str, Any],
              dates_config: Dict[str, Any], surrogates_config: Dict[str, Any],
              overlap_policy: OverlapPolicy, check_ner_shapes: bool, propagate_found: bool,
              repair_ner_spans: bool, cued_names: bool, hospital_units: bool, patient_identity: bool) -> Deid:
    """`rules`/`dates`/`surrogates` switch parts off; `*_config` override a part's own defaults;
    the surrogate settings (`key` ... `age_cap`) are `null` for "deid_surrogates' default";
    `check_ner_shapes` drops NER spans whose text cannot carry their label (see `spanshape`);
    `propagate_found` marks the other occurrences of a found name, profession or place in the note
    and, in `resolve`, in the patient's other notes (see `propagate`); `repair_ner_spans` trims,
    completes and relabels NER spans where general knowledge of names decides (see `repairs`);
    `cued_names` adds English names a relation word or title marks where nothing was found;
    `hospital_units` adds the department written right after a hospital (see `hospital_units`);
    `patient_identity` relabels a name called the patient as a relative where its title states the
    other sex, or its bare surname another surname, than the patient's notes write (`patient_identity`)."""
    if key is not None and not str(key).startswith(("env:", "file:")):
        warnings.warn("deid: a key in the config is saved with the pipeline (config.cfg, wheels); "
                      "prefer the SPACY_DEID_KEY environment variable or a reference "
                      "(key = \"env:VAR\" or \"file:PATH\")", UserWarning, stacklevel=2)
    settings = {"key": key, "demo_key": demo_key, "policy": policy, "scope": scope,
                "date_shift_days": date_shift_days, "age_cap": age_cap}
    return Deid(nlp, name, rules=rules, dates=dates, surrogates=surrogates, rules_config=rules_config,
                dates_config=dates_config,
                surrogates_config=_surrogate_config(surrogates_config, settings),
                overlap_policy=overlap_policy, check_ner_shapes=check_ner_shapes,
                propagate_found=propagate_found, repair_ner_spans=repair_ner_spans, cued_names=cued_names,
                hospital_units=hospital_units, patient_identity=patient_identity)
