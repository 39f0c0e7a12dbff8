"""Clinical vocabulary is never a name, profession or place; it never hides a PHI value."""
import pytest

import spacy_deid
from spacy_deid.wordlists.clinical_terms import clinical_terms, is_clinical_term
from spacy_deid.lexicons import lexicon
from spacy_deid.refine.spanshape import drop_misshapen, fits_label

US_STATE_CODES = set("""AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM
NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC""".split())


def _lexicon_strings():
    for name in lexicon.names():
        for item in lexicon.load(name).strings():
            yield name, " ".join(item.split()).casefold()


def test_no_term_is_a_phi_value():
    terms = clinical_terms()
    clashes = sorted({(name, v) for name, v in _lexicon_strings() if v in terms})
    assert clashes == []


def test_no_term_is_a_us_state_code():
    assert not {t.upper() for t in clinical_terms()} & US_STATE_CODES


def test_terms_are_found_whatever_the_case_and_spacing():
    assert len(clinical_terms()) > 450
    for text in ("Cymbalta", "CYMBALTA", "cymbalta", "valproic  acid", "Solu-Medrol", "FiO2", "PRN"):
        assert is_clinical_term(text), text
    for text in ("Cymbalta 60mg", "Dr. Lasix", "Taipei", "王小明", "", "   "):
        assert not is_clinical_term(text), text


def test_a_term_with_its_result_after_it_is_still_the_term():
    for text in ("CAM-ICU neg", "CAM-ICU (-)", "Cx pending", "CX PENDING", "CBC wnl", "CXR negative", "K+ +"):
        assert is_clinical_term(text), text
    # the result alone, or after a word that is no term, is not clinical vocabulary
    for text in ("neg", "pending", "Chang Pos", "Lin (+)", "Mary neg"):
        assert not is_clinical_term(text), text


@pytest.mark.parametrize("label", ["CITY", "PATIENT", "DOCTOR", "GENERAL_BUSINESS", "PROFESSION", "HOSPITAL"])
def test_a_drug_or_shorthand_cannot_be_a_name_or_place(label):
    assert not fits_label("Effexor", label)
    assert not fits_label("CVP", label)
    assert fits_label("Effie", label)  # a name that merely starts like a drug


@pytest.mark.parametrize("text,label", [
    ("Tmax", "HOSPITAL"), ("TMAX", "HOSPITAL"), ("CHF", "CITY"), ("CATH", "FAMILY"), ("NTG", "HOSPITAL"),
    ("BEDREST", "CITY"), ("Penicillin", "FAMILY"), ("Neck", "DOCTOR"), ("COPD", "PERSON"),
])
def test_chart_shorthand_of_a_nursing_note_is_no_name_or_place(text, label):
    assert not fits_label(text, label)


def test_ner_spans_of_drugs_are_dropped_but_rule_spans_stay():
    nlp = spacy_deid.blank()
    doc = nlp.make_doc("依醫囑給予 Cymbalta 60mg, CVP 12, seen by Dr. Lin at 台大.")
    ents = [doc.char_span(doc.text.index(w), doc.text.index(w) + len(w), label=lab)
            for w, lab in (("Cymbalta", "CITY"), ("CVP", "DOCTOR"), ("Lin", "DOCTOR"), ("台大", "HOSPITAL"))]
    doc.ents = ents
    for ent in doc.ents:
        ent._.source = "ner"
    dropped = drop_misshapen(doc)
    assert sorted(e.text for e in dropped) == ["CVP", "Cymbalta"]
    assert [(e.text, e.label_) for e in doc.ents] == [("Lin", "DOCTOR"), ("台大", "HOSPITAL")]
    rule_doc = nlp.make_doc("Cymbalta")
    rule_doc.ents = [rule_doc.char_span(0, 8, label="CITY")]
    rule_doc.ents[0]._.source = "rule"
    assert drop_misshapen(rule_doc) == [] and len(rule_doc.ents) == 1
