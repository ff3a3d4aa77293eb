"""Claims of modules/module.py: the "depth" notes (where readers still get lost) and its Notes.

Each test runs the statement on torch.nn and on annotated_nn. Timings are never asserted: the cost
model's numbers are ratios measured once (see Note [Cost of attribute access]); the tests check the
structure that explains them (which Python functions run).
"""

from __future__ import annotations

import copy
import sys
import warnings
import weakref
from collections import OrderedDict
from contextlib import contextmanager

import pytest
import torch
from claim import each_nn, proves


@contextmanager
def future_flags(overwrite: bool = False, swap: bool = False):
    """Set the two `torch.__future__` conversion flags, restoring the old values afterwards."""
    old = (
        torch.__future__.get_overwrite_module_params_on_conversion(),
        torch.__future__.get_swap_module_params_on_conversion(),
    )
    torch.__future__.set_overwrite_module_params_on_conversion(overwrite)
    torch.__future__.set_swap_module_params_on_conversion(swap)
    try:
        yield
    finally:
        torch.__future__.set_overwrite_module_params_on_conversion(old[0])
        torch.__future__.set_swap_module_params_on_conversion(old[1])


def python_calls(fn) -> list[str]:
    """Names of the Python functions entered while ``fn()`` runs (C functions not included)."""
    names: list[str] = []

    def profile(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names


# ---------------------------------------------------------------------------------------------
# a. An AttributeError inside a @property getter is masked by Module.__getattr__.


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__getattr__",
    "an AttributeError inside a @property getter is reported for the property's name; the "
    "original error is cleared (no __context__) and hasattr() returns False",
)
@each_nn()
def test_property_attribute_error_is_masked(nn):
    """The real culprit (`missing_thing`) never appears: the message names `scale`."""

    class M(nn.Module):
        @property
        def scale(self):
            return self.missing_thing * 2

    m = M()
    with pytest.raises(AttributeError) as info:
        m.scale
    assert str(info.value) == "'M' object has no attribute 'scale'"
    assert "missing_thing" not in str(info.value)
    assert info.value.__context__ is None and info.value.__cause__ is None
    assert hasattr(m, "scale") is False


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__getattr__",
    "raising another exception type in the getter shows the real cause",
)
@each_nn()
def test_property_error_workaround(nn):
    """A RuntimeError is not an AttributeError, so Python does not fall back to __getattr__."""

    class M(nn.Module):
        @property
        def scale(self):
            try:
                return self.missing_thing * 2
            except AttributeError as e:
                raise RuntimeError(str(e)) from e

    with pytest.raises(RuntimeError, match="missing_thing"):
        M().scale


# ---------------------------------------------------------------------------------------------
# b. Why the hook tables are OrderedDicts and the three tables plain dicts.


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__init__",
    "hook tables are OrderedDicts, _parameters/_buffers/_modules plain dicts; a plain dict "
    "cannot be weakly referenced and has no move_to_end",
)
@each_nn()
def test_table_types_and_why(nn):
    """The types, and the two abilities a plain dict lacks."""
    m = nn.Linear(2, 2)
    for name in ("_parameters", "_buffers", "_modules"):
        assert type(getattr(m, name)) is dict, name
    for name in (
        "_forward_hooks",
        "_forward_hooks_with_kwargs",
        "_forward_hooks_always_called",
        "_forward_pre_hooks",
        "_forward_pre_hooks_with_kwargs",
        "_backward_hooks",
        "_backward_pre_hooks",
        "_state_dict_hooks",
        "_state_dict_pre_hooks",
        "_load_state_dict_pre_hooks",
        "_load_state_dict_post_hooks",
    ):
        assert type(getattr(m, name)) is OrderedDict, name
    with pytest.raises(TypeError):
        weakref.ref(m._parameters)
    assert not hasattr(m._parameters, "move_to_end")


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__init__",
    "handles weakly reference the main table and, through extra_dict, the marker tables; "
    "state_dict hook tables are weakly referenced too",
)
@each_nn()
def test_handles_hold_weak_references_to_hook_tables(nn):
    """What the weak references point at."""
    m = nn.Linear(2, 2)
    h = m.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
    assert h.hooks_dict_ref() is m._forward_hooks
    extra = [ref() for ref in h.extra_dict_ref]
    assert any(d is m._forward_hooks_with_kwargs for d in extra)
    assert any(d is m._forward_hooks_always_called for d in extra)
    hp = m.register_forward_pre_hook(lambda *a: None, with_kwargs=True)
    assert [ref() for ref in hp.extra_dict_ref] == [m._forward_pre_hooks_with_kwargs]
    hs = m.register_state_dict_pre_hook(lambda *a: None)
    assert hs.hooks_dict_ref() is m._state_dict_pre_hooks
    hl = m.register_load_state_dict_post_hook(lambda *a: None)
    assert hl.hooks_dict_ref() is m._load_state_dict_post_hooks


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__init__",
    "prepend=True (forward pre-hooks, forward hooks, backward pre-hooks, backward hooks) moves "
    "the new id to the front with move_to_end(last=False)",
)
@each_nn()
def test_prepend_uses_move_to_end(nn):
    """The new hook comes first; the others keep their relative order."""
    m = nn.Linear(2, 2)
    for register in (
        m.register_forward_pre_hook,
        m.register_forward_hook,
        m.register_full_backward_pre_hook,
        m.register_full_backward_hook,
    ):
        a = register(lambda *x: None)
        b = register(lambda *x: None)
        c = register(lambda *x: None, prepend=True)
        table = a.hooks_dict_ref()
        assert list(table) == [c.id, a.id, b.id]


