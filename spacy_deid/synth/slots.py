"""Template slots: `{NAME}` in a template is filled by SLOTS[NAME](ctx) -> pieces of text.

A piece is (text, label, norm): label None for plain text (titles, separators, hard negatives), so one
slot can yield several spans with text between them (`[台北市][大安區][忠孝東路三段][27]號`,
`[2223.3]-[2224.9]`, `[8A]-[15]`). Titles and units stay outside spans, as annotation.md requires.
"""
import datetime as _dt
from dataclasses import dataclass
from random import Random
from typing import Callable, Dict, List, Optional, Tuple

from . import dates as D
from .values import INITIALED_SHARE, EnglishName, Name, Patient, Pools

Piece = Tuple[str, Optional[str], Optional[str]]


@dataclass
class Context:
    rng: Random
    pools: Pools
    patient: Patient
    note_date: _dt.date


SLOTS: Dict[str, Callable[[Context], List[Piece]]] = {}


def slot(name: str):
    def register(fn):
        SLOTS[name] = fn
        return fn
    return register


def _one(text: str, label: Optional[str], norm: Optional[str] = None) -> List[Piece]:
    return [(text, label, norm)]


# ---- names --------------------------------------------------------------------------------------
def _name_zh(n) -> str:
    return n.zh


def _name_en(ctx: Context, n) -> str:
    return n.en(ctx.rng)


def _surname_en(ctx: Context, n) -> str:
    if isinstance(n, EnglishName):
        if n.with_initials and ctx.rng.random() < INITIALED_SHARE:
            return n.initialed(ctx.rng)
        s = n.surname
    else:
        s = n.rom_surname
    return s.lower() if ctx.rng.random() < 0.05 else s


def _surname_zh(n) -> str:
    return n.surname if isinstance(n, Name) else n.surname


def _register_name_slots(prefix: str, label: str, getter: Callable[[Context], object]) -> None:
    SLOTS[f"{prefix}_ZH"] = lambda ctx: _one(_name_zh(getter(ctx)), label)
    SLOTS[f"{prefix}_EN"] = lambda ctx: _one(_name_en(ctx, getter(ctx)), label)
    SLOTS[f"{prefix}_SUR_ZH"] = lambda ctx: _one(_surname_zh(getter(ctx)), label)
    SLOTS[f"{prefix}_SUR_EN"] = lambda ctx: _one(_surname_en(ctx, getter(ctx)), label)


def _zh_only(people: list) -> list:
    return [p for p in people if isinstance(p, Name)] or people


_register_name_slots("PATIENT", "PATIENT", lambda ctx: ctx.patient.name)
_register_name_slots("FAMILY", "FAMILY", lambda ctx: ctx.rng.choice(ctx.patient.family))
_register_name_slots("DOCTOR", "DOCTOR", lambda ctx: ctx.rng.choice(ctx.patient.doctors))
_register_name_slots("ATTENDING", "DOCTOR", lambda ctx: ctx.patient.attending)
_register_name_slots("RESIDENT", "DOCTOR", lambda ctx: ctx.patient.resident)
_register_name_slots("PERSON", "PERSON", lambda ctx: ctx.rng.choice(ctx.patient.persons))
SLOTS["PERSON_ZH"] = lambda ctx: _one(ctx.rng.choice(_zh_only(ctx.patient.persons)).zh, "PERSON")
SLOTS["PERSON_SUR_ZH"] = lambda ctx: _one(ctx.rng.choice(_zh_only(ctx.patient.persons)).surname, "PERSON")


@slot("DOCTOR_INIT")
def _doctor_init(ctx: Context) -> List[Piece]:
    return _one(ctx.rng.choice(ctx.patient.doctors).initials(), "DOCTOR")


@slot("DOCTOR_INITS")
def _doctor_inits(ctx: Context) -> List[Piece]:
    """`ydh/ptz`: resident and attending initials in a signature line, two spans."""
    p = ctx.patient
    return [(p.resident.initials(), "DOCTOR", None), ("/", None, None), (p.attending.initials(), "DOCTOR", None)]


@slot("TITLE_ZH")
def _title_zh(ctx: Context) -> List[Piece]:
    return _one("先生" if ctx.patient.name.gender == "M" else ctx.rng.choice(["小姐", "女士"]), None)


