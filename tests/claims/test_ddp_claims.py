"""Claims of the DistributedDataParallel chapter (docs/chapters/ddp/) and of parallel/distributed.py.

Every claim runs on torch.nn with torch's DDP and on annotated_nn with ours
(`nn.parallel.DistributedDataParallel` in either namespace). Claims that one process can show use a
one-process gloo group. Claims about averaging across processes need several: two gloo workers are
spawned once for the whole module (fixture `two_ranks`); each runs every scenario for both
namespaces, one after the other so that every collective runs in the same order on both ranks, and
saves what it saw; the tests then assert on those records.
"""

from __future__ import annotations

import collections
import copy
import io
import warnings

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, proves, rank_records, run_on_ranks

pytestmark = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)

WORLD_SIZE = 2


def _data(rank, index=0):
    """A batch that differs per rank and per index, the same for both namespaces."""
    return torch.randn(4, 3, generator=torch.Generator().manual_seed(10 * rank + index))


def _linear(nn):
    """The small model most scenarios use, always from seed 0."""
    torch.manual_seed(0)
    return nn.Linear(3, 2)


def _local_grad(nn, xs):
    """The weight gradient of an unwrapped twin, summed over the batches `xs` (summed loss)."""
    twin = _linear(nn)
    for x in xs:
        twin(x).sum().backward()
    return twin.weight.grad.clone()


# ---------------------------------------------------------------------------------------------
# What each of the two workers records, per namespace
# ---------------------------------------------------------------------------------------------


def _scenarios(rank, nn):
    DDP = nn.parallel.DistributedDataParallel
    out = {}

    # Construction broadcasts rank 0's parameters; init_sync=False keeps each rank's own.
    torch.manual_seed(rank)
    out["synced"] = [p.detach().clone() for p in DDP(nn.Linear(3, 2)).parameters()]
    torch.manual_seed(rank)
    out["not_synced"] = [
        p.detach().clone() for p in DDP(nn.Linear(3, 2), init_sync=False).parameters()
    ]

    # After backward, .grad is the average over ranks (the loss is a sum over the batch).
    ddp = DDP(_linear(nn))
    ddp(_data(rank)).sum().backward()
    out["ddp_grad"] = ddp.module.weight.grad.clone()
    out["local_grad"] = _local_grad(nn, [_data(rank)])

    # no_sync(): local accumulation, then one averaged sync of the accumulated total.
    ddp = DDP(_linear(nn))
    xs = [_data(rank, i) for i in range(3)]
    with ddp.no_sync():
        for x in xs[:2]:
            ddp(x).sum().backward()
    out["no_sync_inside"] = ddp.module.weight.grad.clone()
    ddp(xs[2]).sum().backward()
    out["no_sync_after"] = ddp.module.weight.grad.clone()
    out["local_total"] = _local_grad(nn, xs)

    # The forward pass decides whether the iteration syncs, not the backward pass.
    ddp = DDP(_linear(nn))
    output = ddp(_data(rank))
    with ddp.no_sync():
        output.sum().backward()
    out["forward_outside"] = ddp.module.weight.grad.clone()
    ddp = DDP(_linear(nn))
    with ddp.no_sync():
        output = ddp(_data(rank))
    output.sum().backward()
    out["forward_inside"] = ddp.module.weight.grad.clone()

    # Buffers: broadcast from rank 0 before the forward pass, unless forward_sync_buffers=False.
    def running_mean(**kwargs):
        torch.manual_seed(0)
        ddp = DDP(nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)), **kwargs)
        ddp.eval()
        ddp.module[1].running_mean.fill_(rank + 1.0)
        ddp(torch.ones(2, 3))
        return ddp.module[1].running_mean.clone()

    out["buffers_default"] = running_mean()
    out["buffers_off"] = running_mean(forward_sync_buffers=False)

    # join(): rank r has 2 + r batches; record rank 1's gradient in the step rank 0 shadows.
    def joined(divide):
        ddp = DDP(_linear(nn))
        optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1)
        record = {}
        with ddp.join(divide_by_initial_world_size=divide):
            for i in range(2 + rank):
                optimizer.zero_grad()
                x = _data(rank, i)
                if i == 2:
                    twin = copy.deepcopy(ddp.module)
                    twin.zero_grad()
                    twin(x).sum().backward()
                    record["local"] = twin.weight.grad.clone()
                ddp(x).sum().backward()
                if i == 2:
                    record["ddp"] = ddp.module.weight.grad.clone()
                optimizer.step()
        record["params"] = [p.detach().clone() for p in ddp.parameters()]
        return record

    out["join_initial"] = joined(True)
    out["join_effective"] = joined(False)

    def early():
        ddp = DDP(_linear(nn))
        try:
            with ddp.join(throw_on_early_termination=True):
                for i in range(2 + rank):
                    ddp(_data(rank, i)).sum().backward()
        except RuntimeError:
            return "RuntimeError"
        return "no error"

    out["join_throw"] = early()

    # A comm hook gets the bucket undivided: a plain summing all-reduce doubles the average.
    def sum_hook(state, bucket):
        work = dist.all_reduce(bucket.buffer(), async_op=True)
        return work.get_future().then(lambda fut: fut.value()[0])

    ddp = DDP(_linear(nn))
    ddp.register_comm_hook(None, sum_hook)
    ddp(_data(rank)).sum().backward()
    out["sum_hook_grad"] = ddp.module.weight.grad.clone()
    return out


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    """Per rank, {namespace name: records}; spawned once for the module."""
    return run_on_ranks(
        _scenarios, tmp_path_factory.mktemp("ddp_claims"), world_size=WORLD_SIZE, quiet=False
    )


