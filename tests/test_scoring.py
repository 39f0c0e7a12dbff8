"""The scorer against hand-computed small cases."""
import pytest
from spacy.training import Example

import spacy_deid
from spacy_deid.corpus import CorpusError, PhiSpan, Record, parse_inline
from spacy_deid.scoring import score_examples, score_records

TEXT = "On 3/14 and 4/15 and 5/16 patient Lee Wang came; 6/17 too"


def _span(text, surface, label, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return PhiSpan(start, start + len(surface), label, surface)


@pytest.fixture(scope="module")
def case():
    gold = Record(id="d1", text=TEXT, spans=[_span(TEXT, "3/14", "DATE"), _span(TEXT, "4/15", "DATE"),
                                             _span(TEXT, "5/16", "DATE"), _span(TEXT, "Lee Wang", "PATIENT")])
    pred = Record(id="d1", text=TEXT, spans=[_span(TEXT, "3/14", "DATE"), _span(TEXT, "4/15", "DATE"),
                                             _span(TEXT, "5/16", "DATE"), _span(TEXT, "Lee", "PATIENT"),
                                             _span(TEXT, "6/17", "DATE")])
    return score_records([gold], [pred])


# DATE: tp 3, fp 1, fn 0; PATIENT: tp 0, fp 1, fn 1; micro: tp 3, fp 2, fn 1.
@pytest.mark.parametrize("key, expected", [
    ("ents_p", 3 / 5), ("ents_r", 3 / 4), ("ents_f", 2 * (3 / 5) * (3 / 4) / (3 / 5 + 3 / 4)),
    ("deid_strict_macro_p", (3 / 4 + 0) / 2), ("deid_strict_macro_r", (1 + 0) / 2),
    ("deid_strict_macro_f", (6 / 7 + 0) / 2),
    # relaxed: 4 of 5 predictions overlap a same-label gold span; all 4 gold spans are overlapped
    ("deid_relaxed_p", 4 / 5), ("deid_relaxed_r", 1.0), ("deid_relaxed_f", 2 * 0.8 / 1.8),
    # tokens: gold PHI 3/14 4/15 5/16 Lee Wang; predicted 3/14 4/15 5/16 Lee 6/17
    ("deid_token_p", 4 / 5), ("deid_token_r", 4 / 5), ("deid_token_f", 4 / 5),
])
def test_hand_computed(case, key, expected):
    assert case[key] == pytest.approx(expected)


def test_per_type_and_counts(case):
    assert case["ents_per_type"]["DATE"] == pytest.approx({"p": 3 / 4, "r": 1.0, "f": 6 / 7})
    assert case["ents_per_type"]["PATIENT"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert case["deid_relaxed_per_type"]["PATIENT"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    assert case["deid_counts"] == {"docs": 1, "sentences": 1, "tokens": 13, "gold_spans": 4, "pred_spans": 5}
    assert case["deid_by_kind"]["english"]["sentences"] == 1
    assert case["deid_by_kind"]["english"]["ents_p"] == pytest.approx(3 / 5)
    assert case["deid_by_kind"]["chinese"]["ents_p"] is None
    assert "deid_leak_rate" not in case


def test_token_recall_per_category(case):
    """Gold tokens 3/14 4/15 5/16 (DATE, all found) and Lee Wang (NAME, `Lee` found)."""
    assert case["deid_token_r_per_category"] == {
        "DATE": {"r": 1.0, "gold_tokens": 3}, "NAME": {"r": 0.5, "gold_tokens": 2},
        "non_DATE": {"r": 0.5, "gold_tokens": 2}}
    only_dates = score_records([Record(id="x", text="3/14", spans=[PhiSpan(0, 4, "DATE", "3/14")])],
                               [Record(id="x", text="3/14", spans=[])])
    assert only_dates["deid_token_r_per_category"] == {"DATE": {"r": 0.0, "gold_tokens": 1}}


def test_category_scores_forgive_subcategory_confusion():
    gold = parse_inline("家屬«陳大明|FAMILY»來, «高雄|CITY»人", record_id="c")
    pred = Record(id="c", text=gold.text, spans=[PhiSpan(s.start, s.end, "PATIENT" if s.label == "FAMILY"
                                                         else s.label, s.text) for s in gold.spans])
    scores = score_records([gold], [pred])
    assert (scores["ents_p"], scores["ents_r"]) == (0.5, 0.5)
    assert (scores["deid_category_p"], scores["deid_category_r"]) == (1.0, 1.0)
    assert sorted(scores["deid_category_per_type"]) == ["LOCATION", "NAME"]
    assert scores["ents_per_type"]["FAMILY"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert scores["ents_per_type"]["PATIENT"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert scores["deid_strict_macro_f"] == pytest.approx((0 + 0 + 1) / 3)


def _doc(spans=()):
    text = "nothing to see here"
    return Record(id="e", text=text, spans=list(spans))


@pytest.mark.parametrize("gold_spans, pred_spans, expected", [
    # spaCy's convention: nothing annotated and nothing predicted -> undefined (None), not 0 or 1
    ([], [], None),
    ([PhiSpan(0, 7, "PATIENT", "nothing")], [], 0.0),
    ([], [PhiSpan(0, 7, "PATIENT", "nothing")], 0.0),
])
def test_empty_edge_cases(gold_spans, pred_spans, expected):
    scores = score_records([_doc(gold_spans)], [_doc(pred_spans)])
    for key in ("ents_p", "ents_r", "ents_f", "deid_relaxed_f", "deid_token_f", "deid_strict_macro_f",
                "deid_category_f"):
        assert scores[key] == expected, key
    if expected is None:
        assert scores["ents_per_type"] is None
    else:
        assert scores["ents_per_type"] == {"PATIENT": {"p": 0.0, "r": 0.0, "f": 0.0}}


def test_no_documents():
    scores = score_records([], [])
    assert scores["ents_f"] is None and scores["deid_counts"]["docs"] == 0


def test_by_kind_breakdown():
    gold = parse_inline("病人«林美華|PATIENT»住院。Seen by Dr. «Huang|DOCTOR».\n"
                        "«110.03.02|DATE»\n我跟 Dr. «Lee|DOCTOR» 談過", record_id="k")
    pred = Record(id="k", text=gold.text, spans=[s for s in gold.spans if s.label != "DOCTOR"])
    kinds = score_records([gold], [pred])["deid_by_kind"]
    assert {k: v["sentences"] for k, v in kinds.items()} == {"english": 1, "chinese": 1, "mixed": 1, "numeric": 1}
    assert (kinds["chinese"]["ents_r"], kinds["numeric"]["ents_r"]) == (1.0, 1.0)
    assert (kinds["english"]["ents_r"], kinds["english"]["gold_spans"]) == (0.0, 1)
    assert kinds["mixed"]["ents_r"] == 0.0 and kinds["mixed"]["token_r"] == 0.0
    assert kinds["chinese"]["tokens"] == 8  # 病 人 林 美 華 住 院 。


@pytest.mark.parametrize("gold, pred, message", [
    ([Record("a", "x")], [], "no prediction"),
    ([Record("a", "x")], [Record("a", "y")], "differs"),
    ([Record("a", "x")], [Record("a", "x"), Record("b", "x")], "no gold record"),
    ([Record("a", "x")], [Record("a", "x"), Record("a", "x")], "duplicate prediction"),
])
def test_pairing_errors(gold, pred, message):
    with pytest.raises(CorpusError, match=message):
        score_records(gold, pred)


def test_missing_prediction_as_empty():
    gold = parse_inline("«Lee|PATIENT» ok", record_id="a")
    assert score_records([gold], [], missing="empty")["ents_r"] == 0.0


def test_score_examples_with_spacy_examples():
    nlp = spacy_deid.blank()
    ref = nlp.make_doc("Dr. Huang saw 林美華")
    ref.ents = [ref.char_span(4, 9, label="DOCTOR"), ref.char_span(14, 17, label="PATIENT")]
    pred = nlp.make_doc(ref.text)
    pred.ents = [pred.char_span(4, 9, label="DOCTOR")]
    scores = score_examples([Example(pred, ref)])
    assert (scores["ents_p"], scores["ents_r"]) == (1.0, 0.5)
    assert scores["deid_token_r"] == pytest.approx(1 / 4)


# Properties on random span sets: a perfect prediction scores 1; overlap and category matching
# never score below exact matching.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TEXT = "Dr. Lee saw 林美華 on 110.03.02 at 台北 and 高雄 with 陳大明 from NTUH."
_WORDS = [(m.start(), m.end()) for m in __import__("re").finditer(r"\S+", _TEXT)]
_span_sets = st.lists(st.tuples(st.integers(0, len(_WORDS) - 1), st.integers(0, 2),
                                st.sampled_from(["PATIENT", "FAMILY", "DATE", "CITY", "HOSPITAL"])), max_size=6)


def _to_record(items):
    spans = {}
    for i, extra, label in items:
        start, end = _WORDS[i][0], _WORDS[min(i + extra, len(_WORDS) - 1)][1]
        # One label per extent, as in a valid corpus: the same characters annotated twice with two
        # labels of one category would collapse to one entity at category level.
        spans.setdefault((start, end), PhiSpan(start, end, label, _TEXT[start:end]))
    return Record(id="h", text=_TEXT, spans=list(spans.values()))


@settings(max_examples=60, deadline=None)
@given(gold=_span_sets, pred=_span_sets)
def test_score_orderings(gold, pred):
    g, p = _to_record(gold), _to_record(pred)
    scores = score_records([g], [p])
    if scores["ents_p"] is None:
        assert not g.spans and not p.spans
        return
    for metric in ("p", "r"):
        assert scores[f"deid_relaxed_{metric}"] >= scores[f"ents_{metric}"]
        assert scores[f"deid_category_{metric}"] >= scores[f"ents_{metric}"]
    assert 0.0 <= scores["deid_token_f"] <= 1.0
    if g.spans:
        perfect = score_records([g], [g])
        assert perfect["ents_f"] == perfect["deid_relaxed_f"] == perfect["deid_token_f"] == 1.0
