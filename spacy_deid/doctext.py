"""A doc's text for the components that read it, without spaCy rebuilding it on every access.

WHY: spaCy keeps no text on a `Doc`; `doc.text` joins one new Token object per token each time it is
read, and the rules, dates and surrogate components each need the text of every note. The tokenizer
had the text in hand, so it leaves it here (`remember_text`); components read it back with
`doc_text`, which falls back to rebuilding it from the token array (without Token objects) for a doc
that did not come from our tokenizer (a `Doc(vocab, words=...)`, a doc read from a DocBin, a doc sent
back from another process).

Texts are held weakly by doc: a doc that is garbage collected takes its text with it. A remembered
text is used only while it still fits the doc (same character length and the same first and last
token at their offsets): `doc.from_bytes` can load other content into an empty doc object in place.
"""
import weakref
from typing import Dict

import numpy as np
from spacy.attrs import ORTH, SPACY
from spacy.tokens import Doc

_TEXTS: "weakref.WeakKeyDictionary[Doc, str]" = weakref.WeakKeyDictionary()


def remember_text(doc: Doc, text: str) -> Doc:
    """Record `text` as the text `doc` was made from (the tokenizer calls this)."""
    _TEXTS[doc] = text
    return doc


def _still_fits(doc: Doc, text: str) -> bool:
    if not len(doc):
        return text == ""
    last = doc[-1]
    end = last.idx + len(last.text)
    return (end + len(last.whitespace_) == len(text) and text.startswith(doc[0].text)
            and text.startswith(last.text, last.idx))


class _TokenTexts(dict):
    """(orth hash, trailing space) as 16 bytes -> token text with its whitespace. A hash names the same
    string in every StringStore (it is the hash of the string), so one cache serves all vocabs."""

    def __init__(self, strings):
        super().__init__()
        self.strings = strings

    def __missing__(self, key: bytes) -> str:
        orth, space = np.frombuffer(key, dtype=np.uint64)
        text = self.strings[int(orth)] + (" " if space else "")
        if len(self) >= 500_000:  # bounded: a vocab seen through this cache never grows it past this
            self.clear()
        self[key] = text
        return text


_TOKEN_TEXT_CACHES: Dict[int, _TokenTexts] = {}


def clear_caches() -> None:
    """Forget remembered texts and cached token texts (benchmarks measure unseen notes cold)."""
    _TEXTS.clear()
    _TOKEN_TEXT_CACHES.clear()


def rebuild_text(doc: Doc) -> str:
    """`doc.text`, built from the token array: the same string, without a Token object per token."""
    if not len(doc):
        return ""
    strings = doc.vocab.strings
    cache = _TOKEN_TEXT_CACHES.get(id(strings))
    if cache is None or cache.strings is not strings:
        if len(_TOKEN_TEXT_CACHES) > 8:
            _TOKEN_TEXT_CACHES.clear()
        cache = _TOKEN_TEXT_CACHES[id(strings)] = _TokenTexts(strings)
    arr = np.ascontiguousarray(doc.to_array([ORTH, SPACY]), dtype=np.uint64)
    return "".join([cache[k] for k in arr.view("V16").ravel().tolist()])


def doc_text(doc: Doc) -> str:
    """`doc.text`: the tokenizer's text when it still fits the doc, else rebuilt once and remembered."""
    text = _TEXTS.get(doc)
    if text is not None and _still_fits(doc, text):
        return text
    text = rebuild_text(doc)
    _TEXTS[doc] = text
    return text


__all__ = ["clear_caches", "doc_text", "rebuild_text", "remember_text"]
