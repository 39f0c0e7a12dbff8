"""The `not_phi` rules of `public_numbers.json`: an emergency or hotline number the note says to dial is
no one's PHI; the same digits elsewhere (a year, a room) stay."""
import pytest

from spacy_deid.cues import default_cue_rules
from spacy_deid.refine import RefineStage

from helpers.marked_doc import doc_with_ents
from linear import assert_linear


@pytest.mark.parametrize("text,number,public", [
    ("Told pt to call 911 if chest pain recurs.", "911", True),
    ("Family instructed to dial 911 in an emergency.", "911", True),
    ("Given the suicide hotline number 988.", "988", True),
    ("Given the 988 crisis line card.", "988", True),
    ("如有自殺意念請撥打安心專線1925。", "1925", True),
    ("衛教個案可撥打生命線1995。", "1995", True),
    ("遇家暴可撥113保護專線。", "113", True),
    ("路人打 119, 由 EMT 送至急診", "119", True),
    ("在便利商店被發現倒地, 路人撥 110 報案", "110", True),
    ("必要時110報警", "110", True),
    ("告知可撥打長照專線1966申請服務。", "1966", True),
    ("Born in 1995, moved to Taipei in 2010.", "1995", False),  # a year
    ("Transferred to room 113 on the 7th floor.", "113", False),  # a room
    ("於110年3月入院", "110", False),  # a Minguo year
    ("Called the daughter at 0912-345-678.", "0912-345-678", False),  # a person's number: not on the list
    ("call 2234 for the ward", "2234", False),  # an extension: not on the list
    ("call 9110 for the ward", "9110", False),  # the whole span is read, not a part of it
])
def test_public_service_numbers(text, number, public):
    start = text.index(number)
    outcome = default_cue_rules().apply(text, start, start + len(number), "PHONE", "not_phi")
    assert (outcome == (start, start + len(number), "")) is public


def test_ner_spans_of_hotlines_are_dropped_and_a_year_kept():
    text = "生命線1995或 call 911; born 1995"
    doc = doc_with_ents(text, [("1995", "DATE"), ("911", "ROOM")])
    year = text.rindex("1995")
    doc.ents = list(doc.ents) + [doc.char_span(year, year + 4, label="DATE")]
    RefineStage(["not_phi"], []).refine_note(doc)
    assert [(e.start_char, e.label_) for e in doc.ents] == [(year, "DATE")]


def test_the_cues_are_read_in_linear_time():
    rules = default_cue_rules()

    def run(n):
        text = "call " * n + "911" + " hotline" * n
        rules.apply(text, 5 * n, 5 * n + 3, "ROOM", "not_phi")
        text = "撥" * n + "1995" + "專線" * n
        rules.apply(text, n, n + 4, "DATE", "not_phi")
    assert_linear(run, 20000)
