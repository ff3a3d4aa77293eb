"""Claims corrected or checked by the audit of parallel/distributed.py, utils/ and the DDP and
reparametrization chapters (issue 21, item 3).

Each test runs on torch.nn and on annotated_nn. Claims about what several processes see use two
gloo workers spawned once for the module (fixture `two_ranks`, as in test_ddp_claims.py): each
worker runs every scenario for both namespaces in the same order and saves what it saw.
"""

from __future__ import annotations

import warnings

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, proves, rank_records, run_on_ranks

WORLD_SIZE = 2

needs_gloo = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)


# ---------------------------------------------------------------------------------------------
# Two processes: what each worker records, per namespace
# ---------------------------------------------------------------------------------------------


def _three_linears(nn):
    """`a` always used, `b` used when asked, `c` never: the unused-parameter scenarios."""

    class Three(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b, self.c = nn.Linear(2, 1), nn.Linear(2, 1), nn.Linear(2, 1)

        def forward(self, x, use_b):
            y = self.a(x)
            return y + self.b(x) if use_b else y

    torch.manual_seed(0)
    return Three()


def _two_outputs(nn):
    """A module returning two outputs, one from each of two layers."""

    class TwoOutputs(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Linear(2, 1), nn.Linear(2, 1)

        def forward(self, x):
            return self.a(x), self.b(x)

    torch.manual_seed(0)
    return TwoOutputs()


def _scenarios(rank, nn):
    DDP = nn.parallel.DistributedDataParallel
    out = {}
    x = torch.full((1, 2), float(rank + 1))

    # find_unused_parameters: rank 1 uses `b`, rank 0 does not; nobody uses `c`.
    ddp = DDP(_three_linears(nn), find_unused_parameters=True)
    ddp(x, use_b=rank == 1).sum().backward()
    out["b_grad"] = ddp.module.b.weight.grad.clone()
    out["c_grad"] = ddp.module.c.weight.grad
    twin = _three_linears(nn)
    twin(x, use_b=True).sum().backward()
    out["b_local"] = twin.b.weight.grad.clone()
    # A second iteration in which no rank uses `b`: its (stale) .grad stays as it was.
    ddp(x, use_b=False).sum().backward()
    out["b_grad_after_unused_everywhere"] = ddp.module.b.weight.grad.clone()

    # _DDPSink: an output left out of the loss on rank 0 only, then on both ranks (fresh .grad).
    ddp = DDP(_two_outputs(nn), find_unused_parameters=True)
    first, second = ddp(x)
    (first.sum() + (second.sum() if rank == 1 else 0)).backward()
    out["sink_b_grad"] = ddp.module.b.weight.grad.clone()
    ddp.zero_grad(set_to_none=True)
    first, second = ddp(x)
    first.sum().backward()
    out["sink_b_grad_unused_everywhere"] = ddp.module.b.weight.grad

    # The Reducer's hook sits on the gradient accumulator: a tensor hook (which runs before the
    # accumulation) changes what is averaged; a post-accumulate-grad hook still sees the local
    # gradient, averaged only when the backward pass ends.
    torch.manual_seed(0)
    ddp = DDP(nn.Linear(2, 1))
    ddp.module.weight.register_hook(lambda grad: grad * 10)
    seen = []
    ddp.module.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    ddp(x).sum().backward()
    out["weight_grad_in_post_accumulate_hook"] = seen[0]
    out["hooked_weight_grad"] = ddp.module.weight.grad.clone()

    # Buffers after no_sync(): the first forward outside the context does not broadcast them.
    torch.manual_seed(0)
    ddp = DDP(nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)))
    ddp.eval()  # BatchNorm leaves its running statistics alone; only the broadcast changes them
    running_mean = ddp.module[1].running_mean
    seen = {}
    with ddp.no_sync():
        ddp(torch.ones(2, 3))
    running_mean.fill_(rank + 1.0)
    ddp(torch.ones(2, 3))  # first forward after no_sync(): no broadcast
    seen["first_after"] = running_mean.clone()
    ddp(torch.ones(2, 3))  # the next one broadcasts rank 0's buffers again
    seen["second_after"] = running_mean.clone()
    out["buffers_after_no_sync"] = seen
    return out


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    """Per rank, {namespace name: records}; spawned once for the module."""
    return run_on_ranks(
        _scenarios, tmp_path_factory.mktemp("audit_ddp_claims"), world_size=WORLD_SIZE, quiet=True
    )


