"""A city and the district after it are two places: `住[西雅圖][南港區]`, `[洛杉磯][汐止區]`.

WHY: an address names a city, then its district (區), town (鎮) or township (鄉), and annotation.md makes
each its own span (`[台北市][大安區][忠孝東路三段][27]號`). A NER that reads Chinese one character at a
time and has not seen the city often reads the two as one place (`[西雅圖南港區]`, called a place or a
school), or stops inside the district's name (`[洛杉磯汐]止區`); a surrogate then replaces both with one
city, or half a district. Taiwan's districts are named by two characters and the division's word (only
the directions name one by one: `東區`), so, for spans the NER found (never rule or date spans):

- a place, organisation or name span of Han characters that ends with two characters and 區, 鎮 or 鄉,
  after two or more characters of a name, is split there: the city keeps a place label the NER gave
  (CITY, STATE, COUNTRY), else it is a CITY, and the district is a CITY;
- one that ends one character into such a district (`[洛杉磯汐]止區`) is split the same way, the
  district taking the rest of its name;
- not a word for an area (`科學園區`, `工業區`, `風景區`, `山地區`; `district_name`),
  and not when what stands before the district is no name (a grammatical character: `[台北的新店區]`).
"""
import re
from typing import Optional, Tuple

from spacy.tokens import Doc, Span

from .han import HAN_CHAR, HAN_RANGES
from .predicates import name_like
from .labels import ADMINISTRATIVE_LABELS, LOCATION_LABELS, NAME_LABELS

_DIVISIONS = "區鎮鄉"
_DISTRICT_LENGTH = 3
# A district, town or township: two Han characters and the division's word (three before it in a few:
# 那瑪夏區, 太麻里鄉). No district's name starts with a city's or county's word (`台中[市東區]` is the city,
# then 東區). Words for other areas end so too and name none: any ending in 特區, 校區, 院區, 業區 or
# 景區 (`藝術特區`, `工業區`, `風景區`), and of four characters those ending in 園區, 社區, 地區, 市區 or
# 港區 (`科學園區`), which end districts of three (林園區, 新社區, 小港區).
_DISTRICT = re.compile(f"(?![市縣])(?:[{HAN_RANGES}]{{2}}(?<![特校院業景])[區鄉鎮]"
                       f"|[{HAN_RANGES}]{{3}}(?<![園校院特社地市港業景])[區鄉鎮])")
_AREA_WORDS = frozenset("""
風景區 工業區 商業區 住宅區 山地區 行政區 管制區 保護區 示範區 開發區 經濟區 老街區 城鎮 家鄉 故鄉 重鎮
科學園區 軟體園區 工業園區 科技園區 生技園區 物流園區 產業園區
""".split())


def district_name(text: str, before: str = "") -> bool:
    """Is `text` the name of a district, town or township (`大甲區`, `潮州鎮`), not a word for an area,
    alone or with the character `before` it (`[學園區]` after 科)?"""
    return (_DISTRICT.fullmatch(text) is not None and text not in _AREA_WORDS
            and before[-1:] + text not in _AREA_WORDS)


def _split_at(text: str, start: int, end: int) -> Optional[Tuple[int, int]]:
    """(where the district starts, where it ends) for text[start:end] (module docstring), else None."""
    if text[end - 1:end] in _DIVISIONS:
        district_end = end
    elif text[end + 1:end + 2] in _DIVISIONS and HAN_CHAR.match(text, end) is not None:
        district_end = end + 2  # `[洛杉磯汐]止區`: the span stops one character into the district
    else:
        return None
    district_start = district_end - _DISTRICT_LENGTH
    if district_start - start < 2 or district_start >= end:
        return None
    if (not name_like(text[start:district_start])
            or not district_name(text[district_start:district_end], text[district_start - 1])):
        return None
    return district_start, district_end


def split_district(doc: Doc, text: str, ent: Span,
                   following: Optional[Span] = None) -> Optional[Tuple[Span, Span]]:
    """`ent` as a city and the district after it (module docstring), else None."""
    if ent.label_ not in LOCATION_LABELS and ent.label_ not in NAME_LABELS:
        return None
    found = _split_at(text, ent.start_char, ent.end_char)
    if found is None or (following is not None and following.start_char < found[1]):
        return None
    label = ent.label_ if ent.label_ in ADMINISTRATIVE_LABELS else "CITY"
    city = doc.char_span(ent.start_char, found[0], label=label)
    district = doc.char_span(found[0], found[1], label="CITY")
    return None if city is None or district is None else (city, district)


__all__ = ["district_name", "split_district"]
