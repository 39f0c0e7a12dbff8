"""Phrase-list rules (places of closed classes): the trie regex, the shipped `places.json`, the
clinical-term veto, and the known-place correction of NER spans that run on."""
import json
import random
import re
from importlib import resources

import pytest

import spacy_deid
from spacy_deid.wordlists.clinical_terms import inside_clinical_term
from spacy_deid.lexicons import load as load_lexicon
from spacy_deid.rules import PatternRule, RuleError, load_patterns
from spacy_deid.rules.known_places import runs_on
from spacy_deid.rules.phrases import phrase_regex, phrase_spans

from build_places_script import load_build_places
from linear import assert_linear
from test_rules import found, nlp  # noqa: F401 (nlp is the rules pipeline fixture)


def _places():
    text = resources.files("spacy_deid").joinpath("resources", "patterns", "places.json").read_text("utf8")
    return {rule["id"]: rule for rule in json.loads(text)["patterns"]}


# -- the trie regex ---------------------------------------------------------------------------------
def _naive(phrases, text):
    """Leftmost, then longest, non-overlapping matches with ASCII word edges: the reference."""
    out, pos = [], 0
    while pos < len(text):
        best = None
        for p in phrases:
            if text.startswith(p, pos):
                end = pos + len(p)
                left_ok = not (p[0].isascii() and p[0].isalnum() and pos and text[pos - 1].isascii()
                               and text[pos - 1].isalnum())
                right_ok = not (p[-1].isascii() and p[-1].isalnum() and end < len(text)
                                and text[end].isascii() and text[end].isalnum())
                if left_ok and right_ok and (best is None or end > best):
                    best = end
        if best is None:
            pos += 1
        else:
            out.append(text[pos:best])
            pos = best
    return out


def test_trie_regex_and_phrase_spans_find_what_a_plain_search_finds():
    rng = random.Random(3)
    alphabet = "美國籍洲台灣人ab "
    phrases = sorted({"".join(rng.choice(alphabet.strip()) for _ in range(rng.randint(1, 4))) for _ in range(40)})
    regex = re.compile(phrase_regex(phrases))
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert [m.group() for m in regex.finditer(text)] == _naive(phrases, text), text
        assert [text[start:end] for start, end in phrase_spans(text, phrases)] == _naive(phrases, text), text


def test_trie_regex_prefers_the_longest_phrase_and_respects_ascii_word_edges():
    regex = re.compile(phrase_regex(["美國", "美國籍", "Chad", "Hong Kong"]))
    assert [m.group() for m in regex.finditer("他是美國籍, 住美國")] == ["美國籍", "美國"]
    assert [m.group() for m in regex.finditer("Chadwick met Chad in Hong Kong.")] == ["Chad", "Hong Kong"]


@pytest.mark.parametrize("make,size", [(lambda n: "a" * n, 100_000), (lambda n: "美國" * n, 50_000)])
def test_phrase_spans_are_linear(make, size):
    """Overlapping occurrences (`aa` in `aaaa`) are each looked at once."""
    assert_linear(lambda n: phrase_spans(make(n), ["a", "aa", "aaa", "美國", "國美國"]), size)


def test_trie_regex_ignores_case_when_asked():
    regex = re.compile(phrase_regex(["Japan"], ignore_case=True), re.IGNORECASE)
    assert [m.group() for m in regex.finditer("JAPAN japan Japanese")] == ["JAPAN", "japan"]


def test_phrase_rules_round_trip_and_reject_bad_lists():
    rule = PatternRule.from_dict({"id": "x", "label": "COUNTRY", "phrases": ["Japan", "日本"]})
    assert PatternRule.from_dict(rule.to_dict()) == rule
    assert rule.to_dict() == {"id": "x", "label": "COUNTRY", "phrases": ["Japan", "日本"]}
    with pytest.raises(RuleError, match="'phrases' must be a list of strings"):
        PatternRule.from_dict({"id": "x", "label": "COUNTRY", "phrases": "Japan"})
    with pytest.raises(RuleError, match="either 'pattern' or 'phrases'"):
        PatternRule.from_dict({"id": "x", "label": "COUNTRY", "pattern": "a", "phrases": ["b"]})
    with pytest.raises(RuleError, match="missing key"):
        PatternRule.from_dict({"id": "x", "label": "COUNTRY"})


@pytest.mark.parametrize("make,size", [
    (lambda n: "美" * n, 100_000), (lambda n: "美國籍" * n, 33_000), (lambda n: "SRI " * n, 25_000),
    (lambda n: "Sri Lank" * n, 12_000), (lambda n: "新竹縣市" * n, 25_000), (lambda n: "A" * n, 100_000),
])
def test_place_rules_are_linear(make, size):
    from spacy_deid.rules import compile_rules, find_matches
    from spacy_deid.rules.validators import make_default_validators

    validators = make_default_validators()
    compiled = compile_rules([r for r in load_patterns("default") if r.phrases], validators)
    assert compiled
    assert_linear(lambda n: find_matches(make(n), compiled, validators), size)


# -- the shipped lists --------------------------------------------------------------------------------
def test_places_file_lists_each_name_under_one_label_and_no_personal_names():
    rules = _places()
    owner = {}
    for rule in rules.values():
        for phrase in rule["phrases"]:
            assert owner.setdefault(phrase, rule["label"]) == rule["label"], phrase
    personal = {e["text"] for e in load_lexicon("given_names_en").entries}
    personal |= {e["text"] for e in load_lexicon("surnames_en").entries}
    english = {p for r in rules.values() if r["id"].endswith("_en") for p in r["phrases"]}
    assert not english & personal
    assert {"Chad", "Jordan", "Georgia", "Turkey", "Oral", "Washington", "Virginia", "Victoria"}.isdisjoint(english)
    # Provinces without their suffix are words and cuisines (`四川菜`, `湖南`): never listed bare.
    assert {"四川", "湖南", "廣東", "福建"}.isdisjoint(rules["place_state_zh"]["phrases"])
    assert all(len(p) >= 2 for r in rules.values() for p in r["phrases"])


