"""A numbered book: titles carry their numbers, chapter and Note references are links.

The numbers come from tools/book/numbers.yml (tools/book/numbering.py). These tests read the built
site with their own HTML parser, so they check what a reader gets, not how the hook did it.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml
from test_build import nav_paths

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = yaml.safe_load((ROOT / "tools/book/numbers.yml").read_text(encoding="utf-8"))
BASE = "http://book.test/"

NUMBER = r"\d+(?:\.\d+)?"
# "第 6 章", "第 6、7 章", "第 6 与 7 章", "第 1–12 章", "第 2–4、6–12 章", "第 19.3 节"
ZH_REFERENCE = re.compile(
    rf"第\s*({NUMBER}(?:\s*(?:[、，,]|与|和|及|或|至|到|[–—-])\s*(?:第\s*)?{NUMBER})*)\s*(?:章|节)"
)
# "chapter 6", "Chapter 6", "chapters 6 and 7", "chapters 1, 9, and 6 and 7", "chapters 1–12",
# "section 19.3", "sections 19.1 and 19.2"
EN_REFERENCE = re.compile(
    rf"\b(?:[Cc]hapters?|[Ss]ections?)\s+({NUMBER}"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*[–—-]\s*|\s+to\s+){NUMBER})*)"
)
NOTE_REFERENCE = re.compile(r"Note\s+\[([^\]]+)\]")
PAGE_REFERENCE = re.compile(
    r"第\s*\d+\s*页|\bpages?\s+\d+\b|[上下]一页|最后一页|前[两三]页|"
    r"\b(?:next|previous|last|first two|first three) pages?\b",
    re.I,
)
SKIPPED = {"code", "pre", "script", "style", "h1", "h2", "h3", "h4", "h5", "h6", "textarea"}


def url_of(src: str) -> str:
    """Site URL of a docs/ page (directory URLs)."""
    stem = src[:-3]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
        return stem
    return stem + "/"


def targets() -> dict[str, str]:
    """Every citable number → the URL it must link to (a part's chapter → its first page)."""
    found = {}
    for src, number in sorted(
        NUMBERS.items(), key=lambda i: [int(p) for p in str(i[1]).split(".")]
    ):
        found[str(number)] = url_of(src)
        found.setdefault(str(number).split(".")[0], url_of(src))
    return found


class Text(HTMLParser):
    """The article's text, character by character with the link it is in and whether it is prose."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chars: list[str] = []
        self.links: list[str | None] = []
        self.prose: list[bool] = []  # not code, heading, script
        self.note_title: list[bool] = []  # inside a Note's own <summary>
        self.stack: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "input", "wbr", "hr", "meta", "link"):
            return
        attrs = dict(attrs)
        if tag in ("p", "li", "td", "th", "div", "dd", "dt", "summary", "figcaption"):
            self._text("\n")
        self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in ("p", "li", "td", "th", "div", "dd", "dt", "summary", "figcaption"):
            self._text("\n")

    def handle_data(self, data):
        self._text(data)

    def _text(self, data: str) -> None:
        tags = [t for t, _ in self.stack]
        href = next((a.get("href") for t, a in reversed(self.stack) if t == "a"), None)
        prose = not SKIPPED.intersection(tags)
        note_title = "summary" in tags and any(
            t == "details" and "note" in (a.get("class") or "").split() for t, a in self.stack
        )
        for char in data:
            self.chars.append(char)
            self.links.append(href)
            self.prose.append(prose)
            self.note_title.append(note_title)

    @property
    def text(self) -> str:
        return "".join(self.chars)

    def prose_text(self) -> str:
        """The text with everything not prose blanked out (so no match spans it)."""
        return "".join(c if p else "\x00" for c, p in zip(self.chars, self.prose))


PRE = re.compile(r"<pre\b.*?</pre>", re.S)
# A code comment that cites a Note (`# See Note [...]`), with the link the build gave it.
NOTE_COMMENT = re.compile(
    r'<span class="c1?">(?:[^<]|<a\b[^>]*>|</a>)*Note(?:[^<]|<a\b[^>]*>|</a>)*</span>'
)


def article(page_html: str) -> str:
    """The page's article, each code block reduced to its comments that cite a Note."""
    start, end = page_html.find("<article"), page_html.rfind("</article>")
    if start >= 0 and end >= 0:
        page_html = page_html[start:end]
    # 中: 代码块占页面的大半，而它们里面只有注释中的 Note 引用需要检查；留下它们，解析快得多。
    # EN: Code blocks are most of a page and only their comments' Note references matter here;
    #     keeping just those makes parsing much faster.
    return PRE.sub(
        lambda m: "<pre>" + "".join(NOTE_COMMENT.findall(m.group(0))) + "</pre>", page_html
    )


@lru_cache(maxsize=None)
def parse(page_html: str) -> Text:
    parser = Text()
    parser.feed(article(page_html))
    parser.close()
    return parser


def resolves_to(page_url: str, href: str | None) -> tuple[str, str] | None:
    """(site path, fragment) a link leads to."""
    if href is None:
        return None
    full = urlsplit(urljoin(BASE + page_url, href))
    path = full.path[1:]
    if path.endswith("index.html"):
        path = path[: -len("index.html")]
    return path, full.fragment


def unlinked_chapter_references(page_url: str, page_html: str) -> list[str]:
    """Each chapter reference of the prose whose number is not a link to that chapter's page."""
    wanted = targets()
    text = parse(page_html)
    prose = text.prose_text()
    problems = []
    for pattern in (ZH_REFERENCE, EN_REFERENCE):
        for match in pattern.finditer(prose):
            for number in re.finditer(NUMBER, match.group(1)):
                start = match.start(1) + number.start()
                end = match.start(1) + number.end()
                expected = wanted.get(number.group(0))
                hrefs = set(text.links[start:end])
                landed = {resolves_to(page_url, h)[0] if h else None for h in hrefs}
                if expected is None or landed != {expected}:
                    context = " ".join(prose[max(0, match.start() - 30) : match.end() + 10].split())
                    problems.append(
                        f"{match.group(0)!r} → {sorted(map(str, landed))} in …{context}…"
                    )
    return problems


def dangling_note_references(page_url: str, page_html: str, anchors: dict) -> list[str]:
    """Each Note reference (prose, docstrings, listing notes and code) not linked to its Note."""
    text = parse(page_html)
    whole = text.text
    problems = []
    for match in NOTE_REFERENCE.finditer(whole):
        if text.note_title[match.start()]:
            continue  # the Note's own title
        before = whole[max(0, match.start() - 8) : match.start()]
        if before.endswith(("torch's ", "torch 的 ")):
            continue  # torch's own Note, cited, not in this book
        title = " ".join(match.group(1).split())
        hrefs = set(text.links[match.start() : match.end()])
        landed = {resolves_to(page_url, h) if h else None for h in hrefs}
        target = anchors.get(title)
        if target is None or landed != {target}:
            problems.append(f"Note [{title}] → {landed} (the Note is at {target})")
    return problems


NOTE_ANCHOR = re.compile(
    r'<details class="note"[^>]*\bid="(note-[^"]+)"[^>]*>\s*<summary>Note \[([^\]]+)\]'
)


def note_anchors(book) -> dict[str, tuple[str, str]]:
    """Note title → (page URL, anchor) of its first page in the book."""
    found: dict[str, tuple[str, str]] = {}
    for path in book.pages():
        rel = path.relative_to(book.site).as_posix()
        url = rel[: -len("index.html")] if rel.endswith("index.html") else rel
        for anchor, title in NOTE_ANCHOR.findall(path.read_text(encoding="utf-8")):
            found.setdefault(html.unescape(" ".join(title.split())), (url, anchor))
    return found


def story_pages() -> list[str]:
    return list(NUMBERS)


# ---------------------------------------------------------------------------------------------


def test_numbers_increase_down_the_nav_and_cover_every_story_page():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    paths = nav_paths(config["nav"])
    story = [
        p for p in paths if p.startswith("chapters/") and not p.startswith("chapters/appendix/")
    ]
    assert set(story) == set(NUMBERS), set(story) ^ set(NUMBERS)
    keys = [[int(part) for part in str(NUMBERS[p]).split(".")] for p in story]
    assert keys == sorted(keys) and len({tuple(k) for k in keys}) == len(keys), keys
    assert [str(NUMBERS[p]) for p in story[:18]] == [str(n) for n in range(18)]


@pytest.mark.parametrize("src", story_pages())
def test_story_page_title_and_nav_carry_the_number(book, src):
    number = str(NUMBERS[src])
    zh_label = number if "." in number else f"第 {number} 章"
    page = book.html(url_of(src) or "index.html")
    h1 = re.search(r"<h1\b[^>]*>(.*?)</h1>", page, re.S).group(1)
    h1 = re.sub(r'<a class="headerlink".*?</a>', "", h1, flags=re.S)
    zh = re.sub(r"<[^>]+>", "", re.sub(r'<span class="book-en".*?</span>', "", h1, flags=re.S))
    en = re.sub(r"<[^>]+>", "", re.sub(r'<span class="book-zh".*?</span>', "", h1, flags=re.S))
    assert zh.strip().startswith(zh_label + " "), (src, zh)
    assert en.strip().startswith(number + " "), (src, en)
    assert zh.count(number) == 1 and en.count(number) == 1, (src, zh, en)
    # The navigation (as drawn on the home page) shows the same numbers.
    home = book.html("index.html")
    link = re.search(
        rf'<a href="{re.escape(url_of(src))}" class="md-nav__link">(.*?)</a>', home, re.S
    )
    assert link, src
    nav = link.group(1)
    nav_zh = re.sub(r"<[^>]+>", "", re.sub(r'<span class="book-en".*?</span>', "", nav, flags=re.S))
    nav_en = re.sub(r"<[^>]+>", "", re.sub(r'<span class="book-zh".*?</span>', "", nav, flags=re.S))
    assert " ".join(nav_zh.split()).startswith(zh_label + " "), (src, nav_zh)
    assert " ".join(nav_en.split()).startswith(number + " "), (src, nav_en)


def test_parts_are_numbered_in_the_nav(book):
    home = book.html("index.html")
    for label, en in (("第 18 章 层", "18 Layers"), ("第 21 章 优化器", "21 Optimizers")):
        assert f'<span class="book-zh" lang="zh">{label}</span>' in home, label
        assert f'<span class="book-en" lang="en">{en}</span>' in home, en


def test_every_chapter_reference_is_a_link_to_its_chapter(book):
    problems = []
    for path in book.pages():
        rel = path.relative_to(book.site).as_posix()
        if rel.startswith(("generated/compare/", "search/")) or rel == "404.html":
            continue
        url = rel[: -len("index.html")]
        problems += [
            f"{url}: {p}" for p in unlinked_chapter_references(url, path.read_text("utf-8"))
        ]
    assert not problems, "\n".join(problems)


def test_chapter_references_are_found_in_both_languages(book):
    """The check above sees references in both languages, in prose and in lists."""
    guide = parse(book.html("chapters/00-reading-guide/")).prose_text()
    assert len(ZH_REFERENCE.findall(guide)) >= 20 and len(EN_REFERENCE.findall(guide)) >= 20


def test_every_note_reference_links_to_its_note(book):
    anchors = note_anchors(book)
    assert len(anchors) >= 13, anchors
    problems = []
    count = 0
    for path in book.pages():
        rel = path.relative_to(book.site).as_posix()
        if rel.startswith(("generated/compare/", "search/")):
            continue
        url = rel[: -len("index.html")] if rel.endswith("index.html") else rel
        page = path.read_text("utf-8")
        count += len(NOTE_REFERENCE.findall(parse(page).text))
        problems += [f"{url}: {p}" for p in dangling_note_references(url, page, anchors)]
    assert not problems, "\n".join(problems)
    assert count >= 80, count


def test_every_note_has_an_anchor(book):
    for path in book.pages():
        page = path.read_text("utf-8")
        for match in re.finditer(r'<details class="note"([^>]*)>\s*<summary>Note \[', page):
            assert 'id="note-' in match.group(1), (path, match.group(0))


def test_a_code_comment_note_reference_is_a_link(book):
    """`# See Note [Padding for F.pad]` in the conv listing leads to the Note."""
    page = book.html("chapters/layers/conv/")
    assert re.search(
        r'<span class="c1"># See <a class="book-note-ref" href="#note-padding-for-f-pad">'
        r"Note \[Padding for F.pad\]</a></span>",
        page,
    )


def test_no_page_number_references(book):
    problems = []
    for src in list(NUMBERS) + ["index.md"]:
        text = parse(book.html(url_of(src) or "index.html")).prose_text()
        problems += [f"{src}: {m.group(0)!r}" for m in PAGE_REFERENCE.finditer(text)]
    assert not problems, "\n".join(problems)


def test_the_checks_catch_an_unlinked_reference_and_a_dangling_note():
    """The checks above fail on what they are for (so they cannot pass vacuously)."""
    page = (
        "<article><p>见第 6 章与<a href='../07-backward-hooks/'>第 7 章</a>；see chapters 6 and"
        " <a href='../07-backward-hooks/'>7</a>.</p><p>See Note [Nowhere].</p></article>"
    )
    problems = unlinked_chapter_references("chapters/03-attribute-routing/", page)
    assert len(problems) == 2 and all("6" in p for p in problems), problems
    assert dangling_note_references("chapters/03-attribute-routing/", page, {}) != []
    linked = (
        '<article><p><a href="../06-call-and-forward-hooks/">第 6 章</a>，'
        '<a href="#note-x">Note [X]</a></p></article>'
    )
    assert unlinked_chapter_references("chapters/03-attribute-routing/", linked) == []
    anchors = {"X": ("chapters/03-attribute-routing/", "note-x")}
    assert dangling_note_references("chapters/03-attribute-routing/", linked, anchors) == []


def test_the_build_refuses_an_unknown_chapter_and_a_missing_note():
    from tools.book import numbering

    linker = numbering._Linker("chapters/a/", {"6": "chapters/b/"}, {"note-x": "chapters/b/"})
    out = linker.page(
        "<p>第 6 章、第 99 章；Note [X] and Note [Y]</p><pre><code>第 6 章</code></pre>"
    )
    assert '<a class="book-chapter-ref" href="../b/">第 6 章</a>' in out
    assert '<a class="book-note-ref" href="../b/#note-x">Note [X]</a>' in out
    assert "<code>第 6 章</code>" in out
    errors = sorted(linker.errors)
    assert len(errors) == 2 and "Note [Y]" in errors[0] and "99" in errors[1], errors


def test_home_page_map_lists_every_numbered_page(book):
    home = book.html("index.html")
    body = article(home)
    for src, number in NUMBERS.items():
        assert re.search(
            rf'<a href="{re.escape(url_of(src))}">[^<]*\b{re.escape(str(number))} ', body
        ), src


def test_one_language_blocks_are_not_split_again(book):
    """Text inside a block of one language keeps its slashes; the pages hold no such split."""
    from tools.book import bilingual

    english = '<div class="book-en" lang="en"><p>has <code># 中:</code> / <code># EN:</code> notes</p></div>'
    assert bilingual.split_elements(english, ("p",)) == english
    chinese = '<div class="book-zh"><p>成对的 <code>parameters</code> / <code>buffers</code> 建在其上</p></div>'
    assert bilingual.split_elements(chinese, ("p",)) == chinese
    # Outside such a block a bilingual line is still split.
    line = "<p>Returns self. / 返回自身。</p>"
    assert 'class="book-zh"' in bilingual.split_elements(line, ("p",))
    for rel in ("index.html", "chapters/00-reading-guide/", "chapters/01-parameter-and-buffer/"):
        page = book.html(rel)
        for block in re.finditer(r'<div class="book-en" lang="en">(.*?)</div>', page, re.S):
            assert 'class="book-zh"' not in block.group(1), (rel, block.group(1)[:300])
