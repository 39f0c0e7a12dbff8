"""Predicates about names and institutions' type words that many passes share: what a Chinese name
looks like (`name_like`), which word says what an institution is (`醫院`, `University`: the type words,
`type_word_ending`, `type_word_after`), whether a name is a known place or an institution of another
kind (`known_place`, `typed_otherwise`, `not_name_like`: the exceptions cue rules name,
`spacy_deid.cues`). Imports no pass, so every pass, the rules' validators, the cue rules and the refine
steps may read it (WHY the type words decide a label: `institutions`).
"""
import re
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Tuple

from .han import HAN_CHAR, HAN_RANGES
from .labels import LOCATION_LABELS
from .rules.loading import load_default_patterns

TYPE_WORDS_ZH: Dict[str, Tuple[str, ...]] = {
    # 院區: a hospital's campus, part of its name (`台北市立聯合醫院松德院區`, `淡水院區`)
    "HOSPITAL": ("醫院", "紀念醫院", "附設醫院", "總醫院", "分院", "院區", "醫學中心", "療養院", "診所",
                 # the short forms names end with: 聯合醫院 (`北市聯醫`), 榮民總醫院 (`台中榮總`), 附設醫院 (`中國附醫`)
                 "聯醫", "榮總", "附醫"),
    "SCHOOL": ("大學", "科技大學", "學院", "高級中學", "高級中等學校", "高中", "高職", "高工", "高商", "國中",
               "國小", "國民小學", "國民中學", "中學", "小學", "實驗小學", "補習班", "幼兒園", "幼稚園", "女中", "商職",
               "工職", "家商", "高農", "護專", "專科學校"),
    "MARKET": ("夜市", "市場", "菜市場", "果菜市場", "觀光夜市"),
    "GENERAL_BUSINESS": ("公司", "股份有限公司", "有限公司", "銀行", "百貨", "百貨公司", "超市", "餐廳", "工廠",
                         "五金行", "商行", "車行", "早餐店", "小吃店", "餐館", "藥局", "藥房", "書店", "超商",
                         "旅行社", "事務所", "工作室", "企業", "實業"),
    "LOCATION": ("公園", "基金會", "監獄", "看守所", "機場", "博物館", "美術館", "紀念館", "紀念堂", "教會",
                 "寺", "宮", "廟", "園區", "動物園", "圖書館", "文化中心", "藝術中心", "風景區", "老街", "車站"),
}
TYPE_WORDS_EN: Dict[str, Tuple[str, ...]] = {
    "HOSPITAL": ("Hospital", "Memorial Hospital", "General Hospital", "Medical Center", "Clinic"),
    "SCHOOL": ("University", "College", "Elementary School", "Primary School", "Junior High School",
               "Senior High School", "High School", "Cram School", "Kindergarten"),
    "MARKET": ("Night Market", "Market"),
    "GENERAL_BUSINESS": ("Company", "Corporation", "Bank", "Department Store", "Restaurant", "Factory"),
    "LOCATION": ("Park", "Foundation", "Prison", "Airport", "Museum", "Temple", "Memorial Hall", "Art Center",
                 "Arts Center", "Cultural Center", "Mountain", "Monastery", "Shrine", "Zoo", "Stadium", "Library",
                 "Station"),
}
# School levels, written before a school's name as often as after it (`高中[台中一中]`, `大學念[東吳]`).
SCHOOL_LEVELS_ZH = tuple(w for w in TYPE_WORDS_ZH["SCHOOL"] if len(w) == 2 and w not in ("學院", "女中"))
# What may follow a Chinese type word without making it part of another word.
CONTINUES_TYPE_WORD_ZH = ("路", "街", "巷", "大道", "老師", "教師", "校長", "教授", "講師", "學生", "同學", "職員",
                 "員工", "護理師", "醫師", "工友", "志工", "店員", "行員")
# Characters that make a run of Han characters a phrase rather than a name (`台北的醫院`, `台北某醫院`).
GRAMMAR_CHARS_ZH = frozenset("的之在到去回住與及或跟等各其某該這那一家間所於由從往向至是有為了也都很就再又此並讀念唸")


def is_type_word(span_text: str) -> bool:
    """Is `span_text` exactly one type word (`Foundation`, `醫院`)?"""
    return span_text in TYPE_WORDS_SET_ZH or span_text.casefold() in TYPE_WORD_LABEL_EN


def _by_length(table: Dict[str, Tuple[str, ...]]) -> List[Tuple[str, str]]:
    return sorted(((word, label) for label, words in table.items() for word in words),
                  key=lambda pair: (-len(pair[0]), pair[0]))


