"""The synthetic corpus: patients with several notes each, gold spans for every PHI label.

Determinism: each patient has its own `random.Random` seeded with a string built from (split, seed,
patient index) — string seeds are hashed with SHA-512 by `random`, never with the salted `hash()` —
so the same arguments give byte-identical output and patient i is the same whatever N is.
"""
import datetime as _dt
import re
from random import Random
from typing import Iterator, List, Optional, Sequence, Tuple

from ..corpus import PhiSpan, Record
from . import backgrounds as B
from .slots import SLOTS, Context, Piece
from .templates import EVALUATION_ONLY_SPLITS, SPLITS, Template, by_section, note_layouts
from .values import VALUE_SPLITS, Patient, Pools, make_patient

DEFAULT_NOTES_PER_PATIENT = (2, 5)
# Share of templates whose English literal text gets one typo: charts are typed in a hurry, and a
# model must not rely on perfectly spelled context words.
TYPO_RATE = 0.06
_WORD_RE = re.compile(r"[A-Za-z]{5,}")


ALL_CAPS_SHARE = 0.12


def _upper_ascii(text: str) -> str:
    """Upper-case ASCII letters only, so every offset stays where it was."""
    return "".join(c.upper() if "a" <= c <= "z" else c for c in text)


def _typo(rng: Random, text: str) -> str:
    words = list(_WORD_RE.finditer(text))
    if not words:
        return text
    m = rng.choice(words)
    return text[:m.start()] + B.misspell(rng, m.group()) + text[m.end():]


def render_template(template: Template, ctx: Context) -> List[Piece]:
    """Pieces of one filled template (literal text has label None)."""
    pieces: List[Piece] = []
    typo_at = -1
    literals = [i for i, p in enumerate(template.parts) if isinstance(p, str)]
    if literals and ctx.rng.random() < TYPO_RATE:
        typo_at = ctx.rng.choice(literals)
    for i, part in enumerate(template.parts):
        if isinstance(part, tuple):
            pieces.extend(SLOTS[part[0]](ctx))
        else:
            pieces.append((_typo(ctx.rng, part) if i == typo_at else part, None, None))
    return pieces


def _draw(rng: Random, pool: Sequence[Template], k: int) -> List[Template]:
    """k templates by weight, without repeating one inside a note while others remain."""
    chosen: List[Template] = []
    left = list(pool)
    for _ in range(k):
        if not left:
            left = list(pool)
        t = rng.choices(left, weights=[x.weight for x in left])[0]
        left.remove(t)
        chosen.append(t)
    return chosen


def _lines(pieces: List[Piece]) -> List[List[Piece]]:
    """Split pieces at newlines inside literal text so notes can be cut at line boundaries."""
    lines: List[List[Piece]] = [[]]
    for text, label, norm in pieces:
        if label is None and "\n" in text:
            chunks = text.split("\n")
            for j, chunk in enumerate(chunks):
                if j:
                    lines.append([])
                if chunk:
                    lines[-1].append((chunk, None, None))
        else:
            lines[-1].append((text, label, norm))
    return lines


class _NotePlan:
    def __init__(self, note_type: str, date: _dt.date):
        self.note_type = note_type
        self.date = date


def _plan_notes(rng: Random, patient: Patient, n: int) -> List[_NotePlan]:
    layouts = note_layouts()["types"]
    types = sorted(layouts)
    plans = []
    stay = max(1, (patient.discharge - patient.admit).days)
    for _ in range(n):
        t = rng.choices(types, weights=[layouts[x]["weight"] for x in types])[0]
        if t == "discharge":
            d = patient.discharge
        elif t == "opd":
            d = patient.discharge + _dt.timedelta(days=rng.randint(7, 200))
        else:
            d = patient.admit + _dt.timedelta(days=rng.randint(0, stay))
        plans.append(_NotePlan(t, d))
    plans.sort(key=lambda p: (p.date, p.note_type))
    return plans


