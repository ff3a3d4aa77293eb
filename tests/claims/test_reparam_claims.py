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
    # The 15 power iterations at registration may leave _u at a floating-point fixed point
    # (with some CPU kernels), where one more iteration changes no bit: start from a unit
    # vector that is surely not converged.
    with torch.no_grad():
        sn._u.copy_(torch.nn.functional.normalize(torch.tensor([1.0, -2.0, 3.0]), dim=0))
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


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "Note [Copies share the parametrized class]",
    "a deep copy shares the class; removing on the copy breaks the original; one cache entry",
)
@each_nn()
def test_deepcopy_shares_the_class(nn):
    import copy

    parametrize = utils(nn, "parametrize")
    m, _ = symmetric_linear(nn)
    c = copy.deepcopy(m)
    assert type(c) is type(m)
    with torch.no_grad():
        c.parametrizations.weight.original.zero_()
    with parametrize.cached():
        assert c.weight is m.weight  # the first read (the copy's zeros) is what both get
    assert not torch.equal(m.weight, c.weight)
    parametrize.remove_parametrizations(c, "weight")
    with pytest.raises(AttributeError):
        m.weight


@proves(
    "docs/chapters/reparam/parametrize.md",
    "Pitfalls",
    "the class reverts only when the last parametrization is removed",
)
@each_nn()
def test_class_reverts_with_the_last_parametrization(nn):
    m, parametrize = symmetric_linear(nn)
    parametrize.register_parametrization(m, "bias", nn.Identity())
    generated = type(m)
    parametrize.remove_parametrizations(m, "weight")
    assert type(m) is generated and "weight" not in vars(generated)
    parametrize.remove_parametrizations(m, "bias")
    assert type(m) is nn.Linear and not hasattr(m, "parametrizations")


@proves(
    "docs/chapters/reparam/parametrize.md",
    "Pitfalls",
    "inside cached(), an in-place change of original is not seen by later reads",
)
@each_nn()
def test_cache_is_stale_after_in_place_update(nn):
    m, parametrize = symmetric_linear(nn)
    with parametrize.cached():
        before = m.weight.detach().clone()
        with torch.no_grad():
            m.parametrizations.weight.original.add_(1)
        assert torch.equal(m.weight, before)
    assert not torch.equal(m.weight, before)


@proves(
    "annotated_src/annotated_nn/utils/parametrize.py",
    "annotated_nn.utils.parametrize",
    "a failed check leaves class and tables, but right_inverse's one tensor is already written",
)
@each_nn()
def test_failed_registration_keeps_structure_not_value(nn):
    parametrize = utils(nn, "parametrize")

    class ShapeChanging(nn.Module):
        def forward(self, X):
            return X[:2]

        def right_inverse(self, A):
            return A.triu()

    m = nn.Linear(3, 3)
    before = m.weight.detach().clone()
    with pytest.raises(ValueError, match="may not change the shape"):
        parametrize.register_parametrization(m, "weight", ShapeChanging())
    assert type(m) is nn.Linear and list(m._parameters) == ["weight", "bias"]
    assert torch.equal(m.weight, before.triu()) and not torch.equal(m.weight, before)


@proves(
    "annotated_src/annotated_nn/utils/parametrizations.py",
    "weight_norm",
    "dim=0 is per slice of dim 0 (input channels of ConvTranspose); dim=None gives a 0-dim g",
)
@each_nn()
def test_weight_norm_dims(nn):
    parametrizations = utils(nn, "parametrizations")
    g = parametrizations.weight_norm(nn.Linear(4, 3)).parametrizations.weight.original0
    assert g.shape == (3, 1)
    g = parametrizations.weight_norm(nn.ConvTranspose2d(2, 5, 3)).parametrizations.weight.original0
    assert g.shape == (2, 1, 1, 1)
    g = parametrizations.weight_norm(nn.Linear(4, 3), dim=None).parametrizations.weight.original0
    assert g.shape == ()


