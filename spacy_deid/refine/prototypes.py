"""Prototype disambiguation (the method's last step, optional): where a span's category has several
subcategories (PATIENT / DOCTOR / FAMILY / PERSON; HOSPITAL / CITY / DEPARTMENT / ...), the words
around it say which one it is more often than its own characters do. Each subcategory's prototype is
the mean context vector of its gold spans in the training corpus (`compute_prototypes`, at
`deid.initialize(prototypes=True)`); a span takes the subcategory of its category whose prototype is
closest to its own context vector, when that one is closer than its label's by more than `MARGIN`.

Context vector: the normalised mean of the pipeline's static word vectors (`nlp.vocab.vectors`) of
the `WINDOW` tokens either side of the span, the span itself left out (its characters are the
value, not the frame). The prototypes live in the vocab's lookups (`nlp.vocab.lookups`, table
`deid_label_prototypes`), so `nlp.to_disk` saves them and a loaded pipeline has them; without the
table, or without vectors, the step changes nothing.
"""
from typing import Dict, Iterable, List, Optional

import numpy
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..labels import CATEGORY_OF

TABLE = "deid_label_prototypes"
WINDOW = 8
MARGIN = 0.05
# sources whose label a prototype may change: a rule and the date finder read their own context
CHANGEABLE_SOURCES = frozenset({"ner", "propagated", "cued"})


def context_vector(doc: Doc, start: int, end: int) -> Optional[numpy.ndarray]:
    """The normalised mean vector of the tokens around doc[start:end] (module docstring)."""
    tokens = [t for t in doc[max(0, start - WINDOW):start]] + [t for t in doc[end:end + WINDOW]]
    vectors = [t.vector for t in tokens if not t.is_space and t.has_vector]
    if not vectors:
        return None
    mean = numpy.asarray(vectors, dtype="float32").mean(axis=0)
    norm = float(numpy.linalg.norm(mean))
    return mean / norm if norm else None


def compute_prototypes(examples: Iterable[Example]) -> Dict[str, List[float]]:
    """Label -> prototype (normalised mean context vector) over the gold spans of `examples`."""
    sums: Dict[str, numpy.ndarray] = {}
    for eg in examples:
        doc = eg.reference
        for ent in doc.ents:
            vector = context_vector(doc, ent.start, ent.end)
            if vector is not None:
                sums[ent.label_] = sums.get(ent.label_, 0) + vector
    out = {}
    for label, total in sorted(sums.items()):
        norm = float(numpy.linalg.norm(total))
        if norm:
            out[label] = [round(float(x), 6) for x in total / norm]
    return out


def store_prototypes(vocab, prototypes: Dict[str, List[float]]) -> None:
    """Into the vocab's lookups, as two entries (a lookups table hashes its keys, so the labels are kept
    as a list): `labels` and their `vectors`, in the same order."""
    if vocab.lookups.has_table(TABLE):
        vocab.lookups.remove_table(TABLE)
    labels = sorted(prototypes)
    vocab.lookups.add_table(TABLE, {"labels": labels, "vectors": [prototypes[label] for label in labels]})


def stored_prototypes(vocab) -> Dict[str, numpy.ndarray]:
    if not vocab.lookups.has_table(TABLE):
        return {}
    table = vocab.lookups.get_table(TABLE)
    return {label: numpy.asarray(vector, dtype="float32")
            for label, vector in zip(table.get("labels", []), table.get("vectors", []))}


def relabel_by_prototype(doc: Doc, text: str) -> int:
    """The refine step (module docstring); returns how many spans it relabelled."""
    prototypes = stored_prototypes(doc.vocab) if doc.ents else {}
    if not prototypes:
        return 0
    by_category: Dict[str, List[str]] = {}
    for label in prototypes:
        by_category.setdefault(CATEGORY_OF.get(label, ""), []).append(label)
    out, changed = [], 0
    for ent in doc.ents:
        rivals = by_category.get(CATEGORY_OF.get(ent.label_, ""), [])
        new_label = None
        if ent.label_ in prototypes and len(rivals) > 1 and (ent._.source or "ner") in CHANGEABLE_SOURCES:
            vector = context_vector(doc, ent.start, ent.end)
            if vector is not None:
                sims = {label: float(prototypes[label] @ vector) for label in rivals}
                best = max(sorted(sims), key=sims.get)
                if best != ent.label_ and sims[best] - sims[ent.label_] > MARGIN:
                    new_label = best
        if new_label is None:
            out.append(ent)
        else:
            out.append(Span(doc, ent.start, ent.end, label=new_label))
            changed += 1
    if changed:
        doc.ents = out
    return changed
