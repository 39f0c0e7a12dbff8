"""A PHI string found once is PHI wherever else it stands in the same note, and in the same patient's
other notes.

WHY: a model reads each occurrence in its own context, so it can find `林美玲` in the history and
miss her in a nursing line, and the miss is a leak that the found occurrence already proves is PHI.
Over the held-out split, 109 of the 770 gold spans that the default pipeline missed outright had
their exact text found elsewhere in the same note or patient.

What spreads (`PROPAGATED_LABELS`): names, professions and places. It does not spread:
- DEPARTMENT: a department named in a clinical action is no PHI in the synthetic corpus's convention
  (`會診復健科評估`), and `急診` is both;
- NUMBER and ROOM: short numbers recur as doses and counts;
- dates, ages and identifiers: the rules and the date finder already read every occurrence.

A string spreads when it holds a letter, is not clinical vocabulary (`clinical_terms`), and has at
least 2 characters, or at least 4 when it is all ASCII (`He`, `An`, `Ho` are surnames and words).
Matching uses the phrase trie of `rules/phrases.py` (linear time; an ASCII phrase needs word edges,
so `Chen` is not found in `Cheng`). A string spreads only where the recognizers found at least half
of its occurrences (`MIN_FOUND_SHARE`): a word the model tags in 2 of its 20 uses is its mistake,
not a name. Only text outside every entity gets a span, and only where the span aligns with the
tokens. The span takes the label most of the string's entities carry (`found_strings`), and
`span._.source = "propagated"`. The same input gives the same spans.

A person's full name spreads whatever share was found (`name_forms.is_full_name`: a Han surname and
given name, or Latin words with a lexicon surname), and so do the forms it is written in elsewhere
(`name_forms.name_forms`): its given name (`王大明` -> `大明`, `Wang Mei-Ling` -> `Mei-Ling`) and, for a
Han name, its romanized full names in pinyin and Wade-Giles, hyphenated, spaced or joined, surname
first or last, or the surname and initials (`Wang Da-Ming`, `WANG TA MING`, `Wang DM`). Such a name or
form takes the place of the entities inside it (`[Wang] DM`, `[郭]大衛`, `Donna [May]` read as a month)
and, a full name, cuts back a model's span that crosses its edge (`門[諾楊]振佑`). Each mention of a
Han name and of its forms carries `span._.name_link` (`romanize.NAME_LINK`, in `doc.user_data`): the
Han name, so the surrogate engine writes every form from that name's one surrogate. Before it, the
parts of what was found are marked: a street next to a found address part (`address_parts.street_parts`);
the `propagate` step grows a given name after a tagged surname into its span first, by the cue rules of
`given_names.json` (`refine.builtin`).

What a relation word says spreads too (`spread_relations`): a name a kinship word, a word for another
person in the patient's life, a physician's title or a patient field stands next to in one place
(`relations.relation_label`: `daughter [Amy Lin]`, `[林美玲]醫師`) is that in every other mention of the
same string in the note or the patient's notes (`[Amy Lin] called` is FAMILY too). Only when every such
word for the string agrees, only for strings that may spread (`spreads`: `Lin` alone is too short to
say whose it is), and only the NER's and propagated mentions are relabelled (a rule read its own
context).
"""
import bisect
import re
from collections import Counter
from typing import Dict, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span

from .address_parts import street_parts
from ..wordlists.clinical_terms import is_clinical_term
from ..doctext import doc_text
from ..labels import LOCATION_LABELS, NAME_LABELS
from ..cues.labels import honorific_beside, relation_label
from ..name_forms import MIN_ASCII_CHARS, is_full_name, name_forms
from ..romanize import NAME_LINK
from ..rules.phrases import phrase_spans

SOURCE = "propagated"
PROPAGATED_LABELS = frozenset(NAME_LABELS | {"PROFESSION"} | (LOCATION_LABELS - {"DEPARTMENT", "NUMBER", "ROOM"}))
MIN_CHARS = 2
# A string spreads where the recognizers found at least this share of its occurrences: a real name
# found once in two mentions spreads, a word the model tags in 2 of its 20 uses does not.
MIN_FOUND_SHARE = 0.5
_HAS_LETTER = re.compile(r"[^\W\d_]")


def spreads(text: str) -> bool:
    """May this entity text be marked wherever else it stands? (The rules in the module docstring.)"""
    if len(text) < (MIN_ASCII_CHARS if text.isascii() else MIN_CHARS) or text != text.strip():
        return False
    return _HAS_LETTER.search(text) is not None and not is_clinical_term(text)


