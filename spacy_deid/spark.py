"""`deidentify_dataframe(df)`: de-identify a Spark DataFrame of notes, a patient's notes together.

Why Spark: a hospital's archive is tens of millions of notes, and the teams that hold them run Spark.
Why grouped: as in `spacy_deid.batch`, an ambiguous date is read the way the patient's other notes
write dates, so all of a patient's notes must meet in one call. Rows are grouped by patient
(`groupBy(...).applyInPandas`), wherever they sit in the input (several files, any partitioning), and
each group goes through `batch.process_group`, the very code `spacy-deid run` runs: same items, same
isolation of failing records, same results. Surrogates are keyed (HMAC), so a name gets one surrogate
and a patient one date shift on every worker without shared state.

How a row travels: its columns become one JSON payload (`to_json`, column order kept), parsed on the
worker into the record dict `run`'s readers would give. Records without a patient are each their own
group (per-note voting, as in `run`). What leaves is chosen on the worker as `run` chooses it
(`batch.OutputFields`: id and patient as keyed pseudonyms, `keep_fields` verbatim, nothing else):
the `fields` column, from which `batch.output_record` builds `run`'s output record.

A record that cannot be processed (no text, text that is not a string, over `max_chars`, a failure
inside the pipeline) becomes an error row (id, line, message naming the record, never its text);
only a missing or unusable key, which is the run's problem, fails the job.

The pipeline is loaded once per Python worker process (`_PIPELINES`, module level; Spark reuses its
Python workers across tasks), never per group. The key travels as a broadcast variable: it is not in
the plan (`explain()`), in the pickled task, in Spark's configuration or in any log; each worker puts
it into its own environment (SPACY_DEID_KEY) before loading, as `run`'s worker processes inherit it.

pyspark is an optional extra (`pip install spacy-deid[spark]`), imported when a function is called.
"""
import hashlib
import json
import os
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from spacy.language import Language

from .batch import DEFAULT_MAX_CHARS, DeidResult, OutputFields, Stages, _to_item, output_record, process_group
from .cli.run_io import LineRecord
from .extensions import install_extensions
from .loading import load as load_default
from .surrogates.keys import ENV_VAR

if TYPE_CHECKING:  # pragma: no cover - names for type hints only; pyspark is optional
    import pandas
    from pyspark.broadcast import Broadcast
    from pyspark.sql import DataFrame, SparkSession

# The columns of the returned DataFrame. `id` and `patient_id` are the input's (for joins and error
# reports inside the secure zone); `fields` (JSON, null on error rows) holds what `run` writes beside
# the text and the replacements: the pseudonymized id and patient, the kept fields, the text's place.
RESULT_SCHEMA = ("index long, line int, id string, patient_id string, deid_text string, "
                 "replacements string, error string, fields string")
RESULT_COLUMNS = ("index", "line", "id", "patient_id", "deid_text", "replacements", "error", "fields")

# Internal transport columns (prefixed so they cannot clash with the input's own columns).
INDEX, LINE, GROUP, PAYLOAD = "__deid_index", "__deid_line", "__deid_group", "__deid_payload"

_PIPELINES: Dict[Tuple[str, str], Tuple[Language, Stages, bytes]] = {}
LOADS = {"count": 0}  # pipelines loaded by this process (a worker loads one per setting)
_OWN_KEY = os.environ.get(ENV_VAR)  # the worker's own environment, restored when no key is broadcast


class _Settings:
    """What a worker needs besides the rows: field names, the limit and how to load the pipeline."""

    def __init__(self, load_nlp: Callable[[], Language], text_field: str, id_field: str,
                 patient_field: str, max_chars: int, keep_fields: Sequence[str] = (),
                 pseudonymize_fields: Sequence[str] = ()):
        self.load_nlp, self.max_chars = load_nlp, max_chars
        self.keep_fields, self.pseudonymize_fields = tuple(keep_fields), tuple(pseudonymize_fields)
        # what names the pipeline in a worker's cache: the loader as the driver wrote it
        self.token = repr((load_nlp, max_chars))
        self.text_field, self.id_field, self.patient_field = text_field, id_field, patient_field


