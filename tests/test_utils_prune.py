"""Differential tests: annotated_nn.utils.prune on annotated_nn modules vs torch.nn.utils.prune on torch.nn twins."""

import copy
import inspect
import io
import math
import pickle

import pytest
import torch
import torch.nn.utils.prune as tprune

import annotated_nn
import annotated_nn.utils.prune as aprune
from helpers import norm, our_mro_as_torch, reset_global_hooks

PAIRS = ((torch.nn, tprune), (annotated_nn, aprune))
INF = float("inf")


# ---------------------------------------------------------------- helpers


def observe(scenario):
    """Run scenario(nn, prune) for both libraries from seed 0; return [torch outcome, ours].

    The global hook registries are shared by both libraries (issue 22): they are emptied before
    each run, as if each ran in a fresh process.
    """
    results = []
    for nn, prune in PAIRS:
        reset_global_hooks()
        torch.manual_seed(0)
        try:
            results.append(("ok", scenario(nn, prune)))
        except Exception as e:  # noqa: BLE001 - compared below
            results.append(("raise", type(e).__name__, norm(e)))
    return results


def same(a, b):
    """Deep equality; tensors must be bit-identical with the same dtype and shape."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (
            isinstance(a, torch.Tensor)
            and isinstance(b, torch.Tensor)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and a.requires_grad == b.requires_grad
            and torch.equal(a, b)
        )
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def assert_same(scenario):
    """Assert both libraries give the same outcome; return torch's."""
    theirs, ours = observe(scenario)
    assert same(theirs, ours), f"\n torch: {theirs!r}\n ours:  {ours!r}"
    return theirs


def hook_kinds(module):
    """Type names of the forward pre-hooks; a container lists its methods' type names."""
    kinds = []
    for hook in module._forward_pre_hooks.values():
        if type(hook).__name__ == "PruningContainer":
            kinds.append(("PruningContainer", [type(m).__name__ for m in hook]))
        else:
            kinds.append(type(hook).__name__)
    return kinds


def describe(module):
    """What a user sees of a (maybe pruned) module tree: state, names, types, hooks, attributes."""
    out = {
        "state_dict": dict(module.state_dict()),
        "parameters": [
            (n, type(p).__name__, p.detach().clone()) for n, p in module.named_parameters()
        ],
        "buffers": [(n, b.clone()) for n, b in module.named_buffers()],
        "repr": repr(module),
    }
    for name, sub in module.named_modules():
        out[f"hooks:{name}"] = hook_kinds(sub)
        for attr in ("weight", "bias"):
            if attr in sub.__dict__:
                value = sub.__dict__[attr]
                out[f"plain:{name}.{attr}"] = (type(value).__name__, value.detach().clone())
    return out


def forward_backward(model, x):
    """Output and the gradients of every parameter after a backward pass."""
    model.zero_grad()
    y = model(x)
    y.square().sum().backward()
    grads = [
        (n, p.grad.clone() if p.grad is not None else None) for n, p in model.named_parameters()
    ]
    return y.detach(), grads


def linear(nn):
    return nn.Linear(6, 4)


def conv(nn):
    return nn.Conv2d(3, 5, 3)


def cnn(nn):
    return nn.Sequential(
        nn.Conv2d(2, 4, 3), nn.ReLU(), nn.Conv2d(4, 6, 3), nn.Flatten(), nn.Linear(6 * 4 * 4, 3)
    )


# ---------------------------------------------------------------- public surface


