"""A name's relation to the patient as a span repair: the name relabelled by the words next to it, and
what only the NER's own label lets one read; and where a name may stand after such a word.

WHY: which of PATIENT, FAMILY, PERSON or DOCTOR a name is depends on the words around it, and a NER that
has not seen a note's phrasing guesses. What the words say is the cue rules' (`relations.json`, read by
`cues/labels`): a patient field, kinship words, physicians' titles, words for other people in the
patient's life, by annotation.md's definitions (groups `relations`, `relation_after`), and where the
NER's label counts too, a third party to the patient's care, a kinship word as a form of address, an
honorific no physician is given (groups `third_party`, `kin_address`). `by_relation` applies them to the
NER's name spans. Before it, the `relations` step runs the cue rules of group `relation_word_in_span`: a
name span drops a relation word or title it starts with, or the last characters of one the NER cut in
two (`[堂妹 范雄晉]`, `先[生盧瑋]`, `[Dr. Smith]`), and a place span that starts with one holds a
person's name (`由[阿公 高振宏]翻譯`); a relation word that nothing states as an occupation is no
PROFESSION (group `apposition`). `words_before_a_name` says where `cued_names` may add a name. The words
are the pipeline's word lists (`resources/word_lists/relations.json`, `titles.json`).
"""
import re
from typing import Iterator, Optional

from spacy.tokens import Doc, Span

from ..labels import NAME_LABELS
from ..rules.phrases import phrase_regex
from ..cues.labels import label_by_ner_label, relation_label
from ..wordlists import WordLists, compiled

# An English title between a relation word and the name.
_TITLE = r"(?:(?i:mr|mrs|ms|miss|mx|dr|doctor)\.?[ ])?"
# What may stand between a relation word and the name after it: a colon, a comma or an opening bracket,
# spaces, a title (`wife: Mary`, `Mom (Tzupao)`, `案妻，王小美`).
BETWEEN_WORD_AND_NAME = r"[ ]?[:：,，(（]?[ ]?" + _TITLE


def _words_before_a_name(lists: WordLists) -> "re.Pattern[str]":
    """The relation words and titles after which a name may stand."""
    return re.compile(
        phrase_regex(lists["kinship_zh"] + lists["others_zh"] + lists["physician_titles_zh"] + lists["on_duty_zh"]
                     + lists["patient_words_zh"]) + "|(?i:"
        + phrase_regex(tuple(w for w in lists["kinship_en"] if w not in lists["generic_kin_en"]) + lists["others_en"]
                       + lists["clinician_en"] + lists["honorifics_en"], ignore_case=True) + ")")


def words_before_a_name(text: str) -> Iterator[int]:
    """The end offsets of the words in `text` after which a name may stand (`wife`, `案母`, `Dr.`)."""
    for match in compiled(_words_before_a_name).finditer(text):
        yield match.end()


def by_relation(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` relabelled PATIENT, FAMILY, DOCTOR or PERSON when it is a name of another kind next to a
    patient field, a relation word or a physician's title, or where the words beside it and the NER's
    label say more (`cues/labels.label_by_ner_label`), else None."""
    if ent.label_ not in NAME_LABELS:
        return None
    label = (relation_label(text, ent.start_char, ent.end_char)
             or label_by_ner_label(text, ent.start_char, ent.end_char, ent.label_) or ent.label_)
    return None if label == ent.label_ else Span(doc, ent.start, ent.end, label=label)
