"""The scorer: gold Records vs. predicted Records → one flat dict of scores (spaCy's shape).

Keys (see prf.py for the P/R/F conventions, sentences.py for sentence kinds, leak.py for leaks):
- `ents_p/_r/_f`, `ents_per_type`: strict micro scores per subcategory label (exact span and label).
- `deid_strict_macro_p/_r/_f`: unweighted mean over the labels in `ents_per_type`.
- `deid_category_p/_r/_f`, `deid_category_per_type`, `deid_category_macro_p/_r/_f`: strict, with
  each label replaced by its category (a FAMILY predicted as PATIENT is right here).
- `deid_relaxed_p/_r/_f`, `deid_relaxed_per_type`, `deid_relaxed_macro_p/_r/_f`: overlap match,
  same label.
- `deid_token_p/_r/_f`: binary PHI-or-not per non-whitespace token of the code-mixing tokenizer.
- `deid_by_kind`: {english|chinese|mixed|numeric: {sentences, tokens, gold_spans, pred_spans,
  ents_p/_r/_f (strict, spans assigned to the sentence holding their start), token_p/_r/_f}}.
- `deid_counts`: {docs, sentences, tokens, gold_spans, pred_spans}.
- `deid_leak_rate`, `deid_leak_full_rate`, `deid_leak_spans`, `deid_leak_leaked`,
  `deid_leak_per_type`: only when the predictions carry `deid_text` and `replacements`.
Gold and predicted records are matched by id; their texts must be identical.
"""
from bisect import bisect_right
from collections import Counter, defaultdict
from typing import Any, Dict, Iterable, List, Optional, Tuple

from spacy.language import Language
from spacy.util import registry

from ..corpus.docs import doc_to_record
from ..corpus.records import CorpusError, PhiSpan, Record
from ..labels import CATEGORY_OF
from ..tokenizer import blank
from .leak import LeakReport, record_leaks
from .prf import PRF, RelaxedPRF, macro, micro
from .sentences import KINDS, sentence_kind, split_sentences, token_language
from .spans import relaxed_counts, strict_counts

MISSING_POLICIES = ("error", "empty")


def _category(label: str) -> str:
    return CATEGORY_OF.get(label, label)


def pair_records(gold: Iterable[Record], pred: Iterable[Record], *, missing: str = "error",
                 ) -> List[Tuple[Record, Record]]:
    """Match predictions to gold by id. missing="error": a gold record without a prediction is a
    CorpusError; "empty": it counts as predicted with no spans. Extra or duplicate predictions and
    texts that differ are always errors (the offsets would not mean the same characters)."""
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing must be one of {MISSING_POLICIES}, not {missing!r}")
    by_id: Dict[str, Record] = {}
    for record in pred:
        if record.id in by_id:
            raise CorpusError("duplicate prediction id", record_id=record.id)
        by_id[record.id] = record
    pairs = []
    seen = set()
    for g in gold:
        if g.id in seen:
            raise CorpusError("duplicate gold id", record_id=g.id)
        seen.add(g.id)
        g.validate(known_labels=None)
        p = by_id.get(g.id)
        if p is None:
            if missing == "error":
                raise CorpusError("no prediction for this gold record", record_id=g.id)
            p = Record(id=g.id, text=g.text, spans=[], patient_id=g.patient_id)
        elif p.text != g.text:
            raise CorpusError("predicted text differs from the gold text", record_id=g.id)
        else:
            p.validate(known_labels=None)
        pairs.append((g, p))
    extra = sorted(set(by_id) - seen)
    if extra:
        raise CorpusError(f"{len(extra)} prediction(s) have no gold record (first: {extra[0]!r})")
    return pairs


class _KindScore:
    def __init__(self) -> None:
        self.sentences = 0
        self.tokens = 0
        self.ents = PRF()
        self.token = PRF()
        self.gold_spans = 0
        self.pred_spans = 0

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"sentences": self.sentences, "tokens": self.tokens,
                               "gold_spans": self.gold_spans, "pred_spans": self.pred_spans}
        out.update(micro("ents", self.ents))
        out.update(micro("token", self.token))
        return out


def _mask(n: int, spans: Iterable[PhiSpan]) -> bytearray:
    mask = bytearray(n)
    for s in spans:
        mask[s.start:s.end] = b"\x01" * (s.end - s.start)
    return mask


def _category_at(n: int, spans: Iterable[PhiSpan]) -> List[Optional[str]]:
    """Each character's gold category (None outside every span)."""
    at: List[Optional[str]] = [None] * n
    for s in spans:
        at[s.start:s.end] = [_category(s.label)] * (s.end - s.start)
    return at


def _token_recall_per_category(found: Counter, gold: Counter) -> Dict[str, Dict[str, float]]:
    """Binary token recall of each gold category, and of every category but DATE (`non_DATE`: times,
    durations and ages that a corpus annotates as dates are most of some corpora's gold tokens)."""
    out = {cat: {"r": found[cat] / gold[cat], "gold_tokens": gold[cat]} for cat in sorted(gold)}
    rest = sum(n for cat, n in gold.items() if cat != "DATE")
    if rest:
        out["non_DATE"] = {"r": sum(n for cat, n in found.items() if cat != "DATE") / rest, "gold_tokens": rest}
    return out


