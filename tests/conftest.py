from pathlib import Path

import pytest
import srsly

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def nlp_blank():
    import spacy_deid

    return spacy_deid.blank()


@pytest.fixture(scope="session")
def dev_records():
    from spacy_deid.corpus import Record

    return [Record.from_dict(d) for d in srsly.read_jsonl(DATA / "dev_notes.jsonl")]