@slot("TITLE_EN")
def _title_en(ctx: Context) -> List[Piece]:
    return _one("Mr." if ctx.patient.name.gender == "M" else ctx.rng.choice(["Ms.", "Mrs."]), None)


@slot("SEX_EN")
def _sex_en(ctx: Context) -> List[Piece]:
    return _one("male" if ctx.patient.name.gender == "M" else "female", None)


@slot("SEX_ZH")
def _sex_zh(ctx: Context) -> List[Piece]:
    return _one("男" if ctx.patient.name.gender == "M" else "女", None)


@slot("SEX_LETTER")
def _sex_letter(ctx: Context) -> List[Piece]:
    return _one(ctx.patient.name.gender, None)


@slot("HE")
def _he(ctx: Context) -> List[Piece]:
    return _one("He" if ctx.patient.name.gender == "M" else "She", None)


@slot("HE_ZH")
def _he_zh(ctx: Context) -> List[Piece]:
    return _one("他" if ctx.patient.name.gender == "M" else "她", None)


# ---- age ----------------------------------------------------------------------------------------
SLOTS["AGE"] = lambda ctx: _one(str(ctx.patient.age), "AGE")
SLOTS["AGE_OTHER"] = lambda ctx: _one(str(ctx.rng.randint(1, 95)), "AGE")
SLOTS["AGE_ONSET"] = lambda ctx: _one(str(max(5, ctx.patient.age - ctx.rng.randint(1, 20))), "AGE")


# ---- dates --------------------------------------------------------------------------------------
def _day(ctx: Context, d: _dt.date) -> List[Piece]:
    fmt = ctx.patient.day_format if ctx.rng.random() < 0.6 else D.pick_format(ctx.rng, "day")
    text, norm = D.render(d, fmt, ctx.rng)
    return _one(text, "DATE", norm)


def _prec(ctx: Context, d: _dt.date, precision: str) -> List[Piece]:
    text, norm = D.render(d, D.pick_format(ctx.rng, precision), ctx.rng)
    return _one(text, "DATE", norm)


def _offset(d: _dt.date, days: int) -> _dt.date:
    return d + _dt.timedelta(days=days)


SLOTS["DATE_ADMIT"] = lambda ctx: _day(ctx, ctx.patient.admit)
SLOTS["DATE_DC"] = lambda ctx: _day(ctx, ctx.patient.discharge)
SLOTS["DATE_NOTE"] = lambda ctx: _day(ctx, ctx.note_date)
SLOTS["DATE_FU"] = lambda ctx: _day(ctx, _offset(ctx.patient.discharge, ctx.rng.randint(3, 30)))
SLOTS["DATE_PAST"] = lambda ctx: _day(ctx, _offset(ctx.patient.admit, -ctx.rng.randint(10, 2000)))
SLOTS["DATE_STAY"] = lambda ctx: _day(ctx, _offset(ctx.patient.admit, ctx.rng.randint(
    0, max(0, (ctx.patient.discharge - ctx.patient.admit).days))))
SLOTS["DATE_MONTH"] = lambda ctx: _prec(ctx, _offset(ctx.patient.admit, -ctx.rng.randint(30, 3000)), "month")
SLOTS["DATE_ONSET"] = lambda ctx: _prec(ctx, ctx.patient.onset, ctx.rng.choice(["month", "year"]))
SLOTS["DATE_YEAR"] = lambda ctx: _prec(ctx, _offset(ctx.patient.onset, -ctx.rng.randint(0, 4000)), "year")
SLOTS["DATE_MD"] = lambda ctx: _prec(ctx, _offset(ctx.note_date, ctx.rng.randint(-20, 20)), "month-day")
SLOTS["DATE_MONTH_ONLY"] = lambda ctx: _prec(ctx, _offset(ctx.note_date, -ctx.rng.randint(0, 300)), "month-only")


# US chart shorthand for a past event's date (`9/2/92`, `12/93`, `'92`, `9/2`), as nurses write a history: the
# nursing lines (`nursing.py`) alone use it, so the generated splits keep their formats. Z8 missed such dates in
# nursing notes: the mix held none with a two-digit year, and none in a history's frames. Not `9-2`: with it (Z9) the
# NER read a nurse's ranges (`cvp 8-10`, `rr 10-18`) as dates, 17 of them `9-9` on PhysioNet.
_CHART_DATES: Tuple[Tuple[str, Callable[[_dt.date], List[Piece]]], ...] = (
    ("day", lambda d: [(f"{d.month}/{d.day}/{d.year % 100:02d}", "DATE", None)]),
    ("month", lambda d: [(f"{d.month}/{d.year % 100:02d}", "DATE", None)]),
    ("year", lambda d: [("'", None, None), (f"{d.year % 100:02d}", "DATE", None)]),
    ("month-day", lambda d: [(f"{d.month}/{d.day}", "DATE", None)]),
)


