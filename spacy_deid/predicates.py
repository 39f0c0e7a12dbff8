"""Predicates about names and institutions' type words that many passes share: what a Chinese name
looks like (`name_like`), which word says what an institution is (`醫院`, `University`: the type words,
`type_word_ending`, `type_word_after`), whether a name is a known place or an institution of another
kind (`known_place`, `typed_otherwise`, `not_name_like`: the exceptions cue rules name,
`spacy_deid.cues`). Imports no pass, so every pass, the rules' validators, the cue rules and the refine
steps may read it (WHY the type words decide a label: `institutions`).
"""
import re
from bisect import bisect_right
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Tuple

from .wordlists.common_words import ordinary_word
from .han import HAN_CHAR, HAN_RANGES
from .labels import LOCATION_LABELS
from .rules.loading import load_default_patterns
from .wordlists import WordLists, compiled, word_set

# The labels institutions' type words give, in the order of the word lists (`type_words.json`).
TYPE_WORD_LABELS = ("HOSPITAL", "SCHOOL", "MARKET", "GENERAL_BUSINESS", "LOCATION")


def _by_length(table: Dict[str, Tuple[str, ...]]) -> List[Tuple[str, str]]:
    return sorted(((word, label) for label, words in table.items() for word in words),
                  key=lambda pair: (-len(pair[0]), pair[0]))


class TypeWords:
    """Institutions' type words from one set of word lists (`type_words.json`), in the forms the
    predicates and steps read (`WordLists.compiled`)."""

    def __init__(self, lists: WordLists):
        self.zh: Dict[str, Tuple[str, ...]] = {label: lists[f"{label.lower()}_type_words_zh"] for label in TYPE_WORD_LABELS}
        self.zh["LOCATION"] += lists["one_character_type_words_zh"]  # `寺`, `宮`: they relabel, never grow a span
        self.en: Dict[str, Tuple[str, ...]] = {label: lists[f"{label.lower()}_type_words_en"] for label in TYPE_WORD_LABELS}
        self.longest_first_zh = _by_length(self.zh)
        self.longest_first_en = _by_length(self.en)
        self.set_zh = frozenset(word for word, _ in self.longest_first_zh)
        self.label_en = {w.casefold(): label for w, label in self.longest_first_en}
        self.after_en = re.compile(r"[ ](" + "|".join(re.escape(w) for w, _ in self.longest_first_en)
                                   + r")(?![A-Za-z0-9])", re.IGNORECASE)
        # School levels, written before a school's name as often as after it (`高中[台中一中]`, `大學念[東吳]`).
        self.school_levels_zh = tuple(w for w in self.zh["SCHOOL"] if len(w) == 2 and w not in ("學院", "女中"))
        # What may follow a Chinese type word without making it part of another word.
        self.continues_zh = lists["continues_type_word_zh"]
        # The most characters `type_word_ending` reads from a span's end: the longest type word, the space
        # or Han character before it, and one character of the name (`spanedges` reads no further back).
        self.reach = max(len(word) for word, _ in self.longest_first_zh + self.longest_first_en) + 2
        self.area_words_zh = frozenset(lists["area_words_zh"])


def type_words() -> TypeWords:
    """The type words of the word lists in force."""
    return compiled(TypeWords)


def is_type_word(span_text: str) -> bool:
    """Is `span_text` exactly one type word (`Foundation`, `醫院`)?"""
    words = type_words()
    return span_text in words.set_zh or span_text.casefold() in words.label_en


def type_word_after(text: str, end: int) -> Optional[Tuple[int, str]]:
    """(end of the type word, its label) when one starts at `end` and ends a word there."""
    words = type_words()
    for word, label in words.longest_first_zh:
        if len(word) > 1 and text.startswith(word, end):
            after = end + len(word)
            if text.startswith(words.continues_zh, after):
                return None
            return after, label
    m = words.after_en.match(text, end)
    if m is not None and (m.group(1)[0].isupper()):
        return m.end(), words.label_en[m.group(1).casefold()]
    return None


def type_word_ending(span_text: str, after_han: bool = True) -> Optional[str]:
    """The label of the type word `span_text` ends with; with `after_han`, only when a Han character
    stands before it (the span holds a name besides its type word)."""
    for word, label in type_words().longest_first_zh:
        if span_text.endswith(word) and (not after_han or (
                len(span_text) > len(word) and HAN_CHAR.match(span_text, len(span_text) - len(word) - 1))):
            return label
    return english_type_word_ending(span_text)


