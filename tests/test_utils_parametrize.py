"""annotated_nn.utils.parametrize vs torch.nn.utils.parametrize, run on torch.nn / annotated_nn twins."""

import copy
import enum
import io
import pickle

import pytest
import torch
import torch.nn as tnn
import torch.nn.utils.parametrize as tP
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from torch._library.opaque_object import register_opaque_type
from torch._opaque_base import OpaqueBase

import annotated_nn as ann
import annotated_nn.utils.parametrize as aP
from helpers import norm, outcome

# (namespace, parametrize module) for each side
SIDES = {"torch": (tnn, tP), "ours": (ann, aP)}


class Handle(OpaqueBase):
    """A reference-type opaque object: right_inverse may return it among the originals."""

    def __init__(self, scale):
        self.scale = scale


register_opaque_type(Handle, typ="reference")


class Color(enum.Enum):
    """Enums are value-type opaque objects: refused among the originals."""

    RED = 1


def params(nn):
    """Parametrization classes written against namespace `nn` (same names on both sides)."""

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()

    class Skew(nn.Module):
        def forward(self, X):
            A = X.triu(1)
            return A - A.transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu(1)

    class Orthogonal(nn.Module):
        # matrix_exp of a skew matrix; no usable right_inverse (NotImplementedError path)
        def forward(self, X):
            A = X.triu(1)
            return torch.matrix_exp(A - A.transpose(-1, -2))

        def right_inverse(self, A):
            raise NotImplementedError

    class Scale(nn.Module):
        def __init__(self, factor=2.0):
            super().__init__()
            self.factor = factor

        def forward(self, X):
            return X * self.factor

        def right_inverse(self, X):
            return X / self.factor

    class NoInverse(nn.Module):
        def forward(self, X):
            return X + 1

    class Sum2(nn.Module):
        # two originals: forward(a, b) = a + b, right_inverse splits in halves
        def forward(self, a, b):
            return a + b

        def right_inverse(self, X):
            return (X / 2, X / 2)

    class RankOne(nn.Module):
        def forward(self, x, y):
            return x.unsqueeze(-1) @ y.unsqueeze(-2)

        def right_inverse(self, Z):
            U, S, Vh = torch.linalg.svd(Z, full_matrices=False)
            s0_sqrt = S[..., 0:1].sqrt()
            return U[..., :, 0] * s0_sqrt, Vh[..., 0, :] * s0_sqrt

    class Trunc(nn.Module):
        # changes the shape (only allowed with unsafe=True)
        def forward(self, X):
            return X[..., :2]

    class ToDouble(nn.Module):
        def forward(self, X):
            return X.double()

    class Returns(nn.Module):
        # forward returns / right_inverse returns whatever it was built with
        def __init__(self, fwd=None, inv=None):
            super().__init__()
            self.fwd, self.inv = fwd, inv

        def forward(self, *X):
            return self.fwd(*X) if self.fwd else X[0]

        def right_inverse(self, X):
            return self.inv(X)

    class Counting(nn.Module):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def forward(self, X):
            self.calls += 1
            return X * 3

    class UsesWeightTwice(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            return x @ self.lin.weight @ self.lin.weight.T

    return {k: v for k, v in locals().items() if isinstance(v, type)}


def tensor_summary(t):
    """A comparable description of a tensor (or None)."""
    if t is None:
        return None
    return (
        type(t).__name__ in ("Parameter",),
        str(t.dtype),
        tuple(t.shape),
        t.requires_grad,
        t.detach().tolist(),
    )


def module_summary(m):
    """What a user sees of a module: class name, repr, names, state_dict, parametrized-ness."""
    P = aP if isinstance(m, ann.Module) else tP
    return {
        "type": type(m).__name__,
        "type_before": P.type_before_parametrizations(m).__name__,
        "repr": outcome(lambda: norm(repr(m))),  # extra_repr may read a failing property
        "params": [(n, tensor_summary(p)) for n, p in m.named_parameters()],
        "buffers": [(n, tensor_summary(b)) for n, b in m.named_buffers()],
        "state_dict": [(k, tensor_summary(v)) for k, v in m.state_dict().items()],
        "modules": [(n, type(s).__name__) for n, s in m.named_modules()],
        "is_parametrized": P.is_parametrized(m),
    }


def assert_twins(scenario):
    """Run scenario(nn, P, classes) on both sides; results must be equal."""
    results = {}
    for side, (nn, P) in SIDES.items():
        torch.manual_seed(0)
        results[side] = scenario(nn, P, params(nn))
    assert results["ours"] == results["torch"], (
        f"\n torch: {results['torch']!r}\n ours:  {results['ours']!r}"
    )
    return results["ours"]


# --------------------------------------------------------------------------------------------
# outputs, gradients, state_dict, repr, named_parameters


@pytest.mark.parametrize("layer", ["linear", "conv"])
@pytest.mark.parametrize("kind", ["Symmetric", "Skew", "Orthogonal", "Scale", "RankOne"])
def test_forward_backward_state(layer, kind):
    def scenario(nn, P, C):
        m = nn.Linear(4, 4) if layer == "linear" else nn.Conv2d(2, 3, 3)
        x = torch.randn(2, 4) if layer == "linear" else torch.randn(1, 2, 5, 5)
        returned = P.register_parametrization(m, "weight", C[kind]())
        out = m(x)
        out.sum().backward()
        grads = [(n, p.grad.tolist()) for n, p in m.named_parameters()]
        return returned is m, out.tolist(), grads, module_summary(m), tensor_summary(m.weight)

    assert_twins(scenario)


def test_repr_exact_text():
    m = nn_linear_with_two()
    assert repr(m) == (
        "ParametrizedLinear(\n"
        "  in_features=3, out_features=3, bias=True\n"
        "  (parametrizations): ModuleDict(\n"
        "    (weight): ParametrizationList(\n"
        "      (0): Symmetric()\n"
        "      (1): Scale()\n"
        "    )\n"
        "  )\n"
        ")"
    )
    assert isinstance(m.parametrizations, ann.ModuleDict)
    assert isinstance(m.parametrizations.weight, ann.ModuleList)
    assert type(m).__module__ == "annotated_nn.utils.parametrize"
    assert type(m).__bases__ == (ann.Linear,)


def nn_linear_with_two():
    C = params(ann)
    m = ann.Linear(3, 3)
    aP.register_parametrization(m, "weight", C["Symmetric"]())
    aP.register_parametrization(m, "weight", C["Scale"]())
    return m


def test_training_mode_follows_module():
    def scenario(nn, P, C):
        m = nn.Linear(3, 3).eval()
        p = C["Scale"]()
        P.register_parametrization(m, "weight", p)
        return p.training, m.parametrizations.training, m.parametrizations.weight.training

    assert_twins(scenario)


# --------------------------------------------------------------------------------------------
# errors


def _errors(nn, P, C):
    """Every error path; each entry is what a user sees."""
    R = C["Returns"]
    results = {}

    def run(key, fn):
        torch.manual_seed(0)
        results[key] = outcome(fn)
        if results[key][0] == "ok":
            m = results[key][1]
            results[key] = ("ok", module_summary(m) if hasattr(m, "state_dict") else m)

    lin = lambda: nn.Linear(3, 3)  # noqa: E731
    reg = P.register_parametrization

    run("missing name", lambda: reg(lin(), "foo", C["Scale"]()))
    run("non-tensor name", lambda: reg(lin(), "training", C["Scale"]()))
    run("submodule name", lambda: reg(nn.Sequential(lin()), "0", C["Scale"]()))
    run("bias=False", lambda: reg(nn.Linear(3, 3, bias=False), "bias", C["Scale"]()))
    run("not a module", lambda: reg(lin(), "weight", lambda x: x))
    run("shape change", lambda: reg(lin(), "weight", C["Trunc"]()))
    run("shape change unsafe", lambda: reg(lin(), "weight", C["Trunc"](), unsafe=True))
    run("dtype change", lambda: reg(lin(), "weight", C["ToDouble"]()))
    run("dtype change unsafe", lambda: reg(lin(), "weight", C["ToDouble"](), unsafe=True))
    run("fwd not tensor", lambda: reg(lin(), "weight", R(fwd=lambda X: 3.0, inv=lambda X: X)))
    run("inv int", lambda: reg(lin(), "weight", R(inv=lambda X: 3)))
    run(
        "inv list of int",
        lambda: reg(lin(), "weight", R(fwd=lambda *a: a[0], inv=lambda X: [X, 1])),
    )
    run(
        "inv dtype",
        lambda: reg(lin(), "weight", R(fwd=lambda X: X.float(), inv=lambda X: X.double())),
    )
    run("inv device", lambda: reg(lin(), "weight", R(inv=lambda X: X.to("meta"))))
    run(
        "inv list ok", lambda: reg(lin(), "weight", R(fwd=lambda a, b: a + b, inv=lambda X: [X, X]))
    )
    run(
        "inv tuple shape",
        lambda: reg(lin(), "weight", R(fwd=lambda a, b: a, inv=lambda X: (X[0], X))),
    )
    run("list direct", lambda: P.ParametrizationList([], torch.zeros(2)))

    def appended(p, unsafe=False):
        m = lin()
        reg(m, "weight", C["Scale"]())
        return reg(m, "weight", p, unsafe=unsafe)

    run("append fwd not tensor", lambda: appended(R(fwd=lambda X: "x", inv=lambda X: X)))
    run("append fwd dtype", lambda: appended(C["ToDouble"]()))
    run("append fwd shape", lambda: appended(C["Trunc"]()))
    run("append fwd shape unsafe", lambda: appended(C["Trunc"](), unsafe=True))
    run("append inv not tensor", lambda: appended(R(inv=lambda X: (X, X))))
    run("append inv dtype", lambda: appended(R(inv=lambda X: X.double())))
    run("append inv shape", lambda: appended(R(inv=lambda X: X[:1])))
    run("append inv NotImplemented", lambda: appended(C["Orthogonal"]()))
    run("append no inverse", lambda: appended(C["NoInverse"]()))

    def remove(m, name, leave=True):
        return P.remove_parametrizations(m, name, leave_parametrized=leave)

    run("remove unparametrized", lambda: remove(lin(), "weight"))

    def remove_other():
        m = lin()
        reg(m, "weight", C["Scale"]())
        return remove(m, "bias")

    run("remove other name", remove_other)

    def remove_tuple(leave):
        m = lin()
        reg(m, "weight", C["Sum2"]())
        return remove(m, "weight", leave)

    run("remove tuple leave=False", lambda: remove_tuple(False))
    run("remove tuple leave=True", lambda: remove_tuple(True))

    def remove_unsafe(p, leave, buffer=False):
        m = lin()
        if buffer:
            m.register_buffer("buf", torch.randn(3, 3))
        name = "buf" if buffer else "weight"
        reg(m, name, p, unsafe=True)
        return remove(m, name, leave)

    # leave_parametrized=True needs set_() of the new value: shape may change, dtype may not
    run("remove unsafe shape leave", lambda: remove_unsafe(C["Trunc"](), True))
    run("remove unsafe shape no-leave", lambda: remove_unsafe(C["Trunc"](), False))
    run("remove unsafe dtype leave", lambda: remove_unsafe(C["ToDouble"](), True))
    run("remove unsafe dtype leave buf", lambda: remove_unsafe(C["ToDouble"](), True, True))
    run("remove unsafe dtype no-leave", lambda: remove_unsafe(C["ToDouble"](), False))

    def remove_original_none():
        m = lin()
        reg(m, "weight", C["Scale"]())
        m.parametrizations.weight.original = None
        return remove(m, "weight")

    run("remove original None", remove_original_none)

    def assign(p, value, unsafe=False):
        m = lin()
        reg(m, "weight", p, unsafe=unsafe)
        m.weight = value
        return m

    run("assign no inverse", lambda: assign(C["NoInverse"](), torch.ones(3, 3)))

    def after_first(good, bad):
        """A right_inverse that behaves at registration and misbehaves on later assignments."""
        calls = []

        def inv(X):
            calls.append(1)
            return good(X) if len(calls) == 1 else bad(X)

        return inv

    one = lambda X: X  # noqa: E731
    two = lambda X: (X, X)  # noqa: E731
    add = lambda a, b: a + b  # noqa: E731
    value = torch.ones(3, 3)
    run("assign inv wrong type", lambda: assign(R(inv=after_first(one, lambda X: 1)), value))
    run(
        "assign inv wrong dtype",
        lambda: assign(R(inv=after_first(one, lambda X: X.double())), value),
    )
    run("assign parameter", lambda: assign(C["Scale"](), nn.Parameter(torch.ones(3, 3))))
    run("assign ok", lambda: assign(C["Symmetric"](), torch.arange(9.0).reshape(3, 3)))
    run("assign tuple ok", lambda: assign(C["Sum2"](), value))
    run("assign tuple not seq", lambda: assign(R(add, after_first(two, lambda X: 5)), value))
    run("assign tuple length", lambda: assign(R(add, after_first(two, lambda X: (X,))), value))
    run(
        "assign tuple dtype",
        lambda: assign(R(add, after_first(two, lambda X: (X, X.double()))), value),
    )
    run("assign tuple elem", lambda: assign(R(add, after_first(two, lambda X: (X, "s"))), value))
    scaled = lambda a, h: a * h.scale  # noqa: E731
    with_handle = lambda scale: lambda X: (X, Handle(scale))  # noqa: E731

    def opaque_reference():
        m = assign(R(scaled, after_first(with_handle(2.0), with_handle(3.0))), value)
        plist = m.parametrizations.weight
        return m.weight.tolist(), plist.original1.scale, plist.ntensors, module_summary(m)

    run("opaque reference", opaque_reference)
    run(
        "opaque value at registration",
        lambda: reg(lin(), "weight", R(scaled, lambda X: (X, Color.RED))),
    )
    run(
        "opaque value at assignment",
        lambda: assign(R(scaled, after_first(with_handle(2.0), lambda X: (X, Color.RED))), value),
    )
    run("assign shape unsafe", lambda: assign(C["Scale"](), torch.ones(2, 5), unsafe=True))
    return results


def test_errors():
    results = assert_twins(_errors)
    # sanity: the interesting ones really raised
    assert results["shape change"][:2] == ("raise", "ValueError")
    assert results["remove unsafe dtype leave"][:2] == ("raise", "RuntimeError")
    assert results["remove original None"][:2] == ("raise", "AssertionError")
    assert results["assign parameter"][:2] == ("raise", "KeyError")


def test_parametrization_of_the_other_library_is_accepted_both_ways():
    # Since issue 22 modules of both libraries are torch.nn.Modules: torch's parametrize takes an
    # annotated_nn parametrization and ours takes a torch.nn one, with the same result.
    results = []
    for P, owner, scale in ((tP, tnn, params(ann)["Scale"]), (aP, ann, params(tnn)["Scale"])):
        torch.manual_seed(0)
        m = owner.Linear(2, 2)
        P.register_parametrization(m, "weight", scale())
        results.append(
            (
                list(m.state_dict()),
                m.weight.tolist(),
                type(m.parametrizations.weight[0]).__module__,
            )
        )
    assert results[0][:2] == results[1][:2]
    assert results[0][0] == ["bias", "parametrizations.weight.original"]


# --------------------------------------------------------------------------------------------
# cached()


def test_cached_counts_calls():
    def scenario(nn, P, C):
        m = C["UsesWeightTwice"]()
        counter = C["Counting"]()
        P.register_parametrization(m.lin, "weight", counter)
        counter.calls = 0
        x = torch.randn(2, 3)
        log = []
        out = m(x)
        log.append(("plain", counter.calls))
        with P.cached():
            out_c = m(x)
            log.append(("cached", counter.calls))
            same = m.lin.weight is m.lin.weight
            with P.cached():
                m(x)
            log.append(("nested", counter.calls, P._cache_enabled, len(P._cache)))
        log.append(("after", counter.calls, P._cache_enabled, len(P._cache)))
        out_c.sum().backward()
        return (
            log,
            same,
            out.tolist(),
            out_c.tolist(),
            m.lin.parametrizations.weight.original.grad.tolist(),
        )

    log, same, *_ = assert_twins(scenario)
    assert log == [("plain", 2), ("cached", 3), ("nested", 3, 1, 1), ("after", 3, 0, 0)]
    assert same


@pytest.mark.filterwarnings("ignore:`torch.jit.trace` is deprecated:DeprecationWarning")
def test_cached_exits_on_error_and_trace_refused():
    def scenario(nn, P, C):
        m = nn.Linear(3, 3)
        P.register_parametrization(m, "weight", C["Scale"]())
        with pytest.raises(ZeroDivisionError):
            with P.cached():
                m.weight  # noqa: B018
                1 / 0
        state = (P._cache_enabled, len(P._cache))
        with P.cached():
            traced = outcome(torch.jit.trace, lambda x: m(x), torch.randn(1, 3))
        return state, traced[:3] if traced[0] == "raise" else "ok"

    state, traced = assert_twins(scenario)
    assert state == (0, 0)
    assert traced == (
        "raise",
        "RuntimeError",
        "Cannot trace a model while caching parametrizations.",
    )


def test_cache_key_is_the_registered_module_even_for_copies():
    # Note [Copies share the parametrized class]
    def scenario(nn, P, C):
        m = nn.Linear(3, 3)
        P.register_parametrization(m, "weight", C["Scale"]())
        c = copy.deepcopy(m)
        with torch.no_grad():
            c.parametrizations.weight.original.add_(1)
        with P.cached():
            shared = m.weight is c.weight
        not_shared = torch.equal(m.weight, c.weight)
        P.remove_parametrizations(c, "weight")
        after = outcome(lambda: m.weight)
        return shared, not_shared, type(c).__name__, after

    shared, not_shared, name, after = assert_twins(scenario)
    assert shared and not not_shared and name == "Linear"
    assert after == (
        "raise",
        "AttributeError",
        "'ParametrizedLinear' object has no attribute 'weight'",
    )


# --------------------------------------------------------------------------------------------
# remove_parametrizations


@pytest.mark.parametrize("leave", [True, False])
@pytest.mark.parametrize("kind", ["Symmetric", "Scale", "Orthogonal"])
def test_remove(leave, kind):
    def scenario(nn, P, C):
        m = nn.Linear(3, 3)
        weight = m.weight
        P.register_parametrization(m, "weight", C[kind]())
        P.register_parametrization(m, "bias", C["Scale"]())
        before = m.weight.detach().clone()
        first = module_summary(P.remove_parametrizations(m, "weight", leave_parametrized=leave))
        same_object = m.weight is weight
        leaves_value = torch.equal(m.weight, before)
        P.remove_parametrizations(m, "bias", leave_parametrized=leave)
        return first, same_object, leaves_value, module_summary(m), hasattr(m, "parametrizations")

    first, same_object, leaves_value, last, has = assert_twins(scenario)
    assert same_object and last["type"] == "Linear" and not has
    assert first["type"] == "ParametrizedLinear"


# --------------------------------------------------------------------------------------------
# buffers, several parametrizations, tuple originals


def test_parametrized_buffers():
    def scenario(nn, P, C):
        m = nn.BatchNorm1d(3)
        m.register_buffer("extra", torch.randn(3), persistent=False)
        P.register_parametrization(m, "running_var", C["Scale"]())
        P.register_parametrization(m, "extra", C["Scale"]())
        P.register_parametrization(m, "extra", C["Scale"](3.0))
        P.register_parametrization(m, "weight", C["Sum2"]())
        out = m(torch.randn(4, 3))
        s1 = module_summary(m)
        P.remove_parametrizations(m, "extra")
        P.remove_parametrizations(m, "running_var", leave_parametrized=False)
        return (
            out.tolist(),
            s1,
            module_summary(m),
            list(m._buffers),
            sorted(m._non_persistent_buffers_set),
        )

    *_, non_persistent = assert_twins(scenario)
    assert non_persistent == []  # a parametrized buffer comes back persistent


def test_several_parametrizations_and_unsafe_is_sticky():
    def scenario(nn, P, C):
        m = nn.Linear(3, 3)
        P.register_parametrization(m, "weight", C["Scale"](), unsafe=True)
        P.register_parametrization(m, "weight", C["Scale"]())
        P.register_parametrization(m, "weight", C["Symmetric"]())
        plist = m.parametrizations.weight
        m.weight = torch.arange(9.0).reshape(3, 3)
        return repr(m), plist.unsafe, len(plist), m.weight.tolist(), plist.original.tolist()

    assert_twins(scenario)


@pytest.mark.parametrize("on", ["parameter", "buffer", "frozen"])
def test_right_inverse_tuple(on):
    def scenario(nn, P, C):
        m = nn.Linear(4, 4)
        name = "weight"
        if on == "buffer":
            m.register_buffer("w2", torch.randn(4, 4))
            name = "w2"
        if on == "frozen":
            m.weight.requires_grad_(False)
        P.register_parametrization(m, name, C["RankOne"]())
        plist = m.parametrizations[name]
        info = (
            plist.is_tensor,
            plist.ntensors,
            hasattr(plist, "original"),
            [tensor_summary(getattr(plist, f"original{i}")) for i in range(2)],
        )
        m.__setattr__(name, torch.ones(4, 4))
        value = getattr(m, name).tolist()
        s = module_summary(m)
        P.remove_parametrizations(m, name)
        return info, value, s, module_summary(m)

    assert_twins(scenario)


# --------------------------------------------------------------------------------------------
# deepcopy, pickle, type_before_parametrizations, is_parametrized


def test_deepcopy_and_pickle():
    def scenario(nn, P, C):
        m = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 3))
        m[1].weight = m[0].weight  # tied before parametrizing
        P.register_parametrization(m[0], "weight", C["Symmetric"]())
        P.register_parametrization(m[0], "bias", C["Sum2"]())
        c = copy.deepcopy(m)
        x = torch.randn(2, 3)
        independent = (
            c[0].parametrizations.weight.original is not m[0].parametrizations.weight.original
        )
        tied = c[1].weight is c[0].parametrizations.weight.original
        errors = [
            outcome(pickle.dumps, m),
            outcome(pickle.dumps, m[0]),
            outcome(torch.save, m[0], io.BytesIO()),
        ]
        slotnames = type(m[0]).__dict__.get("__slotnames__")
        return (
            module_summary(c),
            torch.equal(c(x), m(x)),
            independent,
            tied,
            type(c[0]) is type(m[0]),
            errors,
            slotnames,
            sorted(k for k in type(m[0]).__dict__ if k not in ("__module__", "__doc__")),
        )

    result = assert_twins(scenario)
    assert result[5][0] == (
        "raise",
        "RuntimeError",
        "Serialization of parametrized modules is only supported through state_dict(). See:\n"
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
        "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training",
    )


