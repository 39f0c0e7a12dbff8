"""Surrogates for identifiers: Taiwan national IDs (checksum kept valid), phones (layout and area-code
style kept), e-mail addresses and URLs (structure kept), IP addresses (still addresses)."""
import ipaddress
import re
from typing import Optional

from .keys import KeyedDraw
from .shapes import shape_surrogate

# Letter codes of the Taiwan national ID (A=10 ... Z=33; I, O, W, X, Y, Z are out of alphabetical order
# because they were added after the original 20 counties).
_ID_LETTER_CODE = {
    "A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15, "G": 16, "H": 17, "I": 34, "J": 18, "K": 19,
    "L": 20, "M": 21, "N": 22, "O": 35, "P": 23, "Q": 24, "R": 25, "S": 26, "T": 27, "U": 28, "V": 29,
    "W": 32, "X": 30, "Y": 31, "Z": 33,
}
_ID_LETTERS = "".join(sorted(_ID_LETTER_CODE))
_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 1)
# National ID (gender digit 1/2) and the 2021 resident certificate (8/9); old resident certificates
# carry the gender in a second letter (A-D).
_TW_ID_RE = re.compile(r"[A-Za-z][1289]\d{8}")
_OLD_ARC_RE = re.compile(r"[A-Za-z][A-Da-d]\d{8}")


def _letter_sum(letter: str) -> int:
    code = _ID_LETTER_CODE[letter.upper()]
    return code // 10 + (code % 10) * 9


def tw_id_checksum_ok(text: str) -> bool:
    """True for a valid Taiwan national ID / new resident certificate / old resident certificate."""
    if _TW_ID_RE.fullmatch(text):
        second = int(text[1])
    elif _OLD_ARC_RE.fullmatch(text):
        second = _ID_LETTER_CODE[text[1].upper()] % 10
    else:
        return False
    total = _letter_sum(text[0]) + second * _WEIGHTS[0]
    total += sum(int(d) * w for d, w in zip(text[2:9], _WEIGHTS[1:]))
    return (total + int(text[9])) % 10 == 0


def _check_digit(prefix9: str) -> str:
    """The 10th character that makes `prefix9` + it a valid ID."""
    if prefix9[1].isdigit():
        second = int(prefix9[1])
    else:
        second = _ID_LETTER_CODE[prefix9[1].upper()] % 10
    total = _letter_sum(prefix9[0]) + second * _WEIGHTS[0]
    total += sum(int(d) * w for d, w in zip(prefix9[2:9], _WEIGHTS[1:]))
    return str((10 - total % 10) % 10)


def is_tw_id_shape(text: str) -> bool:
    return bool(_TW_ID_RE.fullmatch(text) or _OLD_ARC_RE.fullmatch(text))


def tw_id_surrogate(original: str, draw: KeyedDraw) -> str:
    """A valid ID with the same gender marker (2nd character) and letter case; a new area letter
    and serial. Keeps validity even when the original's checksum was wrong (a typo is still PHI)."""
    for _ in range(16):
        letter = _ID_LETTERS[draw.below(len(_ID_LETTERS))]
        if original[0].islower():
            letter = letter.lower()
        serial = "".join(str(draw.below(10)) for _ in range(7))
        prefix = letter + original[1] + serial
        out = prefix + _check_digit(prefix)
        if out.upper() != original.upper():
            return out
    raise AssertionError("unreachable: 16 equal draws of a 7-digit serial")


# -- phones --------------------------------------------------------------------------------------
# Taiwan landline area codes by length (with the trunk 0): 02 Taipei ... 08 Pingtung; 3-digit codes
# for Miaoli, Nantou, Taitung, Kinmen; 4-digit for Matsu/Wuqiu. A surrogate keeps the code's length so
# the number's layout and digit count stay plausible.
_AREA_CODES = {2: ("02", "03", "04", "05", "06", "07", "08"), 3: ("037", "049", "089", "082"),
               4: ("0826", "0836")}
_DIGIT_GROUP_RE = re.compile(r"\d+")


