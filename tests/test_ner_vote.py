"""A vote among NERs (`spacy_deid.ner_vote`): the policy on hand-built spans, and `spacy-deid assemble
--voter` end to end with two small trained NERs that disagree (tests/helpers/tiny_pipeline.py)."""
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Span
from typer.testing import CliRunner

from spacy_deid.cli import app
from spacy_deid.ner_vote import NerVote, token_cover, touches
from spacy_deid.ner_vote.component import votes_key
from spacy_deid.tokenizer import blank

from helpers.tiny_pipeline import dev_records, train_tiny_ner

TEXT = "Dr Wang saw Levo at CCU with his wife Mary today"


def overlaps_any(span, others):
    """The pairwise reading of overlap, against which the vote's token cover is checked."""
    return any(span.start < other.end and other.start < span.end for other in others)


def majority_bounds(span, others):
    """The first and last token of `span` that one of `others` (lists of spans) holds too: with the span's
    own vote, two."""
    held = [i for i in range(span.start, span.end) if any(o.start <= i < o.end for group in others for o in group)]
    return (held[0], held[-1] + 1) if held else (span.start, span.end)


def _doc_with(spans_by_key):
    nlp = blank()
    doc = nlp(TEXT)
    for key, spans in spans_by_key.items():
        doc.spans[key] = [doc.char_span(TEXT.index(text), TEXT.index(text) + len(text), label=label)
                          for text, label in spans]
    return nlp, doc


def _vote(doc, min_votes=2, keep_votes=False, trim_edges=True):
    return NerVote("ner_vote", proposers=["a", "b"], voters=["a", "b", "knowledge"], min_votes=min_votes,
                   keep_votes=keep_votes, trim_edges=trim_edges)(doc)


def test_a_span_stays_where_most_voters_overlap_it():
    _, doc = _doc_with({
        "a": [("Dr Wang", "DOCTOR"), ("Levo", "PATIENT"), ("Mary", "FAMILY")],
        "b": [("Wang", "PATIENT"), ("CCU", "DEPARTMENT")],
        "knowledge": [("Mary", "PATIENT"), ("CCU", "ORGANIZATION")],
    })
    doc = _vote(doc)
    # Wang: both NERs (the first's label wins, and `Dr`, which one voter holds, is cut off); Mary and CCU:
    # one NER and the taggers; Levo: one NER alone
    assert [(ent.text, ent.label_) for ent in doc.ents] == [("Wang", "DOCTOR"), ("CCU", "DEPARTMENT"),
                                                           ("Mary", "FAMILY")]
    assert all(doc.text[ent.start_char:ent.end_char] == ent.text for ent in doc.ents)
    # the NERs' own spans are gone; the taggers' evidence stays for the refine steps
    assert "a" not in doc.spans and "b" not in doc.spans and "knowledge" in doc.spans


def test_all_voters_must_agree_when_asked_and_votes_can_be_kept():
    _, doc = _doc_with({"a": [("Wang", "DOCTOR"), ("Mary", "FAMILY")], "b": [("Wang", "DOCTOR"), ("Mary", "FAMILY")],
                        "knowledge": [("Wang", "PERSON")]})
    doc = _vote(doc, min_votes=3, keep_votes=True)
    assert [ent.text for ent in doc.ents] == ["Wang"]
    assert [span.text for span in doc.spans["a"]] == ["Wang", "Mary"]


def test_a_kept_span_ends_where_most_voters_end_theirs():
    spans = {"a": [("saw Levo at CCU with his", "HOSPITAL")], "b": [("CCU", "DEPARTMENT")],
             "knowledge": [("at CCU with", "ORG")]}
    # saw, Levo, his: the first NER alone; at, with: it and the taggers; CCU: all three
    _, doc = _doc_with(spans)
    assert [(ent.text, ent.label_) for ent in _vote(doc).ents] == [("at CCU with", "HOSPITAL")]
    _, doc = _doc_with(spans)
    assert [ent.text for ent in _vote(doc, trim_edges=False).ents] == ["saw Levo at CCU with his"]
    # never split inside: `at` has one vote, but both edges have two
    _, doc = _doc_with({"a": [("Levo at CCU", "HOSPITAL")], "b": [("Levo", "PATIENT")], "knowledge": [("CCU", "ORG")]})
    assert [ent.text for ent in _vote(doc).ents] == ["Levo at CCU"]
    # all three asked for: cut to the tokens all three hold, or, where none is, the span as proposed
    _, doc = _doc_with({"a": [("Wang saw Levo", "DOCTOR")], "b": [("Wang saw", "DOCTOR")],
                        "knowledge": [("saw Levo", "PERSON")]})
    assert [ent.text for ent in _vote(doc, min_votes=3).ents] == ["saw"]
    _, doc = _doc_with({"a": [("Wang saw", "DOCTOR")], "b": [("Wang", "DOCTOR")], "knowledge": [("saw", "PERSON")]})
    assert [ent.text for ent in _vote(doc, min_votes=3).ents] == ["Wang saw"]


def test_a_voter_missing_from_the_doc_is_named():
    _, doc = _doc_with({"a": [("Wang", "DOCTOR")], "b": []})
    with pytest.raises(ValueError, match=r"ner_vote: no doc.spans\['knowledge'\]"):
        _vote(doc)


@pytest.mark.parametrize("proposers,voters,min_votes,message", [
    ([], ["a"], 1, "no proposers"),
    (["a", "c"], ["a", "b"], 1, r"\['c'\] are not among voters"),
    (["a"], ["a", "b"], 3, "min_votes must be between 1 and the 2 voters"),
])
def test_an_impossible_vote_is_refused_when_built(proposers, voters, min_votes, message):
    with pytest.raises(ValueError, match=message):
        NerVote("ner_vote", proposers=proposers, voters=voters, min_votes=min_votes, keep_votes=False)


