"""Linear and convolution layers (linear.py, conv.py) against torch.nn, observable by observable."""

import copy
import inspect
import math
import pickle

import pytest
import torch
import torch.nn as tnn

import annotated_nn
from annotated_nn.modules import conv as our_conv
from annotated_nn.modules import linear as our_linear
from helpers import describe_state_dict, norm, our_mro_as_torch, outcome, record_warnings

FILES = {"torch": (tnn.modules.linear, tnn.modules.conv), "ours": (our_linear, our_conv)}


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def observe(module):
    """What a user sees of a module: repr, class name, parameters, state dict with values."""
    return (
        norm(repr(module)),
        type(module).__name__,
        [(n, tuple(p.shape), p.dtype, p.requires_grad) for n, p in module.named_parameters()],
        describe_state_dict(module.state_dict()),
    )


def forward_backward(module, inputs, **kwargs):
    """Run forward + backward with a fixed weighting; return output, input grads, param grads."""
    inputs = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in inputs]
    y = module(*inputs, **kwargs)
    weights = torch.arange(y.numel(), dtype=y.dtype).view_as(y) / max(y.numel(), 1)
    (y * weights).sum().backward()
    return (
        y.detach(),
        [x.grad for x in inputs],
        [(n, p.grad) for n, p in module.named_parameters()],
    )


def assert_same_run(a, b, exact=True):
    (ya, xa, pa), (yb, xb, pb) = a, b
    check = (
        (lambda u, v: torch.testing.assert_close(u, v, rtol=0, atol=0))
        if exact
        else torch.testing.assert_close
    )
    check(yb, ya)
    for u, v in zip(xa, xb):
        if u is None:
            assert v is None
        else:
            check(v, u)
    assert [n for n, _ in pa] == [n for n, _ in pb]
    for (_, u), (_, v) in zip(pa, pb):
        check(v, u)


