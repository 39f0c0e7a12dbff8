"""common_words: an ordinary English word in a case that marks no name is no name or place."""
import pytest

from spacy_deid.wordlists.common_words import (NAME_AND_PLACE_LEXICONS, common_words, name_and_place_words, name_words,
                                     ordinary_word, plain_words)
from spacy_deid.wordlists import default_word_lists, word_set
from spacy_deid.lexicons import lexicon
from spacy_deid.refine.spanshape import drop_misshapen, plain_word_name

from helpers.marked_doc import doc_with_ents
from linear import assert_linear


def test_every_lexicon_but_professions_is_left_out():
    # professions are ordinary words (`teacher`) and are never judged by the list
    assert set(lexicon.names()) - set(NAME_AND_PLACE_LEXICONS) == {"professions"}


def test_no_word_of_a_name_or_place_is_common():
    words = name_and_place_words()
    assert {"mary", "chen", "taipei"} <= words  # the words of names and places are read
    assert sorted(words & common_words()) == []


def test_the_list_holds_ordinary_words_and_no_common_names():
    words = common_words()
    assert {"tomorrow", "wife", "grew", "notify", "events", "daughter"} <= words
    assert not {"mary", "john", "smith", "young", "chen", "wang", "lee", "taipei", "boston", "abdullah", "nguyen",
                "siti"} & words


def test_frequent_words_that_are_also_parts_of_places_are_ordinary_but_names_are_not():
    # `common_words_en` leaves out every word of a place (`in`: a business's name holds it); the
    # frequent ones are still no name where capitals say nothing, unless a person's name holds them
    frequent = word_set("frequent_words_en")
    assert {"in", "on", "but", "plan", "states", "school"} <= frequent
    assert not {"john", "rose", "brown", "mary", "smith", "will", "van", "la", "ya", "pin"} & frequent  # names
    assert all(ordinary_word(w) for w in ("In", "PLAN", "tomorrow", "the", "lasix"))
    assert not any(ordinary_word(w) for w in ("smithers", "KOWALSKY", "rose", "Chen"))


def test_the_list_holds_the_words_real_clinical_prose_writes_in_lower_case():
    """Chart words wordfreq's general counts miss, taken from MTSamples' transcriptions (CC0)."""
    words = common_words()
    assert {"extremities", "hepatic", "fullness", "asymptomatic", "apnea"} <= words


@pytest.mark.parametrize("text,span,plain", [
    ("FAMILY MEETING WITH TEAM TOMORROW AT 1400", "TOMORROW", True),  # all capitals
    ("Grew up near the night market.", "Grew", True),  # first word of the line
    ("Lives alone. Wife visits daily.", "Wife", True),  # first word of a sentence
    ("通知家屬(niece)", "niece", True),  # lower case
    ("SOCIAL: DAUGHTER CALLED", "DAUGHTER CALLED", True),  # every word common, all capitals
    ("Seen by Will today", "Will", False),  # a capital inside a sentence marks a name
    ("Discussed with Young and her son", "Young", False),  # not common: a surname
    ("MET WITH MARY AT BEDSIDE", "MARY", False),  # a given name is never in the list
    ("TRANSFERRED TO TAIPEI", "TAIPEI", False),
    ("PT SEEN BY TEAM 2", "TEAM 2", False),  # a digit: not words only
    ("Grew up in 台北", "台北", False),  # Han characters carry no case
    ("EVENTS: NONE. Fellow visited", "Fellow", True),  # after a period
    ("pt with the Fellow today", "Fellow", False),
    ("EXT: EXTREMITIES WARM, HEPATIC FULLNESS NOTED", "HEPATIC FULLNESS", True),  # chart words, capitals
    ("Seen at Hepatic Clinic", "Hepatic", False),  # a capital inside a sentence still marks a name
    ("pt diaphoretic, nebulizer on", "nebulizer", True),  # a dictionary's word (WordNet), too rare for wordfreq
])
def test_plain_words(text, span, plain):
    start = text.index(span)
    assert plain_words(text, start, start + len(span)) is plain


@pytest.mark.parametrize("text,span", [
    ("SOCIAL: SPOKE W/HUSBAND, NEPHEW ON PHONE, AWARE", "NEPHEW ON PHONE"),  # `on`: a frequent word
    ("SOCIAL: SON AND WIFE IN TO VISIT", "SON AND WIFE IN"),  # grammar and frequent words
])
def test_a_persons_name_is_no_run_of_ordinary_words(text, span):
    start = text.index(span)
    assert not plain_words(text, start, start + len(span))  # `on`, `and`, `in` are in no common list
    assert plain_words(text, start, start + len(span), person=True)
    assert plain_word_name(text, start, start + len(span), "FAMILY")
    assert not plain_word_name("MOVED TO UNITED STATES", 9, 22, "COUNTRY")  # a place keeps its words


