"""Find date expressions in raw text and read every plausible meaning of each.

Speed: each shape is one compiled regex run over the raw text (C speed, linear: every quantifier is
bounded and no two adjacent quantified atoms overlap, so nothing backtracks more than a few steps),
and only the few candidates found get Python-level validation. Character offsets are mapped to
tokens later, by the component (`doc.char_span`).

Shapes (the `format` of each reading records the exact surface, see `formats.py`):
- numeric with `/ . -`: `2021/12/25`, `110.1.5`, `99.1.5`, `12/27/2023`, `23/04/05`, `2095/8`,
  `8/2019`, `3/14`, `12/93` (a month and a year's last two digits where no day is written so),
  optionally after `mk`/`MK`/`民國`;
- compact digits: `20211225`, `1101225`, and after `mk`: `mk87`, `mk1300309`;
- 年/月/日 with Arabic or Chinese numerals: `110年12月25日`, `民國一一〇年十二月二十五日`, `MK110十二月25日`,
  `108年8月`, `3月14日`, `九月`;
- English month names: `Dec 25, 2021`, `25th of December 2021`, `2021 Dec. 25`, `Aug 2019`, `25-DEC-21`;
- a bare 4-digit year after a word that makes it one (`since 2019`, `於2019`).

Context vetoes keep measurements out: each keyword below is there for a false positive it prevents
(`BP 120/80`, `VAS 7/10`, `1/2 tab`, an MRN that happens to look like `1101225`). Impossible dates
(`110.02.30`, `13/13/2020`) get no reading and so are not candidates; nothing here raises on text.
"""
import bisect
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from .formats import MINGUO_OFFSET, compile_format, is_valid as _valid, parse_with_format, style_key
from .nondates import AMOUNT_WORDS, MEASURE_UNITS, clock_time
from .numerals import NUMERAL_CHARS, parse_numeral
from ..wordlists import default_word_lists

DEFAULT_PREFERENCE = ("minguo/ymd", "christian/ymd", "christian/mdy", "christian/dmy")


# Resynthesized corpora shift dates far ahead (2095, 2105, 2223), so the window of years is wide; four
# digits outside it are no year (`WBC 5400`, `CK 2450`), whoever reads them (`spanshape`).
FIRST_YEAR = 1800
LAST_YEAR = 2399


@dataclass(frozen=True)
class FinderSettings:
    """Validation ranges; all have defaults in the component's config."""

    min_year: int = FIRST_YEAR
    max_year: int = LAST_YEAR
    # Two-digit Christian years: yy < pivot -> 20yy, else 19yy (the POSIX strptime %y convention).
    two_digit_year_pivot: int = 69
    # Read a bare 4-digit year as a date when a word before it says so (`since 2019`).
    bare_years: bool = True


@dataclass
class DateCandidate:
    start: int
    end: int
    readings: List[Dict] = field(default_factory=list)


# -- regex building blocks --------------------------------------------------------------------
_LB = r"(?<![0-9A-Za-z_])(?<![0-9][./:])"  # not glued to a number, word or decimal/IP/time
_RB = r"(?![0-9A-Za-z_])(?![./:][0-9])"
_PRE = r"(?:(?P<pre>民國|[mM][kK])[ ]?)"
_ZH_NUM = NUMERAL_CHARS
_LBZ = f"(?<![0-9{_ZH_NUM}A-Za-z_])"
_YN = f"(?P<y>[0-9]{{1,4}}|[{_ZH_NUM}]{{1,7}})"
_MN = r"(?P<m>[0-9]{1,2}|十[一二]?|[一二三四五六七八九])"
_DN = r"(?P<d>[0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"
_DAY_SUFFIX = r"(?:[ ]?[日號号])"
# Month names match ASCII letters only: with Unicode case folding `ſep` would match `Sep` and then
# render back as `Sep`.
_MON = (r"(?P<mon>(?ai:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
        r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?))(?![A-Za-z])")
_EDAY = r"(?P<d>[0-9]{1,2}(?:st|nd|rd|th)?)(?![0-9A-Za-z])"
# four digits, or the last two after an apostrophe (`Sep 14, '21`)
_EYEAR = r"['’]?(?P<y>(?<=['’])[0-9]{2}|[0-9]{4})(?![0-9A-Za-z])"

SHAPES: Dict[str, "re.Pattern[str]"] = {
    "numeric": re.compile(
        _LB + _PRE + r"?(?P<a>[0-9]{1,4})(?P<s>[./-])(?P<b>[0-9]{1,4})(?:(?P=s)(?P<c>[0-9]{1,4}))?" + _RB),
    "compact_mk": re.compile(r"(?<![0-9A-Za-z_])(?P<pre>[mM][kK])(?P<digits>[0-9]{1,7})" + _RB),
    "compact": re.compile(_LB + r"(?P<digits>[0-9]{7,8})" + _RB),
    "zh_year": re.compile(
        _LBZ + _PRE + "?" + _YN + r"[ ]?年(?:[ ]?" + _MN + r"[ ]?月(?:[ ]?" + _DN + _DAY_SUFFIX + ")?)?"),
    "zh_prefixed": re.compile(
        _LBZ + _PRE + _YN + r"[ ]?" + _MN + r"[ ]?月(?:[ ]?" + _DN + _DAY_SUFFIX + ")?"),
    "zh_month": re.compile(_LBZ + _MN + r"[ ]?月(?:[ ]?" + _DN + _DAY_SUFFIX + r"|(?![經经]))"),
    "en_mdy": re.compile(r"(?<![A-Za-z])" + _MON + r"\.?[ ]{1,2}" + _EDAY + r"(?:,?[ ]{0,2}" + _EYEAR + ")?"),
    "en_dmy": re.compile(r"(?<![0-9A-Za-z])" + _EDAY + r"[ ](?:of[ ])?" + _MON + r"\.?(?:,?[ ]{1,2}" + _EYEAR + ")?"),
    "en_ymd": re.compile(r"(?<![0-9A-Za-z])(?P<y>[0-9]{4})[ ]" + _MON + r"\.?[ ]{1,2}" + _EDAY),
    "en_my": re.compile(r"(?<![A-Za-z])" + _MON + r"(?:\.?,?[ ]{1,2}|-)" + _EYEAR),
    "en_dash": re.compile(r"(?<![0-9A-Za-z])(?P<d>[0-9]{1,2})(?P<s>[-/ ])" + _MON + r"(?P=s)(?P<y>[0-9]{4}|[0-9]{2})(?![0-9A-Za-z])"),
    "en_ydash": re.compile(r"(?<![0-9A-Za-z])(?P<y>[0-9]{4})(?P<s>[-/])" + _MON + r"(?P=s)(?P<d>[0-9]{1,2})(?![0-9A-Za-z])"),
    "bare_year": re.compile(r"(?<![0-9A-Za-z_])(?P<y>(?:1[89]|2[0-3])[0-9]{2})" + _RB),
    # A year's last two digits after an apostrophe (`CABG '87`, `PCI in ’06`): the digits are the date.
    # Not after a number or a word (`5'11"` is a height), nor quoted (`'12'`), nor a decade (`'90s`).
    "apostrophe_year": re.compile(r"(?<=['’])(?<![0-9A-Za-z_]['’])(?P<y>[0-9]{2})(?!['’\"”])" + _RB),
}

