"""An institution's type word decides its label and where its name ends: `國立成功大學`, `台中監獄`.

WHY: Chinese and English names of institutions end with a word that says what they are (大學, 國小,
醫院, 夜市, 基金會, Hospital, University, Park). A NER that has not seen a name in training often finds
the distinctive part but stops before that word (`[國立成功]大學`, `[台北]果菜市場`), or labels the
whole name by its first part (`[大安國小]` as a STATE, `[高雄醫學大學]` as a HOSPITAL). Neither error
can be undone later: the type word is left in the text, or the surrogate is of the wrong kind. So,
for spans the NER found (never rule or date spans):

- a span followed by its type word, or a name and its type word, grows to it and takes the type word's
  label: cue rules of group `institutions` (`resources/cue_rules/institutions.json`, `end_after` with
  `yields_by: type_word`), run after this module's repair: `[國立成功]大學`, `[德光高]中` (a span that
  stops inside a type word, a name the NER found excepted), `[北京]協和醫院` (a Chinese institution named after its place), `[嘉南]藥理大學`,
  `[Tungs' Taichung] MetroHarbor Hospital`; not where the type word goes on into another word (`大學路`,
  `國小老師`), the span is a generic modifier alone (`[高級]中學`), a department (`[OPH] CLINIC` is the
  department's clinic), or the longer span would reach into the next entity;
- a span that runs on past its type word into two to four more Han characters is an institution and
  the name of a person after it (`[國軍台中總醫院楊勳鴻]` -> `[國軍台中總醫院]` + `[楊勳鴻]`, labelled by
  a relation word next to it, else PERSON), or of a common word, then dropped (`[美術館公園遊蕩]`), unless those characters are a part of the institution
  (`台大醫院新竹分院`, `淡水院區`, `精神科`) or a staff word (`護理師`, `職員`); an English institution
  span drops a trailing `Department` or `Division` (`[Mennonite Christian Hospital] Department of`);
- what a span's own words say it is needs no code and is the same group's rules: a
  general hospital's short name, its name and 綜合 with 醫院 left off (`[郭綜合]`), is a HOSPITAL; a place
  span that ends with a type word (and holds more than it) takes that word's label (`[大安國小]` SCHOOL,
  `[新加坡中央醫院]` HOSPITAL), but a district stays a CITY (`[林園區]`, 園區); a span called a person
  that ends with an English type word takes its label (`[Yuan's General Hospital]` PATIENT), while a
  Chinese name may end as a type word does (`[王中學]`).

A NER that reads one character at a time also leaves a character it has not seen in a name outside
it, or splits a name where a word it knows begins, cutting one institution in two (`[國立]交[通大學]`,
`[國立彰化]師[範大學]`, `[林耳][鼻喉科]診所`); `joined` makes one span of two NER spans at most two name
characters apart when the second is a place or institution (or, after a city, state, country or region,
a name a type word follows: `[台北市]立[萬芳]醫院`, the NER's DOCTOR; or a type word alone, whatever its
label: `[Eden Social Welfare] [Foundation]` PERSON) and the whole, with a type word
right after it, ends with a type word (whose label it takes), and the first is a place, an institution
or a generic modifier (`國立`, whatever label the NER gave it); side by side (`[新加坡][中央醫院]`) only when
no grammatical word or verb meets at the seam (`來[台讀][國立成功大學]` is a place, a verb and a school).
An English name that starts with a number the NER took apart (`[228] [Peace Memorial Park]`) is joined
too.

The type words are the categories of annotation.md (HOSPITAL, SCHOOL, MARKET, GENERAL_BUSINESS and
LOCATION: parks, temples, foundations, prisons, airports). The longest type word wins (`附設醫院`
before `大學` in `高雄醫學大學附設醫院`). Chinese type words of one character (宮, 寺, 廟) relabel a
span but never extend one: `子宮` is an organ.
"""
import re
from typing import List, Optional, Tuple, Union

from spacy.tokens import Doc, Span

from ..wordlists.common_words_zh import plain_han_words
from ..labels import LOCATION_LABELS, NAME_LABELS
from ..cues.labels import relation_label
from ..han import HAN_CHAR
from ..predicates import (is_type_word, name_like,
                         type_word_after, type_word_ending, type_words)
from ..wordlists import word_set, words



# Place labels that name the city, state or country an institution is named after.
NAMED_AFTER_LABELS = frozenset({"CITY", "STATE", "COUNTRY", "REGION"})
_NAME_AFTER_TYPE_WORD = range(2, 5)
_UNIT_AFTER_EN = re.compile(r"[ ](?:Department|Dept\.?|Division)$")


_GAP_IN_NAME = range(0, 3)


