"""Every name of torch 2.13's Module class body and of module.py exists here, with torch's signature."""

import inspect

import pytest
import torch
import torch.nn.modules.module as torch_module_py

import annotated_nn
import annotated_nn.modules.module as our_module_py

TORCH_BODY = [
    k
    for k in torch.nn.Module.__dict__
    if k not in ("__module__", "__doc__", "__dict__", "__weakref__", "__annotations__")
]


def shape_of(sig):
    """Parameter names, kinds and defaults: what a caller can observe of a signature."""
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


def test_the_73_functions_are_all_here():
    functions = [
        k
        for k in TORCH_BODY
        if callable(torch.nn.Module.__dict__[k])
        and not isinstance(torch.nn.Module.__dict__[k], type)
        and k != "T_destination"
    ]
    assert len(functions) == 73
    missing = [k for k in TORCH_BODY if k not in annotated_nn.Module.__dict__]
    assert missing == []


@pytest.mark.parametrize("name", TORCH_BODY)
def test_same_signature_and_kind(name):
    theirs = torch.nn.Module.__dict__[name]
    ours = annotated_nn.Module.__dict__[name]
    assert type(ours) is type(theirs)
    if isinstance(theirs, type(torch.nn.Module.T_destination)):
        # a TypeVar: same name and bound
        assert (ours.__name__, repr(ours.__bound__)) == (theirs.__name__, repr(theirs.__bound__))
    elif callable(theirs):
        assert shape_of(inspect.signature(ours)) == shape_of(inspect.signature(theirs))
    else:
        assert ours == theirs


def test_class_body_order_matches():
    ours = [k for k in annotated_nn.Module.__dict__ if k in TORCH_BODY]
    assert ours == TORCH_BODY


def test_class_annotations_match_by_name():
    assert list(annotated_nn.Module.__annotations__) == list(torch.nn.Module.__annotations__)


def test_module_level_names():
    assert our_module_py.__all__ == torch_module_py.__all__
    for name in [
        "_IncompatibleKeys",
        "_addindent",
        "_WrappedHook",
        "_EXTRA_STATE_KEY_SUFFIX",
        "_forward_unimplemented",
        "_has_any_global_hook",
        "_global_buffer_registration_hooks",
        "_global_module_registration_hooks",
        "_global_parameter_registration_hooks",
        "_global_backward_pre_hooks",
        "_global_backward_hooks",
        "_global_is_full_backward_hook",
        "_global_forward_pre_hooks",
        "_global_forward_hooks",
        "_global_forward_hooks_always_called",
        "_global_forward_hooks_with_kwargs",
        "T",
        "_grad_t",
    ] + torch_module_py.__all__:
        assert hasattr(our_module_py, name), name
        theirs, ours = getattr(torch_module_py, name), getattr(our_module_py, name)
        if inspect.isfunction(theirs):
            assert shape_of(inspect.signature(ours)) == shape_of(inspect.signature(theirs)), name
    assert our_module_py._EXTRA_STATE_KEY_SUFFIX == torch_module_py._EXTRA_STATE_KEY_SUFFIX


def test_public_paths_mirror_torch_nn():
    assert (
        annotated_nn.modules.module.register_module_forward_hook
        is our_module_py.register_module_forward_hook
    )
    assert annotated_nn.Module is our_module_py.Module
    assert annotated_nn.functional is torch.nn.functional


def test_module_subclasses_torch_module_and_overrides_its_whole_class_body():
    # issue 22: our Module is a torch.nn.Module (torch's isinstance checks pass), yet every name
    # of torch's class body is defined by ours, so no torch.nn.Module function is inherited.
    assert issubclass(annotated_nn.Module, torch.nn.Module)
    assert annotated_nn.Module.__mro__ == (annotated_nn.Module, torch.nn.Module, object)
    # descriptors Python creates (no torch code), and the marker torch.compile sets on the class
    inherited_only = {"__dict__", "__weakref__", "___needs_generation_tag_patch"}
    for name, value in vars(torch.nn.Module).items():
        if name in inherited_only:
            continue
        assert name in vars(annotated_nn.Module), name
        if callable(value) and not isinstance(value, type):
            assert vars(annotated_nn.Module)[name] is not value, name
    assert set(vars(annotated_nn.Module)) - set(vars(torch.nn.Module)) == set()


def test_incompatible_keys_and_addindent():
    for mod in (torch_module_py, our_module_py):
        k = mod._IncompatibleKeys([], [])
        assert repr(k) == str(k) == "<All keys matched successfully>"
    a = torch_module_py._IncompatibleKeys(["a"], ["b"])
    b = our_module_py._IncompatibleKeys(["a"], ["b"])
    assert repr(a) == repr(b) and a == b and type(b).__name__ == "_IncompatibleKeys"
    assert our_module_py._IncompatibleKeys.__slots__ == ()
    for s in ["one", "a\nb\n\nc", "x\n  y\n", ""]:
        for n in (0, 2, 4):
            assert our_module_py._addindent(s, n) == torch_module_py._addindent(s, n)
