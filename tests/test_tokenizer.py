"""The code-mixing tokenizer: PHI boundaries are token boundaries, offsets are exact."""
import pickle
from pathlib import Path

import pytest
import spacy

import spacy_deid
from spacy_deid.corpus import parse_inline
from spacy_deid.labels import LABELS
from spacy_deid.tokenizer import CodeMixedTokenizer

from linear import assert_linear

TABLE = Path(__file__).parent / "data" / "tokenizer_alignment.txt"


def _table_records():
    lines = [l for l in TABLE.read_text(encoding="utf8").splitlines() if l.strip() and not l.startswith("#")]
    return [parse_inline(line, record_id=f"line-{i}") for i, line in enumerate(lines, 1)]


def test_table_is_large_and_covers_every_label():
    records = _table_records()
    assert len(records) >= 80
    labels = {span.label for r in records for span in r.spans}
    assert labels == set(LABELS), sorted(set(LABELS) - labels)


def test_every_gold_span_is_token_aligned(nlp_blank):
    misses = []
    total = 0
    for record in _table_records():
        doc = nlp_blank.make_doc(record.text)
        for span in record.spans:
            total += 1
            if doc.char_span(span.start, span.end) is None:
                misses.append((record.id, span.text, [t.text for t in doc]))
    assert not misses, "\n".join(map(str, misses))
    assert total >= 200


def test_dev_notes_are_token_aligned(nlp_blank, dev_records):
    for record in dev_records:
        doc = nlp_blank.make_doc(record.text)
        for span in record.spans:
            assert doc.char_span(span.start, span.end) is not None, (record.id, span.label)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("住院日期:110.12.25", ["住", "院", "日", "期", ":", "110.12.25"]),
        ("38歲", ["38", "歲"]),
        ("分機2234", ["分", "機", "2234"]),
        ("8A-15床", ["8A", "-", "15", "床"]),
        ("(ydh/ptz)", ["(", "ydh", "/", "ptz", ")"]),
        ("2223.3-2224.9", ["2223.3", "-", "2224.9"]),
        ("mk136從婆家", ["mk136", "從", "婆", "家"]),
        ("(02)2312-3456", ["(", "02", ")", "2312-3456"]),
        ("32y/o", ["32", "y/o"]),
        ("25-year-old", ["25", "-", "year-old"]),
        ("Dr. Chang", ["Dr.", "Chang"]),
        ("Dr.Chang", ["Dr.", "Chang"]),
        ("說DR.LEE昨天", ["說", "DR.", "LEE", "昨", "天"]),
        ("s/p fall", ["s/p", "fall"]),
        ("b.i.d.", ["b.i.d."]),
        ("32001CXM", ["32001CXM"]),
        ("E120458374.", ["E120458374", "."]),
        ("x@y.tw,", ["x@y.tw", ","]),
        ("https://a.org/b?c=1.", ["https://a.org/b?c=1", "."]),
        ("張家明's", ["張", "家", "明", "'s"]),
        ("（02）", ["（", "02", "）"]),
        ("「台大」、", ["「", "台", "大", "」", "、"]),
        ("民國一一〇年", ["民", "國", "一", "一", "〇", "年"]),
        ("BP 120/80", ["BP", "120/80"]),
        ("14:30,", ["14:30", ","]),
        ("No.27", ["No.", "27"]),
        ("#502", ["#", "502"]),
        ("7-11", ["7-11"]),
        ("Hsiao-Ming", ["Hsiao-Ming"]),
        ("1101225-1110103", ["1101225", "-", "1110103"]),
        ("110.1.5~110.2.3", ["110.1.5", "~", "110.2.3"]),
        ("在85度C.", ["在", "85", "度", "C", "."]),
        ("Sarah L.", ["Sarah", "L."]),
        ("穆德/男/34歲/14A-13床", ["穆", "德", "/", "男", "/", "34", "歲", "/", "14A", "-", "13", "床"]),
        ("・1101225 ECT", ["・", "1101225", "ECT"]),
        ("KSPH→ours 2223.1.2", ["KSPH", "→", "ours", "2223.1.2"]),
        ("110/1/5→110/2/3", ["110/1/5", "→", "110/2/3"]),
        # a missing space after a sentence's period; a host name, an initialism, a title stay whole
        ("seen by dr lin.agreed with", ["seen", "by", "dr", "lin", ".", "agreed", "with"]),
        ("Pt.ok.Plan", ["Pt", ".", "ok", ".", "Plan"]),
        ("ntuh.gov.tw", ["ntuh.gov.tw"]), ("mail.example.com", ["mail.example.com"]),
        ("Ph.D", ["Ph.D"]), ("U.S.A", ["U.S.A"]), ("Dr.Lin.ok", ["Dr.", "Lin", ".", "ok"]),
        # a date joined to a word by a hyphen is a token of its own; a word's number stays with it
        ("TOXICITY-3/4/91.", ["TOXICITY", "-", "3/4/91", "."]), ("UO-9/10", ["UO", "-", "9/10"]),
        ("3/4-Lasix", ["3/4", "-", "Lasix"]), ("COVID-19", ["COVID-19"]), ("IL-6", ["IL-6"]),
    ],
)
def test_boundaries(nlp_blank, text, expected):
    assert [t.text for t in nlp_blank.make_doc(text)] == expected


