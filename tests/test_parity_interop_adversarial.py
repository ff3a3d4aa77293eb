"""Adversarial parity and interop: parallel/, utils/stateless, public names, and torch's own tools on our models.

Each test builds the same scenario with torch.nn and with annotated_nn and compares what a user sees.
Since issue 22 annotated_nn.Module subclasses torch.nn.Module, so the tests that once pinned torch
refusing our modules (functional_call, DataParallel, jit, export) now assert torch's behaviour.
"""

import copy
import inspect
import io
import pickle
import sys
import warnings

import pytest
import torch
import torch.nn.utils.stateless as torch_stateless
import torch.utils.checkpoint

import annotated_nn
from annotated_examples.models import build_simplenet, make_models
from annotated_nn.utils import stateless as our_stateless
from helpers import norm, record_warnings

NAMESPACES = (torch.nn, annotated_nn)


def outcome(fn):
    """('ok', value) or ('error', type name, normalised message)."""
    try:
        return ("ok", fn())
    except Exception as exc:  # noqa: BLE001 - compared by the caller
        return ("error", type(exc).__name__, norm(str(exc)))


def both_same(fn):
    """fn(nn) for both namespaces; assert equal outcomes (values compared with ==); return them."""
    theirs, ours = (outcome(lambda nn=nn: fn(nn)) for nn in NAMESPACES)
    assert ours == theirs, f"\n torch: {theirs!r}\n ours:  {ours!r}"
    return ours


def twins(builder):
    models = []
    for nn in NAMESPACES:
        torch.manual_seed(0)
        models.append(builder(nn))
    return models


def assert_tensors_equal(a, b):
    torch.testing.assert_close(b, a, rtol=0, atol=0)


def assert_grads_equal(torch_model, our_model):
    theirs = [(n, p.grad) for n, p in torch_model.named_parameters()]
    ours = [(n, p.grad) for n, p in our_model.named_parameters()]
    assert [n for n, _ in ours] == [n for n, _ in theirs]
    for (_, g1), (_, g2) in zip(theirs, ours, strict=True):
        assert (g1 is None) == (g2 is None)
        if g1 is not None:
            torch.testing.assert_close(g2, g1)


