"""spacy_deid.deidentify: patient groups, input order, per-record errors, consistency, zero leaks."""
import itertools
import re
from datetime import date

import pytest

import spacy_deid
from spacy_deid.batch import DeidResult, deidentify, prepare
from spacy_deid.corpus import CorpusError
from spacy_deid.synth import generate

from deid_notegen import make_notes


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"demo_key": True})
    return nlp


def check_offsets(original: str, result: DeidResult) -> None:
    out = result.deid_text
    for rep in result.replacements:
        assert out[rep["out_start"]:rep["out_end"]] == rep["surrogate"]
        assert 0 <= rep["start"] < rep["end"] <= len(original)
        if rep["operator"] == "keep":  # ages are kept by the default policy (issue: "Ages: kept by default")
            assert rep["label"] == "AGE" and rep["surrogate"] == original[rep["start"]:rep["end"]]
        else:
            assert rep["surrogate"] != original[rep["start"]:rep["end"]]


# -- grouping (no pipeline needed) -----------------------------------------------------------------
def _groups(records, grouping="contiguous"):
    return [[it.index for it in g] for g in prepare(records, grouping=grouping)]


def test_grouping_contiguous_and_full():
    recs = [{"id": i, "patient_id": p, "text": "x"} for i, p in enumerate("AABACC")]
    assert _groups(recs) == [[0, 1], [2], [3], [4, 5]]
    assert _groups(recs, "full") == [[0, 1, 3], [2], [4, 5]]


def test_grouping_errors_and_patientless_records():
    recs = [{"id": 0, "patient_id": "A", "text": "x"}, {"id": 1, "patient_id": "A"},
            {"id": 2, "patient_id": "A", "text": "y"}, {"id": 3, "text": "z"}, {"id": 4, "text": "w"}]
    # a broken record inside a patient does not split the patient; patient-less notes stand alone
    assert _groups(recs) == [[0, 1, 2], [3], [4]]


def test_grouping_rejects_unknown_mode():
    with pytest.raises(ValueError, match="grouping"):
        list(prepare([], grouping="sorted"))


# -- results -----------------------------------------------------------------------------------------
def test_results_in_input_order_with_errors(nlp):
    records = [
        {"id": "a1", "patient_id": "A", "text": "電話 0912-345-678"},
        {"id": "bad", "patient_id": "A"},
        {"id": "b1", "patient_id": "B", "text": "MRN 1234567 on 2023/03/14"},
        CorpusError("invalid JSON", line=4, source="in.jsonl"),
        {"id": "a2", "patient_id": "A", "text": "0912-345-678 again"},
        {"id": "long", "patient_id": "C", "text": "x" * 101},
        {"id": "num", "patient_id": "C", "text": 12},
        {"id": "empty", "patient_id": "C", "text": ""},
    ]
    results = list(deidentify(nlp, records, max_chars=100))
    assert [r.id for r in results] == ["a1", "bad", "b1", None, "a2", "long", "num", "empty"]
    errors = {r.id: r.error for r in results if not r.ok}
    assert "missing text field 'text'" in errors["bad"] and "'bad'" in errors["bad"]
    assert "line 4" in errors[None]
    assert "over the limit of 100" in errors["long"] and "x" * 20 not in errors["long"]
    assert "not a string" in errors["num"]
    ok = {r.id: r for r in results if r.ok}
    assert set(ok) == {"a1", "b1", "a2", "empty"}
    assert ok["empty"].deid_text == "" and ok["empty"].replacements == []
    # the same phone of the same patient gets the same surrogate in both notes (unsorted input)
    s1 = ok["a1"].replacements[0]["surrogate"]
    assert ok["a2"].deid_text.startswith(s1) and "0912-345-678" not in ok["a1"].deid_text


def test_records_accept_corpus_records(nlp, dev_records):
    results = list(deidentify(nlp, dev_records))
    assert [r.id for r in results] == [r.id for r in dev_records]
    for record, result in zip(dev_records, results):
        assert result.ok, result.error
        check_offsets(record.text, result)


def test_same_patient_consistency_and_date_intervals(nlp, dev_records):
    """D01's name-free PHI: the record number is shared; dates keep their exact day intervals."""
    results = {r.id: r for r in deidentify(nlp, dev_records)}
    d1, d2 = results["D01-1"], results["D01-2"]
    dates = []
    for rec, res in ((dev_records[0], d1), (dev_records[1], d2)):
        for rep in res.replacements:
            if rep["label"] == "DATE":
                dates.append((rec.text[rep["start"]:rep["end"]], rep["surrogate"]))
    roc = re.compile(r"^(\d{3})\.(\d{2})\.(\d{2})$")
    pairs = [(roc.match(o), roc.match(s)) for o, s in dates if roc.match(o)]
    assert len(pairs) >= 3
    def to_date(m):
        return date(int(m.group(1)) + 1911, int(m.group(2)), int(m.group(3)))
    shifts = {(to_date(s) - to_date(o)).days for o, s in pairs}
    assert len(shifts) == 1 and shifts != {0}


