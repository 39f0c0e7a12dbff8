"""Real clinical lines mixed into the TRAIN split's notes, with the noise real charts have.

Why: a NER trained only on generated notes takes real clinical vocabulary (ward words, shorthand,
drug names) for PHI; it has never seen a sentence no template wrote. The lines come from
`assets/clinical_text/` (MTSamples, CC0, cleaned by `scripts/build_clinical_backgrounds.py`, plus
nursing shorthand written for this project; Chinese consultations, MIT, cleaned by
`scripts/build_chinese_backgrounds.py`). A line may hold frames (`Dr. {DOCTOR_SUR_EN}`) that the
template slots fill, so PHI values also appear inside real sentences with exact gold spans. English lines are
typed with chart shorthand: a hand-written table, then clinicians' own abbreviations (`chart_abbreviations.tsv`,
the Meta-Inventory's clinical-note sources, `scripts/build_chart_abbreviations.py`), so the NER sees from data that
`bld`, `rm` or `wks` are the chart's words (against P's table alone: PhysioNet false tokens 1,468 -> 1,079).
Half of the English lines name their people from tens of thousands of Census and Faker names
(`person_names_en.tsv`, `scripts/build_person_names.py`), so that a frame's context, not a lexicon's name, carries
the label.

Only the train split calls this, with its own random stream: the held-out, fresh and blind splits are
byte-identical whether or not the files exist (tests/test_synth_backgrounds.py).
Opt-in (`spacy-deid synth ... --split train --backgrounds 1`, or a folder instead of 1; $SPACY_DEID_SYNTH_BACKGROUNDS
where the option is not given). project.yml's `synth_backgrounds` turns it on: the shipped weights (Z3, fifty-seventh
session; Z2, Y, X and W before it) are trained on this mix, which since X also names the patient's hospital as
English-speaking countries do (`wide_institution`; ASQ-PHI place recall 81.4 -> 90.9), since Y makes
NURSING_SHARE of its English lines an ICU nurse's charting (`nursing.py`; PhysioNet token precision 28.7 -> 40.4),
since Z2 makes SPOKEN_SHARE of its Chinese insertions spoken turns (`spoken.py`; AI CUP token precision 51.7 ->
58.3) and misspells TYPO_SHARE of the English lines' long words, and since Z3 names people in those turns at
spoken rates and says numbers in them (AI CUP token precision 58.3 -> 67.2; docs/results_history.md); off, the
train split is the generator's alone, as a user's own experiments may want.
"""
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from random import Random
from typing import Callable, Dict, List, Sequence, Tuple

from ..han import HAN_RANGES, has_han
from ..rules.loading import load_default_patterns
from . import nursing, spoken
from .slots import SLOTS, Context, Piece
from .values import EnglishName

CLINICAL_TEXT = Path(__file__).resolve().parents[2] / "assets" / "clinical_text"
FILES = ("mtsamples_lines.txt", "nursing_shorthand.txt", "zh_consultation_lines.txt")
# At most one real line per this many generated lines of the note (English, Chinese). Half of 2 / 3's lines
# (L, N, P against H9) kept more of the synthetic splits' strict F (docs/results_history.md, forty-second to
# forty-fourth sessions).
ENGLISH_LINE_EVERY = 4
CHINESE_LINE_EVERY = 6
# Share of the English lines that are an ICU nurse's charted body system (`nursing.line`) rather than a real
# line: the real lines hold almost no vital sign, clock time or nurse's shorthand.
NURSING_SHARE = 0.4
# Share of the Chinese insertions that are one to three spoken turns of a consultation (`spoken.py`) rather than
# a written line: the lines are written consultations, and dialogue transcripts are speech.
SPOKEN_SHARE = 0.5
_SLOT_RE = re.compile(r"\{([A-Z_]+)\}")
_SPACE_AFTER_RE = re.compile(r"(?<=[.,;:)])\s(?=\S)")