# -- context vetoes (each term names the false positive it prevents) ---------------------------
# Measurement words (`BP 120/80`, `VAS: 7/10`, `血壓 128/76`, `score was 7/10`): data, the packaged word
# lists of `resources/word_lists/measurements.json`, read once here (the compiled scanner binds the regex).
_MEASUREMENT_LISTS = default_word_lists()
_LEFT_VETO_WORDS = _MEASUREMENT_LISTS.word_set("measurement_words_en")
_LEFT_VETO_PHRASES = _MEASUREMENT_LISTS["measurement_phrases"]
_LINKING_WORDS = _MEASUREMENT_LISTS.word_set("measurement_linking_words_en")
# Characters of left context the vetoes read: the longest veto phrase, a linking word and separators
# (`_scan.pyx`, the compiled twin, writes the same 24 as a literal).
_LEFT_CONTEXT = 24
_LEFT_STRIP = " :=：\t"


def _alternation_reversed(words) -> str:
    return "|".join(re.escape(w[::-1]) for w in sorted(words, key=lambda w: (-len(w), w)))


# The measurement-word test below as one anchored match on the reversed left context: strip
# `_LEFT_STRIP`, then a veto phrase, or a veto word that is a whole ASCII word, optionally behind one
# linking word (`score was 7/10`). ASCII-only case folding, as `str.lower` on these words.
_LEFT_VETO_REVERSED = re.compile(
    "(?ai:[" + re.escape(_LEFT_STRIP) + "]*"
    "(?:(?:" + _alternation_reversed(_LINKING_WORDS) + ")(?![0-9a-z])[" + re.escape(_LEFT_STRIP) + "]*)?"
    "(?:" + _alternation_reversed(_LEFT_VETO_PHRASES) + "|(?:" + _alternation_reversed(_LEFT_VETO_WORDS)
    + ")(?![0-9a-z])))")


# The last character of every word and phrase `_LEFT_VETO_REVERSED` can match (either ASCII case): a
# left context ending, after `_LEFT_STRIP`, in any other character cannot be vetoed by it.
LEFT_VETO_LAST_CHARS = "".join(sorted({ch for w in (*_LEFT_VETO_WORDS, *_LEFT_VETO_PHRASES, *_LINKING_WORDS)
                                       for ch in (w[-1].lower(), w[-1].upper())}))


def _left_vetoed(left: str) -> bool:
    """Is the candidate right after a measurement word (`BP 120/80`, `VAS: 7/10`, `血壓 128/76`)?
    One anchored match on the reversed context (the last word is read backwards): no loop per
    character. The rule, spelled out: strip `_LEFT_STRIP`; a veto phrase at the end, or a last whole
    ASCII word in `_LEFT_VETO_WORDS`, vetoes; a last word in `_LINKING_WORDS` (`score was 7/10`)
    looks once further back."""
    return _LEFT_VETO_REVERSED.match(left[::-1]) is not None


def after_measurement_word(text: str, start: int) -> bool:
    """Does text[start:] stand right after a measurement word (`FS 180`, `HR 78`, `血壓 128/76`)?
    What follows one is a measured value, never PHI; the `not_phi` cue rules put NER spans to the same
    test (fragment `AFTER_MEASUREMENT` of `resources/cue_rules/measurements.json`, over the same word
    lists)."""
    return _left_vetoed(text[max(0, start - _LEFT_CONTEXT):start])


# A number right after another number and a space is a mixed fraction: `1 1/2 tab`.
_MIXED_FRACTION = re.compile(r"[0-9][ ]$")
_RIGHT_UNIT_VETO = re.compile(
    r"(?i:^[ ]?(?:" + MEASURE_UNITS + "|" + AMOUNT_WORDS + r"|#|x[0-9]|×|/|次|倍|歲|小時|分鐘|"
    r"分(?![娩析離离泌開开]))(?![A-Za-z]))")
# Fractions only: `1/3 of the dose`, `7/10 pain`.
_RIGHT_FRACTION_VETO = re.compile(r"(?i:^[ ]?(?:of|pain|strength|power)(?![A-Za-z]))")
# A pain score out of ten later in a line about pain: `Pain 4/10, ... re-eval 2/10` (the first is
# vetoed by its left word, the second by this), unless a date word stands right before it (`pain
# since 2/10`).
_OUT_OF_TEN = re.compile(r"(?:10|[0-9])/10")
_PAIN_IN_LINE = re.compile(r"(?i:pain|\bvas\b|\bnrs\b|疼痛)[^\n]*$")
_DATE_WORD_LEFT = re.compile(
    r"(?i:(?:^|[^a-z])(?:on|since|from|until|till|after|before|dated?)[ ]{1,2}$|(?:於|在|自|從|至|到)[ ]?$)")
# Seven/eight-digit numbers after an ID word are record numbers or phones, not `1101225`.
_ID_VETO = re.compile(
    r"(?i:(?:病歷號碼|病歷號|病歷|病历|chart|mrn|id|身分證|身份證|電話|手機|tel|phone|fax|no\.|#|編號|"
    r"帳號|卡號|床號|ext|分機|證號)[ ]?[:：#.=]?[ ]?$)")
# Words that make a bare 4-digit number a year: `since 2019`, `於2019`.
_YEAR_CUE = re.compile(
    r"(?i:(?:^|[^a-z])(?:in|since|from|until|till|during|before|after|around|circa|year|early|late|"
    r"mid|summer|winter|spring|autumn|fall)[ ]{1,2}$|(?:於|在|自|從|从|至|到|直到|民國前)[ ]?$)")
# Year-only 年 forms of one or two digits are durations (`10年`, `二十年`) unless prefixed.
_LOWERCASE_WORDS = {"may", "mar", "march"}  # `may`, `march` are words before they are months


