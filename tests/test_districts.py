"""districts: a city and the district after it, read by the NER as one span, are two places."""
import pytest

from spacy_deid.districts import split_district

from linear import assert_linear
from ner_spans import repaired


@pytest.mark.parametrize("text,found,expected", [
    ("雇主呂靖友住西雅圖南港區.", ("西雅圖南港區", "LOCATION"), [("西雅圖", "CITY"), ("南港區", "CITY")]),
    ("他住上海大同區, Fernando", ("上海大同區", "SCHOOL"), [("上海", "CITY"), ("大同區", "CITY")]),
    ("雇主孫阿姨住洛杉磯新化區, 電話", ("洛杉磯新化區", "STATE"), [("洛杉磯", "STATE"), ("新化區", "CITY")]),
    ("地址屏東縣潮州鎮中山路", ("屏東縣潮州鎮", "CITY"), [("屏東縣", "CITY"), ("潮州鎮", "CITY")]),
    # the span stops one character into the district
    ("雇主邱華翰住洛杉磯汐止區.", ("洛杉磯汐", "SCHOOL"), [("洛杉磯", "CITY"), ("汐止區", "CITY")]),
])
def test_a_city_and_its_district_are_split(text, found, expected):
    assert repaired(text, found, split_district) == (1, expected)


@pytest.mark.parametrize("text,found", [
    ("在新竹科學園區上班", ("新竹科學園區", "LOCATION")),  # a word for an area
    ("曾在駁二藝術特區接受戒癮治療", ("駁二藝術特區", "LOCATION")),
    ("住在東部山地區", ("東部山地區", "LOCATION")),
    ("住台北的新店區", ("台北的新店區", "CITY")),  # a grammatical character: no city's name before it
    ("住在南港區", ("南港區", "CITY")),  # a district alone
    ("住在台中市東區", ("台中市東區", "CITY")),  # a direction's district of one character: left as found
    ("大安區公所", ("大安區", "CITY")),
    ("找王小明區長", ("王小明", "PERSON")),  # a district's head, not a district
])
def test_nothing_else_is_split(text, found):
    assert repaired(text, found, split_district) == (0, [found])


def test_cost_grows_linearly_with_the_span():
    def run(n):
        text = "住" + "西" * n + "南港區"
        return lambda: repaired(text, (text[1:], "CITY"), split_district)
    assert_linear(run, 500)


@pytest.mark.parametrize("text,found,expected", [
    ("低收入戶 (上海大甲區公所核定)", ("上海大甲區", "CITY"), [("上海", "CITY"), ("大甲區", "CITY")]),
    ("住台北市大安區", ("台北市大安區", "CITY"), [("台北市", "CITY"), ("大安區", "CITY")]),
    ("低收入戶 (嘉義縣林園區公所核定)", ("嘉義縣林園區", "LOCATION"), [("嘉義縣", "CITY"), ("林園區", "CITY")]),
])
def test_the_deid_pipeline_splits_a_known_city_and_its_district(text, found, expected):
    import spacy_deid

    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    doc = nlp.make_doc(text)
    start = text.index(found[0])
    doc.ents = [doc.char_span(start, start + len(found[0]), label=found[1])]
    doc = nlp.get_pipe("deid")(doc, resynthesize=False)
    assert [(e.text, e.label_) for e in doc.ents] == expected
    assert all(text[e.start_char:e.end_char] == e.text for e in doc.ents)


@pytest.mark.parametrize("name,before,expected", [
    ("大甲區", "", True), ("潮州鎮", "", True), ("那瑪夏區", "", True), ("林園區", "", True),
    ("工業區", "", False), ("科學園區", "", False), ("學園區", "科", False), ("市東區", "", False),
    ("觀光特區", "", False), ("家鄉", "", False), ("術特區", "藝", False),
])
def test_district_name(name, before, expected):
    from spacy_deid.districts import district_name

    assert district_name(name, before) is expected
