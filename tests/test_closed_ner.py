"""`deid_ner` (spacy_deid/closed_ner.py): closed labels only on their names, no entity across a line,
and otherwise exactly spaCy's greedy `ner` with the same weights."""
import json
from importlib import resources
from random import Random
from typing import List, Tuple

import pytest
import spacy
from spacy.pipeline.ner import EntityRecognizer
from spacy.training import Example
from spacy.util import fix_random_seed

import spacy_deid
import spacy_deid.closed_ner as closed_ner
from spacy_deid.closed_ner import ClosedClassNames, load_closed_names

from build_places_script import load_build_places

Ents = List[Tuple[int, int, str]]


def _ents(nlp, texts: List[str], plain: bool = False) -> List[Ents]:
    """Entities of `nlp`'s NER; `plain`: as spaCy's `ner` sets them from the same greedy states."""
    docs = [nlp.make_doc(text) for text in texts]
    for name, proc in nlp.pipeline:
        if name == "ner":
            break
        docs = list(proc.pipe(docs))
    _annotate(nlp.get_pipe("ner"), docs, plain)
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in docs]


def _annotate(ner, docs: List, plain: bool) -> None:
    """Run `ner` on `docs`; `plain`: set the entities as spaCy's `ner` does from the same states."""
    (EntityRecognizer.set_annotations if plain else type(ner).set_annotations)(ner, docs, ner.predict(docs))


@pytest.fixture(scope="module")
def default_nlp():
    return spacy_deid.load(exclude=["deid"])


@pytest.fixture(scope="module")
def generated_texts() -> List[str]:
    from spacy_deid.synth import generate
    # Held-out frames and values: the shipped model has not seen them, so it breaks the constraints
    # in some notes and not in others.
    return [record.text for record in generate(12, seed=11, split="heldout")]


def _tiny_trained(examples: List[Tuple[str, Ents]], closed_labels=("COUNTRY", "STATE")):
    """A blank pipeline whose `deid_ner` learned `examples` by heart (seeded: the same weights
    whatever ran before)."""
    fix_random_seed(0)
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.CodeMixedTokenizer.v1"}}})
    nlp.add_pipe("deid_ner", name="ner", config={"closed_labels": list(closed_labels)})
    train = [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in examples]
    optimizer = nlp.initialize(lambda: train)
    rng = Random(0)
    for _ in range(40):
        rng.shuffle(train)
        nlp.update(train, sgd=optimizer, drop=0.0)
    return nlp


@pytest.fixture(scope="module")
def tiny_nlp():
    # Gold that breaks both constraints, so that spaCy's `ner` with these weights does too.
    return _tiny_trained([
        ("他去門諾戒酒", [(2, 4, "COUNTRY")]),
        ("他去日本出差", [(2, 4, "COUNTRY")]),
        ("住在多倫多很久", [(2, 5, "CITY")]),
        ("他去門諾戒酒, 住在多倫多", [(2, 4, "COUNTRY"), (10, 13, "CITY")]),
        ("轉介 仁愛\n醫院 治療", [(3, 8, "HOSPITAL")]),
    ])


def test_the_shipped_default_uses_deid_ner(default_nlp):
    ner = default_nlp.get_pipe("ner")
    assert isinstance(ner, closed_ner.ClosedClassNER)
    assert set(ner.closed.names) == {"COUNTRY", "STATE"}


def test_step_by_step_decoding_is_spacys_greedy_decoding(default_nlp, generated_texts, monkeypatch):
    """Without penalties, the Python decoder the constraints use gives spaCy's compiled result."""
    ner = default_nlp.get_pipe("ner")
    plain = _ents(default_nlp, generated_texts, plain=True)
    monkeypatch.setattr(closed_ner, "FORBIDDEN_MOVE_PENALTY", 0.0)
    monkeypatch.setattr(ner.closed, "breaks", lambda doc: True)  # decode every doc again
    assert _ents(default_nlp, generated_texts) == plain


