"""Choose one reading per DATE span: unambiguous, else the patient's majority, else the document's,
else a configurable default.

Rules, in order (the chosen level is written to `span._.date_resolution`):
1. `unambiguous`: every reading of the span has the same value (`110.12.25`, `12/27/2023`).
2. `patient-vote`: the unambiguous dates of all the patient's notes vote. A span votes for its style
   key (`calendar/order`, e.g. `minguo/ymd`, `christian/mdy`), for its calendar (only if it has a year)
   and for its order family (`3/14` votes `mdy`). An ambiguous span's readings are ranked by
   (key votes, calendar votes, order votes); a unique best value wins. So a patient whose notes write
   `100/01/05` reads `99/05/12` as Minguo 2010-05-12, and one whose notes write `12/27/2023` reads
   `01/03/2024` as January 3. Only docs with a `doc._.patient_id` (or `same_patient=True`) have
   patient context.
3. `document-vote`: the same vote within the span's own document (used without patient context and
   when the patient's vote ties).
4. `default`: the first reading in the preference order (Taiwan default: `minguo/ymd`,
   `christian/ymd`, `christian/mdy`, `christian/dmy`), except that a two-digit Minguo year below
   `minguo_min_year` (民國40 = 1951) ranks after the Christian readings: `23/04/05` is 2023, not 1934.
With `partial_year_from_context`, a month-day or month-only date takes the year of the nearest
resolved full date before it in the document (else after it), and `+year-from-context` is appended
to its resolution (e.g. `unambiguous+year-from-context`).

The chosen reading carries `"selected": True` in `span._.date_readings` (others `False`).

Speed: the vote works on readings as tuples `(format, calendar, value, precision, order)` (`RT`), with
the per-format facts (style key, order family, Minguo field) cached per format string; what each span
votes for (`_span_vote`) is worked out once and serves both its patient's and its document's count;
a document whose dates are all unambiguous counts no votes. The component calls `choose_readings` on
the finder's tuples and writes each span's values once; `resolve_dates` reads and writes `span._`
values.
"""
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..extensions import install_extensions
from .finder import DEFAULT_PREFERENCE, reading_dict
from .formats import calendar_of, fields_of, order_family, order_of, parse_value, style_key
from .spanvalues import get_span_value, set_span_values

DEFAULT_MINGUO_MIN_YEAR = 40
YEAR_FROM_CONTEXT = "+year-from-context"
RT = Tuple[str, str, str, str, str]  # a reading: (format, calendar, value, precision, order)
Votes = Tuple[Dict[str, int], Dict[str, int], Dict[str, int]]  # counts per style key, calendar, order family
SpanVote = Optional[Tuple[Optional[str], Optional[str], Optional[str]]]
_WITH_YEAR = frozenset(("day", "month", "year"))


def date_spans(doc: Doc) -> List[Span]:
    """DATE spans of `doc.ents` that carry readings."""
    return [e for e in doc.ents if e.label_ == "DATE" and e._.date_readings]


def _has_year(reading: Dict) -> bool:
    return reading["precision"] in _WITH_YEAR


def as_tuple(reading: Dict) -> RT:
    """A reading dict as the tuple the vote works on."""
    return (reading["format"], reading["calendar"], reading["value"], reading["precision"],
            reading.get("order") or order_of(reading["format"]))


@lru_cache(maxsize=4096)
def _format_info(fmt: str) -> Tuple[str, str, str, bool]:
    """(style key, calendar, order family, has a Minguo year field) of a format."""
    return (style_key(fmt), calendar_of(fmt), order_family(order_of(fmt)),
            any(f == "R" for f, _ in fields_of(fmt)))


def _unambiguous(readings: Sequence[RT]) -> bool:
    first = readings[0][2] if readings else None
    return all(r[2] == first for r in readings)


@lru_cache(maxsize=256)
def _family(order: str) -> str:
    return order_family(order)


