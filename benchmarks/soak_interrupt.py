"""Soak: `spacy-deid run --n-process 2` interrupted at random points, then run again to the end.

    python benchmarks/soak_interrupt.py [--notes 20000] [--interruptions 3] [--seed 7] [--workdir DIR]

Notes come from tests/deid_notegen.py (synthetic values). One uninterrupted run gives the reference.
Then the same command is started `--interruptions` times and sent SIGINT or SIGTERM (alternating,
the first chosen at random) at a random point of the reference run's duration; each time the script
records the exit code, the seconds from the signal to the exit, whether a worker outlived the parent
and whether any temporary file (`.*.deid-tmp`, `*.tmp`) or output was left. Resume is a rerun: an
interrupted run writes nothing, so the final, complete run replaces the output atomically; it must be
byte-identical to the reference. Prints one JSON object of figures; exits 1 when a check failed.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from deid_notegen import make_notes  # noqa: E402

KEY = "soak-benchmark-key, not a secret: 0123456789abcdef"


def children(pid: int) -> List[int]:
    """Direct child processes of `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


def leftovers(folder: Path) -> List[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".deid-tmp", ".tmp")))


def command(src: Path, out: Path, errors: Path, model: str = "") -> List[str]:
    return [sys.executable, "-c", "from spacy_deid.cli import main; main()", "run", str(src), str(out),
            "--n-process", "2", "--no-progress", "--errors", str(errors), *(["--model", model] if model else [])]


def rules_pipeline(folder: Path) -> str:
    """A pipeline of `deid` alone (rules, dates, surrogates; no NER): the shutdown and resume paths
    are the same, at several times the shipped default's speed on a 2-core machine."""
    import spacy_deid

    nlp = spacy_deid.blank()
    nlp.add_pipe("deid")
    nlp.to_disk(folder)
    return str(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=20_000)
    parser.add_argument("--interruptions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", default=None, help="keep the files here (default: a temporary folder)")
    parser.add_argument("--model", default="", help="pipeline for `run --model` (default: the shipped "
                        "default); 'rules' for `deid` alone, no NER")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    env = {**os.environ, "SPACY_DEID_KEY": KEY}
    records, _ = make_notes(args.notes, seed=args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.workdir or tmp)
        work.mkdir(parents=True, exist_ok=True)
        figures: Dict[str, object] = {"notes": len(records), "patients": len({r["patient_id"] for r in records})}
        src = work / "notes.jsonl"
        src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf8")
        model = rules_pipeline(work / "rules_pipeline") if args.model == "rules" else args.model
        figures["model"] = args.model or "shipped default"
        out_dir = work / "out"
        out_dir.mkdir(exist_ok=True)
        ref, out, errors = out_dir / "reference.jsonl", out_dir / "resumed.jsonl", out_dir / "errors.jsonl"
        for stale in (ref, out, errors):
            stale.unlink(missing_ok=True)

        start = time.perf_counter()
        proc = subprocess.run(command(src, ref, errors, model), env=env, capture_output=True, text=True)
        reference_s = time.perf_counter() - start
        figures["reference"] = {"exit": proc.returncode, "seconds": round(reference_s, 1),
                                "summary": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""}
        ok = proc.returncode == 0
        errors.unlink(missing_ok=True)

        first = rng.choice([signal.SIGINT, signal.SIGTERM])
        runs = []
        for i in range(args.interruptions):
            sig = first if i % 2 == 0 else (signal.SIGTERM if first == signal.SIGINT else signal.SIGINT)
            at = rng.uniform(0.1, 0.9) * reference_s
            child = subprocess.Popen(command(src, out, errors, model), env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
            time.sleep(at)
            workers = children(child.pid)
            sent = time.perf_counter()
            child.send_signal(sig)
            try:
                _, stderr = child.communicate(timeout=60)
                exit_s = time.perf_counter() - sent
            except subprocess.TimeoutExpired:
                child.kill()
                _, stderr = child.communicate()
                exit_s = float("inf")
            time.sleep(0.5)
            orphans = [w for w in workers if alive(w)]
            left = leftovers(out_dir)
            run = {"signal": sig.name, "at_s": round(at, 1), "exit": child.returncode,
                   "exit_after_signal_s": round(exit_s, 2), "workers_seen": len(workers),
                   "workers_left": len(orphans), "temp_files_left": left, "output_written": out.exists()}
            runs.append(run)
            ok = ok and child.returncode == 128 + int(sig) and exit_s < 10 and not orphans and not left
            ok = ok and not out.exists()
        figures["interrupted"] = runs

        start = time.perf_counter()
        proc = subprocess.run(command(src, out, errors, model), env=env, capture_output=True, text=True)
        figures["resumed"] = {"exit": proc.returncode, "seconds": round(time.perf_counter() - start, 1)}
        same = out.exists() and ref.exists() and out.read_bytes() == ref.read_bytes()
        left = leftovers(out_dir)
        figures["final_equals_uninterrupted"] = same
        figures["temp_files_left_at_end"] = left
        ok = ok and proc.returncode == 0 and same and not left
        figures["all_checks_passed"] = ok
        print(json.dumps(figures, indent=2))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
