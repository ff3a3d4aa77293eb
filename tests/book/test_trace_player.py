"""The player of recorded runs (docs/assets/trace.js) in a real browser, on chapter 6's call.

The recorder (tools/book/trace.py) writes traces/ch06-call.json and puts the player's placeholder
before the example; these tests step through it and check what a reader sees: the highlighted line
moves through `_call_impl`'s listing as the recording says, back goes back, the values show, the
words follow the language switch, the keyboard steps, and on a phone the docked player neither
leaves the screen nor covers the highlighted line.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin

import pytest
from test_browser import CJK, check_clean

pytestmark = [pytest.mark.book, pytest.mark.slow]

CHAPTER = "chapters/06-call-and-forward-hooks/"
RUN = "ch06-call"
PLAYER = f'.book-trace[data-trace-id="{RUN}"]'
CALL_IMPL = "Module._call_impl"

# The ids of the highlighted lines (the contract: exactly one, or none when the step's line is
# not on this page).
CURRENT = "() => [...document.querySelectorAll('.book-line--current')].map(e => e.id)"
# Whether a step's line has a listing row on this page, for every step of the run.
ON_PAGE = "steps => steps.map(s => !!document.getElementById(s.tag + '-L' + s.line))"
# The current line lies in the window, below the header and above the docked player.
LINE_IN_VIEW = """(player) => {
  const line = document.querySelector('.book-line--current');
  if (!line) return false;
  const panel = document.querySelector(player + ' .book-trace-panel').getBoundingClientRect();
  const header = document.querySelector('.md-header').getBoundingClientRect();
  const box = line.getBoundingClientRect();
  return box.top >= header.bottom - 1 && box.bottom <= panel.top + 1 && box.bottom <= innerHeight;
}"""


# True once the page has stopped scrolling (the same scrollY at two polls in a row).
SETTLED = (
    "() => { const same = window.__traceY === scrollY; window.__traceY = scrollY; return same; }"
)


def settle(page) -> None:
    """Wait for a smooth scroll to end (polls 250 ms apart; one has begun by the second)."""
    page.evaluate("delete window.__traceY")
    page.wait_for_function(SETTLED, polling=250, timeout=10000)


def line_comes_into_view(page) -> None:
    """The current line ends up between the header and the player (a smooth scroll may be slow to
    start on a busy machine, so wait for the state, not for the scrolling to stop)."""
    page.wait_for_function(LINE_IN_VIEW, arg=PLAYER, polling=100, timeout=10000)


@pytest.fixture(scope="module")
def run(book) -> dict:
    """Chapter 6's recorded call, as the build wrote it."""
    path = book.site / "traces" / f"{RUN}.json"
    assert path.is_file(), f"the build wrote no {path.relative_to(book.site)}"
    return json.loads(path.read_text(encoding="utf-8"))


def step_number(page, player=None) -> int:
    """The step the counter shows (0 before the first), in either language."""
    player = player or page.locator(PLAYER)
    text = player.locator(".book-trace-count").inner_text()
    match = re.search(r"(\d+) / (\d+)", text)
    assert match, text
    return int(match.group(1))


def expected_ids(page, run) -> list[list[str]]:
    """For each step, the ids the player must highlight: its line's, when the page has it."""
    on_page = page.evaluate(ON_PAGE, run["steps"])
    return [
        [f"{step['tag']}-L{step['line']}"] if here else []
        for step, here in zip(run["steps"], on_page, strict=True)
    ]


def in_call_impl(run, line_id: str) -> bool:
    """Whether a highlighted id is a line of `Module._call_impl`'s listing."""
    fn = run["functions"][CALL_IMPL]
    match = re.fullmatch(rf"{re.escape(fn['tag'])}-L(\d+)", line_id)
    return bool(match) and fn["first"] <= int(match.group(1)) <= fn["last"]


def open_chapter(page, server, lang: str = "zh") -> None:
    page.goto(server)
    page.evaluate(f"localStorage.setItem('book-lang', '{lang}')")
    page.goto(server + CHAPTER)
    page.locator(PLAYER).scroll_into_view_if_needed()


