"""Growth checks for adversarial inputs: a pattern that backtracks shows up as super-linear cost.

These compare two sizes measured in the same run (a ratio), so a slow or loaded machine does not
fail them; absolute speed lives in `benchmarks/`.
"""
import gc
import time
from typing import Callable

FACTOR = 8
# Linear growth costs FACTOR x; quadratic costs FACTOR**2 = 64 x. Allow 3x slack for noise and
# for per-call overheads that shrink relative to the work as it grows.
SLACK = 3.0
# Timer noise floor (seconds) so that microsecond-scale runs do not fail on scheduling jitter.
FLOOR = 0.05


def _best_of(run: Callable[[], object], repeat: int) -> float:
    """Best time with the cyclic garbage collector paused: its full collections come at thresholds of
    allocated objects, so they land in some runs and not others and are not the code's own growth."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - started)
        finally:
            gc.enable()
    return best


def assert_linear(run: Callable[[int], object], size: int) -> None:
    """`run(n)` processes an input of n repetitions; size and size/FACTOR must cost in proportion."""
    small = _best_of(lambda: run(max(1, size // FACTOR)), repeat=3)
    large = _best_of(lambda: run(size), repeat=2)
    assert large <= SLACK * FACTOR * small + FLOOR, (
        f"cost grew {large / max(small, 1e-9):.1f}x for {FACTOR}x the input ({small:.4f}s -> {large:.4f}s)"
    )
