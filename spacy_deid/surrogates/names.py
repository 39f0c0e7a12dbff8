"""Name surrogates: Han names stay Han names of the same length with a surname in the surname slot;
romanized and English names keep their order, casing and hyphenation; gender is kept where it can be
read (given-name characters, English first names, 先生/小姐, Mr./Ms., he/she after the name).

Linking without shared state: the surname and the given name are keyed separately, each by its
romanization where known, so `陳志明`, `陳先生` (span `陳`), `志明` and `Chen Chih-Ming` all reuse the
same parts: `林建華`, `林`, `建華`, `Lin Chien-Hua`. Homophones (張/章 are both `Chang`) therefore share
a surrogate, which costs nothing in privacy and keeps romanized mentions linked.
"""
import re
from typing import Callable, FrozenSet, List, Optional, Tuple

from ..han import HAN_RUN
from ..romanize import PINYIN, WADE_GILES, spellings, style_of, syllable
from .keys import Keyed, KeyedDraw, normalize
from .shapes import case_of, is_han, match_case
from .tables import NameTables, rom_key

_L = "A-Za-z\u00c0-\u024f"
_WORD_RE = re.compile(f"[{_L}][{_L}'\u2019]*(?:-[{_L}][{_L}'\u2019]*)*")
_MALE_BEFORE = re.compile(r"(?:\bMr|\bMister|\bSir)\.?\s*$")
_FEMALE_BEFORE = re.compile(r"(?:\bMrs|\bMs|\bMiss|\bMme|\bMadam)\.?\s*$")
_MALE_AFTER = ("先生", "伯伯", "爺爺", "阿公", "叔叔", "哥", "弟", "君")
_FEMALE_AFTER = ("小姐", "太太", "女士", "阿姨", "阿嬤", "奶奶", "姐", "姊", "妹", "嫂")
_LETTERS_RE = re.compile("[A-Za-z]+")
_PRONOUN_RE = re.compile(r"\b(?:(he|him|his|himself)|(she|her|hers|herself))\b|(他)|(她)", re.I)


def gender_hint(text: str, start: int, end: int) -> Optional[str]:
    """M/F from the words around a name (title before, honorific after, first pronoun after), else None.
    Used only when the name itself says nothing, so a name keeps one surrogate across notes."""
    before = text[max(0, start - 8):start]
    if _MALE_BEFORE.search(before):
        return "M"
    if _FEMALE_BEFORE.search(before):
        return "F"
    after = text[end:end + 2]
    if after.startswith(_MALE_AFTER):
        return "M"
    if after.startswith(_FEMALE_AFTER):
        return "F"
    m = _PRONOUN_RE.search(text, end, min(len(text), end + 80))
    if m:
        return "M" if (m.group(1) or m.group(3)) else "F"
    return None


