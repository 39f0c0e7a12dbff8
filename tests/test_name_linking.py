"""Names across a patient's notes (issue 47, point 8): a name found in one note, its given name and its
romanized forms are found in all of them, a given name after a tagged surname joins its span, and a
romanized form of a patient's Han name gets the romanization of that name's surrogate."""
import re
from itertools import groupby

import pytest
from pypinyin import Style, lazy_pinyin
from spacy.language import Language

import spacy_deid
from linear import assert_linear
from spacy_deid.refine.address_parts import _street
from spacy_deid.batch import deidentify
from spacy_deid.labels import NAME_LABELS
from spacy_deid.name_forms import han_name_parts, identifying_forms, name_forms
from spacy_deid.romanize import PINYIN, WADE_GILES, full_forms, style_of, syllable
from spacy_deid.synth import generate

from ner_spans import deid_after

# Stands in for a trained NER that finds only these strings, as a model reading each context on its
# own might: `郭` without its given name, `王大明` in one note only, `Wang` without its initials.
TAGGED = {"郭": "PATIENT", "王大明": "PATIENT", "Wang Da-Ming": "PATIENT", "Wang Da Ming": "FAMILY",
          "Wang": "PATIENT", "Lin Mei-Ling": "FAMILY"}
_TAGGED = re.compile("|".join(sorted(map(re.escape, TAGGED), key=len, reverse=True)))


@Language.component("fake_ner_for_name_linking")
def fake_ner_for_name_linking(doc):
    spans = [doc.char_span(*m.span(), label=TAGGED[m.group()]) for m in _TAGGED.finditer(doc.text)]
    doc.ents = [s for s in spans if s is not None]
    return doc


@pytest.fixture(scope="module")
def nlp():
    return deid_after("fake_ner_for_name_linking")


def _run(nlp, *texts):
    """De-identify the texts as one patient's notes; (result, {original span text: surrogate})."""
    records = [{"id": f"n{i}", "patient_id": "p1", "text": t} for i, t in enumerate(texts)]
    results = list(deidentify(nlp, records))
    pairs = {}
    for record, result in zip(records, results):
        assert result.ok, result.error
        for r in result.replacements:
            assert result.deid_text[r["out_start"]:r["out_end"]] == r["surrogate"]
            pairs[record["text"][r["start"]:r["end"]]] = r["surrogate"]
    return results, pairs


def test_given_name_after_a_tagged_surname_joins_its_span(nlp):
    (result,), pairs = _run(nlp, "郭大衛 ID F134567890 admitted.")
    assert "郭大衛" in pairs and "大衛" not in result.deid_text and "郭" not in result.deid_text


def test_given_name_alone_is_found_in_the_patients_other_notes(nlp):
    results, pairs = _run(nlp, "病人王大明，今日入院。", "大明 said he felt better today.")
    assert "大明" not in results[1].deid_text
    assert pairs["大明"] == pairs["王大明"][1:]  # the given name of the same person's surrogate


def test_surname_plus_initials_is_the_person(nlp):
    results, pairs = _run(nlp, "病人王大明入院。", "Wang DM signed the consent.")
    assert "Wang DM" in pairs and "DM" not in results[1].deid_text
    surrogate = pairs["王大明"]
    sur, first, second = (lazy_pinyin(c) for c in surrogate)  # `DM` is pinyin's initials
    assert pairs["Wang DM"] == f"{sur[0].capitalize()} {first[0][0].upper()}{second[0][0].upper()}"


@pytest.mark.parametrize("form,style,sep", [("Wang Da-Ming", Style.NORMAL, "-"), ("Wang Da Ming", Style.NORMAL, " ")])
def test_romanized_forms_link_to_the_han_name(nlp, form, style, sep):
    _, pairs = _run(nlp, "病人王大明入院。", f"{form} was seen in clinic.")
    sur, first, second = (lazy_pinyin(c, style=style)[0] for c in pairs["王大明"])
    assert pairs[form] == f"{sur.capitalize()} {first.capitalize()}{sep}{second.capitalize()}"


