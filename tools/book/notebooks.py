"""A story page as a Jupyter notebook, in one language. / 把一个正文页面变成一种语言的 Jupyter notebook。

``page_notebook(markdown, src_uri, language, links)`` is a pure function of the page's own Markdown
(the file under docs/, as written): the build (tools/book/hooks.py) writes its result for every
page of tools/book/numbers.yml into the site as ``notebooks/<name>.<zh|en>.ipynb``, and
tests/book/test_notebooks.py calls it without a build.

What becomes what:

- prose: the chosen language's ``=== "中文"`` / ``=== "English"`` tab, the chosen half of
  "中 / En" headings and of bilingual lines outside tabs, as Markdown cells (a new cell at each
  heading);
- each ```python block directly followed by a ```text block (an example: tests/book/test_examples.py
  runs it) becomes a code cell in page order, with the ```text block stored as its output; a
  ```python block with no output (a fragment that needs names from elsewhere) and every other
  fence stay fenced code in the Markdown;
- mkdocs-only syntax becomes plain Markdown: a ``::: annotated_nn.X`` listing becomes a line
  linking to the listing on the page, autorefs ``[X][annotated_nn.X]`` link to the page that lists
  X, ``{#id}`` attributes go, figures become a caption with a link to the drawing, admonitions
  become block quotes, relative links point at the book's pages;
- the folded answers of the exercises (``??? note "练习 N 的答案 / Answer to exercise N"``) are left
  out, with one pointer to the page where they are: the notebook gives the exercises to do.

A first code cell checks the environment (Python ≥ 3.10, torch 2.13.0, annotated_nn importable)
and seeds torch. The code cells are the same in both languages (their comments are the
`# 中:` / `# EN:` pairs of the book).
"""

from __future__ import annotations

import posixpath
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import nbformat.v4.nbjson

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bilingual  # noqa: E402  (tools/book/bilingual.py)
import numbering  # noqa: E402  (tools/book/numbering.py)

LANGUAGES = ("zh", "en")
TAB_LABEL = {"zh": "中文", "en": "English"}
FOLDER = "notebooks"
GET_THE_CODE = "get-the-code.md"

DIRECTIVE = re.compile(r"^:::\s+([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$")
FENCE_OPEN = re.compile(r"^(\s*)```(\w*)")
TAB = re.compile(r'^=== "([^"]+)"\s*$')
ADMONITION = re.compile(r'^(\?\?\?\+?|!!!)\s+([\w-]+)(?:\s+"(.*)")?\s*$')
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ATTRIBUTES = re.compile(r"\s*\{\s*[#.:][^}]*\}")
AUTOREF = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])+)\]\[(annotated_\w+[\w.]*)\]")
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
LIST_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+\.)\s+)(.*)$")
ANSWER = re.compile(r"答案|Answer")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")

SET_UP = {
    "zh": "本 notebook 的第一个单元：检查环境（项目的 .venv：Python ≥ 3.10、torch 2.13.0、annotated_nn）并固定随机种子。",
    "en": "The notebook's first cell: checks the environment (the project's .venv: Python ≥ 3.10, torch 2.13.0, annotated_nn) and seeds torch.",
}
SET_UP_CODE = """\
# 中: 检查环境：本 notebook 要在项目的 .venv 里运行（见书中“获取代码与运行”一页）。
# EN: Check the environment: run this notebook with the project's .venv (see the book's page
# EN: "Get the code and run it").
import sys

import torch

assert sys.version_info >= (3, 10), "Python 3.10 or newer / 需要 Python 3.10 或更新版本"
assert torch.__version__.split("+")[0] == "2.13.0", f"torch 2.13.0 expected, found {torch.__version__}"
try:
    import annotated_nn  # noqa: F401
    import annotated_optim  # noqa: F401
except ImportError as error:
    raise ImportError("annotated_nn is not installed here: use the project's .venv (make venv)") from error

# 中: 用到随机数的示例各自设定种子；这里再固定一次，让其余的随机数也可重复。
# EN: Examples that draw random numbers seed themselves; this makes any other draw repeatable too.
_ = torch.manual_seed(0)
"""


