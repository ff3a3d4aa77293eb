"""Claims completed by the fixups branch: exceptions the step lists and Raises sections left out.

Each test runs on torch and on ours (``torch.nn`` / ``annotated_nn``) and asserts what the
completed sentence says.
"""

from __future__ import annotations

import logging

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, proves

needs_gloo = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)


@proves(
    "annotated_src/annotated_nn/utils/rnn.py",
    "pack_sequence",
    "an empty list, a tensor of length 0, trailing dimensions that differ, or unsorted lengths "
    "with enforce_sorted=True raise RuntimeError",
)
@each_nn()
def test_pack_sequence_raises_runtime_error(nn):
    pack = nn.utils.rnn.pack_sequence
    with pytest.raises(RuntimeError, match="empty list of sequences"):
        pack([])
    with pytest.raises(RuntimeError, match="greater than 0"):
        pack([torch.ones(2), torch.ones(0)])
    with pytest.raises(RuntimeError, match="must match"):
        pack([torch.ones(2, 3), torch.ones(1, 4)])
    with pytest.raises(RuntimeError, match="sorted in decreasing order"):
        pack([torch.ones(1), torch.ones(2)])
    assert pack([torch.ones(1), torch.ones(2)], enforce_sorted=False).data.shape == (3,)


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel.__init__",
    "step 2: with delayed parameters and none remaining (all delayed or ignored) the device-type "
    "check raises ValueError naming set(); with delayed parameters and no remaining one requiring "
    "a gradient only an info record is logged; without delayed ones that is a RuntimeError",
)
@each_nn()
def test_ddp_step_two_with_delayed_and_ignored_parameters(nn, one_process_group):
    D = nn.parallel.DistributedDataParallel

    m = nn.Linear(2, 2)
    with pytest.raises(ValueError, match=r"locate in set\(\)\."):
        D(
            m,
            delay_all_reduce_named_params=list(m.named_parameters()),
            param_to_hook_all_reduce=m.weight,
        )

    m = nn.Linear(2, 2)
    m._ddp_params_and_buffers_to_ignore = ["weight"]
    with pytest.raises(ValueError, match=r"locate in set\(\)\."):
        D(m, delay_all_reduce_named_params=[("bias", m.bias)], param_to_hook_all_reduce=m.bias)

    m = nn.Linear(2, 2)
    m.weight.requires_grad_(False)
    # Both libraries log to torch's "torch.nn.parallel.distributed" logger, which does not
    # propagate to the root logger: listen on it directly.
    records = []
    handler = logging.Handler(logging.INFO)
    handler.emit = records.append
    ddp_logger = logging.getLogger("torch.nn.parallel.distributed")
    level = ddp_logger.level
    ddp_logger.addHandler(handler)
    ddp_logger.setLevel(logging.INFO)
    try:
        D(m, delay_all_reduce_named_params=[("bias", m.bias)], param_to_hook_all_reduce=m.bias)
    finally:
        ddp_logger.removeHandler(handler)
        ddp_logger.setLevel(level)
    assert "Delay the AllReduce of all parameters." in [r.getMessage() for r in records]

    m = nn.Linear(2, 2)
    m._ddp_params_and_buffers_to_ignore = ["weight", "bias"]
    with pytest.raises(RuntimeError, match="doesn't have any parameter that requires a gradient"):
        D(m)
