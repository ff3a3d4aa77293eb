"""Padding, instance norm, pixel/channel shuffle, fold, upsampling and distance layers against torch.nn."""

import copy
import inspect
import pickle

import pytest
import torch
import torch.nn as tnn

import annotated_nn
from annotated_nn.modules import channelshuffle as our_channelshuffle
from annotated_nn.modules import distance as our_distance
from annotated_nn.modules import fold as our_fold
from annotated_nn.modules import instancenorm as our_instancenorm
from annotated_nn.modules import loss as our_loss
from annotated_nn.modules import padding as our_padding
from annotated_nn.modules import pixelshuffle as our_pixelshuffle
from annotated_nn.modules import upsampling as our_upsampling
from helpers import describe_state_dict, norm, our_mro_as_torch, outcome, record_warnings

PAIRS = [
    (tnn.modules.padding, our_padding),
    (tnn.modules.instancenorm, our_instancenorm),
    (tnn.modules.pixelshuffle, our_pixelshuffle),
    (tnn.modules.channelshuffle, our_channelshuffle),
    (tnn.modules.fold, our_fold),
    (tnn.modules.upsampling, our_upsampling),
    (tnn.modules.distance, our_distance),
]


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def observe(module):
    """What a user sees of a module: repr, class name, attributes, parameters, state dict."""
    return (
        norm(repr(module)),
        type(module).__name__,
        sorted((k, repr(v)) for k, v in vars(module).items() if not k.startswith("_")),
        [(n, tuple(p.shape), p.dtype, p.requires_grad) for n, p in module.named_parameters()],
        [(n, None if b is None else (tuple(b.shape), b.dtype)) for n, b in module._buffers.items()],
        describe_state_dict(module.state_dict()),
    )


def run(module, x, seed=1):
    """Forward + backward with a fixed weighting; return output, input grad and parameter grads."""
    x = x.detach().clone().requires_grad_(True)
    torch.manual_seed(seed)
    y = module(x)
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
    return y.detach(), x.grad, [(n, p.grad) for n, p in module.named_parameters()]


def assert_same_run(a, b):
    (ya, ga, pa), (yb, gb, pb) = a, b
    torch.testing.assert_close(yb, ya, rtol=0, atol=0)
    torch.testing.assert_close(gb, ga, rtol=0, atol=0)
    assert [n for n, _ in pa] == [n for n, _ in pb]
    for (_, u), (_, v) in zip(pa, pb):
        torch.testing.assert_close(v, u)


def class_names(module):
    return [n for n in dir(module) if inspect.isclass(getattr(module, n))]


# ---------------------------------------------------------------- class-level facts


@pytest.mark.parametrize("theirs_mod,ours_mod", PAIRS)
def test_all_and_classes(theirs_mod, ours_mod):
    assert ours_mod.__all__ == theirs_mod.__all__
    for name in theirs_mod.__all__:
        assert getattr(annotated_nn, name) is getattr(ours_mod, name)
        assert getattr(annotated_nn.modules, name) is getattr(ours_mod, name)
    wanted = [
        n
        for n in class_names(theirs_mod)
        if getattr(theirs_mod, n).__module__ == theirs_mod.__name__
    ]
    for name in wanted:
        theirs, ours = getattr(theirs_mod, name), getattr(ours_mod, name)
        assert ours.__module__ == ours_mod.__name__
        assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
        assert norm(inspect.signature(ours)) == norm(inspect.signature(theirs)), name
        for attr in ("__constants__", "_version", "cls_to_become"):
            if attr in theirs.__dict__:
                vt, vo = theirs.__dict__[attr], ours.__dict__.get(attr)
                assert getattr(vo, "__name__", vo) == getattr(vt, "__name__", vt), (name, attr)
            else:
                assert attr not in ours.__dict__, (name, attr)
        ann_t = {k: norm(repr(v)) for k, v in theirs.__dict__.get("__annotations__", {}).items()}
        ann_o = {k: norm(repr(v)) for k, v in ours.__dict__.get("__annotations__", {}).items()}
        assert ann_o == ann_t, name
        methods_t = sorted(k for k, v in theirs.__dict__.items() if inspect.isfunction(v))
        methods_o = sorted(k for k, v in ours.__dict__.items() if inspect.isfunction(v))
        assert methods_o == methods_t, name


