"""Can this text be a span of this label at all? A shape check for statistical (NER) spans.

WHY: a NER trained on synthetic notes, run on real text, tags things no annotator could: `>` as a
PHONE, `w` as a DOCTOR, a bare number as a PROFESSION. The rules and the date finder never produce
such spans (their patterns are the shapes), but a model can. The shapes here follow the label
definitions of docs/annotation.md and nothing else:

- every span holds at least one letter or digit (Han characters are letters);
- the shapes a regular expression states are the `shapes` cue rules (`resources/cue_rules/shapes.json`,
  saved with the pipeline, read by `fits_label`): an AGE or NUMBER holds a numeral, an identifier a
  digit, an e-mail `@`; a name or profession one letter at least, no digit and more than one ASCII
  character; names, professions and places are no function word and hold no web or mail address; a
  profession is no word for a person or a means of harm; an organisation is not one Han character; a
  Chinese STREET holds the word that makes it a street; a NATIONALITY names a country;
- a DATE holds a digit or a Chinese numeral (`九月`) or names an English month (`Dec`); a DATE with numerals and other words or signs holds a date the date finder
  reads (`03-7452939 ext. 9558`, `14:30`, `180k`, `3 days` are not dates, and a model that calls them
  one would win the overlap against the phone the rules found, by being longer), while numerals with
  date marks only (`2003`, `90年`, `970922`) pass: whether they are dates depends on context the
  finder does not see in the span alone (but not cut at a mark, `[86 -]`, nor two numbers neither of which
  is a month, `[65 - 85]`: rules of `shapes`) — and a run of ASCII digits alone is a date only with 4
  (year), 6, 7 or 8 digits (`970922`, `1190220`, `20211225`): `180`, `12` or `55` alone are values,
  and four digits are a year only within the date finder's years (1800–2399): four digits with a
  leading zero are a time of day (`0600`, `1900-0700`: not PHI, annotation.md), and `5400` or `1200`
  a count (`WBC 5400`, `TG 1200`);
- a PHONE holds no Han character and no more letters than digits (`(1) NTUH` is a list marker
  and a hospital), no unit, percent sign, decimal or slash between short groups (`75-100cc`, `104.4`,
  `50-60/23-25`: amounts and vital signs), is not one clock reading (`0130`, `2400`), and is not a shift
  written as two clock readings starting with 0 or 1 (`1900-0700`, `0200-0600`: no local number in
  Taiwan starts with either, and a full number has ten digits);
- a PROFESSION is not a place of work without a name (`noodle shop`, `convenience store`, `早餐店`: where, not what; a named one,
  `Lincoln High School`, is PHI of another label and is kept): rules of `shapes` too;
- a name of one Han character stands next to its title: annotation.md keeps titles outside the span
  (`[葉]醫師`, `[陳]先生`, `Dr. [王]`), so a lone surname is written with one after it (先生, 醫師,
  阿姨…), an English title, a role (`社工 [謝]`, `主治醫師: [王]`) or 老/小/阿 before it (`老[王]`),
  or it is the start of a longer name the model cut short (`[石]霞`); a single character with none
  of these is a word the model misread (`班[別] 小夜` in a nursing header). This check and the next
  read the span's neighbours;
- a number right before a unit is an amount (`[50] mcg/hr`, `[1200] kcal`), and four digits in a
  time-of-day context are a clock reading (`at [2045]`, `[2200] hrs`, `晚上 [2300]`, `[2300] to 0600`;
  `dates/nondates.py`), and a number of years after a verb that lasts or an aspect particle is a
  length of time (`上班[22年]`, `結婚 [20 年]`, `做過 [3 年]`; `nondates.years_of_duration`); values read
  from the words around them are the `not_phi` cue rules', run before this check
  (`resources/cue_rules/`): measured values (`FS [180]`, `BP [120/80]`, `HR in the [70]'s`), a
  language someone speaks (`[Spanish] speaking`) and a public hotline's number (`call [911]`);
- an AGE of digits is written as an age: a unit, field, sex letter, apposition or column header beside
  it; a bare number (`, [60] at discharge`) is not (the `not_phi` rules of `ages.json`, run before);
- names, professions and location labels are not a medication or a chart shorthand (`Cymbalta`,
  `CVP`, `PRN`; `clinical_terms`), nor two of them joined by `to`, `and`, an arrow or a slash
  (`[Lamictal to Cymbalta]`), nor one with its dose (`[Effexor 200] mg/day`): closed-class clinical
  vocabulary, never a value of a PHI lexicon;
- names and location labels are not common English words in a case that marks no name: all
  capitals, lower case, or the first word of a line or sentence (`[TOMORROW]`, `[Grew] up near`,
  `([niece])`), unless a title stands beside them (`Dr. [WILL]`); `common_words` says why and which
  words (none of a name or place in the lexicons or in Faker's name lists); a person's name is no run
  of frequent words that are only parts of places' names, words of grammar or clinical terms either
  (`[NEPHEW ON PHONE]`, `[INSULIN GTT]`: `common_words.ordinary_word`); nor, in Han script, which
  has no case, common Chinese words (`[說明]` FAMILY, `[發現學童]` PERSON, `[工地]` GENERAL_BUSINESS;
  `common_words_zh` says which, and why a place is judged only when it is one word);
- names and location labels are proper names: their brackets are balanced (`supervisor)參加` ran
  over a bracket into the next words), and an English place does not start with a lower-case word
  before a capitalised one (`holds an ARC`: a phrase around a name, not a name; a note typed all in
  lower case passes, and so do particles, `de la Cruz`; names of people are spared this test, as
  hurried notes write `sung Hsiung-Cheng`).

A span that fails is dropped rather than relabelled: the check knows what a label cannot be, not
what the span is.
"""
import re
from typing import Callable, Dict, Iterable, List

