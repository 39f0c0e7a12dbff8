"""Corpus formats: JSON Lines (the project's own), inline markup, BRAT, i2b2 XML, CoNLL, DocBin."""
from .inline import parse_inline, to_inline
from .records import CorpusError, PhiSpan, Record

__all__ = ["CorpusError", "PhiSpan", "Record", "parse_inline", "to_inline"]
