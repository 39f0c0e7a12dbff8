"""The taggers' labels in this project's scheme (spacy_deid/labels.py, shared/docs/annotation.md).

Only names of people, places and organisations are kept: the date finder and the rules know dates,
numbers and identifiers better than a newswire tagger, and a product or an event is no PHI. An
organisation is a HOSPITAL or a SCHOOL when its own words say so, else GENERAL_BUSINESS.
"""
import re
from typing import Dict, Optional

LAC_LABELS: Dict[str, str] = {"PER": "PERSON", "LOC": "LOCATION", "ORG": "GENERAL_BUSINESS"}
SPACY_LABELS: Dict[str, str] = {"PERSON": "PERSON", "GPE": "CITY", "LOC": "LOCATION", "FAC": "LOCATION",
                                "ORG": "GENERAL_BUSINESS", "NORP": "NATIONALITY"}
_HOSPITAL = re.compile(r"醫院|診所|醫學中心|(?i:hospital|hosp\b|clinic|medical center)")
_SCHOOL = re.compile(r"大學|學院|中學|小學|國小|國中|高中|學校|(?i:university|college|school)")


def scheme_label(tagger: str, label: str, text: str) -> Optional[str]:
    """Our label for a `tagger` ("lac" or "spacy") tag `label` on `text`, or None to drop the tag."""
    ours = (LAC_LABELS if tagger == "lac" else SPACY_LABELS).get(label)
    if ours == "GENERAL_BUSINESS":
        if _HOSPITAL.search(text):
            return "HOSPITAL"
        if _SCHOOL.search(text):
            return "SCHOOL"
    return ours