# ---------------------------------------------------------------------------------------------
# c. _apply's three paths and an optimizer built before the conversion.


def _convert(nn, target, overwrite=False, swap=False):
    """Build Linear + SGD, give the weight a gradient, convert; return what identity survived."""
    m = nn.Linear(2, 2)
    w = m.weight
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    m.weight.grad = torch.ones(2, 2)
    g = m.weight.grad
    with future_flags(overwrite, swap):
        m.to(target)
    return {
        "same_param": w is m.weight,
        "optimizer_sees_model": opt.param_groups[0]["params"][0] is m.weight,
        "same_grad": g is m.weight.grad,
        "model_dtype": m.weight.dtype,
        "model_device": m.weight.device.type,
        "old_dtype": w.dtype,
    }


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "by default (set .data) .to(torch.float64) on CPU keeps the parameter object: "
    "p is model.weight, and the optimizer still sees the model",
)
@each_nn()
def test_default_path_keeps_identity(nn):
    r = _convert(nn, torch.float64)
    assert r["same_param"] and r["optimizer_sees_model"] and r["same_grad"]
    assert r["model_dtype"] == torch.float64 == r["old_dtype"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    ".to('meta') changes the implementation kind, so the parameter is overwritten: the "
    "optimizer keeps the old object",
)
@each_nn()
def test_meta_overwrites(nn):
    r = _convert(nn, "meta")
    assert r["model_device"] == "meta"
    assert not r["same_param"] and not r["optimizer_sees_model"] and not r["same_grad"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "with set_overwrite_module_params_on_conversion(True) even .to(torch.float64) overwrites",
)
@each_nn()
def test_overwrite_flag_breaks_identity(nn):
    r = _convert(nn, torch.float64, overwrite=True)
    assert r["model_dtype"] == torch.float64
    assert r["old_dtype"] == torch.float32
    assert not r["same_param"] and not r["optimizer_sees_model"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "with set_swap_module_params_on_conversion(True) identity holds even for .to('meta'), "
    "and the swap flag wins over the overwrite flag",
)
@each_nn()
def test_swap_flag_keeps_identity_even_for_meta(nn):
    for target in (torch.float64, "meta"):
        r = _convert(nn, target, swap=True)
        assert r["same_param"] and r["optimizer_sees_model"] and r["same_grad"], target
    r = _convert(nn, torch.float64, overwrite=True, swap=True)
    assert r["same_param"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "after an overwrite, step() updates only the orphan: the model does not change",
)
@each_nn()
def test_orphaned_optimizer_does_not_train(nn):
    m = nn.Linear(2, 2)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    with future_flags(overwrite=True):
        m.to(torch.float64)
    before = {k: v.clone() for k, v in m.state_dict().items()}
    m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
    opt.step()
    assert all(torch.equal(before[k], v) for k, v in m.state_dict().items())


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "the swap path exchanges __class__ and __dict__: custom attributes on a parameter are "
    "lost, while the set-.data path keeps them",
)
@each_nn()
def test_swap_loses_custom_attributes(nn):
    m = nn.Linear(2, 2)
    m.weight.tag = "keep me"
    m.to(torch.float64)
    assert m.weight.tag == "keep me"
    with future_flags(swap=True):
        m.to(torch.float32)
    assert not hasattr(m.weight, "tag")


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Optimizers and _apply]",
    "optimizer state is not converted: a stepped Adam raises on the next step() after "
    ".to(torch.float64); opt.load_state_dict(opt.state_dict()) casts the state",
)
@each_nn()
def test_optimizer_state_is_not_converted(nn):
    m = nn.Linear(2, 2)
    opt = torch.optim.Adam(m.parameters(), lr=0.1)
    m(torch.ones(1, 2)).sum().backward()
    opt.step()
    m.to(torch.float64)
    assert m.weight.dtype == torch.float64
    assert opt.state[m.weight]["exp_avg"].dtype == torch.float32
    m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
    with pytest.raises(RuntimeError):
        opt.step()
    opt.load_state_dict(opt.state_dict())
    assert opt.state[m.weight]["exp_avg"].dtype == torch.float64
    opt.step()