def _pad_styles(*texts: str, fallback: str = "n2") -> List[str]:
    """Zero padding per Arabic field: `5` -> n, `05` -> n2; a two-digit field without a zero follows
    its neighbours, or padded when there is no evidence (the more common Taiwanese style)."""
    evidence = [("n" if len(t) == 1 else ("n2" if t[0] == "0" else None)) for t in texts]
    known = {e for e in evidence if e}
    if len(known) == 1:
        fallback = known.pop()
    return [e or fallback for e in evidence]


_LETTER_ORDER = {"Y": "y", "R": "y", "M": "m", "D": "d"}


def _reading(fmt: str, order: str, minguo: bool, year: Optional[int], month: Optional[int],
             day: Optional[int]) -> Tuple[str, str, str, str, str]:
    """A reading as a tuple (format, calendar, value, precision, order): `make_reading`'s fields."""
    if year is None:
        value = f"--{month:02d}" + (f"-{day:02d}" if day is not None else "")
        precision = "month-day" if day is not None else "month-only"
    elif month is None:
        value, precision = f"{year:04d}", "year"
    elif day is None:
        value, precision = f"{year:04d}-{month:02d}", "month"
    else:
        value, precision = f"{year:04d}-{month:02d}-{day:02d}", "day"
    return fmt, "minguo" if minguo else "christian", value, precision, order


class _Builder:
    """Turns one regex match into readings: splice `{F:style}` fields into the surface. Readings are
    (end relative to the match start, reading tuple), so they depend on the surface alone."""

    __slots__ = ("s", "m", "base", "surface", "readings")

    def __init__(self, settings: FinderSettings, m: "re.Match[str]"):
        self.s = settings
        self.m = m
        self.base = m.start()
        self.surface = m.group()
        self.readings: List[Tuple[int, Tuple]] = []

    def add(self, fields: Sequence[Tuple[str, str, str, int]], end: Optional[int] = None) -> None:
        """fields: (group name, field letter, style, value); end: a shorter end offset. The date is
        checked before its format string is built: most rejected readings cost no string work."""
        year = month = day = None
        minguo = False
        for _, letter, _, value in fields:
            if letter == "M":
                month = value
            elif letter == "D":
                day = value
            elif letter == "R":  # a Minguo year wins over a Christian one
                if value < 1:
                    return
                year = value + MINGUO_OFFSET
                minguo = True
            elif not minguo:
                year = value
        if year is not None and not self.s.min_year <= year <= self.s.max_year:
            return
        if not _valid(year, month, day):
            return
        m = self.m
        base = self.base
        surface = self.surface
        placed = [(m.span(f[0]), f[1], f[2]) for f in fields]
        if len(placed) > 1 and any(placed[i][0] < placed[i - 1][0] for i in range(1, len(placed))):
            placed.sort()
        parts = []
        order = ""
        pos = 0
        for (gs, ge), letter, style in placed:
            parts.append(surface[pos:gs - base])
            parts.append("{" + letter + ":" + style + "}")
            pos = ge - base
            order += _LETTER_ORDER[letter]
        surface_end = (end if end is not None else m.end()) - base
        parts.append(surface[pos:surface_end])
        self.readings.append((surface_end, _reading("".join(parts), order, minguo, year, month, day)))

    def two_digit_year(self, group: str, yy: int) -> Tuple[str, str, str, int]:
        """The field of a Christian year written with two digits (`{Y:c19}`, `{Y:c20}`): its century by
        the settings' pivot."""
        century = 20 if yy < self.s.two_digit_year_pivot else 19
        return group, "Y", f"c{century}", yy + 100 * century


def _numeric(b: _Builder) -> None:
    m = b.m
    a, mid, c, pre = m.group("a"), m.group("b"), m.group("c"), m.group("pre")
    if c is None and len(mid) == 4:
        if len(a) <= 2 and not pre:  # 8/2019
            b.add([("a", "M", _pad_styles(a)[0], int(a)), ("b", "Y", "n4", int(mid))])
        return
    if len(mid) > 2:
        return
    if c is None:
        md_pad, = _pad_styles(mid)
        if len(a) == 4 and not pre:
            b.add([("a", "Y", "n4", int(a)), ("b", "M", md_pad, int(mid))])
        elif len(a) == 3 or (pre and len(a) <= 3):
            b.add([("a", "R", "n3" if a[0] == "0" else "n", int(a)), ("b", "M", md_pad, int(mid))])
        elif len(a) <= 2 and len(mid) <= 2 and not pre and m.group("s") == "/":
            pa, pb = _pad_styles(a, mid)
            b.add([("a", "M", pa, int(a)), ("b", "D", pb, int(mid))])
            b.add([("a", "D", pa, int(a)), ("b", "M", pb, int(mid))])
            if len(mid) == 2 and int(mid) > 31:  # 12/93: no day is written so, a month and its year
                b.add([("a", "M", pa, int(a)), b.two_digit_year("b", int(mid))])
        return
    if len(c) == 4 and len(a) <= 2 and not pre:
        pa, pb = _pad_styles(a, mid)
        b.add([("a", "M", pa, int(a)), ("b", "D", pb, int(mid)), ("c", "Y", "n4", int(c))])
        b.add([("a", "D", pa, int(a)), ("b", "M", pb, int(mid)), ("c", "Y", "n4", int(c))])
        return
    if len(c) > 2:
        return
    pm, pd = _pad_styles(mid, c)
    if len(a) == 4 and not pre:
        b.add([("a", "Y", "n4", int(a)), ("b", "M", pm, int(mid)), ("c", "D", pd, int(c))])
    elif len(a) == 3 or (pre and len(a) <= 3):
        b.add([("a", "R", "n3" if a[0] == "0" and len(a) == 3 else "n", int(a)),
               ("b", "M", pm, int(mid)), ("c", "D", pd, int(c))])
    elif len(a) == 2:
        # YY/MM/DD: Minguo or two-digit Christian; the year must be written with two digits (5/4/3 is a taper).
        b.add([("a", "R", "n2" if a[0] == "0" else "n", int(a)), ("b", "M", pm, int(mid)), ("c", "D", pd, int(c))])
        b.add([b.two_digit_year("a", int(a)), ("b", "M", pm, int(mid)), ("c", "D", pd, int(c))])
    if len(c) == 2 and len(a) <= 2 and not pre:
        pa, pb = _pad_styles(a, mid)
        year = b.two_digit_year("c", int(c))
        b.add([("a", "M", pa, int(a)), ("b", "D", pb, int(mid)), year])
        b.add([("a", "D", pa, int(a)), ("b", "M", pb, int(mid)), year])


