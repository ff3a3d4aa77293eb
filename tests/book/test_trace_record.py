"""The recorded runs (issue 20, tools/book/trace.py): fresh, true to the code, linked to listings.

A run is the line-by-line record of a page's marked example through annotated_nn/annotated_optim,
written by the build to ``traces/RUN_ID.json``. These tests read the built site (the session
``book`` fixture) and check that

- re-running each example under an independent, plain ``sys.settrace`` pass gives exactly the
  recorded steps, the folded ones being whole calls of the function they name with as many lines
  as they say (so a code change cannot leave a stale recording);
- every step's line is inside the function it names;
- every function with a page has the ``{tag}-L{line}`` anchor of each of its recorded lines there,
  and every step the reader steps through (not folded) is in a function with a page;
- the records stay small;
- every page with a marker has the player's placeholder instead, right before the example.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from tools.book import trace

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "annotated_src"
MARKED = trace.marked_examples()
IDS = sorted(MARKED)


def test_the_nine_runs_of_the_issue_are_marked():
    """Issue 20 names nine runs; each has a marker on its page and an entry in RUNS."""
    assert set(IDS) == set(trace.RUNS)
    pages = {run_id: page for run_id, (page, _) in MARKED.items()}
    assert pages["ch03-setattr"] == "chapters/03-attribute-routing.md"
    assert pages["ch06-call"] == pages["ch06-fast-path"] == "chapters/06-call-and-forward-hooks.md"
    assert pages["ch07-backward-hook"] == "chapters/07-backward-hooks.md"
    assert pages["ch09-to-float64"] == "chapters/09-transforming.md"
    assert pages["ch10-state-dict"] == "chapters/10-state-dict.md"
    assert pages["ch11-load-missing"] == "chapters/11-load-state-dict.md"
    assert pages["ch14-lazy-first-call"] == "chapters/14-lazy-modules.md"
    assert pages["optim-sgd-step"] == "chapters/optim/sgd.md"
    assert pages["parametrize-register"] == "chapters/reparam/parametrize.md"


@pytest.fixture(scope="module")
def runs(book) -> dict[str, dict]:
    """The built records, by run id."""
    folder = book.site / "traces"
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8")) for path in folder.glob("*.json")
    }


@functools.lru_cache(maxsize=None)
def _ours(filename: str) -> str | None:
    """The path of a file under annotated_src/annotated_nn or annotated_optim, else None."""
    try:
        rel = Path(filename).resolve().relative_to(SRC)
    except ValueError:
        return None
    return rel.as_posix() if rel.parts[0] in ("annotated_nn", "annotated_optim") else None


def _name(code) -> str:
    """The qualname; for a comprehension or lambda (not unique in its function) with its first line."""
    return code.co_qualname + (f"@{code.co_firstlineno}" if code.co_name.startswith("<") else "")


def raw_events(code: str) -> list[tuple[str, str, int, str]]:
    """(file, function, line, event) of every event in our frames, nothing folded."""
    events: list[tuple[str, str, int, str]] = []

    def local(frame, event, arg):
        events.append((_ours(frame.f_code.co_filename), _name(frame.f_code), frame.f_lineno, event))
        return local

    def global_(frame, event, arg):
        path = _ours(frame.f_code.co_filename)
        if path is None:
            return None
        events.append((path, _name(frame.f_code), frame.f_lineno, "call"))
        return local

    trace.run_example(code, global_)
    return events


def _skip_call(events, start: int) -> tuple[int, int]:
    """The index after the call starting at ``start`` returns, and how many lines it ran."""
    depth, lines, index = 0, 0, start
    while True:
        _, _, _, event = events[index]
        index += 1
        if event == "call":
            depth += 1
        elif event == "return":
            depth -= 1
            if depth == 0:
                return index, lines
        elif event == "line":
            lines += 1


@pytest.mark.parametrize("run_id", IDS)
def test_the_record_is_what_runs_now(run_id, runs):
    run = runs[run_id]
    events = raw_events(MARKED[run_id][1])
    index = 0
    for number, step in enumerate(run["steps"]):
        where = f"{run_id} step {number} {step}"
        path = run["files"][step["tag"]]
        assert index < len(events), f"{where}: the example ran no further"
        if "folded" in step:
            calls = lines = 0
            # One step for the call, and for calls of the same function right after it.
            while (
                index < len(events)
                and events[index][:2] == (path, step["fn"])
                and events[index][3] == "call"
            ):
                index, more = _skip_call(events, index)
                calls, lines = calls + 1, lines + more
            assert calls and lines == step["folded"], (where, calls, lines)
            continue
        assert events[index] == (path, step["fn"], step["line"], step["ev"]), (where, events[index])
        index += 1
    assert index == len(events), (
        f"{run_id}: the record ends before the run does: {events[index : index + 3]}"
    )


@pytest.mark.parametrize("run_id", IDS)
def test_every_line_is_inside_its_function(run_id, runs):
    run = runs[run_id]
    for step in run["steps"]:
        info = run["functions"][step["fn"]]
        assert info["tag"] == step["tag"]
        assert info["first"] <= step["line"] <= info["last"], step


def test_listed_functions_have_their_lines_anchored(runs, book):
    """The player highlights ``{tag}-L{line}`` on the function's page: it must be there."""
    pages: dict[str, str] = {}
    for run_id, run in runs.items():
        functions = run["functions"]
        needed: dict[str, set[int]] = {}
        for step in run["steps"]:
            needed.setdefault(step["fn"], {functions[step["fn"]]["first"]}).add(step["line"])
            if "folded" not in step:
                assert functions[step["fn"]]["page"] is not None, (
                    f"{run_id}: {step['fn']} is stepped through but no page lists it"
                )
        for fn, lines in needed.items():
            page = functions[fn]["page"]
            if page is None:
                continue
            if page not in pages:
                pages[page] = book.html(page)
            missing = [
                n for n in sorted(lines) if f'id="{functions[fn]["tag"]}-L{n}"' not in pages[page]
            ]
            assert not missing, f"{run_id}: {fn} on {page} lacks the anchors of lines {missing}"
        assert any(info["page"] == run["page"] for info in functions.values()), run_id


