"""A hospital's unit written right after the hospital, found where no recognizer found anything:
`[NTUH] [RAD]`, `[Kuo General Hospital] [Radiology]`, `[門諾] [老年醫學科]`, `[高雄市立聯合醫院][加護病房]`.

WHY: notes name a department after its hospital (a referral's `To:` line, a summary faxed to a ward, a
consultant's signature), and annotation.md makes the department PHI of its own (DEPARTMENT). The NER,
meeting such a line in a phrasing it has not seen, often finds the hospital and stops; the department
rules need a field, an admission or a visit word beside the department, which these lines lack. The
hospital before it is the cue: a department name that starts right after a HOSPITAL span (nothing or one
space between) is that hospital's unit. The names are the ones the rules read: the Chinese specialty
and ward names and the English department abbreviations of `resources/patterns/departments.json`
(fragments `DEPT_ZH`, `DEPT_ABBR`, the abbreviations in capitals only; `departments.named_department`), and English department names
that `departments` reads (`Thoracic Surgery`, `INTENSIVE CARE UNIT`).
Only text outside every entity gets a span, and only where it aligns with tokens; the span's source is
`unit`. A "hospital" that is the first words of the department name (`Return to [THORACIC] SURGERY OPD`,
the NER's HOSPITAL) was the department's own start: the two become one DEPARTMENT.

The mirror: a Chinese department found by any recognizer names the hospital written right before it
where nothing was found, when a verb of sending or moving a patient stands before that (送 至 到 轉 往 於 在
入 進 住 回 去): a hospital's short name of two characters the NER never saw (`先送[協和]加護病房`,
`轉至[彰基]精神科`). The name must pass the rules' test of a hospital's short name in a care frame (no
common, generic or grammatical word: `轉入[成人]加護病房`, `送[本院]急診`;
`rules.validators.validate_care_place_zh`). Without such a verb, the words before a department are as
often a field's label or a consult (`科別 外科`, `會診老年醫學科`) as a hospital. Its source is `unit` too.
"""
import re
from typing import List, Optional, Tuple

from spacy.tokens import Doc, Span

from .departments import chinese_department, department_start, named_department
from .doctext import doc_text
from .overlap import taken_characters
from .rules.validators import validate_care_place_zh
from .spanedges import LEADING_PREPOSITIONS

SOURCE = "unit"
LABEL = "DEPARTMENT"
HOSPITAL = "HOSPITAL"
# Verbs of sending or moving a patient, after which a hospital's name stands (`先送`, `轉至`): the
# prepositions of place a place span drops, and 送 轉 入 進.
_SENT_BEFORE = LEADING_PREPOSITIONS | frozenset("送轉入進")
# English words of a department name (`Thoracic Surgery`, `Child and Adolescent Psychiatry`), at most five.
_EN_WORDS = re.compile(r"[A-Za-z&][A-Za-z&.]*(?:[ ][A-Za-z&][A-Za-z&.]*){0,4}")


def _english_unit_end(text: str, start: int) -> Optional[int]:
    """The end of the longest English department name at `start` (`Radiology`, `Intensive Care Unit`),
    or None."""
    match = _EN_WORDS.match(text, start)
    if match is None or not text[start].isupper():
        return None
    words = list(re.finditer(r"\S+", match.group()))
    for last in range(len(words), 0, -1):
        end = start + words[last - 1].end()
        if end < len(text) and text[end].isalnum():
            continue
        if department_start(text[start:end]) == (0, 0):
            return end
    return None


def unit_after(text: str, hospital_end: int) -> Optional[Tuple[int, int]]:
    """(start, end) of a department name right after a hospital ending at `hospital_end`, or None."""
    start = hospital_end + 1 if text.startswith(" ", hospital_end) else hospital_end
    if start >= len(text) or start == hospital_end and text[start:start + 1].isascii():
        return None  # an English name needs its space: `NTUHED` is one word
    named = named_department().match(text, start)
    if named is not None:
        return start, named.end()
    end = _english_unit_end(text, start)
    return None if end is None else (start, end)


def hospital_before_unit(text: str, unit_start: int) -> Optional[Tuple[int, int]]:
    """(start, end) of a hospital's short name right before the Chinese department at `unit_start`
    (module docstring), or None."""
    start = unit_start - 2
    if start < 1 or text[start - 1] not in _SENT_BEFORE:
        return None
    return (start, unit_start) if validate_care_place_zh(text, start, unit_start) else None


def _hospitals_before_units(doc: Doc, text: str, taken: List[bool]) -> List[Span]:
    added = []
    for ent in doc.ents:
        if ent.label_ != LABEL or not chinese_department().match(text, ent.start_char):
            continue
        found = hospital_before_unit(text, ent.start_char)
        if found is None or any(taken[found[0]:found[1]]):
            continue
        span = _claimed(doc, taken, found[0], found[1], HOSPITAL, found)
        if span is not None:
            added.append(span)
    return added


def _claimed(doc: Doc, taken: List[bool], start: int, end: int, label: str,
             found: Tuple[int, int]) -> Optional[Span]:
    """A span of `label` from `start` to `end` with this step's source, the characters of `found`
    marked taken; None where it does not align with the tokens."""
    span = doc.char_span(start, end, label=label)
    if span is None:
        return None
    for i in range(*found):
        taken[i] = True
    span._.source = SOURCE
    return span


def hospital_units(doc: Doc) -> List[Span]:
    """Add to `doc.ents` the departments written right after a hospital, and the hospitals written right
    before a Chinese department, where no entity stands (module docstring); returns the added spans (for
    counting, never for logging: PHI)."""
    text = doc_text(doc)
    taken = taken_characters(doc, len(text))
    added, replaced = [], []
    for ent in doc.ents:
        if ent.label_ != HOSPITAL:
            continue
        found = unit_after(text, ent.end_char)
        if found is None or any(taken[found[0]:found[1]]):
            continue
        start = ent.start_char if department_start(text[ent.start_char:found[1]]) == (0, 0) else found[0]
        span = _claimed(doc, taken, start, found[1], LABEL, found)
        if span is None:
            continue
        added.append(span)
        if start != found[0]:
            replaced.append((ent.start_char, ent.end_char))
    if added:
        kept = [e for e in doc.ents if (e.start_char, e.end_char) not in replaced]
        doc.ents = sorted(kept + added, key=lambda s: s.start)
    hospitals = _hospitals_before_units(doc, text, taken)
    if hospitals:
        doc.ents = sorted(list(doc.ents) + hospitals, key=lambda s: s.start)
    return added + hospitals
