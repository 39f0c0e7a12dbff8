"""Operators: what happens to one PHI span. Small classes in a registry object (Presidio style), each
with a `name`, `validate(params)` (raises OperatorError naming the parameter) and `apply(text, ctx,
params)` that returns the replacement.

Built in: `surrogate` (a consistent, same-shape fake), `mask` (`[DOCTOR]`), `redact` (removed),
`hash` (keyed HMAC-SHA256 hex, truncated), `keep`, and `year` (a date reduced to its year, for HIPAA
Safe Harbor). Register your own with `OPERATORS.register(MyOperator)`.
"""
import re
from typing import TYPE_CHECKING, Any, ClassVar, Dict, List, Mapping, Tuple, Type

from ..labels import CATEGORY_OF, NAME_LABELS
from .keys import normalize

if TYPE_CHECKING:  # pragma: no cover
    from .engine import SpanContext


class OperatorError(ValueError):
    """Bad operator name or parameters in a policy."""


class Operator:
    """Base class: declare `name` and `PARAMS` ({param: (type, default)}); override `apply`."""

    name: ClassVar[str] = ""
    PARAMS: ClassVar[Dict[str, Tuple[type, Any]]] = {}

    def validate(self, params: Mapping[str, Any]) -> Dict[str, Any]:
        """The params with defaults filled in; unknown or mistyped params raise OperatorError."""
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            allowed = ", ".join(sorted(self.PARAMS)) or "none"
            raise OperatorError(f"operator {self.name!r}: unknown parameter(s) {unknown}; allowed: {allowed}")
        out = {}
        for pname, (ptype, default) in self.PARAMS.items():
            value = params.get(pname, default)
            if not isinstance(value, ptype) or isinstance(value, bool) and ptype is not bool:
                raise OperatorError(f"operator {self.name!r}: parameter {pname!r} must be "
                                    f"{ptype.__name__}, got {type(value).__name__}")
            out[pname] = value
        return out

    def apply(self, text: str, ctx: "SpanContext", params: Mapping[str, Any]) -> str:
        raise NotImplementedError


def _family(label: str) -> str:
    """HMAC label family: every name subcategory shares `NAME` (one person, one surrogate)."""
    return "NAME" if label in NAME_LABELS else label


class Keep(Operator):
    """Leave the text as it is (e.g. ages under the default policy, states under Safe Harbor)."""
    name = "keep"

    def apply(self, text, ctx, params):
        return text


class Redact(Operator):
    """Remove the text; the record keeps its offsets (out_start == out_end)."""
    name = "redact"

    def apply(self, text, ctx, params):
        return ""


class Mask(Operator):
    """A placeholder: `format` may use `{label}` (DOCTOR) and `{category}` (NAME)."""
    name = "mask"
    PARAMS = {"format": (str, "[{label}]")}
    _FIELD_RE = re.compile(r"\{([^{}]*)\}")

    def validate(self, params):
        out = super().validate(params)
        fields = set(self._FIELD_RE.findall(out["format"]))
        if not fields <= {"label", "category"}:
            raise OperatorError(f"operator 'mask': format may only use {{label}} and {{category}}, "
                                f"found {sorted(fields - {'label', 'category'})}")
        try:
            out["format"].format(label="X", category="Y")
        except (ValueError, IndexError, KeyError) as err:
            raise OperatorError(f"operator 'mask': malformed format ({err})") from None
        return out

    def apply(self, text, ctx, params):
        return params["format"].format(label=ctx.label, category=CATEGORY_OF.get(ctx.label, ctx.label))


class Hash(Operator):
    """HMAC-SHA256(key, scope id, label family, normalized text) as lower-case hex, the first `length`
    characters. Keyed, so nobody without the key can hash candidate names to find a match; 16 hex
    digits (64 bits) make accidental collisions in a hospital-sized corpus negligible, and fewer than
    8 (32 bits) are refused because collisions would merge different people."""
    name = "hash"
    PARAMS = {"length": (int, 16)}

    def validate(self, params):
        out = super().validate(params)
        if not 8 <= out["length"] <= 64:
            raise OperatorError(f"operator 'hash': length must be 8..64 hex digits, got {out['length']}")
        return out

    def apply(self, text, ctx, params):
        return ctx.keyed.hexdigest("HASH." + _family(ctx.label), normalize(text))[:params["length"]]


class Surrogate(Operator):
    """A consistent fake of the same script and shape (names, IDs, phones, places); dates are shifted
    by the scope's offset, ages changed by a few years (only if a policy asks for it: ages are kept
    by default)."""
    name = "surrogate"

    def apply(self, text, ctx, params):
        if ctx.label == "DATE":
            return ctx.engine.shift_date(ctx, text)
        if ctx.label == "AGE":
            return ctx.engine.age_surrogate(ctx, text)
        return ctx.engine.generate(ctx, text)


class Year(Operator):
    """A date reduced to its year in its own calendar and style (`民國110年12月25日` → `民國110年`,
    `110.03.02` → `110`, `2021/03/02` → `2021`): what HIPAA Safe Harbor lets a date keep. Without a
    readable year (`3/14`, `九月`) the span gets `fallback` (a mask by default)."""
    name = "year"
    PARAMS = {"fallback": (str, "[{label}]")}

    def apply(self, text, ctx, params):
        year = ctx.engine.date_year(ctx)
        if year is None:
            return params["fallback"].format(label=ctx.label, category=CATEGORY_OF.get(ctx.label, ctx.label))
        value, calendar = year
        if calendar == "minguo":
            roc = value - 1911
            if "民國" in text:
                return f"民國{roc}年"
            if "年" in text:
                return f"{roc}年"
            if text[:2].lower() == "mk":
                return text[:2] + str(roc)
            return str(roc)
        return f"{value}年" if "年" in text else str(value)


class OperatorRegistry:
    """Operators by name; an object, so a test or an application can build its own."""

    def __init__(self, operators: List[Type[Operator]] = ()):
        self._ops: Dict[str, Operator] = {}
        for op in operators:
            self.register(op)

    def register(self, op: Type[Operator]) -> Type[Operator]:
        if not op.name:
            raise OperatorError(f"{op.__name__} has no name")
        self._ops[op.name] = op()
        return op

    def get(self, name: str) -> Operator:
        try:
            return self._ops[name]
        except KeyError:
            raise OperatorError(f"unknown operator {name!r}; known: {', '.join(self.names())}") from None

    def names(self) -> List[str]:
        return sorted(self._ops)

    def __contains__(self, name: str) -> bool:
        return name in self._ops


OPERATORS = OperatorRegistry([Surrogate, Mask, Redact, Hash, Keep, Year])