@slot("DATE_CHART_EN")
def _date_chart_en(ctx: Context) -> List[Piece]:
    d = _offset(ctx.patient.admit, -ctx.rng.randint(0, 4000))
    precision, pieces = ctx.rng.choice(_CHART_DATES)
    return [(text, label, D.norm_of(d, precision) if label else None) for text, label, _ in pieces(d)]


@slot("DATE_RANGE")
def _date_range(ctx: Context) -> List[Piece]:
    start = _offset(ctx.patient.onset, ctx.rng.randint(0, 400))
    end = _offset(start, ctx.rng.randint(20, 700))
    (a, an), (b, bn) = D.range_pair(start, end, ctx.rng)
    return [(a, "DATE", an), ("-", None, None), (b, "DATE", bn)]


# ---- places and organisations -------------------------------------------------------------------
def _hospital(ctx: Context) -> dict:
    return ctx.patient.hospital if ctx.rng.random() < 0.5 else ctx.pools.pick(ctx.rng, "hospitals")


@slot("HOSPITAL_ZH")
def _hospital_zh(ctx: Context) -> List[Piece]:
    h = _hospital(ctx)
    return _one(h["zh"] if ctx.rng.random() < 0.5 else h["abbr_zh"], "HOSPITAL")


@slot("HOSPITAL_EN")
def _hospital_en(ctx: Context) -> List[Piece]:
    h = _hospital(ctx)
    r = ctx.rng.random()
    text = h["en"] if r < 0.35 else h.get("code", h["abbr_en"]) if r < 0.5 else h["abbr_en"]
    return _one(text, "HOSPITAL")


@slot("HOSPITAL_AMBIG")
def _hospital_ambig(ctx: Context) -> List[Piece]:
    pairs = ctx.pools.ambiguous_abbreviations()
    if not pairs:
        return _hospital_zh(ctx)
    return _one(ctx.rng.choice(pairs)[0]["abbr_zh"], "HOSPITAL")


@slot("SCHOOL_AMBIG")
def _school_ambig(ctx: Context) -> List[Piece]:
    pairs = ctx.pools.ambiguous_abbreviations()
    if not pairs:
        return _school_zh(ctx)
    return _one(ctx.rng.choice(pairs)[1]["abbr_zh"], "SCHOOL")


def _dept(ctx: Context) -> dict:
    return ctx.patient.department if ctx.rng.random() < 0.5 else ctx.pools.pick(ctx.rng, "departments")


SLOTS["DEPT_ZH"] = lambda ctx: _one(_dept(ctx)["zh"], "DEPARTMENT")
SLOTS["DEPT_EN"] = lambda ctx: _one(_dept(ctx)["en" if ctx.rng.random() < 0.4 else "abbr"], "DEPARTMENT")


@slot("CLINIC_ROOM")
def _clinic_room(ctx: Context) -> List[Piece]:
    n = ctx.rng.randint(1, 60)
    r = ctx.rng.random()
    if r < 0.5:
        return [(f"{n}診", "ROOM", None)]
    if r < 0.8:
        return [(f"第{n}診間", "ROOM", None)]
    return [(f"{ctx.rng.randint(1, 9)}{n:02d}", "ROOM", None)]


SLOTS["WARD"] = lambda ctx: _one(ctx.patient.ward, "ROOM")
SLOTS["BED"] = lambda ctx: _one(ctx.patient.bed, "NUMBER")
SLOTS["WARD_BED"] = lambda ctx: [(ctx.patient.ward, "ROOM", None), ("-", None, None),
                                 (ctx.patient.bed, "NUMBER", None)]
SLOTS["QUEUE_NO"] = lambda ctx: _one(str(ctx.rng.randint(1, 120)), "NUMBER")


