"""common_words_zh: common Chinese words are no name or place, and no name or place is a common word."""
import pytest

from spacy_deid.wordlists.common_words import NAME_AND_PLACE_LEXICONS
from spacy_deid.han import HAN_RUN
from spacy_deid.wordlists.common_words_zh import _LONGEST_WORD, common_words_zh, plain_han_words, spoken_before_words
from spacy_deid.lexicons import load
from spacy_deid.wordlists import default_word_lists
from spacy_deid.refine.spanshape import drop_misshapen, plain_word_name

from helpers.marked_doc import doc_with_ents
from linear import assert_linear



def test_no_han_name_or_place_value_nor_part_of_one_is_common():
    values = [v for name in NAME_AND_PLACE_LEXICONS for v in load(name).strings() if HAN_RUN.fullmatch(v)]
    assert len(values) > 500  # the lexicons' Han values are read
    parts = {v[i:j] for v in values for i in range(len(v)) for j in range(i + 2, len(v) + 1)}
    assert sorted(parts & common_words_zh()) == []


def test_the_list_holds_ordinary_words_in_traditional_forms_and_no_names():
    words = common_words_zh()
    assert {"說明", "發現", "喜歡", "興趣", "訓練", "工地", "家屬", "協助"} <= words
    # places, institutions and their parts, departments, given names and name-shaped words are out
    assert not {"台北", "中山", "長庚", "大學", "醫院", "精神科", "急診", "志明", "家豪", "高明", "王"} & words
    assert all(2 <= len(w) <= _LONGEST_WORD and HAN_RUN.fullmatch(w) for w in words)  # the cutter sees every word


@pytest.mark.parametrize("span,label,plain", [
    ("說明", "FAMILY", True),
    ("發現輪流", "PERSON", True),  # two words: no name
    ("喜歡", "GENERAL_BUSINESS", True),
    ("工地", "LOCATION", True),
    ("技巧訓練", "GENERAL_BUSINESS", False),  # places and organisations: one word only (中國醫藥大學)
    ("王大明", "PATIENT", False),
    ("高明", "DOCTOR", False),  # surname + given-name character: may be a name
    ("家豪", "PERSON", False),
    ("長庚", "HOSPITAL", False),
    ("說明 ok", "PERSON", False),  # Han only
    ("說", "PERSON", False),  # one character: `lone_surname` judges it
])
def test_plain_han_words(span, label, plain):
    assert plain_han_words(span, label) is plain


def test_ner_spans_of_common_chinese_words_are_dropped_and_names_kept():
    doc = doc_with_ents("住院醫師向家屬說明病情，王大明表示喜歡在工地工作，林先生同意。",
                        [("說明", "FAMILY"), ("王大明", "PATIENT"), ("喜歡", "GENERAL_BUSINESS"), ("林", "FAMILY")])
    assert sorted(s.text for s in drop_misshapen(doc)) == ["喜歡", "說明"]
    assert [(e.text, e.label_) for e in doc.ents] == [("王大明", "PATIENT"), ("林", "FAMILY")]


def test_a_title_keeps_a_common_word_as_a_name():
    text = "會診說明醫師的意見"
    start = text.index("說明")
    assert plain_han_words("說明", "DOCTOR")
    assert not plain_word_name(text, start, start + 2, "DOCTOR")  # 醫師 after it
    assert not plain_word_name(text, start, start + 2, "PROFESSION")  # professions are ordinary words


def test_long_han_runs_are_judged_in_linear_time():
    def run(n):
        plain_han_words("說明" * n, "PERSON")
        plain_han_words("說明" * n + "王", "PERSON")
    assert_linear(run, 20000)


def test_transliterated_names_and_brands_are_no_common_words():
    """wordfreq's list is full of foreign names and brands written in Han characters; jieba's proper
    nouns are left out of it, so a caregiver called 瑪利亞 or an employer called 豐田 stays PHI."""
    words = common_words_zh()
    assert not {"彼得", "史密斯", "瑪利亞", "約翰", "莎拉", "豐田", "三星", "牛津", "莫斯科"} & words
    doc = doc_with_ents("外籍看護瑪利亞表示案子在豐田上班", [("瑪利亞", "PERSON"), ("豐田", "GENERAL_BUSINESS")])
    assert drop_misshapen(doc) == []


@pytest.mark.parametrize("span,plain", [
    ("說明檢", True),  # 說明 + the first character of 檢查: the model cut a word in two
    ("希望轉", True),
    ("王光明", False),  # a surname first: a name whose given name is a common word
    ("歐陽光明", False),  # a two-character surname
    ("陳說明", False),  # 陳說 + 明 but 陳 is a surname
])
def test_common_words_and_one_more_character_are_no_name(span, plain):
    assert plain_han_words(span, "PERSON") is plain
    assert not plain_han_words(span, "HOSPITAL")  # places and organisations: one word only


@pytest.mark.parametrize("span,label,plain", [
    ("肝功能", "DOCTOR", True),  # medical terms (`clinical_vocabulary_zh`)
    ("梅毒", "HOSPITAL", True),
    ("超聲波檢查", "PERSON", True),
    ("王光明", "PATIENT", False),
    ("腸胃科", "DEPARTMENT", False),  # a unit's name is PHI: no such word is in the medical list
])
def test_medical_terms_are_plain_words(span, label, plain):
    assert plain_han_words(span, label) is plain


def test_the_chinese_medical_terms_hold_no_name_place_or_institution():
    terms = default_word_lists().word_set("clinical_vocabulary_zh")
    assert len(terms) > 10_000 and {"肝功能", "梅毒", "血壓"} <= terms
    names_and_places = {v for name in ("surnames_zh", "cities", "districts", "hospitals", "departments", "schools")
                        for v in load(name).strings()}
    assert not terms & names_and_places
    assert not any(term.endswith(("科", "院", "診所", "病房")) for term in terms)


@pytest.mark.parametrize("span,spoken", [
    ("阿喜歡", True),  # a sound of speech before common words ("ah, ...")
    ("啊說明", True),
    ("阿明", False),  # a prefix of address and a given-name character
    ("阿家豪", False),
    ("喜歡", False),
])
def test_a_sound_of_speech_before_common_words_is_no_name(span, spoken):
    assert spoken_before_words(span) is spoken
