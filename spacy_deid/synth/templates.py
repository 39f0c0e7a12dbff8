"""Template files (`synth/templates/*.txt`) and note layouts (`notes.json`): the data the generator reads.

Templates are data, values come from lexicons, and both are split: a template line starts with `T`
(train) or `H` (held-out), so a held-out corpus is written with sentence frames the model never saw.
`F` (fresh) marks frames written by an author who never saw the rules, and from whose errors no rule
is written: the held-out split's errors were read to write rules, so its score alone flatters them.
`B` (blind) marks a second such set, by another author who read neither the rules nor any other frame
file, written when the fresh split's error counts had been read to find rule gaps (fourteenth
session): the split no one has measured anything against while writing code.
Line format: `T|H|F <id> [w=<weight>] | <text>`, `[section]` starts a section, `#` starts a comment,
`\\n` in text starts a new note line, `{SLOT}` is filled by `slots.SLOTS`.
"""
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Dict, List, Tuple, Union

from .cues import register_cues
from .slots import SLOTS

register_cues()  # C_<NAME> cue-list slots must exist before templates are checked

_SPLIT_OF_MARK = {"T": "train", "H": "heldout", "F": "fresh", "B": "blind"}
SPLITS = tuple(_SPLIT_OF_MARK.values())
# Splits of frames only, never of values: they take the held-out lexicons.
EVALUATION_ONLY_SPLITS = ("fresh", "blind")
_SLOT_RE = re.compile(r"\{([A-Z_]+)\}")
_MARKS = "".join(_SPLIT_OF_MARK)
_HEAD_RE = re.compile(f"([{_MARKS}])" + r" ([a-z0-9_.-]+)(?: w=([0-9.]+))?")


class TemplateError(ValueError):
    """A malformed template file; names file and line."""


@dataclass(frozen=True)
class Template:
    id: str
    section: str
    split: str
    weight: float
    parts: Tuple[Union[str, Tuple[str]], ...]  # literal strings and 1-tuples naming a slot

    @property
    def slots(self) -> List[str]:
        return [p[0] for p in self.parts if isinstance(p, tuple)]


def parse_template_text(text: str) -> Tuple[Union[str, Tuple[str]], ...]:
    parts: List[Union[str, Tuple[str]]] = []
    pos = 0
    for m in _SLOT_RE.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        parts.append((m.group(1),))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return tuple(parts)


def parse_file(content: str, source: str) -> List[Template]:
    out: List[Template] = []
    section = None
    for lineno, raw in enumerate(content.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        head, sep, body = raw.partition(" | ")
        m = _HEAD_RE.fullmatch(head.strip())
        if not sep or not m or section is None:
            raise TemplateError(f"{source} line {lineno}: expected '[section]' then "
                                f"'{'|'.join(_MARKS)} id [w=N] | text'")
        text = body.rstrip("\n").replace("\\n", "\n")
        parts = parse_template_text(text)
        unknown = [p[0] for p in parts if isinstance(p, tuple) and p[0] not in SLOTS]
        if unknown:
            raise TemplateError(f"{source} line {lineno}: unknown slot(s) {unknown}")
        out.append(Template(m.group(2), section, _SPLIT_OF_MARK[m.group(1)],
                            float(m.group(3) or 1.0), parts))
    return out


def _dir():
    return resources.files("spacy_deid.synth").joinpath("templates")


@lru_cache(maxsize=None)
def all_templates() -> Tuple[Template, ...]:
    """Every packaged template, in file-name then line order; ids are unique across files."""
    out: List[Template] = []
    for entry in sorted(_dir().iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".txt"):
            out.extend(parse_file(entry.read_text(encoding="utf-8"), entry.name))
    ids = [t.id for t in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise TemplateError(f"duplicate template ids: {dupes}")
    return tuple(out)


@lru_cache(maxsize=None)
def by_section(split: str) -> Dict[str, Tuple[Template, ...]]:
    """Templates of `split`, grouped by section. Sections with no template of that split fall back to
    none: every section has templates of every split (checked by the tests)."""
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; expected one of {SPLITS}")
    groups: Dict[str, List[Template]] = {}
    for t in all_templates():
        if t.split == split:
            groups.setdefault(t.section, []).append(t)
    return {k: tuple(v) for k, v in groups.items()}


@lru_cache(maxsize=None)
def note_layouts() -> Dict:
    return json.loads(_dir().joinpath("notes.json").read_text(encoding="utf-8"))
