"""Scores for de-identification: strict/relaxed/category entity scores, binary token scores,
sentence kinds by code-mixing index, and the leak rate of de-identified output."""
from .evaluate import evaluate_files
from .leak import LeakReport, record_leaks, span_leak
from .prf import PRF, RelaxedPRF
from .report import format_scores
from .scorer import make_deid_scorer, pair_records, score_examples, score_records
from .sentences import KINDS, cmi, sentence_kind, split_sentences, token_language

__all__ = [
    "score_records", "score_examples", "pair_records", "evaluate_files", "format_scores",
    "LeakReport", "record_leaks", "span_leak", "PRF", "RelaxedPRF",
    "KINDS", "cmi", "sentence_kind", "split_sentences", "token_language", "make_deid_scorer",
]