def _records(two_ranks, nn):
    return rank_records(two_ranks, nn)


@needs_gloo
@proves(
    "docs/chapters/ddp/iteration.md",
    "find-unused",
    "with find_unused_parameters=True only a parameter unused on every process keeps its .grad; "
    "one that this process skipped but another used gets the averaged gradient",
)
@each_nn()
def test_unused_on_one_rank_gets_the_average(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    average = ranks[1]["b_local"] / WORLD_SIZE  # rank 0 contributes zeros
    for record in ranks:
        torch.testing.assert_close(record["b_grad"], average)
        assert record["c_grad"] is None
        torch.testing.assert_close(record["b_grad_after_unused_everywhere"], average)


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "_DDPSink",
    "an output left out of the loss keeps its parameters' .grad untouched only when every process "
    "leaves it out; otherwise they get the averaged gradient",
)
@each_nn()
def test_sink_output_unused_on_one_rank(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    torch.testing.assert_close(ranks[0]["sink_b_grad"], ranks[1]["sink_b_grad"])
    assert torch.count_nonzero(ranks[0]["sink_b_grad"]) > 0
    assert [record["sink_b_grad_unused_everywhere"] for record in ranks] == [None, None]


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "module docstring",
    "the Reducer's hook sits on each parameter's gradient accumulator: a tensor hook's change is "
    "averaged, a post-accumulate-grad hook sees the local gradient before the average",
)
@each_nn()
def test_reducer_hook_is_on_the_gradient_accumulator(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    # d(sum(w x + b))/dw = x, x = rank + 1 in both features; the tensor hook multiplies by 10:
    # locally 10 and 20, averaged 15.
    for rank, record in enumerate(ranks):
        local = torch.full((1, 2), 10.0 * (rank + 1))
        assert torch.equal(record["weight_grad_in_post_accumulate_hook"], local)
        torch.testing.assert_close(record["hooked_weight_grad"], torch.full((1, 2), 15.0))


@needs_gloo
@proves(
    "docs/chapters/ddp/iteration.md",
    "no-sync",
    "the first forward pass after leaving no_sync() does not broadcast the buffers; the next one "
    "does",
)
@each_nn()
def test_first_forward_after_no_sync_skips_buffer_broadcast(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    for rank, record in enumerate(ranks):
        seen = record["buffers_after_no_sync"]
        assert torch.equal(seen["first_after"], torch.full((3,), rank + 1.0))
        assert torch.equal(seen["second_after"], torch.full((3,), 1.0))


# ---------------------------------------------------------------------------------------------
# utils/stateless.py
# ---------------------------------------------------------------------------------------------


def _functional_call(nn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return nn.utils.stateless.functional_call(*args, **kwargs)


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "functional_call",
    "the originals are restored, except when two keys reach one slot (one submodule under two "
    "paths): given both keys, even with tie_weights=False, the swapped-in tensor stays",
)
@each_nn()
def test_functional_call_restores_except_two_keys_one_slot(nn):
    x = torch.ones(1, 2)
    shared = nn.Linear(2, 2)
    weight = shared.weight
    _functional_call(
        nn, nn.Sequential(shared, shared), {"0.weight": torch.zeros(2, 2)}, x, tie_weights=False
    )
    assert shared.weight is weight  # one key: restored
    borrowed = torch.zeros(2, 2)
    keys = {"0.weight": borrowed, "1.weight": borrowed}
    _functional_call(nn, nn.Sequential(shared, shared), keys, x, tie_weights=False)
    assert shared.weight is borrowed  # two keys, one slot: left behind


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_reparametrize_module",
    "a buffer reassigned in forward comes back in the user's dict; the module keeps its own",
)
@each_nn()
def test_functional_call_writes_reassigned_buffer_back(nn):
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("count", torch.zeros(1))

        def forward(self, x):
            self.count = self.count + 1
            return x

    module = Counter()
    given = {"count": torch.zeros(1)}
    _functional_call(nn, module, given, torch.ones(1))
    assert torch.equal(given["count"], torch.ones(1))
    assert torch.equal(module.count, torch.zeros(1))


# ---------------------------------------------------------------------------------------------
# utils/clip_grad.py, utils/convert_parameters.py
# ---------------------------------------------------------------------------------------------


@proves(
    "annotated_src/annotated_nn/utils/clip_grad.py",
    "clip_grad_norm_",
    "returns the norm before clipping; an empty generator warns, an empty list does not; a total "
    "norm equal to max_norm still shrinks the gradients slightly",
)
@each_nn()
def test_clip_grad_norm_edges(nn):
    clip = nn.utils.clip_grad_norm_
    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.tensor([3.0, 4.0])
    assert torch.equal(clip([p], max_norm=5.0), torch.tensor(5.0))
    assert (p.grad < torch.tensor([3.0, 4.0])).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(clip([], 1.0), torch.tensor(0.0))
    with pytest.warns(UserWarning, match="empty generator"):
        clip((q for q in []), 1.0)


@proves(
    "annotated_src/annotated_nn/utils/clip_grad.py",
    "clip_grad_value_",
    "elements are clamped in place and None is returned; no gradient at all raises RuntimeError",
)
@each_nn()
def test_clip_grad_value_edges(nn):
    p = torch.zeros(3, requires_grad=True)
    p.grad = torch.tensor([-2.0, 0.5, 3.0])
    assert nn.utils.clip_grad_value_(p, 1.0) is None
    assert torch.equal(p.grad, torch.tensor([-1.0, 0.5, 1.0]))
    with pytest.raises(RuntimeError):
        nn.utils.clip_grad_value_([torch.zeros(2, requires_grad=True)], 1.0)


@proves(
    "annotated_src/annotated_nn/utils/convert_parameters.py",
    "vector_to_parameters",
    "the parameters then share storage with vec and stay the same objects; a short vec raises "
    "RuntimeError; parameters_to_vector of nothing raises ValueError",
)
@each_nn()
def test_vector_to_parameters_shares_storage(nn):
    lin = nn.Linear(2, 1)
    weight = lin.weight
    vec = torch.zeros(3)
    nn.utils.vector_to_parameters(vec, lin.parameters())
    vec[0] = 7.0
    assert lin.weight is weight and lin.weight[0, 0].item() == 7.0
    with pytest.raises(RuntimeError):
        nn.utils.vector_to_parameters(torch.zeros(2), nn.Linear(2, 1).parameters())
    with pytest.raises(ValueError):
        nn.utils.parameters_to_vector([])


# ---------------------------------------------------------------------------------------------
# First-generation reparametrizations: the plain attribute carries a graph
# ---------------------------------------------------------------------------------------------


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "a freshly pruned (or first-generation weight-normed) module cannot be deep-copied until a "
    "forward pass under torch.no_grad()",
)
@each_nn()
def test_fresh_hook_reparametrization_blocks_deepcopy(nn):
    import copy
    import importlib

    prune = importlib.import_module(nn.__name__ + ".utils.prune")  # not imported by nn.utils
    pruned = nn.Linear(4, 2)
    prune.l1_unstructured(pruned, "weight", amount=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        normed = nn.utils.weight_norm(nn.Linear(4, 2))
    for module in (pruned, normed):
        with pytest.raises(RuntimeError, match="graph leaves"):
            copy.deepcopy(module)
        with torch.no_grad():
            module(torch.ones(1, 4))
        copy.deepcopy(module)


# ---------------------------------------------------------------------------------------------
# utils/rnn.py
# ---------------------------------------------------------------------------------------------


@proves(
    "annotated_src/annotated_nn/utils/rnn.py",
    "unpad_sequence",
    "with batch_first=False the caller's padded tensor is transposed in place (B x T afterwards); "
    "the pieces are new tensors",
)
@each_nn()
def test_unpad_sequence_transposes_the_input_in_place(nn):
    padded = torch.tensor([[1, 3], [2, 0]])  # T x B
    pieces = nn.utils.rnn.unpad_sequence(padded, torch.tensor([2, 1]))
    assert [p.tolist() for p in pieces] == [[1, 2], [3]]
    assert padded.tolist() == [[1, 2], [3, 0]]  # now B x T
    pieces[0][0] = 9
    assert padded[0, 0].item() == 1


@proves(
    "annotated_src/annotated_nn/utils/rnn.py",
    "PackedSequence",
    "sorted_indices is None when packing did not sort (enforce_sorted=True); to(copy=True) raises",
)
@each_nn()
def test_packed_sequence_indices_and_copy(nn):
    packed = nn.utils.rnn.pack_sequence([torch.ones(2), torch.ones(1)])
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    with pytest.raises(RuntimeError, match="does not accept copy"):
        packed.to(torch.float32, copy=True)


# ---------------------------------------------------------------------------------------------
# utils/parametrize.py
# ---------------------------------------------------------------------------------------------


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "_register_parameter_or_buffer",
    "a non-persistent buffer becomes persistent once parametrized, and stays so after removal",
)
@each_nn()
def test_parametrized_buffer_becomes_persistent(nn):
    import importlib

    parametrize = importlib.import_module(nn.__name__ + ".utils.parametrize")

    class Double(nn.Module):
        def forward(self, X):
            return 2 * X

    module = nn.Module()
    module.register_buffer("b", torch.ones(2), persistent=False)
    assert list(module.state_dict()) == []
    parametrize.register_parametrization(module, "b", Double())
    assert list(module.state_dict()) == ["parametrizations.b.original"]
    parametrize.remove_parametrizations(module, "b")
    assert list(module.state_dict()) == ["b"]
    assert torch.equal(module.b, torch.full((2,), 2.0))


