"""The pitfalls of chapter 17 (recipes) and the facts of chapter 16 (end to end)."""

from __future__ import annotations

import copy
import warnings

import pytest
import torch
import torch.nn.functional as F
from claim import each_nn, proves


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-order",
    "global forward hooks run first, then prepend=True ones, then the rest in registration order",
)
@each_nn()
def test_hook_order(nn):
    """The chapter's example."""
    m = nn.Identity()
    order = []
    m.register_forward_hook(lambda mod, args, out: order.append("first registered"))
    m.register_forward_hook(lambda mod, args, out: order.append("second registered"))
    m.register_forward_hook(lambda mod, args, out: order.append("prepended"), prepend=True)
    handle = nn.modules.module.register_module_forward_hook(
        lambda mod, args, out: order.append("global")
    )
    try:
        m(torch.zeros(1))
    finally:
        handle.remove()
    assert order == ["global", "prepended", "first registered", "second registered"]


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-order",
    "if a hook returns a new value, later hooks see the new value",
)
@each_nn()
def test_later_hooks_see_replaced_output(nn):
    """The order of hooks can change the result."""
    m = nn.Identity()
    seen = []
    m.register_forward_hook(lambda mod, args, out: out + 1)
    m.register_forward_hook(lambda mod, args, out: seen.append(out.item()))
    assert m(torch.zeros(1)).item() == 1.0
    assert seen == [1.0]


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-inplace",
    "editing Sigmoid's output in place in a hook makes backward() raise; returning a copy works",
)
@each_nn()
def test_in_place_edit_in_hook_breaks_backward(nn):
    """The version counter no longer matches."""
    act = nn.Sigmoid()
    handle = act.register_forward_hook(lambda mod, args, out: out.mul_(2))
    x = torch.randn(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        act(x).sum().backward()
    handle.remove()
    act.register_forward_hook(lambda mod, args, out: out * 2)
    act(x).sum().backward()
    assert torch.allclose(act(x), 2 * torch.sigmoid(x))


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-more",
    "a hook that stores output itself keeps the whole graph reachable; a detach()ed copy does not",
)
@each_nn()
def test_holding_outputs_keeps_graph(nn):
    """The stored output still has a grad_fn chaining back into the graph."""
    lin = nn.Linear(2, 2)
    kept = []
    lin.register_forward_hook(lambda mod, args, out: kept.append(out))
    lin.register_forward_hook(lambda mod, args, out: kept.append(out.detach()))
    x = torch.ones(1, 2, requires_grad=True)
    lin(x * 2)
    held, detached = kept
    assert held.grad_fn is not None and not detached.requires_grad
    held.sum().backward()
    assert x.grad is not None


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-more",
    "a module used twice is listed once by named_modules() but its hooks fire twice",
)
@each_nn()
def test_shared_module_hooks_fire_twice(nn):
    """Deduplicated listing, repeated calls."""
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.Tanh(), shared)
    assert [name for name, _ in model.named_modules()] == ["", "0", "1"]
    calls = []
    shared.register_forward_hook(lambda mod, args, out: calls.append(out.shape))
    model(torch.randn(1, 2))
    assert len(calls) == 2
    assert len(list(model.parameters())) == 2


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-more",
    "hooks do not change the mode: a training-mode run updates BatchNorm even under no_grad",
)
@each_nn()
def test_batchnorm_updates_under_no_grad(nn):
    """Buffers change in place in training mode, gradients or not."""
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    with torch.no_grad():
        model(torch.randn(4, 2) + 3)
    assert model[1].num_batches_tracked.item() == 1
    assert model[1].running_mean.abs().sum() > 0
    model.eval()
    before = model[1].running_mean.clone()
    with torch.no_grad():
        model(torch.randn(4, 2))
    assert torch.equal(model[1].running_mean, before)


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-more",
    "deepcopy copies _forward_hooks; the old handle removes the hook from the original only",
)
@each_nn()
def test_deepcopy_copies_hooks(nn):
    """The copy keeps the hook, which calls the same function with the same closure list."""
    seen = []
    layer = nn.Linear(2, 2)
    handle = layer.register_forward_hook(lambda mod, args, out: seen.append(id(mod)))
    twin = copy.deepcopy(layer)
    handle.remove()
    layer(torch.zeros(1, 2))
    twin(torch.zeros(1, 2))
    assert len(layer._forward_hooks) == 0 and len(twin._forward_hooks) == 1
    assert seen == [id(twin)]


