"""Common Chinese words that a model trained on synthetic notes reads as names and places.

WHY: in fluent Chinese prose (`住院醫師向家屬說明…`, `對過去喜歡的事情失去興趣`) the NER, which saw
names mostly in short chart phrases, calls ordinary words people, businesses and places
(`[說明]` FAMILY, `[喜歡]` GENERAL_BUSINESS, `[發現學童]` PERSON). Han script has no case to say
whether a word is a name, so the English test (`common_words`) cannot judge it; a frequency list can.
The word list `common_words_zh` (`resources/word_lists/common_words.json`, built by
`scripts/build_common_words.py` from wordfreq's Chinese list,
in the Traditional forms Taiwan writes) holds the frequent words of two or more Han characters that
are no name or place: no value of the package's lexicons or of Faker's Chinese name and place lists,
no part of one (`中山`, `長庚`, `大學` of a school's name), and no word shaped like a person's name
(a surname then one or two given-name characters: `高明`, `志明` are out).

What is judged (`spanshape` drops NER spans that pass, unless a title stands beside them):
- a span of a name label (PATIENT, PERSON, FAMILY, DOCTOR) made only of such words, one or several
  (`[發現學童]`): a Chinese name is a surname and one or two characters, never two common words;
- a span of a name label that is such words and one more character, and does not start with a
  surname of the package's list (`[說明檢]`, `[希望轉]`: the model cut the next word in two): a
  Chinese name starts with its surname (`[王光明]`, whose 光明 is a common word, stays);
- a span of a place or organisation label that is one such word (`[工地]`, `[興趣]`): names of
  institutions are often common words put together (`中國醫藥大學`), so only a single word is judged.
Medical terms count as such words here (`clinical_vocabulary_zh` of `clinical_vocabulary.json`: THUOCL's
medical terms, less names, places and the words of units and institutions; `[肝功能]`, `[梅毒]`).
"""
from functools import lru_cache
from typing import FrozenSet

from ..labels import NAME_LABELS
from ..lexicons import load
from . import word_set

_LONGEST_WORD = 8


def common_words_zh() -> FrozenSet[str]:
    """The list of the word lists in force (Traditional forms, and the Simplified where they differ)."""
    return word_set("common_words_zh")


@lru_cache(maxsize=1)
def surnames_zh() -> FrozenSet[str]:
    """Han surnames of one and two characters (`王`, `歐陽`)."""
    return frozenset(entry["text"] for entry in load("surnames_zh").entries)


def starts_a_word(text: str, start: int) -> bool:
    """Does a listed word (two or more characters) start at text[start]? For the edges of names: a
    name that runs on into the word after it (`cued_names`)."""
    words = common_words_zh()
    return any(text[start:start + n] in words for n in range(2, min(_LONGEST_WORD, len(text) - start) + 1))


def starts_with_surname(span: str) -> bool:
    """Does `span` start with a surname of one or two characters (`王美玲`, `歐陽娜`)?"""
    surnames = surnames_zh()
    return span[:1] in surnames or span[:2] in surnames


def _made_of_words(span: str, words: FrozenSet[str]) -> bool:
    """Can `span` be cut into list words only? (Dynamic programming over cut points: linear in the
    span's length times the longest word.)"""
    reachable = [True] + [False] * len(span)
    for end in range(2, len(span) + 1):
        for start in range(max(0, end - _LONGEST_WORD), end - 1):
            if reachable[start] and span[start:end] in words:
                reachable[end] = True
                break
    return reachable[-1]


def spoken_before_words(span: str) -> bool:
    """Is `span` a sound of speech before common words or medical terms (`[阿所以]`, `[阿要是]`: a
    dialogue's "ah, so", "ah, if")? A prefix of address stands before a given name (`阿明`), never
    before words; after a speaker's turn (`醫師：阿所以`) the speaker is no title of a name."""
    return (len(span) >= 3 and span[0] in word_set("interjections_zh")
            and _made_of_words(span[1:], word_set("common_words_zh", "clinical_vocabulary_zh")))


def plain_han_words(span: str, label: str) -> bool:
    """Is `span` common Chinese words or medical terms, as `label` is judged: any number of them for a name label (or
    they and one more character, without a surname first), exactly one for a place or organisation? (Every listed word is Han characters only, tested, so a
    span with anything else is never one.)"""
    if len(span) < 2:
        return False
    words = word_set("common_words_zh", "clinical_vocabulary_zh")
    if label in NAME_LABELS:
        return _made_of_words(span, words) or (
            len(span) >= 3 and _made_of_words(span[:-1], words) and not starts_with_surname(span))
    return span in words
