"""An institution the words around it say someone is treated at is a hospital, one they say someone
studies at is a school: `transferred from [長庚]`, `[台大]就讀研究所`.

WHY: annotation.md's own example: `中國醫` is HOSPITAL in "brought to 中國醫" and SCHOOL in "studied at
中國醫". Hospitals and universities share names and abbreviations (`台大`, `成大`, `北醫`, `長庚`, `Chang
Gung`), so a NER that has not seen the phrasing guesses from the name, and a surrogate of the wrong kind
changes what the note says. The sentence says which:
- care: `transferred from`, `referred from`, `sent to`, `admitted to`, `brought to`, `discharged from`,
  `ER from`, `seen at`, `treated at`, `followed up at` right before it; 轉院自, 轉自, 轉介自, 住進, 住院於,
  送至, 送往, 轉至, 轉往, 轉到, 轉院至, 轉院到 right before it; a physician of it, `Dr. Yang at [PUMCH]`; or a
  word of care right after it (急診, 住院, 就醫, 就診, 門診, 救護車, 轉來, 轉入, `ER`, `ED`, `OPD`,
  `admission`) with a locative or motion word before it (在, 於, 至, 到, 去, 由, 從, `at`, `to`, `from`) —
  `去[國泰] ER`, `在[松德] admission`, `由[彰基]救護車轉入`; or one of its departments right after it, a
  Chinese one without a space (`[郭綜合]加護病房`, `[奇美]放射科`) or, after a span called another kind of
  institution or place, one of `departments.json` after a space (`[KMUNH] RAD`, `To: [門諾] 一般外科`);
  not after a space for a span called a person, whose name a signature may put before a department;
  or an item of a list of past admissions (`Prior admissions: (1) [GDH], 2010; (2) [亞東], 2015`,
  `住院史: (1) [奇美]`): a list marker before it on a line that such a header starts (a problem list,
  `PMH: (1) SAH, (2) ICH`, is none);
- study: `studied at`, `studies at`, `graduated from`, `enrolled at`, `graduate of` right before it;
  就讀, 畢業於, 考上, 入學, 轉學至 right before it; or, right after it, 畢業, 就讀, 研究所, a department of
  study (`醫學系`), 的同學, `graduate`, `student`, or the school's offices, staff and exams (導師, 學務處,
  教官, 輔導室, 校長, `midterms`, `entrance exam`). A span the NER called a place or nationality (`入學[竹中]`
  NATIONALITY, `[儒林]學務處` CITY) becomes a SCHOOL only by the words before it or the school's offices
  after it (`[Vietnamese] student` is her nationality), and a person's by the words before it
  (`入學[彰師大]` PERSON; `[王大明]導師` is a teacher).
Only spans the NER called an institution of another kind (a hospital, school, business, market or
other named place) change; a span whose type word says what it is (`長庚大學`, `台大醫院`), a known
place (`transferred from [Taipei]`) and spans in both frames stay. A span the NER called a person
becomes a HOSPITAL only in words of care that no person's name takes (`transferred from [彰基]`,
`去[國泰] ER`, `由[童綜合]救護車轉入`, `[郭綜合]加護病房`): `由[王大明]轉介` is a referral by a person,
`在[王大明]住院期間` his stay.
"""
import re
from typing import Optional

from spacy.tokens import Doc, Span

from .han import HAN_RANGES
from .labels import NAME_LABELS
from .departments import chinese_department, named_department
from .workplaces import named_otherwise

# Labels a NER gives an unseen hospital or school name.
_RELABELLED = frozenset({"HOSPITAL", "SCHOOL", "GENERAL_BUSINESS", "MARKET", "LOCATION"})
_CARE_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?i:(?:transferred|transfer|referred|sent|admitted|readmitted|brought|discharged|"
    r"hospitali[sz]ed)[ ](?:from|to|at|in)|(?:ER|ED|OPD)[ ]from|(?:seen|treated|followed[ ]up|f/u)[ ](?:at|in))[ ]"
    r"|(?<![A-Za-z])(?i:dr\.?|doctor)[ ][A-Za-z][A-Za-z-]*[ ](?i:at|from|of)[ ]"
    r"|(?:轉院自|轉自|轉介自|住進|住院於|送至|送往|轉至|轉往|轉到|轉院至|轉院到)[ ]?)$")
# Care words after a span; the first ones no person's name takes (`去[國泰] ER`), the others one may
# (`在[王大明]住院期間`, `由[王大明]轉診`).
_CARE_NO_NAME_TAKES = r"急診|門診|救護車|(?:ER|ED|OPD)(?![A-Za-z])"
_PLACE_OF_CARE_AFTER = re.compile(r"[ ]?(?:" + _CARE_NO_NAME_TAKES + ")")
_CARE_AFTER = re.compile(r"[ ]?(?:" + _CARE_NO_NAME_TAKES + r"|住院|就醫|就診|轉診|轉院|轉來|轉入"
                         r"|(?i:admission|transfer)(?![A-Za-z]))")
_MOTION_BEFORE = re.compile(r"(?:[在於至到去由從]|(?<![A-Za-z])(?i:at|to|from))[ ]?$")
# Words of study before a span, which no person's name follows either (`入學[竹中]`, `enrolled at [NCTU]`).
_STUDY_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?i:(?:studied|studies|study|studying|enrolled|graduated)[ ](?:at|from|in)|graduate[ ]of)[ ]"
    r"|(?:就讀於?|畢業於|考上|入學於?|轉學[至到])[ ]?)$")
