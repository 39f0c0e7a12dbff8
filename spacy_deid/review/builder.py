"""Build the review page: read `spacy-deid run` output (and optionally the original notes), pair them,
and write one self-contained HTML file.

The notes are embedded once, as gzip-compressed base64 JSON in a `<script type="application/gzip">` element, and the page's
script renders a note only when it is shown, so 10,000 notes open quickly. The original text is never
embedded whole: `pairing.consistent` proves the text between replacements is the same on both sides,
so the page rebuilds the original from the de-identified text and each replacement's original string
(about half the size). Offsets are embedded as UTF-16 indices (what JavaScript strings use); the page
converts them back to code points when it exports corrections (`text[start:end] == span.text` in Python).
"""
import base64
import gzip
import json
import random
import re
from html import escape
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from ..cli.run_io import LineRecord, detect_format, read_csv, read_jsonl, read_txt_dir
from ..corpus import CorpusError
from ..labels import CATEGORY_OF
from .colors import label_colors
from .pairing import Replacement, pair

SOURCES = ("ner", "rule", "date", "knowledge", "principle")
_OFFSETS = ("start", "end", "out_start", "out_end")
_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")  # one character class: linear time


@dataclass
class OutputNote:
    """One checked output record: id, patient, de-identified text, replacements sorted by position."""

    id: str
    patient_id: Optional[str]
    text: str
    replacements: List[Replacement]


@dataclass
class ReviewData:
    notes: List[OutputNote]
    originals: Optional[List[Optional[str]]]
    errors: List[str] = field(default_factory=list)
    pairing: Dict[str, int] = field(default_factory=dict)


def _check_replacement(rep: Any, deid: str) -> Replacement:
    if not isinstance(rep, dict):
        raise ValueError("a replacement is not an object")
    for name in _OFFSETS:
        value = rep.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"a replacement's {name!r} is not a non-negative integer")
    if not (rep["start"] <= rep["end"] and rep["out_start"] <= rep["out_end"] <= len(deid)):
        raise ValueError(f"a replacement's offsets [{rep['out_start']}, {rep['out_end']}) fall outside the "
                         f"de-identified text (length {len(deid)})")
    if not isinstance(rep.get("label"), str):
        raise ValueError("a replacement has no 'label' string")
    return rep


def check_output(record: LineRecord, *, text_field: str, id_field: str, patient_field: str,
                 replacements_field: str) -> OutputNote:
    """One output record as an OutputNote; ValueError (no note text in it) when it is not one."""
    deid = record.get(text_field)
    if not isinstance(deid, str):
        raise ValueError(f"no {text_field!r} string")
    reps = record.get(replacements_field)
    if not isinstance(reps, list):
        raise ValueError(f"no {replacements_field!r} list (run `spacy-deid run` with its default "
                         "--replacements-field)")
    reps = sorted((_check_replacement(r, deid) for r in reps), key=lambda r: (r["out_start"], r["out_end"]))
    for a, b in zip(reps, reps[1:]):
        if b["out_start"] < a["out_end"] or b["start"] < a["end"]:
            raise ValueError("two replacements overlap")
    rid = record.get(id_field)
    patient = record.get(patient_field)
    return OutputNote(str(rid) if rid is not None else f"line-{record.line}",
                      None if patient is None else str(patient), deid, reps)


def read_outputs(path: Path, **fields: str) -> Tuple[List[OutputNote], List[str]]:
    """The good records of a run output and one message per bad one (line and reason, never text)."""
    notes, errors = [], []
    for item in read_jsonl(path):
        if isinstance(item, CorpusError):
            errors.append(str(item))  # names the file and line, never the text
            continue
        try:
            notes.append(check_output(item, **fields))
        except ValueError as err:
            errors.append(f"{path.name}, line {item.line}: {err}; record skipped")
    return notes, errors


def read_originals(path: Path, *, text_field: str, id_field: str, patient_field: str
                   ) -> Tuple[List[Tuple[Optional[str], str]], int]:
    """(id, text) of every readable original with a text string, and how many were not."""
    fmt = detect_format(path)
    if fmt == "jsonl":
        items: Iterator = read_jsonl(path)
    elif fmt == "csv":
        items = read_csv(path)
    else:
        items = read_txt_dir(path, id_field=id_field, text_field=text_field, patient_field=patient_field)
    good, bad = [], 0
    for item in items:
        if isinstance(item, CorpusError) or not isinstance(item.get(text_field), str):
            bad += 1
            continue
        rid = item.get(id_field)
        good.append((None if rid is None else (rid if isinstance(rid, str) else json.dumps(rid)), item[text_field]))
    return good, bad


def sample(n_total: int, size: Optional[int], seed: int) -> List[int]:
    """Indices of a uniform sample of `size` records (all when None), in input order; seeded."""
    if size is None or size >= n_total:
        return list(range(n_total))
    return sorted(random.Random(seed).sample(range(n_total), size))


