"""A Chinese name the NER cut short before its plain end takes the rest (`name_ends.py`); what is not
such a name is left alone; linear time."""
import pytest

from spacy_deid.name_ends import completed_name

from linear import assert_linear
from ner_spans import doc_with_ents, repaired


@pytest.mark.parametrize("text,found,expected", [
    ("通知 VS 楊友昌, 改為口溶錠", ("楊", "DOCTOR"), ("楊友昌", "DOCTOR")),
    ("家庭會談: 二姊: 劉靖友、Mrs. Chun", ("劉靖", "FAMILY"), ("劉靖友", "FAMILY")),
    ("主治醫師 劉姿\nCBC: Hb 10.2", ("劉", "DOCTOR"), ("劉姿", "DOCTOR")),
    ("覆核 楊友昌主任", ("楊", "DOCTOR"), ("楊友昌", "DOCTOR")),  # a title ends the name
    ("visit 孫子: 楊昌友 in New Jersey", ("楊昌", "FAMILY"), ("楊昌友", "FAMILY")),
    # a common word after the name ends it plainly too
    ("由徐翰友負責接送", ("徐翰", "FAMILY"), ("徐翰友", "FAMILY")),
    ("家庭會談: 牧師: 呂靖友參加.", ("呂靖", "PERSON"), ("呂靖友", "PERSON")),
    # a romanized given name takes the surname written next to it
    ("今天 SUNG, CHING-YU 來電", ("CHING-YU", "PERSON"), ("SUNG, CHING-YU", "PERSON")),
    ("今天 Fan, Ting-Jung 來電", ("Ting-Jung", "PERSON"), ("Fan, Ting-Jung", "PERSON")),
    ("家屬 HSIUNG-CHANG FAN、Mr Powell", ("HSIUNG-CHANG", "FAMILY"), ("HSIUNG-CHANG FAN", "FAMILY")),
    ("raised by fan wei-hsiung, the patient's aunt", ("wei-hsiung", "FAMILY"), ("fan wei-hsiung", "FAMILY")),
    ("seen by Dr. Ting-Jung Lee today", ("Ting-Jung", "DOCTOR"), ("Ting-Jung Lee", "DOCTOR")),
    # a surname that is also a word (曾, once) left out before a given name of two characters
    ("陪診者: 劉靖安 (里長) / 曾亞瑋 (外甥)", ("亞瑋", "FAMILY"), ("曾亞瑋", "FAMILY")),
    ("Family meeting 2024-12-07: 曾昌振 refused", ("昌振", "FAMILY"), ("曾昌振", "FAMILY")),
])
def test_a_name_cut_short_takes_its_end(text, found, expected):
    assert repaired(text, found, completed_name) == (1, [expected])


@pytest.mark.parametrize("text,found,expected", [
    ("1220 社工楊玥聯絡台中監獄安排出院", ("楊玥聯", "PERSON"), ("楊玥", "PERSON")),
    ("目前仍由觀護人劉宏定期約談.", ("劉宏定", "PERSON"), ("劉宏", "PERSON")),
    ("目前仍由觀護人高鳳靜定期約談.", ("高鳳靜定", "PERSON"), ("高鳳靜", "PERSON")),
    ("本次由里長劉菁發現屋內堆滿垃圾", ("劉菁發", "PERSON"), ("劉菁", "PERSON")),
])
def test_a_name_that_ran_into_the_next_word_ends_before_it(text, found, expected):
    assert repaired(text, found, completed_name) == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("目前仍由觀護人劉靖安定期約談.", ("劉靖安", "PERSON")),  # 安定 and 定期: the name may end at either
    ("病人王美玲來院", ("王美玲", "PATIENT")),  # 玲來 is no word
    ("已聯絡大安國小學務處", ("大安國小", "SCHOOL")),  # no name: a school ends with its type word
])
def test_a_name_that_ends_plainly_is_not_cut(text, found):
    assert repaired(text, found, completed_name) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("王先生表示失眠", ("王", "PATIENT")),  # a title follows: annotation.md keeps it outside
    ("病人曾住院兩次", ("住院", "PERSON")),  # a Han character before 曾: a word, not a name's edge
    ("已於 曾經住院", ("經住", "PERSON")),  # more Han characters after: no plain end
    ("家屬: 和美玲", ("美玲", "FAMILY")),  # 和 is a surname and a conjunction: not taken
    ("葉醫師查房", ("葉", "DOCTOR")),
    ("林說他很好", ("林", "PERSON")),  # a word of speech
    ("王今天來院.", ("王", "PATIENT")),  # a common word
    ("陳的朋友", ("陳", "PERSON")),
    ("徐翰友說明天再來", ("徐翰友", "FAMILY")),  # whole already
    ("王明去參加聚會", ("王明", "PERSON")),  # 去 is no name's character: the name ended
    ("楊友昌", ("楊友昌", "DOCTOR")),  # whole already
    ("台北市立醫院", ("台北", "CITY")),  # not a name label
    ("Lin Mei-Hua, RN", ("Lin", "PERSON")),  # not Han, and not a hyphenated given name
    ("went to Ting-Jung's house", ("Ting-Jung", "PERSON")),  # `to` is a sentence's word
    ("an in-patient stay", ("in-patient", "PERSON")),  # `an` in lower case is the article
    ("SUNG, Ching-Yu called", ("Ching-Yu", "PERSON")),  # not written in the same case
    ("Chen Ting-Jung called", ("Chen Ting-Jung", "PERSON")),  # whole already
])
def test_other_spans_are_left_alone(text, found):
    assert repaired(text, found, completed_name) == (0, [found])


def test_another_entity_stops_the_name():
    doc = doc_with_ents("楊友昌,", [("楊", "DOCTOR"), ("友昌", "PERSON")])
    first, second = doc.ents
    assert completed_name(doc, doc.text, first, second) is None


def test_a_surname_in_another_entity_stays_there():
    doc = doc_with_ents("Dr. Chen Ting-Jung", [("Chen", "PERSON"), ("Ting-Jung", "PERSON")])
    first, second = doc.ents
    assert completed_name(doc, doc.text, second, None) is None


def test_cost_grows_linearly_with_the_number_of_romanized_spans():
    from spacy_deid.refine.builtin import apply_span_repair

    def run(n: int) -> None:
        text = "Sung, Ching-Yu; " * n
        doc = doc_with_ents(text, [])
        doc.ents = [doc.char_span(16 * i + 6, 16 * i + 14, label="PERSON") for i in range(n)]
        apply_span_repair(doc, text, completed_name)

    assert_linear(run, 3000)


def test_cost_grows_linearly_with_the_number_of_spans():
    from spacy_deid.refine.builtin import apply_span_repair

    def run(n: int) -> None:
        text = "楊友昌, " * n
        doc = doc_with_ents(text, [])
        doc.ents = [doc.char_span(5 * i, 5 * i + 1, label="DOCTOR") for i in range(n)]
        apply_span_repair(doc, text, completed_name)

    assert_linear(run, 4000)
