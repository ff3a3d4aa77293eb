"""Differential tests: annotated_nn.utils.hooks and modules._functions against torch's."""

import gc
import pickle
import warnings
from collections import OrderedDict, namedtuple

import pytest
import torch
import torch.nn.modules._functions as theirs_functions
import torch.utils.hooks as theirs

import annotated_nn
import annotated_nn.modules._functions as ours_functions
import annotated_nn.utils.hooks as ours
from helpers import our_mro_as_torch

BOTH = [pytest.param(theirs, id="torch"), pytest.param(ours, id="ours")]


def test_public_names():
    assert ours.__all__ == theirs.__all__
    assert annotated_nn.utils.hooks is ours


# ---------------------------------------------------------------- RemovableHandle


@pytest.mark.parametrize("mod", BOTH)
def test_handle_ids_increase_and_remove(mod):
    d = OrderedDict()
    h1, h2 = mod.RemovableHandle(d), mod.RemovableHandle(d)
    assert h2.id == h1.id + 1 and mod.RemovableHandle.next_id == h2.id + 1
    d[h1.id], d[h2.id] = "a", "b"
    h1.remove()
    assert list(d.values()) == ["b"]
    h1.remove()  # idempotent
    assert list(d.values()) == ["b"]


def handle_scenarios(mod):
    """Return what a user observes of several handle scenarios (ids made relative)."""
    out = []
    hooks, extra1, extra2 = OrderedDict(), OrderedDict(), OrderedDict()
    h = mod.RemovableHandle(hooks, extra_dict=[extra1, extra2])
    hooks[h.id] = extra1[h.id] = extra2[h.id] = 1
    out.append(len(h.extra_dict_ref))
    h.remove()
    out.append((len(hooks), len(extra1), len(extra2)))

    single = OrderedDict()
    h = mod.RemovableHandle(hooks, extra_dict=single)
    hooks[h.id] = single[h.id] = 2
    out.append(len(h.extra_dict_ref))
    h.remove()
    out.append((len(hooks), len(single)))

    # Anything other than a dict or a list is ignored.
    h = mod.RemovableHandle(hooks, extra_dict=(single,))
    out.append(h.extra_dict_ref)
    h = mod.RemovableHandle(hooks, extra_dict=None)
    out.append(h.extra_dict_ref)

    # A dead dictionary: remove() does nothing.
    tmp = OrderedDict()
    h = mod.RemovableHandle(tmp, extra_dict=[OrderedDict()])
    del tmp
    gc.collect()
    h.remove()
    out.append(h.hooks_dict_ref() is None)

    # Context manager: removes on exit, also when the block raises; the error propagates.
    with mod.RemovableHandle(hooks) as h:
        hooks[h.id] = 3
        out.append(len(hooks))
    out.append(len(hooks))
    try:
        with mod.RemovableHandle(hooks) as h:
            hooks[h.id] = 4
            raise KeyError("boom")
    except KeyError as e:
        out.append(("raised", str(e)))
    out.append(len(hooks))
    return out


def test_handle_scenarios_match():
    assert handle_scenarios(theirs) == handle_scenarios(ours)


def state_shape(state, base):
    return tuple(
        (s - base)
        if isinstance(s, int)
        else (type(s).__name__ if not isinstance(s, tuple) else tuple(type(x).__name__ for x in s))
        for s in state
    )


def test_handle_getstate_matches():
    shapes = []
    for mod in (theirs, ours):
        d, e = OrderedDict(), OrderedDict()
        h = mod.RemovableHandle(d, extra_dict=e)
        g = mod.RemovableHandle(d)
        shapes.append((state_shape(h.__getstate__(), h.id), state_shape(g.__getstate__(), g.id)))
        assert h.__getstate__()[0] is d and h.__getstate__()[2][0] is e
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize("mod", BOTH)
def test_handle_pickle_roundtrip(mod):
    hooks, extra = OrderedDict(), OrderedDict()
    h = mod.RemovableHandle(hooks, extra_dict=extra)
    hooks[h.id] = extra[h.id] = "fn"
    hooks2, extra2, h2 = pickle.loads(pickle.dumps((hooks, extra, h)))
    assert h2.id == h.id and list(hooks2) == [h.id]
    h2.remove()
    assert not hooks2 and not extra2
    assert list(hooks) == [h.id]  # the original is untouched


@pytest.mark.parametrize("mod", BOTH)
def test_handle_setstate_variants(mod):
    h = mod.RemovableHandle.__new__(mod.RemovableHandle)
    big = mod.RemovableHandle.next_id + 1000
    h.__setstate__((None, big))  # old two-item format, dead dictionary
    assert h.hooks_dict_ref() is None and h.extra_dict_ref == ()
    assert mod.RemovableHandle.next_id == big + 1
    h.remove()
    h.__setstate__((OrderedDict(), 3, None))
    assert h.extra_dict_ref == () and mod.RemovableHandle.next_id == big + 1
    d = OrderedDict({3: 1})
    h.__setstate__((d, 3, (d,)))
    h.remove()
    assert d == {}


