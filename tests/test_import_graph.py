"""The package's imports form no cycle, and no package import hides inside a function to dodge one.

Read from the source with `ast` (nothing is imported): an edge for every `import` of a package module,
at module level or in a function (not those under `if TYPE_CHECKING:`, which never run). A lazy import is allowed only where it loads a package's names on
first use (`__init__.py`) and in the command line (`cli/`, where each command loads what it runs).
"""
import ast
from pathlib import Path
from typing import Dict, List, Set

import spacy_deid

ROOT = Path(spacy_deid.__file__).resolve().parent
PACKAGE = ROOT.name


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _target(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _graph():
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    edges: Dict[str, Set[str]] = {m: set() for m in modules}
    local: List[str] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf8"))
        in_function = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                       for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
        for_typing_only = {id(n) for block in ast.walk(tree)
                           if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                           for n in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in for_typing_only:
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _target(module, path.name == "__init__.py", node)
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            targets = [t for t in targets if t in modules and t != module]
            if not targets:
                continue
            edges[module].update(targets)
            lazy_allowed = path.name == "__init__.py" or "cli" in path.relative_to(ROOT).parts
            if id(node) in in_function and not lazy_allowed:
                local.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return edges, local


def _cycles(edges: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out: List[List[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_the_cycle_finder_finds_a_cycle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _of_one_package(component: List[str]) -> bool:
    """A package and its own submodules only: its `__init__` imports them, they import each other."""
    return all(m == component[0] or m.startswith(component[0] + ".") for m in component[1:])


def test_no_import_cycle_in_the_package():
    edges, _ = _graph()
    assert len(edges) > 100  # the whole package was read
    assert [c for c in _cycles(edges) if not _of_one_package(c)] == []


def test_no_package_import_inside_a_function():
    _, local = _graph()
    assert local == []
