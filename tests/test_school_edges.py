"""Edges of institution spans the NER draws on Chinese text (`spanedges`, `institutions`): a verb
glued before, a type word cut short or run past, one name cut in two."""
import pytest

from spacy_deid.refine.institutions import joined
from spacy_deid.refine import RefineStage
from spacy_deid.rules.validators import validate_place_name

from ner_spans import doc_with_ents, ents_of, repair_ner_spans, stepped


@pytest.mark.parametrize("text,found,expected", [
    ("學校：大同高中", ("：大同高中", "SCHOOL"), ("大同高中", "SCHOOL")),
    ("學歷：成大肄業", ("成大肄業", "SCHOOL"), ("成大", "SCHOOL")),
    ("大學念彰師大時開始拒學", ("彰師大時", "SCHOOL"), ("彰師大", "SCHOOL")),
    ("姊姊交大研究所畢業", ("交大研", "SCHOOL"), ("交大", "SCHOOL")),  # the first part of 研究所
    ("a Taipei Municipal Renai Junior High School student", ("Taipei Municipal Renai Junior High School student", "SCHOOL"),
     ("Taipei Municipal Renai Junior High School", "SCHOOL")),
    # an English name drops the verb of its sentence
    ("SOCIAL WORKER LIU CHEN-CHANG CONTACTED.", ("LIU CHEN-CHANG CONTACTED", "PERSON"), ("LIU CHEN-CHANG", "PERSON")),
    ("Social worker Yu-Yueh Tseng contacted on 3/2", ("Yu-Yueh Tseng contacted", "PERSON"), ("Yu-Yueh Tseng", "PERSON")),
    ("Pt stated「我叫謝宗翰」and denied", ("謝宗翰」", "PERSON"), ("謝宗翰", "PERSON")),  # a closing quote
    # a Chinese name holds no space: one Han character set apart by one is a word of its own
    ("家屬: 林美玲 母, 0912-345-678", ("林美玲 母", "FAMILY"), ("林美玲", "FAMILY")),
    ("家系圖: 父 劉澤 (歿)", ("父 劉澤", "FAMILY"), ("劉澤", "FAMILY")),
    ("主治 陳志 晚上來看", ("陳志 晚", "DOCTOR"), ("陳志", "DOCTOR")),
    # a school's office after an abbreviation that ends as a type word's first part does (中, 大)
    ("已聯絡台中一中學務處, 安排返校會議", ("台中一中學", "SCHOOL"), ("台中一中", "SCHOOL")),
    ("已聯絡港大學務處", ("港大學", "SCHOOL"), ("港大", "SCHOOL")),
    ("Works remotely for IKEA (Idaho office), night calls", ("Idaho office", "LOCATION"), ("Idaho", "LOCATION")),
    # home in a place, and a visit to someone there
    ("P: 申請 1/28 外宿返回上海家中, 由高恆佑負責接送.", ("上海家中", "SCHOOL"), ("上海", "SCHOOL")),
    ("「我想回舊金山看劉海勳」反覆詢問", ("舊金山看", "SCHOOL"), ("舊金山", "SCHOOL")),
    # a district's name cut short takes its first character
    ("地址台南市歸仁區崇德路169號", ("仁區", "CITY"), ("歸仁區", "CITY")),
    ("據台中警察局前金區分局筆錄", ("金區", "CITY"), ("前金區", "CITY")),
])
def test_an_institution_span_drops_the_words_at_its_edges(text, found, expected):
    assert stepped(text, found, "edges") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("住在和平國小旁", ("和平國小", "SCHOOL")),  # 和 starts 和平: not in the list
    ("上海大學畢業", ("上海大學", "SCHOOL")),
    ("由大安高職員工", ("大安高職", "SCHOOL")),
    ("參加讀書會", ("讀書會", "LOCATION")),  # 讀書 is a word
    ("逛光華商場", ("光華商場", "MARKET")),  # a common word first, but only the type word would remain
    ("就讀建國中學學務處", ("建國中學", "SCHOOL")),  # the school's own 學, then its office
    ("地址台中市東區建國路", ("東區", "CITY")),  # a direction names a district with one character
    ("搬到區區", ("區區", "CITY")),  # no Han character of a name before it: 到 is a preposition
    ("住在仁區", ("仁區", "CITY")),  # 在 is a preposition
    ("moved to Red Deer", ("Red Deer", "CITY")),  # a capitalised word, no verb
    ("Seen with Ted Reed today", ("Ted Reed", "DOCTOR")),  # short names that end in -ed
    ("her husband Alfred visited", ("Alfred", "FAMILY")),  # one word: nothing to drop
    ("the ward unit closed", ("ward unit closed", "LOCATION")),  # a lower-case span: its words are its own
    ("病人: 陳 志明, 45歲", ("陳 志明", "PATIENT")),  # a surname set apart from the given name
    ("案母 歐陽 娜 來電", ("歐陽 娜", "FAMILY")),
    ("He plans to visit 孫子 劉先生 in Taichung.", ("孫子 劉", "FAMILY")),  # the one character is the name
    ("同學 林 來訪", ("同學 林", "PERSON")),
    ("書寫人 范醫師／覆核 劉主任", ("覆核 劉", "DOCTOR")),  # no surname starts 覆核: `relations` reads it
    ("轉介自台大 王醫師門診", ("台大 王", "DOCTOR")),  # a title makes 王 a surname: the edges keep it
])
def test_names_that_start_or_end_with_such_characters_are_kept(text, found):
    assert stepped(text, found, "edges") == (0, [found])