# Share of train notes typed all in lower case (names included): real notes have both extremes.
ALL_LOWER_SHARE = 0.08
# Per inserted line: shorthand, one missing space, the line's case.
SHORTHAND_SHARE = 0.5
NO_SPACE_SHARE = 0.2
# In a shorthand line, share of the remaining long words clipped (`tolerated` -> `tol`, `suction` -> `sctn`):
# real charts abbreviate far more words than any list holds, and an unknown short word in clinical prose is
# rarely a name. N's false names fell 854 -> 189 tokens on PhysioNet (docs/results_history.md, forty-third session).
CLIP_SHARE = 0.25
# Of the clipped words, share cut to a prefix (`freq`); the rest keep their first letter and consonants (`sctn`).
CLIP_PREFIX_SHARE = 0.6
_LONG_WORD = re.compile(r"\b[A-Za-z]{6,}\b")
# Share of a real line's words of five letters or more typed with a slip, in every English line: charts are typed
# in a hurry, and a NER that saw real prose spelled right took a misspelt word (`origional`, `assymptomatic`)
# for a name it did not know.
TYPO_SHARE = 0.03
_TYPO_WORD = re.compile(r"\b[A-Za-z]{5,}\b")
_VOWELS = re.compile(r"[aeiouAEIOU]")
# Mostly in one case, as nursing notes are typed: with 0.15 / 0.05 the NER learned that capitalised words
# in prose are no names and lost 11 points of Presidio's recall; with 0.5 / 0.3, 4.5 (docs/results_history.md,
# forty-first session).
LOWER_LINE_SHARE = 0.5
UPPER_LINE_SHARE = 0.3
# Share of the patient's mentions in a real line (`the patient`, `the pt`) that become the patient's name,
# and of kinship words (`his wife`) followed by a relative's name: names as the subjects and objects of real
# sentences, not only after `Dr.`. At 0.9 rather than 0.5 (with the pronouns below) the NER lost fewer names
# to the real lines on all four real corpora (H9 against H, docs/results_history.md, forty-second session).
NAME_FRAME_SHARE = 0.9
# Share of the other third-person pronouns (`he`/`she` inside a sentence, `him`, the possessive `his`; Chinese
# `他`/`她`, the `你` a physician addresses) that become a name: real sentences whose subject, object or owner
# is a person, in both languages.
PRONOUN_FRAME_SHARE = 0.9
# Not a sentence's first `He`/`She`: framed there, it taught the NER that a sentence's first word may be the
# patient, and clinical words at a sentence's start became PATIENT (P against N: blind strict F 93.03 -> 93.88,
# PhysioNet false PATIENT tokens 467 -> 355; docs/results_history.md, forty-fourth session).
_PATIENT_MENTION = re.compile(r"\b[Tt]he (?:patient|pt)\b(?!, \{)")  # not one APPOSITION_SHARE named already
_PRONOUN = re.compile(r"\b(?:he|she|him)\b")
_KINSHIP = r"(?:wife|husband|son|daughter|mother|father|brother|sister|sons|daughters|friend)\b"
_KIN_MENTION = re.compile(r"\b(?:[Hh]is|[Hh]er|[Tt]he patient's) " + _KINSHIP)
_POSSESSIVE = re.compile(r"\b[Hh]is\b(?! " + _KINSHIP + ")")  # `his meds` -> `{name}'s meds`; not `her` (object too)
# The Chinese lines' frames: a relative after a kinship word (`我媽` -> `我媽{FAMILY_ZH}`), a titled
# physician for `醫生`/`大夫`, a hospital for `醫院` after a verb of going or a generic modifier.
_KIN_MENTION_ZH = re.compile(r"(?:我|他|她|你)的?(?:媽媽|爸爸|爺爺|奶奶|外婆|外公|老公|老婆|太太|丈夫|妻子|兒子|女兒|"
                             r"哥哥|姐姐|姊姊|妹妹|弟弟|媽|爸)")
_DOCTOR_MENTION_ZH = re.compile(r"醫生|大夫")
_HOSPITAL_MENTION_ZH = re.compile(r"(?<=[去到在])醫院|(?:當地|正規|大)醫院")
_THIRD_PERSON_ZH = re.compile(r"(?<!其)[他她](?!們)")  # not 其他 (other) nor 他們
_ADDRESSEE_ZH = re.compile(r"你(?!們)")
# The listener named at a turn's start (`美玲，...`, `陳先生，...`), at VOCATIVE_SHARE of the Chinese lines.
_VOCATIVE_ZH = re.compile(f"^(?=[{HAN_RANGES}])")
VOCATIVE_SHARE = 0.15
ADDRESSEE_SLOTS_ZH = ("PATIENT_TITLED_ZH", "PATIENT_TITLED_ZH", "PATIENT_GIVEN_ZH", "PATIENT_ZH")
VOCATIVE_SLOTS_ZH = ("PATIENT_GIVEN_ZH", "PATIENT_GIVEN_ZH", "PATIENT_TITLED_ZH", "FAMILY_GIVEN_ZH")
# Share of the patient's mentions before a verb that keep the mention and add the name in apposition (`The patient,
# {PATIENT_GIVEN_SUR_EN}, is a ...`): prose introduces people after a comma, where S8 lost names B found
# (docs/results_history.md, fiftieth session).
APPOSITION_SHARE = 0.5
_APPOSITION = re.compile(r"\b[Tt]he (?:patient|pt)(?= (?:is|was|has|had|presents|presented|reports|denies|states|"
                         r"underwent|returns)\b)")