@proves(
    "annotated_src/annotated_nn/utils/parametrizations.py",
    "_SpectralNorm",
    "registering in training mode runs 15 + n_power_iterations steps; eval reads run none",
)
@each_nn()
def test_spectral_norm_power_steps(nn, monkeypatch):
    parametrizations = utils(nn, "parametrizations")
    steps = []
    power_method = parametrizations._SpectralNorm._power_method

    def counting(self, weight_mat, n):
        steps.append(n)
        return power_method(self, weight_mat, n)

    monkeypatch.setattr(parametrizations._SpectralNorm, "_power_method", counting)
    m = parametrizations.spectral_norm(nn.Linear(4, 3), n_power_iterations=3)
    assert steps == [15, 3]
    m.weight
    assert steps == [15, 3, 3]
    m.eval()
    m.weight
    assert steps == [15, 3, 3]
    parametrizations.spectral_norm(nn.Linear(4, 3).eval(), n_power_iterations=3)
    assert steps == [15, 3, 3, 15]


@proves(
    "annotated_src/annotated_nn/utils/parametrizations.py",
    "_Orthogonal.forward",
    "householder: weight decay moves the -1 diagonal to -0.99, .int() makes it 0, columns vanish",
)
@each_nn()
def test_householder_weight_decay_pitfall(nn):
    parametrizations = utils(nn, "parametrizations")
    torch.manual_seed(0)
    m = parametrizations.orthogonal(nn.Linear(3, 5))
    assert m.parametrizations.weight[0].orthogonal_map.name == "householder"
    assert m.parametrizations.weight[0].base.shape == (5, 5)
    original = m.parametrizations.weight.original
    assert torch.equal(original, -torch.eye(5, 3))
    opt = torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=0.1)
    m.weight.sum().backward()
    assert torch.all(original.grad.diagonal() == 0)
    opt.step()
    assert torch.equal(m.weight, torch.zeros(5, 3))


@proves(
    "annotated_src/annotated_nn/utils/parametrizations.py",
    "orthogonal",
    "appended with trivialization, base stays None until an assignment (needs right_inverse)",
)
@each_nn()
def test_orthogonal_appended_needs_an_assignment(nn):
    parametrize = utils(nn, "parametrize")
    parametrizations = utils(nn, "parametrizations")

    class Same(nn.Module):
        def forward(self, X):
            return X

        def right_inverse(self, X):
            return X

    m = nn.Linear(3, 3)
    parametrize.register_parametrization(m, "weight", Same())
    parametrizations.orthogonal(m)
    with pytest.raises(TypeError):
        m.weight
    m.weight = torch.eye(3)
    assert torch.allclose(m.weight, torch.eye(3))
    m = nn.Linear(3, 3)
    parametrize.register_parametrization(m, "weight", nn.Identity())
    parametrizations.orthogonal(m)
    with pytest.raises(RuntimeError, match="does not implement right_inverse"):
        m.weight = torch.eye(3)


@proves(
    "docs/chapters/layers/rnn.md",
    "Packed sequences",
    "enforce_sorted=True keeps both index fields None; our RNNs return the input's "
    "PackedSequence type, torch's always torch's",
)
@each_nn()
def test_packed_sequence_output_type(nn):
    from torch.nn.utils.rnn import PackedSequence as TorchPacked
    from torch.nn.utils.rnn import pack_sequence as torchs

    from annotated_nn.utils.rnn import pack_sequence as ours

    rnn_utils = utils(nn, "rnn")
    packed = rnn_utils.pack_sequence([torch.ones(3, 2), torch.ones(1, 2)])
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    lstm = nn.LSTM(2, 3)
    for pack in (ours, torchs):
        inp = pack([torch.ones(3, 2), torch.ones(1, 2)])
        out, _ = lstm(inp)
        expected = type(inp) if nn is not torch.nn else TorchPacked
        assert type(out) is expected