def test_a_district_takes_no_character_that_is_another_entitys():
    text = "地址台南市歸仁區崇德路"
    parts = [("台南市歸", "CITY"), ("仁區", "CITY")]
    doc = doc_with_ents(text, parts)
    RefineStage(["edges"], []).refine_note(doc)
    assert ents_of(doc) == parts


@pytest.mark.parametrize("text,found,expected", [
    ("個案唸德光高中一年後輟學。", ("德光高", "LOCATION"), ("德光高中", "SCHOOL")),
    ("病人曾就讀於嘉南藥理大學。", ("嘉南", "HOSPITAL"), ("嘉南藥理大學", "SCHOOL")),
    ("個案去文藻外語大學上課。", ("文藻", "LOCATION"), ("文藻外語大學", "SCHOOL")),
    ("女兒讀的是景美女中。", ("景美", "PERSON"), ("景美女中", "SCHOOL")),
])
def test_a_span_that_stops_inside_or_before_a_school_name_is_completed(text, found, expected):
    assert stepped(text, found, "institutions") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("王建國小時候住台南", ("王建國", "PERSON")),  # 小時 is a word: a name before it, no school
    ("在台大附近診所拿藥", ("台大", "HOSPITAL")),  # 附近 says where, not which clinic
    ("國小老師", ("國", "CITY")),
    ("病人由文藻外語大學轉學。", ("文藻外語大", "FAMILY")),  # a name the NER found stays one
    ("國立大學", ("國立", "CITY")),  # a generic modifier alone names no institution
])
def test_a_name_before_a_common_word_is_not_made_a_school(text, found):
    assert stepped(text, found, "institutions") == (0, [found])


@pytest.mark.parametrize("text,parts,expected", [
    ("他畢業於國立交通大學。", [("國立", "SCHOOL"), ("通大學", "SCHOOL")], [("國立交通大學", "SCHOOL")]),
    ("案父國立交通大學畢業。", [("國立", "FAMILY"), ("通大學", "SCHOOL")], [("國立交通大學", "SCHOOL")]),
    ("學歷: 國立彰化師範大學", [("國立彰化", "SCHOOL"), ("範大學", "SCHOOL")], [("國立彰化師範大學", "SCHOOL")]),
    ("住台北市立醫院", [("台北", "CITY"), ("立醫院", "HOSPITAL")], [("台北市立醫院", "HOSPITAL")]),
    ("在林耳鼻喉科診所看診", [("林耳", "NATIONALITY"), ("鼻喉科", "DEPARTMENT")], [("林耳鼻喉科診所", "HOSPITAL")]),
    ("轉至新加坡中央醫院", [("新加坡", "COUNTRY"), ("中央醫院", "HOSPITAL")], [("新加坡中央醫院", "HOSPITAL")]),
    ("轉台北榮總", [("台北", "CITY"), ("榮總", "HOSPITAL")], [("台北榮總", "HOSPITAL")]),  # a short form's type word
    # an English name with its type word apart, the type word read as a name
    ("referred to Eden Social Welfare Foundation; social worker", [("Eden Social Welfare", "HOSPITAL"),
     ("Foundation", "PERSON")], [("Eden Social Welfare Foundation", "LOCATION")]),
    # the hospital's own name read as a person's, between the city and the type word
    ("三次 manic episode, 皆住台北市立萬芳醫院", [("台北市", "CITY"), ("萬芳", "DOCTOR")],
     [("台北市立萬芳醫院", "HOSPITAL")]),
    ("found at 228 Peace Memorial Park", [("228", "ROOM"), ("Peace Memorial Park", "DEPARTMENT")],
     [("228 Peace Memorial Park", "LOCATION")]),  # a name that starts with a number
])
def test_an_institution_cut_in_two_is_joined(text, parts, expected):
    doc = doc_with_ents(text, parts)
    assert joined(doc, text) == 1
    assert ents_of(doc) == expected


