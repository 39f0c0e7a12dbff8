"""A span the NER calls a place, with an English title before it, or a staff credential or a relation
word in apposition after it, is a person's name.

WHY: annotation.md writes titles outside names (`Dr. [張家明]`, `Ms. [Wang Mei-Ling]`), and Mr, Mrs, Ms,
Miss, Mx, Dr and Doctor are said to people only. A NER that has not seen a name reads it by its letters
and may call it a place (`Dr. [Patel]` DEPARTMENT, `Mrs. [Garcia]` NATIONALITY, `[Jessica], RN`
GENERAL_BUSINESS): the category is wrong, and the surrogate would be a place where a name stood. Such a
span becomes DOCTOR after Dr or Doctor or before `, MD`, and PERSON otherwise (`relations` then says
whether it is a relative's name or the patient's), unless it names an institution, by an English type
word of `institutions` (`Dr. [Chen Clinic]`), or does not start with a capital letter.
Credentials after a name: `, MD` for a physician; RN, LPN, NP, CNA, MSW, LCSW and PA-C for other staff,
whom the training corpus writes as PERSON. A relation word in apposition after it (`[Peter]
(brother-in-law)` CITY, `[Kelly], the patient's case worker` GENERAL_BUSINESS) makes it FAMILY or PERSON,
as `relations` reads it.
A Chinese span that is a surname and the title said after it (`[許老闆]` GENERAL_BUSINESS, `[紀先生]`,
`[章姊妹]`) keeps the surname alone, as annotation.md writes it (`[葉]醫師`), labelled by the title:
DOCTOR after a physician's, else as `relations` reads the words around it, else PERSON.
"""
import re
from typing import Optional

from spacy.tokens import Doc, Span

from .common_words_zh import surnames_zh
from .predicates import TYPE_WORDS_EN
from .labels import LOCATION_LABELS, NAME_LABELS
from .relations import CLINICIAN_ZH, MD_AFTER, relation_after, relation_label
from .titles_zh import TITLES_AFTER_NAME_ZH

# Labels of places that a person's name can be mistaken for (a NUMBER or ROOM holds digits).
_PLACE_LABELS = LOCATION_LABELS - {"NUMBER", "ROOM"}
_PHYSICIAN_TITLE = re.compile(r"(?<![A-Za-z])(?:Dr|DR|Doctor)\.?[ ]?$")
_OTHER_TITLE = re.compile(r"(?<![A-Za-z])(?:(?:Mr|Mrs|MRS|Ms|Miss|Mx)\.?[ ]|(?:Mr|Mrs|Ms|Mx)\.)$")
_PHYSICIAN_AFTER = re.compile(MD_AFTER)
_STAFF_AFTER = re.compile(r",?[ ](?:RN|LPN|NP|CNA|MSW|LCSW|PA-C)(?![A-Za-z])")
_INSTITUTION_WORD = re.compile(r"(?i:(?<![A-Za-z])(?:" + "|".join(
    re.escape(w) for words in TYPE_WORDS_EN.values() for w in sorted(words, key=len, reverse=True)) + r")(?![A-Za-z]))")
_WINDOW = 8


def names_an_institution(text: str) -> bool:
    """Does `text` hold an English type word of an institution (`Clinic`, `Hospital`, `University`)?"""
    return _INSTITUTION_WORD.search(text) is not None


def person_label(text: str, start: int, end: int) -> Optional[str]:
    """DOCTOR or PERSON when a title or credential beside text[start:end] says it is a person, FAMILY,
    PERSON or DOCTOR when a relation word or a physician's role stands in apposition after it
    (`relations.relation_after`), else None."""
    before = text[max(0, start - _WINDOW):start]
    if _PHYSICIAN_TITLE.search(before) or _PHYSICIAN_AFTER.match(text, end):
        return "DOCTOR"
    if _OTHER_TITLE.search(before) or _STAFF_AFTER.match(text, end):
        return "PERSON"
    return relation_after(text, end)


_TITLE_LAST_CHARS = frozenset(title[-1] for title in TITLES_AFTER_NAME_ZH)


def title_after_surname(name: str) -> Optional[str]:
    """The title of `name` when it is a Chinese surname of one or two characters and the title said
    after it (`許老闆` -> `老闆`, `歐陽太太` -> `太太`), else None; the longest title decides."""
    if name[-1:] not in _TITLE_LAST_CHARS:
        return None
    title = next((t for t in TITLES_AFTER_NAME_ZH if name.endswith(t) and 1 <= len(name) - len(t) <= 2), None)
    return title if title is not None and name[:-len(title)] in surnames_zh() else None


def _surname_and_title(doc: Doc, text: str, ent: Span) -> Optional[Span]:
    """The surname of a span that is a Chinese surname and its title (module docstring), else None."""
    title = title_after_surname(ent.text)
    if title is None:
        return None
    surname_end = ent.end_char - len(title)
    label = "DOCTOR" if title in CLINICIAN_ZH else relation_label(text, ent.start_char, surname_end) or "PERSON"
    return doc.char_span(ent.start_char, surname_end, label=label)


def titled_place(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` relabelled DOCTOR or PERSON when it is a place span a title or credential marks as a person's
    name, or cut to its surname when it holds the title (module docstring), else None."""
    if ent.label_ in _PLACE_LABELS or ent.label_ in NAME_LABELS:
        surname = _surname_and_title(doc, text, ent)
        if surname is not None:
            return surname
    if ent.label_ not in _PLACE_LABELS or not ent.text[:1].isupper() or not ent.text[:1].isascii():
        return None
    if names_an_institution(ent.text):
        return None
    label = person_label(text, ent.start_char, ent.end_char)
    if label is None:
        return None
    return doc.char_span(ent.start_char, ent.end_char, label=label)
