"""CoNLL/BIO: one token per line, `TOKEN<TAB>TAG<TAB>MISC`, blank line between sentences.

Tokens are the code-mixing tokenizer's (a Han character is a token), so the BIO tags are exactly what
spaCy's NER trains on. To give back the *exact* text and offsets, whitespace is kept the way UDPipe
keeps it in CoNLL-U's MISC column: `SpaceAfter=No`, or `SpacesAfter=` / `SpacesBefore=` with `\\s`
(space), `\\t`, `\\r`, `\\n`, `\\p` (pipe) and `\\\\` escaped; `_` means one space after. A DATE's
normalized value rides on its first token as `Norm=...`. Documents start with comment lines
`# id = ...`, `# patient_id = ...`, `# meta = {json}` (other keys of the record); `# spaces = ...`
holds the text of a document that has no tokens (empty or whitespace only).

Plain CoNLL (CoNLL-2003 style, tag in the last column, `-DOCSTART-` separators, no MISC) is read too:
tokens are then joined by one space, sentences by a newline. Tags may be BIO, IOB1, BIOES or BILOU;
an `I-` without a matching open entity starts one (IOB1 reading).
"""
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.language import Language

from ..labels import LABELS
from .atomic import atomic_open
from .docs import DEFAULT_MISALIGNED, AlignmentReport, _blank, record_to_doc
from .reading import ErrorList, check_record, handle
from .records import CorpusError, PhiSpan, Record

PathLike = Union[str, Path]
_COMMENT_KEYS = ("id", "patient_id", "meta", "spaces")
_ESCAPES = {"\\": "\\\\", " ": "\\s", "\t": "\\t", "\r": "\\r", "\n": "\\n", "|": "\\p"}
_UNESCAPES = {v[1]: k for k, v in _ESCAPES.items()}


def escape_spaces(value: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in value)


