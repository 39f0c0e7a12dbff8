"""cued_names: a name that a relation word or title marks is added where nothing was found."""
import pytest

import spacy_deid
from spacy_deid.refine import DEFAULT_NOTE_STEPS
from spacy_deid.refine.cued_names import SOURCE, _after_cue, _name_before_a_word, _surname_before_title, cued_names

from linear import assert_linear


def _added(text, ents=()):
    doc = spacy_deid.blank()(text)
    doc.ents = [doc.char_span(text.index(t), text.index(t) + len(t), label=label) for t, label in ents]
    added = cued_names(doc)
    for span in doc.ents:
        assert text[span.start_char:span.end_char] == span.text
    assert all(span._.source == SOURCE for span in added)
    return [(s.text, s.label_) for s in added]


@pytest.mark.parametrize("text,expected", [
    ("Per her husband Robert, she has been talking to herself.", [("Robert", "FAMILY")]),
    ("The patient's granddaughter Ivy translated for the team.", [("Ivy", "FAMILY")]),
    ("Tom (father) refused to sign; Anna Lee (mother) agreed.", [("Tom", "FAMILY"), ("Anna Lee", "FAMILY")]),
    ("Irene（案女）visited at 7 pm.", [("Irene", "FAMILY")]),
    ("Met with social worker Karen Lee regarding placement.", [("Karen Lee", "PERSON")]),
    ("Discussed with Dr. Kowalski today.", [("Kowalski", "DOCTOR")]),
    ("Mrs. Garcia was admitted for CHF.", [("Garcia", "PERSON")]),
    ("Emergency contact: wife, Mrs. Nguyen Thi Lan", [("Nguyen Thi Lan", "FAMILY")]),
    ("Daughter Jennifer Will visit tomorrow.", [("Jennifer", "FAMILY")]),  # `Will` is a common word
    # nursing shorthand for a relative (`dtr`, `sis`) in a note typed in lower case
    ("spoke with dtr rosalind today re plan", [("rosalind", "FAMILY")]),
    ("Sis Marguerite called for update.", [("Marguerite", "FAMILY")]),
    # a Chinese name whose both edges the text draws: a non-Han character after it
    ("husband 王大明 visited", [("王大明", "FAMILY")]),
    ("2218.06.20 家庭會談: 孫子: 呂友、Mr. Rodriguez", [("呂友", "FAMILY"), ("Rodriguez", "PERSON")]),
    ("314/01/18 家庭會談: 胞弟: 曾友澤、案妹: 曾靜", [("曾友澤", "FAMILY"), ("曾靜", "FAMILY")]),
    ("診斷書交給主管留友雄.", [("留友雄", "PERSON")]),
    ("陪診者: 楊翰宏 (里長) / 曾華炳 (外甥); 病人本人否認有病.", [("楊翰宏", "PERSON"), ("曾華炳", "FAMILY")]),
    ("病人: 任晨品 / M / 37", [("任晨品", "PATIENT")]),
    ("2107/01/05 病人情緒穩定, 梁勝品(值班醫師)同意外出", [("梁勝品", "DOCTOR")]),
    ("reviewed and agreed, Lu (VS)", [("Lu", "DOCTOR")]),
    # a surname and its title: the title stays outside the name
    ("已轉介社會局, 承辦人曾小姐.", [("曾", "PERSON")]),
    ("房東: 歐陽太太 來電", [("歐陽", "PERSON")]),
    # a surname right before a title, the title drawing its right edge, labelled by the words and title
    ("12月27日 地檢署劉檢察官到院訊問, 病人拒答.", [("劉", "PERSON")]),
    ("2010.07.14 職能治療師曾老師評估: 可參與庇護工作站.", [("曾", "PERSON")]),
    ("今日林主任查房, 同意出院.", [("林", "DOCTOR")]),
    ("與呂先生討論出院後安置.", [("呂", "FAMILY")]),
    ("由歐陽阿姨陪同返診.", [("歐陽", "FAMILY")]),
    ("胞弟陳醫師來電關心.", [("陳", "FAMILY")]),
    ("醫師：王先生？家屬：高血壓。", [("王", "FAMILY")]),  # the speaker's word is no title of his
    # a surname and two given characters that a common word follows: the word draws the right edge
    ("husband 王大明來訪", [("王大明", "FAMILY")]),
    ("社工曾亞品聯絡基金會", [("曾亞品", "PERSON")]),
    ("目前仍由觀護人呂晉品定期約談.", [("呂晉品", "PERSON")]),
    ("本次由里長曾承海發現屋內堆滿垃圾.", [("曾承海", "PERSON")]),
    # a line typed in one case: capitals say nothing, the words do
    ("dr smithers called, spoke with son tom about plan.", [("smithers", "DOCTOR"), ("tom", "FAMILY")]),
    ("SOCIAL: WIFE, MARY, LEFT PHONE NUMBER.", [("MARY", "FAMILY")]),
    ("DR O'BRIEN-SMITH AWARE OF K 3.1", [("O'BRIEN-SMITH", "DOCTOR")]),
    ("plan per dr smithers's team", [("smithers", "DOCTOR")]),  # the possessive stays outside
    ("Hct 24. Dr. griffin made aware, 2u ordered", [("griffin", "DOCTOR")]),  # lower case in a Latin line
    # a name right before a physician's degree or a staff credential, with its initials
    ("Pleurodesis planned; Stord-Painter MD performed it.", [("Stord-Painter", "DOCTOR")]),
    ("NTG STARTED -> B. CLIFFORD MD AWARE", [("B. CLIFFORD", "DOCTOR")]),
    ("pain reassessed.\nhelena mcbride rn", [("helena mcbride", "PERSON")]),
    ("SATS 92%. \n JOHN Q. PUBLICO, RRT", [("JOHN Q. PUBLICO", "PERSON")]),
    ("INSULIN GIVEN PER N. RUTHVEN NP", [("N. RUTHVEN", "PERSON")]),  # `PER` is a word of the sentence
    ("Seen by Jessica Lin, RN at 10 am", [("Jessica Lin", "PERSON")]),
])
def test_a_marked_name_is_added_with_the_label_its_word_says(text, expected):
    assert _added(text) == expected


