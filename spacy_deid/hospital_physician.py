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
physician's name, DOCTOR: of three characters where its first is a surname, else of two. Written with a
space between them (`[台大 王]醫師`, `[亞東 劉佑昌]醫師`), the space draws the edge: the physician's name is
what stands between it and the title, one to three characters, starting with a surname.
"""
import re
from typing import Optional, Tuple

from spacy.tokens import Doc, Span

from .common_words_zh import starts_with_surname, surnames_zh
from .departments import zh_department
from .han import HAN_RANGES
from .labels import LOCATION_LABELS, NAME_LABELS
from .place_names_zh import hospital_short_name_zh
from .relations import physician_after
from .titles_zh import PHYSICIAN_TITLES_ZH

_RUN_LENGTHS = range(5, 10)
# Read no further than the longest run: a note's long Han text costs each span the same.
_HAN_RUN = re.compile(r"[" + HAN_RANGES + r"]{1," + str(_RUN_LENGTHS[-1]) + "}")
# Besides the physician's titles and roles `relations` reads after a name: the longer Chinese titles
# (`主治醫師`) and a nurse practitioner, who writes referrals as a physician.
_MORE_PHYSICIAN_AFTER = re.compile(r"[ ]?(?:" + "|".join(sorted(PHYSICIAN_TITLES_ZH, key=len, reverse=True))
                                   + r")|[ ]?[(（][ ]?專科護理師")
_NAME_LENGTHS = (3, 2)
# The place, a space, and the physician's surname or name (`台大 王`醫師, `亞東 劉佑昌`醫師).
_PLACE_SPACE_NAME = re.compile(r"([" + HAN_RANGES + r"]{2,7})[ ]([" + HAN_RANGES + r"]{1,3})")
_MIN_PLACE_CHARACTERS = 2
_TITLE_REACH = max(len(title) for title in PHYSICIAN_TITLES_ZH)


def _physician_after(text: str, end: int) -> bool:
    return physician_after(text, end) or _MORE_PHYSICIAN_AFTER.match(text, end) is not None


def _place_label(text: str, start: int, end: int) -> Optional[str]:
    """DEPARTMENT or HOSPITAL for the characters before the physician's name, else None."""
    if zh_department(text[start:end]):
        return "DEPARTMENT"
    return "HOSPITAL" if hospital_short_name_zh(text[start:end]) else None


def _split_at_space(doc: Doc, text: str, ent: Span,
                    following: Optional[Span]) -> Optional[Tuple[Span, Span]]:
    """The place and the physician of a span that a space parts before the physician's surname or name
    (`[台大 王]醫師`, `[亞東 劉佑昌]醫師`), else None."""
    spaced = _PLACE_SPACE_NAME.match(text, ent.start_char)
    if spaced is None or ent.end_char <= spaced.start(2):
        return None
    name_start = spaced.start(2)
    for length in range(spaced.end(2) - name_start, 0, -1):
        end = name_start + length
        if not _physician_after(text, end):
            continue
        if (ent.end_char > end + _TITLE_REACH or (following is not None and following.start_char < end)
                or not starts_with_surname(text[name_start:name_start + 2])):
            return None
        label = _place_label(text, spaced.start(1), spaced.end(1))
        place = doc.char_span(spaced.start(1), spaced.end(1), label=label) if label else None
        name = doc.char_span(name_start, end, label="DOCTOR")
        return (place, name) if place is not None and name is not None else None
    return None


def split_hospital_and_physician(doc: Doc, text: str, ent: Span,
                                 following: Optional[Span] = None) -> Optional[Tuple[Span, Span]]:
    """The hospital (or department) and the physician that `ent` and the Han characters after it name
    (module docstring), else None."""
    if ent.label_ not in NAME_LABELS and ent.label_ not in LOCATION_LABELS:
        return None
    parted = _split_at_space(doc, text, ent, following)
    if parted is not None:
        return parted
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
