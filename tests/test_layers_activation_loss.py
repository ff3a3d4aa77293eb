"""Activation layers, MultiheadAttention and losses (activation.py, loss.py) against torch.nn."""

import copy
import os
import pickle
import types
import warnings

import pytest
import torch
import torch.nn as tnn

from annotated_nn.modules import activation as our_activation
from annotated_nn.modules import loss as our_loss
from helpers import describe_state_dict, mro_without_torch_module, norm, our_mro_as_torch, outcome

OURS = types.SimpleNamespace(
    **{n: getattr(m, n) for m in (our_activation, our_loss) for n in m.__all__}
)


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def observe(module):
    return (
        norm(repr(module)),
        [(n, tuple(p.shape), p.dtype) for n, p in module.named_parameters()],
        describe_state_dict(module.state_dict()),
        {k: v for k, v in module.__dict__.items() if not k.startswith("_") and k != "training"},
    )


def caught(fn):
    """Run fn and return (outcome, [(category, message, file basename)])."""
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        res = outcome(fn)
    return res, [(w.category.__name__, norm(w.message), os.path.basename(w.filename)) for w in ws]


def same_outcome(scenario):
    t, o = caught(lambda: scenario(tnn)), caught(lambda: scenario(OURS))
    assert o[1] == t[1], "warnings differ"
    (rt, ro) = (t[0], o[0])
    if rt[0] == "ok" and ro[0] == "ok":
        return rt[1], ro[1]
    assert ro == rt
    return None, None


# ---------------------------------------------------------------- class-level facts

ACT_NAMES = list(our_activation.__all__)
LOSS_NAMES = [n for n in our_loss.__all__ if n != "NLLLoss2d"]


@pytest.mark.parametrize("name", ACT_NAMES + LOSS_NAMES)
def test_class_attributes_match(name):
    theirs, ours = getattr(tnn, name), getattr(OURS, name)
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    for cls_t, cls_o in zip(theirs.__mro__[:-2], mro_without_torch_module(ours)[:-2]):
        assert cls_o.__dict__.get("__constants__") == cls_t.__dict__.get("__constants__"), cls_t
        ann_t = {k: norm(repr(v)) for k, v in cls_t.__dict__.get("__annotations__", {}).items()}
        ann_o = {k: norm(repr(v)) for k, v in cls_o.__dict__.get("__annotations__", {}).items()}
        assert ann_o == ann_t, cls_t
        methods_t = sorted(
            k
            for k, v in cls_t.__dict__.items()
            if callable(v) and not k.startswith("__") or k in ("__init__", "__setstate__")
        )
        methods_o = sorted(
            k
            for k, v in cls_o.__dict__.items()
            if callable(v) and not k.startswith("__") or k in ("__init__", "__setstate__")
        )
        assert methods_o == methods_t, cls_t


# ---------------------------------------------------------------- simple activations

ACT_CASES = [
    ("ReLU", (), {}),
    ("ReLU", (True,), {}),
    ("Hardtanh", (), {}),
    ("Hardtanh", (-2.0, 3.0, True), {}),
    ("Hardtanh", (-2, 3), {}),
    ("ReLU6", (), {}),
    ("ReLU6", (), {"inplace": True}),
    ("Sigmoid", (), {}),
    ("Tanh", (), {}),
    ("SiLU", (), {}),
    ("SiLU", (True,), {}),
    ("Mish", (), {}),
    ("Mish", (), {"inplace": True}),
    ("ELU", (), {}),
    ("ELU", (0.5, True), {}),
    ("GELU", (), {}),
    ("GELU", ("tanh",), {}),
    ("LeakyReLU", (), {}),
    ("LeakyReLU", (0.2, True), {}),
    ("PReLU", (), {}),
    ("PReLU", (3, 0.1), {}),
    ("PReLU", (3,), {"dtype": torch.float64}),
    ("Softmax", (), {"dim": 1}),
    ("Softmax", (-1,), {}),
    ("LogSoftmax", (1,), {}),
    ("LogSoftmax", (), {"dim": 0}),
    ("Threshold", (0.1, 20.0), {}),
    ("Threshold", (0.1, -2), {"inplace": True}),
    ("RReLU", (), {}),
    ("RReLU", (0.1, 0.3, True), {}),
    ("Hardsigmoid", (), {}),
    ("Hardsigmoid", (True,), {}),
    ("Hardswish", (), {}),
    ("Hardswish", (), {"inplace": True}),
    ("CELU", (), {}),
    ("CELU", (0.5, True), {}),
    ("SELU", (), {}),
    ("SELU", (True,), {}),
    ("GLU", (), {}),
    ("GLU", (0,), {}),
    ("Hardshrink", (), {}),
    ("Hardshrink", (0.3,), {}),
    ("LogSigmoid", (), {}),
    ("Softplus", (), {}),
    ("Softplus", (2.0, 1.0), {}),
    ("Softshrink", (), {}),
    ("Softshrink", (0.2,), {}),
    ("Softsign", (), {}),
    ("Tanhshrink", (), {}),
    ("Softmin", (), {"dim": 1}),
    ("Softmin", (2,), {}),
    ("Softmax2d", (), {}),
]


