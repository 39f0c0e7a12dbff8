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
"""
from collections import Counter
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..extensions import install_extensions
from .finder import DEFAULT_PREFERENCE
from .formats import calendar_of, fields_of, order_family, order_of, parse_value, style_key

DEFAULT_MINGUO_MIN_YEAR = 40
YEAR_FROM_CONTEXT = "+year-from-context"


def date_spans(doc: Doc) -> List[Span]:
    """DATE spans of `doc.ents` that carry readings."""
    return [e for e in doc.ents if e.label_ == "DATE" and e._.date_readings]


def _has_year(reading: Dict) -> bool:
    return reading["precision"] in ("day", "month", "year")


def _votes_of(spans: Iterable[Span]) -> Tuple[Counter, Counter, Counter]:
    keys: Counter = Counter()
    cals: Counter = Counter()
    orders: Counter = Counter()
    for span in spans:
        readings = span._.date_readings
        if len({r["value"] for r in readings}) != 1:
            continue
        span_keys = {style_key(r["format"]) for r in readings}
        if len(span_keys) == 1:
            keys[span_keys.pop()] += 1
        span_cals = {r["calendar"] for r in readings if _has_year(r)}
        if len(span_cals) == 1 and all(_has_year(r) for r in readings):
            cals[span_cals.pop()] += 1
        span_orders = {order_family(r.get("order") or order_of(r["format"])) for r in readings}
        if len(span_orders) == 1 and any(len(r.get("order") or order_of(r["format"])) > 1 for r in readings):
            orders[span_orders.pop()] += 1
    return keys, cals, orders


def _vote(readings: Sequence[Dict], votes: Tuple[Counter, Counter, Counter]) -> Optional[Dict]:
    keys, cals, orders = votes

    def score(r: Dict) -> Tuple[int, int, int]:
        fmt = r["format"]
        cal = cals[calendar_of(fmt)] if _has_year(r) else 0
        return keys[style_key(fmt)], cal, orders[order_family(order_of(fmt))]

    scored = [(score(r), r) for r in readings]
    best = max(s for s, _ in scored)
    if best == (0, 0, 0):
        return None
    winners = {r["value"] for s, r in scored if s == best}
    if len(winners) != 1:
        return None  # a tie: this level cannot decide
    return next(r for s, r in scored if s == best)


def default_rank(reading: Dict, preference: Sequence[str], minguo_min_year: int) -> Tuple[int, str]:
    key = style_key(reading["format"])
    rank = list(preference).index(key) if key in preference else len(preference)
    year_styles = [s for f, s in fields_of(reading["format"]) if f == "R"]
    if year_styles and _has_year(reading) and int(reading["value"][:4]) - 1911 < minguo_min_year:
        rank += len(preference) + 1  # 民國23 (1934) is a rare reading of `23/04/05`
    return rank, reading["format"]


def _choose(span: Span, levels: Sequence[Tuple[str, Tuple[Counter, Counter, Counter]]],
            preference: Sequence[str], minguo_min_year: int) -> Tuple[Dict, str]:
    readings = span._.date_readings
    if len({r["value"] for r in readings}) == 1:
        return min(readings, key=lambda r: default_rank(r, preference, minguo_min_year)), "unambiguous"
    for name, votes in levels:
        chosen = _vote(readings, votes)
        if chosen is not None:
            return chosen, name
    return min(readings, key=lambda r: default_rank(r, preference, minguo_min_year)), "default"


def _apply(span: Span, chosen: Dict, how: str) -> None:
    key = (chosen["format"], chosen["value"])
    readings = [dict(r, selected=((r["format"], r["value"]) == key)) for r in span._.date_readings]
    span._.date_readings = readings
    span._.date_norm = chosen["value"]
    span._.date_resolution = how


def _year_from_context(doc_spans: List[Span]) -> None:
    with_year = [(s.start_char, s._.date_norm[:4]) for s in doc_spans
                 if s._.date_norm and not s._.date_norm.startswith("--")]
    for span in doc_spans:
        norm = span._.date_norm
        if not norm or not norm.startswith("--") or not with_year:
            continue
        before = [y for start, y in with_year if start < span.start_char]
        year = before[-1] if before else next(y for start, y in with_year if start > span.start_char)
        candidate = year + norm[1:]
        try:
            parse_value(candidate)
        except ValueError:
            continue  # --02-29 in a common year: keep the partial date
        span._.date_norm = candidate
        span._.date_resolution = (span._.date_resolution or "") + YEAR_FROM_CONTEXT


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
    preference = tuple(default) if default is not None else DEFAULT_PREFERENCE
    patient_votes = None
    for doc_spans in spans_by_doc:
        if any(len({r["value"] for r in s._.date_readings}) > 1 for s in doc_spans):
            if patient and patient_votes is None:
                patient_votes = _votes_of(s for spans in spans_by_doc for s in spans)
            levels = [("patient-vote", patient_votes)] if patient else []
            levels.append(("document-vote", _votes_of(doc_spans)))
        else:
            levels = []  # all unambiguous: no vote to count
        for span in doc_spans:
            chosen, how = _choose(span, levels, preference, minguo_min_year)
            _apply(span, chosen, how)
        if partial_year_from_context:
            _year_from_context(doc_spans)


def selected_reading(span: Span) -> Optional[Dict]:
    """The reading resolution chose, else the first (preferred) one, else None."""
    readings = span._.date_readings or []
    for r in readings:
        if r.get("selected"):
            return r
    return readings[0] if readings else None
