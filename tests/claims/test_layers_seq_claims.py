"""Claims of the activation, loss, recurrent and transformer layers."""

from __future__ import annotations

import pytest
import torch
from claim import each_nn, proves

nested_prototype_warning = pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")


@proves(
    "docs/chapters/layers/activation.md",
    "details",
    "inplace=True overwrites the input and returns the same object; a leaf that requires grad "
    "raises",
)
@each_nn()
def test_relu_inplace(nn):
    """x * 1 is fine, a leaf is not."""
    y = torch.tensor([-1.0, 0.5])
    out = nn.ReLU(inplace=True)(y)
    assert out is y and y.tolist() == [0.0, 0.5]
    leaf = torch.randn(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        nn.ReLU(inplace=True)(leaf)
    nn.ReLU(inplace=True)(leaf * 1)


@proves(
    "docs/chapters/layers/activation.md",
    "details",
    "without dim, Softmax guesses one from the input's rank with a deprecation warning",
)
@each_nn()
def test_softmax_without_dim_warns(nn):
    """Implicit dimension choice."""
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        nn.Softmax()(torch.randn(2, 3))


@proves(
    "annotated_src/annotated_nn/modules/activation.py",
    "Hardtanh.__init__",
    "the deprecated min_value wins over min_val, even when both are given, with a FutureWarning",
)
@each_nn()
def test_hardtanh_old_keyword_wins(nn):
    """The old name overrides."""
    with pytest.warns(FutureWarning):
        h = nn.Hardtanh(min_val=-2.0, min_value=-3.0)
    assert h.min_val == -3.0


@proves(
    "annotated_src/annotated_nn/modules/activation.py",
    "Hardsigmoid",
    "Hardsigmoid has no extra_repr: inplace=True does not show",
)
@each_nn()
def test_hardsigmoid_repr(nn):
    """Unlike ReLU."""
    assert repr(nn.Hardsigmoid(inplace=True)) == "Hardsigmoid()"
    assert repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    assert repr(nn.GELU(approximate="tanh")) == "GELU(approximate='tanh')"


@proves(
    "docs/chapters/layers/activation.md",
    "summary",
    "ReLU6 derives from Hardtanh; PReLU has one parameter filled with init (no random numbers)",
)
@each_nn()
def test_relu6_and_prelu(nn):
    """ReLU6 is a Hardtanh with bounds 0 and 6."""
    assert isinstance(nn.ReLU6(), nn.Hardtanh) and nn.ReLU6().max_val == 6.0
    prelu = nn.PReLU(num_parameters=3, init=0.1)
    assert [(n, tuple(p.shape)) for n, p in prelu.named_parameters()] == [("weight", (3,))]
    assert torch.allclose(prelu.weight, torch.full((3,), 0.1))


@proves(
    "annotated_src/annotated_nn/modules/activation.py",
    "RReLU",
    "RReLU depends on the mode: eval uses the fixed slope (lower + upper) / 2",
)
@each_nn()
def test_rrelu_eval_slope(nn):
    """Evaluation is deterministic."""
    r = nn.RReLU(0.1, 0.3).eval()
    x = torch.tensor([-1.0, 2.0])
    assert torch.allclose(r(x), torch.tensor([-0.2, 2.0]))


@proves(
    "annotated_src/annotated_nn/modules/loss.py",
    "_Loss.__init__",
    "once size_average or reduce is given, reduction is ignored even when passed, with a "
    "UserWarning",
)
@each_nn()
def test_legacy_reduction_arguments(nn):
    """size_average=False becomes 'sum' although reduction='mean' was passed."""
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        loss = nn.MSELoss(size_average=False, reduction="mean")
    assert loss.reduction == "sum"


@proves(
    "annotated_src/annotated_nn/modules/loss.py",
    "_WeightedLoss.__init__",
    "weight is registered even when None: out of the state_dict, a later tensor becomes a "
    "persistent buffer that moves with .to()",
)
@each_nn()
def test_weighted_loss_buffer(nn):
    """And as a submodule, the weight follows model.to(float64)."""
    ce = nn.CrossEntropyLoss()
    assert list(ce._buffers) == ["weight"] and ce.weight is None
    assert list(ce.state_dict()) == []
    ce.weight = torch.ones(3)
    assert list(ce.state_dict()) == ["weight"]

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.loss = nn.CrossEntropyLoss(weight=torch.ones(3))

    assert Model().to(torch.float64).loss.weight.dtype == torch.float64


@proves(
    "docs/chapters/layers/loss.md",
    "cross-entropy",
    "CrossEntropyLoss equals LogSoftmax followed by NLLLoss; probability targets are accepted",
)
@each_nn()
def test_cross_entropy_is_log_softmax_nll(nn):
    """Class indices and probabilities."""
    logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    target = torch.tensor([0, 2])
    fused = nn.CrossEntropyLoss()(logits, target)
    assert torch.allclose(fused, nn.NLLLoss()(nn.LogSoftmax(dim=1)(logits), target))
    probs = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert torch.allclose(nn.CrossEntropyLoss()(logits, probs), fused)


@proves(
    "annotated_src/annotated_nn/modules/loss.py",
    "NLLLoss",
    "targets equal to ignore_index contribute nothing, not even to the mean's denominator",
)
@each_nn()
def test_nll_ignore_index_denominator(nn):
    """The weighted mean divides by the summed weight of the targets not ignored."""
    nll = nn.NLLLoss(weight=torch.tensor([1.0, 3.0]), ignore_index=0)
    inp = torch.log_softmax(torch.randn(3, 2), 1)
    target = torch.tensor([0, 1, 1])
    expected = -(inp[1, 1] * 3 + inp[2, 1] * 3) / 6
    assert torch.allclose(nll(inp, target), expected)


@proves(
    "docs/chapters/layers/loss.md",
    "losses",
    "BCEWithLogitsLoss registers two buffers, weight and pos_weight",
)
@each_nn()
def test_bce_with_logits_buffers(nn):
    """A None weight stays out of the state dict."""
    bce = nn.BCEWithLogitsLoss(pos_weight=torch.ones(2))
    assert list(bce._buffers) == ["weight", "pos_weight"]
    assert list(bce.state_dict()) == ["pos_weight"]


@proves(
    "docs/chapters/layers/loss.md",
    "distance",
    "PairwiseDistance stores p as norm and is TripletMarginWithDistanceLoss's default distance "
    "submodule",
)
@each_nn()
def test_pairwise_distance_in_triplet_loss(nn):
    """It shows up in the loss's repr."""
    assert nn.PairwiseDistance(p=3).norm == 3
    assert repr(nn.TripletMarginWithDistanceLoss()) == (
        "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)"
    )


@proves(
    "docs/chapters/layers/rnn.md",
    "exercises",
    "with proj_size=3 and two directions, weight_ih_l1 takes 6 inputs",
)
@each_nn()
def test_lstm_projection_shapes(nn):
    """Later layers take the concatenated projected h of both directions."""
    lstm = nn.LSTM(4, 8, 2, bidirectional=True, proj_size=3)
    assert lstm.weight_ih_l1.shape == (32, 6)
    assert lstm.weight_hr_l0.shape == (3, 8)
    assert lstm.weight_hh_l0.shape == (32, 3)


@proves(
    "annotated_src/annotated_nn/modules/rnn.py",
    "RNNBase.__setattr__",
    "replacing a weight refreshes _flat_weights; the slot is rewritten even when the "
    "assignment then fails",
)
@each_nn()
def test_flat_weights_follow_assignment(nn):
    """A plain tensor for a parameter name raises TypeError, but the flat list already holds it."""
    gru = nn.GRU(2, 3)
    new = nn.Parameter(torch.zeros(9, 3))
    gru.weight_hh_l0 = new
    assert gru._flat_weights[1] is new
    plain = torch.ones(9, 3)
    with pytest.raises(TypeError):
        gru.weight_hh_l0 = plain
    assert gru._flat_weights[1] is plain
    assert gru.weight_hh_l0 is new


@proves("docs/chapters/layers/rnn.md", "cells", "RNNCell checks its nonlinearity only in forward")
@each_nn()
def test_rnn_cell_nonlinearity_checked_late(nn):
    """Construction accepts anything."""
    cell = nn.RNNCell(2, 3, nonlinearity="bogus")
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: bogus"):
        cell(torch.ones(1, 2))


@proves(
    "docs/chapters/layers/rnn.md",
    "rnnbase",
    "reset_parameters draws U(-1/sqrt(h), 1/sqrt(h)) in registration order: one seed, "
    "torch's weights",
)
@each_nn()
def test_rnn_same_seed_same_weights(nn):
    """Every parameter bounded and equal to torch.nn's."""
    import torch.nn as tnn

    torch.manual_seed(0)
    ours = nn.LSTM(3, 4, 2)
    torch.manual_seed(0)
    theirs = tnn.LSTM(3, 4, 2)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
        assert torch.equal(a, b), name
        assert a.abs().max() <= 0.5


@proves(
    "docs/chapters/layers/transformer.md",
    "layers",
    "TransformerEncoder deep-copies the layer: independent parameters, identical values, and "
    "the layer passed in is not part of the stack",
)
@each_nn()
def test_encoder_clones(nn):
    """_get_clones."""
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    assert [n for n, _ in enc.named_children()] == ["layers"]
    assert all(m is not layer for m in enc.modules())
    a, b = enc.layers[0].linear1.weight, enc.layers[1].linear1.weight
    assert torch.equal(a, b) and a is not b


@proves(
    "docs/chapters/layers/transformer.md",
    "layers",
    "enable_nested_tensor with norm_first=True warns and sets use_nested_tensor to False",
)
@each_nn()
def test_nested_tensor_switched_off(nn):
    """torch's warning text."""
    with pytest.warns(UserWarning, match="because encoder_layer.norm_first was True"):
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, norm_first=True), 1)
    assert enc.use_nested_tensor is False


