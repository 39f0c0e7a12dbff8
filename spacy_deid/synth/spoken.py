"""Chinese lines as turns of a spoken consultation, in the register of Taiwan Mandarin transcripts.

Why: the mix's Chinese lines are written online consultations, so the NER never saw speech: a speaker's role
opening a turn (`醫師：`), openers and fillers (`阿`, `欸`, `那個`), sentence particles (`啦`, `喔`, `齁`), short
answers (`對對對`) and a trailing `……`. Mix W taught it nicknames (`阿玲`, `小美`) and names that open a turn;
with no `阿` that is a filler, it took a filler and the next characters for a name, and the character after a
role opening a turn for a physician's. Written for this project from general knowledge of spoken Taiwan
Mandarin; no line or word list is read from any evaluation corpus. Nothing here is PHI: a turn's words are
plain text, and the people in it are the template slots the line already holds.
"""
import re
from random import Random
from typing import List

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
