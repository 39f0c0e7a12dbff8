"""`spacy-deid spark` and `spacy_deid.spark` on a real local Spark session (local[2]).

The claim under test: the output is `spacy-deid run`'s, byte for byte, whatever the partitioning;
a patient's notes meet wherever they sit; bad records become error rows; the key stays out of the
plan. One Spark session serves every test; `run` shares one loaded pipeline (see `shared_pipeline`)
so the suite loads the default pipeline once here and once per Spark worker.
"""
import csv
import functools
import io
import json
import os
import re
import sys
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid import deidentify
from spacy_deid.cli import app, run_cmd
from spacy_deid.spark import deidentify_dataframe
from spacy_deid.synth import generate

from deid_notegen import make_notes

KEY = "spark-test-key: 7c1e9a4b2d"  # a test key of our own, never a real one
DATE_FORMS = [(re.compile(r"^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$"), 0),
              (re.compile(r"^(\d{2,3})\.(\d{1,2})\.(\d{1,2})$"), 1911),
              (re.compile(r"^民國(\d{2,3})年(\d{1,2})月(\d{1,2})日$"), 1911)]
LOADER = functools.partial(run_cmd.load_pipeline, None, {}, 1_000_000, -1, None)  # what the CLI sends


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (SparkSession.builder.master("local[2]").appName("spacy-deid-tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def key_env():
    before = os.environ.get("SPACY_DEID_KEY")
    os.environ["SPACY_DEID_KEY"] = KEY
    yield KEY
    if before is None:
        os.environ.pop("SPACY_DEID_KEY", None)
    else:
        os.environ["SPACY_DEID_KEY"] = before


@pytest.fixture(scope="session")
def shared_pipeline(key_env):
    """`run`'s own loader, called once: each `run` below reuses the pipeline it returned (the output
    does not depend on it being fresh: surrogates are keyed, not remembered)."""
    return LOADER()


@pytest.fixture
def cli(shared_pipeline, spark):
    def invoke(command, *args):
        with pytest.MonkeyPatch.context() as mp:
            if command == "run":  # spark's workers load their own, with the CLI's loader
                mp.setattr(run_cmd, "load_pipeline", lambda *a, **k: shared_pipeline)
            return CliRunner().invoke(app, [command, *map(str, args)], catch_exceptions=False)

    return invoke


def parse_date(text):
    """The day a date in one of the generated notes' plain forms names (None for other forms)."""
    for pattern, offset in DATE_FORMS:
        m = pattern.match(text)
        if m:
            return date(int(m[1]) + offset, int(m[2]), int(m[3]))
    return None


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
    return path


def lines(path: Path):
    return path.read_text(encoding="utf8").splitlines()


@pytest.fixture(scope="session")
def notes():
    records, _ = make_notes(300, seed=45, notes_per_patient=5)
    return records


@pytest.fixture(scope="session")
def run_output(notes, tmp_path_factory, shared_pipeline):
    """`spacy-deid run` on the 300 notes: the bytes every Spark output is compared with."""
    folder = tmp_path_factory.mktemp("run")
    src = write_jsonl(folder / "notes.jsonl", notes)
    out = folder / "out.jsonl"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(run_cmd, "load_pipeline", lambda *args, **kwargs: shared_pipeline)
        result = CliRunner().invoke(app, ["run", str(src), str(out), "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return src, out


@pytest.mark.parametrize("partitions", [1, 4])
def test_output_is_runs_byte_for_byte(cli, run_output, notes, tmp_path, partitions):
    src, expected = run_output
    assert len({r["patient_id"] for r in notes}) >= 50 and len(notes) >= 300
    out = tmp_path / "out.jsonl"
    result = cli("spark", src, out, "--master", "local[2]", "--partitions", partitions, "--no-progress")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == expected.read_bytes()
    assert f"spacy-deid spark: 300 records, 300 de-identified, 0 failed" in result.output
    assert f"in {partitions} partitions" in result.output
    assert not any(r["text"][:40] in result.output for r in notes)  # counts only, no note text
    assert not list(tmp_path.glob(".*tmp"))


def test_bad_records_are_error_rows_and_the_rest_is_written(cli, notes, tmp_path):
    good = notes[:10]  # two whole patients
    bad = [{"id": "null-text", "patient_id": "G00001", "text": None},
           {"id": "number-text", "patient_id": "G00002", "text": 20210302},
           {"id": "huge", "patient_id": "G00001", "text": "病人 陳志明 " * 700_000}]  # 5.6 MB
    typo = {"id": "typo-date", "patient_id": "G00003", "text": "入院 110.02.30，出院 110.03.02。"}  # no 2月30日
    records = good[:3] + bad[:1] + good[3:7] + bad[1:] + good[7:] + [typo]
    src = write_jsonl(tmp_path / "bad.jsonl", records)
    with src.open("a", encoding="utf8") as f:
        f.write("{not json\n")
    outputs = {}
    for command in ("run", "spark"):
        out, errors = tmp_path / f"{command}.jsonl", tmp_path / f"{command}-errors.jsonl"
        result = cli(command, src, out, "--errors", errors, "--no-progress")
        assert result.exit_code == 1, result.output  # some records failed, the others were written
        assert "15 records, 11 de-identified, 4 failed, 1 warning(s)" in result.output
        outputs[command] = (out.read_bytes(), errors.read_bytes())
    assert outputs["spark"] == outputs["run"]
    errors = [json.loads(line) for line in outputs["spark"][1].decode("utf8").splitlines()]
    assert [(e["id"], e["line"], "warning" in e) for e in errors] == [
        ("null-text", 4, False), ("number-text", 9, False), ("huge", 10, False), ("typo-date", 14, True),
        (None, 15, False)]
    assert "[3, 12) is not a calendar date" in errors[3]["warning"] and "110.02.30" not in errors[3]["warning"]
    assert "not a string" in errors[1]["error"] and "over the limit" in errors[2]["error"]
    assert all("陳志明" not in e.get("error", "") for e in errors)
    written = [json.loads(line) for line in outputs["spark"][0].decode("utf8").splitlines()]
    assert len(written) == len(good) + 1 and all(w["id"] not in {r["id"] for r in records} for w in written)


def test_dataframe_bad_records_become_error_rows(spark, key_env):
    rows = [("a-1", "P1", "Tel 0912-345-678, 病歷號 1234567."), ("a-2", "P1", None),
            ("a-3", "P2", "x" * 5_000_001), ("a-4", None, "入院日期: 110.03.02 陳志明")]
    df = spark.createDataFrame(rows, "id string, patient_id string, text string")
    got = {r["id"]: r for r in deidentify_dataframe(df, load_nlp=LOADER, partitions=2).collect()}
    assert got["a-1"]["error"] is None and "0912-345-678" not in got["a-1"]["deid_text"]
    assert got["a-4"]["error"] is None and got["a-4"]["patient_id"] is None
    assert "missing text field" in got["a-2"]["error"] and got["a-2"]["deid_text"] is None
    assert "over the limit" in got["a-3"]["error"] and got["a-3"]["fields"] is None
    assert "xxxx" not in got["a-3"]["error"]


def test_a_patient_split_across_files_and_partitions_is_one_patient(spark, key_env, shared_pipeline, tmp_path):
    records = []
    for rec in generate(10, seed=45, split="heldout", notes_per_patient=(4, 5)):
        data = rec.to_dict()
        records.append({"id": data["id"], "patient_id": data["patient_id"], "text": data["text"]})
    expected = {r.id: r for r in deidentify(shared_pipeline, records)}  # sorted by patient: voted whole
    halves = [write_jsonl(tmp_path / "a.jsonl", records[0::2]), write_jsonl(tmp_path / "b.jsonl", records[1::2])]
    df = spark.read.json([str(p) for p in halves]).repartition(3)  # every patient in both files
    got = {r["id"]: r for r in deidentify_dataframe(df, load_nlp=LOADER, partitions=4).collect()}
    assert set(got) == set(expected)
    for rid, res in expected.items():
        assert got[rid]["deid_text"] == res.deid_text, rid
        assert json.loads(got[rid]["replacements"]) == res.replacements, rid
    # one surrogate per name and one date shift per patient, read from the Spark output alone
    by_patient = {}
    for rec in records:
        for rep in json.loads(got[rec["id"]]["replacements"]):
            original = rec["text"][rep["start"]:rep["end"]]
            if rep["label"] in ("PATIENT", "DOCTOR", "FAMILY", "PERSON"):
                by_patient.setdefault((rec["patient_id"], rep["label"], original), set()).add(rep["surrogate"])
            day, moved = parse_date(original), parse_date(rep["surrogate"])
            if rep["label"] == "DATE" and day and moved:
                by_patient.setdefault((rec["patient_id"], "shift"), set()).add((moved - day).days)
    assert all(len(values) == 1 for values in by_patient.values()), by_patient
    assert sum(key[1] != "shift" for key in by_patient) >= 10
    assert sum(key[1] == "shift" for key in by_patient) >= 5


def test_key_stays_out_of_the_plan_and_the_configuration(spark):
    secret = "a-secret-that-must-not-show-4f9c2e"
    df = spark.createDataFrame([("n1", "P1", "Tel 0912-345-678.")], "id string, patient_id string, text string")
    result = deidentify_dataframe(df, key=secret, load_nlp=LOADER)
    plan = result._jdf.queryExecution().toString()
    assert "FlatMapGroupsInPandas" in plan and secret not in plan
    assert not any(secret in value for _, value in spark.sparkContext.getConf().getAll())
    assert secret not in os.environ.get("SPACY_DEID_KEY", "")


def test_pipeline_is_loaded_once_per_worker(cli, run_output, notes, spark, tmp_path):
    src, expected = run_output  # 12 patient groups over 8 partitions: several groups per worker
    first = write_jsonl(tmp_path / "in.jsonl", notes[:60])  # whole patients: their lines of run's output
    out = tmp_path / "out.jsonl"
    assert cli("spark", first, out, "--partitions", 8, "--no-progress").exit_code == 0
    assert lines(out) == lines(expected)[:60]

    def loads_here(frame):  # on the grouped-map workers: that process's module, not a pickled copy
        import importlib

        import pandas

        module = importlib.import_module("spacy_deid.spark")
        return pandas.DataFrame([[os.getpid(), module.LOADS["count"], len(module._PIPELINES)]])

    probe = [tuple(r) for r in spark.range(16).repartition(8).groupBy("id")
             .applyInPandas(loads_here, "pid long, loads long, cached long").collect()]
    assert any(loads for _, loads, _ in probe), probe
    assert all(loads == cached for _, loads, cached in probe), probe  # never two loads of one setting
    assert all(loads <= 1 for _, loads, _ in probe), probe  # tests and CLI use one loader and key


def test_parquet_and_csv_in_and_out(cli, run_output, notes, spark, tmp_path):
    import pandas

    src, expected = run_output
    first = notes[:60]  # twelve whole patients: their lines of run's output are theirs alone
    expected_lines = lines(expected)[:60]
    parquet_in = tmp_path / "in.parquet"
    pandas.DataFrame(first).to_parquet(parquet_in, index=False)
    out = tmp_path / "from-parquet.jsonl"
    assert cli("spark", parquet_in, out, "--no-progress").exit_code == 0
    assert lines(out) == expected_lines

    typo = {"id": "typo-date", "patient_id": "G00003", "text": "入院 110.02.30，出院 110.03.02。"}  # no 2月30日
    jsonl_in = write_jsonl(tmp_path / "in.jsonl", first + [typo])
    parquet_out, errors = tmp_path / "out.parquet", tmp_path / "errors.jsonl"
    result = cli("spark", jsonl_in, parquet_out, "--errors", errors, "--no-progress")
    assert result.exit_code == 0 and "61 de-identified, 0 failed, 1 warning(s)" in result.output
    assert [(e["id"], e["line"]) for e in map(json.loads, errors.read_text(encoding="utf8").splitlines())] == \
        [("typo-date", 61)]  # a Parquet output's warnings are written as run writes them
    rows = spark.read.parquet(str(parquet_out)).orderBy("index").collect()
    want = [json.loads(line) for line in expected_lines]
    assert [(json.loads(r["fields"])["id"], r["text"], json.loads(r["replacements"])) for r in rows[:60]] == \
        [(w["id"], w["text"], w["replacements"]) for w in want]
    assert not {r["id"] for r in first} & {w["id"] for w in want}  # ids leave as pseudonyms only

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["id", "patient_id", "ward", "name", "text"])
    writer.writeheader()
    writer.writerows({**r, "ward": f"W{i % 4}", "name": "王大明"} for i, r in enumerate(first[:30]))
    csv_in = tmp_path / "in.csv"
    csv_in.write_text(buffer.getvalue(), encoding="utf8", newline="")
    for command in ("run", "spark"):
        result = cli(command, csv_in, tmp_path / f"{command}.csv", "--keep-field", "ward", "--no-progress")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "spark.csv").read_bytes() == (tmp_path / "run.csv").read_bytes()
    header, first_row = (tmp_path / "spark.csv").read_text(encoding="utf8").splitlines()[:2]
    assert header == "id,patient_id,ward,text,replacements" and "王大明" not in first_row


def test_no_key_or_no_pipeline_is_one_clear_error_and_nothing_written(cli, run_output, tmp_path, monkeypatch):
    src, _ = run_output
    out = tmp_path / "out.jsonl"
    monkeypatch.delenv("SPACY_DEID_KEY")
    result = cli("spark", src, out, "--no-progress")  # refused on the driver, before any job
    assert result.exit_code == 2 and "SPACY_DEID_KEY" in result.output
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    result = cli("spark", src, out, "--model", tmp_path / "no-such-pipeline", "--no-progress")
    assert result.exit_code == 3 and "the Spark job failed" in result.output
    assert "\tat org.apache" not in result.output  # no Java stack
    assert not out.exists() and not list(tmp_path.glob(".*"))