@dataclass
class Links:
    """Where the notebook's links point. / notebook 中的链接指向哪里。

    ``base`` is the site's root as seen from the notebook: the absolute site URL when the book has
    one (``BOOK_SITE_URL``), otherwise the relative path from ``notebooks/`` (``"../"``).
    ``listings`` maps each ``::: annotated_nn.X`` object to the page that lists it.
    """

    base: str = "../"
    listings: dict[str, str] = field(default_factory=dict)

    def page(self, src_uri: str, anchor: str = "") -> str:
        """URL of a page of docs/ (and an anchor on it). / docs/ 中某页（及其锚点）的 URL。"""
        return self.base + page_url(src_uri) + (f"#{anchor}" if anchor else "")

    def object(self, dotted: str) -> str | None:
        """URL of the listing of a dotted object, or None. / 点号路径对象的代码清单的 URL。"""
        parts = dotted.split(".")
        for cut in range(len(parts), 1, -1):
            src = self.listings.get(".".join(parts[:cut]))
            if src is not None:
                return self.page(src, dotted)
        return None


def page_url(src_uri: str) -> str:
    """Site path of a page (directory URLs, as mkdocs writes them). / 页面在站点中的路径。"""
    if not src_uri.endswith(".md"):
        return src_uri
    stem = src_uri[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def notebook_name(src_uri: str, language: str) -> str:
    """Site path of a page's notebook. / 页面的 notebook 在站点中的路径。"""
    stem = src_uri[: -len(".md")].removeprefix("chapters/").replace("/", "-")
    return f"{FOLDER}/{stem}.{language}.ipynb"


def listing_index(docs: Path) -> dict[str, str]:
    """Every ``::: annotated_…`` object of docs/ → the page listing it. / 每个清单对象 → 列出它的页面。"""
    found: dict[str, str] = {}
    for path in sorted(docs.rglob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = DIRECTIVE.match(line)
            if match:
                found.setdefault(match.group(1), path.relative_to(docs).as_posix())
    return found


def _halves(text: str, separators: tuple[str, ...]) -> tuple[str, str] | None:
    """(English, Chinese) halves of a bilingual Markdown line, or None. / 双语 Markdown 文字的两半。"""
    codes: list[str] = []

    def protect(match: re.Match) -> str:
        codes.append(match.group(0))
        return f"<code>{len(codes) - 1}</code>"

    halves = bilingual.split_fragment(INLINE_CODE.sub(protect, text), separators)
    if halves is None:
        return None
    restore = lambda half: re.sub(r"<code>(\d+)</code>", lambda m: codes[int(m.group(1))], half)
    return restore(halves[0]).strip(), restore(halves[1]).strip()


def _one_language(text: str, language: str, separators=(" / ",)) -> str:
    """The chosen half of a bilingual line; other lines unchanged. / 双语文字取所选的一半。"""
    halves = _halves(text, separators)
    if halves is None:
        return text
    return halves[1] if language == "zh" else halves[0]


def _indented_block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines indented by 4 after ``start`` (dedented), and the index after them. / 缩进块。"""
    body, index = [], start
    while index < len(lines) and (not lines[index].strip() or lines[index].startswith("    ")):
        body.append(lines[index][4:])
        index += 1
    while body and not body[-1].strip():
        body.pop()
        index -= 1
    return body, index


def _fence_end(lines: list[str], start: int, indent: str) -> int:
    """Index of the closing fence of the fence opened at ``start``. / 代码围栏的结束行。"""
    for index in range(start + 1, len(lines)):
        if lines[index].strip() == "```" and lines[index].startswith(indent):
            return index
    raise ValueError(f"unclosed code fence at line {start + 1}")


class _Converter:
    """One page in one language: Markdown lines → items (``("md", text)`` / ``("code", src, out)``)."""

    def __init__(self, src_uri: str, language: str, links: Links) -> None:
        self.src_uri, self.language, self.links = src_uri, language, links
        self.items: list[tuple] = []
        self.answers_pointed = False

    # -- output -------------------------------------------------------------------------------
    def md(self, text: str) -> None:
        self.items.append(("md", text))

    def url(self, target: str) -> str:
        """A link target of the page, as a URL from the notebook. / 页面里的链接目标改为从 notebook 出发的 URL。"""
        if re.match(r"^[a-z]+:", target):
            return target
        if target.startswith("#"):
            return self.links.page(self.src_uri, target[1:])
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(self.src_uri), path))
        return self.links.page(resolved, anchor)

    def inline(self, text: str) -> str:
        """mkdocs-only inline syntax → plain Markdown. / 行内的 mkdocs 语法改为普通 Markdown。"""
        text = ATTRIBUTES.sub("", text)

        def autoref(match: re.Match) -> str:
            url = self.links.object(match.group(2))
            return f"[{match.group(1)}]({url})" if url else match.group(1)

        text = AUTOREF.sub(autoref, text)
        return LINK.sub(lambda m: m.group(1) + self.url(m.group(2)) + m.group(3), text)

    # -- blocks -------------------------------------------------------------------------------
    def convert(self, lines: list[str], bilingual_lines: bool) -> None:
        """Convert a run of Markdown lines (a page, or one tab's block). / 转换一段 Markdown。"""
        index = 0
        while index < len(lines):
            line = lines[index]
            stripped = line.strip()
            if not stripped:
                index += 1
                continue
            fence = FENCE_OPEN.match(line)
            if fence:
                index = self.fence(lines, index, fence.group(1), fence.group(2))
                continue
            tab = TAB.match(line)
            if tab:
                body, index = _indented_block(lines, index + 1)
                if tab.group(1) == TAB_LABEL[self.language]:
                    self.convert(body, bilingual_lines=False)
                elif tab.group(1) not in TAB_LABEL.values():
                    raise ValueError(f"{self.src_uri}: unknown tab {tab.group(1)!r}")
                continue
            admonition = ADMONITION.match(line)
            if admonition:
                body, index = _indented_block(lines, index + 1)
                self.admonition(admonition.group(2), admonition.group(3) or "", body)
                continue
            directive = DIRECTIVE.match(line)
            if directive:
                _, index = _indented_block(lines, index + 1)
                self.listing(directive.group(1))
                continue
            if stripped.startswith("<figure"):
                end = next(i for i in range(index, len(lines)) if "</figure>" in lines[i])
                self.figure("\n".join(lines[index : end + 1]))
                index = end + 1
                continue
            if stripped.startswith("<details"):
                end = next(i for i in range(index, len(lines)) if "</details>" in lines[i])
                block = "\n".join(lines[index : end + 1])
                summary = re.search(r"<summary>(.*?)</summary>", block, re.S)
                if summary and ANSWER.search(summary.group(1)):
                    self.answer_pointer()
                else:
                    self.md(self.inline(block))
                index = end + 1
                continue
            if re.match(r"^</?div\b", stripped) or stripped.startswith("<!--"):
                index += 1  # layout wrappers and comments of the site
                continue
            heading = HEADING.match(line)
            if heading:
                title = ATTRIBUTES.sub("", heading.group(2))
                title = _one_language(title, self.language, (" / ", " · "))
                self.md(f"{heading.group(1)} {self.inline(title)}")
                index += 1
                continue
            end = index
            while end < len(lines) and lines[end].strip() and not self.special(lines[end]):
                end += 1
            self.paragraph(lines[index:end], bilingual_lines)
            index = end

    @staticmethod
    def special(line: str) -> bool:
        """Does the line start a block of its own? / 这一行是否开始一个独立的块？"""
        s = line.strip()
        return bool(
            FENCE_OPEN.match(line)
            or TAB.match(line)
            or ADMONITION.match(line)
            or DIRECTIVE.match(line)
            or HEADING.match(line)
            or s.startswith(("<figure", "<details", "<div", "</div", "<!--"))
        )

    def paragraph(self, lines: list[str], bilingual_lines: bool) -> None:
        """A paragraph, list or table; bilingual lines outside tabs keep the chosen half. / 段落、列表或表格。"""
        if not bilingual_lines or lines[0].lstrip().startswith("|"):
            self.md(self.inline("\n".join(lines)))
            return
        units: list[list[str]] = []
        for line in lines:
            if LIST_ITEM.match(line) or not units:
                units.append([line])
            else:
                units[-1].append(line)
        out = []
        for unit in units:
            item = LIST_ITEM.match(unit[0])
            marker = item.group(1) if item else ""
            text = "\n".join([unit[0][len(marker) :]] + unit[1:])
            out.append(marker + _one_language(text, self.language))
        self.md(self.inline("\n".join(out)))

    def fence(self, lines: list[str], start: int, indent: str, language: str) -> int:
        """A code fence: an example becomes a code cell; anything else stays fenced. / 代码围栏。"""
        end = _fence_end(lines, start, indent)
        body = "\n".join(line[len(indent) :] for line in lines[start + 1 : end])
        after = end + 1
        while after < len(lines) and not lines[after].strip():
            after += 1
        following = FENCE_OPEN.match(lines[after]) if after < len(lines) else None
        if language == "python" and following and following.group(2) == "text":
            output_end = _fence_end(lines, after, following.group(1))
            output = "\n".join(
                line[len(following.group(1)) :] for line in lines[after + 1 : output_end]
            )
            self.items.append(("code", body, output))
            return output_end + 1
        self.md(f"```{language}\n{body}\n```")
        return end + 1

    def admonition(self, kind: str, title: str, body: list[str]) -> None:
        """An answer is left out (one pointer); another admonition becomes a block quote. / 提示框。"""
        if ANSWER.search(title):
            self.answer_pointer()
            return
        inner = _Converter(self.src_uri, self.language, self.links)
        inner.convert(body, bilingual_lines=True)
        text = "\n\n".join(
            item[1] if item[0] == "md" else f"```python\n{item[1]}\n```" for item in inner.items
        )
        heading = _one_language(title, self.language) if title else kind.capitalize()
        quoted = "\n".join("> " + line if line else ">" for line in text.splitlines())
        self.md(f"> **{self.inline(heading)}**\n>\n{quoted}")

    def answer_pointer(self) -> None:
        """One pointer to the page's folded answers. / 指向页面上折叠答案的一句话（只写一次）。"""
        if self.answers_pointed:
            return
        self.answers_pointed = True
        url = self.links.page(self.src_uri, "exercises")
        self.md(
            f"*练习的参考答案折叠在[书页上]({url})，这里留给你自己做。*"
            if self.language == "zh"
            else f"*The exercises' reference answers are folded on [the book's page]({url}); here they are left for you to do.*"
        )

    def listing(self, dotted: str) -> None:
        """A listing directive → a link to the listing on the page. / 代码清单指令 → 指向页面上清单的链接。"""
        url = self.links.page(self.src_uri, dotted)
        self.md(
            f"📄 `{dotted}` 的带注释代码清单在[书页上]({url})。"
            if self.language == "zh"
            else f"📄 The annotated listing of `{dotted}` is on [the book's page]({url})."
        )

    def figure(self, block: str) -> None:
        """A figure → its caption and a link to the drawing. / 图 → 图注与指向图的链接。"""
        images = re.findall(r"!\[([^\]]*)\]\(([^)\s]+)\)", block)
        caption = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", block, re.S)
        text = re.sub(r"<[^>]+>", "", caption.group(1)).strip() if caption else ""
        text = _one_language(" ".join(text.split()), self.language) if text else ""
        alt, target = images[0] if images else ("", "")
        label = "图" if self.language == "zh" else "Figure"
        shown = text or alt
        link = f"[{label}: {alt}]({self.url(target)})" if target and not text else label
        if target and text:
            link = f"[{label}]({self.url(target)})"
        self.md(f"*{link}*" + (f" — {self.inline(shown)}" if text else ""))


def page_notebook(
    markdown: str, src_uri: str, language: str, links: Links
) -> nbformat.NotebookNode:
    """The notebook of one story page in one language. / 一个正文页面在一种语言下的 notebook。

    ``markdown`` is the page's source as written in docs/ (``src_uri`` is its path there); the H1
    gets the page's number from tools/book/numbers.yml, as on the site.
    """
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, not {language!r}")
    markdown = numbering.number_heading(markdown, src_uri)
    converter = _Converter(src_uri, language, links)
    converter.convert(markdown.splitlines(), bilingual_lines=True)
    items = converter.items
    if not items or items[0][0] != "md" or not items[0][1].startswith("# "):
        raise ValueError(f"{src_uri}: a story page starts with its '# ' title")
    page, guide = links.page(src_uri), links.page(GET_THE_CODE)
    intro = (
        f"本 notebook 由书页[{items[0][1][2:]}]({page})生成：正文是书中的中文，代码单元是书中的示例，"
        f"按书中顺序排列，保存的输出就是书中印出的输出。在项目的 .venv 里从头到尾运行它"
        f"（见[获取代码与运行]({guide})）。带注释的代码清单只在书页上。"
        if language == "zh"
        else f"This notebook is made from the book's page [{items[0][1][2:]}]({page}): the text is the "
        f"page's English, the code cells are its examples in page order, and the stored outputs are "
        f"the outputs the book prints. Run it top to bottom with the project's .venv (see "
        f"[Get the code and run it]({guide})). The annotated listings are on the page only."
    )
    cells = [_markdown(items[0][1] + "\n\n" + intro), _markdown(SET_UP[language])]
    cells.append(_code(SET_UP_CODE.rstrip("\n")))
    pending: list[str] = []

    def flush() -> None:
        if pending:
            cells.append(_markdown("\n\n".join(pending)))
            pending.clear()

    for item in items[1:]:
        if item[0] == "md":
            if item[1].startswith("#"):
                flush()
            pending.append(item[1])
            continue
        flush()
        _, source, output = item
        outputs = [{"output_type": "stream", "name": "stdout", "text": output + "\n"}]
        cells.append(_code(source.rstrip("\n"), outputs if output else []))
    flush()
    # 中: 单元 id 由位置决定，两次构建写出的文件逐字节相同。
    # EN: Cell ids from their position, so two builds write byte-identical files.
    for number, cell in enumerate(cells):
        cell["id"] = f"{language}-{number}"
    notebook = nbformat.from_dict(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {
                "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                "language_info": {"name": "python"},
            },
            "cells": cells,
        }
    )
    # 中: 构建时不校验（nbformat 的 new_*_cell 逐个单元用 jsonschema 校验，94 本要多花好几秒）；
    # 中: tests/book/test_notebooks.py 用 nbformat.validate 校验每一本。
    # EN: Not validated at build time (nbformat's new_*_cell validates every cell with jsonschema,
    # EN: seconds over 94 notebooks); tests/book/test_notebooks.py validates each with nbformat.validate.
    return notebook


def _markdown(source: str) -> dict:
    """A Markdown cell. / Markdown 单元。"""
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def _code(source: str, outputs: list | None = None) -> dict:
    """A code cell, not run yet (its outputs are the book's). / 代码单元（输出取自书中）。"""
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": outputs or [],
        "source": source,
    }


def examples(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(code, the book's output) of every example cell, after the set-up cell. / 每个示例单元的代码与书中的输出。"""
    found = []
    for cell in notebook.cells[3:]:
        if cell.cell_type == "code":
            text = "".join(o["text"] for o in cell.outputs if o.get("name") == "stdout")
            found.append((cell.source, text))
    return found


def write(notebook: nbformat.NotebookNode) -> str:
    """The notebook file's text (nbformat's writer, without validating again). / notebook 文件的文本。"""
    return nbformat.v4.nbjson.writes(notebook) + "\n"


H1 = re.compile(r"^# .+$", re.M)


def with_download_link(markdown: str, src_uri: str) -> str:
    """The page's Markdown with the download link under its H1. / 在一级标题下加上下载链接。

    The link of each language downloads that language's notebook (the site shows one language at
    a time); its address is relative to the page's directory URL.
    """
    to_root = "../" * page_url(src_uri).count("/")
    names = {language: to_root + notebook_name(src_uri, language) for language in LANGUAGES}
    link = (
        '<p class="book-notebook" data-search-exclude>'
        f'<a class="book-zh" lang="zh" href="{names["zh"]}" download>下载本章 notebook</a>'
        f'<a class="book-en" lang="en" href="{names["en"]}" download>'
        "Download this chapter as a notebook</a></p>"
    )
    match = H1.search(markdown)
    if match is None:
        raise ValueError(f"{src_uri}: a story page starts with its '# ' title")
    return markdown[: match.end()] + "\n\n" + link + "\n" + markdown[match.end() :]