def _compact(b: _Builder) -> None:
    d = b.m.group("digits")
    pre = b.m.groupdict().get("pre")
    n = len(d)
    if not pre:
        if n == 8:
            _compact_fields(b, "Y", d, 4, "n4")
        elif n == 7:
            _compact_fields(b, "R", d, 3, "n3")
        return
    if n <= 3:
        b.add([("digits", "R", "n3" if n == 3 and d[0] == "0" else "n", int(d))])
    elif n in (4, 6):
        _compact_fields(b, "R", d, 2, "n")
    elif n in (5, 7):
        _compact_fields(b, "R", d, 3, "n3" if d[0] == "0" else "n")


def _compact_fields(b: _Builder, year_field: str, d: str, ylen: int, ystyle: str) -> None:
    """Compact numbers are one group; emit the template by hand (fields are fixed-width). An `n`
    year has no leading zero (as `parse_with_format` of the template would require)."""
    if ystyle == "n" and d[0] == "0":
        return
    year = int(d[:ylen])
    month = int(d[ylen:ylen + 2])
    day = int(d[ylen + 2:ylen + 4]) if len(d) >= ylen + 4 else None
    prefix = b.surface[:b.m.start("digits") - b.base]
    fmt = prefix + "{%s:%s}{M:n2}" % (year_field, ystyle) + ("{D:n2}" if day is not None else "")
    minguo = year_field == "R"
    if minguo:
        if year < 1:
            return
        year += MINGUO_OFFSET
    if not b.s.min_year <= year <= b.s.max_year or not _valid(year, month, day):
        return
    b.readings.append((len(b.surface), _reading(fmt, "ymd" if day is not None else "ym", minguo, year, month, day)))


def _zh_fields(b: _Builder) -> Optional[List[Tuple[str, str, str, int]]]:
    m = b.m
    out = []
    texts = {k: m.group(k) for k in ("y", "m", "d") if m.groupdict().get(k)}
    arabic_md = [texts[k] for k in ("m", "d") if k in texts and texts[k].isdigit()]
    pads = dict(zip([k for k in ("m", "d") if k in texts and texts[k].isdigit()], _pad_styles(*arabic_md)))
    for key, letter in (("m", "M"), ("d", "D")):
        if key in texts:
            parsed = parse_numeral(texts[key])
            if parsed is None:
                return None
            value, style = parsed
            out.append((key, letter, pads.get(key, style) if style == "n" else style, value))
    return out


def _zh_year_field(b: _Builder, minguo_only: bool) -> List[Tuple[str, str, str, int]]:
    """Year readings: 4 digits are Christian; 1-3 digits Minguo (2 digits also two-digit Christian)."""
    text = b.m.group("y")
    parsed = parse_numeral(text)
    if parsed is None:
        return []
    value, style = parsed
    digits = len(text) if style != "zc" else len(str(value))
    if style.startswith("zp") and text[0] in "〇零○":
        style += str(len(text))
    if style == "n":
        style = "n4" if len(text) == 4 else ("n3" if len(text) == 3 and text[0] == "0" else "n")
    if digits == 4 and not minguo_only:
        return [("y", "Y", style, value)]
    if digits == 4:
        return []
    out = [("y", "R", style, value)]
    if digits == 2 and not minguo_only and style == "n":
        out.append(b.two_digit_year("y", value))
    return out


def _zh(b: _Builder) -> None:
    m = b.m
    md = _zh_fields(b)
    if md is None:
        return
    if "y" not in m.groupdict() or m.group("y") is None:
        b.add(md)
        return
    pre = m.group("pre")
    years = _zh_year_field(b, minguo_only=bool(pre))
    if not md:  # year only: a 1-2 digit 年 without a prefix is a duration (`10年`, `二十年`)
        text = m.group("y")
        value = parse_numeral(text)
        if not pre and (value is None or value[0] < 100):
            return
    for year in years:
        b.add([year] + md)


_MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def month_field(mon: str) -> Tuple[int, str]:
    """A month name's number and style: its case (U, L, T) and length (3, 4 for `Sept`, none when
    written out). The shapes match ASCII month names only, so the first three letters name the month."""
    lower = mon.lower()
    case = "U" if mon.isupper() else ("L" if mon.islower() else "T")
    if len(mon) == 4 and lower == "sept":
        length = "4"
    elif len(mon) == 3:
        length = "3"
    else:
        length = ""
    return _MONTH_ABBREVIATIONS.index(lower[:3]) + 1, case + length


def _english(b: _Builder) -> None:
    m = b.m
    mon = m.group("mon")
    gd = m.groupdict()
    if mon in _LOWERCASE_WORDS and not (gd.get("y") and gd.get("d")):
        return  # `may 2 times`; but `mar 1, 2000` has both a day and a year
    month, style = month_field(mon)
    length = style[1:]
    fields = [("mon", "M", style, month)]
    day_text = gd.get("d")
    if day_text:
        if day_text[-1].isalpha():
            fields.append(("d", "D", "th", int(day_text[:-2])))
        else:
            # English writes `Dec 5`; only a written zero (`Dec 05`) means padding. `25-DEC-21` is
            # the fixed-width DD-MON-YY of lab systems: padded.
            fallback = "n2" if gd.get("s") else "n"
            fields.append(("d", "D", _pad_styles(day_text, fallback=fallback)[0], int(day_text)))
    y = gd.get("y")
    if y:
        if len(y) == 2:
            if gd.get("s") == " ":
                return  # `25 Dec 21` is too weak; `25 Dec` alone is found by en_dmy
            yf = b.two_digit_year("y", int(y))
        else:
            yf = ("y", "Y", "n4", int(y))
        before = len(b.readings)
        b.add(fields + [yf])
        if len(b.readings) > before or not day_text or gd.get("s"):
            return
        b.add(fields, end=m.end("d"))  # `Dec 25 1000 mg`: the date is `Dec 25`
        return
    if not length and b.surface.endswith(".") and m.end("mon") == m.end() - 1:
        b.add(fields, end=m.end("mon"))  # `3 December.`: the period ends the sentence
        return
    b.add(fields)


def _bare_year(b: _Builder) -> None:
    b.add([("y", "Y", "n4", int(b.m.group("y")))])


def _apostrophe_year(b: _Builder) -> None:
    b.add([b.two_digit_year("y", int(b.m.group("y")))])


