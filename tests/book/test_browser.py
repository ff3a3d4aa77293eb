"""The book in a real browser: headless Chromium against the built site on 127.0.0.1."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

pytestmark = [pytest.mark.book, pytest.mark.slow]

HOOKS_CHAPTER = "chapters/06-call-and-forward-hooks/"


def check_clean(page) -> None:
    """No console error, and no request to any host but the local server."""
    assert page.console_errors == [], page.console_errors
    hosts = {
        urlparse(url).hostname for url in page.requests if urlparse(url).scheme in ("http", "https")
    }
    assert hosts <= {"127.0.0.1"}, sorted(hosts)
    others = [
        url
        for url in page.requests
        if urlparse(url).scheme not in ("http", "https", "data", "blob")
    ]
    assert others == [], others


def lang(page) -> str:
    return page.evaluate("document.documentElement.getAttribute('data-book-lang')")


CJK = "[\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff00-\\uffef]"

# Visible text nodes holding a Chinese character (or, with en=True, holding an English word outside
# code), as [element, text] pairs. Left out: the language switch itself; the glossary's column of
# Chinese terms (the page pairs each with its English term); source code in listings (a string
# literal is what the file says). The search box's placeholder counts.
VISIBLE_TEXT = """([pattern, skipCode]) => {
  const re = new RegExp(pattern);
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!re.test(node.textContent)) continue;
    const el = node.parentElement;
    if (!el || el.closest('.book-lang-toggle, .book-term-zh, .book-cite, .book-code')) continue;
    if (skipCode && el.closest('code, pre, .doc-signature, .md-nav, .md-footer, .book-listing')) continue;
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    out.push([el.tagName + '.' + el.className, node.textContent.trim().slice(0, 60)]);
  }
  const box = document.querySelector('input[data-md-component=search-query]');
  if (box && re.test(box.placeholder)) out.push(['placeholder', box.placeholder]);
  return out;
}"""


def choose_language(page, code: str) -> None:
    """Remember a language choice as the header button does, before the next page load.

    Written by a script that runs before the page's own on every load of this page, instead of
    on a page loaded for it first (each load of a book page runs Material's scripts and fetches
    and indexes the search index); nothing in these tests switches the language afterwards.
    """
    page.add_init_script(f"localStorage.setItem('book-lang', '{code}')")


def site_pages(server) -> list[str]:
    """Every page of the navigation (the home page lists them all), as paths below the server's
    root. Not the sitemap: without a site_url (BOOK_SITE_URL) it lists no page."""
    import re
    import urllib.request

    home = urllib.request.urlopen(server).read().decode()
    links = re.findall(r'<a href="([^"#]*)" class="md-nav__link', home)
    return list(dict.fromkeys("" if link == "." else link for link in links))


def test_first_visit_is_chinese(page, server):
    page.goto(server)
    assert lang(page) == "zh"
    assert "模块系统" in page.locator("article").inner_text()
    check_clean(page)


def test_language_choice_follows_navigation_and_reload(page, server, screenshots):
    page.goto(server)
    page.screenshot(path=str(screenshots / "index-zh.png"))
    page.locator(".book-lang-toggle").click()
    assert lang(page) == "en"
    text = page.locator("article").inner_text()
    assert "module system" in text
    page.screenshot(path=str(screenshots / "index-en.png"))
    # Follow a link inside the site (instant navigation), then reload.
    page.locator(f'a[href$="{HOOKS_CHAPTER}"]').first.click()
    page.wait_for_url(f"**/{HOOKS_CHAPTER}")
    page.wait_for_load_state("networkidle")
    assert lang(page) == "en"
    assert page.evaluate(VISIBLE_TEXT, [CJK, False]) == []
    page.reload()
    page.wait_for_load_state("networkidle")
    assert lang(page) == "en"
    # The window title is in the chosen language too.
    assert page.title() == "6 __call__ and forward hooks - annotated_nn · torch.nn, annotated"
    # Back to Chinese with the header button; the choice is remembered too.
    page.locator(".book-lang-toggle").click()
    assert lang(page) == "zh"
    page.goto(server + "generated/module-49/")
    assert lang(page) == "zh"
    assert page.locator(".book-zh").first.is_visible()
    assert not page.locator(".book-en").first.is_visible()
    page.screenshot(path=str(screenshots / "module-49-zh.png"))
    check_clean(page)


# The sweep over every page is split into shards, so that pytest-xdist's workers share it.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_english_mode_shows_no_chinese_on_any_page(page, server, without_search_index, shard):
    """In English mode no Chinese character is visible anywhere but the switch (every page: the
    shards together cover all of them)."""
    # 中: 只看页面本身显示的文字：不需要搜索索引，也不必等图片载入（图片不是文字节点）；
    #     lang.js 在 DOMContentLoaded 时选定语言，等到 data-book-lang 为 en 再检查。
    # EN: Only the text a page shows matters: no search index, and no wait for the images (they
    #     hold no text node); lang.js picks the language at DOMContentLoaded, the check waits for
    #     data-book-lang to be en.
    without_search_index(page)
    choose_language(page, "en")
    found = {}
    for path in site_pages(server)[shard::SHARDS]:
        page.goto(server + path, wait_until="domcontentloaded")
        page.wait_for_function("document.documentElement.getAttribute('data-book-lang') === 'en'")
        visible = page.evaluate(VISIBLE_TEXT, [CJK, False])
        if visible:
            found[path] = visible[:5]
    assert not found, found


def test_chinese_mode_has_chinese_labels_and_no_english_halves(page, server):
    """In Chinese mode the section labels are Chinese, and no summary shows its English half."""
    choose_language(page, "zh")
    page.goto(server + HOOKS_CHAPTER)
    labels = page.locator(".doc-section-title").evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.innerText.trim())"
    )
    assert "参数：" in labels and "返回：" in labels, labels
    summary = page.locator(
        '[id="annotated_nn.modules.module.Module._call_impl"] ~ .doc-contents > p'
    ).first.inner_text()
    assert summary == "在所有钩子的包围下运行 forward。", summary
    cells = page.locator(".doc-md-description").evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.innerText)"
    )
    halves = [c for c in cells if " / " in c]
    assert not halves, halves[:5]
    check_clean(page)


LISTING = '[id="annotated_nn.modules.module.Module._call_impl--listing"]'


def test_call_impl_listing_is_open_with_notes_beside_the_code(page, server, screenshots):
    """Chapter 6's `_call_impl` listing is shown without a click, notes left of their code."""
    page.goto(server + HOOKS_CHAPTER)
    listing = page.locator(LISTING)
    listing.scroll_into_view_if_needed()
    assert listing.is_visible()
    row = listing.locator(".book-row:not(.book-row--bare)").nth(1)
    note, code = row.locator(".book-note").bounding_box(), row.locator(".book-code").bounding_box()
    assert note["x"] + note["width"] <= code["x"] + 1, (note, code)
    assert abs(note["y"] - code["y"]) < 2, (note, code)
    assert "第 1 步" in listing.inner_text() or "第 2 步" in listing.inner_text()
    page.screenshot(path=str(screenshots / "listing-1280-zh.png"))
    size = listing.locator(".book-code code").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 13, size
    page.locator(".book-lang-toggle").click()
    listing.scroll_into_view_if_needed()
    text = listing.locator(".book-note").evaluate_all("els => els.map(e => e.innerText).join(' ')")
    assert "Step 1" in text or "Step 2" in text
    page.screenshot(path=str(screenshots / "listing-1280-en.png"))
    check_clean(page)