# ---------------------------------------------------------------- padding

X = {1: (2, 3, 5), 2: (2, 3, 4, 5), 3: (1, 2, 3, 4, 5)}
XU = {1: (3, 5), 2: (3, 4, 5), 3: (2, 3, 4, 5)}
PAD_CASES = []
for _fam in ("Circular", "Reflection", "Replication", "Zero"):
    PAD_CASES += [
        (f"{_fam}Pad1d", (2,), X[1]),
        (f"{_fam}Pad1d", ((1, 3),), XU[1]),
        (f"{_fam}Pad2d", (1,), X[2]),
        (f"{_fam}Pad2d", ((1, 0, 2, 3),), XU[2]),
        (f"{_fam}Pad3d", (1,), X[3]),
        (f"{_fam}Pad3d", ((1, 2, 0, 1, 2, 0),), XU[3]),
    ]
PAD_CASES += [
    ("ConstantPad1d", (2, 3.5), X[1]),
    ("ConstantPad1d", ((0, 1), -1), XU[1]),
    ("ConstantPad2d", (1, 0.0), X[2]),
    ("ConstantPad2d", ((1, 0, 2, 3), 2.5), XU[2]),
    ("ConstantPad3d", (1, 7), X[3]),
    ("ConstantPad3d", ((1, 2, 0, 1, 2, 0), 1e-3), XU[3]),
    ("ZeroPad2d", ((-1, 1, 0, -2),), X[2]),
    ("ConstantPad1d", ((-1, 2), 4.0), X[1]),
    ("ReplicationPad2d", ([1, 2, 1, 0],), X[2]),
]


@pytest.mark.parametrize("name,args,shape", PAD_CASES, ids=str)
def test_padding_construct_forward_backward(name, args, shape):
    theirs, ours = build(tnn, name, *args), build(annotated_nn, name, *args)
    assert observe(ours) == observe(theirs)
    torch.manual_seed(3)
    x = torch.randn(shape)
    for mode in (True, False):
        theirs.train(mode)
        ours.train(mode)
        assert_same_run(run(theirs, x), run(ours, x))
    # 中: 换成 float64 与 meta 设备：没有参数，但前向传播要照样工作、形状一致。
    # EN: Move to float64 and the meta device: no parameters, yet the forward pass must work with equal shapes.
    xd = x.double()
    assert_same_run(run(theirs.double(), xd), run(ours.double(), xd))
    xm = torch.empty(shape, device="meta")
    yt, yo = theirs.to("meta")(xm), ours.to("meta")(xm)
    assert (yo.shape, yo.device.type, yo.dtype) == (yt.shape, yt.device.type, yt.dtype)
    assert observe(copy.deepcopy(ours)) == observe(theirs)
    assert observe(pickle.loads(pickle.dumps(ours))) == observe(theirs)


PAD_ERRORS = [
    # wrong tuple lengths, wrong dimensions, too-large reflection, base-class hook
    ("CircularPad1d", ((1, 2, 3),), (2, 3, 5)),
    ("CircularPad1d", (1,), (2, 3, 4, 5)),
    ("CircularPad2d", (1,), (5,)),
    ("CircularPad2d", (1,), (1, 2, 3, 4, 5)),
    ("CircularPad3d", (1,), (2, 3, 4)),
    ("CircularPad3d", (7,), (1, 2, 3, 4, 5)),
    ("ReflectionPad1d", (5,), (2, 3, 5)),
    ("ReflectionPad2d", ((1, 1),), (2, 3, 4, 5)),
    ("ReplicationPad3d", (1,), (5, 5)),
    ("ConstantPad2d", ((1, 2, 3),), (2, 3, 4)),
    ("ZeroPad3d", ((1, 2),), (1, 2, 3)),
    ("ZeroPad1d", ((1, 2, 3, 4),), (4, 5)),
    ("ConstantPad1d", (1,), None),
]


