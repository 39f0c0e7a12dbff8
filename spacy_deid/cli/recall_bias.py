"""`--recall-bias` of the commands that load a NER (`run`, `predict`, `assemble`): one option, one error."""
from contextlib import contextmanager
from typing import Iterator

import typer

RECALL_BIAS_OPTION = typer.Option(None, "--recall-bias", help="The NER's precision/recall dial (closed_ner): "
                                  "higher finds more PHI and more false alarms; default: the pipeline's own.")


@contextmanager
def recall_bias_errors() -> Iterator[None]:
    """`loading.recall_bias_overrides` refuses a dial for a pipeline without the NER that takes it: say
    so as a bad `--recall-bias`, not as a traceback."""
    try:
        yield
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--recall-bias") from None
