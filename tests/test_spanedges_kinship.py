"""spanedges and kinship: NER spans lose the words at their edges; names after kinship words are FAMILY."""
import pytest

import spacy_deid
from spacy_deid.kinship import after_kinship_word, as_relative
from spacy_deid.repairs import apply_repair, repair_ner_spans
from spacy_deid.spanedges import trimmed, trimmed_bounds

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of


@pytest.mark.parametrize("text,found,expected", [
    ("10.22至童綜合醫院急診。", ("至童綜合醫院", "HOSPITAL"), ("童綜合醫院", "HOSPITAL")),
    ("2009.5住奇美醫院兩週。", ("住奇美醫院", "HOSPITAL"), ("奇美醫院", "HOSPITAL")),
    ("曾於門諾戒酒三個月。", ("門諾戒酒", "HOSPITAL"), ("門諾", "HOSPITAL")),
    ("病人說要回洛杉磯找哥哥。", ("洛杉磯找", "CITY"), ("洛杉磯", "CITY")),
    ("去年到葡萄牙遊學。", ("葡萄牙遊學", "COUNTRY"), ("葡萄牙", "COUNTRY")),
    ("在西歐長大。", ("西歐長大", "REGION"), ("西歐", "REGION")),
    ("met at Rongxing Garden Park on Sunday", ("Rongxing Garden Park on", "LOCATION"), ("Rongxing Garden Park", "LOCATION")),
])
def test_edge_words_leave_place_spans(text, found, expected):
    doc = doc_with_ents(text, [found])
    assert apply_repair(doc, text, trimmed) == 1
    assert ents_of(doc) == [expected]


@pytest.mark.parametrize("text,found", [
    ("住在自由路。", ("自由路", "STREET")),  # streets start with such characters
    ("轉至善化。", ("至善", "CITY")),  # two characters: too short to trim
    ("照會精神科住院。", ("精神科住院", "DEPARTMENT")),  # departments are not trimmed
    ("病人找王大明。", ("王大明", "PATIENT")),  # names are not places
    ("living in Hope", ("Hope", "CITY")),
])
def test_spans_without_edge_words_or_outside_the_labels_stay(text, found):
    doc = doc_with_ents(text, [found])
    assert apply_repair(doc, text, trimmed) == 0
    assert ents_of(doc) == [found]


def test_rule_spans_keep_their_edges():
    text = "曾於門諾戒酒三個月。"
    doc = doc_with_ents(text, [("門諾戒酒", "HOSPITAL")], source="rule")
    assert apply_repair(doc, text, trimmed) == 0


def test_trimmed_bounds():
    assert trimmed_bounds("至童綜合醫院", 0, 6) == (1, 6)
    assert trimmed_bounds("童綜合醫院", 0, 5) is None
    assert trimmed_bounds("至台大住院", 0, 5) == (1, 3)


@pytest.mark.parametrize("text,found", [
    ("家庭會談: 大女兒: 盧亞瓊、志工: 梁", ("盧亞瓊", "PERSON")),
    ("配偶石佑澤與小兒子徐珍春一同到病房。", ("徐珍春", "PERSON")),
    ("由表哥: 彭恆彥陪同。", ("彭恆彥", "PATIENT")),
    ("visited by his daughter Mei-Ling Chen today", ("Mei-Ling Chen", "DOCTOR")),
    ("Wife: Mary Jones called.", ("Mary Jones", "PERSON")),
])
def test_a_name_after_a_kinship_word_is_family(text, found):
    doc = doc_with_ents(text, [found])
    assert apply_repair(doc, text, as_relative) == 1
    assert ents_of(doc) == [(found[0], "FAMILY")]


@pytest.mark.parametrize("text,found", [
    ("同居人: 周瑋振來院。", ("周瑋振", "PERSON")),  # a cohabitant is not a relative by definition
    ("先生: 彭恆彥來電。", ("彭恆彥", "PERSON")),  # 先生 is also Mr
    ("met Jackson Lee today", ("Lee", "PERSON")),  # `son` ends `Jackson`: not a kinship word
    ("the grandsons of Lee", ("Lee", "PERSON")),
    ("配偶: 彭恆彥", ("彭恆彥", "FAMILY")),  # already FAMILY: nothing to change
])
def test_names_without_a_kinship_word_before_them_keep_their_label(text, found):
    doc = doc_with_ents(text, [found])
    assert apply_repair(doc, text, as_relative) == 0
    assert ents_of(doc) == [found]


def test_kinship_lookup_and_rule_spans():
    assert after_kinship_word("母親：林美玲", 3)
    assert not after_kinship_word("Jackson Lee", 8)
    text = "母親：林美玲"
    doc = doc_with_ents(text, [("林美玲", "PATIENT")], source="rule")
    assert apply_repair(doc, text, as_relative) == 0


def test_repairs_run_in_order_and_count_per_repair():
    text = "10.22至童綜合醫院急診, 配偶: 彭恆彥陪同。"
    doc = doc_with_ents(text, [("至童綜合", "CITY"), ("彭恆彥", "PERSON")])
    # the preposition goes, then the type word makes it a hospital; the name becomes FAMILY
    assert repair_ner_spans(doc, text) == {"edges": 1, "institutions": 1, "kinship": 1}
    assert ents_of(doc) == [("童綜合醫院", "HOSPITAL"), ("彭恆彥", "FAMILY")]


def test_cost_grows_linearly_with_the_number_of_spans():
    def run(n: int) -> None:
        text = "曾至門諾戒酒, 配偶: 彭恆彥。" * n
        doc = spacy_deid.blank().make_doc(text)
        spans, pos = [], 0
        for _ in range(n):
            a = text.index("至門諾戒酒", pos)
            b = text.index("彭恆彥", pos)
            spans += [doc.char_span(a, a + 5, label="HOSPITAL"), doc.char_span(b, b + 3, label="PERSON")]
            pos = b + 3
        doc.ents = spans
        repair_ner_spans(doc, text)

    assert_linear(run, 2000)
