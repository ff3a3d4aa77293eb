"""Claims of the reparametrization chapters (parametrize, norms, prune), on torch.nn and annotated_nn."""

from __future__ import annotations

import importlib
import io

import pytest
import torch
from claim import each_nn, proves


def utils(nn, name):
    """`nn.utils.<name>` as a module, for torch.nn or annotated_nn."""
    return importlib.import_module(f"{nn.__name__}.utils.{name}")


def symmetric_linear(nn):
    """A Linear(3, 3) whose weight is parametrized to be symmetric."""
    parametrize = utils(nn, "parametrize")

    class Symmetric(nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(0, 1)

    m = nn.Linear(3, 3)
    parametrize.register_parametrization(m, "weight", Symmetric())
    return m, parametrize


@proves(
    "docs/chapters/reparam/parametrize.md",
    "The class swap",
    "the instance's class becomes Parametrized<Name>, a subclass",
)
@each_nn()
def test_class_swap(nn):
    m, _ = symmetric_linear(nn)
    assert type(m).__name__ == "ParametrizedLinear"
    assert type(m).__mro__[1] is nn.Linear
    assert isinstance(vars(type(m))["weight"], property)
    assert "weight" not in m._parameters


@proves(
    "docs/chapters/reparam/parametrize.md",
    "Pitfalls",
    "the state_dict holds original, not weight; keys do not match a plain model",
)
@each_nn()
def test_state_dict_holds_original(nn):
    m, _ = symmetric_linear(nn)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    result = nn.Linear(3, 3).load_state_dict(m.state_dict(), strict=False)
    assert result.missing_keys == ["weight"]
    assert result.unexpected_keys == ["parametrizations.weight.original"]


@proves(
    "docs/chapters/reparam/parametrize.md", "Pitfalls", "torch.save(model) raises; remove first"
)
@each_nn()
def test_cannot_pickle_until_removed(nn):
    m, parametrize = symmetric_linear(nn)
    with pytest.raises(RuntimeError, match="Serialization of parametrized modules"):
        torch.save(m, io.BytesIO())
    parametrize.remove_parametrizations(m, "weight")
    torch.save(m, io.BytesIO())
    assert type(m) is nn.Linear


@proves(
    "docs/chapters/reparam/parametrize.md",
    "Pitfalls",
    "after removal weight is the same object as original, now after bias",
)
@each_nn()
def test_remove_keeps_the_object_and_reorders(nn):
    m, parametrize = symmetric_linear(nn)
    original = m.parametrizations.weight.original
    value = m.weight.detach().clone()
    parametrize.remove_parametrizations(m, "weight")
    assert m.weight is original and torch.equal(m.weight, value)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]


@proves(
    "docs/chapters/reparam/parametrize.md",
    "Pitfalls",
    "every read recomputes; cached() computes once per block",
)
@each_nn()
def test_caching(nn):
    m, parametrize = symmetric_linear(nn)
    calls = []
    m.parametrizations.weight[0].register_forward_hook(lambda *a: calls.append(1))
    m.weight, m.weight, m.weight
    assert len(calls) == 3
    with parametrize.cached():
        assert m.weight is m.weight
    assert len(calls) == 4


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "weight_orig parameter, weight_mask buffer, the method is the pre-hook",
)
@each_nn()
def test_prune_layout(nn):
    prune = utils(nn, "prune")
    m = nn.Linear(4, 2)
    method = prune.l1_unstructured(m, "weight", amount=0.5)._forward_pre_hooks
    hook = next(iter(method.values()))
    assert isinstance(hook, prune.L1Unstructured) and callable(hook)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_orig"]
    assert [n for n, _ in m.named_buffers()] == ["weight_mask"]
    assert "weight" not in m._parameters and torch.equal(m.weight, m.weight_orig * m.weight_mask)


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "a second pruning picks among elements not yet pruned",
)
@each_nn()
def test_iterative_pruning_only_adds(nn):
    prune = utils(nn, "prune")
    torch.manual_seed(0)
    m = nn.Linear(4, 2)
    prune.l1_unstructured(m, "weight", amount=0.5)
    first = m.weight_mask.clone()
    prune.random_unstructured(m, "weight", amount=1)
    assert int((m.weight_mask == 0).sum()) == 5
    assert torch.all(m.weight_mask <= first)
    assert type(next(iter(m._forward_pre_hooks.values()))).__name__ == "PruningContainer"


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "remove brings back the weight_orig object as weight, after bias",
)
@each_nn()
def test_prune_remove_reuses_orig(nn):
    prune = utils(nn, "prune")
    m = nn.Linear(4, 2)
    prune.l1_unstructured(m, "weight", amount=0.5)
    orig, masked = m.weight_orig, m.weight.detach().clone()
    prune.remove(m, "weight")
    assert m.weight is orig and torch.equal(m.weight, masked)
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]
    assert not prune.is_pruned(m) and not m._forward_pre_hooks


