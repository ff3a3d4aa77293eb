"""The book's generated pages, computed from the code. / 由代码计算出的书中生成页。

Run in a fresh process by the mkdocs hook (tools/book/hooks.py) at every build, so that a page
always shows the code as it is now (``mkdocs serve`` would otherwise keep stale imports)::

    python tools/book/generated.py        # prints {"generated/…": "content", …} as JSON

Pages (all under ``generated/``):

- ``module-49.md``: the 49 methods of PyTorch 1.5.1's ``Module`` and what changed by 2.13, then
  the names added since;
- ``api-parity.md``: every public name of torch.nn in scope and whether annotated_nn has it, with
  the same signature;
- ``divergences.md``: every ``DIFF(torch 2.13)`` marker in the code;
- ``annotation-coverage.md``: bilingual docstrings and comment pairs per file and per function;
- ``diagrams.md`` and ``diagrams/*.svg``: the diagrams of diagrams/generate.py, laid out by
  Graphviz.
"""

from __future__ import annotations

import ast
import html
import importlib
import inspect
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "annotated_src"
PKG = SRC / "annotated_nn"
# The packages whose source the book covers (DIFF markers, coverage, comment counts).
PACKAGES = (PKG, SRC / "annotated_optim")


def package_files() -> list[Path]:
    """Every ``.py`` file of the covered packages, sorted. / 所覆盖各包的全部 ``.py`` 文件（排序）。"""
    return sorted(path for package in PACKAGES for path in package.rglob("*.py"))


for extra in (str(SRC), str(ROOT)):
    if extra not in sys.path:
        sys.path.insert(0, extra)

CJK = re.compile(r"[\u4e00-\u9fff]")

# The 49 functions of PyTorch 1.5.1's Module class body, in source order (see READERS.md).
METHODS_1_5_1 = """__init__ forward register_buffer register_parameter add_module _apply apply cuda cpu
type float double half bfloat16 to register_backward_hook register_forward_pre_hook
register_forward_hook _slow_forward __call__ __setstate__ __getattr__ __setattr__ __delattr__
_register_state_dict_hook _save_to_state_dict state_dict _register_load_state_dict_pre_hook
_load_from_state_dict load_state_dict _named_members parameters named_parameters buffers
named_buffers children named_children modules named_modules train eval requires_grad_ zero_grad
share_memory _get_name extra_repr __repr__ __dir__ _replicate_for_data_parallel""".split()
assert len(METHODS_1_5_1) == 49

# Groups of the 49, as the 1.5.1 walk-through sorts them. / 49 个方法的分组。
GROUPS = [
    (
        "构造与注册 / Construction and registration",
        "__init__ forward register_buffer register_parameter add_module",
    ),
    ("_apply 家族 / The _apply family", "_apply apply cuda cpu type float double half bfloat16 to"),
    (
        "钩子注册 / Hook registration",
        "register_backward_hook register_forward_pre_hook register_forward_hook",
    ),
    ("调用 / Calling", "_slow_forward __call__"),
    ("属性三件套 / Attribute trio", "__setstate__ __getattr__ __setattr__ __delattr__"),
    (
        "状态字典 / state_dict",
        "_register_state_dict_hook _save_to_state_dict state_dict _register_load_state_dict_pre_hook _load_from_state_dict load_state_dict",
    ),
    (
        "遍历 / Iteration",
        "_named_members parameters named_parameters buffers named_buffers children named_children modules named_modules",
    ),
    ("模式与梯度 / Modes and gradients", "train eval requires_grad_ zero_grad share_memory"),
    (
        "repr 与 dir / repr and dir",
        "_get_name extra_repr __repr__ __dir__ _replicate_for_data_parallel",
    ),
]

MODULE_PATH = "annotated_nn.modules.module.Module"


def both(zh: str, en: str, tag: str = "span") -> str:
    """HTML showing ``zh`` or ``en`` per the reader's language. / 按读者所选语言显示 ``zh`` 或 ``en`` 的 HTML。"""
    return f'<{tag} class="book-zh">{zh}</{tag}><{tag} class="book-en">{en}</{tag}>'


def literal(text: str) -> str:
    """Escape text so that Markdown leaves it alone inside raw HTML. / 转义文本，使 Markdown 不再处理它（如 ``__init__`` 的下划线）。"""
    out = html.escape(text).replace("_", "&#95;").replace("*", "&#42;").replace("`", "&#96;")
    return out.replace("|", "&#124;").replace("[", "&#91;")


def code(text: str) -> str:
    """``<code>`` HTML for an identifier or a path. / 标识符或路径的 ``<code>`` HTML。"""
    return f"<code>{literal(text)}</code>"


def ref(identifier: str, text: str | None = None) -> str:
    """An optional autorefs link (plain code when the target is not rendered). / 可选的 autorefs 链接（目标未渲染时为纯代码）。"""
    return f'<autoref identifier="{identifier}" optional>{code(text or identifier.rsplit(".", 1)[-1])}</autoref>'


def cell(text: str) -> str:
    """Text for a table cell, with its `code` spans as HTML. / 表格单元格文本，其中的 `代码` 转成 HTML。

    Everything is escaped so that Markdown does not read ``__init__`` as bold inside the raw
    HTML of the cell.
    """
    parts = re.split(r"`([^`]+)`", " ".join(text.split()))
    out = [code(p) if i % 2 else literal(p) for i, p in enumerate(parts)]
    return "".join(out).replace("|", "&#124;")


def code_md(text: str) -> str:
    """Kept for callers that already went through ``cell``. / 供已经过 ``cell`` 处理的调用方使用。"""
    return text


def intro(zh: str, en: str) -> str:
    """Two linked content tabs. / 两个联动的内容标签页。"""
    indent = lambda s: "\n".join(("    " + line) if line else "" for line in s.strip().splitlines())
    return f'=== "中文"\n\n{indent(zh)}\n\n=== "English"\n\n{indent(en)}\n\n'


