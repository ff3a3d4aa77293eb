"""Attribute routing and registration (__setattr__/__getattr__/__delattr__, register_*), against torch.nn."""

import pytest
import torch

from helpers import assert_same, norm, outcome


def tables(m):
    """What a user can observe of a module's three tables, the instance dict and the persistence set."""
    return (
        {
            k: (type(v).__name__, None if v is None else tuple(v.shape))
            for k, v in m._parameters.items()
        },
        {
            k: (type(v).__name__, None if v is None else tuple(v.shape))
            for k, v in m._buffers.items()
        },
        {k: type(v).__name__ for k, v in m._modules.items()},
        sorted(m._non_persistent_buffers_set),
        sorted(k for k in m.__dict__ if not k.startswith("_") and k != "training"),
        list(m.state_dict()),
    )


def test_routing_of_each_kind_of_value():
    def scenario(nn):
        m = nn.Module()
        m.p = nn.Parameter(torch.ones(2))
        m.b = nn.Buffer(torch.zeros(3))
        m.nb = nn.Buffer(torch.zeros(1), persistent=False)
        m.child = nn.Module()
        m.plain = torch.ones(4)  # a new name: plain attribute, not a buffer
        m.number = 3
        steps = [tables(m)]
        m.b = torch.ones(5)  # existing buffer: stays a buffer
        m.nb = torch.ones(2)  # keeps non-persistence
        steps.append(tables(m))
        m.p = None  # clears the parameter slot
        m.child = None
        steps.append(tables(m))
        m.plain = nn.Parameter(torch.ones(1))  # plain attribute becomes a parameter
        m.b = nn.Module()  # buffer becomes a module
        m.nb = nn.Parameter(torch.zeros(1))
        steps.append(tables(m))
        return steps

    assert_same(scenario)


@pytest.mark.parametrize(
    "action",
    [
        "param_as_tensor",
        "param_as_int",
        "module_as_tensor",
        "buffer_as_int",
        "buffer_as_param_ok",
        "param_before_init",
        "module_before_init",
        "buffer_before_init",
        "get_missing",
        "del_missing",
        "nonleaf_param",
    ],
)
def test_setattr_errors(action):
    def scenario(nn):
        class Early(nn.Module):
            def __init__(self, what):
                if what == "param":
                    self.p = nn.Parameter(torch.ones(1))
                elif what == "module":
                    self.m = nn.Module()
                else:
                    self.register_buffer("b", torch.ones(1))
                super().__init__()

        m = nn.Module()
        m.p = nn.Parameter(torch.ones(1))
        m.c = nn.Module()
        m.register_buffer("b", torch.ones(1))
        w = nn.Parameter(torch.ones(1))
        run = {
            "param_as_tensor": lambda: setattr(m, "p", torch.ones(1)),
            "param_as_int": lambda: setattr(m, "p", 3),
            "module_as_tensor": lambda: setattr(m, "c", torch.ones(1)),
            "buffer_as_int": lambda: setattr(m, "b", 3),
            "buffer_as_param_ok": lambda: setattr(m, "b", w) or tables(m),
            "param_before_init": lambda: Early("param"),
            "module_before_init": lambda: Early("module"),
            "buffer_before_init": lambda: Early("buffer"),
            "get_missing": lambda: m.nope,
            "del_missing": lambda: delattr(m, "nope"),
            "nonleaf_param": lambda: m.register_parameter("q", w * 2),
        }[action]
        result = outcome(run)
        return norm(result), tables(m)

    assert_same(scenario)


@pytest.mark.parametrize("kind", ["buffer", "parameter", "module"])
@pytest.mark.parametrize(
    "name", ["ok", "a.b", "", 3, "p", "b", "c", "training", "forward", "plain"]
)
@pytest.mark.parametrize("value", ["good", "none", "wrong"])
def test_register_checks_and_messages(kind, name, value):
    def scenario(nn):
        m = nn.Module()
        m.p = nn.Parameter(torch.ones(1))
        m.register_buffer("b", torch.ones(1))
        m.c = nn.Module()
        m.plain = 1
        good = {
            "buffer": torch.zeros(2),
            "parameter": nn.Parameter(torch.zeros(2)),
            "module": nn.Module(),
        }[kind]
        v = {"good": good, "none": None, "wrong": "text"}[value]
        fn = {
            "buffer": m.register_buffer,
            "parameter": m.register_parameter,
            "module": m.add_module,
        }[kind]
        return norm(outcome(fn, name, v)), tables(m)

    assert_same(scenario)


