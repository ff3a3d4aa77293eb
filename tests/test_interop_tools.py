"""torch's own tools on annotated_nn modules and annotated_optim optimizers (issue 22).

Each test runs a tool on a model built with annotated_nn and on the same model built with torch.nn
and compares what the tool gives: graphs, outputs, state-dict keys, graph-break counts, learning
rates. Where a tool still behaves differently, the test pins the difference and the book says it.
"""

import io
import warnings

import pytest
import torch
import torch.distributed as dist
import torch.nn as tnn
import torch.nn.utils.parametrize as tparametrize
import torch.nn.utils.prune as tprune

import annotated_nn as ann
import annotated_optim as aoptim
from helpers import free_port

LIBS = {"torch": tnn, "ours": ann}


def net(nn, bn=True):
    """conv (+ batch norm) + relu + linear, with a parameter read as an attribute in forward."""

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3)
            self.bn = nn.BatchNorm2d(2) if bn else nn.Identity()
            self.fc = nn.Linear(18, 4)

        def forward(self, x):
            h = self.bn(self.conv(x)).relu().flatten(1)
            return self.fc(h) * self.fc.weight.shape[0]

    torch.manual_seed(0)
    return Net()


X = torch.arange(50.0).reshape(2, 1, 5, 5) / 50


def nodes(graph):
    return [(n.op, str(n.target)) for n in graph.nodes]


class AnnotatedLeafTracer(torch.fx.Tracer):
    """fx's default leaves are modules defined under `torch.nn`; this adds annotated_nn's layers."""

    def is_leaf_module(self, m, qualname):
        ours = type(m).__module__.startswith("annotated_nn.") and not isinstance(m, ann.Sequential)
        return super().is_leaf_module(m, qualname) or ours


