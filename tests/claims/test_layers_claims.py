"""Claims of the linear, conv, pooling, sparse, flatten, padding and upsampling layers."""

from __future__ import annotations

import warnings

import pytest
import torch
import torch.nn.functional as F
from claim import each_nn, proves

same_padding_warning = pytest.mark.filterwarnings("ignore:Using padding='same'")


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "Note [Padding for F.pad]",
    "F.pad lists dims from the last one, a (left, right) pair each: (1, 2) becomes [2, 2, 1, 1]",
)
@each_nn()
def test_reversed_padding_layout(nn):
    """A non-'zeros' mode pads explicitly with F.pad, then convolves with padding 0."""
    m = nn.Conv2d(1, 1, 3, padding=(1, 2), padding_mode="reflect", bias=False)
    assert list(m._reversed_padding_repeated_twice) == [2, 2, 1, 1]
    x = torch.randn(1, 1, 6, 6)
    manual = F.conv2d(F.pad(x, [2, 2, 1, 1], mode="reflect"), m.weight)
    assert torch.equal(m(x), manual)


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "Note [Padding for F.pad]",
    "for padding='same' the total is dilation*(kernel_size-1), the right side gets the odd one",
)
@same_padding_warning
@each_nn()
def test_same_padding_extra_on_the_right(nn):
    """Kernel 4: 1 left, 2 right, in 'zeros' mode and in 'reflect' mode alike."""
    x = torch.randn(1, 1, 7)
    zeros = nn.Conv1d(1, 1, 4, padding="same", bias=False)
    assert list(zeros._reversed_padding_repeated_twice) == [1, 2]
    assert torch.allclose(zeros(x), F.conv1d(F.pad(x, [1, 2]), zeros.weight))
    reflect = nn.Conv2d(2, 4, (3, 4), padding="same", padding_mode="reflect", bias=False)
    assert list(reflect._reversed_padding_repeated_twice) == [1, 2, 1, 1]
    x2 = torch.randn(1, 2, 10, 10)
    assert reflect(x2).shape == (1, 4, 10, 10)


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "_ConvNd.__init__",
    "_reversed_padding_repeated_twice is computed once: changing padding later is ignored "
    "by non-'zeros' modes",
)
@each_nn()
def test_padding_changed_later_is_stale(nn):
    """The reflect conv keeps padding by the constructor's value."""
    m = nn.Conv1d(1, 1, 3, padding=1, padding_mode="reflect")
    m.padding = (2,)
    assert tuple(m._reversed_padding_repeated_twice) == (1, 1)
    assert m(torch.randn(1, 1, 5)).shape == (1, 1, 5)


@proves(
    "docs/chapters/layers/conv.md",
    "changes",
    "reset_parameters on a channels_last weight gives the values of a contiguous weight",
)
@each_nn()
def test_channels_last_reset_parameters(nn):
    """Sampling goes through a contiguous temporary."""
    a = nn.Conv2d(3, 4, 3)
    b = nn.Conv2d(3, 4, 3).to(memory_format=torch.channels_last)
    assert not b.weight.is_contiguous()
    torch.manual_seed(1)
    a.reset_parameters()
    torch.manual_seed(1)
    b.reset_parameters()
    assert torch.equal(a.weight, b.weight) and torch.equal(a.bias, b.bias)


@proves(
    "docs/chapters/layers/conv.md",
    "convnd",
    "the checks run in a fixed order: groups divisibility comes before 'same' with a stride",
)
@each_nn()
def test_conv_check_order(nn):
    """When several checks fail, the first in torch's order wins."""
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(4, 6, 3, groups=3, padding="same", stride=2)
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        nn.Conv2d(4, 6, 3, padding="same", stride=2)


@proves(
    "docs/chapters/layers/conv.md",
    "transposed",
    "transposed convolutions support only padding_mode='zeros'; output_size picks the size",
)
@each_nn()
def test_transposed_conv_padding_mode_and_output_size(nn):
    """The weight is (in, out // groups, k, k); output_size derives output_padding."""
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported'):
        nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")
    up = nn.ConvTranspose2d(8, 4, kernel_size=3, stride=2, padding=1)
    assert up.weight.shape == (8, 4, 3, 3)
    x = torch.randn(1, 8, 5, 5)
    assert up(x).shape == (1, 4, 9, 9)
    assert up(x, output_size=[10, 10]).shape == (1, 4, 10, 10)


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "_ConvTransposeMixin",
    "the old _ConvTransposeMixin name is kept and warns with FutureWarning when constructed",
)
@each_nn()
def test_conv_transpose_mixin_deprecated(nn):
    """Constructing it with _ConvTransposeNd's arguments."""
    with pytest.warns(FutureWarning):
        nn.modules.conv._ConvTransposeMixin(
            2, 2, (3,), (1,), (0,), (1,), True, (0,), 1, True, "zeros"
        )