def test_public_names_and_signatures():
    public = lambda mod: sorted(n for n in dir(mod) if not n.startswith("__"))  # noqa: E731
    assert public(aprune) == public(tprune)
    for name in public(tprune):
        theirs, ours = getattr(tprune, name), getattr(aprune, name)
        if inspect.isfunction(theirs):
            assert str(inspect.signature(ours)) == str(inspect.signature(theirs)), name
        if inspect.isclass(theirs) and theirs.__module__ == tprune.__name__:
            assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
            assert getattr(ours, "PRUNING_TYPE", None) == getattr(theirs, "PRUNING_TYPE", None)
            for attr in (
                "__init__",
                "__call__",
                "compute_mask",
                "apply",
                "prune",
                "remove",
                "apply_mask",
                "add_pruning_method",
                "__len__",
                "__iter__",
                "__getitem__",
            ):
                if hasattr(theirs, attr):
                    sig = lambda c: str(inspect.signature(getattr(c, attr)))  # noqa: E731
                    assert sig(ours) == sig(theirs), (name, attr)
            assert ours.__abstractmethods__ == theirs.__abstractmethods__


# ---------------------------------------------------------------- unstructured


AMOUNTS = [0, 1, 5, 24, 0.0, 0.3, 0.5, 1.0, True]


@pytest.mark.parametrize("method", ["random_unstructured", "l1_unstructured"])
@pytest.mark.parametrize("amount", AMOUNTS)
def test_unstructured_masks_linear(method, amount):
    def scenario(nn, prune):
        m = linear(nn)
        getattr(prune, method)(m, "weight", amount=amount)
        x = torch.randn(2, 6)
        return describe(m), forward_backward(m, x)

    assert_same(scenario)


@pytest.mark.parametrize("method", ["random_unstructured", "l1_unstructured"])
@pytest.mark.parametrize("name", ["weight", "bias"])
@pytest.mark.parametrize("amount", [2, 0.25, 1.0])
def test_unstructured_masks_conv(method, name, amount):
    def scenario(nn, prune):
        m = conv(nn)
        returned = getattr(prune, method)(m, name, amount)
        assert returned is m
        x = torch.randn(1, 3, 6, 6)
        return describe(m), forward_backward(m, x)

    assert_same(scenario)


def test_identity():
    def scenario(nn, prune):
        m = linear(nn)
        prune.identity(m, "bias")
        return describe(m), forward_backward(m, torch.randn(3, 6))

    assert_same(scenario)


# ---------------------------------------------------------------- structured


@pytest.mark.parametrize("dim", [0, 1, -1, 3, -4])
@pytest.mark.parametrize("amount", [0, 1, 2, 0.4, 1.0])
def test_random_structured_conv(dim, amount):
    def scenario(nn, prune):
        m = conv(nn)
        prune.random_structured(m, "weight", amount=amount, dim=dim)
        return describe(m), forward_backward(m, torch.randn(1, 3, 5, 5))

    assert_same(scenario)


@pytest.mark.parametrize("n", [1, 2, INF, -INF, "fro", 0.5])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("amount", [0, 2, 0.5, 1.0])
def test_ln_structured_conv(n, dim, amount):
    def scenario(nn, prune):
        m = conv(nn)
        prune.ln_structured(m, "weight", amount=amount, n=n, dim=dim)
        return describe(m), forward_backward(m, torch.randn(1, 3, 5, 5))

    assert_same(scenario)


@pytest.mark.parametrize("dim", [0, 1])
def test_structured_linear_with_importance_scores(dim):
    def scenario(nn, prune):
        m = linear(nn)
        scores = torch.randn(4, 6)
        prune.ln_structured(m, "weight", amount=1, n=1, dim=dim, importance_scores=scores)
        prune.l1_unstructured(m, "bias", amount=2, importance_scores=torch.randn(4))
        return describe(m), forward_backward(m, torch.randn(2, 6))

    assert_same(scenario)


# ---------------------------------------------------------------- iterative pruning


