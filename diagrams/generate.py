"""Draw the book's diagrams from live code. / 从运行中的代码生成本书的图。

=== "中文"

    这里的每张图都是算出来的，不是手画的，因此不会与代码脱节：

    - `layer-families`：`Module` → 各层家族基类（`_ConvNd`、`_NormBase`、`_Loss`……），
      节点里写出其下公开类的个数；
    - `family-<页>`：每个层页一张小的类继承图（`LAYER_FAMILIES`），画出该页各文件定义的类
      及其直接基类。全库的边集合（`inheritance_edges`）不画出来，只供测试与 torch.nn 逐边比较；
    - `model-<名字>`（以及 `model-<名字>-<子模块>`）：`annotated_examples.models` 中参考模型的
      模块实例树（限定名、类名、模块自己的参数与缓冲区形状），相同的编号子模块合并、深处折叠，
      折叠掉的部分另画一张子树图；
    - `call-flow`：`Module.__call__` 运行钩子的顺序，由会记录自己的钩子实测得到；
    - `setattr-routing`：`Module.__setattr__` 把每种值放到哪里，实际赋值探测得到，自上而下排；
    - `state-dict-prefixes`：一个嵌套模型的 `state_dict` 键名前缀；
    - `optimizer-state-dict`：一个运行中的优化器与它的 `state_dict()`，张量如何变成整数；
    - `parametrize-class-swap`：`register_parametrization` 之前与之后的同一种模块：类、MRO，以及
      `weight` 从哪里来；
    - `ddp-buckets`：一个活的 `DistributedDataParallel`（单进程 gloo 组）里 Reducer 的梯度桶：
      构造时的桶，以及第一轮之后按梯度就绪顺序重建的桶，每个桶列出参数、形状与大小；
    - `ddp-timeline`：一次真实的两进程 gloo 运行中，重建桶之后的一步训练：每个 rank 一行，
      按先后画出梯度就绪、各桶 all-reduce 发出、`backward()` 返回与优化器一步，以及与后面的
      梯度计算重叠进行的 all-reduce。数据由旁边的 `ddp_trace.py` 收集，spawn 的运行在进程内只做一次。

    `python diagrams/generate.py` 重写提交在 `diagrams/out/` 中的 DOT 源文件（并删除不再生成的），
    `python diagrams/generate.py --check` 在它们过期时以 1 退出。输出是确定的：没有内存地址，
    一切要么排序、要么按执行顺序。每张图都要在书的正文栏（约 880 px）里读得清：自然宽度不超过
    880 px，或者缩放后最小的字仍不小于 10 px（`tests/book/test_diagrams.py` 检查）。

=== "English"

    Every diagram here is computed, never drawn by hand, so that it cannot drift from the code:

    - `layer-families`: `Module` → each layer family base (`_ConvNd`, `_NormBase`, `_Loss`, …),
      with the number of public classes below it in the node;
    - `family-<page>`: one small class hierarchy per layer page (`LAYER_FAMILIES`): the classes
      the page's files define and their direct bases. The library-wide edge set
      (`inheritance_edges`) is not drawn; a test compares it edge by edge with torch.nn's;
    - `model-<Name>` (and `model-<Name>-<submodule>`): the module-instance tree of each reference
      model in `annotated_examples.models` (qualified name, class, own parameters and buffers with
      shapes), identical numbered children merged and deep levels folded, with the folded part
      drawn as a subtree of its own;
    - `call-flow`: the order in which `Module.__call__` runs hooks, recorded by hooks that log
      themselves (normal path and the `always_call` path when `forward` raises);
    - `setattr-routing`: where `Module.__setattr__` puts each kind of value, probed live, top to
      bottom;
    - `state-dict-prefixes`: the key prefixes of a nested model's `state_dict`;
    - `optimizer-state-dict`: a live optimizer beside its `state_dict()`, tensors turned into
      integers;
    - `parametrize-class-swap`: one kind of module before and after `register_parametrization`:
      its class, its MRO, and where `weight` now comes from;
    - `ddp-buckets`: the Reducer's gradient buckets in a live `DistributedDataParallel`
      (one-process gloo group): the buckets of construction and those rebuilt in
      gradient-ready order after the first iteration, each listing parameters, shapes and size;
    - `ddp-timeline`: one training step after the rebuild, from a real two-process gloo run:
      one row per rank with, in order, gradients becoming ready, each bucket's all-reduce being
      launched, `backward()` returning and the optimizer step, and the all-reduces running
      while later gradients are computed. `ddp_trace.py` next to this file collects the data;
      the spawned run happens once per process.

    `python diagrams/generate.py` rewrites the committed DOT sources in `diagrams/out/` (and
    deletes those no longer generated); `python diagrams/generate.py --check` exits 1 when they
    are stale. Output is deterministic: no addresses, everything sorted or in execution order.
    Every diagram must read well in the book's text column (about 880 px): a natural width of
    at most 880 px, or fonts that stay at least 10 px when scaled down
    (`tests/book/test_diagrams.py` checks).
"""

from __future__ import annotations

import ast
import functools
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
# 中: diagrams/ 本身也放进 sys.path：DDP 的两张图由旁边的 ddp_trace.py 收集数据，它必须以
# 中: `ddp_trace` 的名字导入，spawn 出的子进程才能按这个名字找到它的函数。
# EN: diagrams/ itself goes on sys.path too: the two DDP diagrams get their data from
# EN: ddp_trace.py next to this file, which must be imported as `ddp_trace` so that spawned
# EN: children find its function by that name.
if str(ROOT / "diagrams") not in sys.path:
    sys.path.insert(0, str(ROOT / "diagrams"))

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


def library_modules(library: str) -> list[str]:
    """The modules whose classes the hierarchy covers. / 继承关系所覆盖的模块。

    === "中文"

        `library` 为 `"annotated_nn"` 时是本包除 `annotated_nn` 与 `annotated_nn.functional`
        以外的全部模块（`functional` 只是转出 torch 的计算核，不属于模块系统）；为 `"torch"` 时是
        它们在 torch 中对应、且能导入的模块，因此两边覆盖的是同一批文件。

    === "English"

        For `"annotated_nn"`: every module of the package but `annotated_nn` itself and
        `annotated_nn.functional` (torch's kernels re-exported, not part of the module system). For
        `"torch"`: the matching torch modules that import, so that both sides cover the same files.
    """
    ours = [m for m in our_modules() if m not in ("annotated_nn", "annotated_nn.functional")]
    if library == "annotated_nn":
        return ours
    modules = []
    for m in ours:
        try:
            importlib.import_module(torch_module_name(m))
        except ImportError:
            continue
        modules.append(torch_module_name(m))
    return modules


def class_bases(library: str) -> dict[str, tuple[type, list[str]]]:
    """Each class (short name) → (class, its bases' short names in order). / 每个类（短名）→（类，按顺序排列的基类短名）。

    === "中文"

        基类保持 `__bases__` 中的顺序：多重继承时它就是方法解析顺序（MRO）里的先后，
        惰性层“混入类在前”正是靠这个顺序。`object` 与 `typing.Generic` 不算基类。

    === "English"

        Bases keep their `__bases__` order: with multiple inheritance that order is the method
        resolution order, and the "mixin first" of the lazy layers depends on it. `object` and
        `typing.Generic` are not counted as bases.
    """
    found = {}
    for name, cls in classes_in(library_modules(library)).items():
        bases = [
            short_name(base.__module__, base.__qualname__)
            for base in cls.__bases__
            if base not in SKIPPED_BASES
        ]
        found[name] = (cls, bases)
    return found


