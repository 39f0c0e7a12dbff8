"""PHI-free ICU nursing-note lines, made up of a body system and its findings with numbers in them.

Why: the real lines of the training mix are dictated transcriptions (MTSamples) whose cleaning dropped clock
times and most numbers, and 31 hand-written nursing lines. A NER that never saw a nurse's body text took its
numbers for PHI (a heart-rate range for a ROOM, a clock time for a DATE, a lab value for a NUMBER) and its
shorthand subjects for names. The annotation scheme says vital signs, lab values, doses and times of day are
not PHI; these lines teach it from data. Their endings point to the flowsheet or name who was told, in the same
frames (`per Carevue`, `per {DOCTOR_SUR_EN}`): Z4, whose lines had only the chart words, learned that those
frames never hold a name and lost clinicians there. Written for this project from general ICU charting usage; no line or
value is read from any evaluation corpus.
"""
from random import Random
from typing import Callable, Dict, Tuple


def _trend(lo: int, hi: int) -> Callable[[Random], str]:
    """A charted range of a vital sign: `70s`, `70's`, `70s-80s`, `high 70s`, `72`, `70-90`."""
    def value(r: Random) -> str:
        n = r.randrange(lo // 10, hi // 10 + 1) * 10
        return r.choice((f"{n}s", f"{n}'s", f"{n}s-{n + 10}s", f"high {n}s", f"low {n}s", str(n + r.randint(0, 9)),
                         f"{n}-{n + r.choice((10, 20, 30))}", f"{n}'s-{n + 20}'s"))
    return value


def _clock(r: Random) -> str:
    """A time of day as nurses chart it: `0400`, `2230`, `4am`, `4 pm`, `16:30`, `10A`, `430a`."""
    hour, minute = r.randint(0, 23), r.choice((0, 0, 0, 15, 30, 45))
    twelve = hour % 12 or 12
    return r.choice((f"{hour:02d}{minute:02d}", f"{hour:02d}{minute:02d}", f"{twelve}{r.choice(('am', 'pm'))}",
                     f"{twelve} {r.choice(('am', 'pm', 'AM', 'PM'))}", f"{hour:02d}00",
                     f"{hour:02d}:{minute:02d}", f"{twelve}{r.choice('AaPp')}",
                     f"{twelve}{minute:02d}{r.choice('ap')}"))


def _decimal(lo: float, hi: float, places: int = 1) -> Callable[[Random], str]:
    return lambda r: f"{r.uniform(lo, hi):.{places}f}"


def _integer(lo: int, hi: int) -> Callable[[Random], str]:
    return lambda r: str(r.randint(lo, hi))


VALUES: Dict[str, Callable[[Random], str]] = {
    "hr": _trend(40, 140), "sbp": _trend(70, 190), "map": _trend(50, 90), "rr": _trend(10, 30),
    "bp": lambda r: f"{r.randint(75, 195)}/{r.randint(35, 105)}",
    "bpt": lambda r: f"{r.randrange(8, 19) * 10}s/{r.randrange(4, 10) * 10}s",
    "time": _clock, "temp": _decimal(97.0, 103.2), "tempc": _decimal(36.0, 39.6),
    "sat": _integer(86, 100), "fio2": lambda r: str(r.choice((21, 28, 30, 35, 40, 50, 60, 70, 100))),
    "o2": lambda r: r.choice((f"{r.randint(1, 6)}L NC", f"{r.randint(1, 6)}l nc", f"{r.choice((35, 40, 50, 70))}% FM",
                              f"{r.choice((40, 50, 100))}% face tent", "RA", "NRB", f"{r.randint(2, 6)}LNP")),
    "tv": _integer(350, 800), "peep": lambda r: str(r.choice((5, 5, 8, 10, 12, 15))), "ps": _integer(5, 20),
    "drip": _decimal(0.01, 0.3, 2), "dose": _integer(1, 80), "mg": lambda r: r.choice(("0.5", "1", "2", "5", "10", "20",
                                                                                      "40", "80", "650", "1000")),
    "units": lambda r: str(r.randrange(4, 20) * 100), "ptt": _integer(25, 120), "inr": _decimal(0.9, 4.5),
    "k": _decimal(2.8, 5.9), "meq": lambda r: str(r.choice((10, 20, 40, 60, 80))), "mag": _decimal(1.2, 2.8),
    "hct": _decimal(19.0, 42.0), "wbc": _decimal(2.0, 28.0), "plt": _integer(20, 450), "bs": _trend(60, 320),
    "ck": _integer(80, 3500), "abg": lambda r: f"7.{r.randint(18, 52)}/{r.randint(25, 70)}/{r.randint(50, 300)}"
                                                   f"/{r.randint(-8, 8)}",
    "co": _decimal(2.0, 8.5), "ci": _decimal(1.4, 4.5, 2), "svr": _integer(500, 2200), "cvp": _integer(2, 22),
    "wedge": lambda r: f"{r.randint(8, 30)}-{r.randint(12, 35)}",
    "rate": lambda r: str(r.randrange(1, 10) * 10), "frac": lambda r: r.choice(("1/2", "1/3", "1/4", "3/4", "2/3")),
    "cc": lambda r: str(r.randrange(1, 40) * 25), "uop": lambda r: f"{r.randint(10, 80)}-{r.randint(40, 200)}",
    "io": lambda r: f"{r.choice(('+', '-', 'neg ', 'pos '))}{r.randint(1, 30) * 100}",
    "n": _integer(1, 4), "gcs": _integer(3, 15), "pupil": lambda r: f"{r.randint(2, 6)}",
    "plus": lambda r: r.choice(("1", "2", "3", "trace ")),
    "pain": lambda r: f"{r.randint(0, 10)}/10", "kilo": lambda r: f"{r.randint(2, 30)}{r.choice('Kk')}",
    "liters": lambda r: f"{r.randint(1, 5)}{r.choice('Ll')}", "ef": lambda r: str(r.randrange(10, 70, 5)),
    "service": lambda r: r.choice(SERVICES), "role": lambda r: r.choice(ROLES), "kin": lambda r: r.choice(KIN),
    "place": lambda r: "{HOSPITAL_EN}" if r.random() < HOSPITAL_PLACE_SHARE else r.choice(UNITS + OUTSIDE),
    "stool": lambda r: r.choice(("loose brown", "liquid brown", "soft formed", "lg soft brown", "sm loose",
                                 "dark green", "loose green", "formed brown", "mucousy", "black tarry",
                                 "lg amt liquid")),
}

# Findings charted under each body system: `{kind}` is a value of VALUES; an upper-case `{SLOT}` is a template
# slot that `backgrounds.render_line` fills with a gold span (a few people, as nurses chart who was told).
SYSTEMS: Tuple[Tuple[Tuple[str, ...], Tuple[str, ...]], ...] = (
    (("neuro", "NEURO", "Neuro"), (
        "a&ox{n}", "alert, oriented x{n}", "perrl {pupil}mm brisk", "mae", "follows commands", "withdraws to pain",
        "sedated on propofol {dose} mcg/kg/min", "gcs {gcs}", "restless overnight, ativan {mg}mg iv x1 at {time}",
        "soft restraints to ue's", "le's weak",
        "opens eyes to voice", "nonverbal, nods appropriately", "fentanyl gtt at {dose} mcg/hr",
        "sedation held at {time} for neuro check", "denies pain", "morphine {mg}mg iv prn with good effect",
        "moving all extremities", "haldol {mg}mg iv x1 for agitation", "oriented to self only", "calm, cooperative",
        "sleeping in naps", "pupils {pupil}mm equal and reactive",
        "c/o pain {pain}, medicated w/ morphine {mg}mg", "pain {pain} at {time}", "eeg in am per {service}",
        "seen by {service} team")),
    (("cv", "CV", "cardiac", "CARDIAC", "c/v"), (
        "hr {hr} sr", "hr {hr} afib", "nsr {hr}, no ectopy", "st {hr} with occ pvc's", "sbp {sbp}", "bp {bp}",
        "bp {bpt}", "map {map}", "levo at {drip} mcg/kg/min", "dopa weaned to {dose} mcg/kg/min",
        "neo titrated to keep map >{map}", "k {k}, repleted w/ {meq}meq kcl", "mg {mag} repleted",
        "cvp {cvp}", "cardiac output {co}, index {ci}, svr {svr}", "wedge {wedge}",
        "heparin gtt at {units}u/hr, ptt {ptt}",
        "inr {inr}", "pulses palpable", "{plus}+ pedal edema", "v-paced, rate {hr}", "ck {ck}, trending down",
        "nitro gtt at {dose} mcg/min", "ntg titrated off", "nitro sl x{n} with relief",
        "dobutamine at {dose} mcg/kg/min", "dobuta weaned to {n}", "lopressor {mg}mg iv", "lasix gtt at {n}mg/hr",
        "betablockers held for sbp {sbp}", "vss", "hemodynamically stable", "hemodynamics stable", "freq pvc's",
        "1st degree avb", "pacer wires capped",
        "sr to st {hr} with rare pvc's", "st {hr}-{hr}", "afib with rvr to {hr}", "maps drifted down to {map}",
        "sbp as low as {sbp}", "hr as high as {hr}", "hr {hr} - {hr}", "cvp {cvp}-{cvp}, pcw {cvp}",
        "co/ci/svr {co}/{ci}/{svr}", "goal map > {map}", "temp pacer placed by {service}",
        "{service} in to check pacer", "s/p cabg {DATE_CHART_EN}", "echo {DATE_CHART_EN} ef {ef}%")),
    (("resp", "RESP", "Resp", "pulm", "PULM"), (
        "ls clear", "ls coarse, diminished at bases", "sats {sat}% on {o2}", "sats {sat}-{sat}%",
        "vent a/c {tv}x{rr}, peep {peep}, fio2 {fio2}%", "cpap {ps}/{peep}", "ps {ps}/{peep}, fio2 {fio2}%",
        "tidal volumes {tv}-{tv}", "rr {rr}", "abg {abg}", "weaned to {o2}", "sx'd for thick tan secretions",
        "suctioned x{n} for sm amt white", "cxr at {time}", "crackles at bases bilat", "rt in for neb at {time}",
        "trach collar trial at {time}, on {o2}", "abg's {abg}", "mdi's given", "nebs q{n}h and prn",
        "ABG's stable", "strong cough", "trach site c/d/i", "weaning per protocol", "extubated at {time} to {o2}",
        "plan to wean to extubate", "sx'd q{n}h for thick yellow",
        "crackles {frac} up bilat", "rales at bases {frac} up", "psv {ps}/{peep} {fio2}%",
        "trial of cpap {ps}/{peep} this am",
        "rr {rr} - {rr}, spont tv {tv} - {tv}", "lung sounds coarse throughout", "breath sounds diminished at bases",
        "abg {abg} on {o2}")),
    (("gi", "GI", "gi/gu", "GI/GU"), (
        "abd soft, +bs", "abd distended, hypoactive bs", "tf at {rate}cc/hr, goal {rate}",
        "ativan {frac} tab po at {time}",
        "ngt to lcs, {cc}cc bilious out", "bm x{n}, guaiac neg", "npo except meds", "tolerating clears",
        "tf held at {time} for residual {cc}cc", "protonix {mg}mg iv", "ogt to lws", "ngt to lis, {cc}cc out",
        "TF's at goal", "OGT to LIS", "{stool} stool x{n}, guaiac neg", "passing {stool} stool via fib",
        "lg {stool} bm", "colostomy draining {stool} stool {cc}cc", "tpn at {rate}cc/hr", "tol reg diet in sm amts",
        "poor po intake", "taking sips w/ meds", "+flatus, no bm")),
    (("gu", "GU", "renal", "RENAL"), (
        "uop {uop}cc/hr", "foley patent, {uop}cc/hr", "lasix {mg}mg iv at {time}, diuresed {cc}cc",
        "i/o {io}cc", "bun/cr {dose}/{k}", "cvvh running at {rate}0cc/hr", "neg {cc}cc since midnight",
        "voiding qs via foley", "urine dk amber", "lasix {mg}mg iv with good response",
        "{liters} neg for the day", "diuresing well, {liters} negative", "{service} following")),
    (("id", "ID", "endo", "ENDO", "heme", "HEME"), (
        "tmax {temp}", "t max {tempc}", "afebrile", "wbc {wbc}", "bs {bs}, covered w/ ss insulin",
        "insulin gtt at {n}u/hr", "cx sent at {time}", "hct {hct}, stable", "plt {plt}", "vanco at {time}",
        "tylenol {mg}mg at {time} for temp {temp}", "transfused {n} u prbc, post hct {hct}",
        "lytes repleted", "k's {k}-{k}", "FS's {bs}-{bs}", "replete k", "k {k}, to be repleted", "cont abx",
        "blood cx x{n} sent", "fsbs {bs}, covered per riss",
        "temp spike to {temp}, pan cultured", "low grade temp to {temp}", "tmax {temp} at {time}",
        "febrile to {temp} rectal", "wbc up to {kilo} from {kilo}", "pan cx'd at {time}",
        "bc from {DATE_CHART_EN} grew gpc", "cx's from {DATE_CHART_EN} pending")),
    # A history charted with the dates of past events (`cad s/p mi {DATE_CHART_EN}`) beside conditions with none.
    (("pmh", "PMH", "pmhx", "PMHx", "hx", "HPI"), (
        "cad s/p mi {DATE_CHART_EN}", "cabg {DATE_CHART_EN}", "niddm dx'd {DATE_CHART_EN}", "htn", "copd on home o2",
        "chf, ef {ef}% on echo {DATE_CHART_EN}", "afib s/p ablation {DATE_CHART_EN}", "cri", "etoh abuse",
        "breast ca s/p resection {DATE_CHART_EN}", "pvd s/p fem-pop {DATE_CHART_EN}", "hyperlipidemia",
        "admitted {DATE_CHART_EN} to {place}", "ptca/stent to lad {DATE_CHART_EN}", "gerd", "hx of dvt")),
    (("skin", "SKIN", "access", "ACCESS", "lines"), (
        "intact", "r ij tlc, a-line intact", "piv x{n}", "coccyx dsg changed", "turned q2h", "groin site c/d/i",
        "stage {n} decub to sacrum, dsg changed at {time}", "chest tube to sx, {cc}cc serosang out",
        "hickman site c/d/i", "hemovac draining sm amt", "jp drain {cc}cc serosang", "dsgs to incisions d&i",
        "ecchymosis r arm", "coccyx reddened, duoderm intact", "freq position changes")),
    (("social", "SOCIAL", "plan", "PLAN", "a/p", "A/P"), (
        "family phoned at {time}, updated on poc", "team aware", "md notified of sbp {sbp}",
        "wean vent as tol", "f/u am labs", "cont to monitor", "pt resting comfortably", "oob to chair x{n} hrs",
        "code status full", "repeat k at {time}", "np made aware of uop {uop}cc/hr", "resident aware, no new orders",
        "pt c/o pain at {time}, medicated", "pt tolerated turning", "pt sleeping most of shift",
        "dr {DOCTOR_SUR_EN} aware", "{DOCTOR_TITLED_EN} notified of sbp {sbp}", "wife {FAMILY_GIVEN_EN} in at {time}",
        "{FAMILY_TITLED_EN} called at {time}, updated", "ho aware", "ho made aware of k {k}",
        "per ho, cont current plan", "back from o.r. at {time}", "came up from e.d. at {time}", "p.t. consulted",
        "pt/ot to see", "seen by social work", "case mgmt following", "cxr done, results pending",
        "plan transfer back to {HOSPITAL_EN}", "screened by {HOSPITAL_EN} for rehab",
        "family visited until {time}", "family in until {time}", "? transfer to {place} when bed available",
        "awaiting bed at {place}", "transferred from {place}", "admitted from {place} at {time}",
        "taken to {place} for cath", "to go to {place} on tues", "f/u with {service} in am",
        "{service} consult called", "{kin} {FAMILY_GIVEN_EN} in to visit", "{kin} {FAMILY_GIVEN_EN} called for update",
        "{kin}s {FAMILY_GIVEN_EN} and {FAMILY_GIVEN_EN} visited", "{kin} lives in {CITY_EN}")),
)
SEPARATORS = (": ", ": ", "- ", "--", " - ", ":", "-")
# Where a finding points to the rest of the chart (the flowsheet, the charting system's name): a line ends with one
# at REFERENCE_SHARE. They stand where a name could, capitalised, and are no PHI.
CHARTED_ELSEWHERE = ("see carevue", "see CareVue", "per Carevue", "as per flowsheet", "VS per flowsheet",
                     "see flowsheet for details", "see carevue flowsheet", "as per carevue")
REFERENCE_SHARE = 0.3
# Or who ordered, was told or came (`as per {DOCTOR_SUR_EN}`, `{DOCTOR_SUR_EN} aware`), at TOLD_SHARE of those endings:
# the same frames hold a person as often as a chart word, so the word itself, not `per`/`aware`, decides what it is.
# Nurses name a clinician by role and by any part of the name (`NP {DOCTOR_GIVEN_EN} aware`, two surnames joined by
# `and`): Z8, whose told clinicians were surnames or titled, found a clinician after `NP`, `HO` or `and` less often
# than after `Dr`.
TOLD = ("as per {DOCTOR_SUR_EN}", "per {DOCTOR_SUR_EN}", "{DOCTOR_SUR_EN} aware", "{DOCTOR_SUR_EN} made aware",
        "as per {DOCTOR_TITLED_EN}", "{DOCTOR_TITLED_EN} aware", "{PERSON_EN} from case mgmt aware",
        "talked with {PERSON_GIVEN_EN} from social work",
        "{role} {DOCTOR_GIVEN_EN} aware", "{role} {DOCTOR_SUR_EN} made aware", "per {role} {DOCTOR_GIVEN_EN}",
        "{role} {DOCTOR_GIVEN_SUR_EN} notified", "d/w {role} {DOCTOR_GIVEN_EN}", "paged {role} {DOCTOR_SUR_EN}",
        "reported to {DOCTOR_SUR_EN}", "drs {DOCTOR_SUR_EN} and {DOCTOR_SUR_EN} at bedside",
        "{DOCTOR_TITLED_EN} and {DOCTOR_SUR_EN} aware", "{DOCTOR_GIVEN_SUR_EN} in to evaluate",
        "{DOCTOR_GIVEN_EN} from {service} called to bedside", "order clarified w/ {role} {DOCTOR_SUR_EN}",
        "signed out to {PERSON_GIVEN_EN} RN")
TOLD_SHARE = 0.6
# Who a clinician is to the nurse: written before the name, in either case.
ROLES = ("NP", "np", "HO", "ho", "resident", "fellow", "md", "MD", "house officer", "RN", "rn", "RT", "PA")
# Findings typed in sentence case (`Nitro weaned off. Cont to monitor`) in SENTENCE_CASE_SHARE of the lines: a
# capital letter that starts a finding is no sign of a name.
SENTENCE_CASE_SHARE = 0.3
# A note's own heading and shift, on a line of its own (`Nursing Progress Note 7p-7a`): the kind of note, no place.
HEADINGS = ("nursing progress note", "Nursing Progress Note", "NURSING PROGRESS NOTE", "npn", "NPN", "Nursing note",
            "nsg note", "RN note", "Nursing Progress Note addendum")
SHIFTS = ("7a-7p", "7p-7a", "7a-3p", "3p-11p", "11p-7a", "0700-1900", "1900-0700", "days", "nights", "")
HEADING_SHARE = 0.1
# A unit's name before the heading (`MICU Nursing Progress Note`) at UNIT_HEADING_SHARE of them, and units and
# consulting services in the findings (`? transfer to CCU`, `per cardiology`): a unit or a service alone is no named
# place (annotation.md; the departments' pattern reads one only beside a hospital or a physician).
UNITS = ("MICU", "SICU", "CCU", "CSRU", "TSICU", "NICU", "CVICU", "PACU", "ICU", "Micu", "Sicu", "Ccu", "micu",
         "sicu", "ccu", "csru", "floor", "step down", "rehab")
SERVICES = ("cardiology", "Cardiology", "neuro", "Neuro", "neurology", "urology", "renal", "GI", "ID", "surgery",
            "ortho", "psych", "pulmonary", "EP", "nutrition", "PT", "wound care", "palliative care", "CT surgery")
UNIT_HEADING_SHARE = 0.5
# Where a patient goes or comes from (`transferred from {place}`): a hospital's name (a HOSPITAL span) at
# HOSPITAL_PLACE_SHARE, else a unit or a hospital named by no name (`osh`, outside hospital). Z6, whose transfers
# went to units and `osh` only, lost 12 of the hospitals Z5 found after `taken to`, `to go to`, `transferred to`:
# the word, not the frame, must say which it is.
OUTSIDE = ("osh", "OSH", "outside hosp", "home")  # rehab is one of UNITS
HOSPITAL_PLACE_SHARE = 0.5
# A line of findings alone, in sentences without the body system before them, at FINDINGS_ONLY_SHARE: the first
# word of a line is as often a finding as a system.
FINDINGS_ONLY_SHARE = 0.2
# Relatives as nurses chart them (`dtr {FAMILY_GIVEN_EN} in to visit`).
KIN = ("wife", "husband", "son", "daughter", "dtr", "sister", "brother", "niece", "nephew", "HCP")
# A note signed at its end (`{DOCTOR_GIVEN_SUR_EN}, RN`) at SIGNATURE_SHARE of the lines: the nurse or therapist who
# wrote it, named with the credential after the name.
SIGNATURES = ("{DOCTOR_GIVEN_SUR_EN}, RN", "{DOCTOR_GIVEN_SUR_EN} RN", "{DOCTOR_GIVEN_SUR_EN}, RRT",
              "{DOCTOR_SUR_EN} RN", "{DOCTOR_GIVEN_SUR_EN}, RN, BSN", "{DOCTOR_GIVEN_SUR_EN}, NP")
SIGNATURE_SHARE = 0.04
JOINERS = (", ", ", ", "; ", ". ", " ")


def fill(template: str, r: Random) -> str:
    """`template` with each `{kind}` replaced by a fresh value of that kind; template slots kept."""
    out, rest = [], template
    while "{" in rest:
        before, _, after = rest.partition("{")
        kind, _, rest = after.partition("}")
        out.append(before + (VALUES[kind](r) if kind in VALUES else "{" + kind + "}"))
    return "".join(out) + rest


def line(r: Random) -> str:
    """One charted body system: `cv: hr 70s sr, bp 110s/60s, levo at 0.05 mcg/kg/min.`, sometimes in sentence case
    or ending on where the rest is charted or who was told; at SIGNATURE_SHARE a signature and at HEADING_SHARE the
    note's heading instead."""
    if r.random() < SIGNATURE_SHARE:
        return r.choice(SIGNATURES)
    if r.random() < HEADING_SHARE:
        unit = r.choice(UNITS) + " " if r.random() < UNIT_HEADING_SHARE else ""
        return (unit + r.choice(HEADINGS) + " " + r.choice(SHIFTS)).strip()
    headings, findings = r.choice(SYSTEMS)
    picked = r.sample(findings, r.randint(2, min(5, len(findings))))
    if r.random() < REFERENCE_SHARE:
        picked.append(r.choice(TOLD if r.random() < TOLD_SHARE else CHARTED_ELSEWHERE))
    joiner = r.choice(JOINERS)
    filled = [fill(f, r) for f in picked]
    if r.random() < SENTENCE_CASE_SHARE:
        filled = [f[:1].upper() + f[1:] for f in filled]
    if r.random() < FINDINGS_ONLY_SHARE:
        return ". ".join(f[:1].upper() + f[1:] for f in filled) + r.choice((".", ""))
    body = joiner.join(filled)
    return r.choice(headings) + r.choice(SEPARATORS) + body + r.choice((".", "", ".", ";"))
