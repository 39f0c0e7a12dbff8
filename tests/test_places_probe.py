"""The care and study cue rules' frame (`cues.cue_frame`, group `care_or_study`, read as for an
institution) on 240 lines written for this test, independently of the rules, by a writer who read only
annotation.md: named places and organisations labelled by what the line says they are
(a hospital one is treated at, a school one studies at, a business one works for...). Where the frame
speaks of an institution it must agree with the writer, and it must speak of many hospitals and schools."""
import json
from pathlib import Path

import pytest

from spacy_deid.cues import cue_frame

PLACES = Path(__file__).parent / "data" / "places_roles.jsonl"
# the labels a NER gives an unseen hospital or school, which the frame may change
_RELABELLED = frozenset({"HOSPITAL", "SCHOOL", "GENERAL_BUSINESS", "MARKET", "LOCATION"})


def frame_label(text: str, start: int, end: int):
    return cue_frame(text, start, end, "HOSPITAL", "care_or_study")


@pytest.fixture(scope="module")
def judged():
    out = []
    for line in PLACES.read_text(encoding="utf8").splitlines():
        row = json.loads(line)
        for span in row["spans"]:
            assert row["text"][span["start"]:span["end"]] == span["text"]
            out.append((row["id"], span["label"], frame_label(row["text"], span["start"], span["end"])))
    return out


def test_the_set_covers_three_kinds_of_sentence_and_the_institutions():
    rows = [json.loads(line) for line in PLACES.read_text(encoding="utf8").splitlines()]
    assert {r["kind"] for r in rows} == {"en", "zh", "mixed"} and len(rows) == 240
    labels = {s["label"] for r in rows for s in r["spans"]}
    assert {"HOSPITAL", "SCHOOL", "GENERAL_BUSINESS", "MARKET", "LOCATION", "CITY"} <= labels


def test_the_frame_never_contradicts_the_writer_on_an_institution(judged):
    wrong = [(rid, label, said) for rid, label, said in judged
             if label in _RELABELLED and said is not None and said != label]
    assert wrong == []


def test_the_frame_speaks_of_many_hospitals_and_schools(judged):
    institutions = [said for _, label, said in judged if label in ("HOSPITAL", "SCHOOL")]
    assert sum(said is not None for said in institutions) / len(institutions) >= 0.5  # 69 of 118 when written
