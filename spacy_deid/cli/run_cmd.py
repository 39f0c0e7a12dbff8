"""`spacy-deid run IN OUT`: de-identify a JSONL/CSV file or a folder of .txt notes.

Patients are processed whole (dates voted over all their notes, see `spacy_deid.batch`); with
`--n-process N` patients are spread over N worker processes and the output is byte-identical to one
process. The output is written atomically; records that cannot be processed go to `--errors` (id,
line and reason, never text) and make the exit code 1. Nothing PHI-bearing is printed or logged:
the progress bar and the summary show counts and rates only.
"""
import functools
import os
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional

import typer

from . import app
from .gpu import use_gpu
from .recall_bias import RECALL_BIAS_OPTION, recall_bias_errors
from .run_io import (
    atomic_dir, atomic_file, count_csv, count_jsonl, csv_fieldnames, detect_format, json_line,
    read_csv, read_jsonl, read_txt_dir, txt_files,
)

KEY_ENV = "SPACY_DEID_KEY"


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


def _preflight(nlp) -> None:
    """Run the pipeline once on a fixed synthetic note, so a missing or short key (or a pipeline
    without surrogates) is one clear message instead of an error on every record."""
    from ..batch import Stages

    try:
        stages = Stages(nlp)
        doc = nlp.make_doc("Tel 0912-345-678, 病歷號 1234567.")
        doc._.doc_id = "preflight"
        doc = stages.recognize([doc])[0]
        stages.resynthesize(doc)
        if doc._.deid_text is None:
            raise ValueError("the pipeline writes no doc._.deid_text")
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


def _output_record(result, text_field: str, replacements_field: str) -> Dict[str, Any]:
    record = dict(result.record or {})
    record[text_field] = result.deid_text
    if replacements_field:
        record[replacements_field] = result.replacements
    return record


class _Writers:
    """Output, errors and audit streams, all opened atomically."""

    def __init__(self, out_file, out_fmt: str, out_dir: Optional[Path], fieldnames: List[str],
                 text_field: str, replacements_field: str, errors_file, audit_file):
        self.out_file, self.out_fmt, self.out_dir = out_file, out_fmt, out_dir
        self.text_field, self.replacements_field = text_field, replacements_field
        self.errors_file, self.audit_file = errors_file, audit_file
        self.csv_writer = None
        if out_fmt == "csv":
            import csv

            columns = list(fieldnames)
            if replacements_field and replacements_field not in columns:
                columns.append(replacements_field)
            self.csv_writer = csv.DictWriter(out_file, fieldnames=columns, extrasaction="ignore")
            self.csv_writer.writeheader()
        self.replacements_log = None

    def write(self, result) -> None:
        import json

        if not result.ok:
            if self.errors_file is not None:
                self.errors_file.write(json_line({"id": result.id, "line": result.line, "error": result.error}))
            return
        if self.audit_file is not None:
            original = (result.record or {}).get(self.text_field, "")
            for rep in result.replacements:
                self.audit_file.write(json_line({
                    "id": result.id, "patient_id": result.patient_id, "label": rep.get("label"),
                    "start": rep.get("start"), "end": rep.get("end"),
                    "original": original[rep["start"]:rep["end"]], "surrogate": rep.get("surrogate")}))
        if self.out_fmt == "jsonl":
            self.out_file.write(json_line(_output_record(result, self.text_field, self.replacements_field)))
        elif self.out_fmt == "csv":
            row = _output_record(result, self.text_field, self.replacements_field)
            if self.replacements_field:
                row[self.replacements_field] = json.dumps(row[self.replacements_field], ensure_ascii=False)
            self.csv_writer.writerow(row)
        else:
            target = self.out_dir / f"{result.id}.txt"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(result.deid_text, encoding="utf8")
            if self.replacements_field:
                self.out_file.write(json_line({"id": result.id, "replacements": result.replacements}))


