"""HTML post-processing for the book's pages. / 书页 HTML 的后处理。

Three jobs for the pages that mkdocstrings and pymdownx produced:

1. ``mark_comment_languages``: every highlighted code line that is a ``# 中:`` or ``# EN:``
   comment (with its continuation lines) gets the class ``book-zh`` or ``book-en``; the CSS then
   shows one language only (docs/assets/book.css, docs/assets/lang.js).
2. ``compare``: our code against torch 2.13's for one object, both without docstrings and
   comments (``ast.unparse``), as a unified diff; the torch side is read from the installed torch
   at build time (nothing of it is committed). The hook puts a summary ("same code" or how many
   lines differ) on the page and writes the diff to a small file fetched when the panel opens.
3. ``unique_ids``: mkdocstrings renders each docstring section (and each signature) with its own
   Markdown counters, so a page can repeat ``id``s such as ``…--__tabbed_1_1`` (a Note's tabs
   after the docstring's tabs) or ``__span-0-1``. Repeated tab ids share one radio group, and
   then a tab set shows no content at all; every repeat is renamed, with its labels and group.
"""

from __future__ import annotations

import ast
import difflib
import html
import importlib
import inspect
import re
import sys
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:
    import listings  # tools/book/listings.py, as the mkdocs hook loads it
except ImportError:  # imported as tools.book.panels (the tests)
    from tools.book import listings
import torch

TORCH_VERSION = torch.__version__.split("+")[0]

LINE_START = re.compile(r'<span id="([^"]*__span-\d+-\d+)">')
TAG = re.compile(r"<[^>]+>")
CODE_END = "</code>"


def _classify(text: str, previous: str | None) -> str | None:
    """Language of one source line: ``zh``, ``en`` or None. / 一行源码的语言：``zh``、``en`` 或 None。"""
    stripped = text.strip()
    if stripped.startswith("# 中:") or stripped.startswith("# 中："):
        return "zh"
    if stripped.startswith("# EN:"):
        return "en"
    # A comment line right below a language's comment line continues it, unless it starts
    # another marker (TODO, DIFF, See Note, ...), which is shown in both languages.
    if previous and stripped.startswith("#") and re.match(r"#\s{2,}\S|#\s*$", stripped):
        return previous
    return None


TAB_HEADER = re.compile(r'^(\s*)===\s+"(中文|English)"\s*$')
TAB_TEXT = re.compile(r'(===\s+)"(中文|English)"')


def mark_comment_languages(page_html: str) -> str:
    """Tag bilingual comment lines in highlighted code. / 给高亮代码中的双语注释行加上语言类名。

    Also tags the lines of a docstring's ``=== "中文"`` / ``=== "English"`` tab (header and
    indented body) as they appear in the rendered source, so the source view is in one language.
    """
    if "__span-" not in page_html:
        return _escape_tab_headers(page_html)
    out = []
    pos = 0
    previous: str | None = None
    tab: tuple[str, int] | None = None  # (language, indent of the === line) inside a docstring tab
    matches = list(LINE_START.finditer(page_html))
    for index, match in enumerate(matches):
        start = match.start()
        end_line = matches[index + 1].start() if index + 1 < len(matches) else len(page_html)
        code_end = page_html.find(CODE_END, match.end(), end_line)
        if code_end >= 0:
            end_line = code_end
        # A new code block starts: forget the previous block's language.
        between = page_html[pos:start]
        if CODE_END in between or index == 0:
            previous = None
            tab = None
        text = html.unescape(TAG.sub("", page_html[match.end() : end_line])).rstrip("\n")
        header = TAB_HEADER.match(text)
        if header:
            tab = ("zh" if header.group(2) == "中文" else "en", len(header.group(1)))
            lang = tab[0]
        elif tab is not None and (not text.strip() or len(text) - len(text.lstrip()) > tab[1]):
            lang = tab[0]
        else:
            tab = None
            lang = _classify(text, previous)
        out.append(between)
        if lang:
            out.append(f'<span id="{match.group(1)}" class="book-{lang}">')
        else:
            out.append(match.group(0))
        previous = lang
        pos = match.end()
    out.append(page_html[pos:])
    return _escape_tab_headers("".join(out))


