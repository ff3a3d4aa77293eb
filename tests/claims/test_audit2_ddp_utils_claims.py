"""Claims corrected by the second audit of ``parallel/distributed.py``, ``utils/`` and the DDP /
reparametrization chapters (issue 21, item 3): exception types, conditions left out, devices.

Each test runs on torch and on ours (``torch.nn`` / ``annotated_nn``) and asserts what the
corrected sentence says.
"""

from __future__ import annotations

import functools
import importlib
import warnings

import pytest
import torch
import torch.distributed as dist
from claim import each_nn, proves, rank_records, run_on_ranks
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks

needs_gloo = pytest.mark.skipif(
    not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo"
)


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
        D(nn.Linear(2, 1)).register_comm_hook(None, functools.partial(default_hooks.allreduce_hook))


@proves(
    "annotated_src/annotated_nn/utils/init.py",
    "skip_init",
    "a class that is not a Module subclass raises RuntimeError; a module instance instead of a "
    "class raises issubclass's TypeError",
)
@each_nn()
def test_skip_init_rejects_instances_with_type_error(nn):
    with pytest.raises(RuntimeError, match="Expected a Module"):
        nn.utils.skip_init(int)
    with pytest.raises(TypeError, match="must be a class"):
        nn.utils.skip_init(nn.Linear(1, 1))


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "remove_parametrizations",
    "with several originals and leave_parametrized=True, a value that does not require grad "
    "(frozen originals, or removal under no_grad) is put back as a buffer, even for a parameter",
)
@each_nn()
def test_removing_frozen_weight_norm_leaves_a_buffer(nn):
    P = nn.utils.parametrize

    def weight_normed():
        m = nn.Linear(3, 2)
        nn.utils.parametrizations.weight_norm(m)
        return m

    frozen = weight_normed().requires_grad_(False)
    P.remove_parametrizations(frozen, "weight")
    assert "weight" in dict(frozen.named_buffers())
    assert "weight" not in dict(frozen.named_parameters())
    assert "weight" in frozen.state_dict()

    under_no_grad = weight_normed()
    with torch.no_grad():
        P.remove_parametrizations(under_no_grad, "weight")
    assert "weight" in dict(under_no_grad.named_buffers())

    trained = weight_normed()
    P.remove_parametrizations(trained, "weight")
    assert isinstance(trained.weight, torch.nn.Parameter)
    assert trained.weight.requires_grad


