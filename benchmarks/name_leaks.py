"""Issue 47, point 8: does any form of a name found in a patient's notes survive in that patient's output?

For each generated multi-note patient (`spacy_deid.synth.generate`), the batch API de-identifies the
patient's notes together (`batch.deidentify`, whole patients per worker); every full name it replaced in any of them (`name_forms.is_full_name`) gives the strings that must not survive in any of the
patient's outputs (`name_forms.identifying_forms`: the name, its given name, its surname with the
given name's initials). Prints counts only (names are PHI, even synthetic ones stay out of logs).

    python benchmarks/name_leaks.py --patients 1000 [--pipeline default] [--seed 0] [--split heldout] [--n-process 2]
"""
import argparse
import re
import sys
import time
from functools import partial
from itertools import groupby
from typing import Dict, Iterable, List, Sequence, Tuple

from spacy.language import Language

import spacy_deid
from spacy_deid.batch import DeidResult, deidentify, deidentify_parallel
from spacy_deid.labels import NAME_LABELS
from spacy_deid.name_forms import identifying_forms
from spacy_deid.synth import generate


def patient_leaks(texts: Sequence[str], results: Sequence[DeidResult]) -> Tuple[int, int, List[str]]:
    """(full names found, forms checked, kinds of the forms that survive) for one patient's notes and
    their results; a name found is a name span the pipeline replaced in any of the notes."""
    names = {text[r["start"]:r["end"]] for text, result in zip(texts, results)
             for r in result.replacements if r["label"] in NAME_LABELS}
    forms: Dict[str, str] = {}
    full = 0
    for name in sorted(names):
        found = identifying_forms(name)
        full += bool(found)
        for form in found:
            forms.setdefault(form, "full name" if form == name else
                             "initials" if " " in form and form.split()[-1].isupper() else "given name")
    leaks = [forms[form] for result in results for form in surviving(forms, result)]
    return full, len(forms), leaks


def surviving(forms: Iterable[str], result: DeidResult) -> List[str]:
    """The forms that stand in the output outside every surrogate (a surrogate that happens to hold a
    real name's letters, `Hua-Yuan` for `Hua-Yu`, is no leak), a Latin form as a whole word."""
    kept = list(result.deid_text or "")
    for r in result.replacements:
        kept[r["out_start"]:r["out_end"]] = "\0" * (r["out_end"] - r["out_start"])
    text = "".join(kept)
    return [form for form in forms
            if re.search(r"(?<![A-Za-z])" + re.escape(form) + r"(?![A-Za-z])" if form.isascii() else re.escape(form),
                         text)]


def _load(pipeline: str) -> Language:
    return spacy_deid.load(None if pipeline == "default" else pipeline,
                           config={"components": {"deid": {"demo_key": True}}})


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patients", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--pipeline", default="default", help="'default' or a pipeline path")
    parser.add_argument("--n-process", type=int, default=1)
    args = parser.parse_args(argv or None)
    start = time.perf_counter()
    records = [{"id": r.id, "patient_id": r.patient_id, "text": r.text}
               for r in generate(args.patients, seed=args.seed, split=args.split)]
    if args.n_process > 1:
        results = list(deidentify_parallel(partial(_load, args.pipeline), records, n_process=args.n_process))
    else:
        results = list(deidentify(_load(args.pipeline), records))
    patients = names = checked = leaking_patients = 0
    leaks: Dict[str, int] = {}
    pairs = sorted(zip(records, results), key=lambda pair: pair[0]["patient_id"])
    for _, group in groupby(pairs, key=lambda pair: pair[0]["patient_id"]):
        group = list(group)
        errors = [res for _, res in group if not res.ok]
        if errors:
            raise SystemExit(f"{len(errors)} records failed: {errors[0].error}")
        full, n_forms, found = patient_leaks([rec["text"] for rec, _ in group], [res for _, res in group])
        patients += 1
        names += full
        checked += n_forms
        leaking_patients += bool(found)
        for kind in found:
            leaks[kind] = leaks.get(kind, 0) + 1
    notes = len(records)
    print(f"patients {patients}, notes {notes}, full names found {names}, forms checked {checked}, "
          f"patients with a surviving form {leaking_patients}, surviving forms by kind {leaks or 0}, "
          f"{time.perf_counter() - start:.0f}s")
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
