"""Numbers that look like PHI and are not: clock times and amounts with a unit.

WHY: annotation.md keeps times of day, doses and measured values out of PHI, and nursing notes are
full of both (`hung at 2045`, `at 1200 units/hr`, `drip at 50 mcg/hr`, `from 2300 to 0600`). Four
digits are a year to a model trained on dates (`since 2019`), and a number in a name-like slot is
an age or a room to it; the date finder's vetoes and the NER span checks (`spanshape`) ask the
questions here, written from general clinical writing, not from any evaluation corpus.

Every pattern is anchored at one end and bounded: a constant amount of work per number.
"""
import re

# A unit written right after an amount (`650 mg`, `50 mcg/hr`, `1200 kcal`, `40 mEq`, `3顆`): what
# stands before it is a measured amount. Not the age words (`歲`, `y/o`), not `號`/`床` (house and bed
# numbers are PHI), not `次` (a count of times is no PHI either, but `2次` is no age or room the
# model would call one).
MEASURE_UNITS = (
    r"tabs?|tablets?|caps?|capsules?|mg|mcg|ug|µg|g|gm|kg|ml|cc|mmhg|mmol|meq|mm|cm|%|pcs?|amps?|vials?|"
    r"puffs?|drops?|gtt|units?|iu|bpm|kcal|cal|°|℃|度|顆|錠|粒|包|支|瓶|片|劑|毫克|毫升|公斤|公克|公分|mg/dl")
# Things counted (`1 ppd`, `2-3 glasses`, `3 meals`, `2/2 sets`): no age, date or room is followed by one.
COUNT_WORDS = (r"ppd|packs?|pks?|cigarettes?|cigs?|cups?|glasses|bottles?|cans?|beers?|drinks|meals?|"
               r"servings?|portions?|doses?|sessions?|times|sets|specimens?|samples?|attempts?")
# What a fraction counts (`1/2 ppd`, `3/4 cups`, `6/7 hours`, `2/3 days`): a date is never followed by
# one of these, a portion or a range of them is. (Spans ask only for units and counts: `45 years`,
# `3 days old` are ages.)
AMOUNT_WORDS = r"hrs?|hours?|h|mins?|minutes?|days?|wks?|weeks?|months?|yrs?|years?|" + COUNT_WORDS

# New Taiwan dollars written right after the amount (`現金2000元`); not 元月 (January), 元旦, 元宵.
_MONEY_AFTER = r"元(?![月旦宵])"
_UNIT_AFTER = re.compile(r"(?i:[ ]?(?:" + MEASURE_UNITS + "|" + COUNT_WORDS + r")(?![A-Za-z])|" + _MONEY_AFTER + ")")
_NUMBER = r"[0-9]{1,7}(?:\.[0-9]{1,4})?"
# A number or a range of numbers (`2-3`, `4~5`) that a unit or count may follow.
_NUMBER_OR_RANGE = re.compile(_NUMBER + r"(?:[ ]?[-~～–][ ]?" + _NUMBER + ")?")
_AMOUNT = re.compile(_NUMBER + r"(?i:[ ]?(?:" + MEASURE_UNITS + r"))")

# HHMM on a 24-hour clock.
_HHMM = r"(?:[01][0-9]|2[0-3])[0-5][0-9]"
_CLOCK = re.compile(_HHMM)
# Words a time of day stands after (`at 2045`, `@ 1400`, `晚上 2300`) or before (`2200 hrs`, `2300時`,
# `2330 入睡`).
_CLOCK_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?i:at)[ ]?|@[ ]?|(?:上午|下午|晚上|早上|凌晨|中午|清晨|傍晚|晚間|夜間|半夜|午夜|今早|今晚|昨晚|早晨)"
    r"[ ]?(?:約|大約)?[ ]?)$")
