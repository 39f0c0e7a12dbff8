"""The refine stage: registered steps, named in the `deid` config and run in that order, that correct
the spans every recognizer found once they are merged (`stage.RefineStage`; registries `registry.note_steps`, `registry.patient_steps`)."""
from .registry import NoteStep, PatientStep, note_steps, patient_steps
from .stage import DEFAULT_NOTE_STEPS, DEFAULT_PATIENT_STEPS, COUNTS_KEY, RefineStage, step_counts
from . import builtin  # noqa: F401  (registers the built-in steps)

__all__ = ["NoteStep", "PatientStep", "note_steps", "patient_steps", "RefineStage", "step_counts",
           "DEFAULT_NOTE_STEPS", "DEFAULT_PATIENT_STEPS", "COUNTS_KEY"]
