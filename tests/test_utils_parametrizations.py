"""annotated_nn.utils.parametrizations vs torch.nn.utils.parametrizations, on twin models."""

import copy
import importlib
import inspect
import pickle
import warnings

import pytest
import torch
import torch.nn as tnn
import torch.nn.utils.parametrizations as tPs
import torch.nn.utils.parametrize as tP

import annotated_nn as ann
import annotated_nn.utils.parametrizations as aPs
import annotated_nn.utils.parametrize as aP
from helpers import assert_same, norm, outcome

# namespace -> (parametrizations module, parametrize module)
LIB = {tnn: (tPs, tP), ann: (aPs, aP)}
OLD_WN = {
    tnn: importlib.import_module("torch.nn.utils.weight_norm"),
    ann: importlib.import_module("annotated_nn.utils.weight_norm"),
}
MAPS = [None, "matrix_exp", "cayley", "householder"]


def fmt(t):
    """A tensor as comparable exact data, bit for bit (None stays None)."""
    if t is None:
        return None
    return str(t.dtype), tuple(t.shape), t.detach().contiguous().numpy().tobytes()


def sd(m):
    """state_dict as [(key, exact value)]."""
    return [(k, fmt(v)) for k, v in m.state_dict().items()]


def grads(m):
    """[(name, exact grad)] over named_parameters, in order."""
    return [(k, fmt(p.grad)) for k, p in m.named_parameters()]


def layer(nn, kind, seed=0):
    """A small layer of `kind` built from `seed`, with an input that fits it."""
    torch.manual_seed(seed)
    if kind == "tall":  # weight 6 x 4
        return nn.Linear(4, 6), torch.randn(3, 4)
    if kind == "wide":  # weight 3 x 5
        return nn.Linear(5, 3), torch.randn(3, 5)
    if kind == "square":
        return nn.Linear(4, 4), torch.randn(3, 4)
    if kind == "complex":  # weight 5 x 3, complex
        return nn.Linear(3, 5, dtype=torch.cfloat), torch.randn(2, 3, dtype=torch.cfloat)
    if kind == "complex_sq":
        return nn.Linear(3, 3, dtype=torch.cdouble), torch.randn(2, 3, dtype=torch.cdouble)
    if kind == "conv_sq":  # batch of 3 x 3 matrices
        return nn.Conv2d(2, 3, 3), torch.randn(1, 2, 5, 5)
    if kind == "conv_wide":  # batch of 2 x 3 matrices
        return nn.Conv2d(2, 3, (2, 3)), torch.randn(1, 2, 5, 5)
    if kind == "convT":
        return nn.ConvTranspose2d(2, 3, (2, 3)), torch.randn(1, 2, 4, 4)
    if kind == "conv1d":
        return nn.Conv1d(2, 4, 3), torch.randn(2, 2, 6)
    raise ValueError(kind)


def loss_of(y):
    """A real scalar loss, also for complex outputs."""
    return (y.real.square().sum() + y.imag.square().sum()) if y.is_complex() else y.square().sum()


def train(nn, m, x, steps=3, **sgd):
    """Forward, backward and SGD steps; everything observable along the way."""
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, **sgd)
    seen = []
    for _ in range(steps):
        opt.zero_grad()
        y = m(x)
        loss_of(y).backward()
        seen.append((fmt(y), grads(m)))
        opt.step()
        seen.append((fmt(m.weight), sd(m)))
    return seen


def is_orthogonal(Q):
    """Orthonormal columns (tall) or rows (wide), per matrix of a batch."""
    if Q.size(-2) < Q.size(-1):
        Q = Q.mT
    eye = torch.eye(Q.size(-1), dtype=Q.dtype)
    return torch.allclose(Q.mH @ Q, eye, atol=1e-5)


# ----------------------------------------------------------------------------- API


