"""Claims of the normalization and dropout layers (batchnorm.py, normalization.py, dropout.py)."""

from __future__ import annotations

import pytest
import torch
from claim import each_nn, proves


@proves(
    "docs/chapters/layers/normalization.md",
    "batchnorm-family",
    "BatchNorm has two parameters and three buffers; training updates them, eval uses them",
)
@each_nn()
def test_batchnorm_parameters_buffers_and_eval(nn):
    """The chapter's example."""
    bn = nn.BatchNorm1d(3)
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias"]
    assert [n for n, _ in bn.named_buffers()] == [
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    x = torch.randn(8, 3) * 2 + 5
    bn(x)
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    expected = (x - bn.running_mean) / torch.sqrt(bn.running_var + bn.eps)
    assert torch.allclose(bn(x), expected, atol=1e-6)


@proves(
    "docs/chapters/layers/normalization.md",
    "batchnorm-family",
    "momentum=None makes the running statistics a cumulative average of the batch means",
)
@each_nn()
def test_batchnorm_cumulative_average(nn):
    """(0 + 3) / 2 = 1.5."""
    bn = nn.BatchNorm1d(3, momentum=None)
    for batch in (torch.zeros(4, 3), torch.ones(4, 3) * 3):
        bn(batch)
    assert torch.equal(bn.running_mean, torch.full((3,), 1.5))


@proves(
    "annotated_src/annotated_nn/modules/batchnorm.py",
    "_NormBase.__init__",
    "num_batches_tracked is always long, even with dtype=torch.float64",
)
@each_nn()
def test_num_batches_tracked_is_long(nn):
    """Only the device is passed on to the counter."""
    bn = nn.BatchNorm1d(2, dtype=torch.float64)
    assert bn.running_mean.dtype == torch.float64
    assert bn.num_batches_tracked.dtype == torch.long


@proves(
    "annotated_src/annotated_nn/modules/batchnorm.py",
    "_BatchNorm.forward",
    "the counter is bumped before F.batch_norm, so even a failing call increments it",
)
@each_nn()
def test_counter_bumped_even_if_batch_norm_fails(nn):
    """One value per channel in training raises after the count."""
    bn = nn.BatchNorm1d(3)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
        bn(torch.ones(1, 3))
    assert bn.num_batches_tracked.item() == 1


@proves(
    "annotated_src/annotated_nn/modules/batchnorm.py",
    "_NormBase.reset_running_stats",
    "reset_running_stats works in place, so outside references to the buffers stay valid",
)
@each_nn()
def test_reset_running_stats_in_place(nn):
    """Same buffer objects, reset values."""
    bn = nn.BatchNorm1d(3)
    mean, var = bn.running_mean, bn.running_var
    bn(torch.randn(4, 3) + 3)
    bn.reset_running_stats()
    assert bn.running_mean is mean and bn.running_var is var
    assert torch.equal(mean, torch.zeros(3)) and torch.equal(var, torch.ones(3))
    assert bn.num_batches_tracked.item() == 0


@proves(
    "annotated_src/annotated_nn/modules/batchnorm.py",
    "_NormBase._load_from_state_dict",
    "a pre-version-2 checkpoint without num_batches_tracked loads under strict=True; the "
    "module's own counter is kept",
)
@each_nn()
def test_old_checkpoint_gets_counter(nn):
    """_version = 2; a plain dict without _metadata counts as the oldest kind too."""
    bn = nn.BatchNorm2d(2)
    bn.num_batches_tracked.fill_(5)
    full = bn.state_dict()
    old = type(full)((k, v) for k, v in full.items() if k != "num_batches_tracked")
    old._metadata = {"": {"version": 1}}
    assert str(bn.load_state_dict(old)) == "<All keys matched successfully>"
    assert bn.num_batches_tracked.item() == 5
    assert "num_batches_tracked" not in old
    plain = {k: v for k, v in full.items() if k != "num_batches_tracked"}
    assert str(bn.load_state_dict(plain)) == "<All keys matched successfully>"
    assert bn.state_dict()._metadata[""] == {"version": 2}


@proves(
    "docs/chapters/layers/normalization.md",
    "version",
    "with track_running_stats=False the buffers are None, stay out of the state dict, "
    "and evaluation uses batch statistics",
)
@each_nn()
def test_no_running_stats(nn):
    """Eval output equals training output."""
    bn = nn.BatchNorm2d(2, track_running_stats=False)
    assert bn.running_mean is None
    assert list(bn.state_dict()) == ["weight", "bias"]
    x = torch.randn(3, 2, 4, 4)
    train_out = bn(x)
    bn.eval()
    assert torch.allclose(bn(x), train_out)


@proves(
    "docs/chapters/layers/normalization.md",
    "lazy-batchnorm",
    "LazyBatchNorm also holds uninitialized buffers, materialized on the first forward pass",
)
@each_nn()
def test_lazy_batchnorm_buffers(nn):
    """num_features comes from input.shape[1]."""
    bn = nn.LazyBatchNorm1d()
    assert type(bn.running_mean) is nn.UninitializedBuffer
    bn(torch.randn(4, 5))
    assert type(bn) is nn.BatchNorm1d and bn.num_features == 5
    assert type(bn.running_mean) is torch.Tensor and bn.running_mean.shape == (5,)


@proves(
    "docs/chapters/layers/normalization.md",
    "no-running-stats",
    "LayerNorm, GroupNorm and RMSNorm consume no random numbers; RMSNorm has no bias slot",
)
@each_nn()
def test_norms_without_random_numbers(nn):
    """weight 1, bias 0; RMSNorm registers no 'bias' entry at all."""
    state = torch.get_rng_state()
    ln, gn, rms = nn.LayerNorm(4), nn.GroupNorm(2, 4), nn.RMSNorm(4)
    nn.PReLU(3)
    assert torch.equal(state, torch.get_rng_state())
    assert torch.equal(ln.weight, torch.ones(4)) and torch.equal(gn.bias, torch.zeros(4))
    assert "bias" not in rms._parameters
    assert "bias" in nn.LayerNorm(4, bias=False)._parameters


@proves(
    "docs/chapters/layers/normalization.md",
    "no-running-stats",
    "RMSNorm with eps=None divides by sqrt(mean(x^2) + finfo(dtype).eps)",
)
@each_nn()
def test_rmsnorm_default_eps(nn):
    """The chapter's formula."""
    x = torch.tensor([[1.0, 2.0, 3.0, 6.0]])
    rms = nn.RMSNorm(4)
    assert repr(rms) == "RMSNorm((4,), eps=None, elementwise_affine=True)"
    expected = x / x.pow(2).mean(-1, keepdim=True).add(torch.finfo(x.dtype).eps).sqrt()
    assert torch.allclose(rms(x), expected)


@proves(
    "annotated_src/annotated_nn/modules/normalization.py",
    "normalization",
    "LayerNorm/GroupNorm never look at self.training: train and eval give the same output",
)
@each_nn()
def test_layer_norm_mode_independent(nn):
    """No buffers either."""
    x = torch.randn(3, 4)
    for layer in (nn.LayerNorm(4), nn.GroupNorm(2, 4)):
        assert list(layer.buffers()) == []
        train_out = layer(x)
        layer.eval()
        assert torch.equal(layer(x), train_out)


@proves(
    "docs/chapters/layers/normalization.md",
    "instancenorm",
    "a default InstanceNorm has no parameters or buffers; a channel mismatch only warns with "
    "affine=False and raises with affine=True",
)
@each_nn()
def test_instance_norm_mismatch(nn):
    """Lazy instance norms default to affine=True and track_running_stats=True instead."""
    inorm = nn.InstanceNorm1d(3)
    assert list(inorm.parameters()) == [] and list(inorm.buffers()) == []
    with pytest.warns(UserWarning, match="does not match num_features"):
        inorm(torch.randn(2, 4, 5))
    with pytest.raises(ValueError, match="to match num_features"):
        nn.InstanceNorm1d(3, affine=True)(torch.randn(2, 4, 5))
    lazy = nn.LazyInstanceNorm1d()
    assert lazy.affine is True and lazy.track_running_stats is True


@proves(
    "docs/chapters/layers/dropout.md",
    "rng",
    "under one seed Dropout drops the same elements as torch; in eval it returns the input "
    "object itself",
)
@each_nn()
def test_dropout_seed_and_eval(nn):
    """Kept elements are scaled by 1/(1-p)."""
    import torch.nn as tnn

    x = torch.ones(2, 6)
    torch.manual_seed(0)
    ours = nn.Dropout(p=0.5)(x)
    torch.manual_seed(0)
    theirs = tnn.Dropout(p=0.5)(x)
    assert torch.equal(ours, theirs)
    assert set(ours.unique().tolist()) <= {0.0, 2.0}
    drop = nn.Dropout(p=0.5).eval()
    assert drop(x) is x
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(1.5)


@proves(
    "docs/chapters/layers/dropout.md",
    "rng",
    "Dropout2d on 3-D input warns and does channel-wise 1-D dropout; Dropout1d zeroes channels",
)
@each_nn()
def test_dropout2d_on_3d_input(nn):
    """Each (n, c) row is either all zero or all scaled."""
    torch.manual_seed(0)
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        out = nn.Dropout2d(0.5)(torch.ones(2, 8, 5))
    rows = out.reshape(-1, 5)
    assert all(len(set(row.tolist())) == 1 for row in rows)
    torch.manual_seed(0)
    rows1d = nn.Dropout1d(0.5)(torch.ones(1, 4, 3))[0]
    assert all(len(set(row.tolist())) == 1 for row in rows1d)
