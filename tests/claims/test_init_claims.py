"""Claims of init.py, chapter 13 (initialization) and Note [Why a=sqrt(5)] of linear.py."""

from __future__ import annotations

import math
import warnings

import pytest
import torch
import torch.nn as tnn
from claim import each_nn, proves


@proves(
    "annotated_src/annotated_nn/modules/linear.py",
    "Note [Why a=sqrt(5)]",
    "with a=sqrt(5) the kaiming bound gain*sqrt(3/fan_in) reduces to 1/sqrt(fan_in)",
)
@each_nn()
def test_why_a_sqrt5(nn):
    """gain^2 is 1/3; Linear's weight and bias stay within 1/sqrt(in_features)."""
    gain = nn.init.calculate_gain("leaky_relu", math.sqrt(5))
    assert math.isclose(gain**2, 1 / 3)
    assert math.isclose(gain * math.sqrt(3 / 400), 1 / math.sqrt(400))
    torch.manual_seed(0)
    big = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    assert big.weight.abs().max() <= bound and big.bias.abs().max() <= bound
    assert big.weight.abs().max() > 0.99 * bound


@proves(
    "annotated_src/annotated_nn/init.py",
    "init",
    "one seed gives the same bits as torch.nn.init, and the same amount of the global RNG",
)
@each_nn()
def test_same_seed_same_bits_as_torch(nn):
    """Each function on fresh tensors, then one more draw to compare the RNG state."""
    calls = [
        ("uniform_", (-1.0, 1.0)),
        ("normal_", (0.0, 2.0)),
        ("trunc_normal_", (0.0, 1.0, -0.5, 0.5)),
        ("xavier_uniform_", ()),
        ("xavier_normal_", ()),
        ("kaiming_uniform_", ()),
        ("kaiming_normal_", ()),
        ("orthogonal_", ()),
        ("sparse_", (0.5,)),
    ]
    for name, args in calls:
        results = []
        for lib in (nn, tnn):
            torch.manual_seed(0)
            t = getattr(lib.init, name)(torch.empty(6, 4), *args)
            results.append((t, torch.rand(3)))
        (ours, after_ours), (theirs, after_theirs) = results
        assert torch.equal(ours, theirs), name
        assert torch.equal(after_ours, after_theirs), name


@proves(
    "docs/chapters/13-init.md",
    "same-seed",
    "swapping weight and bias init draws as many numbers, yet both values change",
)
@each_nn()
def test_order_of_draws_changes_values(nn):
    """The chapter's example: the next draw agrees, the tensors do not."""

    def weights(swap):
        torch.manual_seed(0)
        m = nn.Linear(3, 2)
        with torch.no_grad():
            if swap:
                nn.init.uniform_(m.bias, -0.5, 0.5)
                nn.init.kaiming_uniform_(m.weight, a=5**0.5)
            else:
                nn.init.kaiming_uniform_(m.weight, a=5**0.5)
                nn.init.uniform_(m.bias, -0.5, 0.5)
        return m.weight.clone(), m.bias.clone(), torch.rand(1)

    a, b = weights(False), weights(True)
    assert [torch.equal(x, y) for x, y in zip(a, b, strict=True)] == [False, False, True]


@proves(
    "annotated_src/annotated_nn/init.py",
    "_no_grad_uniform_",
    "the fill functions work on a leaf parameter that requires grad and record nothing",
)
@each_nn()
def test_init_on_leaf_parameter(nn):
    """No error, still a leaf, no grad_fn."""
    p = nn.Parameter(torch.empty(3, 3))
    nn.init.uniform_(p)
    nn.init.zeros_(p)
    assert p.is_leaf and p.grad_fn is None and p.requires_grad


