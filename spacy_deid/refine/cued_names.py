"""A name that a relation word or a title says is there, found where no recognizer found anything.

WHY: a name is the PHI a de-identifier must not miss, and the NER, trained on notes whose English names
are mostly romanized Chinese ones, misses some Western first names even where the words beside them
say a person's name stands there: `her husband [Robert]`, `granddaughter [Ivy]`, `friend [Allen]`,
`[Tom] (father)`, `[Irene]（案女）`, `Mrs. [Garcia]`. The words are those of `relations` (kinship words,
words for other people in the patient's life, physicians' titles, English honorifics), which also
gives the name its label (an honorific alone says PERSON: the `titles` cue rules).
The name's own shape bounds it: one to three capitalised words (`Ivy`, `Jessica Lin`, `Nguyen Thi
Hoa`, `Chia-Hao`), right after the word (a colon, a comma and a title may stand between) or right
before a relation word in brackets, none a common English word (`common_words`: `wife At bedside`,
`Case Manager Note` name no one; a name that is also a word, `Sam`, `Will`, is left to the NER),
clinical vocabulary (`clinical_terms`) or an institution's type word (`Cardiology Clinic`). In a Latin
line typed all in capitals or all in lower case (`predicates.one_case_line`: half of a nursing chart's
text) no capital marks a name, so there a name is one to three words of letters in that case that are
no ordinary word (`common_words.ordinary_word`: besides the common words, the frequent words that are
only parts of places' names, `in`, `plan`), no word for a person (`aunts`), and of more than one letter
(`dr smithers`, `SON TOM`; not `husband in to visit`, `son met with`, `daughter called-update`). A
name typed in lower case in any Latin line is read the same way (`Dr. griffin made aware`; a code-mixed
line writes its English words in lower case: `病人 ambulate`).
A name signed before a physician's degree or a staff credential (word lists `physician_degrees_en`,
`staff_credentials_en`: `Stord-Painter MD performed`, `B. CLIFFORD MD AWARE`, `anita morris rn`, `DAN A.
FORMAN-LYONS, RRT`) is read the same way, back from the credential: the last one to three words that
may be a name's, with their initials; the `person_titles` rules say who it is (a physician, other staff).
The generic words (`family`, `relative`, `next of kin`) and the patient's own field are no cue here:
`Family Meeting` is a header, and the NER finds the name after `Patient:`.
A Chinese name is added only where the text draws both its edges, since a surname list alone cannot
(`醫師向家屬說明`: 向 is a surname): two to four Han characters right after such a word, or right before
a relation word in brackets with no Han character before them, with no Han character after them
(`胞弟: [曾友澤]、`, `配偶: [曾恆品] on`, `/ [曾華炳] (外甥)`), starting with a surname, not a run of
common Chinese words (`家屬: 同意`), a surname with its title keeping the title outside (`承辦人[曾]小姐`),
with no spoken particle or negation and not ending a sentence: after a dialogue's speaker (`醫師：`,
`家屬：`) comes what is said (`家屬：有啦。`), not a name. The NER finds most Chinese names after such
words (the training corpus writes them there) and misses some in unseen frames. A name that runs into
more Han characters is added when a common word right after a surname and two given characters draws
its right edge (`社工[曾亞品]聯絡`, `觀護人[呂晉品]定期約談`); any other is left to the NER.
A Chinese surname right before a title said after names (`titles_zh`: `地檢署[周]檢察官到院`,
`職能治療師[曾]老師評估`, `[林]小姐來電`) is a name too: the title draws its right edge, and its left edge
is the surname's own where the character before it makes no word with it (`謝謝醫師`, `擔任社工`,
`照顧太太`, `公司董事長` name no one) and the surname is no word of grammar (`向老師報告`, `和醫師討論`).
A relation word decides its label (a physician's word only for a physician's title: after a dialogue's
`醫師：`, `[王]先生` is no physician), then a kinship word or honorific said as a form of address
(`cues/labels.kin_address_label`: FAMILY), then the title: a physician's, a department's head's or a
professor's says DOCTOR, any other PERSON.
Only text outside every entity gets a span, and only where it aligns with tokens; the span's source
is `cued`.
"""
import re
from typing import Iterator, List, Optional, Tuple

