"""`--gpu-id` of `predict` and `run`: without a usable GPU the command stops with a message naming
the GPU, before it loads a model or opens an output, instead of silently running on the CPU."""
from pathlib import Path

import pytest
from thinc.api import prefer_gpu, require_cpu
from typer.testing import CliRunner

from spacy_deid.cli import app

DEV_NOTES = Path(__file__).parent / "data" / "dev_notes.jsonl"


@pytest.fixture(scope="module")
def gpu_is_usable():
    usable = prefer_gpu(0)
    require_cpu()
    return usable


@pytest.mark.parametrize("command", [
    ["predict", "rules", str(DEV_NOTES), "OUT"],
    ["run", str(DEV_NOTES), "OUT", "--demo-key", "--no-progress"],
])
def test_gpu_id_without_a_usable_gpu_stops_with_a_message(tmp_path, gpu_is_usable, command):
    if gpu_is_usable:
        pytest.skip("this machine has a usable GPU: nothing to refuse")
    out = tmp_path / "out.jsonl"
    args = [str(out) if arg == "OUT" else arg for arg in command] + ["--gpu-id", "0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert f"{command[0]}: cannot use GPU 0" in result.output
    assert not out.exists()
