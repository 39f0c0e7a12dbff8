"""Rule patterns that the words around a candidate decide: a hospital's departments (`departments.json`),
the occupation where a note puts one (`professions.json`) and a hospital named by its department or a
visit (`hospitals.json`), an employer where someone works and a nationality status
(`employers_nationality.json`) and a school's abbreviation by words of study (`schools.json`); what must stand around each, what must not pass, and linear time."""
import pytest

from spacy_deid.rules import compile_rules, find_matches, load_patterns
from spacy_deid.rules.validators import make_default_validators

from linear import assert_linear
from test_rules import found, nlp  # noqa: F401 (nlp is the rules pipeline fixture)


def _labelled(nlp, text, label):
    """The texts of the rule spans with `label` (offsets checked by `found`)."""
    return [span for span, span_label in found(nlp, text) if span_label == label]


@pytest.mark.parametrize("text,expected", [
    ("日期 194/1/3  科別 眼科  醫師 周友晨", "眼科"),
    ("於2088.06.09入本院急診部.", "急診部"),
    ("情緒不穩於180/10/23經加護病房收住院", "加護病房"),
    ("經老年醫學科收住院", "老年醫學科"),
    ("轉至一般外科追蹤", "一般外科"),  # the longest name, not 外科
    ("預約心身醫學科門診", "心身醫學科"),
    ("科別: 急性病房", "急性病房"),
    ("會診復健部評估後轉至本院", "復健部"),  # a medical centre's departments are 部
    ("預約臨床心理科門診", "臨床心理科"),
    # wherever its name stands, not only with a field, admission or visit
    ("05 因 QTc prolongation 會診加護病房, 建議停用", "加護病房"),
    ("已與該院老年醫學科聯繫, 目前候床中", "老年醫學科"),
    ("1130515 眼科特約門診 (夜診) 掛號113號", "眼科"),
    ("醫師：建議轉至外科評估。民眾：好。", "外科"),  # a dialogue's turn with a chart's words
])
def test_a_chinese_department_with_a_field_admission_or_visit(nlp, text, expected):
    assert expected in _labelled(nlp, text, "DEPARTMENT")


@pytest.mark.parametrize("text", [
    "有眼科疾病的家族史",  # the specialty of medicine, not a hospital's unit
    "服用精神科藥物多年",
    "內科治療無效",  # a kind of treatment
    "白內障 (眼科診所).",  # a clinic of that specialty names no hospital
    "內科: 甲狀腺機能亢進, 2006年接受放射碘治療",  # a history's category heading the line
    "無重大外科病史",
    "醫師：你之前有看過精神科嗎？",  # a dialogue's turn: a specialty in general
    "民眾：我上禮拜去掛內科，拿了藥。",
])
def test_a_specialty_named_as_a_field_of_medicine_is_no_department(nlp, text):
    assert _labelled(nlp, text, "DEPARTMENT") == []


@pytest.mark.parametrize("text,expected", [
    ("The patient presented to GDH ED on 2085.12.1", "ED"),
    ("PATIENT PRESENTED TO TTMHH GS ON 195/05/03", "GS"),
    ("Reviewed by Dr Lan, SURG, CMMC", "SURG"),
    ("Department of ANES\nDischarge summary", "ANES"),
    ("RETURN TO NEPH CLINIC ON 3/2", "NEPH"),
    ("follow up at RAD OPD", "RAD"),
    ("回 OPH 門診追蹤", "OPH"),
    ("Summary faxed to Tungs' Taichung MetroHarbor Hospital RAD ((02)3778-4443)", "RAD"),
    ("NHI# 6259\nDEPT: ICU   WARD 6C", "ICU"),  # a department's field
    ("To: 萬芳 老年醫學科   From: ANES, Dr. Hua-Chiu Hsueh", "ANES"),  # its physician
])
def test_an_english_department_abbreviation_next_to_a_hospital_or_a_clinic(nlp, text, expected):
    assert expected in _labelled(nlp, text, "DEPARTMENT")


