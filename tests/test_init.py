"""Differential tests: annotated_nn.init against torch.nn.init (same seed -> same bits)."""

import math
import warnings

import pytest
import torch
import torch.nn.init as theirs

import annotated_nn
import annotated_nn.init as ours

SHAPES_2D_PLUS = [(3, 5), (5, 3), (4, 3, 2), (6, 4, 3, 3), (2, 3, 2, 2, 2), (1, 1)]
SEEDS = [0, 7, 12345]


def run_both(fn_name, shape, *args, seed=0, dtype=torch.float32, use_generator=False, **kwargs):
    """Run torch's and our function on fresh tensors under one seed; return both results."""
    results = []
    for mod in (theirs, ours):
        torch.manual_seed(seed)
        t = torch.empty(shape, dtype=dtype)
        kw = dict(kwargs)
        if use_generator:
            g = torch.Generator().manual_seed(seed + 1)
            kw["generator"] = g
        out = getattr(mod, fn_name)(t, *args, **kw)
        assert out is t
        # Something drawn after the call shows both consumed the global RNG alike.
        results.append((t, torch.rand(3)))
    return results


def assert_same_bits(results):
    (t1, after1), (t2, after2) = results
    assert t1.dtype == t2.dtype and t1.shape == t2.shape
    assert torch.equal(t1, t2)
    assert torch.equal(after1, after2)


def raises_same(fn_name, *args, **kwargs):
    """Call both versions; assert the same exception type and message; return the message."""
    excs = []
    for mod in (theirs, ours):
        with pytest.raises(Exception) as info:
            getattr(mod, fn_name)(*args, **kwargs)
        excs.append(info.value)
    assert type(excs[0]) is type(excs[1])
    assert str(excs[0]) == str(excs[1])
    return str(excs[1])


def test_all_matches_torch():
    assert ours.__all__ == theirs.__all__
    for name in theirs.__all__:
        assert callable(getattr(ours, name))
    assert annotated_nn.init is ours


@pytest.mark.parametrize("name", [n for n in theirs.__all__ if n.endswith("_")])
def test_signatures_match(name):
    import inspect

    assert str(inspect.signature(getattr(ours, name))) == str(
        inspect.signature(getattr(theirs, name))
    )


@pytest.mark.parametrize(
    "nonlinearity",
    [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
        "tanh",
        "relu",
        "leaky_relu",
        "selu",
    ],
)
@pytest.mark.parametrize("param", [None, 0, 0.2, 3, math.sqrt(5)])
def test_calculate_gain(nonlinearity, param):
    a, b = theirs.calculate_gain(nonlinearity, param), ours.calculate_gain(nonlinearity, param)
    assert a == b and type(a) is type(b)


@pytest.mark.parametrize("bad", [True, False, "0.1", [0.1], torch.tensor(0.1)])
def test_calculate_gain_bad_param(bad):
    raises_same("calculate_gain", "leaky_relu", bad)


@pytest.mark.parametrize("name", ["gelu", "Relu", "", "softmax"])
def test_calculate_gain_unsupported(name):
    raises_same("calculate_gain", name)


@pytest.mark.parametrize("shape", [(3, 5), (7,), (2, 3, 4), ()])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("use_generator", [False, True])
def test_uniform_normal(shape, seed, use_generator):
    assert_same_bits(run_both("uniform_", shape, seed=seed, use_generator=use_generator))
    assert_same_bits(run_both("uniform_", shape, -2.0, 0.5, seed=seed, use_generator=use_generator))
    assert_same_bits(run_both("normal_", shape, seed=seed, use_generator=use_generator))
    assert_same_bits(run_both("normal_", shape, 1.5, 0.1, seed=seed, use_generator=use_generator))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "mean,std,a,b",
    [
        (0.0, 1.0, -2.0, 2.0),  # wide: normal + resampling branch
        (0.0, 1.0, -0.5, 0.5),  # p ~ 0.38
        (0.0, 1.0, 1.5, 2.5),  # narrow, away from mean: uniform rejection branch
        (0.0, 1.0, -0.1, 0.1),  # narrow around the mean
        (0.5, 0.02, -2.0, 2.0),  # tiny std
        (0.0, 0.02, -0.04, 0.04),  # ViT-style
    ],
)
def test_trunc_normal(dtype, seed, mean, std, a, b):
    for use_generator in (False, True):
        res = run_both(
            "trunc_normal_",
            (17, 13),
            mean,
            std,
            a,
            b,
            seed=seed,
            dtype=dtype,
            use_generator=use_generator,
        )
        assert_same_bits(res)
        t = res[1][0]
        assert t.min() >= a - 1e-2 and t.max() <= b + 1e-2


def test_trunc_normal_warns_far_mean():
    msgs = []
    for mod in (theirs, ours):
        torch.manual_seed(0)
        t = torch.empty(5)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.trunc_normal_(t, mean=10.0, std=1.0, a=-2.0, b=2.0)
        msgs.append([(x.category, str(x.message)) for x in w])
    assert msgs[0] == msgs[1] and len(msgs[0]) == 1


