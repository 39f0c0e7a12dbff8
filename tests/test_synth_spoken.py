"""Chinese lines said aloud in the TRAIN mix: a speaker opens each turn, fillers and particles sit in the plain
text, and the people in a turn are still the template slots' spans, with exact offsets."""
import re
from random import Random

from spacy_deid.dates.numerals import parse_numeral
from spacy_deid.synth import backgrounds as B
from spacy_deid.synth import generate, spoken

ZH_LINE = "他說最近睡不好，建議你多喝水。"
_SPEAKER = "(?:" + "|".join(spoken.SPEAKERS) + ")[：:]"


def test_particles_go_before_punctuation_and_the_clause_is_kept(monkeypatch):
    monkeypatch.setattr(spoken, "PARTICLE_SHARE", 1.0)
    monkeypatch.setattr(spoken, "CLAUSE_OPENER_SHARE", 0.0)
    monkeypatch.setattr(spoken, "ELLIPSIS_SHARE", 0.0)
    said = [spoken.particles(Random(seed), "血壓還好，藥要吃，不要停。") for seed in range(30)]
    pattern = "血壓還好(?:{0})，藥要吃(?:{0})，不要停(?:{0})。".format("|".join(spoken.PARTICLES))
    assert all(re.fullmatch(pattern, s) for s in said), said
    assert len(set(said)) > 10
    assert spoken.particles(Random(0), "CT, MRI.") == "CT, MRI."  # only after a Han character


def test_fillers_open_clauses_glued_or_before_a_comma(monkeypatch):
    monkeypatch.setattr(spoken, "PARTICLE_SHARE", 0.0)
    monkeypatch.setattr(spoken, "CLAUSE_OPENER_SHARE", 1.0)
    monkeypatch.setattr(spoken, "ELLIPSIS_SHARE", 0.0)
    said = [spoken.particles(Random(seed), "報告出來了，都正常。") for seed in range(60)]
    openers = {re.fullmatch("報告出來了，(.+?)，?都正常。", s).group(1) for s in said}
    assert openers <= set(spoken.OPENERS) and len(openers) > 8
    assert any(s.startswith("報告出來了，阿都") for s in said)  # `阿` glued to the next word, as said
    assert any(re.search("，[^，]+，都正常", s) for s in said)


def test_a_turn_opens_with_a_speaker_and_ends_a_sentence():
    plain = [spoken.turn(Random(seed), [("血壓還好，", None, None)]) for seed in range(40)]
    assert all(re.match(_SPEAKER, t[0][0]) for t in plain)
    assert all(t[-1][0].endswith("。") and not t[-1][0].endswith("，。") for t in plain)
    named = [spoken.turn(Random(seed), [("美玲", "PATIENT", None), ("，血壓還好", None, None)]) for seed in range(60)]
    assert all(t[1] == ("美玲", "PATIENT", None) for t in named)  # the name piece is kept as it was
    heads = [t[0][0] for t in named]
    assert all(re.fullmatch(_SPEAKER, h) or h.endswith("，") for h in heads)  # a filler never glued to a name
    assert any(h.endswith("，") for h in heads) and any(re.fullmatch(_SPEAKER, h) for h in heads)
    assert all(t[-1] == ("。", None, None) for t in named)


def test_train_notes_hold_dialogue_turns_with_exact_spans(monkeypatch):
    monkeypatch.setattr(B, "SPOKEN_SHARE", 1.0)
    monkeypatch.setattr(spoken, "ANSWER_SHARE", 0.0)  # the answers' places: the next test
    records = list(generate(20, seed=4, split="train", backgrounds=(ZH_LINE,)))
    turns, named = 0, 0
    for record in records:
        record.validate()
        assert all(record.text[s.start:s.end] == s.text for s in record.spans)
        offset = 0
        for line in record.text.split("\n"):
            start, end = offset, offset + len(line)
            offset = end + 1
            if "最近睡不好" not in line:
                continue
            assert re.match(_SPEAKER, line), line  # the line is said, not written
            turns += len(re.findall(_SPEAKER, line))
            for s in record.spans:
                if start <= s.start < end and s.label == "AGE":  # an age said in a quantity turn
                    assert re.fullmatch("[一二三四五六七八九十]+", s.text) and record.text[s.end] == "歲", line
                elif start <= s.start < end:
                    before = record.text[s.start - 1]
                    assert s.label in ("PATIENT", "FAMILY", "PERSON", "DOCTOR"), s.label
                    assert before in "：:，" or record.text[s.start - 2:s.start] in ("建議",), line
                    named += 1
    assert turns > 40 and named > 10
    monkeypatch.setattr(B, "SPOKEN_SHARE", 0.0)
    written = [line for r in generate(20, seed=4, split="train", backgrounds=(ZH_LINE,))
               for line in r.text.split("\n") if "最近睡不好" in line]
    assert written and not any(re.match(_SPEAKER, line) for line in written)


