"""Generated code-mixed notes from simple templates, with the rule-recognizable PHI each note holds.

Used by the batch/CLI tests (zero-leak acceptance) and by benchmarks/bench_cli.py. Every value is
synthetic: names from short hand-made lists, IDs with valid checksums from a seeded RNG.
"""
import random
from datetime import date, timedelta
from typing import Dict, List, Tuple

from spacy_deid.rules import tw_id_check_digit

SURNAMES = "陳林黃張李王吳劉蔡楊許鄭謝郭洪曾邱廖賴周"
GIVEN = ["淑芬", "志明", "雅婷", "俊傑", "美惠", "家豪", "怡君", "建宏", "佩珊", "宗翰", "慧玲", "冠宇"]
ENGLISH = ["Chen", "Lin", "Huang", "Chang", "Lee", "Wang", "Wu", "Liu", "Tsai", "Yang"]
AREAS = [("02", 8), ("03", 7), ("04", 7), ("05", 7), ("06", 7), ("07", 7), ("08", 7)]


def _national_id(rng: random.Random) -> str:
    prefix = rng.choice("ABCDEFGHJKLMNPQRSTUVXYWZIO") + rng.choice("12") + "".join(
        rng.choice("0123456789") for _ in range(7))
    return prefix + tw_id_check_digit(prefix)


def _mobile(rng: random.Random) -> str:
    d = "".join(rng.choice("0123456789") for _ in range(8))
    return rng.choice([f"09{d[:2]}-{d[2:5]}-{d[5:]}", f"09{d}", f"09{d[:2]}-{d[2:]}"])


def _landline(rng: random.Random) -> str:
    area, n = rng.choice(AREAS)
    local = rng.choice("23456789") + "".join(rng.choice("0123456789") for _ in range(n - 1))
    if n == 8:
        return rng.choice([f"({area}){local[:4]}-{local[4:]}", f"{area}-{local[:4]}-{local[4:]}"])
    return rng.choice([f"{area}-{local}", f"({area}){local[:3]}-{local[3:]}", f"{area} {local}"])


def _date_strings(rng: random.Random, day: date) -> str:
    roc = day.year - 1911
    return rng.choice([f"{roc}.{day.month:02d}.{day.day:02d}", f"{day.year}/{day.month:02d}/{day.day:02d}",
                       f"民國{roc}年{day.month}月{day.day}日", f"{day.year}-{day.month:02d}-{day.day:02d}"])


TEMPLATES = [
    "入院日期: {date}   病歷號: {mrn}\n{name}, a {age}-year-old patient, was admitted for fever.\n"
    "身分證字號 {nid}. 聯絡電話 {mobile}, 住家 {landline}.\nBP 120/80, HR 88. Cefazolin 1g q8h.\n",
    "{date} Discharge note\n{name} discharged in stable condition. MRN {mrn}.\n"
    "Email: {email}  Portal: {url}\nFamily contact {mobile}.\n",
    "門診紀錄 {date}: {name} 自述症狀改善. ID {nid}. 電話 {landline} 分機 {ext}.\n"
    "PHQ-9 = 7. 下次回診請至 {room}診.\n",
]


def make_notes(n_notes: int, seed: int = 0, notes_per_patient: int = 3
               ) -> Tuple[List[Dict[str, str]], List[List[str]]]:
    """`n_notes` records (sorted by patient) and, per note, the rule-recognizable PHI strings in it."""
    rng = random.Random(seed)
    records, phi = [], []
    patient = 0
    while len(records) < n_notes:
        patient += 1
        pid = f"G{patient:05d}"
        name = rng.choice(SURNAMES) + rng.choice(GIVEN)
        person = {
            "name": name, "nid": _national_id(rng), "mobile": _mobile(rng), "landline": _landline(rng),
            "mrn": str(rng.randrange(1_000_000, 9_999_999)), "age": str(rng.randrange(20, 90)),
            "email": f"{rng.choice(ENGLISH).lower()}.{rng.randrange(10, 99)}@mail{rng.randrange(1, 9)}.example.com",
            "url": f"https://portal{rng.randrange(1, 99)}.example.org.tw/p/{rng.randrange(1000, 9999)}",
            "ext": str(rng.randrange(100, 9999)), "room": str(rng.randrange(1, 40)),
        }
        first = date(2019, 1, 1) + timedelta(days=rng.randrange(0, 1500))
        for k in range(notes_per_patient):
            if len(records) >= n_notes:
                break
            template = TEMPLATES[k % len(TEMPLATES)]
            values = dict(person, date=_date_strings(rng, first + timedelta(days=7 * k)))
            text = template.format(**values)
            # extensions (3-4 digits) are left out: they can occur in the text by chance (BP 120)
            keys = ["date", "mrn", "nid", "mobile", "landline", "email", "url"]
            phi.append([values[key] for key in keys if "{" + key + "}" in template])
            records.append({"id": f"{pid}-{k + 1}", "patient_id": pid, "text": text})
    return records, phi