_HANDLERS = {
    "numeric": _numeric, "compact_mk": _compact, "compact": _compact, "zh_year": _zh, "zh_prefixed": _zh,
    "zh_month": _zh, "en_mdy": _english, "en_dmy": _english, "en_ymd": _english, "en_my": _english,
    "en_dash": _english, "en_ydash": _english, "bare_year": _bare_year,
    "apostrophe_year": _apostrophe_year,
}


_CONTEXT_VETO_SHAPES = frozenset(("numeric", "bare_year", "compact"))


# A numeric date of three parts with a year of three or four digits (`2021/12/25`, `110.3.5`,
# `3/5/2021`): no measured value or amount is written so, and neither a lab or vital named before the
# date of its result (`HbA1c 110/3/5: 7.2`, `BP 2021/12/25 120/80`) nor a slash after it
# (`入/出院 2021/12/25 / 2022/1/3`) makes it one.
FULL_NUMERIC_DATE = re.compile(r"[0-9]{3,4}([./\-])[0-9]{1,2}\1[0-9]{1,2}|[0-9]{1,2}([./\-])[0-9]{1,2}\2[0-9]{4}")


def _context_vetoed(text: str, start: int, end: int, shape: str) -> bool:
    """The vetoes that look at the context only, not at the readings: checked before a match is read
    (most numbers in a note are vitals, doses and phone numbers, and they stop here)."""
    left = text[max(0, start - _LEFT_CONTEXT):start]
    if shape == "numeric" and FULL_NUMERIC_DATE.fullmatch(text, start, end):
        return False
    if shape == "bare_year":
        if not _YEAR_CUE.search(left) or clock_time(text, start, end):  # `from 2300 to 0600`
            return True
    elif shape == "compact" and _ID_VETO.search(left):
        return True
    return _left_vetoed(left) or bool(_RIGHT_UNIT_VETO.match(text[end:end + 12]))


# A measured fraction, an arrow, and what follows it (`insight 1/4 -> 3/4`, `MMSE 24/30 → 26/30`): a
# fraction of the same denominator there is the same measure, changed; two dates would not share it.
_FRACTION_AND_ARROW = re.compile(r"(?<![0-9/.])[0-9]{1,3}/(?P<of>[0-9]{1,3})[ ]?(?:->|→|=>)[ ]?$")


def _same_measure_after_arrow(text: str, start: int, end: int, left: str) -> bool:
    arrow = _FRACTION_AND_ARROW.search(left)
    if arrow is None or text[start:end].rpartition("/")[2] != arrow.group("of"):
        return False
    return after_measurement_word(text, start - len(left) + arrow.start())


def _fraction_vetoed(text: str, start: int, end: int, readings: Sequence[Tuple]) -> bool:
    """A numeric month-day that reads as a fraction: `1 1/2 tab`, `1/3 of the dose`, `7/10 pain`,
    `re-eval 2/10` in a line about pain, a measured fraction's new value after an arrow
    (`insight 1/4 -> 3/4`)."""
    if any(r[3] != "month-day" for r in readings):
        return False
    left = text[max(0, start - _LEFT_CONTEXT):start]
    if (_MIXED_FRACTION.search(left) or _RIGHT_FRACTION_VETO.match(text[end:end + 12])
            or _same_measure_after_arrow(text, start, end, left)):
        return True
    return (_OUT_OF_TEN.fullmatch(text, start, end) is not None and not _DATE_WORD_LEFT.search(left)
            and _PAIN_IN_LINE.search(text[max(0, start - 80):start]) is not None)


# The prefilter: one pass over the raw text. It starts with a character class, so the regex engine
# skips non-candidate characters in C; the lookarounds keep only numbers in a date-like context, so
# doses and vitals rarely reach Python. Fixed-width lookbehinds only: linear time.
# Three letters that can end an English month name (`Dec`, `January`, `Sept`): a number after other
# words (`sertraline 50mg`) needs no look unless something else anchors it.
_MONTH_END = r"(?ai:jan|ary|feb|mar|rch|apr|ril|may|jun|une|jul|uly|aug|ust|sep|ept|ber|oct|nov|dec)"
# A number and separator no shape can read: a decimal `12.3` (1-2 digits, then 1-3) or a phone number
# `07-1234567` (5+ digits after the separator). Kept when a month name may stand two spaces or `., `
# before it (`Dec  12.5`), which only the dispatch below recognizes.
_UNREADABLE_SEP = (r"(?=(?<![0-9]{3})\.[0-9]{1,3}(?![0-9])(?!\.[0-9])|[./\-][0-9]{5})"
                   r"(?<![ ,.][ ][0-9])(?<![ ,.][ ][0-9]{2})(?<![ ,.][ ][0-9]{3})(?<![ ,.][ ][0-9]{4})")
_ANCHOR = re.compile(
    r"[0-9年月](?:"
    r"(?<=[〇零○一二三四五六七八九十百千兩][年月])"  # 十二月, 一一〇年 (Arabic digits anchor below)
    r"|(?<![0-9][0-9])(?:(?<=[ \-.][0-9])(?:(?<=" + _MONTH_END + r"[ \-][0-9])|(?<=" + _MONTH_END + r"\.[ ][0-9])"
    r"|(?<=" + _MONTH_END + r",[ ][0-9])|(?<=" + _MONTH_END + r"\.[0-9])|(?<=[mM][kK][ ][0-9])|(?<=民國[ ][0-9]))"
    r"|(?<=[kK國][0-9])(?:(?<=[mM][kK][0-9])|(?<=民國[0-9])))[0-9]*"  # Dec 25, mk87, 民國 110
    r"|(?<![0-9][0-9])(?<=[0-9])[0-9]*(?![0-9])(?:(?=[./\-][A-Za-z])"
    r"|(?=[./\-][0-9])(?!" + _UNREADABLE_SEP + r")|(?=[ ]?[年月])"  # 110.1.5, 110年
    r"|(?=(?:st|nd|rd|th)?,?[ ]{1,2}(?:of[ ])?[A-Za-z]{3})"  # 25 Dec, 2021 Dec 25
    r"|(?<=(?<![0-9])[0-9]{4})|(?<=(?<![0-9])[0-9]{7})|(?<=(?<![0-9])[0-9]{8})"  # years, 1101225
    r"|(?<=['’][0-9]{2}))"  # '87
    r")")
_PREFIXES = ("民國 ", "民國", "mk", "MK", "Mk", "mK", "mk ", "MK ")
_ZH_BACK = set("〇零○一二三四五六七八九十百千兩 ")
_SEP_NEXT = set("./-")
_ORD = ("st", "nd", "rd", "th")