from spacy.tokens import Doc, Span

from ..wordlists.clinical_terms import clinical_terms_joined, is_clinical_term
from ..wordlists.common_words import hyphenated_word, plain_words
from ..wordlists.common_words_zh import plain_han_words, spoken_before_words
from ..dates.finder import FIRST_YEAR, LAST_YEAR, find_readings
from ..dates.nondates import (clock_time, hhmm, is_amount, is_number_or_range, unit_after, unmistakable_clock,
                             years_of_duration)
from ..dates.numerals import NUMERAL_CHARS
from ..doctext import doc_text
from ..han import HAN_CHAR
from ..labels import LOCATION_LABELS, NAME_LABELS
from ..cues import current_cue_rules
from ..cues.labels import titled

_HAS_ALNUM = re.compile(r"[^\W_]")
_HAS_DIGIT = re.compile(r"\d")
_HAS_NUMERAL = re.compile(rf"[\d{NUMERAL_CHARS}]")
_HAS_MONTH = re.compile(r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)")
_NUMERALS_AND_DATE_MARKS = re.compile(rf"[\d{NUMERAL_CHARS}年月日號号/.\-~～ ]+")
# Compact dates of digits alone (`970922`, `1190220`, `20211225`); four digits are a year (`_date`).
_COMPACT_DATE_LENGTHS = (6, 7, 8)
# Four digits with a leading zero, or 2400, are a clock time (`nondates.unmistakable_clock`); a range
# of four-digit groups with one of them is a shift (`1900-0700`, `1600-2400`).
_CLOCK_TIME_RANGE = re.compile(r"[0-9]{4}[ ]?[-–~][ ]?[0-9]{4}")


def _date(text: str) -> bool:
    if _HAS_NUMERAL.search(text) is None:
        return _HAS_MONTH.search(text) is not None
    if text.isascii() and text.isdigit():
        if len(text) == 4:
            return FIRST_YEAR <= int(text) <= LAST_YEAR  # `0600`, `2400`, `5400`: no year
        return len(text) in _COMPACT_DATE_LENGTHS
    if _CLOCK_TIME_RANGE.fullmatch(text):
        return not any(unmistakable_clock(part.strip()) for part in re.split(r"[-–~]", text))
    return _NUMERALS_AND_DATE_MARKS.fullmatch(text) is not None or bool(find_readings(text))


def _phone(text: str) -> bool:
    """A PHONE holds a digit and no more Latin letters than digits (`2312-3456 ext.
    12` keeps more digits than letters; `(1) NTUH`, a list marker before a hospital, is no number), is not
    four digits with a leading zero or 2400 (`0130`, `0600`: a clock reading, `nondates.unmistakable_clock`;
    no local number, extension or hotline is written so), and is not a
    shift written as two clock readings, one with a leading zero, that starts with 0 or 1 (`0700-1900`,
    `1900-0700`, `0200-0600`): Taiwan's local numbers start with 2 to 9, and a number with its area code
    or a mobile number has ten digits. No Han character and no amount (`75-100cc`, `104.4`): rules of
    `shapes`."""
    if not _digit(text) or unmistakable_clock(text):
        return False  # `0130 及 0430 各醒一次`: clock readings
    if sum(ch.isascii() and ch.isalpha() for ch in text) > sum(ch.isdigit() for ch in text):
        return False
    if text[:1] in "01" and _CLOCK_TIME_RANGE.fullmatch(text):
        parts = [part.strip() for part in re.split(r"[-–~]", text)]
        return not (all(hhmm(part) for part in parts) and any(unmistakable_clock(p) for p in parts))
    return True


def _digit(text: str) -> bool:
    return _HAS_DIGIT.search(text) is not None


def _can_name(text: str) -> bool:
    """What names, professions and places share (besides the `shapes` rules'): no clinical vocabulary."""
    return not is_clinical_term(text) and not clinical_terms_joined(text)


def _balanced(text: str) -> bool:
    return text.count("(") + text.count("（") == text.count(")") + text.count("）")


