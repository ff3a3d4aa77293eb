"""Draw the book's diagrams from live code. / 从运行中的代码生成本书的图。

Every diagram here is computed, never drawn by hand, so that it cannot drift from the code:

- ``inheritance-annotated_nn`` / ``inheritance-torch``: the class hierarchy of annotated_nn and of the
  matching part of the installed torch.nn, with the same node names (a test checks the edges agree);
- ``model-<Name>``: the module-instance tree of each reference model in
  ``annotated_examples.models`` (qualified name, class, own parameters and buffers with shapes);
- ``call-flow``: the order in which ``Module.__call__`` runs hooks, recorded by hooks that log
  themselves (normal path and the ``always_call`` path when ``forward`` raises);
- ``setattr-routing``: where ``Module.__setattr__`` puts each kind of value, probed live;
- ``state-dict-prefixes``: the key prefixes of a nested model's ``state_dict``.

``python diagrams/generate.py`` rewrites the committed DOT sources in ``diagrams/out/``;
``python diagrams/generate.py --check`` exits 1 when they are stale. Output is deterministic: no
addresses, everything sorted or in execution order. Each function takes the ``nn`` package to
draw (``annotated_nn`` or ``torch.nn``) so that the two can be compared.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import shutil
import subprocess
import sys
import typing
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "diagrams" / "out"
if str(ROOT / "annotated_src") not in sys.path:
    sys.path.insert(0, str(ROOT / "annotated_src"))

FONT = "Noto Sans CJK SC,Noto Sans,sans-serif"
GRAPH_ATTRS = f'  graph [fontname="{FONT}", fontsize=11];\n  node [fontname="{FONT}", fontsize=10];\n  edge [fontname="{FONT}", fontsize=9];\n'


def q(text: str) -> str:
    """Quote a DOT string. / 为 DOT 字符串加引号并转义。"""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def rec(text: str) -> str:
    """Escape text for a DOT record label field. / 转义 DOT record 标签中的特殊字符。"""
    out = str(text)
    for ch in '\\{}|<>"':
        out = out.replace(ch, "\\" + ch)
    return out.replace(" ", "\\ ")


# ---------------------------------------------------------------------------------------------
# Inheritance / 继承关系
# ---------------------------------------------------------------------------------------------


def torch_module_name(ours: str) -> str:
    """Map an annotated_nn module path to torch's. / 把 annotated_nn 的模块路径映射到 torch 的。"""
    if ours == "annotated_nn.utils.hooks" or ours.startswith("annotated_nn.utils.hooks."):
        return "torch.utils.hooks" + ours[len("annotated_nn.utils.hooks") :]
    if ours == "annotated_nn":
        return "torch.nn"
    return "torch.nn." + ours[len("annotated_nn.") :]


def short_name(module: str, qualname: str) -> str:
    """A class's name common to both libraries. / 两个库共用的类名（去掉包前缀）。"""
    for prefix in ("annotated_nn.", "torch.nn."):
        if module.startswith(prefix):
            return module[len(prefix) :] + "." + qualname
    if module == "torch.utils.hooks":
        return "utils.hooks." + qualname
    if module == "torch._tensor":
        return "torch.Tensor" if qualname == "Tensor" else "torch." + qualname
    return module + "." + qualname


SKIPPED_BASES = {object, typing.Generic}


def our_modules() -> list[str]:
    """All modules of the annotated_nn package, sorted. / annotated_nn 包中的全部模块（排序）。"""
    import annotated_nn

    names = ["annotated_nn"]
    for info in pkgutil.walk_packages(annotated_nn.__path__, "annotated_nn."):
        names.append(info.name)
    return sorted(names)


def classes_in(module_names: list[str]) -> dict[str, type]:
    """Classes defined (not imported) in the given modules. / 这些模块中定义（而非导入）的类。"""
    found: dict[str, type] = {}
    for name in module_names:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        for _, obj in sorted(vars(mod).items()):
            if inspect.isclass(obj) and obj.__module__ == name:
                found[short_name(obj.__module__, obj.__qualname__)] = obj
    return found


