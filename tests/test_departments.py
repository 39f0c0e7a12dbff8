"""departments: a department's own words decide its label and edges, and split it off an institution."""
import pytest

import spacy_deid
from spacy_deid.cues import default_cue_rules
from spacy_deid.departments import by_department, department_start
from spacy_deid.refine import RefineStage
from spacy_deid.refine.builtin import apply_span_repair

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of, repaired


def by_step(text, found):
    """The `departments` step (the module's repair, then the cue rules of `departments.json`) on one
    NER span: (text, label) of the entities after it."""
    doc = doc_with_ents(text, [found])
    RefineStage(["departments"], []).refine_note(doc)
    return ents_of(doc)


@pytest.mark.parametrize("text,found,expected", [
    # an institution before the department keeps its label; the department gets its own span
    ("presented to SGH Thoracic Surgery on 2020/1/2", ("SGH Thoracic Surgery", "HOSPITAL"),
     [("SGH", "HOSPITAL"), ("Thoracic Surgery", "DEPARTMENT")]),
    ("seen at Singapore General Hospital Department of General Surgery today",
     ("Singapore General Hospital Department of General Surgery", "HOSPITAL"),
     [("Singapore General Hospital", "HOSPITAL"), ("General Surgery", "DEPARTMENT")]),
    ("Dictated by Dr. Chou, Nephrology, CMMC", ("Chou, Nephrology", "DOCTOR"),
     [("Chou", "DOCTOR"), ("Nephrology", "DEPARTMENT")]),
    ("TRANSFERRED FROM TTMHH INTENSIVE CARE UNIT", ("TTMHH INTENSIVE CARE UNIT", "HOSPITAL"),
     [("TTMHH", "HOSPITAL"), ("INTENSIVE CARE UNIT", "DEPARTMENT")]),
    # a whole department name under another label is relabelled
    ("return to RADIOLOGY OPD next week", ("RADIOLOGY", "COUNTRY"), [("RADIOLOGY", "DEPARTMENT")]),
    ("referred to Child and Adolescent Psychiatry", ("Child and Adolescent Psychiatry", "SCHOOL"),
     [("Child and Adolescent Psychiatry", "DEPARTMENT")]),
    ("VISIT DATE 195.09.12, GERIATRICS CLINIC 38診", ("GERIATRICS CLINIC", "HOSPITAL"),
     [("GERIATRICS", "DEPARTMENT")]),
    # an institution's abbreviation and a department's English name: the two
    ("Summary faxed to SGH Intensive Care Unit (04-5)", ("SGH Intensive Care Unit", "DEPARTMENT"),
     [("SGH", "HOSPITAL"), ("Intensive Care Unit", "DEPARTMENT")]),
    # a hospital and its Chinese department in one span: the two
    ("先送協和加護病房, 穩定後轉本院", ("協和加護病房", "DEPARTMENT"),
     [("協和", "HOSPITAL"), ("加護病房", "DEPARTMENT")]),
    ("先送阮綜合加護病房, 穩定後轉本院", ("阮綜合加護病房", "HOSPITAL"),
     [("阮綜合", "HOSPITAL"), ("加護病房", "DEPARTMENT")]),
    ("先送雙和加護病房, 穩定後轉本院", ("雙和加護病房", "SCHOOL"), [("雙和", "HOSPITAL"), ("加護病房", "DEPARTMENT")]),
    ("轉入台大醫院加護病房", ("台大醫院加護病房", "DEPARTMENT"), [("台大醫院", "HOSPITAL"), ("加護病房", "DEPARTMENT")]),
])
def test_department_names_are_relabelled_trimmed_or_split(text, found, expected):
    assert repaired(text, found, by_department) == (1, expected)
    assert by_step(text, found) == expected