def _records(two_ranks, nn):
    return rank_records(two_ranks, nn)


@pytest.fixture
def process_group(tmp_path):
    """A single-process gloo group on a file store, destroyed afterwards."""
    if dist.is_initialized():
        pytest.skip("a default process group already exists")
    dist.init_process_group(
        "gloo", store=dist.FileStore(str(tmp_path / "store"), 1), rank=0, world_size=1
    )
    yield
    dist.destroy_process_group()


def _count_all_reduces(ddp, x):
    """How many gloo all-reduces one forward plus backward makes (after 3 warm-up iterations)."""
    for _ in range(3):
        ddp(x).sum().backward()
    with torch.profiler.profile() as prof:
        ddp(x).sum().backward()
    return sum(1 for event in prof.events() if event.name == "gloo:all_reduce")


# ---------------------------------------------------------------------------------------------
# Two processes
# ---------------------------------------------------------------------------------------------


@proves(
    "docs/chapters/ddp/overview.md",
    "construction",
    "construction broadcasts rank 0's parameters to every process; init_sync=False keeps each "
    "process's own",
)
@each_nn()
def test_construction_broadcasts_from_rank_0(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    for a, b in zip(ranks[0]["synced"], ranks[1]["synced"]):
        assert torch.equal(a, b)
    assert not torch.equal(ranks[0]["not_synced"][0], ranks[1]["not_synced"][0])


@proves(
    "docs/chapters/ddp/iteration.md",
    "one iteration",
    "after backward every .grad is the average over processes; with a summed loss, M processes "
    "get 1/M of the gradient of one process on all M*N samples",
)
@each_nn()
def test_gradients_are_averaged(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    whole_batch = ranks[0]["local_grad"] + ranks[1]["local_grad"]  # summed loss over 8 samples
    for record in ranks:
        torch.testing.assert_close(record["ddp_grad"], whole_batch / WORLD_SIZE)
    assert torch.equal(ranks[0]["ddp_grad"], ranks[1]["ddp_grad"])


@proves(
    "docs/chapters/ddp/iteration.md",
    "no-sync",
    "inside no_sync() gradients only accumulate locally; the next synced iteration averages the "
    "accumulated totals",
)
@each_nn()
def test_no_sync_accumulates_then_averages(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    assert not torch.equal(ranks[0]["no_sync_inside"], ranks[1]["no_sync_inside"])
    mean_total = (ranks[0]["local_total"] + ranks[1]["local_total"]) / WORLD_SIZE
    for record in ranks:
        torch.testing.assert_close(record["no_sync_after"], mean_total)


@proves(
    "docs/chapters/ddp/iteration.md",
    "no-sync",
    "the forward pass decides: forward outside no_sync() with backward inside still averages; "
    "forward inside with backward outside does not",
)
@each_nn()
def test_no_sync_is_decided_in_the_forward_pass(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    assert torch.equal(ranks[0]["forward_outside"], ranks[1]["forward_outside"])
    assert not torch.equal(ranks[0]["forward_inside"], ranks[1]["forward_inside"])


@proves(
    "docs/chapters/ddp/iteration.md",
    "buffers",
    "buffers are broadcast from rank 0 before each forward pass; forward_sync_buffers=False "
    "leaves each process's own",
)
@each_nn()
def test_buffers_follow_rank_0(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    for record in ranks:
        assert torch.equal(record["buffers_default"], torch.full((3,), 1.0))
    for rank, record in enumerate(ranks):
        assert torch.equal(record["buffers_off"], torch.full((3,), rank + 1.0))


@proves(
    "docs/chapters/ddp/join-and-hooks.md",
    "join",
    "with join(), uneven inputs finish with the same model everywhere; a shadowed step divides "
    "by the initial world size, or by the processes still training with "
    "divide_by_initial_world_size=False; throw_on_early_termination raises RuntimeError everywhere",
)
@each_nn()
def test_join_uneven_inputs(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    for item in ("join_initial", "join_effective"):
        for a, b in zip(ranks[0][item]["params"], ranks[1][item]["params"]):
            assert torch.equal(a, b)
    initial, effective = ranks[1]["join_initial"], ranks[1]["join_effective"]
    torch.testing.assert_close(initial["ddp"], initial["local"] / WORLD_SIZE)
    torch.testing.assert_close(effective["ddp"], effective["local"])
    assert [record["join_throw"] for record in ranks] == ["RuntimeError"] * WORLD_SIZE


@proves(
    "docs/chapters/ddp/join-and-hooks.md",
    "comm-hooks",
    "a comm hook receives the bucket not pre-divided by the number of processes",
)
@each_nn()
def test_comm_hook_bucket_is_not_divided(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    total = ranks[0]["local_grad"] + ranks[1]["local_grad"]
    for record in ranks:
        torch.testing.assert_close(record["sum_hook_grad"], total)


# ---------------------------------------------------------------------------------------------
# One process
# ---------------------------------------------------------------------------------------------


@proves(
    "docs/chapters/ddp/overview.md",
    "overview example",
    "the wrapped model is a submodule: repr, eval() and the state_dict go through it, keys "
    "prefixed 'module.'",
)
@each_nn()
def test_module_is_a_submodule(nn, process_group):
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    ddp = nn.parallel.DistributedDataParallel(model)
    assert [name for name, _ in ddp.named_children()] == ["module"]
    assert list(ddp.state_dict()) == ["module." + key for key in model.state_dict()]
    assert "(module): Sequential(" in repr(ddp)
    ddp.eval()
    assert not model.training and not model[0].training


@proves(
    "docs/chapters/ddp/overview.md",
    "buckets",
    "the first iteration uses one bucket in module order; then buckets are rebuilt in the order "
    "gradients became ready (a Linear's bias before its weight), bucket 0 holding the last layers; "
    "a bucket closes once it reaches the cap, so it may exceed it",
)
@each_nn()
def test_buckets_rebuilt_in_gradient_ready_order(nn, process_group):
    from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook

    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(128, 128) for _ in range(6)])
    ddp = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=0.1)
    names = {p: n for n, p in model.named_parameters()}
    seen = []

    def record(state, bucket):
        seen.append([names[p] for p in bucket.parameters()])
        return allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, record)
    per_iteration = []
    for _ in range(2):
        seen.clear()
        ddp(torch.randn(8, 128)).sum().backward()
        per_iteration.append(list(seen))
    assert per_iteration[0] == [list(names.values())]
    assert [len(bucket) for bucket in per_iteration[1]] == [4, 4, 4]
    assert per_iteration[1][0] == ["5.bias", "5.weight", "4.bias", "4.weight"]
    cap = 0.1 * 1024 * 1024
    assert sum(p.numel() * 4 for p in list(model.parameters())[8:]) > cap  # two layers > cap


@proves(
    "docs/chapters/ddp/iteration.md",
    "rebuild",
    "buckets are rebuilt in iteration 2 by default, in iteration 3 with a static graph, and not "
    "at all with find_unused_parameters=True",
)
@each_nn()
def test_when_buckets_are_rebuilt(nn, process_group):
    def flags(**kwargs):
        model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2))
        ddp = nn.parallel.DistributedDataParallel(model, **kwargs)
        seen = []
        for _ in range(5):
            ddp(torch.ones(1, 3)).sum().backward()
            seen.append(ddp._has_rebuilt_buckets)
        return seen

    assert flags() == [False, True, True, True, True]
    assert flags(static_graph=True) == [False, False, True, True, True]
    assert flags(find_unused_parameters=True) == [False] * 5


@proves(
    "docs/chapters/ddp/overview.md",
    "buckets",
    "under the defaults the first bucket is capped at 1 MiB, the others at 25 MiB",
)
@each_nn()
def test_default_first_bucket_is_small(nn, process_group):
    ddp = nn.parallel.DistributedDataParallel(nn.Linear(2, 2))
    assert dist._DEFAULT_FIRST_BUCKET_BYTES == 1024 * 1024
    assert ddp.bucket_bytes_cap == 25 * 1024 * 1024 and ddp.bucket_bytes_cap_default is True
    given = nn.parallel.DistributedDataParallel(nn.Linear(2, 2), bucket_cap_mb=25)
    assert given.bucket_bytes_cap_default is False


@proves(
    "docs/chapters/ddp/iteration.md",
    "find-unused",
    "an unused parameter makes the next forward raise unless find_unused_parameters=True, which "
    "leaves its .grad None, routes the output through _DDPSink and adds one all-reduce per "
    "iteration",
)
@each_nn()
def test_find_unused_parameters(nn, process_group):
    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.used, self.unused = nn.Linear(4, 2), nn.Linear(4, 2)

        def forward(self, x):
            return self.used(x)

    DDP = nn.parallel.DistributedDataParallel
    plain = DDP(Branchy())
    out = plain(torch.ones(1, 4))
    assert type(out.grad_fn).__name__ == "AddmmBackward0"
    out.sum().backward()
    with pytest.raises(RuntimeError, match="Expected to have finished reduction"):
        plain(torch.ones(1, 4))
    finder = DDP(Branchy(), find_unused_parameters=True)
    out = finder(torch.ones(1, 4))
    assert type(out.grad_fn).__name__ == "_DDPSinkBackward"
    out.sum().backward()
    assert finder.module.unused.weight.grad is None and finder.module.used.weight.grad is not None

    def stack():
        torch.manual_seed(0)
        return nn.Sequential(nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 32), nn.Linear(32, 32))

    x = torch.ones(2, 32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _count_all_reduces(DDP(stack()), x) == 1
        assert _count_all_reduces(DDP(stack(), find_unused_parameters=True), x) == 2


@proves(
    "docs/chapters/ddp/iteration.md",
    "backward",
    "gradient_as_bucket_view=True makes the .grad of one bucket's parameters share its storage",
)
@each_nn()
def test_gradient_as_bucket_view(nn, process_group):
    def storages(flag):
        model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2))
        ddp = nn.parallel.DistributedDataParallel(model, gradient_as_bucket_view=flag)
        for _ in range(2):
            ddp(torch.randn(2, 3)).sum().backward()
        return len({p.grad.untyped_storage().data_ptr() for p in model.parameters()})

    assert (storages(False), storages(True)) == (4, 1)


