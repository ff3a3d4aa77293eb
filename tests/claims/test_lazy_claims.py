"""Claims of modules/lazy.py (Note [Lazy module lifecycle]) and chapter 14."""

from __future__ import annotations

import copy

import pytest
import torch
from claim import each_nn, proves


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "Note [Lazy module lifecycle]",
    "construction registers a load pre-hook and a forward pre-hook, kept in two handles",
)
@each_nn()
def test_lifecycle_construction_registers_two_hooks(nn):
    """Stage 1: one forward pre-hook, one load pre-hook, two handle attributes."""
    m = nn.LazyLinear(4)
    assert len(m._forward_pre_hooks) == 1
    assert len(m._load_state_dict_pre_hooks) == 1
    assert hasattr(m, "_initialize_hook") and hasattr(m, "_load_hook")
    assert m.has_uninitialized_params()


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "Note [Lazy module lifecycle]",
    "before materialization state_dict() saves the uninitialized parameters as they are",
)
@each_nn()
def test_lifecycle_state_dict_holds_placeholders(nn):
    """Stage 2: the state dict holds the placeholder objects themselves."""
    m = nn.LazyLinear(4)
    sd = m.state_dict()
    assert sd["weight"] is m.weight
    assert type(sd["bias"]) is nn.UninitializedParameter


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "Note [Lazy module lifecycle]",
    "the first forward materializes, removes both hooks and handles, and switches the class",
)
@each_nn()
def test_lifecycle_first_forward_switches_class(nn):
    """Stage 3: LazyLinear becomes Linear, the object stays the same."""
    m = nn.LazyLinear(4)
    same = m
    out = m(torch.ones(2, 3))
    assert out.shape == (2, 4)
    assert same is m and type(m) is nn.Linear
    assert type(m.weight) is nn.Parameter and m.in_features == 3
    assert not m._forward_pre_hooks and not m._load_state_dict_pre_hooks
    assert not hasattr(m, "_initialize_hook") and not hasattr(m, "_load_hook")
    assert repr(m) == "Linear(in_features=3, out_features=4, bias=True)"


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin.__init__",
    "pre-hooks registered later see materialized parameters; prepend=True ones see placeholders",
)
@each_nn()
def test_user_pre_hooks_see_parameters_by_order(nn):
    """The lazy pre-hook runs before later hooks, after prepended ones."""
    m = nn.LazyLinear(2)
    seen = []
    m.register_forward_pre_hook(lambda mod, args: seen.append(("later", type(mod.weight))))
    m.register_forward_pre_hook(
        lambda mod, args: seen.append(("prepended", type(mod.weight))), prepend=True
    )
    m(torch.ones(1, 3))
    assert seen == [
        ("prepended", nn.UninitializedParameter),
        ("later", nn.Parameter),
    ]


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._lazy_load_hook",
    "loading materializes to the checkpoint's shapes, keeps the placeholder's dtype and the class",
)
@each_nn()
def test_load_materializes_without_switching(nn):
    """The class switches only on the first forward; in_features is filled in then."""
    source = nn.Linear(3, 4)
    lazy = nn.LazyLinear(4, dtype=torch.float64)
    lazy.load_state_dict(source.state_dict())
    assert type(lazy) is nn.LazyLinear and lazy.in_features == 0
    assert lazy.weight.shape == (4, 3) and lazy.weight.dtype == torch.float64
    assert len(lazy._forward_pre_hooks) == 1
    lazy(torch.ones(1, 3, dtype=torch.float64))
    assert type(lazy) is nn.Linear and lazy.in_features == 3
    assert torch.equal(lazy.weight, source.weight.double())


