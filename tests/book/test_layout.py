"""The listings' layout and links: code that fits, an anchor on every row, no local address.

Code that fits: at 1280 px no code row of a listing scrolls sideways; at 390 px neither (a long
line wraps, its continuation hanging past the line's own indentation). Anchors: every row of a
listing has a stable id, a ¶ link to it, and each line number links to its own line. Publishing:
no canonical link and no sitemap entry names a loopback address.
"""

from __future__ import annotations

import gzip
import re
from collections import Counter

import pytest

pytestmark = pytest.mark.book

CHAPTER_6 = "chapters/06-call-and-forward-hooks/"
CHAPTER_11 = "chapters/11-load-state-dict/"
OPTIMIZER = "chapters/optim/optimizer/"
DDP_ITERATION = "chapters/ddp/iteration/"
CONV = "chapters/layers/conv/"

# Rows of listings whose code element is wider than its box (it would scroll sideways), as
# [listing id, first line number] pairs.
CLIPPED_ROWS = """() => {
  const out = [];
  for (const code of document.querySelectorAll('.book-listing .book-code code')) {
    if (code.scrollWidth > code.clientWidth) {
      const first = code.querySelector('.book-ln');
      out.push([code.closest('.book-listing').id, first ? first.textContent : '']);
    }
  }
  return out;
}"""

# Listings that scroll sideways as a whole, and whether the page itself does.
WIDE = """() => [
  [...document.querySelectorAll('.book-listing')].filter(l => l.scrollWidth > l.clientWidth)
    .map(l => l.id),
  document.documentElement.scrollWidth > window.innerWidth,
]"""

# Every code line that wraps: where its code starts (after the indentation), where each
# continuation starts, in px, and whether the code starts on the line number's line;
# [line number, code start, [continuation starts], same line].
WRAPPED_LINES = """() => {
  const out = [];
  for (const line of document.querySelectorAll('.book-listing .book-line')) {
    const range = document.createRange();
    const indent = line.querySelector(':scope > .book-ind');
    const number = line.querySelector(':scope > .book-ln');
    range.setStartAfter(indent || number);
    range.setEndAfter(line.lastChild);
    const rects = [...range.getClientRects()].filter(r => r.width > 0);
    if (!rects.length) continue;
    const top = rects[0].top;
    const later = rects.filter(r => r.top > top + 2);
    const sameLine = Math.abs(top - number.getBoundingClientRect().top) < 4;
    if (later.length) out.push([number.textContent, rects[0].left, later.map(r => r.left), sameLine]);
  }
  return out;
}"""


def _open(page, server, path: str) -> None:
    page.goto(server + path)
    page.wait_for_function("() => document.querySelector('.book-listing')")


@pytest.mark.slow
@pytest.mark.parametrize("path", [CHAPTER_6, CHAPTER_11, OPTIMIZER, DDP_ITERATION, CONV])
def test_no_code_row_scrolls_sideways_at_1280(page, server, without_search_index, path):
    without_search_index(page)  # measures the page, does not search
    _open(page, server, path)
    rows = page.locator(".book-listing .book-code code").count()
    assert rows > 20, (path, rows)
    assert page.evaluate(CLIPPED_ROWS) == []
    assert page.evaluate(WIDE) == [[], False]


