"""`deidentify(nlp, records)`: de-identify many notes, a patient's notes together.

Why together: an ambiguous date (`03/04`) is read the way the patient's other notes write dates, so
all of a patient's notes are recognized first, their dates voted on (`resolve_dates`), and only then
are surrogates chosen. Surrogates are keyed by patient (HMAC), so the same name gets the same
surrogate in every note and on every worker without shared state.

Grouping while streaming: records arrive in order; a patient's group closes when a record of another
patient arrives (`grouping="contiguous"`, the default). Input sorted (or clustered) by patient, as
exports usually are, is then processed in O(largest patient) memory. For unsorted input, a patient
that comes back after its group closed starts a new group: surrogates stay consistent (they are
keyed, not remembered), only the date vote sees fewer notes. `grouping="full"` instead holds every
record until the input ends (memory grows with the whole input) so every patient is voted on whole.
Records without a patient id are each their own group (per-document voting).

Output fields: an output record carries only what the user chose (`OutputFields`): by default the
id and patient fields become keyed pseudonyms (HMAC under the surrogate key, stable across runs) and
every other input field is dropped; `keep` keeps a field verbatim, `pseudonymize` adds one.
`output_record` builds the record that `spacy-deid run` (and everything that must match it) writes.

Results come back in input order, one `DeidResult` per input item. A record that cannot be processed
(no text, text over `max_chars`, a reader error passed in as a `CorpusError`, a failure inside the
pipeline) gets `error` set, naming the record, never its text; the other records go on. A record
written with a span that could not be replaced as its label asks (a date the calendar lacks,
`110.02.30`, is not shifted) has `warnings`, each naming the record and the span's offsets.
"""
import logging
import multiprocessing
import signal
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc

from .corpus import CorpusError, Record
from .extensions import install_extensions
from .surrogates.keys import InvalidKeyError, MissingKeyError, pseudonymize_field

logger = logging.getLogger(__name__)

DEFAULT_MAX_CHARS = 1_000_000
InputItem = Union[Dict[str, Any], Record, CorpusError]


@dataclass
class DeidResult:
    """The outcome for one input record: either `deid_text` + `replacements`, or `error`."""

    id: Optional[str]
    index: int
    patient_id: Optional[str] = None
    deid_text: Optional[str] = None
    replacements: List[Dict[str, Any]] = field(default_factory=list)
    error: Optional[str] = None
    line: Optional[int] = None
    record: Optional[Dict[str, Any]] = None  # the INPUT record (PHI): never write it out as such
    fields: Optional[Dict[str, Any]] = None  # the chosen output fields (`OutputFields`), text aside

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def warnings(self) -> List[str]:
        """What was replaced but not as its label asks (a DATE no calendar has, `110.02.30`), one
        message per span naming the record and the offsets, never the text."""
        return [f"record {self.id!r}: the {rep.get('label')} at [{rep.get('start')}, {rep.get('end')}) is "
                f"{rep['warning']}" for rep in self.replacements if rep.get("warning")]

    def to_dict(self) -> Dict[str, Any]:
        return {"id": self.id, "index": self.index, "patient_id": self.patient_id,
                "deid_text": self.deid_text, "replacements": self.replacements, "error": self.error,
                "line": self.line, "record": self.record, "fields": self.fields}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "DeidResult":
        return cls(**data)


