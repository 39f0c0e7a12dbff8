"""A place before the word for a government office is the city or district that office serves.

WHY: Taiwan's (and China's) public offices are named by their jurisdiction and their kind:
`台中地方法院`, `高雄市政府警察局`, `屏東毒品危害防制中心`, `歸仁區公所`, `台南社會局`. A chart names them
when it records a court order, a police report, a welfare placement or a notification
(`據[廣州]警察局筆錄`, `依法通報[屏東]毒品危害防制中心`, `遭[台中]地方法院判緩刑`). annotation.md's
LOCATION labels hold no category for a public office, so the PHI is the place, a CITY. A NER that
reads Chinese one character at a time and has seen few such offices in training runs from the place
into the office's first characters, and often calls the result a person or a school (`[廣州警]`
FAMILY, `[舊金山毒品]` SCHOOL, `[台中地]` SCHOOL): a surrogate then replaces half a word and leaves a
place of the wrong kind. So, for spans the NER found (never rule or date spans):

- a place or name span that runs into an office word (`OFFICE_WORDS_ZH`), whole or in part, from a
  run of two to eight Han characters before it (a city and its district: `[馬尼拉梧棲區]公所`), ends before that word and is a CITY; one that stops
  right before it and was called a name is a CITY too (`[廣州]` FAMILY before 警察局);
- not when the office word goes on into a word for a person (`分局長`, `所長`, `局長`: `[林]分局長` is
  a person), and not when the run before the office word holds a grammatical character (`的`, `到`);
  a district keeps its 區 (`[歸仁區]公所`), and a bare 政府 is no office word (`[蔡英文]政府` names a head of state's government, not a place).
Place labels the NER gave (CITY, STATE, COUNTRY) stand: `[加州]法院` stays a STATE.
"""
from typing import Optional

from spacy.tokens import Doc, Span

from .predicates import name_like
from .labels import ADMINISTRATIVE_LABELS, LOCATION_LABELS, NAME_LABELS

# Public offices named after the city, county or district they serve (facts of Taiwan's government);
# the longest first, so that `地方法院` is read before `法院`.
OFFICE_WORDS_ZH = tuple(sorted("""
警察局 分局 派出所 地方法院 法院 地檢署 地方檢察署 社會局 衛生局 勞工局 教育局 消防局 環保局 稅務局 市政府 縣政府
公所 戶政事務所 地政事務所 衛生所 毒品危害防制中心 家庭暴力防治中心 家防中心 監理站 役政署
""".split(), key=len, reverse=True))
# The longest place before an office word: a city and a district (`馬尼拉梧棲區`, `屏東縣歸仁鄉`).
_LONGEST_PLACE = 8
# After an office word these make it the title of the person who heads it (`分局長`, `所長`).
_HEAD_AFTER = ("長",)


def _office_at(text: str, start: int) -> Optional[str]:
    """The office word that starts at `start`, not going on into a head's title, else None."""
    for word in OFFICE_WORDS_ZH:
        if text.startswith(word, start) and not text.startswith(_HEAD_AFTER, start + len(word)):
            return word
    return None


def jurisdiction_end(text: str, start: int, end: int) -> Optional[int]:
    """Where the place of text[start:end] ends when the span runs into an office word or stops right
    before one, else None."""
    for cut in range(start + 2, min(end, start + _LONGEST_PLACE) + 1):
        if _office_at(text, cut) is not None:
            place = text[start:cut]
            if name_like(place):
                return cut
            return None
    return None


def as_jurisdiction(doc: Doc, text: str, ent: Span, following: Optional[Span] = None) -> Optional[Span]:
    """`ent` as the CITY an office word after it is named by (module docstring), else None."""
    if ent.label_ not in LOCATION_LABELS and ent.label_ not in NAME_LABELS:
        return None
    cut = jurisdiction_end(text, ent.start_char, ent.end_char)
    if cut is None:
        return None
    label = ent.label_ if ent.label_ in ADMINISTRATIVE_LABELS else "CITY"
    if cut == ent.end_char and label == ent.label_:
        return None
    return doc.char_span(ent.start_char, cut, label=label)


__all__ = ["OFFICE_WORDS_ZH", "as_jurisdiction", "jurisdiction_end"]
