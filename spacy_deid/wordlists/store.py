"""`WordLists`: the vocabularies the recognition steps read (kinship words, titles, ...), as data files a
knowledge engineer can edit (`resources/word_lists/*.json`), saved with a pipeline like its cue rules.

A file holds `{"description": ..., "lists": {NAME: [word, ...]}}`; a list's name ends in its language
(`kinship_zh`, `kinship_en`). List names are unique across a set. A user's file or folder
(`deid.initialize(word_lists=PATH)`) replaces the packaged file of the same name and adds the others.
The steps read the packaged lists by name, so a packaged list that no file read holds is taken from the
package (`completed`): a pipeline saved by a version that had fewer lists still loads.

WHY the compiled forms live on the set (`compiled`): the steps build regexes and sorted tuples from the
lists once per set, not per note, and two pipelines in one process keep their own.
"""
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Sequence, Tuple, Type, TypeVar, Union

FILE_KEYS = ("description", "lists")
_LIST_NAME = re.compile(r"[a-z][a-z0-9_]{0,60}")
T = TypeVar("T")


class WordListError(ValueError):
    """A word list file that cannot be used; names the file and the list (never a word: lists may be
    edited by anyone, but the error stays as plain as the pattern errors)."""


@dataclass
class WordListFile:
    """One word list file: its name (`relations.json`), what it is about, its lists."""

    name: str
    description: str = ""
    lists: Dict[str, Tuple[str, ...]] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"description": self.description} if self.description else {}
        out["lists"] = {name: list(words) for name, words in self.lists.items()}
        return out


def parse_word_list_file(data: Any, name: str, source: str) -> WordListFile:
    """A `WordListFile` from a file's parsed JSON; a WordListError names `source` and the list."""
    if not isinstance(data, dict) or not isinstance(data.get("lists"), dict):
        raise WordListError(f"{source}: a word list file is an object with a 'lists' object")
    unknown = sorted(set(data) - set(FILE_KEYS))
    if unknown:
        raise WordListError(f"{source}: unknown key(s) {unknown}; allowed: {list(FILE_KEYS)}")
    lists: Dict[str, Tuple[str, ...]] = {}
    for list_name, words in data["lists"].items():
        where = f"{source}: list {list_name!r}"
        if not _LIST_NAME.fullmatch(list_name):
            raise WordListError(f"{where}: a list name is lower-case letters, digits and underscores")
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() == w and w for w in words):
            raise WordListError(f"{where}: a list of non-empty words without outer spaces")
        if len(set(words)) != len(words):
            raise WordListError(f"{where}: {len(words) - len(set(words))} word(s) listed twice")
        lists[list_name] = tuple(words)
    return WordListFile(name, str(data.get("description", "")), lists)


def read_json_files(path: Union[str, Path], what: str, error: Type[ValueError]) -> List[Tuple[str, Any, str]]:
    """(file name, parsed JSON, source) of each file of `path`: one JSON file, or a folder's `*.json` in
    name order; `error` (naming the file) for a file that is missing, not UTF-8 or not JSON."""
    path = Path(path)
    if path.is_dir():
        paths = sorted(path.glob("*.json"))
    elif path.exists():
        paths = [path]
    else:
        raise error(f"{path}: no such {what} file or folder")
    out = []
    for one in paths:
        try:
            out.append((one.name, json.loads(one.read_text(encoding="utf8")), str(one)))
        except json.JSONDecodeError as err:
            raise error(f"{one}: not valid JSON (line {err.lineno}, column {err.colno})") from None
        except UnicodeDecodeError:
            raise error(f"{one}: not UTF-8 text") from None
    return out


def read_word_list_files(path: Union[str, Path]) -> List[WordListFile]:
    """The word list files of `path`: one JSON file, or a folder's `*.json` in name order."""
    return [parse_word_list_file(data, name, source)
            for name, data, source in read_json_files(path, "word list", WordListError)]


@lru_cache(maxsize=1)
def _default_files() -> Tuple[WordListFile, ...]:
    folder = resources.files("spacy_deid") / "resources" / "word_lists"
    return tuple(parse_word_list_file(json.loads(entry.read_text(encoding="utf8")), entry.name,
                                      f"default word_lists/{entry.name}")
                 for entry in sorted(folder.iterdir(), key=lambda p: p.name) if entry.name.endswith(".json"))