@proves(
    "docs/chapters/layers/transformer.md",
    "layers",
    "generate_square_subsequent_mask puts -inf above the diagonal and 0 elsewhere",
)
@each_nn()
def test_causal_mask(nn):
    """A 3 x 3 example."""
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    expected = torch.triu(torch.full((3, 3), float("-inf")), diagonal=1)
    assert torch.equal(mask, expected)


@proves(
    "docs/chapters/layers/transformer.md",
    "fast-path",
    "on the nested-tensor path (eval and no grad) padded positions come out as 0; eval alone, "
    "with parameters requiring grad, or no_grad in training, takes the ordinary path",
)
@nested_prototype_warning
@each_nn()
def test_padded_positions_zero_on_fast_path(nn):
    """The ordinary path gives non-zero rows there."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True, dropout=0.0)
    enc = nn.TransformerEncoder(layer, 2)
    x = torch.randn(2, 4, 8)
    mask = torch.tensor([[False, False, True, True], [False, False, False, True]])
    enc.eval()
    with torch.no_grad():
        fast = enc(x, src_key_padding_mask=mask)
    assert torch.count_nonzero(fast[0, 2:]) == 0 and torch.count_nonzero(fast[1, 3]) == 0
    enc.train()
    slow = enc(x, src_key_padding_mask=mask)
    assert torch.count_nonzero(slow[0, 2:]) > 0
    with torch.no_grad():
        train_no_grad = enc(x, src_key_padding_mask=mask)
    assert torch.count_nonzero(train_no_grad[0, 2:]) > 0
    enc.eval()
    eval_with_grad = enc(x, src_key_padding_mask=mask)
    assert torch.count_nonzero(eval_with_grad[0, 2:]) > 0


@proves(
    "docs/chapters/layers/transformer.md",
    "multihead-attention",
    "with kdim/vdim != embed_dim the projections are separate and in_proj_weight is a "
    "registered None",
)
@each_nn()
def test_mha_separate_projections(nn):
    """Different state_dict keys; out_proj is a NonDynamicallyQuantizableLinear."""
    mha = nn.MultiheadAttention(8, 2, kdim=4, vdim=6)
    assert mha._qkv_same_embed_dim is False
    assert "in_proj_weight" in mha._parameters and mha.in_proj_weight is None
    assert [n for n, _ in mha.named_parameters()] == [
        "q_proj_weight",
        "k_proj_weight",
        "v_proj_weight",
        "in_proj_bias",
        "out_proj.weight",
        "out_proj.bias",
    ]
    assert type(mha.out_proj).__name__ == "NonDynamicallyQuantizableLinear"


@proves(
    "docs/chapters/layers/transformer.md",
    "multihead-attention",
    "_reset_parameters zeroes out_proj's bias but keeps out_proj.weight's Linear init",
)
@each_nn()
def test_mha_out_proj_weight_keeps_linear_init(nn):
    """Under one seed out_proj.weight equals a fresh Linear's weight (drawn before xavier)."""
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(4, 1)
    torch.manual_seed(0)
    lin = nn.Linear(4, 4)
    assert torch.equal(mha.out_proj.weight, lin.weight)
    assert torch.count_nonzero(mha.out_proj.bias) == 0
    assert torch.count_nonzero(mha.in_proj_bias) == 0


