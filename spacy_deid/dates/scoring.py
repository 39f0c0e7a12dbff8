"""Scores for DATE spans: spaCy-shaped P/R/F plus normalization accuracy.

`deid_dates_norm_acc` is the share of gold DATE spans that have a `norm` and are found with exactly
the gold boundaries and the gold normalized value: the number the dates issue asks to be >= 0.99.
Gold norms are read from `span._.date_norm` of the reference doc (`reference_doc` builds one from a
`Record`).
"""
from typing import Any, Dict, Iterable, List

from spacy.language import Language
from spacy.scorer import Scorer
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..extensions import install_extensions


def _date_ents(doc: Doc, attr: str = "ents") -> List[Span]:
    return [e for e in doc.ents if e.label_ == "DATE"]


def score_dates(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    examples = list(examples)
    scores = Scorer.score_spans(examples, "deid_dates", getter=_date_ents, has_annotation=lambda d: True)
    gold_total = 0
    correct = 0
    for eg in examples:
        predicted = {(e.start_char, e.end_char): e._.date_norm for e in _date_ents(eg.predicted)}
        for gold in _date_ents(eg.reference):
            if gold._.date_norm is None:
                continue
            gold_total += 1
            correct += predicted.get((gold.start_char, gold.end_char), object()) == gold._.date_norm
    scores["deid_dates_norm_acc"] = correct / gold_total if gold_total else None
    return scores


def reference_doc(nlp: Language, record) -> Doc:
    """A gold doc from a `spacy_deid.corpus.Record`: DATE spans with `_.date_norm`; spans that do not
    align with the tokenizer raise a ValueError naming the record and the span index (no text)."""
    install_extensions()
    doc = nlp.make_doc(record.text)
    ents = []
    for i, s in enumerate(record.spans):
        if s.label != "DATE":
            continue
        span = doc.char_span(s.start, s.end, label="DATE")
        if span is None:
            raise ValueError(f"record {record.id!r}: DATE span {i} [{s.start}, {s.end}) does not align "
                             "with the tokenizer's tokens")
        span._.date_norm = s.norm
        ents.append(span)
    doc.ents = ents
    return doc
