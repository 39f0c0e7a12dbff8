"""Words a NER place span picked up at its edges: `[至]童綜合醫院`, `門諾[戒酒]`, `洛杉磯[找]`.

WHY: a NER that reads Chinese one character at a time learns where a name starts and ends from the
words around names in training. Next to words it has not seen there it runs over them: the verb or
preposition before a place (至, 住, 於, 到, 往, 在, 去, 回: `10.22至童綜合醫院急診`) or the activity after
it (`曾於門諾戒酒`, `回洛杉磯找`). annotation.md keeps such words outside the span, and a surrogate
that swallows them changes what the note says. So, for place spans the NER found (never rule or date
spans; never streets, whose names start with such characters, or departments):

- a trailing activity word (word list `activity_words_zh`: 戒酒, 長大, 遊學, 肄業, 研究所, 職員 ...), or the first part of one
  the text goes on with (`[交大研]究所`), is dropped when at least two characters remain;
- a district's name of one character and 區 takes the character before it (`台南市歸[仁區]` -> `[歸仁區]`):
  only the directions name a district with one (`[東區]`).
The edge words that need no code are the cue rules of group `edges` (`resources/cue_rules/edges.json`),
which the same step runs after this module's repair: a leading preposition, a trailing English function
word or word for a place's people (`[NTU student]`), an article before a profession (`an [accountant]`).

A name or place span ends where a Latin letter meets a Han character
(`[Central Park橋]上`, `[Ya-Mei同意]`: an English name does not run on into Chinese), unless the Han part
is an institution's type word (`SOGO百貨`); any span drops a leading token of punctuation that ends a
field or clause (`學校[：]大同高中`) and a trailing token of sentence punctuation (`return to [Taiwan.]`: the
tokenizer splits a sentence's period off, and annotation.md ends no span with one), but not the period
of an abbreviation or an initial (`Minquan W. Rd.`, `Acme Co.`).

A name span drops one Han character a space sets apart
from a Chinese name (`[林美玲 父]`, `[父 劉澤]`: a Chinese name holds no space) and, after an English name, the
past-tense verb and function words of the sentence (`[LIU CHEN-CHANG] CONTACTED`).

A PROFESSION span the NER found drops, after it, the verb of the sentence it is the subject of and the words that follow that verb (`[lawyer] presented to`,
`[AUTO MECHANIC] ADMITTED WITH`): an occupation ends in no past-tense verb (a common English word
ending in -ed, `common_words`) and no function word.
"""
import re
from typing import Optional, Tuple

from spacy.tokens import Doc, Span

from .cues import current_cue_rules
from .common_words import common_words
from .common_words_zh import common_words_zh, starts_with_surname, surnames_zh
from .predicates import type_word_ending
from .labels import LOCATION_LABELS, NAME_LABELS
from .titles_zh import titles_after_name_zh
from .wordlists import word_set, words
from .han import HAN_CHAR, HAN_RANGES

# A district of Taiwan is named by two characters and 區 (`歸仁區`, `前金區`); only the five directions
# name one with a single character (`台中市[東區]`).
_DISTRICT_CUT_SHORT = re.compile(f"[{HAN_RANGES}]區")
EDGE_LABELS = LOCATION_LABELS - {"STREET", "DEPARTMENT"}


EDGES_GROUP = "edges"  # the cue rules (`resources/cue_rules/edges.json`) of the edge words that need no code


def trimmed_bounds(text: str, start: int, end: int) -> Optional[tuple]:
    """(start, end) without the edge words of text[start:end] this module reads, or None when nothing is
    trimmed."""
    new_start, new_end = start, end
    if _district_cut_short(text, start, end):
        new_start = start - 1
    for word in words("activity_words_zh"):
        cut = _activity_at_end(text, new_start, new_end, word)
        if cut:
            new_end -= cut
            break
    return None if (new_start, new_end) == (start, end) else (new_start, new_end)


def place_bounds(text: str, start: int, end: int, label: str) -> Tuple[int, int]:
    """(start, end) of a place without its edge words: this module's, then the `edges` cue rules in
    force (for a span another component cut: the part of a span outside the dates it held)."""
    start, end = trimmed_bounds(text, start, end) or (start, end)
    new = current_cue_rules().apply(text, start, end, label, EDGES_GROUP)
    return (start, end) if new is None else (new[0], new[1])