# ---------------------------------------------------------------------------------------------
# d. load_state_dict decides only at the top, and does not roll back.


def _two_layers(nn):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 2)))


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Load errors are decided at the top]",
    "when a strict load raises, every tensor that matched has already been copied in",
)
@each_nn()
def test_failed_load_is_not_rolled_back(nn):
    m = _two_layers(nn)
    sd = {k: torch.full_like(v, 7.0) for k, v in m.state_dict().items()}
    del sd["1.0.bias"]
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "1.0.bias"'):
        m.load_state_dict(sd)
    assert torch.equal(m[0].weight, torch.full((2, 2), 7.0))
    assert torch.equal(m[1][0].weight, torch.full((2, 2), 7.0))
    assert not torch.equal(m[1][0].bias, torch.full((2,), 7.0))


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Load errors are decided at the top]",
    "one RuntimeError lists the problems of every level under full dotted keys",
)
@each_nn()
def test_one_error_lists_every_level(nn):
    m = _two_layers(nn)
    sd = dict(m.state_dict())
    del sd["0.bias"], sd["1.0.weight"]
    sd["1.0.extra"] = torch.zeros(1)
    sd["0.weight"] = torch.zeros(3, 3)
    with pytest.raises(RuntimeError) as info:
        m.load_state_dict(sd)
    text = str(info.value)
    assert text.startswith("Error(s) in loading state_dict for Sequential:")
    for piece in ('"0.bias"', '"1.0.weight"', '"1.0.extra"', "size mismatch for 0.weight"):
        assert piece in text, piece
    assert text.index("Missing") < text.index("Unexpected") < text.index("size mismatch")


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Load errors are decided at the top]",
    "strict=False returns the complete lists of every level; a size mismatch still raises",
)
@each_nn()
def test_non_strict_returns_complete_lists(nn):
    m = _two_layers(nn)
    sd = dict(m.state_dict())
    del sd["0.bias"], sd["1.0.weight"]
    sd["1.0.extra"] = torch.zeros(1)
    result = m.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["0.bias", "1.0.weight"]
    assert result.unexpected_keys == ["1.0.extra"]
    sd["0.weight"] = torch.zeros(3, 3)
    with pytest.raises(RuntimeError, match="size mismatch"):
        m.load_state_dict(sd, strict=False)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Load errors are decided at the top]",
    "a load post-hook that edits missing_keys in place changes the final strict decision",
)
@each_nn()
def test_post_hook_can_forgive_a_key(nn):
    m = _two_layers(nn)
    sd = dict(m.state_dict())
    del sd["1.0.bias"]

    def forgive(module, incompatible):
        if "1.0.bias" in incompatible.missing_keys:
            incompatible.missing_keys.remove("1.0.bias")

    m.register_load_state_dict_post_hook(forgive)
    assert m.load_state_dict(sd).missing_keys == []


