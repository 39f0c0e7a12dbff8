"""Static word vectors for the CPU pipeline from a multilingual encoder's input embeddings.

The CPU NER learns names, places and schools from synthetic notes whose held-out values (surnames,
given-name characters, towns) it never sees; hash embeddings give an unseen character nothing to go
on. A multilingual encoder's word-embedding matrix does: 劉's nearest rows are other surnames, 婷's
other given-name characters, 縣's other place suffixes, Smith's other English surnames. This module
keeps the rows the code-mixing tokenizer can look up (one Han character per token; whole Latin words),
reduces them by PCA to a width a ≤ 30 MB pipeline can carry, and writes a spaCy pipeline folder whose
`vocab.vectors` `configs/cpu.cfg` reads through `[initialize] vectors` (`include_static_vectors`).

Any local Hugging Face folder with `model.safetensors` and a `tokenizer.json` works (SentencePiece
Unigram vocabularies mark word starts with `▁`; WordPiece ones mark continuations with `##`).
Numpy and safetensors suffice; torch is never imported.
"""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Tuple, Union

import numpy

from ..surrogates.shapes import is_han

MANIFEST = "spacy_deid_vectors.json"
WORD_START = "\u2581"  # SentencePiece's word-start mark


class VectorsBuildError(RuntimeError):
    """The encoder folder lacks what the vectors are made from (the message says which file)."""


@dataclass(frozen=True)
class VectorSettings:
    dims: int = 64
    latin_words: int = 30_000  # the most frequent whole Latin words of the vocabulary
    min_latin_length: int = 2


def _embedding_matrix(encoder_dir: Path) -> numpy.ndarray:
    """Only the word-embedding tensor is read, not the encoder's layers."""
    from safetensors import safe_open

    weights = encoder_dir / "model.safetensors"
    if not weights.is_file():
        raise VectorsBuildError(f"{weights} not found: give a Hugging Face folder with model.safetensors")
    with safe_open(str(weights), framework="numpy") as tensors:
        names = sorted(k for k in tensors.keys() if k.endswith("word_embeddings.weight"))
        if not names:
            raise VectorsBuildError(f"{weights} has no '*word_embeddings.weight' tensor")
        return tensors.get_tensor(names[0]).astype(numpy.float32)


def _pieces_by_frequency(encoder_dir: Path) -> List[Tuple[str, int]]:
    """(piece, row) pairs, most frequent first (Unigram: by score; WordPiece/BPE: by id)."""
    path = encoder_dir / "tokenizer.json"
    if not path.is_file():
        raise VectorsBuildError(f"{path} not found: give a Hugging Face folder with tokenizer.json")
    model = json.loads(path.read_text(encoding="utf8")).get("model", {})
    vocab = model.get("vocab")
    if isinstance(vocab, list):  # Unigram: [[piece, score], ...], row = list index
        order = sorted(range(len(vocab)), key=lambda i: (-vocab[i][1], i))
        return [(vocab[i][0], i) for i in order]
    if isinstance(vocab, dict):
        return sorted(vocab.items(), key=lambda item: item[1])
    raise VectorsBuildError(f"{path}: no vocabulary under model.vocab")


def _word_of(piece: str) -> Tuple[str, bool]:
    """The surface a token of ours would have, and whether the piece starts a word."""
    if piece.startswith(WORD_START):
        return piece[1:], True
    if piece.startswith("##"):
        return piece[2:], False
    return piece, True


def select_rows(pieces: List[Tuple[str, int]], settings: VectorSettings) -> Iterator[Tuple[str, List[int]]]:
    """(word, encoder rows averaged into its vector): every Han character, then whole Latin words in
    lower case (their most frequent spelling's row; `spellings` adds the other cases as keys)."""
    han: Dict[str, List[int]] = {}
    latin: Dict[str, List[int]] = {}
    for piece, row in pieces:
        word, starts = _word_of(piece)
        if len(word) == 1 and is_han(word):
            han.setdefault(word, []).append(row)
        elif (starts and len(word) >= settings.min_latin_length and word.isascii() and word.isalpha()
              and len(latin) < settings.latin_words):
            latin.setdefault(word.lower(), [row])
    yield from han.items()
    yield from latin.items()


def spellings(word: str) -> Tuple[str, ...]:
    """Keys for one row: spaCy saves no key attribute for default vectors, so lookups are by ORTH and
    every case a note writes (`smith`, `Smith`, `SMITH`) needs its own key."""
    return tuple(dict.fromkeys((word, word.capitalize(), word.upper())))


def reduce_dims(matrix: numpy.ndarray, dims: int) -> numpy.ndarray:
    """PCA to `dims` columns, scaled to unit variance overall; signs fixed so output is deterministic."""
    centered = matrix - matrix.mean(axis=0, keepdims=True)
    _, _, vt = numpy.linalg.svd(centered.astype(numpy.float64), full_matrices=False)
    components = vt[:dims]
    signs = numpy.sign(components[numpy.arange(len(components)), numpy.abs(components).argmax(axis=1)])
    reduced = centered @ (components * signs[:, None]).T
    return (reduced / reduced.std()).astype(numpy.float32)


def build_vectors(encoder_dir: Union[str, Path], out_dir: Union[str, Path],
                  settings: VectorSettings = VectorSettings()) -> Dict[str, object]:
    """Write a spaCy pipeline folder holding only the vectors; return its manifest."""
    import spacy
    from spacy.vectors import Vectors

    encoder_dir, out_dir = Path(encoder_dir), Path(out_dir)
    if not encoder_dir.is_dir():
        raise VectorsBuildError(f"{encoder_dir} is not a folder: give a local Hugging Face model folder")
    pieces = _pieces_by_frequency(encoder_dir)
    embeddings = _embedding_matrix(encoder_dir)
    selected = list(select_rows(pieces, settings))
    if not selected:
        raise VectorsBuildError(f"{encoder_dir}: no Han characters or Latin words in the vocabulary")
    if max(row for _, rows in selected for row in rows) >= len(embeddings):
        raise VectorsBuildError(f"{encoder_dir}: tokenizer.json has more pieces than the embedding matrix")
    matrix = numpy.stack([embeddings[rows].mean(axis=0) for _, rows in selected])
    dims = min(settings.dims, matrix.shape[1], len(matrix))
    data = reduce_dims(matrix, dims)
    nlp = spacy.blank("xx")
    vectors = Vectors(strings=nlp.vocab.strings, data=data, name="spacy_deid_encoder_vectors")
    for row, (word, _) in enumerate(selected):
        for key in spellings(word):  # distinct lower-case words never share a spelling
            vectors.add(key, row=row)
    nlp.vocab.vectors = vectors
    nlp.to_disk(out_dir)
    n_han = sum(1 for key, _ in selected if is_han(key))
    manifest = {"encoder": str(encoder_dir), "rows": len(selected), "dims": dims, "han_characters": n_han,
                "latin_words": len(selected) - n_han, "settings": vars(settings)}
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf8")
    return manifest