@proves(
    "docs/chapters/14-lazy-modules.md",
    "load",
    "after loading, an input of another width raises AssertionError on the first forward",
)
@each_nn()
def test_loaded_lazy_linear_checks_width(nn):
    """torch's message names both widths."""
    lazy = nn.LazyLinear(4)
    lazy.load_state_dict(nn.Linear(3, 4).state_dict())
    with pytest.raises(AssertionError, match="from input: 5 is not equal to in_features"):
        lazy(torch.ones(1, 5))


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._lazy_load_hook",
    "loading an uninitialized state dict leaves the module lazy",
)
@each_nn()
def test_loading_lazy_checkpoint_stays_lazy(nn):
    """A placeholder loaded onto a placeholder stays a placeholder."""
    target = nn.LazyLinear(3)
    assert str(target.load_state_dict(nn.LazyLinear(3).state_dict())) == (
        "<All keys matched successfully>"
    )
    assert type(target.weight) is nn.UninitializedParameter


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "_LazyConvXdMixin.initialize_parameters",
    "a lazy convolution loaded from a state dict keeps in_channels 0 for good, unlike LazyLinear",
)
@each_nn()
def test_loaded_lazy_conv_keeps_in_channels_zero(nn):
    """The repr shows Conv2d(0, ...) after the first forward."""
    conv = nn.LazyConv2d(4, 3)
    conv.load_state_dict(nn.Conv2d(2, 4, 3).state_dict())
    conv(torch.ones(1, 2, 5, 5))
    assert type(conv) is nn.Conv2d
    assert conv.in_channels == 0
    assert repr(conv).startswith("Conv2d(0, 4,")


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._replicate_for_data_parallel",
    "an unmaterialized lazy module refuses replication; once switched it replicates normally",
)
@each_nn()
def test_lazy_refuses_replication_until_switched(nn):
    """The refusal belongs to the lazy class."""
    with pytest.raises(RuntimeError, match="Modules with uninitialized parameters can't be used"):
        nn.LazyLinear(2)._replicate_for_data_parallel()
    m = nn.LazyLinear(2)
    m(torch.ones(1, 3))
    assert type(m._replicate_for_data_parallel()) is nn.Linear


class _Holder:
    """Build a lazy module with cls_to_become None on top of a namespace."""

    @staticmethod
    def make(nn):
        class Holder(nn.modules.lazy.LazyModuleMixin, nn.Module):
            def __init__(self):
                super().__init__()
                self.child = nn.LazyLinear(2)

            def initialize_parameters(self, *args):
                pass

            def forward(self, x):
                return self.child(x)

        return Holder()


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._replicate_for_data_parallel",
    "a lazy class with cls_to_become None keeps its class and still refuses replication",
)
@each_nn()
def test_cls_to_become_none_keeps_class_and_refusal(nn):
    """has_uninitialized_params looks at the module's own entries, not its children's."""
    holder = _Holder.make(nn)
    assert not holder.has_uninitialized_params()
    holder(torch.ones(1, 3))
    assert type(holder).__name__ == "Holder"
    assert not holder._forward_pre_hooks
    with pytest.raises(RuntimeError, match="Modules with uninitialized parameters"):
        holder._replicate_for_data_parallel()


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._infer_parameters",
    "initialize_parameters must be overridden, and anything left uninitialized raises",
)
@each_nn()
def test_initialize_parameters_contract(nn):
    """NotImplementedError from the base; RuntimeError when a placeholder is left."""

    class Bare(nn.modules.lazy.LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.UninitializedParameter()

        def forward(self, x):
            return x

    class Lazy(Bare):
        def initialize_parameters(self, x):
            pass

    with pytest.raises(NotImplementedError, match="not implemented for Bare"):
        Bare()(torch.ones(1))
    with pytest.raises(RuntimeError, match="module Lazy has not been fully initialized"):
        Lazy()(torch.ones(1))


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin",
    "lazy layers initialize after the others, so one seed gives other weights than a plain net",
)
@each_nn()
def test_lazy_network_draws_random_numbers_later(nn):
    """Same seed, same shapes, different weights: the draw order differs."""
    torch.manual_seed(0)
    lazy = nn.Sequential(nn.LazyLinear(3), nn.Linear(3, 3))
    lazy(torch.ones(1, 2))
    torch.manual_seed(0)
    plain = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 3))
    assert not torch.equal(lazy[0].weight, plain[0].weight)
    assert not torch.equal(lazy[1].weight, plain[1].weight)