@pytest.mark.parametrize("name,args,kwargs", ACT_CASES)
def test_activation_repr_state_forward_backward(name, args, kwargs):
    t = build(tnn, name, *args, **kwargs)
    o = build(OURS, name, *args, **kwargs)
    assert observe(o) == observe(t)
    dtype = kwargs.get("dtype", torch.float32)
    results = []
    for m in (t, o):
        torch.manual_seed(1)
        x = torch.randn(4, 3, 6, dtype=dtype, requires_grad=True)
        xin = x * 1.0  # non-leaf so in-place variants are allowed
        torch.manual_seed(2)  # RReLU draws random slopes in training mode
        y = m(xin)
        inplace_same = y.data_ptr() == xin.data_ptr()
        (y * torch.linspace(-1, 1, y.numel(), dtype=dtype).view_as(y)).sum().backward()
        results.append((y.detach(), x.grad, inplace_same, [p.grad for p in m.parameters()]))
    torch.testing.assert_close(results[1], results[0])


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.Hardtanh(1.0, 1.0),
        lambda nn: nn.Hardtanh(2.0, 1.0),
        lambda nn: repr(nn.Hardtanh(min_value=-3.0)),
        lambda nn: repr(nn.Hardtanh(max_value=3.0, min_value=-0.5)),
        lambda nn: nn.Hardtanh(min_value=5.0),
        lambda nn: nn.GELU("bad")(torch.zeros(2)),
        lambda nn: nn.PReLU(3)(torch.zeros(2, 4)),
        lambda nn: nn.Softmax()(torch.zeros(2, 3)).tolist(),
        lambda nn: nn.LogSoftmax()(torch.zeros(3)).tolist(),
        lambda nn: nn.ReLU(inplace=True)(torch.zeros(2, requires_grad=True)),
        lambda nn: nn.Softmin()(torch.zeros(2, 3)).tolist(),
        lambda nn: nn.Softmax2d()(torch.zeros(2, 3)),
        lambda nn: nn.Softmax2d()(torch.zeros(1, 2, 3, 4, 5)),
        lambda nn: nn.Softmax2d()(torch.zeros(2, 3, 4)).tolist(),
        lambda nn: nn.GLU()(torch.zeros(2, 3)),
        lambda nn: nn.Softshrink(-1.0)(torch.zeros(2)),
        lambda nn: nn.RReLU().eval()(torch.tensor([-1.0, 2.0])).tolist(),
        lambda nn: nn.Threshold(0.0),
    ],
)
def test_activation_errors_and_warnings(scenario):
    t, o = same_outcome(scenario)
    assert o == t


def test_softmax_setstate_restores_missing_dim():
    for name in ("Softmax", "LogSoftmax", "Softmin"):
        results = []
        for nn in (tnn, OURS):
            m = getattr(nn, name)(dim=1)
            state = dict(m.__dict__)
            del state["dim"]
            fresh = getattr(nn, name).__new__(getattr(nn, name))
            fresh.__setstate__(state)
            results.append((fresh.dim, norm(repr(fresh))))
            clone = pickle.loads(pickle.dumps(m))
            results.append((clone.dim, norm(repr(clone))))
        assert results[2:] == results[:2]