@proves(
    "docs/chapters/17-recipes.md",
    "pitfall-more",
    "a full backward hook on a layer whose inputs need no grad warns with a UserWarning",
)
@each_nn()
def test_full_backward_hook_first_layer_warns(nn):
    """Input data usually needs no gradient; requires_grad=True avoids the warning."""
    lin = nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda mod, gin, gout: None)
    with pytest.warns(UserWarning, match="no inputs require gradients"):
        lin(torch.ones(1, 2)).sum().backward()
    with_grad = torch.ones(1, 2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lin(with_grad).sum().backward()


def _simple_net(nn):
    class SimpleNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 3)
            self.conv2 = nn.Conv2d(6, 16, 3)
            self.fc = nn.Linear(16 * 6 * 6, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc(x.view(-1, 16 * 6 * 6))

    return SimpleNet()


@proves(
    "docs/chapters/16-end-to-end.md",
    "trace",
    "forward hooks nest; in the backward pass fc comes first and the root's full hook runs last",
)
@each_nn()
def test_hook_trace_of_one_call(nn):
    """The chapter's trace, by label."""
    torch.manual_seed(0)
    net = _simple_net(nn)
    trace = []
    for name, module in net.named_modules():
        label = name or "root"
        module.register_forward_pre_hook(lambda m, a, label=label: trace.append(("pre", label)))
        module.register_forward_hook(lambda m, a, o, label=label: trace.append(("fwd", label)))
        module.register_full_backward_hook(
            lambda m, gi, go, label=label: trace.append(("bwd", label))
        )
    net(torch.randn(1, 1, 32, 32, requires_grad=True)).sum().backward()
    assert trace == [
        ("pre", "root"),
        ("pre", "conv1"),
        ("fwd", "conv1"),
        ("pre", "conv2"),
        ("fwd", "conv2"),
        ("pre", "fc"),
        ("fwd", "fc"),
        ("fwd", "root"),
        ("bwd", "fc"),
        ("bwd", "conv2"),
        ("bwd", "conv1"),
        ("bwd", "root"),
    ]


@proves(
    "docs/chapters/16-end-to-end.md",
    "training-step",
    "to(float64) keeps the parameter objects, so an optimizer built earlier stays valid",
)
@each_nn()
def test_to_keeps_parameter_objects(nn):
    """One SGD step after the conversion moves the float64 parameters."""
    torch.manual_seed(0)
    net = _simple_net(nn)
    before = list(net.parameters())
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    net.to(torch.float64)
    assert all(a is b for a, b in zip(before, net.parameters(), strict=True))
    assert net.fc.weight.dtype == torch.float64
    snapshot = net.fc.weight.detach().clone()
    net.zero_grad()
    loss = F.cross_entropy(
        net(torch.randn(4, 1, 32, 32, dtype=torch.float64)), torch.tensor([1, 2, 3, 4])
    )
    loss.backward()
    optimizer.step()
    assert not torch.equal(net.fc.weight, snapshot)


@proves(
    "docs/chapters/16-end-to-end.md",
    "round-trip",
    "a state_dict moves unchanged between annotated_nn and torch.nn, with bit-identical outputs",
)
@each_nn()
def test_state_dict_round_trip(nn):
    """Same seed, same weights; the other side loads it with all keys matched."""
    import torch.nn as tnn

    import annotated_nn as ann

    theirs_nn = ann if nn is tnn else tnn
    torch.manual_seed(0)
    mine = _simple_net(nn)
    torch.manual_seed(0)
    theirs = _simple_net(theirs_nn)
    assert repr(mine) == repr(theirs)
    x = torch.randn(2, 1, 32, 32)
    assert torch.equal(mine(x), theirs(x))
    fresh = _simple_net(theirs_nn)
    assert str(fresh.load_state_dict(mine.state_dict())) == "<All keys matched successfully>"
    assert torch.equal(fresh(x), mine(x))
    assert dict(mine.state_dict()._metadata) == {
        "": {"version": 1},
        "conv1": {"version": 1},
        "conv2": {"version": 1},
        "fc": {"version": 1},
    }


@proves(
    "docs/chapters/17-recipes.md",
    "summary-recipe",
    "summary lists rows in call order (a shared module twice), counts its parameters once, and "
    "removes its hooks even when the forward pass fails",
)
@each_nn()
def test_summary_recipe(nn):
    """Two rows named '0', a total of 6 parameters, no hook left behind."""
    from annotated_examples.recipes import summary

    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, nn.Tanh(), shared)
    result = summary(model, torch.randn(1, 2))
    assert [row.name for row in result.rows] == ["0", "1", "0"]
    assert "Total params: 6" in str(result)
    assert not shared._forward_hooks
    with pytest.raises(RuntimeError):
        summary(model, torch.randn(1, 3))
    assert not shared._forward_hooks


@proves(
    "docs/chapters/17-recipes.md",
    "recorder",
    "Recorder records gradients in backward-pass order and removes its hooks on exit, also when "
    "the with block raises",
)
@each_nn()
def test_recorder_recipe(nn):
    """Activations in forward order, gradients in reverse."""
    from annotated_examples.recipes import Recorder

    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    x = torch.randn(3, 4, requires_grad=True)
    with Recorder(model) as rec:
        model(x).sum().backward()
    assert list(rec.activations) == ["0", "1", "2"]
    assert list(rec.gradients) == ["2", "1", "0"]
    assert not model[0]._forward_hooks and not model[0]._backward_hooks
    with pytest.raises(KeyError):
        with Recorder(model):
            raise KeyError("boom")
    assert not model[0]._forward_hooks and not model[0]._backward_hooks
