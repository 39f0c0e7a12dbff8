"""Adding other trained pipelines' NERs to a pipeline as voters (`spacy-deid assemble --voter`).

WHY each voter keeps its own tok2vec: the voters differ by their training's random draws, and so do
their tok2vecs; a NER sourced without its own copy would read features it was never trained on. The
voters read the same tokens and the same pretrained taggers' tags as the pipeline's own NER, so both
must be the same (checked here, not discovered as a silent drop in accuracy).
"""
from typing import List, Optional, Sequence

from spacy.language import Language

from ..dates.component import NER_FACTORIES
from .component import votes_key


def ner_name(nlp: Language, what: str) -> str:
    """The one NER of `nlp`; an error when it has none or several."""
    names = [name for name, factory in nlp.pipe_factories.items() if factory in NER_FACTORIES]
    if len(names) != 1:
        raise ValueError(f"{what}: a voter pipeline needs exactly one NER, found {names}")
    return names[0]


def knowledge_settings(nlp: Language) -> Optional[dict]:
    """The settings of `nlp`'s deid_knowledge component, or None without one."""
    for name, factory in nlp.pipe_factories.items():
        if factory == "deid_knowledge":
            return nlp.get_pipe(name).settings()
    return None


def same_vectors(a: Language, b: Language) -> bool:
    vectors_a, vectors_b = a.vocab.vectors, b.vocab.vectors
    return (vectors_a.shape == vectors_b.shape
            and vectors_a.to_bytes(exclude=["strings"]) == vectors_b.to_bytes(exclude=["strings"]))


def add_voters(nlp: Language, voters: Sequence[Language]) -> List[str]:
    """Source each voter's NER into `nlp` after `nlp`'s own, each NER's entities moved aside for a
    `deid_ner_vote` that keeps those a strict majority of the NERs and the pretrained taggers (when
    `nlp` runs them) agree on. Returns the names of the components added. `voters` are changed: their
    NERs get their own copy of the tok2vec they listened to."""
    if not voters:
        return []
    own = ner_name(nlp, "the pipeline")
    knowledge = knowledge_settings(nlp)
    last = f"{own}_to_votes"
    nlp.add_pipe("deid_ents_to_spans", name=last, after=own, config={"spans_key": votes_key(own)})
    added = [last]
    proposers = [votes_key(own)]
    for number, voter in enumerate(voters, start=2):
        theirs = ner_name(voter, f"voter {number - 1}")
        if knowledge_settings(voter) != knowledge:
            raise ValueError(f"voter {number - 1}: its pretrained taggers' settings differ from the pipeline's "
                             f"({knowledge_settings(voter)} vs {knowledge}); its NER would read other features")
        if not same_vectors(nlp, voter):
            raise ValueError(f"voter {number - 1}: its static vectors differ from the pipeline's")
        for upstream in voter.pipe_names:
            if theirs in getattr(voter.get_pipe(upstream), "listening_components", []):
                voter.replace_listeners(upstream, theirs, ["model.tok2vec"])
        name = f"{own}_{number}"
        nlp.add_pipe(theirs, name=name, source=voter, after=last)
        last = f"{name}_to_votes"
        nlp.add_pipe("deid_ents_to_spans", name=last, after=name, config={"spans_key": votes_key(name)})
        added += [name, last]
        proposers.append(votes_key(name))
    voting = proposers + ([knowledge["spans_key"]] if knowledge else [])
    nlp.add_pipe("deid_ner_vote", name="ner_vote", after=last,
                 config={"proposers": proposers, "voters": voting, "min_votes": len(voting) // 2 + 1})
    return added + ["ner_vote"]