def test_call_impl_notes_stack_above_the_code_on_a_phone(browser, server, screenshots):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(server + HOOKS_CHAPTER)
        listing = page.locator(LISTING)
        listing.scroll_into_view_if_needed()
        row = listing.locator(".book-row:not(.book-row--bare)").nth(1)
        note = row.locator(".book-note").bounding_box()
        code = row.locator(".book-code").bounding_box()
        assert note["y"] + note["height"] <= code["y"] + 1, (note, code)
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        page.screenshot(path=str(screenshots / "listing-390-zh.png"))
        page.evaluate("localStorage.setItem('book-lang', 'en')")
        page.reload()
        page.locator(LISTING).scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / "listing-390-en.png"))
    finally:
        context.close()


def test_listing_code_is_at_least_13px_everywhere(page, server, without_search_index):
    without_search_index(page)  # reads computed font sizes only
    for path in (HOOKS_CHAPTER, "chapters/layers/pooling/", "chapters/05-containers/"):
        page.goto(server + path)
        sizes = page.locator(".book-listing .book-code code").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= 13, (path, min(sizes))


def search(page, server, query, wait_for_words=False):
    """Type `query` into the search box and return the result links, retyping while the index loads.

    Material's search worker builds its lunr index after the box is first focused (several seconds
    for this book's index on a loaded 2-core machine); a query entered before the index is ready is
    answered with "no results" and not run again, so, as a reader would, the query is typed again.
    """
    page.goto(server)
    box = page.locator("input.md-search__input")
    box.click()
    if wait_for_words:
        # The search worker builds the index of the reader's language (docs/assets/search-worker.js).
        page.wait_for_load_state("networkidle")
    results = page.locator(".md-search-result__item a")
    for _attempt in range(8):
        box.fill("")
        box.fill(query)
        try:
            results.first.wait_for(timeout=5000)
            return results
        except Exception:  # noqa: BLE001 - not ready yet: type it again
            continue
    results.first.wait_for(timeout=5000)
    return results


