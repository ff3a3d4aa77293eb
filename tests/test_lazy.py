"""Lazy modules (lazy.py and the Lazy* layers) against torch.nn: materialisation, class switch, loading."""

import copy

import pytest
import torch
import torch.nn as tnn

import annotated_nn
from annotated_nn.modules import lazy as our_lazy
from helpers import norm, our_mro_as_torch, outcome


def is_uninit(t):
    return type(t).__name__ in ("UninitializedParameter", "UninitializedBuffer")


def describe_value(v):
    if v is None:
        return None
    if is_uninit(v):
        return ("uninitialized", type(v).__name__, v.requires_grad)
    return (
        type(v).__name__,
        tuple(v.shape),
        v.dtype,
        v.device.type,
        None if v.is_meta else v.tolist(),
        v.requires_grad,
    )


def observe(m):
    """Class, repr, attributes that lazy modules change, parameters and state dict."""
    return (
        type(m).__name__,
        norm(repr(m)),
        sorted(
            (k, repr(v))
            for k, v in vars(m).items()
            if k in ("in_features", "in_channels", "out_features", "out_channels")
        ),
        [(n, describe_value(p)) for n, p in m._parameters.items()],
        [(k, describe_value(v)) for k, v in m.state_dict().items()],
        [(k, describe_value(v)) for k, v in m.state_dict(keep_vars=True).items()],
        "_initialize_hook" in vars(m),
        "_load_hook" in vars(m),
        len(m._forward_pre_hooks),
        len(m._load_state_dict_pre_hooks),
    )


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


# (lazy class, args, kwargs, first input shape, forward kwargs)
CASES = [
    ("LazyLinear", (4,), {}, (3, 5), {}),
    ("LazyLinear", (4,), {"bias": False}, (2, 3, 6), {}),
    ("LazyConv1d", (4, 3), {}, (2, 3, 9), {}),
    ("LazyConv1d", (4, 3), {"padding": "same", "padding_mode": "reflect", "groups": 2}, (6, 9), {}),
    ("LazyConv2d", (6, 3), {"stride": 2, "bias": False}, (2, 3, 8, 8), {}),
    ("LazyConv2d", (4, (2, 3)), {"groups": 2, "dilation": 2}, (4, 9, 9), {}),
    ("LazyConv3d", (2, 2), {}, (1, 3, 4, 4, 4), {}),
    ("LazyConvTranspose1d", (4, 3), {"stride": 2}, (2, 3, 5), {}),
    (
        "LazyConvTranspose2d",
        (4, 3),
        {"stride": 2, "padding": 1},
        (1, 2, 5, 5),
        {"output_size": [10, 10]},
    ),
    ("LazyConvTranspose2d", (4, 3), {"groups": 2, "bias": False}, (4, 5, 5), {}),
    ("LazyConvTranspose3d", (2, 2), {"output_padding": 1, "stride": 2}, (1, 3, 2, 2, 2), {}),
]