@proves(
    "docs/chapters/ddp/iteration.md",
    "buffers",
    "broadcast_buffers is deprecated (FutureWarning); the property reads forward_sync_buffers",
)
@each_nn()
def test_broadcast_buffers_is_deprecated(nn, process_group):
    with pytest.warns(FutureWarning, match="`broadcast_buffers` is deprecated"):
        ddp = nn.parallel.DistributedDataParallel(nn.Linear(2, 2), broadcast_buffers=False)
    assert ddp.broadcast_buffers is False and ddp.forward_sync_buffers is False
    ddp.broadcast_buffers = True
    assert ddp.forward_sync_buffers is True


@proves(
    "docs/chapters/ddp/join-and-hooks.md",
    "join",
    "inside join() an iteration makes 3 all-reduces instead of 1 (no buffers), and the join "
    "stays enabled on the DDP object after the with block",
)
@each_nn()
def test_join_costs_two_all_reduces_and_stays_enabled(nn, process_group):
    torch.manual_seed(0)
    ddp = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 2)))
    x = torch.ones(1, 3)
    assert _count_all_reduces(ddp, x) == 1
    with ddp.join():
        assert _count_all_reduces(ddp, x) == 3
    assert ddp._join_config.enable is True
    assert _count_all_reduces(ddp, x) == 3


