"""The `spacy-deid` command line: one typer app, one module per command."""
import typer

app = typer.Typer(
    name="spacy-deid",
    help="De-identify code-mixed clinical notes with spaCy.",
    no_args_is_help=True,
    add_completion=False,
)



@app.callback()
def _root() -> None:
    """De-identify code-mixed clinical notes with spaCy."""


# Command modules register themselves on `app` when imported.
from . import tokenize_cmd  # noqa: E402,F401
from . import synth_cmd  # noqa: E402,F401
from . import convert_cmd  # noqa: E402,F401
from . import evaluate_cmd  # noqa: E402,F401
from . import split_cmd  # noqa: E402,F401
from . import chunk_cmd  # noqa: E402,F401
from . import predict_cmd  # noqa: E402,F401
from . import assemble_cmd  # noqa: E402,F401
from . import install_default_cmd  # noqa: E402,F401
from . import encoder_cmd  # noqa: E402,F401
from . import run_cmd  # noqa: E402,F401
from . import principles_cmd  # noqa: E402,F401
from . import spark_cmd  # noqa: E402,F401
from . import review_cmd  # noqa: E402,F401


def main() -> None:
    app()
