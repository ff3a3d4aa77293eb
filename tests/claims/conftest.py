"""Fixtures shared by the claim tests."""

from __future__ import annotations

import pytest
import torch.distributed as dist


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
