"""Span repairs as note steps: a repair takes one NER span (with the entity after it) and returns its
repaired span, the spans it is split into, or None to keep it. Only spans whose source is the NER
change (a rule or the date finder read its own context), unless a step names other sources: a cue
rule may read the date finder's spans too (`CueRule.sources`)."""
from typing import AbstractSet, Callable, List, Optional, Tuple, Union

from spacy.tokens import Doc, Span

from .registry import NoteStep

# (doc, text, entity, next entity or None) -> the repaired span or spans, or None to keep the entity
SpanRepair = Callable[[Doc, str, Span, Optional[Span]], Optional[Union[Span, Tuple[Span, ...]]]]


def apply_span_repair(doc: Doc, text: str, repair: SpanRepair, sources: AbstractSet[str] = frozenset({"ner"})) -> int:
    """Replace each entity of `doc.ents` from `sources` (an unset source is the NER's) by what `repair`
    makes of it, unless that would reach into the entity before or after it; returns how many changed."""
    ents = list(doc.ents)
    out: List[Span] = []
    changed = 0
    for i, ent in enumerate(ents):
        new = None
        following = ents[i + 1] if i + 1 < len(ents) else None
        if (ent._.source or "ner") in sources:
            new = repair(doc, text, ent, following)
        spans = (new,) if isinstance(new, Span) else new
        if spans and ((out and spans[0].start_char < out[-1].end_char)
                      or (following is not None and spans[-1].end_char > following.start_char)):
            new = None  # grown into the span before or after it: this one stays as it was
        if new is None:
            out.append(ent)
        else:
            out.extend(spans)
            changed += 1
    if changed:
        doc.ents = out
    return changed


def span_repair(repair: SpanRepair) -> NoteStep:
    """A note step that applies `repair` to every NER span."""
    def step(doc: Doc, text: str) -> int:
        return apply_span_repair(doc, text, repair) if doc.ents else 0
    step.__doc__ = repair.__doc__
    return step
