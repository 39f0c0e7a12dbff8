"""A nationality word that names the language someone speaks is no PHI: `Spanish speaking`, `speaks Tagalog`.

WHY: annotation.md's NATIONALITY is where a person is from (`華僑`, `印尼籍`); English writes a language
with the same word (`Pt is Spanish speaking`, `interpreter for Vietnamese`, `wrote in English`). A NER
that learnt the word as a nationality tags the language too, and its surrogate would change what the
note says about communication, which identifies no one. So a NER NATIONALITY span with `speaking`,
`-speaking` or `speaker` after it, or a word of speech or translation right before it (`speaks`,
`spoke`, `interpreter for`, `translated into`, `in`), is dropped. A country (`in Taiwan`) is another
label and never judged here.
"""
import re

_SPEECH_AFTER = re.compile(r"[ -]?(?i:speaking|speaker|speakers|speaks)(?![A-Za-z])")
_SPEECH_BEFORE = re.compile(
    r"(?<![A-Za-z])(?i:speaks|speak|spoke|spoken|speaking|fluent in|interpreter for|interpreter|translator for|"
    r"translated into|translation into|written in|wrote in|in)[ ]$")
_WINDOW = 24


def spoken_language(text: str, start: int, end: int, label: str) -> bool:
    """Is the NATIONALITY span text[start:end] a language someone speaks (module docstring)?"""
    if label != "NATIONALITY" or not text[start:end].isascii():
        return False
    return bool(_SPEECH_AFTER.match(text, end) or _SPEECH_BEFORE.search(text, max(0, start - _WINDOW), start))