@proves(
    "docs/chapters/layers/index.md",
    "same-bits",
    "a network with a lazy layer gets bit-identical outputs from torch.nn and annotated_nn",
)
@each_nn()
def test_lazy_network_matches_torch_under_one_seed(nn):
    """The draw order is the same on both sides."""
    import torch.nn as tnn

    def build(lib):
        torch.manual_seed(0)
        model = lib.Sequential(lib.Conv2d(1, 6, 3), lib.ReLU(), lib.Flatten(), lib.LazyLinear(10))
        return model(torch.ones(2, 1, 8, 8))

    assert torch.equal(build(nn), build(tnn))


@proves(
    "docs/chapters/14-lazy-modules.md",
    "exercises",
    "a deep copy of an unmaterialized LazyLinear materializes independently of the original",
)
@each_nn()
def test_deepcopied_lazy_linear_is_independent(nn):
    """The copied hook is bound to the copy."""
    a = nn.LazyLinear(2)
    b = copy.deepcopy(a)
    a(torch.ones(1, 3))
    b(torch.ones(1, 5))
    assert (a.in_features, b.in_features) == (3, 5)
    assert type(b) is nn.Linear


@proves(
    "annotated_src/annotated_nn/modules/linear.py",
    "LazyLinear.initialize_parameters",
    "an input whose last dimension is 0 leaves in_features at 0 (initialization is skipped)",
)
@each_nn()
def test_lazy_linear_zero_width_input(nn):
    """The class still switches; the weight is (out, 0)."""
    m = nn.LazyLinear(2)
    m(torch.ones(1, 0))
    assert type(m) is nn.Linear
    assert m.in_features == 0 and m.weight.shape == (2, 0)


@proves(
    "docs/chapters/14-lazy-modules.md",
    "custom",
    "a custom lazy module with cls_to_become None keeps its class after materializing",
)
@each_nn()
def test_custom_lazy_scale(nn):
    """The chapter's LazyScale example."""

    class LazyScale(nn.modules.lazy.LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = nn.UninitializedParameter()

        def initialize_parameters(self, input):
            if self.has_uninitialized_params():
                with torch.no_grad():
                    self.scale.materialize(input.shape[-1:])
                    self.scale.fill_(1.0)

        def forward(self, input):
            return input * self.scale

    s = LazyScale()
    out = s(torch.tensor([[1.0, 2.0, 3.0]]))
    assert torch.equal(out, torch.tensor([[1.0, 2.0, 3.0]]))
    assert type(s) is LazyScale and s.scale.shape == (3,)


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin.__init__",
    "global forward pre-hooks run before the lazy hook and still see uninitialized parameters",
)
@each_nn()
def test_global_pre_hook_sees_placeholder(nn):
    """register_module_forward_pre_hook runs first."""
    seen = []
    handle = nn.modules.module.register_module_forward_pre_hook(
        lambda mod, args: seen.append(type(getattr(mod, "weight", None)))
    )
    try:
        nn.LazyLinear(2)(torch.ones(1, 3))
    finally:
        handle.remove()
    assert seen == [nn.UninitializedParameter]


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin.share_memory_",
    "Module.share_memory() on an unmaterialized lazy module raises RuntimeError",
)
@each_nn()
def test_lazy_share_memory_raises(nn):
    """A dry run is needed first."""
    with pytest.raises(RuntimeError, match="Can't share memory on an uninitialized parameter"):
        nn.LazyLinear(2).share_memory()
    m = nn.LazyLinear(2)
    m(torch.ones(1, 3))
    m.share_memory()


@proves(
    "annotated_src/annotated_nn/modules/lazy.py",
    "LazyModuleMixin._save_to_state_dict",
    "a lazy module's state_dict leaves out get_extra_state; after the switch a subclass's own "
    "methods are gone with its class",
)
@each_nn()
def test_lazy_subclass_extra_state_and_methods(nn):
    """A LazyLinear subclass: no '_extra_state' key, and it becomes a plain Linear."""

    class Tagged(nn.LazyLinear):
        def get_extra_state(self):
            return {"tag": 1}

        def set_extra_state(self, state):
            pass

    m = Tagged(2)
    assert list(m.state_dict()) == ["weight", "bias"]
    m(torch.ones(1, 3))
    assert type(m) is nn.Linear
    assert list(m.state_dict()) == ["weight", "bias"]
