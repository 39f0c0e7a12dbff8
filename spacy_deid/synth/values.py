"""Value pools per split and the synthetic patient: everything a template slot can be filled with.

Every name, place and organisation comes from `spacy_deid.lexicons`, restricted to one split, so a
held-out corpus uses values the training corpus never contains. Identifiers are generated with their
real structure (Taiwan ID checksum, area-coded phones) because recognizers validate structure.
"""
import datetime as _dt
from dataclasses import dataclass, field
from functools import lru_cache
from random import Random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import lexicons
from ..surrogates.shapes import is_han
from . import dates as D

# Taiwan national ID: letter code of the household registration area (A=10 ... Z=33, irregular order).
_ID_LETTER = {"A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15, "G": 16, "H": 17, "I": 34, "J": 18,
              "K": 19, "L": 20, "M": 21, "N": 22, "O": 35, "P": 23, "Q": 24, "R": 25, "S": 26, "T": 27,
              "U": 28, "V": 29, "W": 32, "X": 30, "Y": 31, "Z": 33}
_AREA_CODES = ["02", "02", "02", "03", "037", "04", "04", "049", "05", "06", "07", "07", "08", "089"]
_EMAIL_DOMAINS = ["gmail.com", "yahoo.com.tw", "hotmail.com", "ms1.hinet.net", "outlook.com", "msa.hinet.net"]
_URL_SITES = ["https://www.facebook.com/", "https://www.instagram.com/", "http://blog.xuite.net/",
              "www.facebook.com/", "https://line.me/ti/p/", "https://www.youtube.com/@"]


def taiwan_id_check_digit(letter: str, digits8: str) -> int:
    """Check digit that makes `letter + digits8 + check` a valid Taiwan national ID."""
    code = _ID_LETTER[letter]
    total = code // 10 + (code % 10) * 9 + sum(int(c) * w for c, w in zip(digits8, range(8, 0, -1)))
    return (10 - total % 10) % 10


def is_valid_taiwan_id(value: str) -> bool:
    if len(value) != 10 or value[0] not in _ID_LETTER or not value[1:].isdigit() or value[1] not in "12":
        return False
    return taiwan_id_check_digit(value[0], value[1:9]) == int(value[9])


def make_taiwan_id(rng: Random, gender: str) -> str:
    letter = rng.choice(sorted(_ID_LETTER))
    digits8 = ("1" if gender == "M" else "2") + "".join(rng.choice("0123456789") for _ in range(7))
    return f"{letter}{digits8}{taiwan_id_check_digit(letter, digits8)}"


VALUE_SPLITS = ("train", "heldout")  # lexicon parts; "fresh" and "blind" templates take held-out values


class Pools:
    """Lexicon entries of one split ('train' or 'heldout'), with the weights choices use."""

    def __init__(self, part: str, respell_names: bool = False):
        self.part = part
        # Training corpora only (see `make_name`); evaluation corpora keep lexicon names.
        self.respell_names = respell_names

    @lru_cache(maxsize=None)
    def entries(self, name: str) -> Tuple[Dict[str, Any], ...]:
        return tuple(lexicons.load(name).split(self.part))

    @lru_cache(maxsize=None)
    def surname_weights(self) -> Tuple[float, ...]:
        # Frequency shares make 陳/林 common and 鄞 rare, as in a real ward; a floor keeps rare ones possible.
        return tuple(max(float(e["freq"]), 0.05) for e in self.entries("surnames_zh"))

    @lru_cache(maxsize=None)
    def given_chars(self, gender: str) -> Tuple[Dict[str, Any], ...]:
        return tuple(e for e in self.entries("given_chars_zh") if e["gender"] in (gender, "U"))

    @lru_cache(maxsize=None)
    def name_chars(self) -> Tuple[str, ...]:
        """Han characters of this split's place, organisation and profession values, less every
        character of the other split's surnames and given names (the held-out split's names stay
        unseen): the characters `make_name` may spell a training name with."""
        other = "heldout" if self.part == "train" else "train"
        banned = {c for name in ("surnames_zh", "given_chars_zh")
                  for e in lexicons.load(name).split(other) for c in e["text"]}
        chars = set()
        for name in ("cities", "districts", "hospitals", "schools", "companies", "markets", "professions",
                     "departments", "countries", "streets"):
            lexicon = lexicons.load(name)
            for entry in lexicon.split(self.part):
                for value in entry.values():
                    if isinstance(value, str):
                        chars.update(c for c in value if is_han(c))
        return tuple(sorted(chars - banned))

    def pick(self, rng: Random, name: str) -> Dict[str, Any]:
        return rng.choice(self.entries(name))

    @lru_cache(maxsize=None)
    def ambiguous_abbreviations(self) -> Tuple[Tuple[Dict[str, Any], Dict[str, Any]], ...]:
        """(hospital, school) pairs sharing a short form (中國醫, 高醫): the same string, two labels."""
        schools = {}
        for s in self.entries("schools"):
            schools.setdefault(s["abbr_zh"], s)
        return tuple((h, schools[h["abbr_zh"]]) for h in self.entries("hospitals") if h["abbr_zh"] in schools)