# ---------------------------------------------------------------------------------------------
# e. copy.deepcopy(module).


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Deep-copying a module]",
    "Module defines no __deepcopy__: deepcopy uses object.__reduce_ex__(4) (copyreg.__newobj__) "
    "and calls __getstate__ / __setstate__ for each module",
)
@each_nn()
def test_deepcopy_path(nn):
    assert not hasattr(nn.Module, "__deepcopy__")
    assert nn.Module.__reduce_ex__ is object.__reduce_ex__
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    reduced = m.__reduce_ex__(4)
    assert reduced[0].__name__ == "__newobj__" and reduced[1][0] is type(m)
    calls = []
    get, set_ = nn.Module.__getstate__, nn.Module.__setstate__

    def spy_get(self):
        calls.append(("get", type(self).__name__))
        return get(self)

    def spy_set(self, state):
        calls.append(("set", type(self).__name__))
        set_(self, state)

    try:
        nn.Module.__getstate__, nn.Module.__setstate__ = spy_get, spy_set
        copy.deepcopy(m)
    finally:
        nn.Module.__getstate__, nn.Module.__setstate__ = get, set_
    assert calls == [
        ("get", "Sequential"),
        ("get", "Linear"),
        ("set", "Linear"),
        ("get", "Linear"),
        ("set", "Linear"),
        ("set", "Sequential"),
    ]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Deep-copying a module]",
    "tied weights stay tied in the copy (one memo), and are not tied to the original",
)
@each_nn()
def test_deepcopy_keeps_ties(nn):
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    m[1].weight = m[0].weight
    c = copy.deepcopy(m)
    assert c[1].weight is c[0].weight
    assert c[0].weight is not m[0].weight
    assert len(list(c.parameters())) == 3


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Deep-copying a module]",
    "hooks come along as the same function objects (a closure still captures the original's "
    "objects); the original's handle does not remove the copy's hook",
)
@each_nn()
def test_deepcopy_hooks_and_closures(nn):
    m = nn.Linear(2, 2)
    seen = []

    def hook(module, args, output):
        seen.append(module)

    handle = m.register_forward_hook(hook)
    c = copy.deepcopy(m)
    assert c._forward_hooks is not m._forward_hooks
    assert list(c._forward_hooks.values()) == [hook]
    assert list(c._forward_hooks.values())[0] is hook
    c(torch.ones(2))
    assert seen == [c]  # the same list object the original's hook appends to
    handle.remove()
    assert not m._forward_hooks and len(c._forward_hooks) == 1


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Deep-copying a module]",
    "a bound method of the module is rebound to the copy, and a _WrappedHook points at the copy",
)
@each_nn()
def test_deepcopy_rebinds_methods_and_wrapped_hooks(nn):
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.n = 0
            self.register_forward_hook(self.count)
            self.register_load_state_dict_pre_hook(lambda *a: None)

        def forward(self, x):
            return x

        def count(self, *args):
            self.n += 1

    m = Counter()
    c = copy.deepcopy(m)
    c(torch.ones(1))
    assert (c.n, m.n) == (1, 0)
    wrapped = list(c._load_state_dict_pre_hooks.values())[0]
    assert type(wrapped).__name__ == "_WrappedHook" and wrapped.module() is c


