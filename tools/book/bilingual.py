"""One language at a time: split the book's bilingual HTML. / 一次只显示一种语言：拆分书中的双语 HTML。

The sources stay bilingual (``=== "中文"`` / ``=== "English"`` tabs, ``English. / 中文。`` summary
lines, ``中文 / English`` headings and nav titles). The built pages wrap each half in
``<span class="book-zh">`` / ``<span class="book-en">`` (or ``div``), and docs/assets/book.css
shows only the reader's language (``<html data-book-lang>``, set by docs/assets/lang.js):

- ``language_tabs``: a tab set labelled exactly 中文 / English becomes its two blocks, each
  wrapped in its language; the header button is the one switch of the site.
- ``split_elements``: an element whose text reads ``English / 中文`` or ``中文 / English`` (the
  cut falls at the `` / `` with Chinese on one side only; inline code does not count) gets its
  two halves wrapped. Headings, nav titles and table-of-contents entries may also use `` · ``.
  An element inside a block that is already one language's (a tab's block, a listing's note) is
  left whole: its slashes are that language's own ("`# 中:` / `# EN:`" in English prose).
- ``theme_strings``: Material's own interface words (目录, 上一页 ...) get Material's own English
  translation beside them.
- ``join_chinese_lines``: a line break of the Markdown source between two Chinese characters is
  removed, so the browser does not show it as a space inside a Chinese sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
TAG = re.compile(r"<[^>]+>")
CODE = re.compile(r"<code\b.*?</code>", re.S)
DIV = re.compile(r"<(/?)div\b")
BLOCK_START = re.compile(r"<(?:ul|ol|p|div|table|pre|details|dl|blockquote)\b")


def _closing_div(text: str, start: int) -> int:
    """End of the ``<div>`` opening at ``start`` (index after ``</div>``). / 从 start 处开始的 div 的结束位置。"""
    depth = 0
    for match in DIV.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return text.index(">", match.end()) + 1
    return len(text)


TABBED_SET = re.compile(r'<div class="tabbed-set[^"]*"[^>]*>')
LABELS = re.compile(r'<div class="tabbed-labels">(.*?)</div>', re.S)


def language_tabs(page: str) -> str:
    """Turn every 中文/English tab set into two language blocks. / 把每组“中文/English”标签页换成两个语言块。"""
    out, pos = [], 0
    for match in TABBED_SET.finditer(page):
        if match.start() < pos:
            continue  # nested inside a set already rewritten
        end = _closing_div(page, match.start())
        block = page[match.start() : end]
        labels = LABELS.search(block)
        names = re.findall(r"<label[^>]*>(.*?)</label>", labels.group(1)) if labels else []
        labels = [TAG.sub("", n).strip() for n in names]
        # Two language tab pairs written one after the other merge into one set of four tabs
        # (中文, English, 中文, English): each pair becomes its two blocks, in order.
        if not labels or len(labels) % 2 or labels != ["中文", "English"] * (len(labels) // 2):
            continue
        bodies = []
        cursor = block.find('<div class="tabbed-content">')
        for _ in labels:
            start = block.find('<div class="tabbed-block">', cursor)
            stop = _closing_div(block, start)
            bodies.append(block[start + len('<div class="tabbed-block">') : stop - len("</div>")])
            cursor = stop
        out.append(page[pos : match.start()])
        for zh, en in zip(bodies[0::2], bodies[1::2]):
            out.append(
                f'<div class="book-zh" lang="zh">{language_tabs(zh)}</div>'
                f'<div class="book-en" lang="en">{language_tabs(en)}</div>'
            )
        pos = end
    out.append(page[pos:])
    return "".join(out)


def _visible(fragment: str) -> str:
    """Text of an HTML fragment without tags and inline code. / 去掉标签与行内代码后的文字。"""
    return TAG.sub("", CODE.sub("", fragment))


def split_fragment(fragment: str, separators: tuple[str, ...] = (" / ",)) -> tuple[str, str] | None:
    """(English, Chinese) halves of a bilingual HTML fragment, or None. / 双语 HTML 片段的（英文, 中文）两半，不是双语则为 None。

    Candidate cuts are the separators (any white space around them) outside tags and code.
    English first: the last cut with no Chinese before it; Chinese first: the first cut with no
    Chinese after it. Chinese inside inline code is ignored at first (``English `x`. / 中文 `x`。``),
    and counted when that finds no cut (``(a, b)`` / ``(甲, 乙)`` written as code on both sides).
    """
    if not CJK.search(TAG.sub("", fragment)):
        return None
    protected = [(m.start(), m.end()) for m in CODE.finditer(fragment)]
    protected += [(m.start(), m.end()) for m in TAG.finditer(fragment)]
    cuts = []
    for separator in separators:
        pattern = r"\s+" + re.escape(separator.strip()) + r"\s+"
        for match in re.finditer(pattern, fragment):
            if not any(a <= match.start() < b for a, b in protected):
                cuts.append((match.start(), match.end()))
    cuts.sort()
    for text_of in (_visible, lambda f: TAG.sub("", f)):
        found = _best_cut(fragment, cuts, text_of)
        if found:
            return found
    return None


def _best_cut(fragment: str, cuts: list[tuple[int, int]], text_of) -> tuple[str, str] | None:
    """The English-first or Chinese-first cut, judged on ``text_of`` each half. / 按 text_of 判断的英文在前或中文在前的切分点。"""

    def chinese(half: str) -> bool:
        return bool(CJK.search(text_of(half)))

    def english(half: str) -> bool:
        return bool(TAG.sub("", half).strip()) and not chinese(half)

    english_first = [c for c in cuts if english(fragment[: c[0]]) and chinese(fragment[c[1] :])]
    if english_first:
        cut = english_first[-1]
        return _balanced(fragment[: cut[0]], fragment[cut[1] :])
    chinese_first = [c for c in cuts if chinese(fragment[: c[0]]) and english(fragment[c[1] :])]
    if chinese_first:
        cut = chinese_first[0]
        return _balanced(fragment[cut[1] :], fragment[: cut[0]])
    return None


def _balanced(english: str, chinese: str) -> tuple[str, str] | None:
    """Both halves, if neither leaves a tag open. / 两半都不留下未闭合的标签时返回它们。"""
    for half in (english, chinese):
        opened = re.findall(r"<([a-z0-9]+)\b[^>]*(?<!/)>", half)
        closed = re.findall(r"</([a-z0-9]+)>", half)
        if sorted(t for t in opened if t not in ("br", "img", "input", "wbr")) != sorted(closed):
            return None
    return english, chinese


NOTE_TITLE = re.compile(r"^(\s*Note \[[^\]]+\])\s+(.*[\u4e00-\u9fff].*?)(\s*)$", re.S)


def _wrap(fragment: str, separators: tuple[str, ...]) -> str:
    """Wrap the two halves of one fragment in language spans. / 把片段的两半分别包进语言 span。"""
    # A Note's title, "Note [English name] 中文标题": the name is what `# See Note [...]` cites,
    # so both languages keep it; the Chinese title shows in Chinese only.
    note = NOTE_TITLE.match(fragment)
    if note:
        return (
            f'{note.group(1)} <span class="book-zh" lang="zh">{note.group(2)}</span>{note.group(3)}'
        )

    # Only the text before a nested block (a list inside an item, say) is this element's own.
    block = BLOCK_START.search(fragment)
    head, tail = (fragment[: block.start()], fragment[block.start() :]) if block else (fragment, "")
    halves = split_fragment(head, separators)
    if halves is None:
        return fragment
    trailing = re.search(r"\s*$", head).group(0)
    english, chinese = halves
    return (
        f'<span class="book-zh" lang="zh">{chinese.strip()}</span>'
        f'<span class="book-en" lang="en">{english.strip()}</span>{trailing}{tail}'
    )


LANGUAGE_BLOCK = re.compile(r'<div class="book-(?:zh|en)"[^>]*>')


def language_blocks(page: str) -> list[tuple[int, int]]:
    """Spans of the page's one-language ``div`` blocks. / 页面中单一语言的 div 块所占的范围。"""
    return [(m.start(), _closing_div(page, m.start())) for m in LANGUAGE_BLOCK.finditer(page)]


