"""Sentence kinds by the code-mixing index (CMI) of Gambäck & Das (2014).

Sentence rule (on the code-mixing tokenizer's tokens, so `Dr.`, `112.05.08`, `12.5` never split):
a sentence ends after a run of sentence-final punctuation tokens (`.` `!` `?` `。` `！` `？` `．`,
including `…`), and at any whitespace token that contains a line break; whitespace tokens belong to
no sentence.

Token language: `zh` when it has a Han character, `en` when it has a Latin letter (ASCII, Latin-1/
Extended, full-width), otherwise language-independent (digits, punctuation, symbols).
CMI = 100 × (1 − max(w_zh, w_en) / (n − u)) for n − u > 0, else 0, where n counts the sentence's
tokens and u its language-independent tokens.
Kind: `numeric` when no token has a Han character or a Latin letter (n = u: digits and symbols only);
`mixed` when CMI > 0; otherwise `english` or `chinese` by the one language present.
"""
import re
from typing import List, Optional, Tuple

from spacy.tokens import Doc

from ..han import HAN_TEXT_RANGES

KINDS = ("english", "chinese", "mixed", "numeric")
SENTENCE_END = frozenset({".", "!", "?", "。", "！", "？", "．", "…", "‼", "⁇", "⁈", "⁉"})
_HAN_RE = re.compile(f"[{HAN_TEXT_RANGES}]")
_LATIN_RE = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\uff21-\uff3a\uff41-\uff5a]")


def token_language(text: str) -> Optional[str]:
    """`zh`, `en`, or None for a language-independent token."""
    if _HAN_RE.search(text):
        return "zh"
    if _LATIN_RE.search(text):
        return "en"
    return None


def split_sentences(doc: Doc) -> List[Tuple[int, int]]:
    """Token index ranges [start, end) of the sentences of `doc` (see the module doc for the rule)."""
    sents: List[Tuple[int, int]] = []
    start: Optional[int] = None
    for tok in doc:
        if tok.is_space:
            if start is not None and ("\n" in tok.text or "\r" in tok.text):
                sents.append((start, tok.i))
                start = None
            continue
        if start is None:
            start = tok.i
        if tok.text in SENTENCE_END:
            nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
            if nxt is None or nxt.text not in SENTENCE_END:
                sents.append((start, tok.i + 1))
                start = None
    if start is not None:
        last = len(doc)
        while last > start and doc[last - 1].is_space:
            last -= 1
        sents.append((start, last))
    return sents


def cmi(languages: List[Optional[str]]) -> float:
    """Gambäck & Das code-mixing index of one utterance's token languages (None = independent)."""
    n = len(languages)
    u = sum(1 for lang in languages if lang is None)
    if n == u:
        return 0.0
    dominant = max(languages.count("zh"), languages.count("en"))
    return 100.0 * (1.0 - dominant / (n - u))


def sentence_kind(languages: List[Optional[str]]) -> str:
    if all(lang is None for lang in languages):
        return "numeric"
    if cmi(languages) > 0:
        return "mixed"
    return "chinese" if "zh" in languages else "english"
