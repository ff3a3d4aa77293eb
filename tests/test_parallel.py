"""annotated_nn.parallel (DataParallel, data_parallel, scatter/gather, replicate, parallel_apply) vs torch.nn.parallel.

Without CUDA, torch's DataParallel calls the module directly; that path is compared directly. The
constructor and the device check of the GPU path are compared by pretending an accelerator type
exists (monkeypatching `_get_available_device_type` in both modules) and using the `meta` device.
replicate's module-tree logic is compared on CPU by replacing the CUDA broadcast in both with
the same CPU stand-in. Real multi-GPU tests run only with CUDA.
"""

import collections
import sys
import warnings

import pytest
import torch

import annotated_nn
from annotated_examples.models import build_simplenet, make_models

NAMESPACES = (torch.nn, annotated_nn)
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
needs_2_gpus = pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs 2 CUDA devices")


def module_file(nn, name):
    """The module object of torch.nn.parallel.<name> / annotated_nn.parallel.<name> (the package attribute may be a function)."""
    package = "torch.nn.parallel" if nn is torch.nn else "annotated_nn.parallel"
    return sys.modules[f"{package}.{name}"]


def outcome(fn):
    try:
        return ("ok", fn())
    except Exception as exc:  # noqa: BLE001 - compared by the caller
        return ("error", type(exc), str(exc))


def both(fn):
    """fn(nn) for torch.nn and annotated_nn; assert the same outcome kind and error; return the values."""
    results = [outcome(lambda nn=nn: fn(nn)) for nn in NAMESPACES]
    assert results[0][0] == results[1][0], results
    if results[0][0] == "error":
        assert results[0][1:] == results[1][1:]
    return results


def twins(builder=build_simplenet):
    models = []
    for nn in NAMESPACES:
        torch.manual_seed(0)
        models.append(builder(nn))
    return models


# --------------------------------------------------------------------------- CPU: direct call


def test_cpu_dataparallel_calls_module_directly():
    torch_net, our_net = twins()
    torch_dp, our_dp = torch.nn.DataParallel(torch_net), annotated_nn.DataParallel(our_net)
    assert our_dp.device_ids == torch_dp.device_ids == []
    assert repr(our_dp) == repr(torch_dp)
    assert list(our_dp.state_dict()) == list(torch_dp.state_dict())
    assert [n for n, _ in our_dp.named_modules()] == [n for n, _ in torch_dp.named_modules()]
    for attr in ("dim", "output_device", "src_device_obj"):
        assert hasattr(our_dp, attr) == hasattr(torch_dp, attr) == False  # noqa: E712

    x = torch.randn(4, 1, 32, 32)
    torch_out, our_out = torch_dp(x), our_dp(x)
    torch.testing.assert_close(our_out, torch_out, rtol=0, atol=0)
    torch_out.sum().backward()
    our_out.sum().backward()
    for (n1, p1), (n2, p2) in zip(
        torch_dp.named_parameters(), our_dp.named_parameters(), strict=True
    ):
        assert n1 == n2
        torch.testing.assert_close(p2.grad, p1.grad, rtol=0, atol=0)


def test_cpu_dataparallel_kwargs_and_no_inputs():
    def fn(nn):
        class KwargsNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 2)

            def forward(self, x=None, *, scale=1.0):
                if x is None:
                    x = torch.ones(1, 3)
                return self.lin(x) * scale

        torch.manual_seed(0)
        dp = nn.DataParallel(KwargsNet(), device_ids=[1, 2], output_device=3, dim=1)
        return dp(x=torch.ones(2, 3), scale=2.0), dp()

    (_, (a1, b1)), (_, (a2, b2)) = both(fn)
    torch.testing.assert_close(a2, a1)
    torch.testing.assert_close(b2, b1)


