"""Repairs of NER spans that general knowledge of names decides, run by `deid` before rules and dates.

First `institutions.joined` makes one span of two NER spans one institution was cut into
(`[國立]交[通大學]` -> `[國立交通大學]`). Then, in order, each in its own module (the WHY is there), each a function from one span to its repaired
span, or spans where one is split, or none where it is dropped (None: unchanged):
1. `spanedges.trimmed`: a place span drops the preposition before it and the activity after it
   (`[至]童綜合醫院`, `門諾[戒酒]`), a profession its article and the verb after it (`[an] accountant`,
   `lawyer [presented to]`);
2. `jurisdictions.as_jurisdiction`: a place before a public office's word is the CITY it serves
   (`據[廣州警]察局筆錄` FAMILY -> `[廣州]` CITY, `[台中地]方法院` -> `[台中]`);
3. `districts.split_district`: a city and the district after it are two places (`住[西雅圖南港區]` ->
   `[西雅圖]` + `[南港區]`, `[洛杉磯汐]止區` -> `[洛杉磯]` + `[汐止區]`);
4. `hospital_physician.split_hospital_and_physician`: a run of Han characters before a physician's title
   or role is a hospital's short name and the physician's name (`經[萬芳徐]昌炳(attending)` ->
   `[萬芳]` HOSPITAL + `[徐昌炳]` DOCTOR);
5. `institutions.completed`: a span takes the type word after it or the label of the one it ends with
   (`[國立成功]大學` -> `[國立成功大學]` SCHOOL), and a place the name and type word of an institution
   named after it (`[北京]協和醫院` -> `[北京協和醫院]` HOSPITAL); then the edges once more, now that
   the span is an institution (`[經營永興五]金行` -> `[經營永興五金行]` -> `[永興五金行]`);
6. `departments.by_department`: a department name decides its label and edges, and is split off the
   institution before it (`[SGH Thoracic Surgery]` -> `[SGH]` + `[Thoracic Surgery]` DEPARTMENT,
   `[外科收住院]` -> `[外科]`), and a school, business or market before `OPD` is a department;
7. `workplaces.as_workplace`: a span in a frame of work is a business (`在[中鋼]上班`, `works at [IKEA]`);
8. `care_and_study.by_care_or_study`: an institution someone is treated at is a HOSPITAL, one someone
   studies at a SCHOOL (`transferred from [長庚]`, `[台大]就讀研究所`);
9. `name_ends.completed_name`: a Chinese name cut short before its plain end takes the rest
   (`通知 VS [楊]友昌,` -> `[楊友昌]`);
10. `titled_names.titled_place`: a place span with an English title before it or a staff credential
   after it is a person's name (`Dr. [Patel]` DEPARTMENT -> DOCTOR, `Mrs. [Garcia]` NATIONALITY ->
   PERSON, `[Jessica], RN` GENERAL_BUSINESS -> PERSON);
11. `relations.by_relation`: a name span drops the relation word it starts with (`[堂妹范雄晉]` ->
   `[范雄晉]`), the name in a chart's patient field is PATIENT (`Patient: [呂雄晨]`), a name
   next to a kinship word is FAMILY (`配偶: [劉宏鴻]`, `[范] (nephew)`),
   next to a word for another person in the patient's life PERSON (`[Yang Ya-Yu], a coach`);
12. `relations.relation_in_apposition`: that word is not the patient's PROFESSION (`Yang, a [pastor]`);
13. `name_ends.completed_name` once more: a name that lost its relation word may stop short
   (`看[孫子周]恆品。` -> `[周]恆品` -> `[周恆品]`).
Only spans whose source is the NER (or unset) change; the step counts what it changed, for benchmarks
and tests, and never records span text (PHI).
"""
from typing import Callable, Dict, List, Optional, Tuple, Union

from spacy.tokens import Doc, Span

from .care_and_study import by_care_or_study
from .departments import by_department
from .districts import split_district
from .hospital_physician import split_hospital_and_physician
from .institutions import completed, joined
from .jurisdictions import as_jurisdiction
from .name_ends import completed_name
from .relations import by_relation, relation_in_apposition
from .spanedges import trimmed
from .titled_names import titled_place
from .workplaces import as_workplace

# (doc, text, entity, next entity or None) -> the repaired span or spans, or None to keep the entity
Repair = Callable[[Doc, str, Span, Optional[Span]], Optional[Union[Span, Tuple[Span, ...]]]]
REPAIRS: Dict[str, Repair] = {"edges": trimmed, "jurisdictions": as_jurisdiction, "districts": split_district,
                              "hospital_physician": split_hospital_and_physician,
                              "institutions": completed, "institution_edges": trimmed,
                              "departments": by_department,
                              "workplaces": as_workplace, "care_or_study": by_care_or_study,
                              "name_ends": completed_name, "titles": titled_place, "relations": by_relation,
                              "apposition": relation_in_apposition,
                              # a name `relations` cut off its relation word may stop short (`[孫子周]恆品` ->
                              # `[周]恆品` -> `[周恆品]`)
                              "name_ends_after_relations": completed_name}


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
            out.extend((new,) if isinstance(new, Span) else new)
            changed += 1
    if changed:
        doc.ents = out
    return changed


def repair_ner_spans(doc: Doc, text: str) -> Dict[str, int]:
    """Join the NER spans one institution was cut into, then apply the repairs to `doc.ents` in order
    (`text` is the doc's text); changes per repair."""
    changes = {"joined": joined(doc, text)}
    changes.update((name, apply_repair(doc, text, repair)) for name, repair in REPAIRS.items())
    return changes
