"""Round trips through every corpus format, the fixtures of each format, and bad input per format."""
import json
from pathlib import Path

import pytest

from spacy_deid.corpus import (AlignmentReport, CorpusError, PhiSpan, Record, load_label_map, parse_inline,
                               read_brat, read_conll, read_corpus, read_docbin, read_i2b2, read_jsonl,
                               write_brat, write_conll, write_corpus, write_docbin, write_i2b2, write_jsonl)

DATA = Path(__file__).parent / "data"
DEV_NOTES = DATA / "dev_notes.jsonl"
FIXTURES = DATA / "corpus"
# format -> output name (a file, or a folder for the one-file-per-record formats)
FORMATS = {"jsonl": "out.jsonl", "brat": "brat", "i2b2": "i2b2", "conll": "out.conll", "spacy": "out.spacy"}


def _spans(record):
    return sorted((s.start, s.end, s.label, s.text, s.norm) for s in record.spans)


@pytest.fixture(scope="module")
def dev_records():
    records = list(read_jsonl(DEV_NOTES))
    assert records and all(r.spans for r in records)
    return records


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_dev_notes_round_trip(fmt, dev_records, tmp_path):
    out = tmp_path / FORMATS[fmt]
    report = AlignmentReport()
    assert write_corpus(dev_records, out, fmt, report=report) == len(dev_records)
    back = list(read_corpus(out, fmt))
    assert [r.id for r in back] == [r.id for r in dev_records]
    for before, after in zip(dev_records, back):
        assert after.text == before.text
        assert _spans(after) == _spans(before)
        for span in after.spans:
            assert after.text[span.start:span.end] == span.text
    assert report.misaligned == 0 and report.overlap_dropped == 0


@pytest.mark.parametrize("fmt", ["jsonl", "i2b2", "conll", "spacy"])
def test_patient_id_and_extra_keys_survive(fmt, dev_records, tmp_path):
    out = tmp_path / FORMATS[fmt]
    write_corpus(dev_records, out, fmt)
    back = list(read_corpus(out, fmt))
    assert [r.patient_id for r in back] == [r.patient_id for r in dev_records]
    if fmt != "i2b2":
        assert [r.meta for r in back] == [r.meta for r in dev_records]


def test_jsonl_lines_are_rewritten_with_the_same_keys(tmp_path):
    out = tmp_path / "copy.jsonl"
    write_jsonl(read_jsonl(DEV_NOTES), out)
    for a, b in zip(DEV_NOTES.read_text("utf-8").splitlines(), out.read_text("utf-8").splitlines()):
        assert json.loads(a) == json.loads(b)


# Texts that stress each format's escaping: CR/LF, XML's CDATA end, pipes, tabs, leading and
# trailing whitespace, full-width spaces, a span across a line break, an empty text.
HARD_TEXTS = [
    ("crlf", "病人«王小明|PATIENT»\r\n於«110.03.02|DATE=2021-03-02»入院\r\n"),
    ("cdata", "x ]]> y «Ann Lee|PERSON» <b>&amp;</b>"),
    ("pipes", "  lead | pipe\tand tab «A123456789|ID_NUMBER»  \n\n"),
    ("wide", "住址：«台北市|CITY»\u3000«信義路|STREET»«5|NUMBER»號"),
    ("newline-span", "Address: «12 Elm St\nSpringfield|STREET» done"),
    ("empty", ""),
    ("blank", " \n\t "),
]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_hard_texts_round_trip(fmt, tmp_path):
    records = [parse_inline(marked, record_id=rid, patient_id="P9") for rid, marked in HARD_TEXTS]
    write_corpus(records, tmp_path / FORMATS[fmt], fmt)
    back = {r.id: r for r in read_corpus(tmp_path / FORMATS[fmt], fmt)}
    for record in records:
        assert back[record.id].text == record.text, record.id
        assert _spans(back[record.id]) == _spans(record), record.id


def test_brat_fixture_joins_whitespace_gaps_and_splits_others():
    records = {r.id: r for r in read_brat(FIXTURES / "brat")}
    note = records["note-1"]
    labels = [(s.label, s.text) for s in note.spans]
    assert ("HOSPITAL", "Riverside\nGeneral Hospital") in labels  # fragments across a line break
    date = next(s for s in note.spans if s.label == "DATE")
    assert date.norm == "2024-03-05"
    assert [s.text for s in records["note-2"].spans] == ["陳大明", "陳小華"]


def test_brat_writes_fragments_at_line_breaks(tmp_path):
    record = parse_inline("at «Riverside\nGeneral Hospital|HOSPITAL».", record_id="r1")
    write_brat([record], tmp_path)
    ann = (tmp_path / "r1.ann").read_text("utf-8")
    assert ann == "T1\tHOSPITAL 3 12;13 29\tRiverside General Hospital\n"
    assert (tmp_path / "r1.txt").read_bytes() == record.text.encode("utf-8")


