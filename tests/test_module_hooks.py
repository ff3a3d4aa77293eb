"""Forward hooks and __call__: order (global before local), prepend, with_kwargs, always_call, hooks added during a call."""

import warnings

import pytest
import torch

from helpers import assert_same, norm, outcome, record_warnings


def make_net(nn):
    class Add(nn.Module):
        def __init__(self):
            super().__init__()
            self.fail = False

        def forward(self, x, y=0, *, scale=1):
            if self.fail:
                raise ValueError("forward failed")
            return (x + y) * scale

    return Add()


def fmt(obj):
    """Readable, comparable description of hook arguments."""
    if isinstance(obj, torch.Tensor):
        return ("T", obj.tolist())
    if isinstance(obj, tuple):
        return tuple(fmt(o) for o in obj)
    if isinstance(obj, dict):
        return {k: fmt(v) for k, v in obj.items()}
    return obj


def test_full_order_and_modifications():
    def scenario(nn):
        mm = nn.modules.module
        log = []
        net = make_net(nn)
        hs = [
            mm.register_module_forward_pre_hook(lambda m, a: log.append(("gpre", fmt(a)))),
            mm.register_module_forward_hook(lambda m, a, o: log.append(("ghook", fmt(a), fmt(o)))),
            mm.register_module_forward_hook(
                lambda m, a, k, o: log.append(("ghook_kw", fmt(a), fmt(k), fmt(o))),
                with_kwargs=True,
            ),
            net.register_forward_pre_hook(lambda m, a: (log.append(("pre1", fmt(a))), a[0] + 1)[1]),
            net.register_forward_pre_hook(
                lambda m, a, k: (log.append(("pre_kw", fmt(a), fmt(k))), (a, {**k, "scale": 10}))[
                    1
                ],
                with_kwargs=True,
            ),
            net.register_forward_pre_hook(
                lambda m, a: log.append(("pre_first", fmt(a))), prepend=True
            ),
            net.register_forward_hook(
                lambda m, a, o: (log.append(("hook1", fmt(a), fmt(o))), o * 2)[1]
            ),
            net.register_forward_hook(
                lambda m, a, k, o: log.append(("hook_kw", fmt(k), fmt(o))), with_kwargs=True
            ),
            net.register_forward_hook(
                lambda m, a, o: log.append(("hook_first", fmt(o))), prepend=True
            ),
        ]
        out = net(torch.tensor([1.0]), y=torch.tensor([2.0]))
        for h in hs:
            h.remove()
        out2 = net(torch.tensor([1.0]))
        return log, fmt(out), fmt(out2)

    assert_same(scenario)


def test_pre_hook_with_kwargs_bad_return():
    def scenario(nn):
        net = make_net(nn)
        net.register_forward_pre_hook(lambda m, a, k: (1, 2, 3), with_kwargs=True)
        return norm(outcome(net, torch.ones(1)))

    assert_same(scenario)


def test_pre_hook_returning_single_value_is_wrapped():
    def scenario(nn):
        net = make_net(nn)
        net.register_forward_pre_hook(lambda m, a: torch.tensor([5.0]))
        return fmt(net(torch.ones(1)))

    assert_same(scenario)


@pytest.mark.parametrize("hook_also_fails", [False, True])
def test_always_call_when_forward_raises(hook_also_fails):
    def scenario(nn):
        mm = nn.modules.module
        log = []
        net = make_net(nn)
        net.fail = True

        def local(m, a, o):
            log.append(("local", fmt(a), fmt(o)))
            if hook_also_fails:
                raise KeyError("hook failed")

        mm.register_module_forward_hook(
            lambda m, a, o: log.append(("global_always", fmt(o))), always_call=True
        )
        mm.register_module_forward_hook(lambda m, a, o: log.append(("global_plain",)))
        net.register_forward_hook(local, always_call=True)
        net.register_forward_hook(
            lambda m, a, k, o: log.append(("kw_always", fmt(k))), with_kwargs=True, always_call=True
        )
        net.register_forward_hook(lambda m, a, o: log.append(("never",)))
        result, warns = record_warnings(lambda: norm(outcome(net, torch.ones(1), scale=3)))
        return log, result, warns

    assert_same(scenario)