@pytest.mark.parametrize("name,args,shape", PAD_ERRORS, ids=str)
def test_padding_errors_match(name, args, shape):
    def scenario(nn):
        torch.manual_seed(0)
        x = None if shape is None else torch.randn(shape)
        made = outcome(getattr(nn, name), *args)
        if made[0] != "ok" or x is None:
            return made[0], made[1:] if made[0] != "ok" else norm(repr(made[1]))
        return norm(repr(made[1])), outcome(lambda: made[1](x).shape)

    assert scenario(annotated_nn) == scenario(tnn)


def test_padding_base_classes_and_reprs():
    x = torch.randn(1, 2, 3)
    results = []
    for nn in (tnn, annotated_nn):
        results.append(
            [
                outcome(nn.modules.padding._CircularPadNd(), x),
                outcome(repr, nn.modules.padding._ConstantPadNd(2.0)),
                outcome(nn.modules.padding._ReflectionPadNd(), x),
            ]
        )
    assert results[1] == results[0]
    results = []
    for nn in (tnn, annotated_nn):
        results.append(
            [
                repr(nn.ZeroPad1d(2)),
                repr(nn.ConstantPad3d(1, 0)),
                repr(nn.ReflectionPad2d((0, 1, 2, 3))),
                repr(nn.CircularPad3d([1, 2, 3, 4, 5, 6])),
                str(nn.Sequential(nn.ZeroPad2d(1), nn.ReplicationPad1d(2))),
                nn.ConstantPad2d(1, 3).value,
                type(nn.ZeroPad3d(1).value).__name__,
            ]
        )
    assert results[1] == results[0]


# ---------------------------------------------------------------- instance norm

IN_SHAPE = {1: (3, 4, 5), 2: (2, 4, 3, 5), 3: (2, 4, 2, 3, 3)}
IN_CASES = [
    ("InstanceNorm1d", (4,), {}),
    ("InstanceNorm1d", (4,), {"affine": True, "momentum": None}),
    ("InstanceNorm2d", (4,), {"track_running_stats": True}),
    ("InstanceNorm2d", (4, 1e-3, 0.3, True, True), {}),
    ("InstanceNorm2d", (4,), {"affine": True, "bias": False}),
    ("InstanceNorm3d", (4,), {"affine": True, "track_running_stats": True, "momentum": None}),
    ("InstanceNorm3d", (4,), {"dtype": torch.float64}),
]


