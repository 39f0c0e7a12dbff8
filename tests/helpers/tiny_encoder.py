"""A Hugging Face-style folder with just what static vectors are built from: a word-embedding matrix
in `model.safetensors` and a Unigram `tokenizer.json`. Rows are drawn around a few cluster centres
(surnames, given-name characters, place suffixes, English surnames, clinical words), so a test can
check that neighbours survive the build."""
import json
from pathlib import Path
from typing import Dict, List, Tuple

import numpy

CLUSTERS: Dict[str, List[str]] = {
    "surname": ["劉", "▁楊", "楊", "邱", "陳", "林"],
    "given": ["婷", "琪", "娟", "萍"],
    "place": ["縣", "鄉", "鎮", "區"],
    "en_surname": ["▁Smith", "▁Miller", "▁Parker", "▁Moore"],
    "clinical": ["▁fever", "▁cough", "▁nausea", "▁patient"],
}
# Pieces the vectors must leave out: specials, digits, punctuation, word pieces, non-ASCII Latin.
OTHER = ["<s>", "<pad>", "</s>", "<unk>", "▁", "▁1", "12", ".", "s", "▁café", "▁a", "▁病人"]
WIDTH = 24


def write_tiny_encoder(folder: Path, seed: int = 0) -> Tuple[Path, List[str]]:
    """Write the folder; return it and its pieces in row order."""
    from safetensors.numpy import save_file

    rng = numpy.random.default_rng(seed)
    pieces: List[str] = list(OTHER)
    rows = [rng.normal(0, 1, WIDTH) for _ in OTHER]
    for members in CLUSTERS.values():
        centre = rng.normal(0, 3, WIDTH)
        for piece in members:
            pieces.append(piece)
            rows.append(centre + rng.normal(0, 0.3, WIDTH))
    folder.mkdir(parents=True, exist_ok=True)
    matrix = numpy.stack(rows + [rng.normal(0, 1, WIDTH)]).astype(numpy.float32)  # one row past the pieces
    save_file({"embeddings.word_embeddings.weight": matrix}, str(folder / "model.safetensors"))
    scores = [0.0] * 4 + [-1.0 - 0.1 * i for i in range(len(pieces) - 4)]
    tokenizer = {"model": {"type": "Unigram", "unk_id": 3, "vocab": [[p, s] for p, s in zip(pieces, scores)]}}
    (folder / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf8")
    return folder, pieces
