"""Code-mixing tokenizer: Han characters one token each, English rules for Latin runs.

spaCy's `zh` char mode splits English words into letters, and `xx`/`en` glue Chinese runs to digits
(`住院日期:110.12.25` is one token there). PHI starts and stops at exactly those boundaries, so this
tokenizer makes them explicit. Every regex here is a single character class or a lookaround of fixed
width, so tokenizing is linear in the length of the text (no backtracking on all-caps notes or long
digit runs).
"""
import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab
from thinc.api import Config

from .doctext import remember_text
from .extensions import install_extensions
from .han import HAN_TEXT_RANGES
from .wordlists import word_set

# Han ideographs and the ideographic zero 〇 used in Minguo years (`han`).
_HAN = HAN_TEXT_RANGES
# Punctuation that is always a token of its own: CJK symbols, full-width and general punctuation, the
# katakana middle dot (a list bullet and a foreign name's separator, `・1101225`, `約翰・史密斯`) and arrows
# (`KSPH→ours`, `{date}→{date}`).
_WIDE_PUNCT = ("\u3000-\u3006\u3008-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2010-\u205e\u00b7"
               "\u30fb\u2190-\u21ff")
_ATOM_RE = re.compile(f"[{_HAN}]|[{_WIDE_PUNCT}]|[^{_HAN}{_WIDE_PUNCT}\\s]+")
_SPACE_RE = re.compile(r"\s+")

# Characters split off wherever they stand (never part of PHI surface in the middle of a token).
_ALWAYS_SPLIT = set("()[]{}<>\"';!?=*&|^`")
# Titles whose period is part of the token; the name after them is a separate token (Dr.Chang).
DEFAULT_ABBREVIATIONS = (
    "Dr.", "Drs.", "Mr.", "Mrs.", "Ms.", "Mx.", "Prof.", "Jr.", "Sr.", "St.", "No.", "Nos.", "vs.",
    "etc.", "approx.", "Ave.", "Rd.", "Hosp.", "Dept.", "Tel.", "ext.", "Ext.", "fig.", "Fig.", "dr.",
    "DR.", "MR.", "MRS.", "MS.", "PROF.",  # notes typed in capitals: DR.LEE
)
_INITIALISM_RE = re.compile(r"(?:[A-Za-z]\.)+")  # b.i.d., a.m., U.S., y.o., "L." in "Sarah L."
_SLASH_ABBR_RE = re.compile(r"[A-Za-z]/[A-Za-z]")  # y/o, s/p, w/o, c/o, f/u: clinical shorthand
# An age glued to its unit: `32y/o`, `45F`, `3yo`; AGE is the number only, so split the unit off.
_AGE_UNIT_RE = re.compile(r"(\d{1,3})(y/o|y\.o\.|yo|yrs?|y|F|M|m/o|mo|Y/O|Y\.O\.|YO|YRS?|Y)")
_DATE_PART_RE = re.compile(r"\d{1,4}[./]\d{1,2}(?:[./]\d{1,4})?")
_COMPACT_DATE_RE = re.compile(r"(?:mk|MK)?\d{6,8}")
_ROOM_BED_RE = re.compile(r"(\d+[A-Za-z])-(\d+)")  # 8A-15 (ward 8A, bed 15)
# A word and a date joined by a hyphen (`TOXICITY-9/2/92`, `UO-9/10`, `3/4-Lasix`): the date is a token.
_WORD_DATE_RE = re.compile(f"([A-Za-z]+)-({_DATE_PART_RE.pattern})|({_DATE_PART_RE.pattern})-([A-Za-z]+)")
_LETTERS_DOT_DIGITS_RE = re.compile(r"([A-Za-z]{2,}\.)(\d.*)")  # No.27, ext.502, Dec.25


_EMAIL_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
_EMAIL_DOMAIN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")


def _is_email(run: str) -> bool:
    local, at, domain = run.partition("@")
    if not at or not local or "." not in domain:
        return False
    if not _EMAIL_LOCAL_CHARS.issuperset(local) or not _EMAIL_DOMAIN_CHARS.issuperset(domain):
        return False
    tld = domain.rsplit(".", 1)[1]
    return len(tld) >= 2 and tld.isalpha() and domain[0].isalnum()


def _is_url(run: str) -> bool:
    lower = run.lower()
    return lower.startswith(("http://", "https://", "ftp://", "www.")) and len(run) > 7


def _glued_sentences(piece: str) -> List[str]:
    """Words at a missing space after a sentence's period (`lin.agreed`, `report.reviewed`), each word and
    period a token, else []: words of two ASCII letters or more, none after a period a top-level domain
    (word list `top_level_domains`: `ntuh.gov.tw` is a host name)."""
    parts = piece.split(".")
    if len(parts) < 2 or not all(len(part) >= 2 and part.isascii() and part.isalpha() for part in parts):
        return []
    if any(part.lower() in word_set("top_level_domains") for part in parts[1:]):
        return []
    out = [parts[0]]
    for part in parts[1:]:
        out.extend((".", part))
    return out