def test_next_walks_through_call_impl_and_back_goes_back(page, server, run, screenshots):
    """→ and the next button move the highlight step by step as recorded, through `_call_impl`'s
    listing; back returns to the previous line; the values of a step show."""
    open_chapter(page, server)
    player = page.locator(PLAYER)
    assert player.locator('button[data-trace="next"]').count() == 1
    assert player.locator('button[data-trace="prev"]').count() == 1
    expected = expected_ids(page, run)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => /\\b1 \\//.test(document.querySelector('{PLAYER} .book-trace-count').textContent)"
    )
    assert page.evaluate(CURRENT) == expected[0]
    # Walk until the run has left _call_impl's listing after passing through it.
    seen, index = [], 0
    while index < len(run["steps"]) - 1:
        player.locator('button[data-trace="next"]').click()
        index += 1
        assert step_number(page) == index + 1
        assert page.evaluate(CURRENT) == expected[index], index
        if expected[index] and in_call_impl(run, expected[index][0]):
            seen.append(expected[index][0])
        elif len(set(seen)) >= 5:
            break
    assert len(set(seen)) >= 5, seen
    # Back to the last line of _call_impl that was highlighted.
    last = max(i for i in range(index) if expected[i] and in_call_impl(run, expected[i][0]))
    while index > last:
        player.locator('button[data-trace="prev"]').click()
        index -= 1
        assert page.evaluate(CURRENT) == expected[index], index
    assert step_number(page) == last + 1
    line_comes_into_view(page)
    # The values: at the call of _call_impl, its arguments by name and value.
    call = next(i for i, s in enumerate(run["steps"]) if s["fn"] == CALL_IMPL and s["ev"] == "call")
    while index > call:
        page.keyboard.press("ArrowLeft")
        index -= 1
    assert step_number(page) == call + 1
    values = player.locator(".book-trace-vars").inner_text()
    assert run["steps"][call]["vars"], "the call of _call_impl was recorded without its arguments"
    for name, value in run["steps"][call]["vars"].items():
        assert name in values and value in values, (name, value, values)
    assert CALL_IMPL in player.locator(".book-trace-where").inner_text()
    settle(page)
    page.screenshot(path=str(screenshots / "trace-walk-1280-zh.png"))
    check_clean(page)


def test_the_player_speaks_the_reader_language(page, server, run):
    open_chapter(page, server, "zh")
    player = page.locator(PLAYER)
    player.locator('button[data-trace="next"]').click()
    page.wait_for_function(
        f"() => document.querySelector('{PLAYER} .book-trace-where').textContent"
    )
    assert player.locator('button[data-trace="next"]').inner_text().strip() == "下一步"
    assert "步" in player.locator(".book-trace-count").inner_text()
    assert run["title"]["zh"] in player.inner_text()
    page.locator(".book-lang-toggle").click()
    assert player.locator('button[data-trace="next"]').inner_text().strip() == "Next"
    assert player.locator('button[data-trace="prev"]').inner_text().strip() == "Back"
    assert "step" in player.locator(".book-trace-count").inner_text()
    assert run["title"]["en"] in player.inner_text()
    assert not re.search(CJK, player.inner_text()), player.inner_text()
    page.locator(".book-lang-toggle").click()
    assert player.locator('button[data-trace="prev"]').inner_text().strip() == "上一步"
    check_clean(page)


def test_arrow_keys_step_unless_typing(page, server, run):
    """← / → step the player; typed into the search box they do not."""
    open_chapter(page, server)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => /\\b3 \\//.test(document.querySelector('{PLAYER} .book-trace-count').textContent)"
    )
    page.keyboard.press("ArrowLeft")
    assert step_number(page) == 2
    assert page.evaluate(CURRENT) == expected_ids(page, run)[1]
    page.locator("input.md-search__input").click()
    page.keyboard.type("hook")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_number(page) == 2
    page.keyboard.press("Escape")
    page.locator(f'{PLAYER} button[data-trace="next"]').focus()
    page.keyboard.press("ArrowRight")
    assert step_number(page) == 3


def test_jump_to_next_call_and_return(page, server, run):
    """The "next call" button stops at the next call, "return" at the return of the function it
    entered."""
    open_chapter(page, server)
    player = page.locator(PLAYER)
    steps = run["steps"]
    player.locator('button[data-trace="next"]').click()
    page.wait_for_function(f"() => document.querySelector('{PLAYER}.book-trace--docked')")
    player.locator('button[data-trace="next-call"]').click()
    call = step_number(page) - 1
    assert steps[call]["ev"] == "call", steps[call]
    assert all(s["ev"] != "call" for s in steps[1:call])
    player.locator('button[data-trace="return"]').click()
    # The return that matches this call: calls and returns in between pair up.
    level = 0
    for end in range(call + 1, len(steps)):
        if steps[end]["ev"] == "call":
            level += 1
        elif steps[end]["ev"] == "return":
            if level == 0:
                break
            level -= 1
    assert steps[end]["ev"] == "return" and steps[end]["fn"] == steps[call]["fn"], steps[end]
    assert step_number(page) == end + 1


# Whether a player sits in its place in the text (not docked): its panel inside its own box.
IN_PLACE = """(node) => {
  const box = node.getBoundingClientRect();
  const panel = node.querySelector('.book-trace-panel').getBoundingClientRect();
  return box.height > 0 && panel.top >= box.top - 1 && panel.bottom <= box.bottom + 1;
}"""