@pytest.mark.parametrize("text,found,expected", [
    # a department span drops what annotation.md keeps outside it (the cue rules of the step)
    ("Visit date 2218.08.05, Ophthalmology clinic 56診", ("Ophthalmology clinic", "DEPARTMENT"),
     [("Ophthalmology", "DEPARTMENT")]),
    ("因情緒不穩於1130530經外科收住院", ("外科收住院", "DEPARTMENT"), [("外科", "DEPARTMENT")]),
    ("經急診部收治", ("急診部收", "DEPARTMENT"), [("急診部", "DEPARTMENT")]),
    ("日期 2215/5/11  科別 外科  醫師", ("科別 外科", "DEPARTMENT"), [("外科", "DEPARTMENT")]),
    ("MCH Department of Intensive Care Unit", ("of Intensive Care Unit", "DEPARTMENT"),
     [("Intensive Care Unit", "DEPARTMENT")]),
    # a word for a person is no unit: a PROFESSION alone, and the name after it a PERSON
    ("308/03/31 職能治療師呂老師評估", ("職能治療師呂", "DEPARTMENT"), [("呂", "PERSON")]),
    ("團隊會議: 社工、心理師、職能治療師、護理長均出席", ("職能治療師", "DEPARTMENT"), [("職能治療師", "PROFESSION")]),
    # a department span that is an institution and the unit word of a department's phrase: the institution
    ("GDH Department of Psychiatry", ("GDH Department of", "DEPARTMENT"), [("GDH", "HOSPITAL")]),
    ("WFH DEPARTMENT OF AW", ("WFH DEPARTMENT", "DEPARTMENT"), [("WFH", "HOSPITAL")]),
    # both ends at once: the cuts compose
    ("轉入 科別：精神科門診", ("科別：精神科門診", "DEPARTMENT"), [("精神科", "DEPARTMENT")]),
    ("seen by Division of Nephrology consult", ("Division of Nephrology consult", "DEPARTMENT"),
     [("Nephrology", "DEPARTMENT")]),
])
def test_the_department_rules_trim_a_span_or_read_the_person_word_it_starts_with(text, found, expected):
    assert by_step(text, found) == expected
    assert repaired(text, found, by_department) == (0, [found])  # the rules do it, not the code


@pytest.mark.parametrize("text,found", [
    ("科別：", ("科別：", "DEPARTMENT")),  # nothing would be left
    ("the clinic", ("clinic", "DEPARTMENT")),
    ("經外科收住院", ("外科收住院", "CITY")),  # the rules read departments only
])
def test_a_department_trim_leaves_something_of_its_own_label(text, found):
    assert by_step(text, found) == [found]


@pytest.mark.parametrize("text,found", [
    ("called the Police Department twice", ("Police Department", "GENERAL_BUSINESS")),  # generic head alone
    ("studies at Taipei Medical University", ("Taipei Medical University", "SCHOOL")),
    ("works at TSMC since 2019", ("TSMC", "GENERAL_BUSINESS")),
    ("his surgery at NTUH", ("NTUH", "HOSPITAL")),
    ("Mackay Memorial Hospital", ("Mackay Memorial Hospital", "HOSPITAL")),
    ("studied at NTU College of Medicine", ("NTU College of Medicine", "SCHOOL")),  # a school's `of`
    ("graduated from School of Nursing", ("School of Nursing", "SCHOOL")),
    ("科學園區上班", ("科學園區", "LOCATION")),  # 科 starts it, does not end it
    ("心臟內科加護病房", ("心臟內科加護病房", "DEPARTMENT")),  # a unit of a department is one name
    ("骨科部", ("骨科部", "DEPARTMENT")),
    ("Psychiatry", ("Psychiatry", "DEPARTMENT")),
    ("seen by surgery today", ("surgery", "PERSON")),  # lower case: a word, not a name
    ("f/u at NTUH OPD on 2/3", ("NTUH", "HOSPITAL")),  # a hospital's own clinic
    ("engineer at 竹科 since 2019", ("竹科", "CITY")),  # a science park: two characters, no specialty
    ("讀專科時開始喝酒", ("專科", "SCHOOL")),  # a college
    ("Return to TSMC clinical trials", ("TSMC", "GENERAL_BUSINESS")),  # `clinical` is not `clinic`
    ("works at TSMC; OPD f/u", ("TSMC", "GENERAL_BUSINESS")),  # the clinic is not right after it
    ("presented to the Emergency Department", ("Emergency Department", "DEPARTMENT")),  # a department's name
    ("General Hospital Department of Surgery", ("General Hospital Department of", "DEPARTMENT")),
    ("seen in the Department of Surgery", ("the Department of", "DEPARTMENT")),  # no name before the unit
    ("To: ER Intensive Care Unit", ("ER Intensive Care Unit", "DEPARTMENT")),  # ER names a department
    ("回新中醫院內科追蹤", ("新中醫院", "HOSPITAL")),  # ends where the department starts
    ("轉加護病房", ("轉加", "LOCATION")),  # one character would be left
    ("轉入成人加護病房", ("成人加護病房", "DEPARTMENT")),  # a common word before the unit: no hospital
    ("會診本院加護病房", ("本院加護病房", "DEPARTMENT")),  # this hospital names none
])
def test_names_that_are_not_department_names_are_left_alone(text, found):
    assert repaired(text, found, by_department) == (0, [found])