APPOSITION_SLOTS = ("PATIENT_GIVEN_SUR_EN", "PATIENT_TITLED_EN", "PATIENT_EN")
# Places in English prose: an institution after a preposition (`transferred to the hospital` -> `to {HOSPITAL_EN}`,
# at NAME_FRAME_SHARE), and a person's origin after the age (`a 45-year-old man` -> `... man from {CITY_EN}`,
# at ORIGIN_SHARE): the real lines name no place, and a NER that saw places only in templates lost those
# after `in`/`at` in real sentences (S8 against B on ASQ-PHI, fiftieth session).
_INSTITUTION = re.compile(r"(?:(?<=\bto )|(?<=\bat )|(?<=\bin )|(?<=\bfrom ))[Tt]he (?:outside |local )?(?:hospital|"
                          r"clinic|facility|nursing home|rehab|rehabilitation center|medical center)\b")
_ORIGIN = re.compile(r"-year-old (?:white |black |african-american |hispanic |caucasian |asian )?(?:male|female|man|"
                     r"woman|gentleman|lady|boy|girl)\b", re.IGNORECASE)
ORIGIN_SHARE = 0.6
ORIGIN_SLOTS = ("CITY_EN", "CITY_EN", "DISTRICT_EN", "COUNTRY_EN")
PATIENT_FRAME_SLOTS = ("PATIENT_TITLED_EN", "PATIENT_TITLED_EN", "PATIENT_GIVEN_SUR_EN", "PATIENT_EN",
                       "PATIENT_SUR_EN")
KIN_FRAME_SLOTS = ("FAMILY_GIVEN_EN", "FAMILY_EN", "FAMILY_TITLED_EN")
PRONOUN_FRAME_SLOTS = ("PATIENT_EN", "PATIENT_SUR_EN", "PATIENT_TITLED_EN", "FAMILY_EN", "PERSON_EN")
# Given names alone (`美玲`, `阿玲`) too: dialogues name people as family and friends call them, and a NER that
# saw only full names in real sentences took a two-character given name for a word.
THIRD_PERSON_SLOTS_ZH = ("PATIENT_ZH", "FAMILY_ZH", "PERSON_ZH", "PATIENT_TITLED_ZH", "PERSON_GIVEN_ZH",
                         "FAMILY_GIVEN_ZH")