@pytest.mark.parametrize("text", [
    "Wife At bedside, asking appropriate questions.",  # a closed-class word
    "Son Will visit tomorrow.",  # a common word: a name that is one is left to the NER
    "Case Manager Note: discharge planning",  # a Title Case header
    "his wife had CHF and COPD.",  # lower case, then clinical shorthand
    "Family Meeting held today.",  # `family` is no cue
    "Dr. Lasix",  # clinical vocabulary
    # Han characters after the cue that no common word ends as a surname and two given characters
    "朋友陳述病情穩定",  # 陳述 is a word
    "里長發現病人",  # no surname
    "husband 王大明天來",  # 明天: the last character starts a word with the next one
    "同學關心後通報學校", "個案向護理人員透露",  # a verb; a word of grammar
    "醫師向家屬說明",  # 向 is a surname, but 說明 follows
    "家屬: 同意出院",  # common words
    "社工: 尚未聯絡",
    "檢查結果(異常)",  # no relation word in the brackets
    "醫師：好喔。民眾：那我明天再來。",  # a dialogue's turns: what is said, not a name
    "家屬：有啦，他都有吃。",
    "Seen in Cardiology Clinic (brother's request)",
    # one case: the sentence goes on after the word (grammar, frequent words, people, common parts)
    "social: husband in to visit, updated.", "daughter and son in law visiting", "son met with team",
    "SOCIAL: MOTHER, AUNTS IN TO VISIT", "daughter called-update given", "DR AWARE OF PLAN",
    "病人 ambulate with walker, 步態穩",  # a code-mixed line: lower case marks an English word
    # before a credential: words of the sentence, a lower-case word in a mixed-case line, no word at all
    "Seen by the MD today.", "SEEN BY THE MD TODAY", "swan pa 40/20, wedge 18", "Plan discussed with the RN",
    "Spoke with charge RN about bed", "Vent settings per RRT",
    "dressing done as outlined by day rn", "her son is an rn at another hospital",  # one word: the sentence's
    "Ostomy RN applied a new pouch", "All MD's in to talk with family", "Bed 12 // Pimary RN: on leave",
    "LT IJ PA LINE IN PLACE", "Lab Follow-up RN call placed",
    # a surname before a title that is a word with the character before it, or a word of grammar
    "謝謝醫師。", "病人在公司擔任社工.", "在家照顧太太.", "向老師報告.", "和醫師討論後決定.", "公司董事長來訪",
])
def test_nothing_is_added_without_a_name_after_the_word(text):
    assert _added(text) == []