# ---------------------------------------------------------------------------------------------
# f. The cost model (structure only; the ratios are in the Note).


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Cost of attribute access]",
    "__getattr__ runs for parameter, buffer and submodule reads, never for training, plain "
    "attributes, methods or properties",
)
@each_nn()
def test_which_reads_reach_getattr(nn):
    names = []

    class Counting(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.zeros(1))
            self.register_buffer("b", torch.zeros(1))
            self.sub = nn.Module()
            self.plain = 3

        @property
        def prop(self):
            return 1

        def __getattr__(self, name):
            names.append(name)
            return super().__getattr__(name)

    m = Counting()
    names.clear()
    m.training, m.plain, m.prop, m.forward, m.state_dict
    assert names == []
    m.w, m.b, m.sub
    assert names == ["w", "b", "sub"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Cost of attribute access]",
    "Linear.forward reads self.weight and self.bias: 2 trips through __getattr__ per call",
)
@each_nn()
def test_linear_forward_pays_two_getattr(nn):
    m = nn.Linear(2, 2)
    x = torch.ones(2)
    calls = python_calls(lambda: m(x))
    assert calls.count("__getattr__") == 2


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Cost of attribute access]",
    "every assignment runs __setattr__; a plain value pays 2 Python __instancecheck__ calls "
    "(Parameter's and Buffer's metaclasses) and no __getattr__",
)
@each_nn()
def test_plain_assignment_cost_structure(nn):
    m = nn.Linear(2, 2)
    calls = python_calls(lambda: setattr(m, "n", 0))
    assert calls.count("__setattr__") == 1
    assert calls.count("__instancecheck__") == 2
    assert "__getattr__" not in calls
    assert type(nn.Parameter).__instancecheck__ is not type.__instancecheck__
    assert type(nn.Buffer).__instancecheck__ is not type.__instancecheck__


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._call_impl",
    "with no hook the fast path calls forward directly (no inner closure); a forward hook "
    "leaves it; a state_dict hook does not",
)
@each_nn()
def test_fast_path_structure(nn):
    m = nn.Linear(2, 2)
    x = torch.ones(2)
    assert "inner" not in python_calls(lambda: m(x))
    m.register_state_dict_post_hook(lambda *a: None)
    m.register_load_state_dict_post_hook(lambda *a: None)
    assert "inner" not in python_calls(lambda: m(x))
    handle = m.register_forward_hook(lambda *a: None)
    assert "inner" in python_calls(lambda: m(x))
    handle.remove()
    assert "inner" not in python_calls(lambda: m(x))


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._call_impl",
    "a global forward hook takes every module off the fast path",
)
@each_nn()
def test_global_hook_leaves_fast_path(nn):
    m = nn.Linear(2, 2)
    x = torch.ones(2)
    handle = nn.modules.module.register_module_forward_hook(lambda *a: None)
    try:
        assert "inner" in python_calls(lambda: m(x))
    finally:
        handle.remove()
    assert "inner" not in python_calls(lambda: m(x))


# ---------------------------------------------------------------------------------------------
# g. The legacy backward hook on Linear.


def _legacy_and_full(nn, x, bias=True):
    torch.manual_seed(0)
    legacy, full = nn.Linear(4, 2, bias=bias), nn.Linear(4, 2, bias=bias)
    full.load_state_dict(legacy.state_dict())
    got = {}
    legacy.register_backward_hook(lambda m, gi, go: got.update(legacy=gi))
    full.register_full_backward_hook(lambda m, gi, go: got.update(full=gi))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = legacy(x)
        full(x).sum().backward()
        y.sum().backward()
    return legacy, y, got, caught


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Legacy backward hook on Linear]",
    "2-D input with bias: the node is AddmmBackward0 and the legacy grad_input is (bias grad, "
    "input grad, weight.t() grad); the full hook gets (input grad,)",
)
@each_nn()
def test_legacy_hook_on_linear_2d(nn):
    x = torch.randn(3, 4, requires_grad=True)
    m, y, got, caught = _legacy_and_full(nn, x)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    bias_grad, input_grad, weight_t_grad = got["legacy"]
    assert bias_grad.shape == (2,) and torch.equal(bias_grad, m.bias.grad)
    assert input_grad.shape == (3, 4)
    assert weight_t_grad.shape == (4, 2) and torch.allclose(weight_t_grad, m.weight.grad.t())
    assert len(got["full"]) == 1 and got["full"][0].shape == (3, 4)
    assert torch.allclose(got["full"][0], input_grad)
    assert any(
        issubclass(w.category, FutureWarning) and "multiple autograd Nodes" in str(w.message)
        for w in caught
    )


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Legacy backward hook on Linear]",
    "under torch.no_grad() the output has no grad_fn: no hook is attached and nothing is warned",
)
@each_nn()
def test_legacy_hook_not_attached_under_no_grad(nn):
    m = nn.Linear(4, 2)
    m.register_backward_hook(lambda *a: None)
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter("always")
        y = m(torch.randn(3, 4))
    assert y.grad_fn is None
    assert not any(issubclass(w.category, FutureWarning) for w in caught)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Legacy backward hook on Linear]",
    "the input's slot is None when the input does not require grad",
)
@each_nn()
def test_legacy_hook_input_slot_none(nn):
    _, _, got, _ = _legacy_and_full(nn, torch.randn(3, 4))
    assert got["legacy"][1] is None


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Legacy backward hook on Linear]",
    "3-D input: the node is ViewBackward0 and grad_input is one (N*L, out) tensor",
)
@each_nn()
def test_legacy_hook_on_linear_3d(nn):
    x = torch.randn(5, 3, 4, requires_grad=True)
    _, y, got, _ = _legacy_and_full(nn, x)
    assert type(y.grad_fn).__name__ == "ViewBackward0"
    assert [tuple(g.shape) for g in got["legacy"]] == [(15, 2)]
    assert [tuple(g.shape) for g in got["full"]] == [(5, 3, 4)]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_backward_hook",
    "legacy and full backward hooks cannot be mixed on one module, even after removal",
)
@each_nn()
def test_no_mixing_even_after_removal(nn):
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda *a: None).remove()
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        m.register_backward_hook(lambda *a: None)
    m = nn.Linear(2, 2)
    m.register_backward_hook(lambda *a: None).remove()
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        m.register_full_backward_hook(lambda *a: None)


