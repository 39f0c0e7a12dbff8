"""What the cue rules of titled names ask of a span (`resources/cue_rules/titles.json`), and the shared
tests `cued_names` reads too: does a span name an institution, is it a Chinese surname and its title.

WHY here: the rules name these as predicates (`unless`); `cued_names` asks the same questions of the
words it adds, and a rule engine module imports no pass.
"""
import re
from typing import FrozenSet, Optional

from ..wordlists.common_words_zh import common_words_zh, starts_with_surname, surnames_zh
from ..name_forms import han_name_parts
from ..predicates import TypeWords, name_like
from ..wordlists.titles_zh import titles_after_name, titles_after_name_zh
from ..wordlists import WordLists, compiled, word_set


def _institution_word(lists: WordLists) -> "re.Pattern[str]":
    return re.compile(r"(?i:(?<![A-Za-z])(?:" + "|".join(
        re.escape(w) for words in lists.compiled(TypeWords).en.values() for w in sorted(words, key=len, reverse=True))
        + r")(?![A-Za-z]))")


def names_an_institution(text: str) -> bool:
    """Does `text` hold an English type word of an institution (`Clinic`, `Hospital`, `University`)?"""
    return compiled(_institution_word).search(text) is not None


def _title_last_chars(lists: WordLists) -> FrozenSet[str]:
    return frozenset(title[-1] for title in lists.compiled(titles_after_name))


def title_after_surname(name: str) -> Optional[str]:
    """The title of `name` when it is a Chinese surname of one or two characters and the title said
    after it (`許老闆` -> `老闆`, `歐陽太太` -> `太太`), else None; the longest title decides."""
    if name[-1:] not in compiled(_title_last_chars):
        return None
    title = next((t for t in titles_after_name_zh() if name.endswith(t) and 1 <= len(name) - len(t) <= 2), None)
    return title if title is not None and name[:-len(title)] in surnames_zh() else None


# -- predicates (span text, label) -> the rule does not apply ----------------------------------------
def institution(text: str, label: str) -> bool:
    """An English type word of an institution in the span (`Dr. [Chen Clinic]`)."""
    return names_an_institution(text)


def not_latin_capital(text: str, label: str) -> bool:
    """The span does not start with a Latin capital (`Dr. [ortho] team`, `Dr. [張]`)."""
    return not (text[:1].isupper() and text[:1].isascii())


def not_a_han_name(text: str, label: str) -> bool:
    """Han characters that are no name: a grammatical character, no surname first, a word for a relative
    or another person, or a common word (`阿姨家的夜市`, `[孫子 劉]`); a name in Latin letters passes."""
    return not text.isascii() and (not name_like(text) or not starts_with_surname(text)
                                   or text in word_set("kinship_zh", "others_zh") or text in common_words_zh())


def not_surname_zh(text: str, label: str) -> bool:
    """The span is not a Chinese surname (`[三商]老闆`)."""
    return text not in surnames_zh()


def not_a_han_full_name(text: str, label: str) -> bool:
    """Is `text` no Han surname and given name (`name_forms.han_name_parts`): `[郭]大衛` grows, `[王]先生` no."""
    return han_name_parts(text) is None
