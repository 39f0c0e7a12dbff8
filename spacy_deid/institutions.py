"""An institution's type word decides its label and where its name ends: `國立成功大學`, `台中監獄`.

WHY: Chinese and English names of institutions end with a word that says what they are (大學, 國小,
醫院, 夜市, 基金會, Hospital, University, Park). A NER that has not seen a name in training often finds
the distinctive part but stops before that word (`[國立成功]大學`, `[台北]果菜市場`), or labels the
whole name by its first part (`[大安國小]` as a STATE, `[高雄醫學大學]` as a HOSPITAL). Neither error
can be undone later: the type word is left in the text, or the surrogate is of the wrong kind. So,
for spans the NER found (never rule or date spans):

- a span followed directly by a type word takes it, and the type word's label (`[國立成功大學]` SCHOOL),
  unless the type word goes on into another word (`大學路` is a street, `國小老師` a profession:
  annotation.md keeps `英語補習班老師` whole as a PROFESSION), or the span alone is a generic
  modifier (`[高級]中學`), or the longer span would reach into another entity;
  A department span is never extended: `[OPH] CLINIC` is the department's clinic;
- a span that stops inside a type word takes the rest of it, and its label (`[德光高]中` ->
  `[德光高中]` SCHOOL, `[文藻外語大]學`), when at least two name characters come before the type word; a
  span the NER called a person's name only when the type word does not go on into a common word
  (`[王建國]小時候` is a name before 小時);
- an English span followed by one to three more capitalised words (each may follow `and`, `of` or `&`;
  `and` and `&` not right after a span of one word: `[Taipei] and Taichung Hospital` is a list) and a
  type word takes them (`[Tungs' Taichung] MetroHarbor Hospital` DOCTOR ->
  `[Tungs' Taichung MetroHarbor Hospital]` HOSPITAL, `[Taipei Fruit] and Vegetable Market`);
- an institution span (of a label with type words) followed by a name of two or three characters and a
  type word takes both, with the type word's label (`[嘉南]藥理大學` HOSPITAL -> `[嘉南藥理大學]` SCHOOL,
  `[文藻]外語大學`);
- a Chinese institution is named after its place (`北京協和醫院`, `臺北市立關渡醫院`, `高雄醫學大學`), and a
  NER that knows the place but not the name stops at the place (`[北京]協和醫院` CITY); so a city,
  state, country or region span followed by a name of two to five Han characters and a type word
  takes them both, with the type word's label (and a second type word right after it, as in
  `高雄醫學大學附設醫院`, HOSPITAL), when the name holds no grammatical character (`的`,
  `在`, `某`, `家`...: `[台北]的醫院`, `[台北]某醫院` name no institution) and a name of one character
  does not count (`[台東縣]分公司` is a company's branch in that county);
- a span that runs on past its type word into two to four more Han characters is an institution and
  the name of a person after it (`[國軍台中總醫院楊勳鴻]` -> `[國軍台中總醫院]` + `[楊勳鴻]`, labelled by
  a relation word next to it, else PERSON), or of a common word, then dropped (`[美術館公園遊蕩]`), unless those characters are a part of the institution
  (`台大醫院新竹分院`, `淡水院區`, `精神科`) or a staff word (`護理師`, `職員`); an English institution
  span drops a trailing `Department` or `Division` (`[Mennonite Christian Hospital] Department of`);
- what a span's own words say it is needs no code and is the cue rules of group `institutions`
  (`resources/cue_rules/institutions.json`), which the same step runs after this module's repair: a
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

from .common_words_zh import common_words_zh, plain_han_words
from .labels import LOCATION_LABELS, NAME_LABELS
from .cues.labels import relation_label
from .han import HAN_CHAR
from .predicates import (TYPE_WORD_LABELS, is_type_word, name_like,
                         type_word_after, type_word_ending, type_words)
from .wordlists import word_set, words



# Place labels that name the city, state or country an institution is named after.
NAMED_AFTER_LABELS = frozenset({"CITY", "STATE", "COUNTRY", "REGION"})
_NAME_BEFORE_TYPE_WORD = range(2, 6)
_NAME_BEFORE_TYPE_WORD_OF_INSTITUTION = range(2, 4)
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
    if not (ent.label_ in LOCATION_LABELS or ent.label_ in NAME_LABELS):
        return None
    if ent.label_ in LOCATION_LABELS:
        cut = _ran_past_type_word(doc, text, ent)
        if cut is not None:
            return cut
    # A department before `Clinic` is that department's clinic (`[OPH] CLINIC`), not a hospital.
    return _extended(doc, text, ent, following) if ent.label_ != "DEPARTMENT" else None


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


def _named_after_place(text: str, ent: Span) -> Optional[Tuple[int, str]]:
    """(end, label) of the institution named after the place `ent` (module docstring), else None."""
    if not HAN_CHAR.match(text, ent.end_char - 1):
        return None
    place = ent.label_ in NAMED_AFTER_LABELS
    if not place and ent.label_ not in TYPE_WORD_LABELS:
        return None
    for length in _NAME_BEFORE_TYPE_WORD if place else _NAME_BEFORE_TYPE_WORD_OF_INSTITUTION:
        name = text[ent.end_char:ent.end_char + length]
        if len(name) < length or not name_like(name) or name in word_set("near_words_zh"):
            return None
        found = type_word_after(text, ent.end_char + length)
        if found is not None:
            return found
    return None


def _type_word_finished(text: str, ent: Span) -> Optional[Tuple[int, str]]:
    """(end, label) of the type word `ent` stops inside of (module docstring), else None."""
    span = text[ent.start_char:ent.end_char]
    types = type_words()
    if span[-1:] not in types.prefix_ends_zh:
        return None
    for word, label in types.longest_first_zh:
        for cut in range(len(word) - 1, 0, -1):
            if not (span.endswith(word[:cut]) and text.startswith(word[cut:], ent.end_char)):
                continue
            name = span[:len(span) - cut]
            end = ent.end_char + len(word) - cut
            if len(name) < 2 or not name_like(name) or text.startswith(types.continues_zh, end):
                continue
            if ent.label_ in NAME_LABELS and text[end - 1:end + 1] in common_words_zh():
                continue
            return end, label
    return None


# A capitalised English word of an institution's name (`MetroHarbor`, `Kai-Syuan`, `Tungs'`), or one
# joined to the name by `and`, `of` or `&` (`Taipei Fruit and Vegetable Market`).
_EN_NAME_WORD = re.compile(r"(?:[ ](?:and|of|AND|OF|&))?[ ][A-Z][A-Za-z'’-]*")
_EN_NAME_WORDS_BEFORE_TYPE_WORD = 3


def _english_name_then_type_word(text: str, ent: Span) -> Optional[Tuple[int, str]]:
    """(end, label) of an English type word after one to three more capitalised words of the name
    (`[Tungs' Taichung] MetroHarbor Hospital`), else None."""
    if not ent.text[:1].isupper() or not ent.text[-1:].isalpha() or not ent.text.isascii():
        return None
    end = ent.end_char
    for _ in range(_EN_NAME_WORDS_BEFORE_TYPE_WORD):
        word = _EN_NAME_WORD.match(text, end)
        if word is None or (end == ent.end_char and " " not in ent.text
                            and word.group()[1:].startswith(("and ", "AND ", "& "))):
            return None  # `[Taipei] and Taichung Hospital`: a one-word place before `and` starts a list
        end = word.end()
        found = type_word_after(text, end)
        if found is not None:
            return found
    return None


def _extended(doc: Doc, text: str, ent: Span, following: Optional[Span]) -> Optional[Span]:
    found = (type_word_after(text, ent.end_char) or _named_after_place(text, ent)
             or _type_word_finished(text, ent) or _english_name_then_type_word(text, ent))
    if found is None or text[ent.start_char:ent.end_char].strip() in word_set("generic_modifiers_zh"):
        return None
    end, label = found
    longer = type_word_after(text, end)  # `[高雄醫學]大學附設醫院`: the institution's last type word decides
    if longer is not None:
        end, label = longer
    if following is not None and following.start_char < end:
        return None
    return doc.char_span(ent.start_char, end, label=label)