@proves(
    "docs/chapters/layers/conv.md",
    "lazy",
    "a lazy conv reads in_channels from dim 1 (batched) or dim 0 (unbatched); bad ranks raise",
)
@each_nn()
def test_lazy_conv_in_channels(nn):
    """Batched and unbatched input, and the rank error leaving the module lazy."""
    batched = nn.LazyConv2d(16, 3)
    batched(torch.randn(2, 5, 8, 8))
    assert type(batched) is nn.Conv2d and batched.weight.shape == (16, 5, 3, 3)
    unbatched = nn.LazyConv2d(16, 3)
    unbatched(torch.randn(7, 8, 8))
    assert unbatched.in_channels == 7
    bad = nn.LazyConv2d(16, 3)
    with pytest.raises(RuntimeError, match="Expected 3D .unbatched. or 4D .batched. input"):
        bad(torch.randn(5, 8))
    assert type(bad) is nn.LazyConv2d


@proves(
    "annotated_src/annotated_nn/modules/linear.py",
    "Linear",
    "with bias=False the bias slot holds None in _parameters, and the state_dict leaves it out",
)
@each_nn()
def test_linear_without_bias(nn):
    """The slot exists, the state_dict key does not."""
    m = nn.Linear(4, 3, bias=False)
    assert "bias" in m._parameters and m.bias is None
    assert list(m.state_dict()) == ["weight"]
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    assert m(torch.randn(5, 2, 4)).shape == (5, 2, 3)


@proves(
    "docs/chapters/layers/linear.md",
    "identity",
    "Identity returns its input object itself and ignores any constructor arguments",
)
@each_nn()
def test_identity(nn):
    """Not a copy."""
    x = torch.ones(2)
    assert nn.Identity(54, unused="anything")(x) is x


@proves(
    "docs/chapters/layers/linear.md",
    "bilinear",
    "Bilinear has a 3-D weight and raises ValueError for in1_features <= 0",
)
@each_nn()
def test_bilinear(nn):
    """torch's message word for word."""
    m = nn.Bilinear(2, 3, 4)
    assert m.weight.shape == (4, 2, 3)
    assert m(torch.randn(5, 2), torch.randn(5, 3)).shape == (5, 4)
    with pytest.raises(ValueError, match=r"in1_features must be > 0, but got \(in1_features=0\)"):
        nn.Bilinear(0, 3, 4)


@proves(
    "docs/chapters/layers/index.md",
    "changes",
    "device='meta' records shapes without memory; layers accept unbatched input",
)
@each_nn()
def test_factory_kwargs_and_unbatched(nn):
    """The overview's example."""
    m = nn.Linear(1024, 1024, device="meta")
    assert m.weight.is_meta and m.weight.shape == (1024, 1024)
    assert nn.Conv2d(3, 8, 3, dtype=torch.float64).weight.dtype == torch.float64
    assert nn.Conv2d(3, 8, 3)(torch.randn(3, 16, 16)).shape == (8, 14, 14)


