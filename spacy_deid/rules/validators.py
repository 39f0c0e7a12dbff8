"""Validators for pattern candidates: True confirms, False rejects, None has no opinion (context decides).

A validator sees the whole text and the candidate's offsets, so a veto can look at the neighbourhood.
Checksums live in private helpers. Every veto says which false positive it prevents.
Validators are held by a `Validators` object (not a module global) that the component gets from the
config (`validators = {"@misc": "spacy_deid.DefaultValidators.v1"}`), so a hospital can register its own.
"""
import ipaddress
import re
from typing import Callable, Dict, Iterator, Optional, Tuple

from spacy.util import registry

from ..wordlists.clinical_terms import inside_clinical_term, is_clinical_term
from ..cues import cue_frame
from ..departments import cut_into_department, department_start
from ..place_names_zh import named_place_zh, validate_employer_zh, validate_school_zh
from ..predicates import type_words
from ..wordlists import WordLists, compiled, word_set, words

Validator = Callable[[str, int, int], Optional[bool]]

# Letter codes of the Taiwan national ID / resident certificate: the letter is the household
# registration area; its two-digit code enters the checksum. I, O, W... are out of alphabetical order.
_TW_LETTER_CODES: Dict[str, int] = {
    "A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15, "G": 16, "H": 17, "I": 34, "J": 18,
    "K": 19, "L": 20, "M": 21, "N": 22, "O": 35, "P": 23, "Q": 24, "R": 25, "S": 26, "T": 27,
    "U": 28, "V": 29, "W": 32, "X": 30, "Y": 31, "Z": 33,
}
_TW_WEIGHTS = (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1)


def _tw_checksum_ok(first_code: int, second_digit: int, digits: str) -> bool:
    """Weighted sum over (area code tens, area code units, second digit, 8 digits) must end in 0."""
    values = [first_code // 10, first_code % 10, second_digit] + [int(d) for d in digits]
    return sum(v * w for v, w in zip(values, _TW_WEIGHTS)) % 10 == 0


def tw_id_checksum(value: str) -> bool:
    """Checksum of a national ID (`A123456789`) or new-format resident certificate (`A800000014`)."""
    value = value.upper()
    if len(value) != 10 or value[0] not in _TW_LETTER_CODES or not value[1:].isdigit():
        return False
    return _tw_checksum_ok(_TW_LETTER_CODES[value[0]], int(value[1]), value[2:])


def tw_old_resident_checksum(value: str) -> bool:
    """Old resident certificate (`AB12345678`, second letter A-D = sex/category): the second
    letter's code contributes only its last digit."""
    value = value.upper()
    if len(value) != 10 or value[0] not in _TW_LETTER_CODES or value[1] not in "ABCD" \
            or not value[2:].isdigit():
        return False
    return _tw_checksum_ok(_TW_LETTER_CODES[value[0]], _TW_LETTER_CODES[value[1]] % 10, value[2:])


def tw_id_check_digit(prefix: str) -> str:
    """The check digit completing a 9-character national-ID prefix (`A12345678` -> '9'); used by
    tests and surrogate generators to build valid synthetic IDs."""
    prefix = prefix.upper()
    for d in "0123456789":
        if tw_id_checksum(prefix + d):
            return d
    raise ValueError("prefix is not a letter followed by 8 digits")


# -- validators -----------------------------------------------------------------------------------
def validate_tw_national_id(text: str, start: int, end: int) -> Optional[bool]:
    # A letter + 1/2 + 8 digits is also the shape of lot numbers and order codes; the checksum keeps
    # 9 in 10 of those out. A candidate failing it may still be a typo'd ID: the context rule catches it.
    return tw_id_checksum(text[start:end])


def validate_tw_new_resident(text: str, start: int, end: int) -> Optional[bool]:
    return tw_id_checksum(text[start:end])


def validate_tw_old_resident(text: str, start: int, end: int) -> Optional[bool]:
    # Two capitals + 8 digits is common in specimen and device serials (`AB12345678`); checksum.
    return tw_old_resident_checksum(text[start:end])


# Digits of a Taiwan number after the leading 0, by area code: (02) 8 local digits, (037) 6, ...
_AREA_LOCAL_DIGITS = {
    "2": (8,), "3": (7,), "37": (6,), "4": (7, 8), "49": (7,), "5": (7,), "6": (7,), "7": (7,),
    "8": (7,), "82": (6,), "89": (6,), "826": (5,), "836": (5,),
}


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isdigit())


