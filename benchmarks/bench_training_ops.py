"""Training-step and prediction time of the CPU NER on thinc's NumpyOps (blis) and on BlasOps.

    python benchmarks/bench_training_ops.py [--notes 300] [--steps 40] [--seed 0]

The model is `configs/cpu.cfg`'s tok2vec + ner (static vectors only when `assets/vectors` exists,
as `spacy project run vectors` builds it), trained on synthetic notes (`spacy_deid.synth`, split
"train") in batches of 1,000 words, the size the config's batch schedule reaches. Both ops start
from the same initial weights and see the same batches; the script reports seconds per update and
per prediction pass, the ratio NumpyOps / BlasOps measured in this one run, the largest difference
between the two models' tok2vec outputs after training, and whether their entities agree.
"""
import argparse
import itertools
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from spacy_deid.corpus import Record

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "cpu.cfg"
VECTORS = ROOT / "assets" / "vectors"
BATCH_WORDS = 1000


def has_vectors() -> bool:
    """Has `spacy project run vectors` built the static vectors configs/cpu.cfg names?"""
    return (VECTORS / "config.cfg").is_file()


def build_pipeline(records: Sequence["Record"]):
    """configs/cpu.cfg's pipeline, initialized on the notes, still on NumpyOps."""
    from spacy.training import Example
    from spacy.util import load_config, load_model_from_config
    from thinc.api import NumpyOps

    from spacy_deid.corpus.docs import record_to_doc

    config = load_config(CONFIG)
    config["nlp"]["after_pipeline_creation"] = None
    if not has_vectors():
        config["components"]["tok2vec"]["model"]["embed"]["include_static_vectors"] = False
        config["initialize"]["vectors"] = None
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    examples = [Example(nlp.make_doc(record.text), record_to_doc(nlp, record)) for record in records]
    nlp.initialize(lambda: examples)
    assert all(type(n.ops) is NumpyOps for _, c in nlp.components for n in c.model.walk())
    return nlp, examples


def copy_pipeline(nlp):
    """A second pipeline with `nlp`'s config and weights, as spacy.load would rebuild it."""
    from spacy.util import load_model_from_config

    other = load_model_from_config(nlp.config, auto_fill=False)
    return other.from_bytes(nlp.to_bytes())


def train_and_time(nlp, batches, steps: int) -> float:
    """Seconds per update over `steps` updates after two warm-up updates."""
    optimizer = nlp.create_optimizer()
    for batch in batches[:2]:
        nlp.update(batch, sgd=optimizer, drop=0.2)
    start = time.perf_counter()
    for batch in batches[2:2 + steps]:
        nlp.update(batch, sgd=optimizer, drop=0.2)
    return (time.perf_counter() - start) / steps


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import numpy
    from spacy.training.batchers import minibatch_by_words
    from spacy.util import fix_random_seed

    from spacy_deid.blas_ops import use_blas_ops
    from spacy_deid.synth import generate

    records = list(itertools.islice(generate(args.notes, args.seed, "train"), args.notes))
    fix_random_seed(args.seed)
    base, examples = build_pipeline(records)
    batches = list(minibatch_by_words(examples, size=BATCH_WORDS, tolerance=0.2, discard_oversize=False))
    if len(batches) < args.steps + 2:
        raise SystemExit(f"{len(batches)} batches of {BATCH_WORDS} words; raise --notes for {args.steps} steps")
    texts = [record.text for record in records]
    words = sum(len(doc) for doc in base.tokenizer.pipe(texts))
    print(f"{len(records)} notes, {words:,} words, {args.steps} updates of ~{BATCH_WORDS} words each; "
          f"static vectors: {'yes' if has_vectors() else 'no (assets/vectors not built)'}")

    results = {}
    for name in ("NumpyOps (blis)", "BlasOps (numpy BLAS)"):
        nlp = copy_pipeline(base)
        if name.startswith("Blas"):
            use_blas_ops(nlp)
        fix_random_seed(args.seed)
        step = train_and_time(nlp, batches, args.steps)
        start = time.perf_counter()
        docs = list(nlp.pipe(texts, batch_size=64))
        predict = time.perf_counter() - start
        vectors = nlp.get_pipe("tok2vec").predict(docs[:20])
        ents = [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in docs]
        results[name] = (step, predict, vectors, ents)
        print(f"{name:<22} {step * 1000:8.1f} ms/update   predict {words / predict:8,.0f} words/s")

    (numpy_step, numpy_predict, numpy_vectors, numpy_ents), (blas_step, blas_predict, blas_vectors, blas_ents) = (
        results.values())
    diff = max(float(numpy.abs(a - b).max()) for a, b in zip(numpy_vectors, blas_vectors))
    agree = sum(a == b for a, b in zip(numpy_ents, blas_ents))
    print(f"ratio NumpyOps / BlasOps: update {numpy_step / blas_step:.2f}x, predict {numpy_predict / blas_predict:.2f}x")
    print(f"after {args.steps} updates: largest tok2vec output difference {diff:.2e}; "
          f"entities identical in {agree}/{len(texts)} notes")


if __name__ == "__main__":
    main()