def test_always_call_hook_that_ran_is_not_rerun_when_later_hook_raises():
    def scenario(nn):
        log = []
        net = make_net(nn)

        def boom(m, a, o):
            raise RuntimeError("late failure")

        net.register_forward_hook(lambda m, a, o: log.append("always"), always_call=True)
        net.register_forward_hook(boom)
        return norm(outcome(net, torch.ones(1))), log

    assert_same(scenario)


def test_hooks_added_and_removed_during_call():
    def scenario(nn):
        log = []
        net = make_net(nn)
        handles = {}

        def pre(m, a):
            log.append("pre")
            handles["late"] = m.register_forward_hook(lambda m, a, o: log.append("late-hook"))

        def remover(m, a, o):
            log.append("remover")
            handles["victim"].remove()

        handles["pre"] = net.register_forward_pre_hook(pre)
        net.register_forward_hook(remover)
        handles["victim"] = net.register_forward_hook(lambda m, a, o: log.append("victim"))
        first = outcome(net, torch.ones(1))
        log.append("--")
        handles["pre"].remove()
        net(torch.ones(1))
        return log, norm(first)

    assert_same(scenario)


def test_handle_context_manager_and_extra_dicts_cleaned():
    def scenario(nn):
        net = make_net(nn)
        with net.register_forward_hook(lambda m, a, k, o: None, with_kwargs=True, always_call=True):
            inside = (
                len(net._forward_hooks),
                len(net._forward_hooks_with_kwargs),
                len(net._forward_hooks_always_called),
            )
        after = (
            len(net._forward_hooks),
            len(net._forward_hooks_with_kwargs),
            len(net._forward_hooks_always_called),
        )
        h = net.register_forward_pre_hook(lambda m, a, k: None, with_kwargs=True)
        h.remove()
        h.remove()  # idempotent
        return inside, after, len(net._forward_pre_hooks_with_kwargs)

    assert_same(scenario)


def test_handle_ids_increase_and_prepend_order():
    def scenario(nn):
        net = make_net(nn)
        hs = [net.register_forward_hook(lambda *a: None, prepend=(i % 2 == 1)) for i in range(4)]
        ids = [h.id for h in hs]
        order = [ids.index(k) for k in net._forward_hooks]
        return order, all(b > a for a, b in zip(ids, ids[1:]))

    assert_same(scenario)


def test_fast_path_has_no_hooks_and_forward_missing():
    def scenario(nn):
        class NoForward(nn.Module):
            pass

        m = NoForward()
        m.register_forward_hook(lambda *a: None)
        return norm(outcome(NoForward())), norm(outcome(m, 1))

    assert_same(scenario)


def test_non_tensor_output_with_full_backward_hook_warns():
    def scenario(nn):
        class Listy(nn.Module):
            def forward(self, x):
                return [x * 2]

        m = Listy()
        m.register_full_backward_hook(lambda *a: None)
        x = torch.ones(1, requires_grad=True)
        out, warns = record_warnings(lambda: m(x))
        return fmt(tuple(out)), warns

    assert_same(scenario)


def test_global_pre_hook_ignores_local_with_kwargs_table():
    # a global pre-hook is always called as (module, args), even if its id were marked with_kwargs
    def scenario(nn):
        mm = nn.modules.module
        log = []
        net = make_net(nn)
        mm.register_module_forward_pre_hook(lambda m, a: log.append(len(a)))
        net(torch.ones(1), scale=2)
        return log

    assert_same(scenario)


def test_jit_trace_through_slow_forward():
    # torch.jit.trace(module) needs a torch.nn.Module (it checks isinstance); a function that
    # calls our module traces through _call_impl -> _slow_forward and computes the same values
    import annotated_nn as ann

    class Lin(ann.Module):
        def __init__(self):
            super().__init__()
            self.w = ann.Parameter(torch.full((2,), 3.0), requires_grad=False)

        def forward(self, x):
            return x * self.w

    m = Lin()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        def call(x):
            return m(x)

        traced = torch.jit.trace(call, torch.ones(2))
    assert torch.equal(traced(torch.ones(2) * 2), m(torch.ones(2) * 2))
    assert m._slow_forward(torch.ones(2)).tolist() == [3.0, 3.0]