def test_spoken_numbers_are_said_in_characters():
    said = {n: spoken.spoken_number(n) for n in (3, 10, 38, 100, 105, 115, 140, 145, 200, 999)}
    assert said == {3: "三", 10: "十", 38: "三十八", 100: "一百", 105: "一百零五", 115: "一百一十五", 140: "一百四",
                    145: "一百四十五", 200: "兩百", 999: "九百九十九"}
    assert all(parse_numeral(spoken.spoken_number(n))[0] == n for n in range(1, 100))


def test_quantity_turns_say_numbers_and_only_an_age_is_a_span():
    turns = [spoken.quantity_turn(Random(seed)) for seed in range(300)]
    texts = ["".join(p[0] for p in t) for t in turns]
    assert all(re.match(_SPEAKER, t) for t in texts)
    assert all(re.search("[一二三四五六七八九十百兩]", t) and not re.search(r"\d", t.split("：")[-1].split(":")[-1])
               for t in texts)
    ages = [p for t in turns for p in t if p[1] is not None]
    assert ages and all(p[1] == "AGE" for p in ages)
    assert 0.05 < len(ages) / len(turns) < 0.3  # most turns say a value that is no PHI
    assert len({re.sub("[一二三四五六七八九十百零兩]+", "N", t.split("：")[-1].split(":")[-1]) for t in texts}) > 30


def test_a_turn_names_people_less_often_than_a_written_line():
    line = "你最近有沒有按時吃藥？他說你血壓偏高，你要多休息。"
    written = [B.name_frames_zh(Random(seed), line) for seed in range(200)]
    said = [B.name_frames_zh(Random(seed), line, spoken.VOCATIVE_SHARE, spoken.PRONOUN_FRAME_SHARE)
            for seed in range(200)]
    def slots(lines):
        return sum(len(re.findall(r"\{[A-Z_]+\}", x)) for x in lines)
    assert slots(said) < slots(written) / 2
    assert sum(x.count("你") for x in said) > 3 * sum(x.count("你") for x in written)


def test_a_place_or_a_job_is_said_alone_in_answer_to_a_question(monkeypatch):
    monkeypatch.setattr(B, "SPOKEN_SHARE", 1.0)
    questions = "|".join(q for qs, _ in spoken.QUESTIONS_AND_ANSWERS for q in qs)
    asked = re.compile(f"(?:{questions})[？?]({_SPEAKER}[^。？?！…]*)")
    kinds = {"CITY", "DISTRICT", "HOSPITAL", "PROFESSION", "GENERAL_BUSINESS", "COUNTRY", "REGION", "LOCATION"}
    answers = 0
    for record in generate(20, seed=4, split="train", backgrounds=(ZH_LINE,)):
        record.validate()
        for m in asked.finditer(record.text):
            inside = [s for s in record.spans if m.start(1) <= s.start and s.end <= m.end(1)]
            # the answer: its slot alone (`{CITY_ZH}{DISTRICT_ZH}`: a city and its district, side by side)
            assert 1 <= len(inside) <= 2 and {s.label for s in inside} <= kinds, m.group(1)
            assert len(inside) == 1 or inside[0].end == inside[1].start
            assert all(record.text[s.start:s.end] == s.text for s in inside)
            said = sum(len(s.text) for s in inside)
            assert len(m.group(1)) - said <= 9  # a speaker, a filler, a word of place or work
            answers += 1
    assert answers > 10
    monkeypatch.setattr(spoken, "ANSWER_SHARE", 0.0)
    texts = [r.text for r in generate(20, seed=4, split="train", backgrounds=(ZH_LINE,))]
    assert not any(asked.search(text) for text in texts)