def _person(text: str) -> bool:
    # Not the lower-case word test: a hurried note writes `sung Hsiung-Cheng`, and a name is kept;
    # but a lower-case hyphenated chart word (`co-sign`, `well-groomed`) names no one.
    return _can_name(text) and _balanced(text) and not hyphenated_word(text)


def _place(text: str) -> bool:
    return _can_name(text) and _balanced(text)


def lone_surname(text: str, start: int, end: int, label: str) -> bool:
    """A name span of one Han character with no title beside it (see the module docstring). A Han
    character right after it keeps it: the model may have cut a longer name short (`[石]霞`), and
    the part it found is still PHI to replace."""
    return (label in NAME_LABELS and end - start == 1 and HAN_CHAR.match(text, start) is not None
            and HAN_CHAR.match(text, end) is None and not titled(text, start, end))


# Labels of proper names: a PROFESSION is an ordinary word (`teacher`), a NUMBER or ROOM holds digits.
_PROPER_NAME_LABELS = (NAME_LABELS | LOCATION_LABELS) - {"NUMBER", "ROOM"}


def plain_word_name(text: str, start: int, end: int, label: str) -> bool:
    """A name or place span of common English words in a case that marks no name, or of common
    Chinese words (`common_words_zh`: any number for a name, one for a place), with no title beside
    it (see the module docstring), or a name of a sound of speech before common words (`[阿所以]`)."""
    return label in _PROPER_NAME_LABELS and (
        (label in NAME_LABELS and spoken_before_words(text[start:end]))
        or ((plain_words(text, start, end, person=label in NAME_LABELS) or plain_han_words(text[start:end], label))
            and not titled(text, start, end)))


def measured_amount(text: str, start: int, end: int, label: str) -> bool:
    """A NER span of a number or a range right before a unit or a thing counted (`[50] mcg/hr` as an
    AGE, `[1200] kcal`, `[2-3] glasses` as a DATE) or holding its unit (`[76mmHg]` as a ROOM), or four
    digits that are a time of day in their context (`at [2045]` as a DATE, `上午 [0900]` as a PHONE): an
    amount or a clock reading, not PHI (`nondates`), whatever label the model gave it."""
    span = text[start:end]
    if is_amount(span):
        return True  # `[76mmHg]` as a ROOM
    return is_number_or_range(span) and (unit_after(text, end) or clock_time(text, start, end))


def _alnum(text: str) -> bool:
    return _HAS_ALNUM.search(text) is not None


# The shapes that need code, by label; the `shapes` cue rules hold the others.
SHAPE_OF: Dict[str, Callable[[str], bool]] = {
    "DATE": _date,
    "PHONE": _phone,
    "PROFESSION": _can_name,
    **{label: _person for label in NAME_LABELS},
    **{label: _place for label in LOCATION_LABELS if label != "NUMBER"},
}
SHAPES_GROUP = "shapes"  # the cue rules (`resources/cue_rules/shapes.json`) that say what a label's text cannot be


def fits_label(text: str, label: str) -> bool:
    """Could `text` be a span of `label` under the annotation conventions: a letter or digit, the check
    of `SHAPE_OF`, and no rule of the `shapes` group in force saying otherwise?"""
    if not _alnum(text):
        return False
    check = SHAPE_OF.get(label)
    if check is not None and not check(text):
        return False
    return current_cue_rules().apply(text, 0, len(text), label, SHAPES_GROUP) is None


def drop_misshapen(doc: Doc, sources: Iterable[str] = ("ner",)) -> List[Span]:
    """Remove from `doc.ents` the spans from `sources` (an unset source counts as "ner") whose text
    cannot carry their label; returns the removed spans (for counting, never for logging: PHI).
    A DATE with the bounds of a date the finder reads in the note stays: the finder read it in its
    context, with its vetoes (`s/p mi '[97]`), and a NER that agrees with it must not weaken it
    (`deid_dates` keeps such a span the NER's, and the finder's own span is never checked)."""
    wanted = set(sources)
    kept, dropped = [], []
    text = doc_text(doc)
    finder_dates = None
    for ent in doc.ents:
        source = ent._.source or "ner"
        if source in wanted and ent.label_ == "DATE":
            if finder_dates is None:
                finder_dates = {(start, end) for start, end, _ in find_readings(text)}
            if (ent.start_char, ent.end_char) in finder_dates:
                kept.append(ent)
                continue
        if source in wanted and (not fits_label(ent.text, ent.label_)
                                 or lone_surname(text, ent.start_char, ent.end_char, ent.label_)
                                 or plain_word_name(text, ent.start_char, ent.end_char, ent.label_)
                                 or measured_amount(text, ent.start_char, ent.end_char, ent.label_)
                                 or (ent.label_ == "DATE" and years_of_duration(text, ent.start_char, ent.end_char))):
            dropped.append(ent)
        else:
            kept.append(ent)
    if dropped:
        doc.ents = kept
    return dropped