from spacy.tokens import Doc, Span

from ..wordlists.clinical_terms import is_clinical_term
from ..wordlists.common_words import common_words, ordinary_word
from ..wordlists.common_words_zh import common_words_zh, plain_han_words, starts_a_word, starts_with_surname, surnames_zh
from ..doctext import doc_text
from ..han import HAN_RANGES
from ..overlap import add_where_free
from ..predicates import latin_line, one_case_line
from .relations import BETWEEN_WORD_AND_NAME, words_before_a_name
from ..cues.labels import kin_address_label, person_label, relation_after, relation_label
from ..cues.people import names_an_institution, title_after_surname
from ..wordlists.titles_zh import titles_after_name
from ..wordlists import WordLists, compiled, word_set

SOURCE = "cued"
_EN_WORD = r"[A-Z][a-z]+(?:[-'][A-Za-z][a-z]*)*"
_EN_NAME = re.compile(_EN_WORD + r"(?:[ ]" + _EN_WORD + r"){0,2}")
# In a line typed in one case, a name is any word of letters that no list holds (`dr smith`, `SON TOM`).
_ONE_CASE_WORD = r"[A-Za-z]+(?:[-'](?![Ss](?![A-Za-z]))[A-Za-z]+)*"
_ONE_CASE_NAME = re.compile(_ONE_CASE_WORD + r"(?:[ ]" + _ONE_CASE_WORD + r"){0,2}")
_BETWEEN = re.compile(BETWEEN_WORD_AND_NAME)
_EN_BEFORE_BRACKET = re.compile(r"(?<![A-Za-z])" + _EN_WORD + r"(?:[ ]" + _EN_WORD + r"){0,2}(?=[ ]?[(（])")
# A Chinese name: two to four Han characters with no Han character after them; before a bracket, none
# before them either.
_HAN_NAME = re.compile(f"[{HAN_RANGES}]{{2,4}}(?![{HAN_RANGES}])")
_HAN_RUN = re.compile(f"[{HAN_RANGES}]+")
_GIVEN_CHARACTERS = 2
_HAN_BEFORE_BRACKET = re.compile(f"(?<![{HAN_RANGES}])[{HAN_RANGES}]{{2,4}}(?=[ ]?[(（])")
# A dialogue's turn is no field: after `醫師：` or `家屬：` comes what the speaker says (`家屬：有啦。`), a
# short sentence, not a name; names hold no spoken particle or negation and end no sentence.
_SENTENCE_END = re.compile(r"[ ]?[。？！?!…]")


def _english_name(text: str, start: int) -> Optional[int]:
    """End of the capitalised words at `start` that are no common or closed-class word (`spanshape`'s
    list holds those the common list leaves out as parts of names: `At`), clinical term or
    institution's type word, or None; in a line typed in one case, or at a lower-case word of a Latin
    line, of the words of letters there that are no ordinary word either (`_ordinary_word`, module
    docstring)."""
    one_case = one_case_line(text, start) or (text[start:start + 1].islower() and latin_line(text, start))
    match = (_ONE_CASE_NAME if one_case else _EN_NAME).match(text, start)
    if match is None:
        return None
    end = start
    for word in re.finditer(r"\S+", match.group()):
        if not _name_word(word.group(), one_case):
            break
        end = start + word.end()
    return end if end > start and not (end < len(text) and text[end].isalnum()) else None


def _name_word(token: str, one_case: bool) -> bool:
    """May `token` be a word of an English name: no common or closed-class word, clinical term or
    institution's type word, and in a line typed in one case no ordinary word and more than one letter?"""
    folded = token.casefold()
    return not (folded in common_words() or folded in word_set("function_words_en") or is_clinical_term(token)
                or names_an_institution(token) or (one_case and (
                    len(token) < 2 or any(_ordinary_word(part) for part in folded.split("-")))))


def _ordinary_word(folded: str) -> bool:
    """Is `folded` a frequent word that may also be part of a place's name (`in`, `plan`) or a word for
    a person (`aunts`, `resident`), or any common word (a part of `called-update`)? In a line typed in
    one case that is the sentence going on after a relation word (`wife in to visit`), not a name."""
    people = word_set("kinship_en", "others_en", "clinician_en")
    return ordinary_word(folded) or folded in people or (folded.endswith("s") and folded[:-1] in people)