def small_net(nn):
    """Linear → BatchNorm → ReLU → Linear with a non-persistent buffer and a None buffer."""

    class Small(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
            self.head = nn.Linear(4, 2)
            self.register_buffer("shift", torch.full((2,), 0.5), persistent=False)
            self.register_buffer("nothing", None)

        def forward(self, x, *, scale=1.0):
            return self.head(self.body(x)) * scale + self.shift

    return Small()


# Defined at module level so that torch.save(model) can pickle it by reference.
class SavedNet(annotated_nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = annotated_nn.Linear(3, 2)
        self.bn = annotated_nn.BatchNorm1d(2)
        self.register_buffer("step", torch.zeros((), dtype=torch.long))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        return self.bn(self.lin(x)) + self.scratch


class TorchSavedNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2)
        self.bn = torch.nn.BatchNorm1d(2)
        self.register_buffer("step", torch.zeros((), dtype=torch.long))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        return self.bn(self.lin(x)) + self.scratch


# --------------------------------------------------------------------------- public names


def test_factory_kwargs_matches_torch():
    cases = [
        None,
        {},
        {"device": "cpu"},
        {"dtype": torch.float64, "memory_format": torch.channels_last},
        {"factory_kwargs": {"device": "meta"}, "dtype": torch.half},
        {"factory_kwargs": {"dtype": torch.half}, "dtype": torch.float},
        {"bogus": 1},
        {"device": "cpu", "bogus": 1, "other": 2},
    ]
    for kwargs in cases:
        snapshot = copy.deepcopy(kwargs)
        both_same(lambda nn, kwargs=kwargs: nn.factory_kwargs(kwargs))
        assert kwargs == snapshot
    assert list(inspect.signature(annotated_nn.factory_kwargs).parameters) == ["kwargs"]


def test_kernel_namespaces_are_torchs():
    assert annotated_nn.attention is torch.nn.attention
    assert annotated_nn.grad is torch.nn.grad
    assert annotated_nn.common_types is torch.nn.common_types
    assert annotated_nn.grad.conv1d_input is torch.nn.grad.conv1d_input


def test_utils_names_are_torchs_subset():
    import torch.nn.utils as torch_utils

    assert set(annotated_nn.utils.__all__) <= set(torch_utils.__all__)
    for name in annotated_nn.utils.__all__:
        assert hasattr(annotated_nn.utils, name)
    assert annotated_nn.utils.stateless is our_stateless


def test_clip_and_vector_utils_on_our_parameters():
    x = torch.randn(5, 3)

    def fn(nn):
        torch.manual_seed(0)
        model = small_net(nn)
        (model(x) ** 2).sum().backward()
        norm_value = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
        nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
        total = nn.utils.get_total_norm([p.grad for p in model.parameters()])
        vec = nn.utils.parameters_to_vector(model.parameters())
        nn.utils.vector_to_parameters(vec * 2, model.parameters())
        return norm_value, total, vec, [p.detach().clone() for p in model.parameters()]

    (_, theirs), (_, ours) = (outcome(lambda nn=nn: fn(nn)) for nn in NAMESPACES)
    for a, b in zip(theirs[:3], ours[:3], strict=True):
        assert_tensors_equal(a, b)
    for a, b in zip(theirs[3], ours[3], strict=True):
        assert_tensors_equal(a, b)


def test_skip_init_matches_torch():
    def fn(nn):
        lin = nn.utils.skip_init(nn.Linear, 5, 2, bias=False)
        meta = nn.utils.skip_init(nn.Linear, in_features=6, out_features=1, device="meta")
        return (
            repr(lin),
            type(lin.weight).__name__,
            tuple(lin.weight.shape),
            lin.weight.requires_grad,
            meta.weight.device.type,
            list(lin.state_dict()),
        )

    both_same(fn)
    both_same(lambda nn: nn.utils.skip_init(int))
    both_same(lambda nn: nn.utils.skip_init(nn.ReLU))
    both_same(lambda nn: nn.utils.skip_init(nn.Linear, 2))


# --------------------------------------------------------------------------- stateless


def test_stateless_functional_call_warns_like_torch():
    x = torch.randn(2, 3)
    torch_model, our_model = twins(lambda nn: nn.Linear(3, 2))
    params = {"weight": torch.ones(2, 3)}
    theirs, torch_warnings = record_warnings(
        lambda: torch_stateless.functional_call(torch_model, dict(params), x)
    )
    ours, our_warnings = record_warnings(
        lambda: our_stateless.functional_call(our_model, dict(params), x)
    )
    assert_tensors_equal(theirs, ours)
    assert our_warnings == torch_warnings
    assert [c for c, _ in our_warnings] == ["FutureWarning"]
    assert (
        our_stateless.functional_call.__deprecated__
        == torch_stateless.functional_call.__deprecated__
    )


def test_stateless_signature_matches_torch():
    def shape(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]

    assert shape(our_stateless.functional_call) == shape(torch_stateless.functional_call)
    assert shape(our_stateless._functional_call) == shape(torch_stateless._functional_call)
    assert shape(our_stateless._reparametrize_module) == shape(
        torch_stateless._reparametrize_module
    )
    assert our_stateless.__all__ == torch_stateless.__all__
    # The second argument may be given by name, as torch's deprecated API calls it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        out = our_stateless.functional_call(
            annotated_nn.Linear(2, 1),
            parameters_and_buffers={"weight": torch.zeros(1, 2), "bias": torch.ones(1)},
            args=torch.ones(3, 2),
        )
    assert_tensors_equal(torch.ones(3, 1), out)


STATELESS_CALLS = {
    torch.nn: torch_stateless._functional_call,
    annotated_nn: our_stateless._functional_call,
}


def test_stateless_nonpersistent_and_nested_and_kwargs():
    x = torch.randn(5, 3)

    def fn(nn):
        torch.manual_seed(0)
        model = small_net(nn)
        originals = dict(model.named_parameters()) | dict(model.named_buffers())
        values = {
            "shift": torch.zeros(2),
            "body.0.weight": torch.ones(4, 3),
            "body.1.running_mean": torch.ones(4),
        }
        out = STATELESS_CALLS[nn](model, values, (x,), {"scale": 3.0})
        restored = dict(model.named_parameters()) | dict(model.named_buffers())
        assert (
            all(restored[k] is v for k, v in originals.items())
            and restored.keys() == originals.keys()
        )
        # BatchNorm updated the borrowed running_mean in place; the module's own stays untouched.
        return (
            out.tolist(),
            values["body.1.running_mean"].tolist(),
            model.body[1].running_mean.tolist(),
        )

    both_same(fn)


