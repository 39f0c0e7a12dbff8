"""`spacy-deid install-default`: copy an assembled pipeline into the package as its shipped default."""
import shutil
from pathlib import Path

import typer

from . import app


@app.command("install-default")
def install_default_command(
    pipeline: Path = typer.Argument(..., exists=True, file_okay=False, help="Assembled pipeline folder."),
    max_mb: float = typer.Option(50.0, help="Refuse a pipeline larger than this (wheel size budget: the shipped "
                                 "default, two voting NERs of about 15 MB each, vectors and rules, is about 45 MB)."),
) -> None:
    """Replace spacy_deid/default_pipeline with PIPELINE (what `spacy_deid.load()` loads)."""
    import spacy

    from ..loading import default_pipeline_path

    size_mb = sum(p.stat().st_size for p in pipeline.rglob("*") if p.is_file()) / 2**20
    if size_mb > max_mb:
        typer.echo(f"Pipeline is {size_mb:.1f} MB, over the {max_mb} MB budget", err=True)
        raise typer.Exit(1)
    spacy.load(pipeline)  # refuse to install something that does not load
    target = default_pipeline_path()
    staging = target.with_name(target.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(pipeline, staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    typer.echo(f"Installed {size_mb:.1f} MB default pipeline at {target}")