@dataclass(frozen=True)
class OutputFields:
    """Which input fields an output record carries besides the text. Why: an id like
    `7730418-20210302` or a `name` column is PHI that the text's de-identification never sees."""

    key: bytes
    pseudonymize: Tuple[str, ...] = ("id", "patient_id")
    keep: Tuple[str, ...] = ()

    @classmethod
    def default(cls, key: bytes, *, id_key: str = "id", patient_key: str = "patient_id",
                keep: Sequence[str] = (), pseudonymize: Sequence[str] = ()) -> "OutputFields":
        """The id and patient fields pseudonymized, plus `pseudonymize`; `keep` wins over both."""
        names = [n for n in (id_key, patient_key, *pseudonymize) if n not in keep]
        return cls(key, tuple(dict.fromkeys(names)), tuple(dict.fromkeys(keep)))

    def apply(self, record: Optional[Dict[str, Any]], text_key: str) -> Dict[str, Any]:
        """The chosen fields of `record`, in its order (the text field is left to `output_record`)."""
        out: Dict[str, Any] = {}
        for name, value in (record or {}).items():
            if name == text_key:
                out[name] = None  # a placeholder, so the text keeps its place among the fields
            elif name in self.keep:
                out[name] = value
            elif name in self.pseudonymize:
                out[name] = None if value in (None, "") else pseudonymize_field(self.key, name, value)
        return out


def output_record(result: "DeidResult", text_key: str = "text",
                  replacements_key: Optional[str] = "replacements") -> Dict[str, Any]:
    """The record written for a successful result: the chosen fields (`result.fields`) in input
    order, the de-identified text in the text field, then the replacements (when `replacements_key`).
    The one place that decides what leaves the machine: `run`'s writers and Spark use it."""
    if result.fields is None:
        raise ValueError(f"record {result.id!r}: no output fields chosen (pass fields=OutputFields(...))")
    record = dict(result.fields)
    record[text_key] = result.deid_text
    if replacements_key:
        record[replacements_key] = result.replacements
    return record


@dataclass
class _Item:
    index: int
    id: Optional[str]
    patient_id: Optional[str]
    text: Optional[str]
    record: Optional[Dict[str, Any]]
    line: Optional[int] = None
    error: Optional[str] = None


class Stages:
    """How to run a pipeline in three steps (recognize / vote / resynthesize), whatever its shape:
    a `deid` component, or separate `deid_rules`/`deid_dates`/`deid_surrogates` components."""

    def __init__(self, nlp: Language):
        self.nlp = nlp
        factories = nlp.pipe_factories
        self.deid = [n for n in nlp.pipe_names if factories[n] == "deid"]
        self.surrogates = [n for n in nlp.pipe_names if factories[n] == "deid_surrogates"]
        self.dates = [n for n in nlp.pipe_names if factories[n] == "deid_dates"]
        if not self.deid and not self.surrogates:
            raise ValueError("the pipeline has no 'deid' (or 'deid_surrogates') component; "
                             "add one with nlp.add_pipe('deid')")

    def recognize(self, docs: List[Doc], batch_size: Optional[int] = None) -> List[Doc]:
        cfg = {name: {"resynthesize": False} for name in self.deid}
        if self.surrogates:
            with self.nlp.select_pipes(disable=self.surrogates):
                return list(self.nlp.pipe(docs, batch_size=batch_size, component_cfg=cfg))
        return list(self.nlp.pipe(docs, batch_size=batch_size, component_cfg=cfg))

    def vote(self, docs: List[Doc]) -> None:
        for name in self.deid:
            self.nlp.get_pipe(name).resolve(docs)
        for name in self.dates:
            self.nlp.get_pipe(name).resolve_docs(docs, same_patient=True)

    def resynthesize(self, doc: Doc) -> None:
        for name in self.deid:
            self.nlp.get_pipe(name).resynthesize(doc)
        for name in self.surrogates:
            self.nlp.get_pipe(name)(doc)

    def key(self) -> Optional[bytes]:
        """The surrogate key, resolved now (a missing or weak key fails here): the output fields'
        pseudonyms are keyed with it, so one secret governs everything that leaves. None when the
        pipeline replaces nothing (surrogates switched off: every record fails anyway)."""
        for name in self.deid:
            part = self.nlp.get_pipe(name).surrogates
            if part is not None:
                return part.engine.key
        for name in self.surrogates:
            return self.nlp.get_pipe(name).engine.key
        return None