def split_elements(
    page: str,
    tags: tuple[str, ...],
    separators: tuple[str, ...] = (" / ",),
    css_class: str | None = None,
) -> str:
    """Split the text of every element of the given tags (and class). / 拆分给定标签（及类名）的每个元素的文字。"""
    attributes = rf'[^>]*class="{css_class}"[^>]*' if css_class else r"[^>]*"
    pattern = re.compile(rf"(<({'|'.join(tags)})\b{attributes}>)(.*?)(</\2>)", re.S)
    blocks: list[tuple[int, int]] | None = None

    def replace(match: re.Match) -> str:
        nonlocal blocks
        inner = match.group(3)
        if 'class="book-zh"' in inner or "book-listing" in inner:
            return match.group(0)
        # A heading's permalink anchor stays outside the halves.
        anchor = re.search(r'<a class="headerlink"[^>]*>.*?</a>\s*$', inner, re.S)
        body, link = (inner[: anchor.start()], inner[anchor.start() :]) if anchor else (inner, "")
        wrapped = _wrap(body, separators)
        if wrapped != body:
            # 中: 已经属于一种语言的块（“中文”/“English”标签页、清单的注释）里的文字只有一种语言，
            #     不再拆分：英文里写着 “`# 中:` / `# EN:`” 时，这个斜杠不是语言的分界。
            # EN: Text inside a block that is already one language's (a 中文 / English tab, a
            #     listing's note) is in that language only and is not split again: where English
            #     writes "`# 中:` / `# EN:`", that slash is no language boundary.
            if blocks is None:
                blocks = language_blocks(page)
            if any(start <= match.start() < end for start, end in blocks):
                return match.group(0)
        return match.group(1) + wrapped + link + match.group(4)

    return pattern.sub(replace, page)