def _prefix_start(text: str, a: int) -> int:
    """Start of a `mk`/`MK`/`民國` prefix (with an optional space) right before offset `a`, else `a`."""
    if a < 2 or text[a - 1] not in "kK國 " or (text[a - 1] == " " and text[a - 2] not in "kK國"):
        return a
    for p in _PREFIXES:
        if a >= len(p) and text.startswith(p, a - len(p)):
            return a - len(p)
    return a


def _shapes_at_anchor(text: str, m: "re.Match[str]"):
    """(shape, start) pairs worth trying for one anchor: dispatch on the characters around it, so
    most numbers (doses, vitals) cost one dictionary-free glance and no regex call."""
    a, b = m.start(), m.end()
    first = text[a]
    n = len(text)
    if first in "年月":
        # Chinese-numeral dates: walk back over numerals (and a prefix) to where the date starts.
        j = a
        while j > 0 and text[j - 1] in _ZH_BACK:
            j -= 1
        while j < a and text[j] == " ":
            j += 1
        if j == a or text[j - 1 if j else 0].isdigit() and j > 0:
            return
        if not text[j].isdigit():
            yield "zh_year", _prefix_start(text, j)
            yield "zh_year", j
            yield "zh_month", j
            pj = _prefix_start(text, j)
            if pj != j:
                yield "zh_prefixed", pj
        return
    run = b - a
    nxt = text[b] if b < n else ""
    pa = _prefix_start(text, a)
    if pa != a:
        yield "numeric", pa
        yield "compact_mk", pa
        yield "zh_year", pa
        yield "zh_prefixed", pa
    if nxt in _SEP_NEXT:
        yield "numeric", a
        if run <= 2:
            yield "en_dash", a
        elif run == 4:
            yield "en_ydash", a
    elif nxt in "年":
        yield "zh_year", a
    elif nxt == "月" or (nxt == " " and text.startswith("月", b + 1)):
        yield "zh_month", a
    elif nxt == " " or text.startswith(_ORD, b):
        if run <= 2:
            yield "en_dmy", a
            yield "en_dash", a
        elif run == 4:
            yield "en_ymd", a
    if nxt == " " and text.startswith("年", b + 1):
        yield "zh_year", a
    quoted = a > 0 and text[a - 1] in "'’"  # `'87`, `Nov '18`: a year after an apostrophe
    if run in (7, 8):
        yield "compact", a
    elif run == 4:
        yield "bare_year", a
    elif run == 2 and quoted:
        yield "apostrophe_year", a
    # An English month name before the number: `Dec 25`, `Aug. 2019`, `August, 2019`, `Dec-2018`.
    # Both shapes need a space or `-` right before the number: anything else cannot match there.
    e = a - 1 if quoted else a
    if not e or text[e - 1] not in " -":
        return
    j = e
    while j > 0 and text[j - 1] in " ,-" and e - j < 3:
        j -= 1
    if j > 0 and text[j - 1] == ".":
        j -= 1
    k = j
    while k > 0 and text[k - 1].isascii() and text[k - 1].isalpha() and j - k < 10:
        k -= 1
    if 3 <= j - k and k < a:
        yield "en_mdy", k
        yield "en_my", k


# Readings of a match depend on its shape and surface alone (and the settings), never on the context:
# they are cached, so a date or a measurement written many times is read once.
_CACHE_SIZE = 50_000
_READ_CACHES: Dict[FinderSettings, Dict[Tuple[str, str], Tuple]] = {}


def _read_cache(settings: FinderSettings) -> Dict[Tuple[str, str], Tuple]:
    cache = _READ_CACHES.get(settings)
    if cache is None:
        if len(_READ_CACHES) >= 16:
            _READ_CACHES.clear()
        cache = _READ_CACHES[settings] = {}
    return cache


def clear_caches() -> None:
    """Forget every cached reading (benchmarks measure unseen notes with a cold cache)."""
    _READ_CACHES.clear()


def _read_match(text: str, shape: str, m: "re.Match[str]", settings: FinderSettings,
                found: List[List], cache: Dict[Tuple[str, str], Tuple]) -> None:
    """Append [start, end, readings] for one shape match (readings: tuples, see `reading_dict`)."""
    start = m.start()
    if shape in _CONTEXT_VETO_SHAPES and _context_vetoed(text, start, m.end(), shape):
        return
    key = (shape, m.group())
    groups = cache.get(key)
    if groups is None:
        b = _Builder(settings, m)
        _HANDLERS[shape](b)
        readings = b.readings
        if len(readings) == 1:
            groups = ((readings[0][0], (readings[0][1],)),)
        else:
            by_end: Dict[int, List[Tuple]] = {}
            for end, reading in readings:
                by_end.setdefault(end, []).append(reading)
            groups = tuple((end, tuple(rs)) for end, rs in by_end.items())
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        cache[key] = groups
    for rel_end, readings in groups:
        end = start + rel_end
        if shape == "numeric" and _fraction_vetoed(text, start, end, readings):
            continue
        found.append([start, end, readings])


def _scan(text: str, settings: FinderSettings) -> List[List]:
    """Candidates [start, end, readings] before merging, from the anchored scan."""
    found: List[List] = []
    tried = set()
    covered = -1  # end of the furthest candidate so far: anchors inside it would only lose the merge
    cache = _read_cache(settings)
    bare_years = settings.bare_years
    for anchor in _ANCHOR.finditer(text):
        if anchor.start() < covered:
            continue
        for shape, pos in _shapes_at_anchor(text, anchor):
            if shape == "bare_year" and not bare_years:
                continue
            if (shape, pos) in tried:
                continue
            tried.add((shape, pos))
            m = SHAPES[shape].match(text, pos)
            if m is not None:
                _read_match(text, shape, m, settings, found, cache)
        if found and found[-1][1] > covered:
            covered = max(c[1] for c in found[-3:])
    return found


def _scan_full(text: str, settings: FinderSettings) -> List[List]:
    """Every shape over the whole text: slower, the reference the anchored scan is tested against."""
    found: List[List] = []
    cache = _read_cache(settings)
    for shape, regex in SHAPES.items():
        if shape == "bare_year" and not settings.bare_years:
            continue
        for m in regex.finditer(text):
            _read_match(text, shape, m, settings, found, cache)
    return found


def _preference_key(reading: Tuple) -> Tuple[int, str]:
    key = style_key(reading[0])
    idx = DEFAULT_PREFERENCE.index(key) if key in DEFAULT_PREFERENCE else len(DEFAULT_PREFERENCE)
    return idx, reading[0]


