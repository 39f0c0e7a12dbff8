"""Knowledge from general-domain pretrained taggers (optional extra `[knowledge]`): the
`deid_knowledge` component (`component.py`) and the refine steps that vote with its tags
(`steps.py`). Importing this package needs no tagger; the taggers load when first used."""
from .component import SPANS_KEY, KnowledgeTagger, make_knowledge
from .steps import STEPS
from .stretches import han_stretches, latin_stretches, title_case_upper_lines
from .taggers import LacTagger, SpacyTagger

__all__ = ["SPANS_KEY", "KnowledgeTagger", "make_knowledge", "STEPS", "han_stretches", "latin_stretches",
           "title_case_upper_lines", "LacTagger", "SpacyTagger"]
