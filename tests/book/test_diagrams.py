"""The book's diagrams: committed DOT is fresh, what they draw agrees with torch.nn, they read in place."""

from __future__ import annotations

import importlib.util
import re
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
    # A torch class we deliberately leave out, or whose bases we deliberately change (our
    # PackedSequence derives from torch's), is named in a DIFF(torch 2.13) marker of its file.
    excused = set()
    for item in divergences():
        module = item["file"][len("annotated_nn/") : -3].replace("/", ".").removesuffix(".__init__")
        text = item["zh"] + " " + item["en"]
        for _, sub in theirs | ours:
            if sub.rsplit(".", 1)[0] == module and re.search(rf"\b{sub.rsplit('.', 1)[1]}\b", text):
                excused.add(sub)
    missing = sorted((base, sub) for base, sub in theirs - ours if sub not in excused)
    extra = sorted((base, sub) for base, sub in ours - theirs if sub not in excused)
    assert not missing and not extra, {"only in torch": missing, "only in annotated_nn": extra}


def test_family_diagrams_draw_torch_edges():
    """Every edge a family diagram draws is one of torch.nn's, and the families cover the files."""
    _, theirs = generate.inheritance_edges("torch")
    bases = generate.class_bases("annotated_nn")
    drawn = []
    for slug, files in generate.LAYER_FAMILIES:
        members = generate.family_members(slug)
        assert members, slug
        dot = generate.family_dot(slug)
        for name in members:
            assert generate.q(name) + " [" in dot, (slug, name)
            for base in bases[name][1]:
                assert f"{generate.q(base)} -> {generate.q(name)}" in dot, (slug, base, name)
                assert (base, name) in theirs, (slug, base, name)
        drawn += members
    assert len(drawn) == len(set(drawn)), "a class is drawn in two families"
    files = {f"modules.{f}" for _, fs in generate.LAYER_FAMILIES for f in fs}
    in_files = {n for n in bases if n.rsplit(".", 1)[0] in files}
    assert in_files == set(drawn)


def test_family_diagrams_match_the_layer_pages():
    """One family diagram per layer page, holding every layer class the page renders.

    Utility classes a layer page also shows (`utils.rnn.PackedSequence` on the RNN page) are not
    layers and belong to no family.
    """
    pages = sorted(p.stem for p in (ROOT / "docs" / "chapters" / "layers").glob("*.md"))
    assert sorted(slug for slug, _ in generate.LAYER_FAMILIES) == [p for p in pages if p != "index"]
    classes = generate.class_bases("annotated_nn")
    for slug, _ in generate.LAYER_FAMILIES:
        text = (ROOT / "docs" / "chapters" / "layers" / f"{slug}.md").read_text(encoding="utf-8")
        assert f"generated/diagrams/family-{slug}.svg" in text, slug
        members = set(generate.family_members(slug))
        for dotted in re.findall(r"^::: annotated_nn\.(\S+)", text, re.M):
            if dotted in classes and dotted.startswith("modules."):
                assert dotted in members, (slug, dotted)


def test_overview_counts_public_subclasses():
    rows = {name: (parent, count) for name, parent, count in generate.overview_counts()}
    conv = annotated_nn.modules.conv
    expected = [
        n
        for n, c in vars(conv).items()
        if isinstance(c, type)
        and not n.startswith("_")
        and issubclass(c, conv._ConvNd)
        and c is not conv._ConvNd
        and c.__module__ == conv.__name__
    ]
    assert rows["modules.conv._ConvNd"] == ("modules.module.Module", len(expected))
    assert rows["modules.conv._ConvTransposeNd"][0] == "modules.conv._ConvNd"
    dot = generate.overview_dot()
    assert f"_ConvNd ({len(expected)} 个子类 / {len(expected)} subclasses)" in dot


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


def test_setattr_routing_runs_top_to_bottom():
    assert "rankdir=TB" in generate.setattr_dot(annotated_nn)


def test_reference_models_are_drawn():
    dots = generate.generate_all()
    for name, _builder, options in generate.REFERENCE_MODELS:
        if name not in generate.reference_models():
            continue
        dot = dots[f"model-{name}"]
        assert '"(root)"' in dot
        for root in options.get("details", []):
            assert f'"{root}"' in dots[f"model-{name}-{root}"]


def test_model_trees_merge_identical_numbered_siblings():
    models = generate.reference_models()
    if "ResNet18" not in models:
        pytest.skip("no ResNet18")
    model = models["ResNet18"]
    dot = generate.model_tree_dot("ResNet18", model, fold=2, rankdir="LR")
    # layer1.0 and layer1.1 have the same repr and shapes: one node; layer2.0 has a downsample.
    assert repr(model.layer1[0]) == repr(model.layer1[1])
    assert '"layer1.(0–1)"' in dot and generate.rec("2 × BasicBlock") in dot
    assert '"layer2.0"' in dot and '"layer2.1"' in dot
    # Folded blocks list their children; the detail diagram draws one in full.
    assert generate.rec("conv2, bn2, downsample") in dot
    detail = generate.model_tree_dot("ResNet18", model, root="layer2.0", rankdir="LR")
    for child, _ in model.layer2[0].named_modules():
        assert generate.q("layer2.0" + ("." + child if child else "")) in detail


def test_make_diagrams_removes_stale_dot(tmp_path, monkeypatch):
    (tmp_path / "inheritance-annotated_nn.dot").write_text("digraph {}\n", encoding="utf-8")
    monkeypatch.setattr(generate, "OUT", tmp_path)
    assert generate.main(["--check"]) == 1
    assert generate.main([]) == 0
    assert {p.stem for p in tmp_path.glob("*.dot")} == set(generate.generate_all())
    assert generate.main(["--check"]) == 0