def inheritance_edges(library: str) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """Nodes (name → module group) and base→subclass edges. / 节点（名字 → 所在模块）与 基类→子类 的边。

    ``library`` is ``"annotated_nn"`` or ``"torch"``; torch is restricted to the modules that
    annotated_nn mirrors, so both graphs cover the same files.
    """
    # annotated_nn.functional is torch's kernels re-exported, not part of the module system.
    ours = [m for m in our_modules() if m not in ("annotated_nn", "annotated_nn.functional")]
    if library == "annotated_nn":
        modules = ours
    else:
        modules = []
        for m in ours:
            try:
                importlib.import_module(torch_module_name(m))
            except ImportError:
                continue
            modules.append(torch_module_name(m))
    classes = classes_in(modules)
    nodes: dict[str, str] = {}
    edges: set[tuple[str, str]] = set()
    for name, cls in classes.items():
        nodes[name] = name.rsplit(".", 1)[0]
        for base in cls.__bases__:
            if base in SKIPPED_BASES:
                continue
            base_name = short_name(base.__module__, base.__qualname__)
            edges.add((base_name, name))
            nodes.setdefault(
                base_name, "(outside)" if base_name not in classes else nodes.get(base_name, "")
            )
    for name in list(nodes):
        if name in classes:
            nodes[name] = name.rsplit(".", 1)[0]
    return nodes, edges


