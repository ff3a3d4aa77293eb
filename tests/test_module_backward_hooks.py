"""Backward hooks: full hooks and pre-hooks through BackwardHook, the legacy hook, global hooks, mixing errors."""

import pytest
import torch

from helpers import assert_same, norm, outcome, record_warnings


def fmt(obj):
    if isinstance(obj, torch.Tensor):
        return ("T", [round(v, 6) for v in obj.flatten().tolist()])
    if isinstance(obj, (tuple, list)):
        return tuple(fmt(o) for o in obj)
    return obj


def two_input_module(nn):
    class Mul(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.tensor([2.0, 3.0]))

        def forward(self, a, b, flag=True):
            return a * self.w * b + a

    return Mul()


def inputs(b_requires_grad=True):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=b_requires_grad)
    return a, b


@pytest.mark.parametrize("b_requires_grad", [True, False])
def test_full_hook_and_pre_hook_arguments_and_grads(b_requires_grad):
    def scenario(nn):
        log = []
        m = two_input_module(nn)
        m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", fmt(go))))
        m.register_full_backward_hook(lambda mod, gi, go: log.append(("full", fmt(gi), fmt(go))))
        m.register_full_backward_hook(
            lambda mod, gi, go: log.append(("first", fmt(gi))), prepend=True
        )
        a, b = inputs(b_requires_grad)
        m(a, b).sum().backward()
        return log, fmt(a.grad), fmt(b.grad), fmt(m.w.grad)

    assert_same(scenario)


def test_hooks_replace_gradients():
    def scenario(nn):
        m = two_input_module(nn)
        m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 10,))
        m.register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1, None))
        a, b = inputs()
        m(a, b).sum().backward()
        return fmt(a.grad), fmt(b.grad), fmt(m.w.grad)

    assert_same(scenario)


@pytest.mark.parametrize("which", ["pre", "full"])
def test_wrong_length_return(which):
    def scenario(nn):
        m = two_input_module(nn)
        if which == "pre":
            m.register_full_backward_pre_hook(lambda mod, go: (go[0], go[0]))
        else:
            m.register_full_backward_hook(lambda mod, gi, go: (gi[0],))
        a, b = inputs()
        out = m(a, b).sum()
        return norm(outcome(out.backward))

    assert_same(scenario)


def test_global_full_hooks_run_before_local():
    def scenario(nn):
        mm = nn.modules.module
        log = []
        m = two_input_module(nn)
        mm.register_module_full_backward_pre_hook(lambda mod, go: log.append("global-pre"))
        mm.register_module_full_backward_hook(lambda mod, gi, go: log.append("global-full"))
        m.register_full_backward_pre_hook(lambda mod, go: log.append("local-pre"))
        m.register_full_backward_hook(lambda mod, gi, go: log.append("local-full"))
        a, b = inputs()
        m(a, b).sum().backward()
        return log

    assert_same(scenario)


def test_mixing_errors_local_and_global():
    def scenario(nn):
        mm = nn.modules.module
        m = two_input_module(nn)
        m.register_backward_hook(lambda *a: None)
        local = norm(outcome(m.register_full_backward_hook, lambda *a: None))
        m2 = two_input_module(nn)
        m2.register_full_backward_hook(lambda *a: None)
        local2 = norm(outcome(m2.register_backward_hook, lambda *a: None))
        h = mm.register_module_full_backward_hook(lambda *a: None)
        glob = norm(outcome(mm.register_module_backward_hook, lambda *a: None))
        h.remove()
        # the flag stays set after removal, as in torch
        glob2 = norm(outcome(mm.register_module_backward_hook, lambda *a: None))
        return local, local2, glob, glob2, m._is_full_backward_hook, m2._is_full_backward_hook

    assert_same(scenario)


def test_legacy_hook_single_node_and_warnings():
    def scenario(nn):
        log = []

        class Scale(nn.Module):
            def forward(self, x):
                return x * 3

        class TwoNodes(nn.Module):
            def forward(self, x):
                return (x * 3).exp()

        class Pair(nn.Module):
            def forward(self, x):
                return x * 2, x + 1

        results = []
        for cls in (Scale, TwoNodes, Pair):
            m = cls()
            m.register_backward_hook(
                lambda mod, gi, go: log.append((cls.__name__, fmt(gi), fmt(go)))
            )
            x = torch.tensor([1.0, 2.0], requires_grad=True)

            def run():
                out = m(x)
                total = out.sum() if isinstance(out, torch.Tensor) else sum(o.sum() for o in out)
                total.backward()
                return fmt(x.grad)

            results.append(record_warnings(run))
        return log, results

    assert_same(scenario)


def test_legacy_global_hook():
    def scenario(nn):
        mm = nn.modules.module
        log = []

        class Scale(nn.Module):
            def forward(self, x):
                return x * 3

        mm.register_module_backward_hook(lambda mod, gi, go: log.append(fmt(gi)))
        x = torch.ones(2, requires_grad=True)
        module = Scale()  # keep it alive: legacy hooks hold it weakly
        _, warns = record_warnings(lambda: module(x).sum().backward())
        return log, warns

    assert_same(scenario)


def test_inplace_on_output_with_full_hook_errors():
    def scenario(nn):
        class Ident(nn.Module):
            def forward(self, x):
                return x.view_as(x)

        m = Ident()
        m.register_full_backward_hook(lambda *a: None)
        x = torch.ones(2, requires_grad=True).clone()
        out = m(x)
        return norm(outcome(lambda: out.mul_(2)))

    assert_same(scenario)


def test_non_tensor_and_kwargs_inputs():
    def scenario(nn):
        log = []

        class Mixed(nn.Module):
            def forward(self, x, n, *, y):
                return x * n + y

        m = Mixed()
        m.register_full_backward_hook(lambda mod, gi, go: log.append((fmt(gi), fmt(go))))
        x = torch.ones(2, requires_grad=True)
        y = torch.ones(2, requires_grad=True)
        m(x, 3, y=y).sum().backward()
        return log, fmt(x.grad), fmt(y.grad)

    assert_same(scenario)


def test_pre_hook_only_module_with_tuple_output():
    def scenario(nn):
        log = []

        class Split(nn.Module):
            def forward(self, x):
                return x * 2, x * 3

        m = Split()
        m.register_full_backward_pre_hook(lambda mod, go: log.append(fmt(go)))
        x = torch.ones(2, requires_grad=True)
        a, b = m(x)
        (a.sum() + 0 * b.sum()).backward()
        return log, fmt(x.grad)

    assert_same(scenario)


def test_no_grad_inputs_do_not_call_full_hook():
    def scenario(nn):
        log = []
        m = two_input_module(nn)
        m.register_full_backward_hook(lambda mod, gi, go: log.append(fmt(gi)))
        a, b = torch.ones(2), torch.ones(2)
        _, warns = record_warnings(
            lambda: m(a, b).sum().backward()
        )  # only the parameter needs grad
        return log, fmt(m.w.grad), warns

    assert_same(scenario)
