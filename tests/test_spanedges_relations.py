"""spanedges and relations: NER spans lose the words at their edges; names next to kinship words are
FAMILY, next to words for other people in the patient's life PERSON, next to a physician's title DOCTOR."""
import pytest

import spacy_deid
from spacy_deid.cues.labels import relation_label
from spacy_deid.refine.relations import by_relation
from spacy_deid.refine.builtin import apply_span_repair
from spacy_deid.refine.spanedges import place_bounds, trimmed

from linear import assert_linear
from ner_spans import doc_with_ents, ents_of, repair_ner_spans, repaired, stepped


@pytest.mark.parametrize("text,found,expected", [
    ("10.22至童綜合醫院急診。", ("至童綜合醫院", "HOSPITAL"), ("童綜合醫院", "HOSPITAL")),
    ("2009.5住奇美醫院兩週。", ("住奇美醫院", "HOSPITAL"), ("奇美醫院", "HOSPITAL")),
    ("曾於門諾戒酒三個月。", ("門諾戒酒", "HOSPITAL"), ("門諾", "HOSPITAL")),
    ("病人說要回洛杉磯找哥哥。", ("洛杉磯找", "CITY"), ("洛杉磯", "CITY")),
    ("去年到葡萄牙遊學。", ("葡萄牙遊學", "COUNTRY"), ("葡萄牙", "COUNTRY")),
    ("在西歐長大。", ("西歐長大", "REGION"), ("西歐", "REGION")),
    ("met at Rongxing Garden Park on Sunday", ("Rongxing Garden Park on", "LOCATION"), ("Rongxing Garden Park", "LOCATION")),
    ("長效針下次回郭綜合施打", ("郭綜合施", "HOSPITAL"), ("郭綜合", "HOSPITAL")),  # the first part of 施打
    ("每月回阮綜合領藥", ("阮綜合領藥", "HOSPITAL"), ("阮綜合", "HOSPITAL")),
    ("已聯絡仁愛國中學務處", ("仁愛國中學", "SCHOOL"), ("仁愛國中", "SCHOOL")),  # 國中, then 學務處
    ("在竹中宿舍頂樓", ("竹中宿", "CITY"), ("竹中", "CITY")),
    ("當時在全家上大夜班", ("全家上大", "GENERAL_BUSINESS"), ("全家", "GENERAL_BUSINESS")),
    ("Asks for a 診斷證明 for FamilyMart HR, stating", ("FamilyMart HR", "GENERAL_BUSINESS"),
     ("FamilyMart", "GENERAL_BUSINESS")),
    ("courier at FamilyMart, night shift", ("FamilyMart, night", "GENERAL_BUSINESS"),
     ("FamilyMart", "GENERAL_BUSINESS")),
    ("Chinese national, housewife", ("Chinese national", "NATIONALITY"), ("Chinese", "NATIONALITY")),
])
def test_edge_words_leave_place_spans(text, found, expected):
    assert stepped(text, found, "edges") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("住在自由路。", ("自由路", "STREET")),  # streets start with such characters
    ("轉至善化。", ("至善", "CITY")),  # two characters: too short to trim
    ("照會精神科住院。", ("精神科住院", "DEPARTMENT")),  # departments are not trimmed
    ("病人找王大明。", ("王大明", "PATIENT")),  # names are not places
    ("living in Hope", ("Hope", "CITY")),
    ("studies at Seoul National University", ("Seoul National", "SCHOOL")),  # a name's National
])
def test_spans_without_edge_words_or_outside_the_labels_stay(text, found):
    assert stepped(text, found, "edges") == (0, [found])


@pytest.mark.parametrize("text,found,expected", [
    ("Patient works as an accountant and smokes 1 ppd.", ("an accountant", "PROFESSION"), ("accountant", "PROFESSION")),
    ("A 45-year-old lawyer presented to the ER.", ("lawyer presented to", "PROFESSION"), ("lawyer", "PROFESSION")),
    ("56 Y/O INSURANCE AGENT ADMITTED WITH CP", ("INSURANCE AGENT ADMITTED WITH", "PROFESSION"),
     ("INSURANCE AGENT", "PROFESSION")),
    ("She is the teacher who was on duty.", ("the teacher who was", "PROFESSION"), ("teacher", "PROFESSION")),
])
def test_a_profession_drops_its_article_and_the_verb_after_it(text, found, expected):
    assert stepped(text, found, "edges") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("a retired teacher", ("retired teacher", "PROFESSION")),  # the -ed word leads: part of the occupation
    ("works as a nurse", ("nurse", "PROFESSION")),
    ("English cram-school teacher", ("English cram-school teacher", "PROFESSION")),
    ("He presented", ("presented", "PROFESSION")),  # one word is never trimmed away
    ("補習班老師", ("補習班老師", "PROFESSION")),  # whole already
    ("做保全人員工作", ("保全", "PROFESSION")),  # 員工 runs on: no word's end after 人員
])
def test_professions_without_edge_words_stay(text, found):
    assert stepped(text, found, "edges") == (0, [found])


