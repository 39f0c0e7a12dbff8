"""Time `nlp.update` of `configs/trf.cfg` with and without frozen word embeddings.

    python -m spacy_deid.encoder.bench ENCODER_DIR [--docs 8] [--steps 5] [--threads 0]

Both settings run in one process on the same batch (short synthetic code-mixed notes), after one
warm-up update each, so the ratio is measured under the same machine load.
"""
import argparse
import statistics
import time
from pathlib import Path
from typing import Dict, List

# Short synthetic code-mixed notes with their PHI (surface string, label).
NOTES = [
    ("病人張小明 32y/o male, 於民國110年3月2日 admitted to 8A-15床 for CAP.",
     [("張小明", "PATIENT"), ("32", "AGE"), ("民國110年3月2日", "DATE"), ("8A-15", "ROOM")]),
    ("Dr. 林怡君 (ext. 5106) saw her at 成大醫院 on 2021/03/05; f/u in 2 weeks.",
     [("林怡君", "DOCTOR"), ("5106", "PHONE"), ("成大醫院", "HOSPITAL"), ("2021/03/05", "DATE")]),
    ("家屬 王大同 表示 patient has had fever x3 days, BP 118/76, HR 82.", [("王大同", "FAMILY")]),
    ("Admission date: 112.05.08 病歷號: 5520931, discharged 112/5/20 to home.",
     [("112.05.08", "DATE"), ("5520931", "MEDICAL_RECORD"), ("112/5/20", "DATE")]),
    ("She lives at 台南市東區大學路1號, phone 06-2353535, works as 護理師.",
     [("台南市東區大學路1號", "STREET"), ("06-2353535", "PHONE"), ("護理師", "PROFESSION")]),
    ("MRI on 110.12.25 showed no acute lesion; 李宗翰 VS, 周怡伶 R.",
     [("110.12.25", "DATE"), ("李宗翰", "DOCTOR"), ("周怡伶", "DOCTOR")]),
    ("Transferred from 台北榮總 ICU on Dec. 3, 2022; NKDA; 55歲 female.",
     [("台北榮總", "HOSPITAL"), ("Dec. 3, 2022", "DATE"), ("55", "AGE")]),
    ("Email chang.ym@example.org for the 2023年1月 follow-up at 7A ward.",
     [("chang.ym@example.org", "EMAIL"), ("2023年1月", "DATE"), ("7A", "ROOM")]),
]


def _examples(nlp, n_docs: int):
    """Gold entities matter: without them the NER has no loss and nothing backpropagates."""
    from spacy.training import Example

    examples = []
    for i in range(n_docs):
        text, phi = NOTES[i % len(NOTES)]
        doc = nlp.make_doc(text)
        ref = doc.copy()
        spans = [ref.char_span(text.index(s), text.index(s) + len(s), label=label, alignment_mode="expand")
                 for s, label in phi]
        ref.ents = [s for s in spans if s is not None]
        examples.append(Example(doc, ref))
    return examples


def _prepare(encoder: Path, *, freeze: bool, n_docs: int, threads: int):
    from spacy.util import load_config, load_model_from_config

    config_path = Path(__file__).resolve().parents[2] / "configs" / "trf.cfg"
    config = load_config(config_path, overrides={"vars.transformer_name": str(encoder),
                                                 "vars.freeze_embeddings": freeze,
                                                 "vars.torch_threads": threads})
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    examples = _examples(nlp, n_docs)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.step_schedules()  # leave warm-up step 0 (rate 0) so every timed step moves weights
    nlp.update(examples, sgd=optimizer)  # the first update allocates optimizer state: not timed
    optimizer.step_schedules()
    return nlp, examples, optimizer


def time_updates(encoder: Path, *, n_docs: int, steps: int, threads: int) -> Dict[bool, List[float]]:
    """Seconds per update for frozen (True) and trainable (False) embeddings, steps interleaved
    so that other load on the machine hits both settings alike."""
    runs = {freeze: _prepare(encoder, freeze=freeze, n_docs=n_docs, threads=threads) for freeze in (True, False)}
    times: Dict[bool, List[float]] = {True: [], False: []}
    for _ in range(steps):
        for freeze, (nlp, examples, optimizer) in runs.items():
            start = time.perf_counter()
            nlp.update(examples, sgd=optimizer)
            optimizer.step_schedules()
            times[freeze].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("encoder", type=Path)
    parser.add_argument("--docs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    import torch

    times = time_updates(args.encoder, n_docs=args.docs, steps=args.steps, threads=args.threads)
    for freeze, values in times.items():
        print(f"freeze_embeddings={freeze}: median {statistics.median(values):.2f} s/update, "
              f"min {min(values):.2f} ({len(values)} updates of {args.docs} docs, "
              f"torch threads {torch.get_num_threads()})")
    print(f"speed-up from freezing: median {statistics.median(times[False]) / statistics.median(times[True]):.2f}x, "
          f"min {min(times[False]) / min(times[True]):.2f}x")


if __name__ == "__main__":
    main()