def _preference_index(reading: Dict) -> Tuple[int, str]:
    return _preference_key((reading["format"],))


def _merge(cands: List[List]) -> List[Tuple[int, int, Tuple]]:
    """Longest first, then earlier; identical spans pool their readings (deduplicated by format and
    value); readings in the default preference order. Candidates that do not overlap at all (the
    usual case) are all kept, which is what the greedy pass would do."""
    ordered = sorted(cands, key=lambda c: c[0])
    if any(ordered[i][0] < ordered[i - 1][1] for i in range(1, len(ordered))):
        ordered = _merge_overlapping(cands)
    return [(start, end, tuple(sorted(readings, key=_preference_key)) if len(readings) > 1 else tuple(readings))
            for start, end, readings in ordered]


def _merge_overlapping(cands: List[List]) -> List[List]:
    cands = sorted(cands, key=lambda c: (-(c[1] - c[0]), c[0]))
    by_offsets: Dict[Tuple[int, int], List] = {}
    starts: List[int] = []  # sorted starts of the taken (non-overlapping) candidates
    ends: List[int] = []
    for start, end, readings in cands:
        same = by_offsets.get((start, end))
        if same is not None:
            seen = {(r[0], r[2]) for r in same[2]}
            same[2] = list(same[2]) + [r for r in readings if (r[0], r[2]) not in seen]
            continue
        i = bisect.bisect_left(starts, start)
        if (i < len(starts) and starts[i] < end) or (i > 0 and ends[i - 1] > start):
            continue  # overlaps a longer (or earlier) candidate
        starts.insert(i, start)
        ends.insert(i, end)
        by_offsets[(start, end)] = [start, end, readings]
    return sorted(by_offsets.values(), key=lambda c: c[0])


def reading_dict(reading: Tuple, selected: Optional[bool] = None) -> Dict:
    """A reading tuple (format, calendar, value, precision, order) as the plain dict stored in
    `span._.date_readings` (the keys of `formats.make_reading`, plus `selected` once resolved)."""
    out = {"format": reading[0], "calendar": reading[1], "value": reading[2], "precision": reading[3],
           "order": reading[4]}
    if selected is not None:
        out["selected"] = selected
    return out


def _as_tuple(reading: Dict) -> Tuple:
    return reading["format"], reading["calendar"], reading["value"], reading["precision"], reading["order"]


# The compiled twin of `_scan` (`_scan.pyx`, built by `pip install`): the same candidates at a fraction of
# the cost. Without a compiler the install still works and `_scan` above does the work.
try:
    from . import _scan as _compiled
except ImportError:  # not built: the pure-Python scan is complete on its own
    _compiled = None
else:
    _compiled.bind(SHAPES, (_YEAR_CUE, _ID_VETO, _LEFT_VETO_REVERSED, _RIGHT_UNIT_VETO, FULL_NUMERIC_DATE),
                   LEFT_VETO_LAST_CHARS,
                   _LEFT_STRIP, _fraction_vetoed, clock_time, month_field, _LOWERCASE_WORDS,
                   parse_numeral, _preference_key, _CACHE_SIZE)

COMPILED = _compiled is not None


def _scan_fast(text: str, settings: FinderSettings) -> List[List]:
    """`_scan`, by the compiled scanner when it was built."""
    if _compiled is not None:
        return _compiled.scan(text, settings, _read_cache(settings))
    return _scan(text, settings)


def find_readings(text: str, settings: Optional[FinderSettings] = None) -> List[Tuple[int, int, Tuple]]:
    """`find_dates` as (start, end, readings as tuples (format, calendar, value, precision, order)):
    what the component uses, converting each reading to a dict once, when it is stored."""
    settings = settings or FinderSettings()
    if _compiled is not None:
        return _compiled.find(text, settings, _read_cache(settings))
    return _merge(_scan(text, settings))


def find_dates(text: str, settings: Optional[FinderSettings] = None) -> List[DateCandidate]:
    """Non-overlapping date candidates with all their readings, in text order.

    Overlaps between shapes: the longest candidate wins, then the earlier one; identical spans pool
    their readings (deduplicated by format and value)."""
    return [DateCandidate(start, end, [reading_dict(r) for r in readings])
            for start, end, readings in find_readings(text, settings)]


def _candidates(text: str, settings: FinderSettings) -> List[DateCandidate]:
    """The anchored scan's candidates before merging (for tests)."""
    return [DateCandidate(s, e, [reading_dict(r) for r in rs]) for s, e, rs in _scan(text, settings)]


def _candidates_full_scan(text: str, settings: FinderSettings) -> List[DateCandidate]:
    """The full scan's candidates before merging (for tests)."""
    return [DateCandidate(s, e, [reading_dict(r) for r in rs]) for s, e, rs in _scan_full(text, settings)]


def merge_candidates(cands: List[DateCandidate]) -> List[DateCandidate]:
    """Longest first, then earlier; identical spans pool their readings."""
    merged = _merge([[c.start, c.end, [_as_tuple(r) for r in c.readings]] for c in cands])
    return [DateCandidate(s, e, [reading_dict(r) for r in rs]) for s, e, rs in merged]


_WHOLE_YEAR = re.compile(r"[0-9]{4}")


def parse(text: str, fmt: Optional[str] = None, settings: Optional[FinderSettings] = None) -> List[Dict]:
    """Every plausible reading of `text` as one whole date (no context vetoes apply to a lone string).

    With `fmt`, the one reading in that exact format (or none): `parse(render(d, fmt), fmt)[0]["value"]
    == d`. Never raises on text; an impossible date gives []."""
    if fmt is not None:
        reading = parse_with_format(text, fmt)
        return [reading] if reading else []
    settings = settings or FinderSettings()
    readings: List[Tuple] = []
    seen = set()
    for start, end, cand_readings in _scan_fast(text, settings):
        if start != 0 or end != len(text):
            continue
        for r in cand_readings:
            if (r[0], r[2]) not in seen:
                seen.add((r[0], r[2]))
                readings.append(r)
    if not readings and _WHOLE_YEAR.fullmatch(text):
        year = int(text)
        if settings.min_year <= year <= settings.max_year:
            readings.append(("{Y:n4}", "christian", f"{year:04d}", "year", "y"))
    readings.sort(key=_preference_key)
    return [reading_dict(r) for r in readings]


