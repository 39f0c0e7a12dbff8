"""`deid_dates`: the spaCy component that finds DATE spans, attaches readings and resolves them.

Working next to a trained `ner` (policy, applied before the shared overlap policy):
- a NER DATE span with exactly the finder's boundaries keeps its `source` ("ner") and gets the
  finder's readings;
- a NER DATE span that contains finder dates and nothing else but filler (spaces, punctuation, range
  dashes/tildes, `on`/`since`/`to`/`and`, 於/自/至/到/及/和, a stray 年/月/日 of `去年3月`) is replaced
  by the finder's spans: the finder follows the annotation conventions (`[2223.3]-[2224.9]`, the
  date without `on`, `去年[3月]`);
- a NER DATE span that runs from one finder date into the next, crossing the edge of one, with only
  filler between (`[October 24, 2097 Nov 25], 2098 Sep 22`: a list of dates written with spaces) is
  replaced by the finder's spans;
- a NER DATE span that holds finder dates and, after a comma or `、` beside one of them, another
  number (not a year after a comma: `12 Oct, 93`) has run on into the next item of a list
  (`ECT #[1, 20911109]`, `[2083年、2087]` for two dates): the finder's spans replace it, and of the
  rest only a stretch that parses as a date by itself stays, as the NER's (`[20911109]`; `[2083年]`,
  `[2087]`, a bare year the finder reads only in context). Digits beside a finder date without such
  a separator, and words without digits, are left to the shared policy: in real notes the longer span is often the annotated one (`[Jan 12th
  '23]`, `[9月15]` in speech, where the finder reads `Jan 12th` and `9月`; `[去年五月]`);
- a NER DATE span of ASCII digits and `/ . -` with at least one `/` (`4/10`, `18/1.1`, `450/14/5`)
  that no finder date overlaps is dropped: a slashed number is a date only in a shape and context the
  finder reads, and its context vetoes (`Pain 4/10`, `BP 120/80`) and validity checks are the
  judgement a model that sees `4/10` in running text lacks (`96.04`, Minguo year.month, which the
  finder leaves alone because decimals look the same, stays the NER's call);
- any other NER DATE span the finder did not find keeps no readings unless its whole text parses;
- a finder date of two bare numbers (`1/3`, `3/14`, `101.8`, `12/93`: a month and day, a Minguo year
  and month, or a month and a year's last two digits; no four-digit year, no `mk`/`民國`, no word or
  character that says date) is a weak vote: with `weak_dates_need_ner` it stays only where a NER DATE
  span overlaps it. The shape is as often a fraction (`rales 1/3 up`), a temperature (`febrile to
  101.8`) or a range as a date, which the finder's vetoes cannot list and the NER, reading the words
  around it, tells apart; a date the finder reads with a year, a day and a month name, 年/月/日 or a
  prefix stands on its own. The option's default (`null`) turns it on when a NER runs before (`ner`,
  `beam_ner`, `deid_ner`); the finder alone keeps every date it reads;
- a NER span of another label that holds finder dates (`[台中國軍戒酒 186.06]` HOSPITAL,
  `[MK99]` PHONE) gives them up: it keeps its text before the first date, else after the last,
  without the spaces, punctuation and place edge words next to it (`spanedges`: `[台中國軍]戒酒
  [186.06]`), and is dropped when no letter is left. The finder read the date in its context, with
  its vetoes; a model that swallows one into a place or calls it a phone number has not;
- a stretch written as a date with a day its month lacks (`110.02.30`, `民國110年2月30日`, `Feb 30,
  2021`; `finder.dates_the_calendar_lacks`: a month of 1-12 and a day of 1-31, a year as notes write
  it, so not `13/13/2020`) is a DATE without readings, source `date`, under the shared policy: a typo of a date is still a
  date of the patient's; the surrogate step replaces it without a shift and reports it;
- everything else (a finder date longer than a NER span, crossing spans, spans of other labels) is
  decided by the shared policy `overlap_policy` (default: longest span wins; ties rule > date > ner).
Spans that do not align with the tokenizer's tokens are skipped (never guessed).

After finding, dates are resolved within the document (`resolve = true`); `resolve_dates(docs)`
re-resolves a patient's notes together later (see `resolve.py`).
"""
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry

from ..extensions import install_extensions
from ..overlap import OverlapPolicy, merge_into_ents
from .finder import (DEFAULT_PREFERENCE, FIRST_YEAR, LAST_YEAR, FinderSettings, dates_the_calendar_lacks,
                     find_readings, parse)
