"""Resynthesis: one pass over a doc's PHI spans that writes `doc._.deid_text` and `doc._.replacements`.

The scope decides whose surrogates agree: `patient` (default; falls back to the document when a doc
has no patient id), `document`, or `corpus` (one mapping for everything: the same name becomes the
same surrogate in every patient's notes, which links patients — use only when that is wanted).
"""
import hashlib
import logging
import re
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc, Span

from ..extensions import install_extensions
from ..han import HAN_RANGES
from ..labels import NAME_LABELS
from ..romanize import NAME_LINK
from .generators import SurrogateGenerator
from .keys import Keyed, normalize, resolve_key
from .names import gender_hint
from .operators import OPERATORS, OperatorRegistry
from .policies import Policy, load_policy
from .shapes import shape_surrogate
from ..dates import not_a_calendar_date, parse, selected_reading, shift
from ..doctext import doc_text

logger = logging.getLogger(__name__)

SCOPES = ("patient", "document", "corpus")
AGE_CAP_TEXT = "90+"  # HIPAA: ages over 89 are aggregated into one category "90 or older"
AGE_CAP_OVER = 89
CACHE_SIZE = 50_000  # memoized surrogates kept per Resynthesizer (a few MB at most)
_ASCII_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
_HAN_3PLUS_RE = re.compile(f"^[{HAN_RANGES}]{{3,4}}$")


_MISSING = object()
# Written on a DATE's replacement record (`"warning"`) when the text is written as a date that the
# calendar lacks (`110.02.30`): it is replaced, but not shifted, so the note's intervals lose it.
NOT_A_CALENDAR_DATE = "not a calendar date: replaced by other characters of its shape, not shifted"


class SurrogateError(RuntimeError):
    """A span that could not be replaced; names the record and the span's offsets, never its text."""


def parse_shift_range(value: Union[Sequence[int], Mapping[str, int]]) -> Tuple[int, int]:
    """`[-365, 365]` or `{"min": -365, "max": 365}` → (lo, hi); must contain a non-zero day."""
    if isinstance(value, Mapping):
        unknown = set(value) - {"min", "max"}
        if unknown or not {"min", "max"} <= set(value):
            raise ValueError(f"date_shift_days as a dict needs exactly 'min' and 'max', got {sorted(value)}")
        lo, hi = value["min"], value["max"]
    else:
        try:
            lo, hi = value
        except (TypeError, ValueError):
            raise ValueError(f"date_shift_days must be [min, max], got {value!r}") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)):
        raise ValueError("date_shift_days must hold two integers")
    if lo > hi:
        raise ValueError(f"date_shift_days: min {lo} is greater than max {hi}")
    if lo == hi == 0:
        raise ValueError("date_shift_days [0, 0] would leave every date unchanged; the shift is never 0")
    return lo, hi


def parse_age(text: str) -> Optional[int]:
    digits = text.strip().translate(_ASCII_DIGITS)
    return int(digits) if digits.isdigit() and len(digits) <= 3 else None


class SpanContext:
    """What an operator may look at for one span."""

    __slots__ = ("engine", "doc", "text", "span", "label", "keyed", "known_given", "date_offset", "warning")

    def __init__(self, engine, doc, text, span, keyed, known_given, date_offset):
        self.engine = engine
        self.doc = doc
        self.text = text  # doc.text, built once per doc (spaCy rebuilds it on every access)
        self.span = span
        self.label = span.label_
        self.keyed = keyed
        self.known_given = known_given
        self.date_offset = date_offset
        self.warning: Optional[str] = None  # set by an operator that could not do what its label asks

    def ext(self, name: str) -> Any:
        """A span extension value (span._.<name>) read straight from doc.user_data."""
        return self.doc.user_data.get(("._.", name, self.span.start_char, self.span.end_char))

    def gender_hint(self) -> Optional[str]:
        """M/F from the words around a name span; None for other labels."""
        if self.label not in NAME_LABELS:
            return None
        return gender_hint(self.text, self.span.start_char, self.span.end_char)