class NoLeafTracer(torch.fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return False


# --------------------------------------------------------------------------- fx


def test_fx_symbolic_trace_records_our_layers_as_leaves_with_a_leaf_tracer():
    """With our layers counted as leaves, the graph is torch's: call_module nodes, the same
    get_attr for `self.fc.weight` (our __getattr__ honours fx's patch), the same code."""
    theirs, ours = net(tnn).eval(), net(ann).eval()
    t_graph = torch.fx.Tracer().trace(theirs)
    o_graph = AnnotatedLeafTracer().trace(ours)
    assert nodes(o_graph) == nodes(t_graph)
    assert ("get_attr", "fc.weight") in nodes(o_graph)
    gm = torch.fx.GraphModule(ours, o_graph)
    assert torch.equal(gm(X), ours(X)) and torch.equal(gm(X), theirs(X))


def test_fx_symbolic_trace_default_traces_through_our_layers_as_through_torchs_non_leaves():
    """DIFF(torch 2.13): fx decides leaves by `type(m).__module__.startswith("torch.nn")`, so by
    default our layers are traced through, as torch's would be if they were not leaves: the same
    graph, and the same TraceError for batch norm's input check."""
    theirs, ours = net(tnn, bn=False), net(ann, bn=False)
    o_graph = torch.fx.symbolic_trace(ours).graph
    assert nodes(o_graph) == nodes(NoLeafTracer().trace(theirs))
    assert ("call_module", "fc") not in nodes(o_graph)
    errors = []
    for tracer, model in ((NoLeafTracer(), net(tnn)), (torch.fx.Tracer(), net(ann))):
        with pytest.raises(torch.fx.proxy.TraceError) as info:
            tracer.trace(model)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_fx_patch_is_restored_after_tracing():
    torch.fx.symbolic_trace(net(ann, bn=False))
    import annotated_nn.modules.module as am

    assert tnn.Module.__call__ is am._torch_module_call
    assert tnn.Module.__getattr__ is am._torch_module_getattr


# --------------------------------------------------------------------------- export, jit, func


def test_torch_export_graph_equals_torchs():
    results = []
    for nn in LIBS.values():
        model = net(nn).eval()
        ep = torch.export.export(model, (X,))
        results.append((nodes(ep.graph), list(ep.state_dict), ep.module()(X)))
    assert results[0][:2] == results[1][:2]
    assert torch.equal(results[0][2], results[1][2])


def test_jit_trace_graph_and_outputs_equal_torchs():
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for nn in LIBS.values():
            model = net(nn).eval()
            traced = torch.jit.trace(model, X)
            kinds = [n.kind() for n in traced.inlined_graph.nodes()]
            results.append((kinds, list(traced.state_dict()), traced(X + 1)))
    assert results[0][:2] == results[1][:2]
    assert torch.equal(results[0][2], results[1][2])


@pytest.mark.parametrize("make", [lambda nn: nn.Linear(3, 2), lambda nn: nn.ReLU()])
def test_jit_script_where_torch_can(make):
    x = torch.randn(2, 3)
    outs = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for nn in LIBS.values():
            torch.manual_seed(0)
            outs.append(torch.jit.script(make(nn))(x))
    assert torch.equal(outs[0], outs[1])


def test_torch_func_functional_call_and_grad():
    results = []
    for nn in LIBS.values():
        model = net(nn, bn=False)
        params = {k: v.detach() for k, v in model.named_parameters()}
        loss = lambda p: torch.func.functional_call(model, p, (X,)).sum()  # noqa: E731
        grads = torch.func.grad(loss)(params)
        results.append((loss(params), {k: g for k, g in grads.items()}))
    assert torch.equal(results[0][0], results[1][0])
    assert list(results[0][1]) == list(results[1][1])
    for k in results[0][1]:
        assert torch.equal(results[0][1][k], results[1][1][k])


# --------------------------------------------------------------------------- compile


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_compile_same_outputs_and_no_new_graph_breaks(backend):
    outs, explained = [], []
    for nn in LIBS.values():
        torch._dynamo.reset()
        model = net(nn)
        model.fc.register_forward_hook(lambda m, a, o: o + 1)
        e = torch._dynamo.explain(model)(X)
        explained.append((e.graph_count, e.graph_break_count, e.op_count))
        compiled = torch.compile(model, backend=backend)
        out = compiled(X)
        out.sum().backward()
        outs.append((out.detach(), model.fc.weight.grad, type(compiled).__name__))
    assert explained[0] == explained[1]
    assert torch.equal(outs[0][0], outs[1][0]) and torch.equal(outs[0][1], outs[1][1])
    assert outs[0][2] == outs[1][2] == "OptimizedModule"


def test_compiled_optimizer_step_matches_torch():
    results = []
    for nn, optim in ((tnn, torch.optim), (ann, aoptim)):
        torch._dynamo.reset()
        model = net(nn, bn=False)
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        model(X).sum().backward()
        torch.compile(opt.step, backend="eager")()
        results.append([p.detach().clone() for p in model.parameters()])
    for a, b in zip(*results, strict=True):
        assert torch.equal(a, b)


# --------------------------------------------------------------------------- DDP


def test_torch_ddp_reaches_our_model():
    """torch's DistributedDataParallel (gloo, one process) registers our model as `module`."""
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{free_port()}", rank=0, world_size=1
    )
    try:
        results = []
        for nn in LIBS.values():
            model = net(nn)
            ddp = torch.nn.parallel.DistributedDataParallel(model)
            ddp.eval()
            out = ddp(X)
            ddp.train()
            ddp(X).sum().backward()
            results.append(
                (
                    [n for n, _ in ddp.named_parameters()],
                    list(ddp.state_dict()),
                    model.training,
                    out,
                    [p.grad for p in model.parameters()],
                )
            )
        assert results[0][:3] == results[1][:3]
        assert results[1][0][0] == "module.conv.weight"
        assert torch.equal(results[0][3], results[1][3])
        for a, b in zip(results[0][4], results[1][4], strict=True):
            assert torch.equal(a, b)
    finally:
        dist.destroy_process_group()


