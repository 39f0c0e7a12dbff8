"""`scripts/build_places.py` as a module, for the tests that compare its output with the shipped files."""
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "build_places.py"


def load_build_places() -> ModuleType:
    """The script, or a skip where it cannot reproduce the files: no Babel (the script's only
    dependency; using the files does not need it), no scripts/ folder (an installed package), or
    another Babel release than the files were written with (CLDR data differs by release)."""
    babel = pytest.importorskip("babel")
    if not SCRIPT.exists():
        pytest.skip("scripts/ is not part of an installed package")
    spec = importlib.util.spec_from_file_location("build_places", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if babel.__version__ != module.BABEL_VERSION:
        pytest.skip(f"the files were written with Babel {module.BABEL_VERSION} (CLDR data differs by version)")
    return module
