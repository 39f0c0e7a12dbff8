"""`spacy-deid run`: formats, bad input, errors file, audit, atomic output, --n-process 1 vs 2."""
import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.surrogates.keys import DEMO_KEY, pseudonymize_field

from deid_notegen import make_notes

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_notes.jsonl"
DEV = Path(__file__).parent / "data" / "dev_notes.jsonl"


@pytest.fixture(autouse=True)
def no_key_in_env(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)


def run(*args):
    runner = CliRunner()
    return runner.invoke(app, ["run", *map(str, args)], catch_exceptions=False)


def read_jsonl(path):
    return [json.loads(l) for l in Path(path).read_text(encoding="utf8").splitlines() if l.strip()]


def pseudo(value, name="id"):
    """What `run --demo-key` writes for an input field by default: its keyed pseudonym."""
    return pseudonymize_field(DEMO_KEY, name, value)


def check_output(inputs, outputs, text_field="text"):
    for rec, out in zip(inputs, outputs):
        assert out["id"] == pseudo(rec["id"]) and out["id"] != rec["id"]
        for rep in out["replacements"]:
            assert out[text_field][rep["out_start"]:rep["out_end"]] == rep["surrogate"]
            original = rec[text_field][rep["start"]:rep["end"]]
            if rep["operator"] == "keep":  # the default policy keeps ages
                assert rep["label"] == "AGE" and rep["surrogate"] == original
            else:
                assert rep["surrogate"] != original


