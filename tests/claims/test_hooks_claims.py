"""Claims of utils/hooks.py (RemovableHandle, BackwardHook) and chapter 7 (backward hooks)."""

from __future__ import annotations

import gc
import pickle
import warnings
import weakref

import pytest
import torch
import torch.nn as tnn
import torch.utils.hooks as torch_hooks
from claim import each_nn, proves

import annotated_nn as ann
import annotated_nn.utils.hooks as ann_hooks

HOOKS_OF = {tnn: torch_hooks, ann: ann_hooks}


def noop_hook(*args):
    """A picklable forward hook."""


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "RemovableHandle",
    "remove() also deletes the key from extra dicts (always_call, with_kwargs) and is idempotent",
)
@each_nn()
def test_handle_removes_from_extra_dicts(nn):
    """A hook recorded in three dicts disappears from all three; a second remove is harmless."""
    m = nn.Linear(2, 2)
    h = m.register_forward_hook(noop_hook, always_call=True, with_kwargs=True)
    assert h.id in m._forward_hooks_always_called and h.id in m._forward_hooks_with_kwargs
    h.remove()
    h.remove()
    assert not m._forward_hooks
    assert not m._forward_hooks_always_called and not m._forward_hooks_with_kwargs


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "RemovableHandle",
    "the handle holds weak references: it does not keep the module alive",
)
@each_nn()
def test_handle_does_not_keep_module_alive(nn):
    """After the module is collected, remove() does nothing."""
    m = nn.Linear(2, 2)
    h = m.register_forward_hook(noop_hook)
    ref = weakref.ref(m)
    del m
    gc.collect()
    assert ref() is None
    h.remove()


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "RemovableHandle.__exit__",
    "used as a context manager the hook is removed on exit, and an exception is not swallowed",
)
@each_nn()
def test_handle_context_manager_removes_on_exception(nn):
    """The with-block removes the hook whether or not it raised."""
    m = nn.Identity()
    with pytest.raises(KeyError):
        with m.register_forward_hook(noop_hook) as handle:
            assert handle.id in m._forward_hooks
            raise KeyError("boom")
    assert not m._forward_hooks


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "RemovableHandle",
    "ids increase process-wide, so dict insertion order is registration order",
)
@each_nn()
def test_handle_ids_increase(nn):
    """Two hooks: later id is larger and comes later in the dict."""
    m = nn.Identity()
    a = m.register_forward_hook(noop_hook)
    b = m.register_forward_hook(noop_hook)
    assert b.id > a.id
    assert list(m._forward_hooks) == [a.id, b.id]


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "RemovableHandle.__setstate__",
    "an unpickled handle keeps its id and pushes next_id past it",
)
@each_nn()
def test_unpickled_handle_moves_next_id(nn):
    """Handles created after unpickling cannot clash with the restored id."""
    m = nn.Identity()
    handle = m.register_forward_hook(noop_hook)
    restored = pickle.loads(pickle.dumps(handle))
    assert restored.id == handle.id
    assert HOOKS_OF[nn].RemovableHandle.next_id > restored.id


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "unserializable_hook",
    "warn_if_has_hooks warns per hook, except hooks marked by unserializable_hook",
)
@each_nn()
def test_unserializable_hook_silences_warning(nn):
    """A marked hook gives no warning; an unmarked one does."""
    hooks = HOOKS_OF[nn]
    plain = torch.ones(1, requires_grad=True)
    plain.register_hook(lambda g: g)
    marked = torch.ones(1, requires_grad=True)
    marked.register_hook(hooks.unserializable_hook(lambda g: g))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hooks.warn_if_has_hooks(plain)
        hooks.warn_if_has_hooks(marked)
    assert len(caught) == 1
    assert "will not be serialized" in str(caught[0].message)


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook._set_user_hook",
    "grad_input is aligned with positional args: None at non-tensors, zeros for no-grad tensors",
)
@each_nn()
def test_grad_input_positions(nn):
    """A positional tensor that does not require grad shows up as a zero tensor, not None."""

    class Mul(nn.Module):
        def forward(self, x, k, y):
            return x * y * 2

    m = Mul()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin))
    x = torch.tensor(3.0, requires_grad=True)
    m(x, 5, torch.tensor(4.0)).backward()
    (grad_input,) = seen
    assert len(grad_input) == 3
    assert torch.equal(grad_input[0], torch.tensor(8.0))
    assert grad_input[1] is None
    assert torch.equal(grad_input[2], torch.tensor(0.0))


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook.setup_input_hook",
    "keyword tensors skip the input node: their grads accumulate but never appear in grad_input",
)
@each_nn()
def test_keyword_tensors_not_in_grad_input(nn):
    """grad_input covers positional arguments only."""

    class Scale(nn.Module):
        def forward(self, x, *, w):
            return x * w

    m = Scale()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin))
    x = torch.tensor(3.0, requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    m(x, w=w).backward()
    assert len(seen[0]) == 1
    assert torch.equal(w.grad, torch.tensor(3.0))


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook.setup_input_hook",
    "if only keyword tensors require grad, hooks fire at the output node with a warning",
)
@each_nn()
def test_only_keyword_requires_grad_fires_early(nn):
    """grad_input is all None and the 'no inputs require gradients' warning is issued."""

    class Scale(nn.Module):
        def forward(self, x, *, w):
            return x * w

    m = Scale()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin))
    w = torch.tensor(2.0, requires_grad=True)
    with pytest.warns(UserWarning, match="since no inputs require gradients"):
        m(torch.tensor(3.0), w=w).backward()
    assert seen == [(None,)]