@proves(
    "docs/chapters/layers/normalization.md",
    "Fusing into convolutions",
    "fusion needs eval mode; result equals conv then bn up to rounding",
)
@each_nn()
def test_fusion(nn):
    fusion = utils(nn, "fusion")
    torch.manual_seed(0)
    conv, bn = nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4)
    bn.running_mean.uniform_(-1, 1)
    bn.running_var.uniform_(0.5, 2)
    with pytest.raises(AssertionError):
        fusion.fuse_conv_bn_eval(conv, bn)
    conv.eval(), bn.eval()
    fused = fusion.fuse_conv_bn_eval(conv, bn)
    x = torch.randn(1, 3, 8, 8)
    assert type(fused) is nn.Conv2d and isinstance(fused.weight, nn.Parameter)
    assert torch.allclose(fused(x), bn(conv(x)), atol=1e-6)
    assert fused is not conv


@proves(
    "docs/chapters/layers/conv.md",
    "The memory format of the weights",
    "weights become channels_last in place; same module returned",
)
@each_nn()
def test_memory_format(nn):
    memory_format = utils(nn, "memory_format")
    model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Sequential(nn.ConvTranspose2d(4, 2, 3)))
    before = [p.detach().clone() for p in model.parameters()]
    out = memory_format.convert_conv2d_weight_memory_format(model, torch.channels_last)
    assert out is model
    assert model[0].weight.is_contiguous(memory_format=torch.channels_last)
    assert model[1][0].weight.is_contiguous(memory_format=torch.channels_last)
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))


@proves(
    "docs/chapters/layers/rnn.md",
    "Packed sequences",
    "batch_sizes[t] counts live sequences; unsorted_indices inverts sorted_indices",
)
@each_nn()
def test_packed_sequence_layout(nn):
    rnn_utils = utils(nn, "rnn")
    lengths = [2, 4, 3]
    packed = rnn_utils.pack_padded_sequence(
        torch.zeros(3, 4, 2), lengths, batch_first=True, enforce_sorted=False
    )
    assert packed.batch_sizes.tolist() == [sum(n > t for n in lengths) for t in range(4)]
    assert packed.sorted_indices[packed.unsorted_indices].tolist() == [0, 1, 2]
    assert [lengths[i] for i in packed.sorted_indices.tolist()] == sorted(lengths, reverse=True)
    out, _ = nn.GRU(2, 3)(packed)
    assert type(out) is type(packed)


@proves(
    "docs/chapters/reparam/norms.md",
    "Weight norm and spectral norm",
    "spectral_norm's _u/_v advance at each read in training only",
)
@each_nn()
def test_spectral_norm_power_iteration_in_training_only(nn):
    parametrizations = utils(nn, "parametrizations")
    torch.manual_seed(0)
    m = parametrizations.spectral_norm(nn.Linear(4, 3))
    sn = m.parametrizations.weight[0]
    u = sn._u.clone()
    m.weight
    assert not torch.equal(sn._u, u)
    m.eval()
    u = sn._u.clone()
    m.weight
    assert torch.equal(sn._u, u)


@proves(
    "docs/chapters/reparam/norms.md",
    "Weight norm and spectral norm",
    "first-generation spectral_norm records its version in _metadata",
)
@each_nn()
def test_old_spectral_norm_metadata(nn):
    m = nn.utils.spectral_norm(nn.Linear(4, 3))
    sd = m.state_dict()
    assert list(sd) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert sd._metadata[""]["spectral_norm"] == {"weight.version": 1}


@proves(
    "docs/chapters/reparam/norms.md",
    "Weight norm and spectral norm",
    "old weight_g/weight_v keys load into the new weight_norm",
)
@each_nn()
def test_weight_norm_keys_migrate(nn):
    import warnings

    parametrizations = utils(nn, "parametrizations")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        old = nn.utils.weight_norm(nn.Linear(4, 3))
    new = parametrizations.weight_norm(nn.Linear(4, 3))
    assert list(new.state_dict()) == [
        "bias",
        "parametrizations.weight.original0",
        "parametrizations.weight.original1",
    ]
    new.load_state_dict(old.state_dict())
    assert torch.equal(new.weight, old.weight)
