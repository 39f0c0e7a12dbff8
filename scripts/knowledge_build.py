"""Save a variant of a pipeline (the shipped default unless --base) with `deid_knowledge` before
`deid` and knowledge refine steps after its note steps, for `scripts/evaluate_external.py`,
`spacy-deid predict` and the benchmarks.

    python scripts/knowledge_build.py OUT_DIR [--steps knowledge_drop_latin,knowledge_add_cued]
                                      [--base PATH] [--no-title-case-upper]

The variant loads by path like any pipeline (`spacy_deid.load(OUT_DIR)`); it needs the optional
extra `[knowledge]` installed. The shipped default itself is not changed.
"""
import argparse
from pathlib import Path

import spacy_deid
from spacy_deid.refine import note_steps


def build(out: Path, steps, base=None, title_case_upper: bool = True) -> None:
    for step in steps:
        note_steps.get(step)  # an unknown name fails here, before anything is written
    probe = spacy_deid.load(base)
    current = list(probe.get_pipe_config("deid").get("note_steps", []))
    nlp = spacy_deid.load(base, config={"components": {"deid": {"note_steps": current + list(steps)}}})
    nlp.add_pipe("deid_knowledge", before="deid", config={"title_case_upper": title_case_upper})
    nlp.get_pipe("deid_knowledge").initialize()
    nlp.to_disk(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path)
    parser.add_argument("--steps", default="", help="Comma-separated note steps added after the base's.")
    parser.add_argument("--base", default=None, help="Pipeline path (default: the shipped default).")
    parser.add_argument("--title-case-upper", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    build(args.output, [s for s in args.steps.split(",") if s], args.base, args.title_case_upper)
    print(f"saved {args.output}")


if __name__ == "__main__":
    main()
