"""Throughput of the full pipeline (NER + rules + dates + surrogates) and each component's share.

    python benchmarks/bench_pipeline.py [--model PATH|default] [--notes 1000] [--seed 0] [--batch-size 64]
                                        [--repeat 1]

Notes: held-out synthetic notes, `spacy_deid.synth.generate(n_patients, seed, "heldout")`, whole
patients until at least `--notes` notes. "Words" are tokens of the code-mixing tokenizer: every Han
character is a token, so a Chinese-heavy note has more "words" than an English reader would count.
Surrogates use the public demo key (speed does not depend on the key; the output is NOT safe).

Reported:
- words/s and notes/s of `nlp.pipe(texts, n_process=N)` for N = 1 and 2, wall-clock time, after a
  warm-up on a few notes (pipeline loading and lexicon tables excluded; for N = 2 the worker start-up
  IS included, as a user would see it), and whether both give the same `deid_text`; the CPU time of
  this process is shown for one-process runs (wall time on a busy machine includes waiting);
- the batch API `spacy_deid.deidentify` (one process): adds the patient-level date vote, and
  `spacy_deid.deidentify_parallel` with 2 spawned workers (start-up included), as `spacy-deid run
  --n-process 2` runs; `nlp.pipe(n_process=2)` is skipped for a torch pipeline (spaCy forks its
  workers, and a forked torch model deadlocks);
- each component timed alone on the same Docs, in pipeline order: tokenizer, tok2vec, ner, ...,
  and `deid` split into its parts (NER span repairs, rules, dates, cued names, hospital units, propagation,
  name parts, patient identity, surrogates), as CPU time of this process
  (`time.process_time`, steadier than wall time on a shared machine) and its share of the total.

`--model default`: the pipeline shipped in spacy_deid/default_pipeline; when it is missing, the
assembled pipeline of the project (training/cpu/pipeline); when that is missing too, the script says
what to run.
"""
import argparse
import functools
import os
import sys
import time
from pathlib import Path
from typing import Dict, Callable, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PIPELINE = ROOT / "training" / "cpu" / "pipeline"
PROJECT_MODEL = ROOT / "training" / "cpu" / "model-best"
WARM_UP_NOTES = 20


def resolve_model(model: str) -> Tuple[str, str]:
    """(what to load, how it was chosen); exits with the commands to run when nothing is there."""
    from spacy_deid import loading

    if model != "default":
        return model, "given"
    if loading.has_default_pipeline():
        return str(loading.default_pipeline_path()), "shipped default pipeline"
    if (PROJECT_PIPELINE / "config.cfg").is_file():
        return str(PROJECT_PIPELINE), "default pipeline missing; using the project's training/cpu/pipeline"
    if (PROJECT_MODEL / "config.cfg").is_file():
        hint = "spacy project run assemble   (training/cpu/model-best exists)"
    else:
        hint = "spacy project run all   (synth, convert, train, assemble, evaluate, package)"
    sys.exit("No pipeline to benchmark: spacy_deid/default_pipeline and training/cpu/pipeline are both "
             f"missing.\nFrom {ROOT} run:\n    {hint}\nthen optionally `spacy project run package-default`, "
             "or pass --model PATH (any pipeline; `deid` is added when it has none).")


def load_pipeline(path: str):
    """The pipeline with the demo key; a pipeline without `deid` gets one, as `spacy-deid run` does."""
    import spacy_deid
    from spacy_deid.surrogates.keys import DEMO_KEY

    nlp = spacy_deid.load(path)
    factories = set(nlp.pipe_factories.values())
    if "deid" not in factories and "deid_surrogates" not in factories:
        nlp.add_pipe("deid")
        nlp.get_pipe("deid").initialize(nlp=nlp)
    for name, factory in nlp.pipe_factories.items():
        if factory == "deid" and nlp.get_pipe(name).surrogates is not None:
            nlp.get_pipe(name).surrogates.set_key(DEMO_KEY)
        elif factory == "deid_surrogates":
            nlp.get_pipe(name).set_key(DEMO_KEY)
    return nlp


def holds_torch(nlp) -> bool:
    """A spacy-transformers (torch) component in the pipeline?"""
    return any(factory in ("transformer", "curated_transformer") for factory in nlp.pipe_factories.values())


def make_notes(n_notes: int, seed: int) -> List[dict]:
    """Whole held-out patients until there are at least `n_notes` notes."""
    from spacy_deid.synth import generate

    notes: List[dict] = []
    last_patient = None
    for record in generate(n_notes, seed, "heldout"):  # lazy: only the patients needed are made
        if len(notes) >= n_notes and record.patient_id != last_patient:
            break
        notes.append({"id": record.id, "patient_id": record.patient_id, "text": record.text})
        last_patient = record.patient_id
    return notes


