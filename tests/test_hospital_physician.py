"""A hospital's short name written together with its physician's name is split into both
(`hospital_physician.py`); what is not such a run is left alone; linear time."""
import pytest

from spacy_deid.hospital_physician import split_hospital_and_physician

from linear import assert_linear
from ner_spans import doc_with_ents, repaired


@pytest.mark.parametrize("text,found,expected", [
    ("經萬芳徐昌炳(attending)轉介入院.", ("萬芳徐", "DOCTOR"), [("萬芳", "HOSPITAL"), ("徐昌炳", "DOCTOR")]),
    ("經門諾楊振佑(專科護理師)轉介.", ("門諾楊", "DOCTOR"), [("門諾", "HOSPITAL"), ("楊振佑", "DOCTOR")]),
    ("經亞東劉佑昌醫師轉介.", ("亞東劉佑昌", "GENERAL_BUSINESS"),  # 亞東 is also East Asia
     [("亞東", "HOSPITAL"), ("劉佑昌", "DOCTOR")]),
    ("經雙和劉霞品(resident)轉介", ("雙和劉", "SCHOOL"), [("雙和", "HOSPITAL"), ("劉霞品", "DOCTOR")]),
    ("由台北王大明醫師轉介.", ("台北王大明醫師", "HOSPITAL"),  # the span took the title
     [("台北", "HOSPITAL"), ("王大明", "DOCTOR")]),
    ("會診身心科林美玲醫師.", ("身心科林美玲", "PERSON"), [("身心科", "DEPARTMENT"), ("林美玲", "DOCTOR")]),
    ("經高雄長庚王明醫師轉介", ("高雄長庚王", "HOSPITAL"),  # a given name of one character
     [("高雄長庚", "HOSPITAL"), ("王明", "DOCTOR")]),
    # a hospital span that starts the run: the physician after it gets a span too
    ("萬芳徐昌炳醫師", ("萬芳", "HOSPITAL"), [("萬芳", "HOSPITAL"), ("徐昌炳", "DOCTOR")]),
    # a space between the place and the physician draws the edge
    ("轉介自台大 王醫師門診", ("台大 王", "DOCTOR"), [("台大", "HOSPITAL"), ("王", "DOCTOR")]),
    ("經亞東 劉佑昌醫師轉介.", ("亞東 劉佑昌", "FAMILY"), [("亞東", "HOSPITAL"), ("劉佑昌", "DOCTOR")]),
    ("會診身心科 林美玲 醫師", ("身心科 林美玲", "PERSON"), [("身心科", "DEPARTMENT"), ("林美玲", "DOCTOR")]),
])
def test_a_run_before_a_physicians_title_is_the_hospital_and_the_physician(text, found, expected):
    assert repaired(text, found, split_hospital_and_physician) == (1, expected)


@pytest.mark.parametrize("text,found", [
    ("本院王大明醫師看診.", ("王大明", "DOCTOR")),  # the name alone: no run of five
    ("張簡家明醫師查房.", ("張簡家明", "DOCTOR")),  # a compound surname's name of four characters
    ("由精神科主治醫師評估.", ("精神科", "DEPARTMENT")),  # no surname where a name would start
    ("經本院王大明醫師轉介", ("本院王大明", "DOCTOR")),  # 本院 names no hospital
    ("經萬芳徐昌炳轉介入院.", ("萬芳徐昌炳", "DOCTOR")),  # no physician's title or role after the run
    ("經萬芳 徐昌炳轉介入院.", ("萬芳 徐昌炳", "DOCTOR")),
    ("本院 王醫師看診.", ("本院 王", "DOCTOR")),  # 本院 names no hospital
    ("由家屬 王醫師陪同", ("家屬 王", "FAMILY")),
])
def test_other_runs_are_left_alone(text, found):
    assert repaired(text, found, split_hospital_and_physician) == (0, [found])


def test_another_entity_in_the_run_stops_the_split():
    doc = doc_with_ents("經萬芳徐昌炳醫師轉介", [("萬芳", "HOSPITAL"), ("徐昌炳", "DOCTOR")])
    first, second = doc.ents
    assert split_hospital_and_physician(doc, doc.text, first, second) is None


def test_offsets_point_into_the_text():
    text = "Note: 經萬芳徐昌炳(attending)轉介入院."
    doc = doc_with_ents(text, [("萬芳徐", "DOCTOR")])
    spans = split_hospital_and_physician(doc, text, doc.ents[0], None)
    assert [(text[s.start_char:s.end_char], s.label_) for s in spans] == [("萬芳", "HOSPITAL"), ("徐昌炳", "DOCTOR")]


def test_cost_grows_linearly_with_long_han_runs():
    from spacy_deid.refine.builtin import apply_span_repair

    def run(n: int) -> None:
        text = "經" + "萬芳徐" * n + "醫師"
        doc = doc_with_ents(text, [])
        doc.ents = [doc.char_span(1 + 3 * i, 4 + 3 * i, label="DOCTOR") for i in range(n)]
        apply_span_repair(doc, text, split_hospital_and_physician)

    assert_linear(run, 4000)
