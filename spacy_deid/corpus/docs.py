"""THE way between Records and spaCy Docs: training data, DocBin files and predictions all go here.

Record → Doc tokenizes with the code-mixing tokenizer (`spacy_deid.blank()`), sets `doc.ents`,
`doc._.doc_id`, `doc._.patient_id` and, for DATE spans, `span._.date_norm`; other top-level keys of
the record travel in `doc.user_data["spacy_deid.meta"]` (plain data, so DocBin keeps them).

Two things a corpus can hold that `doc.ents` cannot, each handled by a stated policy and counted in
an AlignmentReport (counts and record ids, never text):
- a span whose edges fall inside a token (`misaligned`):
  `expand` (default) grows it to the tokens it touches: over-redacting a few characters is the safe
  error in de-identification, whereas `contract` (shrink to the tokens fully inside) can leave part of
  a name in the clear; `drop` leaves the span out; `error` raises CorpusError.
- overlapping spans: the longest wins, ties to the earlier start (spacy.util.filter_spans), the same
  rule as the pipeline's overlap policy; the others are dropped and counted as `overlap_dropped`.
"""
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from ..extensions import install_extensions
from ..tokenizer import blank
from .records import CorpusError, PhiSpan, Record

MISALIGNED_POLICIES = ("expand", "contract", "drop", "error")
DEFAULT_MISALIGNED = "expand"
META_KEY = "spacy_deid.meta"


@dataclass
class AlignmentReport:
    """What converting Records to Docs changed: span counts per action and the record ids affected."""

    spans: int = 0
    aligned: int = 0
    expanded: int = 0
    contracted: int = 0
    dropped: int = 0
    overlap_dropped: int = 0
    record_ids: Dict[str, List[str]] = field(default_factory=dict)

    def _note(self, action: str, record_id: str) -> None:
        setattr(self, action, getattr(self, action) + 1)
        ids = self.record_ids.setdefault(action, [])
        if not ids or ids[-1] != record_id:
            ids.append(record_id)

    @property
    def misaligned(self) -> int:
        return self.expanded + self.contracted + self.dropped

    def to_dict(self) -> Dict[str, object]:
        return {"spans": self.spans, "aligned": self.aligned, "expanded": self.expanded,
                "contracted": self.contracted, "dropped": self.dropped,
                "overlap_dropped": self.overlap_dropped,
                "record_ids": {k: sorted(set(v)) for k, v in sorted(self.record_ids.items())}}

    def summary(self) -> str:
        return (f"{self.spans} spans: {self.aligned} aligned, {self.expanded} expanded, "
                f"{self.contracted} contracted, {self.dropped} dropped (misaligned), "
                f"{self.overlap_dropped} dropped (overlap)")


def _blank() -> Language:
    return blank()


def align_span(doc: Doc, span: PhiSpan, *, misaligned: str = DEFAULT_MISALIGNED, record_id: str = "",
               report: Optional[AlignmentReport] = None) -> Optional[Span]:
    """The token span for a character span under the `misaligned` policy (None when dropped)."""
    if misaligned not in MISALIGNED_POLICIES:
        raise ValueError(f"misaligned must be one of {MISALIGNED_POLICIES}, not {misaligned!r}")
    report = report if report is not None else AlignmentReport()
    report.spans += 1
    ent = doc.char_span(span.start, span.end, label=span.label)
    if ent is not None:
        report.aligned += 1
        return ent
    if misaligned == "error":
        raise CorpusError(f"span [{span.start}, {span.end}) ({span.label}) does not align to tokens",
                          record_id=record_id)
    if misaligned in ("expand", "contract"):
        ent = doc.char_span(span.start, span.end, label=span.label, alignment_mode=misaligned)
        if ent is not None and len(ent):
            report._note("expanded" if misaligned == "expand" else "contracted", record_id)
            return ent
    report._note("dropped", record_id)
    return None


def record_to_doc(nlp: Language, record: Record, *, misaligned: str = DEFAULT_MISALIGNED,
                  report: Optional[AlignmentReport] = None) -> Doc:
    """A Doc of `record.text` with its spans as `doc.ents` (see the module doc for the policies)."""
    install_extensions()
    report = report if report is not None else AlignmentReport()
    doc = nlp.make_doc(record.text)
    doc._.doc_id = record.id
    doc._.patient_id = record.patient_id
    if record.meta:
        doc.user_data[META_KEY] = dict(record.meta)
    ents = []
    norms = {}
    for span in sorted(record.spans, key=lambda s: (s.start, s.end, s.label)):
        ent = align_span(doc, span, misaligned=misaligned, record_id=record.id, report=report)
        if ent is not None:
            ents.append(ent)
            if span.norm is not None:
                norms[(ent.start, ent.end, ent.label_)] = span.norm
    kept = filter_spans(ents)
    for _ in range(len(ents) - len(kept)):
        report._note("overlap_dropped", record.id)
    doc.ents = kept
    for ent in doc.ents:
        norm = norms.get((ent.start, ent.end, ent.label_))
        if norm is not None:
            ent._.date_norm = norm
    return doc


def records_to_docs(records: Iterable[Record], *, nlp: Optional[Language] = None,
                    misaligned: str = DEFAULT_MISALIGNED, report: Optional[AlignmentReport] = None,
                    ) -> Iterator[Doc]:
    """Stream Docs from Records; one AlignmentReport (if given) collects over the whole stream."""
    nlp = nlp if nlp is not None else _blank()
    for record in records:
        yield record_to_doc(nlp, record, misaligned=misaligned, report=report)


def doc_to_record(doc: Doc, *, record_id: Optional[str] = None) -> Record:
    """A Record of `doc.ents` (labels as they are). When the doc was de-identified, `deid_text` and
    `replacements` are added as top-level keys of the record (Record.meta) for writing predictions."""
    install_extensions()
    spans = []
    for ent in doc.ents:
        norm = ent._.date_norm if ent.has_extension("date_norm") else None
        spans.append(PhiSpan(ent.start_char, ent.end_char, ent.label_, ent.text,
                             str(norm) if norm is not None else None))
    meta = dict(doc.user_data.get(META_KEY) or {})
    if doc._.deid_text is not None:
        meta["deid_text"] = doc._.deid_text
        meta["replacements"] = [dict(r) for r in (doc._.replacements or [])]
    rid = record_id if record_id is not None else doc._.doc_id
    pid = doc._.patient_id
    return Record(id=str(rid) if rid is not None else "", text=doc.text, spans=spans,
                  patient_id=str(pid) if pid is not None else None, meta=meta)


def docs_to_records(docs: Iterable[Doc]) -> Iterator[Record]:
    for doc in docs:
        yield doc_to_record(doc)
