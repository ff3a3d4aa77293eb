"""The module tree: children, named_*, modules, _named_members, get/set_submodule, get_parameter/get_buffer."""

import pytest
import torch

from helpers import assert_same, norm, outcome


def build(nn):
    """A tree with a shared child, a shared parameter, None slots and buffers."""
    root = nn.Module()
    root.a = nn.Module()
    root.a.w = nn.Parameter(torch.ones(1))
    root.a.register_buffer("run", torch.zeros(1))
    root.a.register_buffer("hidden", torch.zeros(1), persistent=False)
    root.b = nn.Module()
    root.b.inner = nn.Module()
    root.b.inner.w = root.a.w  # shared parameter
    root.b.inner.register_parameter("none_slot", None)
    root.c = root.a  # shared module under a second name
    root.add_module("empty", None)
    root.top = nn.Parameter(torch.ones(2))
    return root


def names(pairs):
    return [n for n, _ in pairs]


def test_traversal_orders_and_duplicates():
    def scenario(nn):
        r = build(nn)
        return (
            names(r.named_modules()),
            names(r.named_modules(remove_duplicate=False)),
            names(r.named_modules(prefix="model")),
            names(r.named_children()),
            len(list(r.children())),
            len(list(r.modules())),
            len(list(r.modules(remove_duplicate=False))),
            names(r.named_parameters()),
            names(r.named_parameters(remove_duplicate=False)),
            names(r.named_parameters(prefix="p", recurse=False)),
            names(r.named_buffers()),
            names(r.named_buffers(remove_duplicate=False)),
            names(r.named_buffers(recurse=False)),
            len(list(r.parameters())),
            len(list(r.parameters(recurse=False))),
            len(list(r.buffers())),
            list(r.state_dict()),
            list(r.state_dict(keep_vars=True)),
        )

    assert_same(scenario)


def test_cycle_in_tree_terminates():
    def scenario(nn):
        r = nn.Module()
        r.child = nn.Module()
        r.child.parent = r
        return names(r.named_modules()), names(r.named_parameters())

    assert_same(scenario)


def test_named_modules_memo_argument():
    def scenario(nn):
        r = build(nn)
        memo = {r.a}
        return names(r.named_modules(memo=memo)), len(memo)

    assert_same(scenario)


def test_generators_are_lazy():
    def scenario(nn):
        r = build(nn)
        gen = r.named_parameters()
        first = next(gen)[0]
        r.late = nn.Parameter(torch.ones(1))  # mutating the table being iterated
        rest = norm(outcome(lambda: names(gen)))
        gen2 = r.named_parameters()
        next(gen2)
        r.b.inner.late = nn.Parameter(torch.ones(1))  # a table not yet reached
        return first, rest, names(gen2)

    assert_same(scenario)


@pytest.mark.parametrize(
    "target",
    ["", "a", "b.inner", "a.w", "nope", "a.nope", "b.inner.w", "empty", "top", "a.run", "c"],
)
def test_get_submodule_parameter_buffer(target):
    def scenario(nn):
        r = build(nn)
        describe = lambda x: type(x).__name__
        return (
            norm(outcome(lambda: describe(r.get_submodule(target)))),
            norm(outcome(lambda: describe(r.get_parameter(target)))),
            norm(outcome(lambda: describe(r.get_buffer(target)))),
        )

    assert_same(scenario)


@pytest.mark.parametrize(
    "target", ["", "a", "new", "b.inner", "b.new", "a.w", "nope.x", "top", "b.inner.deeper"]
)
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("value", ["module", "tensor"])
def test_set_submodule(target, strict, value):
    def scenario(nn):
        r = build(nn)
        v = nn.Module() if value == "module" else torch.ones(1)
        result = norm(outcome(r.set_submodule, target, v, strict=strict))
        return result, names(r.named_modules(remove_duplicate=False))

    assert_same(scenario)


def test_get_submodule_through_non_module_attribute():
    def scenario(nn):
        r = nn.Module()
        r.x = 5
        r.t = torch.ones(1)
        return (
            norm(outcome(r.get_submodule, "x")),
            norm(outcome(r.get_submodule, "x.y")),
            norm(outcome(r.get_buffer, "t")),
        )

    assert_same(scenario)


def test_apply_order():
    def scenario(nn):
        r = build(nn)
        seen = []
        assert r.apply(lambda m: seen.append(sorted(m._modules))) is r
        return seen

    assert_same(scenario)