def found_strings(docs: Sequence[Doc]) -> Dict[str, str]:
    """Text -> label of the entities that may spread, each text with the label most of its entities carry
    (a tie goes to a person's label, then to the first in alphabetical order). Why not the first one met: the
    notes' order is the input's, and a patient read from two files must get the spans of one read whole."""
    counts: Dict[str, Counter] = {}
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ in PROPAGATED_LABELS and spreads(ent.text):
                counts.setdefault(ent.text, Counter())[ent.label_] += 1
    return {text: min(labels, key=lambda label: (-labels[label], label not in NAME_LABELS, label))
            for text, labels in counts.items()}


def propagate(docs: Sequence[Doc]) -> int:
    """Mark the other occurrences of the docs' names, professions and places (one note, or all of one
    patient's notes) where the model found at least `MIN_FOUND_SHARE` of the string's occurrences,
    and every occurrence of a full name and of the forms it is written in (`name_forms`); first a
    street next to a found address part (`address_parts.street_parts`); returns how many spans were
    added."""
    added = sum(len(street_parts(doc)) for doc in docs)
    found = found_strings(docs)
    links: Dict[str, str] = {}
    vouched: Set[str] = {string for string, label in found.items() if label in NAME_LABELS and is_full_name(string)}
    mentions = Counter(ent.text for doc in docs for ent in doc.ents if ent.text in vouched)
    # a form two names share links to the one mentioned more often (then the first in code-point order)
    for string in sorted(vouched, key=lambda s: (-mentions[s], s)):
        forms = name_forms(string)
        if any(link is not None for link in forms.values()):
            links.setdefault(string, string)  # every mention of the Han name, written one way
        for form, link in forms.items():
            if spreads(form):
                found.setdefault(form, found[string])
                vouched.add(form)
                if link is not None:
                    links.setdefault(form, link)
    if not found:
        return added
    others = [s for s in found if s not in vouched]
    # Occurrences per string: found by a recognizer, not found (to mark), or marked by an earlier
    # pass (a note's own pass before the patient's: they count as not found by the model).
    found_by_model: Dict[str, int] = {}
    not_found: Dict[str, int] = {}
    misses: List[Tuple[Doc, int, int, str]] = []
    for doc in docs:
        taken = sorted((e.start_char, e.end_char) for e in doc.ents)
        propagated = {(e.start_char, e.end_char): e._.source == SOURCE for e in doc.ents}
        for start, end, string in _matches(doc_text(doc), vouched, others):
            if (start, end) in propagated and not propagated[(start, end)]:
                found_by_model[string] = found_by_model.get(string, 0) + 1
            elif (start, end) in propagated or not _overlaps(taken, start, end):
                not_found[string] = not_found.get(string, 0) + 1
                if (start, end) not in propagated:
                    misses.append((doc, start, end, string))
            elif string in vouched and _gives_way(doc, start, end, is_full_name(string)):
                misses.append((doc, start, end, string))  # `[郭]大衛` where `郭大衛` is found
    new_spans: Dict[Doc, List[Span]] = {}
    for doc, start, end, string in misses:
        hits = found_by_model.get(string, 0)
        if string not in vouched and hits < MIN_FOUND_SHARE * (hits + not_found[string]):
            continue
        span = doc.char_span(start, end, label=found[string])
        if span is not None:
            new_spans.setdefault(doc, []).append(span)
    for doc, spans in new_spans.items():
        covered = [(s.start_char, s.end_char) for s in spans]
        sources = {(e.start_char, e.end_char): e._.source for e in doc.ents}
        kept = []
        for ent in doc.ents:
            part = _outside(doc, ent, covered)
            if part is not None:
                sources.setdefault((part.start_char, part.end_char), sources[(ent.start_char, ent.end_char)])
                kept.append(part)
        doc.ents = kept + spans
        for ent in doc.ents:
            ent._.source = sources.get((ent.start_char, ent.end_char), SOURCE)
    for doc in docs:
        for ent in doc.ents:
            if ent.text in links and ent.label_ in NAME_LABELS:
                doc.user_data[("._.", NAME_LINK, ent.start_char, ent.end_char)] = links[ent.text]
    return added + sum(len(spans) for spans in new_spans.values())


