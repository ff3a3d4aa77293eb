"""Claims of modules/module.py: the "1.5.1 → 2.13" sentences, checked for today's behavior.

Only the part of each sentence that describes torch 2.13 is tested (what 1.5.1 did is history and
cannot run here). Each test runs on torch.nn and on annotated_nn.
"""

from __future__ import annotations

import pickle
import warnings
import weakref
from contextlib import contextmanager

import pytest
import torch
from claim import each_nn, proves


@contextmanager
def swap_flag():
    """Turn the swap-on-conversion flag on, restoring the old value afterwards."""
    old = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        yield
    finally:
        torch.__future__.set_swap_module_params_on_conversion(old)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "_forward_unimplemented",
    "1.5.1 → 2.13: the NotImplementedError names the module that lacks forward",
)
@each_nn()
def test_missing_forward_names_the_module(nn):
    class NoForward(nn.Module):
        pass

    with pytest.raises(NotImplementedError, match=r"Module \[NoForward\] is missing the required"):
        NoForward()(1)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module",
    "1.5.1 → 2.13: call_super_init passes the arguments on to the next class in the MRO",
)
@each_nn()
def test_call_super_init_reaches_mixin(nn):
    class Mixin:
        def __init__(self, *args, **kwargs):
            self.got = (args, kwargs)

    class M(nn.Module, Mixin):
        call_super_init = True

    m = M(1, k=2)
    assert m.got == ((1,), {"k": 2})
    assert "_parameters" in vars(m)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_buffer",
    "1.5.1 → 2.13: persistent=False keeps a buffer out of state_dict; a global buffer "
    "registration hook may replace the tensor",
)
@each_nn()
def test_register_buffer_persistent_and_global_hook(nn):
    m = nn.Module()
    m.register_buffer("kept", torch.zeros(1))
    m.register_buffer("scratch", torch.zeros(1), persistent=False)
    assert list(m.state_dict()) == ["kept"] and "scratch" in dict(m.named_buffers())
    replacement = torch.ones(2)
    handle = nn.modules.module.register_module_buffer_registration_hook(
        lambda module, name, tensor: replacement
    )
    try:
        m.register_buffer("b", torch.zeros(1))
    finally:
        handle.remove()
    assert m.b is replacement


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_parameter",
    "1.5.1 → 2.13: a global parameter registration hook sees every registration and may "
    "replace the parameter",
)
@each_nn()
def test_global_parameter_registration_hook(nn):
    seen = []
    replacement = nn.Parameter(torch.ones(3))

    def hook(module, name, param):
        seen.append(name)
        return replacement

    handle = nn.modules.module.register_module_parameter_registration_hook(hook)
    try:
        m = nn.Module()
        m.w = nn.Parameter(torch.zeros(1))
    finally:
        handle.remove()
    assert seen == ["w"] and m.w is replacement


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.add_module",
    "1.5.1 → 2.13: the dot error includes the name",
)
@each_nn()
def test_add_module_dot_error_names_it(nn):
    with pytest.raises(KeyError, match=r"got: a\.b"):
        nn.Module().add_module("a.b", nn.Module())


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._apply",
    "1.5.1 → 2.13: recurse=False converts only the module's own tensors",
)
@each_nn()
def test_apply_recurse_false(nn):
    m = nn.Sequential(nn.Linear(2, 2))
    m.register_parameter("own", nn.Parameter(torch.zeros(1)))
    m._apply(lambda t: t.double(), recurse=False)
    assert m.own.dtype == torch.float64 and m[0].weight.dtype == torch.float32


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._apply",
    "1.5.1 → 2.13: a failed swap restores .grad and raises RuntimeError naming the parameter, "
    "the cause chained; nothing is rolled back",
)
@each_nn()
def test_failed_swap_restores_grad(nn):
    m = nn.Linear(2, 2)
    m.weight.grad = torch.ones(2, 2)
    grad = m.weight.grad
    ref = weakref.ref(m.weight)  # swap_tensors refuses tensors with weak references
    with swap_flag(), pytest.raises(RuntimeError, match=r"_apply\(\): Couldn't swap Linear.weight"):
        try:
            m.to(torch.float64)
        except RuntimeError as e:
            assert "weakref" in str(e.__cause__)
            raise
    assert ref() is m.weight and m.weight.grad is grad
    assert m.weight.dtype == torch.float32


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.to",
    "1.5.1 → 2.13: complex dtypes are allowed with a 'new feature' warning; moving off meta "
    "points to to_empty",
)
@each_nn()
def test_to_complex_and_meta_hint(nn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = nn.Linear(2, 2).to(torch.complex64)
    assert m.weight.dtype == torch.complex64
    assert any("Complex modules are a new feature" in str(w.message) for w in caught)
    with pytest.raises(NotImplementedError, match=r"to_empty\(\) instead of"):
        nn.Linear(2, 2, device="meta").to("cpu")
    with pytest.raises(TypeError):
        nn.Linear(2, 2).to(torch.int64)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_forward_pre_hook",
    "1.5.1 → 2.13: prepend and with_kwargs are keyword-only; a with_kwargs pre-hook replaces "
    "args and kwargs with its pair",
)
@each_nn()
def test_forward_pre_hook_kwargs(nn):
    class Add(nn.Module):
        def forward(self, x, *, y):
            return x + y

    m = Add()
    with pytest.raises(TypeError):
        m.register_forward_pre_hook(lambda *a: None, True)
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"y": 10}), with_kwargs=True)
    assert m(1, y=2) == 11
    m.register_forward_pre_hook(lambda mod, args: 5, prepend=True)
    assert m(1, y=2) == 15


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_forward_hook",
    "1.5.1 → 2.13: an always_call forward hook still runs when forward raises, then the "
    "exception propagates",
)
@each_nn()
def test_always_call_hook_runs_on_error(nn):
    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    seen = []
    m = Boom()
    m.register_forward_hook(lambda mod, args, out: seen.append(out), always_call=True)
    m.register_forward_hook(lambda mod, args, out: seen.append("plain"))
    with pytest.raises(ValueError, match="boom"):
        m(1)
    assert seen == [None]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._call_impl",
    "1.5.1 → 2.13: global forward pre-hooks run for every module, before the module's own",
)
@each_nn()
def test_global_pre_hook_runs_first(nn):
    order = []
    m = nn.Identity()
    m.register_forward_pre_hook(lambda *a: order.append("local"), prepend=True)
    handle = nn.modules.module.register_module_forward_pre_hook(lambda *a: order.append("global"))
    try:
        m(1)
        nn.ReLU()(torch.ones(1))
    finally:
        handle.remove()
    assert order == ["global", "local", "global"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__setstate__",
    "1.5.1 → 2.13: tables missing from an old pickle are filled in, so the module still works",
)
@each_nn()
def test_setstate_fills_missing_tables(nn):
    state = nn.Linear(2, 2).__getstate__()
    for key in (
        "_forward_pre_hooks",
        "_forward_hooks_always_called",
        "_state_dict_pre_hooks",
        "_load_state_dict_post_hooks",
        "_non_persistent_buffers_set",
        "_is_full_backward_hook",
        "_backward_pre_hooks",
    ):
        del state[key]
    m = nn.Linear.__new__(nn.Linear)
    m.__setstate__(state)
    assert m(torch.ones(2)).shape == (2,)
    assert list(m.state_dict()) == ["weight", "bias"]
    assert m._is_full_backward_hook is None and m._non_persistent_buffers_set == set()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__getstate__",
    "the compiled _compiled_call_impl is dropped: an unpickled module is uncompiled",
)
@each_nn()
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_getstate_drops_compiled_call(nn):
    m = nn.Linear(2, 2)
    m.compile()
    assert m._compiled_call_impl is not None
    assert "_compiled_call_impl" not in m.__getstate__()
    copy = pickle.loads(pickle.dumps(m))
    assert copy._compiled_call_impl is None and "_compiled_call_impl" not in vars(copy)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__setattr__",
    "1.5.1 → 2.13: a Buffer carries its persistence; a plain tensor assigned to a buffer "
    "keeps the name's persistence",
)
@each_nn()
def test_setattr_buffer_branch(nn):
    m = nn.Module()
    m.scratch = nn.Buffer(torch.zeros(1), persistent=False)
    assert "scratch" in dict(m.named_buffers()) and "scratch" not in m.state_dict()
    m.scratch = torch.ones(1)
    assert "scratch" in m._buffers and "scratch" not in m.state_dict()
    m.scratch = nn.Buffer(torch.ones(1))
    assert "scratch" in m.state_dict()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.__delattr__",
    "1.5.1 → 2.13: deleting a buffer clears its non-persistent mark",
)
@each_nn()
def test_delattr_clears_non_persistent_mark(nn):
    m = nn.Module()
    m.register_buffer("b", torch.zeros(1), persistent=False)
    del m.b
    assert "b" not in m._non_persistent_buffers_set
    m.register_buffer("b", torch.zeros(1))
    assert "b" in m.state_dict()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._save_to_state_dict",
    "1.5.1 → 2.13: non-persistent buffers are skipped; an overridden get_extra_state is saved "
    "under prefix + '_extra_state'",
)
@each_nn()
def test_extra_state_saved(nn):
    class WithExtra(nn.Module):
        def get_extra_state(self):
            return {"step": 3}

        def set_extra_state(self, state):
            self.loaded = state

    m = nn.Sequential(WithExtra())
    m[0].register_buffer("tmp", torch.zeros(1), persistent=False)
    sd = m.state_dict()
    assert list(sd) == ["0._extra_state"] and sd["0._extra_state"] == {"step": 3}
    m.load_state_dict(sd)
    assert m[0].loaded == {"step": 3}


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.state_dict",
    "1.5.1 → 2.13: positional arguments give a FutureWarning; a public post-hook that returns "
    "a value raises RuntimeError",
)
@each_nn()
def test_state_dict_positional_and_public_post_hook(nn):
    m = nn.Linear(2, 2)
    with pytest.warns(FutureWarning, match="Positional args are being deprecated"):
        sd = m.state_dict(None, "p.")
    assert list(sd) == ["p.weight", "p.bias"]
    m.register_state_dict_post_hook(lambda *a: {"x": 1})
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        m.state_dict()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._register_load_state_dict_pre_hook",
    "1.5.1 → 2.13: with_module=True passes the module as the first argument",
)
@each_nn()
def test_load_pre_hook_with_module(nn):
    got = []
    m = nn.Linear(2, 2)
    m._register_load_state_dict_pre_hook(lambda *a: got.append(a[0]), with_module=True)
    m.load_state_dict(m.state_dict())
    assert got == [m]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._load_from_state_dict",
    "1.5.1 → 2.13: a non-tensor value is an error; copying into a meta parameter warns; "
    "assign=True keeps the module's requires_grad",
)
@each_nn()
def test_load_from_state_dict_new_checks(nn):
    with pytest.raises(RuntimeError, match="expected torch.Tensor or Tensor-like object"):
        nn.Linear(2, 2).load_state_dict({"weight": 1, "bias": torch.zeros(2)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.Linear(2, 2, device="meta").load_state_dict(nn.Linear(2, 2).state_dict())
    assert any("to a meta parameter in the current model" in str(w.message) for w in caught)
    m = nn.Linear(2, 2, device="meta")
    sd = {"weight": torch.ones(2, 2), "bias": torch.zeros(2)}
    m.load_state_dict(sd, assign=True)
    assert m.weight.device.type == "cpu" and m.weight.requires_grad
    assert isinstance(m.weight, nn.Parameter) and m.weight.data_ptr() == sd["weight"].data_ptr()


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.load_state_dict",
    "1.5.1 → 2.13: a non-Mapping raises TypeError; children receive dicts filtered to their prefix",
)
@each_nn()
def test_load_state_dict_mapping_and_filtering(nn):
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        m.load_state_dict(list(m.state_dict().items()))
    seen = []
    m[1]._register_load_state_dict_pre_hook(lambda sd, *a: seen.append(sorted(sd)))
    m.load_state_dict(m.state_dict())
    assert seen == [["1.bias", "1.weight"]]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.named_parameters",
    "1.5.1 → 2.13: remove_duplicate=False lists a shared parameter under each name",
)
@each_nn()
def test_named_parameters_remove_duplicate(nn):
    m = nn.Sequential(nn.Linear(2, 2, bias=False), nn.Linear(2, 2, bias=False))
    m[1].weight = m[0].weight
    assert [n for n, _ in m.named_parameters()] == ["0.weight"]
    assert [n for n, _ in m.named_parameters(remove_duplicate=False)] == ["0.weight", "1.weight"]


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.train",
    "1.5.1 → 2.13: a non-bool mode raises ValueError",
)
@each_nn()
def test_train_requires_bool(nn):
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        nn.Linear(2, 2).train(1)


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.zero_grad",
    "1.5.1 → 2.13: set_to_none defaults to True; set_to_none=False zeroes in place",
)
@each_nn()
def test_zero_grad_default(nn):
    m = nn.Linear(2, 2)
    m(torch.ones(2)).sum().backward()
    grad = m.weight.grad
    m.zero_grad(set_to_none=False)
    assert m.weight.grad is grad and not grad.any()
    m.zero_grad()
    assert m.weight.grad is None


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module._replicate_for_data_parallel",
    "1.5.1 → 2.13: a replica has plain-dict tables, an empty parameter table and _is_replica",
)
@each_nn()
def test_replica_tables(nn):
    m = nn.Sequential(nn.Linear(2, 2))
    replica = m[0]._replicate_for_data_parallel()
    assert replica._is_replica is True and replica._parameters == {}
    assert type(replica._buffers) is dict and replica._buffers is not m[0]._buffers
    assert replica._forward_hooks is m[0]._forward_hooks


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Module.register_full_backward_pre_hook",
    "not in 1.5.1: a backward pre-hook may replace grad_output",
)
@each_nn()
def test_full_backward_pre_hook_replaces_grad_output(nn):
    m = nn.Linear(2, 2, bias=False)
    m.register_full_backward_pre_hook(lambda mod, grad_output: (grad_output[0] * 0,))
    x = torch.ones(1, 2, requires_grad=True)
    m(x).sum().backward()
    assert not x.grad.any() and not m.weight.grad.any()
