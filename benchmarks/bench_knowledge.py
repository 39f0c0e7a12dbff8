"""Speed of a pipeline with the knowledge layer beside the shipped default, in one run.

    python benchmarks/bench_knowledge.py VARIANT [--base default] [--corpus PATH.jsonl] [--notes 300]
                                         [--synthetic-notes 300] [--repeat 1]

VARIANT is a pipeline saved by `scripts/knowledge_build.py`. Both pipelines de-identify the same
notes with `nlp.pipe` at one process (demo key, after a warm-up; loading excluded): the first
`--notes` notes of `--corpus` (a real corpus, e.g. ../shared/corpora/physionet_deid_dev.jsonl; only
counts are printed, never its text) and `--synthetic-notes` held-out synthetic notes. Reported:
words/s (tokens of the code-mixing tokenizer) of each, and the ratio variant / base per note set, by
wall time and by this process's CPU time (steadier on a busy machine).

`--base-tagger-ops numpy` puts the base's English tagger back on thinc's `NumpyOps` (its `blis` matrix
products, as before the forty-fourth session), so `bench_knowledge.py default --base-tagger-ops numpy`
measures what numpy's BLAS gives the tagger, in one run.
"""
import argparse
import sys
import time
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pipeline import WARM_UP_NOTES, best_of, load_pipeline, make_notes, resolve_model  # noqa: E402


def read_texts(path: Path, limit: int) -> List[str]:
    from spacy_deid.corpus import read_jsonl

    return [record.text for record, _ in zip(read_jsonl(path, known_labels=None), range(limit))]


def words_per_second(nlp, texts: List[str], repeat: int) -> Dict[str, float]:
    list(nlp.pipe(texts[:WARM_UP_NOTES]))
    words = sum(len(nlp.make_doc(text)) for text in texts)
    seconds, cpu, _ = best_of(repeat, lambda: list(nlp.pipe(texts, batch_size=64)))
    return {"words": words, "seconds": seconds, "cpu_seconds": cpu, "words_per_s": words / seconds}


def english_tagger_on_numpy_ops(nlp) -> int:
    """Give the English tagger's model nodes plain `NumpyOps` (blis products); returns how many."""
    from thinc.api import NumpyOps

    from spacy_deid.blas_ops import BlasOps, swap_ops

    english = nlp.get_pipe("knowledge").taggers["english"]
    return swap_ops(english.nlp, BlasOps, NumpyOps())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variant")
    parser.add_argument("--base", default="default")
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--synthetic-notes", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--base-tagger-ops", choices=("blas", "numpy"), default="blas")
    args = parser.parse_args()
    sets = {"synthetic held-out": [n["text"] for n in make_notes(args.synthetic_notes, 0)]}
    if args.corpus is not None and args.corpus.is_file():
        sets[args.corpus.stem] = read_texts(args.corpus, args.notes)
    pipelines = {label: load_pipeline(resolve_model(name)[0])
                 for label, name in (("base", args.base), ("variant", args.variant))}
    if args.base_tagger_ops == "numpy":
        print(f"base: English tagger on NumpyOps ({english_tagger_on_numpy_ops(pipelines['base'])} model nodes)")
    for name, texts in sets.items():
        results = {label: words_per_second(nlp, texts, args.repeat) for label, nlp in pipelines.items()}
        for label, r in results.items():
            print(f"{name:22} {label:8} {len(texts):5} notes {r['words']:8} words  {r['seconds']:7.1f} s  "
                  f"{r['words_per_s']:8.0f} words/s  (cpu {r['cpu_seconds']:.1f} s)", flush=True)
        ratio = results["variant"]["words_per_s"] / results["base"]["words_per_s"]
        cpu_ratio = results["base"]["cpu_seconds"] / results["variant"]["cpu_seconds"]
        # on a shared machine wall time includes waiting for a core; this process's CPU time does not
        print(f"{name:22} ratio variant/base: {ratio:.2f} wall, {cpu_ratio:.2f} by CPU time", flush=True)


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")
