"""A hospital's short name written together with its physician's name: `經[萬芳][徐昌炳](attending)轉介`.

WHY: a Taiwanese referral names the hospital and the physician with no space between (`經亞東劉佑昌醫師轉介`,
`經門諾楊振佑(專科護理師)轉介`). A NER that knows neither reads one run of Han characters and cuts it
anywhere (`[萬芳徐]`, `[門諾楊]` DOCTOR, `[亞東劉佑昌]` GENERAL_BUSINESS): the surrogate then leaves part
of the name in the text or replaces a hospital by a person. The physician's title or role right after
the run (醫師, 醫生, 大夫, `(attending)`, `(值班醫師)`, `(專科護理師)`, `, MD`) says its end is a person's name;
a Chinese name has two or three characters and starts with a surname, and a run of five characters or
more is longer than a name. So a NER span that starts such a run (of five to nine Han characters, with no
other entity in it) is split into the hospital (a name of two or more characters that the care-place check
of the rules accepts, a known place too: not `本院`, not a common word or a title) or the department (`身心科`), and the
physician's name, DOCTOR: of three characters where its first is a surname, else of two.
Written with a space between, the NER may take both as one span too (`[萬芳 徐]醫師`, `[KMUH Lin Ya-Ting]`,
`[NTUH 林美玲]`): a span that is a hospital's name (Han characters the care-place check accepts, or an
abbreviation in capitals that names no department and is no common word or clinical term), one space,
and a person's name (Han characters starting with a surname, with a physician's title right after the
span; or a romanized surname and hyphenated given name, either way round, none of them a common word or
clinical term) is the hospital and its physician: who is named by their hospital is its staff. Not where
the words before the name make it someone else (`[小兒子 LU CHING-HUNG]`: a relation word, not a hospital).
"""
import re
from typing import Optional, Tuple

from spacy.tokens import Doc, Span

from .clinical_terms import is_clinical_term
from .common_words import common_words
from .common_words_zh import surnames_zh
from .departments import named_department, zh_department
from .han import HAN_RANGES
from .labels import LOCATION_LABELS, NAME_LABELS
from .relations import physician_after, relation_label
from .titles_zh import PHYSICIAN_TITLES_ZH

_RUN_LENGTHS = range(5, 10)
# Read no further than the longest run: a note's long Han text costs each span the same.
_HAN_RUN = re.compile(r"[" + HAN_RANGES + r"]{1," + str(_RUN_LENGTHS[-1]) + "}")
# Besides the physician's titles and roles `relations` reads after a name: the longer Chinese titles
# (`主治醫師`) and a nurse practitioner, who writes referrals as a physician.
_MORE_PHYSICIAN_AFTER = re.compile(r"[ ]?(?:" + "|".join(sorted(PHYSICIAN_TITLES_ZH, key=len, reverse=True))
                                   + r")|[ ]?[(（][ ]?專科護理師")
_NAME_LENGTHS = (3, 2)
_MIN_PLACE_CHARACTERS = 2
_TITLE_REACH = max(len(title) for title in PHYSICIAN_TITLES_ZH)


def _physician_after(text: str, end: int) -> bool:
    return physician_after(text, end) or _MORE_PHYSICIAN_AFTER.match(text, end) is not None


def _place_label(text: str, start: int, end: int) -> Optional[str]:
    """DEPARTMENT or HOSPITAL for the characters before the physician's name, else None."""
    from .rules.validators import hospital_short_name_zh  # the rules read the repairs' modules

    if zh_department(text[start:end]):
        return "DEPARTMENT"
    return "HOSPITAL" if hospital_short_name_zh(text[start:end]) else None


# A hospital's name, one space, a person's name: the whole of a NER span (module docstring).
# A romanized Chinese name holds its hyphenated given name (`Lin Ya-Ting`, `YA-TING LIN`): capitalised
# words alone may be the rest of an institution's name (`FAR EASTERN MEMORIAL HOSPITAL`).
_ROMANIZED_NAME = (r"[A-Z][a-z]+[ ][A-Z][a-z]+-[A-Za-z][a-z]+|[A-Z][a-z]+-[A-Za-z][a-z]+[ ][A-Z][a-z]+"
                   r"|[A-Z]+[ ][A-Z]+-[A-Z]+|[A-Z]+-[A-Z]+[ ][A-Z]+")
_SPACED = re.compile(r"(?P<place>[A-Z]{3,8}|[" + HAN_RANGES + r"]{2,6})[ ](?P<name>[" + HAN_RANGES + r"]{1,3}|"
                     + _ROMANIZED_NAME + ")")


def _english_hospital(name: str) -> bool:
    return (named_department().fullmatch(name) is None and name.casefold() not in common_words()
            and not is_clinical_term(name))


def _person_name(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a person's name after a hospital: Han characters from a surname with a
    physician's title after them, or romanized words none of which is a common word or clinical term."""
    name = text[start:end]
    if _HAN_RUN.fullmatch(name):
        return name[:1] in surnames_zh() and _physician_after(text, end)
    words = name.replace("-", " ").split()
    return not any(w.casefold() in common_words() or is_clinical_term(w) for w in words)


def _spaced_split(doc: Doc, text: str, ent: Span) -> Optional[Tuple[Span, Span]]:
    """The hospital and the physician of a span that holds both with a space between (module
    docstring), else None."""
    match = _SPACED.fullmatch(text, ent.start_char, ent.end_char)
    if (match is None or not _person_name(text, *match.span("name"))
            or relation_label(text, *match.span("name")) not in (None, "DOCTOR")):  # `[小兒子 LU CHING-HUNG]`
        return None
    place = match.group("place")
    if place.isascii():
        label = "HOSPITAL" if _english_hospital(place) else None
    else:
        label = _place_label(text, *match.span("place"))
    if label is None:
        return None
    hospital = doc.char_span(*match.span("place"), label=label)
    physician = doc.char_span(*match.span("name"), label="DOCTOR")
    return None if hospital is None or physician is None else (hospital, physician)


def split_hospital_and_physician(doc: Doc, text: str, ent: Span,
                                 following: Optional[Span] = None) -> Optional[Tuple[Span, Span]]:
    """The hospital (or department) and the physician that `ent` and the Han characters after it name,
    or that `ent` holds with a space between (module docstring), else None."""
    if ent.label_ not in NAME_LABELS and ent.label_ not in LOCATION_LABELS:
        return None
    if " " in ent.text:
        return _spaced_split(doc, text, ent)
    han = _HAN_RUN.match(text, ent.start_char)
    if han is None:
        return None
    start = han.start()
    # The run ends where the physician's title starts (a Chinese title is Han characters too).
    end = next((e for e in _RUN_LENGTHS if start + e <= han.end() and _physician_after(text, start + e)), None)
    if end is None:
        return None
    end += start
    # The span may take the title (`[台北王大明醫師]`), never more; nor may another entity start in the run.
    if ent.end_char > end + _TITLE_REACH or (following is not None and following.start_char < end):
        return None
    surnames = surnames_zh()
    for length in _NAME_LENGTHS:
        name_start = end - length
        if name_start - start < _MIN_PLACE_CHARACTERS or text[name_start] not in surnames:
            continue
        label = _place_label(text, start, name_start)
        place = doc.char_span(start, name_start, label=label) if label else None
        name = doc.char_span(name_start, end, label="DOCTOR")
        if place is not None and name is not None:
            return place, name
        return None
    return None


__all__ = ["split_hospital_and_physician"]
