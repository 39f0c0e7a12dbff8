"""Common English words whose capitals say nothing: `TOMORROW`, `Grew` at a line's start, `niece`.

WHY: a NER reads a capital letter as a sign of a name. In a note typed in capitals (many nursing
notes are), at the start of a line or sentence, or in a word written in lower case, the case tells
nothing, and a model trained on synthetic notes then calls an ordinary word a person, a department
or a nationality (`[TOMORROW]` as a DEPARTMENT, `[Grew] up near ...` as a NATIONALITY, `([niece])` as a
DOCTOR). A span whose every word is a frequent English word (the word list `common_words_en`,
`resources/word_lists/common_words.json`, built by `scripts/build_common_words.py`; saved with a
pipeline) and that nothing marks as a name is such a word, and `spanshape` drops it. A dictionary's
words count as common too (`dictionary_words_en` of `wordnet.json`, WordNet's lemmas less every word of
a name or place, built by `scripts/build_wordnet_lists.py`): chart prose writes words too rare for
wordfreq's list (`diaphoretic`, `pallor`). What marks a name and keeps the span: a capital inside a
sentence (`Seen by Young`), a title before it (`Dr. WILL`), or a word that is no common word; the
lists hold no word of a name or place in the package's lexicons or in Faker's name lists (`MARY`,
`CHEN`, `TAIPEI` are not in them).
Only words of ASCII letters are judged: Han characters carry no case.

Chart language is no common English (`bilat`, `heme`, `lopressor`): where capitals say nothing, the
word list `clinical_vocabulary_en` (`clinical_vocabulary.json`, abbreviation inventories and a drug
dictionary, built by `scripts/build_clinical_vocabulary.py`) counts as ordinary words too, for
people's names and places alike (for a place, of four letters or more: `PSC`, `CDC`, `IBM` are also
organisations' acronyms); a word of it of four letters or more is chart language in any case
(`started Lopressor`, `Combivent nebs`: a brand is capitalised, and the list holds no name's word),
while a shorter one may be someone's initials or a surname written with a capital.
"""
import re
from functools import lru_cache
from typing import FrozenSet, Set

from .clinical_terms import is_clinical_term
from ..lexicons import load
from . import word_set

# The lexicons whose values' words the list leaves out (`scripts/build_common_words.py`; tested).
NAME_AND_PLACE_LEXICONS = ("cities", "companies", "countries", "departments", "districts", "given_chars_zh",
                           "given_names_en", "given_names_romanized", "hospitals", "locations", "markets",
                           "nationalities", "regions", "schools", "states", "streets", "surnames_en",
                           "surnames_zh")
_WORD = re.compile(r"[A-Za-z]+")
# A word of a span judged here, with the ending a contraction glues to it (`CON'T`, `don't`, `pt's`): the
# word is what comes before the apostrophe.
_WORD_AND_ENDING = re.compile(r"([A-Za-z]+)(?:'[A-Za-z]{1,2}(?![A-Za-z]))?")
# What may stand between the words of a span judged here: spaces, a hyphen, an apostrophe, a period.
_SPAN_OF_WORDS = re.compile(r"[A-Za-z]+(?:[ .'\-]{1,2}[A-Za-z]+)*[.\-]?")
# A sentence ends before a span that starts after one of these (and spaces).
_SENTENCE_END = re.compile(r"(?:^|[\n.!?:;•*\-=]|[。！？：；])[ \t\"'(\[]*$")
_CONTEXT = 8
# The shortest word of chart language that says so in any case (`Lopressor`); `Ho`, `Tan` may be names.
_CHART_WORD_IN_ANY_CASE = 4


def name_and_place_words() -> Set[str]:
    """The lower-case words of every value of `NAME_AND_PLACE_LEXICONS`: none may be in the list."""
    return {word for name in NAME_AND_PLACE_LEXICONS for value in load(name).strings()
            for word in _WORD.findall(value.casefold())}


