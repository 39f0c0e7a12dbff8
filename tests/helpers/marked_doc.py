"""A doc of the blank code-mixing pipeline with entities set by the words they cover, as a NER would."""
from typing import List, Tuple

from spacy.tokens import Doc

import spacy_deid


def doc_with_ents(text: str, ents: List[Tuple[str, str]]) -> Doc:
    """`text` tokenized by `spacy_deid.blank()`, with `doc.ents` = each (word, label): the word's first
    occurrence, widened to whole tokens."""
    doc = spacy_deid.blank()(text)
    spans = []
    for word, label in ents:
        start = text.index(word)
        spans.append(doc.char_span(start, start + len(word), label=label, alignment_mode="expand"))
    doc.ents = spans
    return doc
