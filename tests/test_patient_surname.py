"""patient_surname: over a patient's notes, a bare surname with a form of address that the NER called the
patient is a relative when the notes give the patient another surname."""
from spacy_deid.patient_surname import patient_surname, relabel_other_surnames

import spacy_deid
from linear import assert_linear
from ner_spans import doc_with_ents, ents_of

HEADER = "姓名: 王大明 男 45歲\n"


def _notes(*bodies):
    """One doc per body, each with the header naming the patient (PATIENT), and the body's spans."""
    docs = []
    for body, ents in bodies:
        text = HEADER + body
        doc = spacy_deid.blank().make_doc(text)
        spans = [doc.char_span(HEADER.index("王大明"), HEADER.index("王大明") + 3, label="PATIENT")]
        for part, label in ents:
            start = text.index(part, len(HEADER))
            spans.append(doc.char_span(start, start + len(part), label=label))
        doc.ents = spans
        for span in doc.ents:
            span._.source = "ner"
        docs.append(doc)
    return docs


def test_the_patients_surname_is_the_one_most_patient_names_share():
    docs = _notes(("與呂先生討論出院後安置", [("呂", "PATIENT")]), ("王先生情緒穩定", [("王", "PATIENT")]))
    assert patient_surname(docs) == "王"


def test_another_surname_addressed_as_the_patient_would_be_is_family():
    docs = _notes(("社工會談紀錄: 與呂先生討論出院後安置", [("呂", "PATIENT")]),
                  ("目前寄住在盧阿姨家", [("盧", "PATIENT")]),
                  ("王先生情緒穩定, 呂先生來訪", [("王", "PATIENT")]))
    assert relabel_other_surnames(docs) == 2
    assert [ents_of(doc)[1:] for doc in docs] == [[("呂", "FAMILY")], [("盧", "FAMILY")], [("王", "PATIENT")]]
    assert [e._.source for doc in docs for e in doc.ents] == ["ner"] * 6


def test_nothing_is_decided_from_one_mention_or_a_tie():
    one = [doc_with_ents(HEADER + "與呂先生討論", [("王大明", "PATIENT"), ("呂", "PATIENT")], source="ner")]
    assert patient_surname(one) is None and relabel_other_surnames(one) == 0
    tie = [doc_with_ents("病人王大明, 病人陳小美, 病人王小明, 病人陳大同; 呂先生",
                         [("王大明", "PATIENT"), ("陳小美", "PATIENT"), ("王小明", "PATIENT"),
                          ("陳大同", "PATIENT"), ("呂", "PATIENT")], source="ner")]
    assert patient_surname(tie) is None and relabel_other_surnames(tie) == 0


def test_only_the_ners_bare_surnames_with_a_form_of_address_change():
    docs = _notes(("呂小明來電; 林表示同意", [("呂小明", "PATIENT"), ("林", "PATIENT")]))
    docs.append(doc_with_ents(HEADER + "病患: 呂先生", [("王大明", "PATIENT"), ("呂", "PATIENT")], source="rules"))
    assert relabel_other_surnames(docs) == 0  # a full name, no title after it, a rule's patient field
    assert ents_of(docs[0])[1:] == [("呂小明", "PATIENT"), ("林", "PATIENT")]
    assert ents_of(docs[1])[1] == ("呂", "PATIENT")


def test_cost_grows_linearly_with_the_number_of_notes():
    def run(n):
        relabel_other_surnames(_notes(*[("與呂先生討論", [("呂", "PATIENT")])] * n))
    assert_linear(run, 200)
