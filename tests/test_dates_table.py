"""The acceptance table: dates in sentence context, exact boundaries and normalized value.

Every miss is printed (run with `-s` or see the failure message); the assertion is >= 99%.
"""
from pathlib import Path

import pytest

import spacy_deid
from spacy_deid.corpus import parse_inline
from spacy_deid.dates import render

TABLE = Path(__file__).parent / "data" / "dates" / "table.txt"


def _lines():
    for number, line in enumerate(TABLE.read_text(encoding="utf8").splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            yield number, line


@pytest.fixture(scope="module")
def results():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates")
    out = []
    for number, line in _lines():
        record = parse_inline(line, record_id=f"table:{number}")
        doc = nlp(record.text)
        gold = {(s.start, s.end): s.norm for s in record.spans if s.label == "DATE"}
        pred = {(e.start_char, e.end_char): e for e in doc.ents if e.label_ == "DATE"}
        out.append((number, record, gold, pred))
    return out


def test_table_size():
    gold = non_date_lines = 0
    for _, line in _lines():
        record = parse_inline(line)
        gold += len(record.spans)
        non_date_lines += not record.spans
    assert gold >= 150
    assert non_date_lines >= 30


def test_accuracy_at_least_99_percent(results):
    misses = []
    items = correct = 0
    for number, record, gold, pred in results:
        for (start, end), norm in gold.items():
            items += 1
            span = pred.get((start, end))
            if span is not None and span._.date_norm == norm:
                correct += 1
            else:
                got = f"{span._.date_norm}" if span is not None else "not found"
                misses.append(f"line {number}: {record.text[start:end]!r} expected {norm}, got {got}")
        for (start, end), span in pred.items():
            if (start, end) not in gold:
                items += 1
                misses.append(f"line {number}: false positive {record.text[start:end]!r} -> {span._.date_norm}")
    accuracy = correct / items
    print(f"\ndate table: {correct}/{items} exact = {accuracy:.4f}")
    for miss in misses:
        print("MISS", miss)
    assert accuracy >= 0.99, "\n".join(misses)


def test_at_least_40_distinct_formats(results):
    formats = set()
    for _, _, gold, pred in results:
        for key in gold:
            if key in pred:
                formats.update(r["format"] for r in pred[key]._.date_readings if r.get("selected"))
    assert len(formats) >= 40, sorted(formats)


def test_every_reading_renders_back_to_its_surface(results):
    """The format string is rich enough to reproduce the exact surface, for every reading."""
    for number, record, gold, pred in results:
        for span in pred.values():
            for reading in span._.date_readings:
                assert render(reading["value"], reading["format"]) == span.text, (number, reading["format"])