def _place_zh(name: str, label: str, getter: Optional[Callable[[Context], dict]] = None):
    SLOTS[f"{name}_ZH"] = lambda ctx: _one((getter(ctx) if getter else ctx.pools.pick(ctx.rng, _LEX[name]))["zh"], label)
    SLOTS[f"{name}_EN"] = lambda ctx: _one((getter(ctx) if getter else ctx.pools.pick(ctx.rng, _LEX[name]))["en"], label)


_LEX = {"CITY": "cities", "STATE": "states", "COUNTRY": "countries", "NATIONALITY": "nationalities",
        "REGION": "regions", "MARKET": "markets", "LOCATION": "locations", "COMPANY": "companies",
        "STREET": "streets", "DISTRICT": "districts", "PROFESSION": "professions", "SCHOOL": "schools"}
_place_zh("CITY", "CITY")
_place_zh("DISTRICT", "CITY")
_place_zh("STREET", "STREET")
_place_zh("STATE", "STATE")
_place_zh("COUNTRY", "COUNTRY")
_place_zh("NATIONALITY", "NATIONALITY")
_place_zh("REGION", "REGION")
_place_zh("MARKET", "MARKET")
_place_zh("LOCATION", "LOCATION")
_place_zh("COMPANY", "GENERAL_BUSINESS",
          lambda ctx: ctx.patient.company if ctx.rng.random() < 0.5 else ctx.pools.pick(ctx.rng, "companies"))
_place_zh("PROFESSION", "PROFESSION",
          lambda ctx: ctx.patient.profession if ctx.rng.random() < 0.6 else ctx.pools.pick(ctx.rng, "professions"))


def _school(ctx: Context) -> dict:
    return ctx.patient.school if ctx.rng.random() < 0.5 else ctx.pools.pick(ctx.rng, "schools")


@slot("SCHOOL_ZH")
def _school_zh(ctx: Context) -> List[Piece]:
    s = _school(ctx)
    return _one(s["zh"] if ctx.rng.random() < 0.5 else s["abbr_zh"], "SCHOOL")


@slot("SCHOOL_EN")
def _school_en(ctx: Context) -> List[Piece]:
    s = _school(ctx)
    return _one(s["en"] if ctx.rng.random() < 0.6 else s["abbr_en"], "SCHOOL")


@slot("ADDRESS_ZH")
def _address_zh(ctx: Context) -> List[Piece]:
    """[台北市][大安區][忠孝東路三段][27]號: address parts are separate spans."""
    p = ctx.patient
    pieces: List[Piece] = []
    if ctx.rng.random() < 0.85:
        pieces.append((p.city["zh"], "CITY", None))
    if ctx.rng.random() < 0.8:
        pieces.append((p.district["zh"], "CITY", None))
    pieces.append((p.street["zh"], "STREET", None))
    if ctx.rng.random() < 0.25:
        pieces.append((f"{ctx.rng.randint(1, 300)}巷", None, None))
    pieces += [(p.house_no, "NUMBER", None), ("號", None, None)]
    return pieces


@slot("ADDRESS_EN")
def _address_en(ctx: Context) -> List[Piece]:
    """No. [27], [Sec. 3, Zhongxiao E. Rd.], [Da'an District], [Taipei City]."""
    p = ctx.patient
    pieces: List[Piece] = [("No. ", None, None), (p.house_no, "NUMBER", None), (", ", None, None),
                           (p.street["en"], "STREET", None)]
    if ctx.rng.random() < 0.7:
        pieces += [(", ", None, None), (p.district["en"], "CITY", None)]
    pieces += [(", ", None, None), (p.city["en"], "CITY", None)]
    return pieces


SLOTS["HOUSE_NO"] = lambda ctx: _one(ctx.patient.house_no, "NUMBER")

# ---- identifiers --------------------------------------------------------------------------------
SLOTS["MRN"] = lambda ctx: _one(ctx.patient.mrn, "MEDICAL_RECORD")
SLOTS["ID_NUMBER"] = lambda ctx: _one(ctx.patient.id_number, "ID_NUMBER")
SLOTS["NIC"] = lambda ctx: _one(ctx.patient.nic, "NIC")
SLOTS["PHONE"] = lambda ctx: _one(ctx.patient.phone, "PHONE")
SLOTS["MOBILE"] = lambda ctx: _one(ctx.patient.mobile, "PHONE")
SLOTS["PHONE_EXT"] = lambda ctx: _one(str(ctx.rng.randint(100, 9999)), "PHONE")
SLOTS["EMAIL"] = lambda ctx: _one(ctx.patient.email, "EMAIL")
SLOTS["URL"] = lambda ctx: _one(ctx.patient.url, "URL")