from .resolve import (DEFAULT_MINGUO_MIN_YEAR, RT, choose_readings, reading_dict, resolve_dates,
                      resolve_spans)
from .scoring import score_dates
from ..doctext import doc_text
from ..refine.spanedges import EDGE_LABELS, place_bounds
from .entcolumns import has_entities, set_ents_outside, token_bounds
from .spanvalues import set_span_values

_FILLER_RE = re.compile(r"(?i:[\s,.;:'’()\[\]\-~–—/至到及和與于於自從从年月日]|on|in|since|from|to|and|till|until|at|of|the)*")
# Digits and separators: with a `/`, a date only where the finder reads one (policy above).
_NUMERIC_DATE_RE = re.compile(r"[0-9][0-9./-]*[0-9]")
# Trimmed from the part of a span left beside the dates it held.
_ASCII_DIGIT = re.compile(r"[0-9]")
_LIST_SEPARATORS = frozenset("、;；")
# After a comma, a year that the finder's date left out (`12 Oct, 93`) continues it, not a list.
_YEAR_AFTER_DAY = re.compile(r"'?[0-9]{2}|[0-9]{4}")
_EDGE_FILLER = frozenset(" \t\r\n,.;:()[]（）、，。；：-–—~/")
# A reading's format of two bare numbers and no four-digit year (`{M:n}/{D:n}`, `{R:n}.{M:n2}`, `{M:n}/{Y:c19}`;
# not `{M:n}/{Y:n4}`): a weak vote.
_WEAK_FORMAT = re.compile(r"\{[MDR]:[a-z0-9]+\}[./-]\{(?:[MDR]:[a-z0-9]+|Y:c[0-9]{2})\}")
# The factories of a trained NER whose DATE spans confirm a weak date.
NER_FACTORIES = frozenset(("ner", "beam_ner", "deid_ner"))


@Language.factory(
    "deid_dates",
    assigns=["doc.ents", "span._.date_readings", "span._.date_norm", "span._.date_resolution",
             "span._.source"],
    default_config={
        "overlap_policy": {"@misc": "spacy_deid.LongestSpanWins.v1"},
        "min_year": FIRST_YEAR,
        "max_year": LAST_YEAR,
        "two_digit_year_pivot": 69,
        "bare_years": True,
        "resolve": True,
        "default_preference": list(DEFAULT_PREFERENCE),
        "minguo_min_year": DEFAULT_MINGUO_MIN_YEAR,
        "partial_year_from_context": False,
        "weak_dates_need_ner": None,
        "scorer": {"@scorers": "spacy_deid.DatesScorer.v1"},
    },
    default_score_weights={"deid_dates_f": 1.0, "deid_dates_p": 0.0, "deid_dates_r": 0.0,
                           "deid_dates_norm_acc": 0.5, "deid_dates_per_type": None},
)
def make_dates(nlp: Language, name: str, *, overlap_policy: OverlapPolicy, min_year: int, max_year: int,
               two_digit_year_pivot: int, bare_years: bool, resolve: bool, default_preference: List[str],
               minguo_min_year: int, partial_year_from_context: bool, weak_dates_need_ner: Optional[bool],
               scorer: Optional[Callable]) -> "DateRecognizer":
    return DateRecognizer(nlp, name, overlap_policy=overlap_policy, min_year=min_year, max_year=max_year,
                          two_digit_year_pivot=two_digit_year_pivot, bare_years=bare_years, resolve=resolve,
                          default_preference=default_preference, minguo_min_year=minguo_min_year,
                          partial_year_from_context=partial_year_from_context,
                          weak_dates_need_ner=weak_dates_need_ner, scorer=scorer)


