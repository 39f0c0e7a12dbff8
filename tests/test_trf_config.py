"""`configs/trf.cfg` trains, predicts, saves and reloads, on a tiny BERT built in a temp folder.

No network: the encoder is a 2-layer BERT with random weights and a vocabulary written here (ASCII,
word pieces and common Han characters), which exercises the same code paths as a real encoder.
"""
import string
from pathlib import Path

import pytest
import srsly

pytest.importorskip("spacy_transformers", reason="spacy-transformers is not installed (extra: transformers)")
torch = pytest.importorskip("torch", reason="torch is not installed (extra: transformers)")
transformers = pytest.importorskip("transformers", reason="transformers is not installed")

import spacy  # noqa: E402
from spacy.training import Example  # noqa: E402
from spacy.util import filter_spans, load_config, load_model_from_config  # noqa: E402

from spacy_deid.tokenizer import CodeMixedTokenizer  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "trf.cfg"
DEV_NOTES = Path(__file__).parent / "data" / "dev_notes.jsonl"
# Frequent characters of Taiwanese clinical notes and names (surnames, places, wards, dates).
COMMON_HAN = (
    "的一是在不了有和人這中大為上個國我以要他時來用們生到作地於出就分對成會可主發年動同工也能下過子說產種面"
    "而方後多定行學法所民得經十三之進著等部度家電力裡如水化高自二理起小物現實加量都兩體制機當使點從業本去把性好"
    "應開它合還因由其些然前外天政四日那社義事平形相全表間樣與關各重新線內數正心反你明看原又麼利比或但質氣第向道"
    "命此變條只沒結解問意建月公無系軍很情者最立代想已通並提直題黨程展五果料象員革位入常文總次品式活設及管特件長求"
    "老頭基資邊流路級少圖山統接知較將組見計別她手角期根論運農指幾九區強放決西被幹做必戰先回則任取據處理府研質"
    "張王李陳林黃吳劉蔡楊許鄭謝郭洪曾周廖賴徐葉蘇莊呂江何蕭羅高潘簡朱鍾彭游詹胡施沈余趙盧梁顏柯翁魏孫戴范方宋"
    "病歷號住院日期醫師護理門診急診科室床台北市南東區路段號樓電話分機民國月日歲男女患者家屬父母親兄弟姊妹"
    "身心內外兒婦產神經精神復健藥劑檢驗放射影像手術麻醉加護病房出院入院主訴現病史診斷治療計畫成大醫院榮總長庚"
    "華淑雄翰怡伶宗文聯絡曾於就住在學"
)