# (class name, constructor args, constructor kwargs, input shapes, forward kwargs)
CASES = [
    ("Identity", (3, "x"), {"k": 1}, [(2, 3)], {}),
    ("Linear", (5, 3), {}, [(4, 5)], {}),
    ("Linear", (5, 3), {"bias": False}, [(2, 4, 5)], {}),
    ("Linear", (0, 3), {}, [(4, 0)], {}),
    ("Bilinear", (4, 5, 3), {}, [(6, 4), (6, 5)], {}),
    ("Bilinear", (4, 5, 3), {"bias": False}, [(6, 4), (6, 5)], {}),
    ("Conv1d", (4, 6, 3), {}, [(2, 4, 9)], {}),
    (
        "Conv1d",
        (4, 6, 3),
        {"stride": 2, "padding": 1, "dilation": 2, "groups": 2},
        [(2, 4, 11)],
        {},
    ),
    (
        "Conv1d",
        (4, 6, 4),
        {"padding": "same", "dilation": 3, "padding_mode": "reflect"},
        [(2, 4, 12)],
        {},
    ),
    ("Conv1d", (4, 6, 3), {"padding": "valid", "bias": False}, [(4, 9)], {}),
    ("Conv2d", (1, 6, 3), {}, [(2, 1, 8, 8)], {}),
    (
        "Conv2d",
        (4, 8, (3, 2)),
        {"stride": (2, 1), "padding": (1, 2), "groups": 4},
        [(2, 4, 7, 6)],
        {},
    ),
    ("Conv2d", (3, 4, 3), {"padding": 2, "padding_mode": "circular"}, [(2, 3, 6, 5)], {}),
    ("Conv2d", (3, 4, 3), {"padding": (1, 2), "padding_mode": "replicate"}, [(3, 6, 5)], {}),
    ("Conv2d", (3, 4, (2, 4)), {"padding": "same", "dilation": (2, 1)}, [(1, 3, 6, 7)], {}),
    ("Conv2d", (3, 4, 3), {"padding": "same", "padding_mode": "reflect"}, [(1, 3, 6, 7)], {}),
    ("Conv3d", (2, 4, 3), {}, [(1, 2, 5, 5, 5)], {}),
    (
        "Conv3d",
        (2, 4, (1, 2, 3)),
        {"padding": 1, "padding_mode": "replicate", "bias": False},
        [(2, 4, 5, 6)],
        {},
    ),
    ("ConvTranspose1d", (4, 6, 3), {}, [(2, 4, 7)], {}),
    (
        "ConvTranspose1d",
        (4, 6, 3),
        {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": 2},
        [(2, 4, 7)],
        {},
    ),
    (
        "ConvTranspose2d",
        (4, 6, 3),
        {"stride": 2, "padding": 1},
        [(2, 4, 5, 5)],
        {"output_size": [10, 10]},
    ),
    (
        "ConvTranspose2d",
        (4, 6, (3, 2)),
        {"stride": (2, 3), "bias": False},
        [(4, 5, 5)],
        {"output_size": (6, 11, 15)},
    ),
    ("ConvTranspose3d", (2, 3, 2), {"stride": 2, "output_padding": 1}, [(1, 2, 3, 3, 3)], {}),
]


def case_id(case):
    name, args, kwargs, _, fkw = case
    return f"{name}{args}{kwargs}{fkw}".replace(" ", "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_construct_init_forward_backward(case):
    name, args, kwargs, shapes, fkw = case
    theirs = build(tnn, name, *args, **kwargs)
    ours = build(annotated_nn, name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    torch.manual_seed(1)
    inputs = [torch.randn(s) for s in shapes]
    assert_same_run(forward_backward(theirs, inputs, **fkw), forward_backward(ours, inputs, **fkw))


@pytest.mark.parametrize("case", [c for c in CASES if c[0] != "Identity"], ids=case_id)
def test_float64_and_meta(case):
    name, args, kwargs, shapes, fkw = case
    theirs = build(tnn, name, *args, dtype=torch.float64, **kwargs)
    ours = build(annotated_nn, name, *args, dtype=torch.float64, **kwargs)
    assert observe(ours) == observe(theirs)
    inputs = [torch.randn(s, dtype=torch.float64) for s in shapes]
    assert_same_run(forward_backward(theirs, inputs, **fkw), forward_backward(ours, inputs, **fkw))
    # 中: 直接在 meta 设备上构造，以及构造后用 .to("meta") 迁移。
    # EN: Construct on the meta device directly, and move there afterwards with .to("meta").
    for make in (
        lambda nn: build(nn, name, *args, device="meta", **kwargs),
        lambda nn: build(nn, name, *args, **kwargs).to("meta"),
    ):
        t, o = make(tnn), make(annotated_nn)
        assert observe(o) == observe(t)
        assert all(p.is_meta for p in o.parameters())
        yt = t(*[torch.empty(s, device="meta") for s in shapes], **fkw)
        yo = o(*[torch.empty(s, device="meta") for s in shapes], **fkw)
        assert yo.shape == yt.shape and yo.is_meta


def test_identity_returns_same_object():
    x = torch.randn(3)
    assert annotated_nn.Identity(1, 2, a=3)(x) is x


@pytest.mark.parametrize(
    "name,args,kwargs",
    [
        ("Linear", (3, 4), {}),
        ("Bilinear", (3, 4, 5), {}),
        ("Conv2d", (4, 8, 3), {"groups": 2}),
        ("ConvTranspose2d", (4, 8, 3), {"groups": 4}),
    ],
)
def test_same_seed_reset_parameters(name, args, kwargs):
    theirs = build(tnn, name, *args, **kwargs)
    ours = build(annotated_nn, name, *args, **kwargs)
    for seed in (3, 4):
        torch.manual_seed(seed)
        theirs.reset_parameters()
        torch.manual_seed(seed)
        ours.reset_parameters()
        assert describe_state_dict(ours.state_dict()) == describe_state_dict(theirs.state_dict())


def test_conv_reset_parameters_channels_last():
    """A non-contiguous weight is initialised through a contiguous temporary, as torch does."""
    mods = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "Conv2d", 3, 4, 3).to(memory_format=torch.channels_last)
        assert not m.weight.is_contiguous()
        torch.manual_seed(7)
        m.reset_parameters()
        mods.append(m)
    assert describe_state_dict(mods[1].state_dict()) == describe_state_dict(mods[0].state_dict())
    assert mods[1].weight.stride() == mods[0].weight.stride()


ERROR_CASES = [
    ("Conv2d", (4, 8, 3), {"groups": 0}),
    ("Conv2d", (4, 8, 3), {"groups": -1}),
    ("Conv2d", (5, 8, 3), {"groups": 2}),
    ("Conv2d", (4, 7, 3), {"groups": 2}),
    ("Conv2d", (4, 8, 3), {"padding": "full"}),
    ("Conv1d", (4, 8, 3), {"padding": "same", "stride": 2}),
    ("Conv3d", (4, 8, 3), {"padding": "same", "stride": (1, 1, 2)}),
    ("Conv2d", (4, 8, 3), {"padding_mode": "mirror"}),
    ("Conv2d", (5, 8, 3), {"groups": 2, "padding": "full", "padding_mode": "x"}),
    ("ConvTranspose1d", (4, 8, 3), {"padding_mode": "reflect"}),
    ("ConvTranspose2d", (4, 8, 3), {"padding_mode": "circular", "groups": 0}),
    ("ConvTranspose3d", (4, 8, 3), {"padding_mode": "bogus"}),
    ("ConvTranspose2d", (5, 8, 3), {"groups": 2}),
    ("Bilinear", (0, 3, 4), {}),
    ("Bilinear", (-1, 3, 4), {}),
    ("Linear", (-1, 3), {}),
    ("Linear", (3,), {}),
    ("Conv2d", (3, 4), {}),
    ("Linear", (3, 4), {"bogus": 1}),
]


@pytest.mark.parametrize(
    "name,args,kwargs", ERROR_CASES, ids=[f"{c[0]}{c[2]}" for c in ERROR_CASES]
)
def test_constructor_errors(name, args, kwargs):
    theirs = outcome(build, tnn, name, *args, **kwargs)
    ours = outcome(build, annotated_nn, name, *args, **kwargs)
    assert theirs[0] == "raise"
    # exact text, set displays included: conv.py builds its padding-mode set in torch's order
    assert ours == theirs


@pytest.mark.parametrize(
    "name,args,shape,out_size",
    [
        ("ConvTranspose2d", (2, 3, 3), (1, 2, 4, 4), [20, 20]),
        ("ConvTranspose2d", (2, 3, 3), (1, 2, 4, 4), [1, 2, 3]),
        ("ConvTranspose2d", (2, 3, 3), (2, 4, 4), [1, 2, 3, 4, 5]),
        ("ConvTranspose1d", (2, 3, 3), (1, 2, 4), [1]),
        ("ConvTranspose3d", (2, 3, 3), (1, 2, 2, 2, 2), [4, 4]),
    ],
)
def test_conv_transpose_output_size_errors(name, args, shape, out_size):
    x = torch.randn(shape)

    def run(nn):
        m = build(nn, name, *args, stride=2)
        return outcome(lambda: m(x, output_size=out_size))

    theirs, ours = run(tnn), run(annotated_nn)
    assert theirs[0] == "raise"
    assert ours == theirs


def test_forward_errors_after_mutation():
    """Changing padding_mode after construction fails in forward with torch's message."""
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "ConvTranspose2d", 2, 3, 3)
        m.padding_mode = "reflect"
        results.append(outcome(m, torch.randn(1, 2, 4, 4)))
    assert results[0][0] == "raise" and results[1] == results[0]
    x = torch.randn(2, 3)
    assert outcome(build(annotated_nn, "Linear", 4, 2), x) == outcome(build(tnn, "Linear", 4, 2), x)


def test_reversed_padding_and_attributes():
    for kwargs in (
        {"padding": (1, 2)},
        {"padding": "same", "dilation": (2, 3)},
        {"padding": "same"},
        {"padding": "valid"},
        {"padding": 3, "stride": 2},
    ):
        t = build(tnn, "Conv2d", 2, 2, (4, 3), **kwargs)
        o = build(annotated_nn, "Conv2d", 2, 2, (4, 3), **kwargs)
        keys = [
            "in_channels",
            "out_channels",
            "kernel_size",
            "stride",
            "padding",
            "dilation",
            "transposed",
            "output_padding",
            "groups",
            "padding_mode",
            "_reversed_padding_repeated_twice",
        ]
        assert [getattr(o, k) for k in keys] == [getattr(t, k) for k in keys]
        assert [type(getattr(o, k)) for k in keys] == [type(getattr(t, k)) for k in keys]


def test_setstate_old_pickle_without_padding_mode():
    results = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "Conv2d", 2, 3, 3, padding=1)
        state = dict(m.__dict__)
        del state["padding_mode"]
        fresh = type(m).__new__(type(m))
        fresh.__setstate__(state)
        results.append((fresh.padding_mode, norm(repr(fresh)), fresh(torch.ones(1, 2, 4, 4)).shape))
    assert results[1] == results[0]


