"""The PHI label scheme of docs/annotation.md: subcategory labels and the category each belongs to.

Entity labels on spans are subcategories; categories are derived, never stored twice.
"""
from typing import Dict, FrozenSet

CATEGORY_OF: Dict[str, str] = {
    "DATE": "DATE",
    "AGE": "AGE",
    "PATIENT": "NAME",
    "PERSON": "NAME",
    "FAMILY": "NAME",
    "DOCTOR": "NAME",
    "LOCATION": "LOCATION",
    "NATIONALITY": "LOCATION",
    "REGION": "LOCATION",
    "STATE": "LOCATION",
    "COUNTRY": "LOCATION",
    "CITY": "LOCATION",
    "STREET": "LOCATION",
    "HOSPITAL": "LOCATION",
    "DEPARTMENT": "LOCATION",
    "ROOM": "LOCATION",
    "NUMBER": "LOCATION",
    "SCHOOL": "LOCATION",
    "GENERAL_BUSINESS": "LOCATION",
    "MARKET": "LOCATION",
    "PROFESSION": "PROFESSION",
    "ID_NUMBER": "ID",
    "MEDICAL_RECORD": "ID",
    "PHONE": "ID",
    "NIC": "ID",
    "EMAIL": "ID",
    "URL": "ID",
}

LABELS: FrozenSet[str] = frozenset(CATEGORY_OF)
CATEGORIES: FrozenSet[str] = frozenset(CATEGORY_OF.values())
NAME_LABELS: FrozenSet[str] = frozenset(l for l, c in CATEGORY_OF.items() if c == "NAME")
LOCATION_LABELS: FrozenSet[str] = frozenset(l for l, c in CATEGORY_OF.items() if c == "LOCATION")
# Location labels that name an organisation rather than a place (`基隆長庚` is named after its city).
ORGANISATION_LABELS: FrozenSet[str] = frozenset({"HOSPITAL", "SCHOOL", "GENERAL_BUSINESS", "DEPARTMENT", "MARKET"})
# Labels of places with borders and a government: a repair that cuts a city out of a longer span keeps
# one of these the NER gave, and calls anything else a CITY (`jurisdictions`).
ADMINISTRATIVE_LABELS: FrozenSet[str] = frozenset({"CITY", "STATE", "COUNTRY"})


def category_of(label: str) -> str:
    """Category of a subcategory label; unknown labels raise so a typo cannot pass silently."""
    try:
        return CATEGORY_OF[label]
    except KeyError:
        raise ValueError(f"Unknown PHI label {label!r}; known labels: {sorted(LABELS)}") from None
