"""Chinese lines as turns of a spoken consultation, in the register of Taiwan Mandarin transcripts.

Why: the mix's Chinese lines are written online consultations, so the NER never saw speech: a speaker's role
opening a turn (`醫師：`), openers and fillers (`阿`, `欸`, `那個`), sentence particles (`啦`, `喔`, `齁`), short
answers (`對對對`) and a trailing `……`. Mix W taught it nicknames (`阿玲`, `小美`) and names that open a turn;
with no `阿` that is a filler, it took a filler and the next characters for a name, and the character after a
role opening a turn for a physician's. Written for this project from general knowledge of spoken Taiwan
Mandarin; no line or word list is read from any evaluation corpus. Nothing here is PHI: a turn's words are
plain text, and the people in it are the template slots the line already holds.

Said aloud, people are named far less often than the written frames name them: a speaker says `你` and `他`, and
seldom opens a turn with the listener's name, so a turn frames names at VOCATIVE_SHARE and PRONOUN_FRAME_SHARE
(mix Z2 named 15 % of turns' openings and 90 % of their pronouns, and its NER took a turn's first word for a
name). A transcript writes the numbers said in characters (`燒到三十八度`, `百分之九十`, `一天三次`); the mix's
Chinese lines hold no number at all, so its NER read every spoken numeral as a date. QUANTITY_SHARE of the turns
are a measured value, a dose, a schedule, a duration or a time of day (none PHI, annotation.md) or an age (its
number an AGE span).

A place, a workplace or a job is said as a short answer to a question (`醫師：你住哪裡？民眾：{DISTRICT_ZH}那邊啦。`), at
ANSWER_SHARE after a turn: alone in its turn, with no frame around it to say what it is.
"""
import re
from random import Random
from typing import List, Tuple

from ..dates.numerals import render_counted
from ..han import HAN_RANGES
from .slots import Piece

# Who speaks, as a transcript writes the role before a colon; physicians most often.
SPEAKERS = ("醫師", "醫師", "醫師", "醫生", "病人", "患者", "家屬", "護理師", "個管師", "民眾", "藥師")
COLONS = ("：", "：", ":")
# Said at a turn's or a clause's start, glued to the next word (`阿那他...`) or before a comma.
OPENERS = ("阿", "阿", "啊", "欸", "嘿", "喔", "嗯", "恩", "那", "那個", "對", "對啊", "好", "就是", "然後", "所以",
           "齁", "痾", "哦", "那你", "阿你", "阿那")
# Said before a clause's punctuation (`...正常啦。`).
PARTICLES = ("啦", "喔", "齁", "嘛", "耶", "欸", "啊", "阿", "吧", "捏", "哦", "呢", "唷", "哈")
# A whole turn of assent, doubt or thanks.
SHORT_TURNS = ("對", "對對對", "好", "好好好", "嗯", "嗯嗯", "恩恩", "喔", "喔喔", "是", "是喔", "對啊", "沒有",
               "有", "嘿", "好喔", "了解", "OK", "好的", "謝謝", "真的喔", "這樣喔", "嗯哼", "不會")
OPENER_COMMA_SHARE = 0.5  # `欸，...` rather than `欸...`
TURN_OPENER_SHARE = 0.6
CLAUSE_OPENER_SHARE = 0.15
PARTICLE_SHARE = 0.3
ELLIPSIS_SHARE = 0.1
SHORT_TURN_SHARE = 0.4  # between two turns of one line
MAX_TURNS = 3
VOCATIVE_SHARE = 0.03  # a turn opening with a name (`美玲，...`); backgrounds.VOCATIVE_SHARE for written lines
PRONOUN_FRAME_SHARE = 0.3  # `你`/`他` said as a name; backgrounds.PRONOUN_FRAME_SHARE for written lines
QUANTITY_SHARE = 0.3  # after a turn, a turn saying a number
_CLAUSE_END = re.compile(f"(?<=[{HAN_RANGES}])([，。？！,?!])")
_CLAUSE_START = re.compile(f"(?<=，)(?=[{HAN_RANGES}])")
_TURN_END = re.compile(r"[。？！…?!」]$")
_OPEN_MARKS = ("，", ",", "；", ";", "、", "：")