@proves(
    "docs/chapters/layers/normalization.md",
    "Fusing into convolutions",
    "a BatchNorm without running statistics cannot be fused; the originals stay unchanged",
)
@each_nn()
def test_fusion_needs_running_stats_and_copies(nn):
    fusion = utils(nn, "fusion")
    conv = nn.Conv2d(3, 4, 3, bias=False).eval()
    with pytest.raises(AssertionError, match="must not be None"):
        fusion.fuse_conv_bn_eval(conv, nn.BatchNorm2d(4, track_running_stats=False).eval())
    weight = conv.weight.detach().clone()
    fused = fusion.fuse_conv_bn_eval(conv, nn.BatchNorm2d(4).eval())
    assert conv.bias is None and torch.equal(conv.weight, weight)
    assert fused.bias is not None and not fused.bias.requires_grad


@proves(
    "docs/chapters/layers/conv.md",
    "The memory format of the weights",
    "the parameter object stays; only its .data is replaced",
)
@each_nn()
def test_memory_format_keeps_parameter_object(nn):
    memory_format = utils(nn, "memory_format")
    conv = nn.Conv2d(3, 4, 3)
    weight = conv.weight
    memory_format.convert_conv2d_weight_memory_format(conv, torch.channels_last)
    assert conv.weight is weight
    assert weight.is_contiguous(memory_format=torch.channels_last)


@proves(
    "annotated_src/annotated_nn/modules/adaptive.py",
    "AdaptiveLogSoftmaxWithLoss",
    "head has shortlist + clusters outputs; tail i projects to in_features // div_value**(i+1); "
    "predict equals log_prob(...).argmax(1)",
)
@each_nn()
def test_adaptive_softmax_structure_and_predict(nn):
    torch.manual_seed(0)
    asm = nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10], div_value=4.0)
    assert asm.head.out_features == 4 + 2
    assert [cluster[0].out_features for cluster in asm.tail] == [4, 1]
    assert [cluster[1].out_features for cluster in asm.tail] == [6, 10]
    x = torch.randn(64, 16)
    assert torch.equal(asm.predict(x), asm.log_prob(x).argmax(dim=1))
    target = torch.randint(0, 20, (64,))
    out = asm(x, target)
    assert torch.allclose(out.output, asm.log_prob(x).gather(1, target[:, None]).squeeze(1))
    assert torch.allclose(out.loss, -out.output.mean())


@proves(
    "annotated_src/annotated_nn/modules/linear_cross_entropy_options.py",
    "LinearCrossEntropyOptions",
    "batch_chunk_size=None lets chunking_method decide; a given size turns 'auto' off",
)
@each_nn()
def test_lce_options_chunk_size_resolution(nn):
    cpu = torch.device("cpu")
    resolved = nn.LinearCrossEntropyOptions()._adjust(1024, 64, 32000, torch.float32, cpu)
    assert resolved.chunking_method == "aspect_ratio:2" and resolved.batch_chunk_size == 2
    whole = nn.LinearCrossEntropyOptions(chunking_method=None)._adjust(
        1024, 64, 32000, torch.float32, cpu
    )
    assert whole.batch_chunk_size == 1024
    given = nn.LinearCrossEntropyOptions(batch_chunk_size=3)._adjust(
        1024, 64, 32000, torch.float32, cpu
    )
    assert given.chunking_method is None and given.batch_chunk_size == 3