def test_cpu_dataparallel_generic_subscript():
    assert annotated_nn.DataParallel[annotated_nn.Linear] is not None
    assert issubclass(annotated_nn.DataParallel, annotated_nn.Module)
    assert annotated_nn.parallel.DataParallel is annotated_nn.DataParallel


# --------------------------------------------------------------------------- GPU path, simulated


@pytest.fixture
def fake_accelerator(monkeypatch):
    """Pretend an accelerator of type `kind` is available in both data_parallel modules."""

    def install(kind, indices=(0, 1)):
        for nn in NAMESPACES:
            mod = module_file(nn, "data_parallel")
            monkeypatch.setattr(mod, "_get_available_device_type", lambda: kind)
            monkeypatch.setattr(
                mod, "_get_all_device_indices", lambda: None if indices is None else list(indices)
            )

    return install


def test_constructor_no_devices_error(fake_accelerator):
    fake_accelerator("meta", indices=None)
    results = both(lambda nn: nn.DataParallel(nn.Linear(3, 2)))
    assert results[0][:2] == ("error", RuntimeError)


def test_constructor_resolves_devices(fake_accelerator):
    fake_accelerator("meta")

    def fn(nn):
        out = []
        for kwargs in (
            {},
            {"device_ids": [torch.device("meta", 1), 2], "output_device": torch.device("meta", 2)},
            {"device_ids": [3, 1], "dim": 1},
        ):
            dp = nn.DataParallel(nn.Linear(3, 2), **kwargs)
            out.append((dp.device_ids, dp.output_device, dp.src_device_obj, dp.dim))
        return out

    results = both(fn)
    assert results[0][1] == results[1][1]


def test_single_device_moves_module(fake_accelerator):
    fake_accelerator("meta")
    results = both(lambda nn: nn.DataParallel(nn.Linear(3, 2), device_ids=[0]).module.weight.device)
    assert results[0][1] == results[1][1] == torch.device("meta")


def test_forward_checks_parameter_device(fake_accelerator):
    fake_accelerator("meta")
    results = both(
        lambda nn: nn.DataParallel(nn.Linear(3, 2), device_ids=[0, 1])(torch.randn(2, 3))
    )
    assert results[0][:2] == ("error", RuntimeError)
    assert "module must have its parameters and buffers on device meta:0" in results[0][2]


def test_mps_counts_as_no_device(fake_accelerator):
    fake_accelerator("mps")
    results = both(lambda nn: nn.DataParallel(nn.Linear(3, 2)).device_ids)
    assert results[0][1] == results[1][1] == []


# --------------------------------------------------------------------------- functions on CPU


def test_data_parallel_function_on_cpu_errors():
    results = both(lambda nn: nn.parallel.data_parallel(nn.Linear(3, 2), torch.randn(2, 3)))
    assert results[0][1:] == (RuntimeError, "device type could not be determined")


def test_scatter_gather_without_tensors():
    Point = collections.namedtuple("Point", "x y")
    cases = [5, "s", (1, "a"), [1, 2], {"k": 1, "j": (2, 3)}, Point(1, 2), (), [], {}, None]
    for obj in cases:
        results = both(lambda nn, obj=obj: nn.parallel.scatter(obj, [0, 1, 2]))
        assert results[0][1] == results[1][1]
        assert [type(s) for s in results[0][1]] == [type(s) for s in results[1][1]]
    for outputs in (
        [None, None],
        [{"a": None}, {"a": None}],
        [{"a": None}, {"a": None, "b": None}],
        [(None,), (None,)],
    ):
        results = both(lambda nn, outputs=outputs: nn.parallel.gather(outputs, 0))
        assert results[0][1:] == results[1][1:]


def test_scatter_kwargs_padding():
    sk = {nn: module_file(nn, "scatter_gather").scatter_kwargs for nn in NAMESPACES}
    for inputs, kwargs in [
        ((), None),
        ((1,), None),
        ((), {"a": 1}),
        ((1, 2), {"a": 1}),
        ((1,), {}),
    ]:
        results = both(lambda nn, i=inputs, k=kwargs: sk[nn](i, k, [0, 1]))
        assert results[0][1] == results[1][1]


