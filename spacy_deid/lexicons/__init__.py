"""Value lists for synthesis and surrogates, each with its source and licence.

Surrogates and the synthetic corpus draw names, places and organisations from here, so every value that
ends up in an output can be traced to a list with a known licence (`lexicons/data/*.json`). Each list
splits deterministically into `train` and `heldout` (about 80/20) so a held-out synthetic set can be built
from values a model never saw in training.
"""
from .lexicon import Lexicon, LexiconError, load, names

__all__ = ["Lexicon", "LexiconError", "load", "names"]