def test_stateless_gradients_reach_passed_tensors():
    x = torch.randn(4, 3)

    def fn(nn):
        torch.manual_seed(0)
        model = small_net(nn)
        passed = {k: v.detach().clone().requires_grad_() for k, v in model.named_parameters()}
        STATELESS_CALLS[nn](model, passed, x).pow(2).sum().backward()
        assert all(p.grad is None for p in model.parameters())
        return {k: v.grad.tolist() for k, v in passed.items()}

    both_same(fn)


def test_stateless_reentrant_call_inside_forward():
    x = torch.randn(2, 3)

    def fn(nn):
        call = STATELESS_CALLS[nn]

        class Outer(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = nn.Linear(3, 3)

            def forward(self, x, depth=0):
                if depth == 0:
                    # A nested functional call on the same module swaps a second time.
                    nested = call(self, {"inner.bias": torch.full((3,), 5.0)}, (x,), {"depth": 1})
                    return self.inner(x) + nested
                return self.inner(x)

        torch.manual_seed(0)
        model = Outer()
        bias = model.inner.bias
        out = call(model, {"inner.weight": torch.eye(3)}, x)
        assert model.inner.bias is bias
        return out.tolist()

    both_same(fn)


def test_stateless_exception_restores_even_with_tied_and_new_names():
    def fn(nn):
        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(2, 2)
                self.b = nn.Linear(2, 2)
                self.b.weight = self.a.weight

            def forward(self, x):
                raise KeyError("boom")

        model = Tied()
        before = [(n, id(t)) for n, t in model.named_parameters(remove_duplicate=False)]
        result = outcome(
            lambda: STATELESS_CALLS[nn](
                model, {"a.weight": torch.zeros(2, 2), "brand_new": torch.ones(1)}, torch.ones(1, 2)
            )
        )
        after = [(n, id(t)) for n, t in model.named_parameters(remove_duplicate=False)]
        return (
            result,
            after == before,
            hasattr(model, "brand_new"),
            model.b.weight is model.a.weight,
        )

    both_same(fn)


@pytest.mark.parametrize(
    "values",
    [
        {"a.weight": "W", "b.weight": "W"},
        {"a.weight": "W", "b.weight": "2W"},
        {"b.weight": "W", "a.bias": "b"},
    ],
)
@pytest.mark.parametrize("tie_weights", [True, False])
@pytest.mark.parametrize("strict", [True, False])
def test_stateless_tied_strict_matrix(values, tie_weights, strict):
    x = torch.randn(2, 2)
    tensors = {"W": torch.eye(2), "2W": 2 * torch.eye(2), "b": torch.ones(2)}

    def fn(nn):
        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(2, 2)
                self.b = nn.Linear(2, 2)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))

        torch.manual_seed(0)
        given = {k: tensors[v] for k, v in values.items()}
        return STATELESS_CALLS[nn](
            Tied(), given, x, tie_weights=tie_weights, strict=strict
        ).tolist()

    both_same(fn)