# ---- hard negatives: look like PHI, are not ------------------------------------------------------
_MEDS = ["Fluoxetine 20mg qd", "Sertraline 50mg qd", "Quetiapine 100mg hs", "Risperidone 2mg bid",
         "Olanzapine 10mg hs", "Lorazepam 0.5mg prn", "Aripiprazole 10mg qd", "Lithium 300mg tid",
         "Valproate 500mg bid", "Zolpidem 10mg hs", "Escitalopram 10mg qd", "Clonazepam 0.5mg bid",
         "Mirtazapine 15mg hs", "Haloperidol 5mg IM st", "Trazodone 50mg hs", "Bupropion 150mg qam"]


@slot("VITALS")
def _vitals(ctx: Context) -> List[Piece]:
    r = ctx.rng
    return _one(f"BP {r.randint(95, 165)}/{r.randint(55, 100)} mmHg, HR {r.randint(55, 120)}/min, "
                f"RR {r.randint(12, 24)}/min, BT {r.randint(355, 382) / 10:.1f}", None)


@slot("LAB")
def _lab(ctx: Context) -> List[Piece]:
    """Lab values, with the counts written in four digits that read as years to a model (`WBC 5400`,
    `ANC 1800`, `CK 2450`): a model that never saw them calls them DATE."""
    r = ctx.rng
    return _one(r.choice([f"Hb {r.randint(90, 160) / 10:.1f}", f"WBC {r.randint(30, 150) / 10:.1f}",
                          f"Na {r.randint(128, 146)}", f"K {r.randint(30, 55) / 10:.1f}",
                          f"TSH {r.randint(2, 60) / 10:.1f}", f"Li level {r.randint(3, 12) / 10:.1f}",
                          f"WBC {r.randint(2500, 15000)}", f"ANC {r.randint(900, 7000)}",
                          f"PLT {r.randint(120, 450)}k", f"CK {r.randint(80, 3500)}",
                          f"TG {r.randint(60, 1600)}", f"BNP {r.randint(20, 2500)}",
                          f"Ferritin {r.randint(15, 2200)}"])
                + f", Cr {r.randint(5, 15) / 10:.1f}", None)


@slot("SCORE")
def _score(ctx: Context) -> List[Piece]:
    r = ctx.rng
    return _one(r.choice([f"MMSE {r.randint(12, 30)}/30", f"MoCA {r.randint(10, 30)}/30", f"PHQ-9 = {r.randint(0, 27)}",
                          f"HAM-D {r.randint(5, 35)}", f"GAF {r.randint(20, 80)}", f"YMRS {r.randint(3, 40)}",
                          f"BPRS {r.randint(18, 80)}", f"CIWA {r.randint(0, 30)}",
                          f"PHQ-9: {r.randint(0, 27)}/27", f"GAD-7: {r.randint(0, 21)}/21",
                          f"BSRS-5 {r.randint(0, 20)}/20", f"CDR {r.choice(['0.5', '1', '2'])}"]), None)


@slot("MED")
def _med(ctx: Context) -> List[Piece]:
    r = ctx.rng
    return _one(r.choice(_MEDS + [f"{r.choice(['Lorazepam', 'Alprazolam', 'Propranolol'])} 1/2 tab prn",
                                  f"Prednisolone {r.choice(['5/4/3', '6/4/2', '4/3/2/1'])} taper",
                                  f"Clozapine {r.choice([25, 50, 100])}mg {r.choice(['1/2', '1', '2'])} tab hs"]), None)


SLOTS["ICD"] = lambda ctx: _one(ctx.rng.choice(["F32.2", "F33.1", "F20.0", "F31.2", "F41.1", "F10.2", "F43.1",
                                                "F60.3", "F25.0", "F42.2", "G47.0", "F03.90"]), None)


@slot("TIME")
def _time(ctx: Context) -> List[Piece]:
    """A time of day, `23:30` or, as nursing notes often write it, `2330`: four digits a model reads as
    a year unless it has seen them as clock readings."""
    r = ctx.rng
    hour, minute = r.randint(0, 23), r.choice([0, 10, 15, 20, 30, 40, 45, 50])
    return _one(f"{hour:02d}{minute:02d}" if r.random() < 0.3 else f"{hour:02d}:{minute:02d}", None)