@proves(
    "annotated_src/annotated_nn/utils/prune.py",
    "RandomStructured.compute_mask",
    "a structured dim out of range raises IndexError on both sides: dim >= t.dim() from the "
    "check, dim < -t.dim() from indexing the shape",
)
@each_nn()
@pytest.mark.parametrize("method", ["random_structured", "ln_structured"])
def test_structured_pruning_dim_out_of_range_is_index_error(nn, method):
    prune = importlib.import_module(f"{nn.__name__}.utils.prune")
    kwargs = {"n": 2} if method == "ln_structured" else {}
    with pytest.raises(IndexError, match="Invalid index 2"):
        getattr(prune, method)(nn.Linear(2, 2), "weight", 0.5, dim=2, **kwargs)
    with pytest.raises(IndexError, match="out of range"):
        getattr(prune, method)(nn.Linear(2, 2), "weight", 0.5, dim=-3, **kwargs)


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "ParametrizationList.right_inverse",
    "assigning to a parametrized tensor: a missing right_inverse raises RuntimeError, and a "
    "right_inverse raising NotImplementedError lets it through (registration treats it as the "
    "identity)",
)
@each_nn()
def test_assignment_does_not_treat_not_implemented_as_identity(nn):
    P = nn.utils.parametrize

    class Double(nn.Module):
        def forward(self, x):
            return 2 * x

    class NoInverse(Double):
        def right_inverse(self, x):
            raise NotImplementedError("no inverse")

    m = nn.Linear(2, 2)
    P.register_parametrization(m, "weight", NoInverse())  # registration: counted as identity
    with pytest.raises(NotImplementedError, match="no inverse"):
        m.weight = torch.zeros(2, 2)

    m = nn.Linear(2, 2)
    P.register_parametrization(m, "weight", Double())
    with pytest.raises(RuntimeError, match="does not implement right_inverse"):
        m.weight = torch.zeros(2, 2)


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "functional_call",
    "with tie_weights, give one name of a tied group or all: two of three (even the same "
    "tensor) raise KeyError; different tensors for all names raise ValueError",
)
@each_nn()
def test_tied_group_of_three_needs_one_name_or_all(nn):
    stateless = importlib.import_module(f"{nn.__name__}.utils.stateless")

    class ThreeTied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b, self.c = nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 2)
            self.b.weight = self.a.weight
            self.c.weight = self.a.weight

        def forward(self, x):
            return self.c(x)

    m, w, x = ThreeTied(), torch.zeros(2, 2), torch.ones(1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = m.c.bias.detach().unsqueeze(0)
        assert torch.equal(stateless.functional_call(m, {"a.weight": w}, (x,)), expected)
        with pytest.raises(KeyError, match="c.weight"):
            stateless.functional_call(m, {"a.weight": w, "b.weight": w}, (x,))
        all_three = {"a.weight": w, "b.weight": w, "c.weight": w}
        assert torch.equal(stateless.functional_call(m, all_three, (x,)), expected)
        with pytest.raises(ValueError, match="which are tied"):
            stateless.functional_call(m, {**all_three, "c.weight": w.clone()}, (x,))


@needs_gloo
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel._check_sync_bufs_post_fwd",
    "a POST_FORWARD buffer hook runs only when will_sync_module_buffers() holds, e.g. not with "
    "forward_sync_buffers=False",
)
@each_nn()
def test_post_forward_buffer_hook_needs_will_sync(nn, one_process_group):
    ddp_module = importlib.import_module(f"{nn.__name__}.parallel.distributed")
    post_forward = ddp_module._BufferCommHookLocation.POST_FORWARD

    def calls(**kwargs):
        seen = []
        ddp = nn.parallel.DistributedDataParallel(nn.BatchNorm1d(2), **kwargs)
        ddp._register_buffer_comm_hook(
            None,
            lambda state, buffers: seen.append(sorted(buffers)),
            comm_hook_location=post_forward,
        )
        ddp(torch.ones(3, 2))
        return seen

    names = ["num_batches_tracked", "running_mean", "running_var"]
    assert calls() == [names]
    assert calls(forward_sync_buffers=False) == []


@proves(
    "annotated_src/annotated_nn/utils/rnn.py",
    "_packed_sequence_init_args",
    "batch_sizes must be a CPU tensor: a list raises AttributeError (its .device is read)",
)
@each_nn()
def test_packed_sequence_batch_sizes_must_be_a_tensor(nn):
    with pytest.raises(AttributeError, match="device"):
        nn.utils.rnn.PackedSequence(torch.ones(2), [1, 1])
    packed = nn.utils.rnn.PackedSequence(torch.ones(2), torch.tensor([1, 1]))
    assert packed.batch_sizes.tolist() == [1, 1]


@proves(
    "annotated_src/annotated_nn/utils/convert_parameters.py",
    "parameters_to_vector",
    "the device check only tells CUDA/PrivateUse1 devices apart: CPU and meta parameters pass it "
    "and fail later with RuntimeError (torch.cat, or the .data assignment)",
)
@each_nn()
def test_cpu_meta_mix_is_a_runtime_error(nn):
    mixed = [torch.ones(2), torch.ones(2, device="meta")]
    with pytest.raises(RuntimeError, match="not on the expected device"):
        nn.utils.parameters_to_vector(mixed)
    with pytest.raises(RuntimeError, match="incompatible tensor type"):
        nn.utils.vector_to_parameters(torch.ones(4), mixed)


