"""Per-label surrogate generators: the `surrogate` operator's work, one keyed choice per span.

HMAC labels: names use `NAME.*` for every name subcategory (a patient's name mentioned as FAMILY in
another note is still the same string, hence the same surrogate); other labels use their own
subcategory, so `7A` as a ROOM and `7A` in an ID do not share a surrogate.
"""
import re
from typing import FrozenSet, Optional

from .identifiers import email_surrogate, is_tw_id_shape, phone_surrogate, tw_id_surrogate, url_surrogate
from .keys import Keyed, KeyedDraw, normalize
from .names import NameSurrogates
from .shapes import has_han, shape_surrogate
from .tables import LABEL_LEXICONS, latin_kind, name_tables, place_tables
from ..labels import NAME_LABELS

_DIGITS_RE = re.compile(r"\d")


_HAS_ALNUM_RE = re.compile(r"[0-9A-Za-z\uff10-\uff19]")


class SurrogateGenerator:
    """`generate(keyed, label, text, ...)` → a surrogate that differs from `text`."""

    def __init__(self):
        self._names: Optional[NameSurrogates] = None

    @property
    def names(self) -> NameSurrogates:
        if self._names is None:
            self._names = NameSurrogates(name_tables())
        return self._names

    def warm_up(self) -> None:
        """Load every lexicon table now (initialize()), not on the first note."""
        _ = self.names
        for label in LABEL_LEXICONS:
            place_tables(label)

    def _han_char(self, draw: KeyedDraw) -> str:
        pool = self.names.t.given_pool["U"]
        return pool[draw.below(len(pool))][0]

    def shape(self, keyed: Keyed, label: str, text: str) -> str:
        """Same layout, new characters. In a value with digits or letters (`12診`, `第3診間`, `7B`),
        Han characters are its units and stay; otherwise they are drawn from given-name characters."""
        keeps_han = _HAS_ALNUM_RE.search(text) is not None
        return shape_surrogate(text, keyed.draw(label, normalize(text)), han=None if keeps_han else self._han_char)

    def generate(self, keyed: Keyed, label: str, text: str, *, gender_hint: Optional[str] = None,
                 known_given: FrozenSet[str] = frozenset()) -> str:
        if label in NAME_LABELS:
            return self.names(keyed, text, gender_hint, known_given,
                              fallback=lambda t: self.shape(keyed, "NAME", t))
        if label in ("ID_NUMBER", "NIC", "MEDICAL_RECORD"):
            compact = text.strip()
            if label == "ID_NUMBER" and is_tw_id_shape(compact) and compact == text:
                return tw_id_surrogate(text, keyed.draw(label, text.upper()))
            return self.shape(keyed, label, text)
        if label == "PHONE":
            return phone_surrogate(text, keyed.draw(label, "".join(_DIGITS_RE.findall(text)) or normalize(text)))
        if label == "EMAIL":
            return email_surrogate(text, keyed.draw(label, normalize(text)))
        if label == "URL":
            return url_surrogate(text, keyed.draw(label, normalize(text)))
        tables = place_tables(label)
        if tables is not None:
            return self.place(keyed, label, text, tables)
        return self.shape(keyed, label, text)  # ROOM, NUMBER, and any label without a lexicon

    def place(self, keyed: Keyed, label: str, text: str, tables) -> str:
        """A value of the label's lexicons in the same script, as alike in length and ending as the
        lexicon allows; digits-only originals (`711`, `804`) keep the digit shape instead."""
        if not has_han(text) and not any(c.isalpha() for c in text):
            return self.shape(keyed, label, text)
        norm = normalize(text)
        draw = keyed.draw(label, norm)
        for pool in tables.candidates(text):
            if not pool or (len(pool) == 1 and normalize(pool[0]) == norm):
                continue
            for _ in range(32):
                value = pool[draw.below(len(pool))]
                if normalize(value) != norm:
                    if not has_han(text):
                        value = _latin_like(text, value)
                    if value != text:
                        return value
        return shape_surrogate(text, draw, han=self._han_char)


def _latin_like(original: str, value: str) -> str:
    """Casing of the original when it is uniform (`ntuh` → lower-case abbreviation, `TAIPEI` → upper)."""
    if latin_kind(original) == "abbr":
        return value.upper()
    letters = [c for c in original if c.isalpha()]
    if letters and all(c.islower() for c in letters):
        return value.lower()
    if letters and all(c.isupper() for c in letters) and len(letters) > 1:
        return value.upper()
    return value