@proves(
    "docs/chapters/07-backward-hooks.md",
    "exercises",
    "a forward returning a dict never runs its full backward hooks, and a warning says so",
)
@each_nn()
def test_dict_output_skips_full_backward_hooks(nn):
    """No output node is built for a non-tuple, non-tensor output."""

    class Out(nn.Module):
        def forward(self, x):
            return {"out": x * 2}

    m = Out()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin))
    with pytest.warns(UserWarning, match="module output should be a Tensor or a tuple of Tensors"):
        out = m(torch.tensor(1.0, requires_grad=True))
    out["out"].backward()
    assert seen == []


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook._set_user_hook",
    "full hooks are chained: a returned tuple is what the next hook sees and what flows on",
)
@each_nn()
def test_full_hooks_chain_and_replace_grad_input(nn):
    """The second hook sees the first's replacement, and the input's .grad gets it."""
    m = nn.Identity()
    seen = []
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0] * 10,))
    m.register_full_backward_hook(lambda mod, gin, gout: seen.append(gin[0].clone()))
    x = torch.ones(2, requires_grad=True)
    (m(x) * 1).sum().backward()
    assert torch.equal(seen[0], torch.full((2,), 10.0))
    assert torch.equal(x.grad, torch.full((2,), 10.0))


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook._set_user_hook",
    "a replacement grad_input of the wrong length raises RuntimeError",
)
@each_nn()
def test_wrong_length_grad_input_raises(nn):
    """torch's error text."""
    m = nn.Identity()
    m.register_full_backward_hook(lambda mod, gin, gout: (gin[0], gin[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 2, but expected 1"):
        (m(torch.ones(1, requires_grad=True)) * 1).sum().backward()


@proves(
    "annotated_src/annotated_nn/utils/hooks.py",
    "BackwardHook.setup_output_hook",
    "with no input requiring grad, a hook may only return None",
)
@each_nn()
def test_no_input_grad_hook_must_return_none(nn):
    """Returning a gradient there is an error."""
    lin = nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda mod, gin, gout: (torch.ones(1),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="should always return None or None for all"):
            lin(torch.ones(1, 2)).sum().backward()


@proves(
    "docs/chapters/07-backward-hooks.md",
    "exercises",
    "zeroing grad_output in a backward pre-hook zeroes the module's own parameter gradients",
)
@each_nn()
def test_pre_hook_replacement_flows_into_module(nn):
    """The pre-hook's replacement is what flows into the module."""
    lin = nn.Linear(2, 2)
    lin.register_full_backward_pre_hook(lambda mod, gout: tuple(g * 0 for g in gout))
    lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
    assert torch.count_nonzero(lin.weight.grad) == 0
    assert torch.count_nonzero(lin.bias.grad) == 0


@proves(
    "docs/chapters/07-backward-hooks.md",
    "full",
    "full hooks give the module's true input gradients; the legacy hook sees the last node's",
)
@each_nn()
def test_full_versus_legacy_backward_hook(nn):
    """x*y*2 at (3, 4): full (8, 6); legacy (2, None) with a FutureWarning."""

    class Mul(nn.Module):
        def forward(self, x, y):
            return x * y * 2

    x = torch.tensor(3.0, requires_grad=True)
    y = torch.tensor(4.0, requires_grad=True)
    full, legacy = Mul(), Mul()
    got = {}
    full.register_full_backward_hook(lambda mod, gin, gout: got.setdefault("full", gin))
    legacy.register_backward_hook(lambda mod, gin, gout: got.setdefault("legacy", gin))
    full(x, y).backward()
    with pytest.warns(FutureWarning, match="Using a non-full backward hook"):
        legacy(x, y).backward()
    assert [g.item() for g in got["full"]] == [8.0, 6.0]
    assert got["legacy"][0].item() == 2.0 and got["legacy"][1] is None
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        legacy.register_full_backward_hook(lambda mod, gin, gout: None)


@proves(
    "docs/chapters/07-backward-hooks.md",
    "full",
    "with a full backward hook, editing an input in place inside forward raises",
)
@each_nn()
def test_full_hook_forbids_in_place_input_edit(nn):
    """The inputs are views output by BackwardHookFunction."""

    class InPlace(nn.Module):
        def forward(self, x):
            return x.relu_()

    m = InPlace()
    m.register_full_backward_hook(lambda mod, gin, gout: None)
    with pytest.raises(RuntimeError, match="Output 0 of BackwardHookFunction is a view"):
        m(torch.ones(1, requires_grad=True) * 1)