# --------------------------------------------------------------------------- torch.nn.utils


def test_torch_parametrize_keeps_the_weight():
    """torch's register_parametrization on our Linear: state_dict keys are torch's; the weight
    is not lost (it was, silently, before issue 22)."""

    class Symmetric(tnn.Module):
        def forward(self, w):
            return w.triu() + w.triu(1).t()

    results = []
    for nn in LIBS.values():
        torch.manual_seed(0)
        lin = nn.Linear(3, 3)
        tparametrize.register_parametrization(lin, "weight", Symmetric())
        results.append(
            (
                list(lin.state_dict()),
                lin.weight,
                type(lin).__name__,
                tparametrize.is_parametrized(lin),
            )
        )
        tparametrize.remove_parametrizations(lin, "weight")
        results.append((list(lin.state_dict()), lin.weight.detach().clone()))
    assert results[0][0] == results[2][0] == ["bias", "parametrizations.weight.original"]
    assert results[0][2:] == results[2][2:] == ("ParametrizedLinear", True)
    assert torch.equal(results[0][1], results[2][1])
    assert results[1][0] == results[3][0] == ["bias", "weight"]
    assert torch.equal(results[1][1], results[3][1])


def test_torch_prune_weight_norm_spectral_norm():
    results = []
    for nn in LIBS.values():
        torch.manual_seed(0)
        a, b, c = nn.Linear(4, 4), nn.Linear(4, 4), nn.Conv2d(1, 2, 3)
        tprune.l1_unstructured(a, "weight", amount=0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            tnn.utils.weight_norm(b)
        tnn.utils.spectral_norm(c)
        torch.manual_seed(1)
        outs = (a(torch.ones(1, 4)), b(torch.ones(1, 4)), c(torch.ones(1, 1, 3, 3)))
        results.append(
            ([list(m.state_dict()) for m in (a, b, c)], outs, int((a.weight == 0).sum()))
        )
    assert results[0][0] == results[1][0] and results[0][2] == results[1][2] == 8
    for x, y in zip(results[0][1], results[1][1], strict=True):
        assert torch.equal(x, y)


def test_torch_averaged_model_and_clip_grad_norm():
    results = []
    for nn in LIBS.values():
        model = net(nn)
        swa = torch.optim.swa_utils.AveragedModel(model)
        model(X).sum().backward()
        total = tnn.utils.clip_grad_norm_(model.parameters(), 1.0)
        with torch.no_grad():
            for p in model.parameters():
                p.add_(1.0)
        swa.update_parameters(model)
        results.append((list(swa.state_dict()), swa.state_dict(), total))
    assert results[0][0] == results[1][0]
    for k in results[0][0]:
        assert torch.equal(results[0][1][k], results[1][1][k]), k
    assert torch.equal(results[0][2], results[1][2])


# --------------------------------------------------------------------------- save / load


class MixedSaved(ann.Module):
    """Ours with a torch child, at module level so that torch.save pickles it by reference."""

    def __init__(self):
        super().__init__()
        self.backbone = tnn.Sequential(tnn.Linear(3, 3), ann.BatchNorm1d(3))
        self.head = ann.Linear(3, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def test_torch_save_and_load_whole_mixed_model():
    torch.manual_seed(0)
    model = MixedSaved()
    model(torch.randn(4, 3))
    buf = io.BytesIO()
    torch.save(model, buf)
    buf.seek(0)
    loaded = torch.load(buf, weights_only=False)
    assert type(loaded) is MixedSaved and type(loaded.backbone[1]) is ann.BatchNorm1d
    assert repr(loaded) == repr(model)
    for (k, v), (k2, v2) in zip(
        model.state_dict().items(), loaded.state_dict().items(), strict=True
    ):
        assert k == k2 and torch.equal(v, v2)


# --------------------------------------------------------------------------- optimizers


def test_optimizer_is_torch_optimizer_and_overrides_its_whole_class_body():
    assert issubclass(aoptim.Optimizer, torch.optim.Optimizer)
    for name, value in vars(torch.optim.Optimizer).items():
        if name in ("__dict__", "__weakref__"):
            continue
        assert name in vars(aoptim.Optimizer), name
        if callable(value) and not isinstance(value, type):
            assert vars(aoptim.Optimizer)[name] is not value, name
    assert aoptim.Optimizer.__annotations__.keys() == torch.optim.Optimizer.__annotations__.keys()


SCHEDULERS = [
    lambda opt: torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5),
    lambda opt: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=10),
    lambda opt: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 3),
    lambda opt: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0),
    lambda opt: torch.optim.lr_scheduler.SequentialLR(
        opt,
        [
            torch.optim.lr_scheduler.LinearLR(opt, 0.1, total_iters=2),
            torch.optim.lr_scheduler.ExponentialLR(opt, 0.9),
        ],
        milestones=[2],
    ),
]