@pytest.mark.slow
@pytest.mark.parametrize("path", [CHAPTER_6, CHAPTER_11, OPTIMIZER, DDP_ITERATION])
def test_no_code_row_scrolls_sideways_on_a_phone(browser, server, without_search_index, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    without_search_index(page)  # measures the page, does not search
    try:
        _open(page, server, path)
        assert page.evaluate(CLIPPED_ROWS) == []
        assert page.evaluate(WIDE) == [[], False]
        # Code stays at its readable size on a phone too.
        size = page.locator(".book-listing .book-code code").first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert size >= 13, size
    finally:
        context.close()


@pytest.mark.slow
def test_wrapped_lines_hang_past_their_own_indentation(browser, server, without_search_index):
    """On a phone many lines wrap; every continuation starts right of where the line's code
    starts, so a wrapped line never reads as a dedent, and a bar marks it; the code starts on
    its line number's line."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    without_search_index(page)  # measures the page, does not search
    try:
        _open(page, server, CHAPTER_6)
        wrapped = page.evaluate(WRAPPED_LINES)
        assert len(wrapped) > 10, wrapped
        bad = [w for w in wrapped if min(w[2]) <= w[1] + 2]
        assert not bad, bad[:5]
        # Never a line number alone on its line, its code starting below it.
        alone = [w for w in wrapped if not w[3]]
        assert not alone, alone[:5]
        bar = page.locator(".book-line").first.evaluate("e => getComputedStyle(e).backgroundImage")
        assert bar.startswith("linear-gradient"), bar
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 390])
def test_printed_outputs_are_not_cut(browser, server, without_search_index, width):
    """Chapter 11's outputs include a line longer than the column: it wraps, nothing is cut."""
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    page = context.new_page()
    without_search_index(page)  # measures the page, does not search
    try:
        page.goto(server + CHAPTER_11)
        widths = page.locator(".language-text.highlight pre > code").evaluate_all(
            "els => els.map(e => [e.scrollWidth, e.clientWidth, e.textContent.length])"
        )
        assert widths, "no output block"
        cut = [w for w in widths if w[0] > w[1]]
        assert not cut, cut
    finally:
        context.close()


def _listings(text: str) -> list[str]:
    return re.findall(r'<section class="book-listing[^"]*"[^>]*>.*?</section>', text, re.S)


ROW = re.compile(
    r'<div class="book-row[^"]*"(?: id="([^"]*)")?>(.*?)(?=<div class="book-row|</section>)', re.S
)


def test_every_row_has_a_unique_anchor_and_lines_link_to_themselves(book):
    """Each row has an id and a ¶ linking to it; each line number links to its own line's id;
    no id repeats on a page (a renamed repeat would leave its links dangling)."""
    rows = lines = 0
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        listings = _listings(text)
        if not listings:
            continue
        name = page.relative_to(book.site).as_posix()
        repeated = [i for i, n in Counter(re.findall(r'\sid="([^"]+)"', text)).items() if n > 1]
        assert not repeated, (name, repeated[:5])
        for listing in listings:
            for row in ROW.finditer(listing):
                rows += 1
                anchor, body = row.group(1), row.group(2)
                assert anchor, (name, body[:200])
                link = re.match(
                    r'<div class="book-note"><a class="book-anchor" href="#([^"]+)"[^>]*>¶</a>',
                    body,
                )
                assert link and link.group(1) == anchor, (name, anchor, body[:200])
                # A member's stub stands for the member's own listing: its number is no link.
                for line_id, href in re.findall(
                    r'<span class="book-line" id="([^"]+)"[^>]*><a class="book-ln" href="#([^"]+)"',
                    body,
                ):
                    lines += 1
                    assert href == line_id, (name, line_id, href)
            # Every code line of the listing is a numbered, linked line.
            assert listing.count('class="book-line"') == listing.count('class="book-ln"')
    assert rows > 2000 and lines > 10000, (rows, lines)


def test_row_anchors_come_from_the_qualified_name_and_the_code(book):
    """A row's anchor is its object's qualified name and the first words of its code: it does not
    change when lines are added above it or when its note is reworded."""
    text = book.html(CHAPTER_6)
    listing = next(
        item for item in _listings(text) if "Module._call_impl--listing" in item.split(">")[0]
    )
    ids = re.findall(r'<div class="book-row[^"]*" id="([^"]+)"', listing)
    assert all(i.startswith("Module._call_impl--") for i in ids), ids
    assert "Module._call_impl--result-forward_call-args-kwargs" in ids, ids
    # The line numbers shown are the file's own; their anchors name the file.
    numbers = re.findall(r'<a class="book-ln" href="#module-L(\d+)"[^>]*>(\d+)</a>', listing)
    assert numbers and all(a == b for a, b in numbers), numbers[:5]


@pytest.mark.slow
def test_row_anchor_shows_on_hover_and_line_numbers_link(page, server):
    """The ¶ of a row appears on hover, like a heading's permalink; following it or a line number
    puts that row or line in the address and marks it; the language switch still works."""
    _open(page, server, CHAPTER_6)
    listing = page.locator('[id="annotated_nn.modules.module.Module._call_impl--listing"]')
    row = listing.locator(".book-row:not(.book-row--bare)").nth(2)
    row.scroll_into_view_if_needed()
    pilcrow = row.locator(".book-anchor")
    opacity = "e => getComputedStyle(e).opacity"
    assert pilcrow.evaluate(opacity) == "0"
    row.hover()
    page.wait_for_function("e => getComputedStyle(e).opacity === '1'", arg=pilcrow.element_handle())
    # Between the note and the code, at the row's top.
    box, note = pilcrow.bounding_box(), row.locator(".book-note").bounding_box()
    code = row.locator(".book-code").bounding_box()
    assert note["x"] < box["x"] and box["x"] + box["width"] <= code["x"] + 1, (box, note, code)
    assert abs(box["y"] - note["y"]) < 20, (box, note)
    assert pilcrow.get_attribute("title") == "本段链接"
    pilcrow.click()
    anchor = row.get_attribute("id")
    assert page.evaluate("decodeURIComponent(location.hash)") == "#" + anchor
    # The browser applies :target after the navigation settles; on a loaded machine that can
    # lag behind the hash, so wait for it (5 s at most).
    page.wait_for_function("e => e.matches(':target')", arg=row.element_handle(), timeout=5000)
    number = row.locator(".book-ln").first
    number.click()
    line = number.locator("xpath=..")
    assert page.evaluate("location.hash") == "#" + line.get_attribute("id")
    page.wait_for_function("e => e.matches(':target')", arg=line.element_handle(), timeout=5000)
    # Line numbers are not copied with the code, and listings have no copy button.
    assert number.evaluate("e => getComputedStyle(e).userSelect") == "none"
    copy = ".md-code__button, .md-clipboard"  # Material 9.8's copy button (.md-clipboard before)
    assert listing.locator(copy).count() == 0
    assert page.locator(f"article :is({copy})").count() > 0
    # The switch: English title on the ¶, English notes.
    page.locator(".book-lang-toggle").click()
    assert pilcrow.get_attribute("title") == "Link here"
    assert row.locator(".book-en").first.is_visible()
    assert page.console_errors == [], page.console_errors


def test_search_index_holds_no_anchor_marks(book):
    """Listings stay out of the search index: no ¶, no line-number links."""
    text = (book.site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "¶" not in text
    assert not re.search(r'"location":"[^"]*#[^"]*--[^"]*"', text)
    assert not re.search(r'"location":"[^"]*#[a-z_]+-L\d+"', text)


LOOPBACK = re.compile(r"(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]|0\.0\.0\.0)", re.I)


def test_no_canonical_link_or_sitemap_entry_names_a_loopback_address(book):
    bad = []
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        for link in re.findall(r"<link\b[^>]*>", text):
            if LOOPBACK.search(link):
                bad.append((page.relative_to(book.site).as_posix(), link))
    assert not bad, bad[:5]
    sitemap = (book.site / "sitemap.xml").read_text(encoding="utf-8")
    assert not LOOPBACK.search(sitemap), sitemap[:500]
    packed = book.site / "sitemap.xml.gz"
    if packed.exists():
        assert not LOOPBACK.search(gzip.decompress(packed.read_bytes()).decode("utf-8"))


def test_book_site_url_gives_the_canonical_links(monkeypatch):
    """With BOOK_SITE_URL set, mkdocs gives each page its canonical link under that address."""
    from mkdocs.structure.files import File
    from mkdocs.structure.pages import Page
    from tools.book import hooks

    monkeypatch.setenv("BOOK_SITE_URL", "https://example.org/annotated_nn")
    cfg = {"repo_url": None, "edit_uri": None, "docs_dir": "docs", "site_url": None}
    hooks.on_config(cfg)
    generator = hooks._state.pop("generator")
    generator.kill()
    generator.communicate()
    file = File("chapters/06-call-and-forward-hooks.md", "docs", "site", use_directory_urls=True)
    page = Page(None, file, cfg)
    assert page.canonical_url == (
        "https://example.org/annotated_nn/chapters/06-call-and-forward-hooks/"
    )
