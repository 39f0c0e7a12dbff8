"""`spacy-deid convert` and `spacy-deid evaluate` end to end on small files."""
import json
from pathlib import Path

from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.corpus import read_jsonl

DEV_NOTES = Path(__file__).parent / "data" / "dev_notes.jsonl"
runner = CliRunner()


def test_convert_chain_and_evaluate(tmp_path):
    steps = [(DEV_NOTES, tmp_path / "a.spacy", "jsonl", "spacy"), (tmp_path / "a.spacy", tmp_path / "brat", "spacy", "brat"),
             (tmp_path / "brat", tmp_path / "b.conll", "brat", "conll"), (tmp_path / "b.conll", tmp_path / "x", "conll", "i2b2"),
             (tmp_path / "x", tmp_path / "back.jsonl", "i2b2", "jsonl")]
    for src, dst, f, t in steps:
        result = runner.invoke(app, ["convert", str(src), str(dst), "--from", f, "--to", t])
        assert result.exit_code == 0, result.output
    back = list(read_jsonl(tmp_path / "back.jsonl"))
    gold = list(read_jsonl(DEV_NOTES))
    assert [(r.text, r.spans) for r in back] == [(r.text, r.spans) for r in gold]
    result = runner.invoke(app, ["evaluate", str(DEV_NOTES), str(tmp_path / "back.jsonl"),
                                 "--output", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert "strict (micro)" in result.output
    metrics = json.loads((tmp_path / "m.json").read_text("utf-8"))
    assert metrics["ents_f"] == 1.0 and metrics["deid_token_f"] == 1.0


def _write(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def test_evaluate_with_label_map_and_bad_lines(tmp_path):
    text = "DR SMITH saw pt on 3/4, paid 500"
    gold = [{"id": "a", "text": text, "spans": [
        {"start": 3, "end": 8, "label": "HCPName", "text": "SMITH"},
        {"start": 19, "end": 22, "label": "Date", "text": "3/4"},
        {"start": 29, "end": 32, "label": "Other", "text": "500"}]},
        {"id": "b", "text": "x", "spans": [{"start": 0, "end": 1, "label": "Nope", "text": "x"}]}]
    pred = [{"id": "a", "text": text, "spans": [{"start": 3, "end": 8, "label": "DOCTOR", "text": "SMITH"}]},
            {"id": "b", "text": "x", "spans": []}]
    _write(tmp_path / "g.jsonl", gold)
    _write(tmp_path / "p.jsonl", pred)
    strict = runner.invoke(app, ["evaluate", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"),
                                 "--label-map", "physionet_deid"])
    assert strict.exit_code == 1 and "record 'b'" in strict.output and "Nope" in strict.output
    out = tmp_path / "m.json"
    result = runner.invoke(app, ["evaluate", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"),
                                 "--label-map", "physionet_deid", "--skip-bad", "--output", str(out)])
    assert result.exit_code == 0, result.output
    metrics = json.loads(out.read_text("utf-8"))
    assert (metrics["ents_p"], metrics["ents_r"]) == (1.0, 0.5)  # "Other" is ignored (null), not a miss
    assert metrics["deid_label_map"]["ignored"] == {"Other": 1} and metrics["deid_errors"] == 1


def test_convert_reports_skipped_records(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(DEV_NOTES.read_bytes() + b"{broken\n")
    result = runner.invoke(app, ["convert", str(src), str(tmp_path / "o.jsonl"), "--skip-bad"])
    assert result.exit_code == 0 and "1 record(s) skipped" in result.output and "line 4" in result.output
    assert len(list(read_jsonl(tmp_path / "o.jsonl"))) == 3
    result = runner.invoke(app, ["convert", str(src), str(tmp_path / "o2.jsonl")])
    assert result.exit_code == 1 and not (tmp_path / "o2.jsonl").exists()


def test_predict_writes_the_spans_it_finds(tmp_path):
    """`predict` on the rules alone finds every date of the dev notes, in the input's order."""
    out = tmp_path / "pred.jsonl"
    result = runner.invoke(app, ["predict", "rules", str(DEV_NOTES), str(out)])
    assert result.exit_code == 0, result.output
    predicted = list(read_jsonl(out))
    gold = list(read_jsonl(DEV_NOTES))
    assert [r.id for r in predicted] == [r.id for r in gold]
    gold_dates = {(r.id, s.start, s.end) for r in gold for s in r.spans if s.label == "DATE"}
    found_dates = {(r.id, s.start, s.end) for r in predicted for s in r.spans if s.label == "DATE"}
    assert gold_dates and gold_dates <= found_dates
