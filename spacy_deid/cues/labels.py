"""Who a name is to the patient by the words beside it, read from the cue rules in force: the groups
`relations` and `relation_after`, where the NER's label counts too `third_party` and `kin_address`, and
English titles `person_titles`, a title or an honorific beside a name `titled`, `honorific`
(`resources/cue_rules/relations.json`, the WHY of each rule there).

WHY functions over the rules rather than a step: steps, patient steps, the pattern rules' validators and
the knowledge voters all ask the same question of a name, and all should hear the pipeline's own rules
(`ruleset.current_cue_rules`), the ones a hospital edited.
"""
from typing import Optional

from .ruleset import cue_frame, current_cue_rules

_WORDS = ("relations", "relation_after")
_WORDS_AND_NER_LABEL = ("third_party", "kin_address")
_TITLES = ("person_titles", "relation_after")
_TITLED = "titled"
_HONORIFIC = "honorific"
# the groups code reads (a saved pipeline lacking one takes it from the package)
RELATION_GROUPS = tuple(sorted(set(_WORDS + _WORDS_AND_NER_LABEL + _TITLES + (_TITLED, _HONORIFIC))))


def relation_label(text: str, start: int, end: int) -> Optional[str]:
    """PATIENT, FAMILY, DOCTOR or PERSON when a patient field, a relation word or a physician's title
    stands next to the name at text[start:end], else None."""
    return cue_frame(text, start, end, None, _WORDS)


def label_by_ner_label(text: str, start: int, end: int, label: str) -> Optional[str]:
    """FAMILY or PERSON where the words beside a name the NER labelled `label` overrule that label and no
    relation word decides (`according to [X]` FAMILY, `[劉]伯伯` FAMILY, `Mr [Yang]` no DOCTOR), else None."""
    return current_cue_rules().relabel(text, start, end, label, _WORDS_AND_NER_LABEL)


def kin_address_label(text: str, start: int, end: int) -> Optional[str]:
    """FAMILY when a kinship word as a form of address, or an honorific after a bare surname, follows
    the name at text[start:end] (`[劉]伯伯`, `與[呂]先生討論`), else None (group `kin_address`)."""
    return current_cue_rules().relabel(text, start, end, "PERSON", "kin_address")


def relation_after(text: str, end: int) -> Optional[str]:
    """FAMILY, PERSON or DOCTOR when a relation word or a physician's role stands in apposition right after
    text[:end] (`(brother)`, `, the patient's case worker`, `(attending)`), else None: said of people only,
    whatever a NER called the span."""
    return cue_frame(text, end, end, None, "relation_after")


def person_label(text: str, start: int, end: int) -> Optional[str]:
    """DOCTOR or PERSON when an English title or credential beside text[start:end] says it is a person,
    FAMILY, PERSON or DOCTOR when a relation word or a physician's role stands in apposition after it,
    else None (groups `person_titles` and `relation_after`, for the names `cued_names` adds)."""
    return cue_frame(text, start, end, None, _TITLES)


def titled(text: str, start: int, end: int) -> bool:
    """Does a title stand right after text[start:end], or an English title, a role or 老/小/阿 before it
    (group `titled`)?"""
    return cue_frame(text, start, end, None, _TITLED) is not None


def honorific_beside(text: str, start: int, end: int) -> bool:
    """Does an honorific stand beside the name at text[start:end] (`Ms [Yang]`, `[陳]先生`; group
    `honorific`)? Notes give physicians Dr. and 醫師, never these."""
    return cue_frame(text, start, end, None, _HONORIFIC) is not None
