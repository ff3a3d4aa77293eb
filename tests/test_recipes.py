"""annotated_examples.recipes and the train command, each compared with the torch.nn twin."""

import pytest
import torch

import annotated_nn
from annotated_examples import train
from annotated_examples.models import build_mlp, build_simplenet, make_models, resnet18
from annotated_examples.recipes import (
    Recorder,
    cuda_memory_profile,
    grad_flow,
    plot_grad_flow,
    summary,
)

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


def twins(builder):
    models = []
    for nn in (torch.nn, annotated_nn):
        torch.manual_seed(0)
        models.append(builder(nn))
    return models


def hook_counts(model):
    return [
        (
            name,
            len(m._forward_hooks),
            len(m._forward_pre_hooks),
            len(m._backward_hooks),
            len(m._backward_pre_hooks),
        )
        for name, m in model.named_modules()
    ]


@pytest.mark.parametrize(
    "builder, shape",
    [
        (build_simplenet, (2, 1, 32, 32)),
        (lambda nn: build_mlp(nn, 64, (32,), 5), (2, 64)),
        (lambda nn: resnet18(nn, num_classes=7), (1, 3, 32, 32)),
    ],
)
def test_summary_matches_torch_twin(builder, shape):
    theirs, ours = twins(builder)
    theirs.eval(), ours.eval()
    x = torch.randn(shape)
    s_theirs, s_ours = summary(theirs, x), summary(ours, x)
    assert s_ours.rows == s_theirs.rows
    assert str(s_ours) == str(s_theirs)
    assert s_ours.total_params == s_theirs.total_params == sum(p.numel() for p in ours.parameters())
    assert hook_counts(ours) == hook_counts(theirs)
    assert all(counts[1:] == (0, 0, 0, 0) for counts in hook_counts(ours))


def test_summary_simplenet_contents():
    _, ours = twins(build_simplenet)
    rows = summary(ours, torch.randn(1, 1, 32, 32)).rows
    assert [(r.name, r.layer, r.output_shape, r.params) for r in rows] == [
        ("conv1", "Conv2d", [1, 6, 30, 30], 60),
        ("conv2", "Conv2d", [1, 16, 13, 13], 880),
        ("fc", "Linear", [1, 10], 5770),
    ]


def test_summary_removes_hooks_when_forward_fails():
    for nn in (torch.nn, annotated_nn):
        model = nn.Sequential(nn.Linear(3, 2))
        with pytest.raises(RuntimeError):
            summary(model, torch.randn(2, 5))
        assert all(c[1:] == (0, 0, 0, 0) for c in hook_counts(model))


def test_recorder_records_and_removes_handles():
    theirs, ours = twins(lambda nn: build_mlp(nn, 6, (5, 4), 3))
    x = torch.randn(4, 6)
    recorded = []
    for model in (theirs, ours):
        with Recorder(model) as rec:
            assert any(c[1] for c in hook_counts(model)) and any(c[3] for c in hook_counts(model))
            # A fresh leaf per model: with one shared input leaf, the second run records a different
            # gradient for Flatten (which returns a 2-D input unchanged), whichever library runs second.
            model(x.clone().requires_grad_()).square().sum().backward()
        assert all(c[1:] == (0, 0, 0, 0) for c in hook_counts(model))
        assert rec.handles == []
        recorded.append(rec)
    assert (
        list(recorded[1].activations)
        == list(recorded[0].activations)
        == ["0", "1", "2", "3", "4", "5"]
    )
    assert list(recorded[1].gradients) == list(recorded[0].gradients)
    for name in recorded[0].activations:
        torch.testing.assert_close(
            recorded[1].activations[name], recorded[0].activations[name], rtol=0, atol=0
        )
    for name in recorded[0].gradients:
        torch.testing.assert_close(
            recorded[1].gradients[name], recorded[0].gradients[name], rtol=0, atol=0
        )
        assert not recorded[1].gradients[name][0].requires_grad


def test_recorder_removes_handles_on_exception_and_inplace_pitfall():
    """Full backward hooks + a following in-place ReLU fail identically in both; handles are still removed."""
    messages = []
    for nn in (torch.nn, annotated_nn):
        torch.manual_seed(0)
        block = make_models(nn).BasicBlock(3, 3)
        with pytest.raises(RuntimeError) as info:
            with Recorder(block, modules=["bn1"]):
                block(torch.randn(2, 3, 4, 4)).sum().backward()
        messages.append(str(info.value))
        assert all(c[1:] == (0, 0, 0, 0) for c in hook_counts(block))
        with Recorder(block, modules=["bn1"], gradients=False) as rec:
            block(torch.randn(2, 3, 4, 4)).sum().backward()
        assert list(rec.activations) == ["bn1"] and rec.gradients == {}
    assert messages[0] == messages[1]
    assert "BackwardHookFunction" in messages[0]


def test_gradflow_values_and_png(tmp_path):
    results = []
    for model in twins(build_simplenet):
        model(
            torch.randn(3, 1, 32, 32, generator=torch.Generator().manual_seed(1))
        ).sum().backward()
        results.append((grad_flow(model), grad_flow(model, include_bias=True)))
    assert results[1] == results[0]
    assert [name for name, *_ in results[1][0]] == ["conv1.weight", "conv2.weight", "fc.weight"]
    path = plot_grad_flow(model, tmp_path / "flow.png", include_bias=True)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_gradflow_without_gradients_raises(tmp_path):
    with pytest.raises(ValueError, match="backward"):
        plot_grad_flow(build_simplenet(annotated_nn), tmp_path / "none.png")


def test_memory_profile_without_cuda_reports_instead_of_failing():
    if torch.cuda.is_available():
        pytest.skip("CUDA present: covered by the CUDA test")
    profile = cuda_memory_profile(build_simplenet(annotated_nn), torch.randn(1, 1, 32, 32))
    assert profile.available is False and profile.rows == []
    assert "unavailable" in str(profile)


@needs_cuda
def test_memory_profile_cuda_matches_twin():
    theirs, ours = (m.cuda() for m in twins(build_simplenet))
    x = torch.randn(4, 1, 32, 32, device="cuda")
    p_theirs, p_ours = cuda_memory_profile(theirs, x), cuda_memory_profile(ours, x)
    assert p_ours.available and [r[:2] for r in p_ours.rows] == [r[:2] for r in p_theirs.rows]
    assert [r[3] - r[2] for r in p_ours.rows] == [r[3] - r[2] for r in p_theirs.rows]
    assert all(c[1:] == (0, 0, 0, 0) for c in hook_counts(ours))


def test_train_command_small(capsys):
    assert train.main(["--steps", "12", "--print-every", "4", "--batch-size", "8"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("step")]
    assert len(lines) == 3 and all(line.endswith("same") for line in lines)
    assert "max |parameter difference| after 12 steps: 0.000e+00" in out
