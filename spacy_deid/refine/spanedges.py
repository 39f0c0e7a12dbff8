"""Words at a NER span's edges that need code to read: `[LIU CHEN-CHANG] CONTACTED`, `[lawyer] presented`.

WHY: a NER that reads Chinese one character at a time learns where a name starts and ends from the
words around names in training. Next to words it has not seen there it runs over them: the activity
after a place (`曾於門諾戒酒`, `回洛杉磯找`), or the verb of the sentence after an English name or an
occupation. annotation.md keeps such words outside the span, and a surrogate that swallows them
changes what the note says. The `edges` step first runs the cue rules of group `edges`
(`resources/cue_rules/edges.json`: punctuation, the seam where a Latin name meets Han text, a leading
preposition, a trailing function word or activity, an article before a profession, one Han character set
apart from a Chinese name; a district's name of one character and 區 takes the character before it,
`台南市歸[仁區]` -> `[歸仁區]`), then this module's repair on the NER's spans: a name or PROFESSION span drops, after it, the past-tense verb of the sentence it is the subject of
  and the function words after that verb (`[LIU CHEN-CHANG] CONTACTED`, `[lawyer] presented to`,
  `[AUTO MECHANIC] ADMITTED WITH`): a name or an occupation ends in no past-tense verb (a common
  English word ending in -ed, `common_words`) and no function word.
"""
from typing import Optional, Tuple

from spacy.tokens import Doc, Span

from ..cues import current_cue_rules
from ..wordlists.common_words import common_words
from ..labels import LOCATION_LABELS, NAME_LABELS
from ..wordlists import word_set

EDGE_LABELS = LOCATION_LABELS - {"STREET", "DEPARTMENT"}
EDGES_GROUP = "edges"  # the cue rules (`resources/cue_rules/edges.json`) of the edge words that need no code


def place_bounds(text: str, start: int, end: int, label: str) -> Tuple[int, int]:
    """(start, end) of a place without its edge words by the `edges` cue rules in force (for a span
    another component cut: the part of a span outside the dates it held)."""
    new = current_cue_rules().apply(text, start, end, label, EDGES_GROUP)
    return (start, end) if new is None else (new[0], new[1])


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


def trimmed(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` without the verb phrase after it when it is a profession or person span that has one and the
    rest aligns with the tokens, else None."""
    start, end = ent.start_char, ent.end_char
    if not (ent.label_ == "PROFESSION" or ent.label_ in NAME_LABELS):
        return None
    end = _before_verb_phrase(text, start, end)
    return doc.char_span(start, end, label=ent.label_) if end != ent.end_char else None