def validate_tw_landline(text: str, start: int, end: int) -> Optional[bool]:
    """Area code plus local number with the right length for that area code."""
    value = text[start:end].replace("(", " ").replace(")", " ")
    parts = [p for p in value.replace("-", " ").split() if p]
    if len(parts) < 2:
        return False
    area = parts[0].lstrip("0")
    local = "".join(parts[1:])
    if not local.isdigit():
        return False
    # `07 1101225` is a day followed by a compact Minguo date, `03 0930` a count and a time: Taiwan
    # local numbers never start with 0 or 1, so those are rejected.
    if local[0] in "01":
        return False
    return len(local) in _AREA_LOCAL_DIGITS.get(area, ())


def validate_tw_international(text: str, start: int, end: int) -> Optional[bool]:
    digits = _digits(text[start:end])
    if not digits.startswith("886"):
        return False
    national = digits[3:]
    if national.startswith("0"):  # `+886 (0)2 ...`: the trunk 0 written anyway
        national = national[1:]
    if national.startswith("9"):
        return len(national) == 9
    # Landline: area code (1-3 digits) + local number, 8-9 national digits overall. `+886 1...`
    # does not exist, which keeps `+8861234567`-like lab counts out.
    return national[:1] in "2345678" and len(national) in (8, 9)


def validate_has_digit(text: str, start: int, end: int) -> Optional[bool]:
    # `病歷號: pending`, `MRN: N/A`, `chart no. unknown`: a record number always has a digit.
    return any(c.isdigit() for c in text[start:end])


def validate_nic(text: str, start: int, end: int) -> Optional[bool]:
    # Twelve zeros or one repeated digit is a placeholder in templates (`0000 0000 0000`), not a card.
    digits = _digits(text[start:end])
    if len(digits) != 12 or len(set(digits)) == 1:
        return False
    return None  # shape only: the context word (健保卡, NIC) decides


def validate_room_number(text: str, start: int, end: int) -> Optional[bool]:
    # `0床`, `00號` are never rooms, beds or house numbers (they appear in counts like `00號碼`).
    digits = _digits(text[start:end])
    return None if digits and int(digits) > 0 else False


def validate_age(text: str, start: int, end: int) -> Optional[bool]:
    # `0歲` and `150-year-old` are not ages of a person (a building, a typo, a count): 1..120 only.
    digits = _digits(text[start:end])
    return None if digits and 0 < int(digits) <= 120 else False


def validate_email(text: str, start: int, end: int) -> Optional[bool]:
    # `name@3` (a dose at a time), `a@b` (shorthand): a real domain has a dot and an alphabetic TLD.
    local, _, domain = text[start:end].rpartition("@")
    if not local or "." not in domain or ".." in domain:
        return False
    tld = domain.rsplit(".", 1)[1]
    return len(tld) >= 2 and tld.isalpha()


def validate_url(text: str, start: int, end: int) -> Optional[bool]:
    # `www.` alone or `http://` with nothing after it is a template stub, not an address.
    value = text[start:end].lower()
    for prefix in ("https://", "http://", "ftp://", "www."):
        if value.startswith(prefix):
            rest = value[len(prefix):]
            return "." in rest or len(rest) >= 3
    return None


# -- identifiers outside Taiwan ------------------------------------------------------------------
def us_ssn_ok(digits: str) -> bool:
    """SSA rules: area 001-899 but not 666, group 01-99, serial 0001-9999 (`000-12-3456`,
    `666-...`, `9xx-...` are never issued; 9xx are taxpayer numbers, not SSNs)."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def luhn_ok(digits: str) -> bool:
    """The Luhn check digit of payment card numbers."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_ok(value: str) -> bool:
    """ISO 13616: country letters, two check digits, 11-30 alphanumerics; mod 97 of the rearranged
    number is 1 (one random string in 97 passes, so the shape must match too)."""
    compact = value.replace(" ", "").upper()
    if not 15 <= len(compact) <= 34 or not compact[:2].isalpha() or not compact[2:4].isdigit():
        return False
    rearranged = compact[4:] + compact[:4]
    if not rearranged.isalnum():
        return False
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def validate_us_ssn(text: str, start: int, end: int) -> Optional[bool]:
    # `123-45-6789` is an SSN only where the SSA could have issued it. Without dashes (9 digits), or
    # with an area that starts with 0 (`037-46-7966` is a Taiwan landline: area code 037), the number
    # also needs its label nearby (`context_required`), so a valid one gives no verdict.
    value = text[start:end]
    digits = value.replace("-", "").replace(" ", "")
    if not us_ssn_ok(digits):
        return False
    return True if "-" in value and digits[0] != "0" else None


