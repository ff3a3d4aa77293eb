"""The book's numbers and the links they make. / 本书的编号及由编号生成的链接。

One table, tools/book/numbers.yml, gives every story page its number: a chapter of one page
("6") or a page of a part ("18.2"; chapter 18 is the part, and a link to it lands on 18.1).
Everything else is derived from it at build time (tools/book/hooks.py calls these functions):

- ``number_nav``: the navigation titles get the number in both languages, "第 6 章 调用… /
  6 __call__ …", "18.2 卷积 / 18.2 Convolution"; a part's section "第 18 章 层 / 18 Layers".
  The build fails if the numbers do not increase down the navigation.
- ``number_heading``: the page's H1 likewise ("第 6 章 调用与前向钩子 · 6 Calling a module …").
- ``chapter_map``: the home page's map of the numbered chapters (Markdown, both languages).
- ``link_pages``: in the built HTML of every page, each chapter reference of the prose ("第 6 章",
  "第 6、7 章", "第 1–12 章", "第 19.3 节", "chapter 6", "chapters 6 and 7", "section 19.3")
  becomes a link to its page, and each ``Note [title]`` (prose, docstrings, the notes and
  comments of listings) a link to that Note. A Note is a docstring section ``Note: Note [title]
  中文标题``, which mkdocstrings renders as a ``<details class="note">``; it gets the stable id
  ``note-<title as a slug>``. Code, headings and existing links are left alone (in code, only a
  comment's ``Note [...]`` is linked). An unknown chapter number or a Note that no page defines
  fails the build.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

TABLE = Path(__file__).resolve().parent / "numbers.yml"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Number:
    """A story page's number. / 正文一页的编号。"""

    text: str  # "6" or "18.2"

    @property
    def key(self) -> tuple[int, ...]:
        """The number as a sortable tuple. / 可比较大小的元组形式。"""
        return tuple(int(part) for part in self.text.split("."))

    @property
    def chapter(self) -> str:
        """The chapter it belongs to ("18" for "18.2"). / 所属的章。"""
        return self.text.split(".")[0]

    @property
    def zh(self) -> str:
        """Chinese label: 第 6 章 / 18.2. / 中文标签。"""
        return self.text if "." in self.text else f"第 {self.text} 章"

    @property
    def en(self) -> str:
        """English label: 6 / 18.2. / 英文标签。"""
        return self.text


@lru_cache(maxsize=1)
def _read(mtime: float) -> dict[str, Number]:
    data = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    return {path: Number(str(number)) for path, number in data.items()}


def table() -> dict[str, Number]:
    """Page path (under docs/) → its number. / 页面路径（docs/ 之下）→ 编号。"""
    return _read(TABLE.stat().st_mtime)


def targets() -> dict[str, str]:
    """Every citable number → the page it lands on (a part's chapter → its first page). / 可引用的编号 → 目标页面。"""
    found: dict[str, str] = {}
    for path, number in sorted(table().items(), key=lambda item: item[1].key):
        found[number.text] = path
        found.setdefault(number.chapter, path)
    return found


# ---------------------------------------------------------------------------------------------
# Titles / 标题
# ---------------------------------------------------------------------------------------------


def _halves(title: str, separator: str) -> tuple[str, str]:
    """(Chinese, English) halves of "中文 <sep> English"; one-language titles twice. / 标题的中英两半。"""
    pieces = title.split(separator)
    for cut in range(1, len(pieces)):
        zh, en = separator.join(pieces[:cut]), separator.join(pieces[cut:])
        if CJK.search(re.sub(r"`[^`]*`", "", zh)) and not CJK.search(en):
            return zh.strip(), en.strip()
    return title.strip(), title.strip()


def numbered_title(number: Number, title: str, separator: str) -> str:
    """A bilingual title with the number in both halves. / 两种语言都带上编号的标题。"""
    zh, en = _halves(title, separator)
    if zh == en and number.zh == number.en:
        return f"{number.en} {en}"  # one title and one label for both languages: "18.2 Linear"
    return f"{number.zh} {zh}{separator}{number.en} {en}"


def _pages_of(item) -> list[Page]:
    if isinstance(item, Page):
        return [item]
    if isinstance(item, Section):
        return [page for child in item.children for page in _pages_of(child)]
    return []