def common_words() -> FrozenSet[str]:
    """The common words of the word lists in force, lower case: wordfreq's and real clinical prose's
    (`common_words_en`) and a dictionary's (`dictionary_words_en`, WordNet's words less names and places:
    `nebulizer`, `pallor`, too rare for wordfreq's list)."""
    return word_set("common_words_en", "dictionary_words_en")


def chart_word(word: str) -> bool:
    """Is `word` (case aside) a common word or a word of chart language (`clinical_vocabulary_en`, every
    word of three letters or more)? Neither is a part of any name or place of the lexicons."""
    folded = word.casefold()
    return folded in common_words() or folded in word_set("clinical_vocabulary_en")


def ordinary_word(word: str, place_parts: bool = True) -> bool:
    """Is `word` (case aside) no name in a line typed in one case: a common word or chart language, a
    word of grammar, a frequent word that is also part of a place's name (`frequent_words_en`: `in`,
    `plan`; not with `place_parts=False`, where `chinese` or `grand` must not make a nationality or a
    name a plain word), or a clinical term? Where capitals say nothing, these are what tells the words
    of a sentence from a name."""
    grammar = ("function_words_en", "frequent_words_en") if place_parts else ("function_words_en",)
    return chart_word(word) or word.casefold() in word_set(*grammar) or is_clinical_term(word)


# The lexicons of people's names, and the fields of theirs that hold a name or its romanization.
NAME_LEXICONS = ("given_names_en", "given_names_romanized", "given_chars_zh", "surnames_en", "surnames_zh")
_NAME_FIELDS = ("text", "romanized")
_HYPHENATED_LOWER = re.compile(r"[a-z]+(?:-[a-z]+)+")


@lru_cache(maxsize=1)
def name_words() -> FrozenSet[str]:
    """The lower-case words of every name of `NAME_LEXICONS`: English given names and surnames, and
    the Wade-Giles syllables of Chinese given names and surnames (`mei`, `ling`, `chen`)."""
    return frozenset(word for name in NAME_LEXICONS for entry in load(name).entries
                     for field in _NAME_FIELDS if isinstance(entry.get(field), str)
                     for word in _WORD.findall(entry[field].casefold()))


def hyphenated_word(text: str) -> bool:
    """Is `text` one lower-case hyphenated word with a part that is no word of any name (`co-sign`,
    `well-groomed`, `x-ray`, `re-check`)? A romanized given name typed in lower case is made of
    name syllables only (`mei-ling`), and so is a double surname (`smith-jones`): those are not."""
    return _HYPHENATED_LOWER.fullmatch(text) is not None and any(
        part not in name_words() for part in text.split("-"))


def _case_says_nothing(word: str, sentence_start: bool) -> bool:
    return word.isupper() or word.islower() or (sentence_start and word[1:].islower())


def plain_words(text: str, start: int, end: int, person: bool = False) -> bool:
    """Is text[start:end] only common English words, each in a case that marks no name: all capitals (of
    two letters or more), all lower case, or capitalised as the first word of a line or sentence, and
    words of chart language of four letters or more, in any case?
    For a `person`'s name any `ordinary_word` counts too: chart language of three letters, the frequent
    words that are parts of places' names but of no person's (`NEPHEW ON PHONE`), words of grammar and
    clinical terms."""
    span = text[start:end]
    if not span.isascii() or _SPAN_OF_WORDS.fullmatch(span) is None:
        return False
    sentence_start = _SENTENCE_END.search(text, max(0, start - _CONTEXT), start) is not None
    for i, m in enumerate(_WORD_AND_ENDING.finditer(span)):
        word = m.group(1)
        if len(word) >= _CHART_WORD_IN_ANY_CASE and word.casefold() in word_set("clinical_vocabulary_en"):
            continue  # chart language in any case; shorter chart words count for a person's name only
        known = ordinary_word(word) if person else word.casefold() in common_words()
        if not known or not _case_says_nothing(word, sentence_start and i == 0):
            return False
    return True
