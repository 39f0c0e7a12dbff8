"""Repairs of NER spans that general knowledge of names decides, run by `deid` before rules and dates.

In order, each in its own module (the WHY is there):
1. `spanedges.trim_edges`: a place span drops the preposition before it and the activity after it
   (`[至]童綜合醫院`, `門諾[戒酒]`);
2. `institutions.complete_institutions`: a span takes the type word after it or the label of the one
   it ends with (`[國立成功]大學` -> `[國立成功大學]` SCHOOL);
3. `kinship.relabel_relatives`: a name after a kinship word is FAMILY (`配偶: [劉宏鴻]`).
Only spans whose source is the NER (or unset) change; the step counts what it changed, for benchmarks
and tests, and never records span text (PHI).
"""
from typing import Dict

from spacy.tokens import Doc

from .institutions import complete_institutions
from .kinship import relabel_relatives
from .spanedges import trim_edges


def repair_ner_spans(doc: Doc, text: str) -> Dict[str, int]:
    """Apply the three repairs to `doc.ents` (`text` is the doc's text); returns changes per repair."""
    return {"edges": trim_edges(doc, text), "institutions": complete_institutions(doc, text),
            "kinship": relabel_relatives(doc, text)}