def number_nav(nav) -> None:
    """Number the navigation's pages and parts, checking the order. / 为导航中的页面与部分编号，并检查顺序。"""
    numbers = table()
    seen: list[tuple[Number, str]] = []
    for page in nav.pages:
        number = numbers.get(page.file.src_uri)
        if number is not None:
            seen.append((number, page.file.src_uri))
            page.title = numbered_title(number, page.title, " / ")
    missing = set(numbers) - {path for _, path in seen}
    if missing:
        raise PluginError(f"{TABLE.name} numbers pages that are not in the nav: {sorted(missing)}")
    for (before, before_path), (after, after_path) in zip(seen, seen[1:]):
        if not before.key < after.key:
            raise PluginError(
                f"{TABLE.name}: {after_path} ({after.text}) follows {before_path} "
                f"({before.text}) in the nav; numbers must increase down the navigation"
            )

    def sections(items):
        for item in items:
            if isinstance(item, Section):
                yield item
                yield from sections(item.children)

    for section in sections(nav.items):
        # 中: 一个分节的各页都属于同一章（18.1、18.2……）时，它就是这一章，标题带上章号。
        # EN: A section whose pages all belong to one chapter (18.1, 18.2, ...) is that chapter.
        inside = [numbers.get(p.file.src_uri) for p in _pages_of(section)]
        if inside and all(n is not None and "." in n.text for n in inside):
            chapters = {n.chapter for n in inside}
            if len(chapters) == 1:
                section.title = numbered_title(Number(chapters.pop()), section.title, " / ")


H1 = re.compile(r"^# (.+)$", re.M)


def number_heading(markdown: str, src_uri: str) -> str:
    """The page's H1 with its number in both languages. / 给页面的一级标题加上两种语言的编号。"""
    number = table().get(src_uri)
    if number is None:
        return markdown
    match = H1.search(markdown)
    if match is None:
        raise PluginError(f"{src_uri} is numbered in {TABLE.name} but has no '# ' title")
    heading = match.group(1)
    if re.match(r"(第\s*\d+\s*章|\d+(\.\d+)?\s)", heading):
        raise PluginError(
            f"{src_uri}: the title {heading!r} carries a number; numbers come from {TABLE.name}"
        )
    return (
        markdown[: match.start(1)]
        + numbered_title(number, heading, " · ")
        + markdown[match.end(1) :]
    )


def _markdown_text(title: str) -> str:
    """A nav title as literal Markdown text (``__call__`` stays as written). / 导航标题作为字面 Markdown 文字。"""
    return re.sub(r"([\\`*_\[\]])", r"\\\1", title)


def chapter_map(nav_config: list, href) -> str:
    """The home page's chapter map, in both languages. / 首页的章节地图（双语）。

    The one-page chapters as an HTML list in columns (``href`` gives a page path's URL from the
    home page), then one Markdown line per part listing its pages.
    """
    numbers = table()
    chapters: list[str] = []
    parts: list[str] = []

    def entry(title: str, path: str) -> str:
        zh, en = (html.escape(half) for half in _halves(title, " / "))
        number, url = numbers[path], href(path)
        if zh == en and number.zh == number.en:
            return f'<a href="{url}">{number.en} {en}</a>'
        return f'<a href="{url}">{number.zh} {zh}</a> / <a href="{url}">{number.en} {en}</a>'

    def walk(items: list) -> None:
        for item in items:
            ((title, value),) = item.items() if isinstance(item, dict) else ((None, item),)
            if isinstance(value, str):
                if value in numbers:
                    chapters.append(f"<li>{entry(title, value)}</li>")
                continue
            pages = [next(iter(child.items())) for child in value if isinstance(child, dict)]
            if pages and all(
                isinstance(p, str) and p in numbers and "." in numbers[p].text for _, p in pages
            ):
                chapter = Number(numbers[pages[0][1]].chapter)
                zh, en = (_markdown_text(half) for half in _halves(title, " / "))
                zh_pages = "、".join(
                    f"[{numbers[p].zh} {_markdown_text(_halves(t, ' / ')[0])}]({p})"
                    for t, p in pages
                )
                en_pages = ", ".join(
                    f"[{numbers[p].en} {_markdown_text(_halves(t, ' / ')[1])}]({p})"
                    for t, p in pages
                )
                parts.append(
                    f"- **{chapter.zh} {zh}**：{zh_pages} / **{chapter.en} {en}**: {en_pages}"
                )
            else:
                walk(value)

    walk(nav_config)
    # 中: 单页的各章分栏排列（窄屏自动成一栏）；各部分每部分一行，列出它的各页。
    # EN: The one-page chapters in columns (one column on a narrow screen); each part on one
    #     line listing its pages.
    return (
        '<ul class="book-map" style="columns: 17em; column-gap: 2em; margin-top: 0">\n'
        + "\n".join(chapters)
        + "\n</ul>\n\n"
        + "\n".join(parts)
        + "\n"
    )


