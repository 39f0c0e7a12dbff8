"""`deid_ner`: spaCy's `ner`, decoded under two constraints: a closed-class label goes only to a name
of its class, and no entity runs across a line break.

WHY: the list of countries (and of first-level divisions) is finite and public, but a NER trained on
synthetic notes labels an unseen two-character name COUNTRY because it looks like the countries it
saw (`門諾`, `義美`, `廣州`, `Jiufen`). Dropping such a span afterwards loses PHI, and relabelling it
afterwards needs a guess. Constraining the decoder instead lets the model's own next choice, made in
context, take over: where COUNTRY may not start, it reads the same tokens as a hospital, a business or
a city if that is its second guess, or as no entity.

No annotated span crosses a line (annotation.md), but a NER that misses where a name ends can read on
into the next lines (`[孟加拉出差.\nRisk assessment ...]`), and a forbidden label makes that likelier.

HOW: spaCy's compiled greedy decoder runs unchanged. A doc whose result gives a closed label to a
string outside that label's names, or has an entity holding a line break, is decoded again, step by
step (`Parser.transition_states`, the same move system and scores), with the label's begin/in/last/
unit moves penalised wherever they would start, continue or end a string that is not one of its
names, and every label's moves penalised where they would take in a line break. A doc without such a span is
decoded exactly as by `ner` (the penalised moves were never the chosen ones), so the two components
differ only where the constraint applies. Names come from `resources/closed_classes.json` (written by
`scripts/build_places.py`: every form a country or a first-level division is written in, Latin ones
compared case-insensitively); a longer list only lets the model choose the label, it adds no span.
Beam decoding (`beam_width` > 1) is left as spaCy has it.

`recall_bias` (default 0) is the precision/recall dial a de-identifier needs: it is taken from the
score of the move that leaves a token outside every entity (`O`) while decoding, never while training,
so where the model hesitates between "no PHI" and a label, the label wins more often. It moves no
weight: the trained model is saved, updated and scored unchanged, and one trained model can be run at
several settings (`spacy_deid.load(config={"components": {"ner": {"recall_bias": 1.0}}})`).
"""
import json
import threading
from contextlib import contextmanager
from importlib import resources
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set

import numpy
from spacy.language import Language
from spacy.pipeline.ner import DEFAULT_NER_MODEL, EntityRecognizer
from spacy.tokens import Doc
from thinc.api import Model

from .doctext import doc_text

# Added to a forbidden move's score: far beyond any score's range, so a forbidden move wins only where
# every valid move is forbidden (then the model's own order among them decides, as without the rule).
FORBIDDEN_MOVE_PENALTY = 1e6
DEFAULT_CLOSED_LABELS = ("COUNTRY", "STATE")
_ENT_ATTRS = ["ENT_IOB", "ENT_TYPE", "ENT_KB_ID"]
# {label: {first token: {last tokens}}}: where a closed label's names stand in one doc.
NameSpans = Dict[str, Dict[int, Set[int]]]


def load_closed_names(labels: Iterable[str]) -> Dict[str, FrozenSet[str]]:
    """The package's names of each closed label, case-folded."""
    path = resources.files("spacy_deid").joinpath("resources", "closed_classes.json")
    known = json.loads(path.read_text(encoding="utf8"))["labels"]
    out = {}
    for label in labels:
        if label not in known:
            raise ValueError(f"deid_ner: no list of names for closed label {label!r}; "
                             f"resources/closed_classes.json has {sorted(known)}")
        out[label] = frozenset(name.casefold() for name in known[label])
    return out