SLOTS["YEARS"] = lambda ctx: _one(str(ctx.rng.randint(1, 30)), None)
SLOTS["COUNT"] = lambda ctx: _one(str(ctx.rng.randint(2, 12)), None)


# ---- mention variety: titles, surname-only, given-only, every romanized order ----------------------
_ZH_TITLES = {"M": ["先生", "先生", "伯伯", "大哥"], "F": ["小姐", "女士", "太太", "小姐", "阿姨"]}
_EN_TITLES = {"M": ["Mr.", "Mr.", "Mr"], "F": ["Ms.", "Mrs.", "Miss", "Ms"]}
_DOC_ZH_TITLES = ["醫師", "醫師", "醫生", "主任", "大夫", "教授"]
_DOC_EN_TITLES = ["Dr.", "Dr.", "Dr", "DR.", "Doctor"]


def _given_en(ctx: Context, n) -> str:
    """`Ya-Feng` (or `Yafeng`, `ya-feng`), or an English given name: what friends and staff call people."""
    if isinstance(n, EnglishName):
        return n.given
    g = n.rom_given
    r = ctx.rng.random()
    return g.replace("-", "").capitalize() if r < 0.15 else g.lower() if r < 0.22 else g


def _given_zh(ctx: Context, n) -> str:
    """`美玲`, or a nickname: `阿玲`, `小玲` (family and friends), `小陳`, `老陳` (colleagues, neighbours). Taiwanese
    speech names people this way, and a NER that never saw `小` + a name character took it for a word."""
    if isinstance(n, EnglishName):
        return n.given
    r = ctx.rng.random()
    if r < 0.15:
        return "阿" + n.given[-1]
    if r < 0.3:
        return "小" + n.given[-1]
    if r < 0.36:
        return ("小" if r < 0.33 else "老") + n.surname
    return n.given


def _register_mention_slots(prefix: str, label: str, getter: Callable[[Context], object], doctor: bool = False) -> None:
    def titled_zh(ctx: Context) -> List[Piece]:
        n = getter(ctx)
        if isinstance(n, EnglishName):
            return [(n.surname, label, None), (ctx.rng.choice(_DOC_ZH_TITLES if doctor else ["先生", "小姐"]), None, None)]
        title = ctx.rng.choice(_DOC_ZH_TITLES if doctor else _ZH_TITLES[n.gender])
        text = n.zh if doctor and ctx.rng.random() < 0.4 else n.surname
        return [(text, label, None), (title, None, None)]

    def titled_en(ctx: Context) -> List[Piece]:
        n = getter(ctx)
        title = ctx.rng.choice(_DOC_EN_TITLES if doctor else _EN_TITLES[n.gender])
        text = _surname_en(ctx, n) if ctx.rng.random() < 0.6 else _name_en(ctx, n)
        return [(title, None, None), (" ", None, None), (text, label, None)]

    def any_form(ctx: Context) -> List[Piece]:
        r = ctx.rng.random()
        n = getter(ctx)
        if r < 0.35:
            return _one(_name_zh(n), label)
        if r < 0.6:
            return _one(_name_en(ctx, n), label)
        if r < 0.75:
            return titled_zh(ctx)
        if r < 0.9:
            return titled_en(ctx)
        return _one(_given_en(ctx, n), label)

    def given_surname_en(ctx: Context) -> List[Piece]:
        """`Ying-Yueh Sung`: given name first, one person, one span (`Ms. [Wang Mei-Ling]`)."""
        n = getter(ctx)
        return _one(f"{_given_en(ctx, n)} {_surname_en(ctx, n)}", label)

    SLOTS[f"{prefix}_TITLED_ZH"] = titled_zh
    SLOTS[f"{prefix}_TITLED_EN"] = titled_en
    SLOTS[f"{prefix}_GIVEN_EN"] = lambda ctx: _one(_given_en(ctx, getter(ctx)), label)
    SLOTS[f"{prefix}_GIVEN_ZH"] = lambda ctx: _one(_given_zh(ctx, getter(ctx)), label)
    SLOTS[f"{prefix}_GIVEN_SUR_EN"] = given_surname_en
    SLOTS[f"{prefix}_ANY"] = any_form