# ---------------------------------------------------------------------------------------------
# Links / 链接
# ---------------------------------------------------------------------------------------------

NUMBER = r"\d+(?:\.\d+)?"
ZH_REFERENCE = re.compile(
    rf"第\s*(?P<numbers>{NUMBER}(?:\s*(?:[、，,]|与|和|及|或|至|到|[–—-])\s*(?:第\s*)?{NUMBER})*)"
    r"\s*(?:章|节)"
)
EN_REFERENCE = re.compile(
    r"(?<![A-Za-z])(?:(?:[Cc]hapters|[Ss]ections)\s+"
    rf"(?P<many>{NUMBER}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*[–—-]\s*|\s+to\s+){NUMBER})+)"
    rf"|[Cc]hapter\s+(?P<one>\d+)\b(?!\.\d)|[Ss]ection\s+(?P<sub>\d+\.\d+)\b)"
)


def _english_references(content: str) -> list[re.Match]:
    """EN_REFERENCE's matches, tried only where "hapter"/"ection" occurs (much faster). / 英文引用。"""
    found = []
    for word in ("hapter", "ection"):
        position = content.find(word)
        while position >= 0:
            match = EN_REFERENCE.match(content, position - 1)
            if match:
                found.append(match)
            position = content.find(word, position + 1)
    return found


# "Note [title]", unless it is torch's own Note (cited, not in this book). Generated pages
# escape the bracket and the apostrophe (`&#91;`, `&#x27;`), so those spellings count too.
NOTE_REFERENCE = re.compile(
    r"Note(?<!torch's Note)(?<!torch&#x27;s Note)(?<!torch&#39;s Note)(?<!torch 的 Note)"
    r"\s+(?:\[|&#91;)([^\]<>]+)\]"
)
NOTE_DETAILS = re.compile(r'<details class="note"( open)?>(\s*<summary>)Note \[([^\]<>]+)\]')
# Elements whose text is left alone (and <summary>, where a Note's title is not a reference).
RELEVANT_TAG = re.compile(r"<(/?)(code|pre|a|h[1-6]|script|style|textarea|summary)\b[^>]*>")
# A code comment holding a Note reference (`# See Note [...]`): Pygments' comment span.
COMMENT_NOTE = re.compile(r'(<span class="c1?">)([^<]*Note\s+\[[^<]*)(</span>)')


def note_slug(title: str) -> str:
    """The stable anchor of a Note. / Note 的固定锚点。"""
    title = " ".join(html.unescape(title).split())
    return "note-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _note_anchors(content: str) -> tuple[str, list[str]]:
    """Give each Note its id; the page and its Note slugs. / 给每个 Note 加上 id。"""
    slugs: list[str] = []

    def add_id(match: re.Match) -> str:
        slug = note_slug(match.group(3))
        if slug in slugs:
            return match.group(0)  # the same Note shown twice: the first keeps the anchor
        slugs.append(slug)
        return (
            f'<details class="note"{match.group(1) or ""} id="{slug}">{match.group(2)}'
            f"Note [{match.group(3)}]"
        )

    return NOTE_DETAILS.sub(add_id, content), slugs


