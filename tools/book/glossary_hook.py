r"""mkdocs hook: render docs/glossary.yml into the glossary page. / mkdocs 钩子：把 docs/glossary.yml 渲染进术语表页面。

A page containing the marker `<!-- glossary -->` gets, in its place, the glossary as two content
tabs: a Chinese table (term, English, definition, renderings to avoid) and an English table (term,
Chinese, definition). The labels are the site's usual `中文` / `English`, so the reader's language
choice applies here too. The same YAML file drives the glossary check of `make annotations`.

含有标记 `<!-- glossary -->` 的页面，会在标记处得到两个内容标签页形式的术语表：中文表（术语、
英文、释义、不要写成）和英文表（术语、中文、释义）。标签名与全站一致（`中文` / `English`），
读者选定的语言在这里同样生效。`make annotations` 的术语检查读的也是同一个 YAML 文件。
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


def render_glossary(path: Path) -> str:
    r"""Build the two glossary tables. / 生成两张术语表。

    === "中文"

        按文件中的顺序排列术语（文件里已按主题分组）。表格缩进 4 个空格，放在
        `=== "中文"` 与 `=== "English"` 两个标签页里。

    === "English"

        Terms keep the file's order (the file groups them by topic). Each table is indented by
        4 spaces inside the `=== "中文"` and `=== "English"` tabs.

    Args:
        path: The glossary YAML file. / 术语表 YAML 文件。

    Returns:
        Markdown for the page. / 页面用的 Markdown。
    """
    import yaml

    terms = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["terms"]
    zh = [
        '=== "中文"',
        "",
        "    | 术语 | English | 释义 | 不要写成 |",
        "    |---|---|---|---|",
    ]
    en = [
        '=== "English"',
        "",
        "    | Term | 中文 | Definition |",
        "    |---|---|---|",
    ]
    for term in terms:
        avoid = "、".join(_cell(word) for word in term.get("forbidden_zh") or []) or "—"
        zh.append(
            f"    | **{_cell(term['zh'])}** | {_cell(term['en'])} | "
            f"{_cell(term['definition_zh'])} | {avoid} |"
        )
        en.append(
            f"    | **{_cell(term['en'])}** | {_cell(term['zh'])} | {_cell(term['definition_en'])} |"
        )
    return "\n".join(zh + [""] + en) + "\n"


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
    return markdown.replace(MARKER, render_glossary(root / GLOSSARY))