def test_deterministic_across_runs(nlp, dev_records):
    first = [r.to_dict() for r in deidentify(nlp, dev_records)]
    other = spacy_deid.blank()
    other.add_pipe("deid", config={"demo_key": True})
    assert [r.to_dict() for r in deidentify(other, dev_records)] == first


def test_generated_notes_zero_leaks(nlp):
    records, phi = make_notes(1000, seed=7)
    results = list(deidentify(nlp, records))
    assert len(results) == 1000
    leaks = []
    for record, strings, result in zip(records, phi, results):
        assert result.ok, result.error
        check_offsets(record["text"], result)
        leaks.extend((record["id"], s) for s in strings if s in result.deid_text)
    assert leaks == []


def test_same_name_same_surrogate_across_notes(nlp):
    records = [
        {"id": "1", "patient_id": "P", "text": "身分證 A123456789, 電話 0912-345-678"},
        {"id": "2", "patient_id": "P", "text": "電話 0912-345-678 ID A123456789"},
    ]
    r1, r2 = deidentify(nlp, records)
    s1 = {rep["label"]: rep["surrogate"] for rep in r1.replacements}
    s2 = {rep["label"]: rep["surrogate"] for rep in r2.replacements}
    assert s1 == s2


def test_pipeline_without_deid_is_an_error():
    with pytest.raises(ValueError, match="add_pipe\\('deid'\\)"):
        list(deidentify(spacy_deid.blank(), [{"id": "1", "text": "x"}]))


def test_names_from_ner_get_one_surrogate_per_patient(dev_records):
    """With an entity recognizer in front (an entity_ruler standing in for a trained ner, fed the
    fixture's own name spans), a name gets the same surrogate in every note of its patient."""
    nlp = spacy_deid.blank()
    ruler = nlp.add_pipe("entity_ruler", name="ner")
    names = {(s.text, s.label) for r in dev_records for s in r.spans if s.label in ("PATIENT", "FAMILY")}
    ruler.add_patterns([{"label": label, "pattern": [{"TEXT": t.text} for t in nlp.make_doc(text)]}
                        for text, label in sorted(names)])
    nlp.add_pipe("deid", config={"demo_key": True})
    records = [r for r in dev_records if r.patient_id == "D01"]
    records = records + records  # the same notes twice: four notes of one patient
    results = list(deidentify(nlp, records))
    chosen = {}
    for record, result in zip(records, results):
        check_offsets(record.text, result)
        for rep in result.replacements:
            if rep["source"] == "ner":
                original = record.text[rep["start"]:rep["end"]]
                chosen.setdefault(original, set()).add(rep["surrogate"])
                assert original not in result.deid_text
    assert "張淑華" in chosen and all(len(s) == 1 for s in chosen.values())


def test_missing_key_stops_the_batch(monkeypatch):
    """A missing key is not a record's fault: the batch stops with the key error, not N record errors."""
    from spacy_deid.surrogates.keys import MissingKeyError

    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid")
    with pytest.raises(MissingKeyError, match="SPACY_DEID_KEY"):
        list(deidentify(nlp, [{"id": "1", "patient_id": "P", "text": "0912-345-678"},
                              {"id": "2", "patient_id": "P", "text": "0912-345-678"}]))


def test_a_patients_notes_in_any_order_give_the_same_output(monkeypatch):
    """The shipped pipeline's output for a patient does not depend on the order of the patient's notes (its
    vote and the spreading of names count, they do not take the first one met): a patient split across files
    or Spark partitions reads as one read whole."""
    monkeypatch.setenv("SPACY_DEID_KEY", "batch-order-test-key-0123456789")
    default = spacy_deid.load()
    records = [{"id": r.id, "patient_id": r.patient_id, "text": r.text}
               for r in generate(10, seed=45, split="heldout", notes_per_patient=(4, 5))]
    first = {r.id: r.deid_text for r in deidentify(default, records)}
    patients = [list(notes) for _, notes in itertools.groupby(records, key=lambda r: r["patient_id"])]
    assert len(patients) == 10
    for order in (records[::-1], [r for notes in patients for r in notes[0::2] + notes[1::2]]):
        got = {r.id: r.deid_text for r in deidentify(default, order)}
        assert got == first
