"""`spacy-deid spark IN OUT`: de-identify JSONL, CSV or Parquet on Apache Spark, same bytes as `run`.

The notes are processed by `spacy_deid.spark.deidentify_payloads` (patients grouped, a pipeline per
Python worker, the key broadcast). Everything `run` decides about a record is decided by `run`'s own
code: JSONL and CSV are read by `run`'s readers (same records, lines, ids and reader errors), each
patient group goes through `batch.process_group`, and the output and errors files are written, in
input order, by `run`'s writers. The output is therefore byte-identical to `spacy-deid run` on the
same input and key, whatever the number of partitions, for input grouped by patient (Spark always
votes on whole patients, as `run --unsorted` does).

JSONL and CSV are read on the driver and written through it, as one file like `run`'s; Parquet input
is read by Spark itself (use it, or `deidentify_dataframe` on your own DataFrame, for archives larger
than the driver's memory) and Parquet output is written by Spark (a folder: id, patient id,
chosen output fields as JSON, de-identified text, replacements as JSON). Progress and counts go to
stderr; no note text does. Output fields as `run`'s: id and patient pseudonymized, `--keep-field`
verbatim, `--pseudonymize-field`, nothing else.
"""
import contextlib
import functools
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import typer

from . import app
from .recall_bias import RECALL_BIAS_OPTION
from .record_options import (DEMO_KEY_OPTION, ERRORS_OPTION, ID_FIELD_OPTION, KEEP_FIELDS_OPTION, KEY_OPTION,
                             MAX_CHARS_OPTION, POLICY_OPTION, PSEUDONYMIZE_FIELDS_OPTION, TEXT_FIELD_OPTION,
                             restoring_key_environment)
from .run_cmd import (
    EXIT_CRASH, EXIT_FAILED_RECORDS, EXIT_USAGE, KEY_ENV, _check_paths, _open_outputs, _records, _Writers,
    load_pipeline, outcome_counts,
)
from .run_io import atomic_file, csv_fieldnames, detect_format, printable

SAFE_JOB_ERRORS = ("MissingKeyError", "InvalidKeyError")  # messages about the key, never about a note


def _format(path: Path) -> str:
    """jsonl, csv or parquet (a .parquet file or folder); run's detection for the first two."""
    if path.suffix.lower() == ".parquet":
        return "parquet"
    try:
        fmt = detect_format(path)
    except ValueError as err:
        message = str(err).replace(".jsonl, .csv or a folder of .txt", ".jsonl, .csv or .parquet")
        raise typer.BadParameter(message) from None
    if fmt == "txt":
        raise typer.BadParameter("spark reads .jsonl, .csv or .parquet", param_hint="IN")
    return fmt


def _session(master: Optional[str]):
    """The active session (a notebook's, a test's) or a new one that the command stops at the end."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active, False
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers run this interpreter
    builder = (SparkSession.builder.appName("spacy-deid")
               .config("spark.ui.showConsoleProgress", "false"))  # our own progress bar
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True


def _driver_input(spark, path: Path, fmt: str, *, id_field: str, text_field: str, patient_field: str,
                  max_chars: int):
    """JSONL/CSV through `run`'s readers: the transport DataFrame and the reader errors (results)."""
    from pyspark.sql import types as T

    from ..batch import DeidResult, _to_item
    from ..spark import GROUP, INDEX, LINE, PAYLOAD, group_key

    rows, failed = [], []
    for index, raw in enumerate(_records(path, fmt, id_field=id_field, text_field=text_field,
                                         patient_field=patient_field)):
        item = _to_item(index, raw, id_key=id_field, text_key=text_field, patient_key=patient_field,
                        max_chars=max_chars)
        if item.record is None:  # a line that is no record: nothing for Spark to do
            failed.append(DeidResult(item.id, item.index, item.patient_id, error=item.error, line=item.line))
            continue
        rows.append((index, item.line, group_key(item.patient_id, index), json.dumps(raw)))
    schema = T.StructType([T.StructField(INDEX, T.LongType()), T.StructField(LINE, T.IntegerType()),
                           T.StructField(GROUP, T.StringType()), T.StructField(PAYLOAD, T.StringType())])
    return spark.createDataFrame(rows, schema=schema), failed


