"""`--gpu-id` of the commands that run a model: one place that puts thinc (and torch) on a GPU."""
import typer


def use_gpu(gpu_id: int, command: str) -> None:
    """Run models on GPU `gpu_id` (call before loading them, so their weights go there); -1 keeps
    the CPU. Without cupy or that device the command stops with a message rather than silently
    running on the CPU."""
    if gpu_id < 0:
        return
    import spacy

    try:
        spacy.require_gpu(gpu_id)
    except ValueError as err:  # no cupy, or no such device
        typer.echo(f"{command}: cannot use GPU {gpu_id}: {err}", err=True)
        raise typer.Exit(1)