@proves(
    "docs/chapters/layers/transformer.md",
    "multihead-attention",
    "with batch_first=True inputs and outputs are (N, L, E); weights are averaged over heads",
)
@each_nn()
def test_mha_batch_first(nn):
    """The chapter's shapes."""
    mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
    x = torch.randn(3, 5, 8)
    out, weights = mha(x, x, x)
    assert out.shape == (3, 5, 8) and weights.shape == (3, 5, 5)


@proves(
    "docs/chapters/layers/transformer.md",
    "transformer",
    "Transformer re-initializes only parameters with more than one dimension (Xavier)",
)
@each_nn()
def test_transformer_xavier_only_matrices(nn):
    """LayerNorm weights stay 1, and one seed gives torch's weights."""
    import torch.nn as tnn

    def build(lib):
        torch.manual_seed(0)
        return lib.Transformer(
            d_model=8,
            nhead=2,
            num_encoder_layers=1,
            num_decoder_layers=1,
            dim_feedforward=16,
            batch_first=True,
        )

    ours, theirs = build(nn), build(tnn)
    assert torch.equal(ours.encoder.norm.weight, torch.ones(8))
    assert torch.equal(ours.decoder.layers[0].norm3.weight, torch.ones(8))
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters(), strict=True):
        assert torch.equal(a, b), name