@pytest.mark.parametrize("text", [
    "Pt transferred to the ICU overnight.",  # no hospital, clinic or `Department of`
    "Seen in ED, given NS 1L.",
    "ED and ICU notified.",
    "MED: Depakine 500 mg bid",  # a field of medications, not of a department
    "ICU, ward and OPD staffing",  # no physician after the comma
    "If symptoms recur, call the ICU nurse line",  # a unit's staff: the unit in general
])
def test_an_abbreviation_alone_is_no_department(nlp, text):
    assert _labelled(nlp, text, "DEPARTMENT") == []


@pytest.mark.parametrize("text,expected", [
    ("85歲看護, 因 panic attack 來院", "看護"),
    ("44歲導遊, 因情緒不穩住院", "導遊"),
    ("38歲 工程師, 於門診追蹤", "工程師"),
    ("印尼籍看護, 52歲, 於家中跌倒", "看護"),
    ("台灣人製程工程師, 76歲, 於工廠工作時多疑", "製程工程師"),
    # a person counted as one of a trade, what someone is engaged in or lives by
    ("病人是一名水電工, 已婚, 育有一子", "水電工"),
    ("案父為一位退休郵差。", "退休郵差"),
    ("病人從事快遞員工作約十年", "快遞員"),
    ("病人過去從事導遊, 收入不穩", "導遊"),
    ("以算命師為業, 獨居", "算命師"),
    # the occupation between the sex and the marital status
    ("38歲男性, 水電工, 離婚, 獨居", "水電工"),
    ("女性，收銀員，未婚", "收銀員"),
])
def test_the_occupation_slot_of_a_chinese_demographic_line(nlp, text, expected):
    assert expected in _labelled(nlp, text, "PROFESSION")


@pytest.mark.parametrize("text", [
    "38歲男性, 因胸痛來院",  # sex
    "38歲女, 因胸痛來院",
    "52歲已婚, 因失眠來院",  # marital status
    "70歲病人, 因跌倒來院",  # the role
    "16歲青少年, 因拒學來院",  # an age group
    "10歲時開始, 因家暴",  # a phrase
    "45歲罹患乳癌, 於本院治療",  # a finding
    "越南籍配偶, 32歲",  # a relation
    "病人是一名38歲男性, 已婚",  # a person counted, no trade
    "病人是一位病人, 已婚",
    "病人從事相關工作",  # no trade named
    "以此為業",
    "38歲男性, 已婚, 育有一子",  # the marital status itself
    "38歲男性, 大學畢業後, 未婚",  # a phrase
])
def test_what_else_stands_in_the_slot_is_no_occupation(nlp, text):
    assert _labelled(nlp, text, "PROFESSION") == []


@pytest.mark.parametrize("text,expected", [
    ("Occupation: auto mechanic.\nOriented x3", "auto mechanic"),
    ("OCCUPATION: PASTOR.", "PASTOR"),
    ("職業: 導遊\n", "導遊"),
    ("Works as a firefighter in Central Taiwan.", "firefighter"),
    ("A 70yo nurse from Yunlin was brought in.", "nurse"),
    ("The 44-year-old auto mechanic presented with mania.", "auto mechanic"),
    ("85y/o, Indian, insurance agent; onset in 2019", "insurance agent"),
    ("外配護理師, 85歲, 於大遠百工作時", "護理師"),
    ("王女士為越南籍看護, 來台6年, 此次因失眠就診.", "看護"),
    ("Employment: bartender at a hotel bar, night shifts.", "bartender"),
    ("Occupational hx: process engineer x 14 yrs -> unemployed", "process engineer"),
    ("JOB: CLEANER AT TSMC, NIGHT SHIFT.", "CLEANER"),
    ("Education: BSc; licensed physical therapist until the licence was suspended.", "physical therapist"),
])
def test_occupation_fields_and_english_demographic_openings(nlp, text, expected):
    assert expected in _labelled(nlp, text, "PROFESSION")


@pytest.mark.parametrize("text", [
    "Occupation: retired.",
    "A 70yo male from Yunlin was brought in.",
    "The 72-year-old previously healthy woman presented with chest pain.",
    "45yo, Taiwanese, married; onset in 2019",
    "He works as a team with his family.",  # no occupation's end after three words
    "Employment: unemployed since 2019.",
    "Work history: none.",
    "Occupational hx: retired x 5 yrs",
    "licensed to drive until 2020.",
])
def test_what_else_stands_in_an_english_slot_is_no_occupation(nlp, text):
    assert _labelled(nlp, text, "PROFESSION") == []


