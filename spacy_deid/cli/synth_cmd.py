"""`spacy-deid synth`: write a synthetic code-mixed corpus with gold PHI spans (JSONL)."""
from pathlib import Path
from typing import Optional, Tuple

import typer

from . import app


def _range(value: str) -> Tuple[int, int]:
    lo, sep, hi = value.partition("-")
    try:
        out = (int(lo), int(hi) if sep else int(lo))
    except ValueError:
        raise typer.BadParameter(f"expected N or MIN-MAX, got {value!r}") from None
    if not 1 <= out[0] <= out[1]:
        raise typer.BadParameter(f"need 1 <= MIN <= MAX, got {value!r}")
    return out


@app.command("synth")
def synth_command(
    output: Path = typer.Argument(..., help="Output JSONL file (annotation format)."),
    patients: int = typer.Option(100, "--patients", "-n", min=0, help="Number of synthetic patients."),
    seed: int = typer.Option(0, "--seed", help="Random seed: same seed, same bytes."),
    split: str = typer.Option(
        "train", "--split",
        help="train, heldout (unseen templates and values), fresh or blind (templates written blind to the rules, "
             "held-out values)."),
    notes_per_patient: str = typer.Option("2-5", "--notes-per-patient", help="N or MIN-MAX notes per patient."),
    values: Optional[str] = typer.Option(
        None, "--values", help="Lexicon split of the values (default: --split; heldout for fresh and blind); train with --split "
                               "heldout scores unseen contexts alone, heldout with --split train unseen values alone."),
    backgrounds: Optional[str] = typer.Option(
        None, "--backgrounds", help="Real clinical lines mixed into a train split: 1 (assets/clinical_text/), 0 (none) "
                                    "or a folder of such files (default: $SPACY_DEID_SYNTH_BACKGROUNDS, else none)."),
) -> None:
    """Generate OUTPUT with notes of PATIENTS synthetic patients (discharge, progress, OPD, nursing)."""
    from ..corpus.jsonl import write_jsonl
    from ..synth import SPLITS, VALUE_SPLITS, generate
    from ..synth.backgrounds import requested

    if split not in SPLITS:
        raise typer.BadParameter(f"--split must be one of {', '.join(SPLITS)}")
    if values is not None and values not in VALUE_SPLITS:
        raise typer.BadParameter(f"--values must be one of {', '.join(VALUE_SPLITS)}")
    output.parent.mkdir(parents=True, exist_ok=True)
    n = write_jsonl(generate(patients, seed=seed, split=split, notes_per_patient=_range(notes_per_patient),
                             values=values, backgrounds=None if backgrounds is None else requested(backgrounds)), output)
    kind = split if values in (None, split) else f"{split} templates, {values} values"
    typer.echo(f"Wrote {n} notes of {patients} patients ({kind}, seed {seed}) to {output}")
