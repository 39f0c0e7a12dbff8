"""`spacy-deid split`: train/dev split by patient, so no patient's notes leak across the split."""
import hashlib
from pathlib import Path

import typer

from . import app


def dev_fraction(patient_or_id: str, seed: int) -> float:
    """A stable number in [0, 1) per patient: the same split on every machine and Python."""
    digest = hashlib.sha1(f"{seed}:{patient_or_id}".encode("utf8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


@app.command("split")
def split_command(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL corpus."),
    train_path: Path = typer.Argument(..., dir_okay=False, help="JSONL for training."),
    dev_path: Path = typer.Argument(..., dir_okay=False, help="JSONL for development."),
    dev_share: float = typer.Option(0.1, min=0.0, max=1.0, help="Share of patients in dev."),
    seed: int = typer.Option(0, help="Changes which patients go to dev."),
) -> None:
    """Split INPUT into TRAIN and DEV by patient (notes without patient_id are split by record id)."""
    from ..corpus import read_jsonl, write_jsonl

    records = list(read_jsonl(input_path))
    train, dev = [], []
    for record in records:
        key = record.patient_id if record.patient_id is not None else f"record:{record.id}"
        (dev if dev_fraction(key, seed) < dev_share else train).append(record)
    write_jsonl(train, train_path)
    write_jsonl(dev, dev_path)
    typer.echo(f"{len(train)} records to {train_path}, {len(dev)} to {dev_path}")