def test_rule_spans_keep_their_edges():
    text = "曾於門諾戒酒三個月。"
    doc = doc_with_ents(text, [("門諾戒酒", "HOSPITAL")], source="rule")
    assert apply_span_repair(doc, text, trimmed) == 0


def test_place_bounds_read_the_code_and_the_edges_rules():
    assert place_bounds("至童綜合醫院", 0, 6, "HOSPITAL") == (1, 6)
    assert place_bounds("童綜合醫院", 0, 5, "HOSPITAL") == (0, 5)
    assert place_bounds("至台大住院", 0, 5, "HOSPITAL") == (1, 3)
    assert place_bounds("Taipei office", 0, 13, "CITY") == (0, 6)


@pytest.mark.parametrize("text,found", [
    ("家庭會談: 大女兒: 盧亞瓊、志工: 梁", ("盧亞瓊", "PERSON")),
    ("配偶石佑澤與小兒子徐珍春一同到病房。", ("徐珍春", "PERSON")),
    ("由表哥: 彭恆彥陪同。", ("彭恆彥", "PATIENT")),
    ("visited by his daughter Mei-Ling Chen today", ("Mei-Ling Chen", "DOCTOR")),
    ("Wife: Mary Jones called.", ("Mary Jones", "PERSON")),
    ("Family Wang Mei-Hua came to the ward.", ("Wang Mei-Hua", "PATIENT")),
    ("relative: Lin Chia-Hao called", ("Lin Chia-Hao", "PERSON")),
])
def test_a_name_after_a_kinship_word_is_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("Discharge Summary Patient: 呂雄晨 (Lu, Hsiung-Chen)  Age 64", ("呂雄晨", "FAMILY")),
    ("姓名：王小明  性別: 男", ("王小明", "DOCTOR")),
    ("Pt: Chen Mei-Ling, 45F", ("Chen Mei-Ling", "PERSON")),
    ("病患: 陳 先生", ("陳", "FAMILY")),
    ("病人王小明今日出院", ("王小明", "FAMILY")),  # the patient named in apposition
    ("案主 馮欣妤 accompanied by 社工 to court.", ("馮欣妤", "PERSON")),
    ("The patient, Mrs. Lu, was alert and cooperative.", ("Lu", "FAMILY")),
    ("病人自述：「我叫潘建國，我沒有病。」", ("潘建國", "PERSON")),  # the patient says their name
    ("Pt stated「我叫謝宗翰」and denied SI", ("謝宗翰", "PERSON")),
    ('Patient said "my name is Lin" twice', ("Lin", "FAMILY")),
])
def test_the_name_in_the_patient_field_is_the_patient(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "PATIENT")])