@pytest.mark.parametrize(
    "make_sched", SCHEDULERS, ids=["step", "onecycle", "cosine", "plateau", "seq"]
)
def test_torch_schedulers_on_our_optimizers(make_sched):
    results = []
    for nn, optim in ((tnn, torch.optim), (ann, aoptim)):
        model = net(nn, bn=False)
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = make_sched(opt)
        lrs = []
        for _ in range(6):
            opt.zero_grad()
            loss = model(X).square().mean()
            loss.backward()
            opt.step()
            if isinstance(sched, torch.optim.lr_scheduler.ReduceLROnPlateau):
                sched.step(1.0)
            else:
                sched.step()
            lrs.append(opt.param_groups[0]["lr"])
        results.append((lrs, sched.state_dict().keys(), [p.detach() for p in model.parameters()]))
    assert results[0][:2] == results[1][:2]
    for a, b in zip(results[0][2], results[1][2], strict=True):
        assert torch.equal(a, b)


def test_grad_scaler_and_global_optimizer_hooks_both_ways():
    import torch.optim.optimizer as topt

    import annotated_optim.optimizer as aopt

    log = []
    handles = [
        topt.register_optimizer_step_pre_hook(
            lambda o, a, k: log.append(("t", type(o).__module__))
        ),
        aopt.register_optimizer_step_post_hook(
            lambda o, a, k: log.append(("a", type(o).__module__))
        ),
    ]
    try:
        results = []
        for nn, optim in ((tnn, torch.optim), (ann, aoptim)):
            model = net(nn, bn=False)
            opt = optim.SGD(model.parameters(), lr=0.1)
            scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
            scaler.scale(model(X).sum()).backward()
            scaler.step(opt)
            scaler.update()
            results.append([p.detach() for p in model.parameters()])
        for a, b in zip(*results, strict=True):
            assert torch.equal(a, b)
        assert log == [
            ("t", "torch.optim.sgd"),
            ("a", "torch.optim.sgd"),
            ("t", "annotated_optim.sgd"),
            ("a", "annotated_optim.sgd"),
        ]
        assert aopt._global_optimizer_pre_hooks is topt._global_optimizer_pre_hooks
    finally:
        for h in handles:
            h.remove()


def test_our_scheduler_on_torch_optimizer_and_torch_on_ours_interleave():
    model = net(ann, bn=False)
    opt = aoptim.Adam(model.parameters(), lr=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
    torch_opt = torch.optim.Adam(net(tnn, bn=False).parameters(), lr=0.01)
    our_sched = aoptim.lr_scheduler.StepLR(torch_opt, 1, gamma=0.5)
    for o, s in ((opt, sched), (torch_opt, our_sched)):
        o.step()
        s.step()
    assert sched.get_last_lr() == our_sched.get_last_lr() == [0.005]