class NameSurrogates:
    """Keyed surrogates for one name string; `tables` holds the lexicon pools."""

    def __init__(self, tables: NameTables):
        self.t = tables

    # -- parts ------------------------------------------------------------------------------------
    def surname(self, keyed: Keyed, han: Optional[str] = None, rom: Optional[str] = None,
                n_chars: int = 1) -> Tuple[str, str]:
        """(Han, romanized) surrogate surname of `han` or of romanized `rom`; same number of characters."""
        t = self.t
        if han is not None:
            n_chars = len(han)
            rom = t.surname_rom.get(han)
        key = f"rom:{rom_key(rom)}" if rom else f"han:{han}"
        draw = keyed.draw("NAME.surname", key)
        pool = t.surname_by_len.get(n_chars) or t.surname_by_len[1]
        orig_rom = rom_key(rom) if rom else None
        for _ in range(64):
            text, r = pool.pick(draw)
            if text != han and rom_key(r) != orig_rom:
                return text, r
        raise AssertionError("surname pool has a single value")

    def given(self, keyed: Keyed, n: int, gender: Optional[str], han: Optional[str] = None,
              rom: Optional[str] = None) -> List[Tuple[str, str]]:
        """n (Han character, romanized syllable) pairs for a given name, keyed by its romanization when
        every character has one (so 志明 and Chih-Ming link), else by its characters."""
        t = self.t
        if han is not None:
            roms = [t.char_rom.get(c) for c in han]
            key = "rom:" + "".join(rom_key(r) for r in roms) if all(roms) else f"han:{han}"
        else:
            key = f"rom:{rom_key(rom or '')}"
        draw = keyed.draw("NAME.given", key)
        pool = t.given_pool.get(gender or "U") or t.given_pool["U"]
        for _ in range(64):
            picked = [pool[draw.below(len(pool))] for _ in range(max(1, n))]
            chars = "".join(c for c, _ in picked)
            if chars != han and "rom:" + "".join(rom_key(r) for _, r in picked) != key:
                return picked
        raise AssertionError("given-name pool too small")

    def han_gender(self, given: str) -> Optional[str]:
        m = f = 0
        for c in given:
            g = self.t.char_gender.get(c)
            m += g == "M"
            f += g == "F"
        return "M" if m > f else "F" if f > m else None

    def rom_gender(self, given: str) -> Optional[str]:
        g = self.t.rom_given_gender.get(rom_key(given))
        if g in ("M", "F"):
            return g
        m = f = 0
        for syl in given.replace(" ", "-").split("-"):
            vm, vf = self.t.syllable_votes.get(rom_key(syl), (0, 0))
            m += vm > vf
            f += vf > vm
        return "M" if m > f else "F" if f > m else None

    # -- Han names ---------------------------------------------------------------------------------
    def split_han(self, name: str, known_given: FrozenSet[str] = frozenset()) -> Tuple[List[str], str]:
        """(surnames, given). One character is a surname (`陳`先生, Dr. `周`); two characters are a given
        name when another name in the note ends with them or they do not start with a surname; a
        compound surname (歐陽) or two surnames (陳林淑華, a married woman's name) are recognized."""
        t = self.t
        n = len(name)
        if n == 1:
            return [name], ""
        if n == 2:
            if name in t.compound_surnames:
                return [name], ""
            if name in known_given or name[0] not in t.han_surnames:
                return [], name
            return [name[0]], name[1:]
        if name[:2] in t.compound_surnames:
            return [name[:2]], name[2:]
        if n == 4 and name[0] in t.han_surnames and name[1] in t.han_surnames:
            return [name[0], name[1]], name[2:]
        return [name[0]], name[1:]

    def han_name(self, keyed: Keyed, name: str, hint: Optional[str], known_given: FrozenSet[str]) -> str:
        surnames, given = self.split_han(name, known_given)
        out = "".join(self.surname(keyed, han=s)[0] for s in surnames)
        if given:
            gender = self.han_gender(given) or hint
            out += "".join(c for c, _ in self.given(keyed, len(given), gender, han=given))
        return out

    # -- Latin names --------------------------------------------------------------------------------
    def _is_rom_surname(self, word: str) -> bool:
        return rom_key(word) in self.t.rom_surname_len

    def _is_rom_given(self, word: str) -> bool:
        return "-" in word or rom_key(word) in self.t.rom_given_gender

    def latin_name(self, keyed: Keyed, name: str, hint: Optional[str]) -> str:
        words = [(m.start(), m.end()) for m in _WORD_RE.finditer(name)]
        if not words:
            return name
        texts = [name[s:e] for s, e in words]
        roles = self._roles(texts)
        gender = hint
        for w, role in zip(texts, roles):
            if role == "rom_given":
                gender = self.rom_gender(w) or hint
                break
            if role == "en_given":
                g = self.t.en_given_gender.get(w.lower())
                gender = g if g in ("M", "F") else hint
                break
        out, pos = [], 0
        for (s, e), w, role in zip(words, texts, roles):
            out.append(name[pos:s])
            out.append(self._latin_word(keyed, w, role, gender))
            pos = e
        out.append(name[pos:])
        return "".join(out)

    def _roles(self, w: List[str]) -> List[str]:
        t = self.t
        if len(w) == 1:
            word, low = w[0], w[0].lower()
            if self._is_rom_surname(word) and (len(word) > 2 or case_of(word) == "title"):
                return ["rom_surname"]
            if "-" in word:
                return ["rom_given"]
            if len(word) == 1:
                return ["initial"]
            if low in t.en_given_gender and low not in t.en_surname_set:
                return ["en_given"]
            if low in t.en_surname_set:
                return ["en_surname"]
            if len(word) <= 4 and case_of(word) in ("lower", "upper"):
                return ["letters"]  # clinician initials: cyh, LWT
            return ["en_surname"]
        roles = []
        if self._is_rom_surname(w[0]) and len(w) == 2 and self._is_rom_given(w[1]):
            return ["rom_surname", "rom_given"]  # Chinese order: Lin Chia-Hao
        last = len(w) - 1
        for i, word in enumerate(w):
            if len(word) == 1:
                roles.append("initial")
            elif i == last:
                roles.append("rom_surname" if self._is_rom_surname(word) and
                             (roles[:1] == ["rom_given"] or word.lower() not in t.en_surname_set)
                             else "en_surname")
            elif "-" in word:
                roles.append("rom_given")
            else:
                roles.append("en_given")
        return roles

    def _latin_word(self, keyed: Keyed, word: str, role: str, gender: Optional[str]) -> str:
        t = self.t
        if role == "rom_surname":
            n = t.rom_surname_len.get(rom_key(word), 1)
            return match_case(word, self.surname(keyed, rom=word, n_chars=n)[1])
        if role == "rom_given":
            n = max(1, len(word.split("-")))
            syllables = [r for _, r in self.given(keyed, n, gender, rom=word)]
            joined = "-".join(syllables) if "-" in word else "".join(syllables).capitalize()
            return match_case(word, joined)
        if role == "en_given":
            draw = keyed.draw("NAME.given", f"en:{word.lower()}")
            pool = t.en_given_pool.get(gender or "U") or t.en_given_pool["U"]
            return match_case(word, _pick_other(draw, pool, word))
        if role == "en_surname":
            draw = keyed.draw("NAME.surname", f"en:{word.lower()}")
            return match_case(word, _pick_other(draw, t.en_surnames, word))
        # initials and clinician initials: letters of the same case, as a whole never the original
        draw = keyed.draw("NAME.letters", normalize(word))
        return _letters(word, draw)

    # -- a romanized mention linked to a Han name --------------------------------------------------
    def linked_name(self, keyed: Keyed, name: str, han: str, hint: Optional[str],
                    known_given: FrozenSet[str]) -> Optional[str]:
        """The surrogate of `name`, a mention of the Han name `han` (its given name `大明`, or a
        romanized form: `Wang Da-Ming`, `WANG TA MING`, `Da-Ming Wang`, `Wang DM`), written from the
        surrogate `han_name` gives `han`, in the mention's own system, order, separators and case;
        None when `name` is no such form."""
        surnames, given = self.split_han(han, known_given)
        if len(surnames) != 1 or not given:
            return None
        sur_han, sur_rom = self.surname(keyed, han=surnames[0])
        # the given name's characters alone say the sex: every mention, whatever its context, then
        # gets the same surrogate
        gender = self.han_gender(given)
        picked = self.given(keyed, len(given), gender, han=given)
        new_given = "".join(c for c, _ in picked)
        if name == han:
            return sur_han + new_given
        if name == given:
            return new_given
        words = list(_LETTERS_RE.finditer(name))
        if not words:
            return None
        own = spellings(surnames[0])
        if words[0].group().lower() in own and len(words) > 1:
            sur_word, rest = words[0], words[1:]
        elif words[-1].group().lower() in own and len(words) > 1:
            sur_word, rest = words[-1], words[:-1]
        else:
            sur_word, rest = None, words
        pieces = _given_pieces(rest, given)
        if pieces is None:
            return None
        style, initials, spans = pieces
        if sur_word is not None:
            style = style_of([(surnames[0], sur_word.group().lower())]) if style is None else style
        style = style or WADE_GILES
        new_sylls = [syllable(c, style) if style == PINYIN else (rom_key(r) or syllable(c, style))
                     for c, r in picked]
        new_sur = syllable(sur_han, style) if style == PINYIN else (rom_key(sur_rom) or syllable(sur_han, style))
        replace = [(s, e, (n[:1] if initials else n)) for (s, e), n in zip(spans, new_sylls)]
        if sur_word is not None:
            replace.append((sur_word.start(), sur_word.end(), new_sur))
        out, pos = [], 0
        for s, e, new in sorted(replace):
            out.append(name[pos:s])
            out.append(_cased_like(name[s:e], new))
            pos = e
        out.append(name[pos:])
        return "".join(out)

    # -- entry point --------------------------------------------------------------------------------
    def __call__(self, keyed: Keyed, name: str, hint: Optional[str] = None,
                 known_given: FrozenSet[str] = frozenset(),
                 fallback: Optional[Callable[[str], str]] = None) -> str:
        compact = name.replace(" ", "").replace("\u3000", "")
        if compact and all(is_han(c) for c in compact):
            return self.han_name(keyed, compact, hint, known_given) if compact == name else \
                HAN_RUN.sub(lambda m: self.han_name(keyed, m.group(0), hint, known_given), name)
        if HAN_RUN.search(name):  # 麥可·喬丹, 陳 Chen: each run its own name
            out = HAN_RUN.sub(lambda m: self.han_name(keyed, m.group(0), hint, known_given), name)
            return self.latin_name(keyed, out, hint) if _WORD_RE.search(out) else out
        if _WORD_RE.search(name):
            return self.latin_name(keyed, name, hint)
        return fallback(name) if fallback else name