def _span_vote(readings: Sequence[RT]) -> SpanVote:
    """What a span votes for: (style key, calendar, order family), each None where its readings do
    not agree on one (a calendar only from readings with a year, an order family only from an order
    of two or more fields: `3/14` votes `mdy`); None for an ambiguous span, which does not vote."""
    if len(readings) == 1:  # most spans: one reading
        r = readings[0]
        return (_format_info(r[0])[0], r[1] if r[3] in _WITH_YEAR else None,
                _family(r[4]) if len(r[4]) > 1 else None)
    if not _unambiguous(readings):
        return None
    keys = {_format_info(r[0])[0] for r in readings}
    cals = {r[1] for r in readings}
    families = {_family(r[4]) for r in readings}
    return (keys.pop() if len(keys) == 1 else None,
            cals.pop() if len(cals) == 1 and all(r[3] in _WITH_YEAR for r in readings) else None,
            families.pop() if len(families) == 1 and any(len(r[4]) > 1 for r in readings) else None)


def _count_votes(span_votes: Iterable[SpanVote]) -> Votes:
    keys: Dict[str, int] = {}
    cals: Dict[str, int] = {}
    orders: Dict[str, int] = {}
    for vote in span_votes:
        if vote is None:
            continue
        key, cal, family = vote
        if key is not None:
            keys[key] = keys.get(key, 0) + 1
        if cal is not None:
            cals[cal] = cals.get(cal, 0) + 1
        if family is not None:
            orders[family] = orders.get(family, 0) + 1
    return keys, cals, orders


def _vote(readings: Sequence[RT], votes: Votes) -> Optional[int]:
    """Index of the reading the votes choose; None when they do not decide (no votes, or a tie)."""
    keys, cals, orders = votes
    scored = []
    for r in readings:
        key, cal, family, _ = _format_info(r[0])
        scored.append((keys.get(key, 0), cals.get(cal, 0) if r[3] in _WITH_YEAR else 0, orders.get(family, 0)))
    best = max(scored)
    if best == (0, 0, 0):
        return None
    winners = {r[2] for s, r in zip(scored, readings) if s == best}
    if len(winners) != 1:
        return None  # a tie: this level cannot decide
    return scored.index(best)


def _rank(r: RT, preference: Sequence[str], minguo_min_year: int) -> Tuple[int, str]:
    key, _, _, minguo = _format_info(r[0])
    rank = preference.index(key) if key in preference else len(preference)
    if minguo and r[3] in _WITH_YEAR and int(r[2][:4]) - 1911 < minguo_min_year:
        rank += len(preference) + 1  # 民國23 (1934) is a rare reading of `23/04/05`
    return rank, r[0]


def default_rank(reading: Dict, preference: Sequence[str], minguo_min_year: int) -> Tuple[int, str]:
    """Rank of a reading dict in the default order (lower is preferred)."""
    return _rank(as_tuple(reading), tuple(preference), minguo_min_year)


def _choose(readings: Sequence[RT], unambiguous: bool, levels: Sequence[Tuple[str, Votes]],
            preference: Sequence[str], minguo_min_year: int) -> Tuple[int, str]:
    if len(readings) == 1:
        return 0, "unambiguous"
    if unambiguous:
        how = "unambiguous"
    else:
        for name, votes in levels:
            chosen = _vote(readings, votes)
            if chosen is not None:
                return chosen, name
        how = "default"
    ranks = [_rank(r, preference, minguo_min_year) for r in readings]
    return ranks.index(min(ranks)), how


def _year_from_context(items: Sequence[Tuple[int, Sequence[RT]]], results: List[List]) -> None:
    with_year = [(start, res[1][:4]) for (start, _), res in zip(items, results)
                 if res[1] and not res[1].startswith("--")]
    if not with_year:
        return
    for (start_char, _), res in zip(items, results):
        norm = res[1]
        if not norm or not norm.startswith("--"):
            continue
        before = [y for start, y in with_year if start < start_char]
        year = before[-1] if before else next(y for start, y in with_year if start > start_char)
        candidate = year + norm[1:]
        try:
            parse_value(candidate)
        except ValueError:
            continue  # --02-29 in a common year: keep the partial date
        res[1] = candidate
        res[2] = (res[2] or "") + YEAR_FROM_CONTEXT


