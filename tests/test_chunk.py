"""Chunking notes for transformer training keeps every span whole and every offset exact."""
from spacy_deid.cli.chunk_cmd import chunk_record
from spacy_deid.corpus import parse_inline


def test_chunks_keep_spans_and_text(dev_records):
    for record in dev_records:
        pieces = list(chunk_record(record, max_chars=40))
        assert len(pieces) > 1
        assert "".join(p.text for p in pieces).strip() == record.text.strip()
        assert sum(len(p.spans) for p in pieces) == len(record.spans)
        for piece in pieces:
            piece.validate()


def test_span_across_a_line_end_is_not_cut():
    record = parse_inline("住址: «台北市\n大安區|CITY» 路\nnext line here\n")
    pieces = list(chunk_record(record, max_chars=5))
    assert any(s.text == "台北市\n大安區" for p in pieces for s in p.spans)