def test_closed_labels_hold_only_their_names_and_other_docs_are_untouched(default_nlp, generated_texts):
    texts = generated_texts + [
        "曾在門諾戒酒, 後到義美上班, 之後去廣州出差",
        "Moved from Jiufen to Texas; visited JAPAN and the Philippines",
        "病人從孟加拉出差回來\nRisk assessment completed",
    ]
    ner = default_nlp.get_pipe("ner")
    plain = _ents(default_nlp, texts, plain=True)
    closed = _ents(default_nlp, texts)
    changed = 0
    for text, before, after in zip(texts, plain, closed):
        for start, end, label in after:
            assert "\n" not in text[start:end]
            assert ner.closed.allows(label, text[start:end]), (label, text[start:end])
        broke = any("\n" in text[s:e] or not ner.closed.allows(label, text[s:e]) for s, e, label in before)
        if broke:
            changed += 1
        else:
            assert after == before
    assert changed  # the check above compared something


def test_a_forbidden_label_gives_way_to_the_models_next_choice(tiny_nlp):
    text = "他去門諾戒酒, 住在多倫多"
    [plain] = _ents(tiny_nlp, [text], plain=True)
    [closed] = _ents(tiny_nlp, [text])
    assert (2, 4, "COUNTRY") in plain
    assert not any(label == "COUNTRY" for _, _, label in closed)
    assert (10, 13, "CITY") in closed
    assert _ents(tiny_nlp, ["他去日本出差"]) == [[(2, 4, "COUNTRY")]]


def test_no_entity_runs_across_a_line(tiny_nlp):
    text = "轉介 仁愛\n醫院 治療"
    [plain] = _ents(tiny_nlp, [text], plain=True)
    [closed] = _ents(tiny_nlp, [text])
    assert any("\n" in text[s:e] for s, e, _ in plain)
    assert all("\n" not in text[s:e] for s, e, _ in closed)


def test_saved_and_loaded_it_keeps_its_class_and_labels(tiny_nlp, tmp_path):
    tiny_nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert isinstance(loaded.get_pipe("ner"), closed_ner.ClosedClassNER)
    assert loaded.config["components"]["ner"]["closed_labels"] == ["COUNTRY", "STATE"]
    texts = ["他去門諾戒酒, 住在多倫多", "轉介 仁愛\n醫院 治療"]
    assert _ents(loaded, texts) == _ents(tiny_nlp, texts)


def test_a_label_without_a_list_is_refused():
    nlp = spacy.blank("xx")
    with pytest.raises(ValueError, match="'HOSPITAL'"):
        nlp.add_pipe("deid_ner", config={"closed_labels": ["HOSPITAL"]})


def test_names_match_on_token_boundaries_and_ignore_latin_case():
    names = ClosedClassNames({"COUNTRY": frozenset({"日本", "united states"}), "STATE": frozenset({"texas"})})
    nlp = spacy.blank("xx", config={"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.CodeMixedTokenizer.v1"}}})
    doc = nlp.make_doc("去日本 and the UNITED STATES, Texan in TEXAS")
    spans = names.spans(doc)
    found = {(label, doc[first:last + 1].text) for label, by_first in spans.items()
             for first, lasts in by_first.items() for last in lasts}
    assert found == {("COUNTRY", "日本"), ("COUNTRY", "UNITED STATES"), ("STATE", "TEXAS")}


def test_every_lexicon_country_and_state_is_a_closed_name():
    """The surrogate lexicons' values (and so the training corpus's gold) are names the NER may give."""
    from spacy_deid import lexicons

    names = load_closed_names(["COUNTRY", "STATE"])
    for lexicon, label in (("countries", "COUNTRY"), ("states", "STATE")):
        for part in ("train", "heldout"):
            for entry in lexicons.load(lexicon).split(part):
                for field in ("zh", "en"):
                    assert entry[field].casefold() in names[label], (lexicon, entry[field])


def test_closed_classes_file_is_what_the_build_script_writes():
    shipped = json.loads(resources.files("spacy_deid").joinpath("resources", "closed_classes.json")
                         .read_text("utf8"))
    assert load_build_places().build_closed() == shipped