@app.command("run")
def run_command(
    input_path: Path = typer.Argument(..., exists=True, help="Notes: .jsonl, .csv or a folder of .txt files."),
    output_path: Path = typer.Argument(..., help="Output: same format as the input (a folder for .txt)."),
    text_field: str = typer.Option("text", "--text-field", help="Field holding the note text."),
    patient_field: str = typer.Option("patient_id", "--patient-field",
                                      help="Field grouping a patient's notes (dates voted together)."),
    id_field: str = typer.Option("id", "--id-field", help="Field naming the record in errors."),
    model: Optional[str] = typer.Option(None, "--model", help="Pipeline path or package; default: the "
                                        "shipped default pipeline, else a blank pipeline + deid."),
    n_process: int = typer.Option(1, "--n-process", min=1, help="Worker processes (patients stay whole)."),
    key: Optional[str] = typer.Option(None, "--key", help=f"Surrogate key; prefer the {KEY_ENV} "
                                      "environment variable (command lines show in process lists)."),
    demo_key: bool = typer.Option(False, "--demo-key", help="Use the public demo key: for trying the "
                                  "tool only, NOT for de-identification."),
    policy: Optional[str] = typer.Option(None, "--policy", help="Surrogate policy (see deid_surrogates)."),
    errors_path: Optional[Path] = typer.Option(None, "--errors", help="JSONL of records that failed "
                                               "(id, line, reason; no text)."),
    audit_path: Optional[Path] = typer.Option(None, "--audit", help="JSONL of original<->surrogate pairs. "
                                              "HOLDS PHI: protect it like the source notes."),
    max_chars: int = typer.Option(1_000_000, "--max-chars", min=1, help="Notes longer than this fail."),
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
    from tqdm import tqdm

    from ..batch import WorkerError, deidentify, deidentify_parallel

    fmt = detect_format(input_path)
    if fmt == "txt" and output_path.suffix:
        raise typer.BadParameter("a folder of .txt notes is written to a folder", param_hint="OUTPUT_PATH")
    if fmt != "txt" and output_path.exists() and output_path.is_dir():
        raise typer.BadParameter("output is a folder; give a file name", param_hint="OUTPUT_PATH")
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
    use_gpu(gpu_id, "run")
    loader = functools.partial(load_pipeline, model, overrides, max_chars, gpu_id, recall_bias)
    nlp = loader()  # a bad --model or missing key fails here, before any worker starts or file is opened
    _preflight(nlp)

    records = _records(input_path, fmt, id_field=id_field, text_field=text_field, patient_field=patient_field)
    options = dict(patient_key=patient_field, id_key=id_field, text_key=text_field, max_chars=max_chars,
                   grouping="full" if unsorted else "contiguous")
    if n_process == 1:
        results: Iterable = deidentify(nlp, records, **options)
    else:
        results = deidentify_parallel(loader, records, n_process=n_process, **options)
    total = _total(input_path, fmt)

    start = time.perf_counter()
    counts = {"ok": 0, "failed": 0}
    out_fmt = fmt
    fieldnames = csv_fieldnames(input_path) if fmt == "csv" else []
    with _open_outputs(output_path, out_fmt, errors_path, audit_path, replacements_field) as handles:
        writers = _Writers(handles["out"], out_fmt, handles.get("dir"), fieldnames, text_field,
                           replacements_field, handles.get("errors"), handles.get("audit"))
        bar = tqdm(total=total, unit="note", file=sys.stderr, disable=not progress, dynamic_ncols=True,
                   desc="de-identifying")
        with bar:
            try:
                for result in results:
                    writers.write(result)
                    counts["ok" if result.ok else "failed"] += 1
                    bar.update(1)
                    if not result.ok and errors_path is None and counts["failed"] <= 20:
                        tqdm.write(f"error: {result.error}", file=sys.stderr)
            except WorkerError as err:  # nothing is written: the temporary files are removed
                typer.secho(f"error: {err}", err=True, fg=typer.colors.RED)
                raise typer.Exit(code=2) from None
    elapsed = time.perf_counter() - start
    n = counts["ok"] + counts["failed"]
    rate = n / elapsed if elapsed > 0 else 0.0
    where = f" (see {errors_path})" if errors_path is not None and counts["failed"] else ""
    typer.echo(f"spacy-deid run: {n} records, {counts['ok']} de-identified, {counts['failed']} failed{where}; "
               f"{elapsed:.1f}s, {rate:.1f} notes/s", err=True)
    if counts["failed"]:
        raise typer.Exit(code=1)


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
