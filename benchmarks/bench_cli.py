"""Throughput of `spacy-deid run` (notes/second) at --n-process 1 and 2 on generated notes.

    python benchmarks/bench_cli.py [--notes 1000] [--n-process 1 2] [--model PATH]

Notes come from tests/deid_notegen.py (three templates, three notes per patient, synthetic values).
Each setting runs the real command in a fresh process (pipeline loading and worker start-up
included, as a user sees it); the outputs of all settings are checked to be byte-identical.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from deid_notegen import make_notes  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--n-process", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--model", default=None, help="pipeline path or package (default: the CLI's)")
    args = parser.parse_args()
    records, _ = make_notes(args.notes, seed=11)
    chars = sum(len(r["text"]) for r in records)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "notes.jsonl"
        src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
        outputs = []
        print(f"{len(records)} notes, {chars / len(records):.0f} characters each on average")
        for n in args.n_process:
            out = Path(tmp) / f"out{n}.jsonl"
            cmd = [sys.executable, "-c", "from spacy_deid.cli import main; main()", "run", str(src), str(out), "--demo-key",
                   "--no-progress", "--n-process", str(n)]
            if args.model:
                cmd += ["--model", args.model]
            env = dict(os.environ)
            env.pop("SPACY_DEID_KEY", None)
            start = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            elapsed = time.perf_counter() - start
            if proc.returncode != 0:
                sys.exit(f"--n-process {n} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
            summary = proc.stderr.strip().splitlines()[-1]
            print(f"--n-process {n}: {len(records) / elapsed:7.1f} notes/s end to end "
                  f"({elapsed:.1f}s wall); CLI summary: {summary}")
            outputs.append(out.read_bytes())
        print("outputs byte-identical across settings:", all(o == outputs[0] for o in outputs))


if __name__ == "__main__":
    main()