@pytest.mark.parametrize("text,found", [
    ("家屬姓名: 王大明 電話 0912", ("王大明", "FAMILY")),  # a relative's field
    ("Emergency contact name: Lee Mei", ("Lee Mei", "FAMILY")),
    ("outpatient: Lin Ya-Ting", ("Lin Ya-Ting", "DOCTOR")),
])
def test_fields_of_others_make_no_patient(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("Mrs. Fan (nephew) visited on Monday.", ("Fan", "PATIENT")),
    ("中文溝通可, 由先生: 趙承翰翻譯.", ("趙承翰", "PERSON")),
    ("堂妹: 梁晉振、朱平吉參加。", ("梁晉振", "PATIENT")),
    ("家庭會談: 吳美玲（堂妹）參加。", ("吳美玲", "PERSON")),
    ("Chen, his cousin, called today.", ("Chen", "DOCTOR")),
    ("由姪女 林怡君陪同。", ("林怡君", "PERSON")),
    ("聯絡人: Tseng, Chen-Ching, the patient's grandson, 電話", ("Tseng, Chen-Ching", "PERSON")),
    ("She was raised by Mr. Chou (step-mother) in Taipei.", ("Chou", "DOCTOR")),
    ("由MR NI, CHIN-KUN (YOUNGER BROTHER)翻譯.", ("NI, CHIN-KUN", "PATIENT")),
    ("Lu Pin-Heng, the patient's youngest granddaughter, called.", ("Lu Pin-Heng", "PERSON")),
    # the chart's 案/其 before a one-character kinship word, a kinship field of one character
    ("案母林美玲表示病人失眠.", ("林美玲", "PATIENT")),
    ("其妻 王美華陪同返診.", ("王美華", "PERSON")),
    ("父: 王大明, 母: 林美玲", ("王大明", "PATIENT")),
    ("母：林美玲", ("林美玲", "PERSON")),
    # a comma or an English title between the word and the name
    ("His wife, Mary Chen, called the ward.", ("Mary Chen", "PERSON")),
    ("案妻，王小美，來電.", ("王小美", "PATIENT")),
    ("spoke with daughter Mrs. Lin about discharge", ("Lin", "DOCTOR")),
    ("Next of kin: John Smith (cell)", ("John Smith", "PATIENT")),
    ("lives with mother-in-law Mary Lee", ("Mary Lee", "PERSON")),
])
def test_a_name_next_to_a_kinship_word_is_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    # a genogram's or family list's one-character kinship word, a space before the name
    ("家系圖: 父 劉鴻恆 (歿), 母 呂晉恆 (住雲林縣)", ("劉鴻恆", "PERSON")),
    ("家系圖: 父 劉鴻恆 (歿), 母 呂晉恆 (住雲林縣)", ("呂晉恆", "PATIENT")),
    # an emergency contact and a family meeting's attendee, when no word beside the name says otherwise
    ("Emergency contacts - 1) Cheng-Hai Hsu, 0989230788", ("Cheng-Hai Hsu", "PATIENT")),
    ("入院來源: 急診轉入   聯絡人: 邱穎琪（0932-947572）", ("邱穎琪", "PERSON")),
    ("緊急聯絡人：田家豪，電話0912-345-678。", ("田家豪", "PERSON")),
    ("Family meeting 2019/08/25: Yang Chen-You refused to take pt home", ("Yang Chen-You", "PATIENT")),
    ("FAMILY MEETING 2011-04-12: HSU YING REFUSED TO TAKE PT HOME", ("HSU YING", "PERSON")),
    ("2009-09-12 家庭會議 出席: 江翔發、社工吳諺中", ("江翔發", "PERSON")),
])
def test_a_relatives_field_makes_a_name_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("no LOC according to Liu Hua-Chen.", ("Liu Hua-Chen", "PATIENT")),
    ("Li 900 -> 1200 mg, update Mr. Kao Han-Hai by phone.", ("Kao Han-Hai", "PATIENT")),
    ("brought in by Mr. Yang Ching-Hsiung after two sleepless nights", ("Yang Ching-Hsiung", "PATIENT")),
    ("12月9日 會客: 呂先生帶來水果, 已檢查.", ("呂", "PATIENT")),
    ("申請外宿, 由劉晉友負責接送.", ("劉晉友", "PATIENT")),
    ("據陳美玲表示病人已三天未進食", ("陳美玲", "PATIENT")),
    ("據周先生表示, 病人失眠.", ("周", "PATIENT")),  # Mr Chou says something of the patient
    ("Collateral by phone (2008.02.02) from Hsu Yu-Yen: pt had not slept", ("Hsu Yu-Yen", "PATIENT")),
])
def test_the_patient_is_no_third_party_to_their_own_care(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("no LOC according to Liu Hua-Chen.", ("Liu Hua-Chen", "PERSON")),
    ("申請外宿, 由劉晉友負責接送.", ("劉晉友", "PERSON")),
    ("no LOC according to Tang Chen-Pin.", ("Tang Chen-Pin", "DOCTOR")),  # no title makes a physician
    ("14:00 高伯伯到病房探望, 電話 0912", ("高", "PATIENT")),  # a visitor
    ("周先生來院會談, 說明病情", ("周", "PATIENT")),
    ("Yang Ching-Chen 電話關心, 詢問病人近況", ("Yang Ching-Chen", "PERSON")),
])
def test_a_third_party_to_the_patients_care_is_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("14:00 劉伯伯來訪, 帶來換洗衣物.", ("劉", "PERSON")),
    ("說昨晚夢到過世的曾阿公", ("曾", "PERSON")),
    ("與邱大哥討論出院後安置", ("邱", "PERSON")),
])
def test_a_person_addressed_by_a_kinship_word_is_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("彭先生來電。", ("彭", "PERSON")),
    ("社工會談紀錄: 與呂先生討論出院後安置", ("呂", "PERSON")),
    ("長效針下次回萬芳醫院施打, 已提醒劉小姐.", ("劉", "PERSON")),
    ("目前寄住在歐陽女士家", ("歐陽", "PERSON")),  # a compound surname
])
def test_a_bare_surname_addressed_by_an_honorific_alone_is_family(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "FAMILY")])


