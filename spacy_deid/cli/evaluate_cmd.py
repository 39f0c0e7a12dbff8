"""`spacy-deid evaluate`: score predictions (JSONL) against gold (JSONL); print a table, write JSON."""
import json
from pathlib import Path
from typing import List, Optional

import typer

from . import app


@app.command("evaluate")
def evaluate_command(
    gold_path: Path = typer.Argument(..., help="Gold JSONL.", exists=True, dir_okay=False),
    pred_path: Path = typer.Argument(..., help="Predicted JSONL (with deid_text/replacements for the leak rate).",
                                     exists=True, dir_okay=False),
    label_map: Optional[str] = typer.Option(None, "--label-map", help="Map applied to the gold: name or JSON file."),
    unmapped: str = typer.Option("error", help="Gold labels the map lacks: error|ignore|keep."),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the scores as JSON here."),
    missing: str = typer.Option("error", help="Gold records without a prediction: error|empty."),
    skip_bad: bool = typer.Option(False, "--skip-bad", help="Report bad records and go on."),
    leak: bool = typer.Option(True, "--leak/--no-leak", help="Leak rate when predictions carry deid_text."),
    scheme_spans: bool = typer.Option(False, "--scheme-spans", help="Trim titles the map says the gold keeps "
                                      "inside names (`[林醫師]` -> `[林]`), as annotation.md spans them."),
) -> None:
    """Strict, category, relaxed and token scores, sentence kinds and leak rate."""
    from ..corpus import CorpusError
    from ..corpus.atomic import atomic_open
    from ..scoring import evaluate_files, format_scores

    errors: Optional[List[CorpusError]] = [] if skip_bad else None
    try:
        scores = evaluate_files(gold_path, pred_path, label_map=label_map, unmapped=unmapped, missing=missing,
                                leak=None if leak else False, errors=errors, scheme_spans=scheme_spans)
    except CorpusError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    typer.echo(format_scores(scores))
    if errors:
        typer.echo(f"{len(errors)} record(s) skipped:", err=True)
        for err in errors:
            typer.echo(f"  {err}", err=True)
    if output is not None:
        with atomic_open(output) as fh:
            json.dump(scores, fh, ensure_ascii=False, indent=2, sort_keys=True)
            fh.write("\n")
        typer.echo(f"scores written to {output}", err=True)
