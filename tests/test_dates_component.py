"""The deid_dates component: alone, next to a NER, serialization, scoring, speed on adversarial text."""

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import DocBin
from spacy.training import Example

import spacy_deid
from spacy_deid.corpus import parse_inline
from spacy_deid.dates import find_dates, reference_doc, shift
from spacy_deid.dates.finder import dates_the_calendar_lacks

from linear import assert_linear


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates")
    return nlp


def test_alone_finds_dates_with_readings(nlp):
    doc = nlp("Admission date: 112.05.08 病歷號: 5520931, since 111年9月.")
    assert [(e.text, e.label_, e._.source, e._.date_norm) for e in doc.ents] == [
        ("112.05.08", "DATE", "date", "2023-05-08"), ("111年9月", "DATE", "date", "2022-09")]
    reading = doc.ents[0]._.date_readings[0]
    assert set(reading) >= {"format", "calendar", "value", "precision"}
    assert reading["calendar"] == "minguo"
    assert shift(doc.ents[0], 3) == "112.05.11"


def _set_found(doc, wanted):
    """doc.ents = the first occurrence of each (surface, label) that aligns with the tokens."""
    spans = []
    for surface, label in wanted:
        start = doc.text.find(surface)
        if start >= 0:
            spans.append(doc.char_span(start, start + len(surface), label=label))
    doc.ents = [s for s in spans if s is not None]


@Language.component("fake_ner_dates")
def fake_ner_dates(doc):
    """Stands in for a trained ner: DATE spans with NER-style boundaries, and a PERSON."""
    wanted = [("on 3/14", "DATE"), ("12月25日", "DATE"), ("2021/12/25", "DATE"), ("last Christmas", "DATE"),
              ("王小明", "PATIENT"), ("2223.3-2224.9", "DATE")]
    _set_found(doc, wanted)
    return doc


@pytest.fixture(scope="module")
def nlp_with_ner():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_dates")
    nlp.add_pipe("deid_dates")
    return nlp


def test_next_to_ner(nlp_with_ner):
    doc = nlp_with_ner("王小明 seen on 3/14, 民國110年12月25日 and 2021/12/25, 2223.3-2224.9, and last Christmas.")
    got = [(e.text, e._.source, e._.date_norm) for e in doc.ents]
    assert got == [
        ("王小明", "ner", None),
        ("3/14", "date", "--03-14"),  # NER's "on 3/14": filler trimmed to the annotation convention
        ("民國110年12月25日", "date", "2021-12-25"),  # the finder's longer span wins
        ("2021/12/25", "ner", "2021-12-25"),  # exact match: the NER span gets the readings
        ("2223.3", "date", "2223-03"),  # a range is two dates
        ("2224.9", "date", "2224-09"),
        ("last Christmas", "ner", None),  # not parseable: kept, without readings
    ]


@Language.component("fake_ner_apostrophe_year")
def fake_ner_apostrophe_year(doc):
    """A NER that takes the apostrophe of a two-digit year into the DATE (`’06`)."""
    _set_found(doc, [("’06", "DATE")])
    return doc


def test_a_ner_date_of_an_apostrophe_and_a_year_is_the_finders_year():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_apostrophe_year")
    nlp.add_pipe("deid_dates")
    doc = nlp("s/p CABG '87, PCI in ’06.")
    assert [(e.text, e._.source, e._.date_norm) for e in doc.ents] == [("87", "date", "1987"), ("06", "date", "2006")]


@Language.component("fake_ner_numbers")
def fake_ner_numbers(doc):
    """A NER that calls numbers dates: a pain score, a lab pair, no date (month 13), real dates, a day
    February lacks, a `年3月` cut from `去年3月`, and a dotted year.month the finder does not read."""
    wanted = ["4/10", "18/1.1", "13/13/2020", "12/27/2023", "110/02/30", "年3月", "110/05/12", "96.04"]
    _set_found(doc, [(surface, "DATE") for surface in wanted])
    return doc


