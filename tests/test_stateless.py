"""annotated_nn.utils.stateless.functional_call vs torch.func.functional_call (on the torch.nn twin)."""

import pytest
import torch
import torch.func

import annotated_nn
from annotated_nn.utils.stateless import _functional_call, _reparametrize_module, functional_call

NAMESPACES = [pytest.param(torch.nn, id="torch"), pytest.param(annotated_nn, id="annotated")]


def call_for(nn):
    """The functional_call to test for a namespace: torch.func's for torch.nn, ours for annotated_nn."""
    return torch.func.functional_call if nn is torch.nn else functional_call


def build(nn, kind):
    """Build a small model of `kind` in namespace `nn` from a fixed seed."""
    torch.manual_seed(0)
    if kind == "linear":
        return nn.Linear(3, 2)
    if kind == "seq_bn":
        return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    if kind == "tied":

        class Tied(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(3, 3)
                self.b = nn.Linear(3, 3)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))

        return Tied()
    if kind == "tied3":

        class Tied3(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(3, 3, bias=False)
                self.b = nn.Linear(3, 3, bias=False)
                self.c = nn.Linear(3, 3, bias=False)
                self.b.weight = self.a.weight
                self.c.weight = self.a.weight

            def forward(self, x):
                return self.c(self.b(self.a(x)))

        return Tied3()
    if kind == "kwargs":

        class WithKwargs(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 2)
                self.register_buffer("offset", torch.ones(2))

            def forward(self, x, *, scale=1.0, fail=False):
                if fail:
                    raise ValueError("forward failed on purpose")
                return self.lin(x) * scale + self.offset

        return WithKwargs()
    if kind == "counter":

        class Counter(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("count", torch.zeros(()))

            def forward(self, x):
                self.count = self.count + 1
                return x + self.count

        return Counter()
    raise ValueError(kind)


def run_both(fn):
    """Run fn(nn, call) for torch.nn and annotated_nn; return both results or (type, message) of errors."""
    results = []
    for nn in (torch.nn, annotated_nn):
        try:
            results.append(("ok", fn(nn, call_for(nn))))
        except Exception as exc:  # noqa: BLE001 - compared below
            results.append(("error", (type(exc), str(exc))))
    return results


def assert_same(results):
    (kind_t, torch_value), (kind_a, ours) = results
    assert kind_t == kind_a, results
    if kind_t == "error":
        assert torch_value == ours
    else:
        torch.testing.assert_close(ours, torch_value, rtol=0, atol=0)


@pytest.mark.parametrize("kind", ["linear", "seq_bn"])
def test_outputs_match_and_state_is_restored(kind):
    x = torch.randn(5, 3)

    def fn(nn, call):
        model = build(nn, kind)
        before = {n: t for n, t in list(model.named_parameters()) + list(model.named_buffers())}
        new = {n: torch.randn_like(t) if t.is_floating_point() else t for n, t in before.items()}
        out = call(model, new, (x,))
        after = {n: t for n, t in list(model.named_parameters()) + list(model.named_buffers())}
        assert list(after) == list(before)
        assert all(after[n] is before[n] for n in before)
        return out

    torch.manual_seed(1)
    results = run_both(fn)
    assert_same(results)


def test_partial_dict_keeps_other_parameters():
    x = torch.randn(4, 3)
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), {"bias": torch.zeros(2)}, x)))


def test_args_forms_and_kwargs():
    x = torch.randn(4, 3)
    params = {"lin.weight": torch.ones(2, 3)}
    assert_same(run_both(lambda nn, call: call(build(nn, "kwargs"), params, x, {"scale": 2.0})))
    assert_same(run_both(lambda nn, call: call(build(nn, "kwargs"), params, (x,), {"scale": 3.0})))
    assert_same(
        run_both(lambda nn, call: call(build(nn, "kwargs"), params, args=None, kwargs={"x": x}))
    )


def test_restored_after_forward_raises():
    x = torch.randn(4, 3)

    def fn(nn, call):
        model = build(nn, "kwargs")
        weight, offset = model.lin.weight, model.offset
        try:
            call(
                model,
                {"lin.weight": torch.zeros(2, 3), "offset": torch.zeros(2), "extra": torch.ones(1)},
                x,
                {"fail": True},
            )
        finally:
            assert model.lin.weight is weight and model.offset is offset
            assert "weight" in model.lin._parameters and "offset" in model._buffers
            assert not hasattr(model, "extra")

    assert_same(run_both(fn))


def test_missing_name_becomes_temporary_attribute():
    def fn(nn, call):
        model = build(nn, "linear")
        seen = []
        model.register_forward_pre_hook(lambda m, args: seen.append(m.extra.clone()))
        call(model, {"extra": torch.full((1,), 7.0)}, torch.randn(1, 3))
        return torch.stack([seen[0], torch.tensor([float(hasattr(model, "extra"))])])

    assert_same(run_both(fn))