def test_wade_giles_form_gets_a_wade_giles_surrogate(nlp):
    _, pairs = _run(nlp, "病人王大明入院。", "Patient WANG TA-MING, follow up.")
    surrogate = pairs["王大明"]
    expected = [syllable(c, WADE_GILES) for c in surrogate]
    assert pairs["WANG TA-MING"] == f"{expected[0]} {expected[1]}-{expected[2]}".upper()


def test_latin_given_name_is_found_in_other_notes(nlp):
    results, _ = _run(nlp, "His daughter Lin Mei-Ling visited.", "Mei-Ling called about the bill.")
    assert "Mei-Ling" not in results[1].deid_text


def test_forms_and_styles():
    assert {"大明", "Wang Da-Ming", "Wang Ta-Ming", "Wang Da Ming", "Wang Daming", "Wang DM", "Da-Ming Wang",
            "WANG TA-MING"} <= set(name_forms("王大明"))
    assert all(link == "王大明" for link in name_forms("王大明").values())
    assert "大衛" not in name_forms("郭大衛")  # a common word alone (David): only the full name spreads
    assert "Kuo Ta-Wei" in full_forms("郭", "大衛") and "Guo Da-Wei" in full_forms("郭", "大衛")
    assert style_of([("大", "da")]) == PINYIN and style_of([("大", "ta")]) == WADE_GILES
    assert style_of([("明", "ming")]) == WADE_GILES  # both: Taiwan's default


# A stand-in NER that misreads one mention of a name found whole elsewhere: per text, (substring, label).
_MISREAD = {
    "經門諾楊振佑轉介入院。": [("諾楊", "HOSPITAL")],
    "楊振佑同意出院。": [("楊振佑", "DOCTOR")],
    "Counselor Donna May joined the meeting.": [("Donna May", "PERSON")],
    "Family meeting: Donna May, a counselor, attended.": [("May", "DATE")],
    "John Smith, 65, prostate cancer.": [("John Smith", "PERSON")],
    "Seen at St. John's Hospital in April.": [("John's Hospital", "HOSPITAL")],
}


@Language.component("fake_ner_misreads")
def fake_ner_misreads(doc):
    spans = [doc.char_span(doc.text.index(part), doc.text.index(part) + len(part), label=label)
             for part, label in _MISREAD.get(doc.text, ())]
    doc.ents = [s for s in spans if s is not None]
    return doc


@pytest.mark.parametrize("texts,name,outside", [
    (("楊振佑同意出院。", "經門諾楊振佑轉介入院。"), "楊振佑", ("諾", "HOSPITAL")),  # a span crossing its edge is cut back
    (("Counselor Donna May joined the meeting.", "Family meeting: Donna May, a counselor, attended."),
     "Donna May", None),  # a month read inside it gives way
])
def test_a_name_found_elsewhere_takes_its_place_from_a_misread_span(texts, name, outside):
    nlp = deid_after("fake_ner_misreads")
    results, pairs = _run(nlp, *texts)
    doc = nlp(texts[1])
    assert "振佑" not in results[1].deid_text and "Donna" not in results[1].deid_text
    replaced = [(texts[1][r["start"]:r["end"]], r["label"]) for r in results[1].replacements]
    assert (name, "DOCTOR" if name == "楊振佑" else "PERSON") in replaced
    assert (outside in replaced) if outside else len(replaced) == 1
    assert pairs[name] == results[1].replacements[-1]["surrogate"]


def test_a_span_that_holds_a_found_name_keeps_it():
    results, _ = _run(deid_after("fake_ner_misreads"), "John Smith, 65, prostate cancer.",
                      "Seen at St. John's Hospital in April.")
    text = "Seen at St. John's Hospital in April."
    assert [(text[r["start"]:r["end"]], r["label"]) for r in results[1].replacements] == [
        ("John's Hospital", "HOSPITAL")]


@Language.component("fake_ner_for_addresses")
def fake_ner_for_addresses(doc):
    """Finds the house number `7` and nothing else (the rules find the city)."""
    spans = [doc.char_span(m.start(), m.end(), label="NUMBER") for m in re.finditer(r"(?<=address )7", doc.text)]
    doc.ents = [s for s in spans if s is not None]
    return doc


