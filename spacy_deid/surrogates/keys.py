"""The secret key and the keyed choices derived from it.

Every surrogate choice is a function of HMAC-SHA256(key, scope id, label, normalized original): the
same person gets the same surrogate in every note and in every worker process, with no shared state,
and without the key a surrogate says nothing about its original. One HMAC is computed per choice;
the 256-bit digest is then consumed as a mixed-radix number (`KeyedDraw.below`), and only a long
choice (a 20-character URL) extends it with SHA-256(digest || counter).
"""
import hashlib
import hmac
import json
import logging
import os
import unicodedata
from pathlib import Path
from typing import Optional, Sequence, TypeVar, Union

logger = logging.getLogger(__name__)

ENV_VAR = "SPACY_DEID_KEY"
# Published on purpose: it makes demos reproducible and is therefore worthless as a secret.
DEMO_KEY = b"spacy-deid public demo key - NOT SECRET - output is NOT de-identified"
# Below this a key can be brute-forced from a few known (original, surrogate) pairs (Presidio asks the
# same of its hash salt).
MIN_KEY_BYTES = 16
# A key of 16 bytes drawn from 2 symbols ("aaaaaaaaaaaaaaab", 16 spaces) is as weak as a short one.
MIN_DISTINCT_BYTES = 12

T = TypeVar("T")


class MissingKeyError(RuntimeError):
    """No key was configured; raised at first use so a pipeline still loads without one."""


class InvalidKeyError(ValueError):
    """A key that is present but unusable (too short, unreadable file)."""


def _to_bytes(key: Union[str, bytes]) -> bytes:
    return key if isinstance(key, bytes) else key.encode("utf-8")


def resolve_key(key: Optional[Union[str, bytes]] = None, *, demo_key: bool = False) -> bytes:
    """The key bytes from, in order: `key` (a literal, `env:VAR` or `file:PATH`), the environment
    variable SPACY_DEID_KEY, the demo key when `demo_key` is true. Raises MissingKeyError otherwise.

    `env:`/`file:` references let a config name where the key lives without containing it."""
    source = "argument"
    if isinstance(key, str) and key.startswith("env:"):
        var = key[4:]
        key, source = os.environ.get(var), f"environment variable {var}"
        if not key:
            raise MissingKeyError(f"the key reference names environment variable {var!r}, which is not set")
    elif isinstance(key, str) and key.startswith("file:"):
        path = Path(key[5:])
        try:
            key, source = path.read_bytes().strip(), f"key file {path}"
        except OSError as err:
            raise InvalidKeyError(f"cannot read the key file {str(path)!r} ({type(err).__name__})") from None
    if key is None or key == "" or key == b"":
        env = os.environ.get(ENV_VAR)
        if env:
            key, source = env, f"environment variable {ENV_VAR}"
        elif demo_key:
            logger.warning("spacy-deid is using the PUBLIC demo key: surrogates can be reversed by anyone; "
                           "the output is NOT de-identified. Set %s for real data.", ENV_VAR)
            return DEMO_KEY
        else:
            raise MissingKeyError(
                f"no surrogate key: set the environment variable {ENV_VAR}, pass key=... (or "
                f"'env:VAR' / 'file:PATH'), or set demo_key=true for a demo (output then NOT safe)")
    raw = _to_bytes(key)
    check_key(raw, source, demo_key=demo_key or (source == "argument" and key is DEMO_KEY))
    return raw


def check_key(raw: bytes, source: str = "argument", *, demo_key: bool = False) -> None:
    """Refuse a key that can be guessed: too short, too few distinct bytes, or the published demo key
    (unless `demo_key`, i.e. the user asked for a demo). Messages name the source, never the key."""
    if raw == DEMO_KEY and not demo_key:
        raise InvalidKeyError(f"the key from the {source} is the public demo key: anyone can reverse its "
                              "surrogates; use a secret key, or --demo-key / demo_key=true for a demo")
    if len(raw) < MIN_KEY_BYTES:
        raise InvalidKeyError(f"the key from the {source} is {len(raw)} bytes; at least {MIN_KEY_BYTES} are needed "
                              f"so that surrogates cannot be reversed by trying keys")
    distinct = len(set(raw))
    if distinct < MIN_DISTINCT_BYTES and raw != DEMO_KEY:
        raise InvalidKeyError(f"the key from the {source} has {distinct} distinct bytes; at least "
                              f"{MIN_DISTINCT_BYTES} are needed (a repeated character is guessable)")