def test_public_names_and_signatures():
    assert aPs.__all__ == tPs.__all__
    pairs = [(getattr(tPs, n), getattr(aPs, n)) for n in tPs.__all__]
    pairs += [
        (tPs._is_orthogonal, aPs._is_orthogonal),
        (tPs._make_orthogonal, aPs._make_orthogonal),
    ]
    for cls in ("_Orthogonal", "_WeightNorm", "_SpectralNorm"):
        a, b = getattr(tPs, cls), getattr(aPs, cls)
        assert b.__name__ == a.__name__ and issubclass(b, ann.Module)
        names = [m for m in vars(a) if inspect.isfunction(getattr(a, m))]
        assert names == [m for m in vars(b) if inspect.isfunction(getattr(b, m))]
        pairs += [(getattr(a, m), getattr(b, m)) for m in names]
    for x, y in pairs:
        shape = [
            [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
            for f in (x, y)
        ]
        assert shape[0] == shape[1], x
    assert [(m.name, m.value) for m in aPs._OrthMaps] == [(m.name, m.value) for m in tPs._OrthMaps]


def test_helpers_match():
    torch.manual_seed(0)
    A = torch.randn(2, 5, 3, dtype=torch.double)
    assert torch.equal(tPs._make_orthogonal(A.clone()), aPs._make_orthogonal(A.clone()))
    C = torch.randn(4, 4, dtype=torch.cfloat)
    assert torch.equal(tPs._make_orthogonal(C.clone()), aPs._make_orthogonal(C.clone()))
    Q = aPs._make_orthogonal(A)
    for M in (A, Q, Q + 1e-5, Q + 1e-9, aPs._make_orthogonal(C)):
        assert tPs._is_orthogonal(M) == aPs._is_orthogonal(M)
        assert tPs._is_orthogonal(M, eps=1.0) == aPs._is_orthogonal(M, eps=1.0)


# ----------------------------------------------------------------------------- orthogonal


ORTH_KINDS = ["tall", "wide", "square", "complex", "complex_sq", "conv_sq", "conv_wide"]


@pytest.mark.parametrize("kind", ORTH_KINDS)
@pytest.mark.parametrize("omap", MAPS)
@pytest.mark.parametrize("triv", [True, False])
def test_orthogonal_training_identical(kind, omap, triv):
    def scenario(nn):
        m, x = layer(nn, kind)
        made = outcome(LIB[nn][0].orthogonal, m, orthogonal_map=omap, use_trivialization=triv)
        if made[0] == "raise":
            return made, repr(m), sd(m)
        orth = m.parametrizations.weight[0]
        start = (
            repr(m),
            sd(m),
            fmt(m.weight),
            is_orthogonal(m.weight),
            orth.orthogonal_map.name,
            tuple(orth.shape),
            hasattr(orth, "base"),
            [k for k, _ in m.named_buffers()],
            [(k, type(p).__name__, p.requires_grad) for k, p in m.named_parameters()],
        )
        steps = train(nn, m, x)
        return start, steps, is_orthogonal(m.weight)

    result = assert_same(scenario)
    if result[0][0] != "raise":
        assert result[0][3] and result[2]


@pytest.mark.parametrize("kind", ["tall", "wide", "conv_wide", "complex"])
@pytest.mark.parametrize("omap", MAPS)
@pytest.mark.parametrize("triv", [True, False])
def test_orthogonal_assign_weight(kind, omap, triv):
    """Dynamic trivialization: assigning the weight back folds it into `base`."""

    def scenario(nn):
        m, x = layer(nn, kind)
        if (
            outcome(LIB[nn][0].orthogonal, m, orthogonal_map=omap, use_trivialization=triv)[0]
            != "ok"
        ):
            return "refused"
        train(nn, m, x, steps=2)
        out = []
        with torch.no_grad():
            W = m.weight.detach().clone()
            out.append(outcome(setattr, m, "weight", W))
            out.append((sd(m), fmt(m.weight)))
            # a non-orthogonal value is orthogonalized; a wrong shape is refused
            out.append(outcome(setattr, m, "weight", W + 0.5))
            out.append((sd(m), fmt(m.weight), is_orthogonal(m.weight)))
            out.append(outcome(setattr, m, "weight", W[..., :1, :]))
        out.append(train(nn, m, x, steps=2))
        return out

    assert_same(scenario)


def test_orthogonal_errors():
    def scenario(nn):
        P = LIB[nn][0]
        m, _ = layer(nn, "tall")
        return [
            outcome(P.orthogonal, m, orthogonal_map="qr"),
            outcome(P.orthogonal, m, orthogonal_map=""),
            outcome(P.orthogonal, m, "bias"),
            outcome(P.orthogonal, m, "nothing"),
            outcome(P.orthogonal, m, "training"),
            outcome(P.orthogonal, layer(nn, "complex")[0], orthogonal_map="householder"),
            outcome(P.orthogonal, layer(nn, "complex_sq")[0], "weight", "householder"),
            repr(m),
            sd(m),
            LIB[nn][1].is_parametrized(m),
        ]

    result = assert_same(scenario)
    assert all(r[0] == "raise" for r in result[:7])


def test_orthogonal_buffer_and_twice():
    """A buffer can be made orthogonal; a second orthogonal is appended (unsafe=True)."""

    def scenario(nn):
        P, PP = LIB[nn]
        torch.manual_seed(1)
        m = nn.Module()
        m.register_buffer("M", torch.randn(2, 4, 3))
        P.orthogonal(m, "M")
        P.orthogonal(m, "M", "cayley", use_trivialization=False)
        keys = [(k, type(v).__name__) for k, v in m.state_dict().items()]
        out = [repr(m), keys, sd(m), fmt(m.M), is_orthogonal(m.M)]
        PP.remove_parametrizations(m, "M")
        out += [repr(m), sd(m), list(m._buffers)]
        return out

    assert_same(scenario)


# ----------------------------------------------------------------------------- weight_norm


@pytest.mark.parametrize("kind", ["tall", "conv_sq", "conv1d", "convT"])
@pytest.mark.parametrize("dim", [0, 1, None, -1, 2])
def test_weight_norm_training_identical(kind, dim):
    def scenario(nn):
        m, x = layer(nn, kind)
        made = outcome(LIB[nn][0].weight_norm, m, dim=dim)
        if made[0] == "raise":
            return made, repr(m), sd(m), LIB[nn][1].is_parametrized(m)
        start = (
            repr(m),
            sd(m),
            fmt(m.weight),
            [(k, tuple(p.shape), type(p).__name__) for k, p in m.named_parameters()],
            m.parametrizations.weight[0].dim,
            m.parametrizations.weight.unsafe,
        )
        return start, train(nn, m, x, weight_decay=0.01)

    assert_same(scenario)


@pytest.mark.parametrize("old_lib", ["torch", "ours"])
def test_weight_norm_loads_old_checkpoints(old_lib):
    """weight_g / weight_v saved by the hook-based weight_norm load through the compat hook."""
    old_nn = tnn if old_lib == "torch" else ann
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        torch.manual_seed(5)
        old = old_nn.Sequential(old_nn.Linear(4, 3), old_nn.Tanh(), old_nn.Conv1d(1, 2, 2))
        OLD_WN[old_nn].weight_norm(old[0])
        OLD_WN[old_nn].weight_norm(old[2], dim=None)
    old_sd = old.state_dict()
    assert "0.weight_g" in old_sd and "2.weight_v" in old_sd

    def scenario(nn):
        P = LIB[nn][0]
        torch.manual_seed(9)
        m = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Conv1d(1, 2, 2))
        P.weight_norm(m[0])
        P.weight_norm(m[2], dim=None)
        given = dict(old_sd)
        result = m.load_state_dict(given)
        return (
            repr(result),
            sd(m),
            fmt(m[0].weight),
            fmt(m[2].weight),
            sorted(given),  # the caller's dict is not modified (load copies it)
            fmt(m(torch.randn(1, 1, 4))),
        )

    ours = assert_same(scenario)
    keys = [k for k, _ in ours[1]]
    assert "0.parametrizations.weight.original0" in keys
    assert ours[1] != []