class ClosedClassNames:
    """Names per closed label, and where they stand in a doc on token boundaries."""

    def __init__(self, names: Dict[str, FrozenSet[str]]):
        self.names = names
        self._prefixes = {name[:i] for pool in names.values() for name in pool for i in range(1, len(name) + 1)}

    def allows(self, label: str, text: str) -> bool:
        pool = self.names.get(label)
        return pool is None or text.casefold() in pool

    def breaks(self, doc: Doc) -> bool:
        """Does a closed-label entity of `doc` hold a string outside its names, or an entity a line break?"""
        return any("\n" in ent.text or not self.allows(ent.label_, ent.text) for ent in doc.ents)

    def spans(self, doc: Doc) -> NameSpans:
        """Token spans (first, last) of `doc` whose text is a name of a closed label. Each start
        extends only while the text is a prefix of some name, so the cost is the text's length times
        the longest name's token count at most."""
        out: NameSpans = {label: {} for label in self.names}
        text = doc_text(doc)
        for first in range(len(doc)):
            start = doc[first].idx
            for last in range(first, len(doc)):
                token = doc[last]
                piece = text[start:token.idx + len(token)].casefold()
                if piece not in self._prefixes:
                    break
                for label, pool in self.names.items():
                    if piece in pool:
                        out[label].setdefault(first, set()).add(last)
        return out


# Held while a recall bias is swapped into an output layer: threads that share a pipeline take turns
# (a module lock, not an attribute, so that a pipeline still pickles for spawned workers).
_BIAS_SWAP = threading.Lock()


class ClosedClassNER(EntityRecognizer):
    """`ner` with closed labels (see the module docstring); trained, saved and loaded as `ner` is."""

    def __init__(self, vocab, model: Model, name: str = "ner", moves=None, *,
                 closed_labels: Sequence[str] = DEFAULT_CLOSED_LABELS, recall_bias: float = 0.0, **kwargs):
        super().__init__(vocab, model, name, moves, **kwargs)
        self.closed = ClosedClassNames(load_closed_names(closed_labels))
        self.recall_bias = float(recall_bias)
        self._moves_of: Optional[MoveIndex] = None

    def predict(self, docs):
        with self._outside_lowered():
            return super().predict(docs)

    @contextmanager
    def _outside_lowered(self) -> Iterator[None]:
        """The output layer's bias with `recall_bias` taken from the `O` move, for the decoders (both
        read it while they run); the trained array is put back untouched afterwards."""
        outside = self._move_index().outside
        if not self.recall_bias or outside is None:
            yield
            return
        with _BIAS_SWAP:  # a second thread would lower the lowered array, or restore it mid-decode
            upper = self.model.get_ref("upper")
            trained = upper.get_param("b")
            lowered = trained.copy()
            lowered[outside] -= self.recall_bias
            upper.set_param("b", lowered)
            try:
                yield
            finally:
                upper.set_param("b", trained)

    def _move_index(self) -> "MoveIndex":
        if self._moves_of is None or self._moves_of.n_moves != self.moves.n_moves:
            self._moves_of = MoveIndex([self.moves.get_class_name(i) for i in range(self.moves.n_moves)],
                                       self.closed.names)
        return self._moves_of

    def set_annotations(self, docs: Sequence[Doc], states_or_beams) -> None:
        if self.cfg.get("beam_width", 1) != 1 or not self.moves.n_moves:
            super().set_annotations(docs, states_or_beams)
            return
        presets = [doc.to_array(_ENT_ATTRS) if doc.has_annotation("ENT_IOB") else None for doc in docs]
        super().set_annotations(docs, states_or_beams)
        redo = [i for i, doc in enumerate(docs) if self.closed.breaks(doc)]
        if not redo:
            return
        again = [docs[i] for i in redo]
        for i in redo:  # back to the doc as it came in: a decoder treats entities already set as given
            if presets[i] is None:
                docs[i].set_ents([], default="missing")
            else:
                docs[i].from_array(_ENT_ATTRS, presets[i])
        with self._outside_lowered():
            states = self._closed_parse(again)
        super().set_annotations(again, states)

    def _closed_parse(self, docs: List[Doc]) -> list:
        """Greedy decoding as spaCy's, with the closed labels' moves penalised off their names."""
        batch = self.moves.init_batch(docs)
        step_model = self.model.predict(docs)
        todo = [(state, self.closed.spans(doc), _line_breaks(doc))
                for state, doc in zip(batch, docs) if not state.is_final()]
        moves = self._move_index()
        while todo:
            states = [state for state, _, _ in todo]
            # on a GPU the scores come as a cupy array; the move system reads host memory
            scores = numpy.ascontiguousarray(self.model.ops.to_numpy(step_model.predict(states)), dtype="f")
            for row, (state, spans, breaks) in zip(scores, todo):
                _penalise(row, state, spans, breaks, moves)
            self.transition_states(states, scores)
            todo = [item for item in todo if not item[0].is_final()]
        step_model.clear_memory()
        return batch