def source_note() -> str:
    """Footer naming the generator. / 页脚：说明本页由哪个生成器生成。"""
    return (
        "\n\n---\n\n"
        + both(
            "本页在每次构建时由 <code>tools/book/generated.py</code> 从代码生成，请勿手工编辑。",
            "This page is generated from the code by <code>tools/book/generated.py</code> at every build; do not edit it by hand.",
        )
        + "\n"
    )


# ---------------------------------------------------------------------------------------------
# Docstring helpers / 文档字符串工具
# ---------------------------------------------------------------------------------------------


def tab_bodies(doc: str) -> dict[str, str]:
    """Bodies of the ``=== "label"`` tabs of a docstring. / 文档字符串中各 ``=== "标签"`` 页的正文。"""
    tabs: dict[str, list[str]] = {}
    current, indent = None, 0
    for line in doc.splitlines():
        m = re.match(r'^(\s*)===\s+"([^"]+)"', line)
        if m:
            current, indent = m.group(2), len(m.group(1))
            tabs.setdefault(current, [])
            continue
        if current is not None:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                current = None
                continue
            tabs[current].append(line.strip())
    return {k: " ".join(x for x in v if x) for k, v in tabs.items()}


def summary(doc: str) -> tuple[str, str]:
    """(English, 中文) halves of the first line ``English. / 中文。``. / 首行 ``English. / 中文。`` 的两半。"""
    first = doc.strip().splitlines()[0].strip() if doc and doc.strip() else ""
    if " / " in first:
        en, zh = first.split(" / ", 1)
        return en.strip(), zh.strip()
    return (first, first)


def change_sentence(text: str) -> str | None:
    """The ``1.5.1 → 2.13: …`` sentence of a tab, if any. / 标签页中的 ``1.5.1 → 2.13: …`` 句子。"""
    m = re.search(r"1\.5\.1\s*(?:→|->)\s*2\.13\s*[:：]\s*", text)
    if not m:
        return None
    rest = text[m.end() :]
    # The sentence ends at "。" or at ". " / "." at the end (not at "e.g." nor inside a.b names).
    end = re.search(r"。|(?<!e\.g)(?<!i\.e)\.(?=\s|$)", rest)
    return rest[: end.end()].strip() if end else rest.strip()


