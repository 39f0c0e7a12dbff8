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


@pytest.fixture(scope="session")
def shipped_recall_bias() -> float:
    """The NER's operating point `spacy project run assemble` gives (project.yml `recall_bias`): the shipped
    default must carry it, or the project would not rebuild what ships."""
    return float(srsly.read_yaml(Path(__file__).parent.parent / "project.yml")["vars"]["recall_bias"])
