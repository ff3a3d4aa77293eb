r"""mkdocs hook: render docs/glossary.yml into the glossary page. / mkdocs 钩子：把 docs/glossary.yml 渲染进术语表页面。

A page containing the marker `<!-- glossary -->` gets, in its place, one table: the Chinese term,
the English term, a one-line meaning in the reader's language and a link to the page that
explains it. The renderings to avoid (`forbidden_zh`) are for authors: CONTRIBUTING and
`make annotations` use them, the reader's page does not show them.

含有标记 `<!-- glossary -->` 的页面，会在标记处得到一张表：中文术语、英文术语、用读者所选语言
写的一句话含义，以及讲解它的页面链接。“不要写成”（`forbidden_zh`）是写给作者的规则，
CONTRIBUTING 与 `make annotations` 使用它，读者看到的页面不列出。
"""

from __future__ import annotations

import re
from pathlib import Path

MARKER = "<!-- glossary -->"
# Relative to the project root. / 相对项目根目录。
GLOSSARY = "docs/glossary.yml"
PAGE = "docs/chapters/appendix/glossary.md"


# A CJK character or a full-width punctuation mark. / 汉字或全角标点。
_WIDE = "[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"


def _cell(text: object) -> str:
    r"""Make a value safe inside a Markdown table cell. / 让文字可以安全地放进 Markdown 表格单元格。

    === "中文"

        合并换行并转义竖线，否则表格会被拆坏。YAML 折叠换行时会在两个汉字之间留下空格，
        这里把它去掉；中英文之间的空格保留。

    === "English"

        Folds line breaks and escapes pipes, which would otherwise break the table. YAML's
        folding leaves a space between two Chinese characters where a line was wrapped; that
        space is removed, while spaces between Chinese and Latin text stay.

    Args:
        text: Any value from the YAML file. / YAML 文件中的任意值。

    Returns:
        One line of cell text. / 一行单元格文字。
    """
    folded = " ".join(str(text).split())
    folded = re.sub(f"(?<={_WIDE}) (?={_WIDE})", "", folded)
    return folded.replace("|", "\\|")


def _page_link(target: str, titles: dict[str, str]) -> str:
    r"""A Markdown link to the page that explains a term. / 指向讲解某术语的页面的 Markdown 链接。

    === "中文"

        链接文字是该页在导航栏里的标题，拆成两种语言（各包一层 span，只显示读者所选的语言）；
        路径相对术语表页面（`chapters/appendix/`）。

    === "English"

        The link text is the page's title in the nav, split into its two languages (each in a span,
        so the reader sees one); the path is relative to the glossary page (`chapters/appendix/`).

    Args:
        target: Docs path with an optional anchor. / docs 内的路径，可带锚点。
        titles: Nav title of each docs path. / 每个 docs 路径在导航栏中的标题。

    Returns:
        The link. / 链接。
    """
    path, _, anchor = target.partition("#")
    title = titles.get(path, path)
    chinese, _, english = title.replace("_", "&#95;").partition(" / ")
    label = (
        f'<span class="book-zh">{chinese}</span><span class="book-en">{english or chinese}</span>'
    )
    relative = "../" + path[len("chapters/") :] if path.startswith("chapters/") else "../../" + path
    return f"[{label}]({relative}{'#' + anchor if anchor else ''})"


def nav_titles(nav) -> dict[str, str]:
    r"""Nav title of every page in mkdocs' nav setting. / mkdocs 导航配置中每个页面的标题。

    === "中文"

        递归展开嵌套的分节。

    === "English"

        Walks into nested sections.

    Args:
        nav: The `nav` setting. / `nav` 配置。

    Returns:
        Docs path → title. / docs 路径 → 标题。
    """
    found: dict[str, str] = {}
    for item in nav or []:
        if isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, str):
                    found[value] = title
                else:
                    found.update(nav_titles(value))
    return found


def render_glossary(path: Path, titles: dict[str, str]) -> str:
    r"""Build the glossary table for readers. / 生成给读者看的术语表。

    === "中文"

        按文件中的顺序排列术语（文件里已按主题分组）：中文、English、一句话的含义（只显示读者
        所选的语言）和讲解它的页面。“不要写成”的写法是写作规则，留在 CONTRIBUTING 与检查器里。

    === "English"

        Terms keep the file's order (the file groups them by topic): Chinese, English, a one-line
        meaning (in the reader's language) and the page that explains it. The renderings to avoid
        are a rule for authors; they stay in CONTRIBUTING and the checker.

    Args:
        path: The glossary YAML file. / 术语表 YAML 文件。
        titles: Nav title of each docs path. / 每个 docs 路径在导航栏中的标题。

    Returns:
        Markdown for the page. / 页面用的 Markdown。
    """
    import yaml

    terms = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["terms"]
    rows = [
        '<div class="book-glossary" markdown="1">',
        "",
        '| <span class="book-zh">中文</span><span class="book-en">Chinese</span> | English | '
        '<span class="book-zh">含义</span><span class="book-en">Meaning</span> | '
        '<span class="book-zh">讲解</span><span class="book-en">Explained in</span> |',
        "|---|---|---|---|",
    ]
    for term in terms:
        meaning = (
            f'<span class="book-zh">{_cell(term["definition_zh"])}</span>'
            f'<span class="book-en">{_cell(term["definition_en"])}</span>'
        )
        link = _page_link(term["where"], titles) if term.get("where") else "—"
        rows.append(
            f'| <span class="book-term-zh" lang="zh">{_cell(term["zh"])}</span> | '
            f"**{_cell(term['en'])}** | {meaning} | {link} |"
        )
    rows += ["", "</div>"]
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    r"""Replace the marker with the glossary. / 用术语表替换标记。

    === "中文"

        mkdocs 对每个页面调用它；没有标记的页面原样返回。YAML 文件位于 `docs/` 中，
        `mkdocs serve` 会监视它，修改后页面自动重新生成。

    === "English"

        mkdocs calls it for every page; pages without the marker come back unchanged. The YAML
        file is inside `docs/`, which `mkdocs serve` watches, so editing it rebuilds the page.

    Args:
        markdown: The page's Markdown source. / 页面的 Markdown 源文本。
        page: The mkdocs page. / mkdocs 页面对象。
        config: The mkdocs configuration. / mkdocs 配置。
        files: All files of the site. / 站点的全部文件。
        **kwargs: Arguments of later mkdocs versions. / 以后的 mkdocs 版本可能传入的参数。

    Returns:
        The page's Markdown. / 页面的 Markdown。
    """
    if MARKER not in markdown:
        return markdown
    root = Path(config["config_file_path"]).resolve().parent
    return markdown.replace(MARKER, render_glossary(root / GLOSSARY, nav_titles(config["nav"])))