@pytest.mark.parametrize("text,found", [
    ("已轉介社會局, 承辦人唐小姐.", ("唐", "PERSON")),  # a caseworker: the role decides
    ("負債約 80 萬, 債主林先生常到家中", ("林", "PERSON")),
    ("學校輔導室呂小姐與同學兩名來訪", ("呂", "PERSON")),  # an office before her: its staff
    ("社會局王先生來電", ("王", "PERSON")),
    ("彭先生來電。", ("彭", "PATIENT")),  # the NER's patient stands: a ward addresses the patient so too
    ("王大明先生來電", ("王大明", "PERSON")),  # a full name: the honorific says nothing more
])
def test_an_honorific_after_a_role_an_office_or_a_full_name_keeps_the_label(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("Informant: landlady Mr Yang, who says", ("Yang", "DOCTOR")),
    ("Interview on 2020/1/2 with Miss ya-chen lu.", ("ya-chen lu", "DOCTOR")),
])
def test_a_physician_has_no_honorific_but_dr(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "PERSON")])


@pytest.mark.parametrize("text,found", [
    ("seen by Dr. Yang today", ("Yang", "DOCTOR")),
    ("according to Dr. Lin", ("Lin", "DOCTOR")),  # the title decides before the third party's words
    ("Mrs. Lin's psychiatrist Chen saw her", ("Chen", "DOCTOR")),
])
def test_a_titled_physician_stays(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("Patient: Wang Mei informed of the plan", ("Wang Mei", "PATIENT")),  # a field is no third party
    ("王大明陪伴母親回診", ("王大明", "PATIENT")),  # keeping company is no care frame
    ("according to Dr. Lin", ("Lin", "DOCTOR")),
    ("no LOC according to his friend Liu Hua-Chen.", ("Liu Hua-Chen", "PERSON")),  # the relation word decides
    ("網友 Katie May來電, 詢問病人近況", ("Katie May", "PERSON")),  # an online friend
])
def test_third_party_words_change_no_other_name(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("緊急聯絡人：田家豪（朋友）。", ("田家豪", "PERSON")),  # the word beside the name wins
    ("Family meeting: SW Tina Lin, OT, primary nurse", ("Tina Lin", "PERSON")),  # not right after the colon
    ("轄區警方聯絡人: 台中警察局呂警員", ("呂", "PERSON")),  # the police's contact, not the patient's
    ("45歲 女 王美玲 因失眠就醫", ("王美玲", "PATIENT")),  # 女 before a space is her sex
    ("Visitors: Lin Mei-Hua brought fruit", ("Lin Mei-Hua", "PERSON")),  # a visitor may be anyone
])
def test_other_fields_and_lists_say_no_relation(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("Ms Liang (coach)來電, 詢問病人近況.", ("Liang", "PATIENT")),
    ("家屬 邱佑、Yang Ya-Yu, a coach,參加.", ("Yang Ya-Yu", "PATIENT")),
    ("after conflicts with Sung Hsun-Chang, a coach, at work", ("Sung Hsun-Chang", "FAMILY")),
    ("referred by social worker Heng-Jung Fan", ("Heng-Jung Fan", "PATIENT")),
    ("朋友劉佑晉從全家下班後來訪.", ("劉佑晉", "FAMILY")),
    ("同居人: 周瑋振來院。", ("周瑋振", "FAMILY")),  # a cohabitant is not a relative by definition
    ("社工 謝美華聯絡基金會.", ("謝美華", "DOCTOR")),
    ("An-Hua Yang, her neighbour, called.", ("An-Hua Yang", "PATIENT")),
    # annotation.md's PERSON: a teacher; and mentors, counsellors, schoolmates
    ("家庭會談: 師父 呂勝亞參加.", ("呂勝亞", "FAMILY")),
    ("學長: 劉鳳寶來電, 詢問病人近況.", ("劉鳳寶", "DOCTOR")),
    ("班導師陳怡君來訪.", ("陳怡君", "PATIENT")),
    ("talked with Mr Lu (counselor) at school", ("Lu", "FAMILY")),
    ("Wang Mei, her teacher, called.", ("Wang Mei", "PATIENT")),
])
def test_a_name_next_to_another_relation_word_is_person(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "PERSON")])