def joined(doc: Doc, text: str) -> int:
    """Join NER spans that one institution was cut into (module docstring); returns how many joins."""
    ents = list(doc.ents)
    out: List[Span] = []
    joins = 0
    i = 0
    while i < len(ents):
        ent = ents[i]
        nxt = ents[i + 1] if i + 1 < len(ents) else None
        merged = _joined(doc, text, ent, nxt) if nxt is not None else None
        if merged is not None and i + 2 < len(ents) and ents[i + 2].start_char < merged.end_char:
            merged = None  # the type word after the pair belongs to the next entity
        if merged is None:
            out.append(ent)
            i += 1
        else:
            out.append(merged)
            joins += 1
            i += 2
    if joins:
        doc.ents = out
    return joins


def _joined(doc: Doc, text: str, first: Span, second: Span) -> Optional[Span]:
    if (first._.source or "ner") != "ner" or (second._.source or "ner") != "ner":
        return None
    if second.start_char - first.end_char not in _GAP_IN_NAME:
        return None
    if second.label_ not in LOCATION_LABELS and not (
            # `[台北市]立[萬芳]醫院`: the NER read the hospital's own name as a person's
            second.label_ in NAME_LABELS and first.label_ in NAMED_AFTER_LABELS
            and type_word_after(text, second.end_char) is not None) and not is_type_word(second.text):
        return None  # (`[Eden Social Welfare] [Foundation]` PERSON: the type word alone, whatever its label)
    if not (first.label_ in LOCATION_LABELS or first.text in word_set("generic_modifiers_zh")):
        return None
    gap = text[first.end_char:second.start_char]
    if (gap == " " and second.text[:1].isupper()
            and (first.text.isdigit()
                 or (first.text[:1].isupper() and first.text.isascii() and is_type_word(second.text)))):
        # `[228] [Peace Memorial Park]`: a name that starts with a number; `[Eden Social Welfare]
        # [Foundation]`: its type word apart
        label = type_word_ending(text[first.start_char:second.end_char])
        return doc.char_span(first.start_char, second.end_char, label=label) if label else None
    if (gap and not name_like(gap)) or not HAN_CHAR.match(text, first.end_char - 1):
        return None
    if not gap and second.label_ != "DEPARTMENT" and not name_like(first.text[-1] + second.text[0]):
        return None  # `[台讀][國立成功大學]`: a place and a verb, then a school
    end = second.end_char
    after = type_word_after(text, end)  # `[林耳][鼻喉科]診所`: the type word may follow the second part
    if after is not None:
        end = after[0]
    label = type_word_ending(text[first.start_char:end])
    if label is None:
        return None
    return doc.char_span(first.start_char, end, label=label)


def completed(doc: Doc, text: str, ent: Span,
              following: Optional[Span] = None) -> Optional[Union[Span, Tuple[Span, ...]]]:
    """`ent` with the type word after it, or cut where the institution ends (module docstring), else
    None. `following` is the next entity, which a longer span must not reach."""
    return _ran_past_type_word(doc, text, ent) if ent.label_ in LOCATION_LABELS else None


def _ran_past_type_word(doc: Doc, text: str, ent: Span) -> Optional[Union[Span, Tuple[Span, ...]]]:
    """The institution and the person's name after it, or the English institution without its
    trailing `Department`, when `ent` runs past its type word (module docstring), else None."""
    span = text[ent.start_char:ent.end_char]
    unit = _UNIT_AFTER_EN.search(span)
    if unit is not None and type_word_ending(span[:unit.start()]) is not None:
        return doc.char_span(ent.start_char, ent.start_char + unit.start(), label=ent.label_)
    types = type_words()
    for length in _NAME_AFTER_TYPE_WORD:
        head, tail = span[:-length], span[-length:]
        if len(head) < 3 or not name_like(tail):
            return None
        if (tail.endswith(words("part_endings_zh", "staff_endings_zh")) or tail.startswith(types.continues_zh)
                or any(tail.endswith(w) for w, _ in types.longest_first_zh)):
            continue  # a part of the institution, a staff word, or a second institution (`南機場夜市`)
        label = type_word_ending(head)
        if label is None or not any(head.endswith(w) and len(w) > 1 for w, _ in types.longest_first_zh):
            continue
        name_start = ent.start_char + len(head)
        institution = doc.char_span(ent.start_char, name_start, label=label)
        if institution is not None and plain_han_words(tail, "PERSON"):
            return institution  # `[美術館公園遊蕩]`: the institution, then a common word (`遊蕩`), no name
        name = doc.char_span(name_start, ent.end_char,
                             label=relation_label(text, name_start, ent.end_char) or "PERSON")
        if institution is None or name is None:
            return None
        return institution, name
    return None