def _dates_after(fake_ner: str, text: str):
    """The entities of `text` after the stand-in NER `fake_ner` and `deid_dates`, as (text, source,
    norm), each checked against the text at its offsets."""
    nlp = spacy_deid.blank()
    nlp.add_pipe(fake_ner)
    nlp.add_pipe("deid_dates")
    doc = nlp(text)
    for e in doc.ents:
        assert text[e.start_char:e.end_char] == e.text
    return [(e.text, e._.source, e._.date_norm) for e in doc.ents]


def test_ner_numbers_the_finder_rejects_are_dropped():
    text = ("Pain 4/10, BUN/CR 18/1.1, 13/13/2020 入院? Seen 12/27/2023, 110/02/30; 去年3月停藥, 追蹤 110/05/12, "
            "96.04 出差.")
    assert _dates_after("fake_ner_numbers", text) == [
        ("12/27/2023", "ner", "2023-12-27"),  # the finder reads it too: kept, with readings
        ("110/02/30", "date", None),  # a day February lacks: a typo of a date, kept without readings
        ("3月", "date", "--03"),  # `年` is no part of a date: the finder's span replaces the NER's
        ("110/05/12", "ner", "2021-05-12"),
        ("96.04", "ner", None),  # no slash: Minguo year.month or a decimal, the NER's call
    ]
    # Without the NER the finder finds the same dates: the policy keeps what the finder reads.
    alone = spacy_deid.blank()
    alone.add_pipe("deid_dates")
    assert [e.text for e in alone(text).ents] == ["12/27/2023", "110/02/30", "3月", "110/05/12"]


@Language.component("fake_ner_one_weak_date")
def fake_ner_one_weak_date(doc):
    """A NER that reads one of three fractions of a month and day as a date (`seen 3/14`) and a
    temperature as none."""
    _set_found(doc, [("3/14", "DATE")])
    return doc


def test_a_weak_finder_date_needs_the_ner_to_agree():
    """Two bare numbers (a month and day, a month and a year's last two digits) are a weak vote: with
    `weak_dates_need_ner` they stay only where a NER DATE overlaps them; dates with a year, a prefix or
    年/月 stand on the finder's word alone."""
    text = "seen 3/14, rales 1/3 up, febrile to 101.8, CABG 12/93, f/u 110.03.02, 8/2019, mk110.3 and 3月14日."
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_one_weak_date")
    nlp.add_pipe("deid_dates", config={"weak_dates_need_ner": True})
    doc = nlp(text)
    assert all(text[e.start_char:e.end_char] == e.text for e in doc.ents)
    assert [e.text for e in doc.ents] == ["3/14", "110.03.02", "8/2019", "mk110.3", "3月14日"]
    assert [t for t, _, _ in _dates_after("fake_ner_one_weak_date", text)] == [  # the option off: the finder's
        "3/14", "1/3", "101.8", "12/93", "110.03.02", "8/2019", "mk110.3", "3月14日"]


def test_weak_dates_need_a_ner_by_default_only_after_one():
    with_ner = spacy_deid.blank()
    with_ner.add_pipe("ner")
    assert with_ner.add_pipe("deid_dates").weak_dates_need_ner
    assert not spacy_deid.blank().add_pipe("deid_dates").weak_dates_need_ner
    deid = spacy_deid.blank()
    deid.add_pipe("ner")
    assert deid.add_pipe("deid", config={"demo_key": True}).dates.weak_dates_need_ner


@Language.component("fake_ner_across_dates")
def fake_ner_across_dates(doc):
    """A NER that reads a list of dates written with spaces as dates of other lengths."""
    _set_found(doc, [("October 24, 2097 Nov 25", "DATE"), ("2098 Sep 22, 2096", "DATE"), ("Mar 3 2330", "DATE")])
    return doc


