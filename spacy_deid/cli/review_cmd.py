"""`spacy-deid review OUT.jsonl [--original IN] --html review.html`: one HTML page to check what
`run` de-identified and to record corrections as training data (spacy_deid/review)."""
import os
from pathlib import Path
from typing import Callable, Optional

import typer

from . import app
from .run_io import atomic_file
from ..review import load, render
from ..surrogates import keys


def _pseudonym(key: Optional[str], demo_key: bool, id_field: str) -> Optional[Callable[[str], str]]:
    """The id `run` writes for an original id, when a key is at hand (else pairing goes without it)."""
    if not key and not demo_key and not os.environ.get(keys.ENV_VAR):
        return None
    try:
        secret = keys.resolve_key(key, demo_key=demo_key)
    except (keys.MissingKeyError, keys.InvalidKeyError) as err:
        raise typer.BadParameter(str(err), param_hint="--key") from None
    # `run` pseudonymizes ids with this function (issue 47); module attribute so this file does not
    # depend on the order in which the two changes land
    pseudonymize = keys.pseudonymize_field
    return lambda value: pseudonymize(secret, id_field, value)


@app.command("review")
def review_command(
    output_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="`spacy-deid run` output (.jsonl)."),
    html_path: Path = typer.Option(..., "--html", help="The page to write (one self-contained file)."),
    original_path: Optional[Path] = typer.Option(None, "--original", exists=True, help="The input given to "
                                                 "`run`: shows the original side. The page then HOLDS PHI."),
    sample_size: Optional[int] = typer.Option(None, "--sample", min=1, help="Review a random sample of N notes."),
    seed: int = typer.Option(0, "--seed", help="Seed of --sample (same seed, same sample)."),
    key: Optional[str] = typer.Option(None, "--key", help=f"The key `run` used (or {keys.ENV_VAR}): pairs "
                                      "pseudonymized ids with the original ids."),
    demo_key: bool = typer.Option(False, "--demo-key", help="`run` used the public demo key."),
    text_field: str = typer.Option("text", "--text-field"),
    id_field: str = typer.Option("id", "--id-field"),
    patient_field: str = typer.Option("patient_id", "--patient-field"),
    replacements_field: str = typer.Option("replacements", "--replacements-field"),
    title: str = typer.Option("spacy-deid review", "--title"),
) -> None:
    """Write the review page. Bad output records are reported (line and reason) and skipped; exit 1
    when there were any, after the page is written with the others."""
    pseudonym = _pseudonym(key, demo_key, id_field) if original_path is not None else None
    data = load(output_path, original_path, sample_size=sample_size, seed=seed, pseudonym=pseudonym,
                text_field=text_field, id_field=id_field, patient_field=patient_field,
                replacements_field=replacements_field)
    page = render(data, title=title)
    try:
        with atomic_file(html_path) as fh:
            fh.write(page)
    except OSError as err:
        typer.secho(f"error: cannot write {html_path} ({type(err).__name__})", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from None
    for message in data.errors:
        typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    paired = ""
    if data.originals is not None:
        paired = "; originals paired by " + ", ".join(f"{k} {v}" for k, v in data.pairing.items() if v)
        typer.secho(f"warning: {html_path} embeds the original notes: it holds PHI", err=True,
                    fg=typer.colors.YELLOW)
    typer.echo(f"spacy-deid review: {len(data.notes)} notes in {html_path} "
               f"({len(page.encode('utf-8')) / 1e6:.1f} MB){paired}", err=True)
    if data.errors:
        raise typer.Exit(code=1)
