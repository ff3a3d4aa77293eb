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


def visible_tab_text(page) -> str:
    """Text of the visible block of the first 中文/English tab set."""
    return page.evaluate(
        """() => {
          for (const set of document.querySelectorAll('.tabbed-set')) {
            const labels = [...set.querySelectorAll('.tabbed-labels > label')].map(l => l.innerText.trim());
            if (!labels.includes('English')) continue;
            for (const block of set.querySelectorAll('.tabbed-block')) {
              if (block.offsetParent !== null) return block.innerText;
            }
          }
          return null;
        }"""
    )


def click_tab(page, label: str) -> None:
    page.locator(".tabbed-labels > label", has_text=label).first.click()


def test_first_visit_is_chinese(page, server):
    page.goto(server)
    assert lang(page) == "zh"
    text = visible_tab_text(page)
    assert text and "模块系统" in text
    check_clean(page)


def test_language_choice_follows_navigation_and_reload(page, server, screenshots):
    page.goto(server)
    page.screenshot(path=str(screenshots / "index-zh.png"))
    click_tab(page, "English")
    assert lang(page) == "en"
    assert "module system" in visible_tab_text(page)
    page.screenshot(path=str(screenshots / "index-en.png"))
    # Follow a link inside the site (instant navigation), then reload.
    page.locator(f'a[href$="{HOOKS_CHAPTER}"]').first.click()
    page.wait_for_url(f"**/{HOOKS_CHAPTER}")
    page.wait_for_load_state("networkidle")
    assert lang(page) == "en"
    text = visible_tab_text(page)
    assert text is not None and not any("\u4e00" <= ch <= "\u9fff" for ch in text[:200]), text[:200]
    page.reload()
    page.wait_for_load_state("networkidle")
    assert lang(page) == "en"
    # Back to Chinese with the header button; the choice is remembered too.
    page.locator(".book-lang-toggle").click()
    assert lang(page) == "zh"
    page.goto(server + "generated/module-49/")
    assert lang(page) == "zh"
    assert page.locator(".book-zh").first.is_visible()
    assert not page.locator(".book-en").first.is_visible()
    page.screenshot(path=str(screenshots / "module-49-zh.png"))
    check_clean(page)


def _comment_visibility(page) -> tuple[int, int]:
    """(visible 中 lines, visible EN lines) in the opened source blocks."""
    return page.evaluate(
        """() => {
          const vis = sel => [...document.querySelectorAll('details[open] ' + sel)]
            .filter(e => e.offsetParent !== null || e.getClientRects().length > 0).length;
          return [vis('.book-zh'), vis('.book-en')];
        }"""
    )


def test_code_view_shows_only_the_chosen_language(page, server, screenshots):
    page.goto(server + HOOKS_CHAPTER)
    sources = page.locator("details.mkdocstrings-source:has(.book-zh)")
    assert sources.count() > 0, "no source block with bilingual comments on the hooks chapter"
    block = sources.first
    block.locator("summary").click()
    zh, en = _comment_visibility(page)
    assert zh > 0 and en == 0, (zh, en)
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "source-zh.png"))
    page.locator(".book-lang-toggle").click()
    zh, en = _comment_visibility(page)
    assert en > 0 and zh == 0, (zh, en)
    block.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "source-en.png"))
    check_clean(page)


@pytest.mark.parametrize("query", ["钩子", "hook"])
def test_search_finds_the_hooks_chapter(page, server, query):
    page.goto(server)
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=20000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("06-call-and-forward-hooks" in (h or "") for h in hrefs), hrefs[:20]
    check_clean(page)


def test_inheritance_diagram_is_displayed(page, server, screenshots):
    page.goto(server + "generated/diagrams/")
    image = page.locator("img[src$='inheritance-annotated_nn.svg']")
    assert image.count() == 1
    image.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const i = document.querySelector(\"img[src$='inheritance-annotated_nn.svg']\"); return i && i.complete && i.naturalWidth > 0; }"
    )
    page.screenshot(path=str(screenshots / "diagrams.png"))
    check_clean(page)


def test_pytorch_source_panel_opens(page, server, screenshots):
    page.goto(server + HOOKS_CHAPTER)
    panel = page.locator("details.torch-source").first
    code = panel.locator(".highlight code").first
    assert not code.is_visible()
    panel.locator("summary").click()
    assert panel.get_attribute("open") is not None
    assert code.is_visible()
    assert "def " in code.inner_text()
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "torch-panel.png"))
    check_clean(page)


TAB_STATE = """() => {
  const out = [];
  for (const set of document.querySelectorAll('.tabbed-set')) {
    const labels = [...set.querySelectorAll(':scope > .tabbed-labels > label')].map(l => l.innerText.trim());
    if (!labels.includes('English')) continue;
    const checked = [...set.querySelectorAll(':scope > input')].map(i => i.checked);
    const shown = [...set.querySelectorAll(':scope > .tabbed-content > .tabbed-block')]
      .filter(b => b.getClientRects().length > 0).map(b => b.innerText.trim().length);
    out.push({labels: labels.join('|'), chosen: labels[checked.indexOf(true)] || null, shown});
  }
  return out;
}"""


@pytest.mark.parametrize(
    "path",
    [
        "chapters/01-parameter-and-buffer/",  # a docstring Note with tabs of its own
        "chapters/14-lazy-modules/",
        "chapters/appendix/glossary/",  # an intro tab set, then the tables' tab set
    ],
)
def test_every_tab_set_shows_the_chosen_language(page, server, path):
    """Each 中文/English tab set has one checked tab of the reader's language and shows its text."""
    page.goto(server + path)
    for label in ("中文", "English"):
        if label == "English":
            page.locator(".book-lang-toggle").click()
        sets = page.evaluate(TAB_STATE)
        assert sets
        wrong = [s for s in sets if s["labels"] != "中文|English" or s["chosen"] != label]
        assert not wrong, wrong[:3]
        blank = [s for s in sets if len(s["shown"]) != 1 or s["shown"][0] == 0]
        assert not blank, blank[:3]
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