def test_rule_spans_are_never_repaired():
    text = "return to RADIOLOGY OPD"
    doc = doc_with_ents(text, [("RADIOLOGY", "COUNTRY")], source="rule")
    assert apply_span_repair(doc, text, by_department) == 0


def test_department_start_and_trim_offsets_point_into_the_text():
    text = "CMMC Department of Psychosomatic Medicine"
    phrase, name = department_start(text)
    assert text[phrase:] == "Department of Psychosomatic Medicine"
    assert text[name:] == "Psychosomatic Medicine"
    note = "轉入 科別：精神科門診"
    start, end, label = default_cue_rules().apply(note, 3, len(note), "DEPARTMENT", "departments")
    assert (note[start:end], label) == ("精神科", "DEPARTMENT")


def test_the_deid_component_splits_and_surrogates_both_parts():
    from spacy.language import Language

    from ner_spans import deid_after

    @Language.component("test_departments_fake_ner")
    def fake_ner(doc):
        start = doc.text.index("SGH")
        doc.ents = [doc.char_span(start, start + len("SGH Thoracic Surgery"), label="HOSPITAL")]
        return doc

    nlp = deid_after("test_departments_fake_ner")
    doc = nlp("The 40-year-old presented to SGH Thoracic Surgery on 2020/01/02 with mania.")
    labels = [(e.text, e.label_) for e in doc.ents]
    assert ("SGH", "HOSPITAL") in labels and ("Thoracic Surgery", "DEPARTMENT") in labels
    assert "Thoracic Surgery" not in doc._.deid_text and "SGH" not in doc._.deid_text


def test_cost_grows_linearly_with_long_adversarial_spans():
    def run(n: int) -> None:
        words = "GENERAL " * n + "SURGERY"
        department_start(words)
        visit = "Department of " + words + " " * n + "clinic"
        default_cue_rules().apply(visit, 0, len(visit), "DEPARTMENT", "departments")
        spaced = "of" + " " * n + "x"
        default_cue_rules().apply(spaced, 0, len(spaced), "DEPARTMENT", "departments")

    assert_linear(run, 20000)


def test_cost_grows_linearly_with_the_number_of_spans():
    def run(n: int) -> None:
        text = "at SGH Thoracic Surgery, " * n
        doc = spacy_deid.blank().make_doc(text)
        spans, pos = [], 0
        for _ in range(n):
            a = text.index("SGH", pos)
            spans.append(doc.char_span(a, a + len("SGH Thoracic Surgery"), label="HOSPITAL"))
            pos = a + 5
        doc.ents = spans
        apply_span_repair(doc, text, by_department)

    assert_linear(run, 2000)
