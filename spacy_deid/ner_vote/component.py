"""`deid_ents_to_spans` and `deid_ner_vote`: the entities of several NERs, kept where most of them agree.

WHY: two NERs trained alike on the same synthetic notes, differing only in their random draws, agree on
most real PHI and disagree on much of what they flag wrongly (a drug, a ward, a clinical word read as a
name). Measured on the shared real corpora (README): keeping a span only where a majority of the voters
have one overlapping it raised token precision by 2.5 to 3.3 points at a recall within a point, where one
training's draw alone moves AI CUP name recall by nine. A vote is the general mechanism for that spread;
no rule about any word is written.

HOW: a NER treats the entities already on a doc as given, so each NER's entities are moved aside
(`deid_ents_to_spans`, into `doc.spans[key]`) before the next runs. `deid_ner_vote` then writes to
`doc.ents` each span of a proposer (a NER's key) that at least `min_votes` of the `voters` have a span
overlapping; a voter may also be evidence that proposes nothing, such as the pretrained taggers'
`doc.spans["knowledge"]`, which breaks a tie between two NERs where it knows the kind of PHI. Proposers
are read in order, spans by position, and a span overlapping one already kept is left out: the first
NER's label wins where they agree on the place. Its boundaries are kept where most voters agree too
(`trim_edges`): an edge token fewer than `min_votes` voters hold is cut off, so one voter's run-on span
(`ELMWOOD HOSPITAL W SEVERE CARDIOMYOPATHY` in an all-capital note, `Dr Wang`) ends where the others end
theirs; a span is never split inside. The `deid` component after it sees the vote's entities as the NER's.
"""
from typing import Any, Callable, Dict, Iterable, List, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

VOTES_PREFIX = "ner_votes:"


def votes_key(ner_name: str) -> str:
    """The `doc.spans` key where a NER's entities wait for the vote."""
    return VOTES_PREFIX + ner_name


def token_cover(length: int, spans: Iterable[Span]) -> bytearray:
    """1 at each token some span holds: whether a span overlaps any of them is then read from its own
    tokens, so a vote costs the spans' lengths, not the product of their numbers (a huge note stays linear)."""
    cover = bytearray(length)
    for span in spans:
        mark(cover, span)
    return cover


def mark(cover: bytearray, span: Span) -> None:
    """Sets `span`'s tokens in `cover`."""
    cover[span.start:span.end] = b"\x01" * (span.end - span.start)


def touches(cover: bytearray, span: Span) -> bool:
    """Does `span` share a token with the spans of `cover`?"""
    return any(cover[span.start:span.end])


def majority_edges(doc: Doc, span: Span, covers: List[bytearray], min_votes: int) -> Span:
    """`span` without the edge tokens fewer than `min_votes` voters hold; the span itself where no token has
    that many (possible when `min_votes` is above 2: the votes may fall on different tokens)."""
    start, end = span.start, span.end
    while start < end and sum(cover[start] for cover in covers) < min_votes:
        start += 1
    while end > start and sum(cover[end - 1] for cover in covers) < min_votes:
        end -= 1
    if start == end or (start, end) == (span.start, span.end):
        return span
    return Span(doc, start, end, label=span.label_)


class EntsToSpans:
    """Moves `doc.ents` into `doc.spans[spans_key]` and clears them, so the next NER decodes freely."""

    def __init__(self, name: str, spans_key: str):
        self.name = name
        self.spans_key = spans_key

    def __call__(self, doc: Doc) -> Doc:
        doc.spans[self.spans_key] = list(doc.ents)
        doc.ents = []
        return doc


class NerVote:
    """Writes to `doc.ents` the proposers' spans that at least `min_votes` voters overlap (module docstring)."""

    def __init__(self, name: str, *, proposers: List[str], voters: List[str], min_votes: int,
                 keep_votes: bool, trim_edges: bool = True, scorer: Optional[Callable] = None):
        if not proposers:
            raise ValueError(f"{name}: no proposers (the doc.spans keys of the NERs that vote)")
        missing = [key for key in proposers if key not in voters]
        if missing:
            raise ValueError(f"{name}: every proposer also votes; {missing} are not among voters {voters}")
        if not 1 <= min_votes <= len(voters):
            raise ValueError(f"{name}: min_votes must be between 1 and the {len(voters)} voters, not {min_votes}")
        self.name = name
        self.proposers = list(proposers)
        self.voters = list(voters)
        self.min_votes = min_votes
        self.keep_votes = keep_votes
        self.trim_edges = trim_edges
        self.scorer = scorer

    def __call__(self, doc: Doc) -> Doc:
        absent = [key for key in self.voters if key not in doc.spans]
        if absent:
            raise ValueError(f"{self.name}: no doc.spans{absent}; each voter's component (a NER followed by "
                             f"deid_ents_to_spans, or deid_knowledge) must run before the vote")
        covers = [token_cover(len(doc), doc.spans[key]) for key in self.voters]
        taken = bytearray(len(doc))
        kept: List[Span] = []
        for key in self.proposers:
            for span in doc.spans[key]:
                votes = sum(touches(cover, span) for cover in covers)
                if votes >= self.min_votes and not touches(taken, span):
                    if self.trim_edges:
                        span = majority_edges(doc, span, covers, self.min_votes)
                    kept.append(span)
                    mark(taken, span)
        doc.ents = sorted(kept, key=lambda span: span.start)
        if not self.keep_votes:
            for key in self.proposers:
                del doc.spans[key]
        return doc

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        return self.scorer(examples, **kwargs) if self.scorer else {}


@Language.factory("deid_ents_to_spans", assigns=["doc.spans", "doc.ents"], default_config={"spans_key": votes_key("ner")})
def make_ents_to_spans(nlp: Language, name: str, spans_key: str) -> EntsToSpans:
    return EntsToSpans(name, spans_key)


@Language.factory(
    "deid_ner_vote",
    assigns=["doc.ents"],
    # the layout `add_voters` gives a pipeline with one voter and the pretrained taggers (the shipped default's)
    default_config={"proposers": [votes_key("ner"), votes_key("ner_2")],
                    "voters": [votes_key("ner"), votes_key("ner_2"), "knowledge"], "min_votes": 2, "keep_votes": False,
                    "trim_edges": True, "scorer": {"@scorers": "spacy.ner_scorer.v1"}},
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0, "ents_per_type": None},
)
def make_ner_vote(nlp: Language, name: str, proposers: List[str], voters: List[str], min_votes: int,
                  keep_votes: bool, trim_edges: bool, scorer: Optional[Callable]) -> NerVote:
    return NerVote(name, proposers=proposers, voters=voters, min_votes=min_votes, keep_votes=keep_votes,
                   trim_edges=trim_edges, scorer=scorer)
