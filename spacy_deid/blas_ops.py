"""CPU ops whose matrix products go to numpy's BLAS, and the pipeline callback that installs them.

thinc's `NumpyOps.gemm` calls the `blis` package, which is built single-threaded and on some CPUs
falls back to a generic kernel: on the 2-core AMD EPYC we measured it at 14 ms for the tok2vec's
(1000 x 640) @ (640 x 384) product, against 4.8 ms for numpy's OpenBLAS on one thread and 2.5 ms
on two. Matrix products are about 60 % of a CPU training step, so routing them to numpy halves the
step (`benchmarks/bench_training_ops.py` measures both on the machine at hand). Every other op is
NumpyOps's own; only where the products are computed changes, not what they compute.

numpy's BLAS uses one thread per core. A worker of a process pool (`nlp.pipe(n_process=2)`,
`deidentify_parallel`) shares the cores with its siblings, so there BlasOps limits BLAS to one thread
(threadpoolctl), on its first product in that process: two workers of two threads each on two cores
ran slower than two single-threaded ones would.

The callback goes in a config's `[nlp.after_pipeline_creation]`, so `spacy train`, `spacy.load` of
a trained or packaged pipeline and `spacy_deid.load()` all get it without code. It replaces only
plain `NumpyOps`: a GPU run (CupyOps) or a user's own ops are left as they are.
"""
import multiprocessing
import os
from typing import Callable, Optional

import numpy
from spacy.language import Language
from spacy.util import registry
from thinc.api import Model, NumpyOps, Ops
from threadpoolctl import threadpool_limits

_checked_pid: Optional[int] = None


def one_thread_in_workers() -> None:
    """Limit BLAS to one thread when this process is a worker of a pool (module docstring); once per process."""
    global _checked_pid
    pid = os.getpid()
    if _checked_pid == pid:
        return
    _checked_pid = pid
    if multiprocessing.parent_process() is not None:
        threadpool_limits(limits=1, user_api="blas")


class BlasOps(NumpyOps):
    """NumpyOps with `gemm` computed by `numpy.matmul` (the BLAS numpy was built with)."""

    name = "blas"

    def gemm(
        self,
        x: numpy.ndarray,
        y: numpy.ndarray,
        out: Optional[numpy.ndarray] = None,
        trans1: bool = False,
        trans2: bool = False,
    ) -> numpy.ndarray:
        one_thread_in_workers()
        left = x.T if trans1 else x
        right = y.T if trans2 else y
        if out is None:
            return numpy.matmul(left, right)
        numpy.matmul(left, right, out=out)
        return out


registry.ops("BlasOps")(BlasOps)


def swap_ops(nlp: Language, old: type, new: Ops) -> int:
    """Give every model node of `nlp` whose ops are exactly of type `old` the ops `new`; return how many."""
    replaced = 0
    for _, component in nlp.components:
        model = getattr(component, "model", None)
        if not isinstance(model, Model):
            continue
        for node in model.walk():
            if type(node.ops) is old:
                node.ops = new
                replaced += 1
    return replaced


def use_blas_ops(nlp: Language) -> int:
    """Give every model node of `nlp` that runs on plain NumpyOps a BlasOps; return how many."""
    return swap_ops(nlp, NumpyOps, BlasOps())


@registry.callbacks("spacy_deid.BlasOps.v1")
def make_use_blas_ops() -> Callable[[Language], Language]:
    """`[nlp.after_pipeline_creation]` callback: move the pipeline's CPU matrix products to BLAS."""

    def install(nlp: Language) -> Language:
        use_blas_ops(nlp)
        return nlp

    return install
