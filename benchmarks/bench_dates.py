"""Cost of the `deid_dates` component as a ratio to tokenization alone (target <= 0.5).

    python benchmarks/bench_dates.py [--notes 1000] [--repeat 3] [--seed 13]

Notes are generated here from simple templates: code-mixed clinical filler with dates in many formats,
plus measurement look-alikes (BP, scores, doses) that the finder has to look at and reject.
The time of each pass is the best of `--repeat` runs (the least disturbed by other processes).
"""
import argparse
import random
import time
from typing import List

import spacy_deid

FILLER_EN = [
    "Patient complained of insomnia and poor appetite.", "BP 128/76 mmHg, HR 88 bpm, BT 36.8.",
    "MMSE 26/30, VAS 3/10.", "Prednisolone 5/4/3 taper, take 1/2 tab qd.", "Hb 12.5, K 3.8, Cr 0.9.",
    "No suicidal ideation reported.", "Family history of hypertension.", "Plan: follow up at OPD.",
    "Chest X-ray showed no active lung lesion.", "Sertraline 50mg qd was continued.",
]
FILLER_ZH = [
    "病人主訴失眠與食慾不佳。", "血壓 120/80，心跳 76。", "家屬表示病人情緒低落。", "建議門診追蹤。",
    "病人否認自殺意念。", "曾於成大醫院身心科就診。", "住在台南市東區。", "聯絡電話 06-2353535 分機 5106。",
]
DATE_MAKERS = [
    lambda d: f"{d.year}/{d.month:02d}/{d.day:02d}", lambda d: f"{d.year - 1911}.{d.month}.{d.day}",
    lambda d: f"{d.year - 1911}{d.month:02d}{d.day:02d}", lambda d: f"mk{d.year - 1911}{d.month:02d}{d.day:02d}",
    lambda d: f"民國{d.year - 1911}年{d.month}月{d.day}日", lambda d: f"{d.month}/{d.day}",
    lambda d: d.strftime("%b %d, %Y"), lambda d: d.strftime("%d %B %Y"), lambda d: f"{d.year}年{d.month}月",
    lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}", lambda d: f"{d.year - 1911}/{d.month:02d}/{d.day:02d}",
]
TEMPLATES = [
    "Admission date: {d} {f1} {f2} 於{d2}出院。{f3}",
    "{f1} 病人於{d}入院，{d2}開始服藥。{f2} {f3}",
    "Seen on {d}. {f1} {f2} Next visit {d2}. {f3}",
    "{f1} {f2} {f3} {f1}",
    "自{d}起失眠，{f1} {f2} Follow up {d2}.",
]


def generate_notes(n: int, seed: int) -> List[str]:
    import datetime as dt

    rng = random.Random(seed)
    notes = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(3, 6)):
            day = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randint(0, 40_000))
            day2 = day + dt.timedelta(days=rng.randint(1, 60))
            fill = FILLER_EN if rng.random() < 0.5 else FILLER_ZH
            parts.append(rng.choice(TEMPLATES).format(
                d=rng.choice(DATE_MAKERS)(day), d2=rng.choice(DATE_MAKERS)(day2),
                f1=rng.choice(fill), f2=rng.choice(FILLER_EN + FILLER_ZH), f3=rng.choice(fill)))
        notes.append("\n".join(parts))
    return notes


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    notes = generate_notes(args.notes, args.seed)
    nlp = spacy_deid.blank()
    dates = nlp.add_pipe("deid_dates")
    nlp.tokenizer.__init__(nlp.vocab)  # fresh tokenizer: no chunk cache carried between runs

    def tokenize():
        tok = type(nlp.tokenizer)(nlp.vocab)  # a cold cache each run, as for unseen notes
        return [tok(text) for text in notes]

    t_tok = best_of(args.repeat, tokenize)
    docs_runs = [tokenize() for _ in range(args.repeat)]
    runs = iter(docs_runs)
    t_dates = best_of(args.repeat, lambda: [dates(doc) for doc in next(runs)])
    n_dates = sum(1 for doc in docs_runs[0] for e in doc.ents if e.label_ == "DATE")
    chars = sum(len(t) for t in notes)
    print(f"notes: {len(notes)}  characters: {chars}  DATE spans: {n_dates}")
    print(f"tokenization: {t_tok:.3f}s  deid_dates: {t_dates:.3f}s")
    print(f"ratio deid_dates / tokenization: {t_dates / t_tok:.3f} (target <= 0.5)")


if __name__ == "__main__":
    main()
