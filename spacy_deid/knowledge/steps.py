"""Refine steps that vote with the general taggers' tags (`doc.spans["knowledge"]`, set by the
`deid_knowledge` component) beside the NER, the rules and the dates.

WHY voting and not trusting: on real notes each side errs its own way. The NER, trained on synthetic
notes, calls ward and chart shorthand names and places (`CCU`, `neuro`, `levo`) and misses real
surnames; the newswire taggers know real names but tag a capitalised drug as a person. A span is
changed only where the evidence agrees:
- `knowledge_drop_latin` (`_names`, `_places`: one category each): a NER name or place in Latin
  script, written all lower case or all capitals or only common words or a clinical term, that no
  tagger tags as the same kind of thing (for a place: nor is it a non-acronym value of the place
  lexicons) and that no relation word, title or physician's role stands beside, is dropped;
  `knowledge_drop_han` the same for Han spans (no case to read); `knowledge_drop_caseless` is the case
  test without the taggers, the reference the others are measured against.
- `knowledge_add_cued`: an English tagger's PERSON where no recognizer found anything, that is no
  clinical term and not only common words, is added when a relation word, title or physician's role
  stands beside it or a recognizer found the same name elsewhere in the note;
  `knowledge_add_names` / `knowledge_add_places` add every such tag (measured: far more false alarms).
Which of them a pipeline runs is its `deid` config's `note_steps` (README gives the measured choice).
Spans from the rules and the date finder are never dropped: they read their own context. Each step returns how many spans it changed, never which.
"""
import re
from functools import lru_cache
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence

from spacy.tokens import Doc, Span

from ..wordlists.clinical_terms import is_clinical_term
from ..wordlists.common_words import common_words
from ..wordlists.common_words_zh import plain_han_words
from ..han import has_han
from ..labels import CATEGORY_OF
from ..lexicons import load
from ..overlap import add_where_free, taken_characters
from ..refine.registry import note_steps
from ..cues.labels import relation_after, relation_label
from .component import SPANS_KEY

SOURCE = "knowledge"
_WORD = re.compile(r"[A-Za-z]+")
_JUDGED = ("NAME", "LOCATION")
PLACE_LEXICONS = ("cities", "countries", "districts", "hospitals", "locations", "markets", "regions", "schools",
                  "states", "streets")


def knowledge_spans(doc: Doc, key: str = SPANS_KEY) -> Sequence[Span]:
    """The taggers' spans; an error naming the missing component when the doc has none."""
    if key not in doc.spans:
        raise ValueError(f"the knowledge refine steps need the 'deid_knowledge' component before 'deid' "
                         f"(no doc.spans[{key!r}])")
    return doc.spans[key]


def _category(label: str) -> Optional[str]:
    return CATEGORY_OF.get(label)


@lru_cache(maxsize=1)
def place_values() -> FrozenSet[str]:
    """Every value of the package's place and organisation lexicons, case-folded, less the acronyms
    (`CCU` is a university's and a coronary care unit's): in a note typed in one case they say nothing."""
    return frozenset(value.casefold() for name in PLACE_LEXICONS for value in load(name).strings()
                     if not (value.isascii() and value.isupper()))


def _supported(ent: Span, value: str, tags: Sequence[Span]) -> bool:
    """Does a tagger tag the same kind of thing (a name, or a place) on a character of `ent`, or, for a
    place, is its text a place the lexicons know (`士林`, `Boston`)?"""
    category = _category(ent.label_)
    if category == "LOCATION" and value.casefold() in place_values():
        return True
    return any(tag.start_char < ent.end_char and ent.start_char < tag.end_char
               and _category(tag.label_) == category for tag in tags)


def _cued(text: str, start: int, end: int) -> bool:
    """Does a relation word, title or physician's role stand beside text[start:end]?"""
    return relation_label(text, start, end) is not None or relation_after(text, end) is not None


def _common(value: str, label: str) -> bool:
    """Is `value` a clinical term or made only of common words (case aside)?"""
    if is_clinical_term(value):
        return True
    if has_han(value):
        return plain_han_words(value, label)
    words = _WORD.findall(value)
    return bool(words) and all(word.casefold() in common_words() for word in words)


def _caseless(value: str) -> bool:
    """Is every word of `value` all lower case or all capitals (no capital that marks a name)?"""
    words = _WORD.findall(value)
    return bool(words) and all(word.islower() or word.isupper() for word in words)


# -- drop -----------------------------------------------------------------------------------------
def _judged(ent: Span, categories: Sequence[str]) -> bool:
    return (ent._.source or "ner") == "ner" and _category(ent.label_) in categories