# Standard chart abbreviations (general clinical usage, not read from any evaluation corpus).
SHORTHAND: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("intensive care unit", ("ICU", "MICU", "SICU", "icu", "micu")),
    ("coronary care unit", ("CCU", "ccu")), ("cardiac care unit", ("CCU", "ccu")),
    ("emergency room", ("ER", "EW", "ed")), ("emergency department", ("ED", "ER")),
    ("operating room", ("OR",)), ("recovery room", ("PACU", "pacu")),
    ("shortness of breath", ("SOB", "sob")), ("nausea and vomiting", ("N/V", "n/v")),
    ("within normal limits", ("WNL", "wnl")), ("history of", ("h/o", "hx of")),
    ("status post", ("s/p",)), ("complains of", ("c/o",)), ("complained of", ("c/o",)),
    ("secondary to", ("2/2", "sec to")), ("follow up", ("f/u", "f/u")), ("follow-up", ("f/u",)),
    ("blood pressure", ("BP", "bp")), ("heart rate", ("HR", "hr")), ("respiratory rate", ("RR", "rr")),
    ("physical therapy", ("PT", "pt")), ("occupational therapy", ("OT",)), ("as needed", ("prn", "PRN")),
    ("by mouth", ("PO", "po")), ("intravenous", ("IV", "iv")), ("intravenously", ("IV", "iv")),
    ("twice a day", ("bid", "BID")), ("twice daily", ("bid", "BID")), ("three times a day", ("tid", "TID")),
    ("every day", ("qd", "daily")), ("bowel movement", ("BM", "bm")), ("urine output", ("UOP", "u/o")),
    ("patient", ("pt", "Pt", "pt.")), ("patients", ("pts",)), ("without", ("w/o",)), ("with", ("w/", "c")),
    ("history", ("hx", "Hx")), ("diagnosis", ("dx", "Dx")), ("treatment", ("tx", "Tx")),
    ("prescription", ("rx", "Rx")), ("symptoms", ("sx", "sxs")), ("fracture", ("fx", "Fx")),
    ("bilateral", ("b/l", "bilat")), ("bilaterally", ("b/l", "bilat")), ("discharge", ("d/c", "dc")),
    ("discontinued", ("d/c'd", "dc'd")), ("neurological", ("neuro",)), ("neurologic", ("neuro",)),
    ("cardiovascular", ("CV", "cv")), ("respiratory", ("resp",)), ("gastrointestinal", ("GI", "gi")),
    ("genitourinary", ("GU", "gu")), ("abdomen", ("abd",)), ("abdominal", ("abd",)),
    ("extremities", ("ext", "extrem")), ("temperature", ("temp", "T")), ("approximately", ("approx", "~")),
    ("continue", ("cont",)), ("continued", ("cont'd",)), ("medications", ("meds",)), ("medication", ("med",)),
    ("hours", ("hrs",)), ("hour", ("hr",)), ("minutes", ("mins", "min")), ("negative", ("neg",)),
    ("positive", ("pos", "+")), ("increased", ("incr", "inc")), ("decreased", ("decr", "dec")),
    ("oxygen", ("O2", "o2")), ("saturation", ("sat",)), ("saturations", ("sats",)), ("normal", ("nl",)),
    ("tracheostomy", ("trach",)), ("dopamine", ("dopa",)), ("norepinephrine", ("levo", "levophed")),
    ("ventilator", ("vent",)), ("family", ("fam",)), ("nursing", ("nsg",)), ("left", ("L", "lt")),
    ("right", ("R", "rt")), ("times", ("x",)), ("evaluation", ("eval",)), ("laboratory", ("lab",)),
    ("hemoglobin", ("hgb", "Hgb")), ("potassium", ("K", "K+")), ("sodium", ("Na",)),
    ("nasogastric", ("NG", "ng")), ("chest x-ray", ("CXR", "cxr")), ("x-ray", ("xray", "XR")),
    ("lower extremity", ("LE", "le")), ("upper extremity", ("UE", "ue")), ("consult", ("c/s",)),
    ("anterior", ("ant",)), ("posterior", ("post",)),
)
ABBREVIATIONS = "chart_abbreviations.tsv"  # long form -> written forms, scripts/build_chart_abbreviations.py
PERSON_NAMES = "person_names_en.tsv"  # Census and Faker names, scripts/build_person_names.py
# Share of English lines whose name frames take people named from PERSON_NAMES rather than the note's
# Taiwanese patient, family and doctors: names the lexicons do not hold, so that a frame's context, not the
# name, carries the label.
WIDE_NAME_SHARE = 0.5


@lru_cache(maxsize=4)
def shorthand_table(folder: str = str(CLINICAL_TEXT)) -> "Tuple[re.Pattern[str], Dict[str, Tuple[str, ...]]]":
    """The phrases `shorthand` abbreviates and their forms: SHORTHAND, then the clinicians' inventory in
    `folder` (absent in an installed wheel) for the phrases SHORTHAND lacks. `shorthand` reads the package's
    own folder, also when $SPACY_DEID_SYNTH_BACKGROUNDS names another folder of lines."""
    table: Dict[str, Tuple[str, ...]] = {k: v for k, v in SHORTHAND}
    path = Path(folder) / ABBREVIATIONS
    if path.is_file():
        for line in path.read_text(encoding="utf8").splitlines():
            long_form, _, forms = line.partition("\t")
            if forms and long_form not in table:
                table[long_form] = tuple(forms.split("|"))
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, table), key=len, reverse=True)) + r")\b",
                         re.IGNORECASE)
    return pattern, table


@lru_cache(maxsize=4)
def load_lines(folder: str = str(CLINICAL_TEXT)) -> Tuple[str, ...]:
    """Every background line found; empty when the asset files are absent (an installed wheel)."""
    lines: List[str] = []
    for name in FILES:
        path = Path(folder) / name
        if path.is_file():
            lines.extend(line for line in path.read_text(encoding="utf8").splitlines()
                         if line.strip() and not line.startswith("#"))
    return tuple(lines)


