"""Claims corrected by the final independent review of issue 21, item 3 (seed 2113; the draw
and its result are in the issue's note).

Each test runs on torch and on ours (``torch.nn`` / ``annotated_nn``, ``torch.optim`` /
``annotated_optim``) and asserts what the corrected sentence says.
"""

from __future__ import annotations

import pickle

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, each_optim, proves

needs_gloo = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel._check_default_group",
    "without a default process group, pickling raises the ValueError of _get_default_group, "
    "not DDP's RuntimeError",
)
@each_nn()
def test_pickling_without_default_group_raises_value_error(nn, tmp_path):
    if dist.is_initialized():
        pytest.skip("a default process group already exists")
    dist.init_process_group(
        "gloo", store=dist.FileStore(str(tmp_path / "store"), 1), rank=0, world_size=1
    )
    try:
        ddp = nn.parallel.DistributedDataParallel(nn.Linear(2, 1))
    finally:
        dist.destroy_process_group()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        pickle.dumps(ddp)


def _to_double(nn):
    """A parametrization that changes the dtype (float32 -> float64)."""

    class ToDouble(nn.Module):
        def forward(self, x):
            return x.double()

    return ToDouble()


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "_write_parametrized_value",
    "with unsafe=True a dtype-changing parametrization cannot be removed with "
    "leave_parametrized=True: set_() refuses (the tensor-subclass RuntimeError for a parameter, "
    "torch's 'Could not set tensor' for a buffer); leave_parametrized=False works",
)
@each_nn()
def test_unsafe_dtype_change_blocks_leave_parametrized(nn):
    P = nn.utils.parametrize
    m = nn.Linear(2, 2)
    m.register_buffer("b", torch.zeros(2))
    P.register_parametrization(m, "weight", _to_double(nn), unsafe=True)
    P.register_parametrization(m, "b", _to_double(nn), unsafe=True)
    assert m.weight.dtype == torch.float64
    with pytest.raises(RuntimeError, match="instance of a tensor subclass requires") as info:
        P.remove_parametrizations(m, "weight")
    assert "Could not set tensor of type double to a tensor of type float" in str(
        info.value.__cause__
    )
    with pytest.raises(RuntimeError, match="Could not set tensor of type double"):
        P.remove_parametrizations(m, "b")
    P.remove_parametrizations(m, "weight", leave_parametrized=False)
    assert m.weight.dtype == torch.float32


@proves(
    "annotated_src/annotated_optim/adagrad.py",
    "Adagrad.__setstate__",
    "a step stored as a Python number is loaded as a tensor on the default device "
    "(torch.set_default_device), not necessarily the CPU; likewise Adam and RMSprop",
)
@each_optim()
@pytest.mark.parametrize("name", ["Adagrad", "Adam", "RMSprop"])
def test_python_number_step_loads_on_default_device(optim, name):
    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.ones(2)
    opt = getattr(optim, name)([p])
    opt.step()
    saved = opt.state_dict()
    saved["state"][0]["step"] = 1  # as an old checkpoint stored it
    torch.set_default_device("meta")
    try:
        opt.load_state_dict(saved)
    finally:
        torch.set_default_device(None)
    step = opt.state[p]["step"]
    assert torch.is_tensor(step) and step.device.type == "meta"


@needs_gloo
@proves(
    "docs/chapters/ddp/overview.md",
    "Buckets",
    "a bucket's all-reduce starts only once the buckets before it have gone out: a later "
    "bucket whose gradients are ready first still waits for bucket 0",
)
@each_nn()
def test_buckets_go_out_in_index_order(nn, tmp_path):
    if dist.is_initialized():
        pytest.skip("a default process group already exists")

    class BThenA(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(64, 64, bias=False)
            self.b = nn.Linear(64, 64, bias=False)

        def forward(self, x):
            return self.a(self.b(x))  # b runs first, so a's gradient is ready first

    model = BThenA()
    names = {id(p): n for n, p in model.named_parameters()}
    ready, launched = [], []
    for n, p in model.named_parameters():
        p.register_hook(lambda g, n=n: ready.append(n))

    def record(state, bucket):
        launched.append([names[id(p)] for p in bucket.parameters()])
        fut = torch.futures.Future()
        fut.set_result(bucket.buffer())
        return fut

    dist.init_process_group(
        "gloo", store=dist.FileStore(str(tmp_path / "store"), 1), rank=0, world_size=1
    )
    try:
        # find_unused_parameters: the construction-time buckets stay (reversed module order,
        # one weight each under this cap), so bucket 0 holds b.weight, bucket 1 a.weight.
        ddp = nn.parallel.DistributedDataParallel(
            model, find_unused_parameters=True, bucket_cap_mb=0.01
        )
        ddp.register_comm_hook(None, record)
        ddp(torch.ones(2, 64)).sum().backward()
    finally:
        dist.destroy_process_group()
    assert ready == ["a.weight", "b.weight"]
    assert launched == [["b.weight"], ["a.weight"]]
