"""The options `run` and `spark` share (which fields leave, the key, the policy, the errors file, the
note limit): one declaration each, so the two commands cannot drift apart in what they promise."""
import functools
import os
from typing import Callable

import typer

KEY_ENV = "SPACY_DEID_KEY"

ID_FIELD_OPTION = typer.Option("id", "--id-field", help="Field naming the record in errors; written as "
                               "a keyed pseudonym.")
TEXT_FIELD_OPTION = typer.Option("text", "--text-field", help="Field holding the note text.")
KEEP_FIELDS_OPTION = typer.Option([], "--keep-field", help="Copy this input field into the output VERBATIM "
                                  "(repeatable; it is not de-identified). Other fields are dropped.")
PSEUDONYMIZE_FIELDS_OPTION = typer.Option([], "--pseudonymize-field", help="Write this input field as a "
                                          "keyed pseudonym, like the id (repeatable).")
KEY_OPTION = typer.Option(None, "--key", help=f"Surrogate key; prefer the {KEY_ENV} environment variable "
                          "(command lines show in process lists).")
DEMO_KEY_OPTION = typer.Option(False, "--demo-key", help="Use the public demo key: for trying the tool only, "
                               "NOT for de-identification.")
POLICY_OPTION = typer.Option(None, "--policy", help="Surrogate policy (see deid_surrogates).")
ERRORS_OPTION = typer.Option(None, "--errors", help="JSONL of records that failed (id, line, error) and of warnings "
                             "on written ones (id, line, warning); never text.")
MAX_CHARS_OPTION = typer.Option(1_000_000, "--max-chars", min=1, help="Notes longer than this fail.")


def restoring_key_environment(command: Callable) -> Callable:
    """`--key` reaches the worker processes through the environment (never a saved config); when the
    command ends, the environment is as it was, so a key given for one run (or refused) does not stay
    behind for the next command of the same process."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        before = os.environ.get(KEY_ENV)
        try:
            return command(*args, **kwargs)
        finally:
            if before is None:
                os.environ.pop(KEY_ENV, None)
            else:
                os.environ[KEY_ENV] = before
    return wrapper