def test_stateless_grad_and_vmap_per_sample_gradients():
    """torch.func transforms over our functional_call equal those over torch.func.functional_call."""
    x, y = torch.randn(6, 3), torch.randn(6, 2)
    torch_model, our_model = twins(lambda nn: nn.Linear(3, 2))

    def per_sample(call, model):
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, xi, yi):
            return (call(model, p, (xi.unsqueeze(0),)) - yi).pow(2).sum()

        return torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)

    theirs = per_sample(torch.func.functional_call, torch_model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ours = per_sample(our_stateless.functional_call, our_model)
    for k in theirs:
        torch.testing.assert_close(ours[k], theirs[k])


def test_torch_func_functional_call_on_our_modules():
    """torch.func.functional_call swaps tensors into our module as into torch's (issue 22)."""
    x = torch.randn(1, 3)

    def fn(nn):
        torch.manual_seed(0)
        model = nn.Linear(3, 2)
        out = torch.func.functional_call(model, {"weight": torch.ones(2, 3)}, x)
        # the module's own weight is back in place afterwards
        return out.tolist(), model.weight.shape, isinstance(model.weight, torch.nn.Parameter)

    both_same(fn)


# --------------------------------------------------------------------------- DataParallel on CPU


@pytest.mark.parametrize("device_ids", [None, [], [0], [0, 1]])
def test_dataparallel_cpu_wrapper_surface(device_ids):
    x = torch.randn(4, 3)

    def fn(nn):
        torch.manual_seed(0)
        dp = nn.DataParallel(small_net(nn), device_ids=device_ids, output_device=0, dim=0)
        surface = [
            repr(dp),
            dp.device_ids,
            type(dp.module).__name__,
            list(dp.state_dict()),
            [n for n, _ in dp.named_parameters()],
            [n for n, _ in dp.named_buffers()],
            [n for n, _ in dp.named_modules()],
            dp.training,
        ]
        dp.eval()
        surface.append([m.training for m in dp.modules()])
        out_eval = dp(x, scale=2.0).tolist()
        dp.train()
        surface.append([m.training for m in dp.modules()])
        assert dp.to(torch.float64) is dp
        surface.append(dp.module.head.weight.dtype)
        return surface, out_eval

    both_same(fn)


def test_dataparallel_state_dict_interchange_and_hooks():
    x = torch.randn(4, 3)
    torch_dp, our_dp = twins(lambda nn: nn.DataParallel(small_net(nn)))
    with torch.no_grad():
        for p in torch_dp.parameters():
            p.mul_(-1.5)
    result = our_dp.load_state_dict(torch_dp.state_dict())
    assert repr(result) == repr(torch_dp.load_state_dict(torch_dp.state_dict()))
    calls = {torch.nn: [], annotated_nn: []}
    for nn, dp in ((torch.nn, torch_dp), (annotated_nn, our_dp)):
        dp.register_forward_pre_hook(
            lambda m, args, nn=nn: calls[nn].append(("pre", type(m).__name__))
        )
        dp.module.head.register_forward_hook(
            lambda m, args, out, nn=nn: calls[nn].append(("head", tuple(out.shape)))
        )
    assert_tensors_equal(torch_dp(x), our_dp(x))
    assert calls[annotated_nn] == calls[torch.nn]
    # Loading the bare module's state dict into the wrapper fails alike (missing "module." prefix).
    both_same(
        lambda nn: str(
            (torch_dp if nn is torch.nn else our_dp).load_state_dict(
                (torch_dp if nn is torch.nn else our_dp).module.state_dict()
            )
        )
    )


def test_dataparallel_nested_and_pickled():
    def fn(nn):
        torch.manual_seed(0)
        dp = nn.DataParallel(nn.DataParallel(nn.Linear(2, 2)))
        clone = pickle.loads(pickle.dumps(dp))
        return (
            repr(dp),
            list(dp.state_dict()),
            repr(clone),
            clone.device_ids,
            list(clone.state_dict()),
        )

    both_same(fn)


def test_data_parallel_function_and_scatter_gather_on_cpu():
    x = torch.randn(4, 3)
    both_same(lambda nn: nn.parallel.data_parallel(nn.Linear(3, 2), x, device_ids=[]))
    both_same(lambda nn: nn.parallel.data_parallel(nn.Linear(3, 2), (x,), module_kwargs={}))
    both_same(lambda nn: nn.parallel.scatter((x, {"k": x}), []))
    both_same(lambda nn: [t.tolist() for t in nn.parallel.gather([x, x], "cpu")])
    both_same(lambda nn: nn.parallel.gather([{"a": x}, {"a": x}], -1)["a"].tolist())


def test_torch_dataparallel_registers_our_module():
    """torch's DataParallel keeps our module as its child `module` (issue 22), as torch's."""
    x = torch.randn(2, 3)

    def fn(nn):
        torch.manual_seed(0)
        wrapped = torch.nn.DataParallel(nn.Linear(3, 2))
        return (
            wrapped(x).tolist(),
            list(wrapped.state_dict()),
            [n for n, _ in wrapped.named_parameters()],
        )

    ours = both_same(fn)
    assert ours[1][2] == ["module.weight", "module.bias"]


# --------------------------------------------------------------------------- torch.optim and schedulers


@pytest.mark.parametrize(
    "make_optimizer",
    [
        lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3),
        lambda ps: torch.optim.Adam(ps, lr=1e-2, amsgrad=True),
        lambda ps: torch.optim.AdamW(ps, lr=1e-2, weight_decay=0.1),
        lambda ps: torch.optim.RMSprop(ps, lr=1e-2, centered=True, momentum=0.5),
    ],
    ids=["sgd", "adam", "adamw", "rmsprop"],
)
def test_optimizers_and_scheduler_trajectories(make_optimizer):
    x, y = torch.randn(8, 3), torch.randn(8, 2)

    def run(nn):
        torch.manual_seed(0)
        model = small_net(nn)
        groups = [
            {"params": model.body.parameters()},
            {"params": model.head.parameters(), "lr": 0.05},
        ]
        opt = make_optimizer(groups)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10)
        for _ in range(4):
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            sched.step()
        state = opt.state_dict()
        return model.state_dict(), state["param_groups"], sched.get_last_lr()

    theirs, ours = run(torch.nn), run(annotated_nn)
    assert list(ours[0]) == list(theirs[0])
    for k in theirs[0]:
        torch.testing.assert_close(ours[0][k], theirs[0][k])
    assert ours[1] == theirs[1] and ours[2] == theirs[2]