def test_class_with_own_deepcopy_keeps_it():
    def scenario(nn, P, C):
        class WithCopy(nn.Linear):
            def __deepcopy__(self, memo):
                return "custom"

        m = WithCopy(2, 2)
        P.register_parametrization(m, "weight", C["Scale"]())
        return (
            "__deepcopy__" in type(m).__dict__,
            copy.deepcopy(m),
            type(m).__name__,
            type(m).__qualname__,
        )

    assert assert_twins(scenario)[:2] == (False, "custom")


def test_type_before_and_is_parametrized():
    def scenario(nn, P, C):
        m = nn.Conv2d(2, 2, 3)
        log = [
            P.type_before_parametrizations(m).__name__,
            P.is_parametrized(m),
            P.is_parametrized(m, "weight"),
        ]
        P.register_parametrization(m, "weight", C["Skew"]())
        log += [
            P.type_before_parametrizations(m) is nn.Conv2d,
            type(m).__name__,
            P.is_parametrized(m),
            P.is_parametrized(m, "weight"),
            P.is_parametrized(m, "bias"),
        ]
        m2 = nn.Linear(2, 2)
        m2.parametrizations = nn.Linear(1, 1)  # not a ModuleDict: does not count
        log += [P.is_parametrized(m2), P.is_parametrized(m2, "weight")]
        return log

    assert_twins(scenario)