def test_readme_first_command(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(SAMPLE, out, "--demo-key", "--no-progress")
    assert result.exit_code == 0, result.output
    inputs, outputs = read_jsonl(SAMPLE), read_jsonl(out)
    assert len(outputs) == len(inputs) == 6
    check_output(inputs, outputs)
    for rec, out_rec in zip(inputs, outputs):
        for phi in ("K223456780", "0933-218-546", "meiling.lin63@example.net", "M120394853", "7730418"):
            assert phi not in out_rec["text"]
    assert "6 records, 6 de-identified, 0 failed" in result.output
    assert not list(tmp_path.glob(".*tmp"))  # the temporary file was renamed


def test_the_readme_sample_loses_its_names_and_hospitals(tmp_path):
    # the README's first command on the shipped default: the NER's labels, not only rules and dates
    out = tmp_path / "out.jsonl"
    assert run(SAMPLE, out, "--demo-key", "--no-progress").exit_code == 0
    inputs, outputs = read_jsonl(SAMPLE), read_jsonl(out)
    names = ("林美玲", "陳怡君", "黃志豪", "Huang Chih-Hao", "王淑芬", "張雅婷")
    hospitals = ("新竹馬偕", "阮綜合醫院")
    for phi in names + hospitals:
        assert any(phi in rec["text"] for rec in inputs)
        assert not any(phi in rec["text"] for rec in outputs), phi
    labels = {r["label"] for rec in outputs for r in rec["replacements"]}
    assert {"PATIENT", "FAMILY", "HOSPITAL"} <= labels


def test_missing_key_is_an_error_and_writes_nothing(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(SAMPLE, out, "--no-progress")
    assert result.exit_code == 2
    assert "SPACY_DEID_KEY" in result.output
    assert not out.exists() and not list(tmp_path.iterdir())


def test_key_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_DEID_KEY", "a-test-key-that-is-long-enough-1234")
    out_env, out_demo = tmp_path / "env.jsonl", tmp_path / "demo.jsonl"
    assert run(SAMPLE, out_env, "--no-progress").exit_code == 0
    monkeypatch.delenv("SPACY_DEID_KEY")
    assert run(SAMPLE, out_demo, "--demo-key", "--no-progress").exit_code == 0
    assert out_env.read_bytes() != out_demo.read_bytes()  # the key decides the surrogates


def test_bad_input_records_are_reported_and_others_written(tmp_path):
    good = read_jsonl(SAMPLE)
    big = {"id": "big", "patient_id": "Z", "text": ("Tel 0912-345-678. " * 300_000)[:5_000_000]}
    lines = [json.dumps(good[0], ensure_ascii=False).encode(),
             b'{"id": "broken", "text": "unterminated',
             b'{"id": "latin1", "patient_id": "S09", "text": "caf\xe9 0912-345-678"}',
             json.dumps({"id": "empty", "patient_id": "S08", "text": ""}).encode(),
             json.dumps({"id": "notext", "patient_id": "S08"}).encode(),
             json.dumps(big).encode(),
             json.dumps(good[1], ensure_ascii=False).encode()]
    src = tmp_path / "in.jsonl"
    src.write_bytes(b"\n".join(lines) + b"\n")
    out, errors = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    result = run(src, out, "--demo-key", "--errors", errors, "--no-progress")
    assert result.exit_code == 1
    written = read_jsonl(out)
    assert [r["id"] for r in written] == [pseudo(good[0]["id"]), pseudo("empty"), pseudo(good[1]["id"])]
    assert written[1]["text"] == ""
    errs = read_jsonl(errors)
    assert [(e["id"], e["line"]) for e in errs] == [(None, 2), (None, 3), ("notext", 5), ("big", 6)]
    assert "invalid JSON" in errs[0]["error"] and "UTF-8" in errs[1]["error"]
    assert "over the limit" in errs[3]["error"]
    assert "0912-345-678" not in errors.read_text(encoding="utf8") + result.output
    assert "4 failed" in result.output


def test_dates_the_calendar_lacks_are_warnings_naming_the_record(tmp_path):
    """`110.02.30` cannot be shifted: its record is written (other characters of its shape in place)
    with a warning naming the record and the offsets, in --errors or on stderr; nothing is lost."""
    records = [{"id": "n1", "patient_id": "P1", "text": "入院日期 110.02.30，出院日期 110.03.02。"},
               {"id": "n2", "patient_id": "P1", "text": "Admitted on 2021-02-29, discharged on 2021-03-04."},
               {"id": "n3", "patient_id": "P2", "text": "Seen on 2021/03/04 for follow-up."},
               {"id": "n4", "patient_id": "P2", "text": "民國110年2月30日門診，4/10 疼痛。"}]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    out, errors = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    result = run(src, out, "--demo-key", "--errors", errors, "--no-progress")
    assert result.exit_code == 0, result.output
    written = read_jsonl(out)
    check_output(records, written)
    warns = read_jsonl(errors)
    assert [(w["id"], w["line"]) for w in warns] == [("n1", 1), ("n2", 2), ("n4", 4)]
    assert [w["warning"].split(": ", 1)[1].split(" is ")[0] for w in warns] == [
        "the DATE at [5, 14)", "the DATE at [12, 22)", "the DATE at [0, 11)"]
    assert all("not a calendar date" in w["warning"] for w in warns)
    flagged = [[r["label"] for r in rec["replacements"] if r.get("warning")] for rec in written]
    assert flagged == [["DATE"], ["DATE"], [], ["DATE"]]
    for phi in ("110.02.30", "2021-02-29", "110年2月30日"):
        assert not any(phi in rec["text"] for rec in written)
        assert phi not in errors.read_text(encoding="utf8") + result.output
    assert "0 failed, 3 warning(s)" in result.output
    on_stderr = run(src, tmp_path / "out2.jsonl", "--demo-key", "--no-progress")
    assert on_stderr.exit_code == 0 and on_stderr.output.count("warning: record 'n") == 3


def test_big_note_under_a_raised_limit(tmp_path):
    src = tmp_path / "in.jsonl"
    text = "病歷號: 1234567 電話 0912-345-678\n" + "Stable. " * 250_000
    src.write_text(json.dumps({"id": "big", "patient_id": "Z", "text": text}) + "\n", encoding="utf8")
    out = tmp_path / "out.jsonl"
    result = run(src, out, "--demo-key", "--max-chars", 3_000_000, "--no-progress")
    assert result.exit_code == 0, result.output
    [rec] = read_jsonl(out)
    assert len(rec["text"]) > 2_000_000 and "0912-345-678" not in rec["text"]


def test_csv_in_and_out(tmp_path):
    src = tmp_path / "notes.csv"
    with src.open("w", encoding="utf8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["note_id", "mrn_owner", "body", "ward"])
        writer.writeheader()
        for rec in read_jsonl(SAMPLE):
            writer.writerow({"note_id": rec["id"], "mrn_owner": rec["patient_id"], "body": rec["text"], "ward": "x"})
    out = tmp_path / "out.csv"
    result = run(src, out, "--demo-key", "--text-field", "body", "--patient-field", "mrn_owner",
                 "--id-field", "note_id", "--no-progress")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf8"), newline="")))
    assert [r["note_id"] for r in rows] == [pseudo(r["id"], "note_id") for r in read_jsonl(SAMPLE)]
    assert [r["mrn_owner"] for r in rows] == [pseudo(r["patient_id"], "mrn_owner") for r in read_jsonl(SAMPLE)]
    assert list(rows[0]) == ["note_id", "mrn_owner", "body", "replacements"]  # `ward` was not chosen
    for row in rows:
        for rep in json.loads(row["replacements"]):
            assert row["body"][rep["out_start"]:rep["out_end"]] == rep["surrogate"]
    assert "K223456780" not in out.read_text(encoding="utf8")


def test_txt_folder_in_and_out(tmp_path):
    src = tmp_path / "notes"
    (src / "P1").mkdir(parents=True)
    (src / "P1" / "a.txt").write_text("電話 0912-345-678 on 2023/03/14", encoding="utf8")
    (src / "P1" / "b.txt").write_text("again 0912-345-678", encoding="utf8")
    (src / "bad.txt").write_bytes(b"\xff\xfe broken")
    out = tmp_path / "out"
    result = run(src, out, "--demo-key", "--no-progress")
    assert result.exit_code == 1  # bad.txt
    a = (out / "P1" / "a.txt").read_text(encoding="utf8")
    b = (out / "P1" / "b.txt").read_text(encoding="utf8")
    assert "0912-345-678" not in a + b and a.split()[1] == b.split()[1]  # same patient, same surrogate
    assert not (out / "bad.txt").exists()
    assert "'bad'" in result.output


def test_audit_file_holds_pairs_and_warns(tmp_path):
    out, audit = tmp_path / "out.jsonl", tmp_path / "audit.jsonl"
    result = run(SAMPLE, out, "--demo-key", "--audit", audit, "--no-progress")
    assert result.exit_code == 0
    assert "will hold PHI" in result.output
    pairs = read_jsonl(audit)
    assert {"original": "K223456780"}.items() <= next(p for p in pairs if p["original"] == "K223456780").items()
    # every original changed, except ages, which the default policy keeps
    assert all(p["original"] != p["surrogate"] or p["label"] == "AGE" for p in pairs)


def test_no_phi_on_stderr(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(SAMPLE, out, "--demo-key")  # with the progress bar
    for phi in ("林美玲", "K223456780", "0933-218-546", "7730418"):
        assert phi not in result.output


@pytest.mark.slow
def test_n_process_1_and_2_byte_identical(tmp_path):
    records, _ = make_notes(120, seed=3)
    records += read_jsonl(DEV) + read_jsonl(SAMPLE)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    out1, out2, again = tmp_path / "o1.jsonl", tmp_path / "o2.jsonl", tmp_path / "o1b.jsonl"
    assert run(src, out1, "--demo-key", "--no-progress", "--n-process", 1).exit_code == 0
    assert run(src, out2, "--demo-key", "--no-progress", "--n-process", 2).exit_code == 0
    assert run(src, again, "--demo-key", "--no-progress").exit_code == 0
    assert out1.read_bytes() == out2.read_bytes() == again.read_bytes()
    check_output(records, read_jsonl(out1))


def test_model_path_without_deid_gets_one(tmp_path):
    import spacy_deid

    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_rules", config={"patterns": ""}).add_patterns(
        [{"id": "kh", "label": "MEDICAL_RECORD", "pattern": r"KH\d{7}"}])
    nlp.to_disk(tmp_path / "pipe")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "1", "text": "KH1234567 0912-345-678"}) + "\n", encoding="utf8")
    out = tmp_path / "out.jsonl"
    result = run(src, out, "--model", tmp_path / "pipe", "--demo-key", "--no-progress")
    assert result.exit_code == 0, result.output
    [rec] = read_jsonl(out)
    # the saved rules (one custom pattern) run; deid adds dates and surrogates but no second rule set
    assert "KH1234567" not in rec["text"] and "0912-345-678" in rec["text"]


