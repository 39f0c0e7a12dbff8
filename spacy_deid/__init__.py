"""spacy-deid: find PHI in English, Chinese and code-mixed clinical notes and replace it."""
from typing import Any, Dict, Optional

import spacy
from spacy.language import Language

from .about import __version__
from .batch import DeidResult, deidentify
from .extensions import install_extensions
from .labels import CATEGORY_OF, LABELS, category_of
from .loading import load
from .tokenizer import TOKENIZER_CONFIG, CodeMixedTokenizer, blank



def resolve_dates(docs, default=None, **kwargs):
    """Resolve a patient's DATE spans by majority vote (lazy import: see spacy_deid.dates.resolve)."""
    from .dates.resolve import resolve_dates as _resolve_dates

    return _resolve_dates(docs, default, **kwargs)


__all__ = [
    "deidentify",
    "DeidResult",
    "resolve_dates",
    "__version__",
    "blank",
    "load",
    "CodeMixedTokenizer",
    "install_extensions",
    "CATEGORY_OF",
    "LABELS",
    "category_of",
]