# --------------------------------------------------------------------------------------------
# transfer_parametrizations_and_params


@pytest.mark.parametrize("which", [None, "weight", "bias"])
def test_transfer(which):
    def scenario(nn, P, C):
        src = nn.Linear(3, 3)
        P.register_parametrization(src, "weight", C["Symmetric"]())
        P.register_parametrization(src, "weight", C["Scale"]())
        P.register_parametrization(src, "bias", C["Sum2"]())
        dst = nn.Linear(3, 3)
        returned = P.transfer_parametrizations_and_params(src, dst, which)
        shared = [
            getattr(dst.parametrizations[n], o) is getattr(src.parametrizations[n], o)
            for n in dst.parametrizations
            for o in ("original", "original0", "original1")
            if hasattr(src.parametrizations[n], o)
        ]
        # a destination without the attribute gets a new parameter first
        bare = nn.Module()
        P.transfer_parametrizations_and_params(src, bare, which)
        none = P.transfer_parametrizations_and_params(nn.Linear(2, 2), nn.Linear(2, 2))
        return (
            returned is dst,
            module_summary(dst),
            shared,
            module_summary(bare),
            module_summary(none),
        )

    assert_twins(scenario)


# --------------------------------------------------------------------------------------------
# state dicts cross between torch and annotated twins; swap-tensors path