def test_i2b2_fixture_with_label_map():
    [record] = read_i2b2(FIXTURES / "i2b2", label_map=load_label_map("i2b2_2014"))
    assert record.id == "220-01" and record.patient_id == "220"
    got = {(s.text, s.label) for s in record.spans}
    assert ("Oliver Quade", "PATIENT") in got
    assert ("4417-2290", "MEDICAL_RECORD") in got
    assert ("45402", "LOCATION") in got  # ZIP: no postal label here


def test_i2b2_labels_are_refused_without_a_map():
    with pytest.raises(CorpusError, match=r"record '220-01'.*unknown label"):
        list(read_i2b2(FIXTURES / "i2b2"))
    [record] = read_i2b2(FIXTURES / "i2b2", known_labels=None)
    assert "MEDICALRECORD" in {s.label for s in record.spans}


def test_plain_conll_2003_with_bioes():
    records = list(read_conll(FIXTURES / "plain.conll"))
    assert [r.id for r in records] == ["doc-1", "doc-2"]
    first = records[0]
    assert first.text == "Dr. Huang saw the patient on 3/14 .\nHe lives in New Taipei City ."
    assert [(s.text, s.label) for s in first.spans] == [("Huang", "DOCTOR"), ("3/14", "DATE"),
                                                        ("New Taipei City", "CITY")]
    assert [(s.text, s.label) for s in records[1].spans] == [("台", "CITY")]


def test_conll_writes_one_token_per_line_with_bio(tmp_path):
    record = parse_inline("Dr. «Huang|DOCTOR» 住«台中|CITY»", record_id="c1", patient_id="P1")
    write_conll([record], tmp_path / "c.conll")
    lines = (tmp_path / "c.conll").read_text("utf-8").splitlines()
    assert lines[:2] == ["# id = c1", "# patient_id = P1"]
    assert lines[2:] == ["Dr.\tO\t_", "Huang\tB-DOCTOR\t_", "住\tO\tSpaceAfter=No", "台\tB-CITY\tSpaceAfter=No",
                         "中\tI-CITY\tSpaceAfter=No"]


def test_misaligned_spans_reported_when_writing_token_formats(tmp_path):
    # "Chang" inside the single token "Chang123" cannot be a token span.
    record = Record(id="m1", text="ID Chang123 ok", spans=[PhiSpan(3, 8, "PATIENT", "Chang")])
    report = AlignmentReport()
    write_docbin([record], tmp_path / "m.spacy", report=report)
    [back] = read_docbin(tmp_path / "m.spacy")
    assert (report.expanded, report.record_ids) == (1, {"expanded": ["m1"]})
    assert [(s.text, s.label) for s in back.spans] == [("Chang123", "PATIENT")]
    report = AlignmentReport()
    write_conll([record], tmp_path / "m.conll", misaligned="drop", report=report)
    assert report.dropped == 1
    assert list(read_conll(tmp_path / "m.conll"))[0].spans == []


def test_refuses_unsafe_file_names(tmp_path):
    record = Record(id="../escape", text="x")
    with pytest.raises(CorpusError, match="file name"):
        write_brat([record], tmp_path)
    assert not list(tmp_path.parent.glob("escape*"))


def test_failed_write_leaves_no_partial_file(tmp_path):
    good = Record(id="g", text="ok")
    bad = Record(id="b", text="a\x01b")  # XML 1.0 cannot hold \x01
    out = tmp_path / "x.jsonl"
    out.write_text("old\n", encoding="utf-8")

    def records():
        yield good
        raise CorpusError("boom", record_id="b")

    with pytest.raises(CorpusError):
        write_jsonl(records(), out)
    assert out.read_text("utf-8") == "old\n"
    with pytest.raises(CorpusError, match="control characters"):
        write_i2b2([bad], tmp_path / "xml")


# Property: any text (Han, Latin, digits, odd whitespace, XML and CoNLL metacharacters) with
# token-aligned, non-overlapping spans comes back unchanged from every format.
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import spacy_deid  # noqa: E402

_NLP = spacy_deid.blank()
_PIECES = ["林", "美", "華", "Lee", "Dr.", "110.03.02", "A123456789", "]]>", "|", "\\", "#", "&", "<", "'",
           " ", "  ", "\n", "\r\n", "\t", "\u3000", "。", "，", "(02)2312-3456", "x@y.tw"]


@st.composite
def _records(draw):
    text = "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=25)))
    words = [t for t in _NLP.make_doc(text) if not t.is_space]
    spans, i = [], 0
    while i < len(words):
        if draw(st.booleans()):
            j = min(len(words), i + draw(st.integers(1, 3)))
            start, end = words[i].idx, words[j - 1].idx + len(words[j - 1].text)
            spans.append(PhiSpan(start, end, draw(st.sampled_from(["PATIENT", "DATE", "CITY"])), text[start:end]))
            i = j + 1
        else:
            i += 1
    return Record(id="h", text=text, spans=spans, patient_id="P")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=_records())
def test_any_aligned_record_round_trips(record, tmp_path_factory):
    base = tmp_path_factory.mktemp("prop")
    for fmt, name in FORMATS.items():
        report = AlignmentReport()
        write_corpus([record], base / name, fmt, report=report)
        [back] = read_corpus(base / name, fmt)
        assert back.text == record.text, fmt
        assert _spans(back) == _spans(record), fmt
