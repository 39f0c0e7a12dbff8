"""Emergency and public hotline numbers that a note tells someone to dial are no one's PHI.

WHY: a PHONE is PHI because it reaches a person (annotation.md's ID category; HIPAA's telephone
numbers "of the individual or of relatives, employers or household members"). `call 911`, `撥打安心專線
1925`, `生命線1995` or `撥113保護專線` name a public service that everyone shares and that reaches no one
in particular. A NER that never saw one reads it by its digits: `1995` a year (DATE), `113` a ROOM.

Only a number on the list below, with a dialling or hotline word right before it (`call`, `dial`,
撥打, 撥, 打, 報警, a hotline's name ending in 專線, 熱線 or 生命線, `hotline`) or a hotline word right
after it (`113保護專線`, `110報警`, `988 crisis line`), is judged: `1995`, `1980` and `110` alone are also
years (民國110年), and `113` alone a room. The numbers are general knowledge:
- Taiwan: 110 police, 112 mobile emergency, 113 protection hotline, 119 fire and ambulance,
  165 anti-fraud, 1922 epidemic prevention, 1925 安心專線 (suicide prevention), 1950 consumer protection,
  1955 labour, 1957 welfare, 1966 long-term care, 1980 張老師, 1995 生命線, 1999 city hotline;
- elsewhere: 911, 988 (US crisis line), 999, 000.
"""
import re

from .han import HAN_RANGES

PUBLIC_SERVICE_NUMBERS = frozenset({
    "110", "112", "113", "119", "165", "1922", "1925", "1950", "1955", "1957", "1966", "1980", "1995",
    "1999", "911", "988", "999", "000",
})
# A dialling or hotline word, then at most a hotline's name and a space or colon, right before the number.
_CUE_BEFORE = re.compile(r"(?:(?i:(?<![A-Za-z])(?:call(?:ed|ing|s)?|dial(?:ed|ing|led|ling|s)?|hotline|"
                         r"helpline|lifeline)(?:[ ]+(?:the[ ]+)?(?:number[ ]+)?)?)"
                         r"|撥打|撥|打|致電|報警|報案|專線|熱線|生命線)[ ]?[:：]?[ ]?$")
# A hotline word right after the number (`113保護專線`, `988 crisis line`).
_CUE_AFTER = re.compile(f"[ ]?(?:[{HAN_RANGES}]{{0,4}}(?:專線|熱線)|報警|報案|求救|求助)"
                        r"|[ ](?i:(?:crisis[ ]|suicide[ ])?(?:hotline|helpline|lifeline|line))(?![A-Za-z])")
_WINDOW = 24


def public_service_number(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a public service number that the note says to dial (module docstring)?"""
    if text[start:end] not in PUBLIC_SERVICE_NUMBERS:
        return False
    return (_CUE_BEFORE.search(text, max(0, start - _WINDOW), start) is not None
            or _CUE_AFTER.match(text, end) is not None)