class DateRecognizer:
    """Finds dates (see `finder.py`), merges them into `doc.ents`, resolves them per document."""

    def __init__(self, nlp: Language, name: str = "deid_dates", *, overlap_policy: OverlapPolicy,
                 min_year: int = FIRST_YEAR, max_year: int = LAST_YEAR, two_digit_year_pivot: int = 69,
                 bare_years: bool = True, resolve: bool = True,
                 default_preference: Iterable[str] = DEFAULT_PREFERENCE,
                 minguo_min_year: int = DEFAULT_MINGUO_MIN_YEAR, partial_year_from_context: bool = False,
                 weak_dates_need_ner: Optional[bool] = None, scorer: Optional[Callable] = score_dates):
        install_extensions()
        if min_year > max_year:
            raise ValueError(f"deid_dates: min_year ({min_year}) is after max_year ({max_year})")
        self.name = name
        self.overlap_policy = overlap_policy
        self.settings = FinderSettings(min_year=min_year, max_year=max_year,
                                       two_digit_year_pivot=two_digit_year_pivot, bare_years=bare_years)
        self.resolve = resolve
        self.default_preference = list(default_preference)
        self.minguo_min_year = minguo_min_year
        self.partial_year_from_context = partial_year_from_context
        if weak_dates_need_ner is None:  # a NER before this component (`deid` creates it after the NER)
            weak_dates_need_ner = not NER_FACTORIES.isdisjoint(nlp.pipe_factories.values())
        self.weak_dates_need_ner = weak_dates_need_ner
        self.scorer = scorer

    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)  # once per doc: spaCy's doc.text builds a Token object per token
        candidates = self._confirmed(doc, find_readings(text, self.settings))
        if not has_entities(doc):
            self._annotate_alone(doc, candidates)
        else:
            found = self._aligned(doc, candidates)
            dates = self._merge_with_ents(doc, found, text, [(start, end) for start, end, _ in candidates])
            if self.resolve:
                resolve_spans([dates], self.default_preference, patient=False,
                              minguo_min_year=self.minguo_min_year,
                              partial_year_from_context=self.partial_year_from_context)
        self._keep_dates_the_calendar_lacks(doc, text)
        return doc

    def _keep_dates_the_calendar_lacks(self, doc: Doc, text: str) -> None:
        """A date no calendar has (`110.02.30`, `民國110年2月30日`) is still a date written in the note,
        a typo of the real one: a DATE without readings, under the overlap policy. The surrogate step
        replaces it without shifting it and says so (`surrogates.engine.NOT_A_CALENDAR_DATE`)."""
        lacking = (doc.char_span(start, end, label="DATE")
                   for start, end in dates_the_calendar_lacks(text, self.settings))
        spans = [s for s in lacking if s is not None]  # misaligned with the tokens: skip, never widen
        if spans:
            set_span_values(doc, [(s.start_char, s.end_char, {"source": "date", "date_readings": []})
                                  for s in spans])
            merge_into_ents(doc, spans, self.overlap_policy)

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self(doc)

    def _confirmed(self, doc: Doc, candidates: List[Tuple[int, int, Sequence[RT]]]
                   ) -> List[Tuple[int, int, Sequence[RT]]]:
        """`candidates` less the weak ones (two bare numbers) that no NER DATE span overlaps, with
        `weak_dates_need_ner` (policy in the module docstring)."""
        if not self.weak_dates_need_ner or not candidates:
            return candidates
        ner_dates = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "DATE" and e._.source in (None, "ner")]
        return [c for c in candidates
                if not all(_WEAK_FORMAT.fullmatch(r[0]) for r in c[2])
                or any(s < c[1] and c[0] < e for s, e in ner_dates)]

    @staticmethod
    def _aligned(doc: Doc, candidates: Sequence[Tuple[int, int, Sequence[RT]]]) -> List[Tuple[Span, Sequence[RT]]]:
        found = []
        for start, end, readings in candidates:
            span = doc.char_span(start, end, label="DATE")
            if span is not None:  # misaligned with the tokenizer: skip rather than widen a PHI span
                found.append((span, readings))
        return found

    def _annotate_alone(self, doc: Doc, candidates: Sequence[Tuple[int, int, Sequence[RT]]]) -> None:
        """No entities yet: the finder's spans never overlap each other, so there is nothing for the
        overlap policy to decide; each span gets all its values in one write, resolved or not."""
        bounds = token_bounds(doc, candidates)
        if None in bounds:  # misaligned with the tokenizer: skip rather than widen a PHI span
            candidates = [c for c, b in zip(candidates, bounds) if b is not None]
            bounds = [b for b in bounds if b is not None]
        set_ents_outside(doc, bounds, "DATE")
        if not candidates:
            return
        if self.resolve:
            if self.partial_year_from_context or any(len(c[2]) > 1 for c in candidates):
                results = choose_readings([[(start, rs) for start, _, rs in candidates]],
                                          self.default_preference, patient=False,
                                          minguo_min_year=self.minguo_min_year,
                                          partial_year_from_context=self.partial_year_from_context)[0]
            else:  # one reading each: nothing to vote on
                results = [(0, rs[0][2], "unambiguous") for _, _, rs in candidates]
            writes = []
            for (start, end, rs), (chosen, norm, how) in zip(candidates, results):
                key = (rs[chosen][0], rs[chosen][2])
                readings = [reading_dict(r, (r[0], r[2]) == key) for r in rs]
                writes.append((start, end, {
                    "date_readings": readings, "source": "date", "date_norm": norm, "date_resolution": how}))
        else:
            writes = [(start, end, {"date_readings": [reading_dict(r) for r in rs], "source": "date"})
                      for start, end, rs in candidates]
        set_span_values(doc, writes)

    def _merge_with_ents(self, doc: Doc, found: List[Tuple[Span, Sequence[RT]]], text: str,
                         finder_offsets: Sequence[Tuple[int, int]]) -> List[Span]:
        """Next to existing entities (a NER, rules): the policy in the module docstring.
        `finder_offsets`: every finder date, aligned to the tokens or not."""
        existing = doc.ents
        readings_of = {(s.start_char, s.end_char): r for s, r in found}
        spans = [span for span, _ in found]
        kept_ents = []
        claimed = set()
        dropped = False
        writes = []
        for ent in existing:
            inside = [s for s in spans if ent.start_char <= s.start_char and s.end_char <= ent.end_char]
            if ent.label_ != "DATE":
                if inside and ent._.source in (None, "ner"):
                    dropped = True
                    bounds = _outside_dates(text, ent, inside)
                    cut = doc.char_span(bounds[0], bounds[1], label=ent.label_) if bounds else None
                    if cut is not None:
                        kept_ents.append(cut)
                    continue
                kept_ents.append(ent)
                continue
            key = (ent.start_char, ent.end_char)
            if key in readings_of:  # same boundaries: the NER span gets the readings
                values = {"date_readings": [reading_dict(r) for r in readings_of[key]]}
                if ent._.source is None:
                    values["source"] = "ner"
                writes.append((key[0], key[1], values))
                claimed.add(key)
                kept_ents.append(ent)
                continue
            if inside and self._only_filler(text, ent, inside):
                dropped = True
                continue  # replaced by the finder's spans below
            if ent._.source in (None, "ner") and _across_finder_dates(text, ent, spans):
                dropped = True
                continue  # `[October 24, 2097 Nov 25], 2098`: replaced by the finder's spans below
            rest = _parts_outside(text, ent, inside) if inside and ent._.source in (None, "ner") else []
            if any(_ASCII_DIGIT.search(text, start, end) and listed for start, end, listed in rest):
                dropped = True  # replaced by the finder's spans below, and the dates of its rest
                for start, end, _ in rest:
                    readings = parse(text[start:end], settings=self.settings)
                    part = doc.char_span(start, end, label="DATE") if readings else None
                    if part is not None:
                        writes.append((start, end, {"date_readings": readings, "source": "ner"}))
                        kept_ents.append(part)
                continue
            if (ent._.source in (None, "ner") and "/" in text[key[0]:key[1]]
                    and _NUMERIC_DATE_RE.fullmatch(text, key[0], key[1])
                    and not any(s < key[1] and key[0] < e for s, e in finder_offsets)):
                dropped = True
                continue  # a number the finder, reading its context, did not call a date
            if not ent._.date_readings:
                readings = parse(ent.text, settings=self.settings)
                if readings:
                    writes.append((key[0], key[1], {"date_readings": readings}))
            kept_ents.append(ent)
        # A rule's span with a date's exact offsets wins the tie (rule > date); writing the date's
        # values at those offsets would relabel its source, since span values are keyed by offsets.
        claimed.update((e.start_char, e.end_char) for e in kept_ents if e._.source not in (None, "ner"))
        new_spans = [s for s in spans if (s.start_char, s.end_char) not in claimed]
        writes.extend((s.start_char, s.end_char, {"date_readings": [reading_dict(r) for r in readings_of[
            (s.start_char, s.end_char)]], "source": "date"}) for s in new_spans)
        set_span_values(doc, writes)
        if dropped:
            doc.ents = kept_ents
        merge_into_ents(doc, new_spans, self.overlap_policy)
        return [e for e in doc.ents if e.label_ == "DATE" and e._.date_readings]

    @staticmethod
    def _only_filler(text: str, ent: Span, inside: List[Span]) -> bool:
        return all(_FILLER_RE.fullmatch(text, start, end) for start, end in _gaps_between(ent, inside))

    def resolve_docs(self, docs: Iterable[Doc], *, same_patient: bool = False) -> List[Doc]:
        """Resolve with this component's settings (patient vote when docs share a patient id)."""
        return resolve_dates(docs, self.default_preference, minguo_min_year=self.minguo_min_year,
                             same_patient=same_patient,
                             partial_year_from_context=self.partial_year_from_context)

    def initialize(self, get_examples: Optional[Callable[[], Iterable[Example]]] = None, *,
                   nlp: Optional[Language] = None) -> None:
        """Nothing to load: the date grammar is code, and its settings live in the config."""

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        return (self.scorer or score_dates)(examples, **kwargs)