def test_ner_dates_across_a_list_of_finder_dates_give_way_to_them():
    text = "三次急診: October 24, 2097 Nov 25, 2098 Sep 22, 2096 三次急診; Mar 3 2330 入睡"
    assert [(t, source) for t, source, _ in _dates_after("fake_ner_across_dates", text)] == [
        ("October 24, 2097", "date"), ("Nov 25, 2098", "date"), ("Sep 22, 2096", "date"),
        ("Mar 3 2330", "ner"),  # one finder date inside it at most: left to the shared policy
    ]


@Language.component("fake_ner_swallowing_dates")
def fake_ner_swallowing_dates(doc):
    """A NER whose places and phone numbers run into dates, and spans the policy must leave alone."""
    wanted = [("台中國軍戒酒 186.06", "HOSPITAL"), ("MK99", "PHONE"), ("Rongxing Garden Park on 2月26日", "LOCATION"),
              ("3 Dec 2014, 陳美玲", "PERSON"), ("12 Mar 2011", "MARKET"), ("110年", "ROOM")]
    _set_found(doc, wanted)
    for span in doc.ents:
        if span.label_ == "ROOM":
            span._.source = "rule"  # rule spans are never cut
    return doc


def test_ner_spans_of_other_labels_give_up_the_dates_they_hold():
    nlp = spacy_deid.blank()
    nlp.add_pipe("fake_ner_swallowing_dates")
    nlp.add_pipe("deid_dates")
    text = ("曾於台中國軍戒酒 186.06. 於MK99診斷, met at Rongxing Garden Park on 2月26日; 3 Dec 2014, 陳美玲 called; "
            "12 Mar 2011 to 病房 110年")
    doc = nlp(text)
    assert [(e.text, e.label_, e._.source) for e in doc.ents] == [
        ("台中國軍", "HOSPITAL", "ner"),  # the date and the activity word 戒酒 leave the place
        ("186.06", "DATE", "date"),
        ("MK99", "DATE", "date"),  # a phone number that is all date: the date
        ("Rongxing Garden Park", "LOCATION", "ner"),  # `on` goes with the date
        ("2月26日", "DATE", "date"),
        ("3 Dec 2014", "DATE", "date"),
        ("陳美玲", "PERSON", "ner"),  # nothing before the date: the part after it
        ("12 Mar 2011", "DATE", "date"),  # no letter left beside the date: the span goes
        ("110年", "ROOM", "rule"),  # a rule span keeps what it found
    ]
    for e in doc.ents:
        assert text[e.start_char:e.end_char] == e.text


def test_serialization_round_trips(nlp, tmp_path):
    nlp2 = spacy_deid.blank(config={"components": {}})
    nlp2.add_pipe("deid_dates", config={"max_year": 2200})
    nlp2.from_bytes(nlp.to_bytes())
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert loaded.get_pipe_meta("deid_dates").factory == "deid_dates"
    cfg = loaded.config["components"]["deid_dates"]
    assert cfg["overlap_policy"] == {"@misc": "spacy_deid.LongestSpanWins.v1",
                                     "source_priority": {"rule": 3, "date": 2, "ner": 1}}
    assert [e._.date_norm for e in loaded("於110.12.25入院").ents] == ["2021-12-25"]


def test_config_settings_are_used():
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid_dates", config={"max_year": 2100, "bare_years": False})
    doc = nlp("since 2019, seen 2223/3/4 and 2021/3/4")
    assert [e.text for e in doc.ents] == ["2021/3/4"]


def test_bad_config_is_a_clear_error():
    nlp = spacy_deid.blank()
    with pytest.raises(ValueError, match="min_year"):
        nlp.add_pipe("deid_dates", config={"min_year": 2300, "max_year": 2000})


