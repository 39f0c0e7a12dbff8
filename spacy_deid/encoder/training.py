"""Training callbacks for transformer pipelines: frozen word embeddings and a thread count.

A multilingual encoder spends most of its parameters on the word-piece embedding matrix (96M of
multilingual-e5-small's 118M): a clinical corpus touches a few thousand of its 250k rows, so
training it costs time and memory and lets rare pieces drift away from their pretrained vectors.
Freezing it makes a CPU update about twice as fast and changes nothing at prediction time.
"""
import logging
from typing import Callable, Iterator, Tuple

from spacy.language import Language
from spacy.util import registry

logger = logging.getLogger(__name__)


def _torch_modules(nlp: Language) -> Iterator[Tuple[str, object]]:
    """(component name, torch module) for every PyTorch shim in the pipeline's models."""
    for name, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for node in model.walk():
            for shim in node.shims:
                module = getattr(shim, "_model", None)
                if module is not None and hasattr(module, "named_parameters"):
                    yield name, module


def freeze_input_embeddings(nlp: Language) -> int:
    """Stop training the word-piece embeddings of every transformer in `nlp`; return rows frozen.

    Both steps are needed: with `requires_grad` off torch computes no new gradient, and clearing
    `.grad` stops thinc's optimizer from applying an old (zeroed) gradient with weight decay and
    momentum, which would move the matrix anyway. Position and type embeddings stay trainable.
    """
    frozen = 0
    for name, module in _torch_modules(nlp):
        get_embeddings = getattr(module, "get_input_embeddings", None)
        embeddings = get_embeddings() if callable(get_embeddings) else None
        weight = getattr(embeddings, "weight", None)
        if weight is None:
            continue
        weight.requires_grad_(False)
        weight.grad = None
        frozen += int(weight.shape[0])
        logger.info("%s: froze word embeddings (%d x %d)", name, weight.shape[0], weight.shape[1])
    return frozen


def set_torch_threads(n_threads: int) -> None:
    """Set torch's intra-op thread count (0 keeps torch's default of one thread per core)."""
    if n_threads < 0:
        raise ValueError(f"torch_threads must be 0 (torch's default) or positive, not {n_threads}")
    if n_threads:
        import torch

        torch.set_num_threads(n_threads)


@registry.callbacks("spacy_deid.TransformerSetup.v1")
def make_transformer_setup(
    freeze_embeddings: bool = True, torch_threads: int = 0
) -> Callable[[Language], Language]:
    """`[initialize.after_init]` callback: thread count and optional frozen word embeddings.

    It runs after `nlp.initialize()` has loaded the encoder weights (loading replaces the torch
    module, so freezing any earlier would be undone).
    """

    def setup(nlp: Language) -> Language:
        set_torch_threads(torch_threads)
        if freeze_embeddings:
            if not freeze_input_embeddings(nlp):
                logger.warning("freeze_embeddings is set but the pipeline has no transformer")
        return nlp

    return setup
