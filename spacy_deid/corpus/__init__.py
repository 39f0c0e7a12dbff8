"""Corpus formats: JSON Lines (the project's own), inline markup, BRAT, i2b2 XML, CoNLL, DocBin.

Readers are generators of Records (`errors=None`: strict; `errors=[]`: collect CorpusErrors and go
on); writers take any iterable of Records and write atomically. Records ↔ Docs go through `docs.py`.
"""
from .brat import read_brat, write_brat
from .conll import read_conll, write_conll
from .docbin import read_docbin, records_to_docbin, write_docbin
from .docs import (DEFAULT_MISALIGNED, MISALIGNED_POLICIES, AlignmentReport, align_span, doc_to_record,
                   docs_to_records, record_to_doc, records_to_docs)
from .formats import READ_FORMATS, WRITE_FORMATS, guess_format, read_corpus, write_corpus
from .i2b2 import read_i2b2, write_i2b2
from .inline import parse_inline, to_inline
from .jsonl import parse_line, read_jsonl, write_jsonl
from .labelmap import LabelMap, LabelMapReport, available_label_maps, load_label_map
from .records import CorpusError, PhiSpan, Record

__all__ = [
    "CorpusError", "PhiSpan", "Record", "parse_inline", "to_inline",
    "read_corpus", "write_corpus", "guess_format", "READ_FORMATS", "WRITE_FORMATS",
    "read_jsonl", "write_jsonl", "parse_line", "read_brat", "write_brat", "read_i2b2", "write_i2b2",
    "read_conll", "write_conll", "read_docbin", "write_docbin", "records_to_docbin",
    "record_to_doc", "records_to_docs", "doc_to_record", "docs_to_records", "align_span",
    "AlignmentReport", "MISALIGNED_POLICIES", "DEFAULT_MISALIGNED",
    "LabelMap", "LabelMapReport", "load_label_map", "available_label_maps",
]
