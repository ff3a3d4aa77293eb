"""Claims of the section "Living with torch.nn" (chapter 2) and of Module's Note [Living with torch.nn]."""

import pytest
import torch
import torch.nn as tnn
from claim import each_nn, proves

import annotated_nn as ann


def mixed(nn, other):
    """A module of `nn` with a child of `other`."""

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.backbone = other.Linear(3, 3)
            self.head = nn.Linear(3, 1)

    return Net()


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "a module of the other library assigned to a module is a child, both ways",
)
@each_nn()
def test_other_librarys_module_is_a_child(nn):
    other = ann if nn is tnn else tnn
    net = mixed(nn, other)
    assert isinstance(net, tnn.Module) and isinstance(net.backbone, tnn.Module)
    assert [n for n, _ in net.named_parameters()] == [
        "backbone.weight",
        "backbone.bias",
        "head.weight",
        "head.bias",
    ]
    net.double().eval()
    assert net.backbone.weight.dtype == torch.float64 and not net.backbone.training
    seq = nn.Sequential(other.BatchNorm1d(4))
    assert list(seq.state_dict())[-1] == "0.num_batches_tracked"


@proves(
    "annotated_src/annotated_nn/modules/module.py",
    "Note [Living with torch.nn]",
    "the module and optimizer base classes subclass torch's and define every name of its class body",
)
@pytest.mark.parametrize("base", ["module", "optimizer"])
@each_nn()
def test_base_classes_define_torchs_whole_class_body(nn, base):
    import annotated_optim

    ours = {"module": nn.Module, "optimizer": annotated_optim.Optimizer}[base]
    theirs = {"module": tnn.Module, "optimizer": torch.optim.Optimizer}[base]
    assert issubclass(ours, theirs)
    if nn is ann:
        missing = set(vars(theirs)) - set(vars(ours)) - {"___needs_generation_tag_patch"}
        assert missing == {"__dict__", "__weakref__"}


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "one set of global hooks: registered through either library, it fires on both",
)
@each_nn()
def test_global_hook_fires_on_both_libraries(nn):
    seen = []
    handle = nn.modules.module.register_module_forward_pre_hook(
        lambda module, args: seen.append(type(module).__module__.split(".")[0])
    )
    try:
        ann.Identity()(torch.zeros(1))
        tnn.Identity()(torch.zeros(1))
    finally:
        handle.remove()
    assert seen == ["annotated_nn", "torch"]


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "FlopCounterMode reports the same per-module figures for both implementations",
)
@each_nn()
def test_flop_counter_per_module(nn):
    from torch.utils.flop_counter import FlopCounterMode

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
    with FlopCounterMode(display=False) as counter:
        model(torch.randn(2, 4))
    counts = {k: sum(v.values()) for k, v in counter.get_flop_counts().items()}
    assert counts == {"Global": 96, "Sequential": 96, "Sequential.0": 64, "Sequential.2": 32}


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "fx's default leaves are torch.nn's layers: ours are traced through, and BatchNorm then raises "
    "TraceError; a Tracer counting annotated_nn's layers as leaves gives torch's graph",
)
@each_nn()
def test_fx_leaf_modules(nn):
    class Leaves(torch.fx.Tracer):
        def is_leaf_module(self, m, qualname):
            ours = type(m).__module__.startswith("annotated_nn.")
            return super().is_leaf_module(m, qualname) or (
                ours and not isinstance(m, ann.Sequential)
            )

    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).eval()
    if nn is tnn:
        graph = torch.fx.symbolic_trace(model).graph
    else:
        with pytest.raises(
            torch.fx.proxy.TraceError, match="cannot be used as inputs to control flow"
        ):
            torch.fx.symbolic_trace(model)
        graph = Leaves().trace(model)
    assert [(n.op, str(n.target)) for n in graph.nodes] == [
        ("placeholder", "input"),
        ("call_module", "0"),
        ("call_module", "1"),
        ("output", "output"),
    ]


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "torch's learning-rate schedulers and GradScaler accept annotated_optim's optimizers",
)
@each_nn()
def test_torch_scheduler_and_scaler_accept_our_optimizer(nn):
    import annotated_optim

    optim = annotated_optim if nn is ann else torch.optim
    model = nn.Linear(2, 1)
    opt = optim.SGD(model.parameters(), lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
    scaler = torch.amp.GradScaler("cpu")
    scaler.scale(model(torch.ones(1, 2)).sum()).backward()
    scaler.step(opt)
    scaler.update()
    sched.step()
    assert isinstance(opt, torch.optim.Optimizer) and sched.get_last_lr() == [0.5]


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "annotated_nn.Module.__mro__ is (Module, torch.nn.Module, object)",
)
@each_nn()
def test_mro(nn):
    expected = (nn.Module, object) if nn is tnn else (nn.Module, tnn.Module, object)
    assert nn.Module.__mro__ == expected


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "torch's convert_sync_batchnorm leaves our BatchNorm as it is, silently; ours converts both",
)
@each_nn()
def test_convert_sync_batchnorm_and_the_other_librarys_batchnorm(nn):
    import warnings

    other = ann if nn is tnn else tnn
    tree = nn.Sequential(other.BatchNorm2d(4), nn.BatchNorm2d(4))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        converted = nn.SyncBatchNorm.convert_sync_batchnorm(tree)
    kinds = [type(m).__module__.split(".")[0] + "." + type(m).__name__ for m in converted]
    if nn is tnn:
        # torch's converter: our BatchNorm2d stays, no error and no warning.
        assert kinds == ["annotated_nn.BatchNorm2d", "torch.SyncBatchNorm"]
    else:
        # ours: each library's BatchNorm becomes that library's SyncBatchNorm.
        assert kinds == ["torch.SyncBatchNorm", "annotated_nn.SyncBatchNorm"]


@proves(
    "docs/chapters/02-construction.md",
    "Living with torch.nn",
    "torch's fuse_modules refuses our Conv2d + BatchNorm2d; annotated_nn.utils.fusion fuses them",
)
@each_nn()
def test_fuse_modules_refuses_our_layers_and_our_fusion_fuses_them(nn):
    model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)).eval()
    x = torch.randn(1, 1, 5, 5)
    expected = model(x)
    # Each library's own fusion utility fuses its layers.
    fused = nn.utils.fusion.fuse_conv_bn_eval(model[0], model[1])
    torch.testing.assert_close(fused(x), expected)
    if nn is tnn:
        torch.ao.quantization.fuse_modules(model, [["0", "1"]], inplace=True)
        torch.testing.assert_close(model(x), expected)
    else:
        with pytest.raises(AssertionError, match="did not find fuser method for"):
            torch.ao.quantization.fuse_modules(model, [["0", "1"]])