# Sleep and waking are told by the clock in nursing notes (`2330 入睡`, `0530醒來`); a year is not.
_CLOCK_AFTER = re.compile(r"[ ]?(?:(?i:hrs?|hours|h|o'?clock)(?![A-Za-z])|[時点點]|入睡|就寢|睡著|醒來|起床|上床)")
# The other end of a shift written with a leading zero (`2300 to 0600`, `0700-1900`): years have none.
_RANGE_SEP = r"[ ]?(?:-|–|~|～|(?i:to)|至|到)[ ]?"
# Four digits that are a clock reading whatever stands beside them: a leading zero (`0600`; the
# finder's years start at 1800, and MMDD is no form of the guide) or 2400 (midnight at a shift's end,
# past the finder's last year).
_ZERO_CLOCK = r"(?:0[0-9][0-5][0-9]|2400)"
_UNMISTAKABLE_CLOCK = re.compile(_ZERO_CLOCK)
_PARTNER_AFTER = {zero: re.compile(_RANGE_SEP + (_HHMM if zero else _ZERO_CLOCK) + r"(?![0-9])")
                  for zero in (False, True)}
_PARTNER_BEFORE = {zero: re.compile(r"(?<![0-9])" + (_HHMM if zero else _ZERO_CLOCK) + _RANGE_SEP + r"$")
                   for zero in (False, True)}
_CONTEXT = 12


# A number of years right after what makes it a length of time in Chinese (`上班22年`, `結婚 20 年`,
# `做過 3 年`, `喝了 10 年`): an aspect particle (過, 了) or a verb that lasts (working, marriage,
# living together, a sentence, a habit). A year of the Minguo calendar is written before the event
# (`89年結婚`, `於89年`), not after it. Approximations (`約`, `近`) are left out: `約89年開始飲酒` is a year.
_DURATION_VERB_BEFORE = re.compile(
    r"(?:[過了]|上班|工作|任職|就業|執業|開業|務農|當兵|服役|服刑|坐牢|結婚|離婚|分居|同居|交往|居住|定居|"
    r"吸菸|抽菸|喝酒|飲酒|酗酒|吸毒|失業)[ ]?$")
_YEARS = re.compile(r"[0-9]{1,3}[ ]?年")


def years_of_duration(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a number of years (`22年`, `20 年`) that a verb of lasting or an aspect
    particle stands right before (`在中鋼上班[22年]`, `結婚 [20 年]`)? A duration, not a date."""
    return (_YEARS.fullmatch(text, start, end) is not None
            and _DURATION_VERB_BEFORE.search(text, max(0, start - 3), start) is not None)


def clock_time(text: str, start: int, end: int) -> bool:
    """Is text[start:end] four digits that read as HHMM in a time-of-day context (`at 2045`,
    `2200 hrs`, `晚上 2300`, `2300 to 0600`)? A year has none of these beside it. In a range, one
    end has to have a leading zero (`1900-0700`, `0600` in `2300 to 0600`): `2019-2021` are years."""
    if (end - start != 4 or _CLOCK.fullmatch(text, start, end) is None
            or (start > 0 and "0" <= text[start - 1] <= "9") or (end < len(text) and "0" <= text[end] <= "9")):
        return False  # not HHMM, or part of a longer number
    left = text[max(0, start - _CONTEXT):start]
    zero = text[start] == "0"
    return (_CLOCK_BEFORE.search(left) is not None or _PARTNER_BEFORE[zero].search(left) is not None
            or _CLOCK_AFTER.match(text, end) is not None or _PARTNER_AFTER[zero].match(text, end) is not None)


def hhmm(text: str) -> bool:
    """Is `text` four digits that read as a reading of a 24-hour clock (`0600`, `1900`, `2359`)?"""
    return _CLOCK.fullmatch(text) is not None


def unmistakable_clock(text: str) -> bool:
    """Is `text` four digits that no year is written as (`0600`, `2400`)?"""
    return _UNMISTAKABLE_CLOCK.fullmatch(text) is not None


def unit_after(text: str, end: int) -> bool:
    """Does a unit of measure or a thing counted follow text[:end] (`50| mcg/hr`, `3|顆`, `2-3| glasses`)?"""
    return _UNIT_AFTER.match(text, end) is not None


def is_number_or_range(text: str) -> bool:
    """Is `text` a number or a range of two (`50`, `37.5`, `2-3`), nothing else?"""
    return _NUMBER_OR_RANGE.fullmatch(text) is not None


def is_amount(text: str) -> bool:
    """Is `text` a number with its unit and nothing else (`76mmHg`, `50 mg`, `98%`)?"""
    return _AMOUNT.fullmatch(text) is not None
