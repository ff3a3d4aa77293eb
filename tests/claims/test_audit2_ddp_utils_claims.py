"""Claims corrected by the second audit of ``parallel/distributed.py``, ``utils/`` and the DDP /
reparametrization chapters (issue 21, item 3): exception types, conditions left out, devices.

Each test runs on torch and on ours (``torch.nn`` / ``annotated_nn``) and asserts what the
corrected sentence says.
"""

from __future__ import annotations

import functools

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, proves
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

needs_gloo = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)


@pytest.fixture
def one_process_group(tmp_path):
    """A 1-process gloo default group for the test's duration."""
    if dist.is_initialized():
        pytest.skip("a default process group already exists")
    dist.init_process_group(
        "gloo", store=dist.FileStore(str(tmp_path / "store"), 1), rank=0, world_size=1
    )
    yield
    dist.destroy_process_group()


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel._check_comm_hook",
    "`bucket` is looked up by name whatever its position (none: KeyError); a callable without "
    "__name__ such as functools.partial raises AttributeError",
)
@each_nn()
def test_comm_hook_signature_checks(nn, one_process_group):
    D = nn.parallel.DistributedDataParallel

    def bucket_first(bucket, state):
        return default_hooks.allreduce_hook(state, bucket)

    def no_bucket(state, grad_bucket):
        return default_hooks.allreduce_hook(state, grad_bucket)

    D(nn.Linear(2, 1)).register_comm_hook(None, bucket_first)
    with pytest.raises(KeyError, match="bucket"):
        D(nn.Linear(2, 1)).register_comm_hook(None, no_bucket)
    with pytest.raises(AttributeError, match="__name__"):
        D(nn.Linear(2, 1)).register_comm_hook(
            None, functools.partial(default_hooks.allreduce_hook)
        )
