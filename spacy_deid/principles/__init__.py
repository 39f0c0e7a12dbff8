"""Principles: human-readable slot sequences that say where PHI stands (`配偶: [S+H2]` FAMILY,
`[S+H2] 醫師` DOCTOR, `Dr. [Aa]` DOCTOR), learned from an annotated corpus (`learn.py`), reviewed by a
person (`store.py`: candidate / accepted / rejected), and applied by one matcher (`matcher.py`) as a
recognizer of `deid` that only adds spans."""
from .learn import learn_principles
from .matcher import PrincipleMatcher
from .shapes import span_shape
from .store import Principle, PrincipleError, read_principles, write_principles

__all__ = ["learn_principles", "PrincipleMatcher", "span_shape", "Principle", "PrincipleError",
           "read_principles", "write_principles"]
