"""scripts/evaluate_external.py on a corpus folder written here (the shared corpora are never read by
tests): predictions run in parallel give the results of a serial run, in the same order."""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "evaluate_external.py"

# Notes of our own in ASQ-PHI's label scheme (spacy_deid/resources/labelmaps/asq_phi.json).
NOTES = [
    ("q1", "Seen on 2021/12/25, call 02-2312-3456 if worse.", [("2021/12/25", "DATE"), ("02-2312-3456", "PHONE_NUMBER")]),
    ("q2", "Email lin.test@example.org about the 110.03.02 visit.",
     [("lin.test@example.org", "EMAIL_ADDRESS"), ("110.03.02", "DATE")]),
]


def _write_corpus(folder: Path) -> None:
    folder.mkdir()
    with open(folder / "asq_phi.jsonl", "w", encoding="utf8") as fh:
        for note_id, text, phi in NOTES:
            spans = [{"start": text.index(s), "end": text.index(s) + len(s), "label": label, "text": s}
                     for s, label in phi]
            fh.write(json.dumps({"id": note_id, "text": text, "spans": spans}) + "\n")


def _run(tmp_path: Path, jobs: int) -> dict:
    out = tmp_path / f"scores{jobs}.json"
    result = subprocess.run([sys.executable, str(SCRIPT), "rules", str(out), "--corpora", str(tmp_path / "corpora"),
                             "--compare", "default", "--jobs", str(jobs)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith("asq_phi")]
    assert [line.split()[1] for line in lines] == ["rules", "default"]
    return json.loads(out.read_text(encoding="utf8"))


def test_parallel_predictions_give_the_serial_results(tmp_path):
    _write_corpus(tmp_path / "corpora")
    serial, parallel = _run(tmp_path, 1), _run(tmp_path, 2)
    assert serial == parallel
    assert set(serial["asq_phi"]) == {"rules", "default"}
    assert serial["asq_phi"]["rules"]["deid_token_r"] == 1.0  # dates, a phone and an e-mail: all rule PHI


def test_no_corpus_folder_writes_an_empty_result(tmp_path):
    out = tmp_path / "scores.json"
    result = subprocess.run([sys.executable, str(SCRIPT), "rules", str(out), "--corpora", str(tmp_path / "absent")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "skipping" in result.stdout
    assert json.loads(out.read_text(encoding="utf8")) == {}


def test_a_corpus_with_titles_inside_names_is_also_scored_in_the_schemes_spans(tmp_path):
    """AI CUP writes `[林醫師]`, annotation.md `[林]醫師`: both figures are reported, the corpus's first."""
    folder = tmp_path / "corpora"
    folder.mkdir()
    text = "醫師：林醫師說你的血壓很好。民眾：好，謝謝王小姐。"
    spans = [{"start": text.index(n), "end": text.index(n) + 3, "label": "name", "text": n} for n in ("林醫師", "王小姐")]
    (folder / "aicup2020_dev.jsonl").write_text(json.dumps({"id": "d1", "text": text, "spans": spans},
                                                           ensure_ascii=False) + "\n", encoding="utf8")
    out = tmp_path / "scores.json"
    result = subprocess.run([sys.executable, str(SCRIPT), "rules", str(out), "--corpora", str(folder),
                             "--compare", "rules", "--jobs", "1"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "(annotation.md spans)" in result.stdout
    scores = json.loads(out.read_text(encoding="utf8"))["aicup2020_dev"]["rules"]
    assert scores["deid_token_r_per_category"]["NAME"]["gold_tokens"] == 6
    assert scores["scheme_spans"]["deid_token_r_per_category"]["NAME"]["gold_tokens"] == 2
    assert scores["scheme_spans"]["deid_label_map"]["trimmed"] == {"name": 2}