def test_prelu_sets_num_parameters_first_and_reset():
    for nn in (tnn, OURS):
        m = nn.PReLU(2, init=0.5)
        with torch.no_grad():
            m.weight.fill_(3.0)
        m.reset_parameters()
        assert m.weight.tolist() == [0.5, 0.5] and m.init == 0.5


# ---------------------------------------------------------------- MultiheadAttention

MHA_CASES = [
    ((8, 2), {}),
    ((8, 2), {"batch_first": True}),
    ((8, 4), {"bias": False}),
    ((8, 2), {"add_bias_kv": True, "add_zero_attn": True}),
    ((8, 2), {"kdim": 6, "vdim": 5}),
    ((8, 2), {"kdim": 6, "vdim": 5, "batch_first": True, "add_bias_kv": True}),
    ((6, 3), {"dtype": torch.float64}),
]


@pytest.mark.parametrize("args,kwargs", MHA_CASES)
def test_mha_construction_matches(args, kwargs):
    t = build(tnn, "MultiheadAttention", *args, **kwargs)
    o = build(OURS, "MultiheadAttention", *args, **kwargs)
    assert observe(o) == observe(t)
    assert (o.bias_k is None) == (t.bias_k is None)
    assert "bias_k" in o._parameters if t.bias_k is not None else "bias_k" not in o._parameters


def _mha_inputs(m, kind, seed=2, dtype=torch.float32):
    torch.manual_seed(seed)
    N, L, S, E = 3, 4, 5, m.embed_dim

    def shape(n, s, e):
        return (n, s, e) if m.batch_first else (s, n, e)

    q = torch.randn(*shape(N, L, E), dtype=dtype)
    if kind == "self":
        return q, q, q
    k = torch.randn(*shape(N, S, m.kdim), dtype=dtype)
    v = torch.randn(*shape(N, S, m.vdim), dtype=dtype) if kind == "cross" else k
    return q, k, v


MASKS = {
    "none": lambda L, S, N, H: {},
    "bool_attn": lambda L, S, N, H: {
        "attn_mask": torch.triu(torch.ones(L, S, dtype=torch.bool), 1)
    },
    "float_attn3d": lambda L, S, N, H: {"attn_mask": torch.randn(N * H, L, S)},
    "kpm": lambda L, S, N, H: {
        "key_padding_mask": torch.tensor(
            [[0] * S, [0] * (S - 2) + [1, 1], [0, 1] + [0] * (S - 2)], dtype=torch.bool
        )
    },
    "both_bool": lambda L, S, N, H: {
        "attn_mask": torch.triu(torch.ones(L, S, dtype=torch.bool), 1),
        "key_padding_mask": torch.tensor([[0] * S, [0] * (S - 1) + [1], [0] * S], dtype=torch.bool),
    },
    "causal": lambda L, S, N, H: {
        "attn_mask": torch.triu(torch.full((L, S), float("-inf")), 1),
        "is_causal": True,
    },
}


WEIGHTS = [(True, True), (True, False), (False, True)]
MHA_TRAIN = [
    (case, mask, WEIGHTS[(i + j) % 3])
    for i, case in enumerate(MHA_CASES)
    for j, mask in enumerate(MASKS)
    if (i + j) % 2 == 0 or case[1] == {}
]