def test_pickle_and_deepcopy_roundtrip():
    for name, args in (("Linear", (3, 2)), ("Conv2d", (2, 3, 3)), ("ConvTranspose1d", (2, 3, 3))):
        m = build(annotated_nn, name, *args)
        for clone in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
            assert type(clone) is type(m)
            assert repr(clone) == repr(m)
            assert describe_state_dict(clone.state_dict()) == describe_state_dict(m.state_dict())


def test_conv_transpose_mixin_deprecated():
    results = []
    for conv in (tnn.modules.conv, our_conv):

        def make():
            return conv._ConvTransposeMixin(
                2, 3, (3,), (1,), (0,), (1,), True, (0,), 1, True, "zeros"
            )

        m, warns = record_warnings(make)
        results.append((warns, norm(repr(m)), our_mro_as_torch(type(m))))
    assert results[1] == results[0]


def test_non_dynamically_quantizable_linear():
    t = tnn.modules.linear.NonDynamicallyQuantizableLinear
    o = our_linear.NonDynamicallyQuantizableLinear
    torch.manual_seed(0)
    a = t(3, 4, bias=False)
    torch.manual_seed(0)
    b = o(3, 4, bias=False)
    assert observe(b) == observe(a)
    assert our_mro_as_torch(o) == [c.__name__ for c in t.__mro__]