def _to_item(index: int, raw: InputItem, *, id_key: str, text_key: str, patient_key: str,
             max_chars: int) -> _Item:
    """Normalize one input; problems become the item's error (named by id, never by text)."""
    if isinstance(raw, CorpusError):
        return _Item(index, raw.record_id, None, None, None, raw.line, str(raw))
    if isinstance(raw, Record):
        data = {**raw.meta, "id": raw.id, text_key: raw.text}
        if raw.patient_id is not None:
            data[patient_key] = raw.patient_id
        raw = data
    if not isinstance(raw, dict):
        return _Item(index, None, None, None, None,
                     error=CorpusError(f"item {index} is not a record (got {type(raw).__name__})").args[0])
    line = getattr(raw, "line", None)  # readers' LineRecord remembers its line
    rid = raw.get(id_key)
    rid = str(rid) if rid not in (None, "") else (f"line-{line}" if line is not None else f"#{index}")
    pid = raw.get(patient_key)
    pid = str(pid) if pid not in (None, "") else None
    text = raw.get(text_key)
    error = None
    if text is None:
        error = f"missing text field {text_key!r}"
    elif not isinstance(text, str):
        error = f"text field {text_key!r} is not a string (got {type(text).__name__})"
    elif len(text) > max_chars:
        error = f"note has {len(text)} characters, over the limit of {max_chars} (max_chars)"
    if error is not None:
        return _Item(index, rid, pid, None, raw, line, str(CorpusError(error, record_id=rid, line=line)))
    return _Item(index, rid, pid, text, raw, line)


def _group_items(items: Iterable[_Item], grouping: str) -> Iterator[List[_Item]]:
    """Groups of items to process together (see the module docstring for the memory behaviour)."""
    if grouping not in ("contiguous", "full"):
        raise ValueError(f"grouping must be 'contiguous' or 'full', not {grouping!r}")
    if grouping == "full":
        by_patient: Dict[Optional[str], List[_Item]] = {}
        order: List[Tuple[int, List[_Item]]] = []
        for item in items:
            if item.patient_id is None or item.text is None:
                order.append((item.index, [item]))
            elif item.patient_id in by_patient:
                by_patient[item.patient_id].append(item)
            else:
                by_patient[item.patient_id] = [item]
                order.append((item.index, by_patient[item.patient_id]))
        for _, group in order:
            yield group
        return
    current: List[_Item] = []
    closed = set()
    reopened = 0
    for item in items:
        if item.text is None or item.patient_id is None:
            # errors and patient-less notes stand alone; they do not close the current group, so a
            # broken line in the middle of a patient's notes does not split the patient
            if current and item.text is None:
                current.append(item)
                continue
            if current:
                yield current
                current = []
            yield [item]
            continue
        if current and current[0].patient_id != item.patient_id:
            closed.add(current[0].patient_id)
            yield current
            current = []
        if not current and item.patient_id in closed:
            reopened += 1
        current.append(item)
    if current:
        yield current
    if reopened:
        logger.warning("%d patient group(s) reappeared after other patients (input not sorted by "
                       "patient); their dates were voted on per group. Use grouping='full' to vote "
                       "on whole patients.", reopened)


def _fatal_errors() -> Tuple[type, ...]:
    return (MissingKeyError, InvalidKeyError)


def process_group(nlp: Language, group: Sequence[_Item], stages: Optional[Stages] = None) -> List[DeidResult]:
    """De-identify one patient's notes together; results in the group's order. The output does not depend on
    that order (the vote and the spreading of names count, they do not take the first one met), so a patient
    split across files or Spark partitions gets the same output as one read whole."""
    stages = stages or Stages(nlp)
    results: Dict[int, DeidResult] = {}
    good = [it for it in group if it.text is not None]
    for it in group:
        if it.text is None:
            results[it.index] = DeidResult(it.id, it.index, it.patient_id, error=it.error, line=it.line,
                                           record=it.record)
    if good:
        try:
            for it, res in zip(good, _run(nlp, stages, good)):
                results[it.index] = res
        except Exception as err:  # noqa: BLE001 - isolate the failing note, keep the others
            if isinstance(err, _fatal_errors()):
                raise  # a missing or bad key is the run's problem, not a record's: stop, say why
            if len(good) == 1:
                it = good[0]
                # The exception type only: its message may quote the note.
                results[it.index] = DeidResult(
                    it.id, it.index, it.patient_id, line=it.line, record=it.record,
                    error=str(CorpusError(f"processing failed ({type(err).__name__})", record_id=it.id)))
            else:
                for it in good:
                    results[it.index] = process_group(nlp, [it], stages)[0]
    return [results[it.index] for it in group]


