"""`spacy-deid tokenize`: show how the code-mixing tokenizer splits a text (for checking spans)."""
import sys

import typer

from . import app


@app.command("tokenize")
def tokenize_command(
    text: str = typer.Argument(None, help="Text to tokenize; read from standard input when omitted."),
    sep: str = typer.Option(" | ", help="Separator printed between tokens."),
) -> None:
    """Print the tokens of TEXT (or of each line of standard input)."""
    from .. import blank

    nlp = blank()
    lines = [text] if text is not None else sys.stdin.read().splitlines()
    for line in lines:
        typer.echo(sep.join(t.text for t in nlp.make_doc(line)))