_register_mention_slots("PATIENT", "PATIENT", lambda ctx: ctx.patient.name)
_register_mention_slots("FAMILY", "FAMILY", lambda ctx: ctx.rng.choice(ctx.patient.family))
_register_mention_slots("PERSON", "PERSON", lambda ctx: ctx.rng.choice(ctx.patient.persons))
_register_mention_slots("DOCTOR", "DOCTOR", lambda ctx: ctx.rng.choice(ctx.patient.doctors), doctor=True)


# ---- ages in every written form: the number is the span, units and sex letters are not -----------
_AGE_FORMS = [
    ("", "歲", 4), ("", " 歲", 1), ("", "-year-old", 3), ("", " year-old", 1), ("", " years old", 2),
    ("", " y/o", 3), ("", "y/o", 2), ("", "yo", 2), ("", " yo", 1), ("", "y", 1), ("", " y.o.", 1),
    ("", "-yr-old", 1), ("", " yrs", 1), ("Age ", "", 2), ("Age: ", "", 2), ("age ", "", 1), ("年齡: ", "歲", 2),
    ("年齡:", "", 1), ("(", "M)", 1), ("(", "F)", 1), ("", "M", 1), ("", "F", 1), ("", "歲男性", 1),
    ("", "歲女性", 1), ("", "y/o M", 1), ("", "y/o F", 1), ("現年", "歲", 1), ("Age/Sex: ", "/M", 1),
    ("Age/Sex: ", "/F", 1), ("", "足歲", 1), ("今年", "歲", 1),
]


def _age_form(ctx: Context, value: int) -> List[Piece]:
    pre, post, _ = ctx.rng.choices(_AGE_FORMS, weights=[w for _, _, w in _AGE_FORMS])[0]
    return [(pre, None, None), (str(value), "AGE", None), (post, None, None)]


SLOTS["AGE_ANY"] = lambda ctx: _age_form(ctx, ctx.patient.age)
SLOTS["AGE_OTHER_ANY"] = lambda ctx: _age_form(ctx, ctx.rng.randint(1, 95))
SLOTS["AGE_FAMILY"] = lambda ctx: _one(str(ctx.rng.randint(max(1, ctx.patient.age - 35), min(99, ctx.patient.age + 35))), "AGE")

# ---- more hard negatives -----------------------------------------------------------------------
SLOTS["DOSE"] = lambda ctx: _one(ctx.rng.choice([
    f"{ctx.rng.choice([0.25, 0.5, 1, 2])} tab {ctx.rng.choice(['qd', 'bid', 'tid', 'hs', 'prn', 'qid'])}",
    f"{ctx.rng.choice([5, 10, 20, 25, 50, 100, 200])} mg/day", f"{ctx.rng.randint(1, 3)}# hs",
    f"{ctx.rng.choice([1, 2, 3])}/{ctx.rng.choice([2, 3, 4])} tab", f"{ctx.rng.randint(1, 4)}x{ctx.rng.randint(1, 3)}"]), None)
SLOTS["DURATION"] = lambda ctx: _one(ctx.rng.choice([
    f"{ctx.rng.randint(2, 30)} 天", f"{ctx.rng.randint(1, 12)}個月", f"{ctx.rng.randint(1, 20)} years",
    f"x {ctx.rng.randint(2, 14)} days", f"{ctx.rng.randint(1, 8)}週", f"{ctx.rng.randint(2, 30)}y", f"{ctx.rng.randint(1, 11)}m"]), None)
SLOTS["NUMERIC"] = lambda ctx: _one(ctx.rng.choice([
    f"BW {ctx.rng.randint(40, 95)} kg", f"BH {ctx.rng.randint(145, 185)} cm", f"SpO2 {ctx.rng.randint(88, 100)}%",
    f"GCS E{ctx.rng.randint(2, 4)}V{ctx.rng.randint(3, 5)}M{ctx.rng.randint(4, 6)}", f"pain score {ctx.rng.randint(0, 10)}/10",
    f"AC sugar {ctx.rng.randint(80, 250)}", f"HbA1c {ctx.rng.randint(55, 110) / 10:.1f}%", f"QTc {ctx.rng.randint(380, 500)} ms",
    f"體重 {ctx.rng.randint(40, 95)} 公斤", f"血壓 {ctx.rng.randint(95, 170)}/{ctx.rng.randint(55, 100)}"]), None)