@pytest.mark.parametrize("query", ["钩子", "hook"])
def test_search_finds_the_hooks_chapter(page, server, query):
    results = search(page, server, query)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("06-call-and-forward-hooks" in (h or "") for h in hrefs), hrefs[:20]
    check_clean(page)


@pytest.mark.parametrize(
    "query,words", [("注册缓冲区", ("注册", "缓冲区")), ("惰性模块", ("惰性", "模块"))]
)
def test_multi_word_chinese_query_finds_pages_with_all_words(page, server, query, words):
    """A Chinese query typed without spaces is cut into words; results contain all of them."""
    results = search(page, server, query, wait_for_words=True)
    first = results.first.get_attribute("href").split("?")[0]
    page.goto(first if first.startswith("http") else server + first)
    text = page.locator("article").inner_text() + page.evaluate(
        "[...document.querySelectorAll('article .book-zh')].map(e => e.textContent).join(' ')"
    )
    assert all(word in text for word in words), (query, first)
    check_clean(page)


@pytest.mark.parametrize("code", ["zh", "en"])
def test_diagram_text_is_at_least_10px_in_the_reader_language(page, server, screenshots, code):
    """At 1280 px every diagram shown has its smallest text at 10 px or more, and speaks only the
    reader's language (each diagram is drawn once per language)."""
    choose_language(page, code)
    page.goto(server + "generated/diagrams/")
    page.wait_for_function(
        "() => [...document.querySelectorAll('article img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    shown = page.evaluate(
        """async () => {
          const out = [];
          for (const img of document.querySelectorAll("article img[src$='.svg']")) {
            if (!img.checkVisibility()) continue;
            const svg = await (await fetch(img.src)).text();
            const sizes = [...svg.matchAll(/font-size="([\\d.]+)"/g)].map(m => parseFloat(m[1]));
            const doc = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
            const viewBox = doc.getAttribute('viewBox').split(/\\s+/).map(Number);
            // SVG user units are points here (Graphviz): displayed px = font × shown width / viewBox width.
            const scale = img.getBoundingClientRect().width / viewBox[2];
            const chinese = /[\\u4e00-\\u9fff]/.test(doc.textContent);
            out.push([img.getAttribute('src'), Math.min(...sizes) * scale, chinese]);
          }
          return out;
        }"""
    )
    assert len(shown) >= 20, shown
    small = [(src, round(px, 1)) for src, px, _ in shown if px < 10]
    assert not small, small
    assert all(src.endswith(".en.svg") == (code == "en") for src, _, _ in shown)
    if code == "en":
        assert not [src for src, _, chinese in shown if chinese]
    page.screenshot(path=str(screenshots / f"diagrams-{code}.png"))
    check_clean(page)


def test_torch_comparison_loads_when_opened(page, server, screenshots):
    """A comparison panel fetches its diff on opening; a 'same code' line needs no fetch."""
    page.goto(server + "chapters/03-attribute-routing/")
    panel = page.locator("details.book-cmp-panel").first
    panel.scroll_into_view_if_needed()
    before = len(page.requests)
    panel.locator("summary").click()
    page.wait_for_function(
        "() => document.querySelector('details.book-cmp-panel[open] .book-cmp-body .book-cmp')"
    )
    assert any("/generated/compare/" in url for url in page.requests[before:])
    body = panel.locator(".book-cmp-body").inner_text()
    assert "+" in body and "−" in body
    page.screenshot(path=str(screenshots / "torch-compare.png"))
    page.goto(server + HOOKS_CHAPTER)
    assert page.locator("p.book-cmp-same").count() > 0
    check_clean(page)


def test_mobile_drawer_opens_the_chapters(browser, server, screenshots):
    """At phone width the page does not overflow and the nav drawer opens onto the chapters."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        page.goto(server + "chapters/03-attribute-routing/")
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        link = page.locator('.md-nav--primary a[href$="04-module-tree/"]').first
        # Closed, the drawer sits off-canvas to the left; open, its links are on screen.
        box = link.bounding_box()
        assert box is None or box["x"] + box["width"] <= 0, box
        page.locator('.md-header label.md-header__button[for="__drawer"]').click()
        page.wait_for_function(
            """() => { const a = document.querySelector('.md-nav--primary a[href$="04-module-tree/"]');
                       const r = a && a.getBoundingClientRect();
                       return r && r.left >= 0 && r.right <= window.innerWidth; }"""
        )
        page.screenshot(path=str(screenshots / "mobile-drawer.png"))
        link.click()
        page.wait_for_url("**/04-module-tree/")
    finally:
        context.close()


def test_single_chinese_word_is_not_cut_short(page, server):
    """缓冲区 finds the buffer chapter although 缓冲 alone is also an index term (search-worker.js)."""
    results = search(page, server, "缓冲区", wait_for_words=True)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("01-parameter-and-buffer" in (h or "") for h in hrefs), hrefs[:20]
