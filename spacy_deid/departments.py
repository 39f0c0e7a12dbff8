"""A department's own words decide its label and where it ends: `[Thoracic Surgery]`, `[外科]收住院`.

WHY: hospital departments are named from a small vocabulary everyone in a hospital knows: a Chinese
department name ends in 科 (`麻醉科`, `心身醫學科`), an English one in a specialty word (Surgery,
Radiology, Psychiatry, Intensive Care Unit) after its modifiers (Thoracic, General, Child and
Adolescent). A NER that has not seen a department in training finds the name but misreads it: it
calls it by the institution before it (`[SGH Thoracic Surgery]` HOSPITAL), by an odd label
(`[麻醉科]` DOCTOR, `[RADIOLOGY]` COUNTRY), or runs on into the words around it (`[外科收住院]`,
`[Ophthalmology clinic]`, `[科別 外科]`, `[of Intensive Care Unit]`). annotation.md keeps the
institution, the field label and the word for the visit outside the department's span; a surrogate
of the wrong kind or length changes what the note says. So, for spans the NER found (never rule or
date spans):

- a DEPARTMENT span that is an institution's name and the unit word of a department's phrase is that
  institution: `[GDH Department of]` Psychiatry -> `[GDH]` HOSPITAL (the NER read the phrase, not the name;
  a cue rule of `departments.json`); one that is an institution's abbreviation and a department's
  English name is split in two (`[SGH Intensive Care Unit]` -> `[SGH]` HOSPITAL, `[Intensive Care Unit]`
  DEPARTMENT);
- a Han span of any of these labels, DEPARTMENT too, that is a hospital and then a Chinese department
  name is split in two (`先送[協和加護病房]` -> `[協和]` HOSPITAL + `[加護病房]`): a hospital the NER
  called so, one whose type word says so, or a short name of two to four characters that passes the
  rules' test of one (`[成人加護病房]` stays);
- a DEPARTMENT span drops a leading field label or `of` (`科別 `, `Department of `) and a trailing
  visit word (`clinic`, `OPD`; `收住院`, `門診` after its 科 or 部), and one that starts with a word for a
  person (`職能治療師`, `社工`) is no unit: the word alone is a PROFESSION, and a name after it a PERSON
  (`[職能治療師呂]老師` -> `[呂]`): the cue rules of group `departments`
  (`resources/cue_rules/departments.json`), which the same step runs after this module's repair;
- a place or name span that ends with a department name is split there: the part before keeps its
  label, the department gets its own span (`[SGH] [Thoracic Surgery]`, `[Chou], [Nephrology]`);

The words are the specialties of medicine, written from general knowledge; abbreviations (SURG, RAD)
are not decided here: an all-capitals word of three letters is as often a hospital as a department.
"""
import re
from functools import lru_cache
from typing import Optional, Tuple, Union

from spacy.tokens import Doc, Span

from .labels import LOCATION_LABELS, NAME_LABELS
from .han import HAN_CHAR
from .place_names_zh import hospital_short_name_zh
from .predicates import department_head, department_word, type_word_ending
from .rules.loading import default_fragment
from .wordlists import word_set

# What follows a department's name in a note without being part of it.
_TRAILING_VISIT_EN = re.compile(r"[ ](?:clinic|opd|service|team|consult|consultation)$", re.IGNORECASE)
_LEADING_OF_EN = re.compile(r"(?:(?:department|dept\.?|division)[ ]+)?of[ ]+", re.IGNORECASE)
_TOKEN = re.compile(r"\S+")

Repaired = Union[Span, Tuple[Span, ...]]


@lru_cache(maxsize=1)
def chinese_department() -> "re.Pattern[str]":
    """A Chinese specialty or ward name of the department rules (`departments.json`, `DEPT_ZH`), the
    longest at a place (`一般外科`, not `外科`)."""
    return re.compile(default_fragment("DEPT_ZH"))


@lru_cache(maxsize=1)
def named_department() -> "re.Pattern[str]":
    """A department name the rules read: a Chinese one, or an English abbreviation in capitals
    (`DEPT_ABBR`) that ends where a word ends (`RAD`, not the start of `RADIUS`)."""
    return re.compile(chinese_department().pattern + r"|(?:" + default_fragment("DEPT_ABBR") + r")(?![A-Za-z0-9])")


def department_start(text: str) -> Optional[Tuple[int, int]]:
    """(where the phrase starts, where the name starts) in `text` for an English department name that
    ends `text` (`Department of [General Surgery]`: the phrase takes `Department of`, the name does
    not), or None when `text` does not end with one."""
    words = list(_TOKEN.finditer(text))
    if not words or not department_head(words[-1].group()) or not words[-1].group()[:1].isupper():
        return None
    start = words[-1].start()
    named = words[-1].group().casefold() not in word_set("generic_heads_en")
    for word in reversed(words[:-1]):
        if not department_word(word.group()):
            break
        start = word.start()
        folded = word.group().casefold()
        named = named or folded not in word_set("connectors_en", "generic_heads_en")
    if not named:  # `Police Department`, `Unit`: a generic head names no department on its own
        return None
    if text[start:].split(" ", 1)[0].casefold() in ("of", "and", "&"):
        # `College of Medicine`, `School of Nursing`: the `of` belongs to the name before it
        return None
    name = start
    # `Department of` and `of` belong to the phrase, not to the name (annotation.md).
    m = _LEADING_OF_EN.match(text, name)
    while m is not None and m.end() < len(text):
        name = m.end()
        m = _LEADING_OF_EN.match(text, name)
    return start, name


