"""`spacy-deid predict`: recognized PHI spans (with date norms) as JSONL, for `spacy-deid evaluate`."""
from itertools import groupby
from pathlib import Path
from typing import Optional

import typer

from . import app
from .gpu import use_gpu
from .recall_bias import RECALL_BIAS_OPTION, recall_bias_errors


@app.command("predict")
def predict_command(
    model: str = typer.Argument(..., help="Pipeline path or package, 'default' (shipped) or 'rules' (no NER)."),
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL notes (id, text, patient_id)."),
    output_path: Path = typer.Argument(..., dir_okay=False, help="JSONL with predicted spans."),
    batch_size: int = typer.Option(64, help="Notes per nlp.pipe batch."),
    gpu_id: int = typer.Option(-1, "--gpu-id", help="GPU to run the model on (needs cupy); -1: CPU."),
    recall_bias: Optional[float] = RECALL_BIAS_OPTION,
) -> None:
    """Write the PHI spans MODEL finds in INPUT; a patient's notes are resolved together (date vote,
    and names and places found in one note are marked in the others)."""
    use_gpu(gpu_id, "predict")
    from ..batch import Stages
    from ..corpus import doc_to_record, read_jsonl, write_jsonl
    from ..loading import load_recognizer

    with recall_bias_errors():
        nlp = load_recognizer(model, recall_bias=recall_bias)
    stages = Stages(nlp)

    def predicted():
        records = read_jsonl(input_path, known_labels=None)
        for _, group in groupby(records, key=lambda r: r.patient_id if r.patient_id is not None else id(r)):
            group = list(group)
            docs = stages.recognize([r.text for r in group], batch_size=batch_size)
            for record, doc in zip(group, docs):
                doc._.doc_id = record.id
                doc._.patient_id = record.patient_id
            if group[0].patient_id is not None:
                stages.vote(docs)
            for doc in docs:
                yield doc_to_record(doc)

    count = write_jsonl(predicted(), output_path)
    typer.echo(f"{count} notes written to {output_path}")