def test_in_place_until_started_then_docked_one_at_a_time(page, server, run):
    """A player sits before its example until used, then docks (only one at a time); the scrubber
    reaches any step; closing puts it back and clears the highlight."""
    open_chapter(page, server)
    players = page.locator(".book-trace")
    assert players.count() >= 1
    assert all(players.nth(k).evaluate(IN_PLACE) for k in range(players.count()))
    player = page.locator(PLAYER)
    example = player.evaluate("e => e.nextElementSibling.getBoundingClientRect().top")
    assert player.locator(".book-trace-panel").bounding_box()["y"] < example
    player.locator('button[data-trace="next"]').click()
    page.wait_for_function(f"() => document.querySelector('{PLAYER}.book-trace--docked')")
    assert not player.evaluate(IN_PLACE)
    last = len(run["steps"]) - 1
    player.locator("input[type=range]").fill(str(last))
    assert step_number(page) == last + 1
    assert player.locator('button[data-trace="next"]').is_disabled()
    if players.count() > 1:
        other = page.locator(f".book-trace:not({PLAYER})").first
        other.locator('button[data-trace="next"]').click()
        page.wait_for_function(
            "() => document.querySelectorAll('.book-trace--docked').length === 1"
        )
        assert other.evaluate("e => e.classList.contains('book-trace--docked')")
        assert player.evaluate(IN_PLACE)
        assert len(page.evaluate(CURRENT)) <= 1
        player.locator('button[data-trace="prev"]').click()
        page.wait_for_function(f"() => document.querySelector('{PLAYER}.book-trace--docked')")
        assert not other.evaluate("e => e.classList.contains('book-trace--docked')")
    player.locator(".book-trace-close").click()
    assert page.evaluate(CURRENT) == []
    assert not page.locator(".book-trace--docked").count()
    assert player.evaluate(IN_PLACE)
    check_clean(page)


def test_the_recording_is_fetched_only_near_the_player(page, server):
    """A reader who never comes near the player downloads no recording."""
    page.set_viewport_size({"width": 1280, "height": 400})
    page.goto(server + CHAPTER)
    top = page.locator(PLAYER).evaluate("e => e.getBoundingClientRect().top - innerHeight")
    assert top > 400, "the player is too close to the top of the page for this test"
    page.wait_for_load_state("networkidle")
    assert not any("/traces/" in url for url in page.requests)
    with page.expect_request(re.compile(rf"/traces/{RUN}\.json$")):
        page.locator(PLAYER).scroll_into_view_if_needed()


def step_elsewhere(book):
    """A recorded step whose line is not on its run's page but listed on another one, as
    (run, step index, that page, line id), or None."""
    for path in sorted((book.site / "traces").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        own = book.html(data["page"])
        for index, step in enumerate(data["steps"]):
            elsewhere = (data["functions"].get(step["fn"]) or {}).get("page")
            line_id = f"{step['tag']}-L{step['line']}"
            if (
                elsewhere
                and f'id="{line_id}"' not in own
                and f'id="{line_id}"' in book.html(elsewhere)
            ):
                return data, index, elsewhere, line_id
    return None


def test_a_line_on_another_page_is_linked(page, server, book):
    """When the run leaves the page's listings, the player says so and links to the line."""
    found = step_elsewhere(book)
    if found is None:
        pytest.skip("no recorded run steps into a function listed only on another page")
    data, index, elsewhere, line_id = found
    page.goto(server + data["page"])
    player = page.locator(f'.book-trace[data-trace-id="{data["id"]}"]')
    player.locator('button[data-trace="next"]').click()
    page.wait_for_function(
        "id => document.querySelector(`.book-trace[data-trace-id='${id}'].book-trace--docked`)",
        arg=data["id"],
    )
    player.locator("input[type=range]").fill(str(index))
    assert step_number(page, player) == index + 1
    assert page.evaluate(CURRENT) == []
    assert "不在本页" in player.locator(".book-trace-away").inner_text()
    link = player.locator(".book-trace-away a")
    href = link.get_attribute("href")
    assert not href.startswith(("/", "http")), href
    assert urljoin(page.url, href) == server + elsewhere + "#" + line_id
    link.click()
    page.wait_for_url(f"**/{elsewhere}#{line_id}")
    assert page.locator(f'[id="{line_id}"]').is_visible()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_docked_player_stays_on_screen_and_off_the_current_line(
    browser, server, run, screenshots, width, height, lang
):
    """While stepping through `_call_impl`, the docked player is fully on screen and the
    highlighted line is visible above it, at 1280 px and on a phone."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=width < 600, locale="zh-CN"
    )
    page = context.new_page()
    try:
        open_chapter(page, server, lang)
        player = page.locator(PLAYER)
        expected = expected_ids(page, run)
        wanted = [i for i, ids in enumerate(expected) if ids and in_call_impl(run, ids[0])]
        assert wanted, "no step of the run is on _call_impl's listing"
        player.locator('button[data-trace="next"]').click()
        page.wait_for_function(f"() => document.querySelector('{PLAYER}.book-trace--docked')")
        for index in (wanted[0], wanted[len(wanted) // 2], wanted[-1]):
            player.locator("input[type=range]").fill(str(index))
            assert page.evaluate(CURRENT) == expected[index]
            line_comes_into_view(page)
            panel = player.locator(".book-trace-panel").bounding_box()
            assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width + 0.5, panel
            assert panel["y"] >= 0 and panel["y"] + panel["height"] <= height + 0.5, panel
            # At most 40% of the window: most of it still shows the listing.
            assert panel["height"] <= 0.4 * height, panel
        assert page.evaluate("[document.documentElement.scrollWidth, innerWidth]")[0] <= width
        page.screenshot(path=str(screenshots / f"trace-{width}-{lang}.png"))
    finally:
        context.close()
