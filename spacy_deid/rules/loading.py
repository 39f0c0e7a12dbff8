"""Reading pattern files: the shipped defaults (package data) or a hospital's own JSON/YAML files.

A file holds `{"description": ..., "patterns": [rule, ...]}` or a bare list of rules. A directory means
all its `*.json`/`*.yml`/`*.yaml` files in name order. Rule ids are unique within a set; a later set
(extra patterns from `[initialize.components.deid_rules]`) replaces a rule with the same id, so a
hospital can tighten one default rule without copying the others.
"""
import json
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Iterable, List, Sequence, Union

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


def _rules_of(data: Any, source: str) -> List[PatternRule]:
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"description", "patterns"})
        if unknown:
            raise RuleError(f"{source}: unknown top-level key(s) {unknown}; allowed: description, patterns")
        data = data.get("patterns", [])
    if not isinstance(data, list):
        raise RuleError(f"{source}: expected a list of pattern rules")
    return rules_from_list(data, source=source)


def default_pattern_files() -> List[str]:
    """Names of the shipped pattern files, in load order."""
    folder = resources.files("spacy_deid") / "resources" / "patterns"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(_SUFFIXES))


def load_default_patterns() -> List[PatternRule]:
    folder = resources.files("spacy_deid") / "resources" / "patterns"
    rules: List[PatternRule] = []
    for name in default_pattern_files():
        text = (folder / name).read_text(encoding="utf8")
        rules.extend(_rules_of(_parse(text, Path(name).suffix, name), f"default patterns/{name}"))
    return check_unique(rules)


def load_pattern_path(path: Union[str, Path]) -> List[PatternRule]:
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in _SUFFIXES)
    elif path.exists():
        files = [path]
    else:
        raise RuleError(f"pattern file or folder not found: {path}")
    rules: List[PatternRule] = []
    for file in files:
        rules.extend(_rules_of(_parse(file.read_text(encoding="utf8"), file.suffix, str(file)), str(file)))
    return check_unique(rules)


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