def particles(rng: Random, text: str) -> str:
    """A written clause as it is said: a particle before its punctuation, a filler after a comma, `……`."""
    def end(m: "re.Match[str]") -> str:
        mark = m.group(1)
        if mark == "。" and rng.random() < ELLIPSIS_SHARE:
            mark = "……"
        return (rng.choice(PARTICLES) if rng.random() < PARTICLE_SHARE else "") + mark

    def start(_: "re.Match[str]") -> str:
        return _opener(rng) if rng.random() < CLAUSE_OPENER_SHARE else ""
    return _CLAUSE_START.sub(start, _CLAUSE_END.sub(end, text))


def _opener(rng: Random) -> str:
    return rng.choice(OPENERS) + ("，" if rng.random() < OPENER_COMMA_SHARE else "")


def speaker(rng: Random) -> str:
    return rng.choice(SPEAKERS) + rng.choice(COLONS)


def turn(rng: Random, pieces: List[Piece]) -> List[Piece]:
    """`醫師：欸，` before a line's pieces, and a full stop after it where it ended mid-sentence. A turn that opens
    with a name takes the opener's comma, so that a filler is never glued to it."""
    opens_with_name = bool(pieces) and pieces[0][1] is not None
    head = speaker(rng)
    if rng.random() < TURN_OPENER_SHARE:
        head += (rng.choice(OPENERS) + "，") if opens_with_name else _opener(rng)
    out: List[Piece] = [(head, None, None)] + list(pieces)
    last = out[-1][0]
    if out[-1][1] is None and last.endswith(_OPEN_MARKS):
        out[-1] = (last[:-1] + "。", None, None)
    elif not _TURN_END.search(last):
        out.append(("。", None, None))
    return out


def short_turn(rng: Random) -> Piece:
    """`民眾：對對對。`: a turn of one word."""
    return (speaker(rng) + rng.choice(SHORT_TURNS) + rng.choice(("。", "。", "？", "……", "！")), None, None)


def spoken_number(n: int) -> str:
    """1..999 as said and transcribed: `三十八`, `一百四` (140), `一百零五`, `兩百`."""
    said = render_counted(n)
    if n >= 100:
        if n // 100 == 2:
            said = "兩" + said[1:]
        if n % 100 and n % 10 == 0:
            said = said[:-1]  # the tens said alone: 一百四十 -> 一百四
    return said


def _count(n: int) -> str:
    """A count before a measure word: `兩顆`, not `二顆`."""
    return "兩" if n == 2 else render_counted(n)


def _ranged(r: Random, lo: int, hi: int) -> str:
    return spoken_number(r.randint(lo, hi))


def _about_hours(r: Random) -> str:
    """`三四點`: about three or four o'clock."""
    hour = r.randint(1, 10)
    return f"{render_counted(hour)}{render_counted(hour + 1)}點"