def test_entities_set_before_it_stay_when_a_doc_is_parsed_again(tiny_nlp):
    """A doc parsed again starts from the entities it came in with (an earlier component's), not
    from the first parse's."""
    text = "他去門諾戒酒, 住在多倫多"
    ner = tiny_nlp.get_pipe("ner")
    found = {}
    for plain in (True, False):
        doc = tiny_nlp.make_doc(text)
        doc.set_ents([doc.char_span(10, 13, label="LOCATION")], default="missing")
        _annotate(ner, [doc], plain)
        found[plain] = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
    assert found[True] == [(2, 4, "COUNTRY"), (10, 13, "LOCATION")]  # so the doc is parsed again
    assert (10, 13, "LOCATION") in found[False]
    assert not any(label == "COUNTRY" for _, _, label in found[False])


def _upper_bias(nlp):
    return nlp.get_pipe("ner").model.get_ref("upper").get_param("b").copy()


def test_recall_bias_finds_more_and_leaves_the_weights_as_trained(generated_texts):
    import numpy
    plain = spacy_deid.load(exclude=["deid"], config={"components": {"ner": {"recall_bias": 0.0}}})
    biased = spacy_deid.load(exclude=["deid"], config={"components": {"ner": {"recall_bias": 2.0}}})
    trained = _upper_bias(biased)
    assert numpy.array_equal(trained, _upper_bias(plain))
    before = _ents(plain, generated_texts)
    after = _ents(biased, generated_texts)
    assert sum(map(len, after)) > sum(map(len, before))  # more entities where the model hesitated
    assert numpy.array_equal(_upper_bias(biased), trained)  # taken off while decoding only
    assert biased.config["components"]["ner"]["recall_bias"] == 2.0


def test_recall_bias_applies_to_the_step_by_step_decoder_too(monkeypatch, generated_texts):
    """Docs decoded again under the constraints see the same lowered `O` score as the compiled pass."""
    biased = spacy_deid.load(exclude=["deid"], config={"components": {"ner": {"recall_bias": 2.0}}})
    ner = biased.get_pipe("ner")
    compiled = _ents(biased, generated_texts, plain=True)
    monkeypatch.setattr(closed_ner, "FORBIDDEN_MOVE_PENALTY", 0.0)
    monkeypatch.setattr(ner.closed, "breaks", lambda doc: True)
    assert _ents(biased, generated_texts) == compiled


def test_recall_bias_reaches_the_ner_from_load_recognizer_and_is_saved(tmp_path, shipped_recall_bias):
    from spacy_deid.loading import load_recognizer
    def biases(nlp):  # every NER of the pipeline, the voters' included (spacy_deid.ner_vote)
        return {nlp.get_pipe(name).recall_bias for name, factory in nlp.pipe_factories.items() if factory == "deid_ner"}

    assert biases(load_recognizer("default", recall_bias=1.5)) == {1.5}
    assert biases(load_recognizer("default")) == {shipped_recall_bias}  # as project.yml builds it
    assert biases(spacy_deid.load(exclude=["deid"], recall_bias=0.75)) == {0.75}  # every NER, from one argument
    nlp = spacy_deid.load(exclude=["deid"], config={"components": {"ner": {"recall_bias": 0.5}}})
    nlp.to_disk(tmp_path / "p")
    assert spacy.load(tmp_path / "p").get_pipe("ner").recall_bias == 0.5


def test_threads_sharing_a_biased_pipeline_get_what_one_thread_gets(generated_texts):
    """The bias is swapped into the shared output layer while decoding; the swap is held by a lock, so a
    second thread neither lowers the lowered array nor restores it under another's decoder."""
    import threading
    biased = spacy_deid.load(exclude=["deid"], config={"components": {"ner": {"recall_bias": 2.0}}})
    expected = _ents(biased, generated_texts)
    with biased.get_pipe("ner")._outside_lowered():
        assert closed_ner._BIAS_SWAP.locked()
    assert not closed_ner._BIAS_SWAP.locked()
    results = [None] * 4

    def work(i):
        results[i] = _ents(biased, generated_texts)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4
