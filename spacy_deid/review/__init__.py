"""The review page (`spacy-deid review`): de-identified notes beside their originals in one
self-contained HTML file, with corrections exported as corpus JSONL (docs/annotation.md)."""
from .builder import ReviewData, load, payload, render
from .pairing import Pairing, consistent, pair

__all__ = ["ReviewData", "Pairing", "consistent", "load", "pair", "payload", "render"]
