"""Code lines of Python files: lines that hold a token other than a comment, and are no docstring's.

    python scripts/code_lines.py [FILE ...]

Without files, the recognition core's heuristic modules (`HEURISTIC_MODULES`: the passes that hold
hand-written name and place knowledge, and the predicates they share), the count issue 44 asks to halve
(most under `refine/` since the forty-eighth session, at the package's top before); run it on a checkout of
an older commit (`git archive COMMIT spacy_deid | tar -x -C DIR`) to compare. At the issue's
filing (5757144^) the heuristic modules of the time counted 2,067.
"""
import ast
import io
import sys
import tokenize
from pathlib import Path
from typing import Iterable, Set

HEURISTIC_MODULES = (
    "refine/spanshape.py", "refine/spanedges.py", "refine/institutions.py", "departments.py",
    "refine/relations.py", "refine/cued_names.py", "overlap.py", "refine/propagate.py", "refine/name_parts.py",
    "predicates.py", "place_names_zh.py", "cues/people.py")
_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


def _docstring_lines(tree: ast.AST) -> Set[int]:
    lines: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(source: str) -> int:
    """How many lines of `source` hold code (not blank, not only a comment, not a docstring)."""
    docstrings = _docstring_lines(ast.parse(source))
    code: Set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _SKIPPED:
            code.update(line for line in range(token.start[0], token.end[0] + 1) if line not in docstrings)
    return len(code)


def main(paths: Iterable[str]) -> None:
    paths = list(paths) or [str(Path(__file__).resolve().parents[1] / "spacy_deid" / m) for m in HEURISTIC_MODULES]
    total = 0
    for path in paths:
        count = code_lines(Path(path).read_text(encoding="utf8"))
        total += count
        print(f"{count:6d}  {path}")
    print(f"{total:6d}  total")


if __name__ == "__main__":
    main(sys.argv[1:])