def test_scatter_gather_tensor_errors_on_cpu():
    both(lambda nn: nn.parallel.scatter(torch.randn(4, 3), [0, 1]))
    both(lambda nn: nn.parallel.gather([torch.randn(4, 3)], -1))


def test_is_namedtuple_deprecated():
    Point = collections.namedtuple("Point", "x y")
    for nn in NAMESPACES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert module_file(nn, "scatter_gather").is_namedtuple(Point(1, 2))
            assert not module_file(nn, "scatter_gather").is_namedtuple((1, 2))
        assert [w.category for w in caught] == [FutureWarning, FutureWarning]


def test_get_a_var():
    t = torch.ones(1)
    for obj in (t, [1, (2, t)], {"a": t}, {"a": 1}, 3, [], (None,)):
        ours = module_file(annotated_nn, "parallel_apply").get_a_var(obj)
        theirs = module_file(torch.nn, "parallel_apply").get_a_var(obj)
        assert ours is theirs


def test_parallel_apply_errors_on_cpu():
    lin = torch.nn.Linear(3, 2), annotated_nn.Linear(3, 2)
    both(lambda nn: nn.parallel.parallel_apply([lin[nn is annotated_nn]], [torch.randn(2, 3)]))
    both(
        lambda nn: nn.parallel.parallel_apply(
            [lin[nn is annotated_nn]], [torch.randn(2, 3), torch.randn(2, 3)]
        )
    )
    both(
        lambda nn: nn.parallel.parallel_apply(
            [lin[nn is annotated_nn]], [torch.randn(2, 3)], [{}, {}]
        )
    )
    both(
        lambda nn: nn.parallel.parallel_apply(
            [lin[nn is annotated_nn]], [torch.randn(2, 3)], None, [0, 1]
        )
    )


def test_replicate_trivial_cases():
    results = both(lambda nn: nn.parallel.replicate(nn.Linear(3, 2), []))
    assert results[0][1] == results[1][1] == []
    results = both(lambda nn: nn.parallel.replicate(nn.Linear(3, 2), ["cpu"]))
    assert results[0][:2] == ("error", ValueError)


# --------------------------------------------------------------------------- replicate's tree logic on CPU


@pytest.fixture
def cpu_broadcast(monkeypatch):
    """Replace the CUDA broadcast in both replicate modules by one CPU stand-in (differentiable copies)."""

    def fake(tensors, devices, detach=False):
        if not tensors:
            return []
        return [[t.detach().clone() if detach else t * 1 for t in tensors] for _ in devices]

    for nn in NAMESPACES:
        monkeypatch.setattr(module_file(nn, "replicate"), "_broadcast_coalesced_reshape", fake)


