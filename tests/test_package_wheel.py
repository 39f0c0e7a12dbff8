"""The deployment path end to end: train -> `spacy-deid assemble` -> `spacy package --build wheel` ->
install the wheel into a FRESH virtualenv -> `spacy.load("xx_deid_test")` de-identifies a note.

Nothing in the user's code mentions spacy-deid: the wheel's config names the tokenizer and the
`deid` factory, which spaCy finds through spacy-deid's installed entry points, and the wheel's
METADATA requires spacy-deid so pip brings it along.

The fresh venv must see spaCy and spacy-deid without downloading them. `--system-site-packages` is
no help when the tests themselves run in a venv (it exposes the BASE interpreter's site-packages,
not this venv's), so the fresh venv gets a `.pth` file that calls `site.addsitedir()` on this
interpreter's site-packages: an `import` line in a .pth is executed at start-up, and `addsitedir`
(unlike a bare path line) also processes the .pth files found there, which an editable install of
spacy-deid needs for its import hook. The wheel itself is installed into the fresh venv with
`pip --python <venv python> install --no-deps --no-index`, and its requirements are then checked
against what that venv sees (what `pip install` would resolve without a download).
"""
import email
import hashlib
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
import spacy
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.knowledge.steps import TAGGER_NOTE_STEPS
from spacy_deid.refine import DEFAULT_NOTE_STEPS

from helpers.tiny_pipeline import train_tiny_ner

pytestmark = pytest.mark.slow

PACKAGE = "deid_test"
VERSION = "0.0.1"
MODULE = f"xx_{PACKAGE}"
KEY = "wheel-test-key-7f3a9c2e51b84d06"  # a test key; must never end up inside the wheel

NOTE = ("病患王小明 (A123456789), 54歲男性, admitted on 112.03.14 via ER.\n"
        "He was seen at 台大醫院 OPD on 2023/02/01; 聯絡電話 0912-345-678, MRN 7654321.\n"
        "Discharged 112年3月20日 after CT, f/u at 心臟內科.\n")

# PHI that the rules and dates inside `deid` find whatever the (barely trained) NER does
RULE_AND_DATE_PHI = [
    ("A123456789", "ID_NUMBER"),
    ("112.03.14", "DATE"),
    ("2023/02/01", "DATE"),
    ("0912-345-678", "PHONE"),
    ("7654321", "MEDICAL_RECORD"),
    ("112年3月20日", "DATE"),
]

# Runs inside the fresh venv: plain spaCy, nothing else imported by the user.
PROBE = r"""
import hashlib, json, sys
from importlib import metadata
from packaging.requirements import Requirement
import spacy
import {module}

nlp = spacy.load("{module}")
doc = nlp(sys.stdin.read())
unmet = []
for line in metadata.requires("{dist}") or []:
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate():
        continue
    try:
        version = metadata.version(req.name)
    except metadata.PackageNotFoundError:
        unmet.append(line + " (missing)")
        continue
    if not req.specifier.contains(version, prereleases=True):
        unmet.append(line + " (have " + version + ")")
print(json.dumps({{
    "package_file": {module}.__file__,
    "prefix": sys.prefix,
    "pipe_names": nlp.pipe_names,
    "weights": {{name: hashlib.sha256(nlp.get_pipe(name).model.to_bytes()).hexdigest()
                 for name in ("tok2vec", "ner")}},
    "deid_text": doc._.deid_text,
    "replacements": doc._.replacements,
    "unmet": unmet,
}}))
"""


def outer_site_dirs():
    """The site-packages of the interpreter running the tests (where spaCy and spacy-deid live)."""
    import site

    dirs = list(site.getsitepackages())
    user = site.getusersitepackages()
    if site.ENABLE_USER_SITE and os.path.isdir(user):
        dirs.append(user)
    return [d for d in dirs if os.path.isdir(d)]


