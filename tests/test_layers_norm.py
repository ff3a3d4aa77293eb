"""Normalization layers (batchnorm.py, normalization.py) against torch.nn, observable by observable."""

import copy
import pickle
import types

import pytest
import torch
import torch.nn as tnn

import annotated_nn
from annotated_nn.modules import batchnorm as our_batchnorm
from annotated_nn.modules import normalization as our_normalization
from helpers import (
    describe_state_dict,
    mro_without_torch_module,
    norm,
    our_mro_as_torch,
    outcome,
    record_warnings,
)

OURS = types.SimpleNamespace(
    **{n: getattr(m, n) for m in (our_batchnorm, our_normalization) for n in m.__all__}
)
NS = {"torch": tnn, "ours": OURS}
BN_NAMES = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]
BN_INPUT = {"BatchNorm1d": (6, 3, 4), "BatchNorm2d": (4, 3, 2, 3), "BatchNorm3d": (2, 3, 2, 2, 2)}


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def observe(module):
    """What a user sees of a module's state: repr, class, parameter/buffer names, state dict."""
    return (
        norm(repr(module)),
        type(module).__name__,
        [(n, tuple(p.shape), p.dtype, p.requires_grad) for n, p in module.named_parameters()],
        [(n, None if b is None else (tuple(b.shape), b.dtype)) for n, b in module._buffers.items()],
        describe_state_dict(module.state_dict()),
    )


def run_steps(module, shape, steps=3, seed=1):
    """Forward + backward a few times; return outputs and gradients."""
    torch.manual_seed(seed)
    results = []
    for _ in range(steps):
        x = torch.randn(
            *shape, dtype=next(iter(module.parameters()), torch.empty(0)).dtype, requires_grad=True
        )
        y = module(x)
        (y * torch.arange(y.numel(), dtype=y.dtype).view_as(y)).sum().backward()
        results.append((y.detach(), x.grad))
    grads = [(n, p.grad) for n, p in module.named_parameters()]
    return results, grads


def assert_runs_match(a, b):
    (ra, ga), (rb, gb) = a, b
    assert len(ra) == len(rb)
    for (ya, xa), (yb, xb) in zip(ra, rb):
        torch.testing.assert_close(yb, ya)
        torch.testing.assert_close(xb, xa)
    assert [n for n, _ in ga] == [n for n, _ in gb]
    for (_, pa), (_, pb) in zip(ga, gb):
        torch.testing.assert_close(pb, pa)


# ---------------------------------------------------------------- class-level facts


@pytest.mark.parametrize(
    "name",
    BN_NAMES
    + ["LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d"]
    + ["LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm", "CrossMapLRN2d"],
)
def test_class_attributes_match(name):
    theirs, ours = getattr(tnn, name), getattr(OURS, name)
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    for cls_t, cls_o in zip(theirs.__mro__, mro_without_torch_module(ours)):
        for attr in ("__constants__", "_version", "cls_to_become"):
            if attr in cls_t.__dict__:
                vt, vo = cls_t.__dict__[attr], cls_o.__dict__.get(attr)
                assert (getattr(vo, "__name__", vo)) == (getattr(vt, "__name__", vt)), (cls_t, attr)
            else:
                assert attr not in cls_o.__dict__, (cls_o, attr)
        ann_t = {k: norm(repr(v)) for k, v in cls_t.__dict__.get("__annotations__", {}).items()}
        ann_o = {k: norm(repr(v)) for k, v in cls_o.__dict__.get("__annotations__", {}).items()}
        assert ann_o == ann_t, cls_t


def test_module_all_lists():
    assert our_normalization.__all__ == tnn.modules.normalization.__all__
    assert our_batchnorm.__all__ == tnn.modules.batchnorm.__all__


# ---------------------------------------------------------------- construction, repr, state dict