def _run(nlp: Language, stages: Stages, items: Sequence[_Item]) -> List[DeidResult]:
    docs = []
    for it in items:
        doc = nlp.make_doc(it.text)
        doc._.patient_id = it.patient_id
        doc._.doc_id = it.id
        docs.append(doc)
    docs = stages.recognize(docs)
    if items[0].patient_id is not None:
        stages.vote(docs)
    out = []
    for it, doc in zip(items, docs):
        stages.resynthesize(doc)
        if doc._.deid_text is None:
            raise RuntimeError("the pipeline wrote no doc._.deid_text (surrogates switched off?)")
        out.append(DeidResult(it.id, it.index, it.patient_id, doc._.deid_text,
                              list(doc._.replacements or []), None, it.line, it.record))
    return out


def prepare(records: Iterable[InputItem], *, id_key: str = "id", text_key: str = "text",
            patient_key: str = "patient_id", max_chars: int = DEFAULT_MAX_CHARS,
            grouping: str = "contiguous") -> Iterator[List[_Item]]:
    """Normalize and group the input: the groups are what workers process (see the CLI)."""
    items = (_to_item(i, raw, id_key=id_key, text_key=text_key, patient_key=patient_key,
                      max_chars=max_chars) for i, raw in enumerate(records))
    return _group_items(items, grouping)


def deidentify(nlp: Language, records: Iterable[InputItem], *, patient_key: str = "patient_id",
               id_key: str = "id", text_key: str = "text", max_chars: int = DEFAULT_MAX_CHARS,
               grouping: str = "contiguous", keep_fields: Sequence[str] = (),
               pseudonymize_fields: Sequence[str] = (),
               fields: Optional[OutputFields] = None) -> Iterator[DeidResult]:
    """Yield one DeidResult per input item, in input order (see the module docstring).

    `records`: dicts (with `id_key`, `text_key`, `patient_key`), `corpus.Record`s, or `CorpusError`s
    from a reader (passed through as error results, so a broken line keeps its place).
    `result.fields` holds what `spacy-deid run` writes besides the text: `id_key` and `patient_key`
    pseudonymized with the surrogate key, `pseudonymize_fields` too, `keep_fields` verbatim, nothing
    else (`fields` overrides all three); `output_record(result)` is the whole output record.
    """
    install_extensions()
    if nlp.max_length <= max_chars:
        nlp.max_length = max_chars + 1  # the limit is ours (max_chars), per note and reported per note
    stages = Stages(nlp)
    key = stages.key() if fields is None else None
    if key is not None:
        fields = OutputFields.default(key, id_key=id_key, patient_key=patient_key,
                                      keep=keep_fields, pseudonymize=pseudonymize_fields)
    groups = prepare(records, id_key=id_key, text_key=text_key, patient_key=patient_key,
                     max_chars=max_chars, grouping=grouping)
    for result in ordered(process_group(nlp, group, stages) for group in groups):
        if fields is not None:
            result.fields = fields.apply(result.record, text_key)
        yield result


def ordered(result_groups: Iterable[List[DeidResult]]) -> Iterator[DeidResult]:
    """Flatten result groups back into input order (groups may interleave for unsorted input)."""
    pending: Dict[int, DeidResult] = {}
    next_index = 0
    for group in result_groups:
        for res in group:
            pending[res.index] = res
        while next_index in pending:
            yield pending.pop(next_index)
            next_index += 1
    for index in sorted(pending):
        yield pending.pop(index)


