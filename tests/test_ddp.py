"""torch's own DistributedDataParallel wrapping an annotated_nn model (2 processes, gloo, CPU).

annotated_nn has its own DDP (annotated_nn.parallel.DistributedDataParallel, tested against torch's in
tests/test_distributed.py). This file records what happens when a user wraps an annotated_nn model
in torch's class instead: it only needs from the wrapped module what every module offers
(parameters(), named_parameters(), named_modules(), named_buffers(), modules(), forward pre-hooks,
__call__), so one step on two halves of a batch gives the parameters of one single-process step on
the whole batch (DDP averages gradients across ranks).

torch's DDP is a torch.nn.Module whose __setattr__ registers torch.nn.Module instances as
submodules. Since issue 22 annotated_nn.Module subclasses torch.nn.Module, so `ddp.module = model`
registers our model as torch's would be: `ddp.parameters()`, `ddp.state_dict()` (keys prefixed
`module.`) and `ddp.train()/eval()` reach it. (Before issue 22 they did not: the model was a plain
attribute.) The test records these facts and compares them with torch's model's.
"""

import os

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F

import annotated_nn
from annotated_examples.models import build_simplenet
from helpers import free_port

pytestmark = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)

WORLD_SIZE = 2
BATCH = 8
LR = 0.1


def _data():
    generator = torch.Generator().manual_seed(1)
    x = torch.randn(BATCH, 1, 32, 32, generator=generator)
    y = torch.randint(0, 10, (BATCH,), generator=generator)
    return x, y


def _worker(rank, port, out_dir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE)
    try:
        torch.manual_seed(0)
        model = build_simplenet(annotated_nn)
        ddp = torch.nn.parallel.DistributedDataParallel(model)
        facts = {
            "module_is_model": ddp.module is model,
            "ddp_parameter_count": len(list(ddp.parameters())),
            "ddp_state_dict_keys": list(ddp.state_dict()),
            "model_state_dict_keys": list(model.state_dict()),
            "model_parameter_count": len(list(model.parameters())),
        }
        ddp.eval()
        facts["model_training_after_ddp_eval"] = model.training
        ddp.train()
        facts["model_training_after_ddp_train"] = model.training

        x, y = _data()
        share = BATCH // WORLD_SIZE
        optimizer = torch.optim.SGD(model.parameters(), lr=LR)
        loss = F.cross_entropy(
            ddp(x[rank * share : (rank + 1) * share]), y[rank * share : (rank + 1) * share]
        )
        loss.backward()
        optimizer.step()
        torch.save(
            {
                "params": {n: p.detach().clone() for n, p in model.named_parameters()},
                "facts": facts,
            },
            os.path.join(out_dir, f"rank{rank}.pt"),
        )
    finally:
        dist.destroy_process_group()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ddp_step_equals_single_process_step_on_whole_batch(tmp_path):
    mp.spawn(_worker, args=(free_port(), str(tmp_path)), nprocs=WORLD_SIZE, join=True)
    results = [torch.load(tmp_path / f"rank{r}.pt", weights_only=True) for r in range(WORLD_SIZE)]

    # Reference: one process, whole batch, same seed, same optimizer.
    torch.manual_seed(0)
    reference = build_simplenet(annotated_nn)
    optimizer = torch.optim.SGD(reference.parameters(), lr=LR)
    x, y = _data()
    F.cross_entropy(reference(x), y).backward()
    optimizer.step()
    expected = dict(reference.named_parameters())

    for result in results:
        assert list(result["params"]) == list(expected)
        for name, value in result["params"].items():
            torch.testing.assert_close(value, expected[name].detach())
    # All ranks hold bit-identical parameters after the all-reduced step.
    for name in expected:
        assert torch.equal(results[0]["params"][name], results[1]["params"][name])

    # torch's DDP registers our model as its `module` child, as it would torch's (issue 22).
    facts = results[0]["facts"]
    assert facts["module_is_model"] is True
    assert facts["ddp_parameter_count"] == facts["model_parameter_count"] > 0
    assert facts["ddp_state_dict_keys"] == [
        "module." + key for key in facts["model_state_dict_keys"]
    ]
    assert facts["model_training_after_ddp_eval"] is False
    assert facts["model_training_after_ddp_train"] is True
