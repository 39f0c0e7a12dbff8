"""Records ↔ Docs (corpus/docs.py): ents, ids, DATE norms, misalignment and overlap policies."""
import pytest
from spacy.tokens import DocBin

import spacy_deid
from spacy_deid.corpus import (AlignmentReport, CorpusError, PhiSpan, Record, doc_to_record, parse_inline,
                               record_to_doc, records_to_docs)


@pytest.fixture(scope="module")
def nlp():
    return spacy_deid.blank()


def test_record_to_doc_and_back(nlp):
    record = parse_inline("«林美華|PATIENT» 於«110.03.02|DATE=2021-03-02»到«高雄|CITY»", record_id="n1", patient_id="P7")
    record.meta["ward"] = "7A"
    doc = record_to_doc(nlp, record)
    assert [(e.text, e.label_) for e in doc.ents] == [("林美華", "PATIENT"), ("110.03.02", "DATE"), ("高雄", "CITY")]
    assert (doc._.doc_id, doc._.patient_id) == ("n1", "P7")
    assert doc.ents[1]._.date_norm == "2021-03-02"
    back = doc_to_record(doc)
    assert back == record


def test_docs_survive_docbin(nlp):
    records = [parse_inline("Dr. «Huang|DOCTOR» on «3/14|DATE=--03-14»", record_id="a", patient_id="P1")]
    docbin = DocBin(store_user_data=True, docs=records_to_docs(records, nlp=nlp))
    [doc] = DocBin(store_user_data=True).from_bytes(docbin.to_bytes()).get_docs(nlp.vocab)
    assert doc_to_record(doc) == records[0]


# "Chang" ends inside the token "Chang123"; "123 o" starts inside it and ends inside "ok".
TEXT = "ID Chang123 ok now"


@pytest.mark.parametrize("policy, span, expected", [
    ("expand", (3, 8), "Chang123"),
    ("contract", (3, 8), None),            # no whole token inside: dropped
    ("expand", (8, 13), "Chang123 ok"),
    ("contract", (6, 14), "ok"),
    ("drop", (3, 8), None),
])
def test_misaligned_policies(nlp, policy, span, expected):
    record = Record(id="m", text=TEXT, spans=[PhiSpan(span[0], span[1], "PATIENT", TEXT[span[0]:span[1]])])
    report = AlignmentReport()
    doc = record_to_doc(nlp, record, misaligned=policy, report=report)
    assert [e.text for e in doc.ents] == ([expected] if expected else [])
    action = {"expand": "expanded", "contract": "contracted", "drop": "dropped"}[policy]
    if expected is None:
        action = "dropped"
    assert getattr(report, action) == 1 and report.record_ids == {action: ["m"]}
    assert report.aligned == 0 and report.spans == 1


def test_misaligned_error(nlp):
    record = Record(id="m", text=TEXT, spans=[PhiSpan(3, 8, "PATIENT", "Chang")])
    with pytest.raises(CorpusError, match="record 'm'.*does not align"):
        record_to_doc(nlp, record, misaligned="error")
    with pytest.raises(ValueError, match="misaligned must be"):
        record_to_doc(nlp, record, misaligned="shrink")


def test_overlapping_spans_longest_wins(nlp):
    text = "at Kessler Adventist Hosp today"
    spans = [PhiSpan(3, 20, "HOSPITAL", "Kessler Adventist"), PhiSpan(11, 25, "HOSPITAL", "Adventist Hosp"),
             PhiSpan(26, 31, "DATE", "today")]
    report = AlignmentReport()
    doc = record_to_doc(nlp, Record(id="o", text=text, spans=spans), report=report)
    assert [e.text for e in doc.ents] == ["Kessler Adventist", "today"]
    assert report.overlap_dropped == 1 and report.record_ids == {"overlap_dropped": ["o"]}


def test_prediction_record_carries_deid_output(nlp):
    doc = nlp.make_doc("Pt 林美華 here")
    doc.ents = [doc.char_span(3, 6, label="PATIENT")]
    doc._.doc_id = "p1"
    doc._.deid_text = "Pt 陳小玲 here"
    doc._.replacements = [{"start": 3, "end": 6, "out_start": 3, "out_end": 6, "surrogate": "陳小玲",
                           "label": "PATIENT"}]
    record = doc_to_record(doc)
    data = record.to_dict()
    assert data["deid_text"] == "Pt 陳小玲 here" and data["replacements"][0]["surrogate"] == "陳小玲"
    assert data["spans"] == [{"start": 3, "end": 6, "label": "PATIENT", "text": "林美華"}]