def grown_type_word(span_text: str) -> Optional[str]:
    """The label of the type word a span grew to end with (`Google公司`, `北京協和醫院`; cue rules'
    `yields_by`), whatever character comes before it."""
    return type_word_ending(span_text, after_han=False)


def english_type_word_ending(span_text: str) -> Optional[str]:
    """The label of the capitalised English type word `span_text` ends with after a space, when it holds
    more than that word (`Yuan's General Hospital`, `Taipei Medical University`)."""
    for word, label in type_words().longest_first_en:
        if (len(span_text) > len(word) + 1 and span_text[-len(word) - 1] == " "
                and span_text[-len(word):].casefold() == word.casefold() and span_text[-len(word)].isupper()):
            return label
    return None



# A line is typed in one case when it has this many ASCII letters, all capitals or all lower case.
MIN_ONE_CASE_LETTERS = 4
_LINE = re.compile(r"[^\n]*")
_UPPER, _LOWER = re.compile(r"[A-Z]"), re.compile(r"[a-z]")


@lru_cache(maxsize=4)
def _lines(text: str) -> Tuple[List[int], List[bool], List[bool]]:
    """Each line's start, whether it holds no Han character, and whether it is also typed in one case:
    one pass over a text that many cues ask about (a str's hash is cached, so the lookup costs
    nothing)."""
    starts, latin, one_case = [], [], []
    for line in _LINE.finditer(text):
        upper = len(_UPPER.findall(line.group()))
        lower = len(_LOWER.findall(line.group()))
        starts.append(line.start())
        latin.append(HAN_CHAR.search(line.group()) is None)
        one_case.append(latin[-1] and upper + lower >= MIN_ONE_CASE_LETTERS and not (upper and lower))
    return starts, latin, one_case


def one_case_line(text: str, pos: int) -> bool:
    """Is the line of `text` holding `pos` typed all in capitals or all in lower case, with no Han
    character? There a capital marks no name (`DR SMITH`, `son tom`), so a name's shape is read from
    the words, not the case: half of a nursing chart's text may be typed so. A code-mixed line writes
    its English words in lower case and its names with capitals (`病人 ambulate with walker`)."""
    starts, _, one_case = _lines(text)
    return one_case[bisect_right(starts, pos) - 1]


def latin_line(text: str, pos: int) -> bool:
    """Does the line of `text` holding `pos` hold no Han character? A code-mixed line writes its English
    words in lower case (`病人 ambulate`); a Latin line writes a name there only as a name typed so."""
    starts, latin, _ = _lines(text)
    return latin[bisect_right(starts, pos) - 1]


def name_like(text: str) -> bool:
    """Han characters only, none of them grammatical: a name, not a phrase (`協和`, not `的醫`)."""
    grammar = word_set("grammar_chars_zh")
    return all(HAN_CHAR.match(c) and c not in grammar for c in text)


@lru_cache(maxsize=1)
def place_phrases() -> FrozenSet[str]:
    """Every phrase of the shipped place lists (countries, cities, states, regions), case-folded."""
    return frozenset(p.casefold() for rule in load_default_patterns()
                     if rule.label in LOCATION_LABELS for p in rule.phrases)


def known_place(name: str, label: str = "") -> bool:
    """Is `name` a place of the shipped place lists (`台北`, `Tokyo`)? Then the words around it (`在[台北]工作`)
    say what happens in that place, not what kind of institution it is."""
    return name.casefold() in place_phrases()


def department_head(word: str) -> bool:
    """Does `word` end an English department's name (`Surgery`, `Psychiatry`, `Radiologies`)?"""
    w = word.casefold()
    return w in word_set("head_words_en") or (w.endswith("ology") and len(w) > 6) or w.endswith("ologies")


def department_word(word: str) -> bool:
    """Is `word` a department's head or modifier (`Thoracic`, `General`, `Child`)?"""
    return department_head(word) or word.casefold() in word_set("modifier_words_en")


def holds_a_department_word(name: str, label: str = "") -> bool:
    """Does `name` hold a department's word (`[Psychiatry] Department`: no institution's name)?"""
    return any(department_word(word) for word in name.split())