@pytest.mark.parametrize("tie_weights", [True, False])
def test_tie_weights(tie_weights):
    x = torch.randn(2, 3)
    assert_same(
        run_both(
            lambda nn, call: call(
                build(nn, "tied"), {"a.weight": torch.eye(3)}, x, tie_weights=tie_weights
            )
        )
    )


def test_tied_same_value_twice_ok_different_values_error():
    x = torch.randn(2, 3)
    w = torch.eye(3)
    assert_same(
        run_both(lambda nn, call: call(build(nn, "tied"), {"a.weight": w, "b.weight": w}, x))
    )
    assert_same(
        run_both(lambda nn, call: call(build(nn, "tied"), {"a.weight": w, "b.weight": w * 2}, x))
    )
    assert_same(
        run_both(
            lambda nn, call: call(
                build(nn, "tied"), {"a.weight": w, "b.weight": w * 2}, x, tie_weights=False
            )
        )
    )
    # Three aliases, two given: torch's check walks the whole group (KeyError); ours must match.
    assert_same(
        run_both(lambda nn, call: call(build(nn, "tied3"), {"a.weight": w, "b.weight": w * 2}, x))
    )


@pytest.mark.parametrize(
    "params",
    [
        {"weight": torch.ones(2, 3)},
        {
            "weight": torch.ones(2, 3),
            "bias": torch.ones(2),
            "foo": torch.ones(1),
            "bar.baz": torch.ones(1),
        },
        {"bias": torch.ones(2), "zzz": torch.ones(1)},
    ],
)
def test_strict_errors(params):
    x = torch.randn(2, 3)
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), params, x, strict=True)))


def test_strict_with_tied_weights_accepts_one_name():
    x = torch.randn(2, 3)
    params = {"a.weight": torch.eye(3), "a.bias": torch.zeros(3), "b.bias": torch.zeros(3)}
    assert_same(run_both(lambda nn, call: call(build(nn, "tied"), params, x, strict=True)))
    assert_same(
        run_both(
            lambda nn, call: call(build(nn, "tied"), params, x, strict=True, tie_weights=False)
        )
    )


def test_tuple_of_dicts_and_errors():
    x = torch.randn(2, 3)
    split = ({"weight": torch.ones(2, 3)}, {"bias": torch.zeros(2)})
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), split, x)))
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), list(split), x)))
    duplicate = (
        {"weight": torch.ones(2, 3)},
        {"weight": torch.zeros(2, 3), "bias": torch.zeros(2)},
    )
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), duplicate, x)))
    assert_same(
        run_both(lambda nn, call: call(build(nn, "linear"), ({"weight": torch.ones(2, 3)}, 3), x))
    )
    assert_same(run_both(lambda nn, call: call(build(nn, "linear"), 3, x)))


def test_reassigned_buffer_written_back_to_user_dict():
    def fn(nn, call):
        model = build(nn, "counter")
        state = {"count": torch.tensor(5.0)}
        out = call(model, state, torch.zeros(()))
        return torch.stack([out, state["count"], model.count])

    assert_same(run_both(fn))


def test_grad_transform_through_functional_call():
    x = torch.randn(6, 3)

    def fn(nn, call):
        model = build(nn, "linear")
        params = {k: v.detach() for k, v in model.named_parameters()}
        grads = torch.func.grad(lambda p: call(model, p, x).pow(2).sum())(params)
        return [grads["weight"], grads["bias"]]

    assert_same(run_both(fn))


def test_dataparallel_rejected():
    model = annotated_nn.DataParallel(build(annotated_nn, "linear"))
    torch_model = torch.nn.DataParallel(build(torch.nn, "linear"))
    with pytest.raises(RuntimeError) as ours:
        functional_call(model, {}, torch.randn(1, 3))
    with pytest.raises(RuntimeError) as theirs:
        torch.func.functional_call(torch_model, {}, torch.randn(1, 3))
    assert str(ours.value) == str(theirs.value)


def test_private_helpers_match_torch():
    """_functional_call and _reparametrize_module(stack_weights=...) behave like torch.nn.utils.stateless's."""
    import torch.nn.utils.stateless as torch_stateless

    x = torch.randn(2, 3)
    ours_model, torch_model = build(annotated_nn, "linear"), build(torch.nn, "linear")
    params = {"weight": torch.ones(2, 3)}
    torch.testing.assert_close(
        _functional_call(ours_model, params, x),
        torch_stateless._functional_call(torch_model, params, x),
    )
    for model, reparam in (
        (ours_model, _reparametrize_module),
        (torch_model, torch_stateless._reparametrize_module),
    ):
        weight = model.weight
        with reparam(model, {"weight": torch.zeros(2, 3)}, stack_weights=True):
            assert torch.equal(model.weight, torch.zeros(2, 3))
        assert model.weight is weight