def build_note(rng: Random, pools: Pools, patient: Patient, plan: _NotePlan, split: str,
               background: Optional[Tuple[Random, Sequence[str]]] = None) -> Tuple[str, List[PhiSpan], List[str]]:
    """One note; `background` (train split only: its own random stream and real lines) mixes real
    clinical lines in (`backgrounds.mix_in`) without drawing from `rng`, so the generated lines stay
    the same."""
    layouts = note_layouts()
    layout = layouts["types"][plan.note_type]
    sections = by_section(split)
    ctx = Context(rng, pools, patient, plan.date)
    if background is not None:  # draws from the background stream only: the generated lines' draws stay
        ctx = B.wide_institution(background[0], ctx)
    lines: List[List[Piece]] = []
    used: List[str] = []
    if rng.random() < 0.5:
        lines.append([(rng.choice(layout["title"]), None, None)])
    body_sections = [s for s, lo, hi in layout["sections"] if hi > 1]
    for section, lo, hi in layout["sections"]:
        for t in _draw(rng, sections[section], rng.randint(lo, hi)):
            used.append(t.id)
            lines.extend(_lines(render_template(t, ctx)))
    while len(lines) < layouts["min_lines"]:
        t = _draw(rng, sections[rng.choice(body_sections)], 1)[0]
        used.append(t.id)
        lines.extend(_lines(render_template(t, ctx)))
    lines = lines[:layouts["max_lines"]]
    # PHI-free prose between the templated lines, as in real notes (see templates/negatives.txt): about
    # one line in three, so that a model's prior for "this token is PHI" is not that of a form.
    negatives = sections.get("negative", ())
    if negatives:
        for t in _draw(rng, negatives, rng.randint(max(1, len(lines) // 3), max(1, (2 * len(lines)) // 3))):
            used.append(t.id)
            at = rng.randint(1, len(lines)) if lines else 0
            lines[at:at] = _lines(render_template(t, ctx))
    shout = rng.random() < ALL_CAPS_SHARE  # nursing notes are often typed in capitals
    whisper = False
    if background is not None:
        bg_ctx = Context(background[0], pools, ctx.patient, plan.date)
        B.mix_in(bg_ctx, background[1], lines)
        whisper = not shout and B.lower_note(bg_ctx)
    text_parts: List[str] = []
    spans: List[PhiSpan] = []
    pos = 0
    for line in lines:
        for text, label, norm in line:
            if shout:
                text = _upper_ascii(text)
            elif whisper:
                text = B.lower_ascii(text)
            if label is not None:
                spans.append(PhiSpan(pos, pos + len(text), label, text, norm))
            text_parts.append(text)
            pos += len(text)
        text_parts.append("\n")
        pos += 1
    return "".join(text_parts), spans, used


def generate(n_patients: int, seed: int = 0, split: str = "train",
             notes_per_patient: Tuple[int, int] = DEFAULT_NOTES_PER_PATIENT,
             values: Optional[str] = None, backgrounds: Optional[Sequence[str]] = None) -> Iterator[Record]:
    """Yield notes (Records in the annotation format) for `n_patients` synthetic patients.

    `split="heldout"` uses only held-out templates and lexicon values, for testing generalization;
    `split="fresh"` and `split="blind"` use the fresh or blind templates (see `templates`) with
    held-out values.
    `values` takes the lexicon values from another split than the templates (default: the same):
    crossing them tells how much of a held-out score is lost to unseen contexts and how much to
    unseen names and places.
    `backgrounds`: real clinical lines mixed into TRAIN notes only (None: as $SPACY_DEID_SYNTH_BACKGROUNDS
    says, off when unset; () for none). Other splits never read them.
    """
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; expected one of {SPLITS}")
    if values is None:
        values = "heldout" if split in EVALUATION_ONLY_SPLITS else split
    if values not in VALUE_SPLITS:
        raise ValueError(f"Unknown value split {values!r}; expected one of {VALUE_SPLITS}")
    lo, hi = notes_per_patient
    if not 1 <= lo <= hi:
        raise ValueError(f"notes_per_patient must be 1 <= min <= max, got {notes_per_patient}")
    if n_patients < 0:
        raise ValueError("n_patients must be >= 0")
    pools = Pools(values, respell_names=split == values == "train")
    tag = split[0].upper()
    if split != "train":
        backgrounds = ()
    elif backgrounds is None:
        backgrounds = B.from_environment()
    for i in range(n_patients):
        rng = Random(f"spacy-deid-synth/{split}/{seed}/{i}")
        pid = f"SYN{tag}{seed}-{i:05d}"
        patient = make_patient(rng, pools, pid)
        for k, plan in enumerate(_plan_notes(rng, patient, rng.randint(lo, hi)), 1):
            background = (Random(f"spacy-deid-synth/{split}/{seed}/{i}/{k}/backgrounds"), backgrounds) if backgrounds else None
            text, spans, used = build_note(rng, pools, patient, plan, split, background)
            record = Record(id=f"{pid}-{k}", text=text, spans=spans, patient_id=pid,
                            meta={"note_type": plan.note_type, "split": split, "templates": used,
                                  **({"values": values} if values != split else {})})
            record.validate()
            yield record