@pytest.mark.parametrize("text,expected", [
    ("The patient presented to GDH ED on 2085.12.1", "GDH"),
    ("Reviewed by Dr Lan, SURG, CMMC\n", "CMMC"),
    ("bipolar disorder dx at TTMHH; 2010.8 relapse", "TTMHH"),
    ("She was referred from NTUH on 3/2.", "NTUH"),
    ("3/27回診, 並安排至門諾追蹤.", "門諾"),
    ("alcohol use disorder, 曾於門諾戒酒 三個月", "門諾"),
    ("家族病史: 先生曾在亞東住院", "亞東"),
    ("於2219.3-2220.7住協和(上海), 主治高大夫", "協和"),
    ("14:20 新入院, 由彰基救護車轉入", "彰基"),
    ("今日從澄清轉來, 攜帶轉診單", "澄清"),
    ("長效針下次回慈濟施打", "慈濟"),
    ("出院後回馬偕門診", "馬偕"),
    ("每週三次到彰基洗腎", "彰基"),  # care, not only a visit
    ("去年於協和接受手術", "協和"),
    ("Prior admissions: (1) KUOGH, 2010, psychosis; (2) MCH, 2015", "KUOGH"),
    ('S: claims Dr. Yang at MCH "put poison in my food".', "MCH"),
    ("Records faxed from TTMHH (07-3456789).", "TTMHH"),
    ("Summary faxed to PUMCH Surgery", "PUMCH"),
    ("KLCGMH Department of Anesthesiology", "KLCGMH"),
    ("WFH DEPARTMENT OF AW", "WFH"),  # a department's phrase says so in capitals too
    ("DISCHARGE SUMMARY - KUOGH\nPt: ...", "KUOGH"),
    ("Dictated by Dr. R. Hsiao, Acute Ward, MCH\n", "MCH"),
    ("Electronically signed: Dr. Chiu, Ophthalmology, CMMC", "CMMC"),
    ("He was referred from 門諾 on 2020.01.02.", "門諾"),
    ("previously treated at 亞東 for mania", "亞東"),
    ("病人要求轉院至離家較近的協和, 已與該院聯繫", "協和"),  # where a transfer goes
    ("家屬希望轉院至門諾.", "門諾"),
    ("入院來源: 協和急診轉入", "協和"),  # the admission source field
    ("上週到協和掛急診", "協和"),  # a visit to the emergency room
])
def test_a_hospital_named_by_its_department_or_a_visit(nlp, text, expected):
    assert expected in _labelled(nlp, text, "HOSPITAL")


@pytest.mark.parametrize("text,expected", [
    ("學業: 2007 入學交大; 01/2016 休學", "交大"),
    ("學業: 91年 入學國立交通大學; 93年6月 休學", "國立交通大學"),
    ("畢業於東吳大學，之後在台北工作", "東吳大學"),
    ("女兒就讀竹中二年級", "竹中"),
    ("就讀台大研究所時開始失眠", "台大"),  # the level after the name is no part of it
    ("個案就讀於陽明交大, 目前休學", "陽明交大"),
    # before what someone does at a school, or after passing its exam
    ("病人在竹中念書時開始失眠", "竹中"),
    ("2019年從港大休學", "港大"),
    ("病人自政大畢業後曾任神父", "政大"),
    ("考上交大後壓力大", "交大"),
    ("高醫畢業後在家待業", "高醫"),  # a clause or an education field that starts with the school
    ("護理評估：教育程度台科大畢業，職業社工", "台科大"),
])
def test_a_school_named_after_a_word_of_study(nlp, text, expected):
    assert _labelled(nlp, text, "SCHOOL") == [expected]


