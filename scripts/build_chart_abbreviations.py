"""Write the chart abbreviations the training mix types in place of their long forms.

Why: the shipped NER takes chart shorthand it has never seen (`rm`, `bld`, `wks`) for names. The hand-written
table in `spacy_deid/synth/backgrounds.py` holds about a hundred phrases; clinicians' own inventories hold more
than a thousand. With them the real lines of the training mix are written as charts write them, and the NER
learns that such words are the chart's language, from data, not from a rule that drops them.

Input: the sense inventories of the Medical Abbreviation and Acronym Meta-Inventory
(github lisavirginia/clinical-abbreviations, CC BY 4.0) derived from clinical notes: Vanderbilt clinic notes and
discharge summaries (`sources/4-vanderbilt/*.txt`: abbreviation, sense, variation, CUI, frequency) and Stetson's
sign-out notes (`sources/6-stetson/sense_distribution_448.txt`: abbreviation, sense, frequency).
Output: `assets/clinical_text/chart_abbreviations.tsv`, one long form per line with its written forms
(`room<TAB>Rm|rm`), sorted.

Kept: an abbreviation's dominant sense (frequency at least 0.5) whose long form is 4-40 letters and spaces; each
written form as the notes wrote it (the Vanderbilt `variation` column), 1-6 characters of letters and `/.'+&`,
other than the long form itself. Dropped: a form that is a given name or surname of the package's lexicons (a
chart word that is also a name stays a name to the NER).
"""
import argparse
import csv
import re
from pathlib import Path
from typing import Dict, Iterable, Set

from spacy_deid.lexicons import lexicon

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "clinical_text" / "chart_abbreviations.tsv"
_FORM = re.compile(r"[A-Za-z][A-Za-z/.'+&]{0,5}")
_LONG = re.compile(r"[a-z][a-z \-]{3,39}")
MIN_SHARE = 0.5


def _names() -> Set[str]:
    return {v.lower() for name in ("given_names_en", "surnames_en") for v in lexicon.load(name).strings()}


def add(table: Dict[str, Set[str]], long_form: str, share: float, forms: Iterable[str], names: Set[str]) -> None:
    long_form = long_form.strip().lower()
    if share < MIN_SHARE or not _LONG.fullmatch(long_form):
        return
    kept = {f for f in forms if _FORM.fullmatch(f) and f.lower() != long_form and f.lower().strip(".") not in names}
    if kept:
        table.setdefault(long_form, set()).update(kept)


def read_vanderbilt(path: Path, table: Dict[str, Set[str]], names: Set[str]) -> None:
    with path.open(encoding="utf8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            try:
                share = float(row["frequency"])
            except (TypeError, ValueError):
                continue
            forms = [v.rsplit("_", 1)[0] for v in (row.get("variation") or "").split("|") if v]
            add(table, row["sense"] or "", share, forms or [row["abbreviation"].strip()], names)


def read_stetson(path: Path, table: Dict[str, Set[str]], names: Set[str]) -> None:
    for line in path.read_text(encoding="utf8").splitlines():
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        try:
            share = float(parts[2])
        except ValueError:
            continue
        add(table, parts[1], share, [parts[0].strip()], names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vanderbilt", type=Path, nargs="+", required=True)
    parser.add_argument("--stetson", type=Path, nargs="*", default=[])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    names = _names()
    table: Dict[str, Set[str]] = {}
    for path in args.vanderbilt:
        read_vanderbilt(path, table, names)
    for path in args.stetson:
        read_stetson(path, table, names)
    lines = [f"{long_form}\t{'|'.join(sorted(forms))}" for long_form, forms in sorted(table.items())]
    args.output.write_text("\n".join(lines) + "\n", encoding="utf8")
    print(f"{len(lines)} long forms, {sum(len(v) for v in table.values())} written forms -> {args.output}")


if __name__ == "__main__":
    main()
