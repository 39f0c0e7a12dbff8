"""Benchmark of `spacy-deid review` on 10,000 notes (issue 46): page size (target < 50 MB, one file)
and time to open in headless Chromium (target < 5 s), with and without the originals.

The notes are made from a real `spacy-deid run` of examples/sample_notes.jsonl (demo key): note i
joins `--per-note` consecutive sample outputs (and their originals), offsets shifted, so each is a
realistic code-mixed note of ~0.3-1.5 k characters with its real replacements. Output ids are
opaque (like run's pseudonyms), so the pairing goes by position, checked by the text between spans.

    python benchmarks/bench_review.py [--notes 10000] [--per-note 3] [--screenshot docs/review.png]

"Open" is measured two ways: wall time from `driver.get` until the page marks itself ready (first
note rendered), and the page's own `performance.now()` at that moment (from navigation start).
"""
import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.review import load, render

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_notes.jsonl"


def _driver(width: int = 1400, height: int = 900):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("google-chrome")
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    path = shutil.which("chromedriver")
    return webdriver.Chrome(service=Service(path) if path else Service(), options=options)


def _open(driver, html: Path) -> tuple:
    start = time.perf_counter()
    driver.get(html.as_uri())
    while True:
        ready = driver.execute_script("return document.body && document.body.dataset.ready || ''")
        if ready:
            return time.perf_counter() - start, float(ready) / 1000
        if time.perf_counter() - start > 120:
            raise RuntimeError("page not ready after 120 s")
        time.sleep(0.01)


def _run_sample(folder: Path) -> list:
    out = folder / "sample_out.jsonl"
    result = CliRunner().invoke(app, ["run", str(SAMPLE), str(out), "--demo-key", "--no-progress"])
    if result.exit_code != 0:
        raise SystemExit(result.output)
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _join(parts: list) -> tuple:
    """One note from several (original, output) pairs: texts joined by a newline, offsets shifted."""
    text, deid, reps = "", "", []
    for original, output in parts:
        if text:
            text, deid = text + "\n", deid + "\n"
        for r in output["replacements"]:
            reps.append({**r, "start": r["start"] + len(text), "end": r["end"] + len(text),
                         "out_start": r["out_start"] + len(deid), "out_end": r["out_end"] + len(deid)})
        text, deid = text + original["text"], deid + output["text"]
    return text, deid, reps


def make_inputs(folder: Path, n: int, per_note: int) -> tuple:
    originals = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    outputs = _run_sample(folder)
    src, out = folder / "in.jsonl", folder / "out.jsonl"
    with src.open("w", encoding="utf-8") as fs, out.open("w", encoding="utf-8") as fo:
        for i in range(n):
            picks = [(originals[(i + j) % len(originals)], outputs[(i + j) % len(outputs)]) for j in range(per_note)]
            text, deid, reps = _join(picks)
            fs.write(json.dumps({"id": f"B{i:05d}", "patient_id": f"P{i // 4:04d}", "text": text}, ensure_ascii=False) + "\n")
            fo.write(json.dumps({"id": f"{i * 2654435761 % 2**32:08x}", "patient_id": f"q{i // 4:04d}",
                                 "text": deid, "replacements": reps}, ensure_ascii=False) + "\n")
    return src, out


def screenshot(path: Path) -> None:
    """The page on examples/sample_notes.jsonl (run with the demo key), as committed in docs/."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out, html = folder / "out.jsonl", folder / "review.html"
        CliRunner().invoke(app, ["run", str(SAMPLE), str(out), "--demo-key", "--no-progress"])
        result = CliRunner().invoke(app, ["review", str(out), "--original", str(SAMPLE), "--html", str(html)])
        if result.exit_code:
            raise SystemExit(result.output)
        driver = _driver(1400, 1500)
        try:
            _open(driver, html)
            driver.find_element("css selector", "details").click()  # the totals table
            driver.save_screenshot(str(path))
        finally:
            driver.quit()
    print(f"screenshot: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--per-note", type=int, default=3)
    parser.add_argument("--screenshot", type=Path, default=None)
    args = parser.parse_args()
    if args.screenshot:
        screenshot(args.screenshot)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        src, out = make_inputs(folder, args.notes, args.per_note)
        chars = sum(len(json.loads(line)["text"]) for line in src.open(encoding="utf-8"))
        print(f"{args.notes} notes, {chars / args.notes:.0f} characters per note on average "
              f"(input {src.stat().st_size / 1e6:.1f} MB, run output {out.stat().st_size / 1e6:.1f} MB)")
        driver = _driver()
        try:
            for label, original in (("de-identified only", None), ("with --original", src)):
                start = time.perf_counter()
                data = load(out, original)
                page = render(data)
                html = folder / "review.html"
                html.write_text(page, encoding="utf-8")
                built = time.perf_counter() - start
                paired = f", paired {data.pairing}" if original else ""
                opens = [_open(driver, html) for _ in range(3)]
                wall = sorted(o[0] for o in opens)[1]
                inpage = sorted(o[1] for o in opens)[1]
                t0 = time.perf_counter()
                body = driver.find_element("tag name", "body")
                for _ in range(20):
                    body.send_keys("j")
                step = (time.perf_counter() - t0) / 20
                timings = driver.execute_script("return window.deidReview.timings")
                print(f"{label}: {html.stat().st_size / 1e6:.1f} MB, built in {built:.1f} s{paired}; "
                      f"opens in {wall:.2f} s wall (median of 3; page ready at {inpage:.2f} s after "
                      f"navigation start); next note (j) {step * 1000:.0f} ms per keypress incl. WebDriver\n"
                      f"  page timings (ms from navigation start, last open): "
                      + ", ".join(f"{k} {v:.0f}" for k, v in timings.items()))
        finally:
            driver.quit()


if __name__ == "__main__":
    sys.exit(main())