def completed(files: Sequence[WordListFile]) -> List[WordListFile]:
    """`files`, and every packaged list none of them holds: added to the file of its packaged file's name,
    or in that file of its own."""
    held = {name for f in files for name in f.lists}
    out = {f.name: WordListFile(f.name, f.description, dict(f.lists)) for f in files}
    for packaged in _default_files():
        missing = {name: words for name, words in packaged.lists.items() if name not in held}
        if missing:
            target = out.setdefault(packaged.name, WordListFile(packaged.name, packaged.description))
            target.lists.update(missing)
    return [out[name] for name in sorted(out)]


class WordLists:
    """The lists of some word list files, by name, with the forms steps compile from them."""

    def __init__(self, files: Iterable[WordListFile] = ()):
        self.files: List[WordListFile] = list(files)
        self._lists: Dict[str, Tuple[str, ...]] = {}
        seen: Dict[str, str] = {}
        for word_file in self.files:
            for name, words in word_file.lists.items():
                if name in seen:
                    raise WordListError(f"{word_file.name}: list {name!r}: name already used in {seen[name]}")
                seen[name] = word_file.name
                self._lists[name] = words
        self._compiled: Dict[Callable[["WordLists"], Any], Any] = {}
        self._joined: Dict[Tuple[str, ...], Tuple[str, ...]] = {}
        self._sets: Dict[Tuple[str, ...], FrozenSet[str]] = {}

    @classmethod
    def from_path(cls, path: Union[str, Path], over_defaults: bool = True) -> "WordLists":
        """A user's file or folder, over the packaged files (a file of the same name replaces one) or alone."""
        files = read_word_list_files(path)
        if over_defaults:
            by_name = {f.name: f for f in _default_files()}
            by_name.update({f.name: f for f in files})
            files = [by_name[name] for name in sorted(by_name)]
        return cls(completed(files))

    @property
    def names(self) -> List[str]:
        return sorted(self._lists)

    def __getitem__(self, name: str) -> Tuple[str, ...]:
        try:
            return self._lists[name]
        except KeyError:
            raise KeyError(f"no word list {name!r}; lists: {', '.join(self.names)}") from None

    def words(self, *names: str) -> Tuple[str, ...]:
        """The words of the lists `names`, in order, each word once (built once per set and names)."""
        if names not in self._joined:
            self._joined[names] = tuple(dict.fromkeys(word for name in names for word in self[name]))
        return self._joined[names]

    def word_set(self, *names: str) -> FrozenSet[str]:
        """The words of the lists `names` as a set, for membership tests (built once per set and names)."""
        if names not in self._sets:
            self._sets[names] = frozenset(self.words(*names))
        return self._sets[names]

    def compiled(self, build: Callable[["WordLists"], T]) -> T:
        """What `build` makes of these lists (a regex, a sorted tuple), built once per set."""
        if build not in self._compiled:
            self._compiled[build] = build(self)
        return self._compiled[build]

    # -- serialization --------------------------------------------------------------------------
    def to_dicts(self) -> Dict[str, Dict[str, Any]]:
        return {f.name: f.to_dict() for f in self.files}

    @classmethod
    def from_dicts(cls, data: Dict[str, Any], source: str = "") -> "WordLists":
        return cls(completed([parse_word_list_file(item, name, f"{source}{name}")
                              for name, item in sorted(data.items())]))

    def to_disk(self, folder: Union[str, Path]) -> None:
        """One editable JSON file per word list file (`write_json_folder`)."""
        write_json_folder(folder, self.to_dicts())

    @classmethod
    def from_disk(cls, folder: Union[str, Path]) -> "WordLists":
        return cls(completed(read_word_list_files(folder)))


@lru_cache(maxsize=1)
def default_word_lists() -> WordLists:
    """The packaged lists (`resources/word_lists`), read once."""
    return WordLists(_default_files())


def write_json_folder(folder: Union[str, Path], files: Dict[str, Any]) -> None:
    """Write file name -> JSON object as editable files of `folder`; its `*.json` files not among them
    are removed, so the folder holds the set and nothing else (word lists, cue rules)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.json"):
        if stale.name not in files:
            stale.unlink()
    for name, item in files.items():
        (folder / name).write_text(json.dumps(item, ensure_ascii=False, indent=2) + "\n", encoding="utf8")


def sorted_longest_first(words: Sequence[str]) -> Tuple[str, ...]:
    """`words` longest first (then in code-point order), so that a prefix test finds 老闆娘 before 老闆."""
    return tuple(sorted(set(words), key=lambda word: (-len(word), word)))