def _merge(spark_results: Iterator, failed: List) -> Iterator:
    """Spark's results (sorted by index) and the reader errors, in input order."""
    import heapq

    from ..spark import result_from_row

    converted = (result_from_row(row) for row in spark_results)
    return heapq.merge(converted, iter(failed), key=lambda r: r.index)


def _watch_job(sc, group: str, bar, stop: threading.Event) -> None:
    """Move `bar` (tasks done of the jobs in `group`, from Spark's status tracker) until `stop`."""
    tracker = sc.statusTracker()
    while not stop.wait(0.5):
        done = total = 0
        for job_id in tracker.getJobIdsForGroup(group):
            job = tracker.getJobInfo(job_id)
            for stage_id in job.stageIds if job is not None else ():
                info = tracker.getStageInfo(stage_id)
                if info is not None:
                    done, total = done + info.numCompletedTasks, total + info.numTasks
        if total:
            bar.total, bar.n = total, min(done, total)
            bar.refresh()


@app.command("spark")
@restoring_key_environment
def spark_command(
    input_path: Path = typer.Argument(..., exists=True, help="Notes: .jsonl, .csv or .parquet (file or folder)."),
    output_path: Path = typer.Argument(..., help="Output: .jsonl, .csv (one file, as run) or .parquet (a folder)."),
    patient_field: str = typer.Option("patient_id", "--patient-field",
                                      help="Field grouping a patient's notes (dates voted together)."),
    text_field: str = TEXT_FIELD_OPTION,
    id_field: str = ID_FIELD_OPTION,
    keep_fields: List[str] = KEEP_FIELDS_OPTION,
    pseudonymize_fields: List[str] = PSEUDONYMIZE_FIELDS_OPTION,
    master: Optional[str] = typer.Option(None, "--master", help="Spark master, e.g. local[2] or "
                                         "spark://host:7077 (default: spark-submit's or local[*])."),
    partitions: Optional[int] = typer.Option(None, "--partitions", min=1, help="Partitions the patient "
                                             "groups are spread over (default: 4 per core)."),
    model: Optional[str] = typer.Option(None, "--model", help="Pipeline path or package (must exist on "
                                        "every worker); default as run."),
    key: Optional[str] = KEY_OPTION,
    demo_key: bool = DEMO_KEY_OPTION,
    policy: Optional[str] = POLICY_OPTION,
    errors_path: Optional[Path] = ERRORS_OPTION,
    max_chars: int = MAX_CHARS_OPTION,
    replacements_field: str = typer.Option("replacements", "--replacements-field",
                                           help="Output field for replacement records ('' to omit)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Progress bars on stderr."),
    recall_bias: Optional[float] = RECALL_BIAS_OPTION,
) -> None:
    """De-identify INPUT_PATH into OUTPUT_PATH on Spark (output identical to `spacy-deid run`)."""
    from tqdm import tqdm

    from ..batch import OutputFields
    from ..spark import deidentify_payloads, require_pyspark, with_payload
    from ..surrogates.keys import InvalidKeyError, MissingKeyError, resolve_key

    in_fmt, out_fmt = _format(input_path), _format(output_path)
    if out_fmt != "parquet":  # run's checks: not a folder, not the input, not the errors file
        _check_paths(input_path, output_path, "jsonl", errors_path, None, False)
    try:
        require_pyspark()
    except ImportError as err:
        typer.secho(f"error: {err}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=EXIT_USAGE) from None
    if key:
        os.environ[KEY_ENV] = key  # broadcast to the workers below; never into a saved config
    try:  # a missing or short key is one clear message before Spark starts (workers would repeat it)
        secret = resolve_key(None, demo_key=demo_key)
    except (MissingKeyError, InvalidKeyError) as err:
        typer.secho(f"error: {type(err).__name__}: {err}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=EXIT_USAGE) from None
    for name in keep_fields:
        typer.secho(f"warning: field {name!r} is copied into the output verbatim, NOT de-identified",
                    err=True, fg=typer.colors.YELLOW)
    fields = OutputFields.default(secret, id_key=id_field, patient_key=patient_field, keep=keep_fields,
                                  pseudonymize=pseudonymize_fields)  # chosen on the workers; here: CSV columns
    overrides: Dict[str, Any] = {}
    if demo_key:
        overrides["demo_key"] = True
    if policy:
        overrides["policy"] = policy
    loader = functools.partial(load_pipeline, model, overrides, max_chars, -1, recall_bias)

    started = time.perf_counter()
    spark, owned = _session(master)
    startup = time.perf_counter() - started
    sc = spark.sparkContext
    n_partitions = partitions or 4 * sc.defaultParallelism
    key_bc = sc.broadcast(os.environ.get(KEY_ENV) or None)
    failed_reading: List = []
    try:
        if in_fmt == "parquet":
            source = spark.read.parquet(str(input_path))
            prepared = with_payload(source, patient_field=patient_field)
            fieldnames = list(source.columns)
        else:
            prepared, failed_reading = _driver_input(
                spark, input_path, in_fmt, id_field=id_field, text_field=text_field,
                patient_field=patient_field, max_chars=max_chars)
            fieldnames = csv_fieldnames(input_path) if in_fmt == "csv" else []
        results = deidentify_payloads(prepared, loader, key_bc, text_field=text_field, id_field=id_field,
                                      patient_field=patient_field, max_chars=max_chars,
                                      partitions=n_partitions, keep_fields=keep_fields,
                                      pseudonymize_fields=pseudonymize_fields)
        results = results.persist()
        start = time.perf_counter()
        group = f"spacy-deid-{os.getpid()}-{time.monotonic_ns()}"
        sc.setJobGroup(group, "spacy-deid spark: de-identify")
        with tqdm(total=n_partitions, unit="task", file=sys.stderr, disable=not progress,
                  dynamic_ncols=True, desc="de-identifying") as bar:
            stop = threading.Event()
            watcher = threading.Thread(target=_watch_job, args=(sc, group, bar, stop), daemon=True)
            watcher.start()
            try:
                processed = results.count()  # runs every patient group once; the writers read the cache
            finally:
                stop.set()
                watcher.join()
                sc.setLocalProperty("spark.jobGroup.id", None)
        counts = _write(results, failed_reading, output_path, out_fmt, fieldnames, text_field,
                        replacements_field, errors_path, processed + len(failed_reading), progress,
                        n_partitions, fields)
        results.unpersist()
    except typer.Exit:
        raise
    except Exception as err:  # noqa: BLE001 - a job failure (pipeline or key on a worker): no record text
        if os.environ.get("SPACY_DEID_DEBUG"):
            raise
        typer.secho(f"error: the Spark job failed ({_job_error(err)}); nothing written", err=True,
                    fg=typer.colors.RED)
        raise typer.Exit(code=EXIT_CRASH) from None
    finally:
        key_bc.destroy()
        if owned:
            spark.stop()
    elapsed = time.perf_counter() - start
    n = counts["ok"] + counts["failed"]
    rate = n / elapsed if elapsed > 0 else 0.0
    typer.echo(f"spacy-deid spark: {outcome_counts(counts, errors_path)}; {elapsed:.1f}s, {rate:.1f} notes/s "
               f"on {sc.master} in {n_partitions} partitions (Spark start-up {startup:.1f}s)", err=True)
    if counts["failed"]:
        raise typer.Exit(code=EXIT_FAILED_RECORDS)


def _job_error(err: Exception) -> str:
    """What failed, without Java's stack: the Python exception's type, and its message only for the
    key errors (other messages may quote a note; SPACY_DEID_DEBUG=1 shows the whole failure)."""
    import re

    text = str(err)
    names = re.findall(r"\b([A-Z]\w*(?:Error|Exception))\b", text)
    name = names[-1] if names else type(err).__name__
    if name in SAFE_JOB_ERRORS:
        found = re.findall(rf"{name}: ([^\n]*)", text)
        if found:
            return f"{name}: {found[-1][:300]}"
    return f"{name}; set SPACY_DEID_DEBUG=1 for the whole failure (it may show note text)"


def _write(results, failed_reading: List, output_path: Path, out_fmt: str, fieldnames: List[str],
           text_field: str, replacements_field: str, errors_path: Optional[Path], total: int,
           progress: bool, n_partitions: int, fields) -> Dict[str, int]:
    """Write the results in input order: JSONL/CSV through `run`'s writers, Parquet by Spark."""
    from tqdm import tqdm

    counts = {"ok": 0, "failed": 0}
    ordered = results.repartitionByRange(n_partitions, "index").sortWithinPartitions("index")
    if out_fmt == "parquet":
        from ..batch import DeidResult

        good = ordered.where("error IS NULL").select(  # what leaves: the chosen fields, never raw ids
            "index", "fields", ordered["deid_text"].alias(text_field),
            *([ordered["replacements"].alias(replacements_field)] if replacements_field else []))
        _write_parquet(good, output_path)
        counts["ok"] = good.count()
        errors = [DeidResult(r["id"], r["index"], r["patient_id"], error=r["error"], line=r["line"])
                  for r in ordered.where("error IS NOT NULL").select("id", "index", "patient_id", "error",
                                                                      "line").collect()]
        # a written record with a warning (its replacement says so, `DeidResult.warnings`)
        warned = [DeidResult(r["id"], r["index"], r["patient_id"], replacements=json.loads(r["replacements"]),
                             line=r["line"])
                  for r in ordered.where("error IS NULL AND replacements LIKE '%\"warning\"%'").select(
                      "id", "index", "patient_id", "replacements", "line").collect()]
        failed = sorted(failed_reading + errors, key=lambda r: r.index)
        counts["failed"] = len(failed)
        with contextlib.ExitStack() as stack:  # run's writer, errors and warnings alone
            errors_file = stack.enter_context(atomic_file(errors_path)) if errors_path is not None else None
            writers = _Writers(errors_file, "jsonl", None, [], text_field, "", errors_file, None)
            shown = 0
            for result in sorted(failed + warned, key=lambda r: r.index):
                if result.ok:
                    writers.warn(result)
                elif errors_file is not None:
                    writers.write(result)
                elif shown < 20:
                    shown += 1
                    typer.echo(f"error: {result.error}", err=True)
        counts["warnings"] = writers.warnings
        return counts
    with _open_outputs(output_path, out_fmt, errors_path, None, replacements_field) as handles:
        writers = _Writers(handles["out"], out_fmt, handles.get("dir"), fieldnames, text_field,
                           replacements_field, handles.get("errors"), None, fields)
        with tqdm(total=total, unit="note", file=sys.stderr, disable=not progress, dynamic_ncols=True,
                  desc="writing") as bar:
            for result in _merge(ordered.toLocalIterator(), failed_reading):
                ok = writers.write(result)
                counts["ok" if ok else "failed"] += 1
                bar.update(1)
                if not ok and errors_path is None and counts["failed"] <= 20:
                    tqdm.write(f"error: {printable(result.error)}", file=sys.stderr)
    counts["warnings"] = writers.warnings
    return counts


def _write_parquet(df, output_path: Path) -> None:
    """Spark writes a folder; write it beside the target and rename, so a failure leaves nothing."""
    import shutil
    import tempfile

    if output_path.exists():
        raise typer.BadParameter(f"{output_path} exists", param_hint="OUTPUT_PATH")
    output_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output_path.name}.", suffix=".tmp", dir=output_path.parent))
    try:
        df.write.mode("overwrite").parquet(str(tmp))
        os.replace(tmp, output_path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