@pytest.mark.parametrize("text,found", [
    ("經由林醫師轉介至本院.", ("林", "FAMILY")),
    ("會診神經科王大明 醫生, 建議 MRI.", ("王大明", "PERSON")),
    ("主治醫師: 張家豪", ("張家豪", "PATIENT")),
    ("Seen by psychiatrist Chen Yu-Ting, who recommended ECT.", ("Chen Yu-Ting", "PERSON")),
    ("Discussed with Dr. Lin Chia-Hao.", ("Lin Chia-Hao", "FAMILY")),
    ("Case discussed with attending Wang Mei-Hua.", ("Wang Mei-Hua", "PATIENT")),
    ("Note co-signed by Hsu Li-Wen, MD", ("Hsu Li-Wen", "PERSON")),
    ("VS 陳志明 R 林美玲", ("陳志明", "FAMILY")),
    # a physician's role alone in brackets after the name
    ("2107/01/05 病人情緒穩定, 梁勝品(值班醫師)同意外出", ("梁勝品", "PATIENT")),
    ("經雙和醫院劉姿 (chief resident) 轉介", ("劉姿", "PERSON")),
    ("R2 note, PGY-2; reviewed and agreed, Tseng (VS)", ("Tseng", "PERSON")),
    ("經亞東劉佑昌（attending）轉介", ("劉佑昌", "FAMILY")),
    # a resident's year after the name, a co-signature or the physician on duty before it
    ("-- Hsia-Ting Chao, PGY-2; reviewed and agreed, Liu (VS)", ("Hsia-Ting Chao", "PATIENT")),
    ("note by yhc (cosign pending: Yang Hsun-Chen)", ("Yang Hsun-Chen", "PATIENT")),
    ("病程 (110/2/3, 週末值班 劉友勝)", ("劉友勝", "PERSON")),
    ("書寫人 徐醫師／覆核 周大明", ("周大明", "PERSON")),
    ("醫師簽章: 呂亞瓊  日期: 2014/09/15", ("呂亞瓊", "PATIENT")),  # the physician's signature field
])
def test_a_name_next_to_a_physicians_title_is_a_doctor(text, found):
    assert repaired(text, found, by_relation) == (1, [(found[0], "DOCTOR")])