# ---------------------------------------------------------------------------------------------
# One process: parallel/distributed.py
# ---------------------------------------------------------------------------------------------


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


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel._build_debug_param_to_name_mapping",
    "with TORCH_DISTRIBUTED_DEBUG at INFO the Reducer's error names the parameters that got no "
    "gradient; otherwise it gives their indices only",
)
@each_nn()
def test_debug_level_names_unused_parameters(nn, process_group):
    class Branchy(nn.Module):
        def __init__(self):
            super().__init__()
            self.used, self.unused = nn.Linear(4, 2), nn.Linear(4, 2)

        def forward(self, x):
            return self.used(x)

    def error_lines(level):
        dist.set_debug_level(level)
        try:
            ddp = nn.parallel.DistributedDataParallel(Branchy())
            ddp(torch.ones(1, 4)).sum().backward()
            with pytest.raises(RuntimeError) as caught:
                ddp(torch.ones(1, 4))
        finally:
            dist.set_debug_level(dist.DebugLevel.OFF)
        return [line for line in str(caught.value).splitlines() if "receive grad" in line]

    off = error_lines(dist.DebugLevel.OFF)
    assert "Parameter indices which did not receive grad for rank 0: 2 3" in off
    assert not any("unused.weight" in line for line in off)
    info = error_lines(dist.DebugLevel.INFO)
    assert "Parameters which did not receive grad for rank 0: unused.bias, unused.weight" in info