@proves(
    "annotated_src/annotated_nn/modules/loss.py",
    "LinearCrossEntropyLoss",
    "chunked path: a second backward raises unless allow_retain_graph; weight precedes "
    "linear.weight in the state_dict",
)
@each_nn()
def test_lce_loss_second_backward_and_state_dict(nn):
    torch.manual_seed(0)
    x, t = torch.randn(8, 4), torch.randint(0, 6, (8,))
    loss = nn.LinearCrossEntropyLoss(4, 6, options=nn.LinearCrossEntropyOptions())
    out = loss(x, t)
    out.backward(retain_graph=True)
    with pytest.raises(RuntimeError, match="called twice"):
        out.backward()
    keep = nn.LinearCrossEntropyOptions(allow_retain_graph=True)
    loss = nn.LinearCrossEntropyLoss(4, 6, options=keep)
    out = loss(x, t)
    out.backward(retain_graph=True)
    out.backward()
    assert list(nn.LinearCrossEntropyLoss(4, 6, weight=torch.ones(6)).state_dict()) == [
        "weight",
        "linear.weight",
    ]
    assert list(nn.LinearCrossEntropyLoss(4, 6).state_dict()) == ["linear.weight"]


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "structured re-pruning picks among channels not entirely pruned; fractions are of what is left",
)
@each_nn()
def test_structured_repruning_and_fractions(nn):
    prune = utils(nn, "prune")
    torch.manual_seed(0)
    m = nn.Linear(4, 3)
    mask = torch.tensor([[0, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]])
    prune.custom_from_mask(m, "weight", mask)
    prune.random_structured(m, "weight", amount=2, dim=0)
    # row 2 was already entirely pruned, so the 2 pruned rows are 0 and 1, partial row 0 included
    assert m.weight_mask.sum().item() == 0
    m = nn.Linear(4, 4)
    prune.l1_unstructured(m, "weight", amount=0.5)
    prune.l1_unstructured(m, "weight", amount=0.5)
    assert int((m.weight_mask == 0).sum()) == 12
    m = nn.Linear(4, 6)
    prune.ln_structured(m, "weight", amount=0.5, n=2, dim=0)
    prune.ln_structured(m, "weight", amount=0.5, n=2, dim=0)
    assert int((m.weight_mask.sum(1) == 0).sum()) == 5


@proves(
    "docs/chapters/reparam/prune.md",
    "Pruning",
    "stale weight after step; no deepcopy until a no_grad forward; zeros regrow after remove",
)
@each_nn()
def test_prune_pitfalls(nn):
    import copy

    prune = utils(nn, "prune")
    m = nn.Linear(4, 2)
    prune.l1_unstructured(m, "weight", amount=4)
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(m)
    with torch.no_grad():
        m(torch.ones(4))
    copy.deepcopy(m)
    m(torch.ones(1, 4)).sum().backward()
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(m)
    optimizer = torch.optim.SGD(m.parameters(), lr=0.1)
    optimizer.step()
    assert not torch.equal(m.weight, m.weight_orig * m.weight_mask)
    result = nn.Linear(4, 2).load_state_dict(m.state_dict(), strict=False)
    assert result.missing_keys == ["weight"]
    pruned = m.weight_mask == 0
    prune.remove(m, "weight")
    assert torch.all(m.weight[pruned] == 0)
    optimizer.zero_grad()
    m(torch.ones(1, 4)).sum().backward()
    optimizer.step()
    assert torch.all(m.weight[pruned] != 0)


@proves(
    "annotated_src/annotated_nn/utils/prune.py",
    "_validate_pruning_amount_init",
    "True passes as 1, but topk/kthvalue refuse a bool k; only LnStructured uses it",
)
@each_nn()
def test_amount_true(nn):
    prune = utils(nn, "prune")
    with pytest.raises(TypeError, match="must be int, not bool"):
        prune.l1_unstructured(nn.Linear(3, 2), "weight", amount=True)
    with pytest.raises(TypeError, match="must be int, not bool"):
        prune.random_structured(nn.Linear(3, 2), "weight", amount=True, dim=0)
    m = prune.ln_structured(nn.Linear(3, 2), "weight", amount=True, n=2, dim=0)
    assert int((m.weight_mask.sum(1) == 0).sum()) == 1


@proves(
    "annotated_src/annotated_nn/utils/prune.py",
    "LnStructured",
    '"fro" allows at most 2 other dims, "nuc" exactly 2',
)
@each_nn()
def test_ln_structured_matrix_norms(nn):
    prune = utils(nn, "prune")
    prune.ln_structured(nn.Linear(3, 4), "weight", amount=1, n="fro", dim=0)
    prune.ln_structured(nn.Conv1d(2, 3, 2), "weight", amount=1, n="fro", dim=0)
    prune.ln_structured(nn.Conv1d(2, 3, 2), "weight", amount=1, n="nuc", dim=0)
    for n, module in (("fro", nn.Conv2d(3, 4, 2)), ("nuc", nn.Linear(3, 4))):
        with pytest.raises(RuntimeError, match="dim must be a 2-tuple"):
            prune.ln_structured(module, "weight", amount=1, n=n, dim=0)


