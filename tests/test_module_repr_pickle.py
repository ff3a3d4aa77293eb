"""repr/extra_repr/_addindent, __dir__, pickle and deepcopy (__getstate__/__setstate__), compile(), _replicate_for_data_parallel."""

import copy
import io
import pickle

import pytest
import torch

from helpers import assert_same, norm, outcome


def build(nn):
    class Leaf(nn.Module):
        def __init__(self, text):
            super().__init__()
            self.text = text
            self.w = nn.Parameter(torch.ones(2))

        def extra_repr(self):
            return self.text

        def forward(self, x):
            return x * self.w

    class Tree(nn.Module):
        def __init__(self):
            super().__init__()
            self.one = Leaf("a=1, b=2")
            self.multi = Leaf("first line\nsecond line")
            self.empty = Leaf("")
            self.nest = nn.Module()
            self.nest.inner = Leaf("deep")
            self.nest.inner.more = Leaf("x\ny")
            self.add_module("none", None)
            self.register_buffer("b", torch.zeros(1))
            self.plain = 5

        def forward(self, x):
            return self.one(x)

    return Tree()


def test_repr_tree():
    def scenario(nn):
        t = build(nn)
        return repr(t), repr(t.one), repr(t.multi), str(t.nest), repr(nn.Module())

    assert_same(scenario)


def test_get_name_override():
    def scenario(nn):
        class Renamed(nn.Module):
            def _get_name(self):
                return "Custom"

        r = nn.Module()
        r.x = Renamed()
        return repr(r), norm(outcome(r.get_submodule, "x.y"))

    assert_same(scenario)


def test_dir():
    def scenario(nn):
        t = build(nn)
        t._modules["0"] = nn.Module()
        # torch.compile marks torch.nn.Module with `___needs_generation_tag_patch` once dynamo
        # has traced a torch module in this process; that is dynamo's bookkeeping, not Module's.
        return [k for k in dir(t) if not k.startswith("___")]

    assert_same(scenario)


def observe(t):
    return (
        repr(t),
        [(n, p.tolist(), p.requires_grad, type(p).__name__) for n, p in t.named_parameters()],
        list(t.state_dict()),
        t.plain,
        t.training,
    )


def test_deepcopy_keeps_sharing_and_hooks():
    def scenario(nn):
        t = build(nn)
        t.nest.shared = t.one  # a shared submodule
        t.nest.inner.w2 = t.one.w  # a shared parameter
        log = []
        t.register_forward_hook(lambda m, a, o: log.append("hook"))
        t.eval()
        c = copy.deepcopy(t)
        c(torch.ones(2))
        return (
            observe(c) == observe(t),
            c.nest.shared is c.one,
            c.nest.inner.w2 is c.one.w,
            c.one.w is t.one.w,
            log,
            type(c.one.w).__name__,
        )

    assert_same(scenario)


def test_pickle_roundtrip_of_module_level_class():
    import torch.nn as tnn

    import annotated_nn as ann

    for nn in (tnn, ann):
        m = nn.Module()
        m.w = nn.Parameter(torch.arange(3.0))
        m.register_buffer("b", torch.ones(2), persistent=False)
        m.child = nn.Module()
        m.eval()
        back = pickle.loads(pickle.dumps(m))
        assert list(back.state_dict()) == ["w"]
        assert back.w.tolist() == [0.0, 1.0, 2.0] and type(back.w) is nn.Parameter
        assert back._non_persistent_buffers_set == {"b"}
        assert back.training is False and back.child.training is False
        buf = io.BytesIO()
        torch.save(m, buf)
        buf.seek(0)
        loaded = torch.load(buf, weights_only=False)
        assert loaded.w.tolist() == [0.0, 1.0, 2.0]


def test_setstate_fills_missing_tables():
    def scenario(nn):
        m = nn.Module()
        state = m.__getstate__()
        for key in [
            "_forward_pre_hooks",
            "_forward_pre_hooks_with_kwargs",
            "_forward_hooks_with_kwargs",
            "_forward_hooks_always_called",
            "_state_dict_hooks",
            "_state_dict_pre_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
            "_non_persistent_buffers_set",
            "_is_full_backward_hook",
            "_backward_pre_hooks",
        ]:
            del state[key]
        fresh = nn.Module.__new__(nn.Module)
        fresh.__setstate__(state)
        return sorted((k, type(v).__name__) for k, v in fresh.__dict__.items())

    assert_same(scenario)


def test_getstate_drops_compiled_call():
    def scenario(nn):
        m = nn.Module()
        m._compiled_call_impl = lambda *a: None
        return "_compiled_call_impl" in m.__getstate__(), sorted(m.__getstate__())

    assert_same(scenario)


def test_replicate_for_data_parallel():
    def scenario(nn):
        t = build(nn)
        r = t._replicate_for_data_parallel()
        return (
            type(r).__name__,
            r._parameters,
            r._buffers is t._buffers,
            list(r._buffers),
            r._modules is t._modules,
            list(r._modules),
            r._is_replica,
            "_is_replica" in t.__dict__,
            r.plain,
        )

    assert_same(scenario)


def test_wrapped_hook_pickling_and_dead_module():
    import torch.nn.modules.module as tm

    import annotated_nn.modules.module as am

    def hook(*args):
        return len(args)

    results = []
    for mod, nn in ((tm, torch.nn), (am, __import__("annotated_nn"))):
        owner = nn.Module()
        w = mod._WrappedHook(hook, owner)
        plain = mod._WrappedHook(hook)
        copied = copy.deepcopy(w)
        r = [
            w(1, 2),
            plain(1, 2),
            outcome(lambda: copied.__name__)[0],
            w.__name__,
            copied.with_module,
        ]
        state = w.__getstate__()
        state["module"] = None
        r.append(norm(outcome(mod._WrappedHook.__new__(mod._WrappedHook).__setstate__, state)))
        del owner
        import gc

        gc.collect()
        r.append(norm(outcome(w, 1)))
        results.append(r)
    assert results[0] == results[1]


@pytest.mark.slow
def test_compile_method_matches_eager():
    import annotated_nn as ann

    torch._dynamo.reset()
    t = build(ann)
    log = []
    t.register_forward_hook(lambda m, a, o: log.append("hook"))
    x = torch.randn(2)
    eager = t(x)
    t.compile(backend="eager")
    assert t._compiled_call_impl is not None
    compiled = t(x)
    torch.testing.assert_close(compiled, eager)
    assert log == ["hook", "hook"]
    assert list(t.state_dict()) == list(build(ann).state_dict())
    assert "_compiled_call_impl" not in t.__getstate__()
