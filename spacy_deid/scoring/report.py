"""Scores as a plain-text table (what `spacy-deid evaluate` prints); no span text, only numbers."""
from typing import Any, Dict, List, Optional


def _pct(value: Optional[float]) -> str:
    return "   -" if value is None else f"{100 * value:5.1f}"


def format_scores(scores: Dict[str, Any]) -> str:
    lines: List[str] = []
    c = scores.get("deid_counts", {})
    lines.append(f"docs {c.get('docs', 0)}  sentences {c.get('sentences', 0)}  tokens {c.get('tokens', 0)}  "
                 f"gold spans {c.get('gold_spans', 0)}  predicted spans {c.get('pred_spans', 0)}")
    lines.append("")
    lines.append(f"{'metric':<28}{'P':>7}{'R':>7}{'F':>7}")
    rows = [("strict (micro)", "ents"), ("strict (macro)", "deid_strict_macro"),
            ("category strict (micro)", "deid_category"), ("category strict (macro)", "deid_category_macro"),
            ("relaxed overlap (micro)", "deid_relaxed"), ("relaxed overlap (macro)", "deid_relaxed_macro"),
            ("token binary", "deid_token")]
    for name, key in rows:
        lines.append(f"{name:<28}{_pct(scores.get(key + '_p')):>7}{_pct(scores.get(key + '_r')):>7}"
                     f"{_pct(scores.get(key + '_f')):>7}")
    for title, key in (("per label (strict)", "ents_per_type"), ("per category (strict)", "deid_category_per_type"),
                       ("per label (relaxed)", "deid_relaxed_per_type")):
        per_type = scores.get(key) or {}
        if per_type:
            lines += ["", f"{title:<28}{'P':>7}{'R':>7}{'F':>7}"]
            for label, s in per_type.items():
                lines.append(f"{label:<28}{_pct(s['p']):>7}{_pct(s['r']):>7}{_pct(s['f']):>7}")
    kinds = scores.get("deid_by_kind") or {}
    if kinds:
        lines += ["", f"{'sentence kind':<14}{'sents':>7}{'tokens':>8}{'ent P':>7}{'ent R':>7}{'ent F':>7}"
                      f"{'tok P':>7}{'tok R':>7}{'tok F':>7}"]
        for kind, s in kinds.items():
            lines.append(f"{kind:<14}{s['sentences']:>7}{s['tokens']:>8}{_pct(s['ents_p']):>7}{_pct(s['ents_r']):>7}"
                         f"{_pct(s['ents_f']):>7}{_pct(s['token_p']):>7}{_pct(s['token_r']):>7}{_pct(s['token_f']):>7}")
    if "deid_leak_rate" in scores:
        lines += ["", f"leak rate {_pct(scores['deid_leak_rate'])}%  (full {_pct(scores['deid_leak_full_rate'])}%, "
                      f"{scores['deid_leak_leaked']} of {scores['deid_leak_spans']} gold spans)"]
        for label, s in (scores.get("deid_leak_per_type") or {}).items():
            lines.append(f"  {label:<26}{_pct(s['rate']):>7}%  ({s['leaked']}/{s['spans']})")
    return "\n".join(lines)
