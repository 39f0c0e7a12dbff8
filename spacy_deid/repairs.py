"""Repairs of NER spans that general knowledge of names decides, run by `deid` before rules and dates.

In order, each in its own module (the WHY is there), each a function from one span to its repaired
span (or None: unchanged):
1. `spanedges.trimmed`: a place span drops the preposition before it and the activity after it
   (`[至]童綜合醫院`, `門諾[戒酒]`);
2. `institutions.completed`: a span takes the type word after it or the label of the one it ends with
   (`[國立成功]大學` -> `[國立成功大學]` SCHOOL);
3. `relations.by_relation`: a name next to a kinship word is FAMILY (`配偶: [劉宏鴻]`, `[范] (nephew)`),
   next to a word for another person in the patient's life PERSON (`[Yang Ya-Yu], a coach`).
Only spans whose source is the NER (or unset) change; the step counts what it changed, for benchmarks
and tests, and never records span text (PHI).
"""
from typing import Callable, Dict, List, Optional

from spacy.tokens import Doc, Span

from .institutions import completed
from .relations import by_relation
from .spanedges import trimmed

# (doc, text, entity, next entity or None) -> the repaired span, or None to keep the entity
Repair = Callable[[Doc, str, Span, Optional[Span]], Optional[Span]]
REPAIRS: Dict[str, Repair] = {"edges": trimmed, "institutions": completed, "relations": by_relation}


def apply_repair(doc: Doc, text: str, repair: Repair) -> int:
    """Replace each NER entity of `doc.ents` by what `repair` makes of it; returns how many changed."""
    ents = list(doc.ents)
    out: List[Span] = []
    changed = 0
    for i, ent in enumerate(ents):
        new = None
        if (ent._.source or "ner") == "ner":
            new = repair(doc, text, ent, ents[i + 1] if i + 1 < len(ents) else None)
        if new is None:
            out.append(ent)
        else:
            out.append(new)
            changed += 1
    if changed:
        doc.ents = out
    return changed


def repair_ner_spans(doc: Doc, text: str) -> Dict[str, int]:
    """Apply the three repairs to `doc.ents` in order (`text` is the doc's text); changes per repair."""
    return {name: apply_repair(doc, text, repair) for name, repair in REPAIRS.items()}