def inheritance_edges(library: str) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """Nodes (name → module group) and base→subclass edges. / 节点（名字 → 所在模块）与 基类→子类 的边。

    ``library`` is ``"annotated_nn"`` or ``"torch"``; torch is restricted to the modules that
    annotated_nn mirrors, so both edge sets cover the same files. Nothing is rendered: the test
    compares these sets, and the book draws them family by family (``family_dot``).
    """
    classes = class_bases(library)
    nodes: dict[str, str] = {}
    edges: set[tuple[str, str]] = set()
    for name, (_cls, bases) in classes.items():
        nodes[name] = name.rsplit(".", 1)[0]
        for base_name in bases:
            edges.add((base_name, name))
            if base_name not in classes:
                nodes.setdefault(base_name, "(outside)")
    return nodes, edges


# 中: （页名, 文件）：每个层页 docs/chapters/layers/<页名>.md 一张家族图，画该页各文件
# 中: （annotated_nn/modules/ 下）定义的类；文件的分组与页面相同。
# EN: (slug, files): one family diagram per layer page docs/chapters/layers/<slug>.md, drawing
# EN: the classes that the page's files under annotated_nn/modules/ define, grouped as the pages are.
LAYER_FAMILIES = [
    ("linear", ("linear",)),
    ("conv", ("conv",)),
    ("pooling", ("pooling",)),
    ("padding", ("padding",)),
    ("upsampling-fold", ("pixelshuffle", "channelshuffle", "fold", "upsampling")),
    ("normalization", ("batchnorm", "instancenorm", "normalization")),
    ("dropout", ("dropout",)),
    ("activation", ("activation",)),
    ("flatten-embedding", ("flatten", "sparse")),
    ("loss", ("loss", "distance", "adaptive", "linear_cross_entropy_options")),
    ("transformer", ("transformer",)),
    ("rnn", ("rnn",)),
]

# 中: 页面怎么分组，图就怎么分组：MultiheadAttention 定义在 activation.py，却在 Transformer 一页讲。
# EN: The diagrams group classes as the pages do: MultiheadAttention lives in activation.py but is
# EN: read on the Transformer page.
MOVED_CLASSES = {"modules.activation.MultiheadAttention": "transformer"}

# 中: 同一个父类下的叶子超过这个数时，分几列（LR）或几行（TB）错开排，免得一列太长或一行太宽。
# EN: Past this many leaves under one parent, they are staggered over several columns (LR) or rows
# EN: (TB), so that no column gets too tall and no row too wide.
LEAVES_PER_RANK = 10


def family_members(slug: str) -> list[str]:
    """The classes (short names) a layer page's family diagram draws, in source order. / 某层页家族图所画的类（短名），按源码顺序。"""
    files = dict(LAYER_FAMILIES)[slug]
    classes = class_bases("annotated_nn")
    members = []
    for name, (cls, _bases) in classes.items():
        module = name.rsplit(".", 1)[0]
        home = MOVED_CLASSES.get(name)
        if home == slug or (home is None and module in {f"modules.{f}" for f in files}):
            members.append(name)
    order = {f"modules.{f}": i for i, f in enumerate(files)}
    return sorted(
        members,
        key=lambda n: (
            order.get(n.rsplit(".", 1)[0], len(order)),
            class_lines(inspect.getsourcefile(classes[n][0])).get(n.rsplit(".", 1)[1], 0),
        ),
    )


@functools.lru_cache(maxsize=None)
def class_lines(path: str) -> dict[str, int]:
    """Top-level class name → line number, for one source file. / 一个源文件中顶层类名 → 行号。

    === "中文"

        每个文件只解析一次；`inspect.getsourcelines` 每问一个类都要重新解析整个文件，
        生成全部图会因此慢上十倍。

    === "English"

        Each file is parsed once; `inspect.getsourcelines` re-parses the whole file for every
        class it is asked about, which makes generating all diagrams ten times slower.
    """
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    return {node.name: node.lineno for node in tree.body if isinstance(node, ast.ClassDef)}


def file_of(name: str) -> str:
    """``modules.conv.Conv2d`` → ``conv.py``. / 由类的短名得到文件名。"""
    module = name.rsplit(".", 1)[0]
    if module.startswith("torch"):
        return module
    return module.rsplit(".", 1)[-1] + ".py"


def is_family_base(cls: type, name: str, has_subclass: bool) -> bool:
    """Whether a class is a family base (``_ConvNd``, ``RNNBase``…). / 是否为家族基类。

    === "中文"

        家族基类：名字以下划线开头或以 `Base` 结尾、本身是 `Module` 的子类、并且至少有一个子类。
        `_LazyConvXdMixin` 这样的混入类不是 `Module` 的子类，不算。

    === "English"

        A family base is named with a leading underscore or ends in `Base`, is a `Module`
        subclass, and has at least one subclass. Mixins such as `_LazyConvXdMixin`, not `Module`
        subclasses, do not count.
    """
    import annotated_nn

    short = name.rsplit(".", 1)[1]
    named = short.startswith("_") or short.endswith("Base")
    return named and has_subclass and issubclass(cls, annotated_nn.Module)