@proves(
    "annotated_src/annotated_nn/init.py",
    "calculate_gain",
    "linear and sigmoid give the int 1; a bool param and names like 'gelu' raise ValueError",
)
@each_nn()
def test_calculate_gain_types_and_errors(nn):
    """Mind the type and the refused values."""
    gain = nn.init.calculate_gain
    assert type(gain("linear")) is int and type(gain("sigmoid")) is int
    assert gain("tanh") == 5 / 3 and gain("selu") == 0.75
    assert gain("relu") == math.sqrt(2)
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        gain("leaky_relu", True)
    with pytest.raises(ValueError, match="Unsupported nonlinearity gelu"):
        gain("gelu")


@proves(
    "docs/chapters/13-init.md",
    "fans",
    "fan_in = in*prod(kernel); for a transposed conv the 'fan_in' is really out // groups",
)
@each_nn()
def test_fans_and_transposed_convention(nn):
    """(16, 6, 3, 3) gives (54, 144); ConvTranspose2d(8, 4, 3, groups=2) gives (2*9, 8*9)."""
    fans = nn.init._calculate_fan_in_and_fan_out
    assert fans(torch.empty(16, 6, 3, 3)) == (54, 144)
    ct = nn.ConvTranspose2d(8, 4, 3, groups=2)
    assert ct.weight.shape == (8, 2, 3, 3)
    assert fans(ct.weight) == (18, 72)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        fans(torch.empty(3))


@proves(
    "annotated_src/annotated_nn/init.py",
    "kaiming_uniform_",
    "a zero-element tensor only warns, even with an invalid mode and nonlinearity",
)
@each_nn()
def test_kaiming_zero_element_only_warns(nn):
    """The empty check comes before the argument checks."""
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        nn.init.kaiming_uniform_(torch.empty(0, 3), mode="bogus", nonlinearity="nope")


@proves(
    "annotated_src/annotated_nn/init.py",
    "_calculate_correct_fan",
    "mode is case-insensitive and checked first, so its error wins when both are wrong",
)
@each_nn()
def test_correct_fan_mode_first(nn):
    """A 1-D tensor and a bad mode: the mode error."""
    assert nn.init._calculate_correct_fan(torch.empty(4, 3), "FAN_OUT") == 4
    with pytest.raises(ValueError, match="Mode bogus not supported"):
        nn.init._calculate_correct_fan(torch.empty(3), "bogus")


@proves(
    "docs/chapters/13-init.md",
    "exercises",
    "a generator= draw leaves the global RNG untouched, except sparse_'s choice of rows",
)
@each_nn()
def test_generator_leaves_global_rng(nn):
    """normal_ with a generator keeps the global state; sparse_ still advances it."""
    state = torch.get_rng_state()
    nn.init.normal_(torch.empty(3, 3), generator=torch.Generator().manual_seed(0))
    assert torch.equal(state, torch.get_rng_state())
    nn.init.sparse_(torch.empty(3, 3), 0.5, generator=torch.Generator().manual_seed(0))
    assert not torch.equal(state, torch.get_rng_state())


@proves(
    "annotated_src/annotated_nn/init.py",
    "orthogonal_",
    "a wide result has orthonormal rows (W W^T = I), a tall one orthonormal columns",
)
@each_nn()
def test_orthogonal_wide_and_tall(nn):
    """The chapter's exercise 3, answered by the docstring."""
    wide = nn.init.orthogonal_(torch.empty(3, 5))
    tall = nn.init.orthogonal_(torch.empty(5, 3))
    assert torch.allclose(wide @ wide.T, torch.eye(3), atol=1e-5)
    assert torch.allclose(tall.T @ tall, torch.eye(3), atol=1e-5)


@proves(
    "annotated_src/annotated_nn/init.py",
    "trunc_normal_",
    "values are redrawn into [a, b]; a mean more than 2 std away from it warns",
)
@each_nn()
def test_trunc_normal_bounds_and_warning(nn):
    """All values inside the interval; the warning on a far mean."""
    t = nn.init.trunc_normal_(torch.empty(1000), std=1.0, a=-0.5, b=0.5)
    assert t.min() >= -0.5 and t.max() <= 0.5
    with pytest.warns(UserWarning, match="mean is more than 2 std from"):
        nn.init.trunc_normal_(torch.empty(10), mean=10.0)