def test_unserializable_hook():
    for mod in (theirs, ours):

        def f(grad):
            return grad

        assert mod.unserializable_hook(f) is f and f.__torch_unserializable__ is True


def test_warn_if_has_hooks():
    def plain_hook(grad):
        return grad

    @theirs.unserializable_hook
    def quiet_hook(grad):
        return grad

    t = torch.ones(2, requires_grad=True)
    t.register_hook(plain_hook)
    t.register_hook(quiet_hook)
    records = []
    for mod in (theirs, ours):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.warn_if_has_hooks(t)
            mod.warn_if_has_hooks(torch.ones(1))
        records.append([(x.category, str(x.message), x.filename) for x in w])
    assert records[0] == records[1] and len(records[0]) == 1
    assert "plain_hook" in records[0][0][1]


# ---------------------------------------------------------------- BackwardHookFunction


@pytest.mark.parametrize("fmod", [theirs_functions, ours_functions], ids=["torch", "ours"])
def test_backward_hook_function(fmod):
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(2)
    out = fmod.BackwardHookFunction.apply(a, b)
    assert isinstance(out, tuple) and len(out) == 2
    assert out[0].grad_fn.name() == "BackwardHookFunctionBackward"
    assert out[0].requires_grad and not out[1].requires_grad and out[1].grad_fn is None
    assert out[0].data_ptr() == a.data_ptr()
    (out[0] * 3).sum().backward()
    assert torch.equal(a.grad, torch.full((2,), 3.0))


# ---------------------------------------------------------------- BackwardHook


class ToyModule:
    """A stand-in for a module: BackwardHook only passes it to the hooks."""

    def __repr__(self):
        return "ToyModule()"


def describe(x):
    if x is None:
        return None
    if isinstance(x, torch.Tensor):
        return ("T", tuple(x.shape), x.tolist())
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, [describe(v) for v in x])
    return repr(x)


def run_backward_hook(mod, make_inputs, forward, hooks=(), pre_hooks=(), grad_enabled=True):
    """Run one forward/backward through mod.BackwardHook; return what a user can observe."""
    calls = []
    module = ToyModule()

    def wrap(kind, fn):
        def hook(m, *grads):
            assert m is module
            calls.append((kind, [describe(g) for g in grads]))
            return fn(m, *grads) if fn else None

        return hook

    bh = mod.BackwardHook(
        module, [wrap("hook", h) for h in hooks], [wrap("pre", h) for h in pre_hooks]
    )
    inputs = make_inputs()
    with torch.set_grad_enabled(grad_enabled):
        args = bh.setup_input_hook(inputs)
        result = forward(*args)
        result = bh.setup_output_hook(result)
    observed = {
        "n_inputs": bh.n_inputs,
        "n_outputs": bh.n_outputs,
        "input_idx": bh.input_tensors_index,
        "output_idx": bh.output_tensors_index,
        "args_type": type(args).__name__,
        "result_type": type(result).__name__,
        "args_same": [a is b for a, b in zip(args, inputs)],
    }
    leaves = [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
    if grad_enabled:
        outs = result if isinstance(result, tuple) else (result,)
        loss = sum(
            (o * (i + 1)).sum()
            for i, o in enumerate(outs)
            if isinstance(o, torch.Tensor) and o.requires_grad
        )
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            loss.backward()
        observed["warnings"] = [str(x.message) for x in w]
    observed["calls"] = calls
    observed["grads"] = [describe(x.grad) for x in leaves]
    return observed


def compare(*args, **kwargs):
    torch.manual_seed(0)
    a = run_backward_hook(theirs, *args, **kwargs)
    torch.manual_seed(0)
    b = run_backward_hook(ours, *args, **kwargs)
    assert a == b
    return b


def mixed_inputs():
    return (
        torch.tensor([1.0, 2.0], requires_grad=True),
        3,
        torch.tensor([4.0]),
        torch.tensor([5.0, 6.0], requires_grad=True),
    )


def mixed_forward(x, k, y, z):
    return (x * k + y, "label", z * z)


def test_backward_hook_observes_grads():
    obs = compare(mixed_inputs, mixed_forward, hooks=[None, None], pre_hooks=[None])
    assert obs["n_inputs"] == 4 and obs["input_idx"] == [0, 2, 3]
    assert obs["n_outputs"] == 3 and obs["output_idx"] == [0, 2]
    assert [c[0] for c in obs["calls"]] == ["pre", "hook", "hook"]


def test_backward_hook_replaces_grads():
    def double_inputs(m, grad_input, grad_output):
        return tuple(None if g is None else g * 2 for g in grad_input)

    def halve_outputs(m, grad_output):
        return tuple(None if g is None else g / 2 for g in grad_output)

    obs = compare(
        mixed_inputs, mixed_forward, hooks=[double_inputs, None], pre_hooks=[halve_outputs, None]
    )
    assert obs["grads"] == [("T", (2,), [3.0, 3.0]), ("T", (2,), [30.0, 36.0])]


def test_single_tensor_output_and_namedtuple_input():
    Pair = namedtuple("Pair", "a b")
    obs = compare(
        lambda: Pair(torch.ones(2, requires_grad=True), torch.ones(2)),
        lambda a, b: a * b + 1,
        hooks=[None],
    )
    assert obs["args_type"] == "Pair" and obs["result_type"] == "Tensor"


def test_no_input_requires_grad_fires_at_output():
    w = torch.ones(2, requires_grad=True)
    obs = compare(
        lambda: (torch.ones(2), torch.ones(2)),
        lambda a, b: a * w + b,
        hooks=[None],
        pre_hooks=[None],
    )
    assert obs["input_idx"] is None and obs["args_same"] == [True, True]
    assert len(obs["warnings"]) == 1 and "no inputs require gradients" in obs["warnings"][0]
    assert obs["calls"][1] == ("hook", [("tuple", [None, None]), obs["calls"][0][1][0]])


def test_no_input_requires_grad_hook_must_return_none():
    w = torch.ones(2, requires_grad=True)
    msgs = []
    for hooks in ([lambda m, gi, go: (None, None)], [lambda m, gi, go: (torch.ones(2), None)]):
        res = []
        for mod in (theirs, ours):
            try:
                run_backward_hook(
                    mod, lambda: (torch.ones(2), torch.ones(2)), lambda a, b: a * w + b, hooks=hooks
                )
                res.append("ok")
            except RuntimeError as e:
                res.append(str(e))
        assert res[0] == res[1]
        msgs.append(res[1])
    assert msgs[0] == "ok" and "should always return None" in msgs[1]


@pytest.mark.parametrize("where", ["hook", "pre"])
def test_wrong_number_of_grads(where):
    bad = lambda m, *g: (None,) * 7
    kwargs = {"hooks": [bad]} if where == "hook" else {"pre_hooks": [bad]}
    msgs = []
    for mod in (theirs, ours):
        with pytest.raises(RuntimeError) as info:
            run_backward_hook(mod, mixed_inputs, mixed_forward, **kwargs)
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1]
    assert "invalid number of grad" in msgs[1]