# A school's own offices, staff and exams after its name (`[交大]導師`, `[儒林]學務處`, `skipped the [TCFSH]
# midterms`); 導師 follows a person's name too.
_SCHOOL_OFFICE = r"導師|學務處|教官|輔導室|輔導處|校長|(?i:midterm|final[ ]exam|entrance[ ]exam)s?(?![A-Za-z])"
_SCHOOL_OFFICE_AFTER = re.compile(r"[ ]?(?:" + _SCHOOL_OFFICE + ")")
_STUDY_AFTER = re.compile(r"[ ]?(?:畢業|就讀|研究所|的?同學|" + _SCHOOL_OFFICE + r"|[" + HAN_RANGES + r"]{1,4}系(?![統列])"
                          r"|(?i:graduate|student)s?(?![A-Za-z]))")
# Labels a NER gives an unseen school name besides the institutions': a place or a nationality
# (`入學[儒林]` CITY, `入學[竹中]` NATIONALITY), and never a known place. Only the words of study before
# it or the school's offices after it count: `[Vietnamese] student` is her nationality.
_PLACES_FOR_STUDY = frozenset({"CITY", "NATIONALITY", "REGION"})
_WINDOW_BEFORE = 32


def _care(before: str, text: str, end: int, after: "re.Pattern[str]") -> bool:
    """A word of care right before the span, or one of `after` right after it with a locative before."""
    return bool(_CARE_BEFORE.search(before) or (after.match(text, end) and _MOTION_BEFORE.search(before)))


def _unit_after(text: str, end: int, after_space: bool) -> bool:
    """One of the institution's departments right after it: a Chinese name without a space (no person's
    name takes one so: `[郭綜合]加護病房`), or, with `after_space`, any department name of the rules after
    one space (`[KMUNH] RAD`)."""
    if chinese_department().match(text, end) is not None:
        return True
    return after_space and text.startswith(" ", end) and named_department().match(text, end + 1) is not None


# A list of past admissions: each item a hospital, then when (`Prior admissions: (1) [GDH], 2010, psychosis;
# (2) [亞東], 2015`, `住院史: (1) [奇美] 2019`).
_ADMISSIONS_LINE = re.compile(r"(?:^|\n)[ \t]*(?:(?i:prior|previous|past)[ ])?(?i:admissions?|hospitali[sz]ations?)"
                              r"[ ]?[:：]|(?:^|\n)[ \t]*(?:過去)?住院(?:史|紀錄|經過)[ ]?[:：]")
_LIST_ITEM_BEFORE = re.compile(r"[(（]\d{1,2}[)）][ ]?$")
_LINE_REACH = 200


def _admissions_item(text: str, start: int) -> bool:
    """Is text[start:] an item of a list of past admissions (`Prior admissions: ... (2) [X]`)?"""
    if not _LIST_ITEM_BEFORE.search(text, max(0, start - 6), start):
        return False
    line_start = text.rfind("\n", max(0, start - _LINE_REACH), start)
    if line_start < 0 and start > _LINE_REACH:
        return False
    return _ADMISSIONS_LINE.match(text, max(line_start, 0)) is not None


def frame_label(text: str, start: int, end: int) -> Optional[str]:
    """HOSPITAL or SCHOOL when the words around text[start:end] say care or study, else None."""
    before = text[max(0, start - _WINDOW_BEFORE):start]
    care = (_care(before, text, end, _CARE_AFTER) or _unit_after(text, end, after_space=True)
            or _admissions_item(text, start))
    study = bool(_STUDY_BEFORE.search(before) or _STUDY_AFTER.match(text, end))
    if care == study:
        return None
    return "HOSPITAL" if care else "SCHOOL"


def place_of_care(text: str, start: int, end: int) -> bool:
    """Do the words around text[start:end] say care happens there, in words no person's name takes:
    `transferred from [彰基]`, `住進[新光]`, `去[國泰] ER`? (`由[王大明]轉介` is a referral by a person.)"""
    return (_care(text[max(0, start - _WINDOW_BEFORE):start], text, end, _PLACE_OF_CARE_AFTER)
            or _unit_after(text, end, after_space=False) or _admissions_item(text, start))


def by_care_or_study(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` relabelled HOSPITAL or SCHOOL when its frame says so (module docstring), else None."""
    name = text[ent.start_char:ent.end_char]
    if (ent.label_ in NAME_LABELS and place_of_care(text, ent.start_char, ent.end_char)
            and not named_otherwise(name, "HOSPITAL")):
        return Span(doc, ent.start, ent.end, label="HOSPITAL")
    if ent.label_ in NAME_LABELS or ent.label_ in _PLACES_FOR_STUDY:
        # a person's name only by the words of study before it, a place also by a school's offices after it
        study = (_STUDY_BEFORE.search(text, max(0, ent.start_char - _WINDOW_BEFORE), ent.start_char)
                 or (ent.label_ in _PLACES_FOR_STUDY and _SCHOOL_OFFICE_AFTER.match(text, ent.end_char)))
        if study and not named_otherwise(name, "SCHOOL"):
            return Span(doc, ent.start, ent.end, label="SCHOOL")
        return None
    if ent.label_ not in _RELABELLED:
        return None
    label = frame_label(text, ent.start_char, ent.end_char)
    if label is None or label == ent.label_ or named_otherwise(name, label):
        return None
    return Span(doc, ent.start, ent.end, label=label)