@dataclass
class Name:
    """A Taiwanese name in characters plus its Wade-Giles romanization (Chang Shu-Hua)."""
    surname: str
    given: str
    rom_surname: str
    rom_given: str
    gender: str

    @property
    def zh(self) -> str:
        return self.surname + self.given

    def en(self, rng: Random) -> str:
        style = rng.random()
        if style < 0.5:
            out = f"{self.rom_surname} {self.rom_given}"
        elif style < 0.8:
            out = f"{self.rom_given} {self.rom_surname}"
        elif style < 0.86:
            out = f"{self.rom_surname.upper()} {self.rom_given.upper()}"
        elif style < 0.92:
            out = f"{self.rom_given.upper()} {self.rom_surname.upper()}"
        else:
            out = f"{self.rom_surname}, {self.rom_given}"
        # Lower-cased names are common in hurried notes and must still be recognized.
        return out.lower() if rng.random() < 0.08 else out

    def initials(self) -> str:
        """Doctor initials as signed on charts: Yeh Ta-Hung -> yth."""
        parts = [self.rom_surname.replace("-", " ")] + self.rom_given.split("-")
        return "".join(p.split()[0][0] + "".join(q[0] for q in p.split()[1:]) for p in parts).lower()


# Share of training names spelled with other characters (see `Pools.name_chars`).
OTHER_CHARACTER_NAMES = 0.3


def make_name(rng: Random, pools: Pools, gender: str, surname: Optional[Dict[str, Any]] = None) -> Name:
    own_surname = surname is None
    if surname is None:
        surname = rng.choices(pools.entries("surnames_zh"), weights=pools.surname_weights())[0]
    chars = pools.given_chars(gender)
    n_given = 1 if rng.random() < 0.1 else 2
    picked = [rng.choice(chars) for _ in range(n_given)]
    if n_given == 2 and picked[0]["text"] == picked[1]["text"] and rng.random() < 0.7:
        picked[1] = rng.choice(chars)
    han_surname, han_given = surname["text"], "".join(p["text"] for p in picked)
    if pools.respell_names and rng.random() < OTHER_CHARACTER_NAMES:
        # Names of people the model has never seen are mostly names of characters it has seen in
        # other roles: spell some training names with those, so that the context (醫師, 社工, 胞弟,
        # Dr.) and not the identity of a surname carries the label. Romanization is kept.
        other = pools.name_chars()
        if own_surname:
            han_surname = rng.choice(other)
        han_given = "".join(rng.choice(other) for _ in range(n_given))
    return Name(han_surname, han_given, surname["romanized"],
                "-".join(p["romanized"].capitalize() for p in picked), gender)