def _across_finder_dates(text: str, ent: Span, spans: Sequence[Span]) -> bool:
    """Does the NER DATE span `ent` run from one finder date into the next, crossing one's edge, with only
    filler between (`[October 24, 2097 Nov 25], 2098`: two dates of a list read as one)?"""
    over = sorted((s for s in spans if s.start_char < ent.end_char and ent.start_char < s.end_char),
                  key=lambda s: s.start_char)
    if len(over) < 2 or all(ent.start_char <= s.start_char and s.end_char <= ent.end_char for s in over):
        return False
    position = ent.start_char
    for span in over:
        if span.start_char > position and not _FILLER_RE.fullmatch(text, position, span.start_char):
            return False
        position = max(position, span.end_char)
    return position >= ent.end_char or _FILLER_RE.fullmatch(text, position, ent.end_char) is not None


def _gaps_between(ent: Span, inside: Sequence[Span]) -> List[Tuple[int, int]]:
    """(start, end) of the text of `ent` before, between and after the (non-overlapping) dates it holds."""
    bounds = [ent.start_char]
    for s in sorted(inside, key=lambda s: s.start_char):
        bounds += [s.start_char, s.end_char]
    bounds.append(ent.end_char)
    return list(zip(bounds[::2], bounds[1::2]))


def _without_edge_filler(text: str, start: int, end: int) -> Tuple[int, int]:
    """(start, end) moved inward past the spaces and punctuation at both edges."""
    while start < end and text[start] in _EDGE_FILLER:
        start += 1
    while end > start and text[end - 1] in _EDGE_FILLER:
        end -= 1
    return start, end


