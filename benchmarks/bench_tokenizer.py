"""Throughput of the code-mixing tokenizer as a ratio to spaCy's English tokenizer, same text.

    python benchmarks/bench_tokenizer.py [--notes 2000]

Target: ratio >= 0.5. Both tokenizers see identical code-mixed notes (built from the alignment
table's sentences with varied numbers and names, so caches do not flatter either side).
"""
import argparse
import random
import time
from pathlib import Path

import spacy

import spacy_deid
from spacy_deid.corpus import parse_inline

TABLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "tokenizer_alignment.txt"


def make_notes(n_notes: int, seed: int = 0):
    rng = random.Random(seed)
    lines = [parse_inline(l).text for l in TABLE.read_text(encoding="utf8").splitlines()
             if l.strip() and not l.startswith("#")]
    digits = "0123456789"
    notes = []
    for _ in range(n_notes):
        chosen = rng.sample(lines, 12)
        text = "\n".join(chosen)
        text = "".join(rng.choice(digits) if c.isdigit() else c for c in text)
        notes.append(text)
    return notes


def throughput(tokenizer, notes, repeats: int = 3) -> float:
    chars = sum(len(n) for n in notes)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for note in notes:
            tokenizer(note)
        best = min(best, time.perf_counter() - started)
    return chars / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--notes", type=int, default=2000)
    args = parser.parse_args()
    notes = make_notes(args.notes)
    ours = spacy_deid.blank().tokenizer
    english = spacy.blank("en").tokenizer
    # Warm both (vocab and caches) before timing.
    for note in notes[:50]:
        ours(note)
        english(note)
    t_ours = throughput(ours, notes)
    t_en = throughput(english, notes)
    print(f"notes: {len(notes)}  chars: {sum(map(len, notes)):,}")
    print(f"code-mixing tokenizer: {t_ours:,.0f} chars/s")
    print(f"spacy.blank('en'):     {t_en:,.0f} chars/s")
    print(f"ratio (ours / en): {t_ours / t_en:.2f}  (target >= 0.5)")


if __name__ == "__main__":
    main()
