"""Match each `spacy-deid run` output record to the original note it came from.

`run` may write ids as keyed pseudonyms and drop other fields, and writes failed records to a separate
errors file, so an output's id may not name its original and positions can shift. A candidate original
is *consistent* with an output record when the output could only have come from it: every
replacement's original offsets lie in the candidate's text, in order, and the text between replacements
is identical in both (`original[prev_end:start] == deid[prev_out_end:out_start]`, and the same for the
text after the last one). A pairing is only ever made with a consistent candidate, tried in this order:

1. the original with the same id (ids kept verbatim, or `run` without pseudonyms);
2. the original whose id, pseudonymized with the key (`pseudonymize_field`), equals the output's id;
3. the next unused original after the last pairing (run writes in input order, skipping failures);
4. any unused original of the expected length (`len(deid)` corrected by the replacements' lengths).

An output with no consistent original is kept, de-identified side only, and counted as unpaired.
"""
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

Replacement = Dict[str, Any]


@dataclass
class Pairing:
    """`originals[i]` is the original text paired with output `i` (None when unpaired); `how` counts
    pairings by rule (id, key, position, length, unpaired)."""

    originals: List[Optional[str]]
    how: Dict[str, int] = field(default_factory=dict)


def consistent(original: str, deid: str, replacements: Sequence[Replacement]) -> bool:
    """True when `deid` is `original` with exactly these replacements (see the module docstring)."""
    if not isinstance(original, str):
        return False
    prev, prev_out = 0, 0
    for rep in replacements:
        start, end, out_start, out_end = rep["start"], rep["end"], rep["out_start"], rep["out_end"]
        if not (prev <= start <= end <= len(original) and prev_out <= out_start <= out_end <= len(deid)):
            return False
        if original[prev:start] != deid[prev_out:out_start]:
            return False
        prev, prev_out = end, out_end
    return original[prev:] == deid[prev_out:]


def expected_length(deid: str, replacements: Sequence[Replacement]) -> int:
    """The original's length implied by the output: the gaps are shared, only the spans differ."""
    return len(deid) + sum((r["end"] - r["start"]) - (r["out_end"] - r["out_start"]) for r in replacements)


def pair(outputs: Sequence[Tuple[Optional[str], str, Sequence[Replacement]]],
         originals: Sequence[Tuple[Optional[str], str]],
         pseudonym: Optional[Callable[[str], str]] = None) -> Pairing:
    """Pair `outputs` (id, deid text, sorted replacements) with `originals` (id, text).

    `pseudonym` maps an original id to the id `run` would have written (None: no key given)."""
    by_id: Dict[str, List[int]] = {}
    by_pseudonym: Dict[str, List[int]] = {}
    by_length: Dict[int, List[int]] = {}
    for j, (oid, text) in enumerate(originals):
        if oid is not None:
            by_id.setdefault(str(oid), []).append(j)
            if pseudonym is not None:
                by_pseudonym.setdefault(pseudonym(oid), []).append(j)
        by_length.setdefault(len(text), []).append(j)
    used = [False] * len(originals)
    result: List[Optional[str]] = []
    how = {"id": 0, "key": 0, "position": 0, "length": 0, "unpaired": 0}
    cursor = 0  # one past the last paired original

    def fits(j: int, deid: str, reps: Sequence[Replacement]) -> bool:
        return not used[j] and consistent(originals[j][1], deid, reps)

    for out_id, deid, reps in outputs:
        chosen, rule = None, "unpaired"
        key = None if out_id is None else str(out_id)
        for rule_name, index in (("id", by_id), ("key", by_pseudonym)):
            for j in index.get(key, ()) if key is not None else ():
                if fits(j, deid, reps):
                    chosen, rule = j, rule_name
                    break
            if chosen is not None:
                break
        if chosen is None:
            # forward from the cursor: failed records between two outputs are skipped over; the scan
            # only visits originals of the right length, so a run of failures costs little
            bucket = by_length.get(expected_length(deid, reps), [])
            start = bisect_left(bucket, cursor)  # buckets are in input order
            chosen = next((bucket[i] for i in range(start, len(bucket)) if fits(bucket[i], deid, reps)), None)
            rule = "position"
            if chosen is None:
                chosen = next((bucket[i] for i in range(start) if fits(bucket[i], deid, reps)), None)
                rule = "length" if chosen is not None else "unpaired"
        how[rule] += 1
        if chosen is None:
            result.append(None)
            continue
        used[chosen] = True
        cursor = chosen + 1
        result.append(originals[chosen][1])
    return Pairing(result, how)