@proves(
    "annotated_src/annotated_nn/init.py",
    "uniform_",
    "uniform_, normal_, constant_ and kaiming_uniform_ dispatch __torch_function__ with "
    "themselves as func; kaiming_normal_, ones_ and zeros_ do not",
)
@each_nn()
def test_torch_function_dispatch(nn):
    """A recording subclass sees the init function itself only for the dispatching ones."""
    seen = []

    class Recording(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(func)
            return super().__torch_function__(func, types, args, kwargs or {})

    t = torch.empty(2, 3).as_subclass(Recording)
    for name, dispatches in [
        ("uniform_", True),
        ("kaiming_uniform_", True),
        ("kaiming_normal_", False),
        ("normal_", True),
        ("constant_", True),
        ("ones_", False),
        ("zeros_", False),
    ]:
        seen.clear()
        fn = getattr(nn.init, name)
        fn(t, 0.5) if name == "constant_" else fn(t)
        assert (seen[0] is fn) is dispatches, name


@proves(
    "annotated_src/annotated_nn/init.py",
    "_make_deprecate",
    "the old names without underscore warn with FutureWarning and keep only a new __name__",
)
@each_nn()
def test_deprecated_aliases(nn):
    """nn.init.uniform warns; its qualname stays the inner function's."""
    with pytest.warns(FutureWarning, match="`nn.init.uniform` is now deprecated in favor of"):
        nn.init.uniform(torch.empty(2))
    assert nn.init.uniform.__name__ == "uniform"
    assert nn.init.uniform.__qualname__.endswith("deprecated_init")


@proves(
    "annotated_src/annotated_nn/init.py",
    "eye_",
    "a non-square eye_ has ones on the min(n, m) main diagonal",
)
@each_nn()
def test_eye_non_square(nn):
    """Writes into the same tensor."""
    t = torch.empty(2, 3)
    out = nn.init.eye_(t)
    assert out is t
    assert torch.equal(t, torch.eye(2, 3))


@proves(
    "annotated_src/annotated_nn/init.py",
    "dirac_",
    "dirac_ makes a convolution an identity map on the channels it can",
)
@each_nn()
def test_dirac_identity_conv(nn):
    """A Conv2d with dirac weights and no bias returns its input."""
    conv = nn.Conv2d(3, 3, 3, padding=1, bias=False)
    nn.init.dirac_(conv.weight)
    x = torch.randn(1, 3, 5, 5)
    assert torch.allclose(conv(x), x)


@proves(
    "annotated_src/annotated_nn/modules/linear.py",
    "Linear.reset_parameters",
    "with in_features=0 kaiming only warns and the bias bound is 0 (an all-zero bias)",
)
@each_nn()
def test_linear_zero_in_features(nn):
    """No division by zero."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = nn.Linear(0, 3)
    assert [str(w.message) for w in caught] == ["Initializing zero-element tensors is a no-op"]
    assert torch.equal(m.bias, torch.zeros(3))


@proves(
    "annotated_src/annotated_nn/init.py",
    "sparse_",
    "ceil(sparsity * rows) rows of each column are zeroed",
)
@each_nn()
def test_sparse_zeros_per_column(nn):
    """sparsity 0.5 on 3 rows zeroes 2 entries per column; 0 zeroes none."""
    w = nn.init.sparse_(torch.empty(3, 4), 0.5)
    assert (w == 0).sum(0).tolist() == [2, 2, 2, 2]
    assert torch.count_nonzero(nn.init.sparse_(torch.empty(3, 4), 0.0)) == 12


@proves(
    "annotated_src/annotated_nn/init.py",
    "_no_grad_trunc_normal_",
    "a meta tensor is returned at once: no warning, no random number consumed",
)
@each_nn()
def test_trunc_normal_meta(nn):
    """Even with a mean far outside [a, b]."""
    state = torch.get_rng_state()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = torch.empty(3, device="meta")
        assert nn.init.trunc_normal_(t, mean=10.0) is t
    assert torch.equal(state, torch.get_rng_state())