def _parts_outside(text: str, ent: Span, inside: Sequence[Span]) -> List[Tuple[int, int, bool]]:
    """(start, end, listed) of each stretch of `ent` between the dates it holds, without the spaces
    and punctuation at its edges (empty stretches left out); `listed`: a `、` or `;` stands between it
    and a date beside it, or a comma, as between two items (`ECT #1, 20911109`, `2083年、2087`; not
    `Jan 12th '23`, `9月15`, nor a year after a comma, `12 Oct, 93`)."""
    out = []
    for gap_start, gap_end in _gaps_between(ent, inside):
        start, end = _without_edge_filler(text, gap_start, gap_end)
        if start < end:
            before = text[gap_start:start] if gap_start > ent.start_char else ""
            after = text[end:gap_end] if gap_end < ent.end_char else ""
            comma_before = any(c in ",，" for c in before) and not _YEAR_AFTER_DAY.fullmatch(text, start, end)
            listed = comma_before or any(c in _LIST_SEPARATORS or c in ",，" for c in after) or any(
                c in _LIST_SEPARATORS for c in before)
            out.append((start, end, listed))
    return out


def _outside_dates(text: str, ent: Span, inside: Sequence[Span]) -> Optional[Tuple[int, int]]:
    """The part of a non-DATE span outside the dates it holds (policy in the module docstring)."""
    first = min(s.start_char for s in inside)
    last = max(s.end_char for s in inside)
    for start, end in ((ent.start_char, first), (last, ent.end_char)):
        start, end = _without_edge_filler(text, start, end)
        if any(c.isalpha() for c in text[start:end]):
            if ent.label_ in EDGE_LABELS:
                start, end = place_bounds(text, start, end, ent.label_)
            return start, end
    return None


@registry.scorers("spacy_deid.DatesScorer.v1")
def make_dates_scorer() -> Callable[..., Dict[str, Any]]:
    return score_dates
