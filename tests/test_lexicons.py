"""Packaged lexicons: metadata, fields, uniqueness, minimum sizes and the deterministic split."""
import json

import pytest

from spacy_deid import lexicons
from spacy_deid.lexicons import Lexicon, LexiconError

# name -> (minimum entries, required fields on every entry)
EXPECTED = {
    "surnames_zh": (100, {"text", "freq", "romanized"}),
    "given_chars_zh": (200, {"text", "gender", "romanized"}),
    "given_names_romanized": (100, {"text", "gender"}),
    "given_names_en": (300, {"text", "gender"}),
    "surnames_en": (300, {"text"}),
    "hospitals": (60, {"zh", "en", "abbr_zh", "abbr_en", "city"}),
    "departments": (40, {"zh", "en", "abbr"}),
    "cities": (50, {"zh", "en", "country"}),
    "districts": (100, {"zh", "en", "city"}),
    "streets": (150, {"zh", "en"}),
    "states": (50, {"zh", "en"}),
    "countries": (50, {"zh", "en"}),
    "nationalities": (20, {"zh", "en"}),
    "regions": (15, {"zh", "en"}),
    "schools": (60, {"zh", "en", "abbr_zh", "abbr_en"}),
    "companies": (60, {"zh", "en"}),
    "markets": (30, {"zh", "en"}),
    "locations": (40, {"zh", "en"}),
    "professions": (100, {"zh", "en"}),
}


def test_names_lists_every_expected_lexicon():
    assert set(EXPECTED) <= set(lexicons.names())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_lexicon_metadata_fields_and_size(name):
    minimum, fields = EXPECTED[name]
    lex = lexicons.load(name)
    assert lex.name == name
    assert lex.source.strip() and lex.licence.strip()
    assert len(lex.entries) >= minimum
    for entry in lex.entries:
        assert fields <= set(entry), entry
        assert all(isinstance(entry[f], (str, float, int)) and entry[f] != "" for f in fields)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_duplicate_entries(name):
    lex = lexicons.load(name)
    keys = [tuple(e[f] for f in lex.key) for e in lex.entries]
    assert len(keys) == len(set(keys))
    dumped = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in lex.entries]
    assert len(dumped) == len(set(dumped))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_split_is_disjoint_complete_and_roughly_80_20(name):
    lex = lexicons.load(name)
    train, held = lex.split("train"), lex.split("heldout")
    assert len(train) + len(held) == len(lex.split("all")) == len(lex.entries)
    assert held, "every lexicon needs held-out values"
    train_vals, held_vals = set(lex.values(part="train")), set(lex.values(part="heldout"))
    assert not train_vals & held_vals
    assert 0.65 <= len(train) / len(lex.entries) <= 0.92


def test_split_is_deterministic_across_fresh_objects():
    """The split depends only on the surface string, not on object identity or hash seeds."""
    lex = lexicons.load("surnames_zh")
    fresh = Lexicon(lex.name, lex.source, lex.licence, lex.fields, list(reversed(lex.entries)), list(lex.key))
    assert sorted(e["text"] for e in fresh.split("heldout")) == sorted(e["text"] for e in lex.split("heldout"))


def test_load_is_cached():
    assert lexicons.load("hospitals") is lexicons.load("hospitals")


def test_values_uses_surface_field_and_skips_missing():
    hosp = lexicons.load("hospitals")
    assert "台大醫院" in hosp.values()
    assert "NTUH" in hosp.values("abbr_en")
    codes = hosp.values("code")  # optional field: only the numbered military hospitals
    assert "804" in codes and len(codes) < len(hosp.entries)
    with pytest.raises(KeyError):
        hosp.values("no_such_field")


def test_strings_hold_every_field_and_list_item():
    hosp = lexicons.load("hospitals")
    strings = set(hosp.strings())
    assert {"台大醫院", "NTUH", "804", "台北市"} <= strings  # surface, abbreviation, optional code, city
    lx = Lexicon("t", "test", "CC0", {"text": "name", "aka": "other names", "freq": "share"},
                 [{"text": "Ann", "aka": ["Annie", "Anna"], "freq": 1.5}])
    assert list(lx.strings()) == ["Ann", "Annie", "Anna"]  # numbers are no strings


@pytest.mark.parametrize("name,field,value", [
    ("surnames_zh", "text", "陳"), ("surnames_zh", "text", "歐陽"), ("surnames_zh", "text", "張簡"),
    ("surnames_zh", "romanized", "Tsai"), ("given_chars_zh", "text", "志"),
    ("given_names_romanized", "text", "Chia-Hao"), ("departments", "abbr", "GI"),
    ("cities", "zh", "高雄"), ("streets", "zh", "忠孝東路三段"), ("markets", "zh", "士林夜市"),
    ("companies", "zh", "台積電"), ("companies", "zh", "7-11"), ("schools", "abbr_zh", "中國醫"),
    ("hospitals", "abbr_zh", "中國醫"), ("professions", "zh", "護理師"), ("regions", "zh", "東南亞"),
])
def test_known_values_present(name, field, value):
    assert value in lexicons.load(name).values(field)


def test_surname_frequency_order_starts_with_taiwan_top_surnames():
    entries = lexicons.load("surnames_zh").entries
    top = [e["text"] for e in sorted(entries, key=lambda e: -e["freq"])[:5]]
    assert top == ["陳", "林", "黃", "張", "李"]


def test_given_char_genders_are_valid_and_single_characters():
    for e in lexicons.load("given_chars_zh").entries:
        assert len(e["text"]) == 1 and e["gender"] in {"M", "F", "U"}


def test_unknown_lexicon_and_bad_part_raise():
    with pytest.raises(LexiconError):
        lexicons.load("no_such_lexicon")
    with pytest.raises(ValueError):
        lexicons.load("cities").split("test")


@pytest.mark.parametrize("entries,message", [
    ([], "no entries"),
    ([{"text": "a"}, {"text": "a"}], "duplicates"),
    ([{"text": "a", "extra": 1}], "undeclared"),
    ([{"other": "a"}], "undeclared"),
    ([{"text": ""}], "empty"),
])
def test_malformed_lexicon_rejected(entries, message):
    with pytest.raises(LexiconError, match=message):
        Lexicon("t", "src", "lic", {"text": "surface"}, entries, ["text"])
