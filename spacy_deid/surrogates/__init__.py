"""Keyed, consistent surrogates; operators and policies; the `deid_surrogates` component.

`resynthesize(doc, key=..., policy=...)` replaces the PHI in `doc.ents` without a pipeline;
`Resynthesizer` does the same for many docs with the tables loaded once.
"""
from .component import DeidSurrogates, make_deid_surrogates
from .engine import AGE_CAP_TEXT, SCOPES, Resynthesizer, SpanContext, SurrogateError, resynthesize
from .identifiers import tw_id_checksum_ok
from .keys import DEMO_KEY, ENV_VAR, InvalidKeyError, Keyed, KeyedDraw, MissingKeyError, resolve_key
from .operators import OPERATORS, Operator, OperatorError, OperatorRegistry
from .policies import PRESETS, OperatorSpec, Policy, PolicyError, load_policy

__all__ = [
    "resynthesize", "Resynthesizer", "DeidSurrogates", "make_deid_surrogates", "SpanContext",
    "SurrogateError", "SCOPES", "AGE_CAP_TEXT", "MissingKeyError", "InvalidKeyError", "DEMO_KEY", "ENV_VAR",
    "Keyed", "KeyedDraw", "resolve_key", "OPERATORS", "Operator", "OperatorError", "OperatorRegistry",
    "PRESETS", "Policy", "PolicyError", "OperatorSpec", "load_policy", "tw_id_checksum_ok",
]
