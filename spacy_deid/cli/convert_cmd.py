"""`spacy-deid convert`: between the corpus formats (JSONL, BRAT, i2b2 XML, CoNLL, .spacy)."""
from pathlib import Path
from typing import List, Optional

import typer

from . import app


@app.command("convert")
def convert_command(
    input_path: Path = typer.Argument(..., help="Input file or folder.", exists=True),
    output_path: Path = typer.Argument(..., help="Output file (jsonl, conll, spacy) or folder (brat, i2b2)."),
    from_format: Optional[str] = typer.Option(None, "--from", help="jsonl|brat|i2b2|conll|spacy (default: from the path)."),
    to_format: Optional[str] = typer.Option(None, "--to", help="spacy|jsonl|brat|i2b2|conll (default: from the path)."),
    label_map: Optional[str] = typer.Option(None, "--label-map", help="Label map name (e.g. i2b2_2014) or JSON file."),
    unmapped: str = typer.Option("error", help="Labels the map lacks: error|ignore|keep."),
    misaligned: str = typer.Option("expand", help="Spans not on token edges (spacy, conll): expand|contract|drop|error."),
    skip_bad: bool = typer.Option(False, "--skip-bad", help="Report bad records and go on (default: stop at the first)."),
    any_label: bool = typer.Option(False, "--any-label", help="Keep labels outside this project's scheme."),
) -> None:
    """Convert a corpus. Errors name records and lines, never their text."""
    from ..corpus import AlignmentReport, CorpusError, guess_format, load_label_map, read_corpus, write_corpus
    from ..labels import LABELS

    try:
        src = from_format or guess_format(input_path)
        dst = to_format or guess_format(output_path)
        lm = load_label_map(label_map, unmapped=unmapped) if label_map else None
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    errors: Optional[List[CorpusError]] = [] if skip_bad else None
    report = AlignmentReport()
    known = None if any_label or (lm is not None and unmapped == "keep") else LABELS
    try:
        records = read_corpus(input_path, src, errors=errors, label_map=lm, known_labels=known)
        count = write_corpus(records, output_path, dst, misaligned=misaligned, report=report)
    except CorpusError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{count} records written to {output_path} ({src} -> {dst})", err=True)
    if dst in ("spacy", "conll"):
        typer.echo(f"alignment: {report.summary()}", err=True)
        for action, ids in report.to_dict()["record_ids"].items():
            typer.echo(f"  {action}: {len(ids)} record(s), e.g. {', '.join(ids[:5])}", err=True)
    if lm is not None:
        for kind, counts in lm.report.to_dict().items():
            if counts and kind != "mapped":
                typer.echo(f"label map {lm.name}: {kind} spans {counts}", err=True)
    if errors:
        typer.echo(f"{len(errors)} record(s) skipped:", err=True)
        for err in errors:
            typer.echo(f"  {err}", err=True)