class _Linker:
    """Links the references of one page. / 为一页的引用加上链接。"""

    def __init__(self, page_url: str, urls: dict[str, str], notes: dict[str, str]) -> None:
        self.page_url = page_url
        self.urls = urls  # number → page URL
        self.notes = notes  # Note slug → page URL
        self.errors: list[str] = []

    def href(self, url: str) -> str:
        return "" if url == self.page_url else get_relative_url(url, self.page_url)

    def chapter(self, number: str, text: str) -> str:
        url = self.urls.get(number)
        if url is None:
            self.errors.append(f"{text!r}: no page numbered {number}")
            return text
        return f'<a class="book-chapter-ref" href="{self.href(url) or "#"}">{text}</a>'

    def _numbers(self, match: re.Match, group: str) -> str:
        """A reference with each of its numbers linked (the whole phrase if there is one). / 链接引用中的每个编号。"""
        text = match.group(0)
        start, end = match.span(group)
        start, end = start - match.start(), end - match.start()
        found = list(re.finditer(NUMBER, text[start:end]))
        if len(found) == 1:
            return self.chapter(found[0].group(0), text)
        out, last = [], 0
        for number in found:
            a, b = start + number.start(), start + number.end()
            out.append(text[last:a] + self.chapter(number.group(0), text[a:b]))
            last = b
        return "".join(out) + text[last:]

    def _english(self, match: re.Match) -> str:
        return self._numbers(match, next(g for g in ("many", "one", "sub") if match.group(g)))

    def note(self, match: re.Match) -> str:
        slug = note_slug(match.group(1))
        url = self.notes.get(slug)
        if url is None:
            self.errors.append(f"{match.group(0)!r}: no Note of that title in the book")
            return match.group(0)
        return f'<a class="book-note-ref" href="{self.href(url)}#{slug}">{match.group(0)}</a>'

    def page(self, content: str) -> str:
        # 中: 代码里只链接注释中的 Note 引用（`# See Note [...]`）。其余的引用先用正则在整页里找出来，
        #     再丢掉落在代码、标题、已有链接或标签属性里的那些：逐个标签地扫描整页（清单占了页面的
        #     大半）要慢得多。
        # EN: In code only a comment's Note reference (`# See Note [...]`) is linked. Other
        #     references are found by regex over the whole page, then those inside code, headings,
        #     existing links or a tag's attributes are dropped: walking the page tag by tag
        #     (listings are most of it) is much slower.
        content = COMMENT_NOTE.sub(self.comment_note, content)
        skipped, titles = _ranges(content)
        edits: list[tuple[int, int, str]] = []
        for matches, link in (
            (ZH_REFERENCE.finditer(content), lambda m: self._numbers(m, "numbers")),
            (_english_references(content), self._english),
            (NOTE_REFERENCE.finditer(content), self.note),
        ):
            for match in matches:
                start = match.start()
                in_tag = content.rfind("<", 0, start) > content.rfind(">", 0, start)
                if in_tag or _inside(skipped, start):
                    continue
                if match.re is NOTE_REFERENCE and _inside(titles, start):
                    continue  # a Note's own title
                edits.append((start, match.end(), link(match)))
        out, last = [], 0
        for start, end, text in sorted(edits):
            out.append(content[last:start] + text)
            last = end
        out.append(content[last:])
        return "".join(out)

    def comment_note(self, match: re.Match) -> str:
        return match.group(1) + NOTE_REFERENCE.sub(self.note, match.group(2)) + match.group(3)


def _ranges(content: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Spans of the skipped elements, and of ``<summary>``s. / 跳过的元素与 summary 所占的范围。"""
    skipped: list[tuple[int, int]] = []
    titles: list[tuple[int, int]] = []
    opened: dict[str, list[int]] = {}
    for match in RELEVANT_TAG.finditer(content):
        closing, tag = match.group(1), match.group(2)
        if not closing:
            opened.setdefault(tag, []).append(match.start())
        elif opened.get(tag):
            (titles if tag == "summary" else skipped).append((opened[tag].pop(), match.end()))
    return _merged(skipped), _merged(titles)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _inside(spans: list[tuple[int, int]], position: int) -> bool:
    index = bisect.bisect_right(spans, (position, float("inf"))) - 1
    return index >= 0 and spans[index][0] <= position < spans[index][1]


def link_pages(files) -> None:
    """Anchor every Note, then link every chapter and Note reference. / 给 Note 加锚点，再链接所有引用。"""
    numbers = targets()
    urls: dict[str, str] = {}
    for number, path in numbers.items():
        file = files.get_file_from_path(path)
        if file is None:
            raise PluginError(f"{TABLE.name} numbers {path}, which is not in docs/")
        urls[number] = file.url
    pages = [file.page for file in files if file.page is not None and file.page.content]
    # Nav order: a Note shown on two pages is linked to its first one.
    order = {path: index for index, path in enumerate(p for p in table())}
    pages.sort(key=lambda page: order.get(page.file.src_uri, len(order)))
    notes: dict[str, str] = {}
    own: dict[str, list[str]] = {}
    for page in pages:
        page.content, own[page.url] = _note_anchors(page.content)
        for slug in own[page.url]:
            notes.setdefault(slug, page.url)
    errors = []
    for page in pages:
        # A Note the page shows itself is linked on the page.
        here = {slug: page.url for slug in own[page.url]}
        linker = _Linker(page.url, urls, {**notes, **here})
        page.content = linker.page(page.content)
        errors += [f"{page.file.src_uri}: {error}" for error in linker.errors]
    if errors:
        raise PluginError("Unresolved references:\n" + "\n".join(sorted(set(errors))))