def stagger(edges: list[tuple[str, str]], leaves: set[str]) -> dict[tuple[str, str], int]:
    """Edge → minlen spreading a parent's many leaves over ranks. / 把同一父节点下的大量叶子分到几层的 minlen。

    === "中文"

        与 Graphviz 的 `unflatten` 相同的办法：父节点的叶子超过 `LEAVES_PER_RANK` 个时分成
        k 层，第 i 个叶子的边取 `minlen = 1 + i % k`。相邻的叶子落在相邻的层上，
        所以 LR 图里逐行从左往右读，正是源码顺序。

    === "English"

        The trick of Graphviz's `unflatten`: when a parent has more than `LEAVES_PER_RANK`
        leaves, they are spread over k ranks, the i-th leaf's edge getting `minlen = 1 + i % k`.
        Neighbouring leaves land on neighbouring ranks, so an LR diagram read row by row, left to
        right, is in source order.
    """
    children: dict[str, list[str]] = {}
    for parent, child in edges:
        if child in leaves:
            children.setdefault(parent, []).append(child)
    minlen = {}
    for parent, kids in children.items():
        if len(kids) <= LEAVES_PER_RANK:
            continue
        ranks = -(-len(kids) // LEAVES_PER_RANK)
        for index, kid in enumerate(kids):
            minlen[(parent, kid)] = 1 + index % ranks
    return minlen


def family_dot(slug: str) -> str:
    """DOT of one layer family's class hierarchy. / 一个层家族的类继承图 DOT。

    === "中文"

        节点是该页各文件定义的类，以及它们的直接基类（包括别的文件里的 `Module`、
        `LazyModuleMixin` 等，灰色，注明文件）；每条边是一个真实的 `__bases__` 项，由基类指向子类。
        有两个基类的类（惰性层），来自第一个基类（混入类）的边画虚线，来自最后一个基类的边画实线。
        家族基类（见 `is_family_base`）用深一些的底色。全部画成 LR：类名短、层数少，
        横向排最省宽度；同一父节点下的叶子太多时错开排（`stagger`）。

    === "English"

        The nodes are the classes the page's files define and their direct bases (including
        `Module`, `LazyModuleMixin` and others from other files, in grey with their file); each edge
        is one real `__bases__` entry, from base to subclass. For a class with two bases (the lazy
        layers), the edge from the first base (the mixin) is dashed and the edge from the last base
        solid. Family bases (see `is_family_base`) get a darker fill. All are laid out LR: class
        names are short and the hierarchies shallow, so that saves width; many leaves under one
        parent are staggered (`stagger`).
    """
    members = family_members(slug)
    classes = class_bases("annotated_nn")
    files = dict(LAYER_FAMILIES)[slug]
    edges: list[tuple[str, str, int, int]] = []
    outside: list[str] = []
    for name in members:
        bases = classes[name][1]
        for position, base in enumerate(bases, 1):
            edges.append((base, name, position, len(bases)))
            if base not in members and base not in outside:
                outside.append(base)
    parents = {base for base, _, _, _ in edges}
    leaves = {name for name in members if name not in parents}
    minlen = stagger([(b, s) for b, s, _, n in edges if n == 1], leaves)
    title = " · ".join(f + ".py" for f in files) + " — 继承关系 / class hierarchy"
    out = [f"digraph {q('family-' + slug)} {{\n", GRAPH_ATTRS]
    # 中: 叶子错开排时，让 Graphviz 合并同一父节点出发的边（concentrate），否则每条边各占一条通道，图并不会变矮。
    # EN: With staggered leaves, Graphviz merges the edges leaving one parent (concentrate); without
    # EN: it every edge keeps a lane of its own and the diagram gets no shorter.
    merge = ", concentrate=true" if minlen else ""
    out.append(
        f"  graph [rankdir=LR, ordering=out{merge}, ranksep=0.3, nodesep=0.12, label={q(title)}, labelloc=t];\n"
    )
    out.append(
        '  node [shape=box, style="rounded,filled", fillcolor="#eef1fb", height=0.3, margin="0.08,0.03"];\n'
    )
    out.append('  edge [arrowsize=0.6, color="#5c6bc0"];\n')
    for name in outside:
        label = name.rsplit(".", 1)[1] + "\n" + file_of(name)
        out.append(f'  {q(name)} [label={q(label)}, fillcolor="#f0f0f0", color="#9e9e9e"];\n')
    for name in members:
        cls = classes[name][0]
        has_subclass = name in parents
        fill = ', fillcolor="#c5cae9"' if is_family_base(cls, name, has_subclass) else ""
        out.append(f"  {q(name)} [label={q(name.rsplit('.', 1)[1])}{fill}];\n")
    for base, sub, position, count in edges:
        attrs = []
        if position < count:
            # 中: 不是最后一个的基类（惰性层的混入类）画虚线，且不参与排层，主干（普通层 → 惰性层）因此保持笔直。
            # EN: A base other than the last (the lazy layers' mixin) is dashed and does not
            # EN: constrain the ranks, so that the main line (plain layer → lazy layer) stays straight.
            attrs.append("style=dashed, constraint=false")
        if minlen.get((base, sub), 1) > 1:
            attrs.append(f"minlen={minlen[(base, sub)]}")
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        out.append(f"  {q(base)} -> {q(sub)}{suffix};\n")
    out.append("}\n")
    return "".join(out)


def overview_counts() -> list[tuple[str, str, int]]:
    """(family base, its parent in the overview, public classes below it). / （家族基类，它在总览图中的父节点，其下的公开类个数）。

    === "中文"

        在全部层家族的类中找出家族基类（`is_family_base`）。父节点是它的第一个也是家族基类的基类，
        没有就是 `Module`。个数是直接或间接继承它的公开类（名字不以下划线开头）。
        最后一项 `("", "Module", n)` 是不在任何家族基类之下的公开层类个数。

    === "English"

        Finds the family bases (`is_family_base`) among the classes of all layer families. A
        base's parent is its first base that is a family base too, else `Module`. The count is
        the public classes (no leading underscore) deriving from it, directly or not. The last
        item, `("", "Module", n)`, counts the public layer classes under no family base.
    """
    classes = class_bases("annotated_nn")
    members = [name for slug, _ in LAYER_FAMILIES for name in family_members(slug)]
    parents = {base for name in members for base in classes[name][1]}
    bases = [name for name in members if is_family_base(classes[name][0], name, name in parents)]
    public = [name for name in members if not name.rsplit(".", 1)[1].startswith("_")]
    rows = []
    for name in bases:
        cls = classes[name][0]
        parent = next((b for b in classes[name][1] if b in bases), "modules.module.Module")
        below = [p for p in public if p != name and issubclass(classes[p][0], cls)]
        rows.append((name, parent, len(below)))
    under_none = [
        p for p in public if not any(issubclass(classes[p][0], classes[b][0]) for b in bases)
    ]
    rows.append(("", "modules.module.Module", len(under_none)))
    return rows


def overview_dot() -> str:
    """DOT of ``Module`` → each family base, with counts. / ``Module`` → 各家族基类的 DOT，附类的个数。"""
    rows = overview_counts()
    out = ['digraph "layer-families" {\n', GRAPH_ATTRS]
    out.append(
        '  graph [rankdir=LR, ordering=out, ranksep=0.35, nodesep=0.1, label="层的家族基类 / layer family bases", labelloc=t];\n'
    )
    out.append(
        '  node [shape=box, style="rounded,filled", fillcolor="#c5cae9", height=0.3, margin="0.08,0.03"];\n'
    )
    out.append('  edge [arrowsize=0.6, color="#5c6bc0"];\n')
    out.append(
        '  "modules.module.Module" [label="Module\\nmodule.py", fillcolor="#f0f0f0", color="#9e9e9e"];\n'
    )
    for name, parent, count in rows:
        if name:
            noun = "subclass" if count == 1 else "subclasses"
            label = f"{name.rsplit('.', 1)[1]} ({count} 个子类 / {count} {noun})\n{file_of(name)}"
            out.append(f"  {q(name)} [label={q(label)}];\n")
            target = name
        else:
            target = "(no family base)"
            label = (
                f"其余 {count} 个层类 / {count} other layer classes\n(无家族基类 / no family base)"
            )
            out.append(
                f'  {q(target)} [label={q(label)}, fillcolor="#eef1fb", style="rounded,filled,dashed"];\n'
            )
        suffix = "" if name else " [style=dashed]"
        out.append(f"  {q(parent)} -> {q(target)}{suffix};\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Module-instance trees of the reference models / 参考模型的模块实例树
# ---------------------------------------------------------------------------------------------

# 中: （名字, 构造函数, 画法）："fold" 把这一深度上的模块折叠（子模块只在节点里列出名字），
# 中: "details" 为列出的每个子模块另画一张完整的子树图。
# EN: (name, builder, how to draw): "fold" folds the modules at that depth (their children are
# EN: listed in the node, not drawn); "details" adds one full subtree diagram per listed submodule.
REFERENCE_MODELS = [
    ("SimpleNet", "build_simplenet", {}),
    ("MLP", "build_mlp", {}),
    ("ResNet18", "resnet18", {"fold": 2, "rankdir": "LR", "details": ["layer2.0"]}),
    (
        "TransformerClassifier",
        "build_transformer_classifier",
        {"fold": 3, "details": ["encoder.layers.0"]},
    ),
]


def reference_models() -> "OrderedDict[str, object]":
    """Instances of the reference models, built by their builder functions. / 用构造函数建出的参考模型实例。"""
    models: OrderedDict[str, object] = OrderedDict()
    try:
        mod = importlib.import_module("annotated_examples.models")
    except ImportError:
        return models
    for name, builder, _how in REFERENCE_MODELS:
        if hasattr(mod, builder):
            models[name] = getattr(mod, builder)()
    return models


def shape_of(tensor) -> str:
    """Shape as ``(a, b)`` or ``None``. / 形状写成 ``(a, b)``，空值写 ``None``。"""
    if tensor is None:
        return "None"
    return "(" + ", ".join(str(d) for d in tensor.shape) + ")" if tensor.dim() else "()"


def own_tensor_lines(module) -> list[str]:
    """The module's own parameters and buffers, one line per shape. / 模块自己的参数与缓冲区，同形状的写在一行。

    === "中文"

        相邻且形状与种类（参数/缓冲区）都相同的名字合成一行，例如 BatchNorm 的
        `weight, bias: (64)` 与 `running_mean, running_var: (64) buffer`。

    === "English"

        Neighbouring names with the same shape and kind (parameter or buffer) share a line, e.g.
        BatchNorm's `weight, bias: (64)` and `running_mean, running_var: (64) buffer`.
    """
    items = [(k, shape_of(v), "") for k, v in module._parameters.items()]
    items += [(k, shape_of(v), " buffer") for k, v in module._buffers.items()]
    lines: list[tuple[list[str], str, str]] = []
    for key, shape, kind in items:
        if lines and lines[-1][1:] == (shape, kind):
            lines[-1][0].append(key)
        else:
            lines.append(([key], shape, kind))
    return [f"{', '.join(keys)}: {shape}{kind}" for keys, shape, kind in lines]


def signature(module) -> tuple:
    """What two sibling modules must share to be drawn once. / 两个相邻的兄弟模块画成一个所需的相同之处。

    === "中文"

        与 torch 的 `repr` 把 `(0): …`、`(1): …` 合并成 `(0-1): 2 x …` 的规则相同：`repr` 相同；
        另外还要求整棵子树的参数与缓冲区名字和形状相同。

    === "English"

        The rule by which torch's `repr` merges `(0): …` and `(1): …` into `(0-1): 2 x …`: the
        same `repr`; in addition, the same names and shapes of parameters and buffers in the
        whole subtree.
    """
    tensors = [(k, shape_of(v)) for k, v in module.state_dict(keep_vars=True).items()]
    return (repr(module), tuple(tensors))


def sibling_groups(module) -> list[tuple[list[str], object]]:
    """Children, with consecutive identical ones grouped. / 子模块，相邻且相同的归为一组。

    === "中文"

        只合并编号相连的子模块（`Sequential`、`ModuleList` 里的 `0`、`1`……），与 torch 的
        `ModuleList.__repr__` 一样；`norm1`、`norm2` 这样有名字的子模块即使相同也分开画。

    === "English"

        Only children with consecutive numbers (the `0`, `1`, … of a `Sequential` or
        `ModuleList`) are merged, as torch's `ModuleList.__repr__` does; named children such as
        `norm1` and `norm2` are drawn apart even when identical.
    """
    groups: list[tuple[list[str], object]] = []
    for child_name, child in module._modules.items():
        if child is None:
            continue
        previous = groups[-1][0][-1] if groups else ""
        numbered = previous.isdigit() and child_name == str(int(previous) + 1)
        if numbered and signature(groups[-1][1]) == signature(child):
            groups[-1][0].append(child_name)
        else:
            groups.append(([child_name], child))
    return groups


def wrap_names(names: list[str], per_line: int = 3) -> str:
    """Names, a few per line. / 名字列表，每行几个。"""
    return "\\l".join(
        rec(", ".join(names[i : i + per_line])) for i in range(0, len(names), per_line)
    )


def model_tree_dot(
    name: str,
    model,
    root: str = "",
    fold: int | None = None,
    rankdir: str = "TB",
) -> str:
    """DOT of one model's module tree, or of one subtree. / 一个模型（或其一棵子树）的模块树 DOT。

    === "中文"

        每个节点是 `named_modules()` 的一项：限定名、类名、模块**自己**的参数与缓冲区的形状。
        为了在书页宽度内读得清：

        - 相邻且相同（见 `signature`）的兄弟模块只画一个，名字写成 `layer1.(0–1)`，类写成
          `2 × BasicBlock`，与 torch 的 `repr` 写 `(0-1): 2 x BasicBlock` 一样；
        - `fold` 给定时，这一深度上有子模块的模块折叠成一个节点，节点里列出子模块的名字；
        - 同一父节点下的大量叶子错开排（`stagger`）。

        `root` 给定时只画这棵子树，限定名仍从整个模型算起。

    === "English"

        Each node is one item of `named_modules()`: qualified name, class, and the shapes of the
        parameters and buffers the module *itself* owns. To be readable within the page:

        - consecutive identical siblings (see `signature`) are drawn once, named `layer1.(0–1)`
          with class `2 × BasicBlock`, as torch's `repr` writes `(0-1): 2 x BasicBlock`;
        - with `fold`, modules at that depth that have children are folded into one node listing
          their children's names;
        - many leaves under one parent are staggered (`stagger`).

        With `root`, only that subtree is drawn; qualified names still count from the whole model.
    """
    top = model.get_submodule(root) if root else model
    suffix = f"-{root}" if root else ""
    what = f"{name}.{root} — 子树 / subtree" if root else f"{name} — 模块树 / module tree"
    out = [f"digraph {q('model-' + name + suffix)} {{\n", GRAPH_ATTRS]
    out.append(
        f"  graph [rankdir={rankdir}, ordering=out, ranksep=0.3, nodesep=0.15, label={q(what)}, labelloc=t];\n"
    )
    out.append('  node [shape=record, style="rounded,filled", fillcolor="#eef1fb"];\n')
    out.append('  edge [arrowsize=0.6, color="#5c6bc0"];\n')
    # 中: record 标签的外层花括号会翻转排列方向：TB 里要花括号才能让字段上下叠放，LR 里正相反。
    # EN: Outer braces flip a record's orientation: in TB they stack the fields vertically, in LR
    # EN: the fields stack without them.
    wrap = (lambda s: "{" + s + "}") if rankdir == "TB" else (lambda s: s)
    edges: list[tuple[str, str]] = []
    leaves: set[str] = set()

    def draw(label_name: str, module, copies: int, depth: int) -> str:
        node = label_name or "(root)"
        cls = type(module).__name__
        fields = [rec(node), rec(cls if copies == 1 else f"{copies} × {cls}")]
        own = own_tensor_lines(module)
        if own:
            fields.append("\\l".join(rec(x) for x in own) + "\\l")
        groups = sibling_groups(module)
        folded = fold is not None and depth >= fold and groups
        if folded:
            names = [n for names, _ in groups for n in names]
            fields.append(rec("submodules:") + "\\l" + wrap_names(names) + "\\l")
        out.append(f'  {q(node)} [label="{wrap("|".join(fields))}"];\n')
        if folded or not groups:
            leaves.add(node)
            return node
        for names, child in groups:
            part = names[0] if len(names) == 1 else f"({names[0]}–{names[-1]})"
            child_name = f"{label_name}.{part}" if label_name else part
            edges.append((node, draw(child_name, child, len(names), depth + 1)))
        return node

    draw(root, top, 1, 0)
    minlen = stagger(edges, leaves)
    for parent, child in edges:
        extra = f" [minlen={minlen[(parent, child)]}]" if (parent, child) in minlen else ""
        out.append(f"  {q(parent)} -> {q(child)}{extra};\n")
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
    # 中: 包装 BackwardHook 的两个设置方法，让追踪记录显示它们在哪一步运行。
    # EN: Wrap BackwardHook's set-up methods so that the trace shows where they run.
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
        '  graph [rankdir=TB, ranksep=0.25, label="Module.__call__ — 实际运行顺序 / traced order", labelloc=t];\n'
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

# 中: （英文问题, 中文问题），顺序就是 Module.__setattr__ 提问的顺序；叶子上的文字是探测实际观察到的结果。
# EN: (question in English, in Chinese), in the order Module.__setattr__ asks them; the leaf text
# EN: is what the probe observed.
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
    """DOT of the ``__setattr__`` decision tree. / ``__setattr__`` 决策树的 DOT。

    === "中文"

        自上而下：左边一列是 `__setattr__` 依次提出的六个问题，“否”向下走到下一个问题；
        “是”向右下走到探测结果（绿色是落到了哪里，红色是抛出的异常）。最下面是普通属性的路径。

    === "English"

        Top to bottom: the left column holds the six questions `__setattr__` asks in turn, "no"
        going down to the next question; "yes" goes down to the right to the probes' outcomes
        (green: where the value landed; red: the exception raised). At the bottom, the path of a
        plain attribute.
    """
    results = probe_setattr(nn)
    out = ['digraph "setattr-routing" {\n', GRAPH_ATTRS]
    out.append(
        '  graph [rankdir=TB, ordering=out, ranksep=0.3, nodesep=0.15, label="Module.__setattr__(name, value) — 实测路由 / probed routing", labelloc=t];\n'
    )
    out.append(
        '  node [shape=box, style="rounded,filled", fillcolor="#eef1fb", margin="0.08,0.03"];\n'
    )
    # 中: 问题链的节点同属一个 group、边的权重大，Graphviz 因此把它们排成笔直的一列，结果都落在右边。
    # EN: The questions share one group and heavy edges, so Graphviz keeps them in one straight
    # EN: column and puts the outcomes to the right.
    out.append(
        '  "start" [label="m.name = value", shape=oval, fillcolor="#dfe6ff", group=spine];\n'
    )
    previous = "start"
    for index, (en, zh) in enumerate(SETATTR_DECISIONS):
        node = f"d{index}"
        out.append(
            f'  {q(node)} [label={q(zh + chr(10) + en)}, shape=diamond, fillcolor="#fff8e1", group=spine, margin="0.02,0.02"];\n'
        )
        edge = ", label=" + q("no / 否") if index else ""
        out.append(f"  {q(previous)} -> {q(node)} [weight=10{edge}];\n")
        previous = node
    out.append(
        '  "d6" [label="object.__setattr__\\n(普通属性 / plain attribute)", fillcolor="#f7f7f7", group=spine];\n'
    )
    out.append(f'  {q(previous)} -> "d6" [weight=10, label="no / 否"];\n')
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


def live_optimizer(nn, optim):
    """An SGD over a two-layer model, two groups, after one step. / 两层模型上的 SGD：两个参数组，已走过一步。"""
    import torch

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    optimizer = optim.SGD(
        [
            {"params": model[0].parameters()},
            {"params": model[2].parameters(), "lr": 0.01},
        ],
        lr=0.1,
        momentum=0.9,
    )
    model(torch.ones(4, 3)).sum().backward()
    optimizer.step()
    return model, optimizer


def optimizer_state_dot(nn, optim) -> str:
    """DOT of a live optimizer beside its `state_dict()`: tensors become integers. / 运行中的优化器与它的 `state_dict()` 并排：张量变成整数。

    === "中文"

        左边是优化器对象本身：`param_groups` 的每个组（超参数与 `params` 列表里的张量，按
        `named_parameters()` 的名字标出）和以张量为键的 `state`；右边是 `state_dict()` 的结果：
        同样的超参数，但 `params` 与 `state` 的键都换成了整数。虚线把每个张量连到它的整数，
        整数取自 `state_dict()` 本身，不是按规则推算的。

    === "English"

        On the left, the optimizer object itself: each group of `param_groups` (hyperparameters
        and the tensors in its `params` list, labeled by their `named_parameters()` names) and
        `state`, keyed by tensors; on the right, the result of `state_dict()`: the same
        hyperparameters, but `params` and `state`'s keys replaced by integers. Dashed edges tie
        each tensor to its integer; the integers are read from `state_dict()` itself, not
        derived by rule.
    """
    model, optimizer = live_optimizer(nn, optim)
    name_of = {id(p): name for name, p in model.named_parameters()}
    packed = optimizer.state_dict()
    shown = ("lr", "momentum", "weight_decay")
    out = ['digraph "optimizer-state-dict" {\n', GRAPH_ATTRS]
    out.append("  graph [rankdir=LR, nodesep=0.15, ranksep=0.9];\n")
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb"];\n')

    # 中: 左：优化器对象。每个张量一个节点，state 里的条目列在它下面。
    # EN: Left: the optimizer object. One node per tensor, its state entries listed under it.
    out.append(
        '  subgraph cluster_live {\n    label="优化器对象 / the optimizer object"; style=dashed;\n'
    )
    for g, group in enumerate(optimizer.param_groups):
        options = "\\l".join(f"{k}: {group[k]}" for k in shown) + "\\l"
        out.append(
            f'    "group{g}" [label="param_groups[{g}]\\l{options}", fillcolor="#dfe6ff"];\n'
        )
        for p in group["params"]:
            entries = ", ".join(sorted(optimizer.state[p])) or "—"
            label = f"{name_of[id(p)]}  {shape_of(p)}\nstate: {entries}"
            out.append(f"    {q('t_' + name_of[id(p)])} [label={q(label)}];\n")
            out.append(f'    "group{g}" -> {q("t_" + name_of[id(p)])} [label="params"];\n')
    out.append("  }\n")

    # 中: 右：state_dict()。参数组与 state 都只剩整数。
    # EN: Right: state_dict(). Groups and state hold only integers now.
    out.append('  subgraph cluster_packed {\n    label="optimizer.state_dict()"; style=dashed;\n')
    for g, group in enumerate(packed["param_groups"]):
        options = "\\l".join(f"{k}: {group[k]}" for k in shown)
        label = f"param_groups[{g}]\\l{options}\\lparams: {group['params']}\\l"
        out.append(f'    "packed{g}" [label="{label}", fillcolor="#e8f5e9"];\n')
    for index, entry in packed["state"].items():
        label = f"state[{index}]\n" + ", ".join(sorted(entry))
        out.append(f'    "s{index}" [label={q(label)}, fillcolor="#e8f5e9"];\n')
    for g, group in enumerate(packed["param_groups"]):
        for index in group["params"]:
            out.append(f'    "packed{g}" -> "s{index}" [color="#9aa5b1", arrowsize=0.5];\n')
    out.append("  }\n")

    # 中: 虚线：每个张量 → 它在 state_dict 里的整数（按组内位置读出）。
    # EN: Dashed: each tensor → its integer in the state_dict (read position by position).
    for group, packed_group in zip(optimizer.param_groups, packed["param_groups"]):
        for p, index in zip(group["params"], packed_group["params"]):
            out.append(
                f'  {q("t_" + name_of[id(p)])} -> "s{index}" [style=dashed, label="{index}"];\n'
            )
    out.append("}\n")
    return "".join(out)


def parametrized_linear(nn):
    """A Linear(3, 3) before and after a symmetric parametrization of its weight. / 一个 Linear(3, 3)：权重注册对称参数化之前与之后。"""
    import torch

    from annotated_nn.utils import parametrize

    class Symmetric(nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(0, 1)

    torch.manual_seed(0)
    before = nn.Linear(3, 3)
    after = nn.Linear(3, 3)
    parametrize.register_parametrization(after, "weight", Symmetric())
    return before, after


def parametrize_dot(nn) -> str:
    """DOT of the class swap done by `register_parametrization`, read from live objects. / `register_parametrization` 所做的类替换，从运行中的对象读出。

    === "中文"

        左边是注册前的 `Linear` 实例：类的 MRO，`_parameters` 里的 `weight` 与 `bias`。右边是
        注册之后的同一种对象：它的类换成了生成的子类（MRO 多了一层），这个子类的类字典里有一个
        `weight` 特性（property）；实例的 `_parameters` 里只剩 `bias`，原来的权重变成了
        `parametrizations.weight.original`，读 `m.weight` 时经过特性调用参数化模块。所有名字、
        形状与类都从对象上读出。

    === "English"

        Left, a `Linear` instance before registration: its class's MRO, `weight` and `bias` in
        `_parameters`. Right, the same kind of object after it: its class is now a generated
        subclass (one more level in the MRO) whose class dict holds a `weight` property; the
        instance's `_parameters` keeps only `bias`, the old weight is now
        `parametrizations.weight.original`, and reading `m.weight` goes through the property to
        the parametrization module. Every name, shape and class is read from the objects.
    """
    before, after = parametrized_linear(nn)
    out = ['digraph "parametrize-class-swap" {\n', GRAPH_ATTRS]
    out.append("  graph [rankdir=TB, nodesep=0.25, ranksep=0.35];\n")
    out.append('  node [shape=box, style="rounded,filled", fillcolor="#eef1fb"];\n')

    def mro_nodes(prefix, obj):
        # 中: 类的 MRO 自上而下画成一条链（object 不画）。
        # EN: The class's MRO drawn top down as a chain (object left out).
        chain = [c for c in type(obj).__mro__ if c is not object]
        for i, cls in enumerate(chain):
            kind = "生成的子类 / generated subclass" if i == 0 and prefix == "a" else "class"
            # 中: torch 的基类（我们的 Module 继承 torch.nn.Module）写出全名，免得与我们的 Module 同名难辨。
            # EN: torch's base class (our Module subclasses torch.nn.Module) gets its full name, so
            # EN: it is not mistaken for our Module of the same name.
            name = (
                cls.__name__
                if cls.__module__.startswith("annotated_")
                else f"{cls.__module__.split('.')[0]}.nn.{cls.__name__}"
            )
            label = f"{name}\n({kind})"
            fill = "#fff3d6" if kind != "class" else "#dfe6ff"
            out.append(f'    "{prefix}_cls{i}" [label={q(label)}, fillcolor="{fill}"];\n')
            if i:
                out.append(f'    "{prefix}_cls{i - 1}" -> "{prefix}_cls{i}" [label="base"];\n')
        return chain

    out.append('  subgraph cluster_before {\n    label="注册之前 / before"; style=dashed;\n')
    mro_nodes("b", before)
    params = "\\l".join(f"  {n}: {shape_of(p)}" for n, p in before._parameters.items()) + "\\l"
    out.append(f'    "b_inst" [label="m\\l_parameters:\\l{params}", fillcolor="#e8f5e9"];\n')
    out.append('    "b_cls0" -> "b_inst" [style=dotted, label="实例 / instance"];\n  }\n')

    out.append(
        '  subgraph cluster_after {\n    label="注册之后 / after registration"; style=dashed;\n'
    )
    chain = mro_nodes("a", after)
    prop = vars(chain[0]).get("weight")
    prop_label = f"{chain[0].__name__}.weight\n({type(prop).__name__})"
    out.append(f'    "a_prop" [label={q(prop_label)}, shape=note, fillcolor="#fff3d6"];\n')
    out.append('    "a_cls0" -> "a_prop" [label="class dict"];\n')
    params = "\\l".join(f"  {n}: {shape_of(p)}" for n, p in after._parameters.items()) + "\\l"
    out.append(f'    "a_inst" [label="m\\l_parameters:\\l{params}", fillcolor="#e8f5e9"];\n')
    out.append('    "a_cls0" -> "a_inst" [style=dotted, label="实例 / instance"];\n')
    plist = after.parametrizations.weight
    out.append(
        f'    "a_dict" [label="parametrizations\\n{type(after.parametrizations).__name__}"];\n'
    )
    out.append(f'    "a_list" [label="weight\\n{type(plist).__name__}"];\n')
    original = f"original\n{type(plist.original).__name__} {shape_of(plist.original)}"
    out.append(f'    "a_orig" [label={q(original)}, fillcolor="#e8f5e9"];\n')
    for i, parametrization in enumerate(plist):
        out.append(f'    "a_p{i}" [label="[{i}] {type(parametrization).__name__}"];\n')
        out.append(f'    "a_list" -> "a_p{i}";\n')
    out.append('    "a_inst" -> "a_dict" [label="_modules"];\n')
    out.append('    "a_dict" -> "a_list";\n    "a_list" -> "a_orig";\n')
    out.append(
        '    "a_prop" -> "a_list" [color="#3f51b5", fontcolor="#3f51b5", '
        'label="m.weight 读取时调用 / reading m.weight calls"];\n'
    )
    out.append("  }\n}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# DistributedDataParallel: buckets and a traced step / DistributedDataParallel：桶与追踪到的一步
# ---------------------------------------------------------------------------------------------


def html(text: str) -> str:
    """Escape text for a DOT HTML-like label. / 转义 DOT 类 HTML 标签中的文字。"""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def bucket_label(bucket, fill: str) -> str:
    """A bucket as an HTML-like table: index, one port per parameter, flat size. / 一个桶画成类 HTML 表格：桶号、每个参数一个端口、扁平张量的大小。

    === "中文"

        用类 HTML 表格而不用 record：同一层里的节点之间要画不可见的边来固定上下次序，
        Graphviz 不允许 record 节点之间有这样的边。表格里的文字只有标识符与数字，不分语言。

    === "English"

        An HTML-like table rather than a record: invisible edges between nodes of one rank fix
        their top-to-bottom order, and Graphviz allows no such edge between record nodes. The
        table holds only identifiers and numbers, the same in both languages.
    """
    rows = [f"<TR><TD>{html(f'bucket.index() = {bucket.index}')}</TD></TR>"]
    for position, (name, shape) in enumerate(bucket.params):
        dims = "(" + ", ".join(str(d) for d in shape) + ")"
        rows.append(f'<TR><TD PORT="p{position}" ALIGN="LEFT">{html(f"{name}  {dims}")}</TD></TR>')
    size = f"{bucket.numel} × {bucket.dtype} = {bucket.nbytes} B"
    rows.append(f"<TR><TD>{html(size)}</TD></TR>")
    return (
        f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" '
        f'BGCOLOR="{fill}">' + "".join(rows) + "</TABLE>>"
    )


def ddp_buckets_dot() -> str:
    """DOT of the Reducer's buckets at construction and after the rebuild. / Reducer 构造时与重建后的桶的 DOT。

    === "中文"

        数据来自 `ddp_trace.live_buckets()`：一个活的 DDP 对象（单进程 gloo 组）。左边是构造时
        的桶：`find_unused_parameters` 为默认的 False、又没有逐桶上限时，构造时只有一个无限大的
        桶，参数按注册顺序排；右边是第一轮之后 Reducer 按梯度就绪的顺序、以 `bucket_bytes_cap`
        为上限重建的桶（用户给了 `bucket_cap_mb`，第一个桶的上限也是它）。每个参数一条虚线，
        从它在旧桶里的位置连到新桶里的位置。桶号、参数、形状与大小都从 `GradBucket` 读出。

    === "English"

        The data come from `ddp_trace.live_buckets()`: a live DDP object (one-process gloo
        group). On the left, the buckets of construction: with `find_unused_parameters` at its
        default False and no per-bucket caps, construction makes one unbounded bucket with the
        parameters in registration order; on the right, the buckets the Reducer rebuilt after
        the first iteration, in the order gradients became ready and capped by
        `bucket_bytes_cap` (with a user-given `bucket_cap_mb`, the first bucket's cap is that
        too). One dashed edge per parameter joins its place in the old bucket to its place in
        the new one. Indices, parameters, shapes and sizes are read from `GradBucket`.
    """
    import ddp_trace

    data = ddp_trace.live_buckets()
    out = ['digraph "ddp-buckets" {\n', GRAPH_ATTRS]
    title = f"{ddp_trace.MODEL} — DDP 的梯度桶 / DDP's gradient buckets"
    out.append(f"  graph [rankdir=LR, ranksep=0.9, nodesep=0.2, label={q(title)}, labelloc=t];\n")
    out.append("  node [shape=plain];\n")
    out.append('  edge [arrowsize=0.6, color="#9aa5b1", style=dashed];\n')
    count = len(data["initial"])
    plural = "" if count == 1 else "s"
    columns = [
        (
            "initial",
            f"构造时：{count} 个桶，参数按注册顺序\nat construction: {count} bucket{plural}, "
            "registration order",
            "#eef1fb",
        ),
        (
            "rebuilt",
            "第一轮之后按梯度就绪顺序重建\nrebuilt after the first iteration, in gradient-ready "
            f"order\nbucket_bytes_cap = {data['cap_bytes']} B",
            "#e8f5e9",
        ),
    ]
    where: dict[str, list[str]] = {}
    for column, heading, fill in columns:
        out.append(f"  {q(column)} [label={q(heading)}, shape=plaintext];\n")
        nodes = [column]
        for bucket in data[column]:
            node = f"{column}{bucket.index}"
            nodes.append(node)
            out.append(f"  {q(node)} [label={bucket_label(bucket, fill)}];\n")
            for position, (name, _shape) in enumerate(bucket.params):
                where.setdefault(name, []).append(f"{q(node)}:p{position}")
        # 中: 每一列是同一层：标题在上，桶按桶号自上而下；层内的不可见边固定这个次序
        # 中: （放在簇里时 Graphviz 不理会它们，所以这里不用簇）。
        # EN: Each column is one rank: the heading on top, then the buckets by index, top to
        # EN: bottom; invisible edges within the rank fix that order (Graphviz ignores them
        # EN: inside a cluster, hence no clusters here).
        chain = " -> ".join(q(n) for n in nodes)
        out.append(f"  {{rank=same; {chain} [style=invis];}}\n")
    for name, (old, new) in where.items():
        out.append(f"  {old} -> {new};\n")
    out.append("}\n")
    return "".join(out)


def ddp_timeline_dot() -> str:
    """DOT of one DDP training step on two processes, event by event. / 两个进程上 DDP 一步训练的逐个事件的 DOT。

    === "中文"

        数据来自 `ddp_trace.traced_run()`：一次真实的两进程 gloo 运行，取重建桶之后的那一步。
        每个 rank 一行，从左往右是它记下的事件，按发生的先后：梯度就绪（绿色，参数名）、
        Reducer 发出一个桶的 all-reduce（橙色）、`backward()` 返回、`optimizer.step()`。
        同一列是两个 rank 上的第几个事件，不是同一时刻。两行之间每个桶一条橙色横条：起点是
        两个 rank 发出该桶的那一列里的一个圆点（两个发出节点都连到它），虚线一直延伸到
        `backward()` 返回的那一列：这段时间里通信可能还在进行，而右边还有梯度在计算，
        这就是重叠。完成的时刻每次运行都不同，
        所以不画；只画出所有桶都在 `backward()` 返回之前完成（每次运行都成立）。

    === "English"

        The data come from `ddp_trace.traced_run()`: a real two-process gloo run, the step
        after the buckets were rebuilt. One row per rank, its recorded events left to right in
        the order they happened: a gradient becoming ready (green, the parameter's name), the
        Reducer launching a bucket's all-reduce (orange), `backward()` returning,
        `optimizer.step()`. A column is the n-th event on both ranks, not one moment in time.
        Between the rows, one orange bar per bucket: it starts at a dot in the column where
        both ranks launch the bucket (both launch nodes connect to the dot) and runs dashed to
        the column where `backward()` returns: all that time the communication may still be
        under way while, to the right, gradients are still being computed; that is the
        overlap. The moment of completion differs between runs
        and is not drawn; only that every bucket completes before `backward()` returns (true
        on every run).
    """
    import ddp_trace

    runs = ddp_trace.traced_run()
    rows = [ddp_trace.drawn_events(run["steps"]) for run in runs]
    out = ['digraph "ddp-timeline" {\n', GRAPH_ATTRS]
    title = (
        f"{ddp_trace.MODEL} — DDP 重建桶之后的一步，{len(rows)} 个进程 / "
        f"one DDP step after the rebuild, {len(rows)} processes\n"
        "从左往右是事件的先后。绿色：该参数的梯度就绪；橙色：发出该桶的 all-reduce\n"
        "Left to right: the order of events. Green: the parameter's gradient is ready; orange: "
        "the bucket's all-reduce is launched\n"
        "虚线：all-reduce 进行中，在 backward() 返回之前完成\n"
        "Dashed: the all-reduce in flight, complete before backward() returns"
    )
    out.append(f"  graph [rankdir=LR, ranksep=0.1, nodesep=0.18, label={q(title)}, labelloc=t];\n")
    out.append(
        '  node [shape=box, style="rounded,filled", fillcolor="#eef1fb", height=0.3, '
        'margin="0.04,0.03"];\n'
    )
    out.append('  edge [arrowsize=0.5, color="#5c6bc0"];\n')
    fills = {"ready": "#e8f5e9", "launch": "#fff3d6", "backward returned": "#dfe6ff"}
    # 中: 每列自上而下的节点：rank 0 的事件，各桶的 all-reduce 横条，最后一个 rank 的事件。
    # EN: Each column's nodes, top to bottom: rank 0's event, the buckets' all-reduce bars, the
    # EN: last rank's event.
    columns: dict[int, dict[str, str]] = {}
    launches: dict[int, dict[int, int]] = {}
    returns: dict[int, int] = {}
    joined: set[tuple[str, str]] = set()
    for rank, events in enumerate(rows):
        header = f"rank{rank}"
        out.append(f'  {q(header)} [label="rank {rank}", shape=plaintext, style=""];\n')
        columns.setdefault(-1, {})[f"rank{rank}"] = header
        previous = header
        for column, event in enumerate(events):
            node = f"r{rank}e{column}"
            kind = event[0]
            if kind == "ready":
                label = event[1]
            elif kind == "launch":
                label = f"all-reduce\n桶 {event[1]} / bucket {event[1]}"
                launches.setdefault(event[1], {})[rank] = column
            elif kind == "backward returned":
                label = "backward()\n返回 / returns"
                returns[rank] = column
            else:
                label = "optimizer\n.step()"
            fill = fills.get(kind, "#eef1fb")
            out.append(f"  {q(node)} [label={q(label)}, fillcolor={q(fill)}];\n")
            out.append(f"  {q(previous)} -> {q(node)} [weight=20];\n")
            columns.setdefault(column, {})[f"rank{rank}"] = node
            previous = node
    # 中: 每个桶一条横条：从两个 rank 发出它的那一列，到 backward() 返回的那一列；横条由每列
    # 中: 一个看不见的点连成，所以笔直。两个 rank 必须在同一列发出、在同一列返回，否则无从画起。
    # EN: One bar per bucket: from the column where both ranks launch it to the column where
    # EN: backward() returns; the bar joins one invisible point per column, so it stays
    # EN: straight. Both ranks must launch it in the same column and return in the same column,
    # EN: or there is nothing sensible to draw.
    end = returns[0]
    if set(returns.values()) != {end}:
        raise ValueError(f"the ranks' backward() returns in different places: {returns}")
    for bucket, places in sorted(launches.items()):
        start = places[0]
        if set(places.values()) != {start} or len(places) != len(rows):
            raise ValueError(f"bucket {bucket} is launched in different places: {places}")
        bar = f"bar{bucket}"
        previous = None
        for column in range(start, end + 1):
            node = f"{bar}c{column}"
            if column == start:
                out.append(
                    f'  {q(node)} [label="", shape=circle, width=0.08, height=0.08, '
                    'style=filled, fillcolor="#ef6c00", color="#ef6c00"];\n'
                )
            else:
                out.append(f'  {q(node)} [label="", shape=point, width=0.01, style=invis];\n')
                attrs = 'color="#ef6c00", style=dashed, weight=20'
                attrs += ", arrowhead=normal" if column == end else ", arrowhead=none"
                out.append(f"  {q(previous)} -> {q(node)} [{attrs}];\n")
            columns[column][bar] = node
            previous = node
        top, *below = [columns[start][f"rank{rank}"] for rank in range(len(rows))]
        dot = columns[start][bar]
        out.append(f'  {q(top)} -> {q(dot)} [color="#ef6c00"];\n')
        joined.add((top, dot))
        for node in below:
            out.append(f'  {q(dot)} -> {q(node)} [color="#ef6c00", dir=back];\n')
            joined.add((dot, node))
    # 中: 每列自上而下排好：同一层里的不可见边固定次序。已经有可见连线的一对节点不再加
    # 中: 不可见边（Graphviz 2.43 对同一对节点之间的两条同层边会出错）。
    # EN: Each column in order, top to bottom: invisible edges within the rank fix it. A pair
    # EN: already joined by a visible edge gets no invisible one (Graphviz 2.43 goes wrong on
    # EN: two same-rank edges between one pair).
    keys = ["rank0"] + [f"bar{b}" for b in sorted(launches)]
    keys += [f"rank{r}" for r in range(1, len(rows))]
    for column, nodes in sorted(columns.items()):
        present = [nodes[key] for key in keys if key in nodes]
        links = [f"{q(a)} -> {q(b)}" for a, b in zip(present, present[1:]) if (a, b) not in joined]
        members = "; ".join(q(n) for n in present)
        invisible = "".join(f" {link} [style=invis];" for link in links)
        out.append(f"  {{rank=same; {members};{invisible}}}\n")
    out.append("}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# All diagrams / 全部图
# ---------------------------------------------------------------------------------------------


def generate_all() -> "OrderedDict[str, str]":
    """Name → DOT source for every diagram that the code can draw now. / 当前代码能画出的每张图：名字 → DOT。

    === "中文"

        顺序即图页上的顺序：层家族总览、每个层页一张家族继承图、参考模型的模块树（及其子树）、
        `__call__` 的流程、`__setattr__` 的路由、`state_dict` 的前缀、优化器的 `state_dict`、
        参数化的类替换、DDP 的桶与一步训练的时间线。

    === "English"

        The order is the diagrams page's: the overview of the layer families, one family
        hierarchy per layer page, the reference models' module trees (and subtrees), the
        `__call__` flow, the `__setattr__` routing, the `state_dict` prefixes, the optimizer's
        `state_dict`, the parametrization class swap, DDP's buckets and the timeline of one step.
    """
    import annotated_nn

    dots: OrderedDict[str, str] = OrderedDict()
    dots["layer-families"] = overview_dot()
    for slug, _files in LAYER_FAMILIES:
        if family_members(slug):
            dots[f"family-{slug}"] = family_dot(slug)
    how = {name: options for name, _builder, options in REFERENCE_MODELS}
    for name, model in reference_models().items():
        options = how.get(name, {})
        drawing = {k: v for k, v in options.items() if k in ("fold", "rankdir")}
        dots[f"model-{name}"] = model_tree_dot(name, model, **drawing)
        for root in options.get("details", []):
            dots[f"model-{name}-{root}"] = model_tree_dot(name, model, root=root, rankdir="LR")
    dots["call-flow"] = call_flow_dot(annotated_nn)
    dots["setattr-routing"] = setattr_dot(annotated_nn)
    if all(
        hasattr(annotated_nn, n)
        for n in ("Sequential", "ModuleDict", "Linear", "BatchNorm1d", "ReLU")
    ):
        dots["state-dict-prefixes"] = state_dict_dot(annotated_nn)
    import annotated_optim

    dots["optimizer-state-dict"] = optimizer_state_dot(annotated_nn, annotated_optim)
    dots["parametrize-class-swap"] = parametrize_dot(annotated_nn)
    dots["ddp-buckets"] = ddp_buckets_dot()
    dots["ddp-timeline"] = ddp_timeline_dot()
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
    # 中: 去掉 XML 声明与注释（其中有 Graphviz 的版本号），SVG 才能内嵌，输出也不随版本变化。
    # EN: Drop the XML prolog and comments (they hold the Graphviz version) so the SVG can be inlined.
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
