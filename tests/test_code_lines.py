"""scripts/code_lines.py: the count of code lines that issue 44 compares (no blank, comment or docstring line)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "code_lines.py"
_spec = importlib.util.spec_from_file_location("code_lines", SCRIPT)
code_lines_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(code_lines_module)

SOURCE = '''"""A module's docstring,
on two lines."""
import re  # a comment after code counts as code

# a comment alone


def f(x):
    """A function's docstring."""
    text = """a string that is
    no docstring"""
    return (x,
            text)
'''


def test_counts_code_and_leaves_out_docstrings_comments_and_blanks():
    # import, def, the two lines of the assigned string, the return's two lines
    assert code_lines_module.code_lines(SOURCE) == 6


def test_without_files_it_counts_the_heuristic_modules(tmp_path):
    out = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=True).stdout
    lines = out.strip().splitlines()
    assert len(lines) == len(code_lines_module.HEURISTIC_MODULES) + 1 and lines[-1].endswith("total")
    assert int(lines[-1].split()[0]) == sum(int(line.split()[0]) for line in lines[:-1]) > 0
