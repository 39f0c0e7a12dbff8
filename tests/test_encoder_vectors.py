"""Static vectors from an encoder's word embeddings (`spacy-deid build-vectors`), on a tiny encoder
folder written by tests/helpers/tiny_encoder.py."""
import json

import numpy
import pytest
import spacy
from typer.testing import CliRunner

pytest.importorskip("safetensors", reason="safetensors is not installed (extra: encoder)")

from spacy_deid.cli import app  # noqa: E402
from spacy_deid.encoder.vectors import VectorSettings, VectorsBuildError, build_vectors  # noqa: E402

from helpers.tiny_encoder import CLUSTERS, write_tiny_encoder  # noqa: E402


def _key(piece: str) -> str:
    return piece.lstrip("\u2581")


@pytest.fixture()
def encoder(tmp_path):
    folder, _ = write_tiny_encoder(tmp_path / "encoder")
    return folder


def _vectors(folder):
    return spacy.load(folder).vocab


def test_rows_are_han_characters_and_whole_latin_words(encoder, tmp_path):
    manifest = build_vectors(encoder, tmp_path / "vectors", VectorSettings(dims=8))
    vocab = _vectors(tmp_path / "vectors")
    for members in CLUSTERS.values():
        for piece in members:
            assert vocab.has_vector(_key(piece)), piece
    for absent in ("<s>", "1", "12", ".", "s", "café", "a", "病人", "\u2581"):
        assert not vocab.has_vector(absent), absent
    assert manifest["han_characters"] == 13 and manifest["latin_words"] == 8
    assert vocab.vectors.shape == (21, 8)


def test_every_case_of_a_latin_word_shares_its_row(encoder, tmp_path):
    build_vectors(encoder, tmp_path / "vectors", VectorSettings(dims=8))
    vectors = _vectors(tmp_path / "vectors").vectors
    rows = {vectors.find(key=spelling) for spelling in ("Smith", "smith", "SMITH")}
    assert len(rows) == 1 and rows != {-1}


def test_a_han_character_written_both_ways_averages_its_rows(encoder, tmp_path):
    """`楊` and `▁楊` are one token of ours: one row, the mean of the two embeddings before PCA, so it
    sits between them (checked on the full width, where PCA keeps every direction)."""
    from safetensors.numpy import load_file

    build_vectors(encoder, tmp_path / "vectors", VectorSettings(dims=24))
    vocab = _vectors(tmp_path / "vectors")
    pieces = [p for p, _ in json.loads((encoder / "tokenizer.json").read_text("utf8"))["model"]["vocab"]]
    emb = load_file(str(encoder / "model.safetensors"))["embeddings.word_embeddings.weight"]
    both = emb[[pieces.index("楊"), pieces.index("\u2581楊")]]
    dist = lambda a, b: float(numpy.linalg.norm(a - b))  # noqa: E731
    # PCA is a rotation of the centred rows scaled by one factor: distances keep their ratios.
    ref_a, ref_b = vocab.get_vector("劉"), vocab.get_vector("婷")
    scale = dist(ref_a, ref_b) / dist(emb[pieces.index("劉")], emb[pieces.index("婷")])
    assert dist(vocab.get_vector("劉"), vocab.get_vector("楊")) == pytest.approx(
        scale * dist(emb[pieces.index("劉")], both.mean(axis=0)), rel=1e-4)


def test_neighbours_survive_the_reduction(encoder, tmp_path):
    build_vectors(encoder, tmp_path / "vectors", VectorSettings(dims=4))
    vocab = _vectors(tmp_path / "vectors")
    keys = [(_key(p), name) for name, members in CLUSTERS.items() for p in members if p != "\u2581楊"]
    matrix = numpy.stack([vocab.get_vector(k) for k, _ in keys])
    unit = matrix / numpy.linalg.norm(matrix, axis=1, keepdims=True)
    sims = unit @ unit.T
    numpy.fill_diagonal(sims, -2)
    for i, (key, cluster) in enumerate(keys):
        assert keys[int(sims[i].argmax())][1] == cluster, key


def test_latin_words_are_the_most_frequent_first(encoder, tmp_path):
    manifest = build_vectors(encoder, tmp_path / "vectors", VectorSettings(dims=4, latin_words=2))
    vocab = _vectors(tmp_path / "vectors")
    assert manifest["latin_words"] == 2
    assert vocab.has_vector("smith") and vocab.has_vector("miller") and not vocab.has_vector("parker")
    assert not vocab.has_vector("fever")


def test_build_is_deterministic(encoder, tmp_path):
    build_vectors(encoder, tmp_path / "a", VectorSettings(dims=6))
    build_vectors(encoder, tmp_path / "b", VectorSettings(dims=6))
    assert (tmp_path / "a" / "vocab" / "vectors").read_bytes() == (tmp_path / "b" / "vocab" / "vectors").read_bytes()
    assert (tmp_path / "a" / "vocab" / "key2row").read_bytes() == (tmp_path / "b" / "vocab" / "key2row").read_bytes()


def test_missing_inputs_name_the_file(encoder, tmp_path):
    with pytest.raises(VectorsBuildError, match="not a folder"):
        build_vectors(tmp_path / "nothing", tmp_path / "vectors")
    (encoder / "tokenizer.json").rename(tmp_path / "tokenizer.json")
    with pytest.raises(VectorsBuildError, match="tokenizer.json"):
        build_vectors(encoder, tmp_path / "vectors")
    (tmp_path / "tokenizer.json").rename(encoder / "tokenizer.json")
    (encoder / "model.safetensors").unlink()
    with pytest.raises(VectorsBuildError, match="model.safetensors"):
        build_vectors(encoder, tmp_path / "vectors")
    assert not (tmp_path / "vectors").exists()


def test_more_pieces_than_embedding_rows_is_an_error(tmp_path):
    from safetensors.numpy import save_file

    folder, pieces = write_tiny_encoder(tmp_path / "encoder")
    save_file({"embeddings.word_embeddings.weight": numpy.zeros((len(pieces) - 3, 4), dtype=numpy.float32)},
              str(folder / "model.safetensors"))
    with pytest.raises(VectorsBuildError, match="more pieces"):
        build_vectors(folder, tmp_path / "vectors")


def test_cli_builds_vectors(encoder, tmp_path):
    result = CliRunner().invoke(app, ["build-vectors", str(encoder), str(tmp_path / "vectors"), "--dims", "5"])
    assert result.exit_code == 0, result.output
    assert "21 rows x 5" in result.output
    assert _vectors(tmp_path / "vectors").vectors.shape == (21, 5)
    result = CliRunner().invoke(app, ["build-vectors", str(tmp_path / "nothing"), str(tmp_path / "v2")])
    assert result.exit_code == 1 and "not a folder" in result.output
