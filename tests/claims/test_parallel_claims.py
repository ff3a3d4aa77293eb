"""CPU-checkable claims of parallel/*.py and chapter 15."""

from __future__ import annotations

import collections
import importlib

import pytest
import torch
from claim import each_nn, proves

needs_no_accelerator = pytest.mark.skipif(
    torch.accelerator.is_available(), reason="checks the behavior without an accelerator"
)


def submodule(nn, name):
    """nn.parallel.<name> for either namespace."""
    return importlib.import_module(f"{nn.parallel.__name__}.{name}")


@proves(
    "annotated_src/annotated_nn/parallel/data_parallel.py",
    "DataParallel",
    "without a usable GPU device_ids is [] and forward calls the module directly; "
    "dim and output_device are not even set",
)
@needs_no_accelerator
@each_nn()
def test_data_parallel_on_cpu_calls_module(nn):
    """The chapter's CPU example."""
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    dp = nn.DataParallel(model)
    x = torch.randn(5, 4)
    assert dp.device_ids == [] and dp.module is model
    assert torch.equal(dp(x), model(x))
    assert not hasattr(dp, "dim") and not hasattr(dp, "output_device")


@proves(
    "docs/chapters/15-parallel.md",
    "consume-prefix",
    "a wrapper's state_dict keys carry 'module.', which consume_prefix strips with _metadata",
)
@each_nn()
def test_consume_prefix_strips_keys_and_metadata(nn):
    """The stripped dict loads into the bare model."""
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    state = nn.DataParallel(model).state_dict()
    assert all(k.startswith("module.") for k in state)
    nn.modules.utils.consume_prefix_in_state_dict_if_present(state, "module.")
    assert list(state)[0] == "0.weight"
    assert "1" in state._metadata and state._metadata["1"]["version"] == 2
    assert str(model.load_state_dict(state)) == "<All keys matched successfully>"


@proves(
    "annotated_src/annotated_nn/parallel/data_parallel.py",
    "data_parallel",
    "without an accelerator the functional data_parallel raises instead of calling the module",
)
@needs_no_accelerator
@each_nn()
def test_functional_data_parallel_raises_on_cpu(nn):
    """An asymmetry with DataParallel, torch's own."""
    with pytest.raises(RuntimeError, match="device type could not be determined"):
        nn.parallel.data_parallel(nn.Linear(2, 2), torch.ones(1, 2))


@proves(
    "annotated_src/annotated_nn/parallel/replicate.py",
    "replicate",
    "a CPU device raises ValueError (broadcasts need accelerators)",
)
@each_nn()
def test_replicate_refuses_cpu(nn):
    """_get_device_index(..., True) rejects the CPU."""
    with pytest.raises(ValueError, match="Expected a non cpu device"):
        nn.parallel.replicate(nn.Linear(2, 2), ["cpu"])


@proves(
    "annotated_src/annotated_nn/parallel/replicate.py",
    "replicate",
    "_replicate_for_data_parallel empties _parameters, copies _buffers/_modules, marks replica",
)
@each_nn()
def test_replica_shallow_copy(nn):
    """A replica's parameters() is empty; the dicts are new objects."""
    bn = nn.BatchNorm1d(3)
    replica = bn._replicate_for_data_parallel()
    assert replica._parameters == {} and list(replica.parameters()) == []
    assert replica._buffers is not bn._buffers
    assert replica._buffers["running_mean"] is bn.running_mean
    assert replica._modules is not bn._modules
    assert replica._is_replica is True and type(replica) is type(bn)


@proves(
    "annotated_src/annotated_nn/parallel/scatter_gather.py",
    "scatter",
    "non-tensor objects are not split: every device gets a reference to the same object",
)
@each_nn()
def test_scatter_shares_non_tensors(nn):
    """Custom objects and numbers are repeated per device."""
    scatter = submodule(nn, "scatter_gather").scatter
    shared = object()
    shares = scatter((shared, 3), [0, 1])
    assert len(shares) == 2
    assert shares[0][0] is shares[1][0] is shared
    assert shares[0][1] == shares[1][1] == 3