def _write_vocab(path: Path) -> None:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    ascii_tokens = list(string.ascii_letters + string.digits + string.punctuation)
    pieces = ["##" + c for c in string.ascii_letters + string.digits]
    words = ["the", "and", "was", "with", "since", "date", "admission", "patient", "ward", "Dr", "##ing",
             "##ed", "##s", "##er", "##tion", "ER", "BP", "HR", "mg"]
    han = list(dict.fromkeys(COMMON_HAN))
    full_width = list("，。：；（）「」、？！")
    vocab = list(dict.fromkeys(specials + ascii_tokens + pieces + words + han + full_width))
    path.write_text("\n".join(vocab) + "\n", encoding="utf8")


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT and its WordPiece tokenizer, saved like a Hub model."""
    folder = tmp_path_factory.mktemp("tiny-bert")
    vocab_file = folder / "vocab.txt"
    _write_vocab(vocab_file)
    tokenizer = transformers.BertTokenizerFast(vocab_file=str(vocab_file), do_lower_case=False,
                                               tokenize_chinese_chars=True)
    config = transformers.BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=37,
                                     max_position_embeddings=512)
    torch.manual_seed(0)
    transformers.BertModel(config).save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return folder


def _load_nlp(tiny_bert: Path, *, freeze: bool):
    # A short warm-up and a high rate so a dozen steps visibly train the random tiny encoder.
    config = load_config(CONFIG, overrides={
        "vars.transformer_name": str(tiny_bert),
        "vars.freeze_embeddings": freeze,
        "vars.torch_threads": 2,
        "training.optimizer.learn_rate.warmup_steps": 2,
        "training.optimizer.learn_rate.initial_rate": 0.001,
    })
    return load_model_from_config(config, auto_fill=True, validate=True)


def _examples(nlp):
    examples = []
    for rec in srsly.read_jsonl(DEV_NOTES):
        doc = nlp.make_doc(rec["text"])
        spans = [doc.char_span(s["start"], s["end"], label=s["label"], alignment_mode="contract")
                 for s in rec["spans"]]
        ref = doc.copy()
        ref.ents = filter_spans([s for s in spans if s is not None])
        examples.append(Example(doc, ref))
    assert len(examples) >= 3 and all(len(eg.reference.ents) >= 5 for eg in examples)
    return examples


def _word_embeddings(nlp):
    shim = nlp.get_pipe("transformer").model.layers[0].shims[0]
    return shim._model.get_input_embeddings().weight


def _encoder_weight(nlp):
    shim = nlp.get_pipe("transformer").model.layers[0].shims[0]
    return shim._model.encoder.layer[0].attention.self.query.weight


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def test_config_pipeline_shape(tiny_bert):
    nlp = _load_nlp(tiny_bert, freeze=True)
    assert nlp.lang == "xx"
    assert nlp.pipe_names == ["transformer", "ner"]
    assert isinstance(nlp.tokenizer, CodeMixedTokenizer)
    assert nlp.config["vars"]["transformer_name"] == str(tiny_bert)  # kept for `spacy train`
    model_cfg = nlp.config.interpolate()["components"]["transformer"]["model"]
    assert model_cfg["name"] == str(tiny_bert)
    assert model_cfg["get_spans"]["window"] > model_cfg["get_spans"]["stride"]
    assert nlp.config.interpolate()["training"]["gpu_allocator"] == "pytorch"
    # on this CPU the NER head computes its products with BlasOps, as configs/cpu.cfg's NER does
    from spacy_deid.blas_ops import BlasOps
    assert any(isinstance(node.ops, BlasOps) for node in nlp.get_pipe("ner").model.walk())


@pytest.mark.parametrize("freeze", [True, False])
def test_train_predict_save_load(tiny_bert, tmp_path, freeze):
    nlp = _load_nlp(tiny_bert, freeze=freeze)
    examples = _examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    assert set(nlp.get_pipe("ner").labels) >= {"DATE", "PATIENT"}
    emb_before = _word_embeddings(nlp).detach().clone()
    enc_before = _encoder_weight(nlp).detach().clone()

    losses_first, losses_last = None, None
    for step in range(12):
        losses = {}
        nlp.update(examples, sgd=optimizer, drop=0.0, losses=losses)
        optimizer.step_schedules()  # as `spacy train` does after each batch
        assert losses["ner"] == losses["ner"] and losses["transformer"] >= 0  # finite, tracked
        losses_first = losses_first if losses_first is not None else losses["ner"]
        losses_last = losses["ner"]
    assert losses_last < losses_first, "NER loss did not go down on the training notes"

    weight = _word_embeddings(nlp)
    assert not torch.equal(_encoder_weight(nlp), enc_before), "the encoder was not fine-tuned"
    if freeze:
        assert weight.grad is None and not weight.requires_grad
        assert torch.equal(weight.detach(), emb_before)
    else:
        assert weight.requires_grad
        assert not torch.equal(weight.detach(), emb_before)

    texts = [eg.reference.text for eg in examples] + ["Admission date: 112.05.08 王小明 29 歲 男性"]
    docs = list(nlp.pipe(texts))
    trf_before = [d._.trf_data.model_output.last_hidden_state.copy() for d in docs]

    out = tmp_path / "model"
    nlp.to_disk(out)
    # The saved pipeline carries the encoder and its tokenizer: the source folder is not needed.
    nlp2 = spacy.load(out)
    assert nlp2.pipe_names == ["transformer", "ner"]
    assert isinstance(nlp2.tokenizer, CodeMixedTokenizer)
    docs2 = list(nlp2.pipe(texts))
    for d1, d2, state in zip(docs, docs2, trf_before):
        assert [t.text for t in d1] == [t.text for t in d2]
        assert _ents(d1) == _ents(d2)
        assert d2._.trf_data.model_output.last_hidden_state.shape == state.shape
        assert abs(d2._.trf_data.model_output.last_hidden_state - state).max() < 1e-5
