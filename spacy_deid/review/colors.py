"""Label colours in displaCy's `ent` style: each PHI label takes the colour displaCy gives the spaCy
entity type it is closest to (names PERSON, organisations ORG, places GPE/LOC/FAC, ...), so a page
looks like `displacy.render(style="ent")` to anyone who knows it."""
from typing import Dict, Iterable

# displaCy's ent colours (spacy/displacy/render.py, DEFAULT_LABEL_COLORS)
DISPLACY = {
    "ORG": "#7aecec", "PRODUCT": "#bfeeb7", "GPE": "#feca74", "LOC": "#ff9561", "PERSON": "#aa9cfc",
    "NORP": "#c887fb", "FAC": "#9cc9cc", "EVENT": "#ffeb80", "LAW": "#ff8197", "LANGUAGE": "#ff8197",
    "WORK_OF_ART": "#f0d0ff", "DATE": "#bfe1d9", "TIME": "#bfe1d9", "MONEY": "#e4e7d2",
    "QUANTITY": "#e4e7d2", "ORDINAL": "#e4e7d2", "CARDINAL": "#e4e7d2", "PERCENT": "#e4e7d2",
}
DEFAULT = "#ddd"  # displaCy's colour for a label it does not know

CLOSEST = {
    "DATE": "DATE", "AGE": "CARDINAL",
    "PATIENT": "PERSON", "PERSON": "PERSON", "FAMILY": "PERSON", "DOCTOR": "PERSON",
    "NATIONALITY": "NORP", "REGION": "GPE", "STATE": "GPE", "COUNTRY": "GPE", "CITY": "GPE",
    "LOCATION": "LOC", "STREET": "LOC", "NUMBER": "QUANTITY", "ROOM": "FAC",
    "HOSPITAL": "ORG", "DEPARTMENT": "ORG", "SCHOOL": "ORG", "GENERAL_BUSINESS": "ORG", "MARKET": "FAC",
    "PROFESSION": "WORK_OF_ART",
    "ID_NUMBER": "LAW", "MEDICAL_RECORD": "LAW", "PHONE": "EVENT", "NIC": "LAW", "EMAIL": "PRODUCT",
    "URL": "PRODUCT",
}


def label_colors(labels: Iterable[str]) -> Dict[str, str]:
    return {label: DISPLACY.get(CLOSEST.get(label, ""), DEFAULT) for label in labels}
