"""`spacy-deid run IN OUT`: de-identify a JSONL/CSV file or a folder of .txt notes.

Patients are processed whole (dates voted over all their notes, see `spacy_deid.batch`); with
`--n-process N` patients are spread over N worker processes and the output is byte-identical to one
process. The output is written atomically; records that cannot be processed go to `--errors` (id,
line and reason, never text) and make the exit code 1; a written record's warnings (a date the
calendar lacks, not shifted) go there too and leave it 0. Nothing PHI-bearing is printed or logged:
the progress bar and the summary show counts and rates only.

The output carries only what the user chose (`spacy_deid.batch.OutputFields`): the de-identified
text, the replacements, the id and patient fields as keyed pseudonyms, `--pseudonymize-field`s, and
`--keep-field`s verbatim; every other input field is dropped.

Stopping: Ctrl-C (SIGINT) and SIGTERM end the workers and the run within seconds, remove every
temporary file and exit 130 / 143; a rerun starts over and replaces the output atomically (an
interrupted run leaves no partial output to resume from, by design: nothing half-written is ever
mistaken for a result).
"""
import functools
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import typer

from . import app
from ..batch import OutputFields, WorkerError, deidentify, deidentify_parallel, output_record
from ..surrogates.keys import resolve_key
from .gpu import use_gpu
from .recall_bias import RECALL_BIAS_OPTION, recall_bias_errors
from .record_options import (DEMO_KEY_OPTION, ERRORS_OPTION, ID_FIELD_OPTION, KEEP_FIELDS_OPTION, KEY_ENV, KEY_OPTION,
                             MAX_CHARS_OPTION, POLICY_OPTION, PSEUDONYMIZE_FIELDS_OPTION, TEXT_FIELD_OPTION,
                             restoring_key_environment)
from .run_io import (
    UnsupportedInput, atomic_dir, atomic_file, count_csv, count_jsonl, csv_fieldnames, detect_format,
    encodable, json_line, printable, read_csv, read_jsonl, read_txt_dir, same_or_inside,
    sweep_private_dir, txt_files,
)

EXIT_OK, EXIT_FAILED_RECORDS, EXIT_USAGE, EXIT_CRASH = 0, 1, 2, 3
EXIT_CODES_HELP = ("Exit codes: 0 every record written; 1 some records failed (see --errors), the rest "
                   "written; 2 usage or configuration error (bad option, key, model, input type, "
                   "unwritable or unsafe output), nothing written; 3 crash (a worker or the writer "
                   "failed), nothing written; 130 / 143 interrupted by Ctrl-C / SIGTERM, nothing "
                   "written, temporary files removed.")


