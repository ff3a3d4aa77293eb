"""HTML post-processing for the book's pages. / 书页 HTML 的后处理。

Three jobs, all done on the HTML that mkdocstrings and pymdownx produced:

1. ``mark_comment_languages``: every highlighted code line that is a ``# 中:`` or ``# EN:``
   comment (with its continuation lines) gets the class ``book-zh`` or ``book-en``; the CSS then
   shows one language only (docs/assets/book.css, docs/assets/lang.js).
2. ``insert_torch_panels``: after each rendered annotated_nn object, a collapsible
   "PyTorch source" panel holding ``inspect.getsource`` of the torch counterpart, read from the
   installed torch at build time (nothing of it is committed).
3. ``unique_ids``: mkdocstrings renders each docstring section (and each signature) with its own
   Markdown counters, so a page can repeat ``id``s such as ``…--__tabbed_1_1`` (a Note's tabs
   after the docstring's tabs) or ``__span-0-1``. Repeated tab ids share one radio group, and
   then a tab set shows no content at all; every repeat is renamed, with its labels and group.
"""

from __future__ import annotations

import html
import importlib
import inspect
import re
import textwrap
from functools import lru_cache

import torch

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
    r'<h(\d) id="(annotated_nn(?:\.[A-Za-z_][A-Za-z0-9_]*)+)" class="doc doc-heading"'
)


def torch_path(ours: str) -> str:
    """Map ``annotated_nn.X`` to ``torch.nn.X`` (hooks to ``torch.utils.hooks``). / 把 ``annotated_nn.X`` 映射为 torch 中的对应路径。"""
    if ours.startswith("annotated_nn.utils.hooks"):
        return "torch.utils.hooks" + ours[len("annotated_nn.utils.hooks") :]
    return "torch.nn" + ours[len("annotated_nn") :]


@lru_cache(maxsize=None)
def torch_source(ours: str) -> tuple[str, str, int, str] | None:
    """(torch path, source, first line, file) of the counterpart, or None. / 对应 torch 对象的（路径、源码、起始行、文件），没有则为 None。"""
    path = torch_path(ours)
    parts = path.split(".")
    obj = None
    rest: list[str] = []
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
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
        lines, first = inspect.getsourcelines(obj)
        filename = inspect.getsourcefile(obj) or ""
    except (OSError, TypeError):
        return None
    marker = "/torch/"
    short_file = "torch/" + filename.split(marker, 1)[1] if marker in filename else filename
    return path, "".join(lines), first, short_file


class PanelRenderer:
    """Renders panels with the book's own Markdown set-up. / 用本书自己的 Markdown 配置渲染面板。"""

    def __init__(self, config) -> None:
        import markdown

        # Only the configured extensions named by string: plugins (mkdocstrings, autorefs) add
        # extension instances bound to the page being built, which a panel does not need.
        names = [e for e in config["markdown_extensions"] if isinstance(e, str)]
        configs = {k: v for k, v in config["mdx_configs"].items() if k in names}
        self._md = markdown.Markdown(extensions=names, extension_configs=configs)

    def panel(self, ours: str) -> str | None:
        """HTML of the panel for one object, or None. / 一个对象的面板 HTML，没有对应则为 None。"""
        found = torch_source(ours)
        if found is None:
            return None
        path, source, first, filename = found
        body = textwrap.indent(textwrap.dedent(source).rstrip("\n"), "        ")
        text = (
            f'??? quote "PyTorch {torch.__version__} source: `{path}`"\n\n'
            f"    `{filename}`, line {first} · 读自本机安装的 torch / read from the installed torch at build time\n\n"
            f'    ```python linenums="{first}"\n{body}\n    ```\n'
        )
        self._md.reset()
        rendered = self._md.convert(text)
        # Unique ids per panel: the same Markdown counters restart at 0 for every conversion.
        rendered = rendered.replace('id="__span-', f'id="torch-{ours}--__span-').replace(
            'href="#__span-', f'href="#torch-{ours}--__span-'
        )
        return rendered.replace(
            '<details class="quote">',
            f'<details class="quote torch-source" data-search-exclude data-torch="{path}">',
            1,
        )


def insert_torch_panels(page_html: str, renderer: PanelRenderer) -> tuple[str, int]:
    """Insert a panel after each rendered object's own source block. / 在每个已渲染对象自己的源码块之后插入面板。"""
    headings = list(HEADING.finditer(page_html))
    if not headings:
        return page_html, 0
    inserts: list[tuple[int, str]] = []
    for index, match in enumerate(headings):
        ours = match.group(2)
        panel = renderer.panel(ours)
        if panel is None:
            continue
        limit = headings[index + 1].start() if index + 1 < len(headings) else len(page_html)
        source_at = page_html.find('<details class="mkdocstrings-source">', match.end(), limit)
        if source_at >= 0:
            close = page_html.find("</details>", source_at)
            position = close + len("</details>")
        else:
            children = page_html.find('<div class="doc doc-children">', match.end(), limit)
            if children >= 0:
                position = children
            else:
                # No source shown and no children: after the object's contents, i.e. just before
                # the next object's wrapper (or the end of the page's content).
                wrapper = page_html.rfind('<div class="doc doc-object', match.end(), limit)
                position = wrapper if wrapper >= 0 else limit
        inserts.append((position, panel))
    out = page_html
    for position, panel in sorted(inserts, reverse=True):
        out = out[:position] + "\n" + panel + "\n" + out[position:]
    return out, len(inserts)


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