def test_grad_disabled_is_a_no_op():
    obs = compare(mixed_inputs, mixed_forward, hooks=[None], grad_enabled=False)
    assert obs["input_idx"] is None and obs["output_idx"] is None
    assert obs["args_same"] == [True, True, True, True] and obs["calls"] == []


def test_pack_unpack_helpers():
    for mod in (theirs, ours):
        bh = mod.BackwardHook(None, [], [])
        assert bh._pack_with_none([0, 2], ["a", "b"], 4) == ("a", None, "b", None)
        assert bh._unpack_none([0, 2], ("a", None, "b", None)) == ("a", "b")
        assert bh._pack_with_none([], [], 2) == (None, None)
        with pytest.raises(ValueError):
            bh._pack_with_none([0], ["a", "b"], 2)


def test_full_backward_hook_through_module():
    """The same hooks on a torch.nn.Linear and an annotated_nn.Linear see the same grads."""
    seen = []
    for nn in (torch.nn, annotated_nn):
        torch.manual_seed(0)
        lin = nn.Linear(3, 2)
        log = []
        lin.register_full_backward_pre_hook(lambda m, go: log.append(("pre", describe(go))))
        lin.register_full_backward_hook(
            lambda m, gi, go: log.append(("hook", describe(gi), describe(go)))
        )
        x = torch.arange(6.0).reshape(2, 3).requires_grad_()
        lin(x).pow(2).sum().backward()
        seen.append((log, describe(x.grad), describe(lin.weight.grad)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize(
    "pair",
    [
        ("annotated_nn.utils.hooks", "torch.utils.hooks"),
        ("annotated_nn.parameter", "torch.nn.parameter"),
    ],
)
def test_same_members_and_signatures(pair):
    import importlib
    import inspect

    a, b = (importlib.import_module(n) for n in pair)
    for name in b.__all__:
        x, y = getattr(a, name), getattr(b, name)
        if not isinstance(y, type):
            assert str(inspect.signature(x)) == str(inspect.signature(y)), name
            continue
        # DIFF(torch 2.13) in parameter.py: our Parameter declares `_is_param` on the class so
        # that torch's own checks count it as a torch.nn.Parameter.
        extra = {"_is_param"} if name == "Parameter" else set()
        # Our RemovableHandle subclasses torch's (issue 22): it overrides every method and
        # inherits only the shared id counter `next_id` and the descriptors Python creates.
        inherited = {"next_id", "__dict__", "__weakref__"} if name == "RemovableHandle" else set()
        assert set(vars(x)) == (set(vars(y)) - inherited) | extra, name
        assert our_mro_as_torch(x) == [c.__name__ for c in y.__mro__]
        for attr, value in vars(y).items():
            if inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod)):
                fx, fy = getattr(x, attr), getattr(y, attr)
                assert str(inspect.signature(fx)) == str(inspect.signature(fy)), (name, attr)
