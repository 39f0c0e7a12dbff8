"""jurisdictions (cue rules `resources/cue_rules/jurisdictions.json`): a place before a public office's
word is the CITY the office serves."""
import pytest

from spacy_deid.cues import default_cue_rules
from spacy_deid.refine.cue_steps import cue_repair

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of, repair_ner_spans, repaired

as_jurisdiction = cue_repair(default_cue_rules(), "jurisdictions")


def jurisdiction_end(text: str, start: int, end: int):
    """Where the rules end the place of a FAMILY span at text[start:end], or None."""
    new = default_cue_rules().apply(text, start, end, "FAMILY", "jurisdictions")
    return None if new is None else new[1]


@pytest.mark.parametrize("text,found,expected", [
    # the NER ran into the office's first characters and took another label
    ("據廣州警察局苓雅區分局筆錄, 病人深夜砸毀機車", ("廣州警", "FAMILY"), ("廣州", "CITY")),
    ("依法通報舊金山毒品危害防制中心.", ("舊金山毒品", "SCHOOL"), ("舊金山", "CITY")),
    ("因酒駕遭台中地方法院判緩刑", ("台中地", "SCHOOL"), ("台中", "CITY")),
    ("已轉介馬尼拉社會局, 承辦人彭小姐.", ("馬尼拉社", "LOCATION"), ("馬尼拉", "CITY")),
    ("接獲西雅圖衛生局公文, 強制住院延長", ("西雅", "HOSPITAL"), None),  # short of the office: left
    # the whole office word inside the span
    ("由台南地檢署起訴", ("台南地檢署", "LOCATION"), ("台南", "CITY")),
    # stopping right before it, called a name
    ("據廣州警察局筆錄", ("廣州", "FAMILY"), ("廣州", "CITY")),
    # a district keeps its 區 before 公所
    ("低收入戶 (歸仁區公所核定)", ("歸仁區公", "PERSON"), ("歸仁區", "CITY")),
    # a place label of the NER stands
    ("經加州法院判決", ("加州法", "STATE"), ("加州", "STATE")),
])
def test_a_place_before_an_office_word_is_its_jurisdiction(text, found, expected):
    changed, ents = repaired(text, found, as_jurisdiction)
    if expected is None:
        assert (changed, ents) == (0, [found])
    else:
        assert (changed, ents) == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("林分局長來電說明案情", ("林分局", "PERSON")),  # the head of the office: a person
    ("王所長來訪", ("王所", "PERSON")),  # 所 alone is no office word
    ("據廣州警察局筆錄", ("廣州", "CITY")),  # already the jurisdiction
    ("他的法院開庭在下週", ("他的", "PERSON")),  # a grammatical word is no place
    ("蔡英文政府的政策", ("蔡英文", "PERSON")),  # a bare 政府 is no office word
])
def test_nothing_else_changes(text, found):
    assert repaired(text, found, as_jurisdiction) == (0, [found])


def test_the_repair_runs_with_the_others():
    text = "據廣州警察局苓雅區分局筆錄"
    doc = doc_with_ents(text, [("廣州警", "FAMILY")])
    changes = repair_ner_spans(doc)
    assert changes["jurisdictions"] == 1
    assert ents_of(doc) == [("廣州", "CITY")]


def test_the_office_word_may_start_inside_the_span_and_end_after_it():
    text = "台中地方法院"
    assert jurisdiction_end(text, 0, 3) == 2
    assert jurisdiction_end("台中市政府警察局", 0, 5) == 2  # the first office word two characters in


def test_cost_grows_linearly_with_the_span():
    def run(n):
        text = "警" * n
        return lambda: jurisdiction_end(text, 0, n)
    assert_linear(run, 2000)