@proves(
    "docs/chapters/ddp/join-and-hooks.md",
    "comm-hooks",
    "a hook registers once; bf16 compression is refused on CPU gloo; the hook's parameter must "
    "be named bucket; fp16 compression leaves gradients representable in float16",
)
@each_nn()
def test_comm_hook_rules(nn, process_group):
    from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

    DDP = nn.parallel.DistributedDataParallel
    torch.manual_seed(0)
    ddp = DDP(nn.Linear(4, 1))
    ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)
    ddp(torch.randn(8, 4)).pow(2).sum().backward()
    grad = ddp.module.weight.grad
    assert torch.equal(grad, grad.half().float())
    with pytest.raises(RuntimeError, match="can only be called once"):
        ddp.register_comm_hook(None, default_hooks.allreduce_hook)
    with pytest.raises(TypeError, match="BF16 all reduce communication hook required"):
        DDP(nn.Linear(4, 1)).register_comm_hook(None, default_hooks.bf16_compress_hook)
    with pytest.raises(KeyError, match="bucket"):
        DDP(nn.Linear(4, 1)).register_comm_hook(None, lambda state, b: b.buffer())


@proves(
    "docs/chapters/ddp/torchrun.md",
    "checkpoint",
    "the checkpoint of ddp.module's state_dict, the optimizer's and the epoch reads back with "
    "torch.load(weights_only=True), without the 'module.' prefix, and loads strictly",
)
@each_nn()
def test_checkpoint_reads_back_with_weights_only(nn, process_group):
    torch.manual_seed(0)
    ddp = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3)))
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    ddp(torch.randn(5, 4)).sum().backward()
    optimizer.step()
    buffer = io.BytesIO()
    state = {"model": ddp.module.state_dict(), "optimizer": optimizer.state_dict()}
    torch.save({**state, "epoch": 2}, buffer)
    buffer.seek(0)
    checkpoint = torch.load(buffer, map_location="cpu", weights_only=True)
    assert list(checkpoint["model"]) == list(ddp.module.state_dict())
    assert not any(key.startswith("module.") for key in checkpoint["model"])
    fresh = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    assert str(fresh.load_state_dict(checkpoint["model"])) == "<All keys matched successfully>"
    fresh_optimizer = torch.optim.SGD(fresh.parameters(), lr=0.0)
    fresh_optimizer.load_state_dict(checkpoint["optimizer"])
    for a, b in zip(fresh.state_dict().values(), ddp.module.state_dict().values()):
        assert torch.equal(a, b)
    assert checkpoint["epoch"] == 2 and isinstance(checkpoint["model"], collections.OrderedDict)


@proves(
    "docs/chapters/15-parallel.md",
    "ddp",
    "torch's own DDP wrapping an annotated_nn model sees it as a torch model (parameters(), "
    "state_dict() with the module. prefix) and trains it",
)
@each_nn()
def test_torch_ddp_sees_an_annotated_model(nn, process_group):
    import torch.nn as tnn

    theirs = tnn.parallel.DistributedDataParallel(nn.Linear(4, 2))
    assert len(list(theirs.parameters())) == 2
    assert list(theirs.state_dict()) == ["module.weight", "module.bias"]
    theirs(torch.randn(3, 4)).sum().backward()
    assert theirs.module.weight.grad is not None