def test_nothing_is_added_where_an_entity_stands():
    assert _added("her husband Robert called", [("Robert", "PERSON")]) == []
    assert _added("her husband Robert Lee called", [("Lee", "PERSON")]) == []


def test_the_deid_component_adds_them_and_can_be_told_not_to():
    text = "Per her husband Robert, she has been talking to herself."
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"surrogates": False})
    assert [(e.text, e.label_, e._.source) for e in nlp(text).ents] == [("Robert", "FAMILY", SOURCE)]
    off = spacy_deid.blank()
    steps = [s for s in DEFAULT_NOTE_STEPS if s != "cued_names"]
    off.add_pipe("deid", config={"surrogates": False, "note_steps": steps})
    # without the step, no relation word makes him a relative: only the given names' rule of `cued_spans` reads him
    assert [(e.text, e.label_) for e in off(text).ents] == [("Robert", "PERSON")]


def test_cost_grows_linearly_with_the_text():
    def run(n):
        doc = spacy_deid.blank()("wife " * n + "Robert (father) " * n + "Mrs. A" + "a" * n)
        cued_names(doc)
    assert_linear(run, 2000)


def test_cost_grows_linearly_with_one_case_lines():
    def run(n):
        doc = spacy_deid.blank()("DR " + "ABCDEFGH-IJK " * n + "\n" + "son " * n + "1" * n)
        cued_names(doc)
    assert_linear(run, 2000)


def test_cost_grows_linearly_with_chinese_text():
    def run(n):
        doc = spacy_deid.blank()("胞弟: 王大" * n + "王" * n + "(兄)" + "陳美(母)" * n)
        cued_names(doc)
    assert_linear(run, 2000)


def test_cost_grows_linearly_with_words_before_credentials():
    def run(n):
        doc = spacy_deid.blank()("A. " * n + "SMITHERS MD " * n + "b. " * n + "jones rn " + "x" * n)
        cued_names(doc)
    assert_linear(run, 2000)


def test_cost_grows_linearly_with_names_before_words():
    def run(n):
        doc = spacy_deid.blank()("觀護人曾恆炳定期約談" * n + "社工" + "王" * n)
        cued_names(doc)
    assert_linear(run, 2000)


def _gold_overlap(split, candidates):
    """How many (start, end) that `candidates(text)` reads in generated notes of `split` are gold spans,
    and how many start outside every gold span (the synthetic notes' gold marks every name)."""
    from spacy_deid.synth import generate
    found = outside = 0
    for record in generate(80, seed=5, split=split):
        starts = {(span.start, span.end) for span in record.spans}
        covered = {i for span in record.spans for i in range(span.start, span.end)}
        for start, end in candidates(record.text):
            found += (start, end) in starts
            outside += start not in covered
    return found, outside


@pytest.mark.parametrize("split", ["train", "heldout", "fresh"])
def test_every_name_a_word_ends_in_synthetic_notes_is_part_of_a_name(split):
    # a name after a cue whose right edge a common word draws is a gold span or lies inside one
    def candidates(text):
        return [(start, end) for start, end in _after_cue(text) if _name_before_a_word(text, start) == end]
    found, outside = _gold_overlap(split, candidates)
    assert outside == 0 and found >= 5


@pytest.mark.parametrize("unit", ["王先生", "林", "醫師", "歐陽太太，"])
def test_cost_grows_linearly_with_surnames_and_titles(unit):
    def run(n):
        list(_surname_before_title(unit * n + "老師"))
    assert_linear(run, 20000)


@pytest.mark.parametrize("split", ["train", "heldout", "fresh"])
def test_every_surname_before_a_title_in_synthetic_notes_is_part_of_a_name(split):
    # a surname the step reads before a title is a name, or lies inside one (the last character of
    # `王美林` before 醫師), never outside every span
    found, outside = _gold_overlap(split, lambda text: [(s, e) for s, e, _ in _surname_before_title(text)])
    assert outside == 0 and found >= 40