def ends_in_an_abbreviation(name: str, label: str = "") -> bool:
    """Does `name` end with an abbreviation or an initial (`Minquan W. Rd`, `Acme Co`, `John F`)? The
    period after it is the abbreviation's, not the sentence's."""
    word = name.rsplit(" ", 1)[-1]
    return word.casefold() in word_set("abbreviations_en") or len(word) == 1


def no_type_word_ending(name: str, label: str = "") -> bool:
    """Does `name` end with no institution's type word (`[仁愛國]`, cut from 仁愛國中學務處)?"""
    return type_word_ending(name) is None


def typed_otherwise(name: str, label: str) -> bool:
    """Does `name` end with the type word of an institution of another kind than `label` (`台大醫院`
    for a business)? Its type word says what it is, whatever the words around it say."""
    return type_word_ending(name) not in (None, label)


def not_name_like(name: str, label: str = "") -> bool:
    """Is `name` no name (`name_like` fails): a grammatical character or a non-Han one (`他的`)?"""
    return not name_like(name)


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def ordinary_words(name: str, label: str = "") -> bool:
    """Is every Latin word of `name` an ordinary word (`common_words.ordinary_word`: a common word, chart
    language, a word of grammar)? After a word of transfer that is a kind of place (`transferred to
    [rehab]`, `[floor]`), not a place's name."""
    words = _LATIN_WORD.findall(name)
    return bool(words) and all(ordinary_word(word) for word in words)


def _singular_forms(word: str) -> Tuple[str, ...]:
    """`word` and what it is the plural of, if it is one (`nurses`, `secretaries`, `firemen`)."""
    forms = [word]
    if word.endswith("s"):
        forms += [word[:-1], word[:-2], word[:-3] + "y"]
    elif word.endswith("men"):
        forms.append(word[:-3] + "man")
    return tuple(forms)


def names_a_person(name: str, label: str = "") -> bool:
    """Is a Latin word of `name` (or its singular) a word for a person (`person_words_en` of
    `wordnet.json`: WordNet's nouns of persons)? A trade's name holds one (`[process engineer]`,
    `[fortune tellers]`); a device or a finding a NER tagged as a trade (`[pressure dressing]`) holds none."""
    words = word_set("person_words_en")
    return any(form in words for word in _LATIN_WORD.findall(name.casefold()) for form in _singular_forms(word))


def may_name_a_trade(name: str, label: str = "") -> bool:
    """Does `name` hold a word for a person (`names_a_person`) or a word that is no common word, chart
    language or word of grammar (a name, a nationality: the NER may have called a patient's `[Chinese]`
    or `[named Wilhelmina]` a trade)? Made of those words only and none for a person
    (`[thick sputum]`), it names no trade."""
    return names_a_person(name) or not all(ordinary_word(word, place_parts=False) for word in _LATIN_WORD.findall(name))


def named_otherwise(name: str, label: str) -> bool:
    """A known place, or an institution whose type word gives it a label other than `label`."""
    return known_place(name) or typed_otherwise(name, label)


# A district, town or township: two Han characters and the division's word (three before it in a few:
# 那瑪夏區, 太麻里鄉). No district's name starts with a city's or county's word (`台中[市東區]` is the city,
# then 東區). Words for other areas end so too and name none: any ending in 特區, 校區, 院區, 業區 or
# 景區 (`藝術特區`, `工業區`, `風景區`), and of four characters those ending in 園區, 社區, 地區, 市區 or
# 港區 (`科學園區`), which end districts of three (林園區, 新社區, 小港區).
_DISTRICT = re.compile(f"(?![市縣])(?:[{HAN_RANGES}]{{2}}(?<![特校院業景])[區鄉鎮]"
                       f"|[{HAN_RANGES}]{{3}}(?<![園校院特社地市港業景])[區鄉鎮])")

def district_name(text: str, before: str = "") -> bool:
    """Is `text` the name of a district, town or township (`大甲區`, `潮州鎮`), not a word for an area,
    alone or with the character `before` it (`[學園區]` after 科)? A place that ends as an institution's
    type word does (`[林園區]`, 園區) keeps its place label when it is one (`institutions`)."""
    area_words = type_words().area_words_zh
    return (_DISTRICT.fullmatch(text) is not None and text not in area_words
            and before[-1:] + text not in area_words)