def case_id(case):
    return f"{case[0]}{case[1]}{case[2]}".replace(" ", "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_materialise_on_first_forward(case):
    name, args, kwargs, shape, fkw = case
    theirs = build(tnn, name, *args, **kwargs)
    ours = build(annotated_nn, name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    assert ours.has_uninitialized_params() is theirs.has_uninitialized_params() is True
    x = torch.randn(shape)
    torch.manual_seed(3)
    yt = theirs(x, **fkw)
    torch.manual_seed(3)
    yo = ours(x, **fkw)
    torch.testing.assert_close(yo, yt, rtol=0, atol=0)
    assert observe(ours) == observe(theirs)
    assert type(ours).__name__ == name.replace("Lazy", "")
    assert type(ours) is getattr(annotated_nn, name.replace("Lazy", ""))
    # 中: 第二次前向传播不再初始化，两边结果仍一致。
    # EN: The second forward pass initialises nothing more; results still agree.
    x2 = torch.randn(shape)
    torch.testing.assert_close(ours(x2, **fkw), theirs(x2, **fkw), rtol=0, atol=0)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_seed_matches_plain_layer(case):
    """After materialisation the weights are those of the plain layer built with the same seed."""
    name, args, kwargs, shape, fkw = case
    lazy = build(annotated_nn, name, *args, **kwargs)
    torch.manual_seed(11)
    lazy(torch.randn(shape), **fkw)
    x = torch.randn(shape)
    in_size = (
        shape[-1] if name == "LazyLinear" else shape[1 if len(shape) == int(name[-2]) + 2 else 0]
    )
    plain_name = name.replace("Lazy", "")
    torch.manual_seed(11)
    torch.randn(shape)  # 中: 消耗与上面相同的随机数。 / EN: consume the same numbers as above.
    plain = getattr(tnn, plain_name)(in_size, *args, **kwargs)
    for (n1, p1), (n2, p2) in zip(lazy.named_parameters(), plain.named_parameters(), strict=True):
        assert n1 == n2
        torch.testing.assert_close(p1.detach(), p2.detach(), rtol=0, atol=0)
    torch.testing.assert_close(lazy(x, **fkw), plain(x, **fkw), rtol=0, atol=0)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_load_state_dict_into_lazy(case):
    name, args, kwargs, shape, fkw = case
    source = build(tnn, name, *args, **kwargs)
    source(torch.randn(shape), **fkw)
    sd = source.state_dict()
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, name, *args, seed=1, **kwargs)
        res = m.load_state_dict(sd)
        after_load = observe(m)
        torch.manual_seed(5)
        y = outcome(m, torch.ones(shape), **fkw)
        y = y if y[0] == "raise" else ("ok", y[1].tolist())
        results.append((repr(res), after_load, observe(m), y))
    assert results[1] == results[0]


def test_load_lazy_state_dict_keeps_lazy_and_strict_errors():
    results = []
    for nn in (tnn, annotated_nn):
        src = build(nn, "LazyConv2d", 4, 3)
        dst = build(nn, "LazyConv2d", 4, 3)
        res = dst.load_state_dict(src.state_dict())
        lin = build(nn, "LazyLinear", 3)
        partial = outcome(
            lambda: repr(lin.load_state_dict({"weight": torch.ones(3, 2)}, strict=False))
        )
        strict = outcome(
            lambda: lin.load_state_dict({"weight": torch.ones(3, 2), "bias": torch.ones(4)})
        )
        results.append((repr(res), observe(dst), partial, strict, observe(lin)))
    assert results[1] == results[0]


def test_loaded_weight_disagrees_with_input():
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "LazyLinear", 3)
        m.load_state_dict({"weight": torch.ones(3, 4), "bias": torch.zeros(3)})
        results.append((outcome(m, torch.ones(2, 5)), observe(m)))
        results.append(outcome(m, torch.ones(2, 4))[1].tolist())
    assert results[2:] == results[:2]


@pytest.mark.parametrize(
    "name,args,kwargs,shape",
    [
        ("LazyConv2d", (4, 3), {}, (3, 4)),
        ("LazyConv2d", (4, 3), {}, (1, 2, 3, 4, 5)),
        ("LazyConv1d", (4, 3), {"groups": 2}, (2, 3, 8)),
        ("LazyConvTranspose3d", (4, 2), {}, (3, 3)),
        ("LazyConv2d", (3, 3), {"groups": 2}, (2, 4, 5, 5)),
    ],
)
def test_first_forward_errors(name, args, kwargs, shape):
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, name, *args, **kwargs)
        results.append((outcome(m, torch.randn(shape)), observe(m)))
    assert results[0][0][0] == "raise"
    assert results[1] == results[0]


def test_uninitialised_use_and_data_parallel_error():
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "LazyLinear", 3)
        results.append(
            (
                outcome(lambda: m.weight + 1),
                outcome(lambda: m.weight.shape),
                outcome(m._replicate_for_data_parallel),
                outcome(lambda: type(m.initialize_parameters).__name__),
            )
        )
    assert results[1] == results[0]
    assert results[0][2][0] == "raise"