def test_weight_norm_compat_hook_partial_and_after_removal():
    def scenario(nn):
        P, PP = LIB[nn]
        torch.manual_seed(0)
        m = P.weight_norm(nn.Linear(3, 2))
        g = torch.ones(2, 1)
        v = torch.full((2, 3), 0.5)
        out = [
            # only weight_g: nothing is renamed, strict loading reports it
            outcome(m.load_state_dict, {"bias": torch.zeros(2), "weight_g": g}),
            outcome(m.load_state_dict, {"bias": torch.zeros(2), "weight_g": g}, strict=False),
            outcome(m.load_state_dict, {"bias": torch.zeros(2), "weight_g": g, "weight_v": v}),
            sd(m),
        ]
        # after removal the hook remains: old keys become unexpected keys
        PP.remove_parametrizations(m, "weight")
        out.append(
            outcome(m.load_state_dict, {"bias": torch.zeros(2), "weight_g": g, "weight_v": v})
        )
        out.append(sd(m))
        return [repr(x) if i != 3 and i != 5 else x for i, x in enumerate(out)]

    assert_same(scenario)


# ----------------------------------------------------------------------------- spectral_norm


@pytest.mark.parametrize("kind", ["tall", "wide", "conv_sq", "convT", "conv1d"])
@pytest.mark.parametrize(("n_iter", "dim"), [(1, None), (3, None), (1, 1), (2, -1)])
def test_spectral_norm_train_eval(kind, n_iter, dim):
    def scenario(nn):
        m, x = layer(nn, kind)
        made = outcome(LIB[nn][0].spectral_norm, m, n_power_iterations=n_iter, dim=dim)
        if made[0] == "raise":
            return made
        sn = m.parametrizations.weight[0]
        u, v = sn._u, sn._v
        ptrs = (u.data_ptr(), v.data_ptr())
        out = [repr(m), sd(m), sn.dim, sn.eps, sn.n_power_iterations]
        # training: every read updates u and v in place
        out.append(train(nn, m, x))
        assert sn._u is u and sn._v is v and (u.data_ptr(), v.data_ptr()) == ptrs
        out.append((fmt(u), fmt(v)))
        w1 = m.weight
        out.append((fmt(u), fmt(w1)))
        # evaluation: reading leaves u and v alone and sigma is the same on every read
        m.eval()
        frozen = (fmt(u), fmt(v))
        w2, w3 = m.weight, m.weight
        assert torch.equal(w2, w3) and (fmt(u), fmt(v)) == frozen
        sigma = m.parametrizations.weight.original / w2
        out.append((fmt(w2), fmt(sigma.flatten()[0])))
        m.train()
        return out

    assert_same(scenario)