@proves(
    "annotated_src/annotated_nn/parallel/scatter_gather.py",
    "scatter_kwargs",
    "with only non-tensor keyword arguments the positional side is padded with empty tuples",
)
@each_nn()
def test_scatter_kwargs_pads_positional_side(nn):
    """Each device gets an (args, kwargs) pair."""
    scatter_kwargs = submodule(nn, "scatter_gather").scatter_kwargs
    inputs, kwargs = scatter_kwargs((), {"flag": True}, [0, 1])
    assert inputs == ((), ()) and kwargs == ({"flag": True}, {"flag": True})


@proves(
    "annotated_src/annotated_nn/parallel/scatter_gather.py",
    "gather",
    "None stays None; dicts with different key counts raise ValueError",
)
@each_nn()
def test_gather_none_and_dicts(nn):
    """The first share decides how to merge."""
    gather = submodule(nn, "scatter_gather").gather
    assert gather([None, None], "cpu") is None
    with pytest.raises(ValueError, match="All dicts must have the same number of keys"):
        gather([{"a": None}, {"a": None, "b": None}], "cpu")


@proves(
    "annotated_src/annotated_nn/parallel/scatter_gather.py",
    "is_namedtuple",
    "the public is_namedtuple warns with FutureWarning",
)
@each_nn()
def test_is_namedtuple_deprecated(nn):
    """Kept for old code only."""
    point = collections.namedtuple("Point", "x y")
    with pytest.warns(FutureWarning):
        assert submodule(nn, "scatter_gather").is_namedtuple(point(1, 2))


@proves(
    "annotated_src/annotated_nn/parallel/parallel_apply.py",
    "get_a_var",
    "dicts are searched by (key, value) pairs, so a tensor key is found too",
)
@each_nn()
def test_get_a_var_finds_tensor_key(nn):
    """The first tensor met is returned."""
    key = torch.ones(1)
    assert submodule(nn, "parallel_apply").get_a_var({key: "value"}) is key
    assert submodule(nn, "parallel_apply").get_a_var([1, "a"]) is None


@proves(
    "annotated_src/annotated_nn/parallel/parallel_apply.py",
    "parallel_apply",
    "without an accelerator it raises RuntimeError while fetching the current streams",
)
@needs_no_accelerator
@each_nn()
def test_parallel_apply_needs_accelerator(nn):
    """Same place and message as torch."""
    with pytest.raises(RuntimeError, match="Cannot access accelerator device"):
        nn.parallel.parallel_apply([nn.Linear(2, 2)], [torch.ones(1, 2)])


@pytest.fixture
def process_group(tmp_path):
    """A single-process gloo group on a file store, destroyed afterwards."""
    import torch.distributed as dist

    if dist.is_initialized():
        pytest.skip("a default process group already exists")
    store = dist.FileStore(str(tmp_path / "store"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    yield
    dist.destroy_process_group()


@proves(
    "docs/chapters/15-parallel.md",
    "ddp",
    "DDP wrapping a model of its own library registers it as the child `module`: parameters(), "
    "state_dict() (keys prefixed `module.`) and train()/eval() reach the model",
)
@each_nn()
def test_ddp_registers_the_wrapped_model(nn, process_group):
    """ddp.parameters(), state_dict() and eval() see the wrapped model, on both libraries."""
    model = nn.Linear(4, 2)
    ddp = nn.parallel.DistributedDataParallel(model)
    assert ddp.module is model
    assert [name for name, _ in ddp.named_parameters()] == ["module.weight", "module.bias"]
    assert list(ddp.state_dict()) == ["module.weight", "module.bias"]
    ddp.eval()
    assert model.training is False
    ddp(torch.randn(3, 4)).sum().backward()
    assert model.weight.grad is not None
