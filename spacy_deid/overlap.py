"""One overlap policy for every recognizer (NER, rules, dates): the pipeline keeps one span per char.

Registered so users swap it in config (`overlap_policy = {"@misc": "spacy_deid.LongestSpanWins.v1"}`).
"""
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

from spacy.tokens import Doc, Span
from spacy.util import registry

from .doctext import doc_text
from .labels import CATEGORY_OF

# Validated patterns (checksummed IDs, phones) beat the date finder, which beats the statistical NER:
# the more constrained recognizer knows the exact boundaries better.
DEFAULT_SOURCE_PRIORITY: Dict[str, int] = {"rule": 3, "date": 2, "ner": 1}

OverlapPolicy = Callable[[Iterable[Span]], List[Span]]


def _is_identifier(span: Span) -> bool:
    return CATEGORY_OF.get(span.label_) == "ID"


def _ner_over_rule_identifier(spans: Sequence[Span]) -> List[Span]:
    """NER spans of another category that overlap an identifier (PHONE, ID_NUMBER, EMAIL...) the
    rules found. WHY: the rule matched the identifier's exact pattern (and checksum), so a model span
    that reaches into it is wrong at least at its edge (`電話 07 3345678 [ext. 502.]` read as a
    HOSPITAL), and by being longer it would otherwise win and relabel the phone extension."""
    identifier_tokens = set()
    for span in spans:
        if span._.source == "rule" and _is_identifier(span):
            identifier_tokens.update(range(span.start, span.end))
    return [span for span in spans
            if (span._.source or "ner") == "ner" and not _is_identifier(span)
            and any(i in identifier_tokens for i in range(span.start, span.end))]


def longest_span_wins(spans: Iterable[Span], source_priority: Dict[str, int] = DEFAULT_SOURCE_PRIORITY,
                      ) -> List[Span]:
    """Keep the longest span of each overlapping group; ties go to the higher-priority source, then
    to the earlier start. A NER span of another category never beats an identifier the rules found
    (`_ner_over_rule_identifier`). Returns spans sorted by position."""
    def key(span: Span):
        return (-(span.end_char - span.start_char), -source_priority.get(span._.source or "ner", 0),
                span.start_char)

    spans = list(spans)
    overruled = {id(span) for span in _ner_over_rule_identifier(spans)}
    taken: List[Span] = []
    seen_tokens = set()
    for span in sorted((s for s in spans if id(s) not in overruled), key=key):
        if any(i in seen_tokens for i in range(span.start, span.end)):
            continue
        taken.append(span)
        seen_tokens.update(range(span.start, span.end))
    return sorted(taken, key=lambda s: s.start)


@registry.misc("spacy_deid.LongestSpanWins.v1")
def make_longest_span_wins(source_priority: Dict[str, int] = DEFAULT_SOURCE_PRIORITY) -> OverlapPolicy:
    def policy(spans: Iterable[Span]) -> List[Span]:
        return longest_span_wins(spans, source_priority)

    return policy


# The spans a merge left out, kept so that a span a wrong NER span displaced comes back when the refine
# stage trims or drops that NER span (`restore_displaced`); and every span a recognizer proposed, so
# that a tie is settled against a repaired NER span only, never against another recognizer's span.
DISPLACED_KEY = "deid_displaced"
PROPOSED_KEY = "deid_proposed"


def merge_into_ents(doc, new_spans: Sequence[Span], policy: OverlapPolicy) -> None:
    """Merge `new_spans` with `doc.ents` under `policy` and write the result back to `doc.ents`; the
    spans left out are added to `doc.spans[DISPLACED_KEY]`."""
    for span in doc.ents:
        if span._.source is None:
            span._.source = "ner"
    candidates = list(doc.ents) + list(new_spans)
    if new_spans:
        before = list(doc.spans[PROPOSED_KEY]) if PROPOSED_KEY in doc.spans else []
        doc.spans[PROPOSED_KEY] = before + list(new_spans)
    kept = policy(candidates)
    if len(kept) < len(candidates):
        kept_keys = {(s.start, s.end, s.label) for s in kept}
        lost = [s for s in candidates if (s.start, s.end, s.label) not in kept_keys]
        if lost:
            before = list(doc.spans[DISPLACED_KEY]) if DISPLACED_KEY in doc.spans else []
            doc.spans[DISPLACED_KEY] = before + lost
    doc.ents = kept


def restore_displaced(doc: Doc, sources: Sequence[str] = ("rule", "date", "principle")) -> int:
    """Put back, where no entity now stands, the spans of `sources` that a merge left out (longest
    first), and where an entity now has exactly a left-out span's offsets, that span (an exact tie
    goes to the recognizer, as in the merge, unless that entity is itself a recognizer's span: two rules
    that read one string two ways were settled by the merge); returns how many. A recognizer's span lost to a longer
    NER span that the refine stage then trimmed or dropped (`[約旦遊學]` -> `[約旦]`) was right where
    the NER was wrong."""
    if DISPLACED_KEY not in doc.spans or not len(doc.spans[DISPLACED_KEY]):
        return 0
    ents = list(doc.ents)
    at = {(e.start, e.end): i for i, e in enumerate(ents)}
    proposed = {(s.start, s.end, s.label) for s in doc.spans[PROPOSED_KEY]} if PROPOSED_KEY in doc.spans else set()
    taken = {i for ent in ents for i in range(ent.start, ent.end)}
    changed = 0
    for span in sorted(doc.spans[DISPLACED_KEY], key=lambda s: (-(s.end_char - s.start_char), s.start_char)):
        if (span._.source or "ner") not in sources:
            continue
        same = at.get((span.start, span.end))
        if same is not None:
            current = ents[same]
            if current.label != span.label and (current.start, current.end, current.label) not in proposed:
                ents[same] = span
                changed += 1
        elif not any(i in taken for i in range(span.start, span.end)):
            ents.append(span)
            at[(span.start, span.end)] = len(ents) - 1
            taken.update(range(span.start, span.end))
            changed += 1
    if changed:
        doc.ents = sorted(ents, key=lambda s: s.start)
    return changed


def taken_characters(doc: Doc, length: int) -> List[bool]:
    """For each of the `length` characters of the doc's text (and one past its end), is it inside an
    entity? For the steps that add spans only where nothing was found (`cued_names`)."""
    taken = [False] * (length + 1)
    for ent in doc.ents:
        for i in range(ent.start_char, ent.end_char):
            taken[i] = True
    return taken


def add_where_free(doc: Doc, found: Iterable[Tuple[int, int, str]], source: str) -> List[Span]:
    """Add to `doc.ents` each (start, end, label) of `found`, in its order, where no entity (nor a span
    added before it) stands and its edges are a token's; the added spans carry `source`. Returns them
    (for counting, never for logging: PHI)."""
    taken = taken_characters(doc, len(doc_text(doc)))
    added = []
    for start, end, label in found:
        if any(taken[start:end]):
            continue
        span = doc.char_span(start, end, label=label)
        if span is None:
            continue
        for i in range(start, end):
            taken[i] = True
        span._.source = source
        added.append(span)
    if added:
        doc.ents = sorted(list(doc.ents) + added, key=lambda s: s.start)
    return added
