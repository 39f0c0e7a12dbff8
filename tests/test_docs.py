"""docs/architecture.md stays a map a newcomer can read: every module and package of the package is
named in it, and no table row runs over 400 characters (the detail lives in the modules' docstrings)."""
from pathlib import Path

import spacy_deid

ROOT = Path(spacy_deid.__file__).resolve().parent
ARCHITECTURE = ROOT.parent / "docs" / "architecture.md"


def test_every_module_and_package_is_on_the_map():
    text = ARCHITECTURE.read_text(encoding="utf8")
    names = [p.name for p in ROOT.glob("*.py") if p.name not in ("__init__.py", "about.py")]
    names += [f"{p.name}/" for p in ROOT.iterdir()
              if p.is_dir() and (p / "__init__.py").exists()]
    missing = [name for name in names if f"`{name}`" not in text and f"`spacy_deid/{name}`" not in text]
    assert missing == []


def test_no_table_row_is_over_400_characters():
    rows = [line for line in ARCHITECTURE.read_text(encoding="utf8").splitlines() if line.startswith("|")]
    assert rows and max(len(row) for row in rows) <= 400