# -- parallel ------------------------------------------------------------------------------------
_WORKER: Dict[str, Any] = {}


class WorkerError(RuntimeError):
    """A worker could not load the pipeline; raised in the parent instead of hanging the pool."""


def _worker_init(load_nlp: Callable[[], Language], max_chars: int) -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it (and ends the workers), so
    # a worker never dies half-way with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # An exception escaping a pool initializer kills the worker, and the pool starts another one,
    # forever: keep the failure and report it on the first task instead.
    try:
        install_extensions()
        nlp = load_nlp()
        nlp.max_length = max(nlp.max_length, max_chars + 1)
        _WORKER["nlp"], _WORKER["stages"] = nlp, Stages(nlp)
    except BaseException as err:  # noqa: BLE001
        _WORKER["error"] = f"{type(err).__name__}: {err}"


def _worker_run(group: List[_Item]) -> List[DeidResult]:
    if "error" in _WORKER:
        raise WorkerError(f"a worker could not load the pipeline ({_WORKER['error']})")
    return process_group(_WORKER["nlp"], group, _WORKER["stages"])


def deidentify_parallel(load_nlp: Callable[[], Language], records: Iterable[InputItem], *,
                        n_process: int = 2, patient_key: str = "patient_id", id_key: str = "id",
                        text_key: str = "text", max_chars: int = DEFAULT_MAX_CHARS,
                        grouping: str = "contiguous", chunksize: int = 4,
                        max_in_flight: Optional[int] = None,
                        fields: Optional[OutputFields] = None) -> Iterator[DeidResult]:
    """Like `deidentify`, with `n_process` worker processes, each loading its own pipeline with the
    picklable `load_nlp`. Patients go to workers whole; results come back in input order, identical
    to a single process (surrogates are keyed, not stateful). `fields` chooses `result.fields` (the
    key lives in the workers' pipelines, so the caller passes it); None leaves them unset.

    Memory: at most `max_in_flight` groups (default 16 per worker) are read ahead of the writer,
    so a large input streams instead of being queued whole (Pool.imap alone would read it all).
    The input fields stay in this process; workers get the text and return only results.

    Shutdown: when the consumer stops (an exception, Ctrl-C, a closed generator) the feeding thread
    is told to stop and the workers are terminated; the feeder never blocks without a timeout, since
    `Pool.terminate()` joins it (a feeder stuck on the read-ahead limit used to hang the run)."""
    limit = max(max_in_flight or 16 * n_process, chunksize)  # >= chunksize, or imap would stall
    slots = threading.BoundedSemaphore(limit)
    stop = threading.Event()
    kept: Dict[int, Optional[Dict[str, Any]]] = {}

    def feed() -> Iterator[List[_Item]]:
        for group in prepare(records, id_key=id_key, text_key=text_key, patient_key=patient_key,
                             max_chars=max_chars, grouping=grouping):
            while not slots.acquire(timeout=0.05):
                if stop.is_set():
                    return
            if stop.is_set():
                return
            light = []
            for it in group:
                kept[it.index] = it.record
                light.append(_Item(it.index, it.id, it.patient_id, it.text, None, it.line, it.error))
            yield light

    def restored(result_groups: Iterable[List[DeidResult]]) -> Iterator[List[DeidResult]]:
        for group in result_groups:
            slots.release()
            for res in group:
                res.record = kept.pop(res.index, None)
                if fields is not None:
                    res.fields = fields.apply(res.record, text_key)
            yield group

    ctx = multiprocessing.get_context("spawn")  # no fork of a threaded parent (progress bars, BLAS)
    pool = ctx.Pool(n_process, initializer=_worker_init, initargs=(load_nlp, max_chars))
    try:
        yield from ordered(restored(pool.imap(_worker_run, feed(), chunksize=chunksize)))
        pool.close()
    finally:
        stop.set()
        pool.terminate()  # a no-op for workers already gone; ends busy ones at once
        pool.join()