@lru_cache(maxsize=4)
def person_names(folder: str = str(CLINICAL_TEXT)) -> Tuple[Tuple[Tuple[str, str], ...], Tuple[str, ...]]:
    """(given name, sex M/F/U) pairs and surnames of `folder`'s PERSON_NAMES; empty when absent (a wheel)."""
    given: List[Tuple[str, str]] = []
    surnames: List[str] = []
    path = Path(folder) / PERSON_NAMES
    if path.is_file():
        for line in path.read_text(encoding="utf8").splitlines():
            kind, _, rest = line.partition("\t")
            sex, _, name = rest.partition("\t")
            if kind == "given" and name:
                given.append((name, sex))
            elif kind == "surname" and name:
                surnames.append(name)
    return tuple(given), tuple(surnames)


def strangers(ctx: Context, folder: str = str(CLINICAL_TEXT)) -> Context:
    """`ctx` with its patient, family, persons and doctors renamed from `person_names(folder)`: the people of
    one real line. `ctx` itself when the list is absent."""
    given, surnames = person_names(folder)
    if not given or not surnames:
        return ctx
    rng = ctx.rng

    def person(surname: str = "") -> EnglishName:
        name, sex = rng.choice(given)
        return EnglishName(name, surname or rng.choice(surnames), sex if sex in ("M", "F") else rng.choice("MF"),
                           with_initials=True)
    patient = person()
    doctors = [person() for _ in range(3)]
    people = dict(name=patient, family=[person(patient.surname), person(), person()], persons=[person()],
                  doctors=doctors, attending=doctors[0], resident=doctors[1])
    return replace(ctx, patient=replace(ctx.patient, **people))


# Share of train notes whose patient's hospital is an English-speaking world's institution (`St. Anne's Hospital`,
# `Denver General`) rather than the lexicon's: its English names are Taiwan's (6 of 2,088 spans of mix W were
# possessive), and W cut `X's Hospital` at the apostrophe on ASQ-PHI (fifty-third session). The real lines name
# almost no institution (14 of 9,369 match _INSTITUTION), so the note's own hospital carries the names.
WIDE_PLACE_SHARE = 0.5
# How such institutions are named: after a saint, a donor or founder, a town or state, a faith or a charity.
# `{S}` a surname, `{G}` a given name, `{T}` a town or state; the second form is the short one charts write.
INSTITUTION_FORMS: Tuple[Tuple[str, str], ...] = (
    ("St. {G}'s Hospital", "St. {G}'s"), ("Saint {G}'s Medical Center", "St. {G}'s"),
    ("St. {G}'s Regional Medical Center", "St. {G}'s"), ("{S} Memorial Hospital", "{S} Memorial"),
    ("{G} {S} Memorial Hospital", "{S} Memorial"), ("{T} General Hospital", "{T} General"),
    ("{T} Medical Center", "{T} Medical Center"), ("{T} Regional Medical Center", "{T} Regional"),
    ("{T} Community Hospital", "{T} Community"), ("{S} Clinic", "{S} Clinic"), ("{S} Family Clinic", "{S} Clinic"),
    ("{T} Family Health Center", "{T} Health Center"), ("University of {T} Hospital", "University Hospital"),
    ("{T} University Medical Center", "{T} University"), ("{S} Children's Hospital", "{S} Children's"),
    ("{T} Children's Hospital", "{T} Children's"), ("{S}'s Nursing Home", "{S}'s"),
    ("{T} Rehabilitation Center", "{T} Rehab"), ("{T} VA Medical Center", "{T} VA"),
    ("{S} County Hospital", "{S} County"), ("{S}-{S} Hospital", "{S}-{S}"), ("{S} House", "{S} House"),
    ("Mercy Hospital of {T}", "Mercy"), ("Good Samaritan Hospital", "Good Samaritan"),
    ("Sacred Heart Medical Center", "Sacred Heart"), ("Providence {T} Hospital", "Providence {T}"),
    ("{T} Baptist Hospital", "{T} Baptist"), ("{T} Methodist Hospital", "{T} Methodist"),
    ("Presbyterian Hospital of {T}", "Presbyterian"), ("Holy Cross Hospital", "Holy Cross"),
)


