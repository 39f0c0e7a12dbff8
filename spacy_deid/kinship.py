"""A name right after a kinship word is a relative's: `配偶: [劉宏鴻]`, `小兒子[徐珍春]`, `wife [Mary]`.

WHY: which of PATIENT, FAMILY, PERSON or DOCTOR a name is depends on the words around it, and a NER
that has not seen a note's phrasing guesses. A kinship word directly before the name (with at most a
colon and spaces between) says what the name is, by the definition of FAMILY in annotation.md.
Cohabitants (同居人) and partners are not relatives by that definition and are not in the list; nor
is 先生 alone, which is also `Mr`. `repairs` applies it to NER spans only, never rule spans.
"""
import re
from typing import Optional

from spacy.tokens import Doc, Span

from .labels import NAME_LABELS

KINSHIP_ZH = ("配偶", "太太", "妻子", "丈夫", "老公", "老婆", "前妻", "前夫", "女兒", "兒子", "長子", "長女", "次子",
              "次女", "孫子", "孫女", "媳婦", "女婿", "父親", "母親", "爸爸", "媽媽", "哥哥", "弟弟", "姊姊",
              "姐姐", "妹妹", "大哥", "二哥", "大姊", "二姊", "大姐", "二姐", "阿嬤", "阿公", "外婆", "外公",
              "奶奶", "爺爺", "叔叔", "伯伯", "舅舅", "阿姨", "姑姑", "堂哥", "堂姊", "表哥", "表姊", "表妹",
              "表弟", "家屬")
KINSHIP_EN = ("wife", "husband", "spouse", "son", "daughter", "mother", "father", "brother", "sister",
              "aunt", "uncle", "cousin", "niece", "nephew", "grandson", "granddaughter", "grandmother",
              "grandfather", "mom", "dad", "stepson", "stepdaughter", "stepmother", "stepfather")
_BEFORE = re.compile(
    "(?:(?:" + "|".join(sorted(KINSHIP_ZH, key=len, reverse=True)) + ")"
    + r"|(?<![A-Za-z])(?i:" + "|".join(sorted(KINSHIP_EN, key=len, reverse=True)) + r"))[ ]?[:：]?[ ]?$")
# The longest kinship word plus a colon and spaces.
_WINDOW = max(len(w) for w in KINSHIP_ZH + KINSHIP_EN) + 3


def after_kinship_word(text: str, start: int) -> bool:
    """Does a kinship word stand right before offset `start`?"""
    return _BEFORE.search(text[max(0, start - _WINDOW):start]) is not None


def as_relative(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` as FAMILY when it is a name of another kind right after a kinship word, else None."""
    if ent.label_ in NAME_LABELS and ent.label_ != "FAMILY" and after_kinship_word(text, ent.start_char):
        return Span(doc, ent.start, ent.end, label="FAMILY")
    return None