def test_ents_to_spans_clears_the_ents_for_the_next_ner():
    nlp = blank()
    pipe = nlp.add_pipe("deid_ents_to_spans", config={"spans_key": "x"})
    doc = nlp.make_doc(TEXT)
    doc.ents = [Span(doc, 1, 2, label="DOCTOR")]
    doc = pipe(doc)
    assert list(doc.ents) == [] and [(s.text, s.label_) for s in doc.spans["x"]] == [("Wang", "DOCTOR")]


def test_a_token_cover_reads_overlap_as_sharing_a_token():
    doc = blank()("a b c d e")
    cover = token_cover(len(doc), [doc[2:4], doc[0:1]])
    for start in range(len(doc)):
        for end in range(start + 1, len(doc) + 1):
            assert touches(cover, doc[start:end]) == overlaps_any(doc[start:end], [doc[2:4], doc[0:1]])


def test_a_huge_note_with_a_span_on_every_other_token_is_voted_in_one_pass():
    # 200,000 tokens and 100,000 spans per voter: a pairwise overlap test would compare 10^10 pairs
    nlp = blank()
    doc = nlp.make_doc(" ".join(["Wang", "saw"] * 100_000))
    names = [Span(doc, i, i + 1, label="PATIENT") for i in range(0, len(doc), 2)]
    doc.spans["a"], doc.spans["b"], doc.spans["knowledge"] = names, names[::2], []
    doc = _vote(doc)
    assert [ent.start for ent in doc.ents] == list(range(0, len(doc), 4))
    text = doc.text
    assert all(text[ent.start_char:ent.end_char] == "Wang" for ent in doc.ents)


# -- assemble --voter, end to end ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def assembled(tmp_path_factory):
    """Two NERs trained alike but for their seed, assembled with the CLI into one voting pipeline."""
    tmp = tmp_path_factory.mktemp("vote")
    first, second = train_tiny_ner(steps=30, seed=0), train_tiny_ner(steps=30, seed=1)
    first.to_disk(tmp / "first")
    second.to_disk(tmp / "second")
    result = CliRunner().invoke(app, ["assemble", str(tmp / "first"), str(tmp / "voting"), "--voter",
                                      str(tmp / "second")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return {"tmp": tmp, "first": first, "second": second, "voting": tmp / "voting"}


def test_assembled_pipeline_runs_each_ner_as_trained_and_keeps_the_majority(assembled):
    nlp = spacy.load(assembled["voting"], exclude=["deid"],
                     config={"components": {"ner_vote": {"keep_votes": True}}})
    assert nlp.pipe_names == ["knowledge", "tok2vec", "ner", "ner_to_votes", "ner_2", "ner_2_to_votes", "ner_vote"]
    vote = nlp.get_pipe("ner_vote")
    assert (vote.proposers, vote.voters, vote.min_votes) == (
        [votes_key("ner"), votes_key("ner_2")], [votes_key("ner"), votes_key("ner_2"), "knowledge"], 2)
    # the factory's defaults are this layout, so `nlp.add_pipe("deid_ner_vote")` fits it as it is
    defaults = Language.get_factory_meta("deid_ner_vote").default_config
    assert (defaults["proposers"], defaults["voters"], defaults["min_votes"]) == (vote.proposers, vote.voters, 2)
    texts = [record.text for record in dev_records()]
    dropped = kept = 0
    for doc, alone_1, alone_2 in zip(nlp.pipe(texts), assembled["first"].pipe(texts),
                                     assembled["second"].pipe(texts)):
        first, second = list(doc.spans[votes_key("ner")]), list(doc.spans[votes_key("ner_2")])
        # each NER, with its own tok2vec, finds in the voting pipeline what it finds alone
        assert [(s.start, s.end, s.label_) for s in first] == [(e.start, e.end, e.label_) for e in alone_1.ents]
        assert [(s.start, s.end, s.label_) for s in second] == [(e.start, e.end, e.label_) for e in alone_2.ents]
        ents = {(e.start, e.end, e.label_) for e in doc.ents}
        for span in first:  # the first NER's spans are read first: kept exactly where two voters agree,
            votes = 1 + overlaps_any(span, second) + overlaps_any(span, doc.spans["knowledge"])
            start, end = majority_bounds(span, [second, list(doc.spans["knowledge"])])  # to the tokens two hold
            assert ((start, end, span.label_) in ents) == (votes >= 2)
            kept += votes >= 2
        for span in second:  # the second's: never kept alone
            if not overlaps_any(span, first) and not overlaps_any(span, doc.spans["knowledge"]):
                assert (span.start, span.end, span.label_) not in ents
                dropped += 1
    # the two seeds disagree somewhere, so the vote is seen to drop and to keep
    assert kept and dropped


def test_a_voter_that_reads_other_features_is_refused(assembled):
    other = assembled["tmp"] / "other"
    assembled["second"].get_pipe("knowledge").title_case_upper = False
    try:
        assembled["second"].to_disk(other)
    finally:
        assembled["second"].get_pipe("knowledge").title_case_upper = True
    result = CliRunner().invoke(app, ["assemble", str(assembled["tmp"] / "first"), str(assembled["tmp"] / "out"),
                                      "--voter", str(other)])
    assert result.exit_code != 0
    assert "pretrained taggers' settings differ" in result.output
    assert not Path(assembled["tmp"] / "out").exists()