@pytest.mark.parametrize("case,mask,weights", MHA_TRAIN)
def test_mha_forward_backward_train(case, mask, weights):
    (args, kwargs), (need_weights, average) = case, weights
    kinds = ["self", "cross"] if kwargs.get("kdim") else ["self", "kv"]
    for kind in kinds:
        results = []
        for nn in (tnn, OURS):
            m = build(nn, "MultiheadAttention", *args, dropout=0.25, **kwargs)
            q, k, v = _mha_inputs(m, kind, dtype=kwargs.get("dtype", torch.float32))
            if kind == "self" and mask == "causal" or kind != "self" and mask == "causal":
                L = S = q.shape[1 if m.batch_first else 0]
                extra = {
                    "attn_mask": torch.triu(torch.full((L, S), float("-inf"), dtype=q.dtype), 1),
                    "is_causal": True,
                }
                if kind != "self":
                    extra = {
                        "attn_mask": torch.triu(
                            torch.full(
                                (L, k.shape[1 if m.batch_first else 0]),
                                float("-inf"),
                                dtype=q.dtype,
                            ),
                            1,
                        )
                    }
            else:
                L, S = q.shape[1 if m.batch_first else 0], k.shape[1 if m.batch_first else 0]
                extra = MASKS[mask](L, S, 3, m.num_heads)
                extra = {
                    key: (val.to(q.dtype) if val.is_floating_point() else val)
                    for key, val in extra.items()
                }
            q = q.clone().requires_grad_()
            torch.manual_seed(7)
            res = outcome(
                m,
                q,
                k if kind != "self" else q,
                v if kind != "self" else q,
                need_weights=need_weights,
                average_attn_weights=average,
                **extra,
            )
            if res[0] == "ok":
                out, w = res[1]
                out.nan_to_num().sum().backward()
                res = (
                    "ok",
                    [n for n, _ in m.named_parameters()],
                    (
                        out.detach(),
                        w if w is None else w.detach(),
                        q.grad,
                        [p.grad for p in m.parameters()],
                    ),
                )
            results.append(res)
        if results[0][0] == "raise":
            assert results[1] == results[0]
        else:
            assert results[1][:2] == results[0][:2]
            torch.testing.assert_close(results[1][2], results[0][2], equal_nan=True)


@pytest.mark.parametrize(
    "batch_first,mask,need_weights,average",
    [
        (bf, mask, *WEIGHTS[(i + j) % 3])
        for i, bf in enumerate([True, False])
        for j, mask in enumerate(["none", "bool_attn", "kpm", "both_bool"])
    ]
    + [(True, "kpm", True, False), (True, "both_bool", False, True)],
)
def test_mha_eval_no_grad_fast_path_matches_exactly(batch_first, mask, need_weights, average):
    results = []
    for nn in (tnn, OURS):
        m = build(nn, "MultiheadAttention", 8, 2, batch_first=batch_first).eval()
        q, _, _ = _mha_inputs(m, "self")
        extra = MASKS[mask](4, 4, 3, 2)
        if "key_padding_mask" in extra:
            extra["key_padding_mask"] = extra["key_padding_mask"][:, :4]
        with torch.no_grad():
            out, w = m(q, q, q, need_weights=need_weights, average_attn_weights=average, **extra)
        results.append((out, w))
    # both sides pick the same kernel, so the results agree bit for bit
    torch.testing.assert_close(results[1], results[0], rtol=0, atol=0, equal_nan=True)


def test_mha_fast_path_is_taken_like_torch(monkeypatch):
    calls = []
    real = torch._native_multi_head_attention

    def spy(*a, **k):
        calls.append(len(a))
        return real(*a, **k)

    monkeypatch.setattr(torch, "_native_multi_head_attention", spy)
    for nn in (tnn, OURS):
        m = build(nn, "MultiheadAttention", 8, 2, batch_first=True).eval()
        x = torch.randn(2, 3, 8)
        with torch.no_grad():
            m(x, x, x)
        m(x, x, x)  # grad enabled + requires_grad parameters: ordinary path
    assert calls == [13, 13]


def test_mha_errors_and_setstate():
    for scenario in [
        lambda nn: nn.MultiheadAttention(0, 2),
        lambda nn: nn.MultiheadAttention(8, -1),
        lambda nn: nn.MultiheadAttention(7, 2),
        lambda nn: nn.MultiheadAttention(8, 2)(
            torch.zeros(3, 2, 8),
            torch.zeros(3, 2, 8),
            torch.zeros(3, 2, 8),
            key_padding_mask=torch.zeros(2, 3),
            attn_mask=torch.zeros(3, 3, dtype=torch.bool),
        ),
    ]:
        t, o = same_outcome(scenario)
    results = []
    for nn in (tnn, OURS):
        m = build(nn, "MultiheadAttention", 8, 2)
        state = dict(m.__dict__)
        del state["_qkv_same_embed_dim"]
        fresh = type(m).__new__(type(m))
        fresh.__setstate__(state)
        clone = copy.deepcopy(m)
        results.append(
            (fresh._qkv_same_embed_dim, norm(repr(clone)), describe_state_dict(clone.state_dict()))
        )
    assert results[1][0] is True and results[1][1:] == results[0][1:]