# Share of an initialed name's mentions (full or surname) written with initials: S8 and U found `Smith` but not
# the `J.` after it (ASQ-PHI: 118 names cut short against B's 20, fifty-first session).
INITIALED_SHARE = 0.5


@dataclass
class EnglishName:
    given: str
    surname: str
    gender: str = "M"  # the titles a mention takes (`Mr.`, `Ms.`)
    # Whether the name is also written with initials (`Smith J.`, `J. Smith`, `John A. Smith`), as English charts
    # and references write people: only the real lines' people (`backgrounds.strangers`), so the generated
    # splits are as before.
    with_initials: bool = False

    @property
    def zh(self) -> str:  # foreigners keep their Latin name in Chinese sentences too
        return f"{self.given} {self.surname}"

    def en(self, rng: Random) -> str:
        r = rng.random()
        if self.with_initials and r < INITIALED_SHARE:
            return self.initialed(rng)
        return f"{self.given} {self.surname}" if r < 0.7 else self.surname

    def initialed(self, rng: Random) -> str:
        """`Smith J.`, `J. Smith`, `John A. Smith` or `J.A. Smith`."""
        initial, middle = self.given[0].upper(), rng.choice("ABCDEFGHJKLMNPRSTW")
        return rng.choice((f"{self.surname} {initial}.", f"{initial}. {self.surname}",
                           f"{self.given} {middle}. {self.surname}", f"{initial}.{middle}. {self.surname}"))


def _year_base(rng: Random) -> int:
    """Admission years: present-day charts and the far-future years of resynthesized corpora."""
    r = rng.random()
    if r < 0.4:
        return rng.randint(2008, 2024)
    if r < 0.75:
        return rng.randint(2088, 2110)
    return rng.randint(2215, 2226)


def random_date(rng: Random, year: int) -> _dt.date:
    return _dt.date(year, 1, 1) + _dt.timedelta(days=rng.randrange(365))


@dataclass
class Patient:
    """One synthetic patient; notes share these values so a patient's notes agree with each other."""
    pid: str
    name: Name
    age: int
    admit: _dt.date
    discharge: _dt.date
    onset: _dt.date
    family: List[Any]
    attending: Name
    resident: Name
    doctors: List[Name]
    persons: List[Any]
    hospital: Dict[str, Any]
    department: Dict[str, Any]
    ward: str
    bed: str
    profession: Dict[str, Any]
    school: Dict[str, Any]
    company: Dict[str, Any]
    city: Dict[str, Any]
    district: Dict[str, Any]
    street: Dict[str, Any]
    house_no: str
    phone: str
    mobile: str
    id_number: str
    mrn: str
    nic: str
    email: str
    url: str
    day_format: str
    extra: Dict[str, Any] = field(default_factory=dict)


def _phone(rng: Random) -> str:
    area = rng.choice(_AREA_CODES)
    n = 8 if area == "02" else 7 if len(area) == 2 else 6
    digits = "".join(rng.choice("0123456789") for _ in range(n))
    digits = str(rng.randint(2, 9)) + digits[1:]
    split = n - 4
    style = rng.random()
    if style < 0.35:
        return f"({area}){digits[:split]}-{digits[split:]}"
    if style < 0.7:
        return f"{area}-{digits}"
    if style < 0.85:
        return f"{area}-{digits[:split]}-{digits[split:]}"
    return f"{area}{digits}"


def _mobile(rng: Random) -> str:
    d = "09" + "".join(rng.choice("0123456789") for _ in range(8))
    style = rng.random()
    if style < 0.4:
        return f"{d[:4]}-{d[4:7]}-{d[7:]}"
    if style < 0.75:
        return d
    if style < 0.9:
        return f"{d[:4]}-{d[4:]}"
    return f"+886-{d[1:4]}-{d[4:7]}-{d[7:]}"


