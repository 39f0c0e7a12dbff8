"""Reading pattern files: the shipped defaults (package data) or a hospital's own JSON/YAML files.

A file holds `{"description": ..., "fragments": {...}, "patterns": [rule, ...]}` or a bare list of rules.
A directory means all its `*.json`/`*.yml`/`*.yaml` files in name order. Rule ids are unique within a set;
a later set (extra patterns from `[initialize.components.deid_rules]`) replaces a rule with the same id, so
a hospital can tighten one default rule without copying the others.

`fragments` names a regex shared by several rules (a list of department abbreviations); a pattern writes
`{{NAME}}` where it stands, and gets it as a non-capturing group; a fragment may name others the same way
(an address's last line built on the states' codes). Fragments are shared by every file of a set (the
shipped files, or one folder), so one list serves rules in several files; rules keep the expanded
pattern, so a saved pipeline does not depend on the files.
"""
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Sequence, Tuple, Union

from .rule import PatternRule, RuleError, rules_from_list

DEFAULT = "default"
_SUFFIXES = (".json", ".yml", ".yaml")


def _parse(text: str, suffix: str, source: str) -> Any:
    if suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise RuleError(f"{source}: invalid JSON at line {err.lineno}") from None
    try:
        import yaml  # type: ignore[import-not-found]
    except ImportError:
        raise RuleError(f"{source}: YAML pattern files need PyYAML (pip install pyyaml); "
                        "or write the file as JSON") from None
    return yaml.safe_load(text)


_FRAGMENT_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FRAGMENT_REF_RE = re.compile(r"\{\{(" + _FRAGMENT_NAME_RE.pattern + r")\}\}")
# (source, its rule dicts, its fragments): one parsed file.
_ParsedFile = Tuple[str, List[Any], Dict[str, str]]


def _contents_of(data: Any, source: str) -> _ParsedFile:
    fragments: Dict[str, str] = {}
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"description", "fragments", "patterns"})
        if unknown:
            raise RuleError(f"{source}: unknown top-level key(s) {unknown}; "
                            "allowed: description, fragments, patterns")
        fragments = data.get("fragments") or {}
        if not isinstance(fragments, dict) or not all(
                isinstance(k, str) and _FRAGMENT_NAME_RE.fullmatch(k) and isinstance(v, str) and v
                for k, v in fragments.items()):
            raise RuleError(f"{source}: `fragments` must map names (letters, digits, _) to non-empty regexes")
        data = data.get("patterns", [])
    if not isinstance(data, list):
        raise RuleError(f"{source}: expected a list of pattern rules")
    return source, data, dict(fragments)


def _shared_fragments(files: Sequence[_ParsedFile]) -> Dict[str, str]:
    shared: Dict[str, str] = {}
    for source, _, fragments in files:
        for name, regex in fragments.items():
            if shared.get(name, regex) != regex:
                raise RuleError(f"{source}: fragment {name!r} is defined differently in another file of the set")
            shared[name] = regex
    return {name: _resolved(name, shared, ()) for name in shared}


def _resolved(name: str, fragments: Dict[str, str], seen: Tuple[str, ...]) -> str:
    """A fragment with the fragments it names written in, so one fragment can build on another."""
    if name in seen:
        raise RuleError(f"fragment {name!r} names itself through {' -> '.join(seen + (name,))}")

    def inner(match: "re.Match[str]") -> str:
        if match.group(1) not in fragments:
            raise RuleError(f"fragment {name!r}: unknown fragment {{{{{match.group(1)}}}}}; "
                            f"defined: {sorted(fragments)}")
        return f"(?:{_resolved(match.group(1), fragments, seen + (name,))})"

    return _FRAGMENT_REF_RE.sub(inner, fragments[name])


def _expand(item: Any, fragments: Dict[str, str], source: str) -> Any:
    pattern = item.get("pattern") if isinstance(item, dict) else None
    if not isinstance(pattern, str) or "{{" not in pattern:
        return item

    def fragment(match: "re.Match[str]") -> str:
        name = match.group(1)
        if name not in fragments:
            raise RuleError(f"rule {item.get('id')!r} in {source}: unknown fragment {{{{{name}}}}}; "
                            f"defined: {sorted(fragments) or 'none'}")
        return f"(?:{fragments[name]})"

    return {**item, "pattern": _FRAGMENT_REF_RE.sub(fragment, pattern)}


def _rules_of_set(files: Sequence[_ParsedFile]) -> List[PatternRule]:
    """Rules of files read together: fragments of any file serve every file's rules."""
    fragments = _shared_fragments(files)
    rules: List[PatternRule] = []
    for source, items, _ in files:
        rules.extend(rules_from_list([_expand(item, fragments, source) for item in items], source=source))
    return check_unique(rules)


def default_pattern_files() -> List[str]:
    """Names of the shipped pattern files, in load order."""
    folder = resources.files("spacy_deid") / "resources" / "patterns"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(_SUFFIXES))


def _default_files() -> List[_ParsedFile]:
    folder = resources.files("spacy_deid") / "resources" / "patterns"
    files = []
    for name in default_pattern_files():
        text = (folder / name).read_text(encoding="utf8")
        source = f"default patterns/{name}"
        files.append(_contents_of(_parse(text, Path(name).suffix, source), source))
    return files


def load_default_patterns() -> List[PatternRule]:
    return _rules_of_set(_default_files())


@lru_cache(maxsize=1)
def _default_fragments() -> Dict[str, str]:
    return _shared_fragments(_default_files())


def default_fragment(name: str) -> str:
    """A fragment of the shipped files (`DEPT_ABBR`), for code that must read the same vocabulary; the
    files are read once."""
    fragments = _default_fragments()
    if name not in fragments:
        raise KeyError(f"no fragment {name!r} in the shipped patterns; defined: {sorted(fragments)}")
    return fragments[name]


def load_pattern_path(path: Union[str, Path]) -> List[PatternRule]:
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in _SUFFIXES)
    elif path.exists():
        files = [path]
    else:
        raise RuleError(f"pattern file or folder not found: {path}")
    return _rules_of_set([_contents_of(_parse(file.read_text(encoding="utf8"), file.suffix, str(file)), str(file))
                          for file in files])


def load_patterns(spec: Union[str, Path]) -> List[PatternRule]:
    """`"default"` (the shipped files), `""` (no patterns) or a path to a file or folder."""
    if spec == DEFAULT:
        return load_default_patterns()
    if spec in ("", None):
        return []
    return load_pattern_path(spec)


def check_unique(rules: Sequence[PatternRule]) -> List[PatternRule]:
    seen = set()
    for rule in rules:
        if rule.id in seen:
            raise RuleError(f"duplicate pattern rule id {rule.id!r}")
        seen.add(rule.id)
    return list(rules)


def override(base: Sequence[PatternRule], extra: Iterable[Union[PatternRule, Dict[str, Any]]]) -> List[PatternRule]:
    """`base` with `extra` added; an extra rule whose id exists replaces that rule in place."""
    extra_rules = [r if isinstance(r, PatternRule) else PatternRule.from_dict(r) for r in extra]
    check_unique(extra_rules)
    by_id = {r.id: r for r in extra_rules}
    out = [by_id.pop(r.id, r) for r in base]
    out.extend(r for r in extra_rules if r.id in by_id)
    return out