def test_spectral_norm_matches_svd_and_vector_path():
    def scenario(nn):
        P = LIB[nn][0]
        torch.manual_seed(3)
        m = nn.Linear(8, 5)
        P.spectral_norm(m, n_power_iterations=10)
        for _ in range(20):
            m.weight  # noqa: B018 - each read runs power iteration in training mode
        top = torch.linalg.matrix_norm(m.weight.detach(), 2)
        # a 1-dim tensor: plain normalization, no u / v
        P.spectral_norm(m, "bias")
        b = m.parametrizations.bias[0]
        return fmt(top), sd(m), fmt(m.bias), hasattr(b, "_u"), hasattr(b, "n_power_iterations")

    top = assert_same(scenario)[0]
    assert abs(torch.frombuffer(bytearray(top[2]), dtype=torch.float32).item() - 1.0) < 1e-4


def test_spectral_norm_two_forwards_one_backward():
    """The GAN pattern: two forward passes in one graph (u, v are cloned before use)."""

    def scenario(nn):
        P = LIB[nn][0]
        torch.manual_seed(0)
        d = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
        P.spectral_norm(d[0])
        P.spectral_norm(d[2])
        real, fake = torch.randn(3, 4), torch.randn(3, 4)
        loss = d(real).mean() - d(fake).mean()
        loss.backward()
        return fmt(loss), grads(d), sd(d)

    assert_same(scenario)