def validate_payment_card(text: str, start: int, end: int) -> Optional[bool]:
    # 13-19 digits with a Luhn check digit and an issuer prefix (3 Amex/Diners/JCB, 4 Visa,
    # 5 Mastercard, 6 Discover/UnionPay, 2 Mastercard 2-series): lab accession and order numbers of the
    # same length fail the check nine times in ten and rarely start like a card.
    digits = "".join(c for c in text[start:end] if c.isdigit())
    return 13 <= len(digits) <= 19 and digits[0] in "23456" and luhn_ok(digits)


def validate_iban(text: str, start: int, end: int) -> Optional[bool]:
    return iban_ok(text[start:end])


def validate_ip_address(text: str, start: int, end: int) -> Optional[bool]:
    # Every octet <= 255 (`999.1.1.1` is not an address); version strings with four parts (`1.2.3.4`)
    # need an address word nearby: an address written in a note nearly always has one.
    value = text[start:end]
    try:
        address = ipaddress.ip_address(value)
    except ValueError:
        return False
    if address.version == 4 and all(len(part) == 1 for part in value.split(".")):
        return None
    return True


def validate_intl_phone(text: str, start: int, end: int) -> Optional[bool]:
    # E.164 numbers have 8-15 digits with the country code: fewer is a code or a short extension.
    digits = sum(c.isdigit() for c in text[start:end])
    return 8 <= digits <= 15


def validate_phone_digits(text: str, start: int, end: int) -> Optional[bool]:
    # After a phone label: a local number has seven digits at least, and E.164 allows fifteen at most.
    return 7 <= len(_digits(text[start:end])) <= 15


def validate_place_name(text: str, start: int, end: int) -> Optional[bool]:
    # A place inside a disease's name is no place: `日本腦炎` (Japanese encephalitis), `German measles`;
    # nor is one that starts inside the school level before it (`國[中國]文`, `高[中國]語`: 國中, 高中).
    if inside_clinical_term(text, start, end):
        return False
    return False if start > 0 and text[start - 1:start + 1] in type_words().school_levels_zh else None


# After a specialty's name, words that make it a field of medicine, not a hospital's unit (`精神科藥物`,
# `眼科疾病`, `內科病史`), or a clinic of that specialty that names no hospital (`眼科診所`).
_FIELD_OF_MEDICINE_AFTER_ZH = ("藥物", "用藥", "藥", "疾病", "病史", "問題", "症狀", "方面", "相關", "領域", "專科",
                               "知識", "學", "診所", "醫師公會")
# 內科 and 外科 before a treatment are its kind, medical or surgical (`內科治療無效`, `外科手術`).
_MODALITIES_ZH = frozenset({"內科", "外科"})
_TREATMENT_AFTER_ZH = ("治療", "手術", "處置", "療法")
# A turn of a dialogue (`醫師：你有在看精神科嗎？`, `民眾：我去掛內科`): people talk of specialties in general, so
# there a department needs the words of a chart: a field or an admission before it (`轉至[外科]`, `入本院
# [急診部]`), or a visit word of `departments.py` after it (less those said of a specialty in general too,
# `內科治療`, `精神科醫師`, `收` of `收費`), or its ward.
_SPEAKER_BEFORE = re.compile(r"(?:醫師|醫生|民眾|家屬|病人|病患|患者|個管師|護理師|護士|社工)[ ]?[：:]")
_TURN_WINDOW = 160
def _department_after_zh(lists: WordLists) -> Tuple[str, ...]:
    return tuple(w for w in lists["visit_words_zh"] if w not in ("收", "治療", "主任", "醫師")) + ("病房",)


_DEPARTMENT_BEFORE_ZH = ("本院", "貴院", "該院", "科別", "科室", "經", "轉", "轉入", "轉至", "轉到", "轉介至", "轉介到",
                         "會診", "照會", "入", "住", "住進", "收入")
_FIELD_SEPARATORS = " \t:："


def _in_a_dialogue_turn(text: str, start: int) -> bool:
    # the line before the candidate, bounded: a note written as one line stays linear
    return _SPEAKER_BEFORE.search(_line_around(text, start, start, _TURN_WINDOW, 0)) is not None