def choose_readings(docs: List[List[Tuple[int, Sequence[RT]]]], default: Optional[Sequence[str]] = None, *,
                    patient: bool, minguo_min_year: int = DEFAULT_MINGUO_MIN_YEAR,
                    partial_year_from_context: bool = False) -> List[List[List]]:
    """Resolve one group given, per doc, its dates as (start_char, readings) in doc order; returns, per
    doc and date, `[index of the chosen reading, date_norm, date_resolution]`."""
    preference = tuple(default) if default is not None else DEFAULT_PREFERENCE
    span_votes = [[_span_vote(rs) for _, rs in items] for items in docs]
    patient_votes = None
    out = []
    for items, doc_votes in zip(docs, span_votes):
        levels: List[Tuple[str, Votes]] = []
        if None in doc_votes:  # an ambiguous date: the votes decide it
            if patient:
                if patient_votes is None:
                    patient_votes = _count_votes(v for votes in span_votes for v in votes)
                levels.append(("patient-vote", patient_votes))
            levels.append(("document-vote", _count_votes(doc_votes)))
        results = []
        for (_, rs), vote in zip(items, doc_votes):
            i, how = _choose(rs, vote is not None, levels, preference, minguo_min_year)
            results.append([i, rs[i][2], how])
        if partial_year_from_context:
            _year_from_context(items, results)
        out.append(results)
    return out


def resolve_dates(docs: Iterable[Doc], default: Optional[Sequence[str]] = None, *,
                  minguo_min_year: int = DEFAULT_MINGUO_MIN_YEAR, same_patient: bool = False,
                  partial_year_from_context: bool = False) -> List[Doc]:
    """Resolve the DATE spans of `docs` in place (and return the docs).

    Docs are grouped by `doc._.patient_id`; a doc without one is its own group with no patient
    context, unless `same_patient=True` says all `docs` are one patient's notes. `default` is the
    preference order of style keys used when no vote decides."""
    install_extensions()
    docs = list(docs)
    groups: Dict[object, List[Doc]] = {}
    for i, doc in enumerate(docs):
        pid = "__same__" if same_patient else doc._.patient_id
        groups.setdefault(("p", pid) if pid is not None else ("d", i), []).append(doc)
    for (kind, _), group in groups.items():
        resolve_spans([date_spans(doc) for doc in group], default, patient=(kind == "p"),
                      minguo_min_year=minguo_min_year, partial_year_from_context=partial_year_from_context)
    return docs


def resolve_spans(spans_by_doc: List[List[Span]], default: Optional[Sequence[str]] = None, *,
                  patient: bool, minguo_min_year: int = DEFAULT_MINGUO_MIN_YEAR,
                  partial_year_from_context: bool = False) -> None:
    """Resolve one group: the DATE spans (with readings) of each of its docs, in doc order."""
    stored = [[get_span_value(s.doc, s.start_char, s.end_char, "date_readings") for s in spans]
              for spans in spans_by_doc]
    items = [[(s.start_char, [as_tuple(r) for r in readings]) for s, readings in zip(spans, doc_readings)]
             for spans, doc_readings in zip(spans_by_doc, stored)]
    results = choose_readings(items, default, patient=patient, minguo_min_year=minguo_min_year,
                              partial_year_from_context=partial_year_from_context)
    for spans, doc_readings, doc_results in zip(spans_by_doc, stored, results):
        if not spans:
            continue
        writes = []
        for span, readings, (i, norm, how) in zip(spans, doc_readings, doc_results):
            key = (readings[i]["format"], readings[i]["value"])
            new = [dict(r, selected=((r["format"], r["value"]) == key)) for r in readings]
            writes.append((span.start_char, span.end_char,
                           {"date_readings": new, "date_norm": norm, "date_resolution": how}))
        set_span_values(spans[0].doc, writes)


def selected_reading(span: Span) -> Optional[Dict]:
    """The reading resolution chose, else the first (preferred) one, else None."""
    readings = span._.date_readings or []
    for r in readings:
        if r.get("selected"):
            return r
    return readings[0] if readings else None
