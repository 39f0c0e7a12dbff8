"""What the cue rules of titled names ask of a span (`resources/cue_rules/titles.json`), and the shared
tests `cued_names` reads too: does a span name an institution, is it a Chinese surname and its title, is
it a person by the title or credential beside it.

WHY here: the rules name these as predicates (`unless`) and labellers (`yields_from`); `cued_names` asks
the same questions of the words it adds, and a rule engine module imports no pass.
"""
import re
from typing import FrozenSet, Optional

from ..common_words_zh import surnames_zh
from ..predicates import TypeWords
from ..relations import MD_AFTER, relation_after
from ..titles_zh import titles_after_name, titles_after_name_zh
from ..wordlists import WordLists, compiled

_PHYSICIAN_TITLE = re.compile(r"(?<![A-Za-z])(?:Dr|DR|Doctor)\.?[ ]?$")
_OTHER_TITLE = re.compile(r"(?<![A-Za-z])(?:(?:Mr|Mrs|MRS|Ms|Miss|Mx)\.?[ ]|(?:Mr|Mrs|Ms|Mx)\.)$")
_PHYSICIAN_AFTER = re.compile(MD_AFTER)
_STAFF_AFTER = re.compile(r",?[ ](?:RN|LPN|NP|CNA|MSW|LCSW|PA-C)(?![A-Za-z])")
_WINDOW = 8


def _institution_word(lists: WordLists) -> "re.Pattern[str]":
    return re.compile(r"(?i:(?<![A-Za-z])(?:" + "|".join(
        re.escape(w) for words in lists.compiled(TypeWords).en.values() for w in sorted(words, key=len, reverse=True))
        + r")(?![A-Za-z]))")


def names_an_institution(text: str) -> bool:
    """Does `text` hold an English type word of an institution (`Clinic`, `Hospital`, `University`)?"""
    return compiled(_institution_word).search(text) is not None


def person_label(text: str, start: int, end: int) -> Optional[str]:
    """DOCTOR or PERSON when a title or credential beside text[start:end] says it is a person, FAMILY,
    PERSON or DOCTOR when a relation word or a physician's role stands in apposition after it
    (`relations.relation_after`), else None (the English rules of `titles.json`, for `cued_names`)."""
    before = text[max(0, start - _WINDOW):start]
    if _PHYSICIAN_TITLE.search(before) or _PHYSICIAN_AFTER.match(text, end):
        return "DOCTOR"
    if _OTHER_TITLE.search(before) or _STAFF_AFTER.match(text, end):
        return "PERSON"
    return relation_after(text, end)


def _title_last_chars(lists: WordLists) -> FrozenSet[str]:
    return frozenset(title[-1] for title in lists.compiled(titles_after_name))


def title_after_surname(name: str) -> Optional[str]:
    """The title of `name` when it is a Chinese surname of one or two characters and the title said
    after it (`許老闆` -> `老闆`, `歐陽太太` -> `太太`), else None; the longest title decides."""
    if name[-1:] not in compiled(_title_last_chars):
        return None
    title = next((t for t in titles_after_name_zh() if name.endswith(t) and 1 <= len(name) - len(t) <= 2), None)
    return title if title is not None and name[:-len(title)] in surnames_zh() else None


# -- predicates (span text, label) -> the rule does not apply ----------------------------------------
def institution(text: str, label: str) -> bool:
    """An English type word of an institution in the span (`Dr. [Chen Clinic]`)."""
    return names_an_institution(text)


def not_latin_capital(text: str, label: str) -> bool:
    """The span does not start with a Latin capital (`Dr. [ortho] team`, `Dr. [張]`)."""
    return not (text[:1].isupper() and text[:1].isascii())


def not_surname_zh(text: str, label: str) -> bool:
    """The span is not a Chinese surname (`[三商]老闆`)."""
    return text not in surnames_zh()


# -- labellers (text, start, end) -> the label the words around text[start:end] give it, or None -----
# (`relations.relation_label` has that signature already and is named in `rule.LABELLERS` itself)
def relation_after_at(text: str, start: int, end: int) -> Optional[str]:
    """`relations.relation_after`: a relation word or a physician's role in apposition after it."""
    return relation_after(text, end)