def inheritance_dot(library: str) -> str:
    """DOT of the class hierarchy, clustered by file. / 类层次的 DOT，按文件分簇。"""
    nodes, edges = inheritance_edges(library)
    title = "annotated_nn" if library == "annotated_nn" else "torch.nn (installed torch)"
    out = [f"digraph {q('inheritance-' + library)} {{\n", GRAPH_ATTRS]
    out.append(
        f"  graph [rankdir=LR, concentrate=true, ranksep=0.35, nodesep=0.12, label={q(title + ' — 继承关系 / class hierarchy')}, labelloc=t];\n"
    )
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb", height=0.25];\n')
    groups: dict[str, list[str]] = {}
    for name, group in nodes.items():
        groups.setdefault(group, []).append(name)
    for index, group in enumerate(sorted(groups)):
        out.append(
            f'  subgraph cluster_{index} {{\n    label={q(group)}; style=rounded; color="#9aa5d1";\n'
        )
        for name in sorted(groups[group]):
            fill = ', fillcolor="#f7f7f7"' if group == "(outside)" else ""
            out.append(
                f"    {q(name)} [label={q(name.rsplit('.', 1)[1] if group != '(outside)' else name)}{fill}];\n"
            )
        out.append("  }\n")
    for base, sub in sorted(edges):
        out.append(f"  {q(base)} -> {q(sub)};\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Module-instance trees of the reference models / 参考模型的模块实例树
# ---------------------------------------------------------------------------------------------


def reference_models() -> "OrderedDict[str, object]":
    """Instances of the reference models, built by their builder functions. / 用构造函数建出的参考模型实例。"""
    models: OrderedDict[str, object] = OrderedDict()
    try:
        mod = importlib.import_module("annotated_examples.models")
    except ImportError:
        return models
    builders = [
        ("SimpleNet", "build_simplenet"),
        ("MLP", "build_mlp"),
        ("ResNet18", "resnet18"),
        ("TransformerClassifier", "build_transformer_classifier"),
    ]
    for name, builder in builders:
        if hasattr(mod, builder):
            models[name] = getattr(mod, builder)()
    return models


def shape_of(tensor) -> str:
    """Shape as ``(a, b)`` or ``None``. / 形状写成 ``(a, b)``，空值写 ``None``。"""
    if tensor is None:
        return "None"
    return "(" + ", ".join(str(d) for d in tensor.shape) + ")" if tensor.dim() else "()"


def model_tree_dot(name: str, model) -> str:
    """DOT of one model's module tree. / 一个模型的模块树 DOT。"""
    out = [f"digraph {q('model-' + name)} {{\n", GRAPH_ATTRS]
    out.append(f"  graph [rankdir=LR, label={q(name + ' — 模块树 / module tree')}, labelloc=t];\n")
    out.append('  node [shape=record, style="rounded,filled", fillcolor="#eef1fb"];\n')
    for qualname, module in model.named_modules():
        node = qualname or "(root)"
        fields = [rec(node), rec(type(module).__name__)]
        own = [f"{k}: {shape_of(v)}" for k, v in module._parameters.items()]
        own += [f"{k}: {shape_of(v)} (buffer)" for k, v in module._buffers.items()]
        if own:
            fields.append("\\l".join(rec(x) for x in own) + "\\l")
        label = "{" + "|".join(fields) + "}"
        out.append(f'  {q(node)} [label="{label}"];\n')
        for child_name, _child in module._modules.items():
            child = f"{qualname}.{child_name}" if qualname else child_name
            out.append(f"  {q(node)} -> {q(child)};\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# The __call__ dispatch flow, from a live trace / 由实时追踪得到的 __call__ 调度流程
# ---------------------------------------------------------------------------------------------


def trace_call(nn, raise_in_forward: bool) -> list[str]:
    """Run one call with every kind of hook and return what ran, in order. / 装上各种钩子调用一次，按顺序返回运行过的步骤。"""
    import torch

    module_mod = nn.modules.module
    hooks_mod = importlib.import_module(
        "torch.utils.hooks" if nn.__name__ == "torch.nn" else "annotated_nn.utils.hooks"
    )
    log: list[str] = []

    def logger(label):
        def hook(*args, **kwargs):
            log.append(label)
            return None

        return hook

    class Traced(nn.Module):
        def forward(self, x):
            log.append("forward")
            if raise_in_forward:
                raise RuntimeError("forward failed")
            return x * 2

    handles = []
    originals = {}
    # Wrap BackwardHook's set-up methods so that the trace shows where they run.
    for method in ("setup_input_hook", "setup_output_hook"):
        original = getattr(hooks_mod.BackwardHook, method)
        originals[method] = original

        def wrapped(self, args, _original=original, _label=f"BackwardHook.{method}"):
            log.append(_label)
            return _original(self, args)

        setattr(hooks_mod.BackwardHook, method, wrapped)
    try:
        m = Traced()
        handles.append(
            module_mod.register_module_forward_pre_hook(logger("global forward pre-hook"))
        )
        handles.append(module_mod.register_module_forward_hook(logger("global forward hook")))
        handles.append(
            module_mod.register_module_forward_hook(
                logger("global forward hook (always_call)"), always_call=True
            )
        )
        handles.append(
            module_mod.register_module_full_backward_pre_hook(logger("global backward pre-hook"))
        )
        handles.append(
            module_mod.register_module_full_backward_hook(logger("global backward hook"))
        )
        handles.append(m.register_forward_pre_hook(logger("forward pre-hook")))
        handles.append(
            m.register_forward_pre_hook(logger("forward pre-hook (with_kwargs)"), with_kwargs=True)
        )
        handles.append(
            m.register_forward_pre_hook(logger("forward pre-hook (prepend)"), prepend=True)
        )
        handles.append(m.register_forward_hook(logger("forward hook")))
        handles.append(
            m.register_forward_hook(logger("forward hook (with_kwargs)"), with_kwargs=True)
        )
        handles.append(
            m.register_forward_hook(logger("forward hook (always_call)"), always_call=True)
        )
        handles.append(m.register_full_backward_pre_hook(logger("backward pre-hook")))
        handles.append(m.register_full_backward_hook(logger("backward hook")))
        x = torch.ones(2, requires_grad=True)
        try:
            y = m(x)
        except RuntimeError as exc:
            log.append(f"{type(exc).__name__} re-raised")
        else:
            log.append("return output")
            y.sum().backward()
    finally:
        for handle in handles:
            handle.remove()
        for method, original in originals.items():
            setattr(hooks_mod.BackwardHook, method, original)
    return log


def call_flow_dot(nn) -> str:
    """DOT of both traced paths of ``__call__``. / ``__call__`` 两条追踪路径的 DOT。"""
    normal = trace_call(nn, raise_in_forward=False)
    failing = trace_call(nn, raise_in_forward=True)
    out = ['digraph "call-flow" {\n', GRAPH_ATTRS]
    out.append(
        '  graph [rankdir=TB, label="Module.__call__ — 实际运行顺序 / traced order", labelloc=t];\n'
    )
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb"];\n')
    out.append('  "call" [label="module(x)", shape=oval, fillcolor="#dfe6ff"];\n')
    for path, steps, color in (("ok", normal, "#3f51b5"), ("raise", failing, "#c62828")):
        previous = "call"
        after_return = False
        for index, step in enumerate(steps):
            node = f"{path}{index}"
            if path == "raise":
                fill = "#fdecea"
            elif after_return:
                fill = "#fff8e1"
            else:
                fill = "#eef1fb"
            out.append(f"  {q(node)} [label={q(step)}, fillcolor={q(fill)}];\n")
            attrs = [f"color={q(color)}"]
            if index == 0:
                attrs.append(
                    "label="
                    + q(
                        "正常路径 / forward returns"
                        if path == "ok"
                        else "forward 抛出异常 / forward raises"
                    )
                )
            if index > 0 and steps[index - 1] == "return output":
                attrs += ["label=" + q("loss.backward()"), "style=dashed"]
            out.append(f"  {q(previous)} -> {q(node)} [{', '.join(attrs)}];\n")
            after_return = after_return or step == "return output"
            previous = node
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# __setattr__ routing, probed live / 实时探测的 __setattr__ 路由
# ---------------------------------------------------------------------------------------------

# (decision path, description of the probe). The decisions follow the order in which
# Module.__setattr__ asks its questions; the leaf text is what the probe observed.
SETATTR_DECISIONS = [
    ("value is a Parameter?", "value 是 Parameter？"),
    ("name is a registered parameter?", "name 已是参数？"),
    ("value is a Module?", "value 是 Module？"),
    ("name is a registered submodule?", "name 已是子模块？"),
    ("value is a Buffer?", "value 是 Buffer？"),
    ("name is a registered buffer?", "name 已是缓冲区？"),
]


def probe_setattr(nn) -> list[tuple[int, str, str]]:
    """Assign each kind of value and record where it went. / 赋各种值并记录它落到哪里。

    Returns ``(decision index, probe label, outcome)`` triples; decision index is the first
    question answered "yes" (6 = none: the plain ``object.__setattr__`` path).
    """
    import torch

    def fresh(initialized=True):
        m = nn.Module.__new__(nn.Module)
        if initialized:
            nn.Module.__init__(m)
            m.register_parameter("p", nn.Parameter(torch.zeros(1)))
            m.add_module("c", nn.Module())
            m.register_buffer("b", torch.zeros(1))
        return m

    def where(m, name):
        for store in ("_parameters", "_modules", "_buffers"):
            if name in m.__dict__.get(store, {}):
                value = m.__dict__[store][name]
                return f"{store}[{name!r}] = {'None' if value is None else type(value).__name__}"
        if name in m.__dict__:
            return f"__dict__[{name!r}]"
        return "nowhere"

    cases = [
        (0, "Parameter → new name", lambda: nn.Parameter(torch.zeros(1)), "q", True),
        (0, "Parameter before __init__()", lambda: nn.Parameter(torch.zeros(1)), "q", False),
        (1, "None → parameter name", lambda: None, "p", True),
        (1, "Tensor → parameter name", lambda: torch.zeros(1), "p", True),
        (2, "Module → new name", lambda: nn.Module(), "d", True),
        (2, "Module before __init__()", lambda: nn.Module(), "d", False),
        (3, "None → submodule name", lambda: None, "c", True),
        (3, "int → submodule name", lambda: 3, "c", True),
        (4, "Buffer → new name", lambda: nn.Buffer(torch.zeros(1)), "r", True),
        (5, "Tensor → buffer name", lambda: torch.ones(1), "b", True),
        (5, "None → buffer name", lambda: None, "b", True),
        (5, "int → buffer name", lambda: 3, "b", True),
        (6, "Tensor → new name", lambda: torch.zeros(1), "t", True),
        (6, "int → new name", lambda: 3, "n", True),
    ]
    results = []
    for index, label, make, name, initialized in cases:
        m = fresh(initialized)
        try:
            setattr(m, name, make())
        except Exception as exc:  # the probe records exception types, whatever they are
            outcome = f"raises {type(exc).__name__}"
        else:
            outcome = where(m, name)
        results.append((index, label, outcome))
    return results


def setattr_dot(nn) -> str:
    """DOT of the ``__setattr__`` decision tree. / ``__setattr__`` 决策树的 DOT。"""
    results = probe_setattr(nn)
    out = ['digraph "setattr-routing" {\n', GRAPH_ATTRS]
    out.append(
        '  graph [rankdir=LR, label="Module.__setattr__(name, value) — 实测路由 / probed routing", labelloc=t];\n'
    )
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb"];\n')
    out.append('  "start" [label="m.name = value", shape=oval, fillcolor="#dfe6ff"];\n')
    previous = "start"
    for index, (en, zh) in enumerate(SETATTR_DECISIONS):
        node = f"d{index}"
        out.append(
            f'  {q(node)} [label={q(zh + chr(10) + en)}, shape=diamond, fillcolor="#fff8e1"];\n'
        )
        edge = " [label=" + q("no / 否") + "]" if index else ""
        out.append(f"  {q(previous)} -> {q(node)}{edge};\n")
        previous = node
    out.append(
        '  "d6" [label="object.__setattr__\\n(普通属性 / plain attribute)", fillcolor="#f7f7f7"];\n'
    )
    out.append(f'  {q(previous)} -> "d6" [label="no / 否"];\n')
    for number, (index, label, outcome) in enumerate(results):
        leaf = f"leaf{number}"
        fill = "#fdecea" if outcome.startswith("raises") else "#e8f5e9"
        out.append(
            f"  {q(leaf)} [label={q(label + chr(10) + '⇒ ' + outcome)}, fillcolor={q(fill)}];\n"
        )
        source = f"d{index}"
        edge_label = " [label=" + q("yes / 是") + "]" if index < 6 else ""
        out.append(f"  {q(source)} -> {q(leaf)}{edge_label};\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# state_dict key prefixes / state_dict 键名前缀
# ---------------------------------------------------------------------------------------------


def nested_model(nn):
    """A small nested model built from containers and layers. / 由容器与层搭成的小型嵌套模型。"""
    import torch

    torch.manual_seed(0)
    return nn.Sequential(
        OrderedDict(
            [
                ("encoder", nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.ReLU())),
                (
                    "heads",
                    nn.ModuleDict({"cls": nn.Linear(3, 2), "reg": nn.Linear(3, 1, bias=False)}),
                ),
            ]
        )
    )


def state_dict_dot(nn) -> str:
    """DOT of a trie of ``state_dict`` keys split at dots. / 把 ``state_dict`` 键按点号拆成字典树的 DOT。"""
    model = nested_model(nn)
    keys = list(model.state_dict().items())
    out = ['digraph "state-dict-prefixes" {\n', GRAPH_ATTRS]
    out.append(
        '  graph [rankdir=LR, label="state_dict 键名前缀 / key prefixes of a nested model", labelloc=t];\n'
    )
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb"];\n')
    out.append('  "" [label="model.state_dict()", shape=oval, fillcolor="#dfe6ff"];\n')
    seen = {""}
    for key, value in keys:
        parts = key.split(".")
        for depth in range(1, len(parts) + 1):
            prefix = ".".join(parts[:depth])
            if prefix in seen:
                continue
            seen.add(prefix)
            parent = ".".join(parts[: depth - 1])
            if depth == len(parts):
                label = f"{parts[-1]}\n{shape_of(value)}\n'{key}'"
                out.append(f'  {q(prefix)} [label={q(label)}, fillcolor="#e8f5e9"];\n')
            else:
                out.append(f"  {q(prefix)} [label={q(parts[depth - 1] + '.')}];\n")
            out.append(f"  {q(parent)} -> {q(prefix)};\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# All diagrams / 全部图
# ---------------------------------------------------------------------------------------------


def generate_all() -> "OrderedDict[str, str]":
    """Name → DOT source for every diagram that the code can draw now. / 当前代码能画出的每张图：名字 → DOT。"""
    import annotated_nn

    dots: OrderedDict[str, str] = OrderedDict()
    dots["inheritance-annotated_nn"] = inheritance_dot("annotated_nn")
    dots["inheritance-torch"] = inheritance_dot("torch")
    for name, model in reference_models().items():
        dots[f"model-{name}"] = model_tree_dot(name, model)
    dots["call-flow"] = call_flow_dot(annotated_nn)
    dots["setattr-routing"] = setattr_dot(annotated_nn)
    if all(
        hasattr(annotated_nn, n)
        for n in ("Sequential", "ModuleDict", "Linear", "BatchNorm1d", "ReLU")
    ):
        dots["state-dict-prefixes"] = state_dict_dot(annotated_nn)
    return dots


def dot_executable() -> str | None:
    """The Graphviz ``dot`` to use, if any. / 可用的 Graphviz ``dot`` 程序。

    System ``dot`` first; otherwise the ``graphviz-pure`` command (a Rust port shipped on PyPI as
    a wheel) when it is installed. There is no pure-Python Graphviz layout engine on PyPI.
    """
    return shutil.which("dot") or shutil.which("graphviz-pure")


def render_svg(dot_source: str) -> str:
    """Lay out DOT as SVG with Graphviz. / 用 Graphviz 把 DOT 排版成 SVG。"""
    exe = dot_executable()
    if exe is None:
        raise RuntimeError(
            "Graphviz `dot` is missing: run `make sysdeps` (Debian package graphviz)"
        )
    if os.path.basename(exe) == "dot":
        import graphviz  # the Python package; it runs the system `dot`

        svg = graphviz.pipe("dot", "svg", dot_source.encode("utf-8")).decode("utf-8")
    else:
        proc = subprocess.run(
            [exe, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True, check=True
        )
        svg = proc.stdout.decode("utf-8")
    # Drop the XML prolog and comments (they hold the Graphviz version) so the SVG can be inlined.
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def main(argv: list[str]) -> int:
    """Write or check ``diagrams/out/*.dot``. / 写出或检查 ``diagrams/out/*.dot``。"""
    dots = generate_all()
    check = "--check" in argv
    stale = []
    existing = {p.stem for p in OUT.glob("*.dot")} if OUT.exists() else set()
    for name, source in dots.items():
        path = OUT / f"{name}.dot"
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != source:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(source, encoding="utf-8")
    for name in sorted(existing - set(dots)):
        if check:
            stale.append(name + " (no longer generated)")
        else:
            (OUT / f"{name}.dot").unlink()
    if check and stale:
        print("stale diagrams (run `python diagrams/generate.py`): " + ", ".join(stale))
        return 1
    print(f"{len(dots)} diagrams {'up to date' if check else 'written to ' + str(OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