def test_lbfgs_closure():
    x, y = torch.randn(8, 3), torch.randn(8, 2)

    def run(nn):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
        opt = torch.optim.LBFGS(
            model.parameters(), lr=0.5, max_iter=5, line_search_fn="strong_wolfe"
        )

        def closure():
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            return loss

        losses = [opt.step(closure).item() for _ in range(3)]
        return losses, [p.detach().clone() for p in model.parameters()]

    (l1, p1), (l2, p2) = run(torch.nn), run(annotated_nn)
    torch.testing.assert_close(l2, l1)
    for a, b in zip(p1, p2, strict=True):
        torch.testing.assert_close(b, a)


# --------------------------------------------------------------------------- autograd tools


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_checkpoint_with_hooks_counts_and_grads(use_reentrant):
    x = torch.randn(4, 3)
    models = twins(small_net)
    counts = []
    for model in models:
        seen = []
        model.body.register_forward_hook(lambda m, a, o, seen=seen: seen.append("fwd"))
        model.head.register_full_backward_hook(lambda m, gi, go, seen=seen: seen.append("bwd"))
        inp = x.clone().requires_grad_()
        out = torch.utils.checkpoint.checkpoint(
            lambda t, model=model: model.head(model.body(t)), inp, use_reentrant=use_reentrant
        )
        out.sum().backward()
        counts.append((seen, inp.grad))
    assert counts[1][0] == counts[0][0]
    assert_tensors_equal(counts[0][1], counts[1][1])
    assert_grads_equal(*models)
    for b1, b2 in zip(models[0].buffers(), models[1].buffers(), strict=True):
        assert_tensors_equal(b1, b2)  # BatchNorm ran twice under checkpoint in both


def test_autograd_functional_jacobian_hessian():
    torch_model, our_model = twins(
        lambda nn: nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
    )
    x = torch.randn(3)
    assert_tensors_equal(
        torch.autograd.functional.jacobian(torch_model, x),
        torch.autograd.functional.jacobian(our_model, x),
    )
    assert_tensors_equal(
        torch.autograd.functional.hessian(lambda t: torch_model(t).sum(), x),
        torch.autograd.functional.hessian(lambda t: our_model(t).sum(), x),
    )


# --------------------------------------------------------------------------- serialization and copies


def test_torch_save_whole_model_and_weights_only(tmp_path):
    torch.manual_seed(0)
    ours = SavedNet()
    torch.manual_seed(0)
    theirs = TorchSavedNet()
    ours(torch.randn(4, 3))
    path = tmp_path / "model.pt"
    torch.save(ours, path)
    loaded = torch.load(path, weights_only=False)
    assert type(loaded) is SavedNet and repr(loaded) == repr(ours)
    assert list(loaded.state_dict()) == list(ours.state_dict())
    assert [n for n, _ in loaded.named_buffers()] == [n for n, _ in ours.named_buffers()]
    assert isinstance(loaded.lin.weight, annotated_nn.Parameter)
    x = torch.randn(4, 3)
    loaded.eval(), ours.eval()
    assert_tensors_equal(ours(x), loaded(x))
    # A whole model is refused by the weights-only unpickler in both.
    torch.save(theirs, tmp_path / "theirs.pt")
    err = [
        outcome(lambda p=p: torch.load(p, weights_only=True))
        for p in (tmp_path / "theirs.pt", path)
    ]
    assert err[0][:2] == err[1][:2] == ("error", "UnpicklingError")
    # State dicts load weights-only in both directions.
    for src, dst in ((ours, theirs), (theirs, ours)):
        buf = io.BytesIO()
        torch.save(src.state_dict(), buf)
        buf.seek(0)
        sd = torch.load(buf, weights_only=True)
        assert repr(dst.load_state_dict(sd)) == "<All keys matched successfully>"
        assert list(sd._metadata) == list(src.state_dict()._metadata)


