"""One overlap policy for every recognizer (NER, rules, dates): the pipeline keeps one span per char.

Registered so users swap it in config (`overlap_policy = {"@misc": "spacy_deid.LongestSpanWins.v1"}`).
"""
from typing import Callable, Dict, Iterable, List, Sequence

from spacy.tokens import Span
from spacy.util import registry

# Validated patterns (checksummed IDs, phones) beat the date finder, which beats the statistical NER:
# the more constrained recognizer knows the exact boundaries better.
DEFAULT_SOURCE_PRIORITY: Dict[str, int] = {"rule": 3, "date": 2, "ner": 1}

OverlapPolicy = Callable[[Iterable[Span]], List[Span]]


def longest_span_wins(spans: Iterable[Span], source_priority: Dict[str, int] = DEFAULT_SOURCE_PRIORITY,
                      ) -> List[Span]:
    """Keep the longest span of each overlapping group; ties go to the higher-priority source, then
    to the earlier start. Returns spans sorted by position."""
    def key(span: Span):
        return (-(span.end_char - span.start_char), -source_priority.get(span._.source or "ner", 0),
                span.start_char)

    taken: List[Span] = []
    seen_tokens = set()
    for span in sorted(spans, key=key):
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


def merge_into_ents(doc, new_spans: Sequence[Span], policy: OverlapPolicy) -> None:
    """Merge `new_spans` with `doc.ents` under `policy` and write the result back to `doc.ents`."""
    for span in doc.ents:
        if span._.source is None:
            span._.source = "ner"
    doc.ents = policy(list(doc.ents) + list(new_spans))