TYPE_WORDS_LONGEST_FIRST_ZH = _by_length(TYPE_WORDS_ZH)
TYPE_WORD_PREFIX_ENDS_ZH = frozenset(word[cut - 1] for word, _ in TYPE_WORDS_LONGEST_FIRST_ZH for cut in range(1, len(word)))
TYPE_WORDS_LONGEST_FIRST_EN = _by_length(TYPE_WORDS_EN)
_TYPE_WORD_AFTER_EN = re.compile(r"[ ](" + "|".join(re.escape(w) for w, _ in TYPE_WORDS_LONGEST_FIRST_EN) + r")(?![A-Za-z0-9])", re.IGNORECASE)
TYPE_WORD_LABEL_EN = {w.casefold(): label for w, label in TYPE_WORDS_LONGEST_FIRST_EN}
TYPE_WORDS_SET_ZH = frozenset(word for word, _ in TYPE_WORDS_LONGEST_FIRST_ZH)


def type_word_after(text: str, end: int) -> Optional[Tuple[int, str]]:
    """(end of the type word, its label) when one starts at `end` and ends a word there."""
    for word, label in TYPE_WORDS_LONGEST_FIRST_ZH:
        if len(word) > 1 and text.startswith(word, end):
            after = end + len(word)
            if any(text.startswith(w, after) for w in CONTINUES_TYPE_WORD_ZH):
                return None
            return after, label
    m = _TYPE_WORD_AFTER_EN.match(text, end)
    if m is not None and (m.group(1)[0].isupper()):
        return m.end(), TYPE_WORD_LABEL_EN[m.group(1).casefold()]
    return None


# The most characters `type_word_ending` reads from a span's end: the longest type word, the space or
# Han character before it, and one character of the name (`spanedges` reads no further back).
TYPE_WORD_REACH = max(len(word) for word, _ in TYPE_WORDS_LONGEST_FIRST_ZH + TYPE_WORDS_LONGEST_FIRST_EN) + 2


def type_word_ending(span_text: str) -> Optional[str]:
    """The label of the type word `span_text` ends with, when it holds more than that word."""
    for word, label in TYPE_WORDS_LONGEST_FIRST_ZH:
        if span_text.endswith(word) and len(span_text) > len(word) and HAN_CHAR.match(span_text, len(span_text) - len(word) - 1):
            return label
    return english_type_word_ending(span_text)


def english_type_word_ending(span_text: str) -> Optional[str]:
    """The label of the capitalised English type word `span_text` ends with after a space, when it holds
    more than that word (`Yuan's General Hospital`, `Taipei Medical University`)."""
    for word, label in TYPE_WORDS_LONGEST_FIRST_EN:
        if (len(span_text) > len(word) + 1 and span_text[-len(word) - 1] == " "
                and span_text[-len(word):].casefold() == word.casefold() and span_text[-len(word)].isupper()):
            return label
    return None



def name_like(text: str) -> bool:
    """Han characters only, none of them grammatical: a name, not a phrase (`協和`, not `的醫`)."""
    return all(HAN_CHAR.match(c) and c not in GRAMMAR_CHARS_ZH for c in text)


@lru_cache(maxsize=1)
def place_phrases() -> FrozenSet[str]:
    """Every phrase of the shipped place lists (countries, cities, states, regions), case-folded."""
    return frozenset(p.casefold() for rule in load_default_patterns()
                     if rule.label in LOCATION_LABELS for p in rule.phrases)


def known_place(name: str, label: str = "") -> bool:
    """Is `name` a place of the shipped place lists (`台北`, `Tokyo`)? Then the words around it (`在[台北]工作`)
    say what happens in that place, not what kind of institution it is."""
    return name.casefold() in place_phrases()


def typed_otherwise(name: str, label: str) -> bool:
    """Does `name` end with the type word of an institution of another kind than `label` (`台大醫院`
    for a business)? Its type word says what it is, whatever the words around it say."""
    return type_word_ending(name) not in (None, label)


def not_name_like(name: str, label: str = "") -> bool:
    """Is `name` no name (`name_like` fails): a grammatical character or a non-Han one (`他的`)?"""
    return not name_like(name)


def named_otherwise(name: str, label: str) -> bool:
    """A known place, or an institution whose type word gives it a label other than `label`."""
    return known_place(name) or typed_otherwise(name, label)


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
    alone or with the character `before` it (`[學園區]` after 科)? A place that ends as an institution's
    type word does (`[林園區]`, 園區) keeps its place label when it is one (`institutions`)."""
    return (_DISTRICT.fullmatch(text) is not None and text not in _AREA_WORDS
            and before[-1:] + text not in _AREA_WORDS)