@pytest.mark.parametrize(
    "text",
    ["", " ", "  leading", "trailing  ", "a\n\nb", "tab\there", "x \n y", "中文 \u3000 全形", "\r\n", "a  b   c"],
)
def test_whitespace_round_trips(nlp_blank, text):
    doc = nlp_blank.make_doc(text)
    assert "".join(t.text_with_ws for t in doc) == text
    assert doc.text == text


def test_offsets_round_trip_on_every_table_line(nlp_blank):
    for record in _table_records():
        doc = nlp_blank.make_doc(record.text)
        assert doc.text == record.text
        for token in doc:
            assert record.text[token.idx : token.idx + len(token.text)] == token.text


@pytest.mark.parametrize(
    "make,size",
    [
        (lambda n: "A" * n, 100_000),
        (lambda n: "1" * n, 100_000),
        (lambda n: "ABC/" * n, 25_000),
        (lambda n: "a.b." * n, 25_000),
        (lambda n: "ab." * n + "ab", 25_000),
        (lambda n: "x@" * n, 50_000),
        (lambda n: "-1" * n, 50_000),
        (lambda n: "A" * n + "-1/2", 100_000),
        (lambda n: "1/2-" + "A" * n, 100_000),
        (lambda n: "(" * n + ")" * n, 50_000),
        (lambda n: "中" * n, 100_000),
        (lambda n: "http://" + "a/" * n, 50_000),
    ],
)
def test_adversarial_inputs_are_linear(make, size):
    tokenizer = CodeMixedTokenizer(spacy.blank("xx").vocab)
    assert_linear(lambda n: tokenizer(make(n)), size)
    text = make(size)
    assert tokenizer(text).text == text


def test_serialization_round_trips(tmp_path):
    nlp = spacy_deid.blank()
    nlp.tokenizer.abbreviations = ("Dr.",)
    nlp2 = spacy_deid.blank().from_bytes(nlp.to_bytes())
    assert nlp2.tokenizer.abbreviations == ("Dr.",)
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert isinstance(loaded.tokenizer, CodeMixedTokenizer)
    text = "Dr.Chang 於110.12.25 看診"
    assert [t.text for t in loaded(text)] == [t.text for t in spacy_deid.blank()(text)]
    assert isinstance(pickle.loads(pickle.dumps(nlp.tokenizer)), CodeMixedTokenizer)


def test_config_names_the_registered_tokenizer():
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.CodeMixedTokenizer.v1"}}})
    assert isinstance(nlp.tokenizer, CodeMixedTokenizer)
    assert spacy_deid.blank("en").lang == "en"


def test_pipe_with_two_processes_matches_one(nlp_blank):
    texts = [r.text for r in _table_records()]
    one = [[t.text for t in d] for d in nlp_blank.pipe(texts)]
    two = [[t.text for t in d] for d in nlp_blank.pipe(texts, n_process=2, batch_size=8)]
    assert one == two