CASES = [
    ("BatchNorm1d", (3,), {}),
    ("BatchNorm1d", (3,), {"momentum": None, "eps": 1e-3}),
    ("BatchNorm2d", (3,), {"affine": False}),
    ("BatchNorm2d", (3,), {"bias": False}),
    ("BatchNorm3d", (3,), {"track_running_stats": False}),
    ("BatchNorm2d", (3, 1e-5, 0.1, True, True, None, torch.float64), {}),
    ("LayerNorm", (4,), {}),
    ("LayerNorm", ([2, 3],), {"eps": 1e-3, "bias": False}),
    ("LayerNorm", (torch.Size([3]),), {"elementwise_affine": False}),
    ("GroupNorm", (2, 4), {}),
    ("GroupNorm", (1, 3), {"affine": False}),
    ("GroupNorm", (2, 4), {"bias": False, "dtype": torch.float64}),
    ("RMSNorm", (3,), {}),
    ("RMSNorm", ([2, 3],), {"eps": 1e-6, "elementwise_affine": False}),
    ("LocalResponseNorm", (2,), {}),
    ("LocalResponseNorm", (3, 1e-3, 0.5, 2.0), {}),
    ("CrossMapLRN2d", (3,), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CASES)
def test_construction_repr_and_state(name, args, kwargs):
    t = build(tnn, name, *args, **kwargs)
    o = build(OURS, name, *args, **kwargs)
    assert observe(o) == observe(t)
    assert o.__dict__.keys() - {"_forward_hooks_always_called"} >= {
        k for k in t.__dict__ if not k.startswith("_")
    }
    for k, v in t.__dict__.items():
        if not k.startswith("_"):
            assert o.__dict__[k] == v, k


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.GroupNorm(3, 4),
        lambda nn: nn.GroupNorm(0, 4),
        lambda nn: nn.LayerNorm("x"),
        lambda nn: nn.BatchNorm1d(3, bias=False, affine=False).extra_repr(),
        lambda nn: nn.BatchNorm2d(3)(torch.zeros(2, 3)),
        lambda nn: nn.BatchNorm1d(3)(torch.zeros(2, 3, 4, 5)),
        lambda nn: nn.BatchNorm3d(3)(torch.zeros(2, 3, 4, 5)),
        lambda nn: nn.BatchNorm1d(3)(torch.zeros(1, 3)),
        lambda nn: nn.LayerNorm(4)(torch.zeros(2, 3)),
    ],
)
def test_errors_match(scenario):
    theirs = outcome(scenario, tnn)
    ours = outcome(scenario, OURS)
    if theirs[0] == "ok" and ours[0] == "ok":
        assert norm(repr(ours[1])) == norm(repr(theirs[1]))
    else:
        assert ours == theirs


def test_norm_base_check_input_dim_raises():
    for nn in (tnn.modules.batchnorm, our_batchnorm):
        m = nn._NormBase(3)
        with pytest.raises(NotImplementedError):
            m._check_input_dim(torch.zeros(1))


# ---------------------------------------------------------------- same-seed init, forward/backward


@pytest.mark.parametrize("name,args,kwargs", [c for c in CASES if c[0] not in ("CrossMapLRN2d",)])
def test_forward_backward_match(name, args, kwargs):
    t = build(tnn, name, *args, **kwargs)
    o = build(OURS, name, *args, **kwargs)
    dtype = kwargs.get("dtype", args[6] if len(args) > 6 else None) or torch.float32
    shape = {
        "LayerNorm": (2, 3) + tuple(t.normalized_shape) if hasattr(t, "normalized_shape") else None,
        "RMSNorm": (2,) + tuple(getattr(t, "normalized_shape", ())),
        "GroupNorm": (2, getattr(t, "num_channels", 0), 5),
        "LocalResponseNorm": (2, 4, 3, 3),
    }.get(name) or BN_INPUT[name]
    for m in (t, o):
        m.to(dtype)
    assert_runs_match(run_steps(t, shape), run_steps(o, shape))
    assert describe_state_dict(o.state_dict()) == describe_state_dict(t.state_dict())


def test_crossmaplrn2d_forward_backward():
    x = torch.randn(2, 5, 3, 3, requires_grad=True)
    outs = []
    for nn in (tnn, OURS):
        xi = x.detach().clone().requires_grad_()
        y = nn.CrossMapLRN2d(3, 1e-2, 0.7, 2)(xi)
        y.sum().backward()
        outs.append((y, xi.grad))
    torch.testing.assert_close(outs[1], outs[0])


# ---------------------------------------------------------------- BatchNorm train/eval behaviour