def phone_surrogate(original: str, draw: KeyedDraw) -> str:
    """Same separators and digit count. Kept: an international `+CC` prefix, the Taiwan mobile prefix
    `09` (`+886 9`), the trunk `0` of a landline, whose area code becomes another of the same length;
    the first subscriber digit stays non-zero (numbers never start with 0 after the area code)."""
    groups = [(m.start(), m.end()) for m in _DIGIT_GROUP_RE.finditer(original)]
    digits = "".join(original[s:e] for s, e in groups)
    if not digits:
        return shape_surrogate(original, draw)
    keep = 0  # leading digits kept verbatim
    prefix = ""  # replacement for a leading area code
    stripped = original.lstrip(" (")
    if stripped.startswith("+"):
        first = groups[0][1] - groups[0][0]
        keep = first if first <= 3 else min(3, first)
        if digits[keep:keep + 1] == "9" and digits.startswith("886"):
            keep += 1
    elif digits.startswith("09"):
        keep = 2
    elif digits.startswith("0"):
        first = groups[0][1] - groups[0][0]
        if first in _AREA_CODES and len(groups) > 1:
            prefix = draw.choice(_AREA_CODES[first])
        else:
            keep = 2 if len(digits) > 6 else 1
    head = prefix or digits[:keep]
    for _ in range(16):
        tail = []
        for i in range(len(head), len(digits)):
            tail.append(str(draw.below(9) + 1) if i == len(head) else str(draw.below(10)))
        new_digits = head + "".join(tail)
        if new_digits != digits:
            break
    else:
        return shape_surrogate(original, draw)
    out, pos, k = [], 0, 0
    for s, e in groups:
        out.append(original[pos:s])
        out.append(new_digits[k:k + e - s])
        k += e - s
        pos = e
    out.append(original[pos:])
    return "".join(out)


# -- e-mail and URLs -------------------------------------------------------------------------------
_WORD_RE = re.compile(r"[A-Za-z0-9]+")


def _replace_words(text: str, draw: KeyedDraw) -> str:
    return _WORD_RE.sub(lambda m: shape_surrogate(m.group(0), draw), text)


def _domain_surrogate(domain: str, draw: KeyedDraw) -> str:
    """Every label but the public suffix is replaced (`ntuh.gov.tw` → `bkav.gov.tw`); the suffix says
    only the country and kind of organisation."""
    labels = domain.split(".")
    suffix = 1
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2].lower() in {
            "com", "org", "edu", "gov", "net", "ac", "co", "idv", "mil"}:
        suffix = 2
    head = [_replace_words(label, draw) for label in labels[:-suffix]]
    return ".".join(head + labels[-suffix:])


def email_surrogate(original: str, draw: KeyedDraw) -> str:
    local, at, domain = original.rpartition("@")
    if not at:
        return shape_surrogate(original, draw)
    return _replace_words(local, draw) + "@" + _domain_surrogate(domain, draw)


_URL_RE = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<www>www\.)?(?P<host>[^/?#:]*)(?P<rest>.*)",
                     re.S)


_HEX = "0123456789abcdef"


def ip_surrogate(original: str, draw: KeyedDraw) -> Optional[str]:
    """Another address of the same version and layout (`192.168.1.10` -> `57.203.14.188`), or None
    when `original` is not an IP address. IPv4 octets are drawn from 1-254 (no network or broadcast
    octet); IPv6 keeps its groups and `::`, with new hex digits in the case the original writes."""
    try:
        version = ipaddress.ip_address(original).version
    except ValueError:
        return None
    for _ in range(16):
        if version == 4:
            out = ".".join(str(draw.between(1, 254)) for _ in range(4))
        else:
            hexdigits = _HEX.upper() if original.upper() == original else _HEX
            out = "".join(hexdigits[draw.below(16)] if c in "0123456789abcdefABCDEF" else c for c in original)
        if out != original:
            return out
    return None


def url_surrogate(original: str, draw: KeyedDraw) -> str:
    """Scheme, `www.` and the public suffix stay; host labels, path, query and fragment words change.
    A bare IP address (HIPAA lists them beside URLs) becomes another address."""
    address = ip_surrogate(original, draw)
    if address is not None:
        return address
    m = _URL_RE.match(original)
    if m is None or not m.group("host"):
        return shape_surrogate(original, draw)
    host = m.group("host")
    new_host = _domain_surrogate(host, draw) if "." in host else _replace_words(host, draw)
    out = (m.group("scheme") or "") + (m.group("www") or "") + new_host + _replace_words(m.group("rest"), draw)
    return out if out != original else shape_surrogate(original, draw)

