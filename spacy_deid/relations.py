"""A name's relation to the patient as a span repair: the name relabelled by the words next to it, its
span cut free of a relation word or title at its start, and what only the NER's own label lets one read.

WHY: which of PATIENT, FAMILY, PERSON or DOCTOR a name is depends on the words around it, and a NER that
has not seen a note's phrasing guesses. What the words say is the cue rules' (`relations.json`, read by
`cues/labels`): a patient field, kinship words, physicians' titles, words for other people in the
patient's life, by annotation.md's definitions (groups `relations`, `relation_after`), and where the
NER's label counts too, a third party to the patient's care, a kinship word as a form of address, an
honorific no physician is given (groups `third_party`, `kin_address`). This module applies them to the
NER's spans and adds what needs the span's own text:
- a name span that starts with a Chinese relation word or title, or with its last characters, drops it
  (`[生盧瑋]` after 先, `[公 宋瓊美]` after 阿, `[堂妹 范雄晉]`): annotation.md keeps titles and relation
  words outside the name, and a NER that cut a word in two saw neither the word nor the name; so does
  one that starts with an English title or a role word used as one (`[Dr. Smith]`, `[Nurse Linda]`);
A place span that starts with a relation word holds a person's name (`由[阿公 高振宏]翻譯`): the cue rule
of group `relative_in_place` (`relations.json`), which the `relations` step runs after this module's
repair. A relation word that nothing states as an occupation is no PROFESSION: the cue rule of group
`apposition` drops it.
`repairs` applies these to NER spans only, never rule spans. The words are the pipeline's word lists
(`resources/word_lists/relations.json`, `titles.json`).
"""
import re
from typing import Iterator, Optional

from spacy.tokens import Doc, Span

from .labels import NAME_LABELS
from .rules.phrases import phrase_regex
from .cues.labels import label_by_ner_label, relation_label
from .wordlists import WordLists, compiled, sorted_longest_first, word_set

# An English title between a relation word and the name.
_TITLE = r"(?:(?i:mr|mrs|ms|miss|mx|dr|doctor)\.?[ ])?"
# What may stand between a relation word and the name after it: a colon, a comma or an opening bracket,
# spaces, a title (`wife: Mary`, `Mom (Tzupao)`, `案妻，王小美`).
BETWEEN_WORD_AND_NAME = r"[ ]?[:：,，(（]?[ ]?" + _TITLE
_BETWEEN_WORD_AND_NAME = " :：,，"


class _Patterns:
    """The patterns built from one set of word lists (`WordLists.compiled`)."""

    def __init__(self, lists: WordLists):
        kin_zh, kin_en = lists["kinship_zh"], lists["kinship_en"]
        others_zh, others_en = lists["others_zh"], lists["others_en"]
        physician_zh, on_duty_zh = lists["physician_titles_zh"], lists["on_duty_zh"]
        # Words that stand before a name and never inside it (the relation words, titles used before one).
        self.words_before_name_zh = sorted_longest_first(kin_zh + others_zh + on_duty_zh
                                                         + ("先生", "太太", "小姐", "女士"))
        # An English title or role the span starts with (`[Dr. Smith]`, `[Nurse Linda]`, `[Judge Liao]`).
        roles = tuple(w.capitalize() for w in others_en if w.isalpha()) + ("Professor", "Sgt", "Officer")
        self.title_at_start = re.compile(r"(?:Dr|DR|Doctor|Mr|Mrs|Ms|Miss|Mx|Prof|Nurse|"
                                         + "|".join(sorted(set(roles) | {w.upper() for w in roles}))
                                         + r")\.?[ ]+(?=[A-Z])")
        self.words_before_a_name = re.compile(
            phrase_regex(kin_zh + others_zh + physician_zh + on_duty_zh + lists["patient_words_zh"]) + "|(?i:"
            + phrase_regex(tuple(w for w in kin_en if w not in lists["generic_kin_en"]) + others_en
                           + lists["clinician_en"] + lists["honorifics_en"], ignore_case=True) + ")")


def _patterns() -> _Patterns:
    return compiled(_Patterns)


def words_before_a_name(text: str) -> Iterator[int]:
    """The end offsets of the words in `text` after which a name may stand (`wife`, `案母`, `Dr.`)."""
    for match in _patterns().words_before_a_name.finditer(text):
        yield match.end()


def name_start(text: str, start: int, end: int) -> int:
    """Where the name in text[start:end] starts: after the English title, or the Chinese relation word
    or title, that the span starts with, or starts with the end of (`[生盧瑋]` after 先); `start` when
    there is none."""
    p = _patterns()
    title = p.title_at_start.match(text, start, end)
    if title is not None:
        return title.end()
    order = 1 if text[start:start + 1] in word_set("order_before_kin_zh") else 0
    for word in p.words_before_name_zh:
        for inside in range(1, len(word) + 1 + order):  # how many of the word's characters are in the span
            if start + inside - len(word) >= 0 and text.startswith(word, start + inside - len(word)):
                new = start + inside
                while new < end and text[new] in _BETWEEN_WORD_AND_NAME:
                    new += 1
                if new < end and text[new].isalnum():
                    return new
    return start


def by_relation(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` without a relation word at its start, and relabelled PATIENT, FAMILY, DOCTOR or PERSON when
    it is a name of another kind next to a patient field, a relation word or a physician's title, or
    where the words beside it and the NER's label say more (`cues/labels.label_by_ner_label`), else None."""
    if ent.label_ not in NAME_LABELS:
        return None
    start = name_start(text, ent.start_char, ent.end_char)
    label = (relation_label(text, start, ent.end_char)
             or label_by_ner_label(text, start, ent.end_char, ent.label_) or ent.label_)
    if start == ent.start_char and label == ent.label_:
        return None
    return doc.char_span(start, ent.end_char, label=label)
