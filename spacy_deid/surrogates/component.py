"""`deid_surrogates`: the spaCy component around `Resynthesizer`.

The key is never part of the component's serialized state: `to_disk`/`to_bytes` write the policy,
scope, date range and age cap only; the key comes at run time (`SPACY_DEID_KEY`, `set_key()`, or an
`env:VAR`/`file:PATH` reference in `key`). A literal key in the config would be written by spaCy
into config.cfg: the component warns at creation and refuses every save (`to_disk`, `to_bytes`,
hence `spacy package`), removing the config.cfg spaCy wrote just before, as `deid` does.
"""
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Union

import srsly
from spacy import util
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example

from ..extensions import install_extensions
from .engine import Resynthesizer
from .keys import discard_config_with_key, is_literal_key, refuse_literal_key
from .policies import Policy

_CFG = "cfg.json"


class DeidSurrogates:
    """Replaces every span in `doc.ents` by its policy's operator; writes deid_text and replacements."""

    def __init__(self, nlp: Optional[Language], name: str = "deid_surrogates", *,
                 key: Optional[str] = None, demo_key: bool = False,
                 policy: Union[str, Dict[str, Any]] = "surrogate", scope: str = "patient",
                 date_shift_days: Union[List[int], Dict[str, int]] = (-365, 365), age_cap: bool = False):
        install_extensions()
        self.name = name
        self.config_key = key  # checked before any save
        self.engine = Resynthesizer(key=key, demo_key=demo_key, policy=policy, scope=scope,
                                    date_shift_days=date_shift_days, age_cap=age_cap)

    @property
    def policy(self) -> Policy:
        return self.engine.policy

    def set_key(self, key: Optional[Union[str, bytes]]) -> None:
        """Give the key at run time (it is never serialized)."""
        self.engine.set_key(key)

    def __call__(self, doc: Doc) -> Doc:
        return self.engine(doc)

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterable[Doc]:
        for doc in stream:
            yield self.engine(doc)

    def initialize(self, get_examples: Optional[Callable[[], Iterable[Example]]] = None, *,
                   nlp: Optional[Language] = None) -> None:
        """Load the lexicon tables now rather than on the first note."""
        self.engine.generator.warm_up()

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """Nothing to score: surrogates have no gold standard (the leak rate is scored on the
        recognizers' output by `spacy_deid.scoring`)."""
        return {}

    # -- serialization (never the key) --------------------------------------------------------------
    # Every setting lives in the pipeline's config (config.cfg), which spaCy saves and rebuilds from,
    # so settings given at load time (`spacy.load(path, config=...)`, `spacy-deid run --policy`) win.
    # The component keeps no other state; the key is never written anywhere.
    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        refuse_literal_key(self.config_key, f"deid_surrogates {self.name!r}")
        return srsly.msgpack_dumps({})

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "DeidSurrogates":
        return self

    def to_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> None:
        path = util.ensure_path(path)
        if is_literal_key(self.config_key):  # spaCy has just written config.cfg, key included
            discard_config_with_key(path.parent, self.config_key)
            refuse_literal_key(self.config_key, f"deid_surrogates {self.name!r}")
        path.mkdir(parents=True, exist_ok=True)

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "DeidSurrogates":
        return self


@Language.factory(
    "deid_surrogates",
    assigns=["doc._.deid_text", "doc._.replacements", "span._.surrogate"],
    requires=["doc.ents"],
    default_config={
        "key": None,
        "demo_key": False,
        "policy": "surrogate",
        "scope": "patient",
        "date_shift_days": [-365, 365],
        "age_cap": False,
    },
    default_score_weights={},
)
def make_deid_surrogates(nlp: Language, name: str, *, key: Optional[str], demo_key: bool,
                         policy: Union[str, Dict[str, Any]], scope: str,
                         date_shift_days: Union[List[int], Dict[str, int]], age_cap: bool) -> DeidSurrogates:
    """`key`: None → env SPACY_DEID_KEY (or `env:VAR` / `file:PATH`); `policy`: a preset name
    (`surrogate`, `hipaa-safe-harbor`), a .json path or an inline dict; `scope`: patient / document /
    corpus; `date_shift_days`: [min, max] (never 0); `age_cap`: ages over 89 → `90+`."""
    if is_literal_key(key):
        warnings.warn("deid_surrogates: a literal key in the config cannot be saved with the pipeline "
                      "(config.cfg, wheels); prefer SPACY_DEID_KEY, 'env:VAR', 'file:PATH' or set_key()",
                      UserWarning, stacklevel=2)
    return DeidSurrogates(nlp, name, key=key, demo_key=demo_key, policy=policy, scope=scope,
                          date_shift_days=date_shift_days, age_cap=age_cap)