@pytest.mark.parametrize("text,found", [
    ("女兒王美玲醫師來電", ("王美玲", "FAMILY")),  # a relative who is a doctor stays a relative
    ("護理師 王小美 給藥", ("王小美", "PERSON")),  # nurses are not physicians
    ("Sandr Lin visited", ("Lin", "PERSON")),  # `dr` inside a word is no title
    ("MDs Lin and Chen", ("Lin", "PERSON")),
    ("王大明 (R2 exam pending)", ("王大明", "PATIENT")),  # a role only alone in its brackets
    ("王大明 (resident of Taipei)", ("王大明", "PATIENT")),
    ("值班護理師 王小美 給藥", ("王小美", "PERSON")),  # the nurse on duty
])
def test_no_physicians_title_or_a_stronger_relation_keeps_the_label(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("周先生表示失眠多日.", ("周", "PATIENT")),  # Mr Chou: no relation said
    ("met Jackson Lee today", ("Lee", "PERSON")),  # `son` ends `Jackson`: not a kinship word
    ("the grandsons of Lee", ("Lee", "PERSON")),
    ("配偶: 彭恆彥", ("彭恆彥", "FAMILY")),  # already FAMILY: nothing to change
    ("Lee, coach of the team", ("Lee", "PATIENT")),  # no article or bracket: not an apposition
    ("Wang (sonographer) read the scan.", ("Wang", "DOCTOR")),  # `son` begins a longer word
    ("陳小明 (friendly) was calm.", ("陳小明", "PATIENT")),
    ("friend: the 台北 trip", ("台北", "CITY")),  # places are not names
    ("師父: 呂勝亞參加.", ("呂勝亞", "PERSON")),  # 父 ends 師父: no one-character kinship field
    ("原子: 王大明", ("王大明", "PATIENT")),
    ("個案孫小明今日出院.", ("孫小明", "PATIENT")),  # 個案 (the case) before the surname 孫
    ("Knok Lee called", ("Lee", "PERSON")),  # NOK only as a word of its own
    ("盧伯伯此次因自言自語入院", ("盧", "PATIENT")),  # a ward addresses an elderly patient so too
    ("室友王大哥來訪", ("王", "PERSON")),  # the word before it decides: a roommate
    ("由劉伯伯醫師看診", ("劉", "DOCTOR")),
])
def test_names_without_a_relation_word_next_to_them_keep_their_label(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found,expected", [
    ("先生盧瑋與大女兒一同來電.", ("生盧瑋", "FAMILY"), ("盧瑋", "FAMILY")),  # the NER cut 先生 in two
    ("plans to visit 阿公 宋瓊美 in May", ("公 宋瓊美", "FAMILY"), ("宋瓊美", "FAMILY")),
    ("7/23 堂妹范雄晉與案姐一同到病房.", ("堂妹范雄晉", "PERSON"), ("范雄晉", "FAMILY")),
    ("由小兒子: 曾佑雄帶來急診.", ("小兒子: 曾佑雄", "PATIENT"), ("曾佑雄", "FAMILY")),
    ("書寫人 程醫師／覆核 劉主任", ("覆核 劉", "DOCTOR"), ("劉", "DOCTOR")),  # the reviewer who co-signs
    ("病程 (103.02.11, 週末值班 高美友)", ("值班 高美友", "PERSON"), ("高美友", "DOCTOR")),
    ("employed by 大女兒 周先生 since May", ("大女兒 周", "PATIENT"), ("周", "FAMILY")),
    ("由社工謝美華聯絡.", ("工謝美華", "PATIENT"), ("謝美華", "PERSON")),
    ("由案妻，王小美陪同.", ("妻，王小美", "PATIENT"), ("王小美", "FAMILY")),  # a comma between
])
def test_a_name_span_drops_the_relation_word_it_starts_with(text, found, expected):
    assert stepped(text, found, "relations") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("王大明今天回診.", ("王大明", "PATIENT")),
    ("老王今天沒來.", ("老王", "PATIENT")),  # 老 before a name, not before a relation word
    ("大明來電.", ("大明", "PATIENT")),
    ("先生:", ("先生", "PATIENT")),  # nothing left after the word: not a name to cut
])
def test_a_name_without_a_relation_word_at_its_start_keeps_its_edges(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


def test_relation_label_reads_both_sides():
    text = "母親：林美玲 and 王大明 (neighbor)"
    assert relation_label(text, 3, 6) == "FAMILY"
    assert relation_label(text, 11, 14) == "PERSON"
    assert relation_label("王大明來院", 0, 3) is None


@pytest.mark.parametrize("text,start,end", [
    ("法院裁定, 監護人為劉鴻恆, 會同開具財產清冊.", 10, 13),
    ("Her legal guardian, Chiang Wei, signed the consent.", 20, 30),
])
def test_a_guardian_may_be_a_relative_or_not(text, start, end):
    # a guardian is a relative as often as not: the word leaves the name's role to other words
    assert relation_label(text, start, end) is None


def test_a_physicians_title_elsewhere_leaves_a_mention_with_an_honorific():
    # `Dr. Chou` and `Mr. Chou` share a surname, not a person: the honorific's mention is no physician
    from spacy_deid.refine.propagate import spread_relations
    text = "S: claims Dr. Chou said so.\nLevel on 5/4, update Mr. Chou by phone.\nChou agreed."
    doc = doc_with_ents(text, [("Chou", "PERSON")], source="ner")
    spans = [doc.char_span(m, m + 4, label="PERSON") for m in (text.index("Chou", 20), text.rindex("Chou"))]
    doc.ents = list(doc.ents) + spans
    for ent in doc.ents:
        ent._.source = "ner"
    assert spread_relations([doc]) == 2
    assert [e.label_ for e in doc.ents] == ["DOCTOR", "PERSON", "DOCTOR"]


def test_a_kinship_word_elsewhere_makes_the_guardian_family():
    from spacy_deid.refine.propagate import spread_relations
    text = "監護人為劉鴻恆, 會同開具財產清冊.\n家系圖: 父 劉鴻恆 (歿)"
    doc = doc_with_ents(text, [("劉鴻恆", "PERSON")], source="ner")
    second = text.rindex("劉鴻恆")
    doc.ents = list(doc.ents) + [doc.char_span(second, second + 3, label="PERSON")]
    for ent in doc.ents:
        ent._.source = "ner"
    assert spread_relations([doc]) == 2
    assert [(e.text, e.label_) for e in doc.ents] == [("劉鴻恆", "FAMILY"), ("劉鴻恆", "FAMILY")]


def test_rule_spans_keep_their_label_beside_a_kinship_word():
    text = "母親：林美玲"
    doc = doc_with_ents(text, [("林美玲", "PATIENT")], source="rule")
    assert apply_span_repair(doc, text, by_relation) == 0


@pytest.mark.parametrize("text,found,expected", [
    ("越南籍配偶, 中文溝通可, 由阿公 高振宏翻譯.", ("阿公 高振宏", "HOSPITAL"), ("高振宏", "FAMILY")),
    ("08/25 大女兒蕭海恆與阿公蕭晨勳一同電話關心.", ("阿公蕭晨勳", "GENERAL_BUSINESS"), ("蕭晨勳", "FAMILY")),
    ("from Sri Lanka, employed by 大哥 Ni Sheng-Yu since 2197.", ("大哥 Ni Sheng-Yu", "GENERAL_BUSINESS"),
     ("Ni Sheng-Yu", "FAMILY")),
    ("由社工 王小美陪同", ("社工 王小美", "LOCATION"), ("王小美", "PERSON")),
])
def test_a_place_span_that_starts_with_a_relation_word_is_the_person_after_it(text, found, expected):
    assert stepped(text, found, "relations") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("住在老師家附近", ("老師家", "LOCATION")),  # no name after the word
    ("去阿姨家的夜市", ("阿姨家的夜市", "MARKET")),
    ("在大同國小", ("大同國小", "SCHOOL")),
])
def test_a_place_span_without_a_relation_word_and_a_name_stays(text, found):
    assert stepped(text, found, "relations") == (0, [found])


