"""The shipped default pipeline: a CPU NER trained on the synthetic corpus, plus `deid`.

It lives inside the package (`spacy_deid/default_pipeline/`) so `pip install spacy-deid` is enough to
de-identify without a model hub; `spacy project run package-default` rebuilds it reproducibly.
"""
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Optional, Union

import spacy
from spacy.language import Language

DEFAULT_PIPELINE_DIR = "default_pipeline"


def default_pipeline_path() -> Path:
    return Path(str(resources.files("spacy_deid").joinpath(DEFAULT_PIPELINE_DIR)))


def has_default_pipeline() -> bool:
    return (default_pipeline_path() / "config.cfg").is_file()


def load(name: Optional[Union[str, Path]] = None, *, config: Optional[Dict[str, Any]] = None,
         **kwargs: Any) -> Language:
    """Load a pipeline: the shipped default when `name` is None, else a path or package name.

    `config` overrides settings, e.g. `{"components": {"deid": {"demo_key": True}}}`.
    """
    from .extensions import install_extensions

    install_extensions()
    if name is None:
        if not has_default_pipeline():
            raise OSError(
                "The default pipeline is not installed in spacy_deid/default_pipeline. "
                "Rebuild it with `spacy project run all` then `spacy project run package-default`."
            )
        name = default_pipeline_path()
    return spacy.load(name, config=config or {}, **kwargs)


def load_recognizer(name: Union[str, Path]) -> Language:
    """A pipeline that finds PHI without replacing it (for `predict` and evaluation).

    `name`: "default" (the shipped pipeline), "rules" (rules and dates alone, no NER: shows what the
    NER adds), or a pipeline path / package name. Surrogates are switched off, so no key is needed.
    """
    from . import blank

    no_surrogates = {"components": {"deid": {"surrogates": False}}}
    if str(name) == "rules":
        nlp = blank()
        nlp.add_pipe("deid", config={"surrogates": False})
        nlp.initialize()
        return nlp
    nlp = load(None if str(name) == "default" else name, config=no_surrogates)
    if "deid" not in nlp.pipe_names:
        nlp.add_pipe("deid", config={"surrogates": False})
    return nlp
