"""What each refine step does: strict F with every step, and with each step left out, on the synthetic
splits and the shared real-text corpora; with the spans each step changed.

    python scripts/evaluate_steps.py PIPELINE OUT.json [--splits corpus/heldout.jsonl ...]
                                     [--corpora ../shared/corpora] [--jobs N]
                                     [--without STEP,STEP ...] [--no-ablation]

The pipeline's statistical part (tokenizer, tok2vec, NER) runs once per corpus; the `deid` component's
recognition (rules, dates, one merge, the refine steps) and the patient steps then run once per
variant on copies of those docs, so leaving out each of twenty steps costs twenty passes of the cheap
part only. The scores are those of `spacy-deid evaluate` (strict micro and macro F, token P / R);
external corpora are read through their label maps, as `scripts/evaluate_external.py` does. A step
whose removal moves nothing anywhere is a candidate for deletion; `--without a,b` scores leaving out
several steps together (what deleting them all would do), since small losses add up. Corpora are read
in place; when the shared folder is absent only the splits given are scored.
"""
import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from itertools import groupby
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from spacy_deid.corpus.docs import doc_to_record
from spacy_deid.corpus.jsonl import read_jsonl
from spacy_deid.corpus.labelmap import load_label_map
from spacy_deid.labels import LABELS
from spacy_deid.loading import load_recognizer
from spacy_deid.refine import RefineStage, step_counts
from spacy_deid.scoring.scorer import score_records

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate_external import corpus_files  # noqa: E402

HEADLINE = (("F", "ents_f"), ("macroF", "deid_strict_macro_f"), ("tokP", "deid_token_p"),
            ("tokR", "deid_token_r"))


def without(note: Sequence[str], patient: Sequence[str], left_out: Sequence[str]
            ) -> Tuple[str, List[str], List[str]]:
    """The variant that leaves out every step named in `left_out` (each occurrence)."""
    unknown = set(left_out) - set(note) - set(patient)
    if unknown:
        raise SystemExit(f"not a step of this pipeline: {', '.join(sorted(unknown))}")
    return ("-" + "-".join(left_out), [s for s in note if s not in left_out],
            [s for s in patient if s not in left_out])


def variants(note: Sequence[str], patient: Sequence[str], ablate: bool = True,
             sets: Sequence[Sequence[str]] = ()) -> List[Tuple[str, List[str], List[str]]]:
    """(name, note steps, patient steps): all steps, then each of `sets` left out together, then (with
    `ablate`) each distinct step left out (every occurrence of it) and no step at all."""
    out = [("all", list(note), list(patient))]
    out += [without(note, patient, left_out) for left_out in sets]
    if not ablate:
        return out
    out += [without(note, patient, [name]) for name in dict.fromkeys([*note, *patient])]
    out.append(("none", [], []))
    return out


def _score_corpus(pipeline: str, path: str, label_map: Optional[str], ablate: bool = True,
                  sets: Sequence[Sequence[str]] = ()) -> Dict[str, Dict[str, float]]:
    nlp = load_recognizer(pipeline)
    deid = nlp.get_pipe("deid")
    lm = load_label_map(label_map, unmapped="ignore") if label_map else None
    gold = list(read_jsonl(path, label_map=lm, known_labels=None if lm is None else LABELS))
    with nlp.select_pipes(disable=["deid"]):
        statistical = [doc.to_bytes() for doc in nlp.pipe([g.text for g in gold], batch_size=64)]
    results: Dict[str, Dict[str, float]] = {}
    for name, note, patient in variants(deid.refine.note_step_names, deid.refine.patient_step_names,
                                        ablate, sets):
        deid.refine = RefineStage(note, patient, deid.refine.cue_rules)  # the pipeline's cue rules
        docs: List[Doc] = []
        for _, group in groupby(range(len(gold)), key=lambda i: gold[i].patient_id or f"#{i}"):
            group_docs = []
            for i in group:
                doc = Doc(nlp.vocab).from_bytes(statistical[i])
                doc._.doc_id, doc._.patient_id = gold[i].id, gold[i].patient_id
                group_docs.append(deid.recognize(doc))
            if group_docs[0]._.patient_id is not None:
                deid.resolve(group_docs)
            docs.extend(group_docs)
        scores = score_records(gold, [doc_to_record(doc) for doc in docs], leak=False)
        results[name] = {key: round(scores.get(key) or 0.0, 5) for _, key in HEADLINE}
        if name == "all":
            results[name]["changed"] = step_counts(docs)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pipeline")
    parser.add_argument("output", type=Path)
    parser.add_argument("--splits", nargs="*", type=Path, default=[], help="Gold JSONL splits (our labels).")
    parser.add_argument("--corpora", type=Path, default=Path("../shared/corpora"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-ablation", action="store_true", help="Score with every step only.")
    parser.add_argument("--without", action="append", default=[], metavar="STEP,STEP",
                        help="Also score these steps left out together (repeatable).")
    args = parser.parse_args()
    sets = [[name for name in group.split(",") if name] for group in args.without]
    jobs = [(split.stem, str(split), None) for split in args.splits if split.is_file()]
    jobs += [(stem, str(path), label_map) for stem, path, label_map in corpus_files(args.corpora)]
    if not jobs:
        print("nothing to score (no splits given, no shared corpora)")
    with ProcessPoolExecutor(max(1, min(args.jobs, len(jobs) or 1))) as pool:
        futures = [pool.submit(_score_corpus, args.pipeline, path, lm, not args.no_ablation, sets)
                   for _, path, lm in jobs]
        results = {name: future.result() for (name, _, _), future in zip(jobs, futures)}
    names = list(next(iter(results.values()))) if results else []
    print(f"{'variant':26}" + "".join(f"{corpus[:16]:>18}" for corpus in results))
    for variant in names:
        cells = []
        for corpus, res in results.items():
            f = res[variant]["ents_f"]
            cells.append(f"{f:.4f}" if variant == "all" else f"{f - res['all']['ents_f']:+.4f}")
        print(f"{variant:26}" + "".join(f"{c:>18}" for c in cells))
    print("spans changed per step (all steps on):")
    for corpus, res in results.items():
        print(f"  {corpus}: " + ", ".join(f"{k} {v}" for k, v in res["all"]["changed"].items()))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