# ---------------------------------------------------------------------------------------------
# h. Full backward hooks see positional tensor inputs only.


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_full_backward_hook",
    "a keyword-only tensor gets its gradient but is not in grad_input",
)
@each_nn()
def test_keyword_tensor_not_in_grad_input(nn):
    class Mul(nn.Module):
        def forward(self, x, *, y):
            return x * y

    m = Mul()
    got = {}
    m.register_full_backward_hook(lambda mod, gi, go: got.update(gi=gi))
    x = torch.full((2,), 2.0, requires_grad=True)
    y = torch.full((2,), 3.0, requires_grad=True)
    m(x, y=y).sum().backward()
    assert len(got["gi"]) == 1 and torch.equal(got["gi"][0], torch.full((2,), 3.0))
    assert torch.equal(y.grad, torch.full((2,), 2.0))


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_full_backward_hook",
    "when every tensor comes by keyword, grad_input is () and a 'no inputs require gradients' "
    "UserWarning is issued",
)
@each_nn()
def test_all_keyword_tensors_give_empty_grad_input(nn):
    class Twice(nn.Module):
        def forward(self, *, x):
            return x * 2

    m = Twice()
    got = {}
    m.register_full_backward_hook(lambda mod, gi, go: got.update(gi=gi))
    x = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(x=x).sum().backward()
    assert got["gi"] == ()
    assert torch.equal(x.grad, torch.full((2,), 2.0))
    assert any("no inputs require gradients" in str(w.message) for w in caught)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_full_backward_hook",
    "with full hooks the module's inputs/outputs must not be modified in place (view check)",
)
@each_nn()
def test_full_hook_forbids_in_place_output(nn):
    m = nn.Linear(2, 2)
    m.register_full_backward_hook(lambda *a: None)
    y = m(torch.ones(1, 2))
    with pytest.raises(RuntimeError, match="is a view and is being modified inplace"):
        y.add_(1)