def test_deepcopy_with_hooks_matches_torch():
    x = torch.randn(4, 3)

    def fn(nn):
        torch.manual_seed(0)
        model = small_net(nn)
        log = []
        model.head.register_forward_hook(lambda m, a, o: o * 2)
        model.register_forward_pre_hook(lambda m, a: log.append("pre"))
        model.body[0].register_full_backward_hook(lambda m, gi, go: log.append("bwd"))
        clone = copy.deepcopy(model)
        out = clone(x)
        out.sum().backward()
        return (
            log,
            out.tolist(),
            [len(m._forward_hooks) for m in clone.modules()],
            [len(m._backward_hooks) for m in clone.modules()],
            clone.head.weight is model.head.weight,
            clone.head.weight.grad is not None and model.head.weight.grad is None,
        )

    both_same(fn)


# --------------------------------------------------------------------------- compile, jit, export


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_compile_train_eval_with_hooks(backend):
    torch._dynamo.reset()
    x = torch.randn(4, 3)
    models = twins(small_net)
    outs = []
    for model in models:
        model.head.register_forward_hook(lambda m, a, o: o + 1)
        compiled = torch.compile(model, backend=backend)
        train_out = compiled(x)
        train_out.sum().backward()
        model.eval()
        eval_out = compiled(x)
        outs.append((train_out.detach(), eval_out))
    for a, b in zip(outs[0], outs[1], strict=True):
        torch.testing.assert_close(b, a)
    assert_grads_equal(*models)
    for b1, b2 in zip(models[0].buffers(), models[1].buffers(), strict=True):
        torch.testing.assert_close(b2, b1)


def test_jit_trace_of_function_calling_model():
    x = torch.randn(2, 3)

    # Parameters requiring grad become constants of a traced function: refused alike.
    def trace_closure(nn):
        torch.manual_seed(0)
        model = nn.Linear(3, 2)
        return torch.jit.trace(lambda t: model(t), x)

    both_same(trace_closure)
    results = []
    for nn in NAMESPACES:
        torch.manual_seed(0)
        model = nn.Linear(3, 2).requires_grad_(False)
        traced = torch.jit.trace(lambda t, model=model: model(t).relu(), x)
        results.append(traced(x + 1))
    assert_tensors_equal(*results)


def test_jit_trace_and_script_of_our_module():
    """torch.jit.trace and torch.jit.script accept our modules (issue 22) and compute torch's values."""
    x = torch.randn(2, 3)
    results = []
    for nn in NAMESPACES:
        torch.manual_seed(0)
        model = nn.Linear(3, 2)
        traced = torch.jit.trace(model, x)
        scripted = torch.jit.script(model)
        results.append((traced(x + 1), scripted(x + 1), list(traced.state_dict())))
    assert_tensors_equal(results[0][0], results[1][0])
    assert_tensors_equal(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


def test_torch_export_of_our_module():
    """torch.export.export takes our module as the root or wrapped in torch's (issue 22)."""
    x = torch.randn(2, 3)

    class Wrapper(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, t):
            return self.inner(t)

    def fn(nn):
        torch.manual_seed(0)
        graphs = []
        for root in (nn.Linear(3, 2), Wrapper(nn.Linear(3, 2))):
            ep = torch.export.export(root, (x,))
            graphs.append(
                (
                    [(n.op, str(n.target)) for n in ep.graph.nodes],
                    list(ep.state_dict),
                    ep.module()(x).tolist() == root(x).tolist(),
                )
            )
        return graphs

    both_same(fn)


def test_examples_models_module_paths_stay_importable():
    """Reference models build in both namespaces with identical state_dict keys (guards the examples package)."""
    torch_net, our_net = twins(lambda nn: make_models(nn).ResNet((1, 1, 1, 1), 3))
    assert list(our_net.state_dict()) == list(torch_net.state_dict())
    torch_net, our_net = twins(build_simplenet)
    assert repr(our_net) == repr(torch_net)
    assert "annotated_examples.models" in sys.modules
