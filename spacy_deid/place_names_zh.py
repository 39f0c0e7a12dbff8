"""May a run of Han characters be a place's or an institution's own name where the words around it say
one stands (`在[友達]上班`, `經[亞東]劉佑昌醫師轉介`, `就讀[交大]`)? Not a phrase, a unit, a generic or common
word, a time, a person with a title, or an institution of another kind. Read by the rules' validators
(`care_place_zh`, `school_zh`, `employer_zh`) and by the passes that split a hospital's short name off
a department (`departments`).
"""
from typing import Optional

from .common_words_zh import plain_han_words
from .predicates import name_like, named_otherwise
from .titles_zh import titles_after_name_zh

# Words that stand between 至/於/在 and a visit word (`安排至[門諾]追蹤`) without naming a hospital.
NOT_HOSPITAL_NAMES_ZH = frozenset("""
本院 外院 他院 該院 貴院 醫院 病房 門診 急診 診所 家中 家裡 附近 當地 國外 國內 外地 南部 北部 中部 東部 學校 公司
原院 原醫院 老家 娘家 宿舍 監獄 看守所 戒治所 勒戒所 安養院 療養院 護理之家 機構 教會 工作
""".split())
_UNIT_ENDINGS_ZH = ("科", "部", "房", "室", "中", "內", "外", "上", "下", "區", "市", "縣", "鄉", "鎮")


WORKPLACE_LABEL = "GENERAL_BUSINESS"
# Words that stand between 在/從 and a word of work (`在[友達]上班`) without naming an employer.
_NOT_EMPLOYER_NAMES_ZH = frozenset("""
公司 工廠 工地 家裡 家中 店裡 夜市 市場 餐廳 超商 便利商店 學校 醫院 診所 外地 附近 當地 國外 國內 台灣 這裡 那裡
南部 北部 中部 東部 工業區 農場 漁船 港口 辦公室 家 小吃店 早餐店
""".split())


# Characters of a time, not a name, where a place would stand (`從三年前轉來`, `在住院期間`).
_TIME_CHARACTERS_ZH = frozenset("年月日週天前後時期歲次")


def named_place_zh(name: str, generic: "frozenset[str]", label: str, known_places: bool = False) -> bool:
    """A name, not a phrase (`家中`), a unit (`精神科`), a generic or common word (`社區`, `監獄`), a time
    (`三年前`), a person with a title (`楊醫師`), a known place (`台北`; with `known_places`, one may be the
    name) or an institution whose type word says it is of another kind (`在[南門市場]工作` is a market)."""
    if (name in generic or not name_like(name) or name.endswith(_UNIT_ENDINGS_ZH)
            or name.endswith(titles_after_name_zh()) or any(c in _TIME_CHARACTERS_ZH for c in name)
            or plain_han_words(name, label)):
        return False
    return known_places or not named_otherwise(name, label)


# Words that stand after a word of study without naming a school (`入學[大學]`, `就讀[研究所]`, `畢業於[該校]`).
_NOT_SCHOOL_NAMES_ZH = frozenset("""
大學 高中 國中 國小 小學 中學 高職 五專 二專 專科 研究所 碩士班 博士班 夜間部 日間部 學校 私校 補習班 幼兒園
幼稚園 本校 該校 國外 國內 當地 附近 軍校 學院
""".split())


def validate_school_zh(text: str, start: int, end: int) -> Optional[bool]:
    # A school's name (交大, 陽明交大, 國立交通大學) after a word of study; `入學[大學]`, `就讀[期間]`,
    # `畢業於[王老師]班上` name none.
    name = text[start:end]
    return not (name in _NOT_SCHOOL_NAMES_ZH or not name_like(name) or name.endswith(titles_after_name_zh())
                or any(c in _TIME_CHARACTERS_ZH for c in name) or plain_han_words(name, "SCHOOL")
                or named_otherwise(name, "SCHOOL"))


def hospital_short_name_zh(name: str) -> bool:
    """May `name` be a hospital's short name where the words around it say a hospital stands (before its
    physician's name: `經[亞東]劉佑昌醫師轉介`)? A place's name is one there (亞東 is also East Asia)."""
    return named_place_zh(name, NOT_HOSPITAL_NAMES_ZH, "HOSPITAL", known_places=True)


def validate_employer_zh(text: str, start: int, end: int) -> Optional[bool]:
    # An employer's name (友達, 全家, AUO) where someone works; `在工廠上班` names no employer.
    name = text[start:end]
    if text[start - 1:start + 1] == "從事":  # engaged in (從事快遞員工作): a trade follows, no employer
        return False
    if name.endswith("找"):  # looking for work (回台找工作): a place, or nothing, stands before 找
        return False
    if name.isascii():
        return not named_otherwise(name, WORKPLACE_LABEL)
    return named_place_zh(name, _NOT_EMPLOYER_NAMES_ZH, WORKPLACE_LABEL)
