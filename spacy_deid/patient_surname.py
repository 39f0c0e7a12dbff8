"""A bare surname with a form of address after it that the NER called the patient names someone else
when the patient's notes give the patient another surname: FAMILY.

WHY: a ward writes the patient as 王先生 or 劉伯伯, and their relatives the same way, so a NER reading one
line calls such a surname the patient wherever the line could be about the patient (`與[呂]先生討論出院
後安置`, `目前寄住在[盧]小姐家`). The notes say the patient's surname where they name the patient in full
(`姓名: 王大明`, `病人王大明`): the surname most of the PATIENT names found share. A surname addressed by an
honorific or a kinship word that is not that one cannot be the patient; who a ward addresses so in a
patient's notes is a relative (`relations.kin_address_label` says the same of the NER's PERSON). Only
the NER's and propagated spans change: a rule's patient field read its own context. No surname is
decided when two tie or from a single mention, and only over all of a patient's notes (`deid.resolve`).
"""
from collections import Counter
from typing import List, Optional, Sequence

from spacy.tokens import Doc, Span

from .common_words_zh import surnames_zh
from .doctext import doc_text
from .han import HAN_RUN
from .titles_zh import HONORIFICS_ZH, KIN_ADDRESS_ZH

_FORMS_OF_ADDRESS = HONORIFICS_ZH + KIN_ADDRESS_ZH
# Mentions a surname needs to be the patient's: the NER calls a stray name the patient now and then.
MIN_VOTES = 2
# Where a span's label may change: the NER's, and what `propagate` copied from it.
_RELABELLED_SOURCES = (None, "ner", "propagated")


def _surname(name: str) -> Optional[str]:
    """The surname of a Chinese full name of 2 to 4 characters (a compound surname first), else None."""
    if not 2 <= len(name) <= 4 or HAN_RUN.fullmatch(name) is None:
        return None
    if len(name) >= 3 and name[:2] in surnames_zh():
        return name[:2]
    return name[:1] if name[:1] in surnames_zh() else None


def patient_surname(docs: Sequence[Doc]) -> Optional[str]:
    """The surname most of the docs' PATIENT full names share, in at least `MIN_VOTES` of them; None
    when none is, or two tie."""
    votes: Counter = Counter()
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ == "PATIENT":
                surname = _surname(ent.text)
                if surname is not None:
                    votes[surname] += 1
    ranked = votes.most_common(2)
    if not ranked or ranked[0][1] < MIN_VOTES or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def relabel_other_surnames(docs: Sequence[Doc]) -> int:
    """Relabel FAMILY each NER or propagated PATIENT span that is a bare surname other than the patient's,
    addressed by an honorific or a kinship word (module docstring); returns how many changed."""
    surname = patient_surname(docs)
    if surname is None:
        return 0
    changed = 0
    for doc in docs:
        text = doc_text(doc)
        ents = list(doc.ents)
        relabelled: List[tuple] = []
        for i, ent in enumerate(ents):
            if (ent.label_ == "PATIENT" and ent._.source in _RELABELLED_SOURCES and ent.text != surname
                    and ent.text in surnames_zh() and text.startswith(_FORMS_OF_ADDRESS, ent.end_char)):
                relabelled.append((i, Span(doc, ent.start, ent.end, label="FAMILY"), ent._.source))
        if relabelled:
            for i, span, _ in relabelled:
                ents[i] = span
            doc.ents = ents
            for _, span, source in relabelled:
                span._.source = source  # span extension values are keyed by label too
            changed += len(relabelled)
    return changed


__all__ = ["patient_surname", "relabel_other_surnames"]
