"""Transformer family (transformer.py) against torch.nn: construction, init, masks, train/eval paths."""

import copy
import os
import types
import warnings

import pytest
import torch
import torch.nn as tnn
import torch.nn.functional as F

from annotated_nn.modules import activation as our_activation
from annotated_nn.modules import normalization as our_normalization
from annotated_nn.modules import transformer as our_transformer
from helpers import describe_state_dict, norm, outcome

OURS = types.SimpleNamespace(
    **{
        n: getattr(m, n)
        for m in (our_activation, our_normalization, our_transformer)
        for n in m.__all__
    }
)
E, H, FF = 8, 2, 16


def enc_layer(nn, **kw):
    return nn.TransformerEncoderLayer(E, H, FF, **kw)


def dec_layer(nn, **kw):
    return nn.TransformerDecoderLayer(E, H, FF, **kw)


def small_transformer(nn, **kw):
    return nn.Transformer(E, H, 2, 1, FF, **kw)


def build(factory, nn, seed=0, **kw):
    torch.manual_seed(seed)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        m = factory(nn, **kw)
    return m, [(w.category.__name__, norm(w.message), os.path.basename(w.filename)) for w in ws]


def observe(m):
    return (
        norm(repr(m)),
        describe_state_dict(m.state_dict()),
        [(n, p.requires_grad) for n, p in m.named_parameters()],
        {
            k: norm(repr(v))
            for k, v in m.__dict__.items()
            if not k.startswith("_") and k != "training"
        },
    )


def encoder(nn, layers=2, final_norm=True, **kw):
    enc_kw = {k: kw.pop(k) for k in ("enable_nested_tensor", "mask_check") if k in kw}
    layer = enc_layer(nn, **kw)
    norm_mod = nn.LayerNorm(E, dtype=kw.get("dtype")) if final_norm else None
    return nn.TransformerEncoder(layer, layers, norm_mod, **enc_kw)


def decoder(nn, layers=2, **kw):
    return nn.TransformerDecoder(dec_layer(nn, **kw), layers, nn.LayerNorm(E))


LAYER_KWARGS = [
    {},
    {"batch_first": True},
    {"norm_first": True, "activation": "gelu"},
    {"activation": F.gelu, "dropout": 0.0, "layer_norm_eps": 1e-3},
    {"bias": False, "batch_first": True},
    {"dtype": torch.float64},
]


def _activation_case(nn, kw):
    kw = dict(kw)
    if kw.get("activation") == "relu_module":
        kw["activation"] = nn.ReLU()
    if kw.get("activation") == "gelu_module":
        kw["activation"] = nn.GELU()
    return kw


@pytest.mark.parametrize("factory", [enc_layer, dec_layer, encoder, decoder, small_transformer])
@pytest.mark.parametrize(
    "kw",
    LAYER_KWARGS
    + [{"activation": "relu_module"}, {"activation": "gelu_module", "batch_first": True}],
)
def test_construction_same_seed_same_weights(factory, kw):
    t, wt = build(lambda nn, **k: factory(nn, **_activation_case(nn, k)), tnn, **kw)
    o, wo = build(lambda nn, **k: factory(nn, **_activation_case(nn, k)), OURS, **kw)
    assert wo == wt
    assert observe(o) == observe(t)
    if hasattr(t, "activation_relu_or_gelu"):
        assert o.activation_relu_or_gelu == t.activation_relu_or_gelu


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"enable_nested_tensor": False},
        {"norm_first": True},
        {"batch_first": True},
        {"batch_first": True, "activation": torch.tanh},
        {"batch_first": True, "layer_norm_eps": 1e-3},
        {"batch_first": True, "bias": False},
        {"batch_first": True, "mask_check": False},
    ],
)
def test_encoder_nested_tensor_warning_and_flags(kw):
    t, wt = build(encoder, tnn, **kw)
    o, wo = build(encoder, OURS, **kw)
    assert wo == wt
    assert (o.enable_nested_tensor, o.use_nested_tensor, o.mask_check) == (
        t.enable_nested_tensor,
        t.use_nested_tensor,
        t.mask_check,
    )


def test_encoder_warning_for_foreign_layer_and_odd_heads():
    for make in [
        lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(6, 3, 8, batch_first=True), 1),
        lambda nn: nn.TransformerEncoder(
            nn.TransformerEncoderLayer(E, H, FF, batch_first=True, activation="relu"), 1
        ),
    ]:
        _, wt = build(make, tnn)
        _, wo = build(make, OURS)
        assert wo == wt


