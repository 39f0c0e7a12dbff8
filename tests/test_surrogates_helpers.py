"""Shared helpers for the surrogate tests: docs with hand-placed entities (no recognizer needed)."""
from typing import Optional

import spacy_deid
from spacy_deid.corpus import parse_inline

KEY = "test-key-0123456789abcdef"
OTHER_KEY = "another-key-9876543210fedcba"
_NLP = None


def nlp():
    global _NLP
    if _NLP is None:
        _NLP = spacy_deid.blank()
    return _NLP


def make_doc(marked: str, *, patient_id: Optional[str] = "P1", doc_id: Optional[str] = "D1"):
    """A doc from inline markup `«surface|LABEL»`; entities placed exactly (strict alignment)."""
    record = parse_inline(marked)
    doc = nlp()(record.text)
    ents = []
    for s in record.spans:
        span = doc.char_span(s.start, s.end, label=s.label, alignment_mode="strict")
        assert span is not None, f"test markup does not align with tokens: {s.text!r}"
        span._.source = "rule"
        ents.append(span)
    doc.ents = ents
    doc._.patient_id = patient_id
    doc._.doc_id = doc_id
    return doc


def surrogates(doc):
    return [r["surrogate"] for r in doc._.replacements]