@lru_cache(maxsize=1)
def towns() -> Tuple[str, ...]:
    """English city and state names of the shipped places rules (CLDR exemplar cities, first-level divisions)."""
    return tuple(sorted({p for r in load_default_patterns() if r.label in ("CITY", "STATE") for p in r.phrases or ()
                         if p.isascii() and p[:1].isupper() and not p.isupper()}))  # not the upper-case copies


def institution(rng: Random, folder: str = str(CLINICAL_TEXT)) -> Tuple[str, str]:
    """A made-up institution's full and short names; ("", "") when PERSON_NAMES is absent (a wheel)."""
    given, surnames = person_names(folder)
    if not given or not surnames:
        return "", ""
    full, short = rng.choice(INSTITUTION_FORMS)
    values = {"G": rng.choice(given)[0], "T": rng.choice(towns())}

    def fill(form: str) -> str:
        form = form.replace("{G}", values["G"]).replace("{T}", values["T"])
        while "{S}" in form:  # `{S}-{S}`: two surnames, each drawn once for both forms
            key = f"S{form.count('{S}')}"
            values.setdefault(key, rng.choice(surnames))
            form = form.replace("{S}", values[key], 1)
        return form
    return fill(full), fill(short)


def wide_institution(rng: Random, ctx: Context) -> Context:
    """`ctx` whose patient's hospital is written in English as `institution` names it (its Chinese names kept),
    at WIDE_PLACE_SHARE; `ctx` itself otherwise or without PERSON_NAMES."""
    if rng.random() >= WIDE_PLACE_SHARE:
        return ctx
    full, short = institution(rng)
    if not full:
        return ctx
    hospital = dict(ctx.patient.hospital, en=full, abbr_en=short, code=full)
    return replace(ctx, patient=replace(ctx.patient, hospital=hospital))


ENV = "SPACY_DEID_SYNTH_BACKGROUNDS"


def requested(value: str) -> Tuple[str, ...]:
    """The lines a setting asks for: empty or 0 -> none; 1 -> assets/clinical_text/; anything else -> that
    folder. `spacy-deid synth --backgrounds` and $SPACY_DEID_SYNTH_BACKGROUNDS take the same values."""
    value = value.strip()
    if value in ("", "0"):
        return ()
    return load_lines() if value == "1" else load_lines(value)


def from_environment() -> Tuple[str, ...]:
    """The lines $SPACY_DEID_SYNTH_BACKGROUNDS asks for (unset: none)."""
    return requested(os.environ.get(ENV, ""))


def shorthand(rng: Random, text: str) -> str:
    """Each expandable phrase becomes a chart abbreviation with probability 0.7."""
    pattern, table = shorthand_table()

    def swap(m: "re.Match[str]") -> str:
        if rng.random() >= 0.7:
            return m.group()
        return rng.choice(table[m.group().lower()])
    return pattern.sub(swap, text)


def clip_words(rng: Random, text: str) -> str:
    """Each long word, with probability CLIP_SHARE, becomes its first 3-5 letters (`freq`) or its first letter and
    consonants (`amts`), as charts abbreviate."""
    def clip(m: "re.Match[str]") -> str:
        if rng.random() >= CLIP_SHARE:
            return m.group()
        word = m.group()
        if rng.random() < CLIP_PREFIX_SHARE:
            return word[:rng.randint(3, 5)]
        skeleton = word[0] + _VOWELS.sub("", word[1:])
        return skeleton[:rng.randint(3, 5)]
    return _LONG_WORD.sub(clip, text)


def misspell(rng: Random, word: str) -> str:
    """`tolerated` -> `toelrated` or `tolerted`: two neighbouring letters swapped or one dropped, never the first."""
    i = rng.randint(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:] if rng.random() < 0.5 else word[:i] + word[i + 1:]


def typos(rng: Random, text: str) -> str:
    """Each word of five letters or more misspelt with probability TYPO_SHARE."""
    return _TYPO_WORD.sub(lambda m: misspell(rng, m.group()) if rng.random() < TYPO_SHARE else m.group(), text)


def drop_a_space(rng: Random, text: str) -> str:
    """`pt alert,oriented.no distress`: one space after punctuation typed away."""
    spaces = list(_SPACE_AFTER_RE.finditer(text))
    if not spaces:
        return text
    m = rng.choice(spaces)
    return text[:m.start()] + text[m.end():]


