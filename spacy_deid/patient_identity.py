"""What the chart says of the patient, sex and surname, tells another person's name from the patient's.

WHY: the NER reads `[陳]先生來電` or `Ms [Lin] called` as the patient when the frame is one it learned
for the patient, but a note whose patient is a 45-year-old woman (`45歲女性`, `F/45`, `性別: 女`) is not
speaking of her as 先生 or Mr, and one whose patient field reads `病人: 王美玲` is not speaking of her as
`[林]小姐`. Such a name is someone else, and the someone else whom notes call by a surname and a title
in the patient's stead is a relative (`relations` and `propagate` have already given every name a
relation word places its own label; those stay).

The patient's surname is the first character of a Chinese name of two to four characters that a
patient field or apposition names (`relations.relation_label` says PATIENT: `姓名：王美玲`, `病人王美玲`);
a bare Chinese surname called the patient that is none of them is someone else's.

What counts as a sex marker: the sex written with an age (`38歲男性`, `45 y/o F`, `a 45-year-old
female`, `F/45`, `16/F`), or in a sex field (`性別：男`, `Sex: F`). A patient's sex is read only when
every marker of the notes read agrees; otherwise nothing is changed. Titles: 先生 says a man, 小姐,
女士 and 太太 a woman, after a Chinese name; Mr says a man, Ms, Mrs and Miss a woman, before a name.
"""
import re
from typing import Iterable, Optional, Sequence, Set

from spacy.tokens import Doc, Span

from .doctext import doc_text
from .han import HAN_CHAR, HAN_RANGES
from .propagate import SOURCE, relabel_ents
from .relations import HONORIFIC_BEFORE, HONORIFIC_WINDOW, relation_label

_WORD_MALE = r"男性|男|(?i:male|man|gentleman|boy|m)"
_WORD_FEMALE = r"女性|女|(?i:female|woman|lady|girl|f)"
_AGE = r"(?<![\d.])\d{1,3}"
_AGE_UNIT = r"[ ]?(?:歲|(?i:y/o|yo|y\.o\.|(?:-|[ ])years?(?:-|[ ])old|-y/o))[ ]?(?:的[ ]?)?"
# Each alternative names its sex in a group of its own: m* for a man, f* for a woman. A letter is a
# word of its own (`F33.2` is a diagnosis code, `16/F1` no sex).
_SEX_MARKER = re.compile(
    r"(?:" + _AGE + _AGE_UNIT + r"|(?<![\w.])(?:性別|(?i:sex|gender))[ ]?[:：][ ]?)"
    r"(?:(?P<m1>" + _WORD_MALE + r")|(?P<f1>" + _WORD_FEMALE + r"))(?![A-Za-z0-9.])"
    r"|(?<![\w.])(?:(?P<m2>M)|(?P<f2>F))[ ]?/[ ]?\d{1,3}(?![\d.])"
    r"|" + _AGE + r"[ ]?/[ ]?(?:(?P<m3>M)|(?P<f3>F))(?![\w.])")
_MALE_AFTER = ("先生",)
_FEMALE_AFTER = ("小姐", "女士", "太太", "夫人")
_FULL_NAME_ZH = re.compile(f"[{HAN_RANGES}]{{2,4}}")


def sex_markers(text: str) -> Iterable[str]:
    """The sex ("M" or "F") of each sex marker in `text`, in order."""
    for match in _SEX_MARKER.finditer(text):
        yield "M" if any(match.group(g) for g in ("m1", "m2", "m3")) else "F"


def patient_sex(texts: Iterable[str]) -> Optional[str]:
    """"M" or "F" when the notes' sex markers all say it, else None (none, or they disagree)."""
    said = {sex for text in texts for sex in sex_markers(text)}
    return said.pop() if len(said) == 1 else None


def title_sex(text: str, start: int, end: int) -> Optional[str]:
    """The sex a title beside the name at [start, end) states: 先生/小姐/女士/太太 after it, Mr/Ms/Mrs/Miss
    before it; None when there is none."""
    after = text[end:end + 2]
    if after in _MALE_AFTER:
        return "M"
    if after in _FEMALE_AFTER:
        return "F"
    match = HONORIFIC_BEFORE.search(text, max(0, start - HONORIFIC_WINDOW), start)
    if match is None or not (match.group("m") or match.group("f")):
        return None  # none, or Mx
    return "M" if match.group("m") else "F"


def patient_surnames(docs: Sequence[Doc], texts: Sequence[str]) -> Set[str]:
    """The surnames of the Chinese names the notes' patient fields and appositions give the patient."""
    return {ent.text[0] for doc, text in zip(docs, texts) for ent in doc.ents
            if ent.label_ == "PATIENT" and _FULL_NAME_ZH.fullmatch(ent.text)
            and relation_label(text, ent.start_char, ent.end_char) == "PATIENT"}


def relabel_not_the_patient(docs: Sequence[Doc]) -> int:
    """Relabel as FAMILY each name called the patient, with no relation word beside it, whose title
    states the other sex than the patient's notes write, or that is a bare Chinese surname the
    patient's name does not start with; returns how many."""
    texts = [doc_text(doc) for doc in docs]
    sex = patient_sex(texts)
    surnames = patient_surnames(docs, texts)
    if sex is None and not surnames:
        return 0
    changed = 0
    for doc, text in zip(docs, texts):
        changed += relabel_ents(doc, {i: "FAMILY" for i, ent in enumerate(doc.ents)
                                      if _someone_else(text, ent, sex, surnames)})
    return changed


def _someone_else(text: str, ent: Span, sex: Optional[str], surnames: Set[str]) -> bool:
    """Is `ent`, called the patient by the NER or propagation, someone else (module docstring)?"""
    if ent.label_ != "PATIENT" or ent._.source not in ("ner", SOURCE):
        return False
    stated = title_sex(text, ent.start_char, ent.end_char) if sex is not None else None
    other_sex = stated is not None and stated != sex
    other_surname = bool(surnames) and HAN_CHAR.fullmatch(ent.text) is not None and ent.text not in surnames
    return (other_sex or other_surname) and relation_label(text, ent.start_char, ent.end_char) is None


__all__ = ["patient_sex", "patient_surnames", "relabel_not_the_patient", "sex_markers", "title_sex"]
