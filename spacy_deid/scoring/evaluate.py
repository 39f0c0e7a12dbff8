"""File-level evaluation: read gold and predictions (JSONL), map gold labels, score, report."""
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ..corpus.jsonl import read_jsonl
from ..corpus.labelmap import LabelMap, load_label_map
from ..corpus.records import CorpusError
from ..labels import LABELS
from .scorer import score_records

PathLike = Union[str, Path]


def evaluate_files(gold_path: PathLike, pred_path: PathLike, *, label_map: Union[None, str, Path, LabelMap] = None,
                   unmapped: str = "error", missing: str = "error", leak: Optional[bool] = None,
                   errors: Optional[List[CorpusError]] = None, nlp=None, scheme_spans: bool = False) -> Dict[str, Any]:
    """Scores of PRED against GOLD (both JSONL). `label_map` (a name, a JSON file or a LabelMap) is
    applied to the gold only; predictions are in this project's scheme. With `errors` a list, bad
    lines are collected there and skipped (on both sides) instead of raising; the result then also
    holds `deid_label_map` (counts of mapped/ignored/unmapped gold spans) and `deid_errors`. `scheme_spans`
    trims the titles a corpus keeps inside names (the map's `titles_inside`) to annotation.md's spans."""
    lm = label_map if isinstance(label_map, LabelMap) or label_map is None else load_label_map(
        label_map, unmapped=unmapped, scheme_spans=scheme_spans)
    gold = list(read_jsonl(gold_path, errors=errors, label_map=lm, known_labels=None if lm is None else _scheme(lm)))
    pred = list(read_jsonl(pred_path, errors=errors, known_labels=None))
    if errors is not None:
        # Collecting mode: a record bad on either side is left out on both; a prediction without
        # gold (e.g. its gold line was unreadable) is reported and left out.
        bad = {e.record_id for e in errors if e.record_id is not None}
        gold = [g for g in gold if g.id not in bad]
        gold_ids = {g.id for g in gold}
        kept = []
        for p in pred:
            if p.id in gold_ids:
                kept.append(p)
            elif p.id not in bad:
                errors.append(CorpusError("prediction has no (readable) gold record", record_id=p.id,
                                          source=str(pred_path)))
        pred = kept
    scores = score_records(gold, pred, nlp=nlp, missing=missing, leak=leak)
    if lm is not None:
        scores["deid_label_map"] = {"name": lm.name, **lm.report.to_dict()}
    if errors is not None:
        scores["deid_errors"] = len(errors)
    return scores


def _scheme(lm: LabelMap):
    return None if lm.unmapped == "keep" else LABELS