def test_records_are_small(runs):
    """A few hundred steps; no record over 200 KB, no page's records over 1 MB; short values."""
    per_page: dict[str, int] = {}
    for run_id, run in runs.items():
        size = len(json.dumps(run, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        assert size <= 200_000, (run_id, size)
        per_page[run["page"]] = per_page.get(run["page"], 0) + size
        assert 10 <= len(run["steps"]) <= trace.MAX_STEPS, (run_id, len(run["steps"]))
        for step in run["steps"]:
            assert all(len(value) <= trace.REPR_LIMIT for value in step["vars"].values()), step
    assert max(per_page.values()) <= 1_000_000, per_page


def test_markers_become_the_players_placeholder(book, runs):
    """Each marker: the placeholder div right before its example; no marker comment left."""
    assert set(runs) == set(IDS)
    for run_id, (page, code) in MARKED.items():
        url = runs[run_id]["page"]
        html = book.html(url)
        match = re.search(
            rf'<div class="book-trace" data-trace-id="{run_id}" data-trace-src="([^"]+)"></div>\s*'
            r'<div class="language-python highlight"',
            html,
        )
        assert match, f"{url}: no placeholder for {run_id} right before a python block"
        target = (book.site / url / match.group(1)).resolve()
        assert target == (book.site / "traces" / f"{run_id}.json").resolve()
        first_line = code.splitlines()[0]
        after = re.sub(r"<[^>]+>", "", html[match.end() : match.end() + 3000])
        assert first_line in after.replace("&quot;", '"'), (
            f"{run_id}: the block after the placeholder is not its example"
        )
    for path in book.pages():
        assert "<!-- trace:" not in path.read_text(encoding="utf-8"), path


def test_placeholders_of_a_page():
    """The hook's replacement, on its own: the relative URL, one div per marker, nothing else touched."""
    html = '<p>text</p>\n<!-- trace: ch06-call -->\n\n<div class="highlight"></div>\n'
    out, ids = trace.placeholders(html, lambda target: "../../" + target)
    assert ids == ["ch06-call"]
    assert out == (
        '<p>text</p>\n<div class="book-trace" data-trace-id="ch06-call"'
        ' data-trace-src="../../traces/ch06-call.json"></div>\n\n<div class="highlight"></div>\n'
    )
