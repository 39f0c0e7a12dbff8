"""Custom attributes on Doc and Span, installed idempotently (never as an import side effect)."""
from spacy.tokens import Doc, Span

from .labels import CATEGORY_OF

DOC_EXTENSIONS = {
    "patient_id": None,  # groups a patient's notes for date voting and surrogate scope
    "doc_id": None,  # record id, used in error messages instead of any text
    "deid_text": None,  # the de-identified text
    "replacements": None,  # list of replacement records (dicts), see surrogates
}
SPAN_EXTENSIONS = {
    "source": None,  # "ner", "rule", "date" or "propagated": which recognizer found it
    "date_readings": None,  # list of every plausible reading of a DATE span
    "date_norm": None,  # normalized value in the annotation format, after resolution
    "date_resolution": None,  # unambiguous / patient-vote / document-vote / default
    "surrogate": None,  # the replacement chosen for this span
}


def _phi_category(span: Span):
    return CATEGORY_OF.get(span.label_)


def install_extensions() -> None:
    """Register every extension once; safe to call from every component constructor."""
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
    for name, default in SPAN_EXTENSIONS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)
    if not Span.has_extension("phi_category"):
        Span.set_extension("phi_category", getter=_phi_category)