def _chinese_name(text: str, start: int, turn: bool = True) -> Optional[int]:
    """End of a Chinese name at `start` whose both edges the text draws, or None: a run of two to four
    Han characters that nothing Han follows (`胞弟: [曾友澤]、`, `配偶: [曾恆品] on`), starting with a
    surname, no run of common words (`家屬: 同意`, `社工: 尚未聯絡`), no spoken particle or negation and,
    after a colon (`turn`: a dialogue's speaker may stand there), no sentence's end after it
    (`家屬：有啦。`; `想回家看孫子[曾恆炳]。` is a name); a surname and its title end at the surname. Where
    Han characters follow, a common word right after a surname and two given characters draws the right
    edge (`觀護人[呂晉品]定期約談`, `監護人為[曾恆炳], ...`: `_name_before_a_word`)."""
    match = _HAN_NAME.match(text, start)
    if match is None:
        return _name_before_a_word(text, start)
    if turn and _SENTENCE_END.match(text, match.end()):
        return None
    name = match.group()
    title = title_after_surname(name)
    if title is not None:  # a surname and its title: the title stays outside (`承辦人[曾]小姐`)
        return start + len(name) - len(title)
    if (not starts_with_surname(name) or plain_han_words(name, "PERSON")
            or not word_set("spoken_particles_zh").isdisjoint(name)):
        return None
    return match.end()


def _name_before_a_word(text: str, start: int) -> Optional[int]:
    """End of a surname and two given characters at `start` that a common Chinese word follows, where
    neither the name nor its given characters are common words, its last character starts no word
    with the next one, its surname is no word of grammar (`向護理人員`) and it holds no spoken particle,
    character of grammar or of time and place (`由[曾恆炳]負責接送`; not `朋友陳述病情`, `里長發現`,
    `同學關心後通報`), or None."""
    surnames, words = surnames_zh(), common_words_zh()
    not_in_name = word_set("spoken_particles_zh", "not_in_name_zh", "time_and_place_chars_zh")
    surname = 2 if text[start:start + 2] in surnames else 1 if text[start:start + 1] in surnames else 0
    end = start + surname + _GIVEN_CHARACTERS
    name = text[start:end]
    if (not surname or not _HAN_RUN.fullmatch(name) or not starts_a_word(text, end)
            or starts_a_word(text, end - 1) or name[:surname] in word_set("grammar_surnames_zh")
            or any(c in not_in_name for c in name)
            or name[surname:] in words or any(name[:n] in words for n in (2, 3, 4))
            or plain_han_words(name, "PERSON") or title_after_surname(name) is not None):
        return None
    return end


def _name_at(text: str, start: int, turn: bool = True) -> Optional[int]:
    return _english_name(text, start) if text[start:start + 1].isascii() else _chinese_name(text, start, turn)


def _after_cue(text: str) -> Iterator[Tuple[int, int]]:
    """(start, end) of names right after a relation word or title."""
    for cue_end in words_before_a_name(text):
        between = _BETWEEN.match(text, cue_end)
        start = between.end() if between else cue_end
        if start >= len(text):
            continue
        end = _name_at(text, start, turn=any(colon in text[cue_end:start] for colon in ":："))
        if end is not None:
            yield start, end


def _before_bracket(text: str) -> Iterator[Tuple[int, int]]:
    """(start, end) of names right before a relation word in brackets."""
    for match in _EN_BEFORE_BRACKET.finditer(text):
        end = _english_name(text, match.start())
        if end == match.end() and relation_after(text, end):
            yield match.start(), end
    for match in _HAN_BEFORE_BRACKET.finditer(text):
        end = _chinese_name(text, match.start())
        if end == match.end() and relation_after(text, end):
            yield match.start(), end


# Up to three words of letters, initials among them, right before a physician's degree or a staff
# credential (word lists `physician_degrees_en`, `staff_credentials_en`).
def _before_credential_pattern(lists: WordLists) -> "re.Pattern[str]":
    credentials = sorted(lists.words("physician_degrees_en", "staff_credentials_en"), key=lambda w: (-len(w), w))
    word = r"(?:[A-Za-z]\.[ ]?)?[A-Za-z]+(?:[-'][A-Za-z]+)?"
    return re.compile(rf"(?<![A-Za-z.'-]){word}(?:[ ]{word}){{0,2}}"
                      r"(?=,?[ ](?:" + "|".join(re.escape(c) for c in credentials) + r")(?![A-Za-z']))")


