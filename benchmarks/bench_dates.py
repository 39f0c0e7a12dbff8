"""Cost of the `deid_dates` component as a ratio to tokenization alone (target <= 0.5).

    python benchmarks/bench_dates.py [--notes 1000] [--repeat 5] [--seed 13]

Notes are generated here from simple templates: code-mixed clinical filler with dates in many formats,
plus measurement look-alikes (BP, scores, doses) that the finder has to look at and reject.
Times are CPU time of this process (`time.process_time`), best of `--repeat` runs, so that other
processes on a shared machine disturb the ratio as little as possible. Every run starts cold: a fresh
tokenizer (no chunk cache) and an empty finder cache (`finder.clear_caches()`), as for unseen notes.
The tokenizer leaves each doc's text for the components (`spacy_deid.doctext`); the line "text from the
tokens" is what rebuilding it would cost for docs that did not come from the tokenizer.
The first line says which scanner and write path ran: the compiled ones (`spacy_deid/dates/_scan.pyx`,
`_entcolumns.pyx`, built by `pip install`) or the pure-Python code (an install without a compiler).
"""
import argparse
import random
import time
from typing import List

import spacy_deid
from spacy_deid.dates import entcolumns, finder
from spacy_deid import doctext

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


WORDS_EN = ("patient reports poor sleep appetite mood anxiety denies fever cough chest pain nausea stable "
            "improved worse mild severe admitted discharged ward clinic follow up medication dose taken "
            "family history hypertension diabetes smoking alcohol mother father work school").split()
PHRASES_ZH = ("病人 主訴 失眠 食慾 不佳 情緒 低落 家屬 表示 建議 門診 追蹤 否認 自殺 意念 曾經 就診 醫院 住在 "
              "台南市 高雄 工作 壓力 睡眠 改善 服藥 規則 焦慮 症狀 加重 減輕 出院 入院 檢查 正常").split()


def _vitals(rng: random.Random) -> str:
    return rng.choice([
        f"BP {rng.randint(95, 170)}/{rng.randint(55, 100)} mmHg, HR {rng.randint(55, 120)}.",
        f"MMSE {rng.randint(10, 30)}/30, VAS {rng.randint(0, 10)}/10.",
        f"Hb {rng.randint(80, 160) / 10}, K {rng.randint(30, 50) / 10}, Cr {rng.randint(5, 30) / 10}.",
        f"血壓 {rng.randint(95, 170)}/{rng.randint(55, 100)}，體溫 {rng.randint(355, 395) / 10}。",
        f"Take 1/2 tab qd, sertraline {rng.choice((25, 50, 100))}mg.",
        f"聯絡電話 0{rng.randint(2, 9)}-{rng.randint(2000000, 9999999)} 分機 {rng.randint(100, 9999)}。",
    ])


def _filler(rng: random.Random) -> str:
    """Varied sentences, so that tokenization is not served from the tokenizer's chunk cache."""
    if rng.random() < 0.5:
        words = [rng.choice(WORDS_EN) for _ in range(rng.randint(6, 14))]
        return " ".join(words).capitalize() + "."
    return "".join(rng.choice(PHRASES_ZH) for _ in range(rng.randint(4, 9))) + "。"


def generate_notes(n: int, seed: int) -> List[str]:
    import datetime as dt

    rng = random.Random(seed)
    notes = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(3, 6)):
            day = dt.date(2000, 1, 1) + dt.timedelta(days=rng.randint(0, 40_000))
            day2 = day + dt.timedelta(days=rng.randint(1, 60))
            parts.append(rng.choice(TEMPLATES).format(
                d=rng.choice(DATE_MAKERS)(day), d2=rng.choice(DATE_MAKERS)(day2),
                f1=_filler(rng), f2=_vitals(rng), f3=_filler(rng)))
            parts.extend(_filler(rng) for _ in range(rng.randint(0, 3)))
        notes.append("\n".join(parts))
    return notes


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
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

    def run_dates():
        docs = next(runs)
        finder.clear_caches()
        return [dates(doc) for doc in docs]

    def run_find():
        finder.clear_caches()
        return [finder.find_readings(text) for text in notes]

    t_dates = best_of(args.repeat, run_dates)
    docs = docs_runs[0]
    t_text = best_of(args.repeat, lambda: (doctext.clear_caches(), [doctext.rebuild_text(doc) for doc in docs]))
    t_text_kept = best_of(args.repeat, lambda: [doctext.doc_text(doc) for doc in docs_runs[-1]])
    t_find = best_of(args.repeat, run_find)
    n_dates = sum(1 for doc in docs_runs[0] for e in doc.ents if e.label_ == "DATE")
    chars = sum(len(t) for t in notes)
    scanner = "compiled" if finder.COMPILED else "pure Python (no compiled scanner)"
    write_path = "compiled" if entcolumns.COMPILED else "Python (no compiled write path)"
    print(f"notes: {len(notes)}  characters: {chars}  DATE spans: {n_dates}  scanner: {scanner}  "
          f"write path: {write_path}")
    print(f"tokenization: {t_tok:.3f}s  deid_dates: {t_dates:.3f}s")
    print(f"  of which the tokenizer's text: {t_text_kept:.3f}s (rebuilt from the tokens: {t_text:.3f}s), "
          f"finding dates in it: {t_find:.3f}s, spans/attributes/ents/resolution: "
          f"{max(0.0, t_dates - t_text_kept - t_find):.3f}s")
    print(f"ratio deid_dates / tokenization: {t_dates / t_tok:.3f} (target <= 0.5)")
    print(f"ratio find_dates (raw text) / tokenization: {t_find / t_tok:.3f}")


if __name__ == "__main__":
    main()
