"""Titles written right after a Chinese name or surname: honorifics, roles and kinship-like forms of
address (`[葉]醫師`, `[陳]先生`, `[許]老闆`, `[劉]阿姨`), from the word lists in force (`titles.json`,
`spacy_deid.wordlists`).

WHY one set of lists: annotation.md keeps titles outside the name, and several steps read them.
`spanshape` keeps a one-character name that has one after it (`[王]先生`), the care-place validator of
the rules rejects a "place" that is a titled person (`由[楊醫師]轉診`), `relations` reads a physician's
title as DOCTOR and a kinship form of address as FAMILY. Separate lists had drifted apart, so a title
known to one step was unknown to the next.
"""
from typing import Tuple

from . import WordLists, compiled, sorted_longest_first


def titles_after_name(lists: WordLists) -> Tuple[str, ...]:
    """`lists`' titles said after a surname, longest first."""
    return sorted_longest_first(lists.words("other_titles_zh", "honorifics_zh", "kin_address_zh",
                                            "physician_titles_zh"))


def titles_after_name_zh() -> Tuple[str, ...]:
    """Every title said after a surname, longest first (an ending test finds 老闆娘 before 老闆)."""
    return compiled(titles_after_name)

