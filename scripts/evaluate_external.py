"""Score pipelines on the shared evaluation corpora (when present) through their label maps.

    python scripts/evaluate_external.py PIPELINE OUT.json [--corpora ../shared/corpora] [--compare rules] [--jobs N]
                                        [--gpu-id 0]

Each corpus is predicted by PIPELINE and by `rules` (rules and dates alone, no NER), so the value of
the NER on real text is visible. Each prediction is one process on one core; `--jobs` of them run at
once (default: the machine's cores), and the results are printed and written in a fixed order.
Corpora are read in place and never copied; when the folder is absent the script says so and writes
an empty result (a newcomer has no such folder). Where a corpus keeps titles inside its names (its label
map's `titles_inside`: AI CUP's `[林醫師]`), the same predictions are also scored in annotation.md's
spans (`evaluate --scheme-spans`), under `scheme_spans`: both figures, never one in place of the other.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from spacy_deid.corpus import load_label_map

# corpus file stem -> label map name (spacy_deid/resources/labelmaps); a corpus may be shared whole or
# as its dev half (`physionet_deid_dev`)
CORPORA = {
    "aicup2020_dev": "aicup2020",
    "physionet_deid": "physionet_deid",
    "physionet_deid_dev": "physionet_deid",
    "presidio_synth_v2": "presidio_synth_v2",
    "asq_phi": "asq_phi",
}


def corpus_files(folder: Path):
    """(stem, path, label map) of each known corpus present in `folder`, in CORPORA's order."""
    if not folder.is_dir():
        return []
    return [(stem, str(folder / f"{stem}.jsonl"), label_map) for stem, label_map in CORPORA.items()
            if (folder / f"{stem}.jsonl").is_file()]
HEADLINE = [("strict micro F", "ents_f"), ("category F", "deid_category_f"), ("relaxed F", "deid_relaxed_f"),
            ("token P", "deid_token_p"), ("token R", "deid_token_r")]


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def score(model: str, corpus: Path, label_map: str, workdir: Path, gpu_id: int = -1) -> dict:
    pred = workdir / f"{corpus.stem}.{Path(model).name}.pred.jsonl"
    out = workdir / f"{corpus.stem}.{Path(model).name}.scores.json"
    gpu = ["--gpu-id", str(gpu_id)] if gpu_id >= 0 and model != "rules" else []
    run([sys.executable, "-m", "spacy_deid.cli", "predict", model, str(corpus), str(pred), *gpu])
    run([sys.executable, "-m", "spacy_deid.cli", "evaluate", str(corpus), str(pred), "--label-map", label_map,
         "--unmapped", "ignore", "--output", str(out), "--no-leak"])
    scores = json.loads(out.read_text(encoding="utf8"))
    if load_label_map(label_map).titles_inside:
        run([sys.executable, "-m", "spacy_deid.cli", "evaluate", str(corpus), str(pred), "--label-map", label_map,
             "--unmapped", "ignore", "--output", str(out), "--no-leak", "--scheme-spans"])
        scores["scheme_spans"] = json.loads(out.read_text(encoding="utf8"))
    return scores


def report(scores: dict) -> str:
    """The headline figures, and the token recall by category on the next line."""
    line = "  ".join(f"{name} {scores.get(key) or 0:.3f}" for name, key in HEADLINE)
    recall = scores.get("deid_token_r_per_category") or {}
    if recall:
        line += f"\n{'':48}token R by category: " + "  ".join(f"{cat} {v['r']:.3f}" for cat, v in recall.items())
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pipeline")
    parser.add_argument("output", type=Path)
    parser.add_argument("--corpora", type=Path, default=Path("../shared/corpora"))
    parser.add_argument("--compare", default="rules", help="A second model to score beside PIPELINE.")
    parser.add_argument("--only", nargs="*", default=None, help="Corpus stems to score (default: all present).")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="Predictions run at once.")
    parser.add_argument("--gpu-id", type=int, default=-1, help="GPU for PIPELINE's predictions (-1: CPU).")
    args = parser.parse_args()
    results = {}
    if not args.corpora.is_dir():
        print(f"No evaluation corpora at {args.corpora}; skipping external evaluation.")
    else:
        runs = [(stem, label_map, model) for stem, _, label_map in corpus_files(args.corpora)
                if not args.only or stem in args.only
                for model in (args.pipeline, args.compare)]
        with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = [pool.submit(score, model, args.corpora / f"{stem}.jsonl", label_map, Path(tmp), args.gpu_id)
                       for stem, label_map, model in runs]
            for (stem, _, model), future in zip(runs, futures):
                scores = future.result()
                results.setdefault(stem, {})[model] = scores
                print(f"{stem:18} {model:28} {report(scores)}", flush=True)
                if "scheme_spans" in scores:
                    print(f"{'':18} {'(annotation.md spans)':28} {report(scores['scheme_spans'])}", flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