@pytest.mark.parametrize("text", [
    "就讀國中時開始抽菸",  # a school level names no school
    "就讀期間成績中等",  # a time
    "就讀大學時住宿舍",
    "畢業於該校後待業",  # this school
    "入學台北; 後轉學",  # a known place: the city
    "畢業於台大醫院, 後任職",  # a hospital's type word: no school
    "目前就讀中, 成績尚可",
    "在家念書, 在台北念書, 在國外求學",  # home, a known place, a generic word
    "考上大學後壓力大",  # a school level
    "從去年休學",  # a time
    "大學畢業後在家, 研究所肄業",  # school levels
    "病人自高雄畢業後",  # a known place
])
def test_no_school_after_a_word_of_study_that_names_none(nlp, text):
    assert _labelled(nlp, text, "SCHOOL") == []


@pytest.mark.parametrize("text", [
    "安排至門診追蹤",  # a generic word
    "安排至本院追蹤",
    "曾在家中戒酒",  # a phrase
    "安排至精神科追蹤",  # a department
    "曾在台北住院",  # a known place: the city
    "Pt transferred to MICU overnight.",  # no H or MC at the end: a unit
    "經加護病房收住院",  # a department, taken by its own rule
    "PT ADMITTED FROM CATH LAB S/P STENT",  # an English word ending in H, in a note typed in capitals
    "PMH: (1) SAH, (2) ICH",  # a problem list's abbreviations end in H too
    "Past hospitalizations: (1) BPH surgery",  # not before a comma, semicolon or bracket
    "TRANSFERRED TO NORTH 4 FOR TELEMETRY",
    "由家屬救護車送來",  # the family: a common word
    "病人從三年前轉來",  # a time
    "上午診 28診, 由楊醫師追蹤; 由王主任轉診",  # a person with a title
    "由林院長轉入, 從陳伯母轉來",  # titles of the shared list (titles_zh)
    "2019年在法鼓山接受戒癮治療",  # treatment is received at more places than hospitals
    "從監獄轉來",  # a generic institution
    "由社區轉介, 從國外轉入",
    "She graduated from TCFSH in 2010.",  # words of study: a school
    "a 17-yr-old student at TCFSH, was escorted by police",  # SH and JH: a senior or junior high school
    "Teacher Ms Chou from RAJH visited on 3/2.",
    "He has worked as an engineer at TSMC in Hsinchu for 8 years.",  # MC ends a company's name too
    "Insulin switched to NPH at bedtime.",  # clinical abbreviations end in H too
    "ECG compatible with LVH, referred to CCU.",
    "PT WENT TO LUNCH AT BEACH WITH FAMILY",  # capitals: every word looks like an abbreviation
    "Dx: HTN, DM, LVH\n",  # a list's last item after no department's name
    "Imp: schizophrenia, GERD, BPH",
    "Referred to OPH for fundoscopy.",  # a department's abbreviation
    "was referred from 家中 by EMS",  # a generic word where a hospital's short name would stand
    "轉院至本院, 轉診至精神科",  # this hospital; a department
    "入院來源: 門診",
    "過去三年住院兩次, 失去工作治療中斷",  # 去 sends no one to care here
    # what stands between the frame's word and its care: a city, a department's start, an act of care
    "178/4/19-180/2/26 在台北市馬偕住院",
    "首次至光田職能治療科就診",
    "曾因 OVERDOSE 在新光插管住院一週",
    "曾於2021.1-2022.7在愛爾蘭接受洗腎",
])
def test_what_else_stands_where_a_visit_happens_is_no_hospital(nlp, text):
    assert _labelled(nlp, text, "HOSPITAL") == []


@pytest.mark.parametrize("text,expected", [
    ("a 17-yr-old Indonesian student at HCHS, was escorted by police.", "HCHS"),
    ("He graduated from NCKU in 2010.", "NCKU"),
    ("She stayed up until 3 am and skipped the HKU-HK midterms.", "HKU-HK"),
    ("Education: BSc, NCTU; licensed pharmacist.", "NCTU"),
    ("PhD (NTU), unemployed since 2019", "NTU"),
])
def test_a_school_named_by_words_of_study(nlp, text, expected):
    assert expected in _labelled(nlp, text, "SCHOOL")