# ---------------------------------------------------------------------------------------------
# i. state_dict() returns live aliases.


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [state_dict aliases]",
    "values are detached tensors sharing storage: in-place updates show in a dict taken "
    "earlier; clone() or deepcopy gives a snapshot; keep_vars=True gives the Parameter",
)
@each_nn()
def test_state_dict_is_a_live_alias(nn):
    m = nn.Linear(2, 2)
    sd = m.state_dict()
    cloned = {k: v.clone() for k, v in sd.items()}
    deep = copy.deepcopy(sd)
    assert sd["weight"] is not m.weight and not sd["weight"].requires_grad
    assert sd["weight"].data_ptr() == m.weight.data_ptr()
    opt = torch.optim.SGD(m.parameters(), lr=1.0)
    m(torch.ones(2)).sum().backward()
    opt.step()
    assert torch.equal(sd["weight"], m.weight.detach())
    assert not torch.equal(cloned["weight"], m.weight.detach())
    assert not torch.equal(deep["weight"], m.weight.detach())
    assert m.state_dict(keep_vars=True)["weight"] is m.weight


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [state_dict aliases]",
    "load_state_dict copies in place, so an earlier dict changes; after .to(torch.float64) the "
    "old dict no longer follows the model",
)
@each_nn()
def test_state_dict_alias_follows_loads_not_conversions(nn):
    m = nn.Linear(2, 2)
    sd = m.state_dict()
    m.load_state_dict({"weight": torch.full((2, 2), 5.0), "bias": torch.zeros(2)})
    assert torch.equal(sd["weight"], torch.full((2, 2), 5.0))
    m.to(torch.float64)
    with torch.no_grad():
        m.weight.fill_(1.0)
    assert sd["weight"].dtype == torch.float32
    assert torch.equal(sd["weight"], torch.full((2, 2), 5.0))


# ---------------------------------------------------------------------------------------------
# Other line notes of module.py.


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__init__",
    "with call_super_init False arguments raise Python-style TypeErrors, keywords checked first",
)
@each_nn()
def test_init_argument_errors(nn):
    class X(nn.Module):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    with pytest.raises(TypeError, match=r"X.__init__\(\) takes 1 positional argument but 2 were"):
        X(1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'k'"):
        X(1, k=2)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__call__",
    "__call__ is bound to _wrapped_call_impl when the class is built: overriding "
    "_wrapped_call_impl in a subclass changes nothing, overriding _call_impl does",
)
@each_nn()
def test_call_binding(nn):
    class A(nn.Module):
        def forward(self, x):
            return x

        def _wrapped_call_impl(self, *args, **kwargs):
            return "A"

    class B(A):
        def _call_impl(self, *args, **kwargs):
            return "B"

    assert A()(1) == 1
    assert B()(1) == "B"


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__setattr__",
    "a plain tensor under a new name is a plain attribute (not in state_dict, not moved by to()); "
    "self.weight = self.weight * 2 raises TypeError",
)
@each_nn()
def test_setattr_plain_tensor_and_parameter_slot(nn):
    m = nn.Linear(2, 2)
    m.scale = torch.ones(1)
    assert "scale" not in m.state_dict() and "scale" in vars(m)
    m.to(torch.float64)
    assert m.scale.dtype == torch.float32
    with pytest.raises(TypeError, match="cannot assign 'torch.DoubleTensor' as parameter 'weight'"):
        m.weight = m.weight * 2


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.load_state_dict",
    "assign=True writes assign_to_params_buffers into the caller's _metadata, so a later "
    "assign=False load of the same dict still assigns",
)
@each_nn()
def test_assign_leaks_through_metadata(nn):
    source = nn.Linear(2, 2)
    sd = source.state_dict()
    nn.Linear(2, 2).load_state_dict(sd, assign=True)
    assert sd._metadata[""].get("assign_to_params_buffers") is True
    target = nn.Linear(2, 2)
    target.load_state_dict(sd, assign=False)
    assert target.weight.data_ptr() == sd["weight"].data_ptr()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.state_dict",
    "a child's private post-hook return value is dropped; only the root's replaces the result",
)
@each_nn()
def test_child_private_post_hook_return_dropped(nn):
    m = nn.Sequential(nn.Linear(2, 2))
    m[0]._register_state_dict_hook(lambda *a: {"replaced": 1})
    assert "replaced" not in m.state_dict()
    m._register_state_dict_hook(lambda *a: {"replaced": 1})
    assert m.state_dict() == {"replaced": 1}


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._maybe_warn_non_full_backward_hook",
    "condition 4: even a one-node module (ReLU) warns when its input is a leaf that requires grad",
)
@each_nn()
def test_legacy_warning_for_leaf_input(nn):
    m = nn.ReLU()
    m.register_backward_hook(lambda *a: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(torch.ones(2, requires_grad=True))
    assert any("multiple autograd Nodes" in str(w.message) for w in caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m(torch.ones(2, requires_grad=True) * 1)
    assert not any("multiple autograd Nodes" in str(w.message) for w in caught)