def test_repairs_run_in_order_and_count_per_repair():
    text = "10.22至童綜合醫院急診, 配偶: 彭恆彥陪同。"
    doc = doc_with_ents(text, [("至童綜合", "CITY"), ("彭恆彥", "PERSON")])
    # the preposition goes, then the type word makes it a hospital; the name becomes FAMILY
    assert repair_ner_spans(doc) == {"joined_institutions": 0, "edges": 1, "jurisdictions": 0,
                                     "institutions": 1, "departments": 0, "workplaces": 0, "care_or_study": 0,
                                     "titles": 0, "relations": 1, "apposition": 0, "not_phi": 0}
    assert ents_of(doc) == [("童綜合醫院", "HOSPITAL"), ("彭恆彥", "FAMILY")]


def test_cost_grows_linearly_with_the_number_of_spans():
    def run(n: int) -> None:
        text = "曾至門諾戒酒, 配偶: 彭恆彥。" * n
        doc = spacy_deid.blank().make_doc(text)
        spans, pos = [], 0
        for _ in range(n):
            a = text.index("至門諾戒酒", pos)
            b = text.index("彭恆彥", pos)
            spans += [doc.char_span(a, a + 5, label="HOSPITAL"), doc.char_span(b, b + 3, label="PERSON")]
            pos = b + 3
        doc.ents = spans
        repair_ner_spans(doc)

    assert_linear(run, 2000)


@pytest.mark.parametrize("text,found,label", [
    # the relation word after a copula: `X is the patient's sister`, `X為病人之子`
    ("王美玲是病人的姊姊，目前與病人同住。", ("王美玲", "PATIENT"), "FAMILY"),
    ("邱志強為病人之子，負責簽署同意書。", ("邱志強", "PERSON"), "FAMILY"),
    ("Sarah is the patient's twin sister.", ("Sarah", "PERSON"), "FAMILY"),
    ("Mary Collins, who is the patient's daughter, signed.", ("Mary Collins", "PERSON"), "FAMILY"),
    ("張雅婷為其鄰居，於樓梯間發現病人。", ("張雅婷", "DOCTOR"), "PERSON"),
    ("張雅惠 is the 個管師 in charge of this case.", ("張雅惠", "DOCTOR"), "PERSON"),
    # a relative of someone else is no relative of the patient; a relative's relative is
    ("Her friend Angela's mother, Mrs. Kuo, drove her.", ("Kuo", "FAMILY"), "PERSON"),
    ("病人的同學簡子涵之母親游淑惠發現病人。", ("游淑惠", "FAMILY"), "PERSON"),
    ("Pt 的 classmate 的哥哥 方立偉 drove her home.", ("方立偉", "FAMILY"), "PERSON"),
    ("案兄的妻子羅佳玲每日送餐。", ("羅佳玲", "PERSON"), "FAMILY"),
    ("the patient's mother, Mrs. Kuo, called.", ("Kuo", "PERSON"), "FAMILY"),
    # `named`, a doctor who is a relative, a bare apposition before a comma, a role title after a name
    ("案姊名叫吳佩君，住在台中。", ("吳佩君", "PATIENT"), "FAMILY"),
    ("His brother, Dr. Steven Kuei, requested the chart.", ("Steven Kuei", "DOCTOR"), "FAMILY"),
    ("Informant: Tsai Ming-Hui, neighbor, who found the patient.", ("Tsai Ming-Hui", "DOCTOR"), "PERSON"),
    ("Ms. Cheng, a hospital volunteer, accompanied the patient.", ("Cheng", "PATIENT"), "PERSON"),
    ("陳老師為病人國中導師。", ("陳", "FAMILY"), "PERSON"),
    ("王牧師每週至病房探視。", ("王", "DOCTOR"), "PERSON"),
    # the relation word, then a copula, then the name; a one-character kinship word alone in brackets;
    # an English relation word, then the name in brackets
    ("Her nearest relative is Wang Shu-Fen, who lives in Tainan.", ("Wang Shu-Fen", "PERSON"), "FAMILY"),
    ("His next of kin is Lee Mei-Hua.", ("Lee Mei-Hua", "DOCTOR"), "FAMILY"),
    ("病人的太太是張淑芬, 每週來探視.", ("張淑芬", "PERSON"), "FAMILY"),
    ("其母為林美玲。", ("林美玲", "PATIENT"), "FAMILY"),
    ("Her case manager was Ms. Yang Hui-Ru.", ("Yang Hui-Ru", "FAMILY"), "PERSON"),
    ("Angela's mother is Mrs. Kuo.", ("Kuo", "FAMILY"), "PERSON"),
    ("聯絡窗口／林志明（兄）／0933-222-111", ("林志明", "DOCTOR"), "FAMILY"),
    ("緊急聯絡人: 陳美玲(母) 0912-345-678", ("陳美玲", "PERSON"), "FAMILY"),
    ("Dad (Chien-Ming) called twice this week.", ("Chien-Ming", "PERSON"), "FAMILY"),
])
def test_a_relation_said_further_from_the_name(text, found, label):
    assert repaired(text, found, by_relation) == (1, [(found[0], label)])