def test_state_dict_round_trip_between_torch_and_ours():
    def build(nn, P):
        C = params(nn)
        m = nn.Sequential(nn.Linear(4, 4), nn.Conv1d(2, 2, 2))
        P.register_parametrization(m[0], "weight", C["Orthogonal"]())
        P.register_parametrization(m[0], "bias", C["Sum2"]())
        P.register_parametrization(m[1], "weight", C["Scale"]())
        return m

    torch.manual_seed(0)
    theirs = build(tnn, tP)
    torch.manual_seed(1)
    ours = build(ann, aP)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = torch.randn(2, 4)
    for src, dst in ((theirs, ours), (ours, theirs)):
        with torch.no_grad():
            for p in src.parameters():
                p.add_(torch.randn_like(p))
        result = dst.load_state_dict(src.state_dict())
        assert list(result.missing_keys) == [] and list(result.unexpected_keys) == []
        assert torch.equal(dst[0](x), src[0](x))
        for (k1, v1), (k2, v2) in zip(
            src.state_dict().items(), dst.state_dict().items(), strict=True
        ):
            assert k1 == k2 and torch.equal(v1, v2)


def test_swap_tensors_path():
    def scenario(nn, P, C):
        torch.__future__.set_swap_module_params_on_conversion(True)
        m = nn.Linear(3, 3)
        weight = m.weight
        P.register_parametrization(m, "weight", C["Symmetric"]())
        m.weight = torch.ones(3, 3)
        s = module_summary(m)
        P.remove_parametrizations(m, "weight")
        return s, module_summary(m), m.weight is weight

    assert assert_twins(scenario)[2]