@proves(
    "annotated_src/annotated_nn/utils/weight_norm.py",
    "weight_norm",
    "the first-generation weight_norm raises AttributeError for an unknown name, IndexError for "
    "dim out of range, TypeError for a None tensor; spectral_norm RuntimeError for dim out of "
    "range",
)
@each_nn()
def test_first_generation_norm_errors(nn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        with pytest.raises(AttributeError, match="foo"):
            nn.utils.weight_norm(nn.Linear(2, 2), "foo")
        with pytest.raises(IndexError, match="Dimension out of range"):
            nn.utils.weight_norm(nn.Linear(2, 2), dim=2)
        with pytest.raises(TypeError, match="NoneType"):
            nn.utils.weight_norm(nn.Linear(2, 2, bias=False), "bias")
    with pytest.raises(RuntimeError, match="permute"):
        nn.utils.spectral_norm(nn.Linear(2, 2), dim=2)


# ---------------------------------------------------------------------------------------------
# Two processes (gloo on 127.0.0.1), spawned once for the module
# ---------------------------------------------------------------------------------------------


def _two_rank_scenarios(rank, nn):
    """What one rank records for one namespace: buffers differ per rank before each step."""
    out = {}
    # Construction: each buffer flag turned off in turn.
    for flag in ("broadcast_buffers", "forward_sync_buffers"):
        module = nn.BatchNorm1d(2)
        module.running_mean.fill_(rank + 1.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            ddp = nn.parallel.DistributedDataParallel(module, **{flag: False})
        out["init", flag] = ddp.module.running_mean.clone()
    # Before a forward pass (eval mode, so the forward itself changes nothing), outside and
    # inside join().
    ddp = nn.parallel.DistributedDataParallel(
        nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    ).eval()
    running_mean = ddp.module[1].running_mean
    running_mean.fill_(rank + 1.0)
    ddp(torch.ones(3, 2))
    out["forward", "plain"] = running_mean.clone()
    running_mean.fill_(rank + 1.0)
    with ddp.join():
        ddp(torch.ones(3, 2))
    out["forward", "join"] = running_mean.clone()
    return out


@pytest.fixture(scope="module")
def two_ranks(tmp_path_factory):
    """Per rank, {namespace name: records}; spawned once for the module."""
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("needs gloo")
    return run_on_ranks(
        _two_rank_scenarios, tmp_path_factory.mktemp("audit2_ddp"), world_size=2, quiet=False
    )


def _records(two_ranks, nn):
    return rank_records(two_ranks, nn)


@proves(
    "docs/chapters/ddp/overview.md",
    "construction",
    "construction broadcasts rank 0's buffers unless the deprecated broadcast_buffers=False is "
    "given; forward_sync_buffers=False still broadcasts them",
)
@each_nn()
def test_construction_buffer_broadcast_follows_broadcast_buffers(nn, two_ranks):
    ranks = _records(two_ranks, nn)
    assert torch.equal(ranks[0]["init", "broadcast_buffers"], torch.full((2,), 1.0))
    assert torch.equal(ranks[1]["init", "broadcast_buffers"], torch.full((2,), 2.0))
    for record in ranks:
        assert torch.equal(record["init", "forward_sync_buffers"], torch.full((2,), 1.0))


@proves(
    "docs/chapters/ddp/iteration.md",
    "buffers",
    "buffers are broadcast from rank 0 before a forward pass, but inside join() from the highest "
    "rank still training (the last rank while all train)",
)
@each_nn()
def test_buffers_come_from_the_last_rank_inside_join(nn, two_ranks):
    for record in _records(two_ranks, nn):
        assert torch.equal(record["forward", "plain"], torch.full((2,), 1.0))
        assert torch.equal(record["forward", "join"], torch.full((2,), 2.0))


@proves(
    "docs/chapters/ddp/overview.md",
    "introduction",
    "processes communicate not only in the backward pass: by default every forward pass starts "
    "by broadcasting rank 0's buffers (the final review of issue 21 found 'only in the backward "
    "pass')",
)
@each_nn()
def test_a_forward_pass_alone_communicates_buffers(nn, two_ranks):
    # 中: 场景里只调用了前向（没有 backward），rank 1 的缓冲区仍变成了 rank 0 的值。
    # EN: The scenario runs a forward pass only (no backward), and rank 1's buffer still becomes
    # EN: rank 0's value.
    rank1 = _records(two_ranks, nn)[1]
    assert torch.equal(rank1["forward", "plain"], torch.full((2,), 1.0))