class CodeMixedTokenizer:
    """Tokenizer for English, Chinese and code-mixed clinical text with exact character offsets."""

    def __init__(self, vocab: Vocab, abbreviations: Optional[Sequence[str]] = None):
        self.vocab = vocab
        self.abbreviations: Tuple[str, ...] = tuple(
            DEFAULT_ABBREVIATIONS if abbreviations is None else abbreviations
        )
        self._abbr_set = frozenset(self.abbreviations)
        self._cache: Dict[str, Tuple[str, ...]] = {}

    # -- public API ---------------------------------------------------------------------------
    def __call__(self, text: str) -> Doc:
        words, spaces = self.split(text)
        return remember_text(Doc(self.vocab, words=words, spaces=spaces), text)

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterable[Doc]:
        for text in texts:
            yield self(text)

    def split(self, text: str) -> Tuple[List[str], List[bool]]:
        """Words and trailing-space flags; ''.join(w + ' '*s) == text always holds."""
        words: List[str] = []
        spaces: List[bool] = []
        pos = 0
        n = len(text)
        for match in _SPACE_RE.finditer(text):
            start, end = match.span()
            if start > pos:
                self._split_chunk(text[pos:start], words, spaces)
            ws = match.group()
            # Whitespace runs are maximal, so a run not at offset 0 follows a token: like spaCy,
            # one plain space becomes that token's trailing whitespace, the rest a token of its own.
            if start > 0 and ws[0] == " ":
                spaces[-1] = True
                ws = ws[1:]
            if ws:
                words.append(ws)
                spaces.append(False)
            pos = end
        if pos < n:
            self._split_chunk(text[pos:], words, spaces)
        return words, spaces

    # -- internals ----------------------------------------------------------------------------
    def _split_chunk(self, chunk: str, words: List[str], spaces: List[bool]) -> None:
        cached = self._cache.get(chunk)
        if cached is None:
            cached = tuple(self._tokens_of_chunk(chunk))
            if len(self._cache) < 100_000:
                self._cache[chunk] = cached
        words.extend(cached)
        spaces.extend([False] * len(cached))

    def _tokens_of_chunk(self, chunk: str) -> List[str]:
        tokens: List[str] = []
        for atom in _ATOM_RE.findall(chunk):
            if len(atom) == 1:
                tokens.append(atom)
            elif tokens and len(atom) == 2 and atom[1] == "." and atom[0].isalpha():
                # A letter glued to Han text before a full stop (`85度C.`) ends a sentence; it is no
                # initial (those follow a space: `Sarah L.`).
                tokens.extend((atom[0], "."))
            else:
                tokens.extend(self._split_latin(atom))
        return tokens

    def _split_latin(self, run: str) -> List[str]:
        """Split a run of non-Han, non-space characters by English rules."""
        prefix: List[str] = []
        suffix: List[str] = []
        # Peel brackets, quotes and sentence punctuation off both ends; a slash can open a run only after
        # Han text or a space, where it separates fields (`男/34歲/14A-13床`) and is no date's or
        # shorthand's inner slash.
        while run and (run[0] in _ALWAYS_SPLIT or run[0] in ",:#~/"):
            if run[:2] in ("'s", "'S") and (len(run) == 2 or not run[2].isalnum()):
                break
            prefix.append(run[0])
            run = run[1:]
        while run and (run[-1] in _ALWAYS_SPLIT or run[-1] in ",:.~-/"):
            if run[-1] == "." and self._keeps_period(run):
                break
            if run.endswith("'s") or run.endswith("'S"):
                break
            suffix.append(run[-1])
            run = run[:-1]
        middle: List[str] = []
        if run in ("'s", "'S"):
            middle = [run]
        elif run:
            if run.endswith(("'s", "'S")) and len(run) > 2:
                suffix.append(run[-2:])
                run = run[:-2]
            if _is_email(run) or _is_url(run):
                middle = [run]
            else:
                middle = self._split_infixes(run)
        return prefix + middle + suffix[::-1]

    def _keeps_period(self, run: str) -> bool:
        return run in self._abbr_set or _INITIALISM_RE.fullmatch(run) is not None

    def _split_infixes(self, run: str) -> List[str]:
        pieces = self._split_on_punct(run)
        out: List[str] = []
        for piece in pieces:
            out.extend(self._split_piece(piece))
        return out

    @staticmethod
    def _split_on_punct(run: str) -> List[str]:
        """Split at characters that always separate, and at commas/colons/# not inside numbers."""
        out: List[str] = []
        buf: List[str] = []
        n = len(run)
        for i, ch in enumerate(run):
            sep = ch in _ALWAYS_SPLIT or ch == "~"
            if not sep and ch in ",:":
                prev_digit = i > 0 and run[i - 1].isdigit()
                next_digit = i + 1 < n and run[i + 1].isdigit()
                sep = not (prev_digit and next_digit) and run[i + 1 : i + 3] != "//"
            if not sep and ch == "#":
                sep = True
            if sep:
                if buf:
                    out.append("".join(buf))
                    buf = []
                out.append(ch)
            else:
                buf.append(ch)
        if buf:
            out.append("".join(buf))
        return out

    def _split_piece(self, piece: str) -> List[str]:
        if len(piece) == 1:
            return [piece]
        if piece in self._abbr_set or _is_email(piece) or _is_url(piece):
            return [piece]
        # Trailing period after an infix split (e.g. "3456." inside parentheses).
        if piece.endswith(".") and not self._keeps_period(piece):
            return self._split_piece(piece[:-1]) + ["."]
        # Title glued to a name: Dr.Chang -> Dr. | Chang
        dot = piece.find(".")
        if 0 < dot < len(piece) - 1 and piece[: dot + 1] in self._abbr_set:
            return [piece[: dot + 1]] + self._split_piece(piece[dot + 1 :])
        m = _LETTERS_DOT_DIGITS_RE.fullmatch(piece)
        if m:
            return [m.group(1)] + self._split_piece(m.group(2))
        glued = _glued_sentences(piece)
        if glued:
            return glued
        m = _AGE_UNIT_RE.fullmatch(piece)
        if m:
            return [m.group(1), m.group(2)]
        m = _WORD_DATE_RE.fullmatch(piece)
        if m and m.group(1):
            return [*self._split_piece(m.group(1)), "-", m.group(2)]
        if m:
            return [m.group(3), "-", *self._split_piece(m.group(4))]
        if "/" in piece:
            return self._split_slashes(piece)
        if "-" in piece:
            return self._split_hyphens(piece)
        return [piece]

    def _split_slashes(self, piece: str) -> List[str]:
        """`ydh/ptz` is two doctors; `y/o`, `s/p` and dates like `110/12/25` stay whole."""
        if _SLASH_ABBR_RE.fullmatch(piece) or not any(c.isalpha() for c in piece):
            return self._split_hyphens(piece) if "-" in piece else [piece]
        parts = piece.split("/")
        if any(p == "" for p in parts):
            return [piece]
        out: List[str] = []
        for i, part in enumerate(parts):
            if i:
                out.append("/")
            out.extend(self._split_piece(part))
        return out

    def _split_hyphens(self, piece: str) -> List[str]:
        m = _ROOM_BED_RE.fullmatch(piece)
        if m:
            return [m.group(1), "-", m.group(2)]
        parts = piece.split("-")
        if len(parts) == 2 and all(parts):
            left, right = parts
            # Ranges of dates are two dates: 2223.3-2224.9, 110/1/5-110/2/3, 1101225-1110103.
            if (_DATE_PART_RE.fullmatch(left) and _DATE_PART_RE.fullmatch(right)) or (
                _COMPACT_DATE_RE.fullmatch(left) and _COMPACT_DATE_RE.fullmatch(right)
            ):
                return [left, "-", right]
        # An age joined to its unit by a hyphen: 25-year-old -> 25 | - | year-old
        if len(parts) >= 2 and parts[0].isdigit() and parts[1][:1].isalpha():
            return [parts[0], "-", "-".join(parts[1:])]
        return [piece]

    # -- serialization ------------------------------------------------------------------------
    def _config(self) -> Dict[str, object]:
        return {"abbreviations": list(self.abbreviations)}

    def _load_config(self, cfg: Dict[str, object]) -> None:
        self.__init__(self.vocab, abbreviations=cfg.get("abbreviations"))  # type: ignore[misc]

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        return srsly.msgpack_dumps(self._config())

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "CodeMixedTokenizer":
        self._load_config(srsly.msgpack_loads(bytes_data))
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path, self._config())

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "CodeMixedTokenizer":
        self._load_config(srsly.read_json(Path(path)))
        return self

    def __reduce__(self):
        return (CodeMixedTokenizer, (self.vocab, list(self.abbreviations)))


@registry.tokenizers("spacy_deid.CodeMixedTokenizer.v1")
def create_code_mixed_tokenizer(abbreviations: Optional[List[str]] = None):
    """Config entry point: `[nlp.tokenizer] @tokenizers = "spacy_deid.CodeMixedTokenizer.v1"`."""

    def make_tokenizer(nlp) -> CodeMixedTokenizer:
        return CodeMixedTokenizer(nlp.vocab, abbreviations=abbreviations)

    return make_tokenizer


TOKENIZER_CONFIG = {"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.CodeMixedTokenizer.v1"}}}


def blank(lang: str = "xx", config: Optional[Dict] = None) -> Language:
    """A blank pipeline that uses the code-mixing tokenizer (`xx`: language-neutral defaults)."""
    merged = Config(TOKENIZER_CONFIG).merge(Config(config or {}))
    nlp = spacy.blank(lang, config=merged)
    install_extensions()
    return nlp
