"""Synthetic code-mixed clinical notes with gold PHI spans (`spacy-deid synth`).

`generate(n_patients, seed, split)` yields `spacy_deid.corpus.Record`s in the annotation format.
Templates (`synth/templates/*.txt`) and values (`spacy_deid.lexicons`) are both split into train and
held-out parts, so `split="heldout"` measures generalization to unseen sentence frames and values;
`split="fresh"` and `split="blind"` use frames written blind to the rules (held-out values).
"""
from .generator import DEFAULT_NOTES_PER_PATIENT, generate
from .templates import SPLITS
from .values import VALUE_SPLITS, is_valid_taiwan_id, make_taiwan_id

__all__ = ["generate", "DEFAULT_NOTES_PER_PATIENT", "SPLITS", "VALUE_SPLITS", "is_valid_taiwan_id", "make_taiwan_id"]
