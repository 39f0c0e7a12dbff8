"""Span extension values read and written in bulk.

WHY: `span._.name = value` builds an `Underscore` object per access; for thousands of dates per second
that is most of the cost of attaching them. spaCy's `Underscore` keeps a plain (no getter, setter or
method) Span extension in `doc.user_data[("._.", name, span.start_char, span.end_char)]`; writing that
key is exactly what `span._.name = value` does (tested against it). Extensions with a getter, setter or
method go through `Underscore` as usual.
"""
from typing import Any, Dict, Iterable, Tuple

from spacy.tokens import Doc, Span
from spacy.tokens.underscore import Underscore

_PREFIX = "._."


def _plain(name: str) -> bool:
    """A default-only extension, stored under the user_data key (see the module docstring)."""
    ext = Underscore.span_extensions.get(name)
    if ext is None:
        raise AttributeError(f"[spacy_deid] Span has no extension {name!r}: call install_extensions()")
    _default, method, getter, setter = ext
    return method is None and getter is None and setter is None


def set_span_values(doc: Doc, items: Iterable[Tuple[int, int, Dict[str, Any]]]) -> None:
    """For each (start_char, end_char, {name: value}): what `span._.name = value` does for the span of
    `doc` with those offsets."""
    user_data = doc.user_data
    plain: Dict[str, bool] = {}
    for start, end, values in items:
        for name, value in values.items():
            ok = plain.get(name)
            if ok is None:
                ok = plain[name] = _plain(name)
            if ok:
                user_data[(_PREFIX, name, start, end)] = value
            else:
                setattr(Span(doc, *_token_bounds(doc, start, end))._, name, value)


def get_span_value(doc: Doc, start: int, end: int, name: str) -> Any:
    """`span._.name` for the span of `doc` with those character offsets (default-only extensions)."""
    key = (_PREFIX, name, start, end)
    if _plain(name):
        user_data = doc.user_data
        if key in user_data:
            return user_data[key]
    return getattr(Span(doc, *_token_bounds(doc, start, end))._, name)


def _token_bounds(doc: Doc, start: int, end: int) -> Tuple[int, int]:
    span = doc.char_span(start, end)
    if span is None:
        raise ValueError("[spacy_deid] character offsets do not align with the tokens")
    return span.start, span.end