def test_mha_meta_and_double_moves():
    results = []
    for nn in (tnn, OURS):
        m = build(nn, "MultiheadAttention", 8, 2, kdim=4, vdim=4)
        m.double()
        a = [(n, p.dtype) for n, p in m.named_parameters()]
        m.to("meta")
        b = [(n, p.device.type) for n, p in m.named_parameters()]
        m2 = nn.MultiheadAttention(8, 2, device="meta")
        c = [(n, p.device.type, tuple(p.shape)) for n, p in m2.named_parameters()]
        results.append((a, b, c))
    assert results[1] == results[0]


# ---------------------------------------------------------------- losses

LOSS_CASES = [
    ("L1Loss", {}),
    ("L1Loss", {"reduction": "sum"}),
    ("L1Loss", {"reduction": "none"}),
    ("MSELoss", {}),
    ("MSELoss", {"reduction": "none"}),
    ("NLLLoss", {}),
    ("NLLLoss", {"ignore_index": 1}),
    ("NLLLoss", {"weight": torch.tensor([1.0, 2.0, 0.5])}),
    ("NLLLoss", {"reduction": "sum", "weight": torch.tensor([1.0, 2.0, 0.5]), "ignore_index": 0}),
    ("CrossEntropyLoss", {}),
    ("CrossEntropyLoss", {"label_smoothing": 0.2}),
    ("CrossEntropyLoss", {"ignore_index": 2, "weight": torch.tensor([0.3, 1.0, 2.0])}),
    ("CrossEntropyLoss", {"reduction": "none", "label_smoothing": 0.1}),
    ("BCELoss", {}),
    ("BCELoss", {"weight": torch.tensor([1.0, 2.0, 3.0])}),
    ("BCELoss", {"reduction": "sum"}),
    ("BCEWithLogitsLoss", {}),
    ("BCEWithLogitsLoss", {"pos_weight": torch.tensor([1.0, 3.0, 0.5])}),
    (
        "BCEWithLogitsLoss",
        {
            "weight": torch.tensor([2.0, 1.0, 1.0]),
            "pos_weight": torch.tensor([2.0, 3.0, 0.5]),
            "reduction": "none",
        },
    ),
]


def _loss_inputs(name, seed=3):
    torch.manual_seed(seed)
    x = torch.randn(4, 3)
    if name in ("NLLLoss",):
        return x.log_softmax(1), torch.tensor([0, 1, 2, 1])
    if name == "CrossEntropyLoss":
        return x, torch.tensor([0, 2, 2, 1])
    if name == "BCELoss":
        return x.sigmoid(), torch.rand(4, 3)
    if name == "BCEWithLogitsLoss":
        return x, (torch.rand(4, 3) > 0.5).float()
    return x, torch.randn(4, 3)


@pytest.mark.parametrize("name,kwargs", LOSS_CASES)
def test_loss_matches(name, kwargs):
    t = build(tnn, name, **kwargs)
    o = build(OURS, name, **kwargs)
    assert observe(o) == observe(t)
    results = []
    for m in (t, o):
        x, y = _loss_inputs(name)
        x = x.detach().requires_grad_()
        loss = m(x, y)
        loss.sum().backward()
        results.append((loss.detach(), x.grad))
    torch.testing.assert_close(results[1], results[0])


def test_cross_entropy_probability_targets_and_spatial():
    torch.manual_seed(0)
    x, p = torch.randn(2, 3, 4, 4), torch.rand(2, 3, 4, 4).softmax(1)
    idx = torch.randint(0, 3, (2, 4, 4))
    outs = []
    for nn in (tnn, OURS):
        outs.append(
            (
                nn.CrossEntropyLoss(label_smoothing=0.1)(x, p),
                nn.CrossEntropyLoss(ignore_index=1)(x, idx),
                nn.NLLLoss(reduction="none")(x.log_softmax(1), idx),
            )
        )
    torch.testing.assert_close(outs[1], outs[0])