# Values said in a turn, none PHI (vital signs, lab values, doses, schedules, durations, times of day).
QUANTITIES = (
    lambda r: f"燒到{_ranged(r, 37, 40)}度",
    lambda r: f"{_ranged(r, 36, 39)}度{render_counted(r.randint(1, 9))}",
    lambda r: f"血壓{_ranged(r, 90, 190)}",
    lambda r: f"收縮壓{_ranged(r, 90, 190)}，舒張壓{_ranged(r, 50, 110)}",
    lambda r: f"血糖{_ranged(r, 70, 350)}",
    lambda r: f"心跳{_ranged(r, 50, 140)}",
    lambda r: f"百分之{_ranged(r, 5, 99)}",
    lambda r: f"大概{render_counted(r.randint(1, 9))}成",
    lambda r: f"一天{_count(r.randint(1, 4))}次",
    lambda r: f"一次吃{_count(r.randint(1, 3))}顆",
    lambda r: f"每{render_counted(r.choice((4, 6, 8, 12)))}個小時吃一次",
    lambda r: f"{_ranged(r, 12, 72)}小時",
    lambda r: f"吃了{_count(r.randint(1, 8))}個禮拜",
    lambda r: f"{_count(r.randint(1, 11))}個月了",
    lambda r: f"{_count(r.randint(2, 4))}到{render_counted(r.randint(5, 10))}年",
    lambda r: f"已經{_count(r.randint(1, 30))}年了",
    lambda r: f"{r.choice(('早上', '下午', '晚上', '半夜'))}{_count(r.randint(1, 12))}點",
    _about_hours,
    lambda r: f"{_count(r.randint(1, 12))}點半",
    lambda r: f"{_ranged(r, 40, 99)}公斤",
    lambda r: f"{_ranged(r, 145, 185)}公分",
    lambda r: f"{_count(r.randint(1, 5))}毫克",
)
# An age said in a turn: the number is an AGE span (annotation.md: `[38]歲`).
AGE_FRAMES = (("他今年", "歲"), ("我今年", "歲了"), ("已經", "歲了"), ("", "歲的時候"), ("他才", "歲"))
AGE_SHARE = 0.15  # of quantity turns


def quantity_turn(rng: Random) -> List[Piece]:
    """`民眾：燒到三十八度喔。`, `家屬：他今年[七十二]歲。`: a turn that says a number."""
    if rng.random() < AGE_SHARE:
        before, after = rng.choice(AGE_FRAMES)
        said: List[Piece] = [(before, None, None), (spoken_number(rng.randint(3, 99)), "AGE", None),
                             (after + rng.choice(PARTICLES + ("",) * 4), None, None)]
        return turn(rng, [p for p in said if p[0]])
    text = rng.choice(QUANTITIES)(rng)
    return turn(rng, [(text + (rng.choice(PARTICLES) if rng.random() < PARTICLE_SHARE else ""), None, None)])


# Questions a clinician asks and the answers they get: the answer's slot (a place, a hospital, a workplace, a job)
# is all its turn holds, with a word of place or work at most (`在`, `那邊`, `做...的`).
QUESTIONS_AND_ANSWERS = (
    (("你住哪裡", "住哪邊", "你家在哪裡", "現在住哪", "你住在哪一區"),
     ("{CITY_ZH}", "{DISTRICT_ZH}", "{CITY_ZH}{DISTRICT_ZH}", "在{CITY_ZH}", "{DISTRICT_ZH}那邊", "住{CITY_ZH}")),
    (("之前在哪裡看的", "在哪一間醫院", "哪家醫院開的", "之前去哪裡看"),
     ("{HOSPITAL_ZH}", "在{HOSPITAL_ZH}", "{HOSPITAL_ZH}那邊", "就{HOSPITAL_ZH}")),
    (("你做什麼工作", "你是做什麼的", "現在在做什麼", "你在哪裡上班"),
     ("{PROFESSION_ZH}", "做{PROFESSION_ZH}的", "在{COMPANY_ZH}上班", "{COMPANY_ZH}")),
    (("去哪裡玩", "去哪裡出差", "之前住在哪裡", "從哪裡回來"),
     ("{COUNTRY_ZH}", "去{COUNTRY_ZH}", "{CITY_ZH}", "{REGION_ZH}那邊", "{COUNTRY_ZH}回來")),
)
ANSWER_SHARE = 0.15  # after a turn, a question and its short answer


def question_and_answer(rng: Random) -> Tuple[List[Piece], str]:
    """(`醫師：你住哪裡？`, `民眾：{DISTRICT_ZH}那邊啦。`): a question turn, and its answer as a template whose slot the
    caller fills."""
    questions, answers = rng.choice(QUESTIONS_AND_ANSWERS)
    question = turn(rng, [(rng.choice(questions) + rng.choice(("？", "？", "?")), None, None)])
    answer = rng.choice(answers) + (rng.choice(PARTICLES) if rng.random() < PARTICLE_SHARE else "")
    return question, answer
