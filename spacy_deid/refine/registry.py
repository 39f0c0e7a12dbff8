"""Where refine steps are registered: one registry for steps that read one note, one for steps that
read a patient's notes together. Other packages add steps through the entry-point groups
`spacy_deid_note_steps` / `spacy_deid_patient_steps`, or with the decorators, and name them in the config.

A step returns how many spans it changed (added, removed, relabelled or re-bounded), never which:
span text is PHI.
"""
from typing import Callable, Sequence

import catalogue
from spacy.tokens import Doc

# (doc, the doc's text) -> spans changed
NoteStep = Callable[[Doc, str], int]
# (one patient's docs, in order) -> spans changed
PatientStep = Callable[[Sequence[Doc]], int]

note_steps = catalogue.create("spacy_deid", "note_steps", entry_points=True)
patient_steps = catalogue.create("spacy_deid", "patient_steps", entry_points=True)