def _escape_tab_headers(page_html: str) -> str:
    """Write the quotes of shown tab headers as entities. / 把展示出来的标签页标题中的引号写成实体。

    The source view shows docstrings as written, tab headers included. With their quotes as
    ``&quot;`` the page reads the same, and its HTML has no ``=== "中文"`` that could be taken
    for a tab that failed to render.
    """
    return TAB_TEXT.sub(lambda m: f"{m.group(1)}&quot;{m.group(2)}&quot;", page_html)


# ---------------------------------------------------------------------------------------------
# PyTorch source panels / PyTorch 源码面板
# ---------------------------------------------------------------------------------------------

HEADING = re.compile(
    r'<h(\d) id="(annotated_(?:nn|optim)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)" class="doc doc-heading"'
)


def torch_path(ours: str) -> str:
    """Map ``annotated_nn.X`` to ``torch.nn.X`` (hooks to ``torch.utils.hooks``). / 把 ``annotated_nn.X`` 映射为 torch 中的对应路径。"""
    if ours.startswith("annotated_nn.utils.hooks"):
        return "torch.utils.hooks" + ours[len("annotated_nn.utils.hooks") :]
    if ours.startswith("annotated_optim"):
        return "torch.optim" + ours[len("annotated_optim") :]
    return "torch.nn" + ours[len("annotated_nn") :]


@lru_cache(maxsize=None)
def _file_tree(filename: str) -> tuple[list[str], ast.Module]:
    """Lines (with their ends) and tree of one torch file, parsed once. / torch 的一个文件的各行与语法树，只解析一次。"""
    text = Path(filename).read_text(encoding="utf-8")
    return text.splitlines(keepends=True), ast.parse(text)


def _source_lines(obj) -> tuple[list[str], int, str]:
    """Source lines, first line and file of a torch function or class. / torch 函数或类的源码行、起始行与文件。

    ``inspect.getsourcelines`` re-parses the whole file for every class it is asked about;
    hundreds of classes live in a few large torch files, so a class is looked up here in one
    cached tree per file instead (decorators included, as inspect does). Functions keep
    inspect's fast path (their code object knows the first line).
    """
    filename = inspect.getsourcefile(obj) or ""
    if not inspect.isclass(obj):
        lines, first = inspect.getsourcelines(obj)
        return lines, first, filename
    if not filename:
        raise OSError("no source file")
    file_lines, tree = _file_tree(filename)
    node = listings.find_node(tree, obj.__qualname__)
    if node is None:
        raise OSError(f"class {obj.__qualname__} not found in {filename}")
    first = listings._start(node)
    return file_lines[first - 1 : node.end_lineno], first, filename


@lru_cache(maxsize=None)
def torch_source(ours: str) -> tuple[str, str, int, str] | None:
    """(torch path, source, first line, file) of the counterpart, or None. / 对应 torch 对象的（路径、源码、起始行、文件），没有则为 None。"""
    path = torch_path(ours)
    parts = path.split(".")
    obj = None
    rest: list[str] = []
    for cut in range(len(parts), 0, -1):
        # A module already imported is taken from sys.modules instead of going through the
        # import machinery again.
        name = ".".join(parts[:cut])
        if name in sys.modules:
            obj = sys.modules[name]
        else:
            try:
                obj = importlib.import_module(name)
            except ImportError:
                continue
        rest = parts[cut:]
        break
    if obj is None:
        return None
    for name in rest:
        if inspect.isclass(obj):
            # Only what the class body itself defines: an inherited method is not "the
            # counterpart" of a method our class defines.
            if name not in vars(obj):
                return None
            obj = vars(obj)[name]
        else:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        obj = obj.fget
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if not (inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismodule(obj)):
        return None
    if inspect.ismodule(obj):
        return None
    try:
        lines, first, filename = _source_lines(obj)
    except (OSError, TypeError):
        return None
    marker = "/torch/"
    short_file = "torch/" + filename.split(marker, 1)[1] if marker in filename else filename
    return path, "".join(lines), first, short_file


def _strip(tree: ast.AST, drop_members: bool) -> ast.AST:
    """Remove docstrings (and, for a class, its methods) from a parsed definition. / 去掉文档字符串（类还去掉方法）。"""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body.pop(0)
        if not body and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body.append(ast.Expr(ast.Constant(...)))
    if drop_members and isinstance(tree, ast.ClassDef):
        tree.body = [
            n
            for n in tree.body
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        ] or [ast.Expr(ast.Constant(...))]
    return tree


