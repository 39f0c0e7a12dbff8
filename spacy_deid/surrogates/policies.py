"""Policies: which operator each label gets. Data, not code: a dict or a JSON file; presets ship as
package data (`surrogates/policies/<name>.json`).

Format: `{"name", "description", "default": OP, "labels": {LABEL_OR_CATEGORY: OP}, "age_cap": bool?}`
where OP is an operator name (`"mask"`) or `{"operator": "mask", "params": {"format": "<{label}>"}}`.
A subcategory entry (DOCTOR) wins over its category (NAME), which wins over `default`. `age_cap`
true forces ages over 89 to `90+` whatever the component's own `age_cap` says.

Presets:
- `surrogate` (default): every PHI span becomes a consistent, same-shape surrogate; dates are shifted
  by the patient's offset; ages are kept (an age is clinically needed and, below 90, not identifying
  under HIPAA).
- `hipaa-safe-harbor`: the 18 Safe Harbor identifier kinds removed or replaced: names, IDs, phones,
  e-mails, URLs, record numbers become surrogates; dates are reduced to the year; ages over 89
  become `90+`; geographic units smaller than a state (city, district, street, house number, room,
  named places, hospitals, schools, businesses, markets) are masked; state, country, region and
  nationality are kept (Safe Harbor allows them).
"""
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from ..labels import CATEGORIES, CATEGORY_OF, LABELS
from .operators import OPERATORS, OperatorError, OperatorRegistry

PRESETS = ("surrogate", "hipaa-safe-harbor")
_TOP_KEYS = {"name", "description", "default", "labels", "age_cap"}


class PolicyError(ValueError):
    """A policy that cannot be used; the message names the policy and the offending entry."""


@dataclass(frozen=True)
class OperatorSpec:
    operator: str
    params: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        return {"operator": self.operator, "params": dict(self.params)}


@dataclass(frozen=True)
class Policy:
    name: str
    default: OperatorSpec
    labels: Dict[str, OperatorSpec]
    description: str = ""
    age_cap: Optional[bool] = None

    def for_label(self, label: str) -> OperatorSpec:
        """Subcategory entry, else category entry, else the default."""
        spec = self.labels.get(label)
        if spec is None:
            spec = self.labels.get(CATEGORY_OF.get(label, ""))
        return spec or self.default

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"name": self.name, "description": self.description,
                                "default": self.default.to_dict(),
                                "labels": {k: v.to_dict() for k, v in sorted(self.labels.items())}}
        if self.age_cap is not None:
            data["age_cap"] = self.age_cap
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, registry: OperatorRegistry = OPERATORS) -> "Policy":
        name = str(data.get("name", "custom")) if isinstance(data, Mapping) else "?"
        if not isinstance(data, Mapping):
            raise PolicyError(f"a policy must be a JSON object / dict, got {type(data).__name__}")
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            raise PolicyError(f"policy {name!r}: unknown key(s) {unknown}; allowed: {sorted(_TOP_KEYS)}")
        default = _spec(data.get("default", "surrogate"), registry, f"policy {name!r}: default")
        labels_raw = data.get("labels", {})
        if not isinstance(labels_raw, Mapping):
            raise PolicyError(f"policy {name!r}: 'labels' must be an object of label → operator")
        labels = {}
        for label, raw in labels_raw.items():
            if label not in LABELS and label not in CATEGORIES:
                raise PolicyError(f"policy {name!r}: unknown label {label!r}; use a subcategory "
                                  f"({', '.join(sorted(LABELS))}) or a category ({', '.join(sorted(CATEGORIES))})")
            labels[label] = _spec(raw, registry, f"policy {name!r}: labels.{label}")
        age_cap = data.get("age_cap")
        if age_cap is not None and not isinstance(age_cap, bool):
            raise PolicyError(f"policy {name!r}: 'age_cap' must be true, false or null")
        description = data.get("description", "")
        if not isinstance(description, str):
            raise PolicyError(f"policy {name!r}: 'description' must be a string")
        return cls(name=name, default=default, labels=labels, description=description, age_cap=age_cap)


def _spec(raw: Any, registry: OperatorRegistry, where: str) -> OperatorSpec:
    if isinstance(raw, str):
        raw = {"operator": raw}
    if not isinstance(raw, Mapping):
        raise PolicyError(f"{where}: expected an operator name or {{'operator': ..., 'params': {{...}}}}")
    extra = sorted(set(raw) - {"operator", "params"})
    if extra:
        raise PolicyError(f"{where}: unknown key(s) {extra}; allowed: ['operator', 'params']")
    op_name = raw.get("operator")
    params = raw.get("params") or {}
    if not isinstance(op_name, str) or not isinstance(params, Mapping):
        raise PolicyError(f"{where}: 'operator' must be a string and 'params' an object")
    try:
        filled = registry.get(op_name).validate(params)
    except OperatorError as err:
        raise PolicyError(f"{where}: {err}") from None
    return OperatorSpec(op_name, filled)


@lru_cache(maxsize=None)
def _preset_text(name: str) -> str:
    return resources.files("spacy_deid.surrogates").joinpath("policies", f"{name}.json").read_text("utf-8")


def load_policy(policy: Union[str, Mapping[str, Any], Policy, Path], *,
                registry: OperatorRegistry = OPERATORS) -> Policy:
    """A Policy from a preset name, a path to a JSON file, a dict, or a Policy (returned as is)."""
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, (str, Path)):
        text = str(policy)
        if text in PRESETS:
            return Policy.from_dict(json.loads(_preset_text(text)), registry=registry)
        path = Path(text)
        if text.endswith(".json") and path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError as err:
                raise PolicyError(f"policy file {text!r} is not valid JSON (line {err.lineno})") from None
            return Policy.from_dict(data, registry=registry)
        raise PolicyError(f"unknown policy {text!r}: use a preset ({', '.join(PRESETS)}), a path to a "
                          f".json file, or a dict")
    return Policy.from_dict(policy, registry=registry)


def presets() -> Tuple[str, ...]:
    return PRESETS
