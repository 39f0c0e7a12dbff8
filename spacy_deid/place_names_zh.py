"""May a run of Han characters be a place's or an institution's own name where the words around it say
one stands (`在[友達]上班`, `經[亞東]劉佑昌醫師轉介`, `就讀[交大]`)? Not a phrase, a unit, a generic or common
word, a time, a person with a title, or an institution of another kind. Read by the rules' validators
(`care_place_zh`, `school_zh`, `employer_zh`) and by the passes that split a hospital's short name off
a department (`departments`).
"""
from typing import FrozenSet, Optional

from .wordlists.common_words_zh import plain_han_words
from .predicates import name_like, named_otherwise
from .wordlists.titles_zh import titles_after_name_zh
from .wordlists import word_set, words



WORKPLACE_LABEL = "GENERAL_BUSINESS"




def named_place_zh(name: str, generic: FrozenSet[str], label: str, known_places: bool = False) -> bool:
    """A name, not a phrase (`家中`), a unit (`精神科`), a generic or common word (`社區`, `監獄`), a time
    (`三年前`), a person with a title (`楊醫師`), a known place (`台北`; with `known_places`, one may be the
    name) or an institution whose type word says it is of another kind (`在[南門市場]工作` is a market)."""
    if (name in generic or not name_like(name) or name.endswith(words("unit_endings_zh"))
            or name.endswith(titles_after_name_zh()) or not word_set("time_chars_zh").isdisjoint(name)
            or plain_han_words(name, label)):
        return False
    return known_places or not named_otherwise(name, label)




def validate_school_zh(text: str, start: int, end: int) -> Optional[bool]:
    # A school's name (交大, 陽明交大, 國立交通大學) after a word of study; `入學[大學]`, `就讀[期間]`,
    # `畢業於[王老師]班上` name none.
    name = text[start:end]
    return not (name in word_set("not_school_names_zh") or not name_like(name) or name.endswith(titles_after_name_zh())
                or not word_set("time_chars_zh").isdisjoint(name) or plain_han_words(name, "SCHOOL")
                or named_otherwise(name, "SCHOOL"))


def hospital_short_name_zh(name: str) -> bool:
    """May `name` be a hospital's short name where the words around it say a hospital stands (before its
    physician's name: `經[亞東]劉佑昌醫師轉介`)? A place's name is one there (亞東 is also East Asia)."""
    return named_place_zh(name, word_set("not_hospital_names_zh"), "HOSPITAL", known_places=True)


def validate_employer_zh(text: str, start: int, end: int) -> Optional[bool]:
    # An employer's name (友達, 全家, AUO) where someone works; `在工廠上班` names no employer.
    name = text[start:end]
    if text[start - 1:start + 1] == "從事":  # engaged in (從事快遞員工作): a trade follows, no employer
        return False
    if name.endswith("找"):  # looking for work (回台找工作): a place, or nothing, stands before 找
        return False
    if name.isascii():
        return not named_otherwise(name, WORKPLACE_LABEL)
    return named_place_zh(name, word_set("not_employer_names_zh"), WORKPLACE_LABEL)
