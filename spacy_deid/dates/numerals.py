"""Chinese numerals as written in Taiwanese dates, both ways.

Two systems occur and a surrogate must keep the one it replaces:
- positional (數字逐位): one character per digit, `一一〇` = 110, `二〇二一` = 2021; the zero is `〇`, `零`
  or the look-alike `○` typed from a symbol palette, and which one was used is part of the format;
- counted (大寫位值): `十二` = 12, `二十五` = 25, `一百一十` = 110, `一百零五` = 105.
"""
from typing import Optional, Tuple

DIGITS = {"〇": 0, "零": 0, "○": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
          "八": 8, "九": 9, "兩": 2}
ZERO_CHARS = "〇零○"
_DIGIT_CHARS = "〇一二三四五六七八九"
UNITS = {"十": 10, "百": 100, "千": 1000}
# Characters that can occur in a Chinese numeral of a date (used to build candidate regexes).
NUMERAL_CHARS = "〇零○一二三四五六七八九十百千兩"


def parse_positional(text: str) -> Optional[Tuple[int, str]]:
    """`一一〇` -> (110, '〇'): the value and the zero character the writer used ('' if none)."""
    if not text or any(ch not in DIGITS or ch == "兩" for ch in text):
        return None
    zero = ""
    value = 0
    for ch in text:
        if ch in ZERO_CHARS:
            if zero and zero != ch:
                return None  # mixed zero characters: not a consistent numeral
            zero = ch
        value = value * 10 + DIGITS[ch]
    return value, zero


def parse_counted(text: str) -> Optional[int]:
    """`一百零五` -> 105, `十二` -> 12, `二千零二十一` -> 2021; None when malformed."""
    if len(text) == 1 and text in DIGITS and text not in ZERO_CHARS and text != "兩":
        return DIGITS[text]  # 五 (May), 三 (the 3rd): a single digit is the counted form too
    if not text or not any(ch in UNITS for ch in text):
        return None
    total = 0
    digit: Optional[int] = None
    last_unit = 10_000
    zero_pending = False
    for ch in text:
        if ch in UNITS:
            unit = UNITS[ch]
            if unit >= last_unit:
                return None  # units must fall: 一百一十, never 十百
            if digit is None:
                if unit != 10 or total:
                    return None  # a bare 十 only leads (十二); 一百十 is written 一百一十
                digit = 1
            total += digit * unit
            digit = None
            last_unit = unit
            zero_pending = False
        elif ch in DIGITS:
            if ch in ZERO_CHARS:
                if zero_pending or digit is not None or not total:
                    return None
                zero_pending = True
                continue
            if digit is not None:
                return None  # two digits in a row belong to a positional numeral
            digit = DIGITS[ch]
        else:
            return None
    if digit is not None:
        if zero_pending:
            pass  # 一百零五: the digit is units
        elif last_unit > 10 and total:
            return None  # 一百五 (colloquial 150) is not a date numeral; refuse rather than guess
        total += digit
    elif zero_pending:
        return None
    return total


def render_positional(value: int, zero: str = "〇", width: int = 0) -> str:
    """110 -> `一一〇`; width pads with the zero character (`〇九九`)."""
    if value < 0:
        raise ValueError("negative numbers have no positional Chinese form here")
    digits = str(value).rjust(width, "0")
    return "".join(zero if d == "0" else _DIGIT_CHARS[int(d)] for d in digits)


def render_counted(value: int) -> str:
    """12 -> `十二`, 25 -> `二十五`, 110 -> `一百一十`, 105 -> `一百零五`, 2021 -> `二千零二十一`."""
    if not 0 < value < 10_000:
        raise ValueError("counted Chinese numerals are rendered for 1..9999 only")
    if value < 10:
        return _DIGIT_CHARS[value]
    if value < 20:
        return "十" + (_DIGIT_CHARS[value - 10] if value > 10 else "")
    out = []
    started = False
    zero_gap = False
    for unit, char in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d = value // unit % 10
        if d:
            if zero_gap:
                out.append("零")
                zero_gap = False
            out.append(_DIGIT_CHARS[d] + char)
            started = True
        elif started:
            zero_gap = True
    return "".join(out)


def parse_numeral(text: str) -> Optional[Tuple[int, str]]:
    """Any date numeral -> (value, style). Styles: `n` Arabic (caller handles padding), `zp<zero>`
    positional Chinese, `zc` counted Chinese."""
    if text.isascii() and text.isdigit():
        return int(text), "n"
    counted = parse_counted(text)
    if counted is not None:
        return counted, "zc"
    positional = parse_positional(text)
    if positional is not None:
        value, zero = positional
        return value, "zp" + (zero or "〇")
    return None