@pytest.mark.parametrize("text", [
    "GRADUATED FROM HIGH SCHOOL IN 2010",  # capitals: every word looks like an abbreviation
    "Dx: MS, HTN, DM",  # MS is no degree here, and no degree stands before a comma
    "a student at ICU rotation",  # a department's abbreviation
    "skipped the PRN meds",  # no exams after it
    "studied at home",
])
def test_what_else_follows_words_of_study_is_no_school(nlp, text):
    assert _labelled(nlp, text, "SCHOOL") == []


@pytest.mark.parametrize("text,expected", [
    ("9/9 朋友劉蕾燕從友達下班後來訪.", "友達"),
    ("2218-04-14回愛買上班, 診斷書交給主管", "愛買"),
    ("in MK84, 之後在FamilyMart工作.", "FamilyMart"),
    ("之後在 AUO 工作", "AUO"),
    ("之前在友達做了三年, 去年離職", "友達"),
    ("病人在中鋼擔任技術員", "中鋼"),
    ("被中鋼解雇後開始喝酒", "中鋼"),  # the employer that let someone go
])
def test_an_employer_named_where_someone_works(nlp, text, expected):
    assert expected in _labelled(nlp, text, "GENERAL_BUSINESS")


@pytest.mark.parametrize("text", [
    "在工廠上班十年",  # a generic word
    "之後在家中工作",  # a phrase
    "在台北上班",  # a known place: the city
    "在Tokyo工作",
    "在精神科工作",  # a unit
    "起在南門市場工作",  # a market, by its type word
    "被公司資遣, 被學校開除",  # generic words
    "從事快遞員工作",  # engaged in a trade: `從事` is no `從`
    "2003獨自回台找工作",  # looking for work: 台 is Taiwan, 找 a verb
])
def test_what_else_stands_where_someone_works_is_no_employer(nlp, text):
    assert _labelled(nlp, text, "GENERAL_BUSINESS") == []


@pytest.mark.parametrize("text,expected", [
    ("他是本國籍, 在西歐長大", "本國籍"),
    ("外配配偶, 中文溝通可", "外配"),
    ("雙重國籍人資, 71歲", "雙重國籍"),
])
def test_nationality_status_words(nlp, text, expected):
    assert expected in _labelled(nlp, text, "NATIONALITY")


@pytest.mark.parametrize("make,size", [
    (lambda n: "38歲" * n + "工程師, 因", 30_000), (lambda n: "籍" * n, 100_000),
    (lambda n: "GDH " * n, 25_000), (lambda n: "Department of " * n, 8_000),
    (lambda n: "科別 眼" * n, 25_000), (lambda n: "加護病" * n, 30_000), (lambda n: "ED, " * n, 25_000),
    (lambda n: "Occupation: " + "a " * n, 30_000), (lambda n: "works as a " * n, 10_000),
    (lambda n: "70yo " * n, 20_000), (lambda n: "Indonesian, " * n, 8_000),
    (lambda n: "安排至門諾" * n, 20_000), (lambda n: "住(" * n, 50_000), (lambda n: "dx at " * n, 16_000),
    (lambda n: "在友達" * n, 30_000), (lambda n: "在A" * n + "工作", 50_000), (lambda n: "外配" * n, 50_000),
    # abbreviations whose validators read the line's case and the words before them, on one long line
    (lambda n: "seen at MCH and " * n, 8_000), (lambda n: "Acute Ward, " * n + "MCH", 8_000),
    (lambda n: "a student at NCKU, " * n, 8_000), (lambda n: "BSc, NTU " * n, 8_000),
    (lambda n: "KLCGMH Department " * n, 8_000), (lambda n: "at " * n + "MCH", 30_000),
    # department names on one long line, in a dialogue's turn and not
    (lambda n: "醫師：" + "看精神科" * n, 20_000), (lambda n: "會診精神科, " * n, 20_000),
    (lambda n: "Dept: ICU, " * n, 10_000), (lambda n: "ANES, Dr. " * n, 10_000),
])
def test_linear_time_on_adversarial_notes(make, size):
    validators = make_default_validators()
    compiled = compile_rules(load_patterns("default"), validators)
    assert_linear(lambda n: find_matches(make(n), compiled, validators), size)