def test_custom_mixin_errors():
    """The base initialize_parameters raises; leaving a placeholder raises 'not fully initialized'."""

    def scenario(nn):
        class NoInit(nn.modules.lazy.LazyModuleMixin, nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.UninitializedParameter()

            def forward(self, x):
                return x

        class Incomplete(NoInit):
            def initialize_parameters(self, x):
                pass

        class Complete(NoInit):
            cls_to_become = None

            def initialize_parameters(self, x, scale=1):
                self.w.materialize((x.shape[0], scale))

        a, b, c = NoInit(), Incomplete(), Complete()
        out = [outcome(a, torch.ones(2)), outcome(b, torch.ones(2))]
        out.append(outcome(lambda: c(torch.ones(2), scale=3).tolist()))
        out.append(
            (type(c).__name__, tuple(c.w.shape), type(c.w).__name__, len(c._forward_pre_hooks))
        )
        out.append(
            [
                k
                for k in vars(c)
                if "hook" in k and not k.startswith("_forward") and not k.startswith("_backward")
            ]
        )
        return out

    theirs, ours = scenario(tnn), scenario(annotated_nn)
    assert ours == theirs
    assert theirs[0][0] == "raise" and theirs[1][0] == "raise"


def test_dtype_and_device_before_dry_run():
    results = []
    for nn in (tnn, annotated_nn):
        for make in (
            lambda: build(nn, "LazyLinear", 3, dtype=torch.float64),
            lambda: build(nn, "LazyConv2d", 3, 2, device="meta"),
            lambda: build(nn, "LazyLinear", 3).double(),
            lambda: build(nn, "LazyConv1d", 2, 2).to("meta"),
        ):
            m = make()
            before = observe(m)
            p = next(m.parameters())
            x = torch.randn(
                (2, 4, 5) if "Conv" in type(m).__name__ else (2, 4), dtype=p.dtype, device=p.device
            )
            if "Conv2d" in type(m).__name__:
                x = torch.empty(2, 4, 5, 5, device="meta")
            torch.manual_seed(2)
            # 中: torch 中 `.to("meta")` 会把占位参数变成形状为 (0,) 的普通参数，
            # 中: 随后前向传播出错；我们同样如此。
            # EN: In torch `.to("meta")` turns the placeholder into a plain (0,)-shaped parameter and the
            # EN: forward pass then fails; we must behave the same way.
            y = outcome(m, x)
            y = y if y[0] == "raise" else (y[1].dtype, y[1].device.type, tuple(y[1].shape))
            results.append((before, observe(m), y))
    half = len(results) // 2
    assert results[half:] == results[:half]


def test_state_dict_and_deepcopy_of_lazy():
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "LazyLinear", 3)
        sd = m.state_dict()
        clone = copy.deepcopy(m)
        results.append((list(sd), [type(v).__name__ for v in sd.values()], observe(clone)))
        torch.manual_seed(1)
        clone(torch.ones(1, 2))
        results.append(observe(clone))
        results.append(observe(m))
    assert results[3:] == results[:3]


def test_sequential_of_lazy_layers_like_the_docs():
    """The LazyMLP of the readers' articles: lazy layers inside a container, one dry run."""

    def scenario(nn):
        torch.manual_seed(0)
        net = nn.Sequential(nn.LazyLinear(10), nn.ReLU(), nn.LazyLinear(1), nn.ReLU())
        before = norm(repr(net))
        torch.manual_seed(1)
        y = net(torch.ones(10, 10))
        return (
            before,
            norm(repr(net)),
            y.tolist(),
            [(n, p.tolist()) for n, p in net.named_parameters()],
        )

    assert scenario(annotated_nn) == scenario(tnn)


def test_lazy_class_shapes():
    t, o = tnn.modules.lazy, our_lazy
    assert o.__all__ == t.__all__
    assert [c.__name__ for c in o.LazyModuleMixin.__mro__] == [
        c.__name__ for c in t.LazyModuleMixin.__mro__
    ]
    own = lambda cls: sorted(k for k, v in vars(cls).items() if callable(v))
    assert own(o.LazyModuleMixin) == own(t.LazyModuleMixin)
    assert o.LazyModuleMixin.cls_to_become is None
    assert sorted(vars(o._LazyProtocol)) == sorted(vars(t._LazyProtocol))
    for name in (
        "LazyLinear",
        "LazyConv1d",
        "LazyConv2d",
        "LazyConv3d",
        "LazyConvTranspose1d",
        "LazyConvTranspose2d",
        "LazyConvTranspose3d",
    ):
        tc, oc = getattr(tnn, name), getattr(annotated_nn, name)
        # torch.nn.Module sits right after annotated_nn.Module in ours (issue 22)
        assert our_mro_as_torch(oc) == [c.__name__ for c in tc.__mro__]
        assert issubclass(oc, tnn.Module)
        assert oc.cls_to_become is getattr(annotated_nn, tc.cls_to_become.__name__)
        assert list(oc.__dict__.get("__annotations__", {})) == list(
            tc.__dict__.get("__annotations__", {})
        )


def test_no_construction_warning_in_2_13():
    import warnings

    for nn in (tnn, annotated_nn):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            nn.LazyLinear(3)
            nn.LazyConv2d(3, 3)
        assert [str(w.message) for w in caught] == []


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
@pytest.mark.cuda
def test_lazy_on_cuda():
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "LazyConv2d", 4, 3).cuda()
        torch.manual_seed(0)
        y = m(torch.ones(1, 2, 5, 5, device="cuda"))
        results.append((observe(m), y.device.type, y.cpu().tolist()))
    assert results[1] == results[0]