def drop_spans(doc: Doc, text: str, latin: bool, han: bool, needs_support: bool = True,
               categories: Sequence[str] = _JUDGED) -> int:
    """Drop each NER name or place that no relation word, title or physician's role stands beside and
    no tagger tags as the same kind of thing (`needs_support`), when it is in Latin script and written
    without a capital that marks a name (`latin`), or in Han script (`han`); returns how many."""
    tags = knowledge_spans(doc)
    kept: List[Span] = []
    dropped = 0
    for ent in doc.ents:
        value = text[ent.start_char:ent.end_char]
        judged = _judged(ent, categories) and (han if has_han(value) else (latin and (_caseless(value) or _common(value, ent.label_))))
        if (judged and not (needs_support and _supported(ent, value, tags))
                and not _cued(text, ent.start_char, ent.end_char)):
            dropped += 1
        else:
            kept.append(ent)
    if dropped:
        doc.ents = kept
    return dropped


# -- add ------------------------------------------------------------------------------------------
AddTest = Callable[[Doc, str, Span], Optional[str]]


def add_tagged(doc: Doc, text: str, categories: Sequence[str], test: AddTest,
               taggers: Sequence[str] = ("spacy", "lac")) -> int:
    """Add each tagger span of `categories` that overlaps no entity, is no clinical term nor only
    common words, and to which `test` gives a label; returns how many were added."""
    # `test` is asked of no tag an entity holds; `add_where_free` then keeps added tags from overlapping
    taken = taken_characters(doc, len(text))
    found = []
    for tag in knowledge_spans(doc):
        value = text[tag.start_char:tag.end_char]
        if (_category(tag.label_) not in categories or tag.kb_id_ not in taggers
                or any(taken[tag.start_char:tag.end_char])
                or _common(value, tag.label_) or not any(ch.isalpha() for ch in value)):
            continue
        label = test(doc, text, tag)
        if label is not None:
            found.append((tag.start_char, tag.end_char, label))
    return len(add_where_free(doc, found, SOURCE))


def _cued_label(doc: Doc, text: str, tag: Span) -> Optional[str]:
    """The relation's label when a relation word, title or physician's role stands beside the tag;
    PERSON when a recognizer found the same name elsewhere in the note; else None."""
    label = relation_label(text, tag.start_char, tag.end_char) or relation_after(text, tag.end_char)
    if label is not None:
        return label
    value = text[tag.start_char:tag.end_char].casefold()
    for ent in doc.ents:
        if _category(ent.label_) == "NAME" and text[ent.start_char:ent.end_char].casefold() == value:
            return ent.label_
    return None


# The steps `spacy-deid assemble` appends to the default note steps of a pipeline that runs the taggers
# (the shipped default). Measured on the tag-fed NER (docs/results_history.md, twenty-ninth session):
# `knowledge_add_cued` alone raises token recall on PhysioNet (65.2 -> 66.5) and ASQ-PHI with no loss of
# precision anywhere; the drop steps buy precision with recall (AI CUP -2.0, PhysioNet -1.5, fresh -1.5
# points), which a de-identifier should not pay by default.
TAGGER_NOTE_STEPS = ("knowledge_add_cued",)

ADD_TESTS: Dict[str, AddTest] = {
    "cued": _cued_label,
    "names": lambda doc, text, tag: _cued_label(doc, text, tag) or tag.label_,
}


# The steps, by the names the `deid` config lists (entry points `spacy_deid_note_steps` in setup.cfg,
# and registered here too for a pipeline built where the package is not installed).
def knowledge_drop_latin(doc: Doc, text: str) -> int:
    return drop_spans(doc, text, latin=True, han=False)


def knowledge_drop_latin_names(doc: Doc, text: str) -> int:
    return drop_spans(doc, text, latin=True, han=False, categories=("NAME",))


def knowledge_drop_latin_places(doc: Doc, text: str) -> int:
    return drop_spans(doc, text, latin=True, han=False, categories=("LOCATION",))


def knowledge_drop_han(doc: Doc, text: str) -> int:
    return drop_spans(doc, text, latin=False, han=True)


def knowledge_drop_caseless(doc: Doc, text: str) -> int:
    """The case test alone, the taggers not asked: the reference `knowledge_drop_latin` is measured
    against."""
    return drop_spans(doc, text, latin=True, han=False, needs_support=False)


def knowledge_add_cued(doc: Doc, text: str) -> int:
    return add_tagged(doc, text, ("NAME",), ADD_TESTS["cued"], taggers=("spacy",))


def knowledge_add_names(doc: Doc, text: str) -> int:
    return add_tagged(doc, text, ("NAME",), ADD_TESTS["names"])


def knowledge_add_places(doc: Doc, text: str) -> int:
    return add_tagged(doc, text, ("LOCATION",), lambda d, t, tag: tag.label_)


STEPS = {step.__name__: step for step in (knowledge_drop_latin, knowledge_drop_latin_names,
                                          knowledge_drop_latin_places, knowledge_drop_han, knowledge_drop_caseless,
                                          knowledge_add_cued, knowledge_add_names, knowledge_add_places)}
for _name, _step in STEPS.items():
    note_steps.register(_name, func=_step)
