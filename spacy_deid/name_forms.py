"""The forms a person's full name is written in elsewhere in the same patient's notes.

WHY: a note names `王大明` in full once and `大明`, `Wang Da-Ming`, `Wang Ta Ming` or `Wang DM` after;
`Wang Mei-Ling` once and `Mei-Ling` after. Each such form of a name found anywhere in the patient's
notes is that person (`propagate` marks it wherever it stands, linked to the Han name so the surrogate
engine writes it from that name's surrogate). A full name is known by its shape alone: a Han surname
of the lexicons and a given name of one or two characters, no common word (`han_name_parts`), or Latin
words that start or end with a surname of the lexicons (`is_full_name`). A given name of a Latin name
is a word of at least `MIN_ASCII_CHARS` letters that is no surname (`is_given_name`: `Wang` is the
patient and her father); a Han given name is read when it has two characters and is no common word
(`大衛`, David, is one: only the full name is then marked).
"""
import re
from functools import lru_cache
from typing import Dict, FrozenSet, Optional, Tuple

from .wordlists.common_words_zh import common_words_zh, surnames_zh
from .han import HAN_RANGES
from .lexicons import load, names as lexicon_names
from .romanize import full_forms, given_forms, initials_forms, spellings

# ASCII strings shorter than this are too often words to say whose name they are (`He`, `An`, `Amy`).
MIN_ASCII_CHARS = 4
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# A Latin-script name as the NER marks it: words, with the spaces, commas and periods between them.
_LATIN_NAME = re.compile(r"[A-Za-z][A-Za-z'-]*(?:[ ,.]+[A-Za-z][A-Za-z'-]*)+")
_HAN_NAME = re.compile(f"[{HAN_RANGES}]{{2,4}}")


@lru_cache(maxsize=1)
def latin_surnames() -> FrozenSet[str]:
    """Lower-cased surnames of the lexicons: Chinese ones romanized (`chen`, `ou-yang`) and English ones."""
    romanized = (entry.get("romanized", "") for entry in load("surnames_zh").entries)
    return frozenset(name.lower() for name in (*romanized, *load("surnames_en").values()) if name)


def is_given_name(word: str) -> bool:
    """May a word of a full name say whose name it is (module docstring)?"""
    return len(word) >= MIN_ASCII_CHARS and word.lower() not in latin_surnames()


_NAME_LEXICONS = frozenset({"given_chars_zh", "given_names_en", "given_names_romanized", "surnames_en",
                            "surnames_zh"})


@lru_cache(maxsize=1)
def other_lexicon_values() -> FrozenSet[str]:
    """Every value of the lexicons that name no person (places, institutions, professions...):
    `舊金山` starts with a surname and is no one's name."""
    return frozenset(value for name in lexicon_names() if name not in _NAME_LEXICONS
                     for value in load(name).values())


def han_name_parts(name: str) -> Optional[Tuple[str, str]]:
    """(surname, given) of a Han full name: a surname of the lexicons (one or two characters) and a
    given name of one or two characters, the whole no common word nor value of another lexicon
    (`other_lexicon_values`); else None."""
    if not _HAN_NAME.fullmatch(name) or name in common_words_zh() or name in other_lexicon_values():
        return None
    for surname_length in (2, 1):
        given = name[surname_length:]
        if name[:surname_length] in surnames_zh() and 1 <= len(given) <= 2:
            return name[:surname_length], given
    return None


def is_full_name(name: str) -> bool:
    """Is `name` a person's full name by its shape alone: a Han surname and given name, or Latin words
    of which the first or last is a surname of the lexicons (`Wang Mei-Ling`, `Amy Lin`)?"""
    if han_name_parts(name) is not None:
        return len(name) >= 3
    words = _WORD.findall(name) if _LATIN_NAME.fullmatch(name) else []
    return len(words) >= 2 and all(w[:1].isupper() for w in words) and (
        words[0].lower() in latin_surnames() or words[-1].lower() in latin_surnames())


def name_forms(name: str) -> Dict[str, Optional[str]]:
    """The other ways notes write the person of a full name, each with the Han name it links to
    (None for a Latin name's given name): a Han name's given name of two characters that is no common
    word (`王大明` -> `大明`), its romanized full names (`Wang Da-Ming`, `Wang Ta Ming`, `WANG DAMING`,
    `Da-Ming Wang`, `Wang DM`; `romanize.full_forms`) and romanized given names of at least
    `MIN_ASCII_CHARS` letters (`Da-Ming`, `Daming`); a Latin full name's given names (`Mei-Ling`)."""
    forms: Dict[str, Optional[str]] = {}
    parts = han_name_parts(name)
    if parts is not None and len(name) >= 3:
        surname, given = parts
        if len(given) == 2 and given not in common_words_zh():
            forms[given] = name
        for form in full_forms(surname, given):
            forms.setdefault(form, name)
        if len(given) == 2:
            for form in given_forms(given):
                if " " not in form and len(form) >= MIN_ASCII_CHARS:
                    forms.setdefault(form, name)
    elif is_full_name(name):
        words = _WORD.findall(name)
        given = [word for word in words if is_given_name(word) and word[:1].isupper()]
        for word in given:
            forms.setdefault(word, None)
        initials = "".join(part[:1].upper() for word in given for part in word.split("-"))
        surnames = [word for word in words if word.lower() in latin_surnames()]
        if surnames and len(initials) >= 2:
            forms.setdefault(f"{surnames[0]} {initials}", None)
    forms.pop(name, None)
    return forms


def identifying_forms(name: str) -> FrozenSet[str]:
    """What of a full name must not survive de-identification anywhere in its patient's notes: the
    name, its given name (`name_forms`' reading) and its surname with the given name's initials
    (`Wang DM`, `Lin ML`); empty for a string that is no full name (the leak check of issue 47)."""
    if not is_full_name(name):
        return frozenset()
    forms = {name}
    parts = han_name_parts(name)
    if parts is not None:
        surname, given = parts
        forms.update(form for form in name_forms(name) if form == given)
        forms.update(f"{sur.capitalize()} {letters}" for sur in spellings(surname)
                     for letters in initials_forms(given) if letters.isalpha() and len(given) > 1)
    else:
        forms.update(name_forms(name))
    return frozenset(forms)


__all__ = ["MIN_ASCII_CHARS", "han_name_parts", "identifying_forms", "is_full_name", "is_given_name",
           "latin_surnames", "name_forms"]