@pytest.mark.parametrize(
    "scenario",
    [
        lambda nn: nn.TransformerEncoderLayer(E, H, activation="tanh"),
        lambda nn: nn.TransformerDecoderLayer(E, H, activation="swish"),
        lambda nn: nn.TransformerEncoderLayer(E, 3),
        lambda nn: small_transformer(nn)(torch.zeros(3, 2, E), torch.zeros(3, 4, E)),
        lambda nn: small_transformer(nn, batch_first=True)(
            torch.zeros(2, 3, E), torch.zeros(4, 3, E)
        ),
        lambda nn: small_transformer(nn)(torch.zeros(3, 2, E), torch.zeros(3, 2, E + 1)),
        lambda nn: encoder(nn)(
            torch.zeros(3, 2, E),
            mask=torch.zeros(3, 3),
            src_key_padding_mask=torch.zeros(2, 3, dtype=torch.bool),
        ),
        lambda nn: enc_layer(nn)(
            torch.zeros(3, 2, E), src_mask=torch.zeros(3, 3, dtype=torch.int64)
        ),
    ],
)
def test_errors_match(scenario):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, o = outcome(scenario, tnn), outcome(scenario, OURS)
    if t[0] == "ok":
        assert o[0] == "ok"
    else:
        assert o == t


def test_generate_square_subsequent_mask():
    for args in [(3,), (4, None, torch.float64), (2, "meta")]:
        t = tnn.Transformer.generate_square_subsequent_mask(*args)
        o = OURS.Transformer.generate_square_subsequent_mask(*args)
        assert (o.dtype, o.device, o.shape) == (t.dtype, t.device, t.shape)
        if not t.is_meta:
            assert torch.equal(o, t)


def _src(batch_first, dtype=torch.float32, seed=5, N=3, S=5):
    torch.manual_seed(seed)
    return torch.randn(N, S, E, dtype=dtype) if batch_first else torch.randn(S, N, E, dtype=dtype)


PAD = torch.tensor([[0, 0, 0, 0, 0], [0, 0, 0, 1, 1], [0, 0, 0, 0, 1]], dtype=torch.bool)
CAUSAL = torch.triu(torch.full((5, 5), float("-inf")), 1)
MASK_CASES = {
    "none": {},
    "pad": {"src_key_padding_mask": PAD},
    "causal_detected": {"mask": CAUSAL},
    "causal_explicit": {"mask": CAUSAL, "is_causal": True},
    "bool_mask_and_pad": {"mask": CAUSAL.isinf(), "src_key_padding_mask": PAD},
    "float_pad": {"src_key_padding_mask": PAD.float() * -1e9},
}


def _run_encoder(nn, kw, masks, train, no_grad, backward):
    m, _ = build(encoder, nn, **kw)
    m.train(train)
    dtype = kw.get("dtype", torch.float32)
    x = _src(kw.get("batch_first", False), dtype).requires_grad_(backward)
    masks = {
        k: v.to(dtype) if torch.is_tensor(v) and v.is_floating_point() else v
        for k, v in masks.items()
    }
    torch.manual_seed(11)
    with torch.set_grad_enabled(not no_grad):
        y = m(x, **masks)
    grads = None
    if backward:
        y.sum().backward()
        grads = (x.grad, [p.grad for p in m.parameters()])
    return y.detach(), grads


@pytest.mark.parametrize("mask", list(MASK_CASES))
@pytest.mark.parametrize(
    "kw",
    [{}, {"batch_first": True}, {"batch_first": True, "norm_first": True, "activation": "gelu"}],
)
def test_encoder_train_forward_backward(mask, kw):
    t = _run_encoder(tnn, kw, MASK_CASES[mask], train=True, no_grad=False, backward=True)
    o = _run_encoder(OURS, kw, MASK_CASES[mask], train=True, no_grad=False, backward=True)
    torch.testing.assert_close(o, t)


