"""Cue lists (`synth/templates/*.cues`): interchangeable context phrases that templates draw from.

A template slot `{C_NAME}` is filled with one phrase of cue list NAME, chosen from the phrases of the
corpus's split, so one sentence frame yields many contexts and a held-out corpus meets context
words the training corpus never had. A phrase may itself contain slots (`案父{FAMILY_ZH}`,
`{C_FAMREL_EN} {FAMILY_EN}`), rendered recursively, so relation words, titles and names combine.
File format: `[NAME]` starts a list, then one `T <phrase>` (train) or `H <phrase>` (held-out) per
line; `#` starts a comment; `\\n` in a phrase starts a new note line. `T @list:NAME` adds every word of
the packaged word list NAME (`spacy_deid/resources/word_lists`) as a phrase: the words the refine stage's
cue rules read at a span's edges (a preposition before a place, an activity after it, a kinship word
before a name) are then the words the training frames write there, so the NER learns those edges from
the same data the rules hold (`templates/rules.cues`).
"""
import re
from functools import lru_cache
from importlib import resources
from typing import Dict, List, Tuple, Union

from ..wordlists import default_word_lists
from .slots import SLOTS, Context, Piece

_SLOT_RE = re.compile(r"\{([A-Z_]+)\}")
_NAME_RE = re.compile(r"[A-Z][A-Z0-9_]*")
_WORD_LIST_RE = re.compile(r"@list:([a-z][a-z0-9_]*)")
Part = Union[str, Tuple[str]]


class CueError(ValueError):
    """A malformed cue file; names file and line."""


def _parts(text: str) -> Tuple[Part, ...]:
    parts: List[Part] = []
    pos = 0
    for m in _SLOT_RE.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        parts.append((m.group(1),))
        pos = m.end()
    if pos < len(text):
        parts.append(text[pos:])
    return tuple(parts)


def parse_cues(content: str, source: str) -> Dict[str, Dict[str, List[Tuple[Part, ...]]]]:
    """{list name: {"train": [phrase parts], "heldout": [...]}} of one cue file."""
    out: Dict[str, Dict[str, List[Tuple[Part, ...]]]] = {}
    name = None
    for lineno, raw in enumerate(content.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            if not _NAME_RE.fullmatch(name):
                raise CueError(f"{source} line {lineno}: cue list names are upper case, got {name!r}")
            out.setdefault(name, {"train": [], "heldout": []})
            continue
        mark, _, phrase = raw.lstrip().partition(" ")
        if mark not in ("T", "H") or name is None or not phrase:
            raise CueError(f"{source} line {lineno}: expected '[NAME]' then 'T|H phrase'")
        # Leading/trailing spaces are kept only when escaped as \s, so phrases can glue or space.
        phrase = phrase.rstrip("\n").replace("\\n", "\n").replace("\\s", " ")
        split = out[name]["train" if mark == "T" else "heldout"]
        listed = _WORD_LIST_RE.fullmatch(phrase.strip())
        if listed is None:
            split.append(_parts(phrase))
        elif listed.group(1) in default_word_lists().names:
            split.extend((word,) for word in default_word_lists().words(listed.group(1)))
        else:
            raise CueError(f"{source} line {lineno}: no word list {listed.group(1)!r} "
                           "(spacy_deid/resources/word_lists)")
    return out


def _dir():
    return resources.files("spacy_deid.synth").joinpath("templates")


@lru_cache(maxsize=None)
def all_cues() -> Dict[str, Dict[str, Tuple[Tuple[Part, ...], ...]]]:
    """Every packaged cue list; a list must have phrases in both splits, names are unique."""
    merged: Dict[str, Dict[str, List[Tuple[Part, ...]]]] = {}
    for entry in sorted(_dir().iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".cues"):
            for name, splits in parse_cues(entry.read_text(encoding="utf-8"), entry.name).items():
                if name in merged:
                    raise CueError(f"{entry.name}: cue list {name} defined twice")
                merged[name] = splits
    for name, splits in merged.items():
        if not splits["train"] or not splits["heldout"]:
            raise CueError(f"cue list {name} needs phrases in both splits")
    return {k: {s: tuple(v) for s, v in d.items()} for k, d in merged.items()}


def _render(parts: Tuple[Part, ...], ctx: Context) -> List[Piece]:
    pieces: List[Piece] = []
    for part in parts:
        if isinstance(part, tuple):
            pieces.extend(SLOTS[part[0]](ctx))
        else:
            pieces.append((part, None, None))
    return pieces


def _cue_slot(name: str):
    def fill(ctx: Context) -> List[Piece]:
        return _render(ctx.rng.choice(all_cues()[name][ctx.pools.part]), ctx)
    return fill


def register_cues() -> None:
    """Add a `C_<NAME>` slot per cue list, then check every slot a phrase names exists."""
    cues = all_cues()
    for name in cues:
        SLOTS[f"C_{name}"] = _cue_slot(name)
    for name, splits in cues.items():
        for phrases in splits.values():
            for parts in phrases:
                unknown = [p[0] for p in parts if isinstance(p, tuple) and p[0] not in SLOTS]
                if unknown:
                    raise CueError(f"cue list {name}: unknown slot(s) {unknown}")