def test_bad_model_is_a_clear_error(tmp_path):
    result = run(SAMPLE, tmp_path / "out.jsonl", "--model", tmp_path / "missing", "--demo-key", "--no-progress")
    assert result.exit_code == 2 and "cannot load pipeline" in result.output


def test_unsorted_input_groups_whole_patients(tmp_path):
    recs = read_jsonl(SAMPLE)
    shuffled = [recs[0], recs[3], recs[1], recs[4], recs[2], recs[5]]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in shuffled), encoding="utf8")
    sorted_out, unsorted_out = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run(SAMPLE, sorted_out, "--demo-key", "--no-progress").exit_code == 0
    assert run(src, unsorted_out, "--demo-key", "--no-progress", "--unsorted").exit_code == 0
    by_id = {r["id"]: r for r in read_jsonl(sorted_out)}
    got = read_jsonl(unsorted_out)
    assert [r["id"] for r in got] == [pseudo(r["id"]) for r in shuffled]  # input order kept
    assert all(r == by_id[r["id"]] for r in got)  # same result as the sorted input


def test_csv_row_with_bad_bytes_is_reported(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes("id,patient_id,text\n1,P,電話 0912-345-678\n".encode() + b"2,P,caf\xe9\n"
                    + "3,P,MRN 1234567\n".encode())
    out, errors = tmp_path / "out.csv", tmp_path / "errors.jsonl"
    result = run(src, out, "--demo-key", "--errors", errors, "--no-progress")
    assert result.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf8"), newline="")))
    assert [r["id"] for r in rows] == [pseudo("1"), pseudo("3")]
    assert [(e["line"], "UTF-8" in e["error"]) for e in read_jsonl(errors)] == [(3, True)]


def test_recall_bias_reaches_the_ner_and_keeps_the_deid_settings(tmp_path, shipped_recall_bias):
    from spacy_deid.cli.run_cmd import load_pipeline

    nlp = load_pipeline(None, {"demo_key": True, "policy": "hipaa-safe-harbor"}, 1000, -1, 1.5)
    assert nlp.get_pipe("ner").recall_bias == 1.5
    assert nlp.config["components"]["deid"]["policy"] == "hipaa-safe-harbor"
    assert load_pipeline(None, {"demo_key": True}, 1000).get_pipe("ner").recall_bias == shipped_recall_bias
    out = tmp_path / "out.jsonl"
    result = run(SAMPLE, out, "--demo-key", "--no-progress", "--recall-bias", "1.5")
    assert result.exit_code == 0, result.output
    check_output(read_jsonl(SAMPLE), read_jsonl(out))


def test_recall_bias_for_a_pipeline_without_its_ner_is_a_clear_error(tmp_path):
    import spacy_deid

    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    nlp.to_disk(tmp_path / "pipe")
    result = run(SAMPLE, tmp_path / "out.jsonl", "--model", tmp_path / "pipe", "--demo-key", "--no-progress",
                 "--recall-bias", "1")
    assert result.exit_code == 2 and "deid_ner" in result.output
    assert not (tmp_path / "out.jsonl").exists()
    predicted = CliRunner().invoke(app, ["predict", "rules", str(SAMPLE), str(tmp_path / "p.jsonl"),
                                         "--recall-bias", "1"])
    assert predicted.exit_code == 2 and "deid_ner" in predicted.output


def test_the_config_of_a_packaged_pipeline_is_found_one_folder_down(tmp_path, shipped_recall_bias):
    import spacy_deid
    from spacy_deid.loading import default_pipeline_path, recall_bias_overrides, saved_config

    nlp = spacy_deid.load(exclude=["deid"])
    (tmp_path / "xx_deid").mkdir()
    nlp.to_disk(tmp_path / "xx_deid" / "xx_deid-0.1.0")  # the layout `spacy package` installs
    config = saved_config(tmp_path / "xx_deid")
    assert config["components"]["ner"]["factory"] == "deid_ner"
    # the dial reaches every NER: the default's own and its voter (spacy_deid.ner_vote)
    assert recall_bias_overrides(config, 2) == {"components": {"ner": {"recall_bias": 2.0},
                                                               "ner_2": {"recall_bias": 2.0}}}
    shipped = saved_config(default_pipeline_path())["components"]
    assert shipped["ner"]["recall_bias"] == shipped["ner_2"]["recall_bias"] == shipped_recall_bias
    assert saved_config(tmp_path / "missing") is None