@pytest.mark.parametrize("text,parts", [
    ("台北到高雄醫院", [("台北", "CITY"), ("高雄醫院", "HOSPITAL")]),  # 到 is grammar: two places
    ("王小明看台大醫院", [("王小明", "PATIENT"), ("台大醫院", "HOSPITAL")]),  # a person first
    ("長庚與台大醫院", [("長庚", "HOSPITAL"), ("台大醫院", "HOSPITAL")]),
    ("台北市 大安區", [("台北市", "CITY"), ("大安區", "CITY")]),  # no type word at the end
    ("來台讀國立成功大學", [("台讀", "HOSPITAL"), ("國立成功大學", "SCHOOL")]),  # a verb at the seam
    ("台北榮民之家", [("台北", "CITY"), ("榮民之家", "LOCATION")]),  # ends with no type word
    ("台北市王大明說", [("台北市", "CITY"), ("王大明", "PERSON")]),  # a name with no type word after it
    ("王小明林醫院", [("王小明", "PATIENT"), ("林", "PERSON")]),  # a name first: only after a place
    ("room 228 Peace Street", [("228", "ROOM"), ("Peace Street", "STREET")]),  # no type word: a room and a street
    ("south of Taipei Central Park", [("south of", "REGION"), ("Taipei Central Park", "LOCATION")]),  # lower case
    ("Taipei of Hope Street", [("Taipei of", "CITY"), ("Hope Street", "STREET")]),  # no type word after it
    ("saw Lin Foundation staff", [("Lin", "PERSON"), ("Foundation", "LOCATION")]),  # a name first
])
def test_neighbouring_places_are_not_joined(text, parts):
    doc = doc_with_ents(text, parts)
    assert joined(doc, text) == 0
    assert ents_of(doc) == parts


def test_rule_spans_are_never_joined():
    text = "他畢業於國立交通大學。"
    doc = doc_with_ents(text, [("國立", "SCHOOL"), ("通大學", "SCHOOL")], source="rules")
    assert joined(doc, text) == 0


def test_the_repairs_join_first_then_complete_and_relabel():
    text = "案父國立交通大學畢業。"
    doc = doc_with_ents(text, [("國立", "FAMILY"), ("通大學", "HOSPITAL")])
    changes = repair_ner_spans(doc)
    assert changes["joined_institutions"] == 1
    assert ents_of(doc) == [("國立交通大學", "SCHOOL")]


@pytest.mark.parametrize("text,place,vetoed", [
    ("他是國中國文老師", "中國", True),  # 國中 + 國文: no China
    ("高中國語成績差", "中國", True),
    ("他在中國工作三年", "中國", False),
    ("中國人", "中國", False),
])
def test_a_known_place_that_starts_inside_a_school_level_is_vetoed(text, place, vetoed):
    start = text.index(place)
    assert (validate_place_name(text, start, start + len(place)) is False) is vetoed


def test_a_place_span_ending_with_a_type_word_keeps_its_length_over_a_known_place():
    from spacy_deid.rules.known_places import overrun_ents
    text = "個案曾在台中監獄服刑三年。"
    doc = doc_with_ents(text, [("台中監獄", "LOCATION")])
    place = doc.char_span(text.index("台中"), text.index("台中") + 2, label="CITY")
    assert overrun_ents(doc, text, [place]) == []
    text = "回台中找工作"
    doc = doc_with_ents(text, [("台中找", "CITY")])
    place = doc.char_span(1, 3, label="CITY")
    assert [e.text for e in overrun_ents(doc, text, [place])] == ["台中找"]


def test_a_join_never_reaches_into_the_next_entity():
    text = "在林耳鼻喉科診所看診"
    parts = [("林耳", "NATIONALITY"), ("鼻喉科", "DEPARTMENT"), ("所看", "PERSON")]
    doc = doc_with_ents(text, parts)
    assert joined(doc, text) == 0  # 診所 after the pair runs into the next span
    assert ents_of(doc) == parts


@pytest.mark.parametrize("text,start,end", [("中成大醫院", 0, 5), ("研究所台北", 3, 5), ("所台北", 1, 3)])
def test_edges_at_the_start_of_a_text_read_no_character_before_it(text, start, end):
    from spacy_deid.refine.spanedges import place_bounds
    assert place_bounds(text, start, end, "CITY") == (start, end)
    assert place_bounds("仁區", 0, 2, "CITY") == (0, 2)  # a district's name cut short, nothing before it


def test_edges_of_a_long_span_cost_linear_time():
    from spacy_deid.refine.spanedges import place_bounds
    from linear import assert_linear

    def run(n: int) -> None:
        text = "台北" + "的院" * n + "學校"  # a word that goes on after a type word, never after one
        place_bounds(text, 0, len(text), "CITY")
    assert_linear(run, 16000)
