"""ICU nursing lines in the TRAIN mix: numbers a nurse charts (vitals, clock times, drips, labs) as plain text,
the few people they name as gold spans with exact offsets."""
import re
from random import Random

from spacy_deid.synth import backgrounds as B
from spacy_deid.synth import generate, nursing
from spacy_deid.synth.slots import SLOTS

MARKER = "Quokka zebrafish marker line, patient stable."
_KIND = re.compile(r"\{([A-Za-z_0-9]+)\}")
# A line that ends on a TOLD frame, its value kinds (`{role}`, `{service}`) filled in any way.
_TOLD = re.compile("(?:%s)$" % "|".join(re.sub(r"\\\{[a-z]+\\\}", ".+", re.escape(t)) for t in nursing.TOLD))


def test_every_value_kind_is_used_and_every_finding_is_filled():
    extra = (((), nursing.TOLD), ((), nursing.SIGNATURES))
    used = {k for _, findings in nursing.SYSTEMS + extra for f in findings for k in _KIND.findall(f)}
    assert {k for k in used if k.islower()} == set(nursing.VALUES)
    assert {k for k in used if k.isupper()} <= set(SLOTS)
    r = Random(1)
    lines = [nursing.line(r) for _ in range(2000)]
    assert all(k in SLOTS for line in lines for k in _KIND.findall(line))  # only template slots are left
    units = tuple(unit + " " for unit in nursing.UNITS)
    headings = [line for line in lines if any(line.startswith(h) or line.startswith(units) and h in line
                                              for h in nursing.HEADINGS) and ":" not in line and "/" not in line]
    assert 100 < len(headings) < 300 and not any(re.search(r"\{", h) for h in headings)  # a note's own heading
    with_unit = [h for h in headings if h.startswith(units)]
    assert 0.3 * len(headings) < len(with_unit) < 0.7 * len(headings)  # `MICU Nursing Progress Note`, no place
    moved = re.compile(r"(?:transfer(?:red)? (?:from|to)|taken to|bed at|go to) (\S+)")
    places = [p for line in lines for p in moved.findall(line)]
    hospitals = [p for p in places if p.startswith("{HOSPITAL_EN}")]
    assert len(places) > 40 and 0.3 * len(places) < len(hospitals) < 0.7 * len(places)  # a hospital or a unit
    signed = [line for line in lines if line in nursing.SIGNATURES]
    assert 0.02 * len(lines) < len(signed) < 0.07 * len(lines)  # `{DOCTOR_GIVEN_SUR_EN}, RN`: who wrote the note
    charted = [line for line in lines if line not in headings and line not in signed]
    assert len(set(charted)) > 0.95 * len(charted)
    assert any(re.search(r"\b[A-Za-z]{2,3}'s\b", line) for line in charted)  # plurals charted with an apostrophe
    assert any(re.search(r"\b(?:[01]\d|2[0-3])[0-5]\d\b", line) for line in lines)  # clock times as charted
    assert any(re.search(r"\b\d0'?s\b", line) for line in lines)  # vital-sign ranges
    assert any(re.search(r"\b\d/\d\b", line) for line in lines)  # fractions that read as dates
    referring = [line for line in charted if any(line.rstrip(".;").endswith(ref) for ref in nursing.CHARTED_ELSEWHERE)]
    told = [line for line in charted if _TOLD.search(line.rstrip(".;"))]
    assert 0.05 * len(charted) < len(referring) < 0.2 * len(charted)  # the chart's other places, as plain text
    assert 0.1 * len(charted) < len(told) < 0.25 * len(charted)  # ... and people, in the same frames
    by_role = [line for line in told if re.search(r"\b(?:%s) \{DOCTOR_GIVEN_EN\}" % "|".join(nursing.ROLES), line)]
    assert 0.05 * len(told) < len(by_role)  # `NP {DOCTOR_GIVEN_EN} aware`: a clinician by role and given name
    sentence_case = [line for line in charted if re.search(r"[:-] ?[A-Z][a-z]+ ", line)]
    assert 0.15 * len(charted) < len(sentence_case) < 0.5 * len(charted)  # capitals that start a finding
    systems = {system for names, _ in nursing.SYSTEMS for system in names}
    findings_only = [line for line in charted if not re.match(r"[A-Za-z/&]+ ?(?:[:-]|--)", line)
                     or re.match(r"[A-Za-z/&]+", line).group() not in systems]
    assert 0.1 * len(charted) < len(findings_only) < 0.3 * len(charted)  # a line that starts on a finding


def test_a_value_is_drawn_afresh_for_each_use():
    rng = Random(4)
    pairs = [nursing.fill("sats {sat}-{sat}%", rng) for _ in range(200)]
    assert any(re.match(r"sats (\d+)-(?!\1%)\d+%", p) for p in pairs)
    assert nursing.fill("dr {DOCTOR_SUR_EN} aware at {time}", rng).startswith("dr {DOCTOR_SUR_EN} aware at ")


def test_train_notes_chart_nurses_numbers_as_plain_text(monkeypatch):
    """With every English line a nurse's, the lines the plain split lacks are the nursing ones."""
    monkeypatch.setattr(B, "NURSING_SHARE", 1.0)
    records = list(generate(20, seed=3, split="train", backgrounds=(MARKER,)))
    generated = {line for r in generate(20, seed=3, split="train", backgrounds=()) for line in r.text.split("\n")}
    charted, people, dated = 0, 0, 0
    for record in records:
        record.validate()
        offset = 0
        for line in record.text.split("\n"):
            start, end = offset, offset + len(line)
            offset = end + 1
            if line in generated or record.text == record.text.lower() or "HOSPITAL" in {
                    s.label for s in record.spans if start <= s.start < end}:
                continue  # a generated line; a note typed in lower case; the hospital's English name
            spans = [s for s in record.spans if start <= s.start < end]
            assert {s.label for s in spans} <= {"DOCTOR", "FAMILY", "PERSON", "CITY", "DATE"}, line
            assert all(record.text[s.start:s.end] == s.text for s in spans)
            assert not any(re.search(r"\d", s.text) for s in spans if s.label != "DATE")  # numbers are no names
            dated += sum(s.label == "DATE" for s in spans)
            charted += bool(re.search(r"\d", line))
            people += bool(spans)
    assert charted > 20 and people and dated  # a history's dates (`s/p cabg 9/2/92`) are spans
    assert all("quokka" not in r.text.lower() for r in records)  # every English line is a nurse's


def test_without_the_share_no_nursing_line_is_mixed_in(monkeypatch):
    monkeypatch.setattr(B, "NURSING_SHARE", 0.0)
    records = list(generate(10, seed=3, split="train", backgrounds=(MARKER,)))
    marker_lines = sum(r.text.lower().count("quokka") for r in records)
    monkeypatch.setattr(B, "NURSING_SHARE", 1.0)
    nursing_records = list(generate(10, seed=3, split="train", backgrounds=(MARKER,)))
    assert marker_lines and not any("quokka" in r.text.lower() for r in nursing_records)
