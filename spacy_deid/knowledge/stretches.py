"""Where each general-domain tagger reads a note: Han stretches for the Chinese tagger, the text
between them for the English one, and a title-cased copy of all-caps lines.

WHY: a code-mixed note is two languages in one string; each pretrained tagger knows one of them and
reads the other as noise. A tagger trained on newswire reads capitals as names: on a nursing note
typed in capitals it calls every word a name or none, while on a title-cased copy it finds the names
again. Every copy made here has the length of the original, character for character (only ASCII
letters change case), so an offset in a copy is the same offset in the note.
"""
import re
from typing import Iterable, Iterator, List, NamedTuple

from ..han import HAN_CHAR, HAN_TEXT_RANGES

# Han characters with the CJK and full-width punctuation that runs between them (`，`, `：`, `（`).
_HAN_STRETCH = re.compile(f"[{HAN_TEXT_RANGES}\u3000-\u303f\uff00-\uffef]+")
_LATIN_LETTER = re.compile(r"[A-Za-z]")
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_LINE = re.compile(r"[^\n]+")
# A line is typed in capitals when it has this many ASCII letters and not one of them in lower case.
MIN_UPPER_LETTERS = 4


class Stretch(NamedTuple):
    """text[start:end], in one script; `copy` is what the tagger reads (same length as the stretch)."""
    start: int
    end: int
    copy: str


def han_stretches(text: str) -> Iterator[Stretch]:
    """Runs of Han characters and CJK punctuation that hold at least one Han character."""
    for match in _HAN_STRETCH.finditer(text):
        if HAN_CHAR.search(match.group()):
            yield Stretch(match.start(), match.end(), match.group())


def latin_stretches(text: str, *, title_case_upper: bool = True) -> Iterator[Stretch]:
    """The text between Han stretches that holds an ASCII letter; all-caps lines title-cased in the
    copy when `title_case_upper`."""
    start = 0
    bounds: List[tuple] = [(m.start(), m.end()) for m in _HAN_STRETCH.finditer(text) if HAN_CHAR.search(m.group())]
    for han_start, han_end in bounds + [(len(text), len(text))]:
        piece = text[start:han_start]
        if _LATIN_LETTER.search(piece):
            copy = title_case_upper_lines(piece) if title_case_upper else piece
            yield Stretch(start, han_start, copy)
        start = han_end


# The most a tagger reads at once: spaCy's taggers refuse a text over `max_length` (1,000,000) and a
# long text costs memory to no gain, since no tag crosses a line.
MAX_PIECE_CHARS = 100_000


def bounded(stretches: Iterable[Stretch], max_chars: int = MAX_PIECE_CHARS) -> Iterator[Stretch]:
    """Each stretch in pieces of at most `max_chars`, cut after a line break where there is one in the
    piece (else after its last space, else at the limit); offsets stay the note's."""
    for stretch in stretches:
        start, copy = stretch.start, stretch.copy
        while len(copy) > max_chars:
            cut = copy.rfind("\n", 0, max_chars) + 1 or copy.rfind(" ", 0, max_chars) + 1 or max_chars
            yield Stretch(start, start + cut, copy[:cut])
            start, copy = start + cut, copy[cut:]
        if copy:
            yield Stretch(start, start + len(copy), copy)


def _title_word(match: "re.Match[str]") -> str:
    word = match.group()
    return word[0] + word[1:].lower()


def title_case_upper_lines(text: str) -> str:
    """`text` with each line typed in capitals title-cased (`SEEN BY DR SMITH` -> `Seen By Dr Smith`),
    other lines as they are; same length, same offsets."""
    def line(match: "re.Match[str]") -> str:
        value = match.group()
        letters = _LATIN_LETTER.findall(value)
        if len(letters) >= MIN_UPPER_LETTERS and not any(ch.islower() for ch in letters):
            return _ASCII_WORD.sub(_title_word, value)
        return value
    return _LINE.sub(line, text)