def test_trunc_normal_meta():
    for mod in (theirs, ours):
        t = torch.empty(4, 4, device="meta")
        assert mod.trunc_normal_(t) is t


@pytest.mark.parametrize("shape", [(3, 5), (2, 3, 4), (0,)])
def test_constant_ones_zeros(shape):
    for name, args in [("constant_", (0.3,)), ("constant_", (-7,)), ("ones_", ()), ("zeros_", ())]:
        assert_same_bits(run_both(name, shape, *args))


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (1, 7)])
def test_eye(shape):
    assert_same_bits(run_both("eye_", shape))
    for mod in (theirs, ours):
        p = torch.empty(shape, requires_grad=True)
        mod.eye_(p)
        assert p.requires_grad and p.grad_fn is None


@pytest.mark.parametrize("shape", [(3,), (2, 3, 4)])
def test_eye_error(shape):
    assert raises_same("eye_", torch.empty(shape)) == "Only tensors with 2 dimensions are supported"


@pytest.mark.parametrize(
    "shape,groups",
    [
        ((3, 16, 5), 1),
        ((3, 16, 5, 5), 1),
        ((4, 2, 3, 3, 3), 1),
        ((6, 4, 4, 4), 2),
        ((3, 24, 5, 5), 3),
        ((8, 2, 4), 4),
        ((2, 5, 2, 2), 1),
    ],
)
def test_dirac(shape, groups):
    assert_same_bits(run_both("dirac_", shape, groups))


def test_dirac_errors():
    raises_same("dirac_", torch.empty(3, 3))
    raises_same("dirac_", torch.empty(2, 2, 2, 2, 2, 2))
    assert raises_same("dirac_", torch.empty(5, 3, 3, 3), 2) == "dim 0 must be divisible by groups"
    for mod in (theirs, ours):
        t = torch.empty(4, 4, 3, 3, device="meta")
        assert mod.dirac_(t, 2) is t


@pytest.mark.parametrize("shape", SHAPES_2D_PLUS)
def test_fans(shape):
    t = torch.empty(shape)
    assert ours._calculate_fan_in_and_fan_out(t) == theirs._calculate_fan_in_and_fan_out(t)
    for mode in ("fan_in", "fan_out", "FAN_IN", "Fan_Out"):
        assert ours._calculate_correct_fan(t, mode) == theirs._calculate_correct_fan(t, mode)


@pytest.mark.parametrize("shape", [(), (4,)])
def test_fans_error(shape):
    msg = raises_same("_calculate_fan_in_and_fan_out", torch.empty(shape))
    assert "fewer than 2 dimensions" in msg
    for name in ("xavier_uniform_", "xavier_normal_"):
        raises_same(name, torch.empty(shape))


def test_bad_mode():
    raises_same("_calculate_correct_fan", torch.empty(3, 4), "fan_avg")
    raises_same("kaiming_uniform_", torch.empty(3, 4), mode="fan_avg")
    raises_same("kaiming_normal_", torch.empty(3, 4), mode="bad")
    # mode is checked before the dimension count
    raises_same("kaiming_uniform_", torch.empty(4), mode="bad")
    raises_same("kaiming_uniform_", torch.empty(4))
    raises_same("kaiming_normal_", torch.empty(3, 4), nonlinearity="gelu")


@pytest.mark.parametrize("shape", SHAPES_2D_PLUS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("use_generator", [False, True])
def test_xavier(shape, seed, use_generator):
    for name in ("xavier_uniform_", "xavier_normal_"):
        assert_same_bits(run_both(name, shape, seed=seed, use_generator=use_generator))
        assert_same_bits(
            run_both(
                name,
                shape,
                gain=theirs.calculate_gain("relu"),
                seed=seed,
                use_generator=use_generator,
            )
        )


@pytest.mark.parametrize("shape", SHAPES_2D_PLUS)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"a": math.sqrt(5)},
        {"mode": "fan_out", "nonlinearity": "relu"},
        {"nonlinearity": "tanh"},
        {"a": 0.2, "mode": "FAN_OUT"},
        {"nonlinearity": "selu"},
    ],
)
def test_kaiming(shape, seed, kwargs):
    for name in ("kaiming_uniform_", "kaiming_normal_"):
        assert_same_bits(run_both(name, shape, seed=seed, **kwargs))
        assert_same_bits(run_both(name, shape, seed=seed, use_generator=True, **kwargs))


