"""`spacy-deid run` under a data-protection engineer's probes (issue 47, points 1-6): only chosen
fields leave, Ctrl-C / SIGTERM / writer failures end every process and leave no temporary file,
one bad record never sinks the batch, the source is never overwritten, exit codes mean one thing."""
import csv
import io
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spacy_deid
from spacy_deid.batch import output_record
from spacy_deid.cli import app
from spacy_deid.surrogates.keys import DEMO_KEY, pseudonymize_field

from deid_notegen import make_notes
from test_cli_run import SAMPLE, read_jsonl

KEY = "a-test-key-that-is-long-enough-1234"
RECORD = {"id": "7730418-20210302", "patient_id": "7730418", "name": "王大明",
          "text": "病歷號: 7730418. 王大明 admitted."}


@pytest.fixture(autouse=True)
def no_key_in_env(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)


def run(*args):
    return CliRunner().invoke(app, ["run", *map(str, args)], catch_exceptions=False)


def flat(output):
    """CLI output without the error box's borders and line breaks."""
    return " ".join(output.replace("│", " ").split())


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")


def leftovers(folder):
    return [p.name for p in Path(folder).rglob("*") if p.name.endswith((".tmp", ".deid-tmp"))]


# -- 1. only the chosen fields leave --------------------------------------------------------------
def test_fields_other_than_the_text_are_pseudonymized_or_dropped(tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(src, [RECORD])
    result = run(src, out, "--demo-key", "--no-progress")
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf8")
    for phi in ("7730418", "王大明"):
        assert phi not in written
    [rec] = read_jsonl(out)
    assert list(rec) == ["id", "patient_id", "text", "replacements"]  # `name` dropped
    assert rec["id"] == pseudonymize_field(DEMO_KEY, "id", RECORD["id"])
    assert rec["patient_id"] == pseudonymize_field(DEMO_KEY, "patient_id", RECORD["patient_id"])
    again = tmp_path / "again.jsonl"
    assert run(src, again, "--demo-key", "--no-progress").exit_code == 0
    assert again.read_bytes() == out.read_bytes()  # stable across runs


def test_keep_field_and_pseudonymize_field(tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(src, [{**RECORD, "ward": "7A", "drop": "x"}])
    result = run(src, out, "--demo-key", "--no-progress", "--keep-field", "ward", "--pseudonymize-field", "name")
    assert result.exit_code == 0, result.output
    assert "'ward' is copied into the output verbatim" in result.output
    [rec] = read_jsonl(out)
    assert rec["ward"] == "7A" and "drop" not in rec
    assert rec["name"] == pseudonymize_field(DEMO_KEY, "name", "王大明")
    kept = tmp_path / "kept.jsonl"
    assert run(src, kept, "--demo-key", "--no-progress", "--keep-field", "id").exit_code == 0
    assert read_jsonl(kept)[0]["id"] == RECORD["id"]  # asked for, with a warning


def test_deidentify_mirrors_run(tmp_path, monkeypatch):
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid")
    [res] = spacy_deid.deidentify(nlp, [RECORD], patient_key="patient_id")
    assert res.fields == {"id": pseudonymize_field(KEY.encode(), "id", RECORD["id"]),
                          "patient_id": pseudonymize_field(KEY.encode(), "patient_id", "7730418"), "text": None}
    record = output_record(res)
    assert list(record) == ["id", "patient_id", "text", "replacements"]
    assert "7730418" not in json.dumps(record, ensure_ascii=False)
    [kept] = spacy_deid.deidentify(nlp, [RECORD], keep_fields=["name"], pseudonymize_fields=["id"])
    assert kept.fields["name"] == "王大明"
    # the README's example still holds: result.id names the input record, deid_text is the note
    assert res.id == RECORD["id"] and "7730418" not in res.deid_text
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_jsonl(src, [RECORD])
    (tmp_path / "pipe").mkdir()
    nlp.to_disk(tmp_path / "pipe")
    assert run(src, out, "--model", tmp_path / "pipe", "--no-progress").exit_code == 0
    assert out.read_text(encoding="utf8") == json.dumps(record, ensure_ascii=False) + "\n"


# -- 2, 3. signals end every process and leave nothing --------------------------------------------
def _children(pid):
    found = []
    for st in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(st.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(st.parent.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _start_two_process_run(tmp_path, n_notes=3000, extra=(), **popen):
    records, _ = make_notes(n_notes, seed=5)
    src = tmp_path / "in.jsonl"
    write_jsonl(src, records)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "out.jsonl"
    nlp = spacy_deid.blank()  # rules, dates and surrogates: workers start in seconds
    nlp.add_pipe("deid")
    nlp.to_disk(tmp_path / "pipe")
    cmd = [sys.executable, "-c", "from spacy_deid.cli import main; main()", "run", str(src), str(out),
           "--n-process", "2", "--no-progress", "--errors", str(out_dir / "errors.jsonl"),
           "--audit", str(out_dir / "audit.jsonl"), "--model", str(tmp_path / "pipe"), *extra]
    proc = subprocess.Popen(cmd, env={**os.environ, "SPACY_DEID_KEY": KEY}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)
    # the private temporary folder exists once the outputs are open; wait for both workers to run
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if (out_dir / ".out.jsonl.deid-tmp").exists() and len(_children(proc.pid)) >= 2:
            break
        time.sleep(0.2)
    time.sleep(3)  # workers busy, read-ahead queue full
    assert proc.poll() is None, proc.communicate()[1][-2000:]
    return proc, out_dir


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signals_end_a_two_process_run_within_seconds_and_leave_no_temp_file(tmp_path, sig):
    proc, out_dir = _start_two_process_run(tmp_path)
    workers = _children(proc.pid)
    assert len(workers) >= 2
    sent = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 128 + int(sig), err[-2000:]
    assert took < 10, took
    time.sleep(0.5)
    assert [w for w in workers if _alive(w)] == []
    assert leftovers(out_dir) == [] and sorted(p.name for p in out_dir.iterdir()) == []
    assert "Traceback" not in err and "interrupted" in err


def test_a_fatal_writer_error_ends_a_two_process_run(tmp_path):
    def small_files():  # the output may not grow past 64 KB: a "disk full" for the writer
        resource.setrlimit(resource.RLIMIT_FSIZE, (64_000, 64_000))

    proc, out_dir = _start_two_process_run(tmp_path, preexec_fn=small_files)
    workers = _children(proc.pid)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, err[-2000:]
    assert "writing failed" in err and "Traceback" not in err
    time.sleep(0.5)
    assert [w for w in workers if _alive(w)] == []
    assert sorted(p.name for p in out_dir.iterdir()) == []


def test_after_sigkill_temp_files_are_private_and_swept_by_the_next_run(tmp_path):
    proc, out_dir = _start_two_process_run(tmp_path, start_new_session=True)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    private = out_dir / ".out.jsonl.deid-tmp"
    assert private.is_dir() and stat.S_IMODE(private.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in private.iterdir())
    small = tmp_path / "small.jsonl"
    write_jsonl(small, read_jsonl(SAMPLE))
    os.environ["SPACY_DEID_KEY"] = KEY
    try:
        result = run(small, out_dir / "out.jsonl", "--no-progress", "--errors", out_dir / "errors.jsonl",
                     "--audit", out_dir / "audit.jsonl")
    finally:
        del os.environ["SPACY_DEID_KEY"]
    assert result.exit_code == 0, result.output
    assert "removed the temporary files" in result.output
    assert leftovers(out_dir) == []
    assert sorted(p.name for p in out_dir.iterdir()) == ["audit.jsonl", "errors.jsonl", "out.jsonl"]


# -- 4. one bad record -----------------------------------------------------------------------------
def test_a_lone_surrogate_in_a_field_fails_that_record_only(tmp_path):
    good = read_jsonl(SAMPLE)
    src = tmp_path / "in.jsonl"
    lines = [json.dumps(good[0]), '{"id": "bad\\udc00", "patient_id": "Q", "text": "Tel 0912-345-678"}',
             '{"id": "ward-bad", "patient_id": "Q", "ward": "7\\udc00A", "text": "Tel 0912-345-678"}',
             json.dumps(good[1])]
    src.write_text("\n".join(lines) + "\n", encoding="utf8")
    out, errors, audit = tmp_path / "out.jsonl", tmp_path / "errors.jsonl", tmp_path / "audit.jsonl"
    result = run(src, out, "--demo-key", "--no-progress", "--errors", errors, "--audit", audit,
                 "--keep-field", "id", "--keep-field", "ward")
    assert result.exit_code == 1, result.output
    assert [r["id"] for r in read_jsonl(out)] == [good[0]["id"], good[1]["id"]]
    errs = read_jsonl(errors)
    assert [e["line"] for e in errs] == [2, 3]
    assert errs[0]["id"] == "bad\\udc00" and errs[1]["id"] == "ward-bad"
    assert all("not valid Unicode" in e["error"] for e in errs)
    assert {p["id"] for p in read_jsonl(audit)} == {good[0]["id"], good[1]["id"]}  # no audit of failed ones
    assert "0912-345-678" not in errors.read_text(encoding="utf8") + result.output


# -- 5. the source is never overwritten ------------------------------------------------------------
def test_output_equal_to_input_is_refused_unless_forced(tmp_path):
    src = tmp_path / "notes.jsonl"
    write_jsonl(src, read_jsonl(SAMPLE))
    before = src.read_bytes()
    result = run(src, src, "--demo-key", "--no-progress")
    assert result.exit_code == 2 and "is the input" in flat(result.output)
    assert src.read_bytes() == before
    assert run(src, tmp_path / "." / "notes.jsonl", "--demo-key", "--no-progress").exit_code == 2
    forced = run(src, src, "--demo-key", "--no-progress", "--force")
    assert forced.exit_code == 0, forced.output
    assert len(read_jsonl(src)) == 6 and src.read_bytes() != before and leftovers(tmp_path) == []


def test_output_inside_the_input_folder_is_refused(tmp_path):
    src = tmp_path / "notes"
    src.mkdir()
    (src / "a.txt").write_text("Tel 0912-345-678", encoding="utf8")
    result = run(src, src / "deid", "--demo-key", "--no-progress")
    assert result.exit_code == 2 and "inside the input folder" in flat(result.output)
    assert sorted(p.name for p in src.iterdir()) == ["a.txt"]


# -- 6. formats and exit codes ----------------------------------------------------------------------
def test_jsonl_with_a_bom_keeps_its_first_record(tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + SAMPLE.read_bytes())
    result = run(src, out, "--demo-key", "--no-progress")
    assert result.exit_code == 0, result.output
    assert len(read_jsonl(out)) == 6 and "6 de-identified, 0 failed" in result.output


def test_csv_with_an_unclosed_quote_is_reported_and_the_rest_read(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text('id,patient_id,text\n1,P,"Tel 0912-345-678\n2,P,MRN 1234567\n3,Q,電話 0933-218-546\n',
                   encoding="utf8")
    out, errors = tmp_path / "out.csv", tmp_path / "errors.jsonl"
    result = run(src, out, "--demo-key", "--no-progress", "--errors", errors)
    assert result.exit_code == 1, result.output
    [err] = read_jsonl(errors)
    assert err["line"] == 2 and "malformed CSV" in err["error"] and "0912" not in err["error"]
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf8"), newline="")))
    assert [r["id"] for r in rows] == [pseudonymize_field(DEMO_KEY, "id", v) for v in ("2", "3")]
    assert "3 records, 2 de-identified, 1 failed" in result.output


def test_unwritable_output_and_unsupported_input_are_clear_errors(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(app, ["run", str(SAMPLE), str(blocker / "out.jsonl"), "--demo-key", "--no-progress"])
    assert result.exit_code == 2 and "cannot write the output" in flat(result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    odd = tmp_path / "notes.xml"
    odd.write_text("<notes/>")
    result = CliRunner().invoke(app, ["run", str(odd), str(tmp_path / "o.jsonl"), "--demo-key", "--no-progress"])
    assert result.exit_code == 2 and "cannot tell the format" in flat(result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_help_documents_the_exit_codes():
    result = CliRunner().invoke(app, ["run", "--help"], terminal_width=200)
    text = " ".join(result.output.split())
    for code in ("0 every record written", "1 some records failed", "2 usage or configuration",
                 "3 crash"):
        assert code in text
