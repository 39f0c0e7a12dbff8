"""A lone given name is the person whose full name holds it in the same notes, and has that role.

WHY: notes name a person in full once (`his daughter Wang Mei-Ling`, `Dr. Chen Yu-Ting`) and by the
given name after (`Mei-Ling visited`, `discussed with Yu-Ting`), and a model that reads each mention
in its own context gives the short one the role its frame suggests (a friend, a nurse). Where every
full name of the note, or of the patient's notes, that holds the word has one role, the lone word is
that person and takes the role.

What counts as a given name: a word of a Latin-script name of two or more words, of at least
`propagate.MIN_ASCII_CHARS` letters (`Amy` alone is too short to say whose it is), that is no surname
of the lexicons (`surnames_zh` romanized, `surnames_en`). A surname says nothing of one person: the
patient and the relatives who bear it share it (`Wang` is the patient and her father).

A code-mixed note names a person in Han characters in one line and by the romanized given name in
another (`案女 林美玲`, then `Mei-Ling called`): a Han full name, a surname of the lexicons and one or two
given characters, holds the given name its characters spell in Wade-Giles (`Mei-Ling`, also written
`Meiling`), the romanization of Taiwan's passports and of the lexicons (`given_chars_zh`). A character
the lexicon does not romanize links nothing. Han given names alone are not read: Chinese notes call a
person by the full name or by the surname and a title, and two Han characters are as often a word.

Only the NER's and propagated mentions are relabelled, and only where no relation word beside the
mention itself decides (`relations.relation_label`: its own context wins), and a mention with an
honorific beside it is never made a physician (`propagate.not_a_physician`).
"""
import re
from functools import lru_cache
from typing import Dict, FrozenSet, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, Span

from ..wordlists.common_words_zh import surnames_zh
from ..doctext import doc_text
from ..han import HAN_RANGES
from ..labels import NAME_LABELS
from ..lexicons import load
from ..name_forms import (_LATIN_NAME, _WORD, han_name_parts, is_full_name, is_given_name, latin_surnames,
                         name_forms)
from .propagate import SOURCE, not_a_physician, relabel_ents
from ..cues.labels import relation_label

_HAN_NAME = re.compile(f"[{HAN_RANGES}]{{2,4}}")


@lru_cache(maxsize=1)
def _romanized_characters() -> Dict[str, str]:
    """Han given-name character -> its Wade-Giles syllable, lower case (`玲` -> `ling`)."""
    return {entry["text"]: entry["romanized"].lower() for entry in load("given_chars_zh").entries
            if entry.get("romanized")}


def romanized_given_names(name: str) -> Tuple[str, ...]:
    """The lower-cased romanized given names a Han full name holds (`林美玲` -> `mei-ling`, `meiling`),
    or none when it is no surname of the lexicons and one or two romanized characters."""
    syllables = _romanized_characters()
    for surname_length in (1, 2):
        given = name[surname_length:]
        if (name[:surname_length] in surnames_zh() and 1 <= len(given) <= 2
                and _HAN_NAME.fullmatch(name) and all(char in syllables for char in given)):
            parts = [syllables[char] for char in given]
            return tuple(dict.fromkeys(("-".join(parts), "".join(parts))))
    return ()


def given_name_roles(docs: Sequence[Doc]) -> Dict[str, str]:
    """Lower-cased given name -> the one role of every full name of the docs that holds it, in Latin
    script or in Han characters (module docstring)."""
    roles: Dict[str, Set[str]] = {}
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ not in NAME_LABELS:
                continue
            if _LATIN_NAME.fullmatch(ent.text):
                given = [word.lower() for word in _WORD.findall(ent.text) if is_given_name(word)]
            else:
                given = [word for word in romanized_given_names(ent.text) if is_given_name(word)]
            for word in given:
                roles.setdefault(word, set()).add(ent.label_)
    return {word: labels.pop() for word, labels in roles.items() if len(labels) == 1}


def relabel_given_names(docs: Sequence[Doc]) -> int:
    """Give each lone given name the role of the full names that hold it (module docstring); returns
    how many mentions were relabelled."""
    roles = given_name_roles(docs)
    if not roles:
        return 0
    changed = 0
    for doc in docs:
        text = doc_text(doc)
        labels = {}
        for i, ent in enumerate(doc.ents):
            role = _role_of_lone_name(text, ent, roles)
            if role is not None:
                labels[i] = role
        changed += relabel_ents(doc, labels)
    return changed


def _role_of_lone_name(text: str, ent: Span, roles: Dict[str, str]) -> Optional[str]:
    """The role the full names give `ent`, when it is a lone given name whose own context decides nothing."""
    role = roles.get(ent.text.lower())
    if (role is None or role == ent.label_ or ent.label_ not in NAME_LABELS
            or ent._.source not in (None, "ner", SOURCE) or _WORD.fullmatch(ent.text) is None):
        return None
    if relation_label(text, ent.start_char, ent.end_char) is not None or not_a_physician(text, ent, role):
        return None
    return role


__all__ = ["given_name_roles", "han_name_parts", "is_full_name", "name_forms", "is_given_name", "latin_surnames", "relabel_given_names",
           "romanized_given_names"]
