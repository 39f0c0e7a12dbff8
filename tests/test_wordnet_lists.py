"""The word lists drawn from WordNet (`wordnet.json`): words for a person (`person_words_en`), which the
shape check reads for a PROFESSION (`shapes.json`, rule `profession_without_person_word`), and a
dictionary's words (`dictionary_words_en`), which count as common words; and the script that builds them."""
import importlib.util
import re
from pathlib import Path

import spacy_deid
from spacy_deid.wordlists.common_words import common_words
from spacy_deid.cues import current_cue_rules
from spacy_deid.lexicons import load
from spacy_deid.overlap import add_where_free
from spacy_deid.predicates import may_name_a_trade, names_a_person
from spacy_deid.wordlists import default_word_lists

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "build_wordnet_lists.py"


def _script():
    spec = importlib.util.spec_from_file_location("build_wordnet_lists", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Lines written in WordNet's `data.noun` format (offset, lexicographer file, `n`, word count in hex,
# word and lex id pairs, pointers, gloss): invented synsets, not WordNet's.
DATA_NOUN = """\
  1 This software and database is being provided to you, the LICENSEE, by
00000001 18 n 02 lamplighter 0 lamp_tender 0 000 | someone who lights lamps
00000002 18 n 01 Hippocrates 0 000 | a physician of antiquity
00000003 18 n 01 wire_puller 0 000 | someone who pulls wires
00000004 06 n 01 catheter 0 000 | a tube
00000005 18 n 01 ox 0 000 | too short
00000006 18 n 02 net-mender 0 ferryman 0 000 | someone who mends nets
00000007 18 n 01 hanger(a) 0 000 | a marked lemma
"""


def test_the_builder_takes_one_word_lower_case_lemmas():
    script = _script()
    # `lamp_tender`, `wire_puller`: several words; `Hippocrates`: a proper name; `ox`: under three
    # letters; `net-mender`: a hyphen; `catheter`: a lemma, but of no person
    assert script.person_words(DATA_NOUN.splitlines()) == {"lamplighter", "ferryman", "hanger"}
    assert script.lemmas(DATA_NOUN.splitlines()) == {"lamplighter", "ferryman", "hanger", "catheter"}


def test_the_packaged_list_holds_trades_and_no_devices():
    words = set(default_word_lists()["person_words_en"])
    assert {"nurse", "bartender", "teller", "electrician", "radiographer", "pastor"} <= words
    assert not {"heart", "wire", "stent", "catheter", "ventilator", "transplant"} & words
    assert all(re.fullmatch("[a-z]{3,}", w) for w in words)
    verbs = set(default_word_lists()["verbs_en"])
    assert {"need", "remove", "require", "come"} <= verbs and not {"may", "tomorrow", "june"} & verbs


def test_a_trade_names_a_person_and_ordinary_words_alone_do_not():
    assert names_a_person("bank tellers") and names_a_person("FIREMEN") and names_a_person("secretaries")
    assert not names_a_person("drain site")
    assert may_name_a_trade("Hsinchu")  # no common word: a name or a place, not judged here
    assert not may_name_a_trade("drain site") and not may_name_a_trade("the wound")



def test_dictionary_words_are_common_words_and_hold_no_name_or_place():
    words = set(default_word_lists()["dictionary_words_en"])
    assert {"nebulizer", "diaphoretic", "pallor", "ambulate"} <= words <= common_words()
    # surnames that are also English words (WordNet's `baker`, `mason`), and places (`china`)
    assert not {"baker", "mason", "tan", "china", "taipei", "hospital"} & words
    surnames = {value.casefold() for value in load("surnames_en").strings()}
    assert not surnames & words


# WordNet lines of the other parts of speech and of `noun.time` (invented glosses), and name lists in the
# Census files' format (name, frequency, cumulative frequency, rank), most frequent first.
DATA_ADJ = "00000010 00 a 01 Christian 0 000 | of a faith\n00000011 00 a 01 rosy 0 000 | pink\n"
DATA_TIME = "00000020 28 n 01 May 0 000 | a month\n00000021 06 n 01 rose 0 000 | a flower\n"
FEMALE = "ROSE 0.1 0.1 1\nMAY 0.1 0.2 2\nNADINE 0.1 0.3 3\nCHRISTIAN 0.1 0.4 4\nZELDA 0.1 0.5 5\n"
MALE = "TREVOR 0.1 0.1 1\nAL 0.1 0.2 2\nMAY 0.1 0.3 3\nROSE 0.1 0.4 4\nQUENTIN 0.1 0.5 5\n"


def test_the_builder_keeps_given_names_no_dictionary_holds_as_a_word():
    script = _script()
    text = {"noun": DATA_NOUN.splitlines() + DATA_TIME.splitlines(), "verb": [], "adj": DATA_ADJ.splitlines(),
            "adv": []}
    # `Rose`: a word in lower case; `May`: a time; `Christian`: an adjective; `Al`: under three letters;
    # `Zelda`, `Quentin`: past the first four of each list
    assert script.given_names([FEMALE.splitlines(), MALE.splitlines()], 4, text) == ["Nadine", "Trevor"]


def test_the_packaged_given_names_are_no_words_and_are_found_in_a_sentence():
    names = set(default_word_lists()["common_given_names_en"])
    assert {"Trevor", "Nadine", "Mary", "Jennifer", "Robert"} <= names
    assert not {"Mark", "Grace", "Will", "May", "June", "Bill", "Christian", "Ward", "Max"} & names
    assert not {name.lower() for name in names} & common_words()
    nlp = spacy_deid.blank()
    doc = nlp("Trevor drove Nadine home. Mark the site; Grace period.")
    doc.ents = []
    added = current_cue_rules().find(doc.text, "cued_spans")
    assert [(doc.text[s:e], label) for s, e, label in added] == [("Trevor", "PERSON"), ("Nadine", "PERSON")]


def test_a_given_name_takes_its_surname_unless_a_span_stands_there():
    nlp = spacy_deid.blank()
    text = "Lorraine Thorne, a counselor, called. Wendy Harlowe came. Sent to St. Mary Hospital."
    found = current_cue_rules().find(text, "cued_spans")
    # the longest first at one start: the step takes the shorter only where the longer meets an entity
    assert [(text[s:e], label) for s, e, label in found] == [
        ("Lorraine Thorne", "PERSON"), ("Lorraine", "PERSON"), ("Wendy Harlowe", "PERSON"), ("Wendy", "PERSON")]
    doc = nlp(text)
    start = text.index("Harlowe")
    doc.ents = [doc.char_span(start, start + len("Harlowe"), label="PERSON")]
    added = add_where_free(doc, found, "cued")
    assert [(span.text, span.label_) for span in added] == [("Lorraine Thorne", "PERSON"), ("Wendy", "PERSON")]