def _case(text: str, mode: str) -> str:
    """ASCII-only case change, so a piece keeps its length."""
    if mode == "lower":
        return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)
    if mode == "upper":
        return "".join(c.upper() if "a" <= c <= "z" else c for c in text)
    return text


def _framer(rng: Random, slots: Tuple[str, ...], share: float, keep: Tuple[str, ...] = (),
            suffix: str = "") -> "Callable[[re.Match[str]], str]":
    """A `re.sub` callback: with probability `share` a mention becomes one of `slots` followed by `suffix`, else it
    stays. `keep`: the separators one of which joins the kept mention to the slot (`his wife, {FAMILY_EN}`);
    empty, the slot replaces the mention. A separator is drawn only where there is a choice, so a single one
    leaves the random stream as it was."""
    def sub(m: "re.Match[str]") -> str:
        if rng.random() >= share:
            return m.group()
        before = ""
        if keep:
            before = m.group() + (rng.choice(keep) if len(keep) > 1 else keep[0])
        return before + "{" + rng.choice(slots) + "}" + suffix
    return sub


def name_frames(rng: Random, line: str) -> str:
    """`The patient was seen` -> `{PATIENT_TITLED_EN} was seen`, `his wife` -> `his wife {FAMILY_EN}`,
    each mention with probability NAME_FRAME_SHARE (or `The patient, {PATIENT_EN}, is` at APPOSITION_SHARE; places
    after `to`/`at`/`in`/`from` and a person's age likewise), and `so he was` -> `so {PATIENT_EN} was`, `told him` ->
    `told {PERSON_EN}`, `his meds` -> `{FAMILY_EN}'s meds` at PRONOUN_FRAME_SHARE: slots the template slots fill
    with gold spans."""
    kin = _framer(rng, KIN_FRAME_SLOTS, NAME_FRAME_SHARE, keep=(" ", ", "))
    line = _APPOSITION.sub(_framer(rng, APPOSITION_SLOTS, APPOSITION_SHARE, keep=(", ",), suffix=","), line)
    line = _INSTITUTION.sub(_framer(rng, ("HOSPITAL_EN",), NAME_FRAME_SHARE), line)
    line = _ORIGIN.sub(_framer(rng, ORIGIN_SLOTS, ORIGIN_SHARE, keep=(" from ", " of ", " who lives in ")), line)
    line = _PATIENT_MENTION.sub(_framer(rng, PATIENT_FRAME_SLOTS, NAME_FRAME_SHARE), _KIN_MENTION.sub(kin, line))
    line = _PRONOUN.sub(_framer(rng, PRONOUN_FRAME_SLOTS, PRONOUN_FRAME_SHARE), line)
    return _POSSESSIVE.sub(_framer(rng, PRONOUN_FRAME_SLOTS, PRONOUN_FRAME_SHARE, suffix="'s"), line)


def name_frames_zh(rng: Random, line: str, vocative_share: float = VOCATIVE_SHARE,
                   pronoun_share: float = PRONOUN_FRAME_SHARE) -> str:
    """`我媽說` -> `我媽{FAMILY_ZH}說`, `醫生` -> `{DOCTOR_TITLED_ZH}`, `去醫院` -> `去{HOSPITAL_ZH}`, each mention
    with probability NAME_FRAME_SHARE; `他說` -> `{PERSON_ZH}說`, `建議你` -> `建議{PATIENT_TITLED_ZH}` (or the
    patient's given or full name) at `pronoun_share`; `{PATIENT_GIVEN_ZH}，` before a line at `vocative_share`
    (a spoken turn passes spoken.py's, lower)."""
    line = _VOCATIVE_ZH.sub(_framer(rng, VOCATIVE_SLOTS_ZH, vocative_share, suffix="，"), line)
    line = _KIN_MENTION_ZH.sub(_framer(rng, ("FAMILY_ZH",), NAME_FRAME_SHARE, keep=("",)), line)
    line = _DOCTOR_MENTION_ZH.sub(_framer(rng, ("DOCTOR_TITLED_ZH",), NAME_FRAME_SHARE), line)
    line = _HOSPITAL_MENTION_ZH.sub(_framer(rng, ("HOSPITAL_ZH",), NAME_FRAME_SHARE), line)
    line = _THIRD_PERSON_ZH.sub(_framer(rng, THIRD_PERSON_SLOTS_ZH, pronoun_share), line)
    return _ADDRESSEE_ZH.sub(_framer(rng, ADDRESSEE_SLOTS_ZH, pronoun_share), line)