def _edges(text: str, start: int, end: int) -> Tuple[int, int]:
    while end > start and not text[end - 1].isalnum():
        end -= 1
    while start < end and not text[start].isalnum():
        start += 1
    return start, end


_ABBREVIATION = re.compile(r"[A-Z]{2,8}")


def _institution_and_department(doc: Doc, text: str, start: int, end: int) -> Optional[Tuple[Span, Span]]:
    """A DEPARTMENT span that is an institution's abbreviation and then a department's English name,
    split into the two (`[SGH Intensive Care Unit]` -> `[SGH]` HOSPITAL, `[Intensive Care Unit]`), else None.
    An abbreviation that names a department itself (`ER`, `OPD`: `named_department`) is none."""
    found = department_start(text[start:end])
    if found is None or found[0] == 0:
        return None
    head = _edges(text, start, start + found[0])
    abbreviation = text[head[0]:head[1]]
    if (head[0] != start or _ABBREVIATION.fullmatch(abbreviation) is None
            or named_department().fullmatch(abbreviation) is not None):
        return None
    hospital = doc.char_span(*head, label="HOSPITAL")
    department = doc.char_span(start + found[1], end, label="DEPARTMENT")
    return None if hospital is None or department is None else (hospital, department)


_HOSPITAL_SHORT_NAME_LENGTHS = range(2, 5)


def _hospital_and_unit_zh(doc: Doc, text: str, start: int, end: int, label: str) -> Optional[Tuple[Span, Span]]:
    """A Han span that is a hospital's short name and then a Chinese department name, split into the two
    (`先送[協和加護病房]` -> `[協和]` HOSPITAL, `[加護病房]` DEPARTMENT), else None. The hospital keeps an
    institution's label the NER gave (`[台大醫院加護病房]` HOSPITAL); a short name must pass the rules'
    test of one (`rules.validators.hospital_short_name_zh`: no common or generic word, `[成人加護病房]`)."""
    if not HAN_CHAR.match(text, start) or chinese_department().match(text, start):
        return None  # `[心臟內科加護病房]` starts with a department: one unit
    for cut in range(start + min(_HOSPITAL_SHORT_NAME_LENGTHS), end - 1):
        unit = chinese_department().match(text, cut)
        if unit is None or unit.end() != end:
            continue
        head = text[start:cut]
        if not (label == "HOSPITAL" or type_word_ending(head) == "HOSPITAL"
                or (len(head) in _HOSPITAL_SHORT_NAME_LENGTHS and hospital_short_name_zh(head))):
            return None
        hospital = doc.char_span(start, cut, label="HOSPITAL")
        department = doc.char_span(cut, end, label="DEPARTMENT")
        return None if hospital is None or department is None else (hospital, department)
    return None


def cut_into_department(text: str, start: int, end: int) -> Optional[int]:
    """Where a Han span that ends inside a department's name should end (`[光田職能]治療科` -> `[光田]`),
    keeping two characters or more, else None: the rules' care frame reads a hospital's short name
    lazily up to a word of care, which may stand inside a department's name (`rules.validators`)."""
    if not HAN_CHAR.match(text[end - 1:end] or " "):
        return None
    for inside in range(1, min(3, end - start - 2) + 1):
        name = chinese_department().match(text, end - inside)
        if name is not None and name.end() > end:
            return end - inside
    return None


def by_department(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Repaired]:
    """`ent` trimmed, relabelled or split by the department name it holds (module docstring), else None."""
    s, e = ent.start_char, ent.end_char
    if ent.label_ == "DEPARTMENT":
        return _institution_and_department(doc, text, s, e) or _hospital_and_unit_zh(doc, text, s, e, ent.label_)
    if ent.label_ not in LOCATION_LABELS and ent.label_ not in NAME_LABELS:
        return None
    split = _hospital_and_unit_zh(doc, text, s, e, ent.label_)
    if split is not None:
        return split
    part = text[s:e]
    visit = _TRAILING_VISIT_EN.search(part)
    if visit is not None and department_start(part[:visit.start()]) == (0, 0):
        # `[GERIATRICS CLINIC]` HOSPITAL: a department's clinic, named by the department
        return doc.char_span(s, s + visit.start(), label="DEPARTMENT")
    found = department_start(part)
    if found is None:
        return None
    phrase, name = found
    dept = doc.char_span(s + name, e, label="DEPARTMENT")
    if dept is None:
        return None
    before = _edges(text, s, s + phrase)
    # What is left before the department must still name something: two letters or more.
    if before[1] - before[0] < 2:
        return dept
    head = doc.char_span(*before, label=ent.label_)
    return dept if head is None else (head, dept)