def make_fresh_venv(path: Path) -> Path:
    """A venv from the base interpreter, seeing this interpreter's packages through a .pth file."""
    venv.EnvBuilder(with_pip=False, clear=True).create(path)
    python = path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site_dir = subprocess.run([str(python), "-I", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
    lines = [f"import site; site.addsitedir({d!r})" for d in outer_site_dirs()]
    Path(site_dir, "_outer_env.pth").write_text("\n".join(lines) + "\n", encoding="utf8")
    return python


def run(cmd, **kwargs):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{cmd[:4]} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "SPACY_DEID_KEY")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Train, assemble (the CLI), package as a wheel; return the paths."""
    # spaCy runs `python -m build --wheel` (isolated: fetches setuptools from the index), else falls
    # back to `setup.py bdist_wheel` (offline: needs setuptools and wheel installed)
    if not (_installed("build") or (_installed("wheel") and _installed("setuptools"))):
        pytest.fail("`spacy package --build wheel` needs 'build', or 'setuptools' and 'wheel': "
                    "pip install setuptools wheel")
    tmp = tmp_path_factory.mktemp("wheel")
    model, pipeline, packages = tmp / "model", tmp / "pipeline", tmp / "packages"
    train_tiny_ner().to_disk(model)
    result = CliRunner().invoke(app, ["assemble", str(model), str(pipeline), "--recall-bias", "0.5"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    # the operating point project.yml passes is saved with the NER (and the weights are as trained)
    config = spacy.util.load_config(pipeline / "config.cfg")["components"]
    assert config["ner"]["recall_bias"] == 0.5
    # the taggers' tags also vote after the NER: the knowledge steps close the default note steps
    assert config["deid"]["note_steps"] == list(DEFAULT_NOTE_STEPS) + list(TAGGER_NOTE_STEPS)
    # the training run's files (here the test's temporary vectors) are not named in what ships
    assert spacy.util.load_config(model / "config.cfg")["paths"]["vectors"] is not None
    assert all(value is None for value in spacy.util.load_config(pipeline / "config.cfg")["paths"].values())
    packages.mkdir()
    run([sys.executable, "-m", "spacy", "package", pipeline, packages, "--name", PACKAGE,
         "--version", VERSION, "--build", "wheel"], cwd=tmp, env=clean_env())
    wheels = sorted(packages.glob(f"*/dist/{MODULE}-{VERSION}-*.whl"))
    assert len(wheels) == 1, f"expected one wheel, found {wheels}"
    return {"tmp": tmp, "pipeline": pipeline, "wheel": wheels[0]}


def _installed(dist: str) -> bool:
    from importlib import metadata

    try:
        metadata.version(dist)
        return True
    except metadata.PackageNotFoundError:
        return False


@pytest.fixture(scope="module")
def probe(built):
    """Install the wheel into a fresh venv and de-identify NOTE there with `spacy.load` alone."""
    tmp = built["tmp"]
    python = make_fresh_venv(tmp / "venv")
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", "-q", built["wheel"]], cwd=tmp, env=clean_env())
    # -I: no cwd, PYTHONPATH or user site on sys.path; run outside the repository so spacy_deid can
    # only come from its installed distribution (the .pth), entry points included
    proc = run([python, "-I", "-c", PROBE.format(module=MODULE, dist=MODULE.replace("_", "-"))],
               input=NOTE, cwd=tmp, env=clean_env(SPACY_DEID_KEY=KEY), timeout=300)
    return json.loads(proc.stdout.strip().splitlines()[-1]), tmp / "venv"


def test_wheel_metadata_requires_spacy_deid(built):
    with zipfile.ZipFile(built["wheel"]) as whl:
        meta_name = next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(whl.read(meta_name))
    requires = {canonicalize_name(req.name): req
                for req in map(Requirement, meta.get_all("Requires-Dist") or [])}
    assert "spacy-deid" in requires, requires
    assert str(requires["spacy-deid"].specifier).startswith(">="), requires
    # the pipeline reads the pretrained taggers (configs/cpu.cfg): pip brings the extra that has them
    assert requires["spacy-deid"].extras == {"knowledge"}, requires
    assert "spacy" in requires, requires


def test_wheel_holds_no_key(built):
    with zipfile.ZipFile(built["wheel"]) as whl:
        for name in whl.namelist():
            assert KEY.encode() not in whl.read(name), name


def test_loaded_from_the_fresh_venv(probe):
    result, venv_dir = probe
    assert Path(result["prefix"]).resolve() == venv_dir.resolve()
    assert Path(result["package_file"]).resolve().is_relative_to(venv_dir.resolve())
    assert result["pipe_names"] == ["knowledge", "tok2vec", "ner", "deid"]
    assert result["unmet"] == [], "the wheel's requirements are not met by the installed packages"


@pytest.mark.parametrize("phi,label", RULE_AND_DATE_PHI)
def test_phi_replaced_in_fresh_venv(probe, phi, label):
    result, _ = probe
    found = [r for r in result["replacements"] if NOTE[r["start"]:r["end"]] == phi]
    assert [r["label"] for r in found] == [label]
    assert phi not in result["deid_text"]


def test_replacement_offsets_in_fresh_venv(probe):
    result, _ = probe
    out = result["deid_text"]
    assert result["replacements"], "nothing was replaced"
    for rep in result["replacements"]:
        assert out[rep["out_start"]:rep["out_end"]] == rep["surrogate"]
        original = NOTE[rep["start"]:rep["end"]]
        if rep["operator"] == "keep":  # the policy's choice (ages below the cap), stated in the record
            assert rep["surrogate"] == original
        else:
            assert rep["surrogate"] != original, rep["label"]
    assert out != NOTE


def test_wheel_matches_the_pipeline_folder(built, probe, monkeypatch):
    """The installed wheel carries the same weights and gives the same output as the folder."""
    result, _ = probe
    monkeypatch.setenv("SPACY_DEID_KEY", KEY)
    nlp = spacy.load(built["pipeline"])
    doc = nlp(NOTE)
    weights = {name: hashlib.sha256(nlp.get_pipe(name).model.to_bytes()).hexdigest()
               for name in ("tok2vec", "ner")}
    assert result["weights"] == weights
    assert result["deid_text"] == doc._.deid_text
    assert result["replacements"] == doc._.replacements