# --------------------------------------------------------------------------------------------
# stateful: random sequences of operations applied to both twins in lock step

KINDS = ["Scale", "Symmetric", "Sum2", "NoInverse", "Trunc", "Orthogonal"]


class ParametrizeMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.classes = {side: params(nn) for side, (nn, _) in SIDES.items()}
        self.models = {}
        for side, (nn, _) in SIDES.items():
            torch.manual_seed(0)
            self.models[side] = nn.Linear(3, 3)
        self.x = torch.randn(2, 3)

    def both(self, fn):
        """Apply fn(side, model, P, C) to both twins and compare what a user sees."""
        results = {}
        for side, (nn, P) in SIDES.items():
            results[side] = outcome(fn, self.models[side], P, self.classes[side])
            if results[side][0] == "ok" and isinstance(results[side][1], (ann.Module, tnn.Module)):
                results[side] = ("ok", "module")
        assert results["ours"] == results["torch"], (
            f"\n torch: {results['torch']!r}\n ours:  {results['ours']!r}"
        )
        return results["ours"]

    @rule(
        name=st.sampled_from(["weight", "bias"]), kind=st.sampled_from(KINDS), unsafe=st.booleans()
    )
    def register(self, name, kind, unsafe):
        self.both(lambda m, P, C: P.register_parametrization(m, name, C[kind](), unsafe=unsafe))

    @rule(name=st.sampled_from(["weight", "bias"]), leave=st.booleans())
    def remove(self, name, leave):
        self.both(lambda m, P, C: P.remove_parametrizations(m, name, leave_parametrized=leave))

    @rule(cached=st.booleans())
    def forward(self, cached):
        def run(m, P, C):
            if cached:
                with P.cached():
                    out = m(self.x) + m(self.x)
            else:
                out = m(self.x)
            out.sum().backward()
            grads = [(n, tensor_summary(p.grad)) for n, p in m.named_parameters()]
            m.zero_grad()
            return out.tolist(), grads

        self.both(run)

    @rule(name=st.sampled_from(["weight", "bias"]), seed=st.integers(0, 3))
    def assign(self, name, seed):
        def run(m, P, C):
            value = torch.randn(
                3, 3 if name == "weight" else 1, generator=torch.Generator().manual_seed(seed)
            )
            setattr(m, name, value.squeeze(-1))
            return tensor_summary(getattr(m, name))

        self.both(run)

    @invariant()
    def same_observable_state(self):
        ours, theirs = module_summary(self.models["ours"]), module_summary(self.models["torch"])
        assert ours == theirs


TestParametrizeMachine = ParametrizeMachine.TestCase
TestParametrizeMachine.settings = settings(max_examples=40, stateful_step_count=12, deadline=None)