@pytest.mark.parametrize("mask", list(MASK_CASES))
@pytest.mark.parametrize(
    "kw", [{"batch_first": True}, {}, {"batch_first": True, "dtype": torch.float64}]
)
def test_encoder_eval_no_grad_fast_paths_match_exactly(mask, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's nested-tensor prototype warning
        t = _run_encoder(tnn, kw, MASK_CASES[mask], train=False, no_grad=True, backward=False)
        o = _run_encoder(OURS, kw, MASK_CASES[mask], train=False, no_grad=True, backward=False)
    torch.testing.assert_close(o, t, rtol=0, atol=0)


def test_encoder_nested_path_zeroes_padding_like_torch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y_t, _ = _run_encoder(
            tnn, {"batch_first": True}, {"src_key_padding_mask": PAD}, False, True, False
        )
        y_o, _ = _run_encoder(
            OURS, {"batch_first": True}, {"src_key_padding_mask": PAD}, False, True, False
        )
    torch.testing.assert_close(y_o, y_t, rtol=0, atol=0)


@pytest.mark.parametrize("mask", ["none", "pad", "causal_detected"])
def test_encoder_eval_with_grad_matches(mask):
    t = _run_encoder(
        tnn, {"batch_first": True}, MASK_CASES[mask], train=False, no_grad=False, backward=True
    )
    o = _run_encoder(
        OURS, {"batch_first": True}, MASK_CASES[mask], train=False, no_grad=False, backward=True
    )
    torch.testing.assert_close(o, t)


def test_encoder_layer_fast_path_blocked_by_hooks_like_torch():
    seen = {}
    for nn in (tnn, OURS):
        m, _ = build(lambda nn: enc_layer(nn, batch_first=True), nn)
        m.eval()
        calls = []
        m.linear1.register_forward_hook(lambda mod, i, out: calls.append(out.shape))
        with torch.no_grad():
            y = m(_src(True))
        seen[nn is tnn] = (calls, y)
    assert seen[False][0] == seen[True][0] != []
    torch.testing.assert_close(seen[False][1], seen[True][1], rtol=0, atol=0)


def test_fused_kernels_called_like_torch(monkeypatch):
    calls = []
    real = torch._transformer_encoder_layer_fwd
    monkeypatch.setattr(
        torch, "_transformer_encoder_layer_fwd", lambda *a: calls.append(len(a)) or real(*a)
    )
    for nn in (tnn, OURS):
        m, _ = build(encoder, nn, batch_first=True)
        m.eval()
        with torch.no_grad():
            m(_src(True))
        m(_src(True))  # grad enabled: ordinary path
    assert calls == [20, 20, 20, 20]


@pytest.mark.parametrize("kw", [{}, {"batch_first": True, "norm_first": True}])
@pytest.mark.parametrize("train", [True, False])
def test_decoder_and_transformer_forward_backward(kw, train):
    results = []
    for nn in (tnn, OURS):
        m, _ = build(small_transformer, nn, **kw)
        m.train(train)
        torch.manual_seed(3)
        bf = kw.get("batch_first", False)
        src = _src(bf).requires_grad_()
        tgt = (torch.randn(3, 4, E) if bf else torch.randn(4, 3, E)).requires_grad_()
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(4)
        torch.manual_seed(9)
        y = m(
            src,
            tgt,
            tgt_mask=tgt_mask,
            src_key_padding_mask=PAD,
            memory_key_padding_mask=PAD,
            tgt_key_padding_mask=torch.zeros(3, 4),
        )
        y.sum().backward()
        results.append((y.detach(), src.grad, tgt.grad, [p.grad for p in m.parameters()]))
    torch.testing.assert_close(results[1], results[0])


def test_decoder_stack_with_memory_mask():
    results = []
    for nn in (tnn, OURS):
        m, _ = build(decoder, nn, batch_first=True)
        torch.manual_seed(1)
        tgt, mem = torch.randn(2, 4, E), torch.randn(2, 5, E)
        torch.manual_seed(2)
        y = m(
            tgt,
            mem,
            tgt_mask=torch.triu(torch.ones(4, 4, dtype=torch.bool), 1),
            memory_mask=torch.zeros(4, 5, dtype=torch.bool),
            tgt_is_causal=None,
        )
        results.append(y)
    torch.testing.assert_close(results[1], results[0])


def test_unbatched_input():
    results = []
    for nn in (tnn, OURS):
        m, _ = build(encoder, nn, batch_first=True)
        m.eval()
        x = torch.randn(5, E, generator=torch.Generator().manual_seed(0))
        with torch.no_grad():
            results.append(m(x, mask=CAUSAL))
    torch.testing.assert_close(results[1], results[0], rtol=0, atol=0)


def test_clones_are_independent_deep_copies():
    m, _ = build(encoder, OURS)
    p0, p1 = m.layers[0].linear1.weight, m.layers[1].linear1.weight
    assert p0 is not p1 and torch.equal(p0, p1)
    assert m.layers[0].self_attn is not m.layers[1].self_attn
    t, _ = build(encoder, tnn)
    assert type(m.layers).__name__ == type(t.layers).__name__ == "ModuleList"


def test_setstate_defaults_activation():
    results = []
    for nn in (tnn, OURS):
        out = []
        for factory in (enc_layer, dec_layer):
            m, _ = build(factory, nn, activation="gelu")
            state = dict(m.__dict__)
            del state["activation"]
            fresh = type(m).__new__(type(m))
            fresh.__setstate__(state)
            out.append(fresh.activation is F.relu)
            out.append(norm(repr(copy.deepcopy(m))))
        results.append(out)
    assert results[1] == results[0]


def test_meta_and_double_moves():
    results = []
    for nn in (tnn, OURS):
        m, _ = build(small_transformer, nn)
        m.double()
        a = {str(p.dtype) for p in m.parameters()}
        m.to("meta")
        b = [(n, p.device.type) for n, p in m.named_parameters()]
        m2, _ = build(small_transformer, nn, device="meta")
        c = [(n, tuple(p.shape), p.device.type) for n, p in m2.named_parameters()]
        results.append((a, b, c))
    assert results[1] == results[0]


def test_module_all_list_and_public_paths():
    import annotated_nn

    assert our_transformer.__all__ == tnn.modules.transformer.__all__
    for name in our_transformer.__all__:
        assert getattr(annotated_nn, name) is getattr(our_transformer, name)