def unescape_spaces(value: str) -> str:
    out = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value) and value[i + 1] in _UNESCAPES:
            out.append(_UNESCAPES[value[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# -- writing ---------------------------------------------------------------------------------------
def conll_lines(record: Record, *, nlp: Optional[Language] = None, misaligned: str = DEFAULT_MISALIGNED,
                report: Optional[AlignmentReport] = None) -> List[str]:
    """The CoNLL lines of one record (no trailing blank line)."""
    nlp = nlp if nlp is not None else _blank()
    doc = record_to_doc(nlp, record, misaligned=misaligned, report=report)
    lines = [f"# id = {record.id}"]
    if "\n" in record.id or "\r" in record.id:
        raise CorpusError("record id contains a line break", record_id=record.id)
    if record.patient_id is not None:
        lines.append(f"# patient_id = {escape_spaces(record.patient_id)}")
    if record.meta:
        lines.append(f"# meta = {json.dumps(record.meta, ensure_ascii=False, sort_keys=True)}")
    text = record.text  # the Doc's text property is rebuilt on every access: read it once
    words = [t for t in doc if not t.is_space]
    if not words:
        lines.append(f"# spaces = {escape_spaces(text)}")
        return lines
    norms = {ent.start: ent._.date_norm for ent in doc.ents if ent._.date_norm}
    for i, tok in enumerate(words):
        nxt = words[i + 1].idx if i + 1 < len(words) else len(text)
        after = text[tok.idx + len(tok.text):nxt]
        misc = []
        if i == 0 and tok.idx > 0:
            misc.append(f"SpacesBefore={escape_spaces(text[:tok.idx])}")
        if after == "":
            misc.append("SpaceAfter=No")
        elif after != " " or i + 1 == len(words):  # after a document's last token, "_" means nothing
            misc.append(f"SpacesAfter={escape_spaces(after)}")
        if tok.i in norms:
            misc.append(f"Norm={escape_spaces(norms[tok.i])}")
        tag = "O" if tok.ent_iob_ in ("O", "") else f"{tok.ent_iob_}-{tok.ent_type_}"
        lines.append(f"{tok.text}\t{tag}\t{'|'.join(misc) or '_'}")
        if "\n" in after and i + 1 < len(words):
            lines.append("")
    return lines


def write_conll(records: Iterable[Record], path: PathLike, *, nlp: Optional[Language] = None,
                misaligned: str = DEFAULT_MISALIGNED, report: Optional[AlignmentReport] = None) -> int:
    """Write Records to one CoNLL file atomically; returns records written."""
    nlp = nlp if nlp is not None else _blank()
    count = 0
    with atomic_open(path) as fh:
        for record in records:
            if count:
                fh.write("\n")
            fh.write("\n".join(conll_lines(record, nlp=nlp, misaligned=misaligned, report=report)))
            fh.write("\n")
            count += 1
    return count


# -- reading ---------------------------------------------------------------------------------------
@dataclass
class _Doc:
    record_id: str
    line: int
    patient_id: Optional[str] = None
    meta: Dict[str, object] = field(default_factory=dict)
    spaces: Optional[str] = None
    # token, tag, misc dict, line number, sentence-final
    tokens: List[Tuple[str, str, Dict[str, str], int, bool]] = field(default_factory=list)
    error: Optional[CorpusError] = None


def _parse_misc(value: str) -> Dict[str, str]:
    if value == "_":
        return {}
    out = {}
    for item in value.split("|"):
        key, eq, val = item.partition("=")
        if eq:
            out[key] = val
    return out


def _build(doc: _Doc, source: str) -> Record:
    if doc.error is not None:
        raise doc.error
    parts: List[str] = []
    pos = 0
    spans: List[PhiSpan] = []
    open_span: Optional[List] = None  # [start, end, label, norm]

    def close() -> None:
        nonlocal open_span
        if open_span is not None:
            spans.append(PhiSpan(open_span[0], open_span[1], open_span[2], "", open_span[3]))
            open_span = None

    if not doc.tokens and doc.spaces is not None:
        parts.append(doc.spaces)
    for i, (tok, tag, misc, line, sent_end) in enumerate(doc.tokens):
        if i == 0 and "SpacesBefore" in misc:
            before = unescape_spaces(misc["SpacesBefore"])
            parts.append(before)
            pos += len(before)
        start, end = pos, pos + len(tok)
        prefix, _, label = tag.partition("-")
        if tag == "O":
            close()
        elif prefix in ("B", "S", "U") or open_span is None or open_span[2] != label:
            close()
            open_span = [start, end, label, misc.get("Norm")]
        elif prefix in ("I", "E", "L"):
            open_span[1] = end
        if prefix in ("S", "U", "E", "L"):
            close()
        parts.append(tok)
        if "SpaceAfter" in misc and misc["SpaceAfter"] == "No":
            after = ""
        elif "SpacesAfter" in misc:
            after = unescape_spaces(misc["SpacesAfter"])
        elif i + 1 == len(doc.tokens):
            after = ""
        else:
            after = "\n" if sent_end else " "
        parts.append(after)
        pos = end + len(after)
    close()
    text = "".join(parts)
    spans = [PhiSpan(s.start, s.end, s.label, text[s.start:s.end], unescape_spaces(s.norm) if s.norm else None)
             for s in spans]
    return Record(id=doc.record_id, text=text, spans=spans, patient_id=doc.patient_id, meta=doc.meta)


def _documents(path: PathLike, source: str) -> Iterator[_Doc]:
    doc: Optional[_Doc] = None
    unnamed = 0
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):

            def fail(msg: str) -> CorpusError:
                return CorpusError(msg, record_id=doc.record_id if doc else None, line=number, source=source)

            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as err:
                if doc is None:
                    unnamed += 1
                    doc = _Doc(f"doc-{unnamed}", number)
                doc.error = doc.error or fail(f"invalid UTF-8 at byte {err.start} of the line")
                continue
            if number == 1:
                line = line.lstrip("\ufeff")
            key, value = _comment(line)
            if key == "id" or line.split("\t")[0].split(" ")[0] == "-DOCSTART-":
                if doc is not None:
                    yield doc
                unnamed += 1
                doc = _Doc(value if key == "id" else f"doc-{unnamed}", number)
                continue
            if not line.strip():
                if doc is not None and doc.tokens:
                    tok = doc.tokens[-1]
                    doc.tokens[-1] = tok[:4] + (True,)
                continue
            if doc is None:
                unnamed += 1
                doc = _Doc(f"doc-{unnamed}", number)
            if doc.error is not None:
                continue
            if key is not None:
                if doc.tokens:
                    doc.error = fail(f"'# {key}' comment after the first token of a document")
                elif key == "patient_id":
                    doc.patient_id = unescape_spaces(value)
                elif key == "spaces":
                    doc.spaces = unescape_spaces(value)
                else:
                    try:
                        meta = json.loads(value)
                    except json.JSONDecodeError:
                        meta = None
                    if not isinstance(meta, dict):
                        doc.error = fail("'# meta' is not a JSON object")
                    else:
                        doc.meta = meta
                continue
            cols = line.split("\t") if "\t" in line else line.split()
            if len(cols) < 2:
                doc.error = fail("token line needs at least a token and a tag column")
                continue
            misc_col = None
            if len(cols) >= 3 and (cols[-1] == "_" or "=" in cols[-1]):
                misc_col = cols[-1]
                tag = cols[-2]
            else:
                tag = cols[-1]
            if tag != "O" and (len(tag) < 3 or tag[0] not in "BIESLU" or tag[1] != "-"):
                doc.error = fail("tag is not O or B-/I-/E-/S-/L-/U-<LABEL>")
                continue
            doc.tokens.append((cols[0], tag, _parse_misc(misc_col) if misc_col else {}, number, False))
    if doc is not None:
        yield doc


def _comment(line: str) -> Tuple[Optional[str], str]:
    if line.startswith("# ") and "\t" not in line:
        key, sep, value = line[2:].partition(" = ")
        if sep and key in _COMMENT_KEYS:
            return key, value
    return None, ""


def read_conll(path: PathLike, *, errors: ErrorList = None, label_map=None,
               known_labels: Optional[frozenset] = LABELS) -> Iterator[Record]:
    """Stream Records from a CoNLL file; a bad line costs its document only (in collecting mode)."""
    source = str(path)
    for doc in _documents(path, source):
        try:
            record = check_record(_build(doc, source), line=doc.line, source=source, label_map=label_map,
                                  known_labels=known_labels)
        except CorpusError as err:
            handle(err, errors)
            continue
        yield record