CLASS_NAMES = [
    "_ConvNd",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "_ConvTransposeNd",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "_ConvTransposeMixin",
    "_LazyConvXdMixin",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
    "Identity",
    "Linear",
    "NonDynamicallyQuantizableLinear",
    "Bilinear",
    "LazyLinear",
]


def find_class(side, name):
    for mod in FILES[side]:
        if name in vars(mod):
            return vars(mod)[name]
    raise KeyError(name)


def signature_shape(fn):
    """Names, kinds and defaults of a signature (annotations left out)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", CLASS_NAMES)
def test_class_shape_matches_torch(name):
    t, o = find_class("torch", name), find_class("ours", name)
    assert our_mro_as_torch(o) == [c.__name__ for c in t.__mro__]
    assert o.__dict__.get("__constants__") == t.__dict__.get("__constants__")
    assert list(o.__dict__.get("__annotations__", {})) == list(
        t.__dict__.get("__annotations__", {})
    )
    assert getattr(o, "__constants__", None) == getattr(t, "__constants__", None)
    own = sorted(
        k for k, v in vars(t).items() if callable(v) or isinstance(v, (classmethod, staticmethod))
    )
    assert (
        sorted(
            k
            for k, v in vars(o).items()
            if callable(v) or isinstance(v, (classmethod, staticmethod))
        )
        == own
    )
    for meth in own:
        if meth.startswith("__") and meth not in ("__init__", "__setstate__"):
            continue
        tm, om = getattr(t, meth), getattr(o, meth)
        if inspect.isclass(tm):
            assert om.__name__ == tm.__name__
            continue
        assert signature_shape(om) == signature_shape(tm), meth
    if "cls_to_become" in vars(t):
        assert vars(o)["cls_to_become"].__name__ == vars(t)["cls_to_become"].__name__


def test_public_exports():
    for t_mod, o_mod in zip(FILES["torch"], FILES["ours"]):
        assert o_mod.__all__ == t_mod.__all__
    for name in tnn.modules.linear.__all__ + tnn.modules.conv.__all__:
        assert getattr(annotated_nn, name).__module__.startswith("annotated_nn.modules.")


def test_linear_bound_is_one_over_sqrt_fan_in():
    """Note [Why a=sqrt(5)]: every weight lies within 1/sqrt(in_features)."""
    m = build(annotated_nn, "Linear", 25, 400)
    assert m.weight.abs().max() <= 1 / math.sqrt(25)
    assert m.weight.abs().max() > 0.9 / math.sqrt(25)


def test_train_eval_and_extra_repr_byte_identical():
    for name, args, kwargs in [
        (
            "Conv2d",
            (2, 4, 3),
            {
                "stride": 2,
                "padding": 1,
                "dilation": 2,
                "groups": 2,
                "bias": False,
                "padding_mode": "circular",
            },
        ),
        ("ConvTranspose2d", (2, 4, 3), {"output_padding": 1, "stride": 2}),
        ("Conv1d", (2, 4, 3), {"padding": "same"}),
        ("Bilinear", (2, 3, 4), {"bias": False}),
    ]:
        t = build(tnn, name, *args, **kwargs)
        o = build(annotated_nn, name, *args, **kwargs)
        assert o.extra_repr() == t.extra_repr()
        assert repr(o.eval()) == repr(t.eval())
        assert o.training is t.training is False


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
@pytest.mark.cuda
@pytest.mark.parametrize(
    "name,args,shape", [("Linear", (5, 3), (4, 5)), ("Conv2d", (2, 3, 3), (1, 2, 6, 6))]
)
def test_cuda_construct_and_move(name, args, shape):
    x = torch.randn(shape, device="cuda")
    for make in (
        lambda nn: build(nn, name, *args, device="cuda"),
        lambda nn: build(nn, name, *args).cuda(),
    ):
        t, o = make(tnn), make(annotated_nn)
        assert observe(o) == observe(t)
        torch.testing.assert_close(o(x), t(x))