def timed(fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> Tuple[float, object]:
    start = clock()
    result = fn()
    return clock() - start, result


def best_of(repeat: int, fn: Callable[[], object]) -> Tuple[float, float, object]:
    """(best wall seconds, CPU seconds of this process in that run, result of the last run)."""
    best, best_cpu, result = float("inf"), float("nan"), None
    for _ in range(repeat):
        cpu0 = time.process_time()
        seconds, result = timed(fn)
        if seconds < best:
            best, best_cpu = seconds, time.process_time() - cpu0
    return best, best_cpu, result


def component_times(nlp, texts: Sequence[str], batch_size: int) -> List[Tuple[str, float]]:
    """CPU seconds of each stage alone, run in pipeline order on the same Docs: the recognizers of
    `deid`, then each refine step (a step the config names twice is one row, both runs summed), then
    the surrogates."""
    from spacy_deid.doctext import doc_text
    from spacy_deid.overlap import merge_into_ents

    rows: Dict[str, float] = {}
    clock = time.process_time
    seconds, docs = timed(lambda: [nlp.make_doc(t) for t in texts], clock)
    rows["tokenizer"] = seconds
    for name, proc in nlp.pipeline:
        if nlp.pipe_factories[name] == "deid":
            deid = proc
            for part in ("rules", "dates"):
                comp = deid.parts.get(part)
                if comp is not None:
                    seconds, _ = timed(lambda: [comp(d) for d in docs], clock)
                    rows[f"{name}: {part}"] = seconds
            if deid.rules is None and deid.dates is None:
                seconds, _ = timed(lambda: [merge_into_ents(d, [], deid.overlap_policy) for d in docs], clock)
                rows[f"{name}: merge"] = seconds
            for step_name, step in deid.refine.note_steps:
                seconds, _ = timed(lambda: [step(d, doc_text(d)) for d in docs], clock)
                rows[f"{name}: refine {step_name}"] = rows.get(f"{name}: refine {step_name}", 0.0) + seconds
            for step_name, step in deid.refine.patient_steps:
                seconds, _ = timed(lambda: [step([d]) for d in docs], clock)
                rows[f"{name}: refine {step_name}"] = rows.get(f"{name}: refine {step_name}", 0.0) + seconds
            if deid.surrogates is not None:
                seconds, _ = timed(lambda: [deid.surrogates(d) for d in docs], clock)
                rows[f"{name}: surrogates"] = seconds
        elif hasattr(proc, "pipe"):
            seconds, docs = timed(lambda: list(proc.pipe(docs, batch_size=batch_size)), clock)
            rows[name] = seconds
        else:
            seconds, docs = timed(lambda: [proc(d) for d in docs], clock)
            rows[name] = seconds
    return list(rows.items())


def load_average() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: Optional[Sequence[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="default", help="pipeline path or package, or 'default'")
    ap.add_argument("--notes", type=int, default=1000, help="at least this many notes (whole patients)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=1, help="best of N for the throughput runs")
    args = ap.parse_args(argv)
    if args.notes < 1 or args.repeat < 1:
        ap.error("--notes and --repeat must be at least 1")

    import spacy_deid
    from spacy_deid.batch import deidentify_parallel

    path, how = resolve_model(args.model)
    seconds, nlp = timed(lambda: load_pipeline(path))
    notes = make_notes(args.notes, args.seed)
    texts = [n["text"] for n in notes]
    words = sum(len(nlp.make_doc(t)) for t in texts)
    chars = sum(len(t) for t in texts)
    print(f"pipeline: {path} ({how}); components {nlp.pipe_names}; loaded in {seconds:.1f} s")
    print(f"notes: {len(notes)} held-out synthetic notes, {len({n['patient_id'] for n in notes})} patients, "
          f"{words:,} words (code-mixing tokenizer tokens; each Han character is one), {chars:,} characters")
    print(f"machine: {os.cpu_count()} CPUs, load average {load_average()}; demo key; batch size {args.batch_size}")

    list(nlp.pipe(texts[:WARM_UP_NOTES]))  # lexicon tables, key, first-call allocations
    print()
    print(f"{'run (wall clock' + (f', best of {args.repeat}' if args.repeat > 1 else '') + ')':<44} "
          f"{'seconds':>8} {'notes/s':>9} {'words/s':>10} {'CPU s':>7}")

    def row(label: str, seconds: float, cpu: Optional[float]) -> None:
        cpu_text = f"{cpu:.2f}" if cpu is not None else "-"  # workers' CPU is not this process's
        print(f"{label:<44} {seconds:>8.2f} {len(texts) / seconds:>9.1f} {words / seconds:>10,.0f} {cpu_text:>7}")

    outputs = {}
    for n_process in (1, 2):
        if n_process > 1 and holds_torch(nlp):
            print(f"{'nlp.pipe, n_process=2':<44} skipped: spaCy forks its workers, and a forked torch model "
                  "deadlocks; deidentify_parallel (below) and `spacy-deid run --n-process` spawn them")
            continue
        seconds, cpu, outputs[n_process] = best_of(args.repeat, lambda: [
            doc._.deid_text for doc in nlp.pipe(texts, n_process=n_process, batch_size=args.batch_size)])
        row(f"nlp.pipe, n_process={n_process}", seconds, cpu if n_process == 1 else None)
    seconds, cpu, results = best_of(args.repeat, lambda: list(spacy_deid.deidentify(nlp, notes)))
    failed = sum(not r.ok for r in results)
    row("spacy_deid.deidentify (patient date vote), 1", seconds, cpu)
    seconds, _, parallel = best_of(args.repeat, lambda: list(deidentify_parallel(
        functools.partial(load_pipeline, path), notes, n_process=2)))
    row("spacy_deid.deidentify_parallel, 2 (spawned)", seconds, None)
    same = [r.deid_text for r in results] == [r.deid_text for r in parallel]
    if 2 in outputs:
        same = same and outputs[1] == outputs[2]
    print(f"2-process output identical to 1-process output: {'yes' if same else 'NO'}"
          + (f"; deidentify failures: {failed}" if failed else ""))

    rows = component_times(nlp, texts, args.batch_size)
    total = sum(s for _, s in rows) or float("nan")
    print()
    print(f"{'component (alone, same docs)':<32} {'CPU s':>8} {'share':>7} {'words/s':>12}")
    for name, seconds in rows:
        rate = f"{words / seconds:,.0f}" if seconds > 0 else "-"
        print(f"{name:<32} {seconds:>8.2f} {seconds / total:>7.1%} {rate:>12}")
    print(f"{'total':<32} {total:>8.2f} {1:>7.0%} {words / total:>12,.0f}")


if __name__ == "__main__":
    main()