@pytest.mark.parametrize("name", ["kaiming_uniform_", "kaiming_normal_"])
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0,)])
def test_kaiming_zero_element_warns(name, shape):
    records = []
    for mod in (theirs, ours):
        t = torch.full(shape, 5.0)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert getattr(mod, name)(t) is t
        records.append([(x.category, str(x.message)) for x in w])
    assert (
        records[0] == records[1] == [(UserWarning, "Initializing zero-element tensors is a no-op")]
    )


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (6, 2, 3), (3, 4, 2, 2), (1, 6)])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("gain", [1, 2.5])
def test_orthogonal(shape, seed, gain):
    assert_same_bits(run_both("orthogonal_", shape, gain, seed=seed))
    assert_same_bits(run_both("orthogonal_", shape, gain, seed=seed, use_generator=True))


def test_orthogonal_edge_cases():
    raises_same("orthogonal_", torch.empty(5))
    for mod in (theirs, ours):
        for t in (torch.empty(0, 3), torch.empty(3, 3, device="meta")):
            assert mod.orthogonal_(t) is t


@pytest.mark.parametrize("shape", [(10, 5), (3, 7), (1, 1)])
@pytest.mark.parametrize("sparsity", [0.0, 0.1, 0.5, 0.99])
@pytest.mark.parametrize("seed", SEEDS)
def test_sparse(shape, sparsity, seed):
    assert_same_bits(run_both("sparse_", shape, sparsity, seed=seed))
    assert_same_bits(run_both("sparse_", shape, sparsity, std=0.3, seed=seed, use_generator=True))


def test_sparse_errors():
    assert (
        raises_same("sparse_", torch.empty(3, 4, 5), 0.1)
        == "Only tensors with 2 dimensions are supported"
    )
    raises_same("sparse_", torch.empty(3), 0.1)
    for mod in (theirs, ours):
        t = torch.empty(3, 3, device="meta")
        assert mod.sparse_(t, 0.5) is t


def test_inplace_on_leaf_parameter_no_graph():
    for nn in (torch.nn, annotated_nn):
        p = nn.Parameter(torch.empty(4, 3))
        for name in (
            "uniform_",
            "normal_",
            "trunc_normal_",
            "xavier_uniform_",
            "kaiming_normal_",
            "orthogonal_",
            "constant_",
            "ones_",
            "zeros_",
            "eye_",
        ):
            args = (0.5,) if name == "constant_" else ()
            out = getattr(nn.init, name)(p, *args)
            assert out is p and p.grad_fn is None and p.requires_grad and p.is_leaf


DEPRECATED = {
    "uniform": (),
    "normal": (),
    "constant": (0.5,),
    "eye": (),
    "xavier_uniform": (),
    "xavier_normal": (),
    "kaiming_uniform": (),
    "kaiming_normal": (),
    "orthogonal": (),
    "sparse": (0.2,),
}


@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_deprecated_aliases(old):
    records = []
    for mod in (theirs, ours):
        torch.manual_seed(3)
        t = torch.empty(4, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = getattr(mod, old)(t, *DEPRECATED[old])
        assert out is t
        records.append((t, [(x.category, str(x.message), x.filename) for x in w]))
    assert torch.equal(records[0][0], records[1][0])
    assert records[0][1] == records[1][1]
    assert records[1][1][0][0] is FutureWarning
    assert records[1][1][0][2] == __file__  # stacklevel points at the caller
    assert getattr(ours, old).__name__ == getattr(theirs, old).__name__ == old


def test_deprecated_dirac():
    records = []
    for mod in (theirs, ours):
        t = torch.empty(4, 4, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            mod.dirac(t, groups=2)
        records.append((t, [str(x.message) for x in w]))
    assert torch.equal(records[0][0], records[1][0]) and records[0][1] == records[1][1]


class _Traced(torch.Tensor):
    """A subclass with __torch_function__ that records which functions it sees."""

    seen: list = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs or {})


@pytest.mark.parametrize(
    "name,args",
    [
        ("uniform_", ()),
        ("normal_", ()),
        ("constant_", (1.0,)),
        ("kaiming_uniform_", ()),
        ("kaiming_normal_", ()),
        ("xavier_uniform_", ()),
        ("xavier_normal_", ()),
        ("ones_", ()),
        ("zeros_", ()),
        ("orthogonal_", ()),
        ("eye_", ()),
        ("sparse_", (0.3,)),
        ("trunc_normal_", ()),
        ("trunc_normal_", (0.0, 1.0, 1.5, 2.5)),
    ],
)
def test_torch_function_dispatch(name, args):
    seen = []
    for mod in (theirs, ours):
        _Traced.seen = []
        torch.manual_seed(0)
        t = torch.empty(3, 4).as_subclass(_Traced)
        getattr(mod, name)(t, *args)
        seen.append(list(_Traced.seen))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("shape,groups", [((4, 4, 3), 1), ((4, 2, 3, 3), 2), ((2, 2, 3, 3, 3), 1)])
def test_torch_function_dispatch_dirac(shape, groups):
    seen = []
    for mod in (theirs, ours):
        _Traced.seen = []
        t = torch.empty(shape).as_subclass(_Traced)
        mod.dirac_(t, groups)
        seen.append(list(_Traced.seen))
    assert seen[0] == seen[1]
