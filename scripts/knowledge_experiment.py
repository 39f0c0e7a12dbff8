"""Score knowledge voting policies on an evaluation corpus, with the pipeline run once.

    python scripts/knowledge_experiment.py CORPUS.jsonl LABEL_MAP OUT.json [--policy NAME=step,step ...]
                                           [--limit N] [--title-case-upper/--no-title-case-upper]

WHY: a policy is a list of refine steps placed after the default note steps; running the whole
pipeline (and the taggers) again for each one would take most of the time this machine has. So the
default pipeline with `deid_knowledge` before `deid` runs once with no patient steps, each note is
kept as bytes, and each policy is its steps on a fresh copy, then the default patient steps and the
patient vote, exactly as `predict` would run them with the steps at the end of `note_steps`.
Final figures come from `scripts/evaluate_external.py` on saved pipelines (`knowledge_build.py`).
Scores only: no text of the corpus is printed or written.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from importlib import resources
from itertools import groupby
from pathlib import Path

from spacy.tokens import Doc

import spacy_deid
from spacy_deid.batch import Stages
from spacy_deid.corpus import doc_to_record, read_jsonl, write_jsonl
from spacy_deid.refine import DEFAULT_PATIENT_STEPS, RefineStage, note_steps

HEADLINE = ("ents_f", "deid_token_p", "deid_token_r", "deid_category_f")


def label_recall(gold_records, pred_records, mapped) -> dict:
    """Character recall of the gold spans of each original label (whitespace aside), and of all the
    labels `mapped` names together except `time` ("non-time"): how much of each a prediction covers."""
    covered, total = {}, {}
    for gold, pred in zip(gold_records, pred_records):
        hit = [False] * (len(gold.text) + 1)
        for span in pred.spans:
            for i in range(span.start, span.end):
                hit[i] = True
        for span in gold.spans:
            keys = [span.label] + (["non-time"] if span.label in mapped and span.label != "time" else [])
            for i in range(span.start, span.end):
                if not gold.text[i].isspace():
                    for key in keys:
                        total[key] = total.get(key, 0) + 1
                        covered[key] = covered.get(key, 0) + hit[i]
    return {key: round(covered[key] / total[key], 4) for key in sorted(total)}


def score(corpus: Path, pred: Path, label_map: str) -> dict:
    out = pred.with_suffix(".scores.json")
    mapping = ["--label-map", label_map, "--unmapped", "ignore"] if label_map != "none" else []
    subprocess.run([sys.executable, "-m", "spacy_deid.cli", "evaluate", str(corpus), str(pred), *mapping,
                    "--output", str(out), "--no-leak"], check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("label_map", help="Label map of the corpus, or none (our own labels).")
    parser.add_argument("output", type=Path)
    parser.add_argument("--policy", nargs="*", default=[], help="NAME=step,step (steps after the note steps)")
    parser.add_argument("--limit", type=int, default=0, help="Only the first N notes (0: all).")
    parser.add_argument("--title-case-upper", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    policies = {"default": []}
    for item in args.policy:
        name, steps = item.split("=", 1)
        policies[name] = [s for s in steps.split(",") if s]
    nlp = spacy_deid.load(config={"components": {"deid": {"patient_steps": [], "surrogates": False}}})
    nlp.add_pipe("deid_knowledge", before="deid", config={"title_case_upper": args.title_case_upper})
    stages = Stages(nlp)
    deid = nlp.get_pipe("deid")
    records = [r for r in read_jsonl(args.corpus, known_labels=None)]
    if args.limit:
        records = records[:args.limit]
    mapped = set()
    if args.label_map != "none":
        maps = resources.files("spacy_deid").joinpath("resources", "labelmaps", f"{args.label_map}.json")
        mapped = {k for k, v in json.loads(maps.read_text(encoding="utf8"))["map"].items() if v}
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.jsonl"
        write_jsonl(records, gold)
        cached = []  # (record, doc bytes) with no step of a policy and no patient step run yet
        for _, group in groupby(records, key=lambda r: r.patient_id if r.patient_id is not None else id(r)):
            group = list(group)
            docs = stages.recognize([r.text for r in group])
            cached.append([(r, doc.to_bytes()) for r, doc in zip(group, docs)])
        patient = RefineStage([], DEFAULT_PATIENT_STEPS)
        results = {}
        for name, steps in policies.items():
            funcs = [note_steps.get(s) for s in steps]
            out = []
            for group in cached:
                docs = []
                for record, data in group:
                    doc = Doc(nlp.vocab).from_bytes(data)
                    text = doc.text
                    for func in funcs:
                        func(doc, text)
                    patient.refine_patient([doc])
                    doc._.doc_id, doc._.patient_id = record.id, record.patient_id
                    docs.append(doc)
                if group[0][0].patient_id is not None:
                    stages.vote(docs)
                    patient.refine_patient(docs)
                out.extend(doc_to_record(doc) for doc in docs)
            pred = Path(tmp) / f"{name}.pred.jsonl"
            write_jsonl(out, pred)
            scores = score(gold, pred, args.label_map)
            recall = label_recall(records, out, mapped)
            results[name] = {"steps": steps, **{k: scores.get(k) for k in HEADLINE},
                             "category_per_type": scores.get("deid_category_per_type"), "char_recall": recall}
            print(f"{args.corpus.stem:20} {name:28} " + "  ".join(f"{k} {scores.get(k) or 0:.3f}" for k in HEADLINE)
                  + "  char R " + " ".join(f"{k} {v:.3f}" for k, v in recall.items()), flush=True)
    args.output.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
