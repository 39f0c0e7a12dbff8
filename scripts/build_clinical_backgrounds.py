"""Clean MTSamples transcriptions into background lines for the synthetic TRAIN split.

Why: the shipped NER has only seen generated notes, so real clinical vocabulary (shorthand, ward
words, drug names) looks like PHI to it. These lines are real, PHI-free clinical English; the
generator (`spacy_deid.synth.backgrounds`) mixes them into training notes and fills the frames left
here (`{DOCTOR_SUR_EN}`, `{PATIENT_SUR_EN}`, `{AGE_OTHER}`) with generated values and gold spans.

Input: copies of the Kaggle "Medical Transcriptions" CSV (columns ..., transcription, ...), e.g.
`git show COMMIT:mtsamples.csv` from the repositories named in assets/clinical_text/README.md.
Output: one line per background unit (assets/clinical_text/mtsamples_lines.txt), sorted, deduplicated.

Cleaning (each step says what it keeps out of the training data):
1. Sections: the CSV joined lines with commas (`HISTORY:,  text.,EXAM:`); split there and at
   sentence ends, keep units of 12-220 characters.
2. The source's own de-identification placeholders become frames: `Dr. X` -> `Dr. {DOCTOR_SUR_EN}`,
   `Mr./Mrs./Ms. X` -> `Mr. {PATIENT_SUR_EN}`; ages (`45-year-old`) -> `{AGE_OTHER}-year-old`.
3. Lines are dropped when they may hold unlabelled PHI: a date-like or identifier-like number (a
   slash number outside a blood pressure, a year, five or more digits, a time with a colon), a
   title with a name left over, a capitalised word found in the package's name and place lexicons,
   a named institution (capitalised Hospital, Clinic, University, Center, County ...), a place or
   nationality word (`St. X`, `Russian`), a residence or occupation cue, or a placeholder this script does not turn into a frame (XYZ, ABC, John Doe).
"""
import argparse
import csv
import json
import re
import sys
from pathlib import Path
from typing import Iterable, Iterator, List, Set

ROOT = Path(__file__).resolve().parents[1]
LEXICONS = ROOT / "spacy_deid" / "lexicons" / "data"
DEFAULT_OUT = ROOT / "assets" / "clinical_text" / "mtsamples_lines.txt"

_SECTION_RE = re.compile(r",(?=[A-Z][A-Z /&()-]{2,40}:)")
_SENTENCE_RE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")
_SPACES_RE = re.compile(r"\s+")
_LIST_END_RE = re.compile(r"(?<=\.)\s\d{1,2}\.$")  # the number of the next list item
_JOINED_RE = re.compile(r"\.,\s*")  # a line end the CSV turned into a comma
_DOCTOR_RE = re.compile(r"\bDr\. ?[A-Z]\b(?!\.)")
_MISTER_RE = re.compile(r"\b(Mr|Mrs|Ms|Miss)\. ?[A-Z]\b(?!\.)")
_AGE_RE = re.compile(r"\b\d{1,3}(?=[- ](?:year|month|week|day)s?[- ]old\b)")
# Any of these means the line may carry an identifier, a date or a name the source left in.
_DROP_RES = [
    re.compile(r"\d+/\d+(?!\s*mm)"),                   # dates (a blood pressure is kept below)
    re.compile(r"\b(?:19|20)\d\d\b"),                 # years
    re.compile(r"\d{5,}"),                             # record numbers, phone numbers
    re.compile(r"\d{1,2}:\d\d"),                       # times and clock-like numbers
    re.compile(r"\b\d{3}-\d{3,4}\b"),                  # phone fragments
    re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.? ?[A-Z][a-z]"),  # a title with a name left over
    re.compile(r"\b(?:XYZ|ABC|XXX|John Doe|Jane Doe)\b"),
    re.compile(r"\b(?:Hospital|Clinic|University|College|Center|Centre|County|Street|Avenue|Road|Institute|"
               r"School|Nursing Home|Rehab(?:ilitation)? Center|Medical Group|Associates)\b"),
    re.compile(r"\b(?:works? (?:as|at|for|in)|worked (?:as|at|for)|employed|occupation|retired from|"
               r"job as|profession)\b", re.IGNORECASE),
    re.compile(r"\b(?:lives?|lived|living|born|moved|resides?|travel(?:l?ed)?) (?:in|to|from)\b", re.IGNORECASE),
    re.compile(r"[@#]|www\.|http"),
    re.compile(r"\b(?:St|Ft|Fort|Mount|Mt|Lake|Saint|Port|San|Santa|New)\.? [A-Z]"),  # place names
    # nationalities and languages (`Russian`, `Vietnamese`, `Spanish`), not the eponyms of anatomy
    re.compile(r"\b(?!(?:Eustachian|Fallopian|Sylvian|Haversian|Parkinsonian|Hodgkin)\b)[A-Z][a-z]+(?:ian|ese|ish)\b"),
    # a lone letter left by the source's de-identification (`X and Dr. Y`), not `hepatitis B`, `type C`
    re.compile(r"(?<!hepatitis )(?<!type )(?<!grade )(?<!class )(?<!vitamin )(?<!stage )(?<!group )(?<!lead )"
               r"(?<![A-Za-z0-9-])[B-HJ-UW-Z](?![A-Za-z0-9'/.-])"),
]
_BP_RE = re.compile(r"(?:blood pressure|BP|B/P)[^.]{0,25}?\d{2,3}/\d{2,3}", re.IGNORECASE)
_CAP_WORD_RE = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+")