def validate_department_zh(text: str, start: int, end: int) -> Optional[bool]:
    # A hospital's department wherever a chart names it (annotation.md's DEPARTMENT: `腸胃科`), unless the
    # words after it make the specialty a field of medicine or a kind of treatment (`精神科藥物`,
    # `眼科診所`, `內科治療無效`) or it heads a line as a history's category (`內科: 甲狀腺機能亢進`:
    # the patient's medical history, no unit); in a dialogue's turn only with a chart's words beside it.
    if text.startswith(_FIELD_OF_MEDICINE_AFTER_ZH, end) or (
            text[start:end] in _MODALITIES_ZH and text.startswith(_TREATMENT_AFTER_ZH, end)):
        return False
    if _in_a_dialogue_turn(text, start):
        before = text[max(0, start - 8):start].rstrip(_FIELD_SEPARATORS)
        return before.endswith(_DEPARTMENT_BEFORE_ZH) or text.startswith(compiled(_department_after_zh), end)
    line_start = start == 0 or text[start - 1] == "\n"
    return not (line_start and text[end:end + 2].lstrip(" ")[:1] in (":", "："))


# Words that stand where a chart's demographic line puts the occupation (`38歲工程師, 因`, `印尼籍看護,
# 52歲`) but say something else: sex, marital status, the person's role, an age group, a relation.
_NOT_OCCUPATIONS_ZH = frozenset("""
男 女 男性 女性 男生 女生 男子 女子 男童 女童 男孩 女孩 病人 病患 患者 個案 案主 已婚 未婚 離婚 分居 喪偶 單身 同居
小孩 孩童 兒童 少年 少女 青少年 青年 中年 老人 長者 老年 婦人 婦女 先生 太太 小姐 女士 阿伯 阿嬤 阿公 阿姨 右利 左利
本國籍 外籍 華僑 無業 家管 退休 學齡前 住民 居民 病史 新住民 單親 獨居 家屬 配偶
相關 各種 任何 多種 全職 兼職 正職 工作
""".split())
# Characters that make the run a phrase or a clinical finding, not an occupation (`歲時`, `歲開始`, `歲起`).
_NOT_IN_OCCUPATION_ZH = frozenset("的之在到去回住與及或跟等其某該這那一於由從往向至是有為了也都很就再又此並因時起後前"
                                  "歲年月日次天週個位名病症痛炎癌藥")


def validate_profession_slot_zh(text: str, start: int, end: int) -> Optional[bool]:
    # The occupation slot of a demographic line holds a word, not a phrase, a sex or a status.
    word = text[start:end]
    if word in _NOT_OCCUPATIONS_ZH or any(c in _NOT_IN_OCCUPATION_ZH for c in word):
        return False
    return not word.endswith(("性", "籍", "人"))


# Words that stand in an English occupation slot (`A 70yo [male] from`, `Occupation: [retired]`) but
# say something else: sex, a role, a status, a finding; a slot holding one of them is no occupation.
_NOT_OCCUPATION_WORDS_EN = frozenset("""
male female man woman men women gentleman gent lady boy girl child infant baby toddler adolescent teen
teenager patient pt m f yo y/o old year years with who whom and or of the a an in on at from to for as
is was h/o s/p hx history obese married single divorced widowed separated healthy previously otherwise
right left handed right-handed left-handed ambulatory pregnant retired unemployed none unknown n/a na nil
disabled homeless smoker nonsmoker non-smoker drinker alcoholic diabetic hypertensive stay home
""".split())


def validate_profession_slot_en(text: str, start: int, end: int) -> Optional[bool]:
    # The occupation slot holds one to three plain words, none of them a sex, role, status or finding.
    words = text[start:end].casefold().replace("-", " ").split()
    if not words or len(words) > 3 or not all(w.isalpha() for w in words):
        return False
    return not any(w in _NOT_OCCUPATION_WORDS_EN for w in words)


def validate_care_place_zh(text: str, start: int, end: int) -> Optional[bool]:
    # A hospital's short name (門諾, 協和) where a visit happens; `在台北住院` names the city. The frame's
    # lazy name stops at the first word of care, so it may hold what stands between: a city before the
    # hospital (`在[台北市馬偕]住院`), the start of a department (`至[光田職能]治療科就診`) or an act of care
    # (`在[愛爾蘭接受]洗腎`, `在[新光插管]住院`); none of those is one hospital's name.
    name = text[start:end]
    if (len(name) >= 4 and name[2] in "市縣") or name.endswith(words("activity_words_zh")) \
            or cut_into_department(text, start, end) is not None:
        return False
    return named_place_zh(name, word_set("not_hospital_names_zh"), "HOSPITAL")


