"""BlasOps computes what NumpyOps computes, and the CPU config installs it on every model node."""
from pathlib import Path

import numpy
import pytest
import spacy
from spacy.training import Example
from spacy.util import load_config, load_model_from_config
from thinc.api import Model, NumpyOps

from spacy_deid.blas_ops import BlasOps, swap_ops, use_blas_ops

ROOT = Path(__file__).resolve().parents[1]


def _ops_types(nlp):
    return {
        name: {type(node.ops) for node in component.model.walk()}
        for name, component in nlp.components
        if isinstance(getattr(component, "model", None), Model)
    }


@pytest.mark.parametrize("trans1", [False, True])
@pytest.mark.parametrize("trans2", [False, True])
def test_gemm_matches_numpy_ops(trans1, trans2):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((37, 19) if not trans1 else (19, 37)).astype("float32")
    y = rng.standard_normal((19, 23) if not trans2 else (23, 19)).astype("float32")
    expected = NumpyOps().gemm(x, y, trans1=trans1, trans2=trans2)
    got = BlasOps().gemm(x, y, trans1=trans1, trans2=trans2)
    assert got.shape == expected.shape == (37, 23)
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    out = numpy.full((37, 23), numpy.nan, dtype="float32")
    returned = BlasOps().gemm(x, y, out=out, trans1=trans1, trans2=trans2)
    assert returned is out
    numpy.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_cpu_config_puts_every_node_on_blas_ops():
    config = load_config(ROOT / "configs" / "cpu.cfg")
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    types = _ops_types(nlp)
    assert set(types) == {"tok2vec", "ner"}
    assert all(found == {BlasOps} for found in types.values()), types


def test_shipped_default_runs_on_blas_ops():
    import spacy_deid

    nlp = spacy_deid.load()
    types = _ops_types(nlp)
    assert {"tok2vec", "ner"} <= set(types)
    assert types["tok2vec"] == {BlasOps} and types["ner"] == {BlasOps}


def test_other_ops_are_left_alone():
    class OtherOps(NumpyOps):
        name = "other"

    nlp = spacy.blank("xx")
    ner = nlp.add_pipe("ner")
    ner.add_label("NAME")
    nlp.initialize()
    other = OtherOps()
    nodes = list(ner.model.walk())
    nodes[0].ops = other
    replaced = use_blas_ops(nlp)
    assert replaced == len(nodes) - 1
    assert nodes[0].ops is other
    assert all(isinstance(node.ops, BlasOps) for node in nodes[1:])


def test_swapping_back_puts_every_blas_node_on_numpy_ops_again():
    """What the knowledge benchmark does to measure a tagger on blis: the same nodes, back on NumpyOps."""
    nlp = spacy.blank("xx")
    ner = nlp.add_pipe("ner")
    ner.add_label("NAME")
    nlp.initialize()
    moved = use_blas_ops(nlp)
    assert moved == len(list(ner.model.walk()))
    assert swap_ops(nlp, BlasOps, NumpyOps()) == moved
    assert _ops_types(nlp) == {"ner": {NumpyOps}}


def test_training_and_prediction_agree_with_numpy_ops():
    """The same seed and data train the same weights (to float rounding) on either ops."""
    text = "Dr. Wang saw the patient at Taipei Veterans General Hospital on 2021-12-25."
    hospital = "Taipei Veterans General Hospital"
    spans = [(4, 8, "DOCTOR"), (text.index(hospital), text.index(hospital) + len(hospital), "HOSPITAL")]

    def trained(blas: bool):
        spacy.util.fix_random_seed(0)
        nlp = spacy.blank("en")
        nlp.add_pipe("tok2vec")
        ner = nlp.add_pipe("ner")
        example = Example.from_dict(nlp.make_doc(text), {"entities": spans})
        nlp.initialize(lambda: [example])
        if blas:
            use_blas_ops(nlp)
        optimizer = nlp.create_optimizer()
        for _ in range(40):
            nlp.update([example], sgd=optimizer, drop=0.0)
        vectors = nlp.get_pipe("tok2vec").predict([nlp.make_doc(text)])[0]
        return nlp, vectors, ner

    numpy_nlp, numpy_vectors, _ = trained(False)
    blas_nlp, blas_vectors, blas_ner = trained(True)
    assert all(isinstance(node.ops, BlasOps) for node in blas_ner.model.walk())
    numpy.testing.assert_allclose(blas_vectors, numpy_vectors, rtol=1e-3, atol=1e-4)
    predicted = [(e.start_char, e.end_char, e.label_) for e in blas_nlp(text).ents]
    assert predicted == [(e.start_char, e.end_char, e.label_) for e in numpy_nlp(text).ents]
    assert predicted == spans


def _blas_threads_after_a_product(_: int) -> int:
    from threadpoolctl import threadpool_info

    BlasOps().gemm(numpy.ones((4, 4), dtype="float32"), numpy.ones((4, 4), dtype="float32"))
    return max(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas")


def test_a_pool_worker_runs_blas_on_one_thread_and_the_parent_keeps_its_own():
    import multiprocessing

    from threadpoolctl import threadpool_info

    def parent_threads():
        return [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]

    before = parent_threads()
    assert before, "numpy's BLAS is visible to threadpoolctl"
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(_blas_threads_after_a_product, [0]) == [1]
    BlasOps().gemm(numpy.ones((4, 4), dtype="float32"), numpy.ones((4, 4), dtype="float32"))
    assert parent_threads() == before
