"""Shipped label maps: complete for their corpora's label names, valid targets, nulls explained."""
import json

import pytest

from spacy_deid.corpus import LabelMap, PhiSpan, Record, available_label_maps, load_label_map
from spacy_deid.labels import LABELS

I2B2_2014_TYPES = ["PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "ROOM", "DEPARTMENT", "HOSPITAL",
                   "ORGANIZATION", "STREET", "CITY", "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER", "AGE", "DATE",
                   "PHONE", "FAX", "EMAIL", "URL", "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE",
                   "DEVICE", "VEHICLE", "BIOID", "IDNUM"]
# Label names as the corpora's documentation lists them (names only, nothing from their texts).
EXPECTED_KEYS = {
    "i2b2_2014": I2B2_2014_TYPES,
    "aicup2020": ["name", "location", "time", "contact", "ID", "profession", "biomarker", "family",
                  "clinical_event", "special_skills", "unique_treatment", "account", "organization",
                  "education", "money", "belonging_mark", "med_exam", "others"],
    "physionet_deid": ["HCPName", "Date", "Location", "RelativeProxyName", "PTName", "Phone", "DateYear", "Age",
                       "Other", "PTNameInitial"],
    "presidio_synth_v2": ["PERSON", "STREET_ADDRESS", "GPE", "ORGANIZATION", "CREDIT_CARD", "DATE_TIME", "TITLE",
                          "PHONE_NUMBER", "AGE", "NRP", "EMAIL_ADDRESS", "ZIP_CODE", "DOMAIN_NAME", "IBAN_CODE",
                          "US_SSN", "IP_ADDRESS", "US_DRIVER_LICENSE"],
    "asq_phi": ["GEOGRAPHIC_LOCATION", "NAME", "DATE", "MEDICAL_RECORD_NUMBER", "HEALTH_PLAN_BENEFICIARY_NUMBER",
                "PHONE_NUMBER", "SOCIAL_SECURITY_NUMBER", "EMAIL_ADDRESS", "UNIQUE_IDENTIFIER", "ACCOUNT_NUMBER",
                "FAX_NUMBER", "CERTIFICATE_LICENSE_NUMBER", "IP_ADDRESS"],
}


def test_shipped_maps():
    assert available_label_maps() == sorted(EXPECTED_KEYS)


@pytest.mark.parametrize("name", sorted(EXPECTED_KEYS))
def test_map_covers_its_corpus_labels(name):
    lm = load_label_map(name)
    assert set(EXPECTED_KEYS[name]) <= set(lm.mapping)
    assert all(v is None or v in LABELS for v in lm.mapping.values())
    for label in lm.ignored_labels:  # every null says why
        assert lm.notes.get(label), label
    assert lm.source and lm.description


@pytest.mark.parametrize("name, label, target", [
    ("i2b2_2014", "MEDICALRECORD", "MEDICAL_RECORD"), ("i2b2_2014", "HEALTHPLAN", "NIC"),
    ("i2b2_2014", "LOCATION-OTHER", "LOCATION"), ("i2b2_2014", "FAX", "PHONE"),
    ("aicup2020", "med_exam", None), ("aicup2020", "money", None), ("aicup2020", "time", "DATE"),
    ("physionet_deid", "HCPName", "DOCTOR"), ("physionet_deid", "RelativeProxyName", "FAMILY"),
    ("presidio_synth_v2", "TITLE", None), ("asq_phi", "MEDICAL_RECORD_NUMBER", "MEDICAL_RECORD"),
])
def test_selected_mappings(name, label, target):
    assert load_label_map(name).map_label(label) == target


def _record():
    text = "Dr. Huang charged 500 NTD; Pt Lee"
    return Record(id="r1", text=text, spans=[PhiSpan(4, 9, "HCPName", "Huang"), PhiSpan(18, 21, "money", "500"),
                                             PhiSpan(30, 33, "Weird", "Lee")])


@pytest.mark.parametrize("policy, labels, unmapped", [
    ("ignore", ["DOCTOR"], {"Weird": 1}),
    ("keep", ["DOCTOR", "Weird"], {"Weird": 1}),
])
def test_apply_policies(policy, labels, unmapped):
    lm = LabelMap(name="t", mapping={"HCPName": "DOCTOR", "money": None}, unmapped=policy)
    out = lm.apply(_record())
    assert [s.label for s in out.spans] == labels
    assert lm.report.ignored == {"money": 1} and lm.report.unmapped == unmapped and lm.report.mapped == {"HCPName": 1}


def test_apply_error_names_record_and_label():
    lm = LabelMap(name="t", mapping={"HCPName": "DOCTOR", "money": None})
    with pytest.raises(Exception, match=r"record 'r1'.*'Weird'"):
        lm.apply(_record())


def test_map_file_validation(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"name": "m", "map": {"X": "NOT_A_LABEL"}}), encoding="utf-8")
    with pytest.raises(ValueError, match="outside the scheme"):
        load_label_map(path)
    path.write_text(json.dumps({"name": "m", "map": {"X": "DATE"}, "colour": 1}), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown keys"):
        load_label_map(path)
    path.write_text(json.dumps({"name": "m", "map": {"X": "DATE", "Y": None}}), encoding="utf-8")
    assert load_label_map(path).mapping == {"X": "DATE", "Y": None}
    with pytest.raises(ValueError, match="no label map"):
        load_label_map("no_such_map")


def _titled():
    text = "林醫師說王主治醫師和醫師都在，陳先生也來了"
    return Record(id="r2", text=text, spans=[PhiSpan(0, 3, "name", "林醫師"), PhiSpan(4, 9, "name", "王主治醫師"),
                                             PhiSpan(10, 12, "name", "醫師"), PhiSpan(15, 18, "name", "陳先生"),
                                             PhiSpan(19, 21, "time", "來了")])


def test_scheme_spans_trim_the_title_a_corpus_keeps_inside_a_name():
    """annotation.md keeps `[林]醫師`; AI CUP writes `[林醫師]`. Trimmed only when asked, longest title first,
    never to nothing, and only for the labels the map names."""
    as_written = load_label_map("aicup2020").apply(_titled())
    assert [s.text for s in as_written.spans] == ["林醫師", "王主治醫師", "醫師", "陳先生", "來了"]
    lm = load_label_map("aicup2020", scheme_spans=True)
    out = lm.apply(_titled())
    assert [s.text for s in out.spans] == ["林", "王", "醫師", "陳", "來了"]
    assert all(out.text[s.start:s.end] == s.text for s in out.spans)
    assert lm.report.trimmed == {"name": 3}
    assert lm.to_dict()["titles_inside"] == ["name"]


def test_titles_inside_must_name_labels_of_the_map(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"name": "m", "map": {"X": "PERSON"}, "titles_inside": ["Y"]}), encoding="utf-8")
    with pytest.raises(ValueError, match="titles_inside"):
        load_label_map(path)
