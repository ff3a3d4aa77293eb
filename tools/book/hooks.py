"""mkdocs hooks of the annotated_nn book (``hooks:`` in mkdocs.yml). / 本书的 mkdocs 钩子。

- ``on_config`` starts tools/book/generated.py in a fresh process (so that it always sees the
  current code); it runs while mkdocs renders the chapters. ``on_files`` adds its pages and
  diagrams as virtual files, whose content is read when needed; ``on_env`` fills in the diagrams
  before mkdocs copies them. Nothing is written to docs/.
- ``on_nav`` / ``on_page_markdown``: the numbers of tools/book/numbers.yml go into the nav titles
  and the page's H1, and the home page's chapter map is drawn from them (tools/book/numbering.py);
  "Edit this page" points at the ``.py`` file of the page's first ``::: annotated_nn.…`` object
  (or at the generator, for generated pages).
- ``on_page_content``: fills each object's listing slot with its annotated listing
  (tools/book/listings.py) and a comparison with torch 2.13 (tools/book/panels.py), splits the
  bilingual text into the two languages (tools/book/bilingual.py), then makes repeated ``id``s
  unique.
- ``on_env``: once every page is rendered, links each chapter reference and ``Note [...]`` to its
  page and Note (tools/book/numbering.py), then sets the listings aside from the search parser.
- ``on_post_page``: splits the theme's bilingual titles (nav, table of contents, footer) and
  gives Material's interface words their English twin.
- ``on_post_build``: writes the comparison fragments, fetched when a reader opens a panel, and
  each story page's notebooks (tools/book/notebooks.py; the link sits under the page's H1).
- Recorded runs (tools/book/trace.py): ``on_config`` starts the recorder in a fresh process too;
  ``on_page_content`` replaces each ``<!-- trace: RUN_ID -->`` marker with the player's
  placeholder and notes the page's line anchors; ``on_post_build`` gives each recorded function
  the page that lists it, checks the anchors and writes ``traces/RUN_ID.json``.

``BOOK_PLACEHOLDERS=1`` adds a stub for each chapter in the nav that does not exist yet (for
building the book while the chapters are being written; never set in tests or CI).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bilingual  # noqa: E402  (tools/book/bilingual.py)
import get_the_code  # noqa: E402  (tools/book/get_the_code.py)
import listings  # noqa: E402  (tools/book/listings.py)
import lr_plots  # noqa: E402  (tools/book/lr_plots.py)
import notebooks  # noqa: E402  (tools/book/notebooks.py)
import numbering  # noqa: E402  (tools/book/numbering.py)
import panels  # noqa: E402  (tools/book/panels.py)

# tools/book/trace.py under a name of its own: ``import trace`` could be the standard library's.
_spec = importlib.util.spec_from_file_location("book_trace", HERE / "trace.py")
trace = importlib.util.module_from_spec(_spec)
sys.modules["book_trace"] = trace  # dataclasses look their module up while it runs
_spec.loader.exec_module(trace)

log = logging.getLogger("mkdocs.hooks.book")

DIRECTIVE = re.compile(r"^:::\s+(annotated_(?:nn|optim)(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$", re.M)
GENERATOR = "tools/book/generated.py"

_state: dict = {}


def _repo_edit_base(config) -> str | None:
    """``<repo_url>/edit/main/`` from the one ``repo_url`` setting. / 由唯一的 ``repo_url`` 设置得到编辑链接前缀。"""
    repo_url, edit_uri = config.get("repo_url"), config.get("edit_uri") or ""
    if not repo_url:
        return None
    # edit_uri is "edit/main/docs/": the branch part without the docs folder.
    branch_part = edit_uri.rstrip("/")
    if branch_part.endswith("/" + Path(config["docs_dir"]).name):
        branch_part = branch_part[: -len(Path(config["docs_dir"]).name) - 1]
    return repo_url.rstrip("/") + "/" + branch_part.strip("/") + "/"


def source_file_of(dotted: str) -> str | None:
    """Repository path of the ``.py`` file defining a dotted object. / 定义某个点号路径对象的 ``.py`` 文件在仓库中的路径。"""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT / "annotated_src" / Path(*parts[:cut])
        if base.with_suffix(".py").is_file():
            return base.with_suffix(".py").relative_to(ROOT).as_posix()
        if (base / "__init__.py").is_file():
            return (base / "__init__.py").relative_to(ROOT).as_posix()
    return None


def _nav_paths(nav) -> list[str]:
    """All page paths in the nav config. / nav 配置中的全部页面路径。"""
    found: list[str] = []
    if isinstance(nav, str):
        found.append(nav)
    elif isinstance(nav, list):
        for item in nav:
            found.extend(_nav_paths(item))
    elif isinstance(nav, dict):
        for value in nav.values():
            found.extend(_nav_paths(value))
    return found


def on_config(config, **kwargs):
    """Reset per-build state. / 重置每次构建的状态。"""
    _state.clear()
    _state["generator"] = _start_generator()
    # 中: 录制运行（tools/book/trace.py）也在后台的新进程里进行，与页面渲染同时。
    # EN: The recorded runs (tools/book/trace.py) run in a fresh background process too, while
    # EN: the pages render.
    _state["tracer"] = trace.start()
    _state["trace_pages"], _state["trace_marked"], _state["trace_anchors"] = {}, {}, {}
    _state["edit_base"] = _repo_edit_base(config)
    _state["fragments"] = {}
    # 中: 仓库地址只来自配置：环境变量 BOOK_REPO_URL 优先，其次 mkdocs.yml 的 repo_url；都没有时
    # 中: 不显示仓库链接和“编辑此页”按钮，绝不链接到不存在的仓库。
    # EN: The repository comes from configuration only: BOOK_REPO_URL first, then mkdocs.yml's
    # EN: repo_url; with neither, no repository link and no edit button, never a dead link.
    if os.environ.get("BOOK_REPO_URL"):
        config["repo_url"] = os.environ["BOOK_REPO_URL"].rstrip("/") + "/"
        config["repo_name"] = "/".join(config["repo_url"].rstrip("/").split("/")[-2:])
    if config.get("repo_url"):
        config["edit_uri"] = (
            os.environ.get("BOOK_EDIT_URI") or config.get("edit_uri") or "edit/main/docs/"
        )
        _state["edit_base"] = _repo_edit_base(config)
    if os.environ.get("BOOK_SITE_URL"):
        config["site_url"] = os.environ["BOOK_SITE_URL"].rstrip("/") + "/"
    _state["notebooks"] = {}
    _state["notebook_links"] = notebooks.Links(
        base=config.get("site_url") or "../",
        listings=notebooks.listing_index(Path(config["docs_dir"])),
    )
    return config


GENERATED_PAGES = (
    "generated/module-49.md",
    "generated/divergences.md",
    "generated/annotation-coverage.md",
    "generated/api-parity.md",
    "generated/diagrams.md",
)


def _start_generator() -> subprocess.Popen:
    """Run tools/book/generated.py in a fresh process, in the background. / 在后台的新进程中运行生成器。"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "annotated_src"), str(ROOT)]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    return subprocess.Popen(
        [sys.executable, str(ROOT / GENERATOR)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _generated_output() -> dict[str, str]:
    """The generator's files, waiting for it the first time. / 生成器产出的文件（第一次调用时等它结束）。"""
    if "output" not in _state:
        out, err = _state["generator"].communicate()
        if _state["generator"].returncode != 0:
            raise PluginError(f"{GENERATOR} failed:\n{err[-4000:]}")
        output = json.loads(out)
        if set(output) != _state["generated"]:
            raise PluginError(
                f"{GENERATOR} made {sorted(set(output) ^ _state['generated'])} unexpectedly: "
                "the committed diagrams/out/*.dot are stale; run `make diagrams`."
            )
        _state["output"] = output
    return _state["output"]


class GeneratedFile(File):
    """A generated page or diagram whose content comes from the generator process. / 内容来自生成器进程的页面或图。"""

    @property
    def content_string(self) -> str:
        """The generated text. / 生成的文字。"""
        return _generated_output()[self.src_uri]

    @property
    def content_bytes(self) -> bytes:
        """The generated text, encoded. / 编码后的生成文字。"""
        return self.content_string.encode("utf-8")


def on_files(files, config, **kwargs):
    """Add the generated pages and diagrams. / 加入生成的页面与图。

    The generator runs in its own process (it imports the current code) from ``on_config`` on,
    while mkdocs reads and renders the chapters: its pages are read near the end, its diagrams
    copied after all pages are rendered. Their names are known up front: the five pages and one
    SVG per committed ``diagrams/out/*.dot`` (a test keeps those fresh).
    """
    names = (
        list(GENERATED_PAGES)
        + [
            f"generated/diagrams/{dot.stem}{language}.svg"
            for dot in sorted((ROOT / "diagrams/out").glob("*.dot"))
            for language in ("", ".en")
        ]
        + lr_plots.NAMES
    )
    for src_uri in names:
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        generated = GeneratedFile.generated(config, src_uri, content="")
        files.append(generated)
    _state["generated"] = set(names)
    # 中: 源码包（docs/get-the-code.md 链接它）作为站点文件写出，见 tools/book/get_the_code.py。
    # EN: The source archive (linked from docs/get-the-code.md), a file of the site; see
    # EN: tools/book/get_the_code.py.
    files.append(
        File.generated(config, get_the_code.ARCHIVE, content=get_the_code.archive_bytes(ROOT))
    )
    if os.environ.get("BOOK_PLACEHOLDERS") == "1":
        for path in _nav_paths(config["nav"] or []):
            if path.endswith(".md") and files.get_file_from_path(path) is None:
                log.info("placeholder for missing page %s", path)
                title = Path(path).stem
                files.append(
                    File.generated(
                        config,
                        path,
                        content=f"# {title}\n\n（此页尚未写成 / This page is not written yet.）\n",
                    )
                )
    return files


# A finished listing (never searched: it carries data-search-exclude) and its stand-in.
LISTING_SECTION = re.compile(
    r'<section class="book-listing[^"]*" data-search-exclude.*?</section>', re.S
)
LISTING_STAND_IN = re.compile(r"<!--book-listing (\d+)-->")


@event_priority(-100)
def on_env(env, config, files, **kwargs):
    """Generated diagrams into their files; listings set aside. / 填入生成的图；把代码清单放在一旁。"""
    # 中: 优先级 -100：在 autorefs 修好页面里的链接（它的 on_env 优先级是 -50）之后才运行。
    # EN: Priority -100: runs after autorefs has fixed the pages' links (its on_env is at -50).
    output = _generated_output()
    for src_uri in _state["generated"]:
        file = files.get_file_from_path(src_uri)
        if file is not None:
            file._content = output[src_uri]
    # 中: 编号与 Note 的链接要看到所有页面（引用可以跨页），所以在这里、清单放到一旁之前做。
    # EN: Chapter and Note links need every page (references cross pages): done here, before
    #     the listings are set aside.
    numbering.link_pages(files)
    _set_listings_aside(files)
    return env


def _set_listings_aside(files) -> None:
    """Set finished listings aside until the page is written. / 页面写出之前先把做好的代码清单放在一旁。"""
    # 中: 搜索插件在 on_page_context 里用纯 Python 的 HTMLParser 把整页解析一遍，再丢掉带
    #     data-search-exclude 的部分；代码清单占了页面的大半。所以在 autorefs 修好链接之后
    #     （见 on_env）把清单换成注释占位，写出页面时（on_post_page）再放回去：页面逐字节不变。
    #     在一次带 cProfile 的构建里，搜索插件的解析因此从 27.5 秒降到 19.6 秒；而且清单里的
    #     HTML 曾让解析器丢掉第 15 章后面几节的文字（它们在索引里是空的），现在不会了。
    # EN: The search plugin parses each whole page with the pure-Python HTMLParser in
    #     on_page_context, then drops what carries data-search-exclude; listings are most of a
    #     page. So once autorefs has fixed the links (see on_env), listings are replaced by
    #     comment stand-ins and put back when the page is written (on_post_page): the page is
    #     byte for byte the same. In a build under cProfile the search plugin's parsing went
    #     from 27.5 s to 19.6 s; and the listings' HTML used to make the parser lose the text of
    #     chapter 15's last sections (they were empty in the index), which no longer happens.
    aside = _state["listings_aside"] = {}
    for file in files:
        page = file.page
        if page is None or not page.content:
            continue
        kept = aside[file.src_uri] = []

        def stand_in(match: re.Match, kept=kept) -> str:
            kept.append(match.group(0))
            return f"<!--book-listing {len(kept) - 1}-->"

        page.content = LISTING_SECTION.sub(stand_in, page.content)


def on_nav(nav, config, files, **kwargs):
    """Numbers in the navigation (tools/book/numbers.yml). / 导航中的编号。"""
    numbering.number_nav(nav)
    return nav


CHAPTER_MAP = "<!-- book:chapter-map -->"


def on_page_markdown(markdown, page, config, files, **kwargs):
    """Numbered titles; "Edit this page" at the code shown. / 带编号的标题；“编辑此页”指向所展示的代码。"""
    if page.file.src_uri in numbering.table():
        _add_notebooks(markdown, page.file.src_uri)
        markdown = notebooks.with_download_link(markdown, page.file.src_uri)
    if page.file.src_uri == get_the_code.PAGE:
        markdown = get_the_code.fill(markdown, config.get("repo_url"), get_the_code.ARCHIVE)
    markdown = numbering.number_heading(markdown, page.file.src_uri)
    if CHAPTER_MAP in markdown:
        chapter_map = numbering.chapter_map(
            config["nav"],
            lambda path: get_relative_url(files.get_file_from_path(path).url, page.url),
        )
        markdown = markdown.replace(CHAPTER_MAP, chapter_map)
    base = _state.get("edit_base")
    if base is None:
        return markdown
    if page.file.src_uri in _state.get("generated", ()):
        page.edit_url = base + GENERATOR
        return markdown
    match = DIRECTIVE.search(markdown)
    if match:
        source = source_file_of(match.group(1))
        if source:
            page.edit_url = base + source
    return markdown


def _add_notebooks(markdown: str, src_uri: str) -> None:
    """A story page's notebooks, one per language (tools/book/notebooks.py). / 正文页面的两个 notebook。"""
    for language in notebooks.LANGUAGES:
        notebook = notebooks.page_notebook(markdown, src_uri, language, _state["notebook_links"])
        _state["notebooks"][notebooks.notebook_name(src_uri, language)] = notebooks.write(notebook)


SLOT = re.compile(
    r'<div class="book-listing-slot" data-book-object="([^"]+)" data-book-module="([^"]+)"'
    r' data-book-file="([^"]+)"></div>'
)
COMPARE_DIR = "generated/compare"
CODE_BLOCK = re.compile(r'<div class="(?:language-\w+ )?(?:doc-signature )?highlight"(?: [^>]*)?>')
TEXT_TAGS = ("small", "p", "td", "th", "li", "dt", "dd", "figcaption", "summary", "caption")
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _relative(page, target: str) -> str:
    """URL of a site path relative to a page. / 站点内路径相对某页的 URL。"""
    return "../" * page.url.count("/") + target


def _listing_and_comparison(match: re.Match, page) -> str:
    """The listing of one slot, followed by its comparison panel. / 一个槽位的代码清单及其后的对照面板。"""
    dotted, module, path = match.group(1), match.group(2), match.group(3)
    # A slot written by hand in a page (the home page's sample) names its file from the root.
    path = str(ROOT / path)
    qualname = dotted[len(module) + 1 :]
    listing = listings.listing_html(path, module, qualname, dotted)
    found = panels.compare(dotted, path, qualname)
    if found is None:
        return listing
    torch_label = (
        f"<code>{found.torch_path}</code> · <code>{found.torch_file}</code>:{found.torch_line}"
    )
    if found.same:
        summary = (
            f'<span class="book-zh">与 PyTorch {panels.TORCH_VERSION} 代码相同</span>'
            f'<span class="book-en">Same code as PyTorch {panels.TORCH_VERSION}</span>'
            f" — {torch_label}"
        )
        return (
            listing
            + f'<p class="book-cmp-same" data-search-exclude>{summary}'
            + ' <small><span class="book-zh">（不计文档字符串与注释）</span>'
            + '<span class="book-en">(docstrings and comments aside)</span></small></p>'
        )
    name = dotted.replace("/", "_") + ".html"
    _state["fragments"][name] = found.fragment
    diff_note = ""
    if "book-diff" in listing:
        diff_note = (
            f' · <a href="{_relative(page, "generated/divergences/")}">'
            '<span class="book-zh">有意的差异（DIFF）</span>'
            '<span class="book-en">deliberate difference (DIFF)</span></a>'
        )
    summary = (
        f'<span class="book-zh">与 PyTorch {panels.TORCH_VERSION} 对照：{found.changed} 行不同</span>'
        f'<span class="book-en">Compared with PyTorch {panels.TORCH_VERSION}: {found.changed} lines differ</span>'
        f" — {torch_label}{diff_note}"
    )
    src = _relative(page, f"{COMPARE_DIR}/{name}")
    return (
        listing
        + f'<details class="book-cmp-panel" data-search-exclude data-book-src="{src}">'
        + f"<summary>{summary}</summary>"
        + '<p class="book-cmp-legend"><span class="book-cmp-torch">− torch 2.13</span> '
        + f'<span class="book-cmp-ours">+ {dotted.split(".")[0]}</span></p>'
        + '<div class="book-cmp-body"></div></details>'
    )


# A diagram linked to its full-size SVG: `[![alt](X.svg)](X.svg)` in the Markdown.
DIAGRAM_LINK = re.compile(r'<a href="([^"]+?)\.svg">(<img\b[^>]*\bsrc="\1\.svg"[^>]*>)</a>')


def _diagram_in_both_languages(match: re.Match) -> str:
    """A linked diagram as its Chinese and its English drawing. / 链接的图换成中文版与英文版两份。"""
    base, image = match.group(1), match.group(2)
    english = image.replace(f'src="{base}.svg"', f'src="{base}.en.svg"')
    return (
        f'<a class="book-zh" href="{base}.svg">{image}</a>'
        f'<a class="book-en" href="{base}.en.svg">{english}</a>'
    )


def on_page_content(html, page, config, files, **kwargs):
    """Listings, comparisons, one language at a time. / 代码清单、与 torch 的对照、一次一种语言。"""
    html = SLOT.sub(lambda m: _listing_and_comparison(m, page), html)
    html, run_ids = trace.placeholders(html, lambda target: _relative(page, target))
    _state["trace_pages"][page.file.src_uri] = page.url
    if run_ids:
        _state["trace_marked"][page.url] = run_ids
    html = DIAGRAM_LINK.sub(_diagram_in_both_languages, html)
    html = html.replace(listings.DIVERGENCES_LINK, _relative(page, "generated/divergences/"))
    html = panels.mark_comment_languages(html)
    # 中: 代码（签名、示例、清单）不进搜索索引：标识符靠标题和文档字符串就能搜到，索引因此小一半以上。
    # EN: Code (signatures, examples, listings) stays out of the search index: identifiers are found
    # EN: through headings and docstrings, and the index shrinks by more than half.
    html = CODE_BLOCK.sub(lambda m: m.group(0)[:-1] + " data-search-exclude>", html)
    html = bilingual.language_tabs(html)
    html = bilingual.cited_titles(html)
    # Innermost first: a <p> inside an <li> or <td> is split before its container is looked at.
    for tag in TEXT_TAGS:
        html = bilingual.split_elements(html, (tag,))
    html = bilingual.split_elements(html, HEADING_TAGS, separators=(" / ", " · "))
    html = bilingual.join_chinese_lines(html)
    html = panels.unique_ids(html)
    _state["trace_anchors"][page.url] = trace.line_ids(html)
    return html


# Whitespace whose layout matters: preformatted text, scripts, styles.
PREFORMATTED = re.compile(r"(<(pre|script|style|textarea)\b.*?</\2>)", re.S)
INDENTED_GAP = re.compile(r">[ \t]*\n\s+<")


def collapse_indentation(html: str) -> str:
    """Drop the templates' indentation between tags, outside preformatted text. / 去掉标签之间模板留下的缩进（预格式文本除外）。

    A line break followed by spaces renders as one space, exactly like the bare line break left
    in its place, so nothing a reader sees changes; the reference pages lose about 6% of their
    bytes (the API tables of mkdocstrings are indented deeply).
    """
    out, start = [], 0
    for element in PREFORMATTED.finditer(html):
        out += [INDENTED_GAP.sub(">\n<", html[start : element.start()]), element.group(0)]
        start = element.end()
    out.append(INDENTED_GAP.sub(">\n<", html[start:]))
    return "".join(out)


def on_post_page(output, page, config, **kwargs):
    """Listings back in place; theme titles and words in both languages. / 放回代码清单；主题中的标题与界面文字一分为二。"""
    output = collapse_indentation(output)
    kept = _state.get("listings_aside", {}).get(page.file.src_uri)
    if kept:
        output = LISTING_STAND_IN.sub(lambda m: kept[int(m.group(1))], output)
    head, body = output.split("<body", 1) if "<body" in output else ("", output)
    start, end = body.find("<article"), body.rfind("</article>")
    if start < 0 or end < 0:
        start = end = len(body)
    outside = body[:start], body[end:]
    fixed = []
    for part in outside:
        part = bilingual.split_elements(
            part, ("span", "div"), separators=(" / ", " · "), css_class="md-ellipsis"
        )
        fixed.append(bilingual.theme_strings(part))
    return head + "<body" + fixed[0] + body[start:end] + fixed[1]


def on_post_build(config, **kwargs):
    """Write the comparison fragments, the notebooks and the recorded runs. / 写出对照片段、notebook 与录制的运行。"""
    folder = Path(config["site_dir"]) / COMPARE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for name, fragment in _state.get("fragments", {}).items():
        (folder / name).write_text(fragment, encoding="utf-8")
    (Path(config["site_dir"]) / notebooks.FOLDER).mkdir(exist_ok=True)
    for name, text in _state.get("notebooks", {}).items():
        (Path(config["site_dir"]) / name).write_text(text, encoding="utf-8")
    try:
        runs = trace.collect(_state["tracer"])
        marked = {run_id for ids in _state["trace_marked"].values() for run_id in ids}
        if set(runs) != marked:
            raise RuntimeError(f"recorded runs {sorted(runs)} but the pages mark {sorted(marked)}")
        trace.write(
            config["site_dir"],
            trace.finish(runs, _state["trace_pages"], _state["trace_anchors"]),
        )
    except RuntimeError as error:
        raise PluginError(str(error)) from error


def on_serve(server, config, builder, **kwargs):
    """Rebuild when the book's tools or the diagram generators change. / 书的工具或图生成器改动时重新构建。"""
    for path in (HERE, ROOT / "diagrams" / "generate.py", ROOT / "annotated_src"):
        server.watch(str(path))
    return server
