"""Declarative cue rules (the method's principles of context): the words around a span that say what it
is (`在[中鋼]上班` a business, `transferred from [長庚]` a hospital), as JSON rules one engine runs
(`rule.py`: what a rule says; `ruleset.py`: files, matching, saving). The refine stage runs a group of
them as a step (`refine/cue_steps.py`); the `deid` component saves them with the pipeline."""
from .rule import DROPPED, PREDICATES, Cue, CueRule, CueRuleError, check_linear
from .ruleset import (CueFile, CueRuleSet, active_cue_rules, cue_frame, current_cue_rules, default_cue_files,
                      default_cue_rules, overlaid, read_cue_files)

__all__ = ["DROPPED", "PREDICATES", "Cue", "CueRule", "CueRuleError", "check_linear", "CueFile", "CueRuleSet",
           "active_cue_rules", "cue_frame", "current_cue_rules", "default_cue_files", "default_cue_rules", "overlaid", "read_cue_files"]