def class_body(path: Path, class_name: str) -> ast.ClassDef | None:
    """The ``ast`` node of a top-level class. / 顶层类的 ``ast`` 节点。"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return node
    return None


def body_names(cls: ast.ClassDef) -> list[tuple[str, ast.AST]]:
    """Names defined in a class body, in source order, first definition kept. / 类体中定义的名字（按源码顺序，同名取第一个）。"""
    seen: dict[str, ast.AST] = {}
    for node in cls.body:
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        for name in names:
            if name not in seen:
                seen[name] = node
            elif (
                isinstance(node, ast.FunctionDef)
                and not _is_overload(node)
                and _is_overload(seen[name])
            ):
                # @overload stubs come first; the implementation carries the docstring.
                seen[name] = node
    return list(seen.items())


def _is_overload(node: ast.AST) -> bool:
    """Whether a def is an ``@overload`` stub. / 该函数是否为 ``@overload`` 存根。"""
    for d in getattr(node, "decorator_list", []):
        name = d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")
        if name == "overload":
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Page: the 49 methods / 页面：49 个方法
# ---------------------------------------------------------------------------------------------


def docstring_of(node: ast.AST, class_names: dict, module_defs: dict) -> str:
    """Docstring of a def, or of the function an alias names. / def 的文档字符串；别名（如 ``forward = _forward_unimplemented``）取其所指函数的。"""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ast.get_docstring(node, clean=True) or ""
    value = getattr(node, "value", None)
    if isinstance(value, ast.Name):
        target = class_names.get(value.id) or module_defs.get(value.id)
        if isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return ast.get_docstring(target, clean=True) or ""
    return ""


def page_module_49() -> str:
    """Markdown of the 49-methods page. / 49 个方法页面的 Markdown。"""
    out = ["# Module 的 49 个方法 / The 49 methods of Module\n\n"]
    out.append(
        intro(
            "PyTorch 1.5.1 的 `Module` 类体中恰好定义了 49 个函数（不算嵌套函数），许多源码阅读文章以它们为地图。"
            "下表按原顺序列出这 49 个方法，每一行链接到本书中渲染它的小节，并给出文档字符串首行的摘要，以及"
            "文档字符串里 `1.5.1 → 2.13` 一句所说的变化（没有这句则为“未变”）。表后列出 1.5.1 之后新增的名字。",
            "PyTorch 1.5.1's `Module` class body defines exactly 49 functions (nested helpers not counted); "
            "many source-reading articles use them as a map. The table lists the 49 in their original order, "
            "each linked to the section of this book that renders it, with the summary line of its docstring "
            'and what changed by 2.13 as the docstring\'s `1.5.1 → 2.13` sentence says ("unchanged" when it '
            "has none). The names added since 1.5.1 follow the table.",
        )
    )
    module_py = PKG / "modules" / "module.py"
    cls = class_body(module_py, "Module") if module_py.exists() else None
    names = dict(body_names(cls)) if cls else {}
    missing = [n for n in METHODS_1_5_1 if n not in names]
    # On a phone each row becomes a card (docs/assets/book.css), so no identifier is cut or hidden.
    out.append('<div class="book-cards" markdown="1">\n\n')
    out.append(
        "| # | "
        + both("方法", "Method")
        + " | "
        + both("摘要", "Summary")
        + " | "
        + both("1.5.1 → 2.13 的变化", "Change 1.5.1 → 2.13")
        + " |\n|---|---|---|---|\n"
    )
    group_of = {m: g for g, ms in GROUPS for m in ms.split()}
    module_defs = (
        {
            n.name: n
            for n in ast.parse(module_py.read_text(encoding="utf-8")).body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        if module_py.exists()
        else {}
    )
    for number, name in enumerate(METHODS_1_5_1, 1):
        node = names.get(name)
        identifier = f"{MODULE_PATH}.{name}"
        if node is None:
            out.append(
                f"| {number} | {code(name)} | "
                + both("（尚未实现）", "(not implemented yet)")
                + " | |\n"
            )
            continue
        doc = docstring_of(node, names, module_defs)
        en, zh = summary(doc)
        tabs = tab_bodies(doc)
        change_zh = change_sentence(tabs.get("中文", ""))
        change_en = change_sentence(tabs.get("English", ""))
        changed = both(
            code_md(cell(change_zh)) if change_zh else "未变",
            code_md(cell(change_en)) if change_en else "unchanged",
        )
        out.append(
            f"| {number} | {ref(identifier, name)}<br><small>{literal(group_of[name])}</small> | "
            f"{both(code_md(cell(zh)), code_md(cell(en)))} | {changed} |\n"
        )
    out.append("\n</div>\n")
    out.append("\n## 1.5.1 之后新增的名字 / Names added since 1.5.1\n\n")
    out.append(
        intro(
            "`Module` 类体中（按源码顺序）不在上述 49 个之列的全部名字：方法、类属性与类型注解。",
            "Every name in `Module`'s class body (in source order) that is not one of the 49: methods, "
            "class attributes and annotations.",
        )
    )
    added = [(n, node) for n, node in names.items() if n not in METHODS_1_5_1]
    out.append('<div class="book-cards" markdown="1">\n\n')
    out.append(
        "| # | "
        + both("名字", "Name")
        + " | "
        + both("种类", "Kind")
        + " | "
        + both("摘要", "Summary")
        + " |\n|---|---|---|---|\n"
    )
    for number, (name, node) in enumerate(added, 1):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kind = both("方法", "method")
            en, zh = summary(ast.get_docstring(node) or "")
            text = both(code_md(cell(zh)), code_md(cell(en)))
            link = ref(f"{MODULE_PATH}.{name}", name)
        else:
            kind = both("类属性", "class attribute")
            text = code(" ".join(ast.unparse(node).split()))
            link = code(name)
        out.append(f"| {number} | {link} | {kind} | {text} |\n")
    out.append("\n</div>\n")
    if missing:
        out.append(
            '\n!!! warning "'
            + "尚未实现 / Not implemented yet"
            + '"\n\n    '
            + ", ".join(f"`{m}`" for m in missing)
            + "\n"
        )
    out.append(source_note())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Page: API parity / 页面：API 对照
# ---------------------------------------------------------------------------------------------


def public_names(module) -> list[str]:
    """Public names a torch module defines itself. / torch 模块自己定义的公开名字。"""
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [
        n
        for n, obj in vars(module).items()
        if not n.startswith("_")
        and (inspect.isclass(obj) or inspect.isfunction(obj))
        and getattr(obj, "__module__", None) == module.__name__
    ]


def signature_key(obj) -> list[tuple[str, str, str]] | None:
    """Comparable signature: names, kinds and defaults (annotations ignored). / 可比较的签名：参数名、种类与默认值（忽略注解）。"""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [
        (p.name, p.kind.name, "" if p.default is inspect.Parameter.empty else repr(p.default))
        for p in sig.parameters.values()
    ]


def signature_text(obj) -> str:
    """Signature without annotations, for display. / 去掉注解、用于显示的签名。"""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "?"
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


def parity_rows():
    """(section, name, torch object, our object or None). / （分组、名字、torch 对象、我们的对象或 None）。"""
    import torch.nn
    import torch.nn.init
    import torch.nn.modules
    import torch.nn.parameter
    import torch.optim
    import torch.optim.lr_scheduler
    import torch.optim.optimizer
    import torch.optim.swa_utils
    import torch.utils.hooks

    scopes = [
        ("torch.nn.modules", torch.nn.modules, "annotated_nn.modules", "annotated_nn"),
        ("torch.nn.parameter", torch.nn.parameter, "annotated_nn.parameter", "annotated_nn"),
        ("torch.nn.init", torch.nn.init, "annotated_nn.init", None),
        ("torch.utils.hooks", torch.utils.hooks, "annotated_nn.utils.hooks", None),
        ("torch.optim", torch.optim, "annotated_optim", None),
        (
            "torch.optim.optimizer",
            sys.modules["torch.optim.optimizer"],
            "annotated_optim.optimizer",
            None,
        ),
        (
            "torch.optim.lr_scheduler",
            torch.optim.lr_scheduler,
            "annotated_optim.lr_scheduler",
            None,
        ),
        ("torch.optim.swa_utils", torch.optim.swa_utils, "annotated_optim.swa_utils", None),
    ]
    rows = []
    for title, theirs_mod, ours_name, also_top in scopes:
        try:
            ours_mod = importlib.import_module(ours_name)
        except ImportError:
            ours_mod = None
        for name in public_names(theirs_mod):
            theirs = getattr(theirs_mod, name, None)
            ours = getattr(ours_mod, name, None) if ours_mod is not None else None
            top_ok = True
            if also_top is not None:
                top = importlib.import_module(also_top)
                top_ok = getattr(top, name, None) is ours and ours is not None
            rows.append((title, name, theirs, ours, ours_name, top_ok))
    return rows


def page_api_parity() -> str:
    """Markdown of the API-parity page. / API 对照页的 Markdown。"""
    rows = parity_rows()
    have = sum(1 for r in rows if r[3] is not None)
    same = sum(1 for r in rows if r[3] is not None and signature_key(r[2]) == signature_key(r[3]))
    out = ["# API 对照 / API parity\n\n"]
    out.append(
        intro(
            "本页列出我们范围内 torch.nn 与 torch.optim 的每个公开名字（`torch.nn.modules.__all__`、`torch.nn.parameter`、"
            "`torch.nn.init`、`torch.utils.hooks`、`torch.optim` 及其 `optimizer`、`lr_scheduler`、`swa_utils`），"
            "以及 annotated_nn / annotated_optim 是否提供同名对象、签名是否一致"
            "（用 `inspect.signature` 比较参数名、种类与默认值，不比较类型注解）。"
            f"\n\n共 {len(rows)} 个名字：已提供 {have} 个，其中签名一致 {same} 个。",
            "Every public name of torch.nn and torch.optim in our scope (`torch.nn.modules.__all__`, "
            "`torch.nn.parameter`, `torch.nn.init`, `torch.utils.hooks`, `torch.optim` and its `optimizer`, "
            "`lr_scheduler` and `swa_utils`), whether annotated_nn / annotated_optim has an object of that name, and "
            "whether the signatures match (`inspect.signature`: parameter names, kinds and defaults; "
            f"annotations are not compared).\n\n{len(rows)} names: {have} present, {same} of them with the same signature.",
        )
    )
    current = None
    for title, name, theirs, ours, ours_name, top_ok in rows:
        if title != current:
            current = title
            out.append(f"\n## `{title}`\n\n")
            out.append(
                "| "
                + both("名字", "Name")
                + f" | {ours_name.split('.')[0]} | "
                + both("签名", "Signature")
                + " |\n|---|---|---|\n"
            )
        if ours is None:
            status = both("❌ 缺少", "❌ missing")
            sig = code(signature_text(theirs))
        elif ours is theirs:
            status = both(
                "↪ torch 的原对象（转出，未重写）",
                "↪ torch's own object (re-exported, not rewritten)",
            )
            sig = both("一致", "same")
        else:
            status = both("✅ 有", "✅ present")
            if not top_ok:
                status += both(
                    "（未从 annotated_nn 顶层导出）", " (not exported from annotated_nn)"
                )
            if signature_key(theirs) == signature_key(ours):
                sig = both("一致", "same")
            else:
                sig = (
                    both("不同", "differs")
                    + f"<br>torch: {code(signature_text(theirs))}<br>ours: {code(signature_text(ours))}"
                )
        link = code(name)
        canonical_module = getattr(ours, "__module__", "") or ""
        qualname = getattr(ours, "__qualname__", "<>")
        if (
            ours is not theirs
            and canonical_module.startswith("annotated_optim")
            and "<" not in qualname
        ):
            link = ref(f"{canonical_module}.{qualname}", name)
        elif ours is not None and ours is not theirs and not inspect.ismodule(ours):
            link = ref(f"{ours_name}.{name}", name)
        out.append(f"| {link} | {status} | {sig} |\n")
    out.append(source_note())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Page: divergences / 页面：差异清单
# ---------------------------------------------------------------------------------------------

DIFF_MARK = "DIFF(torch 2.13)"


def enclosing_object(tree: ast.Module, module_name: str, line: int) -> str:
    """Dotted path of the innermost def/class around a line. / 包含某行的最内层 def/class 的点号路径。"""
    path = [module_name]

    def visit(body, prefix):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if start <= line <= (node.end_lineno or node.lineno):
                    prefix.append(node.name)
                    if isinstance(node, ast.ClassDef):
                        visit(node.body, prefix)
                    return
        return

    visit(tree.body, path)
    return ".".join(path)


def divergences() -> list[dict]:
    """Every ``DIFF(torch 2.13)`` marker with its explanation. / 每个 ``DIFF(torch 2.13)`` 标记及其说明。"""
    found = []
    for path in package_files():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        rel = path.relative_to(SRC).as_posix()
        module_name = rel[:-3].replace("/", ".").removesuffix(".__init__")
        tree = ast.parse(text)
        index = 0
        while index < len(lines):
            line = lines[index]
            if DIFF_MARK not in line:
                index += 1
                continue
            is_comment = line.lstrip().startswith("#")
            block = [line]
            j = index + 1
            while j < len(lines):
                nxt = lines[j]
                if is_comment:
                    if not nxt.lstrip().startswith("#"):
                        break
                    # A new marker after the explanation lines starts a new entry; marker lines
                    # in a row (one per language or per line) are one entry.
                    if DIFF_MARK in nxt and DIFF_MARK not in block[-1] and _has_both(block):
                        break
                else:
                    if not nxt.strip() or DIFF_MARK in nxt:
                        break
                block.append(nxt)
                j += 1
            # A marker block right above a def/class explains that def (comments precede code).
            after = lines[j].lstrip() if j < len(lines) else ""
            target = (
                j + 1
                if is_comment and after.startswith(("def ", "async def ", "class ", "@"))
                else index + 1
            )
            zh, en = [], []
            language = None
            for raw in block:
                piece = raw.strip().lstrip("#").strip()
                piece = piece.replace(DIFF_MARK, "").lstrip(":： ").strip()
                # The `中:` / `EN:` prefix decides; a line without one continues the line above,
                # or, at the start, goes by whether it holds Chinese.
                prefix = re.match(r"^(中|EN)\s*[:：]\s*", piece)
                if prefix:
                    language = "zh" if prefix.group(1) == "中" else "en"
                    piece = piece[prefix.end() :]
                if not piece:
                    continue
                if language is None:
                    language = "zh" if CJK.search(piece) else "en"
                (zh if language == "zh" else en).append(piece)
            found.append(
                {
                    "file": rel,
                    "line": index + 1,
                    "object": enclosing_object(tree, module_name, target),
                    "zh": re.sub(r"(?<=[\u3000-\u9fff]) (?=[\u3000-\u9fff`])", "", " ".join(zh)),
                    "en": " ".join(en),
                }
            )
            index = j
    return found


def _has_both(block: list[str]) -> bool:
    """Whether a comment block already holds both languages. / 注释块是否已含两种语言。"""
    text = "\n".join(block)
    return bool(CJK.search(text)) and bool(
        re.search(r"#\s*(?:DIFF\(torch 2\.13\):\s*)?EN\s*:", text)
    )


def page_divergences() -> str:
    """Markdown of the divergence ledger. / 差异清单的 Markdown。"""
    items = divergences()
    out = ["# 差异清单 / Divergences from torch\n\n"]
    out.append(
        intro(
            f"代码中每一处 `DIFF(torch 2.13)` 标记（共 {len(items)} 处）：我们有意与 torch 2.13 不同的地方，"
            "按文件与行号排列，附标记下方的说明。",
            f"Every `DIFF(torch 2.13)` marker in the code ({len(items)} in all): the places where we "
            "deliberately differ from torch 2.13, by file and line, with the explanation below the marker.",
        )
    )
    if not items:
        out.append(both("目前没有标记。", "No markers yet.", "p") + "\n")
    out.append(
        "| "
        + both("位置", "Where")
        + " | "
        + both("所在对象", "In")
        + " | "
        + both("说明", "Explanation")
        + " |\n|---|---|---|\n"
    )
    for item in items:
        zh = code_md(cell(item["zh"])) or "—"
        en = code_md(cell(item["en"])) or "—"
        out.append(
            f"| {code(item['file'] + ':' + str(item['line']))} | {ref(item['object'], item['object'].split('.', 1)[-1] if '.' in item['object'] else item['object'])} | {both(zh, en)} |\n"
        )
    out.append(source_note())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Page: annotation coverage / 页面：注释覆盖率
# ---------------------------------------------------------------------------------------------

SECTION = re.compile(r"^\s+(Args|Arguments|Returns|Raises|Yields|Examples|Attributes):\s*$", re.M)
WORD = re.compile(r"[A-Za-z]{2,}")


def _check_doc(doc: str) -> list[str]:
    """Problems of one docstring (same rules as the shared checker). / 一个文档字符串的问题（与共享检查器规则相同）。"""
    if not doc:
        return ["doc"]
    problems = []
    first = doc.strip().splitlines()[0]
    if not (CJK.search(first) and WORD.search(first)):
        problems.append("summary")
    i_zh, i_en = doc.find('=== "中文"'), doc.find('=== "English"')
    if i_zh < 0 or i_en < 0 or i_zh > i_en:
        return problems + ["tabs"]
    raw_tabs: dict[str, list[str]] = {}
    current, indent = None, 0
    for line in doc.splitlines():
        m = re.match(r'^(\s*)===\s+"([^"]+)"', line)
        if m:
            current, indent = m.group(2), len(m.group(1))
            raw_tabs.setdefault(current, [])
            continue
        if current is not None:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                current = None
                continue
            raw_tabs[current].append(line)
    zh, en = "\n".join(raw_tabs.get("中文", [])), "\n".join(raw_tabs.get("English", []))
    if len(CJK.findall(zh)) < 4:
        problems.append("zh")
    if len(WORD.findall(en)) < 3 or len(CJK.findall(en)) > 2:
        problems.append("en")
    if SECTION.search(zh) or SECTION.search(en):
        problems.append("sections")
    return problems


def coverage_records() -> tuple[list[dict], str]:
    """Per-def records and where they came from. / 逐个 def 的记录及其来源。

    Uses ``tools.annotations.collect`` (the project's checker) when it exists, otherwise the
    same rules as the shared bilingual checker, implemented here.
    """
    try:
        annotations = importlib.import_module("tools.annotations")
        collect = getattr(annotations, "collect")
    except (ImportError, AttributeError):
        collect = None
    if collect is not None:
        records = []
        for r in collect(ROOT):
            get = (
                (lambda k, d=None, r=r: r.get(k, d))
                if isinstance(r, dict)
                else (lambda k, d=None, r=r: getattr(r, k, d))
            )
            records.append(
                {
                    "file": str(get("file", get("path", ""))),
                    "line": get("line", get("lineno", 0)),
                    "name": get("qualname", get("name", "")),
                    "problems": list(get("problems", []) or []),
                    "run": get("longest_run", 0),
                }
            )
        return records, "tools/annotations.py"
    records = []
    for path in package_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()

        def walk(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    if not _is_overload(node):
                        doc = ast.get_docstring(node, clean=False) or ""
                        records.append(
                            {
                                "file": rel,
                                "line": node.lineno,
                                "name": prefix + node.name,
                                "problems": _check_doc(doc),
                                "run": 0,
                            }
                        )
                    walk(node.body, prefix + node.name + ".")
                elif hasattr(node, "body") and isinstance(getattr(node, "body"), list):
                    walk(node.body, prefix)
                    for extra in ("orelse", "finalbody", "handlers"):
                        walk(getattr(node, extra, []) or [], prefix)

        walk(tree.body, "")
    return records, "tools/book/generated.py"


def comment_counts() -> dict[str, tuple[int, int]]:
    """``# 中:`` and ``# EN:`` line counts per file. / 每个文件中 ``# 中:`` 与 ``# EN:`` 的行数。"""
    counts = {}
    for path in package_files():
        text = path.read_text(encoding="utf-8")
        counts[path.relative_to(ROOT).as_posix()] = (
            len(re.findall(r"^\s*# 中:", text, re.M)),
            len(re.findall(r"^\s*# EN:", text, re.M)),
        )
    return counts


def claim_counts() -> dict[str, int]:
    """Claim tests per file, read from the ``@proves(...)`` decorators in tests/claims/. / 每个文件的陈述测试数。"""
    counts: dict[str, int] = {}
    for test_file in sorted((ROOT / "tests" / "claims").glob("test_*.py")):
        tree = ast.parse(test_file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in node.decorator_list:
                if (
                    isinstance(decorator, ast.Call)
                    and getattr(decorator.func, "id", "") == "proves"
                    and decorator.args
                    and isinstance(decorator.args[0], ast.Constant)
                ):
                    path = decorator.args[0].value
                    counts[path] = counts.get(path, 0) + 1
    return counts


def page_annotation_coverage() -> str:
    """Markdown of the annotation-coverage page. / 注释覆盖率页的 Markdown。"""
    records, origin = coverage_records()
    counts = comment_counts()
    claims = claim_counts()
    files: dict[str, list[dict]] = {}
    for r in records:
        files.setdefault(r["file"], []).append(r)
    total = len(records)
    ok = sum(1 for r in records if not r["problems"])
    out = ["# 注释覆盖率 / Annotation coverage\n\n"]
    pct = 100.0 * ok / total if total else 0.0
    out.append(
        intro(
            f"每个函数与类的文档字符串是否完整双语（首行双语、`中文` 与 `English` 两个标签页、Google 小节在标签页之外），"
            f"以及每个文件的 `# 中:` / `# EN:` 注释是否成对。数据来自 `{origin}`。\n\n"
            f"共 {total} 个 def/class，{ok} 个完整双语（{pct:.1f}%）。\n\n"
            "“最长无注释段”是函数体内连续、中间没有 `# 中:`/`# EN:` 注释的代码行数的最大值"
            "（文档字符串、空行和普通注释不计）。核心文件（`module.py`、`parameter.py`、`utils/hooks.py`、"
            "`_functions.py`、`container.py`、`lazy.py`、`init.py`、`parallel/`）中超过 8 行时 "
            "`make annotations` 报错。\n\n"
            "“陈述测试”是 `tests/claims/` 中针对该文件某句注释的可执行检查，在 torch.nn 与 "
            "annotated_nn 上各跑一遍。",
            f"Whether every function's and class's docstring is fully bilingual (two-language first line, "
            f"a Chinese and an English tab, Google sections outside the tabs) and whether each file's "
            f"Chinese and English notes pair up. Data from `{origin}`.\n\n"
            f"{total} defs/classes, {ok} fully bilingual ({pct:.1f}%).\n\n"
            "The *longest unannotated run* is the most code lines in a row in a function body with no "
            "Chinese/English note pair between them (docstrings, blank lines and plain comments do not "
            "count). Over 8 in a core file (`module.py`, `parameter.py`, `utils/hooks.py`, "
            "`_functions.py`, `container.py`, `lazy.py`, `init.py`, `parallel/`), `make annotations` "
            "fails.\n\n"
            "*Claim tests* are the executable checks in `tests/claims/` of a statement in that file's "
            "commentary, each run on torch.nn and on annotated_nn.",
        )
    )
    out.append("## " + "按文件 / Per file" + "\n\n")
    out.append(
        "| "
        + both("文件", "File")
        + " | def/class | "
        + both("完整", "Complete")
        + " | "
        + both("中文注释行", "Chinese note lines")
        + " | "
        + both("英文注释行", "English note lines")
        + " | "
        + both("成对", "Paired")
        + " | "
        + both("最长无注释段", "Longest unannotated run")
        + " | "
        + both("陈述测试", "Claim tests")
        + " |\n|---|---|---|---|---|---|---|---|\n"
    )
    for file in sorted(set(files) | set(counts)):
        recs = files.get(file, [])
        good = sum(1 for r in recs if not r["problems"])
        zh, en = counts.get(file, (0, 0))
        paired = "✅" if zh == en else "❌"
        longest = max((r["run"] for r in recs), default=0)
        out.append(
            f"| {code(file)} | {len(recs)} | {good} | {zh} | {en} | {paired} | {longest} "
            f"| {claims.get(file, 0)} |\n"
        )
    pages = sorted(path for path in claims if path.startswith("docs/"))
    if pages:
        out.append(
            "\n"
            + both("书中各章的陈述测试：", "Claim tests of the chapters:", "p")
            + "\n\n"
            + "\n".join(f"- {code(path)}: {claims[path]}" for path in pages)
            + "\n"
        )
    out.append("\n## " + "按函数 / Per function" + "\n\n")
    # Hundreds of identifiers: kept out of the search index (they have their own headings).
    out.append('<div data-search-exclude markdown="1">\n\n')
    for file in sorted(files):
        recs = files[file]
        bad = sum(1 for r in recs if r["problems"])
        kind = "success" if not bad else "warning"
        out.append(f'??? {kind} "{file} — {len(recs) - bad}/{len(recs)}"\n\n')
        out.append(
            "    | "
            + both("行", "Line")
            + " | "
            + both("名字", "Name")
            + " | "
            + both("问题", "Problems")
            + " | "
            + both("最长无注释段", "Longest unannotated run")
            + " |\n    |---|---|---|---|\n"
        )
        for r in recs:
            problems = ", ".join(r["problems"]) if r["problems"] else "✅"
            out.append(
                f"    | {r['line']} | {code(r['name'])} | {literal(problems)} | {r['run']} |\n"
            )
        out.append("\n")
    out.append("</div>\n\n")
    out.append(source_note())
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Page: diagrams / 页面：图
# ---------------------------------------------------------------------------------------------

# name → (中文标题, English title, 中文说明, English caption). The captions say what to look at;
# the family diagrams and the model trees get theirs from the code (see diagram_texts).
DIAGRAM_TITLES = {
    "layer-families": (
        "层的家族基类（总览）",
        "The layer family bases (overview)",
        "从 Module 到各层家族基类：括号里是直接或间接继承该基类的公开类个数，"
        "虚线框里是不在任何家族基类之下的层类个数。",
        "From Module to each layer family base: the number in brackets counts the public classes "
        "deriving from that base, directly or not; the dashed box counts the layer classes under "
        "no family base.",
    ),
    "call-flow": (
        "`Module.__call__` 的实际运行顺序（实时追踪）",
        "What `Module.__call__` runs, in order (live trace)",
        "蓝线是 forward 正常返回时的顺序，黄色节点在 backward() 时运行；"
        "红线是 forward 抛出异常时的顺序：只有两个 always_call 前向钩子还会运行，然后异常重新抛出。",
        "Blue: the order when forward returns, the yellow steps running at backward(); red: the "
        "order when forward raises, where only the two always_call forward hooks still run before "
        "the exception is re-raised.",
    ),
    "setattr-routing": (
        "`Module.__setattr__` 的路由（实时探测）",
        "`Module.__setattr__` routing (live probe)",
        "从上往下读：答“否”就走到下一个问题，答“是”就到探测结果；绿色是值落到了哪里，红色是抛出的异常。",
        "Read top to bottom: a no leads to the next question, a yes to the probes' outcomes; green "
        "shows where the value landed, red the exception raised.",
    ),
    "state-dict-prefixes": (
        "嵌套模型的 state_dict 键名前缀",
        "state_dict key prefixes of a nested model",
        "键按点号拆开：每一级前缀是一个子模块的名字，绿色的叶子是张量，标出形状与完整的键。",
        "Keys split at the dots: each prefix level is a submodule's name; the green leaves are the "
        "tensors, with their shapes and full keys.",
    ),
    "optimizer-state-dict": (
        "优化器对象与它的 state_dict（实时生成）",
        "An optimizer object and its state_dict (live)",
        "左边是对象：参数组列出张量，state 以张量为键；右边是 state_dict()：张量都换成了整数。"
        "虚线上的整数就是该张量在 state_dict 里的编号，按所有参数组中出现的顺序排。",
        "Left, the object: groups list tensors and state is keyed by tensors; right, "
        "state_dict(): every tensor replaced by an integer. The number on a dashed edge is that "
        "tensor's integer in the state_dict, in order of appearance across all groups.",
    ),
    "parametrize-class-swap": (
        "register_parametrization 之前与之后（实时生成）",
        "Before and after register_parametrization (live)",
        "同一种模块注册参数化前后：实例的类换成了生成的子类（MRO 多一层），weight 成了这个子类上的"
        "特性；原参数从 _parameters 移到 parametrizations.weight.original。",
        "One kind of module before and after registration: the instance's class becomes a generated "
        "subclass (one more MRO level) and weight a property of that subclass; the original "
        "parameter moves from _parameters to parametrizations.weight.original.",
    ),
    "ddp-buckets": (
        "DDP 的梯度桶：构造时与重建后（实时生成）",
        "DDP's gradient buckets: at construction and rebuilt (live)",
        "一个活的 DistributedDataParallel 里 Reducer 的桶：构造时只有一个桶，参数按注册顺序；"
        "第一轮之后按梯度就绪的顺序重建，每个桶装到不小于 bucket_bytes_cap 就封上，所以桶 0 装的是"
        "最后一层的参数。虚线把每个参数从旧桶连到新桶。",
        "The Reducer's buckets in a live DistributedDataParallel: at construction one bucket, "
        "parameters in registration order; after the first iteration they are rebuilt in the "
        "order gradients became ready, each bucket closed once it holds at least "
        "bucket_bytes_cap, so bucket 0 holds the last layer's parameters. Dashed edges take each "
        "parameter from its old bucket to its new one.",
    ),
    "ddp-timeline": (
        "DDP 一步训练中的事件顺序（两进程实测）",
        "The order of events in one DDP step (two processes, live)",
        "每个 rank 一行，从左往右是事件的先后，不是时间的长短：绿色是梯度就绪，橙色是发出一个桶的 "
        "all-reduce。橙色虚线从发出一直画到 backward() 返回：桶 0 的 all-reduce 发出之后，"
        "后面的梯度还在计算。完成的时刻每次运行都不同，所以不画；每次都在 backward() 返回之前。",
        "One row per rank, events left to right in the order they happened, not to scale: green, "
        "a gradient becoming ready; orange, a bucket's all-reduce being launched. The dashed "
        "orange bars run from the launch to where backward() returns: after bucket 0's "
        "all-reduce is launched, later gradients are still being computed. The moment of "
        "completion varies between runs and is not drawn; it always comes before backward() "
        "returns.",
    ),
}


def page_title(slug: str) -> tuple[str, str]:
    """(中文, English) of a layer page's title. / 层页标题的（中文, English）。"""
    path = ROOT / "docs" / "chapters" / "layers" / f"{slug}.md"
    first = path.read_text(encoding="utf-8").splitlines()[0] if path.exists() else slug
    zh, _, en = first.lstrip("# ").partition(" · ")
    return zh.strip(), (en or zh).strip()


def diagram_texts(generate, name: str, dot: str) -> tuple[str, str, str, str]:
    """Title and caption of one diagram, both languages. / 一张图的标题与说明（两种语言）。

    === "中文"

        家族图与模型树的说明由代码算出（类的个数、所在文件、图里有没有虚线或合并的节点），
        因此总与图一致；其余的图用 `DIAGRAM_TITLES` 中写好的说明。

    === "English"

        The captions of the family diagrams and the model trees are computed (the number of
        classes, their files, whether the diagram has dashed edges or merged nodes), so they always
        match the picture; the other diagrams use the captions written in `DIAGRAM_TITLES`.
    """
    if name in DIAGRAM_TITLES:
        return DIAGRAM_TITLES[name]
    if name.startswith("family-"):
        slug = name[len("family-") :]
        page_zh, page_en = page_title(slug)
        members = generate.family_members(slug)
        files = []
        for member in members:
            if generate.file_of(member) not in files:
                files.append(generate.file_of(member))
        zh = f"“{page_zh}”一页的 {len(members)} 个类（{'、'.join(files)}）及其直接基类，灰色的基类在别的文件里"
        en = (
            f"The {len(members)} classes of the {page_en} page ({', '.join(files)}) with their "
            "direct bases; grey bases live in other files"
        )
        if "#c5cae9" in dot:
            zh += "；深色的是家族基类"
            en += "; darker boxes are family bases"
        bases = generate.class_bases("annotated_nn")
        firsts = [bases[m][1][:-1] for m in members if len(bases[m][1]) > 1]
        if firsts:
            lazy = all("Lazy" in b for first in firsts for b in first)
            zh += "；一个类有两个基类时，虚线来自第一个" + ("（惰性的那个）" if lazy else "")
            zh += "，实线来自第二个"
            en += "; where a class has two bases, the dashed edge comes from the first"
            en += (" (the lazy one)" if lazy else "") + ", the solid edge from the second"
        return (f"{page_zh}：类继承关系", f"{page_en}: class hierarchy", zh + "。", en + ".")
    if name.startswith("model-"):
        model, _, root = name[len("model-") :].partition("-")
        if root:
            return (
                f"参考模型 `{model}` 的子树 `{root}`",
                f"The subtree `{root}` of the reference model `{model}`",
                f"在 {model} 的模块树中折叠起来的 {root}，完整画出；限定名从整个模型算起，"
                "与 state_dict 键名中的写法一致。",
                f"{root}, folded in the module tree of {model}, drawn in full; qualified names count "
                "from the whole model, as in the state_dict keys.",
            )
        zh = "每个节点是 named_modules() 的一项：限定名、类名、模块自己的参数与缓冲区的形状"
        en = (
            "Each node is one item of named_modules(): qualified name, class, and the shapes of "
            "the parameters and buffers the module itself owns"
        )
        if "×" in dot:
            zh += "；“2 × …”这样的节点代表编号相连、repr 相同的几个子模块，只画一次"
            en += "; a node such as “2 × …” stands for numbered siblings with the same repr, drawn once"
        if "submodules:" in dot:
            zh += "；列出 submodules 的节点是折叠起来的一块，下一张图画出其中一块"
            en += "; a node listing submodules is folded, and the next diagram draws one in full"
        return (
            f"参考模型 `{model}` 的模块树",
            f"Module tree of the reference model `{model}`",
            zh + "。",
            en + ".",
        )
    return name, name, name, name


def figure(name: str, prefix: str, zh: str, en: str, alt: str) -> str:
    """A diagram linked to its full-size SVG, with a two-language caption. / 链接到原尺寸 SVG 的图，附双语说明。"""
    src = f"{prefix}{name}.svg"
    return (
        f'<figure class="book-diagram" markdown="1">\n[![{alt}]({src})]({src})\n'
        f"<figcaption>{zh} / {en}</figcaption>\n</figure>\n\n"
    )


DOT_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _one_language_line(line: str, lang: str) -> str | None:
    """One line of a DOT label in one language; None drops it. / DOT 标签的一行取一种语言；None 表示去掉。"""
    # The book's one text splitter (tools/book/listings.py), run as a script or as tools.book.
    try:
        from listings import split_bilingual_text
    except ImportError:
        from tools.book.listings import split_bilingual_text

    if not CJK.search(line):
        return line
    # A bilingual part in brackets, e.g. `_ConvNd (12 个子类 / 12 subclasses)`: keep one half.
    line = re.sub(
        r"\(([^()]*?) / ([^()]*?)\)",
        lambda m: "(" + _one_language_line(m.group(1) + " / " + m.group(2), lang) + ")",
        line,
    )
    if " / " not in line:
        # A Chinese-only line (its English is the next line) or one already in one language.
        return line if lang == "zh" or not CJK.search(line) else None
    # A title `name — 中文 / English` keeps its name in both languages.
    prefix, _, core = line.rpartition(" — ") if " — " in line else ("", "", line)
    english, chinese = split_bilingual_text(core)
    return (prefix + " — " if prefix else "") + (chinese if lang == "zh" else english)


def one_language(dot: str, lang: str) -> str:
    """A bilingual DOT source with every label in one language. / 把双语 DOT 源里的每个标签换成一种语言。

    Labels are written ``中文 / English`` (a graph title ``name — 中文 / English`` keeps its name
    in both), or as two lines ``中文\\nEnglish``: a Chinese-only line is followed by its English
    line, which Chinese drops; English drops the Chinese line.
    """

    def pick(match: re.Match) -> str:
        text = match.group(1)
        if not CJK.search(text):
            return match.group(0)
        lines = text.split("\\n")
        kept = []
        previous_was_chinese_only = False
        for line in lines:
            chinese_only = bool(CJK.search(line)) and " / " not in line
            if not CJK.search(line) and previous_was_chinese_only and lang == "zh":
                previous_was_chinese_only = False
                continue
            picked = _one_language_line(line, lang)
            if picked is not None:
                kept.append(picked)
            previous_was_chinese_only = chinese_only
        return '"' + "\\n".join(kept) + '"'

    return DOT_STRING.sub(pick, dot)


def diagrams() -> tuple[dict[str, str], str]:
    """SVG files and the page showing them. / SVG 文件以及展示它们的页面。"""
    sys.path.insert(0, str(ROOT / "diagrams"))
    import generate  # diagrams/generate.py

    dots = generate.generate_all()
    files = {}
    out = ["# 图 / Diagrams\n\n"]
    out.append(
        intro(
            "以下各图都在构建时由 `diagrams/generate.py` 从运行中的代码计算出来，再由 Graphviz 排版；"
            "`diagrams/out/*.dot` 是提交到仓库中的 DOT 源文件，测试会重新生成并在过期时失败。"
            "点击一张图可以看原尺寸的 SVG。",
            "Each diagram below is computed from the running code by `diagrams/generate.py` at build time "
            "and laid out by Graphviz; `diagrams/out/*.dot` holds the committed DOT sources, which a test "
            "regenerates and fails on when stale. Click a diagram for its full-size SVG.",
        )
    )
    # 中: 每张图画两份：`NAME.svg` 是中文版，`NAME.en.svg` 是英文版；书页按读者的语言显示其中一份。
    # EN: Each diagram is drawn twice: `NAME.svg` in Chinese and `NAME.en.svg` in English; a page
    # EN: shows the one of the reader's language.
    for name, dot in dots.items():
        files[f"generated/diagrams/{name}.svg"] = generate.render_svg(one_language(dot, "zh"))
        files[f"generated/diagrams/{name}.en.svg"] = generate.render_svg(one_language(dot, "en"))
        title_zh, title_en, caption_zh, caption_en = diagram_texts(generate, name, dot)
        out.append(f"## {title_zh} / {title_en}\n\n")
        alt = title_zh.replace("`", "")
        out.append(figure(name, "diagrams/", caption_zh, caption_en, alt))
    out.append(source_note())
    return files, "".join(out)


def build() -> dict[str, str]:
    """All generated files: path under docs/ → content. / 全部生成文件：docs/ 下的路径 → 内容。"""
    files = {
        "generated/module-49.md": page_module_49(),
        "generated/divergences.md": page_divergences(),
        "generated/annotation-coverage.md": page_annotation_coverage(),
    }
    files["generated/api-parity.md"] = page_api_parity()
    svgs, page = diagrams()
    files.update(svgs)
    files["generated/diagrams.md"] = page
    # The learning-rate charts (tools/book/lr_plots.py), run as a script or as tools.book.
    try:
        import lr_plots
    except ImportError:
        from tools.book import lr_plots
    files.update(lr_plots.all_svgs())
    return files


if __name__ == "__main__":
    json.dump(build(), sys.stdout, ensure_ascii=False)
