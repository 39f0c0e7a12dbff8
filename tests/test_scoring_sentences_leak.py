"""Sentence splitting, code-mixing index and sentence kinds; the leak rate of de-identified output."""
import pytest

import spacy_deid
from spacy_deid.corpus import CorpusError, Record, parse_inline
from spacy_deid.scoring import cmi, record_leaks, score_records, sentence_kind, split_sentences, token_language

from linear import assert_linear


@pytest.fixture(scope="module")
def nlp():
    return spacy_deid.blank()


def test_split_sentences(nlp):
    doc = nlp.make_doc("Pt stable. 明天出院！\n110.03.02\n\nDr. Lee gave 3.5 mg?! ok")
    got = [doc[s:e].text for s, e in split_sentences(doc)]
    assert got == ["Pt stable.", "明天出院！", "110.03.02", "Dr. Lee gave 3.5 mg?!", "ok"]


@pytest.mark.parametrize("token, lang", [("林", "zh"), ("Lee", "en"), ("mk110", "en"), ("Ｌｅｅ", "en"),
                                         ("110.03.02", None), ("。", None), ("é", "en")])
def test_token_language(token, lang):
    assert token_language(token) == lang


@pytest.mark.parametrize("langs, value, kind", [
    (["zh", "zh", "en", "en"], 50.0, "mixed"),
    (["zh", "zh", "zh", "en", None], 25.0, "mixed"),
    (["en", "en", None], 0.0, "english"),
    (["zh", None, None], 0.0, "chinese"),
    ([None, None], 0.0, "numeric"),
    ([], 0.0, "numeric"),
])
def test_cmi_and_kind(langs, value, kind):
    assert cmi(langs) == pytest.approx(value)
    assert sentence_kind(langs) == kind


def test_split_is_linear_on_long_input(nlp):
    def make(n: int):
        return nlp.make_doc(("A" * 1000 + ". ") * n + "9" * (1000 * n))

    assert_linear(lambda n: split_sentences(make(n)), 100)
    assert len(split_sentences(make(100))) == 101


def _deid(text, replacements):
    """Apply (start, end, surrogate) replacements; return deid_text and replacement dicts."""
    out, records, pos, shift = [], [], 0, 0
    for start, end, sur, label in sorted(replacements):
        out.append(text[pos:start])
        out_start = start + shift
        out.append(sur)
        records.append({"start": start, "end": end, "out_start": out_start, "out_end": out_start + len(sur),
                        "surrogate": sur, "label": label})
        shift += len(sur) - (end - start)
        pos = end
    out.append(text[pos:])
    return "".join(out), records


GOLD = parse_inline("Pt «林美華|PATIENT», aka «Chang Shu-Hua|PATIENT», seen «2023/05/08|DATE» (02)«2312-3456|PHONE».",
                    record_id="L1")


def _span(label, surface):
    return next(s for s in GOLD.spans if s.label == label and s.text == surface)


def test_leak_rate_hand_computed():
    name, chang, phone = _span("PATIENT", "林美華"), _span("PATIENT", "Chang Shu-Hua"), _span("PHONE", "2312-3456")
    deid_text, repls = _deid(GOLD.text, [
        (name.start, name.end, "陳小玲", "PATIENT"),                 # replaced: no leak
        (chang.start, chang.start + 5, "Wang", "PATIENT"),          # only "Chang": "Shu-Hua" copied through
        (phone.start - 4, phone.end, "(07)555-0101", "PHONE"),      # covers more than the span: fine
    ])                                                              # the date is not replaced: full leak
    out = Record(id="L1", text=GOLD.text, spans=[], meta={"deid_text": deid_text, "replacements": repls})
    scores = record_leaks(GOLD, out).scores()
    assert (scores["deid_leak_spans"], scores["deid_leak_leaked"]) == (4, 2)
    assert scores["deid_leak_rate"] == 0.5 and scores["deid_leak_full_rate"] == 0.25
    assert scores["deid_leak_per_type"]["PATIENT"] == {"spans": 2, "leaked": 1, "full": 0, "rate": 0.5,
                                                       "full_rate": 0.0}
    assert scores["deid_leak_per_type"]["DATE"]["full"] == 1
    assert scores["deid_leak_per_type"]["PHONE"]["leaked"] == 0


def test_surrogate_equal_to_original_is_a_full_leak():
    name = _span("PATIENT", "林美華")
    deid_text, repls = _deid(GOLD.text, [(s.start, s.end, "林美華" if s is name else "X" * len(s.text), s.label)
                                          for s in GOLD.spans])
    out = Record(id="L1", text=GOLD.text, meta={"deid_text": deid_text, "replacements": repls})
    scores = record_leaks(GOLD, out).scores()
    assert (scores["deid_leak_leaked"], scores["deid_leak_full_rate"]) == (1, 0.25)


@pytest.mark.parametrize("breakage, message", [
    (lambda t, r: (t.replace("seen", "SEEN"), r), "copied through unchanged"),
    (lambda t, r: (t, [dict(r[0], surrogate="other")]), "!= surrogate"),
    (lambda t, r: (t, [r[0], dict(r[0])]), "overlaps"),
    (lambda t, r: (t, [{"start": 3}]), "lacks integer"),
])
def test_inconsistent_replacements_are_errors(breakage, message):
    name = _span("PATIENT", "林美華")
    deid_text, repls = _deid(GOLD.text, [(name.start, name.end, "陳小玲", "PATIENT")])
    deid_text, repls = breakage(deid_text, repls)
    out = Record(id="L1", text=GOLD.text, meta={"deid_text": deid_text, "replacements": repls})
    with pytest.raises(CorpusError, match=f"record 'L1'.*{message}"):
        record_leaks(GOLD, out)


def test_scorer_adds_leak_scores_when_outputs_carry_deid_text():
    deid_text, repls = _deid(GOLD.text, [(s.start, s.end, "Z" * len(s.text), s.label) for s in GOLD.spans])
    pred = Record(id="L1", text=GOLD.text, spans=list(GOLD.spans), meta={"deid_text": deid_text, "replacements": repls})
    scores = score_records([GOLD], [pred])
    assert scores["deid_leak_rate"] == 0.0 and scores["ents_f"] == 1.0
    assert "deid_leak_rate" not in score_records([GOLD], [pred], leak=False)
    with pytest.raises(CorpusError, match="leak rate"):
        score_records([GOLD], [Record(id="L1", text=GOLD.text)], leak=True)
