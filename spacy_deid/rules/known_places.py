"""Where a known place (a phrase-list rule's match) meets a longer NER span that starts with it.

WHY: a NER that reads Chinese one character at a time learns where a place name ends from the words
it saw after places in training; after an unseen word it runs on: `[韓國出差]`, `[上海),]`, `[中央公園安排]`.
The longest-span policy would keep such a span over the exact place. So, before that policy runs, a
NER place span that begins with a known place and goes on with words that do not make a longer name
is dropped, and the known place takes its part:
- what follows the place holds no letter or digit (`上海),`), or
- it is Chinese and its last character ends no name of an organisation or a place (`出差`, `找`,
  `流浪`; but `新加坡中央醫院`, `台北市立萬芳醫院`, `中國醫` keep the NER's span: 院, 醫 end names), and
  the span does not end with an institution's type word (`台中監獄`, `高雄五金行`: `institutions`).
A Latin continuation (`Japan Airlines`) is a name the NER saw whole, and so is a span the NER calls an
organisation (a hospital, school, business, department or market: `基隆長庚`, `台中榮總` are hospitals
named after their city): the NER's span stays.
And a known city or state right before an institution's type word is that institution's name
(`[台中]監獄` → `[台中監獄]` LOCATION, `[台南]醫院`, `[Taipei] Hospital`; `named_institutions`), whether or
not the NER saw it; not a country (`日本公司` is a Japanese company); right before a kind of road, it is
the road's name (`地址台南市[基隆路四段]142號`, `南京東路`: STREET).
"""
import re
from typing import List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span

from ..han import is_han
from ..labels import LOCATION_LABELS, ORGANISATION_LABELS
from ..predicates import type_word_after, type_word_ending

# NER labels a known place gives way to: places, not organisations named after a place.
PLACE_LABELS = LOCATION_LABELS - ORGANISATION_LABELS

# Characters that end names of organisations and places (院 of 醫院, 學 of 大學, 市 of 台北市 ...).
NAME_FINAL = frozenset("院學校司行會科部所局店廠館場園宮寺廟市縣區鄉鎮村里路街巷州省島灣山醫大中小託業團社坊堂"
                       "室處署府心站港城橋樓廈苑莊營隊軍台壽險報航池湖河溪林口洲坡寮")
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def runs_on(rest: str) -> bool:
    """Is `rest`, the part of a NER span after a known place, no part of a longer name?"""
    if not _LETTER_OR_DIGIT.search(rest):
        return True
    letters = [c for c in rest if _LETTER_OR_DIGIT.match(c)]
    if not all(is_han(c) for c in letters):
        return False
    return letters[-1] not in NAME_FINAL


def overrun_ents(doc: Doc, text: str, places: Sequence[Span]) -> List[Span]:
    """The NER entities of `doc` (source "ner" or unset) with a place label that start where a known
    place starts, are longer, and run on past it (`runs_on`)."""
    starts = {}
    for place in places:
        starts.setdefault(place.start_char, place.end_char)
    out = []
    for ent in doc.ents:
        end = starts.get(ent.start_char)
        if (end is not None and ent.end_char > end and ent.label_ in PLACE_LABELS
                and (ent._.source or "ner") == "ner" and runs_on(text[end:ent.end_char])
                and type_word_ending(ent.text) is None):
            out.append(ent)
    return out


__all__ = ["NAME_FINAL", "PLACE_LABELS", "overrun_ents", "runs_on"]


# Labels of known places that institutions are named after (`台中監獄`, `加州大學`); a country before a
# type word is as often a description (`日本公司`, a Japanese company) as a name.
NAMED_AFTER_PLACE_LABELS = frozenset({"CITY", "STATE"})


# A road named after a city or county (`基隆路四段`, `南京東路`, `杭州南路一段`): the kind of road right
# after the place, a direction before it and a section after it; not a word the road's character
# begins (`路上`, `路邊`, `路口`, `路人`, `路線`, `街頭`, `街道`).
_STREET_AFTER_PLACE = re.compile(
    r"[東西南北中]?(?:路(?![上邊過途人線程口旁])|街(?![頭道上坊])|大道)(?:[一二三四五六七八九十]{1,3}段)?")


def street_after(text: str, end: int) -> Optional[Tuple[int, str]]:
    """(end, "STREET") of a road named after the place that ends at `end` (`[基隆]路四段`), else None."""
    m = _STREET_AFTER_PLACE.match(text, end)
    return (m.end(), "STREET") if m is not None else None


def named_institutions(doc: Doc, text: str, places: Sequence[Span]) -> List[Span]:
    """`places` with each city or state right before an institution's type word widened to that
    institution, with the type word's label (`[台中]監獄` → `[台中監獄]` LOCATION, `[台南]醫院` →
    `[台南醫院]` HOSPITAL, `[Taipei] Hospital`), and right before a kind of road widened to that road
    (`[基隆]路四段` → `[基隆路四段]` STREET): a known place the NER did not see as part of a name is
    still the name of what follows it."""
    widened = []
    for span in places:
        found = None
        if span.label_ in NAMED_AFTER_PLACE_LABELS:
            found = type_word_after(text, span.end_char) or street_after(text, span.end_char)
        longer = doc.char_span(span.start_char, found[0], label=found[1]) if found else None
        if longer is not None:
            longer._.source = span._.source
        widened.append(longer if longer is not None else span)
    return widened