ITERATIVE = {
    "l1_then_random": [
        ("l1_unstructured", dict(amount=5)),
        ("random_unstructured", dict(amount=0.5)),
    ],
    "structured_after_unstructured": [
        ("l1_unstructured", dict(amount=20)),
        ("ln_structured", dict(amount=2, n=2, dim=0)),
        ("random_structured", dict(amount=1, dim=1)),
    ],
    "unstructured_after_structured": [
        ("random_structured", dict(amount=2, dim=0)),
        ("l1_unstructured", dict(amount=0.5)),
        ("random_unstructured", dict(amount=3)),
        ("identity", dict()),
    ],
    "negative_dim_and_zero_amounts": [
        ("ln_structured", dict(amount=1, n=INF, dim=-1)),
        ("ln_structured", dict(amount=0, n=1, dim=-1)),
        ("random_structured", dict(amount=0.0, dim=-3)),
        ("l1_unstructured", dict(amount=0)),
    ],
    "custom_mask_in_container": [
        ("l1_unstructured", dict(amount=10)),
        ("custom_from_mask", dict(mask=(torch.arange(5 * 3 * 3 * 3).reshape(5, 3, 3, 3) % 3 != 0))),
        ("l1_unstructured", dict(amount=1.0)),
    ],
}


@pytest.mark.parametrize("steps", list(ITERATIVE), ids=list(ITERATIVE))
def test_iterative_pruning(steps):
    def scenario(nn, prune):
        m = conv(nn)
        seen = []
        for fn, kwargs in ITERATIVE[steps]:
            getattr(prune, fn)(m, "weight", **kwargs)
            seen.append((hook_kinds(m), m.weight_mask.clone()))
        hook = next(iter(m._forward_pre_hooks.values()))
        shape = (len(hook), type(hook[0]).__name__, [type(h).__name__ for h in hook[1:]])
        return seen, shape, describe(m), forward_backward(m, torch.randn(2, 3, 5, 5))

    assert_same(scenario)


def test_container_keeps_identity_and_order_of_hooks():
    def scenario(nn, prune):
        m = linear(nn)
        m.register_forward_pre_hook(lambda mod, args: None)
        first = prune.L1Unstructured.apply(m, "weight", amount=3)
        prune.identity(m, "bias")
        second = prune.RandomUnstructured.apply(m, "weight", amount=3)
        third = prune.L1Unstructured.apply(m, "weight", amount=3)
        hooks = list(m._forward_pre_hooks.values())
        return (
            type(first).__name__,
            type(second).__name__,
            second is third,
            second[0] is first,
            [type(h).__name__ for h in hooks],
            hooks[-1] is third,
            type(second[-1]).__name__,
            [type(h).__name__ for h in second[0:2]],
            second._tensor_name,
        )

    assert_same(scenario)


# ---------------------------------------------------------------- global pruning


@pytest.mark.parametrize("method", ["L1Unstructured", "RandomUnstructured"])
@pytest.mark.parametrize("amount", [7, 0.3, 0, 1.0])
@pytest.mark.parametrize("scores", [False, True])
def test_global_unstructured(method, amount, scores):
    def scenario(nn, prune):
        model = cnn(nn)
        prune.l1_unstructured(model[2], "weight", amount=30)  # an existing mask takes part
        pairs = [
            (model[0], "weight"),
            (model[0], "bias"),
            (model[2], "weight"),
            (model[4], "weight"),
        ]
        importance = None
        if scores:
            importance = {
                (model[0], "weight"): torch.randn(4, 2, 3, 3),
                (model[4], "weight"): torch.randn(3, 96),
            }
        result = prune.global_unstructured(
            pairs,
            pruning_method=getattr(prune, method),
            importance_scores=importance,
            amount=amount,
        )
        return result, describe(model), forward_backward(model, torch.randn(2, 2, 8, 8))

    assert_same(scenario)


def test_global_unstructured_generator_and_errors():
    def generator(nn, prune):
        model = cnn(nn)
        pairs = ((model[i], "weight") for i in (0, 2))
        prune.global_unstructured(pairs, prune.L1Unstructured, amount=3)

    def structured(nn, prune):
        model = cnn(nn)
        prune.global_unstructured([(model[0], "weight")], prune.RandomStructured, amount=1)

    def not_iterable(nn, prune):
        prune.global_unstructured(5, prune.L1Unstructured, amount=1)

    def scores_not_dict(nn, prune):
        model = cnn(nn)
        prune.global_unstructured([(model[0], "weight")], prune.L1Unstructured, [1], amount=1)

    def too_many(nn, prune):
        model = cnn(nn)
        prune.global_unstructured([(model[0], "weight")], prune.L1Unstructured, amount=1000)

    for scenario in (generator, structured, not_iterable, scores_not_dict, too_many):
        outcome = assert_same(scenario)
        assert outcome[0] == "raise", scenario.__name__