class MoveIndex:
    """Indices of the moves the constraints penalise, from the move names (`B-COUNTRY`, `O`)."""

    def __init__(self, names: List[str], closed: Iterable[str]):
        index = {name: i for i, name in enumerate(names)}
        self.n_moves = len(names)
        self.outside: Optional[int] = index.get("O")
        # (label, B, I, L, U) of each closed label the model knows.
        self.closed = [(label, *(index[f"{act}-{label}"] for act in "BILU")) for label in closed
                       if all(f"{act}-{label}" in index for act in "BILU")]
        # Every label's moves of one kind: "B" starts an entity, "I" goes on with it, ...
        self.all_of = {act: numpy.array([i for name, i in index.items() if name.startswith(act + "-")], dtype="i")
                       for act in "BILU"}


def _line_breaks(doc: Doc) -> List[bool]:
    """Which tokens hold a line break (the tokenizer makes `\n` runs tokens of their own)."""
    return ["\n" in token.text for token in doc]


def _penalise(row: numpy.ndarray, state, spans: NameSpans, breaks: List[bool], moves: MoveIndex) -> None:
    """Penalise, in one state's scores, the moves that would take in a line break or leave a closed
    label's names."""
    here = state.B(0)
    is_open = state.entity_is_open()
    if breaks[here]:
        for act in "BILU":
            row[moves.all_of[act]] -= FORBIDDEN_MOVE_PENALTY
    elif here + 1 < len(breaks) and breaks[here + 1]:
        for act in "BI":
            row[moves.all_of[act]] -= FORBIDDEN_MOVE_PENALTY
    first = state.E(0) if is_open else here
    for label, begin, inside, last, unit in moves.closed:
        ends = spans[label].get(first, ())
        goes_on = any(end > here for end in ends)
        if is_open:
            if not goes_on:
                row[inside] -= FORBIDDEN_MOVE_PENALTY
            if here not in ends:
                row[last] -= FORBIDDEN_MOVE_PENALTY
        else:
            if not goes_on:
                row[begin] -= FORBIDDEN_MOVE_PENALTY
            if here not in ends:
                row[unit] -= FORBIDDEN_MOVE_PENALTY


@Language.factory(
    "deid_ner",
    assigns=["doc.ents", "token.ent_iob", "token.ent_type"],
    default_config={
        "moves": None,
        "update_with_oracle_cut_size": 100,
        "model": DEFAULT_NER_MODEL,
        "incorrect_spans_key": None,
        "scorer": {"@scorers": "spacy.ner_scorer.v1"},
        "closed_labels": list(DEFAULT_CLOSED_LABELS),
        "recall_bias": 0.0,
    },
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_closed_ner(nlp: Language, name: str, model: Model, moves, update_with_oracle_cut_size: int,
                    incorrect_spans_key: Optional[str], scorer: Optional[Callable],
                    closed_labels: List[str], recall_bias: float) -> ClosedClassNER:
    return ClosedClassNER(nlp.vocab, model, name=name, moves=moves,
                          update_with_oracle_cut_size=update_with_oracle_cut_size,
                          incorrect_spans_key=incorrect_spans_key, scorer=scorer, closed_labels=closed_labels,
                          recall_bias=recall_bias)


__all__ = ["ClosedClassNER", "ClosedClassNames", "FORBIDDEN_MOVE_PENALTY", "MoveIndex", "load_closed_names",
           "make_closed_ner"]