def steps(module, shape, n=3, seed=1):
    """A few forward/backward steps; returns outputs, input grads, param grads, buffers."""
    dtype = module.running_mean.dtype if module.running_mean is not None else torch.float32
    if module.weight is not None:
        dtype = module.weight.dtype
    torch.manual_seed(seed)
    outs = []
    for _ in range(n):
        x = torch.randn(shape, dtype=dtype, requires_grad=True)
        y = module(x)
        (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
        outs.append((y.detach(), x.grad))
    grads = [(k, p.grad) for k, p in module.named_parameters()]
    bufs = [(k, None if b is None else b.clone()) for k, b in module.named_buffers()]
    return outs, grads, bufs


def assert_steps_match(a, b):
    (oa, ga, ba), (ob, gb, bb) = a, b
    for (ya, xa), (yb, xb) in zip(oa, ob, strict=True):
        torch.testing.assert_close(yb, ya)
        torch.testing.assert_close(xb, xa)
    assert [k for k, _ in ga] == [k for k, _ in gb] and [k for k, _ in ba] == [k for k, _ in bb]
    for (_, u), (_, v) in zip(ga + ba, gb + bb):
        torch.testing.assert_close(v, u)


@pytest.mark.parametrize("name,args,kwargs", IN_CASES, ids=str)
def test_instancenorm_train_eval_state(name, args, kwargs):
    theirs, ours = build(tnn, name, *args, **kwargs), build(annotated_nn, name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    shape = IN_SHAPE[int(name[-2])]
    # 中: 训练模式更新滑动统计量（若有），评估模式在 track_running_stats=True 时使用它们。
    # EN: Training updates the running statistics (if any); evaluation uses them when track_running_stats=True.
    assert_steps_match(steps(theirs, shape), steps(ours, shape))
    theirs.eval()
    ours.eval()
    assert_steps_match(steps(theirs, shape, seed=2), steps(ours, shape, seed=2))
    assert_steps_match(steps(theirs, shape[1:], n=1), steps(ours, shape[1:], n=1))
    assert observe(ours) == observe(theirs)
    theirs.reset_running_stats()
    ours.reset_running_stats()
    assert observe(ours) == observe(theirs)


@pytest.mark.parametrize("name,args,kwargs", IN_CASES, ids=str)
def test_instancenorm_dtype_and_meta(name, args, kwargs):
    kwargs = {k: v for k, v in kwargs.items() if k != "dtype"}
    shape = IN_SHAPE[int(name[-2])]
    theirs = build(tnn, name, *args, **kwargs).double()
    ours = build(annotated_nn, name, *args, **kwargs).double()
    assert observe(ours) == observe(theirs)
    assert_steps_match(steps(theirs, shape), steps(ours, shape))
    t, o = theirs.to("meta"), ours.to("meta")
    assert observe(o) == observe(t)
    xm = torch.empty(shape, device="meta", dtype=torch.float64)
    assert (o(xm).shape, o(xm).device.type) == (t(xm).shape, t(xm).device.type)
    t = build(tnn, name, *args, device="meta", **kwargs)
    o = build(annotated_nn, name, *args, device="meta", **kwargs)
    assert observe(o) == observe(t)


def test_instancenorm_channel_mismatch_and_rank_errors():
    def shaped(result):
        return ("ok", tuple(result[1].shape)) if result[0] == "ok" else result

    def scenario(nn):
        torch.manual_seed(0)
        x2, x1 = torch.randn(2, 5, 6), torch.randn(5, 6, 7)
        return [
            shaped(r) if r[0] in ("ok", "raise") else r
            for r in [
                record_warnings(lambda: nn.InstanceNorm1d(4)(x2).shape),
                outcome(nn.InstanceNorm1d(4, affine=True), x2),
                outcome(nn.InstanceNorm2d(5, affine=True), x1),
                record_warnings(lambda: nn.InstanceNorm2d(4)(x1).shape),
                outcome(nn.InstanceNorm1d(5), torch.randn(5)),
                outcome(nn.InstanceNorm2d(5), torch.randn(1, 5, 2, 2, 2)),
                outcome(nn.InstanceNorm3d(5), torch.randn(5, 2, 2)),
                outcome(nn.LazyInstanceNorm3d(), torch.randn(5, 2, 2)),
                outcome(nn.modules.instancenorm._InstanceNorm(3), torch.randn(2, 3, 4)),
                outcome(nn.modules.instancenorm._InstanceNorm(3)._get_no_batch_dim),
            ]
        ]

    assert scenario(annotated_nn) == scenario(tnn)


def test_instancenorm_old_checkpoint_running_stats():
    def scenario(nn, track, version):
        m = nn.Sequential(nn.InstanceNorm2d(3, track_running_stats=track))
        sd = {"0.running_mean": torch.ones(3), "0.running_var": torch.full((3,), 2.0)}
        sd = type(m.state_dict())(sd)
        sd._metadata = {"": {"version": 1}, "0": {} if version is None else {"version": version}}
        before = list(sd)
        result = outcome(m.load_state_dict, sd, strict=True)
        result2 = outcome(m.load_state_dict, dict(sd), strict=False)
        return result, result2, before, list(sd), describe_state_dict(m.state_dict())

    for track in (False, True):
        for version in (None, 1, 2):
            assert scenario(annotated_nn, track, version) == scenario(tnn, track, version)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("kwargs", [{}, {"affine": False}, {"track_running_stats": False}])
def test_lazy_instancenorm(n, kwargs):
    name = f"LazyInstanceNorm{n}d"
    theirs, ours = build(tnn, name, **kwargs), build(annotated_nn, name, **kwargs)

    def lazy_observe(m):
        return (
            norm(repr(m)),
            [(k, type(v).__name__) for k, v in m.named_parameters()],
            [(k, type(v).__name__) for k, v in m.named_buffers()],
            m.has_uninitialized_params(),
        )

    assert lazy_observe(ours) == lazy_observe(theirs)
    shape = IN_SHAPE[n]
    torch.manual_seed(4)
    x = torch.randn(shape)
    yt, yo = theirs(x), ours(x)
    torch.testing.assert_close(yo, yt)
    assert type(ours).__name__ == type(theirs).__name__ == f"InstanceNorm{n}d"
    assert observe(ours) == observe(theirs)
    assert_steps_match(steps(theirs, shape), steps(ours, shape))


# ---------------------------------------------------------------- shuffles, fold, upsampling, distance

MISC_CASES = [
    ("PixelShuffle", (2,), {}, [(2, 8, 3, 4)]),
    ("PixelShuffle", (3,), {}, [(9, 2, 2)]),
    ("PixelUnshuffle", (2,), {}, [(2, 3, 4, 6)]),
    ("PixelUnshuffle", (1,), {}, [(1, 3, 2, 2)]),
    ("ChannelShuffle", (2,), {}, [(2, 6, 3)]),
    ("ChannelShuffle", (3,), {}, [(1, 6, 2, 2)]),
    ("Fold", ((4, 5), 2), {}, [(2, 12, 12)]),
    ("Fold", ((4, 5), (2, 3)), {"dilation": 1, "padding": (1, 0), "stride": 2}, [(1, 6, 6)]),
    ("Fold", ([3, 3], 2), {}, [(4, 4)]),
    ("Unfold", (2,), {}, [(2, 3, 4, 5)]),
    ("Unfold", ((2, 3),), {"dilation": (1, 2), "padding": 1, "stride": (2, 1)}, [(3, 5, 6)]),
    ("Upsample", (), {"scale_factor": 2}, [(1, 2, 3)]),
    ("Upsample", (), {"size": (5, 7), "mode": "bilinear"}, [(1, 2, 3, 4)]),
    ("Upsample", (4,), {"mode": "linear", "align_corners": True}, [(2, 2, 3)]),
    ("Upsample", (), {"scale_factor": (1.5, 2), "mode": "bicubic"}, [(1, 1, 3, 4)]),
    (
        "Upsample",
        (),
        {"scale_factor": 1.7, "mode": "trilinear", "recompute_scale_factor": True},
        [(1, 1, 2, 3, 2)],
    ),
    ("Upsample", (), {"scale_factor": 2, "mode": "nearest-exact"}, [(1, 2, 3, 3)]),
    ("UpsamplingNearest2d", (), {"scale_factor": 2}, [(1, 2, 3, 3)]),
    ("UpsamplingNearest2d", ((4, 5),), {}, [(1, 2, 3, 3)]),
    ("UpsamplingBilinear2d", (), {"scale_factor": (2, 3)}, [(1, 2, 3, 3)]),
    ("UpsamplingBilinear2d", (None, 2), {}, [(1, 2, 3, 3)]),
    ("PairwiseDistance", (), {}, [(4, 5), (4, 5)]),
    ("PairwiseDistance", (1.0, 1e-3, True), {}, [(4, 5), (1, 5)]),
    ("PairwiseDistance", (), {"p": 0.5}, [(5,), (5,)]),
    ("CosineSimilarity", (), {}, [(4, 5), (4, 5)]),
    ("CosineSimilarity", (0, 1e-3), {}, [(4, 5, 2), (4, 1, 2)]),
    ("TripletMarginWithDistanceLoss", (), {}, [(4, 5), (4, 5), (4, 5)]),
    (
        "TripletMarginWithDistanceLoss",
        (),
        {"margin": 0.3, "swap": True, "reduction": "none"},
        [(4, 5), (4, 5), (4, 5)],
    ),
    (
        "TripletMarginWithDistanceLoss",
        (),
        {"distance_function": torch.cdist, "reduction": "sum"},
        [(4, 5), (4, 5), (4, 5)],
    ),
]


def run_many(module, inputs, seed=1):
    inputs = [x.detach().clone().requires_grad_(True) for x in inputs]
    torch.manual_seed(seed)
    y = module(*inputs)
    (y * torch.linspace(-1, 1, y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
    return y.detach(), [x.grad for x in inputs]


def assert_same_many(a, b):
    (ya, ga), (yb, gb) = a, b
    torch.testing.assert_close(yb, ya, rtol=0, atol=0)
    for u, v in zip(ga, gb, strict=True):
        torch.testing.assert_close(v, u, rtol=0, atol=0)


# ids by norm(): a function's repr holds a memory address that differs between processes (xdist)
@pytest.mark.parametrize("name,args,kwargs,shapes", MISC_CASES, ids=norm)
def test_misc_construct_forward_backward(name, args, kwargs, shapes):
    theirs, ours = build(tnn, name, *args, **kwargs), build(annotated_nn, name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    torch.manual_seed(3)
    xs = [torch.randn(s) for s in shapes]
    for mode in (True, False):
        theirs.train(mode)
        ours.train(mode)
        assert_same_many(run_many(theirs, xs), run_many(ours, xs))
    xd = [x.double() for x in xs]
    assert_same_many(run_many(theirs.double(), xd), run_many(ours.double(), xd))
    assert observe(copy.deepcopy(ours)) == observe(copy.deepcopy(theirs))
    if "distance_function" not in kwargs:
        assert observe(pickle.loads(pickle.dumps(ours))) == observe(theirs)
    if name != "TripletMarginWithDistanceLoss" or "distance_function" in kwargs:
        return
    xm = [torch.empty(s, device="meta") for s in shapes]
    yt, yo = theirs.to("meta")(*xm), ours.to("meta")(*xm)
    assert (yo.shape, yo.device.type) == (yt.shape, yt.device.type)


@pytest.mark.parametrize(
    "name,args,kwargs,shapes",
    [c for c in MISC_CASES if c[0] != "TripletMarginWithDistanceLoss"],
    ids=str,
)
def test_misc_meta(name, args, kwargs, shapes):
    theirs, ours = build(tnn, name, *args, **kwargs), build(annotated_nn, name, *args, **kwargs)
    xm = [torch.empty(s, device="meta") for s in shapes]
    yt, yo = theirs.to("meta")(*xm), ours.to("meta")(*xm)
    assert (yo.shape, yo.device.type, yo.dtype) == (yt.shape, yt.device.type, yt.dtype)


MISC_ERRORS = [
    ("PixelShuffle", (2,), [(1, 6, 2, 2)]),
    ("PixelShuffle", (2,), [(4, 2)]),
    ("PixelUnshuffle", (2,), [(1, 2, 3, 4)]),
    ("ChannelShuffle", (4,), [(1, 6, 2)]),
    ("ChannelShuffle", (2,), [(6,)]),
    ("Fold", ((4, 5), 2), [(2, 12, 11)]),
    ("Fold", ((4, 5), 2), [(2, 3, 12, 11)]),
    ("Unfold", (2,), [(2, 3)]),
    ("Unfold", (7,), [(1, 1, 3, 3)]),
    ("Upsample", (), [(1, 2, 3)]),
    ("Upsample", ((2, 3, 4),), [(1, 2, 3)]),
    ("UpsamplingBilinear2d", (2,), [(1, 2, 3)]),
    ("PairwiseDistance", (), [(4, 5), (3, 5)]),
    ("CosineSimilarity", (2,), [(4, 5), (4, 5)]),
]


@pytest.mark.parametrize("name,args,shapes", MISC_ERRORS, ids=str)
def test_misc_errors_match(name, args, shapes):
    def scenario(nn):
        torch.manual_seed(0)
        xs = [torch.randn(s) for s in shapes]
        m = getattr(nn, name)(*args)
        result = outcome(m, *xs)
        return norm(repr(m)), result if result[0] == "raise" else tuple(result[1].shape)

    assert scenario(annotated_nn) == scenario(tnn)


def test_upsample_settings_reprs_and_warnings():
    def scenario(nn):
        x = torch.randn(1, 1, 2, 2)
        modules = [
            nn.Upsample(scale_factor=0),
            nn.Upsample(scale_factor=(2, 3)),
            nn.Upsample(size=3, scale_factor=None, mode="bicubic"),
            nn.UpsamplingNearest2d(size=3),
            nn.UpsamplingBilinear2d(scale_factor=2.5),
        ]
        described = [
            (norm(repr(m)), m.name, m.scale_factor, m.align_corners, m.recompute_scale_factor)
            for m in modules
        ]
        _, warned = record_warnings(lambda: [m(x) for m in modules[1:]])
        # 中: 模拟旧 pickle：状态里没有 recompute_scale_factor，__setstate__ 应补为 True。
        # EN: Simulate an old pickle without recompute_scale_factor; __setstate__ should fill in True.
        old = nn.Upsample(scale_factor=2)
        state = dict(old.__dict__)
        del state["recompute_scale_factor"]
        fresh = nn.Upsample.__new__(nn.Upsample)
        fresh.__setstate__(state)
        return described, warned, fresh.recompute_scale_factor, norm(repr(fresh))

    assert scenario(annotated_nn) == scenario(tnn)


def test_distance_and_triplet_details():
    def scenario(nn):
        torch.manual_seed(0)
        a, p, n = torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4)
        loss = nn.TripletMarginWithDistanceLoss(distance_function=nn.CosineSimilarity(), margin=0.5)
        return [
            norm(repr(nn.PairwiseDistance(p=3))),
            nn.PairwiseDistance(p=3).norm,
            norm(repr(nn.CosineSimilarity(dim=0))),
            norm(repr(nn.TripletMarginWithDistanceLoss())),
            norm(repr(loss)),
            [k for k, _ in loss.named_modules()],
            loss(a, p, n).item(),
            outcome(nn.TripletMarginWithDistanceLoss, margin=0),
            outcome(nn.TripletMarginWithDistanceLoss, margin=-1.5),
            outcome(lambda: nn.TripletMarginWithDistanceLoss(None)),
            outcome(lambda: norm(repr(nn.TripletMarginWithDistanceLoss(reduction="bad")))),
            outcome(nn.TripletMarginWithDistanceLoss(reduction="bad"), a, p, n)[:2],
            describe_state_dict(nn.TripletMarginWithDistanceLoss().state_dict()),
            nn.TripletMarginWithDistanceLoss(distance_function=len).distance_function is len,
        ]

    assert scenario(annotated_nn) == scenario(tnn)
    assert "TripletMarginWithDistanceLoss" in our_loss.__all__
    theirs, ours = tnn.TripletMarginWithDistanceLoss, our_loss.TripletMarginWithDistanceLoss
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    assert norm(inspect.signature(ours)) == norm(inspect.signature(theirs))
    assert ours.__constants__ == theirs.__constants__
    assert {k: repr(v) for k, v in ours.__annotations__.items()} == {
        k: repr(v) for k, v in theirs.__annotations__.items()
    }