# ---------------------------------------------------------------------------------------------
# Readable in place: the built site's SVGs and figures
# ---------------------------------------------------------------------------------------------

COLUMN_PX = 880  # the content column at a 1280 px window (docs/assets/book.css: max-width 100%)
MIN_FONT_PX = 10
UNIT_PX = {"pt": 4 / 3, "px": 1.0, "": 1.0, "in": 96.0}


def svg_metrics(svg: str) -> tuple[float, float, float]:
    """(natural width px, natural height px, smallest font px when shown at the column width)."""
    root = re.search(r"<svg\b[^>]*>", svg).group(0)
    width = re.search(r'\bwidth="([\d.]+)(pt|px|in|)"', root)
    height = re.search(r'\bheight="([\d.]+)(pt|px|in|)"', root)
    natural_w = float(width.group(1)) * UNIT_PX[width.group(2)]
    natural_h = float(height.group(1)) * UNIT_PX[height.group(2)]
    view_w = float(re.search(r'viewBox="([^"]+)"', root).group(1).split()[2])
    scale = re.search(r'<g id="graph0"[^>]*transform="scale\(([\d.]+)', svg)
    user = float(scale.group(1)) if scale else 1.0
    shown_w = min(natural_w, COLUMN_PX)
    fonts = [float(f) for f in re.findall(r'font-size="([\d.]+)"', svg)]
    assert fonts, "no text"
    return natural_w, natural_h, min(fonts) * user * shown_w / view_w


def test_every_diagram_reads_at_10px_in_the_column(book):
    """At a 1280 px window (880 px column), no diagram text is displayed under 10 px.

    Each diagram is drawn once per language: ``NAME.svg`` (Chinese) and ``NAME.en.svg``
    (English, with no Chinese character in it).
    """
    folder = book.site / "generated" / "diagrams"
    svgs = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.svg")}
    names = set(generate.generate_all())
    assert set(svgs) == names | {f"{name}.en" for name in names}
    for name in names:
        assert not CJK.search(svgs[f"{name}.en"]), name
    small = {}
    for name, svg in sorted(svgs.items()):
        natural_w, natural_h, font = svg_metrics(svg)
        if font < MIN_FONT_PX:
            small[name] = f"{natural_w:.0f}x{natural_h:.0f}px, smallest font {font:.1f}px"
    assert not small, small


FIGURE = re.compile(
    r'<figure class="book-diagram" markdown="1">\n'
    r"\[!\[([^\]]+)\]\(((?:\.\./)+generated/diagrams/([\w.-]+)\.svg)\)\]\(\2\)\n"
    r"<figcaption>(.+)</figcaption>\n</figure>"
)
CJK = re.compile(r"[\u4e00-\u9fff]")


def check_caption(caption: str) -> str | None:
    """The problem with a "中文 / English" caption, if any."""
    if caption.count(" / ") != 1:
        return "needs exactly one ' / '"
    zh, en = caption.split(" / ")
    if not CJK.search(zh) or CJK.search(en) or not re.search(r"[A-Za-z]{3}", en):
        return "Chinese half first, then English"
    return None


def test_chapter_diagrams_link_full_size_with_bilingual_caption():
    names = set(generate.generate_all())
    bad, embedded = [], set()
    for path in sorted((ROOT / "docs" / "chapters").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT).as_posix()
        depth = len(path.relative_to(ROOT / "docs").parts) - 1
        for m in FIGURE.finditer(text):
            _alt, src, name, caption = m.groups()
            embedded.add(name)
            if name not in names:
                bad.append(f"{rel}: no diagram {name}")
            if src != "../" * depth + f"generated/diagrams/{name}.svg":
                bad.append(f"{rel}: wrong path {src}")
            problem = check_caption(caption)
            if problem:
                bad.append(f"{rel}: {name}: {problem}")
        stray = len(re.findall(r"generated/diagrams/[\w.-]+\.svg", text)) - 2 * len(
            FIGURE.findall(text)
        )
        if stray:
            bad.append(f"{rel}: {stray} diagram references outside the figure form")
    assert not bad, bad
    assert "layer-families" in embedded
    assert not any(n.startswith("inheritance-") for n in embedded)


def test_diagrams_page_shows_every_diagram(book):
    from tools.book.generated import diagrams

    _files, page = diagrams()
    names = list(generate.generate_all())
    # The page sits next to the SVGs: its paths are "diagrams/NAME.svg", not "../generated/…".
    figures = list(FIGURE.finditer(page.replace("(diagrams/", "(../generated/diagrams/")))
    assert [m.group(3) for m in figures] == names
    for m in figures:
        assert check_caption(m.group(4)) is None, (m.group(3), m.group(4))
    headings = re.findall(r"^## (.+)$", page, re.M)
    assert len(headings) == len(names)
    for heading in headings:
        zh, _, en = heading.partition(" / ")
        assert CJK.search(zh) and en and not CJK.search(en), heading
    html = book.html("generated/diagrams/")
    figures = re.findall(r'<figure class="book-diagram">(.*?)</figure>', html, re.S)
    assert len(figures) == len(names)
    for body in figures:
        # One drawing per language, each linked to its own full-size SVG.
        links = re.findall(
            r'<a class="book-(zh|en)" href="([^"]+\.svg)"><img alt="[^"]*" src="([^"]+)"', body
        )
        assert [language for language, _, _ in links] == ["zh", "en"], body[:300]
        assert all(href == src for _, href, src in links), body[:300]
        assert links[1][1].endswith(".en.svg") and not links[0][1].endswith(".en.svg")
        assert 'class="book-zh"' in body and 'class="book-en"' in body, body[:300]


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_render_svg():
    svg = generate.render_svg(generate.setattr_dot(annotated_nn))
    assert svg.startswith("<svg") and "</svg>" in svg