# How far either side of a candidate, within its line, the case of the writing is read: a note written
# as one long line costs each candidate the same.
_CASE_WINDOW = 160
# How far before a signature's last item its department's name is read.
_UNIT_WINDOW = 80


def _line_around(text: str, start: int, end: int, before: int, after: int) -> str:
    """The text of the candidate's line, at most `before` characters before it and `after` after it."""
    low, high = max(0, start - before), min(len(text), end + after)
    newline_before, newline_after = text.rfind("\n", low, start), text.find("\n", end, high)
    return text[newline_before + 1 if newline_before >= 0 else low:newline_after if newline_after >= 0 else high]


def validate_not_clinical_abbr(text: str, start: int, end: int) -> Optional[bool]:
    # A clinical abbreviation is no institution (`switched to NPH`, `found to have LVH`).
    return False if is_clinical_term(text[start:end]) else None


def validate_acronym_in_mixed_case(text: str, start: int, end: int) -> Optional[bool]:
    # An institution's abbreviation (MCH, PUMCH, NCKU) stands out as capitals in a line written in mixed
    # case; in a line typed in capitals every word looks like one (`AT LUNCH`, `GRADUATED FROM HIGH SCHOOL`).
    if validate_not_clinical_abbr(text, start, end) is False:
        return False
    line = _line_around(text, start, end, _CASE_WINDOW, _CASE_WINDOW)
    return None if sum(c.islower() for c in line) > sum(c.isupper() for c in line) else False


def validate_hospital_abbr(text: str, start: int, end: int) -> Optional[bool]:
    # Words of study around an abbreviation make it a school (`graduated from TCFSH`: a senior high school).
    # (the packaged cue rules' frame of care or study, read as for an institution: `spacy_deid.cues`)
    if (validate_acronym_in_mixed_case(text, start, end) is False
            or cue_frame(text, start, end, "HOSPITAL", "care_or_study") == "SCHOOL"):
        return False
    return None


def validate_hospital_abbr_after_unit(text: str, start: int, end: int) -> Optional[bool]:
    # A signature's last item after a department's name is the hospital (`Dr. R. Hsiao, Acute Ward, MCH`);
    # after anything else it may be a diagnosis in a list (`HTN, DM, ...`).
    if validate_hospital_abbr(text, start, end) is False:
        return False
    before = _line_around(text, start, start, _UNIT_WINDOW, 0).rstrip(" ,")
    return None if department_start(before) is not None else False


class Validators:
    """A name -> validator table. An object, not a global: each component holds its own copy."""

    def __init__(self, table: Optional[Dict[str, Validator]] = None):
        self._table: Dict[str, Validator] = dict(table or {})

    def register(self, name: str, func: Validator) -> None:
        self._table[name] = func

    def get(self, name: str) -> Validator:
        try:
            return self._table[name]
        except KeyError:
            raise KeyError(f"Unknown validator {name!r}; known: {sorted(self._table)}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._table))


DEFAULT_VALIDATORS: Dict[str, Validator] = {
    "tw_national_id": validate_tw_national_id,
    "tw_new_resident": validate_tw_new_resident,
    "tw_old_resident": validate_tw_old_resident,
    "tw_landline": validate_tw_landline,
    "tw_international": validate_tw_international,
    "has_digit": validate_has_digit,
    "nic": validate_nic,
    "room_number": validate_room_number,
    "age": validate_age,
    "email": validate_email,
    "url": validate_url,
    "us_ssn": validate_us_ssn,
    "payment_card": validate_payment_card,
    "iban": validate_iban,
    "ip_address": validate_ip_address,
    "intl_phone": validate_intl_phone,
    "phone_digits": validate_phone_digits,
    "place_name": validate_place_name,
    "department_zh": validate_department_zh,
    "profession_slot_zh": validate_profession_slot_zh,
    "profession_slot_en": validate_profession_slot_en,
    "care_place_zh": validate_care_place_zh,
    "school_zh": validate_school_zh,
    "not_clinical_abbr": validate_not_clinical_abbr,
    "acronym_in_mixed_case": validate_acronym_in_mixed_case,
    "hospital_abbr": validate_hospital_abbr,
    "hospital_abbr_after_unit": validate_hospital_abbr_after_unit,
    "employer_zh": validate_employer_zh,
}


@registry.misc("spacy_deid.DefaultValidators.v1")
def make_default_validators() -> Validators:
    """The validators the default patterns name."""
    return Validators(DEFAULT_VALIDATORS)