def test_street_between_a_found_house_number_and_city_is_replaced():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_for_addresses")
    nlp.add_pipe("deid", config={"demo_key": True})
    nlp.initialize()
    text = "Home address 7, Xinyi Rd., Taipei. ADDRESS: 12 XINYI RD., TAIPEI CITY."
    doc = nlp(text)
    found = {(e.text, e.label_) for e in doc.ents}
    assert {("7", "NUMBER"), ("Xinyi Rd.", "STREET"), ("12", "NUMBER"), ("XINYI RD.", "STREET")} <= found
    assert "Xinyi" not in doc._.deid_text and "XINYI" not in doc._.deid_text


# Generated patients: a stand-in NER that finds each gold name only at its first mention in the
# patient's notes (as a model reading each context on its own might miss the others), plus one note
# per patient that writes its Han names in pinyin, by the given name alone and as surname + initials.
_FIRST_MENTIONS = {}


@Language.component("fake_ner_first_mentions")
def fake_ner_first_mentions(doc):
    spans = [doc.char_span(s, e, label=label) for s, e, label in _FIRST_MENTIONS.get(doc.text, ())]
    doc.ents = [s for s in spans if s is not None]
    return doc


def _pinyin_note(names):
    lines = []
    for name in names:
        sur, given = han_name_parts(name)
        syl = [lazy_pinyin(c)[0] for c in given]
        lines.append(f"{''.join(lazy_pinyin(sur)).capitalize()} {'-'.join(s.capitalize() for s in syl)} called. "
                     f"{given} said she was better. "
                     f"{''.join(lazy_pinyin(sur)).capitalize()} {''.join(s[0].upper() for s in syl)} signed.")
    return "\n".join(lines)


def surviving(forms, result):
    """The forms that stand in the output outside every surrogate (a surrogate that happens to hold a
    real name's letters, `Hua-Yuan` for `Hua-Yu`, is no leak), a Latin form as a whole word."""
    kept = list(result.deid_text)
    for r in result.replacements:
        kept[r["out_start"]:r["out_end"]] = "\0" * (r["out_end"] - r["out_start"])
    kept = "".join(kept)
    return [form for form in forms
            if re.search(r"(?<![A-Za-z])" + re.escape(form) + r"(?![A-Za-z])" if form.isascii() else re.escape(form), kept)]


def test_no_form_of_a_found_name_survives_in_generated_patients():
    records, patients = [], 0
    for patient, notes in groupby(generate(1000, seed=3, split="heldout"), key=lambda r: r.patient_id):
        patients += 1
        seen, han_names = set(), []
        for note in notes:
            first = []
            for span in note.spans:
                if span.label in NAME_LABELS and span.text not in seen:
                    seen.add(span.text)
                    first.append((span.start, span.end, span.label))
                    parts = han_name_parts(span.text)
                    if parts is not None and len(span.text) >= 3 and len(parts[1]) == 2:
                        han_names.append(span.text)
            _FIRST_MENTIONS[note.text] = first
            records.append({"id": note.id, "patient_id": patient, "text": note.text})
        if han_names:
            text = _pinyin_note(han_names[:2])
            _FIRST_MENTIONS.setdefault(text, [])
            records.append({"id": f"{patient}-pinyin", "patient_id": patient, "text": text})
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_first_mentions")
    nlp.add_pipe("deid", config={"demo_key": True})
    nlp.initialize()
    results = list(deidentify(nlp, records))
    checked = 0
    by_patient = {}
    for record, result in zip(records, results):
        assert result.ok, result.error
        by_patient.setdefault(record["patient_id"], []).append((record, result))
    for patient, pairs in by_patient.items():
        found = {rec["text"][r["start"]:r["end"]] for rec, res in pairs for r in res.replacements
                 if r["label"] in NAME_LABELS}
        forms = set().union(*(identifying_forms(name) for name in found)) if found else set()
        pinyin = [rec["text"] for rec, _ in pairs if rec["id"].endswith("-pinyin")]
        forms |= {line.split(" called.")[0] for text in pinyin for line in text.splitlines()}
        checked += len(forms)
        for _, res in pairs:
            assert not surviving(forms, res), patient
    assert patients == 1000 and checked > 8000


@pytest.mark.parametrize("unit", ["A'", "Aa ", "AB-", "Xinyi Rd ", "Lin Mei "])
def test_street_pattern_runs_in_linear_time(unit):
    assert_linear(lambda n: list(_street().finditer(unit * n)), 20_000)