class Interrupted(BaseException):
    """SIGTERM (or Ctrl-C) while running: unwinds like KeyboardInterrupt, so every temporary file is
    removed and the workers are ended on the way out."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum, frame) -> None:
    # once: a second Ctrl-C must not cut short the cleanup the first one started (a few seconds)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Interrupted(signum)


def load_pipeline(model: Optional[str], overrides: Dict[str, Any], max_chars: int, gpu_id: int = -1,
                  recall_bias: Optional[float] = None):
    """The pipeline to run: `model` (a path or package), else the shipped default pipeline, else a
    blank code-mixing pipeline + `deid`. A pipeline without `deid` gets one at the end.
    Module-level so worker processes can load their own copy (each on GPU `gpu_id` when >= 0)."""
    import spacy

    import spacy_deid

    from .. import loading

    if gpu_id >= 0:
        spacy.require_gpu(gpu_id)  # the parent checked it with a clear message (`use_gpu`)

    def config_for(path) -> Dict[str, Any]:
        """`overrides` for its `deid` (when it has one) and `recall_bias` for its NER."""
        saved = loading.saved_config(path)
        config = loading.recall_bias_overrides(saved, recall_bias)
        if overrides and saved is not None and "deid" in saved["nlp"]["pipeline"]:
            config.setdefault("components", {})["deid"] = overrides
        return config

    with recall_bias_errors():
        if model is None:
            if loading.has_default_pipeline():
                nlp = loading.load(config=config_for(loading.default_pipeline_path()))
            else:
                loading.recall_bias_overrides(None, recall_bias)  # no NER to take it
                nlp = spacy_deid.blank()
                nlp.add_pipe("deid", config=overrides)
        else:
            try:
                nlp = spacy.load(model, config=config_for(model))
            except OSError as err:
                raise typer.BadParameter(f"cannot load pipeline {model!r}: {err}", param_hint="--model") from None
    factories = set(nlp.pipe_factories.values())
    if "deid" not in factories and "deid_surrogates" not in factories:
        nlp.add_pipe("deid", config=overrides)
    nlp.max_length = max(nlp.max_length, max_chars + 1)
    return nlp


def _preflight(nlp) -> bytes:
    """Run the pipeline once on a fixed synthetic note, so a missing or weak key (or a pipeline
    without surrogates) is one clear message instead of an error on every record; returns the key
    (the output fields' pseudonyms use it)."""
    from ..batch import Stages

    try:
        stages = Stages(nlp)
        doc = nlp.make_doc("Tel 0912-345-678, 病歷號 1234567.")
        doc._.doc_id = "preflight"
        doc = stages.recognize([doc])[0]
        stages.resynthesize(doc)
        if doc._.deid_text is None:
            raise ValueError("the pipeline writes no doc._.deid_text")
        secret = stages.key()
        if secret is None:
            raise ValueError("the pipeline's surrogates are switched off")
        return secret
    except Exception as err:  # noqa: BLE001 - our own message on synthetic text: no PHI
        typer.secho(f"error: {type(err).__name__}: {err}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from None


def _records(path: Path, fmt: str, *, id_field: str, text_field: str, patient_field: str) -> Iterator:
    if fmt == "jsonl":
        return read_jsonl(path)
    if fmt == "csv":
        return read_csv(path)
    return read_txt_dir(path, id_field=id_field, text_field=text_field, patient_field=patient_field)


def _total(path: Path, fmt: str) -> int:
    if fmt == "jsonl":
        return count_jsonl(path)
    if fmt == "csv":
        return count_csv(path)
    return len(txt_files(path))


def outcome_counts(counts: Dict[str, int], errors_path: Optional[Path]) -> str:
    """`N records, K de-identified, F failed[, W warning(s)][ (see ERRORS)]`, for the summary line."""
    n = counts["ok"] + counts["failed"]
    warned = f", {counts['warnings']} warning(s)" if counts.get("warnings") else ""
    where = f" (see {errors_path})" if errors_path is not None and (counts["failed"] or warned) else ""
    return f"{n} records, {counts['ok']} de-identified, {counts['failed']} failed{warned}{where}"


def _safe_error_line(result) -> str:
    return json_line({"id": printable(result.id), "line": result.line, "error": printable(result.error)})


class _Writers:
    """Output, errors and audit streams, all opened atomically. Each record is serialized whole
    before anything of it is written, so one that cannot be written (a lone surrogate in a field)
    becomes an error record and the others go on.

    `fields` (an `OutputFields`) chooses the output fields of results that have none yet; a writer
    given none uses the default choice (`id_field` and `patient_field` pseudonymized) under the key
    the surrogates use: SPACY_DEID_KEY, else the demo key (a run with neither has stopped before).

    A written record's warnings (`DeidResult.warnings`) go to the errors file too, as `warning` lines;
    without one, the first 20 go to standard error. `warnings` counts them."""

    def __init__(self, out_file, out_fmt: str, out_dir: Optional[Path], fieldnames: List[str],
                 text_field: str, replacements_field: str, errors_file, audit_file,
                 fields: Optional[OutputFields] = None, *, id_field: str = "id",
                 patient_field: str = "patient_id"):
        self.out_file, self.out_fmt, self.out_dir = out_file, out_fmt, out_dir
        self.text_field, self.replacements_field = text_field, replacements_field
        self.errors_file, self.audit_file = errors_file, audit_file
        if fields is None:
            fields = OutputFields.default(resolve_key(None, demo_key=True), id_key=id_field,
                                          patient_key=patient_field)
        self.fields = fields
        self.warnings = 0
        self.csv_writer = None
        self.csv_buffer = None
        if out_fmt == "csv":
            import csv
            import io

            columns = [n for n in fieldnames if n == text_field or n in fields.keep or n in fields.pseudonymize]
            if replacements_field and replacements_field not in columns:
                columns.append(replacements_field)
            self.csv_buffer = io.StringIO(newline="")
            self.csv_writer = csv.DictWriter(self.csv_buffer, fieldnames=columns, extrasaction="ignore")
            self.csv_writer.writeheader()
            out_file.write(self._take_csv())

    def _take_csv(self) -> str:
        text = self.csv_buffer.getvalue()
        self.csv_buffer.seek(0)
        self.csv_buffer.truncate()
        return text

    def _record(self, result) -> Dict[str, Any]:
        if result.fields is None:
            result.fields = self.fields.apply(result.record, self.text_field)
        return output_record(result, self.text_field, self.replacements_field)

    def _serialize(self, result) -> List[str]:
        """The output text of one good record (output line, then audit lines), all checked."""
        import json

        if self.out_fmt == "jsonl":
            out = json_line(self._record(result))
        elif self.out_fmt == "csv":
            row = self._record(result)
            if self.replacements_field:
                row[self.replacements_field] = json.dumps(row[self.replacements_field], ensure_ascii=False)
            self.csv_writer.writerow(row)
            out = self._take_csv()
        else:
            out = json_line({"id": result.id, "replacements": result.replacements}) if self.replacements_field else ""
        lines = [out]
        if self.audit_file is not None:
            original = (result.record or {}).get(self.text_field, "")
            for rep in result.replacements:
                lines.append(json_line({
                    "id": result.id, "patient_id": result.patient_id, "label": rep.get("label"),
                    "start": rep.get("start"), "end": rep.get("end"),
                    "original": original[rep["start"]:rep["end"]], "surrogate": rep.get("surrogate")}))
        return lines

    def write(self, result) -> bool:
        """Write one result; False when it failed (as given, or because it cannot be written)."""
        if result.ok:
            lines = self._serialize(result)
            if all(encodable(line) for line in lines):
                out, audit = lines[0], lines[1:]
                if self.out_fmt == "txt":
                    target = self.out_dir / f"{result.id}.txt"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(result.deid_text, encoding="utf8")
                if out:
                    self.out_file.write(out)
                for line in audit:
                    self.audit_file.write(line)
                self.warn(result)
                return True
            result.error = (f"record {printable(result.id)!r}: a field holds text that is not valid Unicode "
                            "(a lone surrogate such as \\udc00); it cannot be written")
            result.deid_text, result.replacements = None, []
        if self.errors_file is not None:
            self.errors_file.write(_safe_error_line(result))
        return False

    def warn(self, result) -> None:
        """Write the warnings of a written record (in the errors file, else the first 20 on stderr)."""
        for message in result.warnings:
            self.warnings += 1
            if self.errors_file is not None:
                self.errors_file.write(json_line({"id": printable(result.id), "line": result.line,
                                                  "warning": printable(message)}))
            elif self.warnings <= 20:
                from tqdm import tqdm

                tqdm.write(f"warning: {printable(message)}", file=sys.stderr)


@app.command("run", help=f"De-identify INPUT_PATH into OUTPUT_PATH. {EXIT_CODES_HELP}")
@restoring_key_environment
def run_command(
    input_path: Path = typer.Argument(..., exists=True, help="Notes: .jsonl, .csv or a folder of .txt files."),
    output_path: Path = typer.Argument(..., help="Output: same format as the input (a folder for .txt)."),
    text_field: str = TEXT_FIELD_OPTION,
    patient_field: str = typer.Option("patient_id", "--patient-field",
                                      help="Field grouping a patient's notes (dates voted together); "
                                      "written as a keyed pseudonym."),
    id_field: str = ID_FIELD_OPTION,
    keep_fields: List[str] = KEEP_FIELDS_OPTION,
    pseudonymize_fields: List[str] = PSEUDONYMIZE_FIELDS_OPTION,
    force: bool = typer.Option(False, "--force", help="Allow OUTPUT_PATH to be INPUT_PATH (replaced "
                               "atomically at the end) or inside the input folder."),
    model: Optional[str] = typer.Option(None, "--model", help="Pipeline path or package; default: the "
                                        "shipped default pipeline, else a blank pipeline + deid."),
    n_process: int = typer.Option(1, "--n-process", min=1, help="Worker processes (patients stay whole)."),
    key: Optional[str] = KEY_OPTION,
    demo_key: bool = DEMO_KEY_OPTION,
    policy: Optional[str] = POLICY_OPTION,
    errors_path: Optional[Path] = ERRORS_OPTION,
    audit_path: Optional[Path] = typer.Option(None, "--audit", help="JSONL of original<->surrogate pairs. "
                                              "HOLDS PHI: protect it like the source notes."),
    max_chars: int = MAX_CHARS_OPTION,
    unsorted: bool = typer.Option(False, "--unsorted", help="Input is not grouped by patient: hold all "
                                  "records in memory so each patient is processed whole."),
    replacements_field: str = typer.Option("replacements", "--replacements-field",
                                           help="Output field for replacement records ('' to omit)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bar on stderr."),
    gpu_id: int = typer.Option(-1, "--gpu-id", help="GPU for the model (needs cupy; every worker uses "
                               "it); -1: CPU."),
    recall_bias: Optional[float] = RECALL_BIAS_OPTION,
) -> None:
    """De-identify INPUT_PATH into OUTPUT_PATH."""
    previous = {sig: signal.signal(sig, _raise_interrupted) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = _run(input_path, output_path, text_field=text_field, patient_field=patient_field,
                    id_field=id_field, keep_fields=keep_fields, pseudonymize_fields=pseudonymize_fields,
                    force=force, model=model, n_process=n_process, key=key, demo_key=demo_key, policy=policy,
                    errors_path=errors_path, audit_path=audit_path, max_chars=max_chars, unsorted=unsorted,
                    replacements_field=replacements_field, progress=progress, gpu_id=gpu_id,
                    recall_bias=recall_bias)
    except (KeyboardInterrupt, Interrupted) as err:
        signum = err.signum if isinstance(err, Interrupted) else signal.SIGINT
        typer.secho(f"\ninterrupted ({signal.Signals(signum).name}): nothing written, temporary files "
                    "removed; run again to start over", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=128 + int(signum)) from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if code:
        raise typer.Exit(code=code)


def _fail(message: str, code: int) -> "typer.Exit":
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code=code)


def _check_paths(input_path: Path, output_path: Path, fmt: str, errors_path: Optional[Path],
                 audit_path: Optional[Path], force: bool) -> None:
    if fmt == "txt" and output_path.suffix:
        raise typer.BadParameter("a folder of .txt notes is written to a folder", param_hint="OUTPUT_PATH")
    if fmt != "txt" and output_path.exists() and output_path.is_dir():
        raise typer.BadParameter("output is a folder; give a file name", param_hint="OUTPUT_PATH")
    for target, hint in ((output_path, "OUTPUT_PATH"), (errors_path, "--errors"), (audit_path, "--audit")):
        if target is not None and same_or_inside(target, input_path) and not force:
            where = "is the input" if target.resolve() == input_path.resolve() else "is inside the input folder"
            raise typer.BadParameter(f"{target} {where}: the source notes would be overwritten or read "
                                     "back; choose another path (or --force)", param_hint=hint)
    targets = [p for p in (output_path, errors_path, audit_path) if p is not None]
    if len({t.resolve() for t in targets}) < len(targets):
        raise typer.BadParameter("output, --errors and --audit must be different files", param_hint="OUTPUT_PATH")


def _run(input_path: Path, output_path: Path, *, text_field: str, patient_field: str, id_field: str,
         keep_fields: List[str], pseudonymize_fields: List[str], force: bool, model: Optional[str],
         n_process: int, key: Optional[str], demo_key: bool, policy: Optional[str],
         errors_path: Optional[Path], audit_path: Optional[Path], max_chars: int, unsorted: bool,
         replacements_field: str, progress: bool, gpu_id: int, recall_bias: Optional[float]) -> int:
    """The run; returns the exit code (see EXIT_CODES_HELP) or raises typer.Exit / BadParameter."""
    from tqdm import tqdm

    try:
        fmt = detect_format(input_path)
    except UnsupportedInput as err:
        raise typer.BadParameter(str(err), param_hint="INPUT_PATH") from None
    _check_paths(input_path, output_path, fmt, errors_path, audit_path, force)
    if key:
        os.environ[KEY_ENV] = key  # passed on to workers; never into a config that could be saved
    overrides: Dict[str, Any] = {}
    if demo_key:
        overrides["demo_key"] = True
    if policy:
        overrides["policy"] = policy
    if audit_path is not None:
        typer.secho(f"warning: {audit_path} will hold PHI (original<->surrogate pairs); store and delete "
                    "it like the source notes", err=True, fg=typer.colors.YELLOW)
    for name in keep_fields:
        typer.secho(f"warning: field {name!r} is copied into the output verbatim, NOT de-identified",
                    err=True, fg=typer.colors.YELLOW)
    use_gpu(gpu_id, "run")
    loader = functools.partial(load_pipeline, model, overrides, max_chars, gpu_id, recall_bias)
    nlp = loader()  # a bad --model or missing key fails here, before any worker starts or file is opened
    secret = _preflight(nlp)
    fields = OutputFields.default(secret, id_key=id_field, patient_key=patient_field, keep=keep_fields,
                                  pseudonymize=pseudonymize_fields)
    for target in (output_path, errors_path, audit_path):
        if target is not None and sweep_private_dir(target):
            typer.secho(f"note: removed the temporary files an interrupted run left beside {target}",
                        err=True, fg=typer.colors.YELLOW)

    records = _records(input_path, fmt, id_field=id_field, text_field=text_field, patient_field=patient_field)
    options = dict(patient_key=patient_field, id_key=id_field, text_key=text_field, max_chars=max_chars,
                   grouping="full" if unsorted else "contiguous", fields=fields)
    if n_process == 1:
        results: Iterator = deidentify(nlp, records, **options)
    else:
        results = deidentify_parallel(loader, records, n_process=n_process, **options)
    total = _total(input_path, fmt)

    start = time.perf_counter()
    counts = {"ok": 0, "failed": 0}
    fieldnames = csv_fieldnames(input_path) if fmt == "csv" else []
    try:
        handles_cm = _open_outputs(output_path, fmt, errors_path, audit_path, replacements_field)
        try:
            handles = handles_cm.__enter__()
        except OSError as err:  # unwritable output: configuration, before any record
            raise _fail(f"cannot write the output ({type(err).__name__}: {err.strerror or err})", EXIT_USAGE) from None
        try:
            writers = _Writers(handles["out"], fmt, handles.get("dir"), fieldnames, text_field,
                               replacements_field, handles.get("errors"), handles.get("audit"), fields)
            with tqdm(total=total, unit="note", file=sys.stderr, disable=not progress, dynamic_ncols=True,
                      desc="de-identifying") as bar:
                for result in results:
                    ok = writers.write(result)
                    counts["ok" if ok else "failed"] += 1
                    bar.update(1)
                    if not ok and errors_path is None and counts["failed"] <= 20:
                        tqdm.write(f"error: {printable(result.error)}", file=sys.stderr)
            counts["warnings"] = writers.warnings
        except BaseException:
            handles_cm.__exit__(*sys.exc_info())
            raise
        handles_cm.__exit__(None, None, None)
    except typer.Exit:
        raise
    except WorkerError as err:  # nothing is written: the temporary files are removed
        raise _fail(str(err), EXIT_CRASH) from None
    except OSError as err:  # the disk filled up, the file grew too big, the folder went away
        raise _fail(f"writing failed ({type(err).__name__}: {err.strerror or err}); nothing written",
                    EXIT_CRASH) from None
    except Exception as err:  # noqa: BLE001 - an unexpected crash: its type only (messages may quote notes)
        if os.environ.get("SPACY_DEID_DEBUG"):
            raise
        raise _fail(f"crashed ({type(err).__name__}); nothing written. Set SPACY_DEID_DEBUG=1 for the "
                    "traceback (it may show note text)", EXIT_CRASH) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # ends the workers (deidentify_parallel) even when the writer stopped first
    elapsed = time.perf_counter() - start
    n = counts["ok"] + counts["failed"]
    rate = n / elapsed if elapsed > 0 else 0.0
    typer.echo(f"spacy-deid run: {outcome_counts(counts, errors_path)}; {elapsed:.1f}s, {rate:.1f} notes/s",
               err=True)
    return EXIT_FAILED_RECORDS if counts["failed"] else EXIT_OK


class _open_outputs:
    """Open the output (file or folder), errors and audit files atomically; commit all on success."""

    def __init__(self, output_path: Path, fmt: str, errors_path: Optional[Path], audit_path: Optional[Path],
                 replacements_field: str):
        self.output_path, self.fmt = output_path, fmt
        self.errors_path, self.audit_path = errors_path, audit_path
        self.replacements_field = replacements_field
        self._stack = None

    def __enter__(self) -> Dict[str, Any]:
        from contextlib import ExitStack

        self._stack = ExitStack()
        stack = self._stack.__enter__()
        handles: Dict[str, Any] = {}
        try:
            if self.fmt == "txt":
                folder = stack.enter_context(atomic_dir(self.output_path))
                handles["dir"] = folder
                handles["out"] = stack.enter_context(atomic_file(folder / "replacements.jsonl"))
            else:
                newline = "" if self.fmt == "csv" else None
                handles["out"] = stack.enter_context(atomic_file(self.output_path, newline=newline))
            if self.errors_path is not None:
                handles["errors"] = stack.enter_context(atomic_file(self.errors_path))
            if self.audit_path is not None:
                handles["audit"] = stack.enter_context(atomic_file(self.audit_path))
        except BaseException:
            self._stack.__exit__(*sys.exc_info())
            raise
        return handles

    def __exit__(self, *exc) -> bool:
        return bool(self._stack.__exit__(*exc))
