"""Docs with NER-like entities for the tests of the NER span repairs (`spacy_deid.refine`), and
pipelines that run `deid` after a stand-in NER."""
from typing import Any, Callable, Dict, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
from spacy_deid.refine import COUNTS_KEY, DEFAULT_NOTE_STEPS, RefineStage
from spacy_deid.refine.builtin import apply_span_repair

# the refine stage's span repairs, in the default order (no steps that add spans, no shape check)
REPAIR_STEPS = [s for s in DEFAULT_NOTE_STEPS if s not in ("cued_names", "cued_spans", "ner_shapes", "restore_displaced")]


def doc_with_ents(text: str, ents: List[Tuple[str, str]], source: Optional[str] = None) -> Doc:
    """A doc of the code-mixing tokenizer with entities at the first occurrence of each text, all of
    `source` (None: as a trained NER leaves them)."""
    doc = spacy_deid.blank().make_doc(text)
    spans = []
    for part, label in ents:
        start = text.index(part)
        span = doc.char_span(start, start + len(part), label=label)
        assert span is not None, part
        spans.append(span)
    doc.ents = spans
    for span in doc.ents:
        span._.source = source
    return doc


def ents_of(doc: Doc) -> List[Tuple[str, str]]:
    """(text, label) of `doc.ents`, each checked against the doc's text at its offsets."""
    for ent in doc.ents:
        assert doc.text[ent.start_char:ent.end_char] == ent.text
    return [(e.text, e.label_) for e in doc.ents]


def repaired(text: str, found: Tuple[str, str], repair: Callable) -> Tuple[int, List[Tuple[str, str]]]:
    """Apply `repair` (a span repair of `spacy_deid.refine.builtin`) to a doc whose one NER entity is `found`: how many spans
    it changed, and (text, label) of the entities after it."""
    doc = doc_with_ents(text, [found])
    changed = apply_span_repair(doc, text, repair)
    return changed, ents_of(doc)


def stepped(text: str, found: Tuple[str, str], step: str) -> Tuple[int, List[Tuple[str, str]]]:
    """Run the note step named `step` (its config name: a step may be code and cue rules together,
    `edges`) on a doc whose one NER entity is `found`: whether it changed it (0 or 1), and (text, label)
    of the entities after it."""
    doc = doc_with_ents(text, [found])
    RefineStage([step], []).refine_note(doc)
    after = ents_of(doc)
    return int(after != [found]), after


def repair_ner_spans(doc: Doc) -> Dict[str, int]:
    """Run the default span repairs of the refine stage on `doc`, in order: spans changed per step."""
    doc.user_data.pop(COUNTS_KEY, None)
    RefineStage(REPAIR_STEPS, []).refine_note(doc)
    return dict(doc.user_data[COUNTS_KEY])


def deid_after(fake_ner: str, **deid_config: Any) -> Language:
    """A blank pipeline: the registered component `fake_ner` standing in for a trained NER, then
    `deid` (demo key) with `deid_config`, initialized."""
    nlp = spacy_deid.blank()
    nlp.add_pipe(fake_ner)
    nlp.add_pipe("deid", config={"demo_key": True, **deid_config})
    nlp.initialize()
    return nlp


def register_fake_ner(name: str, found: str, label: str) -> str:
    """Register a component `name` that stands in for a trained NER: it labels the first `found` in a
    doc `label` (and nothing where `found` is absent). Returns `name`, for `deid_after`."""
    @Language.component(name)
    def fake_ner(doc: Doc) -> Doc:
        start = doc.text.find(found)
        if start >= 0:
            doc.ents = [doc.char_span(start, start + len(found), label=label)]
        return doc
    return name