# The shapes that write a day with its month, and the year where the shape holds one: text of one
# of them is a date, possible or not. A number of two parts (`2/30`, `120/80`), a bare run of digits
# (`1100231`), a year alone (`9年` is as often a duration) and an English month and number without a
# year (`may 40`) are left out: each is as often something else.
#
# Each family of them comes with what every date of it holds (`月`, a month's name), so a note without
# that skips the family's scans: most notes hold no Chinese or English month at all.
_DAY_SHAPE_FAMILIES: Tuple[Tuple["re.Pattern[str]", Tuple[str, ...]], ...] = (
    (re.compile(r"[0-9][./\-][0-9]{1,2}[./\-][0-9]"), ("numeric",)),
    (re.compile(r"[mM][kK][0-9]{7}"), ("compact_mk",)),
    (re.compile("月"), ("zh_year", "zh_prefixed", "zh_month")),
    (re.compile(r"(?ai:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?[ /-]{1,2}[0-9]"
                r"|[0-9](?:st|nd|rd|th)?[ /-](?:of[ ])?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"),
     ("en_mdy", "en_dmy", "en_ymd", "en_dash", "en_ydash")),
)
_DAY_SHAPES = tuple(name for _, names in _DAY_SHAPE_FAMILIES for name in names)


def _year_is_written_today(year: Optional[str], settings: FinderSettings) -> bool:
    """A year of Arabic digits as notes write it: four digits in the finder's years, a Minguo year of
    one or two digits, or of three starting with 1 (民國1xx = 1912-2010; vent settings `450/14/5` and
    blood gases are written in the numeric shape too). Chinese numerals pass."""
    if year is None or not year.isdigit():
        return True
    if len(year) == 4:
        return settings.min_year <= int(year) <= settings.max_year
    return len(year) < 3 or year[0] == "1"


def _day_fields(name: str, m: "re.Match[str]", settings: FinderSettings) -> Optional[Tuple[str, ...]]:
    """The groups of match `m` of shape `name` that hold its month and day as numbers, when it writes a
    day of a month and a year the way notes do; else None."""
    groups = m.groupdict()
    if name == "numeric":
        if FULL_NUMERIC_DATE.fullmatch(m.group()[m.start("a") - m.start():]) is None:
            return None
        year_first = len(groups["a"]) > 2  # `110.02.30`, else `30/04/2021`
        if not _year_is_written_today(groups["a" if year_first else "c"], settings):
            return None
        return ("b", "c") if year_first else ("a", "b")
    if name == "compact_mk":
        digits = groups["digits"]
        return ("digits",) if len(digits) == 7 and _year_is_written_today(digits[:3], settings) else None
    if groups.get("d") is None or (groups.get("y") is None and name != "zh_month"):
        return None
    if not _year_is_written_today(groups.get("y"), settings):
        return None
    return ("m", "d") if groups.get("m") is not None else ("d",)


def _ordinal(written: str) -> bool:
    """Does a day field end in an English ordinal's letters (`30th`)?"""
    return written[-1].isascii() and written[-1].isalpha()


def _first_of(group: str, written: str) -> str:
    """1 written as `written` is: `01` for digits (`0101` for a compact month and day), `1st`, `一`."""
    if group == "digits":
        return written[:-4] + "0101"
    if written.isdigit():
        return "01"
    return "1st" if _ordinal(written) else "一"


def _number(written: Optional[str]) -> int:
    """The number a month or day field writes (`02`, `三十`, `30th`); 0 when it writes none."""
    if not written:
        return 0
    if _ordinal(written):
        written = written[:-2]
    parsed = parse_numeral(written)
    return parsed[0] if parsed else 0


def _months_and_days(name: str, m: "re.Match[str]", fields: Tuple[str, ...]) -> List[Tuple[int, int]]:
    """The (month, day) pairs match `m` can be read as (both orders where the year is last)."""
    if name == "compact_mk":
        digits = m.group("digits")
        return [(int(digits[3:5]), int(digits[5:7]))]
    if name == "numeric":
        first, second = (_number(m.group(f)) for f in fields)
        return [(first, second)] if fields == ("b", "c") else [(first, second), (second, first)]
    month = _number(m.group("m")) if "m" in fields else 1  # a month's name is a month
    return [(month, _number(m.group("d")))]


def _impossible(name: str, m: "re.Match[str]", settings: FinderSettings) -> bool:
    """Match `m` writes a day its month lacks (`02.30`, `4月31日`, `Feb 29, 2021`): a month and a day
    of a month, that the finder reads none of, and reads with both set to 1 (so it is not left for its
    form, as `25 Dec 21` is, or for its year)."""
    fields = _day_fields(name, m, settings)
    if fields is None or not any(1 <= month <= 12 and 1 <= day <= 31
                                 for month, day in _months_and_days(name, m, fields)):
        return False
    if parse(m.group(), settings=settings):
        return False
    text, base = m.group(), m.start()
    for group in sorted(fields, key=m.start, reverse=True):
        start, end = m.start(group) - base, m.end(group) - base
        text = text[:start] + _first_of(group, text[start:end]) + text[end:]
    return bool(parse(text, settings=settings))


def not_a_calendar_date(text: str, settings: Optional[FinderSettings] = None) -> bool:
    """Is `text` written as a date (`110.02.30`, `2021-02-29`, `mk1100230`, `民國110年2月30日`,
    `二月三十日`, `Feb 30, 2021`) and no date of the calendar, for a day its month lacks? Such a DATE
    cannot be shifted: the component keeps it as a DATE and the surrogate step says so instead of
    passing it off as a date."""
    settings = settings or FinderSettings()
    for name in _DAY_SHAPES:
        m = SHAPES[name].fullmatch(text)
        if m is not None and _impossible(name, m, settings):
            return True
    return False


def dates_the_calendar_lacks(text: str, settings: Optional[FinderSettings] = None) -> List[Tuple[int, int]]:
    """(start, end) of every stretch of `text` written as a date that no calendar has (`入院 110.02.30`,
    `Feb 30, 2021`), not overlapping (`民國110年[2月30日]` is one): the finder reads none of them. Each
    shape is one linear scan."""
    settings = settings or FinderSettings()
    found = set()
    for holds, names in _DAY_SHAPE_FAMILIES:
        if holds.search(text) is None:
            continue
        for name in names:
            for m in SHAPES[name].finditer(text):
                if _impossible(name, m, settings):
                    found.add(m.span())
    kept: List[Tuple[int, int]] = []
    for start, end in sorted(found, key=lambda span: (span[0], -span[1])):  # the longest of shapes that overlap
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept


__all__ = ["DateCandidate", "FinderSettings", "find_dates", "find_readings", "parse", "reading_dict",
           "compile_format", "SHAPES", "not_a_calendar_date", "dates_the_calendar_lacks"]
