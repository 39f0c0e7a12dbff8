"""Several trained NERs in one pipeline, and a majority vote over their entities (`component.py`);
`spacy-deid assemble --voter` builds such a pipeline (`assemble.py`)."""
from .assemble import add_voters, knowledge_settings
from .component import EntsToSpans, NerVote, make_ents_to_spans, make_ner_vote, token_cover, touches

__all__ = ["EntsToSpans", "NerVote", "add_voters", "knowledge_settings", "make_ents_to_spans", "make_ner_vote", "token_cover", "touches"]
