"""han: one definition of Han characters, so a name with a rare character is one name everywhere."""
import pytest

import spacy_deid
from spacy_deid.han import HAN_RUN, has_han, is_han
from spacy_deid.scoring.sentences import token_language
from spacy_deid.refine.spanshape import lone_surname


@pytest.mark.parametrize("char", ["王", "㐀", "\uf9a8", "𡘙", "𠀋"])  # BMP, Extension A, compatibility, Extension B
def test_every_block_of_ideographs_is_han(char):
    assert is_han(char) and has_han("Dr. " + char)


@pytest.mark.parametrize("char", ["a", "1", "〇", "。", "，", "ア"])
def test_other_characters_are_not(char):
    assert not is_han(char)


def test_a_name_with_an_extension_b_character_is_one_run_and_one_token_per_character():
    name = "林𡘙明"
    assert HAN_RUN.fullmatch(name)
    doc = spacy_deid.blank()(f"病人{name}先生")
    assert [t.text for t in doc][2:5] == list(name)
    assert token_language("𡘙") == "zh" and token_language("〇") == "zh"  # 〇 reads as Chinese text
    # a lone Extension B character before a title is a surname with its title, not a stray character
    text = "𡘙先生"
    assert not lone_surname(text, 0, 1, "PATIENT")
    assert lone_surname("𡘙，", 0, 1, "PATIENT")
