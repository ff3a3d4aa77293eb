"""Search in the reader's language: one index per language, whole words, qualified names first.

The build writes search/search_index.json (Chinese) and search_index.en.json (English)
(tools/book/search_index.py); docs/assets/search.js and search-worker.js search the reader's.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlparse

import pytest

pytestmark = [pytest.mark.book, pytest.mark.slow]

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
HOOKS_CHAPTER = "chapters/06-call-and-forward-hooks/"
QUERY_BOX = "input[data-md-component=search-query]"


def load_index(book, name: str) -> list[dict]:
    return json.loads((book.site / "search" / name).read_text(encoding="utf-8"))["docs"]


def open_in(page, server, language: str) -> None:
    """Open the home page with the reader's language chosen (as the header button keeps it).

    The choice is written before the page's scripts run, instead of on a first load of the page
    (which would fetch and index the other language's search index for nothing).
    """
    page.add_init_script(f"localStorage.setItem('book-lang', '{language}')")
    page.goto(server)


def search(page, query: str):
    """Type a query into the search box; the result list once it shows results."""
    box = page.locator(QUERY_BOX)
    box.click()
    box.fill(query)
    items = page.locator(".md-search-result__item")
    items.first.wait_for(timeout=30000)
    return items


def results_text(page) -> str:
    """All the text of the results, folded sections included."""
    return page.evaluate(
        "[...document.querySelectorAll('.md-search-result__item')].map(e => e.textContent).join('\\n')"
    )


def result_titles(page) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('.md-search-result__item h1, .md-search-result__item h2')]"
        ".map(e => e.textContent.trim())"
    )


# ---------------------------------------------------------------------------------------------
# The index files
# ---------------------------------------------------------------------------------------------


def test_each_language_has_its_own_small_index(book):
    for name in ("search_index.json", "search_index.en.json"):
        size = (book.site / "search" / name).stat().st_size
        assert size <= 1_500_000, (name, size)
    english = load_index(book, "search_index.en.json")
    chinese = load_index(book, "search_index.json")
    cjk = [d["location"] for d in english if CJK.search(d["title"] + d["text"])]
    assert cjk == [], cjk[:10]
    by_location = {d["location"]: d for d in chinese}
    lr = by_location["chapters/optim/lr-scheduler/"]
    # The Chinese half of the numbered title "21.5 学习率调度器 / 21.5 Learning-rate schedulers".
    assert lr["title"].replace("\u200b", "") == "21.5 学习率调度器", lr["title"]
    assert "Learning-rate" not in lr["text"]
    english_lr = {d["location"]: d for d in english}["chapters/optim/lr-scheduler/"]
    assert english_lr["title"] == "21.5 Learning-rate schedulers", english_lr["title"]


def test_index_titles_name_the_owner(book):
    docs = load_index(book, "search_index.en.json")
    titles = {d["location"].partition("#")[2]: d["title"] for d in docs}
    assert titles["annotated_nn.modules.conv.Conv2d._conv_forward"] == "Conv2d._conv_forward"
    assert titles["annotated_nn.modules.conv.Conv1d._conv_forward"] == "Conv1d._conv_forward"
    assert titles["annotated_nn.modules.module.Module.state_dict"] == "Module.state_dict"


def test_written_pages_carry_no_language_marks(book):
    marks = re.compile("[\ue0a0-\ue0a3]")
    marked = [str(p) for p in book.pages() if marks.search(p.read_text(encoding="utf-8"))]
    assert marked == [], marked[:5]


# ---------------------------------------------------------------------------------------------
# In the browser
# ---------------------------------------------------------------------------------------------


def test_english_results_are_english(page, server):
    open_in(page, server, "en")
    search(page, "hook")
    text = results_text(page)
    assert HOOKS_CHAPTER in " ".join(
        page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    )
    assert not CJK.search(text), CJK.findall(text)[:20]
    # The English reader downloads the English index only.
    loaded = [url for url in page.requests if "/search/search_index" in url]
    assert loaded and all(url.endswith("search_index.en.json") for url in loaded), loaded
    assert page.console_errors == [], page.console_errors


def test_chinese_results_are_chinese_with_no_missing_label(page, server):
    open_in(page, server, "zh")
    items = search(page, "钩子")
    hrefs = items.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(HOOKS_CHAPTER in (h or "") for h in hrefs), hrefs[:10]
    assert page.locator(".md-search-result__terms").count() == 0
    assert "Missing" not in results_text(page) and "缺少" not in results_text(page)
    # No English title: a title is Chinese or an identifier, perhaps with mkdocstrings' label
    # ("SpectralNorm.apply staticmethod"), never two English words in a row.
    prose = re.compile(r"(?<![\w.])[A-Za-z]{2,} [A-Za-z]{2,}")
    english = [t for t in result_titles(page) if not CJK.search(t) and prose.search(t)]
    assert english == [], english[:10]
    # Whole words are highlighted, never a single character on its own.
    marks = page.evaluate(
        "[...document.querySelectorAll('.md-search-result mark')].map(e => e.textContent)"
    )
    assert marks and all(m == "钩子" for m in marks if CJK.search(m)), sorted(set(marks))[:20]
    assert page.console_errors == [], page.console_errors


def test_a_chinese_phrase_highlights_words_not_characters(page, server):
    open_in(page, server, "zh")
    search(page, "学习率调度器")
    marks = page.evaluate(
        "[...document.querySelectorAll('.md-search-result mark')].map(e => e.textContent)"
    )
    single = [m for m in marks if len(m) == 1 and CJK.search(m)]
    assert marks and single == [], sorted(set(marks))[:20]


@pytest.mark.parametrize("query", ["学习率调度器", "Conv2d._conv_forward"])
def test_the_box_keeps_what_was_typed(page, server, query):
    open_in(page, server, "zh")
    search(page, query)
    page.wait_for_timeout(500)
    assert page.locator(QUERY_BOX).input_value() == query
    # Material's grey completion hint shows nothing but what was typed (or nothing).
    hint = page.locator(".md-search__suggest").text_content() or ""
    assert hint in ("", query), hint


@pytest.mark.parametrize(
    "query,anchor",
    [
        ("Conv2d._conv_forward", "annotated_nn.modules.conv.Conv2d._conv_forward"),
        ("Module.state_dict", "annotated_nn.modules.module.Module.state_dict"),
        ("Optimizer.step", "annotated_optim.optimizer.Optimizer.step"),
        (
            "DistributedDataParallel.no_sync",
            "annotated_nn.parallel.distributed.DistributedDataParallel.no_sync",
        ),
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_qualified_name_finds_its_object_first(page, server, query, anchor, language):
    open_in(page, server, language)
    first = search(page, query).first
    # The first result: its page, then its best section.
    links = first.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    sections = [urlparse(h).fragment for h in links if urlparse(h).fragment]
    assert sections and sections[0] == anchor, links[:5]
    assert first.locator("h2").first.text_content().strip() == query


def test_same_names_show_their_owner(page, server):
    open_in(page, server, "en")
    search(page, "_conv_forward")
    titles = [t for t in result_titles(page) if t.endswith("_conv_forward")]
    assert {"Conv1d._conv_forward", "Conv2d._conv_forward", "Conv3d._conv_forward"} <= set(titles)
    assert len(titles) == len(set(titles)), titles


def test_a_query_typed_through_an_input_method_runs(page, server):
    """An IME sends compositionstart, input events while composing, compositionend: no keyup."""
    open_in(page, server, "zh")
    search(page, "state_dict")  # the index is ready
    page.evaluate(
        """(query) => {
          const box = document.querySelector('input[data-md-component=search-query]');
          const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
          set.call(box, '');
          box.dispatchEvent(new InputEvent('input', {bubbles: true}));
          box.dispatchEvent(new CompositionEvent('compositionstart', {bubbles: true, data: ''}));
          set.call(box, 'gou');
          box.dispatchEvent(new InputEvent('input', {bubbles: true, isComposing: true, data: 'gou'}));
          set.call(box, query);
          box.dispatchEvent(new InputEvent('input', {bubbles: true, isComposing: true, data: query}));
          box.dispatchEvent(new CompositionEvent('compositionend', {bubbles: true, data: query}));
        }""",
        "钩子",
    )
    page.wait_for_function(
        "[...document.querySelectorAll('.md-search-result__item a')]"
        f".some(a => a.href.includes('{HOOKS_CHAPTER}'))",
        timeout=30000,
    )
    assert CJK.search(results_text(page))


def test_switching_language_switches_the_results(page, server):
    """The worker loads the other index and answers the query shown again."""
    open_in(page, server, "zh")
    search(page, "state_dict")
    assert CJK.search(results_text(page))
    page.evaluate("document.querySelector('.book-lang-toggle').click()")
    # Titles, teasers and Material's own words ("2 more on this page", the count above).
    page.wait_for_function(
        "(() => { const t = [...document.querySelectorAll("
        "'.md-search-result__item, .md-search-result__meta')]"
        ".map(e => e.textContent).join(''); return t && !/[\\u4e00-\\u9fff]/.test(t); })()",
        timeout=30000,
    )
    assert page.locator(QUERY_BOX).input_value() == "state_dict"
    assert page.console_errors == [], page.console_errors