def _shared_tree(nn):
    class Shared(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
            self.again = self.block  # the same submodule twice
            self.head = nn.Linear(4, 2)
            self.register_buffer("scale", torch.tensor(2.0))
            self.register_buffer("nothing", None)
            self.register_parameter("unused", None)
            self.missing = None

        def forward(self, x):
            return self.head(self.again(self.block(x))) * self.scale

    return Shared()


@pytest.mark.parametrize("detach", [False, True])
@pytest.mark.parametrize(
    "builder", [_shared_tree, build_simplenet, lambda nn: make_models(nn).ResNet((1, 1, 1, 1), 5)]
)
def test_replicate_tree_matches_torch(cpu_broadcast, builder, detach):
    torch_net, our_net = twins(builder)
    torch_net.eval(), our_net.eval()
    x = (
        torch.randn(3, 4)
        if builder is _shared_tree
        else torch.randn(2, 1 if builder is build_simplenet else 3, 32, 32)
    )
    torch_replicas = torch.nn.parallel.replicate(torch_net, [0, 1], detach=detach)
    our_replicas = annotated_nn.parallel.replicate(our_net, [0, 1], detach=detach)
    assert len(our_replicas) == len(torch_replicas) == 2
    for tr, orep in zip(torch_replicas, our_replicas, strict=True):
        assert orep is not our_net and type(orep) is type(our_net)
        assert [n for n, _ in orep.named_modules()] == [n for n, _ in tr.named_modules()]
        assert [n for n, _ in orep.named_modules(remove_duplicate=False)] == [
            n for n, _ in tr.named_modules(remove_duplicate=False)
        ]
        assert list(orep.parameters()) == list(tr.parameters()) == []
        assert [n for n, _ in orep.named_buffers()] == [n for n, _ in tr.named_buffers()]
        for (_, m1), (_, m2) in zip(tr.named_modules(), orep.named_modules(), strict=True):
            assert list(m2._former_parameters) == list(m1._former_parameters)
            assert list(m2._modules) == list(m1._modules)
            assert m2._is_replica is m1._is_replica is True
        torch.testing.assert_close(orep(x), tr(x), rtol=0, atol=0)
    if builder is _shared_tree:
        assert our_replicas[0].again is our_replicas[0].block
        assert our_replicas[0].block is not our_replicas[1].block
    if not detach:
        # Gradients flow back through the (stand-in) broadcast into the originals.
        sum(r(x).sum() for r in torch_replicas).backward()
        sum(r(x).sum() for r in our_replicas).backward()
        for p1, p2 in zip(torch_net.parameters(), our_net.parameters(), strict=True):
            torch.testing.assert_close(p2.grad, p1.grad)


# --------------------------------------------------------------------------- CUDA


@needs_cuda
def test_cuda_single_device():
    torch_net, our_net = twins()
    torch_dp = torch.nn.DataParallel(torch_net, device_ids=[0])
    our_dp = annotated_nn.DataParallel(our_net, device_ids=[0])
    assert our_net.fc.weight.device.type == "cuda"
    x = torch.randn(8, 1, 32, 32, device="cuda")
    torch.testing.assert_close(our_dp(x), torch_dp(x))


@needs_2_gpus
@pytest.mark.parametrize("grad", [True, False])
def test_cuda_multi_device_forward_backward(grad):
    builder = lambda nn: make_models(nn).ResNet((1, 1, 1, 1), 10)  # noqa: E731
    torch_net, our_net = (m.cuda() for m in twins(builder))
    torch_dp, our_dp = torch.nn.DataParallel(torch_net), annotated_nn.DataParallel(our_net)
    x = torch.randn(8, 3, 32, 32, device="cuda")
    with torch.set_grad_enabled(grad):
        torch_out, our_out = torch_dp(x), our_dp(x)
    torch.testing.assert_close(our_out, torch_out)
    if grad:
        torch_out.sum().backward()
        our_out.sum().backward()
        for p1, p2 in zip(torch_net.parameters(), our_net.parameters(), strict=True):
            torch.testing.assert_close(p2.grad, p1.grad)
    for b1, b2 in zip(torch_net.buffers(), our_net.buffers(), strict=True):
        torch.testing.assert_close(b2, b1)


@needs_2_gpus
def test_cuda_data_parallel_function_and_dict_output():
    def fn(nn):
        class DictOut(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 2)

            def forward(self, x, *, y):
                return {"a": self.lin(x), "b": (y * 2, None)}

        torch.manual_seed(0)
        net = DictOut().cuda()
        x, y = torch.randn(4, 3, device="cuda"), torch.randn(4, device="cuda")
        return nn.parallel.data_parallel(net, x, module_kwargs={"y": y}, output_device=-1)

    torch.manual_seed(1)
    results = both(fn)
    torch.testing.assert_close(results[1][1]["a"], results[0][1]["a"])
    torch.testing.assert_close(results[1][1]["b"][0], results[0][1]["b"][0])