def comparable(source: str, qualname_tail: str | None = None) -> str:
    """Code of a definition without docstrings and comments, normalized. / 去掉文档字符串与注释、统一格式后的代码。

    ``ast.unparse`` drops comments and layout, so two definitions compare equal exactly when
    their code is the same. A class is compared without its methods: each method has its own
    comparison.
    """
    tree = ast.parse(textwrap.dedent(source))
    node = tree.body[0]
    _strip(node, drop_members=isinstance(node, ast.ClassDef))
    return ast.unparse(node)


def ours_source(path: str, qualname: str) -> str | None:
    """Our definition's source text. / 我们的定义的源代码。"""
    lines, tree, _ = listings._parsed(path)
    node = listings.find_node(tree, qualname)
    if node is None:
        return None
    return "\n".join(lines[listings._start(node) - 1 : node.end_lineno])


@dataclass
class Comparison:
    """Our code against torch's for one object. / 一个对象上我们的代码与 torch 代码的对照。"""

    torch_path: str
    torch_file: str
    torch_line: int
    same: bool
    changed: int
    fragment: str


def compare(ours_dotted: str, path: str, qualname: str) -> Comparison | None:
    """Compare one of our objects with its torch counterpart. / 把我们的一个对象与 torch 的对应对象比较。"""
    found = torch_source(ours_dotted)
    mine = ours_source(path, qualname)
    if found is None or mine is None:
        return None
    torch_dotted, theirs, first, filename = found
    try:
        a, b = comparable(theirs).splitlines(), comparable(mine).splitlines()
    except SyntaxError:
        return None
    diff = list(difflib.unified_diff(a, b, lineterm="", n=3))[2:]
    changed = sum(1 for line in diff if line[:1] in "+-")
    rows = []
    for line in diff:
        sign, text = line[:1], line[1:]
        if sign == "@":
            rows.append('<span class="book-cmp-hunk">⋯</span>')
            continue
        kind = {"+": "ours", "-": "torch"}.get(sign, "ctx")
        marker = {"ours": "+", "torch": "−", "ctx": " "}[kind]
        code = listings._highlight_lines(text)[0]
        rows.append(
            f'<span class="book-cmp-{kind}"><span class="book-cmp-sign">{marker}</span>{code}</span>'
        )
    fragment = (
        # Every row is a block of its own (docs/assets/book.css): no newline between them.
        '<div class="highlight book-cmp"><pre><code>' + "".join(rows) + "</code></pre></div>"
        if diff
        else ""
    )
    return Comparison(torch_dotted, filename, first, not diff, changed, fragment)


# ---------------------------------------------------------------------------------------------
# Unique ids / 唯一的 id
# ---------------------------------------------------------------------------------------------

ID_OR_FOR = re.compile(r'<input\b[^>]*>|\s(id|for)="([^"]*)"')
INPUT_ID = re.compile(r'\sid="([^"]*)"')
INPUT_NAME = re.compile(r'\sname="([^"]*)"')


def unique_ids(page_html: str) -> str:
    """Rename repeated ``id``s, keeping tab labels and radio groups paired. / 给重复的 ``id`` 改名，并保持标签页的 label 与单选组配对。

    A repeated id becomes ``<id>--<n>``. A tab input that is renamed also gets its radio group
    ``name`` renamed the same way, and each ``<label for=…>`` follows the most recent input of
    that id: a tab set's labels come right after its own inputs, before any nested set.
    """
    seen: dict[str, int] = {}
    current: dict[str, str] = {}

    def rename(old: str) -> str:
        count = seen.get(old, 0)
        seen[old] = count + 1
        new = old if count == 0 else f"{old}--{count}"
        current[old] = new
        return new

    def replace(match: re.Match) -> str:
        text = match.group(0)
        if text.startswith("<input"):
            found = INPUT_ID.search(text)
            if not found:
                return text
            old = found.group(1)
            new = rename(old)
            if new == old:
                return text
            text = text[: found.start(1)] + new + text[found.end(1) :]
            suffix = new[len(old) :]
            return INPUT_NAME.sub(lambda n: f' name="{n.group(1)}{suffix}"', text, count=1)
        kind, value = match.group(1), match.group(2)
        if kind == "for":
            return f' for="{current.get(value, value)}"'
        return f' id="{rename(value)}"'

    return ID_OR_FOR.sub(replace, page_html)
