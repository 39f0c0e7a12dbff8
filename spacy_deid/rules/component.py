"""`deid_rules`: validated pattern recognizers as a spaCy component.

Patterns are data (`resources/patterns/*.json` or a hospital's own files), loaded in `initialize()`
and serialized with the pipeline, so a packaged wheel needs neither the source tree nor the original
pattern files. Phrase-list rules (`places.json`: countries, regions, cities, nationalities) also
correct a NER place span that runs on past a known place (`[韓國出差]` -> `[韓國]`; `known_places.py`).
A pipeline built with `add_pipe` and never initialized (the one-line use on a blank pipeline) loads its
configured patterns on first use instead of failing.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import srsly
from spacy.language import Language
from spacy.scorer import PRFScore
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry
from spacy import util

from ..doctext import doc_text
from ..extensions import install_extensions
from ..overlap import OverlapPolicy, merge_into_ents
from .loading import load_patterns, override
from .known_places import named_institutions, overrun_ents
from .matcher import CompiledRule, RuleMatch, compile_rules, find_matches
from .rule import PatternRule
from .validators import Validators

SOURCE = "rule"


def _rule_span(doc: Doc, m: RuleMatch) -> Optional[Span]:
    """The span of a character match. A match inside a token (`Tel0912345678` is one token) is widened
    to whole tokens: for de-identification, removing a few extra characters beats leaking the number."""
    span = doc.char_span(m.start, m.end, label=m.label, alignment_mode="strict")
    if span is None:
        span = doc.char_span(m.start, m.end, label=m.label, alignment_mode="expand")
    if span is None or not len(span):
        return None
    span._.source = SOURCE
    return span


def rule_spans(doc: Doc, matches: Sequence[RuleMatch]) -> List[Span]:
    """Spans for character matches (see `_rule_span`)."""
    return [span for span in (_rule_span(doc, m) for m in matches) if span is not None]


class DeidRules:
    """Finds IDs, phones, e-mails, URLs, record numbers, rooms and bed/house numbers by pattern."""

    def __init__(self, nlp: Language, name: str = "deid_rules", *, patterns: str,
                 overlap_policy: OverlapPolicy, validators: Validators, scorer: Optional[Callable]):
        install_extensions()
        self.nlp = nlp
        self.name = name
        self.patterns_spec = patterns
        self.overlap_policy = overlap_policy
        self.validators = validators
        self.scorer = scorer
        self._rules: List[PatternRule] = []
        self._compiled: List[CompiledRule] = []
        self._phrase_rule_ids: frozenset = frozenset()
        self._initialized = False

    # -- state ----------------------------------------------------------------------------------
    @property
    def rules(self) -> List[PatternRule]:
        self._ensure_loaded()
        return list(self._rules)

    @property
    def labels(self) -> List[str]:
        return sorted({r.label for r in self.rules})

    def set_rules(self, rules: Sequence[PatternRule]) -> None:
        self._compiled = compile_rules(rules, self.validators)  # validates names before replacing
        self._rules = list(rules)
        self._phrase_rule_ids = frozenset(r.id for r in rules if r.phrases)
        self._initialized = True

    def add_patterns(self, patterns: Iterable[Union[PatternRule, Dict[str, Any]]]) -> None:
        """Add rules (dicts or PatternRule); a rule with an existing id replaces it."""
        self.set_rules(override(self.rules, patterns))

    def clear(self) -> None:
        self._rules, self._compiled = [], []
        self._initialized = True

    def _ensure_loaded(self) -> None:
        if not self._initialized:
            self.set_rules(load_patterns(self.patterns_spec))

    def initialize(self, get_examples: Optional[Callable[[], Iterable[Example]]] = None, *,
                   nlp: Optional[Language] = None,
                   patterns: Optional[Sequence[Dict[str, Any]]] = None,
                   pattern_files: Optional[Sequence[str]] = None) -> None:
        """Load the configured patterns, then extra `patterns` (dicts) and `pattern_files`
        (`[initialize.components.deid_rules]`). Safe to call twice: starts from scratch."""
        rules = load_patterns(self.patterns_spec)
        for path in pattern_files or ():
            rules = override(rules, load_patterns(path))
        rules = override(rules, patterns or ())
        self.set_rules(rules)

    # -- processing -----------------------------------------------------------------------------
    def find(self, doc: Doc) -> List[Span]:
        """The rule spans of `doc`, overlaps not yet resolved (for callers that merge themselves)."""
        return self._find(doc, doc_text(doc))[0]

    def _find(self, doc: Doc, text: str) -> Tuple[List[Span], List[Span]]:
        """(every rule span, the spans of phrase-list rules among them)."""
        self._ensure_loaded()
        spans, places = [], []
        for m in find_matches(text, self._compiled, self.validators):
            span = _rule_span(doc, m)
            if span is not None:
                (places if m.rule_id in self._phrase_rule_ids else spans).append(span)
        # A city before an institution's type word names the institution (`台中監獄`; `known_places.py`).
        places = named_institutions(doc, text, places)
        return spans + places, places

    def __call__(self, doc: Doc) -> Doc:
        # spaCy keys span extensions by character offsets only, so a rule span with exactly the
        # offsets of an existing entity would overwrite that entity's `source` and the policy could
        # not tell them apart. Mark existing entities first, then settle exact-offset ties here the
        # way the default policy does (rule > date > ner): the rule's label wins.
        # A NER place span that runs on past a known place gives way to it (`known_places.py`).
        merge_into_ents(doc, [], self.overlap_policy)
        text = doc_text(doc)
        spans, places = self._find(doc, text)
        taken = {(s.start_char, s.end_char) for s in spans}
        taken.update((e.start_char, e.end_char) for e in overrun_ents(doc, text, places))
        kept = [e for e in doc.ents if (e.start_char, e.end_char) not in taken]
        if len(kept) != len(doc.ents):
            doc.ents = kept
        for span in spans:
            span._.source = SOURCE
        merge_into_ents(doc, spans, self.overlap_policy)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        if self.scorer is None:
            return {}
        return self.scorer(examples, labels=self.labels)

    # -- serialization --------------------------------------------------------------------------
    def _patterns_data(self) -> List[Dict[str, Any]]:
        return [r.to_dict() for r in self.rules]

    def _load_data(self, data: Optional[List[Dict[str, Any]]]) -> None:
        if data is None:  # a pipeline saved before it had patterns: fall back to the config
            self._initialized = False
            return
        self.set_rules([PatternRule.from_dict(d, source="serialized pipeline") for d in data])

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps({"patterns": self._patterns_data()})

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "DeidRules":
        self._load_data(srsly.msgpack_loads(bytes_data).get("patterns"))
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = util.ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "patterns.json", self._patterns_data())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "DeidRules":
        file = util.ensure_path(path) / "patterns.json"
        self._load_data(srsly.read_json(file) if file.exists() else None)
        return self


def score_rule_spans(examples: Iterable[Example], *, labels: Sequence[str]) -> Dict[str, Any]:
    """Exact-span P/R/F of the rule spans on the rule labels: `deid_rules_p/_r/_f/_per_type`.

    Predicted spans are the entities whose source is the rules (a NER span with a rule label is not
    the rules' credit); gold spans are every reference entity with one of the rules' labels.
    """
    wanted = set(labels)
    total = PRFScore()
    per_type = {label: PRFScore() for label in sorted(wanted)}
    for eg in examples:
        pred = {(e.start_char, e.end_char, e.label_) for e in eg.predicted.ents
                if e.label_ in wanted and e._.source == SOURCE}
        gold = {(e.start_char, e.end_char, e.label_) for e in eg.reference.ents if e.label_ in wanted}
        for label, score in per_type.items():
            p = {x for x in pred if x[2] == label}
            g = {x for x in gold if x[2] == label}
            score.tp += len(p & g)
            score.fp += len(p - g)
            score.fn += len(g - p)
        total.tp += len(pred & gold)
        total.fp += len(pred - gold)
        total.fn += len(gold - pred)
    return {
        "deid_rules_p": total.precision,
        "deid_rules_r": total.recall,
        "deid_rules_f": total.fscore,
        "deid_rules_per_type": {k: v.to_dict() for k, v in per_type.items() if v.tp + v.fp + v.fn},
    }


@registry.scorers("spacy_deid.RulesScorer.v1")
def make_rules_scorer() -> Callable[..., Dict[str, Any]]:
    return score_rule_spans


@Language.factory(
    "deid_rules",
    assigns=["doc.ents", "span._.source"],
    default_config={
        "patterns": "default",
        "overlap_policy": {"@misc": "spacy_deid.LongestSpanWins.v1"},
        "validators": {"@misc": "spacy_deid.DefaultValidators.v1"},
        "scorer": {"@scorers": "spacy_deid.RulesScorer.v1"},
    },
    default_score_weights={"deid_rules_f": 1.0, "deid_rules_p": 0.0, "deid_rules_r": 0.0,
                           "deid_rules_per_type": None},
)
def make_deid_rules(nlp: Language, name: str, *, patterns: str, overlap_policy: OverlapPolicy,
                    validators: Validators, scorer: Optional[Callable]) -> DeidRules:
    """`patterns`: "default" (shipped files), "" (none) or a path to a JSON/YAML file or folder."""
    return DeidRules(nlp, name, patterns=patterns, overlap_policy=overlap_policy, validators=validators,
                     scorer=scorer)