def _matches(text: str, names: Set[str], rest: Sequence[str]) -> List[Tuple[int, int, str]]:
    """(start, end, string) of the found strings in `text`, in order: the persons' names and their
    forms first, then the other strings where no name stands (`門諾楊振佑`: the name `楊振佑`, not the
    misread `諾楊` that the scan from the left would take first)."""
    taken = phrase_spans(text, names)
    found = [(start, end, text[start:end]) for start, end in taken]
    found += [(start, end, text[start:end]) for start, end in phrase_spans(text, rest)
              if not _overlaps(taken, start, end)]
    return sorted(found)


def _gives_way(doc: Doc, start: int, end: int, full_name: bool) -> bool:
    """May a person's name known from elsewhere take [start, end) from the entities there? Each one
    that overlaps it lies inside it (`[郭]大衛`, `Donna [May]` read as a month), or, for a full name, is
    a model's span that crosses one of its edges (`門[諾楊]振佑`, cut back to `諾`): the name proved
    elsewhere outweighs a model's reading of one context. A span that holds the whole name stands
    (`[John's Hospital]` for a `John`), and so does a recognizer's span that crosses it (an
    identifier, a full date), and a span crossing a given name alone (`大明` is no proof of `明天`)."""
    overlapping = [e for e in doc.ents if e.start_char < end and start < e.end_char]
    return bool(overlapping) and all(
        (start <= e.start_char and e.end_char <= end)
        or (full_name and e._.source in (None, "ner", SOURCE)
            and not (e.start_char <= start and end <= e.end_char))
        for e in overlapping)


def _outside(doc: Doc, ent: Span, covered: Sequence[Tuple[int, int]]) -> Optional[Span]:
    """`ent` without the characters of the new spans `covered` (None when nothing aligned is left)."""
    start, end = ent.start_char, ent.end_char
    for s, t in covered:
        if s <= start and end <= t:
            return None
        if start < s < end:
            end = s
        elif start < t < end:
            start = t
    if (start, end) == (ent.start_char, ent.end_char):
        return ent
    return doc.char_span(start, end, label=ent.label_)


def _overlaps(taken: List[Tuple[int, int]], start: int, end: int) -> bool:
    """Does [start, end) overlap one of the sorted, non-overlapping (start, end) pairs?"""
    i = bisect.bisect_left(taken, (end,))
    return i > 0 and taken[i - 1][1] > start


__all__ = ["PROPAGATED_LABELS", "SOURCE", "found_strings", "not_a_physician", "propagate", "relabel_ents",
           "spread_relations", "spreads"]


def spread_relations(docs: Sequence[Doc]) -> int:
    """Relabel the NER's and propagated mentions of a name with the label a relation word next to
    another mention of the same string says (module docstring); returns how many were relabelled."""
    said: Dict[str, Set[str]] = {}
    for doc in docs:
        text = doc_text(doc)
        for ent in doc.ents:
            if ent.label_ in NAME_LABELS and spreads(ent.text):
                label = relation_label(text, ent.start_char, ent.end_char)
                if label is not None:
                    said.setdefault(ent.text, set()).add(label)
    decided = {string: labels.pop() for string, labels in said.items() if len(labels) == 1}
    if not decided:
        return 0
    changed = 0
    for doc in docs:
        text = doc_text(doc)
        changed += relabel_ents(doc, {i: decided[ent.text] for i, ent in enumerate(doc.ents)
                                      if ent.text in decided and ent.label_ in NAME_LABELS
                                      and ent._.source in (None, "ner", SOURCE)
                                      and not not_a_physician(text, ent, decided[ent.text])})
    return changed


def not_a_physician(text: str, ent: Span, label: str) -> bool:
    """A mention with an honorific beside it is no physician's, whatever another mention of the same
    surname says (`Dr. [Chou]` and `update Mr. [Chou] by phone` are two people)."""
    return label == "DOCTOR" and honorific_beside(text, ent.start_char, ent.end_char)


def relabel_ents(doc: Doc, labels: Dict[int, str]) -> int:
    """Give `doc.ents[i]` the label `labels[i]`, keeping its source; returns how many changed."""
    ents = list(doc.ents)
    relabelled = [(i, Span(doc, ents[i].start, ents[i].end, label=label), ents[i]._.source)
                  for i, label in sorted(labels.items()) if ents[i].label_ != label]
    if not relabelled:
        return 0
    for i, span, _ in relabelled:
        ents[i] = span
    doc.ents = ents
    for _, span, source in relabelled:
        span._.source = source  # span extension values are keyed by label too
    return len(relabelled)