def test_spectral_norm_errors():
    def scenario(nn):
        P = LIB[nn][0]
        m, _ = layer(nn, "conv_sq")
        return [
            outcome(P.spectral_norm, m, dim=4),
            outcome(P.spectral_norm, m, dim=-5),
            outcome(P.spectral_norm, m, n_power_iterations=0),
            outcome(P.spectral_norm, m, dim=9, n_power_iterations=0),
            outcome(P.spectral_norm, m, "nothing"),
            outcome(P.spectral_norm, m, "bias", dim=1),
            repr(m),
            sd(m),
        ]

    result = assert_same(scenario)
    assert [r[1] for r in result[:6]] == ["IndexError"] * 2 + [
        "ValueError",
        "IndexError",
        "ValueError",
        "IndexError",
    ]


def test_cached_reads_once():
    def scenario(nn):
        P, PP = LIB[nn]
        torch.manual_seed(0)
        m = P.spectral_norm(nn.Linear(4, 4))
        with PP.cached():
            a, b = m.weight, m.weight
        return a is b, sd(m), fmt(a)

    assert assert_same(scenario)[0]


# ----------------------------------------------------------------------------- lazy modules


@pytest.mark.parametrize("fn", ["orthogonal", "weight_norm", "spectral_norm"])
@pytest.mark.parametrize("lazy", ["LazyLinear", "LazyConvTranspose2d"])
def test_lazy_modules(fn, lazy):
    def scenario(nn):
        P, PP = LIB[nn]
        torch.manual_seed(0)
        m = getattr(nn, lazy)(4) if lazy == "LazyLinear" else nn.LazyConvTranspose2d(4, 3)
        x = torch.randn(2, 3) if lazy == "LazyLinear" else torch.randn(1, 2, 3, 3)
        refused = outcome(getattr(P, fn), m)
        state = (repr(m), PP.is_parametrized(m), type(m).__name__)
        m(x)  # materialize, then it works
        getattr(P, fn)(m)
        return refused, state, repr(m), sd(m), fmt(m(x))

    result = assert_same(scenario)
    assert result[0][0] == "raise" and not result[1][1]


# ----------------------------------------------------------------------------- interop


