"""`spacy-deid principles learn|review|apply`: principles induced from an annotated corpus, reviewed by a
person, loaded into a pipeline (`spacy_deid.principles`)."""
from pathlib import Path
from typing import Optional

import typer

from . import app

principles_app = typer.Typer(help="Learn, review and install principles (context rules) from annotated notes.",
                             no_args_is_help=True)
app.add_typer(principles_app, name="principles")


@principles_app.command("learn")
def learn_command(
    corpus_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Annotated JSONL corpus."),
    output_path: Path = typer.Argument(..., dir_okay=False, help="Principles JSON to write (candidates)."),
    min_support: int = typer.Option(2, min=1, help="Gold spans a principle must find."),
    min_precision: float = typer.Option(0.9, min=0.0, max=1.0, help="Share of its matches that must be gold."),
) -> None:
    """Write the candidate principles of CORPUS (context words, shape, label, support, precision)."""
    from ..corpus import CorpusError, read_jsonl
    from ..principles import learn_principles, write_principles

    try:
        records = list(read_jsonl(corpus_path))
    except CorpusError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    principles = learn_principles(records, min_support=min_support, min_precision=min_precision)
    write_principles(principles, output_path)
    spans = sum(len(r.spans) for r in records)
    typer.echo(f"{len(principles)} candidate principles from {len(records)} notes ({spans} spans) "
               f"written to {output_path}")


@principles_app.command("review")
def review_command(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Principles JSON (rewritten in place)."),
    accept_min_precision: Optional[float] = typer.Option(
        None, min=0.0, max=1.0, help="Accept, without asking, every candidate at this precision or more."),
    accept_min_support: int = typer.Option(1, min=1, help="... and at least this support."),
) -> None:
    """Accept or reject each candidate principle: asked one by one (a / r / s to skip / q to stop), or
    by thresholds with --accept-min-precision. Only accepted principles run in a pipeline."""
    from ..principles import read_principles, write_principles
    from ..principles.store import PrincipleError

    try:
        principles = read_principles(path)
    except PrincipleError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    decided = 0
    for principle in principles:
        if principle.status != "candidate":
            continue
        if accept_min_precision is not None:
            if principle.precision >= accept_min_precision and principle.support >= accept_min_support:
                principle.status = "accepted"
                decided += 1
            continue
        answer = typer.prompt(f"{principle.readable()}  (support {principle.support}, precision "
                              f"{principle.precision:.2f})  [a]ccept/[r]eject/[s]kip/[q]uit", default="s")
        if answer.startswith("q"):
            break
        if answer[:1] in ("a", "r"):
            principle.status = "accepted" if answer.startswith("a") else "rejected"
            decided += 1
    write_principles(principles, path)
    counts = {s: sum(p.status == s for p in principles) for s in ("accepted", "rejected", "candidate")}
    typer.echo(f"{decided} decided; " + ", ".join(f"{n} {s}" for s, n in counts.items()))


@principles_app.command("apply")
def apply_command(
    path: Path = typer.Argument(..., exists=True, dir_okay=False, help="Reviewed principles JSON."),
    pipeline: str = typer.Argument(..., help="Pipeline folder with a deid component ('default': the shipped one)."),
    output_dir: Path = typer.Argument(..., file_okay=False, help="Where to save the pipeline with the principles."),
) -> None:
    """Save PIPELINE with the accepted principles of PATH added to its deid component."""
    from ..loading import default_pipeline_path, load
    from ..principles import read_principles
    from ..principles.store import PrincipleError

    try:
        principles = read_principles(path)
    except PrincipleError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    nlp = load(str(default_pipeline_path()) if pipeline == "default" else pipeline)
    if "deid" not in nlp.pipe_names:
        typer.echo(f"error: {pipeline} has no deid component", err=True)
        raise typer.Exit(2)
    nlp.get_pipe("deid").add_principles(principles)
    nlp.to_disk(output_dir)
    accepted = sum(p.status == "accepted" for p in principles)
    typer.echo(f"{accepted} accepted principles added; pipeline saved to {output_dir}")