def require_pyspark() -> None:
    """A clear message instead of an ImportError deep in a call."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise ImportError("spacy_deid.spark needs pyspark: pip install 'spacy-deid[spark]'") from None


# -- driver side ---------------------------------------------------------------------------------
def broadcast_key(spark: "SparkSession", key: Optional[str]) -> "Broadcast":
    """The key (argument, else $SPACY_DEID_KEY, else None: demo or the workers' own environment) as
    a broadcast variable, so it reaches every worker without entering the plan or the task."""
    value = key if key else os.environ.get(ENV_VAR) or None
    return spark.sparkContext.broadcast(value)


def with_payload(df: "DataFrame", *, patient_field: str, index_column: Optional[str] = None) -> "DataFrame":
    """The transport columns for any DataFrame: an input index (`index_column`, else
    `monotonically_increasing_id`, stable for a given input layout), no line, the patient group and
    the row's columns as one JSON object (null fields left out, as a missing key)."""
    from pyspark.sql import functions as F

    columns = [c for c in df.columns]
    index = F.col(index_column).cast("long") if index_column else F.monotonically_increasing_id()
    out = df.select(index.alias(INDEX), F.lit(None).cast("int").alias(LINE),
                    F.to_json(F.struct(*[F.col(f"`{c}`") for c in columns])).alias(PAYLOAD),
                    *([F.col(f"`{patient_field}`").cast("string").alias("__patient")]
                      if patient_field in columns else [F.lit(None).cast("string").alias("__patient")]))
    # `run` treats a missing or empty patient as none: such a record is its own group.
    alone = F.concat(F.lit("\u0000#"), F.col(INDEX).cast("string"))
    group = F.when(F.col("__patient").isNull() | (F.col("__patient") == ""), alone).otherwise(F.col("__patient"))
    return out.select(INDEX, LINE, group.alias(GROUP), PAYLOAD)


def group_key(patient_id: Optional[str], index: int) -> str:
    """The group of a record whose patient id `_to_item` already normalized (None: its own group)."""
    return patient_id if patient_id is not None else f"\u0000#{index}"


def deidentify_payloads(prepared: "DataFrame", load_nlp: Callable[[], Language], key: "Broadcast", *,
                        text_field: str = "text", id_field: str = "id", patient_field: str = "patient_id",
                        max_chars: int = DEFAULT_MAX_CHARS, partitions: Optional[int] = None,
                        keep_fields: Sequence[str] = (), pseudonymize_fields: Sequence[str] = ()) -> "DataFrame":
    """De-identify a DataFrame of transport columns (`with_payload`, or the CLI's reader): one result
    row per input row (RESULT_SCHEMA), in no particular order (sort by `index`)."""
    from pyspark.sql import functions as F

    settings = _Settings(load_nlp, text_field, id_field, patient_field, max_chars, keep_fields,
                         pseudonymize_fields)
    if partitions:
        prepared = prepared.repartition(partitions, F.col(GROUP))  # groupBy reuses this partitioning

    def process(frame):  # the key stays in the broadcast: only its id is pickled with this function
        return _process_frame(settings, key, frame)

    return prepared.groupBy(GROUP).applyInPandas(process, schema=RESULT_SCHEMA)


def deidentify_dataframe(df: "DataFrame", *, text_field: str = "text", id_field: str = "id",
                         patient_field: str = "patient_id", load_nlp: Optional[Callable[[], Language]] = None,
                         key: Optional[str] = None, max_chars: int = DEFAULT_MAX_CHARS,
                         partitions: Optional[int] = None, index_column: Optional[str] = None,
                         keep_fields: Sequence[str] = (), pseudonymize_fields: Sequence[str] = ()) -> "DataFrame":
    """De-identify `df` (a text, an id and a patient column; other columns only as `keep_fields`
    verbatim or `pseudonymize_fields`, in the `fields` column, as `spacy-deid run` writes them).

    `load_nlp`: a picklable function returning the pipeline (default: `spacy_deid.load`, the shipped
    default); each Python worker calls it once. `key`: the surrogate key (default: $SPACY_DEID_KEY on
    the driver). `partitions`: how many partitions the patient groups are spread over (default: Spark's
    `spark.sql.shuffle.partitions`). Returns RESULT_SCHEMA rows; `index` orders them as the input
    (`index_column`, else the input's layout)."""
    require_pyspark()
    key_bc = broadcast_key(df.sparkSession, key)
    prepared = with_payload(df, patient_field=patient_field, index_column=index_column)
    return deidentify_payloads(prepared, load_nlp or load_default, key_bc, text_field=text_field,
                               id_field=id_field, patient_field=patient_field, max_chars=max_chars,
                               partitions=partitions, keep_fields=keep_fields,
                               pseudonymize_fields=pseudonymize_fields)


def result_from_row(row: Any) -> DeidResult:
    """A result row back as the `DeidResult` `deidentify` yields, output fields chosen, input record
    left on the worker (for `run`'s writers)."""
    return DeidResult(row["id"], row["index"], row["patient_id"], row["deid_text"],
                      json.loads(row["replacements"]) if row["replacements"] is not None else [],
                      row["error"], row["line"], None,
                      json.loads(row["fields"]) if row["fields"] is not None else None)


# -- worker side ---------------------------------------------------------------------------------
def _pipeline(settings: _Settings, key: "Broadcast") -> Tuple[Language, Stages, bytes]:
    """This worker's pipeline for this loader and key, loaded on first use only, and the key bytes
    it resolved."""
    secret = key.value
    cache_key = (settings.token, hashlib.sha256(secret.encode("utf-8")).hexdigest() if secret else "")
    cached = _PIPELINES.get(cache_key)
    if cached is None:
        secret = secret or _OWN_KEY
        if secret:
            os.environ[ENV_VAR] = secret  # where the surrogates read it, as in run's workers
        else:
            os.environ.pop(ENV_VAR, None)
        install_extensions()
        nlp = settings.load_nlp()
        nlp.max_length = max(nlp.max_length, settings.max_chars + 1)
        stages = Stages(nlp)
        # the key, resolved now: a later load with another key changes the environment, and a
        # missing key fails here, before any record
        cached = _PIPELINES[cache_key] = (nlp, stages, stages.key())
        LOADS["count"] += 1
    return cached


def _process_frame(settings: _Settings, key: "Broadcast", frame: "pandas.DataFrame") -> "pandas.DataFrame":
    """One patient group: the rows in input order through `process_group`, one result row each."""
    import pandas

    nlp, stages, secret = _pipeline(settings, key)
    fields = OutputFields.default(secret, id_key=settings.id_field, patient_key=settings.patient_field,
                                  keep=settings.keep_fields, pseudonymize=settings.pseudonymize_fields)
    frame = frame.sort_values(INDEX, kind="stable")
    items = []
    for index, line, payload in zip(frame[INDEX], frame[LINE], frame[PAYLOAD]):
        index = int(index)
        line = None if pandas.isna(line) else int(line)
        record = LineRecord(json.loads(payload)) if payload is not None else LineRecord()
        record.line = line
        items.append(_to_item(index, record, id_key=settings.id_field, text_key=settings.text_field,
                              patient_key=settings.patient_field, max_chars=settings.max_chars))
    rows = []
    for result in process_group(nlp, items, stages):
        if result.ok:
            result.fields = fields.apply(result.record, settings.text_field)
        rows.append(_row(result, settings.text_field))
    return pandas.DataFrame(rows, columns=list(RESULT_COLUMNS))


def _row(result: DeidResult, text_field: str) -> List[Any]:
    """A result as a row: JSON for the replacements and the output fields (`run`'s output record
    without them), nothing of the note on errors. A value Arrow cannot carry (a lone surrogate in an
    id or a field) makes an error row, not a failed job."""
    if result.ok:
        fields = output_record(result, text_field, None)
        fields[text_field] = None  # its place; the text travels in deid_text
        row = [result.index, result.line, result.id, result.patient_id, result.deid_text,
               json.dumps(result.replacements, ensure_ascii=False), None, json.dumps(fields)]
        if all(_encodable(v) for v in row):
            return row
        error = "record holds text that is not valid Unicode (a lone surrogate); it cannot be written"
        return [result.index, result.line, _safe(result.id), _safe(result.patient_id), None, None,
                f"record {_safe(result.id)!r}: {error}", None]
    return [result.index, result.line, _safe(result.id), _safe(result.patient_id), None, None,
            _safe(result.error), None]


def _encodable(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _safe(value: Optional[str]) -> Optional[str]:
    """A string Arrow can carry: lone surrogates written as escapes."""
    if value is None or _encodable(value):
        return value
    return value.encode("utf-8", "backslashreplace").decode("utf-8")