@pytest.mark.parametrize(
    "how",
    [
        ("orthogonal", {}),
        ("orthogonal", {"orthogonal_map": "householder", "use_trivialization": False}),
        ("orthogonal", {"orthogonal_map": "cayley"}),
        ("weight_norm", {}),
        ("weight_norm", {"dim": None}),
        ("spectral_norm", {}),
    ],
    ids=lambda h: f"{h[0]}-{'-'.join(map(str, h[1].values()))}",
)
@pytest.mark.parametrize("direction", ["torch->ours", "ours->torch"])
def test_state_dict_round_trip(how, direction):
    fn, kw = how
    src_nn, dst_nn = (tnn, ann) if direction == "torch->ours" else (ann, tnn)

    def model(nn, seed):
        torch.manual_seed(seed)
        m = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Conv2d(6, 2, 1))
        getattr(LIB[nn][0], fn)(m[0], **kw)
        getattr(LIB[nn][0], fn)(m[2], **kw)
        return m

    src, dst = model(src_nn, 0), model(dst_nn, 1)
    x = torch.randn(2, 6, 4)
    src[0].weight, src[2].weight  # noqa: B018 - moves spectral_norm's u / v in training mode
    result = dst.load_state_dict(src.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert sd(src) == sd(dst)
    src.eval(), dst.eval()
    assert torch.equal(src[0].weight, dst[0].weight)
    assert torch.equal(src[2](x.unsqueeze(-1)), dst[2](x.unsqueeze(-1)))
    assert norm(repr(src)) == norm(repr(dst))


@pytest.mark.parametrize("fn", ["orthogonal", "weight_norm", "spectral_norm"])
@pytest.mark.parametrize("leave", [True, False])
@pytest.mark.parametrize("mode", ["train", "eval"])
def test_remove_parametrizations(fn, leave, mode):
    def scenario(nn):
        P, PP = LIB[nn]
        m, x = layer(nn, "tall")
        getattr(P, fn)(m)
        train(nn, m, x, steps=1)
        getattr(m, mode)()
        first = m.parametrizations.weight[0]
        removed = outcome(PP.remove_parametrizations, m, "weight", leave_parametrized=leave)
        out = [
            removed[0] if removed[0] == "ok" else removed,
            repr(m),
            type(m).__name__,
            sd(m),
            [(k, type(p).__name__) for k, p in m.named_parameters()],
            sd(first),
        ]
        if removed[0] == "ok":
            out.append(fmt(m(x)))
        return out

    assert_same(scenario)


def test_stacked_parametrizations():
    """weight_norm then spectral_norm on the same tensor (the appended one is checked)."""

    def scenario(nn):
        P, PP = LIB[nn]
        m, x = layer(nn, "conv_sq")
        P.weight_norm(m)
        P.spectral_norm(m)
        out = [repr(m), sd(m), m.parametrizations.weight.unsafe, train(nn, m, x, steps=2)]
        PP.remove_parametrizations(m, "weight")
        out += [repr(m), sd(m)]
        return out

    assert_same(scenario)


def test_doc_claims():
    """Claims made in the commentary, checked on both sides."""

    def scenario(nn):
        P = LIB[nn][0]
        out = []
        # householder: weight decay moves the diagonal and truncation zeroes the columns
        torch.manual_seed(0)
        m = P.orthogonal(nn.Linear(3, 5), orthogonal_map="householder")
        with torch.no_grad():
            m.parametrizations.weight.original.diagonal().mul_(0.99)
        out.append(bool((m.weight == 0).all()))
        # spectral_norm: registering in training mode runs 15 + n_power_iterations steps
        torch.manual_seed(0)
        lin = nn.Linear(4, 3)
        w = lin.weight.detach().clone()
        torch.manual_seed(1)
        P.spectral_norm(lin, n_power_iterations=2)
        torch.manual_seed(1)
        u = torch.nn.functional.normalize(w.new_empty(3).normal_(0, 1), dim=0, eps=1e-12)
        v = torch.nn.functional.normalize(w.new_empty(4).normal_(0, 1), dim=0, eps=1e-12)
        for _ in range(17):
            u = torch.nn.functional.normalize(torch.mv(w, v), dim=0, eps=1e-12)
            v = torch.nn.functional.normalize(torch.mv(w.H, u), dim=0, eps=1e-12)
        sn = lin.parametrizations.weight[0]
        out.append(torch.equal(u, sn._u) and torch.equal(v, sn._v))
        # weight_norm: dim=-1 is the whole tensor, like None
        torch.manual_seed(0)
        a = P.weight_norm(nn.Linear(4, 3), dim=-1)
        out.append(tuple(a.parametrizations.weight.original0.shape))
        return out

    assert assert_same(scenario) == [True, True, ()]


@pytest.mark.parametrize("fn", ["orthogonal", "weight_norm", "spectral_norm"])
def test_conversion_copy_and_pickle(fn):
    """`.double()` converts originals and buffers (base, _u, _v); deepcopy works; pickle refuses."""

    def scenario(nn):
        m, x = layer(nn, "conv_wide")
        getattr(LIB[nn][0], fn)(m)
        m.double()
        twin = copy.deepcopy(m)
        out = [sd(m), fmt(m(x.double())), sd(twin), fmt(twin(x.double())), sd(m)]
        out.append(outcome(pickle.dumps, m)[:2])
        return out

    assert_same(scenario)


def test_orthogonal_appended_with_trivialization():
    """Appended after weight_norm, `base` stays None until the first assignment (as in torch)."""

    def scenario(nn):
        P = LIB[nn][0]
        m, x = layer(nn, "square")
        P.weight_norm(m)
        P.orthogonal(m)
        out = [repr(m), sd(m), outcome(lambda: m.weight)]
        with torch.no_grad():
            m.weight = torch.eye(4) * 2
        out += [sd(m), fmt(m.weight), is_orthogonal(m.weight), train(nn, m, x, steps=1)]
        return out

    result = assert_same(scenario)
    assert result[2][:2] == ("raise", "TypeError") and result[5]