def _mrn(rng: Random) -> str:
    style = rng.random()
    if style < 0.55:
        return "".join(rng.choice("0123456789") for _ in range(rng.choice((7, 8))))
    if style < 0.8:
        return "".join(rng.choice("0123456789") for _ in range(5)) + "".join(
            rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(3))
    return rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") + "".join(rng.choice("0123456789") for _ in range(9))


def _nic(rng: Random) -> str:
    d = "".join(rng.choice("0123456789") for _ in range(12))
    return d if rng.random() < 0.6 else f"{d[:4]}-{d[4:8]}-{d[8:]}"


def _handle(name: Name, rng: Random) -> str:
    given = name.rom_given.replace("-", "").lower()
    sur = name.rom_surname.replace("-", "").lower()
    style = rng.random()
    if style < 0.4:
        return f"{given}.{sur}"
    if style < 0.7:
        return f"{sur}{given}{rng.randint(1, 99)}"
    return f"{given[0]}{sur}{rng.randint(1960, 2010) % 100:02d}"


def _district_and_city(rng: Random, pools: Pools) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """A district and the city it belongs to, both from this split; when the split has no such pair,
    an unrelated Taiwan city (a slightly odd address beats leaking a value of the other split)."""
    cities = {c["zh"]: c for c in pools.entries("cities")}
    paired = [d for d in pools.entries("districts") if d["city"] in cities]
    if paired:
        district = rng.choice(paired)
        return district, cities[district["city"]]
    taiwan = [c for c in cities.values() if c["country"] == "Taiwan"] or list(cities.values())
    return pools.pick(rng, "districts"), rng.choice(taiwan)


def make_patient(rng: Random, pools: Pools, pid: str) -> Patient:
    gender = rng.choice("MF")
    name = make_name(rng, pools, gender)
    year = _year_base(rng)
    admit = random_date(rng, year)
    discharge = admit + _dt.timedelta(days=rng.randint(5, 60))
    onset = admit - _dt.timedelta(days=rng.randint(60, 365 * 15))
    surname = {"text": name.surname, "romanized": name.rom_surname}
    family = [make_name(rng, pools, "M", surname), make_name(rng, pools, rng.choice("MF"))]
    if rng.random() < 0.5:
        family.append(make_name(rng, pools, rng.choice("MF"), surname))
    doctors = [make_name(rng, pools, rng.choice("MF")) for _ in range(rng.randint(3, 5))]
    persons: List[Any] = [make_name(rng, pools, rng.choice("MF"))]
    if rng.random() < 0.6:
        persons.append(EnglishName(pools.pick(rng, "given_names_en")["text"], pools.pick(rng, "surnames_en")["text"]))
    district, city = _district_and_city(rng, pools)
    day_format = D.pick_format(rng, "day")
    return Patient(
        pid=pid, name=name, age=rng.randint(13, 92), admit=admit, discharge=discharge, onset=onset,
        family=family, attending=doctors[0], resident=doctors[1], doctors=doctors, persons=persons,
        hospital=pools.pick(rng, "hospitals"), department=pools.pick(rng, "departments"),
        ward=f"{rng.randint(2, 15)}{rng.choice('ABCDE')}", bed=str(rng.randint(1, 40)),
        profession=pools.pick(rng, "professions"), school=pools.pick(rng, "schools"),
        company=pools.pick(rng, "companies"), city=city, district=district,
        street=pools.pick(rng, "streets"), house_no=str(rng.choice([rng.randint(1, 50), rng.randint(1, 400)])),
        phone=_phone(rng), mobile=_mobile(rng), id_number=make_taiwan_id(rng, gender), mrn=_mrn(rng),
        nic=_nic(rng), email=f"{_handle(name, rng)}@{rng.choice(_EMAIL_DOMAINS)}",
        url=rng.choice(_URL_SITES) + _handle(name, rng), day_format=day_format,
    )


def choose(rng: Random, options: Sequence[Any], weights: Optional[Sequence[float]] = None) -> Any:
    return rng.choices(list(options), weights=weights)[0]
