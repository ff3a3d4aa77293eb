"""Hypothesis stateful test: random operation sequences on a torch.nn.Module and an annotated_nn.Module in lockstep."""

import torch
import torch.nn as tnn
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import annotated_nn as ann
from helpers import norm, outcome

NAMES = st.sampled_from(["a", "b", "c", "sub", "training", "forward", "x.y", ""])
VALUE_KINDS = st.sampled_from(
    ["param", "param_frozen", "buffer", "buffer_np", "tensor", "module", "none", "int"]
)


def make_value(nn, kind, size):
    return {
        "param": lambda: nn.Parameter(torch.full((size,), float(size))),
        "param_frozen": lambda: nn.Parameter(torch.ones(size), requires_grad=False),
        "buffer": lambda: nn.Buffer(torch.zeros(size)),
        "buffer_np": lambda: nn.Buffer(torch.zeros(size), persistent=False),
        "tensor": lambda: torch.ones(size),
        "module": lambda: nn.Module(),
        "none": lambda: None,
        "int": lambda: size,
    }[kind]()


def observe(m):
    """Everything a user can see of the module tree (each view may itself raise)."""
    views = [
        lambda: [(n, tuple(p.shape), p.requires_grad) for n, p in m.named_parameters()],
        lambda: [n for n, _ in m.named_buffers()],
        lambda: [n for n, _ in m.named_modules()],
        lambda: list(m.state_dict()),
        lambda: [mod.training for mod in m.modules()],
        lambda: sorted(m._non_persistent_buffers_set),
        lambda: repr(m),
        lambda: [k for k in dir(m) if not k.startswith("__")],
        lambda: sorted(k for k in vars(m) if not k.startswith("_")),
    ]
    return [norm(outcome(view)) for view in views]


class Lockstep(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.pair = {"torch": (tnn, tnn.Module()), "ours": (ann, ann.Module())}

    def both(self, action):
        results = {key: norm(outcome(action, nn, m)) for key, (nn, m) in self.pair.items()}
        assert results["ours"] == results["torch"], results

    def target(self, m, on_child):
        child = m._modules.get("sub")
        return child if on_child and child is not None else m

    @rule(name=NAMES, kind=VALUE_KINDS, size=st.integers(1, 3), on_child=st.booleans())
    def set_attribute(self, name, kind, size, on_child):
        self.both(lambda nn, m: setattr(self.target(m, on_child), name, make_value(nn, kind, size)))

    @rule(name=NAMES, on_child=st.booleans())
    def delete_attribute(self, name, on_child):
        self.both(lambda nn, m: delattr(self.target(m, on_child), name))

    @rule(name=NAMES, kind=st.sampled_from(["param", "none", "tensor"]), size=st.integers(1, 3))
    def register_parameter(self, name, kind, size):
        self.both(lambda nn, m: m.register_parameter(name, make_value(nn, kind, size)))

    @rule(
        name=NAMES,
        kind=st.sampled_from(["tensor", "none", "int"]),
        persistent=st.booleans(),
        size=st.integers(1, 3),
    )
    def register_buffer(self, name, kind, persistent, size):
        self.both(lambda nn, m: m.register_buffer(name, make_value(nn, kind, size), persistent))

    @rule(name=NAMES, kind=st.sampled_from(["module", "none", "int"]))
    def register_module(self, name, kind):
        self.both(lambda nn, m: m.register_module(name, make_value(nn, kind, 1)))

    @rule(mode=st.booleans())
    def train(self, mode):
        self.both(lambda nn, m: m.train(mode) is m)

    @rule()
    def eval(self):
        self.both(lambda nn, m: m.eval() is m)

    @rule(flag=st.booleans(), on_child=st.booleans())
    def requires_grad(self, flag, on_child):
        self.both(lambda nn, m: self.target(m, on_child).requires_grad_(flag) is not None)

    @rule(name=NAMES)
    def get_attribute(self, name):
        self.both(lambda nn, m: type(getattr(m, name)).__name__)

    @invariant()
    def same_observable_state(self):
        seen = {key: observe(m) for key, (_, m) in self.pair.items()}
        assert seen["ours"] == seen["torch"]


TestLockstep = Lockstep.TestCase
TestLockstep.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