def load(output_path: Path, original_path: Optional[Path] = None, *, sample_size: Optional[int] = None,
         seed: int = 0, pseudonym: Optional[Callable[[str], str]] = None, text_field: str = "text",
         id_field: str = "id", patient_field: str = "patient_id",
         replacements_field: str = "replacements") -> ReviewData:
    """Read, pair (on all records, so positions hold), then sample."""
    notes, errors = read_outputs(output_path, text_field=text_field, id_field=id_field,
                                 patient_field=patient_field, replacements_field=replacements_field)
    originals: Optional[List[Optional[str]]] = None
    how: Dict[str, int] = {}
    if original_path is not None:
        source, bad = read_originals(original_path, text_field=text_field, id_field=id_field,
                                     patient_field=patient_field)
        if bad:
            errors.append(f"{original_path.name}: {bad} original record(s) unreadable or without "
                          f"{text_field!r}; outputs made from them stay unpaired")
        raw_ids = [n.id for n in notes]
        pairing = pair([(i, n.text, n.replacements) for i, n in zip(raw_ids, notes)], source, pseudonym)
        originals, how = pairing.originals, pairing.how
    keep = sample(len(notes), sample_size, seed)
    return ReviewData([notes[i] for i in keep], None if originals is None else [originals[i] for i in keep],
                      errors, how)


def _utf16_index(text: str) -> Callable[[int], int]:
    """Code point offset -> UTF-16 offset (identity unless the text has astral characters)."""
    if not _ASTRAL.search(text):
        return lambda i: i
    prefix = [0]
    for c in text:
        prefix.append(prefix[-1] + (2 if ord(c) >= 0x10000 else 1))
    return prefix.__getitem__


def payload(data: ReviewData) -> Dict[str, Any]:
    """The page's data: labels, sources, colours and one compact row per note:
    [id, patient, deid text, [[out_start, out_end, label#, source#, operator#], ...],
    [original string per replacement] or null]. Offsets are UTF-16. The original offsets are not
    embedded: the page rebuilds them with the original text (same gaps, so each start is the output
    start shifted by the length differences of the spans before it)."""
    labels = sorted(CATEGORY_OF, key=lambda l: (sorted(set(CATEGORY_OF.values())).index(CATEGORY_OF[l]), l))
    sources, operators = list(SOURCES), []
    label_ix = {l: i for i, l in enumerate(labels)}
    source_ix = {s: i for i, s in enumerate(sources)}
    operator_ix: Dict[str, int] = {}

    def index(table: Dict[str, int], names: List[str], value: str) -> int:
        if value not in table:
            table[value] = len(names)
            names.append(value)
        return table[value]

    rows = []
    for k, note in enumerate(data.notes):
        original = data.originals[k] if data.originals is not None else None
        out16 = _utf16_index(note.text)
        reps, strings = [], []
        for rep in note.replacements:
            reps.append([out16(rep["out_start"]), out16(rep["out_end"]),
                         index(label_ix, labels, rep["label"]),
                         index(source_ix, sources, str(rep.get("source") or "unknown")),
                         index(operator_ix, operators, str(rep.get("operator") or ""))])
            if original is not None:
                strings.append(original[rep["start"]:rep["end"]])
        rows.append([note.id, note.patient_id, note.text, reps, strings if original is not None else None])
    return {"labels": labels, "categories": [CATEGORY_OF.get(l, "") for l in labels],
            "colors": label_colors(labels), "sources": sources, "operators": operators,
            "hasOriginal": data.originals is not None, "notes": rows}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _script_data(value: Any) -> str:
    """The payload as gzip (fixed mtime, so deterministic) in base64: about a quarter of the JSON's
    size, and base64 has no `<`, so it is safe inside <script>. The page inflates it with the
    browser's built-in DecompressionStream (works offline from file://)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    packed = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
    return base64.b64encode(packed).decode("ascii")



def render(data: ReviewData, title: str = "spacy-deid review") -> str:
    """The whole page as one string: template + inline CSS + inline JS + data. Deterministic."""
    page = _asset("review.html")
    phi = data.originals is not None
    banner = ("CONTAINS PHI: this page embeds the original notes. Store, share and delete it like the "
              "source notes." if phi else
              "De-identified text only: no original text is embedded in this page (corrections you "
              "add may still mark PHI the tool missed).")
    parts = {
        "{{TITLE}}": escape(title),
        "{{BANNER_CLASS}}": "phi" if phi else "nophi",
        "{{BANNER}}": escape(banner),
        "{{CSS}}": _asset("review.css"),
        "{{JS}}": _asset("review.js"),
        "{{DATA}}": _script_data(payload(data)),
    }
    for marker in ("{{TITLE}}", "{{BANNER_CLASS}}", "{{BANNER}}", "{{CSS}}", "{{JS}}"):
        page = page.replace(marker, parts[marker])
    head, tail = page.split("{{DATA}}")  # last: the data may contain any text
    return head + parts["{{DATA}}"] + tail