def name_words() -> Set[str]:
    """Capitalised names and places from the package's own lexicons (never from evaluation corpora)."""
    words: Set[str] = set()
    for name, fields in [("surnames_en", ["text"]), ("given_names_en", ["text"]), ("cities", ["en"]),
                         ("states", ["en"]), ("countries", ["en"]), ("regions", ["en"]),
                         ("nationalities", ["en"])]:
        path = LEXICONS / f"{name}.json"
        if not path.is_file():
            continue
        for entry in json.loads(path.read_text(encoding="utf8"))["entries"]:
            for field in fields:
                value = entry.get(field) or ""
                words.update(w for w in re.findall(r"[A-Z][a-z]+", value) if len(w) > 2)
    return words


def transcriptions(paths: Iterable[Path]) -> Iterator[str]:
    """The transcription column of each CSV (with or without a header row)."""
    csv.field_size_limit(10 ** 8)
    for path in paths:
        with open(path, encoding="utf8", errors="replace", newline="") as f:
            for row in csv.reader(f):
                if len(row) >= 6 and row[4] != "transcription":
                    yield row[4]


def units(text: str) -> Iterator[str]:
    """Section-headed sentences: `EXAM: Lungs clear.`, one or two sentences per unit."""
    for section in _SECTION_RE.split(text):
        section = _JOINED_RE.sub(". ", section.replace(":,", ": "))
        section = _SPACES_RE.sub(" ", section.replace(",", ", ").replace(" ,", ",")).strip(" ,")
        head, sep, body = section.partition(": ")
        if not sep or len(head) > 40 or head.upper() != head:
            head, body = "", section
        sentences = [s.strip(" ,") for s in _SENTENCE_RE.split(body) if s.strip(" ,")]
        i = 0
        while i < len(sentences):
            unit = sentences[i]
            if i + 1 < len(sentences) and len(unit) + len(sentences[i + 1]) < 140 and (i + hash_free(unit)) % 2:
                unit = f"{unit} {sentences[i + 1]}"
                i += 1
            i += 1
            if head and len(head) + len(unit) < 200 and hash_free(unit) % 3 == 0:
                unit = f"{head}: {unit}"
            yield unit


def hash_free(text: str) -> int:
    """A stable small number from the text (never the salted `hash()`), for reproducible grouping."""
    return sum(map(ord, text[:32])) % 7


def clean(unit: str, names: Set[str]) -> str:
    """The unit as a frame, or '' when it may hold PHI the source left in."""
    unit = _LIST_END_RE.sub("", unit.replace(",,", ",").replace(" ,", ",").replace(":,", ":")).strip()
    if unit.endswith("Dr."):
        return ""
    if not 12 <= len(unit) <= 220 or "{" in unit or "}" in unit:
        return ""
    probe = _BP_RE.sub("BP", unit)
    probe = _DOCTOR_RE.sub("Dr", _MISTER_RE.sub("Mr", probe))
    probe = _AGE_RE.sub("", probe)
    if any(r.search(probe) for r in _DROP_RES):
        return ""
    if any(w in names for w in _CAP_WORD_RE.findall(probe)):
        return ""
    unit = _DOCTOR_RE.sub("Dr. {DOCTOR_SUR_EN}", unit)
    unit = _MISTER_RE.sub(lambda m: f"{m.group(1)}. {{PATIENT_SUR_EN}}", unit)
    return _AGE_RE.sub("{AGE_OTHER}", unit)


def build(paths: List[Path], out: Path, max_lines: int) -> int:
    names = name_words()
    lines = sorted({c for t in transcriptions(paths) for u in units(t) for c in [clean(u, names)] if c})
    if len(lines) > max_lines:  # a spread-out, reproducible subset
        step = len(lines) / max_lines
        lines = [lines[int(i * step)] for i in range(max_lines)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf8")
    return len(lines)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", nargs="+", type=Path, help="MTSamples CSV copies")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--max-lines", type=int, default=20000)
    args = parser.parse_args(argv)
    n = build(args.csv, args.out, args.max_lines)
    print(f"Wrote {n} background lines to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
