"""Lexicon arrays prepared once per process (lazy, cached): pools by length, gender and script, so
choosing a surrogate is an HMAC plus a few index operations."""
import bisect
import itertools
import re
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..lexicons import load
from .keys import KeyedDraw
from .shapes import has_han, script_of

GENDERS = ("M", "F", "U")


_NON_LETTER_RE = re.compile(r"[^a-z]+")


def rom_key(romanized: str) -> str:
    """Romanization compared without hyphens, spaces or case: `Chih-Ming`, `Chihming` → `chihming`."""
    return _NON_LETTER_RE.sub("", romanized.lower())


class Weighted:
    """Values with weights; `pick(draw)` is a weighted choice by bisecting cumulative weights."""

    __slots__ = ("values", "_cum", "_total")

    def __init__(self, values: Sequence, weights: Sequence[float]):
        self.values = tuple(values)
        # integer weights (1/1000 of a percent) keep choices identical on every platform
        ints = [max(1, int(round(w * 1000))) for w in weights]
        self._cum = list(itertools.accumulate(ints))
        self._total = self._cum[-1] if self._cum else 0

    def pick(self, draw: KeyedDraw):
        return self.values[bisect.bisect_right(self._cum, draw.below(self._total))]

    def __len__(self) -> int:
        return len(self.values)


class NameTables:
    """Surnames (by length, frequency-weighted), given-name characters and English names by gender."""

    def __init__(self):
        surnames = [e for e in load("surnames_zh").entries if e.get("romanized")]
        self.surname_by_len: Dict[int, Weighted] = {}
        for n in sorted({len(e["text"]) for e in surnames}):
            group = [e for e in surnames if len(e["text"]) == n]
            self.surname_by_len[n] = Weighted([(e["text"], e["romanized"]) for e in group],
                                              [float(e.get("freq") or 0.001) for e in group])
        self.han_surnames: FrozenSet[str] = frozenset(e["text"] for e in load("surnames_zh").entries)
        self.compound_surnames: FrozenSet[str] = frozenset(s for s in self.han_surnames if len(s) == 2)
        self.surname_rom: Dict[str, str] = {e["text"]: e["romanized"] for e in surnames}
        # romanized key → number of Han characters of that surname (chen → 1, ouyang → 2)
        self.rom_surname_len: Dict[str, int] = {}
        for e in sorted(surnames, key=lambda e: -float(e.get("freq") or 0)):
            self.rom_surname_len.setdefault(rom_key(e["romanized"]), len(e["text"]))

        chars = [e for e in load("given_chars_zh").entries if e.get("romanized")]
        self.char_gender: Dict[str, str] = {e["text"]: e["gender"] for e in chars}
        self.char_rom: Dict[str, str] = {e["text"]: e["romanized"] for e in chars}
        self.given_pool: Dict[str, Tuple[Tuple[str, str], ...]] = {
            "M": tuple((e["text"], e["romanized"]) for e in chars if e["gender"] in ("M", "U")),
            "F": tuple((e["text"], e["romanized"]) for e in chars if e["gender"] in ("F", "U")),
            "U": tuple((e["text"], e["romanized"]) for e in chars),
        }
        votes: Dict[str, List[int]] = {}
        for e in chars:
            v = votes.setdefault(rom_key(e["romanized"]), [0, 0])
            if e["gender"] == "M":
                v[0] += 1
            elif e["gender"] == "F":
                v[1] += 1
        self.syllable_votes = {k: tuple(v) for k, v in votes.items()}
        self.rom_given_gender: Dict[str, str] = {rom_key(e["text"]): e["gender"]
                                                 for e in load("given_names_romanized").entries}

        en_given = load("given_names_en").entries
        self.en_given_gender: Dict[str, str] = {e["text"].lower(): e.get("gender", "U") for e in en_given}
        self.en_given_pool: Dict[str, Tuple[str, ...]] = {
            g: tuple(e["text"] for e in en_given if g == "U" or e.get("gender") in (g, "U")) for g in GENDERS}
        self.en_surnames: Tuple[str, ...] = tuple(load("surnames_en").values("text"))
        self.en_surname_set: FrozenSet[str] = frozenset(s.lower() for s in self.en_surnames)


# Which lexicons feed which label, and which fields hold Han / Latin surface forms.
LABEL_LEXICONS: Dict[str, Tuple[str, ...]] = {
    "HOSPITAL": ("hospitals",), "DEPARTMENT": ("departments",), "CITY": ("cities", "districts"),
    "STREET": ("streets",), "STATE": ("states",), "COUNTRY": ("countries",),
    "NATIONALITY": ("nationalities",), "REGION": ("regions",), "SCHOOL": ("schools",),
    "GENERAL_BUSINESS": ("companies",), "MARKET": ("markets",), "LOCATION": ("locations",),
    "PROFESSION": ("professions",),
}
_HAN_FIELDS = ("zh", "abbr_zh")
_LATIN_FIELDS = ("en", "abbr_en", "abbr")


def latin_kind(text: str) -> str:
    """`abbr` for NTUH / ER / TSMC (no space, all capitals), `word` otherwise."""
    letters = [c for c in text if c.isalpha()]
    if letters and " " not in text.strip() and all(c.isupper() for c in letters) and len(text) <= 8:
        return "abbr"
    return "word"


class PlaceTables:
    """Surface forms of one label's lexicons, indexed so a surrogate matches the original's script,
    length and final character (市/區/路/科/醫院 keep a city a city and a street a street)."""

    def __init__(self, label: str):
        han: List[str] = []
        latin: List[str] = []
        for name in LABEL_LEXICONS[label]:
            lex = load(name)
            for entry in lex.entries:
                for f in _HAN_FIELDS:
                    v = entry.get(f)
                    if isinstance(v, str) and v and has_han(v):
                        han.append(v)
                for f in _LATIN_FIELDS:
                    v = entry.get(f)
                    if isinstance(v, str) and v and script_of(v) == "latin":
                        latin.append(v)
        self.han = tuple(dict.fromkeys(han))
        self.latin = tuple(dict.fromkeys(latin))
        self.han_by_len_last: Dict[Tuple[int, str], Tuple[str, ...]] = _group(self.han, lambda v: (len(v), v[-1]))
        self.han_by_last: Dict[str, Tuple[str, ...]] = _group(self.han, lambda v: v[-1])
        self.han_by_len: Dict[int, Tuple[str, ...]] = _group(self.han, len)
        self.latin_by_kind: Dict[str, Tuple[str, ...]] = _group(self.latin, latin_kind)
        self.latin_by_kind_len: Dict[Tuple[str, int], Tuple[str, ...]] = _group(
            self.latin, lambda v: (latin_kind(v), len(v)))

    def candidates(self, original: str) -> Tuple[Tuple[str, ...], ...]:
        """Pools from most to least alike; the caller takes the first that offers a different value."""
        if has_han(original):
            return (self.han_by_len_last.get((len(original), original[-1]), ()),
                    self.han_by_last.get(original[-1], ()), self.han_by_len.get(len(original), ()), self.han)
        kind = latin_kind(original)
        return (self.latin_by_kind_len.get((kind, len(original)), ()), self.latin_by_kind.get(kind, ()),
                self.latin)


def _group(values, key) -> Dict:
    out: Dict = {}
    for v in values:
        out.setdefault(key(v), []).append(v)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=None)
def name_tables() -> NameTables:
    return NameTables()


@lru_cache(maxsize=None)
def place_tables(label: str) -> Optional[PlaceTables]:
    if label not in LABEL_LEXICONS:
        return None
    return PlaceTables(label)