def test_extension_values_survive_docbin_and_multiprocessing(nlp):
    texts = ["於110.12.25入院", "Seen Dec 25, 2021", "追蹤 99/05/12"] * 2
    docs = list(nlp.pipe(texts, n_process=2))
    assert [d.ents[0]._.date_norm for d in docs] == ["2021-12-25", "2021-12-25", "2010-05-12"] * 2
    db = DocBin(store_user_data=True, docs=docs)
    back = list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))
    assert [dict(r) for r in back[2].ents[0]._.date_readings] == docs[2].ents[0]._.date_readings
    assert back[2].ents[0]._.date_norm == "2010-05-12"


def test_score_through_evaluate(nlp):
    lines = ["於«110.12.25|DATE=2021-12-25»入院，«3/14|DATE=--03-14»出院", "BP 120/80, seen «Dec 2021|DATE=2021-12»"]
    examples = []
    for i, line in enumerate(lines):
        record = parse_inline(line, record_id=str(i))
        examples.append(Example(nlp.make_doc(record.text), reference_doc(nlp, record)))
    scores = nlp.evaluate(examples)
    assert scores["deid_dates_f"] == 1.0
    assert scores["deid_dates_norm_acc"] == 1.0
    wrong = parse_inline("於«110.12.25|DATE=2021-12-26»入院 BP 120/80", record_id="w")
    scores = nlp.get_pipe("deid_dates").score([Example(nlp(wrong.text), reference_doc(nlp, wrong))])
    assert scores["deid_dates_p"] == 1.0 and scores["deid_dates_norm_acc"] == 0.0
    assert set(nlp.get_pipe_meta("deid_dates").default_score_weights) <= set(scores)


def test_reference_doc_names_record_not_text(nlp):
    record = parse_inline("x«110.12.2|DATE=2021-12-02»5", record_id="rec-7")
    with pytest.raises(ValueError) as err:
        reference_doc(nlp, record)
    assert "rec-7" in str(err.value) and "110" not in str(err.value)


@pytest.mark.parametrize("unit,size", [
    ("A", 100_000),
    ("1", 100_000),
    ("1/", 50_000),
    ("1.", 50_000),
    ("12/12/", 20_000),
    ("年", 100_000),
    ("一", 100_000),
    ("十二月", 30_000),
    ("Dec ", 25_000),
    ("mk", 50_000),
    ("25 Dec ", 15_000),
])
def test_adversarial_inputs_are_linear(unit, size):
    assert_linear(lambda n: find_dates(unit * n), size)


@pytest.mark.parametrize("unit,size", [
    ("1", 100_000), ("1/", 50_000), ("12/12/", 20_000), ("110.02.30 ", 10_000), ("2月30日", 15_000),
    ("Feb 30, 2021 ", 8_000), ("mk1100230 ", 10_000), ("十二月三十一日", 10_000),
])
def test_dates_the_calendar_lacks_are_found_in_linear_time(unit, size):
    assert_linear(lambda n: dates_the_calendar_lacks(unit * n), size)


def test_no_dates_in_empty_or_whitespace(nlp):
    assert list(nlp("").ents) == []
    assert list(nlp("   \n ").ents) == []


def test_anchored_scan_equals_full_scan():
    """The prefilter is an optimization only: it must find exactly what running every shape over
    the whole text finds (benchmark notes and the acceptance table)."""
    import importlib.util
    from pathlib import Path

    from spacy_deid.dates import finder

    spec = importlib.util.spec_from_file_location(
        "bench_dates", Path(__file__).parents[1] / "benchmarks" / "bench_dates.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    table = Path(__file__).parent / "data" / "dates" / "table.txt"
    texts = bench.generate_notes(120, seed=3) + [
        parse_inline(line).text for line in table.read_text(encoding="utf8").splitlines()
        if line.strip() and not line.startswith("#")]
    settings = finder.FinderSettings()
    for text in texts:
        fast = finder.merge_candidates(finder._candidates(text, settings))
        full = finder.merge_candidates(finder._candidates_full_scan(text, settings))
        assert [(c.start, c.end, c.readings) for c in fast] == [(c.start, c.end, c.readings) for c in full]