def render_line(line: str, ctx: Context) -> List[Piece]:
    """One background line as pieces: literal text with noise, frames filled by the template slots."""
    rng = ctx.rng
    if has_han(line):  # Chinese: frames, no English shorthand or case
        return _fill(name_frames_zh(rng, line), ctx, lambda part: part, "")
    line = name_frames(rng, line)
    if rng.random() < WIDE_NAME_SHARE:
        ctx = strangers(ctx)
    short = rng.random() < SHORTHAND_SHARE
    no_space = rng.random() < NO_SPACE_SHARE
    r = rng.random()
    mode = "lower" if r < LOWER_LINE_SHARE else "upper" if r < LOWER_LINE_SHARE + UPPER_LINE_SHARE else ""

    def noise(part: str) -> str:
        if short:
            part = clip_words(rng, shorthand(rng, part))
        part = typos(rng, part)
        return drop_a_space(rng, part) if no_space else part
    return _fill(line, ctx, noise, mode)


def _fill(line: str, ctx: Context, noise: Callable[[str], str], mode: str) -> List[Piece]:
    """The line's literal parts with `noise`, its frames filled by the template slots, all in `mode`'s case."""
    pieces: List[Piece] = []
    for i, part in enumerate(_SLOT_RE.split(line)):
        if i % 2:
            pieces.extend((_case(t, mode), label, norm) for t, label, norm in SLOTS[part](ctx))
        elif part:
            pieces.append((_case(noise(part), mode), None, None))
    return pieces


@lru_cache(maxsize=4)
def by_language(backgrounds: Tuple[str, ...]) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """The English lines and the Chinese ones (a line with a Han character)."""
    return (tuple(line for line in backgrounds if not has_han(line)),
            tuple(line for line in backgrounds if has_han(line)))


def mix_in(ctx: Context, backgrounds: Sequence[str], lines: List[List[Piece]]) -> None:
    """Insert real lines between the note's lines: about one English line per ENGLISH_LINE_EVERY generated
    lines (NURSING_SHARE of them a nurse's charted body system), and up to one Chinese line per
    CHINESE_LINE_EVERY (SPOKEN_SHARE of them turns of a dialogue)."""
    english, chinese = by_language(tuple(backgrounds))
    for pool, share in ((english, ENGLISH_LINE_EVERY), (chinese, CHINESE_LINE_EVERY)):
        if not pool:
            continue
        n = ctx.rng.randint(1, max(2, len(lines) // share))
        for _ in range(n):
            at = ctx.rng.randint(1, len(lines)) if lines else 0
            if pool is chinese and ctx.rng.random() < SPOKEN_SHARE:
                lines.insert(at, dialogue(ctx, pool))
                continue
            nurse = pool is english and ctx.rng.random() < NURSING_SHARE
            lines.insert(at, render_line(nursing.line(ctx.rng) if nurse else ctx.rng.choice(pool), ctx))


def dialogue(ctx: Context, pool: Sequence[str]) -> List[Piece]:
    """One to spoken.MAX_TURNS turns in one line, each a Chinese line said aloud with spoken.py's rates of naming,
    a short answer between two, a number said after one at spoken.QUANTITY_SHARE, a question answered by a place
    or a job at spoken.ANSWER_SHARE."""
    rng = ctx.rng
    pieces: List[Piece] = []
    for i in range(rng.randint(1, spoken.MAX_TURNS)):
        if i and rng.random() < spoken.SHORT_TURN_SHARE:
            pieces.append(spoken.short_turn(rng))
        framed = name_frames_zh(rng, rng.choice(pool), spoken.VOCATIVE_SHARE, spoken.PRONOUN_FRAME_SHARE)
        said = _fill(framed, ctx, lambda part: spoken.particles(rng, part), "")
        pieces.extend(spoken.turn(rng, said))
        if rng.random() < spoken.QUANTITY_SHARE:
            pieces.extend(spoken.quantity_turn(rng))
        if rng.random() < spoken.ANSWER_SHARE:
            question, answer = spoken.question_and_answer(rng)
            pieces.extend(question)
            pieces.extend(spoken.turn(rng, _fill(answer, ctx, lambda part: part, "")))
    return pieces


def lower_note(ctx: Context) -> bool:
    """Whether this train note is typed all in lower case (names too)."""
    return ctx.rng.random() < ALL_LOWER_SHARE


def lower_ascii(text: str) -> str:
    return _case(text, "lower")
