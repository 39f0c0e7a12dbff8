"""Throughput of `spacy-deid spark` (local[1], local[2]) against `spacy-deid run --n-process 1`.

    python benchmarks/bench_spark.py [--notes 5000] [--masters local[1] local[2]] [--model PATH]

Notes come from tests/deid_notegen.py (three templates, synthetic values), as in bench_cli.py. Each
setting runs the real command in a fresh process, one after the other in this one run, so the
figures compare. End to end includes loading the pipeline (run: in its process; Spark: once per
Python worker); Spark's start-up (JVM and session, from the command's summary) is reported apart.
Spark's overhead per record is (Spark local[1] end to end - start-up - run end to end) / notes:
one core each, one pipeline load each. Every command runs with OMP_NUM_THREADS=1, as Spark sets it
for its Python workers (one task, one core), so `run` does not get two BLAS threads that Spark's
workers do not. `--run-last` runs `run` after the Spark settings, to see how much the order (a
machine's load drifting) moves the figures. The outputs are checked to be byte-identical.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from deid_notegen import make_notes  # noqa: E402

CLI = [sys.executable, "-c", "from spacy_deid.cli import main; main()"]
STARTUP = re.compile(r"Spark start-up ([0-9.]+)s")


def timed(cmd: List[str]) -> Tuple[float, str]:
    env = dict(os.environ)
    env.pop("SPACY_DEID_KEY", None)  # the public demo key: a benchmark, not de-identification
    env["OMP_NUM_THREADS"] = "1"  # what Spark gives its Python workers
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd[3:5])} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
    return elapsed, proc.stderr.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--masters", nargs="+", default=["local[1]", "local[2]"])
    parser.add_argument("--partitions", type=int, default=8, help="--partitions for every Spark run")
    parser.add_argument("--model", default=None, help="pipeline path or package (default: the CLI's)")
    parser.add_argument("--run-last", action="store_true", help="run `run` after the Spark settings")
    args = parser.parse_args()
    records, _ = make_notes(args.notes, seed=45)
    chars = sum(len(r["text"]) for r in records)
    model = ["--model", args.model] if args.model else []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "notes.jsonl"
        src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
        n = len(records)
        print(f"{n} notes of {len({r['patient_id'] for r in records})} patients, "
              f"{chars / n:.0f} characters each on average", flush=True)
        run_out = Path(tmp) / "run.jsonl"
        settings = [None] + args.masters if not args.run_last else args.masters + [None]
        walls, outputs = {}, {}
        for master in settings:
            if master is None:
                wall, summary = timed(CLI + ["run", str(src), str(run_out), "--demo-key", "--no-progress",
                                             "--n-process", "1"] + model)
                walls["run"], outputs["run"] = wall, run_out.read_bytes()
                print(f"run --n-process 1: {n / wall:7.2f} notes/s end to end ({wall:.1f}s wall); {summary}",
                      flush=True)
                continue
            out = Path(tmp) / f"spark-{master}.jsonl"
            wall, summary = timed(CLI + ["spark", str(src), str(out), "--master", master, "--partitions",
                                         str(args.partitions), "--demo-key", "--no-progress"] + model)
            startup = float(STARTUP.search(summary).group(1))
            walls[master], outputs[master] = wall - startup, out.read_bytes()
            print(f"spark {master}: {n / wall:7.2f} notes/s end to end ({wall:.1f}s wall), "
                  f"{n / (wall - startup):7.2f} without Spark's start-up ({startup:.1f}s); {summary}", flush=True)
        if "local[1]" in walls:
            work, run_wall = walls["local[1]"], walls["run"]
            print(f"Spark's overhead over run, one core each: {(work - run_wall) / n * 1000:+.1f} ms per "
                  f"record ({(work / run_wall - 1) * 100:+.1f} %)")
        print("outputs byte-identical to run's:", all(o == outputs["run"] for o in outputs.values()))


if __name__ == "__main__":
    main()