@pytest.mark.parametrize("name", BN_NAMES)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"momentum": None}, {"momentum": 0.3}, {"track_running_stats": False}, {"affine": False}],
)
def test_batchnorm_running_stats_train_then_eval(name, kwargs):
    t = build(tnn, name, 3, **kwargs)
    o = build(OURS, name, 3, **kwargs)
    assert_runs_match(run_steps(t, BN_INPUT[name], steps=4), run_steps(o, BN_INPUT[name], steps=4))
    assert describe_state_dict(o.state_dict()) == describe_state_dict(t.state_dict())
    t.eval()
    o.eval()
    assert_runs_match(
        run_steps(t, BN_INPUT[name], steps=2, seed=5), run_steps(o, BN_INPUT[name], steps=2, seed=5)
    )
    assert describe_state_dict(o.state_dict()) == describe_state_dict(t.state_dict())
    # reset goes back to the initial state
    t.reset_running_stats()
    o.reset_running_stats()
    assert describe_state_dict(o.state_dict()) == describe_state_dict(t.state_dict())


def test_batchnorm_momentum_none_is_cumulative_average():
    o = OURS.BatchNorm1d(2, momentum=None)
    torch.manual_seed(0)
    batches = [torch.randn(8, 2) for _ in range(5)]
    for b in batches:
        o(b)
    torch.testing.assert_close(o.running_mean, torch.stack([b.mean(0) for b in batches]).mean(0))
    assert o.num_batches_tracked.item() == 5


def test_batchnorm_eval_without_running_stats_uses_batch_stats():
    torch.manual_seed(0)
    x = torch.randn(5, 3, 2)
    outs = []
    for nn in (tnn, OURS):
        m = nn.BatchNorm1d(3, track_running_stats=False).eval()
        outs.append(m(x))
    torch.testing.assert_close(outs[1], outs[0])
    # buffers deleted after construction: eval falls back to batch statistics too
    outs = []
    for nn in (tnn, OURS):
        m = nn.BatchNorm1d(3)
        m.running_mean = None
        m.running_var = None
        outs.append((m.eval()(x), describe_state_dict(m.state_dict())))
    torch.testing.assert_close(outs[1][0], outs[0][0])
    assert outs[1][1] == outs[0][1]


def test_batchnorm_in_place_counter_and_training_flag():
    for nn in (tnn, OURS):
        m = nn.BatchNorm2d(3)
        counter = m.num_batches_tracked
        m(torch.randn(2, 3, 2, 2))
        assert m.num_batches_tracked is counter and counter.item() == 1
        m.eval()(torch.randn(2, 3, 2, 2))
        assert counter.item() == 1


# ---------------------------------------------------------------- state dict versions


def _old_state_dict(version, drop_counter=True):
    torch.manual_seed(3)
    src = tnn.Sequential(tnn.BatchNorm1d(3))
    src(torch.randn(4, 3))
    sd = src.state_dict()
    if drop_counter:
        del sd["0.num_batches_tracked"]
    if version is None:
        del sd._metadata["0"]["version"]
    else:
        sd._metadata["0"]["version"] = version
    return sd


@pytest.mark.parametrize("version", [None, 1, 2])
@pytest.mark.parametrize("strict", [True, False])
def test_load_old_state_dict_without_counter(version, strict):
    results = []
    for nn in (tnn, OURS):
        seq_cls = tnn.Sequential if nn is tnn else _our_sequential()
        m = seq_cls(nn.BatchNorm1d(3))
        m[0].num_batches_tracked.fill_(7)
        sd = _old_state_dict(version)
        res = outcome(m.load_state_dict, sd, strict=strict)
        results.append(
            (
                res
                if res[0] == "raise"
                else ("ok", sorted(res[1].missing_keys), sorted(res[1].unexpected_keys)),
                describe_state_dict(m.state_dict()),
                sorted(sd.keys()),
            )
        )
    assert results[1] == results[0]


def _our_sequential():
    from annotated_nn.modules.container import Sequential

    return Sequential