class Resynthesizer:
    """Settings plus lexicon tables; call it on a doc. The key is resolved at first use, so a
    pipeline loads without one and a missing key is reported when it matters."""

    def __init__(self, *, key: Optional[Union[str, bytes]] = None, demo_key: bool = False,
                 policy: Union[str, Mapping[str, Any], Policy] = "surrogate", scope: str = "patient",
                 date_shift_days: Union[Sequence[int], Mapping[str, int]] = (-365, 365),
                 age_cap: bool = False, registry: OperatorRegistry = OPERATORS):
        install_extensions()
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
        self.scope = scope
        self.date_shift_days = parse_shift_range(date_shift_days)
        self.registry = registry
        self.policy = load_policy(policy, registry=registry)
        self.age_cap = bool(age_cap) if self.policy.age_cap is None else self.policy.age_cap
        self.demo_key = bool(demo_key)
        self._key_setting = key
        self._key: Optional[bytes] = None
        self.generator = SurrogateGenerator()
        self._ops = {}  # label → (operator, params), resolved once
        # results memoized per (scope id, label, original, ...): pure functions, so no effect on
        # output, only on speed; bounded, and keyed by scope so they never cross patients
        self._cache: Dict[tuple, str] = {}
        self._date_cache: Dict[tuple, Optional[str]] = {}

    # -- settings -------------------------------------------------------------------------------------
    def set_key(self, key: Optional[Union[str, bytes]]) -> None:
        self._key_setting = key
        self._key = None
        self.clear_caches()  # memoized surrogates belong to the old key

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = resolve_key(self._key_setting, demo_key=self.demo_key)
        return self._key

    def settings(self) -> Dict[str, Any]:
        """Everything but the key: what serialization may write."""
        return {"policy": self.policy.to_dict(), "scope": self.scope,
                "date_shift_days": list(self.date_shift_days), "age_cap": self.age_cap,
                "demo_key": self.demo_key}

    def _op(self, label: str):
        op = self._ops.get(label)
        if op is None:
            spec = self.policy.for_label(label)
            op = self._ops[label] = (self.registry.get(spec.operator), spec.params)
        return op

    # -- keyed choices ----------------------------------------------------------------------------------
    def scope_id(self, doc: Doc, text: Optional[str] = None) -> str:
        if self.scope == "corpus":
            return "corpus"
        if self.scope == "patient" and doc._.patient_id is not None:
            return f"patient:{doc._.patient_id}"
        if doc._.doc_id is not None:
            return f"document:{doc._.doc_id}"
        # no id at all: the text itself names the document (deterministic across processes)
        return "text:" + hashlib.sha256((doc.text if text is None else text).encode("utf-8")).hexdigest()

    def date_offset(self, keyed: Keyed) -> int:
        """One non-zero offset per scope, uniform over [lo, hi] without 0."""
        lo, hi = self.date_shift_days
        zero_inside = lo <= 0 <= hi
        offset = lo + keyed.draw("DATE.shift", "").below(hi - lo + 1 - zero_inside)
        if zero_inside and offset >= 0:
            offset += 1
        return offset

    def shift_date(self, ctx: SpanContext, text: str) -> str:
        """The date moved by the scope's offset in its own format and calendar; when the dates module
        cannot read it, a same-shape digit surrogate."""
        span = ctx.span
        readings = ctx.ext("date_readings")
        norm = ctx.ext("date_norm")
        chosen = None
        for r in readings or ():
            if chosen is None or r.get("selected"):
                chosen = r
                if r.get("selected"):
                    break
        # A patient's notes repeat the same dates: shifting is pure, so reuse results within a run.
        cache_key = (text, ctx.date_offset, norm,
                     (chosen.get("format"), chosen.get("value"), chosen.get("precision")) if chosen else None)
        shifted = self._date_cache.get(cache_key, _MISSING)
        if shifted is _MISSING:
            if chosen is not None and not (chosen.get("precision") == "month-day" and norm):
                # same result as shift(span, ...), which only needs the span for a month-day's year
                shifted = shift(text, ctx.date_offset, reading=chosen)
            else:
                shifted = shift(span, ctx.date_offset)
            if len(self._date_cache) >= CACHE_SIZE:
                self._date_cache.clear()
            self._date_cache[cache_key] = shifted
        if shifted is None or shifted == text:
            # Unreadable as a date (a NER span such as `年三月`): same shape, other digits; with nothing
            # to change (`年十月`), a mask, since a surrogate never equals its original.
            if not_a_calendar_date(text):
                ctx.warning = NOT_A_CALENDAR_DATE
            out = shape_surrogate(text, ctx.keyed.draw("DATE", normalize(text)), zh_digits=True)
            return out if out != text else f"[{ctx.label}]"
        return shifted

    def generate(self, ctx: SpanContext, text: str) -> str:
        """The label's surrogate generator, memoized: a patient's notes repeat the same doctors,
        hospitals and departments, and the result is a pure function of these inputs."""
        hint = ctx.gender_hint()
        # a mention that `propagate` linked to a patient's Han name (`Wang Da-Ming`, `大明` of `王大明`)
        # is written from that name's surrogate
        link = ctx.ext(NAME_LINK) if ctx.label in NAME_LABELS else None
        key = (ctx.keyed.scope_id, ctx.label, text, hint, text in ctx.known_given, link)
        out = self._cache.get(key)
        if out is None:
            out = self.generator.names.linked_name(ctx.keyed, text, link, hint, ctx.known_given) \
                if link else None
            if out is None:
                out = self.generator.generate(ctx.keyed, ctx.label, text, gender_hint=hint,
                                              known_given=ctx.known_given)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = out
        return out

    def clear_caches(self) -> None:
        self._cache.clear()
        self._date_cache.clear()

    def date_year(self, ctx: SpanContext) -> Optional[Tuple[int, str]]:
        """(Christian year, calendar) of a DATE span from its resolved reading, else None."""
        reading = selected_reading(ctx.span)
        if reading is None:  # no date recognizer ran: read the text the way shift() does
            readings = parse(ctx.span.text)
            reading = readings[0] if readings else None
        norm = ctx.span._.date_norm
        value = norm if norm and norm[:4].isdigit() else (reading or {}).get("value") or ""
        if len(value) >= 4 and value[:4].isdigit():
            return int(value[:4]), (reading or {}).get("calendar", "christian")
        return None

    def age_surrogate(self, ctx: SpanContext, text: str) -> str:
        """An age moved by 1-3 years (kept >= 0); used only when a policy asks for AGE surrogates."""
        age = parse_age(text)
        if age is None:
            return self.generator.shape(ctx.keyed, "AGE", text)
        draw = ctx.keyed.draw("AGE", str(age))
        delta = draw.between(1, 3) * (1 if draw.below(2) or age < 4 else -1)
        return str(age + delta)

    # -- the pass ---------------------------------------------------------------------------------------
    def __call__(self, doc: Doc) -> Doc:
        spans = doc.ents  # in text order: spaCy reads them off the tokens left to right
        text = doc_text(doc)
        if not spans:
            doc._.deid_text = text
            doc._.replacements = []
            return doc
        keyed = Keyed(self.key, self.scope_id(doc, text))
        known_given = self._known_given(spans, text)
        offset = self.date_offset(keyed) if any(s.label_ == "DATE" for s in spans) else 0
        # Span extension values live in doc.user_data under ("._.", name, start_char, end_char)
        # (spacy/tokens/underscore.py, also what DocBin serializes). Going through `span._` costs ~5 us
        # per access, a third of this pass on dense notes, so the pass reads and writes the dict.
        user_data = doc.user_data
        pieces: List[str] = []
        records: List[Dict[str, Any]] = []
        pos = out_len = 0
        for span in spans:
            start, end = span.start_char, span.end_char
            label = span.label_
            original = text[start:end]
            operator, params = self._op(label)
            ctx = SpanContext(self, doc, text, span, keyed, known_given, offset)
            try:
                surrogate = operator.apply(original, ctx, params)
                op_name = operator.name
                if label == "AGE" and self.age_cap and op_name in ("keep", "surrogate"):
                    age = parse_age(original)
                    if age is not None and age > AGE_CAP_OVER:
                        surrogate, op_name = AGE_CAP_TEXT, "age_cap"
            except Exception as err:  # noqa: BLE001 - re-raised without the text (PHI)
                raise SurrogateError(f"record {doc._.doc_id!r}: cannot replace the {label} span at "
                                     f"[{start}, {end}) with operator {operator.name!r} "
                                     f"({type(err).__name__})") from None
            between = text[pos:start]
            pieces.append(between)
            out_len += len(between)
            pieces.append(surrogate)
            record = {"label": label, "source": user_data.get(("._.", "source", start, end)),
                      "start": start, "end": end, "out_start": out_len, "out_end": out_len + len(surrogate),
                      "surrogate": surrogate, "operator": op_name}
            if ctx.warning is not None:
                record["warning"] = ctx.warning
            records.append(record)
            out_len += len(surrogate)
            pos = end
            user_data[("._.", "surrogate", start, end)] = surrogate  # = span._.surrogate
        pieces.append(text[pos:])
        doc._.deid_text = "".join(pieces)
        doc._.replacements = records
        return doc

    def _known_given(self, spans: Sequence[Span], text: str) -> FrozenSet[str]:
        """Given names of the full Han names in this note, so a bare `志明` is read as a given name."""
        names = self.generator.names if any(s.label_ in NAME_LABELS for s in spans) else None
        if names is None:
            return frozenset()
        out = set()
        for s in spans:
            if s.label_ in NAME_LABELS and 3 <= s.end_char - s.start_char <= 4:
                name = text[s.start_char:s.end_char]
                if not _HAN_3PLUS_RE.match(name):
                    continue
                given = names.split_han(name)[1]
                if len(given) == 2:
                    out.add(given)
        return frozenset(out)


def resynthesize(doc: Doc, *, key: Optional[Union[str, bytes]] = None, demo_key: bool = False,
                 policy: Union[str, Mapping[str, Any], Policy] = "surrogate", scope: str = "patient",
                 date_shift_days: Union[Sequence[int], Mapping[str, int]] = (-365, 365),
                 age_cap: bool = False) -> Doc:
    """Replace the PHI in `doc.ents` without a pipeline (the batch API calls this); same settings
    as the `deid_surrogates` component. For many docs, build one `Resynthesizer` and call it."""
    return Resynthesizer(key=key, demo_key=demo_key, policy=policy, scope=scope,
                         date_shift_days=date_shift_days, age_cap=age_cap)(doc)