_NAME_PART = re.compile(r"[A-Za-z]\.|[A-Za-z]+(?:[-'][A-Za-z]+)?")
_CAPITALISED = re.compile(_EN_WORD)


def _before_credential(text: str) -> Iterator[Tuple[int, int]]:
    """(start, end) of names right before a credential or degree (`Stord-Painter MD`, `B. CLIFFORD MD
    aware`, `anita morris rn`, `DAN A. FORMAN-LYONS, RRT`): the last words before it that may be a
    name's (`_name_word`; capitalised, unless the line is typed in one case), with the initials among
    and before them (`GIVEN PER [N. RUTH] NP`), of two parts at least (an initial, a word, each part of
    a hyphenated name, capitalised or no ordinary word: `Stord-Painter`, not `Follow-up`): a word alone
    there is as often the sentence's (`outlined by day rn`, `Ostomy RN`, `he is an rn`: the name lists
    hold `Day`, `An` and `All` as surnames, so the common words lack them)."""
    for match in compiled(_before_credential_pattern).finditer(text):
        one_case = one_case_line(text, match.start())
        start = end = match.end()
        parts = 0
        for part in reversed(list(_NAME_PART.finditer(match.group()))):
            token = part.group()
            if token.endswith(".") and start == end:
                break  # an initial belongs to a name that follows it
            if not token.endswith(".") and not (
                    _name_word(token, one_case) and (one_case or _CAPITALISED.fullmatch(token))):
                break
            start = match.start() + part.start()
            pieces = token.split("-")
            double = all(_name_word(piece, True) or (not one_case and piece[:1].isupper()) for piece in pieces)
            parts += len(pieces) if double else 1
        if parts >= 2:
            yield start, end


# A title said after names, longest first (`社工師` before `社工`), wherever one starts.
def _title_at(lists: WordLists) -> "re.Pattern[str]":
    return re.compile("(?=(" + "|".join(lists.compiled(titles_after_name)) + "))")




def _surname_before_title(text: str) -> Iterator[Tuple[int, int, str]]:
    """(start, end, title) of Chinese surnames right before a title (module docstring)."""
    words, surnames = common_words_zh(), surnames_zh()
    for match in compiled(_title_at).finditer(text):
        end, title = match.start(), match.group(1)
        start = end - 2 if end >= 2 and text[end - 2:end] in surnames else end - 1  # 歐陽 before 陽
        surname = text[start:end]
        if start < 0 or surname not in surnames or surname in word_set("grammar_surnames_zh"):
            continue
        before = text[max(0, start - 2):start]
        if (before[-1:] == surname or before[-1:] + surname in words or before + surname in words
                or surname + title in words):
            continue
        yield start, end, title


def _title_label(text: str, start: int, end: int, title: str) -> str:
    """The label of a surname before `title` (module docstring); a title no physician is given, an
    honorific or another's, overrules a physician's word before it (a dialogue's `醫師：[王]先生？`)."""
    said = relation_label(text, start, end)
    if title in word_set("physician_titles_zh", "clinical_head_titles_zh"):
        return said or "DOCTOR"
    if said is not None and said != "DOCTOR":
        return said
    return kin_address_label(text, start, end) or "PERSON"


def cued_names(doc: Doc) -> List[Span]:
    """Add to `doc.ents` the names that a relation word or title marks, where no entity stands (module
    docstring); returns the added spans (for counting, never for logging: PHI)."""
    text = doc_text(doc)
    titled = {(start, end): title for start, end, title in _surname_before_title(text)}
    found = []
    for start, end in sorted(set(_after_cue(text)) | set(_before_bracket(text)) | set(titled)
                             | set(_before_credential(text))):
        if (start, end) in titled:
            label = _title_label(text, start, end, titled[start, end])
        else:
            label = relation_label(text, start, end) or person_label(text, start, end)
        if label:
            found.append((start, end, label))
    return add_where_free(doc, found, SOURCE)