def test_places_file_is_what_the_build_script_writes():
    assert {r["id"]: r for r in load_build_places().build()["patterns"]} == _places()


@pytest.mark.parametrize("text,expected", [
    ("她是越南籍配偶, 從胡志明市來台。", [("越南籍", "NATIONALITY"), ("胡志明市", "CITY")]),
    ("曾在斯里蘭卡工作, 後到東南亞旅遊", [("斯里蘭卡", "COUNTRY"), ("東南亞", "REGION")]),
    ("住在嘉義縣, 常去台北市", [("嘉義縣", "CITY"), ("台北市", "CITY")]),
    ("Moved from Mongolia to Kaohsiung City; visited SRI LANKA", [
        ("Mongolia", "COUNTRY"), ("Kaohsiung City", "CITY"), ("SRI LANKA", "COUNTRY")]),
    ("Chadwick said Taiwanese food; Oral intake fair", []),
    ("小時候得過日本腦炎和德國麻疹, 有香港腳", []),
    ("History of German measles; the Hong Kong flu in Hong Kong", [("Hong Kong", "CITY")]),
    ("女兒在加州念書, 先生是廣東省人, 曾住沖繩縣", [("加州", "STATE"), ("廣東省", "STATE"), ("沖繩縣", "STATE")]),
    ("Son lives in Texas, moved from ONTARIO; Dr. Washington said 吃四川菜", [
        ("Texas", "STATE"), ("ONTARIO", "STATE")]),
])
def test_places_in_running_text(nlp, text, expected):
    assert found(nlp, text) == expected


def test_inside_clinical_term():
    text = "疑似日本腦炎; 日本籍"
    assert inside_clinical_term(text, 2, 4)
    assert not inside_clinical_term(text, 8, 10)
    assert inside_clinical_term("german measles", 0, 6)


# -- a NER place span that runs on past a known place --------------------------------------------------
@pytest.mark.parametrize("rest,expected", [
    ("出差", True), ("),", True), ("找", True), ("流浪", True), ("醫院", False), ("中央醫院", False),
    ("醫", False), ("市立萬芳醫院", False), (" Airlines", False), ("", True),
])
def test_runs_on(rest, expected):
    assert runs_on(rest) is expected


def _with_ner(nlp, text, ents):
    doc = nlp.make_doc(text)
    spans = []
    for surface, label in ents:
        start = text.index(surface)
        spans.append(doc.char_span(start, start + len(surface), label=label))
    doc.ents = spans
    doc = nlp.get_pipe("deid")(doc, resynthesize=False)
    return [(e.text, e.label_, e._.source) for e in doc.ents]


def test_a_ner_place_that_runs_on_gives_way_to_the_known_place():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert _with_ner(nlp, "之後到韓國出差。", [("韓國出差", "REGION")]) == [("韓國", "COUNTRY", "rule")]
    assert _with_ner(nlp, "住在上海), 之後", [("上海),", "COUNTRY")]) == [("上海", "CITY", "rule")]


def test_organisations_named_after_a_place_keep_the_ner_span():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert _with_ner(nlp, "轉至新加坡中央醫院", [("新加坡中央醫院", "HOSPITAL")]) == [
        ("新加坡中央醫院", "HOSPITAL", "ner")]
    # (not before a visit word: `送至基隆長庚急診` is also found by hospitals.json's care frame)
    assert _with_ner(nlp, "送基隆長庚的病房", [("基隆長庚", "HOSPITAL")]) == [("基隆長庚", "HOSPITAL", "ner")]
    # the NER's span stays whole; its type word (醫院) gives it its label (`repairs`)
    assert _with_ner(nlp, "住台北市立萬芳醫院", [("台北市立萬芳醫院", "CITY")]) == [
        ("台北市立萬芳醫院", "HOSPITAL", "ner")]


@pytest.mark.parametrize("text,expected", [
    ("家屬拒絕接回, 改安排台中監獄暫住.", [("台中監獄", "LOCATION", "rule")]),
    ("轉至台南醫院急診", [("台南醫院", "HOSPITAL", "rule")]),
    ("She was seen at Taipei Hospital last week.", [("Taipei Hospital", "HOSPITAL", "rule")]),
    ("在日本公司上班", [("日本", "COUNTRY", "rule")]),  # a country before a type word: a description
    ("住在台南大學路二段", [("台南", "CITY", "rule")]),  # 大學路 is a street
    # a road named after a city: the road
    ("債主常到基隆路四段住處按門鈴", [("基隆路四段", "STREET", "rule")]),
    ("住在台北南京東路", [("台北", "CITY", "rule")]),  # 南京 is no known city of the lists: left to the NER
    ("在台北路上遇到朋友", [("台北", "CITY", "rule")]),  # 路上: on the road
    ("在台中街頭遊蕩", [("台中", "CITY", "rule")]),
])
def test_a_city_before_a_type_word_names_the_institution(text, expected):
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert _with_ner(nlp, text, []) == expected


def test_a_known_place_relabels_a_ner_span_with_its_exact_boundaries():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert _with_ner(nlp, "去過蒙古", [("蒙古", "GENERAL_BUSINESS")]) == [("蒙古", "COUNTRY", "rule")]


def test_a_name_that_holds_a_place_stays_a_name():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert _with_ner(nlp, "陳美國先生", [("陳美國", "PATIENT")]) == [("陳美國", "PATIENT", "ner")]