def _district_cut_short(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a district's name without its first character (`台南市歸[仁區]`, `警察局前[金區]`):
    one character and 區, not a direction, after a Han character that is no preposition?"""
    return (start >= 1 and _DISTRICT_CUT_SHORT.fullmatch(text, start, end) is not None
            and text[start] not in word_set("one_character_districts_zh") and HAN_CHAR.match(text, start - 1) is not None
            and text[start - 1] not in word_set("leading_prepositions_zh"))


def _activity_at_end(text: str, start: int, end: int, word: str) -> int:
    """How many characters of `word` text[start:end] ends with: all of it, or the first part of it when
    the text goes on with the rest (`[交大研]究所`), but never a type word's end (`高職` before 員工) unless
    what remains ends with one too (`[仁愛國中學]務處`: 國中, then 學務處) or the word is a school's office
    (`[台中一中學]務處`: 務處 is no word, so the 學 is the office's);
    0 when fewer than two characters would remain."""
    if text[end - 1] not in word:  # neither the word nor a first part of it ends here
        return 0
    if end - len(word) >= start and text.startswith(word, end - len(word)):
        cut = len(word)
    else:
        cut = next((k for k in range(len(word) - 1, 0, -1) if end - k >= start
                    and text.startswith(word[:k], end - k) and text.startswith(word[k:], end)), 0)
        if (cut and type_word_ending(text[start:end]) is not None
                and type_word_ending(text[start:end - cut]) is None and word not in word_set("offices_after_a_school_zh")):
            return 0
    return cut if end - cut - start >= 2 else 0


def _common_past_tense(word: str) -> bool:
    """Is `word` a common English past-tense form of five letters or more (`visited`, `CONTACTED`)?"""
    lower = word.lower()
    return len(lower) >= 5 and lower.endswith("ed") and lower in common_words()


def _before_verb_phrase(text: str, start: int, end: int) -> int:
    """Where text[start:end] ends without the past-tense verb and function words of the sentence its
    last words are (`[lawyer presented to]`, `[LIU CHEN-CHANG CONTACTED]`); a first word stays."""
    words = text[start:end].split(" ")
    while len(words) > 1 and (words[-1].lower() in word_set("function_words_after_en") or _common_past_tense(words[-1])
                              or not words[-1]):
        end -= len(words.pop()) + 1
    return end


# A Chinese name holds no space: a name span of a Chinese name and, across a space, one more Han
# character (`[林美玲 父]`, `家系圖: [父 劉澤]`) is the name; the character is a word of its own.
_HAN_NAME_THEN_ONE = re.compile(f"([{HAN_RANGES}]{{2,4}})[ ]+[{HAN_RANGES}]")
_ONE_THEN_HAN_NAME = re.compile(f"[{HAN_RANGES}][ ]+([{HAN_RANGES}]{{2,4}})")


def _no_name_apart(name: str, part: str) -> bool:
    """Is the span not a name with a word set apart: a surname before the space (`陳 志明`, `歐陽 娜`), or
    a part of two or more characters that starts with no surname (`[覆核 劉]主任`), is a word for a
    relative or another person, or a common word (`[孫子 劉]先生`: the surname is the one character)?"""
    return (name.split(" ", 1)[0] in surnames_zh() or not starts_with_surname(part)
            or part in word_set("kinship_zh", "others_zh") or part in common_words_zh())


def _name_bounds(text: str, start: int, end: int) -> Optional[tuple]:
    """(start, end) of a name span without one Han
    character a space sets apart from a Chinese name (`[林美玲 父]`), and without the past-tense verb or
    function words after an English name (`SOCIAL WORKER [LIU CHEN-CHANG] CONTACTED`), else None."""
    for pattern in (_HAN_NAME_THEN_ONE, _ONE_THEN_HAN_NAME):
        apart = pattern.fullmatch(text, start, end)
        if apart is not None and not _no_name_apart(text[start:end], apart.group(1)):
            # a title right after the one character makes it a surname (`[台大 王]醫師`)
            if pattern is _ONE_THEN_HAN_NAME or not text.startswith(titles_after_name_zh(), end):
                return apart.span(1)
    new_end = _before_verb_phrase(text, start, end)
    return None if new_end == end else (start, new_end)


def trimmed(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` without its edge words when it is a place, profession or person span that has some and the
    rest aligns with the tokens, else None."""
    start, end = ent.start_char, ent.end_char
    if ent.label_ == "PROFESSION":
        bounds = (start, _before_verb_phrase(text, start, end))
    elif ent.label_ in EDGE_LABELS:
        bounds = trimmed_bounds(text, start, end)
        if bounds is not None and bounds[0] < start and (ent.start == 0 or doc[ent.start - 1].ent_type_):
            bounds = (start, bounds[1])  # the character before is another entity's
    elif ent.label_ in NAME_LABELS:
        bounds = _name_bounds(text, start, end)
    else:
        bounds = None
    if bounds is None or bounds == (start, end):
        return None
    return doc.char_span(*bounds, label=ent.label_)
