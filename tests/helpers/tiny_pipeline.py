"""A small but real trained pipeline, built in seconds, for tests and benchmark smoke runs.

It is the production architecture (`configs/cpu.cfg`: code-mixing tokenizer -> the knowledge taggers'
token tags -> tok2vec with static vectors -> ner; the vectors built by `build_vectors` from the tiny
encoder of tiny_encoder.py) fitted for a few steps on the hand-written dev notes, so packaging,
loading and multiprocessing are tested with real trained weights and listeners, not a stand-in. Its
accuracy is irrelevant (and poor): tests that need PHI found rely on the rules and dates inside
`deid`, which do not depend on training.
"""
import random
import tempfile
from pathlib import Path
from typing import Iterable, List, Optional, Union

import srsly
from spacy.language import Language
from spacy.training import Example
from spacy.util import load_config, load_model_from_config

from spacy_deid.corpus import Record, records_to_docs

ROOT = Path(__file__).resolve().parents[2]
CPU_CONFIG = ROOT / "configs" / "cpu.cfg"
DEV_NOTES = ROOT / "tests" / "data" / "dev_notes.jsonl"


def dev_records() -> List[Record]:
    return [Record.from_dict(d) for d in srsly.read_jsonl(DEV_NOTES)]


def tiny_vectors(folder: Union[str, Path]) -> Path:
    """Static vectors for configs/cpu.cfg, built through the real `build_vectors` path."""
    from spacy_deid.encoder.vectors import VectorSettings, build_vectors

    from .tiny_encoder import write_tiny_encoder

    folder = Path(folder)
    encoder, _ = write_tiny_encoder(folder / "encoder")
    build_vectors(encoder, folder / "vectors", VectorSettings(dims=8))
    return folder / "vectors"


def train_tiny_ner(records: Optional[Iterable[Record]] = None, *, steps: int = 8, seed: int = 0,
                   config_path: Union[str, Path] = CPU_CONFIG) -> Language:
    """`tok2vec` + `ner` from the CPU config, initialized and updated `steps` times on `records`
    (default: tests/data/dev_notes.jsonl). Deterministic for a given seed."""
    from thinc.api import fix_random_seed

    fix_random_seed(seed)
    with tempfile.TemporaryDirectory() as tmp:
        config = load_config(config_path, overrides={"paths.vectors": str(tiny_vectors(tmp))})
        nlp = load_model_from_config(config, auto_fill=True, validate=True)
        gold = list(records_to_docs(records if records is not None else dev_records(), nlp=nlp))
        examples = [Example(nlp.make_doc(doc.text), doc) for doc in gold]
        optimizer = nlp.initialize(lambda: examples)
    annotates = list(config["training"]["annotating_components"])  # as `spacy train` does
    rng = random.Random(seed)
    for _ in range(steps):
        rng.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.1, annotates=annotates)
    return nlp


def build_tiny_pipeline(output: Optional[Union[str, Path]] = None, *, steps: int = 8, seed: int = 0,
                        deid_config: Optional[dict] = None) -> Language:
    """`train_tiny_ner` plus `deid` (as `spacy-deid assemble` does); saved to `output` when given."""
    nlp = train_tiny_ner(steps=steps, seed=seed)
    nlp.add_pipe("deid", config=deid_config or {})
    nlp.get_pipe("deid").initialize(nlp=nlp)
    if output is not None:
        nlp.to_disk(output)
    return nlp