@proves(
    "annotated_src/annotated_nn/utils/spectral_norm.py",
    "remove_spectral_norm",
    "the load pre-hook stays (wrapped, never found); strict self-load fails, strict=False lists keys",
)
@each_nn()
def test_remove_spectral_norm_leaves_load_pre_hook(nn):
    spectral = utils(nn, "spectral_norm")
    m = spectral.spectral_norm(nn.Linear(4, 3))
    hook = next(iter(m._load_state_dict_pre_hooks.values()))
    assert type(hook).__name__ == "_WrappedHook"
    assert not isinstance(hook, spectral.SpectralNormLoadStateDictPreHook)
    spectral.remove_spectral_norm(m)
    assert len(m._load_state_dict_pre_hooks) == 1 and not m._state_dict_hooks
    sd = m.state_dict()
    with pytest.raises(RuntimeError, match='Missing key.*"weight_orig", "weight_u"'):
        m.load_state_dict(sd)
    result = m.load_state_dict(sd, strict=False)
    assert result.missing_keys == ["weight_orig", "weight_u"]
    spectral.spectral_norm(m)
    m.load_state_dict(m.state_dict())


@proves(
    "annotated_src/annotated_nn/utils/spectral_norm.py",
    "SpectralNormLoadStateDictPreHook",
    "old format: eval weight reproduced; v recovered only for tall/square W; a 0 gives NaN",
)
@each_nn()
def test_spectral_norm_old_format(nn):
    spectral = utils(nn, "spectral_norm")
    for in_features, out_features, unit in ((3, 5, True), (5, 3, False)):
        torch.manual_seed(0)
        m = spectral.spectral_norm(nn.Linear(in_features, out_features))
        for _ in range(5):
            m(torch.randn(2, in_features))
        saved = m.weight.detach().clone()
        old = {
            "bias": m.bias.detach(),
            "weight_orig": m.weight_orig.detach(),
            "weight_u": m.weight_u.clone(),
            "weight": saved,
        }
        new = spectral.spectral_norm(nn.Linear(in_features, out_features))
        new.load_state_dict(old)
        new.eval()
        new(torch.randn(1, in_features))
        assert torch.allclose(new.weight, saved, atol=1e-6)
        assert abs(new.weight_v.norm().item() - 1) < 1e-4 if unit else new.weight_v.norm() > 2
        new.train()
        new(torch.randn(1, in_features))
        assert abs(new.weight_v.norm().item() - 1) < 1e-5
    old["weight_orig"] = old["weight_orig"].clone()
    old["weight_orig"][0, 0] = 0
    old["weight"] = old["weight"].clone()
    old["weight"][0, 0] = 0
    new = spectral.spectral_norm(nn.Linear(5, 3))
    new.load_state_dict(old)
    assert torch.isnan(new.weight_v).all()


@proves(
    "annotated_src/annotated_nn/utils/weight_norm.py",
    "weight_norm",
    "every call warns from the same line, so the default filter shows it once; deepcopy caveat",
)
@each_nn()
def test_old_weight_norm_warning_and_deepcopy(nn):
    import copy
    import warnings

    wn = utils(nn, "weight_norm")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wn.weight_norm(nn.Linear(2, 2))
        wn.weight_norm(nn.Linear(2, 2))
    assert len(caught) == 2 and (caught[0].filename, caught[0].lineno) == (
        caught[1].filename,
        caught[1].lineno,
    )
    assert caught[0].category is FutureWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        warnings.filterwarnings("default", category=FutureWarning)
        for _ in range(3):
            m = wn.weight_norm(nn.Linear(2, 2))
    assert len(caught) == 1
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(m)
    with torch.no_grad():
        m(torch.ones(2))
    copy.deepcopy(m)
    m(torch.ones(2))
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(m)