def is_literal_key(setting: Optional[Union[str, bytes]]) -> bool:
    """A key written out in a config (not None, not an `env:VAR` / `file:PATH` reference)."""
    if setting is None or setting == "" or setting == b"":
        return False
    return not (isinstance(setting, str) and setting.startswith(("env:", "file:")))


def refuse_literal_key(setting: Optional[Union[str, bytes]], where: str) -> None:
    """Saving a pipeline (`to_disk`, `to_bytes`, hence `spacy package`) with a literal key would write
    the secret into config.cfg: an error, so the key never leaves the machine inside a pipeline."""
    if is_literal_key(setting):
        raise InvalidKeyError(f"{where}: refusing to save a pipeline whose config holds a literal key "
                              "(it would be written into config.cfg); set key = null and give the key "
                              "in SPACY_DEID_KEY, or use key = \"env:VAR\" or \"file:PATH\"")


def discard_config_with_key(folder: Path, setting: Union[str, bytes]) -> None:
    """Remove `folder/config.cfg` when it holds the literal key `setting` (spaCy writes the config
    before the components, so a refused save would otherwise leave the key on disk)."""
    config = Path(folder) / "config.cfg"
    needle = setting if isinstance(setting, bytes) else str(setting).encode("utf-8")
    try:
        if needle and needle in config.read_bytes():
            config.unlink()
    except OSError:
        pass


def pseudonymize_field(key: bytes, name: str, value: object) -> str:
    """A keyed pseudonym for an input field's value (`id`, `patient_id`, ...): the first 80 bits of
    HMAC-SHA256(key, "field" / name / value) in hex. Stable across runs, machines and workers for one key;
    without the key it reveals nothing of the value, with it a value can be confirmed by recomputing.
    The name is part of the message, so equal values in two fields get unrelated pseudonyms."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, (int, float, bool)) or value is None:
        text = json.dumps(value)
    else:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # surrogatepass: a lone surrogate in a value still gets a pseudonym instead of failing the record
    msg = b"field\x1f" + name.encode("utf-8", "surrogatepass") + b"\x1f" + text.encode("utf-8", "surrogatepass")
    return hmac.digest(key, msg, "sha256")[:10].hex()


def normalize(text: str) -> str:
    """The form of an original that decides its surrogate: NFKC (full-width → half-width), case-folded,
    whitespace collapsed, so `ＮＴＵＨ`, `ntuh` and `NTUH` are one value."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class KeyedDraw:
    """Uniform choices from one HMAC digest, consumed as a mixed-radix number."""

    __slots__ = ("_seed", "_value", "_counter")

    def __init__(self, digest: bytes):
        self._seed = digest
        self._value = int.from_bytes(digest, "big")
        self._counter = 0

    def below(self, n: int) -> int:
        """Uniform in [0, n): the remaining value stays >= 2**64 * n, so the bias is below 2**-64."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        if self._value < (n << 64):
            self._counter += 1
            more = hashlib.sha256(self._seed + self._counter.to_bytes(4, "big")).digest()
            self._value = (self._value << 256) | int.from_bytes(more, "big")
        self._value, r = divmod(self._value, n)
        return r

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def between(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)


class Keyed:
    """HMAC-SHA256 under one key and one scope id: `draw(label, original)` → a KeyedDraw."""

    __slots__ = ("_key", "scope_id", "_prefix")

    def __init__(self, key: bytes, scope_id: str):
        self._key = key
        self.scope_id = scope_id
        self._prefix = scope_id.encode("utf-8") + b"\x1f"

    def digest(self, label: str, normalized: str) -> bytes:
        # \x1f (unit separator) cannot occur in a label or a normalized value, so fields cannot run together.
        msg = self._prefix + label.encode("utf-8") + b"\x1f" + normalized.encode("utf-8")
        return hmac.digest(self._key, msg, "sha256")

    def draw(self, label: str, normalized: str) -> KeyedDraw:
        return KeyedDraw(self.digest(label, normalized))

    def hexdigest(self, label: str, normalized: str) -> str:
        return self.digest(label, normalized).hex()
