"""Titles written right after a Chinese name or surname: honorifics, roles and kinship-like forms of
address (`[葉]醫師`, `[陳]先生`, `[許]老闆`, `[劉]阿姨`).

WHY one list: annotation.md keeps titles outside the name, and four steps read them. `spanshape` keeps
a one-character name that has one after it (`[王]先生`), the `titles` cue rules cut one off the end of a NER span
(`[許老闆]` → `[許]`), and the care-place validator of the rules rejects a "place" that is a titled person
(`由[楊醫師]轉診`). Separate lists had drifted apart, so a title known to one step was unknown to the next.
"""
from typing import Tuple

# A physician's titles: a name with one of them is a DOCTOR (`relations`, the `titles` cue rules).
PHYSICIAN_TITLES_ZH: Tuple[str, ...] = ("醫師", "醫生", "大夫", "主治醫師", "住院醫師", "總醫師", "主治")

# Kinship words said after a surname as a form of address (`[劉]伯伯`, `[曾]阿公`, `[邱]大哥`): what a
# ward calls a patient's relatives (`relations`), and also an elderly patient (`盧伯伯此次因...`).
KIN_ADDRESS_ZH: Tuple[str, ...] = ("大哥", "大姐", "大姊", "伯伯", "伯母", "叔叔", "阿姨", "姑姑", "嬸嬸", "媽媽",
                                   "爸爸", "阿嬤", "阿公")

# Honorifics said after a surname or a name (`[周]先生`, `[林]小姐`): Mr, Miss, Ms, Mrs and Madam, said to
# anyone; a bare surname with one and no word for who the person is reads as a relative (`relations`).
HONORIFICS_ZH: Tuple[str, ...] = ("先生", "小姐", "女士", "太太", "夫人")

# Every title of two or more characters said after a surname, longest first, so that an ending test
# finds 老闆娘 before 老闆.
TITLES_AFTER_NAME_ZH: Tuple[str, ...] = tuple(sorted(set((
    "護理師", "護士", "藥師", "心理師", "治療師", "社工", "個管師",  # other clinical staff
    "老師", "教授", "主任", "院長", "經理", "老闆", "老闆娘", "師傅", "牧師", "律師", "教練", "同學",
    "姊妹", "弟兄",                                              # a church's brothers and sisters
    "社工師", "檢察官", "法官", "警官", "警員", "員警", "教官", "校長", "里長", "村長", "鄰長",  # offices
    "神父", "修女", "法師", "董事長", "總經理", "組長", "課長", "科長", "處長", "局長", "所長", "技師",
    "工程師", "會計師", "秘書", "專員",
) + HONORIFICS_ZH + KIN_ADDRESS_ZH + PHYSICIAN_TITLES_ZH), key=lambda title: (-len(title), title)))

# Titles that name a physician in a hospital's notes besides the physicians' own: a department's head
# and a medical school's professor (`[林]主任`, `[陳]教授`); every other title names someone else.
CLINICAL_HEAD_TITLES_ZH: Tuple[str, ...] = ("主任", "教授")

# One character after a surname that addresses a person (`陳姐`, `林董`, `王某`); only where a name of
# one character is read, never to end a place name (台中榮[總] is a hospital).
TITLE_CHARACTERS_AFTER_NAME_ZH = "姐姊哥伯叔姨姑嫂嬸爺奶媽某董總"
