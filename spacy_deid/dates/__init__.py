"""Dates in Christian and Minguo calendars: find, read, resolve by vote, render and shift.

- `parse(text, fmt=None)`: every plausible reading of a date string (or its one reading in `fmt`);
  `not_a_calendar_date(text)`: written as a date, and none (`110.02.30`);
- `render(value, fmt)`: a value written back exactly in a format (see `formats.py` for the format
  language);
- `shift(span_or_text, days)`: the date moved by N days in its own format (see `shift.py`);
- `find_dates(text)`: date candidates in running text (see `finder.py`);
- `resolve_dates(docs)`: one reading per DATE span by patient/document vote (see `resolve.py`);
- `component`: the `deid_dates` spaCy factory.
"""
from importlib import import_module
from typing import Any

from .finder import DateCandidate, FinderSettings, find_dates, not_a_calendar_date, parse
from .formats import UnrenderableDate, render
from .resolve import resolve_dates, selected_reading
from .scoring import reference_doc, score_dates
from .shift import shift, shift_value

__all__ = ["parse", "not_a_calendar_date", "render", "shift", "shift_value", "find_dates", "resolve_dates",
           "component", "DateRecognizer", "DateCandidate", "FinderSettings", "UnrenderableDate", "selected_reading",
           "reference_doc", "score_dates"]


def __getattr__(name: str) -> Any:
    """`component` and `DateRecognizer` load on first use (PEP 562): the span checks read the finder
    (`spanshape`), and the component reads the span checks (`spanedges`)."""
    if name == "component":
        return import_module(".component", __name__)
    if name == "DateRecognizer":
        return import_module(".component", __name__).DateRecognizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