# ---------------------------------------------------------------------------------------------
# Material's interface words / Material 的界面文字
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def theme_translations() -> dict[str, str]:
    """Material's Chinese interface words → its English ones. / Material 的中文界面文字 → 英文。"""
    import material

    folder = Path(material.__file__).parent / "templates" / "partials" / "languages"

    def table(name: str) -> dict[str, str]:
        text = (folder / f"{name}.html").read_text(encoding="utf-8")
        return dict(re.findall(r'"([\w.-]+)":\s*"((?:[^"\\]|\\.)*)"', text))

    english, chinese = table("en"), table("zh")
    return {chinese[k]: english[k] for k in chinese if k in english and chinese[k] != english[k]}


def theme_strings(page: str) -> str:
    """Give Material's Chinese interface words their English twin. / 给 Material 的中文界面文字配上英文。

    Text between tags that is exactly one of Material's Chinese words gets both languages;
    ``placeholder``, ``aria-label`` and ``title`` attributes get a ``data-book-en-…`` twin that
    docs/assets/lang.js swaps in.
    """
    words = theme_translations()

    def text(match: re.Match) -> str:
        word = match.group(2).strip()
        if word in words:
            english, chinese = words[word], word
        else:
            halves = split_fragment(word)
            if halves is None:
                return match.group(0)
            english, chinese = halves
        return (
            f'{match.group(1)}<span class="book-zh">{chinese}</span>'
            f'<span class="book-en">{english}</span>{match.group(3)}'
        )

    page = re.sub(r"(>\s*)([^<>]{1,200}?)(\s*<)", text, page)

    def attribute(match: re.Match) -> str:
        name, value = match.group(1), match.group(2)
        if value in words:
            return f'{name}="{value}" data-book-en-{name}="{words[value]}"'
        halves = split_fragment(value)
        if halves:
            return f'{name}="{halves[1]}" data-book-en-{name}="{halves[0]}"'
        return match.group(0)

    return re.sub(r'\b(placeholder|aria-label|title)="([^"<>]*)"', attribute, page)


CITED_TITLE = re.compile(r"《[^《》<>]{1,120}》")


def cited_titles(page: str) -> str:
    """Mark the titles of cited Chinese articles. / 标出所引用的中文文章标题。

    A title in 《》 is a proper name: an English text that cites a Chinese article keeps its
    original title, so that a reader can find it. It is wrapped in ``<cite lang="zh">``, the one
    kind of Chinese that English mode shows besides the glossary's term column.
    """
    parts = re.split(r"(<[^>]+>)", page)
    in_code = 0
    for index, part in enumerate(parts):
        if part.startswith("<"):
            if re.match(r"<(code|pre|script|style)\b", part):
                in_code += 1
            elif re.match(r"</(code|pre|script|style)>", part):
                in_code = max(0, in_code - 1)
            continue
        if not in_code:
            parts[index] = CITED_TITLE.sub(
                lambda m: f'<cite class="book-cite" lang="zh">{m.group(0)}</cite>', part
            )
    return "".join(parts)


# A source line break (with the next line's indentation) between two Chinese characters, and the
# blocks whose line breaks are content (code, preformatted text), left untouched.
CHINESE_LINE_BREAK = re.compile(f"(?<={CJK.pattern})\\n[ \\t]*(?={CJK.pattern})")
PREFORMATTED = re.compile(r"<(pre|textarea|script)\b.*?</\1>", re.S)


def join_chinese_lines(page: str) -> str:
    """Drop source line breaks inside Chinese text. / 去掉中文句子里来自源文件的换行。"""
    # 中: 浏览器把 HTML 里的换行当作空格显示；Chrome 在两个汉字之间也照样留一个空格（CSS 规范
    #     允许去掉它，但 Chrome 不去），于是 Markdown 里折行的中文句子中间会多出空格。代码与
    #     预排版文字里的换行是内容，不动。
    # EN: Browsers show a line break in HTML as a space; Chrome does so between two Chinese
    #     characters too (CSS allows dropping it; Chrome does not), so a Chinese sentence
    #     wrapped in the Markdown gains stray spaces. Line breaks in code and preformatted text
    #     are content and stay.
    pieces, last = [], 0
    for block in PREFORMATTED.finditer(page):
        pieces.append(CHINESE_LINE_BREAK.sub("", page[last : block.start()]))
        pieces.append(block.group(0))
        last = block.end()
    pieces.append(CHINESE_LINE_BREAK.sub("", page[last:]))
    return "".join(pieces)