@pytest.mark.parametrize("name", LOSS_NAMES)
@pytest.mark.parametrize(
    "legacy",
    [
        {"size_average": False},
        {"reduce": False},
        {"size_average": True, "reduce": True},
        {"size_average": False, "reduce": True, "reduction": "none"},
        {"reduce": False, "reduction": "sum"},
    ],
)
def test_legacy_reduction_args_warn_like_torch(name, legacy):
    t, o = same_outcome(lambda nn: getattr(nn, name)(**legacy).reduction)
    assert o == t


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.L1Loss(reduction="bad")(torch.zeros(2), torch.zeros(2)),
        lambda nn: nn.MSELoss(reduction="elementwise_mean")(torch.ones(2), torch.zeros(2)).item(),
        lambda nn: nn.CrossEntropyLoss(label_smoothing=1.5)(
            torch.zeros(2, 3), torch.tensor([0, 1])
        ),
        lambda nn: nn.NLLLoss()(torch.zeros(2, 3), torch.tensor([0, 5])),
        lambda nn: nn.BCELoss()(torch.full((2,), 2.0), torch.zeros(2)),
        lambda nn: nn.L1Loss()(torch.zeros(2), torch.zeros(3)),
    ],
)
def test_loss_errors_and_warnings_match(scenario):
    t, o = same_outcome(scenario)
    assert o == t


def test_weighted_loss_buffers_move_and_load():
    results = []
    for nn in (tnn, OURS):
        m = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0]))
        m.double()
        a = describe_state_dict(m.state_dict())
        m2 = nn.CrossEntropyLoss()
        r = outcome(m2.load_state_dict, m.state_dict())
        b = (r[0], norm(r[1]) if r[0] == "raise" else None, describe_state_dict(m2.state_dict()))
        m3 = nn.BCEWithLogitsLoss(pos_weight=torch.ones(2))
        m3.weight = torch.tensor([0.5, 0.5])
        c = (describe_state_dict(m3.state_dict()), list(m3._buffers))
        m3.to("meta")
        d = [(k, v.device.type) for k, v in m3.state_dict().items()]
        results.append((a, b, c, d))
    assert results[1] == results[0]


# ---------------------------------------------------------------- the other losses

torch.manual_seed(0)
_X, _Y = torch.randn(4, 3), torch.randn(4, 3)
_SIGN = torch.tensor([1.0, -1.0, 1.0, -1.0])
OTHER_LOSSES = [
    ("PoissonNLLLoss", (), {}, lambda: (_X, _Y.abs())),
    (
        "PoissonNLLLoss",
        (False, True),
        {"eps": 1e-3, "reduction": "sum"},
        lambda: (_X.abs(), _Y.abs()),
    ),
    ("GaussianNLLLoss", (), {}, lambda: (_X, _Y, _Y.abs() + 0.1)),
    (
        "GaussianNLLLoss",
        (),
        {"full": True, "eps": 1e-3, "reduction": "none"},
        lambda: (_X, _Y, 0.5),
    ),
    ("KLDivLoss", (), {"reduction": "batchmean"}, lambda: (_X.log_softmax(1), _Y.softmax(1))),
    (
        "KLDivLoss",
        (),
        {"log_target": True, "reduction": "sum"},
        lambda: (_X.log_softmax(1), _Y.log_softmax(1)),
    ),
    ("HingeEmbeddingLoss", (0.5,), {}, lambda: (_X, torch.sign(_Y))),
    (
        "MultiLabelMarginLoss",
        (),
        {},
        lambda: (_X, torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])),
    ),
    ("SmoothL1Loss", (), {"beta": 0.5}, lambda: (_X, _Y)),
    ("HuberLoss", (), {"delta": 0.7, "reduction": "sum"}, lambda: (_X, _Y)),
    ("SoftMarginLoss", (), {}, lambda: (_X, torch.sign(_Y))),
    (
        "MultiLabelSoftMarginLoss",
        (),
        {"weight": torch.tensor([1.0, 2.0, 3.0])},
        lambda: (_X, (_Y > 0).float()),
    ),
    ("CosineEmbeddingLoss", (0.2,), {}, lambda: (_X, _Y, _SIGN)),
    ("MarginRankingLoss", (0.1,), {"reduction": "none"}, lambda: (_X[:, 0], _Y[:, 0], _SIGN)),
    (
        "MultiMarginLoss",
        (2, 0.5),
        {"weight": torch.tensor([1.0, 0.5, 2.0])},
        lambda: (_X, torch.tensor([0, 1, 2, 1])),
    ),
    (
        "TripletMarginLoss",
        (),
        {"margin": 0.5, "p": 1.0, "swap": True},
        lambda: (_X, _Y, _Y.flip(0)),
    ),
]