def test_register_module_alias_and_buffer_persistence_switch():
    def scenario(nn):
        m = nn.Module()
        m.register_module("x", nn.Module())
        m.register_buffer("b", torch.ones(1), persistent=False)
        before = tables(m)
        m.register_buffer("b", torch.ones(2), persistent=True)
        m.register_buffer("slot", None)
        return before, tables(m), list(m.buffers()), [n for n, _ in m.named_buffers()]

    theirs, ours = (scenario(__import__("torch").nn), scenario(__import__("annotated_nn")))
    assert norm(repr(theirs)) == norm(repr(ours))


def test_delattr_each_kind():
    def scenario(nn):
        m = nn.Module()
        m.p = nn.Parameter(torch.ones(1))
        m.register_buffer("b", torch.ones(1), persistent=False)
        m.c = nn.Module()
        m.x = 1
        seq = []
        for name in ["p", "b", "c", "x"]:
            delattr(m, name)
            seq.append(tables(m))
        m.b = torch.ones(1)  # after deletion a tensor is no buffer any more
        seq.append(tables(m))
        return seq

    assert_same(scenario)


def test_buffer_class_and_isinstance_rules():
    def scenario(nn):
        b = nn.Buffer(torch.ones(2), persistent=False)
        p = nn.Parameter(torch.ones(2))
        return (
            type(b).__name__,
            b.persistent,
            isinstance(b, nn.Buffer),
            isinstance(b, torch.Tensor),
            isinstance(torch.ones(1), nn.Buffer),
            isinstance(p, nn.Parameter),
            isinstance(torch.ones(1), nn.Parameter),
        )

    assert_same(scenario)


def test_register_buffer_override_without_persistent():
    def scenario(nn):
        class Old(nn.Module):
            def register_buffer(self, name, tensor):
                super().register_buffer(name, tensor)

        m = Old()
        a = outcome(setattr, m, "x", nn.Buffer(torch.ones(1)))
        b = outcome(setattr, m, "y", nn.Buffer(torch.ones(1), persistent=False))
        return norm(a), norm(b), tables(m)

    assert_same(scenario)


def test_registration_hooks_global_and_replacement():
    def scenario(nn):
        mm = nn.modules.module
        log = []

        def on_buffer(module, name, t):
            log.append(("buffer", name))
            return None if t is None else t * 2

        def on_param(module, name, p):
            log.append(("param", name))

        def on_module(module, name, sub):
            log.append(("module", name, type(sub).__name__))

        hs = [
            mm.register_module_buffer_registration_hook(on_buffer),
            mm.register_module_parameter_registration_hook(on_param),
            mm.register_module_module_registration_hook(on_module),
        ]
        m = nn.Module()
        m.register_buffer("b", torch.ones(1))
        m.b2 = nn.Buffer(torch.ones(1))
        m.p = nn.Parameter(torch.ones(1))
        m.register_parameter("q", None)
        m.c = nn.Module()
        m.add_module("d", None)
        m.c = None
        for h in hs:
            h.remove()
        m.register_buffer("after", torch.ones(1))
        return log, m.b.tolist(), m.b2.tolist()

    assert_same(scenario)


def test_init_argument_errors_and_call_super_init():
    def scenario(nn):
        class Base:
            def __init__(self, *args, **kwargs):
                self.got = (args, kwargs)

        class Mixed(nn.Module, Base):
            call_super_init = True

        class Plain(nn.Module):
            pass

        return (
            norm(outcome(Plain, 1, 2)),
            norm(outcome(Plain, a=1)),
            Mixed(1, k=2).got,
            norm(outcome(lambda: Plain()(1))),
        )

    assert_same(scenario)


def test_getattr_priority_and_plain_attribute_shadowing():
    def scenario(nn):
        m = nn.Module()
        m._parameters["x"] = nn.Parameter(torch.ones(1))
        m._buffers["x"] = torch.zeros(1)
        got = type(m.x).__name__
        m.__dict__["y"] = 5
        m._modules["y"] = nn.Module()
        return got, m.y, hasattr(m, "zzz")

    assert_same(scenario)


def test_training_flag_is_plain_attribute():
    def scenario(nn):
        m = nn.Module()
        m.training = False
        return m.training, "training" in m.__dict__, list(m.state_dict())

    assert_same(scenario)
