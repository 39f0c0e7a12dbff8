"""Words a NER place span picked up at its edges: `[至]童綜合醫院`, `門諾[戒酒]`, `洛杉磯[找]`.

WHY: a NER that reads Chinese one character at a time learns where a name starts and ends from the
words around names in training. Next to words it has not seen there it runs over them: the verb or
preposition before a place (至, 住, 於, 到, 往, 在, 去, 回: `10.22至童綜合醫院急診`) or the activity after
it (`曾於門諾戒酒`, `回洛杉磯找`). annotation.md keeps such words outside the span, and a surrogate
that swallows them changes what the note says. So, for place spans the NER found (never rule or date
spans; never streets, whose names start with such characters, or departments):

- a leading preposition is dropped when at least two Han characters remain;
- a trailing activity word (`ACTIVITY_WORDS`: 戒酒, 長大, 遊學 ...) is dropped when at least two
  characters remain, and so is a trailing English function word (`Park on`).

`自` and `從` are not in the list: 自由路, 自強 and 從善 start names.

Any span the NER found drops a trailing token of sentence punctuation (`return to [Taiwan.]`: the
tokenizer splits a sentence's period off, and annotation.md ends no span with one), but not the period
of an abbreviation or an initial (`Minquan W. Rd.`, `Acme Co.`).

A PROFESSION span the NER found drops an English article before it (`an [accountant]`) and, after it,
the verb of the sentence it is the subject of and the words that follow that verb (`[lawyer] presented to`,
`[AUTO MECHANIC] ADMITTED WITH`): an occupation ends in no past-tense verb (a common English word
ending in -ed, `common_words`) and no function word.
"""
import re
from typing import Optional

from spacy.tokens import Doc, Span

from .common_words import common_words
from .labels import LOCATION_LABELS
from .han import HAN_CHAR

LEADING_PREPOSITIONS = frozenset("至住於到往在去回")
ACTIVITY_WORDS = ("住院", "就診", "急診", "看診", "門診", "回診", "戒酒", "戒毒", "治療", "開刀", "手術", "復健",
                  "追蹤", "檢查", "工作", "上班", "打工", "就讀", "留學", "遊學", "出差", "旅遊", "度假", "長大",
                  "出生", "定居", "居住", "流浪", "安排", "探視", "找")
# English words that end no place name: `[Rongxing Garden Park] on 2月26日`.
_TRAILING_FUNCTION_WORD = re.compile(r"[ ](?i:on|in|at|to|of|for|from|with|and|the|since|until)$")
EDGE_LABELS = LOCATION_LABELS - {"STREET", "DEPARTMENT"}


def trimmed_bounds(text: str, start: int, end: int) -> Optional[tuple]:
    """(start, end) without the edge words of text[start:end], or None when nothing is trimmed."""
    new_start, new_end = start, end
    if text[start] in LEADING_PREPOSITIONS and end - start >= 3 and HAN_CHAR.match(text, start + 1) \
            and HAN_CHAR.match(text, start + 2):
        new_start = start + 1
    for word in ACTIVITY_WORDS:
        if text.startswith(word, new_end - len(word)) and new_end - len(word) - new_start >= 2:
            new_end -= len(word)
            break
    else:
        m = _TRAILING_FUNCTION_WORD.search(text, max(new_start, new_end - 7), new_end)
        if m is not None and m.start() - new_start >= 2:
            new_end = m.start()
    return None if (new_start, new_end) == (start, end) else (new_start, new_end)


_LEADING_ARTICLE = re.compile(r"(?i:an?|the)[ ]+(?=[A-Za-z])")
_FUNCTION_WORDS_AFTER = frozenset("to with for at in on of and who was is has had from by".split())


def _after_an_occupation(word: str) -> bool:
    lower = word.lower()
    return lower in _FUNCTION_WORDS_AFTER or (len(lower) >= 5 and lower.endswith("ed") and lower in common_words())


def profession_bounds(text: str, start: int, end: int) -> Optional[tuple]:
    """(start, end) of a PROFESSION span without a leading article and a trailing verb phrase, or None
    when nothing is trimmed."""
    new_start, new_end = start, end
    m = _LEADING_ARTICLE.match(text, start, end)
    if m is not None:
        new_start = m.end()
    words = text[new_start:new_end].split(" ")
    while len(words) > 1 and (_after_an_occupation(words[-1]) or not words[-1]):
        new_end -= len(words.pop()) + 1
    return None if (new_start, new_end) == (start, end) else (new_start, new_end)


# A token of sentence punctuation ends no PHI (`return to [Taiwan.]`), except the period of an
# abbreviation that the tokenizer split off (`Minquan W. Rd.`, `Acme Co.`, an initial: `John F.`).
_TRAILING_PUNCTUATION = frozenset(".,;:。，；：!?！？、")
_ABBREVIATED = frozenset("rd st ave blvd ln dr hwy sec co inc ltd corp jr sr mt no".split())


def trimmed(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` without a trailing punctuation token (any label), or without its edge words when it is a
    place or profession span that has some and the rest aligns with the tokens, else None."""
    if len(ent) > 1 and ent[-1].text in _TRAILING_PUNCTUATION and not (
            ent[-1].text == "." and (ent[-2].text.casefold() in _ABBREVIATED or len(ent[-2].text) == 1)):
        return Span(doc, ent.start, ent.end - 1, label=ent.label_)
    if ent.label_ == "PROFESSION":
        bounds = profession_bounds(text, ent.start_char, ent.end_char)
    elif ent.label_ in EDGE_LABELS:
        bounds = trimmed_bounds(text, ent.start_char, ent.end_char)
    else:
        return None
    return doc.char_span(bounds[0], bounds[1], label=ent.label_) if bounds else None
