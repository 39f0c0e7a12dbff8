"""Which characters are Han ideographs: one definition for the tokenizer, the span checks, the rules,
the scorer and the surrogates.

WHY: the CJK Unified Ideographs block (U+4E00–9FFF) alone misses Extension A (U+3400–4DBF, rare
characters of names), the compatibility ideographs (U+F900–FAFF, which Big5 conversions produce) and
the supplementary planes (U+20000–3134F: names written with Extension B characters, `𡘙`). A name
half inside the range would be half recognised and half replaced, so every module asks here.
"""
import re

HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
# Chinese text also writes the ideographic zero 〇 in numbers (民國一一〇年): it is no ideograph, but
# the tokenizer and the sentence-kind scorer read it as Chinese.
HAN_TEXT_RANGES = HAN_RANGES + "\u3007"
HAN_CHAR = re.compile(f"[{HAN_RANGES}]")
HAN_RUN = re.compile(f"[{HAN_RANGES}]+")


def has_han(text: str) -> bool:
    return HAN_CHAR.search(text) is not None


def is_han(ch: str) -> bool:
    return HAN_CHAR.match(ch) is not None
