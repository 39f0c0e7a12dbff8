"""The review page in a real headless Chromium (Debian's `chromium` + `chromium-driver`, installed by
.ci/run): it loads, highlights every replacement, a click rejects a span, a text selection adds one,
the downloaded corrections are corpus JSONL that `convert` + `spacy train` accept, and Han characters
are drawn (not tofu, not blank). One browser for the module; the page is built from a real `run`."""
import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spacy_deid.cli import app

webdriver = pytest.importorskip("selenium.webdriver", reason="pip install -e '.[review]'")
from PIL import Image  # noqa: E402  (pillow comes with the review extra)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_notes.jsonl"
ORIGINALS = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    raise RuntimeError("no Chromium found: .ci/run installs Debian's chromium and chromium-driver")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`run` on the sample notes (demo key), then the review page with the originals."""
    folder = tmp_path_factory.mktemp("review")
    out, html = folder / "out.jsonl", folder / "review.html"
    result = CliRunner().invoke(app, ["run", str(SAMPLE), str(out), "--demo-key", "--no-progress"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["review", str(out), "--original", str(SAMPLE), "--html", str(html)])
    assert result.exit_code == 0, result.output
    outputs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return folder, html, outputs


@pytest.fixture(scope="module")
def browser(built):
    folder = built[0] / "downloads"
    folder.mkdir()
    options = webdriver.ChromeOptions()
    options.binary_location = _chromium()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--force-device-scale-factor=1", "--lang=zh-TW"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"download.default_directory": str(folder),
                                              "download.prompt_for_download": False})
    driver_path = shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path) if driver_path else Service(), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    driver.downloads = folder
    yield driver
    driver.quit()


def _open(driver, html: Path) -> None:
    driver.get(html.as_uri())
    for _ in range(100):
        if driver.execute_script("return document.body.dataset.ready || ''"):
            return
        time.sleep(0.05)
    raise AssertionError("the page never became ready")


def _marks(driver, side: str):
    return driver.find_elements(By.CSS_SELECTOR, f'.text[data-side="{side}"] mark.entity')


def test_loads_with_every_replacement_highlighted(browser, built):
    _, html, outputs = built
    _open(browser, html)
    assert "CONTAINS PHI" in browser.find_element(By.ID, "banner").text
    first = outputs[0]
    assert browser.find_element(By.ID, "note-head").text.startswith(f"Note {first['id']}")
    orig, deid = _marks(browser, "orig"), _marks(browser, "deid")
    assert len(orig) == len(deid) == len(first["replacements"]) > 5
    for mark, rep in zip(deid, first["replacements"]):
        assert mark.text.startswith(first["text"][rep["out_start"]:rep["out_end"]])
        assert mark.get_attribute("data-label") == rep["label"]
    original = ORIGINALS[0]["text"]
    for mark, rep in zip(orig, first["replacements"]):
        assert mark.text.startswith(original[rep["start"]:rep["end"]])
        assert rep["surrogate"] in mark.get_attribute("title")  # the surrogate on hover
    total = sum(len(o["replacements"]) for o in outputs)
    assert f"{len(outputs)} notes · {total} replacements" in browser.find_element(By.ID, "summary").text
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def test_keyboard_and_filters(browser, built):
    _, html, outputs = built
    _open(browser, html)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("j")
    assert browser.find_element(By.ID, "note-head").text.startswith(f"Note {outputs[1]['id']}")
    body.send_keys("k")
    assert browser.find_element(By.ID, "note-head").text.startswith(f"Note {outputs[0]['id']}")
    Select(browser.find_element(By.ID, "f-label")).select_by_value("EMAIL")
    with_email = [o for o in outputs if any(r["label"] == "EMAIL" for r in o["replacements"])]
    assert 0 < len(with_email) < len(outputs)
    items = browser.find_elements(By.CSS_SELECTOR, "#note-list li")
    assert [li.text.split()[0] for li in items] == [o["id"] for o in with_email]
    Select(browser.find_element(By.ID, "f-label")).select_by_value("")
    browser.find_element(By.ID, "f-id").send_keys(outputs[3]["id"][:8])
    assert browser.find_element(By.ID, "note-head").text.startswith(f"Note {outputs[3]['id']}")


def _select_text(driver, side: str, needle: str) -> None:
    """Select `needle` in a pane as a mouse would, then release the mouse (mouseup)."""
    driver.execute_script("""
      const [side, needle] = arguments;
      const box = document.querySelector(`.text[data-side="${side}"]`);
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.data.indexOf(needle);
        if (i >= 0) {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + needle.length);
          const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
          box.dispatchEvent(new MouseEvent("mouseup", {bubbles: true}));
          return;
        }
      }
      throw new Error("text not found");
    """, side, needle)


def _wait_file(path: Path) -> Path:
    for _ in range(100):
        if path.exists() and path.stat().st_size:
            return path
        time.sleep(0.05)
    raise AssertionError(f"{path.name} was not downloaded")


def test_corrections_round_trip_to_training(browser, built, tmp_path):
    _, html, outputs = built
    _open(browser, html)
    first, original = outputs[0], ORIGINALS[0]["text"]
    # reject the first highlight (a click, then the popup's Reject)
    _marks(browser, "orig")[0].click()
    browser.find_element(By.ID, "popup-reject").click()
    assert "rejected" in _marks(browser, "orig")[0].get_attribute("class")
    # relabel the second one
    _marks(browser, "orig")[1].click()
    Select(browser.find_element(By.ID, "popup-label")).select_by_value("ID_NUMBER")
    browser.find_element(By.ID, "popup-apply").click()
    # a missed PHI: select text and give it a label
    _select_text(browser, "orig", "chest tightness")
    assert not browser.find_element(By.ID, "popup").get_attribute("hidden")
    Select(browser.find_element(By.ID, "popup-label")).select_by_value("LOCATION")
    browser.find_element(By.ID, "popup-apply").click()
    added = browser.find_elements(By.CSS_SELECTOR, '.text[data-side="orig"] mark.entity.added')
    assert [m.get_attribute("textContent") for m in added] == ["chest tightness"]
    assert len(_marks(browser, "orig")) == len(first["replacements"]) + 1
    # mark the other notes reviewed as they are (keyboard), so the export has a corpus to train on
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in outputs[1:]:
        body.send_keys("j")
        body.send_keys("r")
    assert browser.find_element(By.ID, "n-corrected").text == str(len(outputs))
    browser.find_element(By.ID, "download").click()
    path = _wait_file(browser.downloads / "corrections.jsonl")
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == [o["id"] for o in outputs]
    assert [r["text"] for r in records] == [o["text"] for o in ORIGINALS]  # the original text
    got = [(s["start"], s["end"], s["label"]) for s in records[0]["spans"]]
    reps = first["replacements"]
    start = original.index("chest tightness")
    expected = sorted([(reps[1]["start"], reps[1]["end"], "ID_NUMBER"), (start, start + 15, "LOCATION")]
                      + [(r["start"], r["end"], r["label"]) for r in reps[2:]])
    assert got == expected
    for record in records:
        for span in record["spans"]:
            assert record["text"][span["start"]:span["end"]] == span["text"]
    for record, output in zip(records[1:], outputs[1:]):
        assert [(s["start"], s["end"], s["label"]) for s in record["spans"]] == \
            [(r["start"], r["end"], r["label"]) for r in output["replacements"]]
    _train_on(path, tmp_path)


def _train_on(corrections: Path, folder: Path) -> None:
    """What `spacy project run all --vars.train_data corrections.jsonl` runs (convert, split, convert,
    train), cut to a few steps and without the static vectors (built by a later project step)."""
    runner = CliRunner()
    steps = [["convert", corrections, folder / "train_all.jsonl", "--from", "jsonl", "--to", "jsonl"],
             ["split", folder / "train_all.jsonl", folder / "train.jsonl", folder / "dev.jsonl", "--dev-share", "0.5"],
             ["convert", folder / "train.jsonl", folder / "train.spacy", "--from", "jsonl", "--to", "spacy"],
             ["convert", folder / "dev.jsonl", folder / "dev.spacy", "--from", "jsonl", "--to", "spacy"]]
    for step in steps:
        result = runner.invoke(app, [str(a) for a in step])
        assert result.exit_code == 0, (step[0], result.output)
    train = subprocess.run(
        [sys.executable, "-m", "spacy", "train", str(ROOT / "configs" / "cpu.cfg"), "--output", str(folder / "model"),
         "--paths.train", str(folder / "train.spacy"), "--paths.dev", str(folder / "dev.spacy"),
         "--paths.vectors", "null", "--components.tok2vec.model.embed.include_static_vectors", "false",
         "--vars.max_steps", "2", "--training.eval_frequency", "1"],
        capture_output=True, text=True, timeout=600)
    assert train.returncode == 0, train.stderr[-2000:]
    assert (folder / "model" / "model-last" / "ner").is_dir()


def test_han_characters_are_drawn(browser, built):
    """Each Han character of a code-mixed line is cut out of a real screenshot: it must have ink
    (not blank) and differ from the others (tofu boxes of a missing font are all alike). Measured with
    Noto CJK: 42-91 dark cells of 256, pairs differ in >= 64; private-use code points (tofu) drew
    5-6 px wide boxes, pairwise identical."""
    _, html, _ = built
    _open(browser, html)
    chars = "入院日期病歷號"
    rects = browser.execute_script("""
      const box = document.querySelector('.text[data-side="orig"]');
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      const out = [];
      for (let n = walker.nextNode(); n && out.length < arguments[0].length; n = walker.nextNode()) {
        for (let i = 0; i < n.data.length && out.length < arguments[0].length; i++) {
          if (arguments[0].includes(n.data[i]) && !out.some((o) => o.c === n.data[i])) {
            const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
            const b = r.getBoundingClientRect();
            out.push({c: n.data[i], x: b.left, y: b.top, w: b.width, h: b.height});
          }
        }
      }
      return out;
    """, chars)
    assert "".join(r["c"] for r in rects) == chars  # the sample's first line: 入院日期 ... 病歷號
    shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("L")
    glyphs = []
    for r in rects:
        assert 8 <= r["w"] <= 40 and 8 <= r["h"] <= 60  # one full-width character at 15px
        crop = shot.crop((int(r["x"]), int(r["y"]), int(r["x"] + r["w"]), int(r["y"] + r["h"])))
        ink = [1 if p < 128 else 0 for p in crop.resize((16, 16)).tobytes()]
        assert 12 <= sum(ink) <= 200, f"{r['c']}: {sum(ink)} dark cells of 256 (blank or a filled box)"
        glyphs.append(ink)
    for i in range(len(glyphs)):
        for j in range(i + 1, len(glyphs)):
            differ = sum(a != b for a, b in zip(glyphs[i], glyphs[j]))
            assert differ >= 10, f"{chars[i]} and {chars[j]} are drawn alike (tofu?)"


def test_deid_only_page_exports_code_point_offsets(browser, built):
    """Without --original: one pane, nothing original embedded, corrections on the de-identified
    text; an astral Han character (U+2000B, two UTF-16 units) before a span must not shift its
    exported offsets (Python counts code points)."""
    folder = built[0]
    deid = "病人 陳𠀋同 於 110/9/11 來診, 住 竹北市."
    reps = [{"label": "PATIENT", "source": "ner", "start": 3, "end": 6, "out_start": 3, "out_end": 6,
             "surrogate": "陳𠀋同"},
            {"label": "DATE", "source": "date", "start": 9, "end": 17, "out_start": 9, "out_end": 17,
             "surrogate": "110/9/11"}]
    assert deid[3:6] == "陳𠀋同" and deid[9:17] == "110/9/11"
    out, html = folder / "astral.jsonl", folder / "astral.html"
    out.write_text(json.dumps({"id": "x1", "patient_id": "p1", "text": deid, "replacements": reps},
                              ensure_ascii=False) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["review", str(out), "--html", str(html)])
    assert result.exit_code == 0, result.output
    _open(browser, html)
    assert "no original text is embedded" in browser.find_element(By.ID, "banner").text
    assert not browser.find_elements(By.CSS_SELECTOR, '.text[data-side="orig"]')
    assert [m.get_attribute("textContent") for m in _marks(browser, "deid")] == ["陳𠀋同", "110/9/11"]
    _select_text(browser, "deid", "竹北市")
    Select(browser.find_element(By.ID, "popup-label")).select_by_value("CITY")
    browser.find_element(By.ID, "popup-apply").click()
    for old in browser.downloads.glob("*"):
        old.unlink()
    browser.find_element(By.ID, "download").click()
    path = _wait_file(browser.downloads / "corrections.jsonl")
    [record] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    start = deid.index("竹北市")
    assert record["text"] == deid
    assert [(s["start"], s["end"], s["label"], s["text"]) for s in record["spans"]] == [
        (3, 6, "PATIENT", "陳𠀋同"), (9, 17, "DATE", "110/9/11"), (start, start + 3, "CITY", "竹北市")]
