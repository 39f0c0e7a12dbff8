"""`spacy-deid assemble`: a trained NER pipeline plus `deid`, saved as a deployable pipeline."""
from pathlib import Path
from typing import List, Optional

import typer

from ..knowledge.steps import TAGGER_NOTE_STEPS
from ..refine import DEFAULT_NOTE_STEPS
from . import app
from .recall_bias import RECALL_BIAS_OPTION, recall_bias_errors


@app.command("assemble")
def assemble_command(
    model: Path = typer.Argument(..., exists=True, file_okay=False, help="Trained pipeline (e.g. model-best)."),
    output: Path = typer.Argument(..., file_okay=False, help="Where to write the assembled pipeline."),
    name: str = typer.Option("zh_en_deid", help="Pipeline name written to meta.json."),
    recall_bias: Optional[float] = RECALL_BIAS_OPTION,
    voter: Optional[List[Path]] = typer.Option(
        None, "--voter", exists=True, file_okay=False,
        help="Another trained pipeline whose NER votes with MODEL's (repeatable); a NER span is kept where a "
             "majority of the NERs and the pretrained taggers agree (spacy_deid.ner_vote)."),
) -> None:
    """Add the deid component (rules, dates, surrogates) after MODEL's ner and save to OUTPUT; where
    MODEL runs the pretrained taggers (deid_knowledge), deid's note steps end with the knowledge steps
    that vote with them (knowledge.steps.TAGGER_NOTE_STEPS).

    With --voter, the other pipelines' NERs run after MODEL's, each with its own tok2vec, and a vote
    among them decides the NER's spans (spacy_deid.ner_vote).

    No key is stored: keys come at run time (SPACY_DEID_KEY), so the pipeline can be shared."""
    import spacy

    from .. import __version__
    from ..loading import recall_bias_overrides, saved_config
    from ..ner_vote import add_voters, knowledge_settings

    with recall_bias_errors():
        overrides = recall_bias_overrides(saved_config(model), recall_bias)
    nlp = spacy.load(model, config=overrides)  # the dial is saved with the pipeline
    with recall_bias_errors():
        voters = [spacy.load(path, config=recall_bias_overrides(saved_config(path), recall_bias)) for path in voter or []]
    try:
        add_voters(nlp, voters)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--voter") from err
    # a pipeline that reads the pretrained taggers needs the extra that installs them
    knowledge = knowledge_settings(nlp) is not None
    if "deid" not in nlp.pipe_names:
        steps = list(DEFAULT_NOTE_STEPS) + (list(TAGGER_NOTE_STEPS) if knowledge else [])
        nlp.add_pipe("deid", config={"note_steps": steps})
        nlp.get_pipe("deid").initialize(nlp=nlp)
    # a shipped pipeline names no file of the machine that trained it: [paths] is read only to train, and
    # whoever trains from the pipeline names their own corpora and vectors (as `spacy init config` leaves them)
    for key in nlp.config["paths"]:
        nlp.config["paths"][key] = None
    nlp.meta["name"] = name
    nlp.meta["requirements"] = [f"spacy-deid{'[knowledge]' if knowledge else ''}>={__version__}"]
    nlp.meta["description"] = "Code-mixed Chinese-English clinical de-identification (spacy-deid)"
    nlp.to_disk(output)
    typer.echo(f"Pipeline {nlp.pipe_names} written to {output}")