# ---------------------------------------------------------------------------------------------
# utils/parametrizations.py
# ---------------------------------------------------------------------------------------------


@proves(
    "annotated_src/annotated_nn/utils/parametrizations.py",
    "_SpectralNorm",
    "in training mode every read of weight advances _u and _v; in evaluation mode reads leave "
    "them alone",
)
@each_nn()
def test_spectral_norm_reads_iterate_in_training_only(nn):
    import importlib

    parametrizations = importlib.import_module(nn.__name__ + ".utils.parametrizations")
    torch.manual_seed(0)
    module = parametrizations.spectral_norm(nn.Linear(4, 3))
    estimate = module.parametrizations.weight[0]
    # Start from vectors far from converged, so that one step must move them on any CPU (after
    # registration's 16 steps they may already be a fixed point to the last bit). A step computes
    # `_u` from `_v` first, then `_v` from the new `_u`.
    normalize = torch.nn.functional.normalize
    with torch.no_grad():
        estimate._u.copy_(normalize(torch.tensor([1.0, -1.0, 0.5]), dim=0))
        estimate._v.copy_(normalize(torch.tensor([1.0, -1.0, 0.5, 2.0]), dim=0))
    before = (estimate._u.clone(), estimate._v.clone())
    module.weight
    assert not torch.equal(estimate._u, before[0]) and not torch.equal(estimate._v, before[1])
    module.eval()
    before = (estimate._u.clone(), estimate._v.clone())
    module.weight
    assert torch.equal(estimate._u, before[0]) and torch.equal(estimate._v, before[1])
