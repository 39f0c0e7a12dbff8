"""`spacy-deid chunk`: cut long notes into line-aligned pieces, spans kept whole.

Transformer training on a CPU costs per window, and a synthetic note is thousands of tokens: pieces of a
few lines give the same contexts in small, evenly padded batches (`configs/trf.cfg`'s batcher).
"""
from pathlib import Path
from typing import Iterator, List, Optional

import typer

from ..corpus import PhiSpan, Record
from . import app


def chunk_record(record: Record, max_chars: int) -> Iterator[Record]:
    """Pieces of at most ~max_chars that end at a newline and never cut a span (a span crossing a
    line end keeps its lines together; a single longer line is one piece)."""
    text = record.text
    cuts: List[int] = []
    start = 0
    spans = sorted(record.spans, key=lambda s: s.start)
    pos = 0
    while pos < len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl + 1
        if end - start >= max_chars and not any(s.start < end < s.end for s in spans):
            cuts.append(end)
            start = end
        pos = end
    bounds = [0] + cuts + ([len(text)] if not cuts or cuts[-1] != len(text) else [])
    for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
        if a == b or not text[a:b].strip():
            continue
        piece = [PhiSpan(s.start - a, s.end - a, s.label, s.text, s.norm) for s in spans if a <= s.start and s.end <= b]
        yield Record(id=f"{record.id}#{i}", text=text[a:b], spans=piece, patient_id=record.patient_id)


@app.command("chunk")
def chunk_command(
    input_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="JSONL corpus."),
    output_path: Path = typer.Argument(..., dir_okay=False, help="JSONL of pieces."),
    max_chars: int = typer.Option(400, min=1, help="Cut after the line that reaches this length."),
    limit: Optional[int] = typer.Option(None, min=1, help="Write at most this many pieces."),
) -> None:
    """Cut the notes of INPUT into pieces of a few lines (spans kept whole) for transformer training."""
    from itertools import islice

    from ..corpus import read_jsonl, write_jsonl

    pieces = (p for r in read_jsonl(input_path) for p in chunk_record(r, max_chars))
    count = write_jsonl(islice(pieces, limit) if limit else pieces, output_path)
    typer.echo(f"{count} pieces written to {output_path}")
