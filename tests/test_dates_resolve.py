"""Majority vote over a patient's notes, document vote, ties and the configurable default."""
import pytest

import spacy_deid
from spacy_deid.dates import parse, resolve_dates


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates")
    return nlp


def _notes(nlp, texts, patient_id="P1"):
    docs = []
    for text in texts:
        doc = nlp(text)
        doc._.patient_id = patient_id
        docs.append(doc)
    return docs


def _date(doc, surface):
    return next(e for e in doc.ents if e.text == surface)


def test_minguo_patient_reads_two_digit_year_as_minguo(nlp):
    docs = _notes(nlp, ["門診 100/01/05 追蹤", "再入院 99/05/12"])
    spacy_deid.resolve_dates(docs)
    span = _date(docs[1], "99/05/12")
    assert (span._.date_norm, span._.date_resolution) == ("2010-05-12", "patient-vote")
    assert _date(docs[0], "100/01/05")._.date_resolution == "unambiguous"


def test_christian_patient_reads_two_digit_year_as_christian(nlp):
    docs = _notes(nlp, ["Seen 2011/01/05 at OPD", "Admitted 99/05/12"])
    resolve_dates(docs)
    span = _date(docs[1], "99/05/12")
    assert (span._.date_norm, span._.date_resolution) == ("1999-05-12", "patient-vote")


def test_month_first_and_day_first_patients(nlp):
    us = _notes(nlp, ["Seen 12/27/2023.", "Seen 01/03/2024."], "US")
    uk = _notes(nlp, ["Seen 25/12/2023.", "Seen 01/03/2024."], "UK")
    resolve_dates(us + uk)
    assert _date(us[1], "01/03/2024")._.date_norm == "2024-01-03"
    assert _date(uk[1], "01/03/2024")._.date_norm == "2024-03-01"
    assert _date(uk[1], "01/03/2024")._.date_resolution == "patient-vote"


def test_partial_dates_vote_on_order(nlp):
    docs = _notes(nlp, ["Seen 25/12 and 3/4"])
    resolve_dates(docs)
    assert _date(docs[0], "3/4")._.date_norm == "--04-03"


def test_patient_with_conflicting_formats_follows_the_majority(nlp):
    docs = _notes(nlp, ["入院 100/01/05", "出院 100.02.03", "Lab 2011/02/10", "追蹤 99/05/12"])
    resolve_dates(docs)
    assert _date(docs[3], "99/05/12")._.date_norm == "2010-05-12"
    docs = _notes(nlp, ["Lab 2011/01/05", "Lab 2011-02-03", "入院 100/02/10", "追蹤 99/05/12"])
    resolve_dates(docs)
    assert _date(docs[3], "99/05/12")._.date_norm == "1999-05-12"


def test_patient_tie_falls_back_to_default(nlp):
    docs = _notes(nlp, ["入院 100/01/05", "Lab 2011/01/05", "追蹤 99/05/12"])
    resolve_dates(docs)
    span = _date(docs[2], "99/05/12")
    assert (span._.date_norm, span._.date_resolution) == ("2010-05-12", "default")


def test_patient_tie_broken_by_the_document(nlp):
    docs = _notes(nlp, ["入院 100/01/05", "Lab 2011/01/05, 追蹤 99/05/12"])
    resolve_dates(docs)
    span = _date(docs[1], "99/05/12")
    assert (span._.date_norm, span._.date_resolution) == ("1999-05-12", "document-vote")


def test_document_vote_without_patient_context(nlp):
    doc = nlp("Lab 2011/01/05, 追蹤 99/05/12")  # the component resolves within the document
    span = _date(doc, "99/05/12")
    assert (span._.date_norm, span._.date_resolution) == ("1999-05-12", "document-vote")


def test_notes_of_different_patients_do_not_vote_together(nlp):
    a = _notes(nlp, ["Lab 2011/01/05"], "A")
    b = _notes(nlp, ["追蹤 99/05/12"], "B")
    resolve_dates(a + b)
    assert _date(b[0], "99/05/12")._.date_resolution == "default"


def test_same_patient_flag_groups_docs_without_ids(nlp):
    docs = [nlp("Seen 2011/01/05"), nlp("Admitted 99/05/12")]
    resolve_dates(docs, same_patient=True)
    assert _date(docs[1], "99/05/12")._.date_norm == "1999-05-12"


@pytest.mark.parametrize("text,default,norm", [
    ("追蹤 99/05/12", None, "2010-05-12"),
    ("追蹤 99/05/12", ["christian/ymd", "minguo/ymd"], "1999-05-12"),
    ("Born 23/04/05", None, "2023-04-05"),  # 民國23 (1934) is below the plausible Minguo years
    ("Seen 01/03/2024", None, "2024-01-03"),
    ("Seen 01/03/2024", ["christian/dmy", "christian/mdy"], "2024-03-01"),
])
def test_configurable_default(nlp, text, default, norm):
    doc = nlp(text)
    resolve_dates([doc], default)
    span = [e for e in doc.ents if e.label_ == "DATE"][0]
    assert (span._.date_norm, span._.date_resolution) == (norm, "default")


def test_default_preference_from_config():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates", config={"default_preference": ["christian/ymd", "minguo/ymd"]})
    assert nlp("追蹤 99/05/12").ents[0]._.date_norm == "1999-05-12"


def test_selected_reading_is_marked(nlp):
    doc = nlp("追蹤 99/05/12")
    readings = doc.ents[0]._.date_readings
    assert [r["value"] for r in readings if r["selected"]] == ["2010-05-12"]
    assert len(readings) == 2


def test_resolve_dates_without_the_component():
    nlp = spacy_deid.blank()
    doc = nlp("Lab 2011/01/05 then 99/05/12")
    spans = []
    for start, end in ((4, 14), (20, 28)):
        span = doc.char_span(start, end, label="DATE")
        span._.date_readings = parse(span.text)
        spans.append(span)
    doc.ents = spans
    spacy_deid.resolve_dates([doc])
    assert [e._.date_norm for e in doc.ents] == ["2011-01-05", "1999-05-12"]


def test_partial_year_from_context():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates", config={"partial_year_from_context": True})
    doc = nlp("110.12.20 入院, 12/25 開刀, 2022/01/03 出院, 九月 回診")
    by_text = {e.text: e for e in doc.ents}
    assert by_text["12/25"]._.date_norm == "2021-12-25"
    assert by_text["12/25"]._.date_resolution == "unambiguous+year-from-context"
    assert by_text["九月"]._.date_norm == "2022-09"


def test_partial_dates_keep_their_precision_by_default(nlp):
    doc = nlp("110.12.20 入院, 12/25 開刀")
    assert [e._.date_norm for e in doc.ents] == ["2021-12-20", "--12-25"]
