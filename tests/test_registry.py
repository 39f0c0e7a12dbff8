"""Entry points: every registered name is declared in setup.cfg and found by spaCy without an import."""
import configparser
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = ROOT / "tests" / "data" / "registered_names.txt"


def _checked_in():
    rows = [l.split() for l in NAMES.read_text(encoding="utf8").splitlines() if l.strip() and not l.startswith("#")]
    return {(registry, name) for registry, name in rows}


def _declared():
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf8")
    declared = set()
    for group, body in cfg["options.entry_points"].items():
        if not group.startswith("spacy_") or group.startswith("spacy_deid_"):
            continue  # spacy_deid_* are this package's own registries (refine steps), not spaCy's
        registry = group[len("spacy_"):]
        for line in body.strip().splitlines():
            declared.add((registry, line.split("=")[0].strip()))
    return declared


def test_entry_points_match_checked_in_list():
    assert _declared() == _checked_in()


def test_spacy_finds_every_name_without_importing_spacy_deid():
    code = (
        "import sys, spacy\n"
        "from spacy.util import registry\n"
        "rows = [l.split() for l in open(sys.argv[1], encoding='utf8') if l.strip() and not l.startswith('#')]\n"
        "missing = []\n"
        "for reg, name in rows:\n"
        "    if reg == 'factories':\n"
        "        ok = spacy.blank('xx').add_pipe(name).__class__.__module__.startswith('spacy_deid.')\n"
        "    else:\n"
        "        ok = registry.has(reg, name)\n"
        "    if not ok: missing.append((reg, name))\n"
        "print(missing, 'spacy_deid' in sys.modules)\n"
        "sys.exit(1 if missing else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(NAMES)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_blank_config_pipeline_builds_from_names_alone():
    import spacy

    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.CodeMixedTokenizer.v1"}}})
    nlp.add_pipe("deid", config={"surrogates": False})
    nlp.initialize()
    doc = nlp("身分證字號 A123456789, 於110.12.25入院")
    assert {e.label_ for e in doc.ents} == {"ID_NUMBER", "DATE"}