def test_load_old_state_dict_on_meta_module_uses_fresh_zero():
    results = []
    for nn in (tnn, OURS):
        m = nn.BatchNorm1d(3, device="meta")
        sd = _old_state_dict(1)
        inner = {k[2:]: v for k, v in sd.items()}
        inner_meta = type(sd)(inner)
        inner_meta._metadata = {"": {"version": 1}}
        res = m.load_state_dict(inner_meta, assign=True)
        results.append(
            (sorted(res.missing_keys), describe_state_dict(m.state_dict()), sorted(inner_meta))
        )
    assert results[1] == results[0]


def test_state_dict_metadata_version():
    for nn in (tnn, OURS):
        assert nn.BatchNorm2d(2).state_dict()._metadata[""]["version"] == 2
    assert OURS.LayerNorm(2).state_dict()._metadata[""]["version"] == 1


# ---------------------------------------------------------------- dtype and device moves


@pytest.mark.parametrize("name", ["BatchNorm2d", "LayerNorm", "GroupNorm", "RMSNorm"])
def test_dtype_and_meta_moves(name):
    args = (2, 4) if name == "GroupNorm" else (4,)
    results = []
    for nn in (tnn, OURS):
        m = build(nn, name, *args)
        m.double()
        a = observe(m)
        m.to("meta")
        b = [(n, t.device.type, t.dtype) for n, t in m.state_dict().items()]
        m2 = build(nn, name, *args, device="meta", dtype=torch.float16)
        c = [(n, t.device.type, t.dtype) for n, t in m2.state_dict().items()]
        results.append((a, b, c))
    assert results[1] == results[0]


def test_deepcopy_and_pickle_roundtrip():
    for name, args in [
        ("BatchNorm1d", (3,)),
        ("LayerNorm", (3,)),
        ("GroupNorm", (1, 3)),
        ("RMSNorm", (3,)),
    ]:
        m = build(OURS, name, *args)
        for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
            assert repr(clone) == repr(m)
            assert describe_state_dict(clone.state_dict()) == describe_state_dict(m.state_dict())


# ---------------------------------------------------------------- lazy batch norm


@pytest.mark.parametrize("name", BN_NAMES)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"affine": False}, {"track_running_stats": False}, {"bias": False, "momentum": None}],
)
def test_lazy_batchnorm_matches(name, kwargs):
    lazy = "Lazy" + name
    results = []
    for nn in (tnn, OURS):
        _, warns = record_warnings(lambda: build(nn, lazy, **kwargs))
        m = build(nn, lazy, **kwargs)
        before = (
            type(m).__name__,
            m.has_uninitialized_params(),
            [(n, type(p).__name__) for n, p in m.named_parameters()],
            [(n, type(b).__name__) for n, b in m.named_buffers()],
            m.num_features,
        )
        torch.manual_seed(1)
        x = torch.randn(*BN_INPUT[name])
        y = m(x)
        results.append((warns, before, observe(m), y, hasattr(m, "has_uninitialized_params")))
    (wt, bt, ot, yt, ht), (wo, bo, oo, yo, ho) = results
    assert (wo, bo, oo, ho) == (wt, bt, ot, ht)
    torch.testing.assert_close(yo, yt)
    assert type(m) is getattr(OURS, name)


def test_lazy_batchnorm_wrong_dim_and_state_dict_before_init():
    for nn in (tnn, OURS):
        m = nn.LazyBatchNorm2d()
        assert outcome(m, torch.zeros(2, 3))[0] == "raise"
    t, o = tnn.LazyBatchNorm1d(), OURS.LazyBatchNorm1d()
    assert norm(str(outcome(o, torch.zeros(2, 3, 4, 5)))) == norm(
        str(outcome(t, torch.zeros(2, 3, 4, 5)))
    )
    assert [type(v).__name__ for v in o.state_dict().values()] == [
        type(v).__name__ for v in t.state_dict().values()
    ]
    assert list(o.state_dict()) == list(t.state_dict())


def test_public_paths():
    # annotated_nn.X and annotated_nn.modules.X are the very classes of the family files
    for m in (our_batchnorm, our_normalization):
        for name in m.__all__:
            assert getattr(annotated_nn, name) is getattr(m, name)
            assert getattr(annotated_nn.modules, name) is getattr(m, name)
            assert name in annotated_nn.modules.__all__
