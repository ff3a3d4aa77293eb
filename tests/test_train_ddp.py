"""annotated_examples.train_ddp under torchrun (2 processes, gloo, CPU), against its torch twin.

The script is run exactly as the README and the book say (`torchrun --standalone
--nproc_per_node=2 -m annotated_examples.train_ddp`), once with our stack (annotated_nn, our
DistributedDataParallel, annotated_optim) and once with `--reference torch` (torch.nn, torch's DDP,
torch.optim). Both must exit 0, print only from rank 0, write a checkpoint that
`torch.load(..., weights_only=True)` reads back, pass the DCP round trip, and end with bit-identical
model and optimizer state.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.distributed as dist

pytestmark = [
    pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="gloo"),
    pytest.mark.slow,
]

ROOT = Path(__file__).resolve().parents[1]


def torchrun(tmp_path: Path, reference: str) -> tuple[subprocess.CompletedProcess, Path, Path]:
    checkpoint = tmp_path / f"{reference}.pt"
    dcp_dir = tmp_path / f"{reference}-dcp"
    command = [
        sys.executable, "-m", "torch.distributed.run",
        "--standalone", "--nproc_per_node=2",
        "-m", "annotated_examples.train_ddp",
        "--checkpoint", str(checkpoint),
        "--dcp-dir", str(dcp_dir),
        "--reference", reference,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "annotated_src"), "CUDA_VISIBLE_DEVICES": ""}
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    return done, checkpoint, dcp_dir


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("train_ddp")
    return {reference: torchrun(tmp_path, reference) for reference in ("annotated", "torch")}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("reference", ["annotated", "torch"])
def test_runs_under_torchrun_and_checks_its_checkpoints(runs, reference):
    done, checkpoint, dcp_dir = runs[reference]
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    # Rank 0 alone prints: one header, one loss line per epoch, one verdict per check.
    assert out.count(f"training simplenet ({reference}) with DDP on 2 process(es), gloo") == 1
    assert out.count("epoch 1/2  mean loss") == 1 and out.count("epoch 2/2  mean loss") == 1
    assert out.count(f"checkpoint OK: {checkpoint}") == 1
    assert out.count(f"DCP round trip OK: {dcp_dir}") == 1
    assert (dcp_dir / ".metadata").is_file()
    state = torch.load(checkpoint, weights_only=True)
    assert sorted(state) == ["epoch", "model", "optimizer"] and state["epoch"] == 2
    assert not any(key.startswith("module.") for key in state["model"])


@pytest.mark.timeout(300)
def test_our_stack_ends_bit_identical_to_torch(runs):
    ours = torch.load(runs["annotated"][1], weights_only=True)
    theirs = torch.load(runs["torch"][1], weights_only=True)
    assert list(ours["model"]) == list(theirs["model"])
    for key, tensor in theirs["model"].items():
        assert torch.equal(ours["model"][key], tensor), key
    assert ours["optimizer"]["param_groups"] == theirs["optimizer"]["param_groups"]
    for index, buffers in theirs["optimizer"]["state"].items():
        for name, tensor in buffers.items():
            assert torch.equal(ours["optimizer"]["state"][index][name], tensor), (index, name)