@pytest.mark.parametrize("text,found", [
    ("陳美玲是子宮肌瘤術後。", ("陳美玲", "PATIENT")),  # 是 + 子 of 子宮: no son without an owner
    ("王大明是女性, 45歲", ("王大明", "PATIENT")),
    ("Chen is sonographer today", ("Chen", "DOCTOR")),
    ("Lee, coach of the team", ("Lee", "PATIENT")),  # no comma after the word: a list, not an apposition
    ("陳美玲(子宮肌瘤術後)", ("陳美玲", "PATIENT")),  # one kinship character only alone in its brackets
    ("王大明 (女) 45歲", ("王大明", "PATIENT")),  # 女 is her sex here, not a daughter
    ("His son is 12; Lin Mei-Hua visited", ("Lin Mei-Hua", "PATIENT")),  # the copula's word is a number
])
def test_no_relation_said_keeps_the_label(text, found):
    assert repaired(text, found, by_relation) == (0, [found])


@pytest.mark.parametrize("text,found,expected", [
    ("Lived in Utah, return to Taiwan.", ("Taiwan.", "COUNTRY"), ("Taiwan", "COUNTRY")),
    ("ID A123456789。", ("A123456789。", "ID_NUMBER"), ("A123456789", "ID_NUMBER")),
])
def test_a_trailing_punctuation_token_leaves_any_ner_span(text, found, expected):
    assert stepped(text, found, "edges") == (1, [expected])


@pytest.mark.parametrize("text,found,expected", [
    ("家屬報警後在Central Park橋上尋獲.", ("Central Park橋", "CITY"), ("Central Park", "CITY")),
    ("2107/01/05 病人情緒穩定, HUNG-HSIUNG LIU同意外出", ("HUNG-HSIUNG LIU同", "DOCTOR"), ("HUNG-HSIUNG LIU", "DOCTOR")),
    ("家屬報警後在TAICHUNG PRISON橋上尋獲.", ("TAICHUNG PRISON橋", "LOCATION"), ("TAICHUNG PRISON", "LOCATION")),
])
def test_an_english_name_ends_where_chinese_begins(text, found, expected):
    assert stepped(text, found, "edges") == (1, [expected])


@pytest.mark.parametrize("text,found", [
    ("週末常去SOGO百貨購物", ("SOGO百貨", "GENERAL_BUSINESS")),  # a company's Chinese type word
    ("2019年May入院", ("年May", "DATE")),  # dates are the date finder's
    ("陳Ya-Mei來訪", ("陳Ya-Mei", "PERSON")),  # Chinese into Latin: a name may be written so
    ("轉診單: 神經 內科", ("神經 內科", "DEPARTMENT")),  # a department keeps its own words
    ("王 大明來訪", ("王 大明", "PERSON")),  # no department after the space
    ("接種A型肝炎疫苗", ("型肝炎", "PERSON")),  # the seam is before the span, not in it
])
def test_other_script_changes_stay(text, found):
    assert stepped(text, found, "edges") == (0, [found])


@pytest.mark.parametrize("text,found", [
    ("He lives on Ocean Dr.", ("Ocean Dr.", "STREET")),
    ("He lives on Sec. 3, Minquan W. Rd.", ("Minquan W. Rd.", "STREET")),  # `Rd` and `.` are two tokens
    ("She works at Acme Co.", ("Acme Co.", "GENERAL_BUSINESS")),
])
def test_the_period_of_an_abbreviation_stays(text, found):
    assert stepped(text, found, "edges") == (0, [found])
