"""A place where the patient works, said so by the words around it, is a business: `在[中鋼]上班`.

WHY: a company's name carries no type word (`中油`, `鼎泰豐`, `IKEA`, `Bafang Dumpling`), so a NER
that has not seen it guesses the label from its characters: a city (`[中油]` CITY), a hospital, a
school, even a person. The sentence says what it is: someone works there, goes off to work or quits
it. annotation.md calls an employer GENERAL_BUSINESS, and a surrogate of the wrong kind changes what
the note says (`在[台中市]上班`). So a span the NER found gets that label when it stands in a frame of
work:
- Chinese: a locative word right before it (在, 於, 從, 回, 到, 去) and a word of work right after it
  (上班, 下班, 工作, 任職, 打工, 兼職): `於[鼎泰豐]工作時`, `從[肯德基]下班`, `回[中油]上班`;
- English: `works at`, `working for`, `works remotely for`, `employed at`, `job at`, `quit`, `laid off
  by`, `fired from`, `resigned from` right before it, or one of its sites right after it (`the [IKEA]
  plant`, `a [Din Tai Fung] outlet`);
- Chinese shifts count as work: `當時在[全家]上大夜班`.
It keeps its label when it is a known place (`在[台北]工作` is the city where one works, the phrase lists
of `resources/patterns/places.json` know it), when it ends with a type word of an institution of
another kind (`在[台大醫院]上班` is a hospital; `institutions.type_word_ending`), and when it is a
department or an identifier. `employed by` is left out: people employ too (`employed by [Yang]`).
"""
import re
from functools import lru_cache
from typing import FrozenSet, Optional

from spacy.tokens import Doc, Span

from .predicates import type_word_ending
from .rules.loading import load_default_patterns
from .labels import LOCATION_LABELS, NAME_LABELS

WORKPLACE_LABEL = "GENERAL_BUSINESS"
# Labels a NER gives an unseen company; a department is where someone works inside a hospital.
_RELABELLED = (LOCATION_LABELS | NAME_LABELS) - {WORKPLACE_LABEL, "DEPARTMENT", "ROOM", "NUMBER", "STREET"}
_BEFORE_ZH = re.compile(r"[在於從回到去][ ]?$")
_AFTER_ZH = re.compile(r"[ ]?(?:上班|下班|工作|任職|打工|兼職|上[大小]?夜班|上早班|輪班)")
_BEFORE_EN = re.compile(r"(?i:\b(?:works?|working|worked|employed|job|jobs|employment)[ ](?:remotely[ ])?(?:at|for)"
                        r"|\bquit(?:[ ](?:his|her|the)[ ]job[ ]at)?"
                        r"|\b(?:laid[ ]off|fired|resigned|dismissed)[ ](?:by|from))[ ]$")
# A company's own sites after its name (`the [IKEA] plant`, `above a [Din Tai Fung] outlet`): no person,
# hospital or school has them.
_AFTER_EN = re.compile(r"[ ](?:plant|factory|outlet|warehouse)s?(?![A-Za-z])")
_WINDOW_BEFORE = 32


@lru_cache(maxsize=1)
def place_phrases() -> FrozenSet[str]:
    """Every phrase of the shipped place lists (countries, cities, states, regions), case-folded."""
    return frozenset(p.casefold() for rule in load_default_patterns()
                     if rule.label in LOCATION_LABELS for p in rule.phrases)


def named_otherwise(name: str, label: str) -> bool:
    """Is `name` a known place (`台北`), or an institution whose type word gives it a label other than
    `label` (`台大醫院` for a business)? Either way the frame around it does not name it."""
    return name.casefold() in place_phrases() or type_word_ending(name) not in (None, label)


def in_work_frame(text: str, start: int, end: int) -> bool:
    """Do the words around text[start:end] say someone works there?"""
    before = text[max(0, start - _WINDOW_BEFORE):start]
    if _BEFORE_EN.search(before) or _AFTER_EN.match(text, end):
        return True
    return _BEFORE_ZH.search(before) is not None and _AFTER_ZH.match(text, end) is not None


def as_workplace(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` relabelled GENERAL_BUSINESS when it is a workplace (module docstring), else None."""
    if ent.label_ not in _RELABELLED or not in_work_frame(text, ent.start_char, ent.end_char):
        return None
    if named_otherwise(text[ent.start_char:ent.end_char], WORKPLACE_LABEL):
        return None
    return Span(doc, ent.start, ent.end, label=WORKPLACE_LABEL)