@proves(
    "docs/chapters/layers/pooling.md",
    "repr",
    "MaxPool2d/AvgPool2d keep sizes as given, AvgPool1d makes tuples, LPPool2d keeps stride=None",
)
@each_nn()
def test_pooling_repr_inconsistencies(nn):
    """The repr is observable behavior."""
    assert repr(nn.MaxPool2d(2)) == (
        "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    )
    assert repr(nn.AvgPool1d(2)) == "AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))"
    assert repr(nn.AvgPool2d(2)) == "AvgPool2d(kernel_size=2, stride=2, padding=0)"
    assert repr(nn.LPPool2d(2, 3)) == (
        "LPPool2d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"
    )


@proves(
    "docs/chapters/layers/pooling.md",
    "repr",
    "MaxUnpool2d puts the maxima back at their indices and fills the rest with 0",
)
@each_nn()
def test_max_unpool_partial_inverse(nn):
    """Only a partial inverse."""
    pool = nn.MaxPool2d(2, return_indices=True)
    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    y, idx = pool(x)
    assert idx.flatten().tolist() == [5, 7, 13, 15]
    restored = nn.MaxUnpool2d(2)(y, idx)
    expected = torch.zeros(4, 4)
    for i in (5, 7, 13, 15):
        expected.view(-1)[i] = float(i)
    assert torch.equal(restored[0, 0], expected)


@proves(
    "annotated_src/annotated_nn/modules/pooling.py",
    "FractionalMaxPool2d.forward",
    "without _random_samples two forward passes on one input can differ; pinned samples do not",
)
@each_nn()
def test_fractional_max_pool_randomness(nn):
    """A non-integer window step; the buffer slot exists but the state_dict is empty."""
    torch.manual_seed(0)
    frac = nn.FractionalMaxPool2d(2, output_size=6)
    assert repr(frac) == "FractionalMaxPool2d()"
    assert list(frac._buffers) == ["_random_samples"] and list(frac.state_dict()) == []
    x = torch.randn(1, 1, 20, 20)
    outs = [frac(x) for _ in range(4)]
    assert any(not torch.equal(outs[0], o) for o in outs[1:])
    pinned = nn.FractionalMaxPool2d(2, output_size=6, _random_samples=torch.rand(1, 1, 2))
    assert list(pinned.state_dict()) == ["_random_samples"]
    assert torch.equal(pinned(x), pinned(x))


@proves(
    "docs/chapters/layers/pooling.md",
    "fractional",
    "under one seed fractional max pooling is bit-identical to torch's",
)
@each_nn()
def test_fractional_max_pool_same_seed(nn):
    """Both leave the sampling to F.fractional_max_pool2d."""
    import torch.nn as tnn

    x = torch.randn(1, 1, 9, 9)
    torch.manual_seed(0)
    a = nn.FractionalMaxPool2d(2, output_size=4)(x)
    torch.manual_seed(0)
    b = tnn.FractionalMaxPool2d(2, output_size=4)(x)
    assert torch.equal(a, b)


@proves(
    "docs/chapters/layers/pooling.md",
    "adaptive",
    "a None in an adaptive pool's output_size keeps the input's size in that dimension",
)
@each_nn()
def test_adaptive_pool_none(nn):
    """Global pooling over the width only."""
    ada = nn.AdaptiveAvgPool2d((None, 1))
    assert repr(ada) == "AdaptiveAvgPool2d(output_size=(None, 1))"
    assert ada(torch.randn(2, 3, 5, 7)).shape == (2, 3, 5, 1)


@proves(
    "docs/chapters/layers/flatten-embedding.md",
    "embedding",
    "the padding_idx row starts at 0 and gets no gradient, even when looked up twice",
)
@each_nn()
def test_embedding_padding_idx(nn):
    """Index 0 twice: zero gradient; index 2 once: ones."""
    emb = nn.Embedding(5, 3, padding_idx=0)
    assert torch.count_nonzero(emb.weight[0]) == 0
    emb(torch.tensor([[0, 2], [4, 0]])).sum().backward()
    assert torch.count_nonzero(emb.weight.grad[0]) == 0
    assert emb.weight.grad[2].tolist() == [1.0, 1.0, 1.0]


@proves(
    "annotated_src/annotated_nn/modules/sparse.py",
    "Embedding.from_pretrained",
    "from_pretrained shares memory with the given tensor and does not zero the padding row",
)
@each_nn()
def test_from_pretrained_shares_memory(nn):
    """freeze=True turns requires_grad off; a change to the tensor shows in the weight."""
    table = torch.randn(4, 2)
    emb = nn.Embedding.from_pretrained(table, freeze=False, padding_idx=1)
    assert emb.weight.data_ptr() == table.data_ptr()
    assert torch.count_nonzero(emb.weight[1]) > 0
    table[0].fill_(7.0)
    assert emb.weight[0].tolist() == [7.0, 7.0]
    assert not nn.Embedding.from_pretrained(torch.ones(2, 2)).weight.requires_grad


@proves(
    "annotated_src/annotated_nn/modules/sparse.py",
    "Embedding.from_pretrained",
    "with max_norm the forward pass rescales looked-up rows in place, rewriting the caller's tensor",
)
@each_nn()
def test_max_norm_rewrites_rows_in_place(nn):
    """Freezing does not stop it; only looked-up rows change; the version counter moves."""
    table = torch.full((3, 2), 5.0)
    emb = nn.Embedding.from_pretrained(table, max_norm=1.0)
    version = emb.weight._version
    emb(torch.tensor([0]))
    assert table[0].norm() <= 1.0 + 1e-6
    assert table[1].tolist() == [5.0, 5.0]
    assert emb.weight._version > version


@proves(
    "annotated_src/annotated_nn/modules/sparse.py",
    "EmbeddingBag.extra_repr",
    "EmbeddingBag quotes mode in its repr and averages each bag by default",
)
@each_nn()
def test_embedding_bag(nn):
    """The chapter's bag example."""
    assert repr(nn.EmbeddingBag(3, 2)) == "EmbeddingBag(3, 2, mode='mean')"
    table = torch.tensor([[1.0, 1.0], [2.0, 4.0], [3.0, 9.0]])
    bag = nn.EmbeddingBag.from_pretrained(table, mode="mean")
    out = bag(torch.tensor([0, 1, 2, 2]), offsets=torch.tensor([0, 2]))
    assert torch.equal(out, torch.tensor([[1.5, 2.5], [3.0, 9.0]]))


@proves(
    "docs/chapters/layers/flatten-embedding.md",
    "flatten",
    "Flatten keeps the batch dim by default; Unflatten refuses a non-sequence size (TypeError)",
)
@each_nn()
def test_flatten_unflatten(nn):
    """Unlike torch.flatten, start_dim=1."""
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert nn.Flatten()(torch.randn(4, 2, 3)).shape == (4, 6)
    assert nn.Unflatten(1, (2, 3))(torch.randn(4, 6)).shape == (4, 2, 3)
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of ints"):
        nn.Unflatten(1, 5)


@proves(
    "docs/chapters/layers/padding.md",
    "padding",
    "an int padding shows as the full tuple, only ConstantPad shows value; "
    "CircularPad checks the input rank",
)
@each_nn()
def test_padding_layers(nn):
    """repr forms and the ValueError of CircularPad."""
    assert repr(nn.ConstantPad1d(2, 3.5)) == "ConstantPad1d(padding=(2, 2), value=3.5)"
    assert repr(nn.ReflectionPad2d(1)) == "ReflectionPad2d((1, 1, 1, 1))"
    assert repr(nn.ZeroPad2d(1)) == "ZeroPad2d((1, 1, 1, 1))"
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        nn.CircularPad2d(1)(torch.randn(2, 3))


@proves(
    "annotated_src/annotated_nn/modules/upsampling.py",
    "UpsamplingBilinear2d",
    "UpsamplingBilinear2d equals Upsample(bilinear, align_corners=True), differs from the "
    "default, and does not warn at run time",
)
@each_nn()
def test_upsampling_bilinear(nn):
    """And Upsample stores an int scale_factor as a float."""
    x = torch.randn(1, 1, 3, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = nn.UpsamplingBilinear2d(scale_factor=2)(x)
    aligned = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(x)
    default = nn.Upsample(scale_factor=2, mode="bilinear")(x)
    assert torch.equal(old, aligned) and not torch.equal(old, default)
    assert type(nn.Upsample(scale_factor=2).scale_factor) is float


@proves(
    "annotated_src/annotated_nn/modules/conv.py",
    "_ConvTransposeNd._output_padding",
    "the error for an unreachable output_size names input.size()[2:], which drops the first "
    "spatial dim of an unbatched input",
)
@each_nn()
def test_transposed_output_size_message_unbatched(nn):
    """An unbatched (1, 4, 4) input is reported as torch.Size([4])."""
    ct = nn.ConvTranspose2d(1, 1, 3, stride=2)
    with pytest.raises(ValueError) as info:
        ct(torch.randn(1, 4, 4), output_size=[20, 20])
    assert str(info.value) == (
        "requested an output size of [20, 20], but valid sizes range from [9, 9] to [10, 10] "
        "(for an input of torch.Size([4]))"
    )


@proves(
    "annotated_src/annotated_nn/modules/upsampling.py",
    "Upsample.__setstate__",
    "an old pickle built with size gets recompute_scale_factor=True, and its forward then fails",
)
@each_nn()
def test_upsample_old_pickle_pitfall(nn):
    """A state without recompute_scale_factor, as very old versions wrote it."""
    state = dict(nn.Upsample(size=4).__dict__)
    del state["recompute_scale_factor"]
    old = nn.Upsample.__new__(nn.Upsample)
    old.__setstate__(state)
    assert old.recompute_scale_factor is True
    with pytest.raises(ValueError, match="recompute_scale_factor is not meaningful"):
        old(torch.randn(1, 1, 2, 2))


@proves(
    "annotated_src/annotated_nn/modules/pooling.py",
    "AvgPool3d.__setstate__",
    "old pickles get padding, ceil_mode and count_include_pad filled in, but not divisor_override",
)
@each_nn()
def test_avgpool3d_setstate(nn):
    """The defaults: 0, False, True."""
    state = dict(nn.AvgPool3d(2).__dict__)
    for key in ("padding", "ceil_mode", "count_include_pad", "divisor_override"):
        del state[key]
    old = nn.AvgPool3d.__new__(nn.AvgPool3d)
    old.__setstate__(state)
    assert (old.padding, old.ceil_mode, old.count_include_pad) == (0, False, True)
    assert not hasattr(old, "divisor_override")


@proves(
    "annotated_src/annotated_nn/modules/sparse.py",
    "EmbeddingBag",
    "EmbeddingBag's padding_idx error starts in lower case, Embedding's in upper case",
)
@each_nn()
def test_padding_idx_messages(nn):
    """Both are AssertionErrors."""
    with pytest.raises(AssertionError, match="^Padding_idx must be within num_embeddings"):
        nn.Embedding(3, 2, padding_idx=5)
    with pytest.raises(AssertionError, match="^padding_idx must be within num_embeddings"):
        nn.EmbeddingBag(3, 2, padding_idx=5)
