"""The shipped default pipeline: a CPU NER trained on the synthetic corpus, plus `deid`.

It lives inside the package (`spacy_deid/default_pipeline/`) so `pip install spacy-deid` is enough to
de-identify without a model hub; `spacy project run package-default` rebuilds it reproducibly.
"""
from importlib import resources
from pathlib import Path
from typing import Any, Dict, Optional, Union

import spacy
from spacy import util
from spacy.language import Language
from thinc.api import Config

from .extensions import install_extensions
from .tokenizer import blank

DEFAULT_PIPELINE_DIR = "default_pipeline"


def default_pipeline_path() -> Path:
    return Path(str(resources.files("spacy_deid").joinpath(DEFAULT_PIPELINE_DIR)))


def has_default_pipeline() -> bool:
    return (default_pipeline_path() / "config.cfg").is_file()


def load(name: Optional[Union[str, Path]] = None, *, config: Optional[Dict[str, Any]] = None,
         recall_bias: Optional[float] = None, **kwargs: Any) -> Language:
    """Load a pipeline: the shipped default when `name` is None, else a path or package name.

    `config` overrides settings, e.g. `{"components": {"deid": {"demo_key": True}}}`.
    `recall_bias`: the NERs' precision/recall dial (`closed_ner`), set on every NER of the pipeline
    (the default has two that vote); None keeps the pipeline's own.
    """
    install_extensions()
    if name is None:
        if not has_default_pipeline():
            raise OSError(
                "The default pipeline is not installed in spacy_deid/default_pipeline. "
                "Rebuild it with `spacy project run all` then `spacy project run package-default`."
            )
        name = default_pipeline_path()
    overrides = Config(config or {})
    if recall_bias is not None:
        overrides = overrides.merge(Config(recall_bias_overrides(saved_config(name), recall_bias)))
    return spacy.load(name, config=overrides, **kwargs)


def saved_config(name: Union[str, Path]):
    """A saved pipeline's config (a path, or a package's), read without loading it; None when it
    cannot be read (a package laid out otherwise: it is then loaded without overrides)."""
    try:
        path = Path(name) if Path(name).exists() else Path(util.get_package_path(str(name)))
        # an installed `spacy package` keeps its pipeline one folder down (`<name>-<version>/`)
        found = [path / "config.cfg"] if (path / "config.cfg").is_file() else sorted(path.glob("*/config.cfg"))
        return util.load_config(found[0]) if len(found) == 1 else None
    except Exception:  # noqa: BLE001 - any unreadable config means the same: no overrides
        return None


def recall_bias_overrides(config, recall_bias: Optional[float]) -> Dict[str, Any]:
    """Config overrides that set `recall_bias` (`closed_ner`) on every `deid_ner` of a pipeline; an
    error when one was asked for and the pipeline has no `deid_ner` to take it."""
    if recall_bias is None:
        return {}
    names = [name for name, component in (config or {}).get("components", {}).items()
             if component.get("factory") == "deid_ner"]
    if not names:
        raise ValueError("recall_bias is a setting of the deid_ner component, and this pipeline has none "
                         "(or its config could not be read)")
    return {"components": {name: {"recall_bias": float(recall_bias)} for name in names}}


def load_recognizer(name: Union[str, Path], recall_bias: Optional[float] = None) -> Language:
    """A pipeline that finds PHI without replacing it (for `predict` and evaluation).

    `name`: "default" (the shipped pipeline), "rules" (rules and dates alone, no NER: shows what the
    NER adds), or a pipeline path / package name. Surrogates are switched off, so no key is needed.
    `recall_bias`: the NER's precision/recall dial (`closed_ner`); None keeps the pipeline's own.
    """
    if str(name) == "rules":
        recall_bias_overrides(None, recall_bias)  # no NER: a dial asked for is an error, not ignored
        nlp = blank()
        nlp.add_pipe("deid", config={"surrogates": False})
        nlp.initialize()
        return nlp
    nlp = load(None if str(name) == "default" else name, config={"components": {"deid": {"surrogates": False}}},
               recall_bias=recall_bias)
    if "deid" not in nlp.pipe_names:
        nlp.add_pipe("deid", config={"surrogates": False})
    return nlp