@pytest.mark.parametrize("name,args,kwargs,inputs", OTHER_LOSSES)
def test_other_losses_match(name, args, kwargs, inputs):
    results = []
    for nn in (tnn, OURS):
        m = build(nn, name, *args, **kwargs)
        xs = list(inputs())
        xs[0] = xs[0].detach().clone().requires_grad_()
        loss = m(*xs)
        loss.sum().backward()
        results.append((observe(m), loss.detach(), xs[0].grad))
    assert results[1][0] == results[0][0]
    torch.testing.assert_close(results[1][1:], results[0][1:])


def test_ctc_loss_matches():
    torch.manual_seed(0)
    log_probs = torch.randn(12, 2, 5).log_softmax(2)
    targets = torch.randint(1, 5, (2, 4))
    results = []
    for nn in (tnn, OURS):
        for kwargs in ({}, {"blank": 0, "reduction": "sum", "zero_infinity": True}):
            lp = log_probs.detach().clone().requires_grad_()
            m = nn.CTCLoss(**kwargs)
            loss = m(lp, targets, torch.tensor([12, 10]), torch.tensor([4, 3]))
            loss.backward()
            results.append((norm(repr(m)), loss.detach(), lp.grad))
    assert [r[0] for r in results[2:]] == [r[0] for r in results[:2]]
    torch.testing.assert_close([r[1:] for r in results[2:]], [r[1:] for r in results[:2]])


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.HuberLoss(delta="1"),
        lambda nn: nn.HuberLoss(delta=True).delta,
        lambda nn: nn.MultiMarginLoss(p=3),
        lambda nn: nn.MultiMarginLoss(weight=torch.ones(2, 2)),
        lambda nn: nn.TripletMarginLoss(margin=0.0),
        lambda nn: nn.PoissonNLLLoss(size_average=False).reduction,
        lambda nn: nn.KLDivLoss(reduce=False).reduction,
        lambda nn: nn.GaussianNLLLoss(reduction="sum")(
            torch.zeros(2, 3), torch.zeros(2, 3), torch.ones(2, 4)
        ),
        lambda nn: nn.GaussianNLLLoss(full=True).reduction,
        lambda nn: nn.KLDivLoss()(torch.zeros(2, 3), torch.ones(2, 3)).item(),
        lambda nn: repr(nn.NLLLoss2d(ignore_index=3)),
        lambda nn: nn.NLLLoss2d()(
            torch.zeros(1, 3, 2, 2), torch.zeros(1, 2, 2, dtype=torch.long)
        ).item(),
    ],
)
def test_other_loss_errors_and_warnings(scenario):
    t, o = same_outcome(scenario)
    assert o == t


def test_nllloss2d_is_deprecated_subclass():
    assert OURS.NLLLoss2d.__mro__[1] is OURS.NLLLoss
    assert norm(OURS.NLLLoss2d.__deprecated__) == tnn.NLLLoss2d.__deprecated__
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        OURS.NLLLoss2d()
    assert [os.path.basename(w.filename) for w in ws] == ["test_layers_activation_loss.py"]


def test_public_paths_and_all_lists():
    import annotated_nn

    assert our_activation.__all__ == tnn.modules.activation.__all__
    assert our_loss.__all__ == tnn.modules.loss.__all__
    for m in (our_activation, our_loss):
        for name in m.__all__:
            assert getattr(annotated_nn, name) is getattr(m, name)
            assert name in annotated_nn.modules.__all__
