"""SyncBatchNorm (batchnorm.py) against torch.nn.SyncBatchNorm, observable by observable.

Each scenario runs with torch.nn and with annotated_nn from the same seed; reprs, state dicts,
outputs, gradients, buffers, errors and the result of `convert_sync_batchnorm` must be identical
(tensors: torch.equal). The synchronized path runs in spawned processes: with gloo on CPU, where
torch refuses CPU inputs once a process group exists, and with NCCL on 2 GPUs (skipped without).
"""

import inspect
import os
import pickle

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as tnn

import annotated_nn as ann
import annotated_nn.utils.parametrize as our_parametrize
from helpers import describe_state_dict, free_port, norm, our_mro_as_torch, outcome, tensors_equal

NAMESPACES = {"torch": tnn, "ours": ann}
PARAMETRIZE = {"torch": torch.nn.utils.parametrize, "ours": our_parametrize}
SHAPES = [(5, 3), (4, 3, 6), (2, 3, 4, 5), (2, 3, 2, 3, 4)]


def build(nn, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return nn.SyncBatchNorm(*args, **kwargs)


def observe(module):
    """What a user sees of a module's state: repr, attributes, parameters, buffers, state dict."""
    return (
        norm(repr(module)),
        type(module).__name__,
        {k: norm(repr(v)) for k, v in vars(module).items() if not k.startswith("_")},
        [(n, tuple(p.shape), p.dtype, p.requires_grad) for n, p in module.named_parameters()],
        [(n, None if b is None else (tuple(b.shape), b.dtype)) for n, b in module._buffers.items()],
        describe_state_dict(module.state_dict()),
    )


def visible(result):
    """An `outcome` with the returned value dropped: what was raised, or just "ok"."""
    return result if result[0] == "raise" else ("ok",)


def assert_same_values(theirs, ours, where=""):
    """Equal nested structures; tensors compared bit for bit."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, torch.Tensor) and tensors_equal(theirs, ours), where
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), where
        for i, (t, o) in enumerate(zip(theirs, ours)):
            assert_same_values(t, o, f"{where}[{i}]")
    elif isinstance(theirs, dict):
        assert list(ours) == list(theirs), where
        for k in theirs:
            assert_same_values(theirs[k], ours[k], f"{where}[{k!r}]")
    else:
        assert ours == theirs, f"{where}\n torch: {theirs!r}\n ours:  {ours!r}"


# ---------------------------------------------------------------- class surface


def test_class_surface():
    theirs, ours = tnn.SyncBatchNorm, ann.SyncBatchNorm
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    assert ours.__module__ == "annotated_nn.modules.batchnorm"
    own = {k for k in vars(theirs) if not k.startswith("__")}
    assert {k for k in vars(ours) if not k.startswith("__")} == own
    for name in sorted(own):
        assert norm(inspect.signature(getattr(ours, name))) == norm(
            inspect.signature(getattr(theirs, name))
        ), name
    assert isinstance(inspect.getattr_static(ours, "convert_sync_batchnorm"), classmethod)
    assert ann.SyncBatchNorm is ann.modules.SyncBatchNorm is ann.modules.batchnorm.SyncBatchNorm
    assert ann.modules.batchnorm.__all__ == tnn.modules.batchnorm.__all__


# ---------------------------------------------------------------- construction, repr, state dict

CASES = [
    ((3,), {}),
    ((3,), {"momentum": None, "eps": 1e-3}),
    ((3,), {"affine": False}),
    ((3,), {"bias": False}),
    ((3,), {"track_running_stats": False}),
    ((3, 1e-5, 0.1, True, True, "group"), {}),
    ((3,), {"process_group": None, "dtype": torch.float64}),
    ((3, 1e-5, 0.1, True, True, None, "cpu", torch.float16), {}),
]


@pytest.mark.parametrize("args, kwargs", CASES)
def test_construction_repr_state_dict(args, kwargs):
    theirs = build(tnn, *args, **kwargs)
    ours = build(ann, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    assert ours.process_group == theirs.process_group
    assert ours.training is theirs.training is True


def test_constructor_errors():
    for args, kwargs in [((), {}), ((3,), {"bias": False, "nope": 1}), ((3,) * 10, {})]:
        theirs = outcome(tnn.SyncBatchNorm, *args, **kwargs)
        ours = outcome(ann.SyncBatchNorm, *args, **kwargs)
        assert ours == theirs


def test_state_dict_loads_across_batchnorm_and_syncbatchnorm():
    for ns in NAMESPACES.values():
        torch.manual_seed(0)
        plain = ns.BatchNorm2d(3)
        plain(torch.randn(4, 3, 2, 2))
        sync = ns.SyncBatchNorm(3)
        assert str(sync.load_state_dict(plain.state_dict())) == "<All keys matched successfully>"
        for key, value in plain.state_dict().items():
            assert torch.equal(sync.state_dict()[key], value)
        back = ns.BatchNorm2d(3)
        back.load_state_dict(sync.state_dict())
    theirs, ours = tnn.SyncBatchNorm(3), ann.SyncBatchNorm(3)
    # a pre-version-2 state dict (no num_batches_tracked) loads strictly in both
    old = {k: v for k, v in theirs.state_dict().items() if k != "num_batches_tracked"}
    assert str(ours.load_state_dict(old)) == str(theirs.load_state_dict(old))


# ---------------------------------------------------------------- input checks


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize(
    "shape", [(), (3,), (4, 0), (4, 0, 2), (1, 3), (1, 3, 1), (0, 3), (2, 4), *SHAPES]
)
def test_input_checks_match(shape, training):
    def run(nn):
        module = build(nn, 3)
        module.train(training)
        return visible(outcome(module, torch.ones(shape))), int(module.num_batches_tracked)

    assert run(ann) == run(tnn)


def test_one_dimensional_error_text():
    assert outcome(ann.SyncBatchNorm(3), torch.ones(3)) == (
        "raise",
        "ValueError",
        "expected at least 2D input (got 1D input)",
    )
    assert outcome(ann.SyncBatchNorm(3).eval(), torch.ones(2, 0)) == (
        "raise",
        "ValueError",
        "SyncBatchNorm number of input channels should be non-zero",
    )


def test_tracking_switched_on_later_is_an_assertion_error():
    def run(nn):
        module = build(nn, 3, track_running_stats=False)
        module.track_running_stats = True
        train = outcome(module, torch.ones(4, 3))
        module.eval()
        return train, module(torch.arange(12.0).view(4, 3))

    (train_t, eval_t), (train_o, eval_o) = run(tnn), run(ann)
    assert train_o == train_t == ("raise", "AssertionError", "num_batches_tracked must not be None")
    assert torch.equal(eval_o, eval_t)


# ---------------------------------------------------------------- forward without a process group


def steps(module, shape, n=3, seed=1):
    """Forward + backward a few times; outputs, input gradients, parameter gradients, buffers."""
    generator = torch.Generator().manual_seed(seed)
    results = []
    for _ in range(n):
        x = torch.randn(shape, generator=generator).requires_grad_()
        y = module(x)
        (y * torch.arange(y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
        results.append((y.detach(), x.grad))
    grads = [(n, p.grad) for n, p in module.named_parameters()]
    buffers = [(n, b.clone()) for n, b in module.named_buffers()]
    return results, grads, buffers


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"momentum": None}, {"affine": False}, {"bias": False}, {"track_running_stats": False}],
)
def test_training_on_cpu_without_process_group_is_plain_batchnorm(shape, kwargs):
    assert not dist.is_initialized()
    theirs, ours = build(tnn, 3, **kwargs), build(ann, 3, **kwargs)
    assert_same_values(steps(theirs, shape), steps(ours, shape))
    # and it computes what the matching BatchNorm computes (the local path)
    plain_name = {2: "BatchNorm1d", 3: "BatchNorm1d", 4: "BatchNorm2d", 5: "BatchNorm3d"}
    plain = getattr(ann, plain_name[len(shape)])(3, **kwargs)
    assert_same_values(steps(plain, shape), steps(build(ann, 3, **kwargs), shape))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kwargs", [{}, {"track_running_stats": False}, {"momentum": None}])
def test_eval_forward_matches(shape, kwargs):
    def run(nn):
        module = build(nn, 3, **kwargs)
        steps(module, shape, n=2)
        module.eval()
        for p in module.parameters():
            p.grad = None
        return steps(module, shape, n=2, seed=7)

    assert_same_values(run(tnn), run(ann))


def test_double_and_channels_last():
    def run(nn):
        module = build(nn, 3, dtype=torch.float64)
        x = torch.randn(2, 3, 4, 5, dtype=torch.float64).to(memory_format=torch.channels_last)
        y = module(x)
        return y, y.is_contiguous(memory_format=torch.channels_last), module.running_var.clone()

    assert_same_values(run(tnn), run(ann))


# ---------------------------------------------------------------- convert_sync_batchnorm


class _Double(torch.nn.Module):
    def forward(self, x):
        return 2 * x


def is_uninitialized(tensor):
    return type(tensor).__name__ in ("UninitializedParameter", "UninitializedBuffer")


def build_model(nn):
    """A nested model with every kind of BatchNorm, and layers that must not be converted."""
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(3, 4, 3),
        nn.BatchNorm2d(4),
        nn.ReLU(),
        nn.Sequential(nn.BatchNorm2d(4, affine=False, momentum=None), nn.InstanceNorm2d(4)),
        nn.ModuleDict(
            {
                "bn3d": nn.BatchNorm3d(4, track_running_stats=False),
                "sync": nn.SyncBatchNorm(4, eps=1e-3, process_group="old"),
                "nobias": nn.BatchNorm1d(4, bias=False, dtype=torch.float64),
                "lazy": nn.LazyBatchNorm1d(),
                "ln": nn.LayerNorm(4),
            }
        ),
    )
    model[1].weight.requires_grad_(False)
    model[1].qconfig = "qconfig marker"
    model[3].eval()
    model[4]["nobias"].eval()
    generator = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for value in [*model.parameters(), *model.buffers()]:
            if is_uninitialized(value):
                continue
            if value.is_floating_point():
                value.copy_(torch.rand(value.shape, generator=generator, dtype=value.dtype))
            else:
                value.fill_(5)
    return model


def observe_model(model):
    return (
        norm(repr(model)),
        [
            (
                name,
                type(m).__name__,
                m.training,
                norm(repr(getattr(m, "process_group", "-"))),
                getattr(m, "qconfig", None),
            )
            for name, m in model.named_modules()
        ],
        [(n, type(p).__name__, p.requires_grad) for n, p in model.named_parameters()],
        [(n, type(b).__name__) for n, b in model.named_buffers()],
        # an unmaterialized lazy layer, once converted, no longer saves (in torch too)
        visible(outcome(model.state_dict)),
        [
            (name, describe_state_dict(m.state_dict()))
            for name, m in model.named_modules()
            if not any(map(is_uninitialized, m.parameters()))
        ],
    )


@pytest.mark.parametrize("process_group", [None, "group"])
def test_convert_nested_model(process_group):
    originals, converted = {}, {}
    for key, nn in NAMESPACES.items():
        originals[key] = build_model(nn)
        before = {
            n: (m, dict(m._parameters), dict(m._buffers)) for n, m in originals[key].named_modules()
        }
        converted[key] = nn.SyncBatchNorm.convert_sync_batchnorm(originals[key], process_group)
        assert converted[key] is originals[key]
        # converted layers are new objects sharing the old parameter and buffer objects
        shared = []
        for name, module in converted[key].named_modules():
            old, params, buffers = before[name]
            if type(module).__name__ == "SyncBatchNorm":
                assert module is not old
                shared.append(
                    (
                        name,
                        [module._parameters[k] is v for k, v in params.items()],
                        [module._buffers[k] is v for k, v in buffers.items()],
                    )
                )
            else:
                assert module is old
        converted[key + "_shared"] = shared
    assert converted["ours_shared"] == converted["torch_shared"]
    assert all(all(p) and all(b) for _, p, b in converted["ours_shared"])
    assert observe_model(converted["ours"]) == observe_model(converted["torch"])
    count = sum(type(m).__name__ == "SyncBatchNorm" for m in converted["ours"].modules())
    assert count == sum(isinstance(m, tnn.SyncBatchNorm) for m in converted["torch"].modules()) == 6

    # the converted layers compute what torch's converted layers compute
    def run(model):
        generator = torch.Generator().manual_seed(5)
        x = torch.randn(4, 3, 5, 5, generator=generator)
        y = model[3](model[2](model[1](model[0](x))))
        y.sum().backward()
        buffers = [b.clone() for b in model.buffers() if not is_uninitialized(b)]
        return y, model[0].weight.grad, buffers

    assert_same_values(run(converted["torch"]), run(converted["ours"]))
    # an unmaterialized lazy layer converts into a broken SyncBatchNorm, in both
    lazy_t, lazy_o = converted["torch"][4]["lazy"], converted["ours"][4]["lazy"]
    assert outcome(lazy_o, torch.ones(2, 3)) == outcome(lazy_t, torch.ones(2, 3))


@pytest.mark.parametrize(
    "make",
    [
        lambda nn: nn.BatchNorm1d(3),
        lambda nn: nn.BatchNorm2d(3, affine=False).eval(),
        lambda nn: nn.SyncBatchNorm(3, momentum=None, process_group="x"),
        lambda nn: nn.InstanceNorm1d(3, affine=True, track_running_stats=True),
        lambda nn: nn.Linear(2, 2),
    ],
)
def test_convert_root(make):
    results = {}
    for key, nn in NAMESPACES.items():
        torch.manual_seed(0)
        root = make(nn)
        if hasattr(root, "num_batches_tracked"):
            root.num_batches_tracked.fill_(4)
        root.tag = "kept?"
        new = nn.SyncBatchNorm.convert_sync_batchnorm(root, "pg")
        results[key] = (
            new is root,
            norm(repr(new)),
            type(new).__name__,
            new.training,
            getattr(new, "tag", None),
            norm(repr(getattr(new, "process_group", None))),
            describe_state_dict(new.state_dict()),
        )
    assert results["ours"] == results["torch"]


def test_convert_keeps_qconfig_and_moves_children():
    results = {}
    for key, nn in NAMESPACES.items():
        bn = nn.BatchNorm1d(2)
        bn.qconfig = None
        bn.extra = nn.Linear(2, 2)
        new = nn.SyncBatchNorm.convert_sync_batchnorm(bn)
        results[key] = (hasattr(new, "qconfig"), new.qconfig, [n for n, _ in new.named_children()])
        assert new.extra is bn.extra
    assert results["ours"] == results["torch"] == (True, None, ["extra"])


def test_convert_through_a_subclass_builds_plain_syncbatchnorm():
    for nn in NAMESPACES.values():

        class MySync(nn.SyncBatchNorm):
            pass

        model = MySync.convert_sync_batchnorm(nn.Sequential(nn.BatchNorm1d(2)))
        assert type(model[0]) is nn.SyncBatchNorm


def test_convert_parametrized_batchnorm_matches():
    def run(key):
        nn = NAMESPACES[key]
        bn = nn.BatchNorm1d(3)
        module = nn.Module if key == "ours" else torch.nn.Module
        double = type("Double", (module,), {"forward": _Double.forward})
        PARAMETRIZE[key].register_parametrization(bn, "weight", double())
        return visible(outcome(nn.SyncBatchNorm.convert_sync_batchnorm, nn.Sequential(bn)))

    assert run("ours") == run("torch")


def test_convert_a_torch_model_gives_torchs_result():
    torch_model = build_model(tnn)
    twin = build_model(tnn)
    ours = ann.SyncBatchNorm.convert_sync_batchnorm(torch_model, "pg")
    theirs = tnn.SyncBatchNorm.convert_sync_batchnorm(twin, "pg")
    assert ours is torch_model
    assert observe_model(ours) == observe_model(theirs)
    assert isinstance(ours[1], tnn.SyncBatchNorm)


def test_convert_non_module_error_matches():
    assert outcome(ann.SyncBatchNorm.convert_sync_batchnorm, object()) == outcome(
        tnn.SyncBatchNorm.convert_sync_batchnorm, object()
    )


# ---------------------------------------------------------------- the synchronized path

WORLD_SIZE = 2


def _gloo_scenario(nn, rank, world_group, solo_group):
    """What a rank sees with an initialized gloo process group and CPU inputs."""
    generator = torch.Generator().manual_seed(10 + rank)
    x = torch.randn(4, 3, 5, generator=generator)
    seen = {}
    for label, group in [("world", None), ("explicit", world_group), ("alone", solo_group)]:
        torch.manual_seed(0)
        module = nn.SyncBatchNorm(3, process_group=group)
        seen[f"train/{label}"] = outcome(module, x)
        seen[f"counter/{label}"] = int(module.num_batches_tracked)
        seen[f"running_mean/{label}"] = module.running_mean.clone()
        module.eval()
        seen[f"eval/{label}"] = module(x)
    # batch statistics in evaluation mode still take the local path
    module = nn.SyncBatchNorm(3, track_running_stats=False).eval()
    seen["eval_untracked"] = module(x)
    model = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(nn.BatchNorm1d(3)), world_group)
    seen["converted_group_is_given"] = model[0].process_group is world_group
    seen["converted_train"] = outcome(model, x)
    return seen


def _gloo_worker(rank, port, out_dir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD_SIZE)
    try:
        world_group = dist.new_group([0, 1])
        solo = [dist.new_group([r]) for r in range(WORLD_SIZE)]
        results = {
            key: _gloo_scenario(nn, rank, world_group, solo[rank]) for key, nn in NAMESPACES.items()
        }
        with open(os.path.join(out_dir, f"rank{rank}.pkl"), "wb") as f:
            pickle.dump(results, f)
    finally:
        dist.destroy_process_group()


@pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo")
@pytest.mark.timeout(300)
def test_gloo_cpu_training_raises_torchs_error(tmp_path):
    mp.spawn(_gloo_worker, args=(free_port(), str(tmp_path)), nprocs=WORLD_SIZE, join=True)
    expected_error = (
        "raise",
        "ValueError",
        "SyncBatchNorm expected input tensor to be on GPU or XPU or privateuseone",
    )
    for rank in range(WORLD_SIZE):
        with open(tmp_path / f"rank{rank}.pkl", "rb") as f:
            results = pickle.load(f)
        assert_same_values(results["torch"], results["ours"], f"rank {rank}")
        seen = results["ours"]
        # torch refuses CPU input once a group exists, even a group of 1 process, after the
        # counter was bumped and before the running statistics change
        for label in ("world", "explicit", "alone"):
            assert seen[f"train/{label}"] == expected_error
            assert seen[f"counter/{label}"] == 1
            assert torch.equal(seen[f"running_mean/{label}"], torch.zeros(3))
        assert seen["converted_train"] == expected_error
        assert seen["converted_group_is_given"] is True


def _cuda_worker(rank, port, out_dir):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=WORLD_SIZE)
    try:
        results = {}
        for key, nn in NAMESPACES.items():
            torch.manual_seed(0)
            model = nn.SyncBatchNorm.convert_sync_batchnorm(
                nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4, momentum=None))
            ).cuda(rank)
            generator = torch.Generator().manual_seed(20 + rank)
            seen = []
            for _ in range(2):
                x = torch.randn(3 + rank, 3, 6, 6, generator=generator).cuda(rank)
                x.requires_grad_()
                y = model(x)
                (y * y).sum().backward()
                seen.append((y.detach().cpu(), x.grad.cpu()))
            seen.append([p.grad.cpu() for p in model.parameters()])
            seen.append([b.cpu() for b in model.buffers()])
            model.eval()
            seen.append(model(torch.ones(2, 3, 6, 6, device=f"cuda:{rank}")).detach().cpu())
            results[key] = seen
        with open(os.path.join(out_dir, f"rank{rank}.pkl"), "wb") as f:
            pickle.dump(results, f)
    finally:
        dist.destroy_process_group()


@pytest.mark.cuda
@pytest.mark.skipif(
    not torch.cuda.is_available()
    or torch.cuda.device_count() < 2
    or not dist.is_available()
    or not dist.is_nccl_available(),
    reason="needs 2 CUDA devices and NCCL",
)
@pytest.mark.timeout(300)
def test_cuda_two_devices_synchronized_path_matches(tmp_path):
    mp.spawn(_cuda_worker, args=(free_port(), str(tmp_path)), nprocs=WORLD_SIZE, join=True)
    ranks = []
    for rank in range(WORLD_SIZE):
        with open(tmp_path / f"rank{rank}.pkl", "rb") as f:
            results = pickle.load(f)
        assert_same_values(results["torch"], results["ours"], f"rank {rank}")
        ranks.append(results["ours"])
    # the statistics really were shared: both ranks hold the same running buffers
    assert_same_values(ranks[0][3], ranks[1][3])