@proves(
    "annotated_src/annotated_nn/modules/rnn.py",
    "RNN.forward",
    "with enforce_sorted=False, extra batch rows of hx are silently dropped rather than reported",
)
@each_nn()
def test_packed_hx_extra_rows_dropped(nn):
    """The reordering by sorted_indices comes before the shape check."""
    from torch.nn.utils.rnn import pack_padded_sequence

    rnn = nn.RNN(2, 3)
    packed = pack_padded_sequence(torch.randn(4, 2, 2), [3, 4], enforce_sorted=False)
    _, h_n = rnn(packed, torch.zeros(1, 5, 3))
    assert h_n.shape == (1, 2, 3)
    sorted_packed = pack_padded_sequence(torch.randn(4, 2, 2), [4, 3])
    with pytest.raises(RuntimeError, match="Expected hidden size"):
        rnn(sorted_packed, torch.zeros(1, 5, 3))


@proves(
    "docs/chapters/layers/rnn.md",
    "rnn",
    "flatten_parameters does nothing on CPU; the flat list stays right after pickling and under "
    "functional_call",
)
@each_nn()
def test_flat_weights_after_pickle_and_functional_call(nn):
    """functional_call with a zero weight_hh equals a pickled copy whose weight_hh is zeroed."""
    import pickle
    import warnings

    gru = nn.GRU(2, 3)
    pointers = [w.data_ptr() for w in gru._flat_weights]
    gru.flatten_parameters()
    assert pointers == [w.data_ptr() for w in gru._flat_weights]
    x = torch.randn(5, 1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        borrowed = nn.utils.stateless.functional_call(
            gru, {"weight_hh_l0": torch.zeros(9, 3)}, (x,)
        )[0]
    copy = pickle.loads(pickle.dumps(gru))
    assert copy._flat_weights[1] is copy.weight_hh_l0
    with torch.no_grad():
        copy.weight_hh_l0.zero_()
    assert torch.allclose(borrowed, copy(x)[0])
    assert not torch.allclose(borrowed, gru(x)[0])


@proves(
    "annotated_src/annotated_nn/modules/transformer.py",
    "TransformerEncoderLayer.forward",
    "a global forward hook does not block the fused fast path and sees only the layer; a hook on "
    "a submodule blocks it",
)
@each_nn()
def test_fast_path_and_hooks(nn):
    """Eval + no_grad: the submodules are bypassed unless one of them is hooked."""
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True).eval()
    x = torch.randn(2, 3, 8)
    seen = []
    handle = nn.modules.module.register_module_forward_hook(
        lambda mod, args, out: seen.append(type(mod).__name__)
    )
    try:
        with torch.no_grad():
            layer(x)
    finally:
        handle.remove()
    assert seen == ["TransformerEncoderLayer"]
    seen.clear()
    layer.linear1.register_forward_hook(lambda mod, args, out: seen.append("linear1"))
    with torch.no_grad():
        layer(x)
    assert seen == ["linear1"]