def _token_prf(gold_mask: bytearray, pred_mask: bytearray, a: int, b: int) -> PRF:
    g, p = 1 in gold_mask[a:b], 1 in pred_mask[a:b]
    return PRF(int(g and p), int(p and not g), int(g and not p))


def score_records(gold: Iterable[Record], pred: Iterable[Record], *, nlp: Optional[Language] = None,
                  missing: str = "error", leak: Optional[bool] = None) -> Dict[str, Any]:
    """Score predictions against gold (both Records, our label scheme or any shared one).

    leak: None computes the leak rate when every prediction has `deid_text`; True requires it;
    False skips it.
    """
    if nlp is None:
        nlp = blank()
    pairs = pair_records(gold, pred, missing=missing)
    strict_t: Dict[str, PRF] = {}
    cat_t: Dict[str, PRF] = {}
    relaxed_t: Dict[str, RelaxedPRF] = {}
    strict, cat, relaxed, token = PRF(), PRF(), RelaxedPRF(), PRF()
    kinds = {k: _KindScore() for k in KINDS}
    token_gold: Counter = Counter()
    token_found: Counter = Counter()
    counts = {"docs": 0, "sentences": 0, "tokens": 0, "gold_spans": 0, "pred_spans": 0}
    has_deid = all(isinstance(p.meta.get("deid_text"), str) for _, p in pairs)
    if leak and not has_deid:
        raise CorpusError("leak rate asked for, but some predictions lack 'deid_text'/'replacements'")
    do_leak = has_deid and bool(pairs) if leak is None else bool(leak)
    leaks = LeakReport()
    for g, p in pairs:
        counts["docs"] += 1
        counts["gold_spans"] += len(g.spans)
        counts["pred_spans"] += len(p.spans)
        strict += strict_counts(g.spans, p.spans, strict_t)
        cat += strict_counts(g.spans, p.spans, cat_t, _category)
        relaxed += relaxed_counts(g.spans, p.spans, relaxed_t)
        doc = nlp.make_doc(g.text)
        gmask, pmask = _mask(len(g.text), g.spans), _mask(len(g.text), p.spans)
        gold_category = _category_at(len(g.text), g.spans)
        sents = split_sentences(doc)
        sent_starts = [doc[s].idx for s, _ in sents]
        sent_kind: List[str] = []
        for s, e in sents:
            toks = [t for t in doc[s:e] if not t.is_space]
            name = sentence_kind([token_language(t.text) for t in toks])
            sent_kind.append(name)
            kind = kinds[name]
            kind.sentences += 1
            kind.tokens += len(toks)
            counts["tokens"] += len(toks)
            for t in toks:
                score = _token_prf(gmask, pmask, t.idx, t.idx + len(t.text))
                token += score
                kind.token += score
                if score.tp or score.fn:
                    category = next(c for c in gold_category[t.idx:t.idx + len(t.text)] if c is not None)
                    token_gold[category] += 1
                    token_found[category] += score.tp
        counts["sentences"] += len(sents)
        if sents:
            # A span belongs to the sentence that holds its start (spans across sentences are rare).
            grouped: Dict[str, Tuple[List[PhiSpan], List[PhiSpan]]] = defaultdict(lambda: ([], []))
            for side, spans in ((0, g.spans), (1, p.spans)):
                for span in spans:
                    grouped[sent_kind[max(bisect_right(sent_starts, span.start) - 1, 0)]][side].append(span)
            for name, (gs, ps) in grouped.items():
                doc_counts = strict_counts(gs, ps, {})
                kinds[name].ents += doc_counts
                kinds[name].gold_spans += doc_counts.tp + doc_counts.fn
                kinds[name].pred_spans += doc_counts.tp + doc_counts.fp
        if do_leak:
            record_leaks(g, p, leaks)
    scores: Dict[str, Any] = {}
    scores.update(micro("ents", strict, per_type=strict_t))
    scores.update(macro("deid_strict_macro", strict_t))
    scores.update(micro("deid_category", cat, per_type=cat_t))
    scores.update(macro("deid_category_macro", cat_t))
    scores.update(micro("deid_relaxed", relaxed, per_type=relaxed_t))
    scores.update(macro("deid_relaxed_macro", relaxed_t))
    scores.update(micro("deid_token", token))
    scores["deid_token_r_per_category"] = _token_recall_per_category(token_found, token_gold)
    scores["deid_by_kind"] = {k: kinds[k].to_dict() for k in KINDS}
    scores["deid_counts"] = counts
    if do_leak:
        scores.update(leaks.scores())
    return scores


def score_examples(examples: Iterable[Any], **kwargs: Any) -> Dict[str, Any]:
    """Score spaCy Examples (`eg.reference` gold, `eg.predicted` prediction) by their `doc.ents`."""
    gold, pred = [], []
    for i, eg in enumerate(examples):
        g, p = doc_to_record(eg.reference, record_id=str(i)), doc_to_record(eg.predicted, record_id=str(i))
        if p.text != g.text:  # different tokenizations of one text are fine; different texts are not
            raise CorpusError("predicted and reference texts differ", record_id=str(i))
        gold.append(g)
        pred.append(p)
    return score_records(gold, pred, leak=False, **kwargs)


@registry.scorers("spacy_deid.DeidScorer.v1")
def make_deid_scorer():
    """`scorer = {"@scorers": "spacy_deid.DeidScorer.v1"}`: ents_* plus the deid_* scores."""
    return score_examples
