"""The book's diagrams: committed DOT is fresh, and what they draw agrees with torch.nn."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
import torch

import annotated_nn

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("book_diagrams", ROOT / "diagrams" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


def test_committed_dot_sources_are_fresh():
    dots = generate.generate_all()
    out = ROOT / "diagrams" / "out"
    committed = {p.stem: p.read_text(encoding="utf-8") for p in out.glob("*.dot")}
    stale = sorted(n for n in set(dots) | set(committed) if dots.get(n) != committed.get(n))
    assert not stale, f"stale diagrams/out/*.dot, run `python diagrams/generate.py`: {stale}"


def test_generation_is_deterministic():
    first = generate.generate_all()
    second = generate.generate_all()
    assert first == second
    for name, dot in first.items():
        assert " at 0x" not in dot, name


def test_inheritance_matches_torch():
    """Same classes, same bases in the same places, in the files annotated_nn mirrors."""
    from tools.book.generated import divergences

    our_nodes, ours = generate.inheritance_edges("annotated_nn")
    _, theirs = generate.inheritance_edges("torch")
    assert ours, "no class found in annotated_nn"
    # A torch class we deliberately leave out is named in a DIFF(torch 2.13) marker of its file.
    excused = set()
    for item in divergences():
        module = item["file"][len("annotated_nn/") : -3].replace("/", ".").removesuffix(".__init__")
        text = item["zh"] + " " + item["en"]
        for _, sub in theirs:
            if (
                sub.rsplit(".", 1)[0] == module
                and sub not in our_nodes
                and sub.rsplit(".", 1)[1] in text
            ):
                excused.add(sub)
    missing = sorted((base, sub) for base, sub in theirs - ours if sub not in excused)
    extra = sorted(ours - theirs)
    assert not missing and not extra, {"only in torch": missing, "only in annotated_nn": extra}


def test_inheritance_includes_the_families():
    _, edges = generate.inheritance_edges("annotated_nn")
    assert ("torch.Tensor", "parameter.Parameter") in edges
    assert ("modules.module.Module", "modules.container.Sequential") in edges or not hasattr(
        annotated_nn, "Sequential"
    )
    if hasattr(annotated_nn, "Conv2d"):
        assert ("modules.conv._ConvNd", "modules.conv.Conv2d") in edges


def test_call_flow_matches_torch():
    ours = generate.trace_call(annotated_nn, raise_in_forward=False)
    theirs = generate.trace_call(torch.nn, raise_in_forward=False)
    assert ours == theirs
    assert ours.index("forward pre-hook (prepend)") < ours.index("forward pre-hook")
    assert (
        ours.index("global forward pre-hook") < ours.index("forward") < ours.index("return output")
    )
    assert "BackwardHook.setup_input_hook" in ours and "backward hook" in ours
    ours_raise = generate.trace_call(annotated_nn, raise_in_forward=True)
    theirs_raise = generate.trace_call(torch.nn, raise_in_forward=True)
    assert ours_raise == theirs_raise
    assert "forward hook (always_call)" in ours_raise and "forward hook" not in ours_raise
    assert generate.call_flow_dot(annotated_nn) == generate.call_flow_dot(torch.nn)


def test_setattr_routing_matches_torch():
    assert generate.probe_setattr(annotated_nn) == generate.probe_setattr(torch.nn)


@pytest.mark.skipif(
    not all(
        hasattr(annotated_nn, n)
        for n in ("Sequential", "ModuleDict", "Linear", "BatchNorm1d", "ReLU")
    ),
    reason="needs the containers and layers",
)
def test_state_dict_prefixes_match_torch():
    assert generate.state_dict_dot(annotated_nn) == generate.state_dict_dot(torch.nn)


def test_reference_models_are_drawn():
    dots = generate.generate_all()
    for name in generate.reference_models():
        dot = dots[f"model-{name}"]
        assert '"(root)"' in dot


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_render_svg():
    svg = generate.render_svg(generate.setattr_dot(annotated_nn))
    assert svg.startswith("<svg") and "</svg>" in svg