# ---------------------------------------------------------------- custom_from_mask


@pytest.mark.parametrize("kind", ["int", "bool", "float", "double"])
def test_custom_from_mask(kind):
    masks = {
        "int": torch.tensor([0, 1, 0, 1]),
        "bool": torch.tensor([True, False, True, True]),
        "float": torch.tensor([1.0, 0.0, 0.0, 1.0]),
        "double": torch.tensor([1.0, 1.0, 0.0, 1.0], dtype=torch.float64),
    }

    def scenario(nn, prune):
        m = linear(nn)
        prune.custom_from_mask(m, "bias", mask=masks[kind])
        prune.custom_from_mask(m, "bias", masks["float"])
        return describe(m), forward_backward(m, torch.randn(2, 6))

    assert_same(scenario)


def test_custom_from_mask_wrong_shape_rolls_back():
    def scenario(nn, prune):
        m = linear(nn)
        try:
            prune.custom_from_mask(m, "weight", torch.ones(3))
        except AssertionError as e:
            return norm(e), describe(m), forward_backward(m, torch.randn(2, 6))

    assert_same(scenario)


# ---------------------------------------------------------------- training through the pruned module


def test_training_steps_and_state_dict_round_trip():
    def scenario(nn, prune):
        model = cnn(nn)
        prune.l1_unstructured(model[0], "weight", amount=0.4)
        prune.ln_structured(model[2], "weight", amount=2, n=2, dim=0)
        prune.random_unstructured(model[4], "bias", amount=1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        x = torch.randn(4, 2, 8, 8)
        outs = []
        for _ in range(3):
            opt.zero_grad()
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
            outs.append(loss.detach())
        sd = model.state_dict()
        twin = cnn(nn)
        prune.identity(twin[0], "weight")
        prune.identity(twin[2], "weight")
        prune.identity(twin[4], "bias")
        result = twin.load_state_dict(sd)
        return outs, describe(model), describe(twin), twin(x).detach(), repr(result)

    assert_same(scenario)


def test_pruned_state_dict_into_unpruned_model():
    def scenario(nn, prune):
        model = linear(nn)
        prune.l1_unstructured(model, "weight", amount=3)
        return linear(nn).load_state_dict(model.state_dict())

    assert assert_same(scenario)[0] == "raise"


def test_plain_attribute_and_hook_behavior():
    def scenario(nn, prune):
        m = linear(nn)
        orig = m.weight
        prune.l1_unstructured(m, "weight", amount=4)
        with torch.no_grad():
            m.weight_orig.add_(1.0)
        before = m.weight.clone()
        m(torch.randn(1, 6))  # the pre-hook recomputes `weight`
        return (
            m.weight_orig is orig,
            "weight" in m._parameters,
            type(m.weight).__name__,
            m.weight.grad_fn is not None,
            before,
            m.weight.clone(),
            sorted(n for n in dir(m) if "weight" in n),
        )

    assert_same(scenario)


# ---------------------------------------------------------------- remove and is_pruned


@pytest.mark.parametrize("times", [1, 2])
def test_remove_makes_pruning_permanent(times):
    def scenario(nn, prune):
        model = cnn(nn)
        for _ in range(times):
            prune.l1_unstructured(model[0], "weight", amount=5)
            prune.random_unstructured(model[0], "bias", amount=1)
        orig = model[0].weight_orig
        pruned_before = prune.is_pruned(model)
        assert prune.remove(model[0], "weight") is model[0]
        middle = prune.is_pruned(model)
        prune.remove(model[0], "bias")
        return (
            pruned_before,
            middle,
            prune.is_pruned(model),
            model[0].weight is orig,
            describe(model),
            forward_backward(model, torch.randn(2, 2, 8, 8)),
        )

    assert_same(scenario)


def test_method_remove_leaves_hook_in_place():
    def scenario(nn, prune):
        m = linear(nn)
        method = prune.L1Unstructured.apply(m, "weight", amount=2)
        method.remove(m)
        return describe(m), prune.is_pruned(m)

    assert_same(scenario)


def test_remove_errors():
    def not_pruned(nn, prune):
        prune.remove(linear(nn), "weight")

    def twice(nn, prune):
        m = linear(nn)
        prune.l1_unstructured(m, "weight", amount=2)
        prune.remove(m, "weight")
        prune.remove(m, "weight")

    def other_name(nn, prune):
        m = linear(nn)
        prune.l1_unstructured(m, "weight", amount=2)
        prune.remove(m, "bias")

    def method_without_name(nn, prune):
        method = prune.Identity()
        method._tensor_name = None
        method.remove(linear(nn))

    def method_never_applied(nn, prune):
        prune.Identity().remove(linear(nn))

    for scenario in (not_pruned, twice, other_name, method_without_name, method_never_applied):
        assert assert_same(scenario)[0] == "raise", scenario.__name__


def test_is_pruned_ignores_other_hooks():
    def scenario(nn, prune):
        model = cnn(nn)
        model[2].register_forward_pre_hook(lambda mod, args: None)
        states = [prune.is_pruned(model)]
        prune.identity(model[2], "bias")
        states.append(prune.is_pruned(model))
        states.append(prune.is_pruned(model[0]))
        return states

    assert_same(scenario)


# ---------------------------------------------------------------- errors


NO_MODULE = lambda nn: None  # noqa: E731
ERRORS = {
    # case: (build the module, then act on it)
    "negative_int": (linear, lambda m, p: p.l1_unstructured(m, "weight", amount=-1)),
    "float_above_one": (linear, lambda m, p: p.random_unstructured(m, "weight", amount=1.5)),
    "negative_float": (conv, lambda m, p: p.random_structured(m, "weight", amount=-0.1, dim=0)),
    "string_amount": (conv, lambda m, p: p.ln_structured(m, "weight", "0.3", n=1, dim=0)),
    "tensor_amount": (linear, lambda m, p: p.l1_unstructured(m, "weight", torch.tensor(0.3))),
    "missing_tensor": (linear, lambda m, p: p.l1_unstructured(m, "nope", amount=1)),
    "too_many_int": (linear, lambda m, p: p.l1_unstructured(m, "weight", amount=25)),
    "too_many_channels": (conv, lambda m, p: p.ln_structured(m, "weight", 6, n=2, dim=0)),
    "structured_on_bias": (linear, lambda m, p: p.random_structured(m, "bias", 1, dim=0)),
    "dim_too_large": (conv, lambda m, p: p.ln_structured(m, "weight", 1, n=2, dim=4)),
    "dim_too_small": (conv, lambda m, p: p.random_structured(m, "weight", 1, dim=-5)),
    "bad_norm": (conv, lambda m, p: p.ln_structured(m, "weight", 1, n="nuc", dim=0)),
    "scores_shape": (linear, lambda m, p: p.l1_unstructured(m, "weight", 1, torch.ones(3))),
    "prune_a_buffer": (
        lambda nn: nn.BatchNorm1d(3),
        lambda m, p: p.l1_unstructured(m, "running_mean", 1),
    ),
    "prune_none_bias": (lambda nn: nn.Linear(2, 2, bias=False), lambda m, p: p.identity(m, "bias")),
    "lazy_parameter": (lambda nn: nn.LazyLinear(3), lambda m, p: p.identity(m, "weight")),
    "abstract_base": (NO_MODULE, lambda m, p: p.BasePruningMethod()),
    "container_of_two": (NO_MODULE, lambda m, p: p.PruningContainer(p.Identity(), p.Identity())),
    "container_of_none": (NO_MODULE, lambda m, p: p.PruningContainer(None)),
    "apply_mask_unset": (linear, lambda m, p: p.Identity().apply_mask(m)),
    "prune_scores_shape": (
        NO_MODULE,
        lambda m, p: p.L1Unstructured(1).prune(torch.ones(3), None, torch.ones(2)),
    ),
}


@pytest.mark.parametrize("case", list(ERRORS), ids=list(ERRORS))
def test_errors_and_state_after_them(case):
    build, act = ERRORS[case]

    def scenario(nn, prune):
        module = build(nn)
        try:
            act(module, prune)
        except Exception as e:  # noqa: BLE001 - compared below
            return type(e).__name__, norm(e), None if module is None else describe(module)
        return "no error"

    assert assert_same(scenario)[1] != "no error"


def test_container_errors():
    def wrong_type(nn, prune):
        container = prune.PruningContainer(prune.Identity.apply(linear(nn), "weight"))
        container.add_pruning_method("not a method")

    def wrong_name(nn, prune):
        m = linear(nn)
        container = prune.PruningContainer(prune.Identity.apply(m, "weight"))
        other = prune.L1Unstructured(amount=1)
        other._tensor_name = "bias"
        container.add_pruning_method(other)

    def none_is_appended(nn, prune):
        container = prune.PruningContainer(prune.Identity.apply(linear(nn), "weight"))
        container.add_pruning_method(None)
        return len(container), container[-1]

    def structured_without_dim(nn, prune):
        class NoDim(prune.BasePruningMethod):
            PRUNING_TYPE = "structured"

            def compute_mask(self, t, default_mask):
                return default_mask

        m = linear(nn)
        prune.identity(m, "weight")
        NoDim.apply(m, "weight")

    def unknown_type(nn, prune):
        class Odd(prune.BasePruningMethod):
            PRUNING_TYPE = "sideways"

            def compute_mask(self, t, default_mask):
                return default_mask

        m = linear(nn)
        prune.identity(m, "weight")
        Odd.apply(m, "weight")
        return describe(m)

    def two_hooks_by_hand(nn, prune):
        m = linear(nn)
        method = prune.Identity.apply(m, "weight")
        m.register_forward_pre_hook(method)
        prune.identity(m, "weight")

    outcomes = [
        assert_same(s)
        for s in (
            wrong_type,
            wrong_name,
            none_is_appended,
            structured_without_dim,
            unknown_type,
            two_hooks_by_hand,
        )
    ]
    assert [o[0] for o in outcomes] == ["raise", "raise", "ok", "raise", "raise", "raise"]


def test_failed_second_pruning_drops_old_hook_like_torch():
    def scenario(nn, prune):
        m = linear(nn)
        prune.l1_unstructured(m, "weight", amount=3)
        try:
            prune.l1_unstructured(m, "weight", amount=100)
        except ValueError as e:
            return norm(e), describe(m), prune.is_pruned(m)

    assert_same(scenario)


# ---------------------------------------------------------------- functional prune() and mask helpers


def test_prune_method_and_container_compute_mask():
    def scenario(nn, prune):
        t = torch.randn(4, 5)
        scores = torch.randn(4, 5)
        default = (torch.rand(4, 5) > 0.3).float()
        results = [
            prune.L1Unstructured(0.5).prune(t),
            prune.L1Unstructured(3).prune(t, default_mask=default, importance_scores=scores),
            prune.RandomUnstructured(2).prune(t, default),
            prune.LnStructured(2, n=1, dim=1).prune(t),
            prune.RandomStructured(0.5, dim=0).prune(t, default),
            prune.CustomFromMask(default).prune(t),
            prune.Identity().prune(t, default),
        ]
        container = prune.PruningContainer()
        container._tensor_name = "x"
        for method in (prune.L1Unstructured(3), prune.LnStructured(1, n=2, dim=0)):
            method._tensor_name = "x"
            container.add_pruning_method(method)
            results.append(container.compute_mask(t, default.clone()))
        return results

    assert_same(scenario)


def test_private_helpers():
    def scenario(nn, prune):
        t = torch.randn(2, 3, 4)
        return [
            [prune._compute_nparams_toprune(a, 5) for a in (0, 3, 0.5, 0.3, 0.7, 1.0, True)],
            [prune._compute_norm(t, n, d) for n in (1, 2, INF, -INF, "fro") for d in (0, 1, -1)],
            [prune._validate_pruning_amount(a, 4) for a in (4, 0.9)],
        ]

    assert_same(scenario)
    for call in (
        lambda p: p._validate_pruning_amount(5, 4),
        lambda p: p._validate_pruning_amount_init(None),
        lambda p: p._validate_pruning_amount_init(2.0),
        lambda p: p._validate_structured_pruning(torch.ones(3)),
        lambda p: p._validate_pruning_dim(torch.ones(2, 2), 2),
    ):
        outcome = assert_same(lambda nn, p: call(p))
        assert outcome[0] == "raise"


# ---------------------------------------------------------------- copies


def test_deepcopy_of_pruned_module():
    def with_history(nn, prune):
        m = linear(nn)
        prune.l1_unstructured(m, "weight", amount=3)
        copy.deepcopy(m)

    def without_history(nn, prune):
        m = linear(nn)
        with torch.no_grad():
            prune.l1_unstructured(m, "weight", amount=3)
            prune.random_unstructured(m, "weight", amount=3)
        clone = copy.deepcopy(m)
        hook = next(iter(clone._forward_pre_hooks.values()))
        x = torch.randn(2, 6)
        return (
            describe(clone),
            hook_kinds(clone),
            hook is not next(iter(m._forward_pre_hooks.values())),
            clone(x).detach(),
            forward_backward(clone, x),
        )

    assert assert_same(with_history)[0] == "raise"
    assert assert_same(without_history)[0] == "ok"


def test_pickle_and_torch_save_of_pruned_module():
    def scenario(nn, prune):
        m = linear(nn)
        with torch.no_grad():
            prune.ln_structured(m, "weight", amount=1, n=2, dim=0)
        clone = pickle.loads(pickle.dumps(m))
        buffer = io.BytesIO()
        torch.save(m, buffer)
        buffer.seek(0)
        loaded = torch.load(buffer, weights_only=False)
        x = torch.randn(2, 6)
        return describe(clone), describe(loaded), clone(x).detach(), loaded(x).detach()

    assert_same(scenario)


# ---------------------------------------------------------------- a whole model


def test_whole_model_pruning_matches_twin():
    def scenario(nn, prune):
        model = cnn(nn)
        prune.ln_structured(model[0], "weight", amount=0.25, n=1, dim=0)
        prune.random_structured(model[2], "weight", amount=1, dim=1)
        prune.global_unstructured(
            [(model[0], "weight"), (model[2], "weight"), (model[4], "weight")],
            pruning_method=prune.L1Unstructured,
            amount=0.2,
        )
        prune.random_unstructured(model[4], "bias", amount=0.34)
        x = torch.randn(3, 2, 8, 8)
        first = forward_backward(model, x)
        for name in ("weight",):
            prune.remove(model[0], name)
        return first, describe(model), forward_backward(model, x), prune.is_pruned(model)

    assert_same(scenario)


def test_registration_hooks_see_the_same_calls():
    def scenario(nn, prune):
        module_api = nn.modules.module
        calls = []
        module_api.register_module_parameter_registration_hook(
            lambda m, name, p: calls.append(("parameter", type(m).__name__, name))
        )
        module_api.register_module_buffer_registration_hook(
            lambda m, name, b: calls.append(("buffer", type(m).__name__, name))
        )
        m = linear(nn)
        prune.l1_unstructured(m, "weight", amount=2)
        prune.l1_unstructured(m, "weight", amount=2)
        try:
            prune.l1_unstructured(m, "bias", amount=9)
        except ValueError:
            pass
        del m.weight  # `remove` copes with the plain attribute being gone
        prune.remove(m, "weight")
        return calls, describe(m)

    assert_same(scenario)