def test_a_title_keeps_a_common_word_as_a_name():
    text = "SEEN BY DR. WILL THIS AM"
    start = text.index("WILL")
    assert plain_words(text, start, start + 4)
    assert not plain_word_name(text, start, start + 4, "DOCTOR")
    assert plain_word_name("CALLED TOMORROW", 7, 15, "DEPARTMENT")
    assert not plain_word_name("works as a TEACHER", 11, 18, "PROFESSION")  # professions are ordinary words
    text = "醫師：阿所以，差不多一個小時就好"  # a speaker's turn is no title: `阿` before `所以` is a sound of speech
    assert plain_word_name(text, 3, 6, "DOCTOR") and not plain_word_name(text, 3, 6, "HOSPITAL")
    assert not plain_word_name("醫師：阿明，你好", 3, 5, "PATIENT")  # a prefix of address before a given name


def test_ner_spans_of_plain_words_are_dropped_and_names_kept():
    doc = doc_with_ents("FAMILY MEETING TOMORROW. WIFE MARY AT BEDSIDE, DR. WILL AWARE.",
                        [("TOMORROW", "DEPARTMENT"), ("MARY", "FAMILY"), ("WILL", "DOCTOR")])
    assert [(s.text, s.label_) for s in drop_misshapen(doc)] == [("TOMORROW", "DEPARTMENT")]
    assert [(e.text, e.label_) for e in doc.ents] == [("MARY", "FAMILY"), ("WILL", "DOCTOR")]


def test_long_capitals_are_judged_in_linear_time():
    def run(n):
        text = "NOTED " * n + "X1"
        plain_words(text, 0, len(text))
        plain_words(text, 0, len(text) - 2)
    assert_linear(run, 40000)


@pytest.mark.parametrize("text,span,place,person", [
    ("ENDO: INSULIN GTT STARTED", "INSULIN GTT", False, True),  # three letters: a place keeps them
    ("RESP: LUNGS COARSE BILAT", "BILAT", True, True),  # chart language, in capitals
    ("resp: ls coarse bilat, sxn for thick tan", "bilat", True, True),
    ("cont lopressor and heme consult in am", "lopressor", True, True),
    ("Resp: Lopressor held", "Lopressor", True, True),  # four letters or more: in any case
    ("resp: ls coarse bilat, seen by Koh", "Koh", False, False),  # a surname is in no list
])
def test_chart_language_in_one_case_is_plain_for_names_and_places(text, span, place, person):
    start = text.index(span)
    assert plain_words(text, start, start + len(span)) is place
    assert plain_word_name(text, start, start + len(span), "HOSPITAL") is place
    assert plain_word_name(text, start, start + len(span), "DOCTOR") is person


def test_the_clinical_vocabulary_holds_no_word_of_a_name_or_place():
    vocabulary = default_word_lists().word_set("clinical_vocabulary_en")
    assert len(vocabulary) > 20_000 and {"bilat", "lopressor", "npo", "heme"} <= vocabulary
    assert not vocabulary & name_words()
    assert not vocabulary & name_and_place_words()
    assert all(len(word) >= 3 and word == word.lower() for word in vocabulary)
    assert not vocabulary & {"hosp", "univ", "clinic", "hospital", "center"}  # parts of institutions' names


@pytest.mark.parametrize("text,span,plain", [
    ("PLAN: CON'T LASIX, MONITOR", "CON'T", True),  # a contraction's ending is no word of its own
    ("says she can't sleep", "can't", True),
    ("seen by O'Brien today", "O'Brien", False),  # an apostrophe inside a name
])
def test_a_contraction_is_judged_by_its_word(text, span, plain):
    start = text.index(span)
    assert plain_words(text, start, start + len(span), person=True) is plain


@pytest.mark.parametrize("text,span,plain", [
    ("Pt started on Lopressor today", "Lopressor", True),  # a brand is capitalised: chart language
    ("Given Combivent nebs q4h", "Combivent", True),
    ("Seen by Dr. Tan today", "Tan", False),  # short: a surname's capital marks it
    ("Discussed with Romero today", "Romero", False),  # no chart word
])
def test_a_long_word_of_chart_language_is_plain_in_any_case(text, span, plain):
    start = text.index(span)
    assert plain_words(text, start, start + len(span)) is plain


def test_a_short_chart_word_is_no_place_judged_plain():
    """Three letters of chart language are also an organisation's acronym (`PSC 9009, Box 9725`): a place
    keeps them, a name does not."""
    text = "HUSBAND WORKS AT PSC. NPO AFTER MN"
    start = text.index("PSC")
    assert not plain_word_name(text, start, start + 3, "GENERAL_BUSINESS")
    start = text.index("NPO")
    assert plain_word_name(text, start, start + 3, "DOCTOR")