def _given_pieces(words, given: str):
    """(style or None when either, initials?, [(start, end)] of each given character's letters) when
    the words spell the Han given name in one system, whole or as initials; else None."""
    letters = [(m.start() + i, ch) for m in words for i, ch in enumerate(m.group().lower())]
    spelled = "".join(ch for _, ch in letters)
    for style in (WADE_GILES, PINYIN):
        sylls = [syllable(c, style) for c in given]
        for initials in (False, True):
            parts = [s[:1] for s in sylls] if initials else sylls
            if not all(parts) or "".join(parts) != spelled:
                continue
            spans, i = [], 0
            for part in parts:
                spans.append((letters[i][0], letters[i + len(part) - 1][0] + 1))
                i += len(part)
            other = WADE_GILES if style == PINYIN else PINYIN
            either = [syllable(c, other)[:1] if initials else syllable(c, other) for c in given] == parts
            return (None if either else style), initials, spans
    return None


def _cased_like(original: str, new: str) -> str:
    """`new` in the case of `original` (upper, lower or title), letter runs only."""
    if original.isupper() and (len(original) > 1 or len(new) == 1):
        return new.upper()
    if original.islower():
        return new.lower()
    return new[:1].upper() + new[1:].lower()


def _pick_other(draw: KeyedDraw, pool, original: str) -> str:
    low = original.lower()
    for _ in range(64):
        v = pool[draw.below(len(pool))]
        if v.lower() != low:
            return v
    raise AssertionError("name pool has a single value")


_UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _letters(word: str, draw: KeyedDraw) -> str:
    """Each letter a letter of the same case; the word as a whole differs (case-insensitively)."""
    for _ in range(64):
        out = []
        for ch in word:
            if ch.isascii() and ch.isalpha():
                c = _UP[draw.below(26)]
                out.append(c if ch.isupper() else c.lower())
            else:
                out.append(ch)
        result = "".join(out)
        if result.lower() != word.lower():
            return result
    raise AssertionError("unreachable")
