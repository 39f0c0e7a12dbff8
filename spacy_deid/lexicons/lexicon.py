"""Loading and splitting of the packaged lexicons (`lexicons/data/<name>.json`).

File layout: `{"name", "source", "licence", "key": [fields], "fields": {field: description}, "entries": [...]}`.
`key` names the fields that make an entry unique (`["zh", "city"]` for districts: 東區 is a district of
several cities); its first field is the entry's surface form, which also decides the split, so a string
that occurs in several entries lands on one side only and never leaks from held-out into training.
"""
import hashlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Dict, Iterator, List, Optional, Tuple

PARTS = ("train", "heldout", "all")
# Share of surface forms in the training part. 80/20 keeps enough held-out values for every lexicon
# (the smallest has ~40 entries) while leaving training most of the variety.
TRAIN_PERCENT = 80
_REQUIRED = ("name", "source", "licence", "fields", "entries")


class LexiconError(ValueError):
    """A lexicon that is missing or malformed; names the lexicon and entry index."""


def _bucket(surface: str) -> int:
    """Stable 0..99 bucket of a surface string (sha1, never Python's salted hash())."""
    digest = hashlib.sha1(surface.encode("utf-8")).hexdigest()
    return int(digest[:8], 16) % 100


class Lexicon:
    """One value list: metadata plus entries (plain dicts; treat them as read-only, they are cached)."""

    def __init__(self, name: str, source: str, licence: str, fields: Dict[str, str],
                 entries: List[Dict[str, Any]], key: Optional[List[str]] = None):
        self.name = name
        self.source = source
        self.licence = licence
        self.fields = dict(fields)
        self.entries = entries
        self.key: Tuple[str, ...] = tuple(key or [next(iter(fields))])
        self._validate()
        self._parts: Dict[str, List[Dict[str, Any]]] = {}

    @property
    def primary(self) -> str:
        """The field holding the entry's surface form (`text` or `zh`)."""
        return self.key[0]

    def _validate(self) -> None:
        if not self.entries:
            raise LexiconError(f"lexicon {self.name!r} has no entries")
        for f in self.key:
            if f not in self.fields:
                raise LexiconError(f"lexicon {self.name!r}: key field {f!r} is not declared in 'fields'")
        seen = set()
        for i, entry in enumerate(self.entries):
            if not isinstance(entry, dict):
                raise LexiconError(f"lexicon {self.name!r} entry {i} is not an object")
            unknown = set(entry) - set(self.fields)
            if unknown:
                raise LexiconError(f"lexicon {self.name!r} entry {i} has undeclared fields {sorted(unknown)}")
            try:
                k = tuple(entry[f] for f in self.key)
            except KeyError as err:
                raise LexiconError(f"lexicon {self.name!r} entry {i} lacks key field {err.args[0]!r}") from None
            if not all(isinstance(v, str) and v for v in k):
                raise LexiconError(f"lexicon {self.name!r} entry {i} has an empty key field")
            if k in seen:
                raise LexiconError(f"lexicon {self.name!r} entry {i} duplicates an earlier entry")
            seen.add(k)

    def split(self, part: str = "all") -> List[Dict[str, Any]]:
        """Entries of `part` ('train', 'heldout' or 'all'); deterministic across runs and machines."""
        if part not in PARTS:
            raise ValueError(f"Unknown lexicon part {part!r}; expected one of {PARTS}")
        if part == "all":
            return self.entries
        if part not in self._parts:
            train = [e for e in self.entries if _bucket(e[self.primary]) < TRAIN_PERCENT]
            heldout = [e for e in self.entries if _bucket(e[self.primary]) >= TRAIN_PERCENT]
            self._parts = {"train": train, "heldout": heldout}
        return self._parts[part]

    def values(self, field: str = "text", part: str = "all") -> List[str]:
        """Distinct non-empty values of `field`, in file order.

        `field="text"` means the surface field: `text` where the lexicon has one, else its primary key
        field (`zh`), so callers can ask every lexicon for its surface forms the same way.
        """
        if field == "text" and "text" not in self.fields:
            field = self.primary
        if field not in self.fields:
            raise KeyError(f"lexicon {self.name!r} has no field {field!r}; fields: {sorted(self.fields)}")
        out: List[str] = []
        seen = set()
        for entry in self.split(part):
            value = entry.get(field)
            if isinstance(value, str) and value and value not in seen:
                seen.add(value)
                out.append(value)
        return out

    def strings(self, part: str = "all") -> Iterator[str]:
        """Every string an entry of `part` holds, in any field, list items included (with repeats):
        what a list that must hold no value of this lexicon is checked against."""
        for entry in self.split(part):
            for value in entry.values():
                for item in value if isinstance(value, list) else (value,):
                    if isinstance(item, str):
                        yield item

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self.entries)} entries)"


def _data_dir():
    return resources.files("spacy_deid.lexicons").joinpath("data")


@lru_cache(maxsize=None)
def names() -> Tuple[str, ...]:
    """Names of the packaged lexicons, sorted."""
    return tuple(sorted(p.name[:-5] for p in _data_dir().iterdir() if p.name.endswith(".json")))


@lru_cache(maxsize=None)
def load(name: str) -> Lexicon:
    """The packaged lexicon `name` (cached: one object per process)."""
    if name not in names():
        raise LexiconError(f"Unknown lexicon {name!r}; available: {', '.join(names())}")
    raw = _data_dir().joinpath(f"{name}.json").read_text(encoding="utf-8")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as err:
        raise LexiconError(f"lexicon {name!r} is not valid JSON (line {err.lineno})") from None
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise LexiconError(f"lexicon {name!r} lacks {missing}")
    if data["name"] != name:
        raise LexiconError(f"lexicon file {name!r} declares name {data['name']!r}")
    return Lexicon(data["name"], data["source"], data["licence"], data["fields"], data["entries"],
                   data.get("key"))
