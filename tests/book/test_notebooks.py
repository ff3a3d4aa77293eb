"""The chapters' notebooks (tools/book/notebooks.py) run and print what the book shows.

Every story page (tools/book/numbers.yml) has a notebook per language, generated from its
Markdown without a build. The two languages have the same code cells. Each notebook runs top to
bottom in one namespace as Jupyter runs it (fresh globals per notebook; a cell's last expression,
when not None, is shown as Jupyter's Out[] would be) and every example cell prints exactly the
book's ```text block. It also runs, for all notebooks in one subprocess, with
`ATEN_CPU_CAPABILITY=default` (the plain kernels every machine has; see tests/book/test_examples.py).

The book's own tests (group `book`): every story page of the built site links to its two
notebooks, one per language, and the files are there; the page "Get the code and run it" is in the
site and linked from the home page and the reading guide. And the command the book gives for
running a notebook, `.venv/bin/jupyter execute`, runs chapter 6's notebook.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import nbformat
import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "tools" / "book"))

import notebooks  # noqa: E402  (tools/book/notebooks.py)
import numbering  # noqa: E402  (tools/book/numbering.py)

STORY_PAGES = list(numbering.table())


@lru_cache(maxsize=None)
def links() -> notebooks.Links:
    return notebooks.Links(base="../", listings=notebooks.listing_index(DOCS))


@lru_cache(maxsize=None)
def notebook(page: str, language: str) -> nbformat.NotebookNode:
    """The page's notebook, as the build writes it. / 页面的 notebook（与构建写出的相同）。"""
    markdown = (DOCS / page).read_text(encoding="utf-8")
    return notebooks.page_notebook(markdown, page, language, links())


def run_cell(source: str, namespace: dict) -> object:
    """Run a cell as Jupyter does; the value of its last expression (Jupyter's Out[]), or None."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def run_notebook(nb: nbformat.NotebookNode) -> list[str]:
    """What each code cell after the set-up cell shows, run top to bottom in one namespace.

    A cell that raises shows the exception, and the notebook stops there, as in Jupyter.
    """
    namespace: dict = {"__name__": "__main__"}
    shown: list[str] = []
    state = torch.get_rng_state()
    try:
        for index, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                try:
                    value = run_cell(cell.source, namespace)
                    if value is not None:
                        print(f"Out[]: {value!r}")
                except Exception as exc:  # noqa: BLE001 - shown in the comparison
                    print(f"<raised {type(exc).__name__}: {exc}>")
                    value = exc
            if index:
                shown.append(out.getvalue())
            elif out.getvalue() or value is not None:
                shown.append(out.getvalue())  # the set-up cell shows nothing
            if isinstance(value, Exception):
                break
    finally:
        torch.set_rng_state(state)
    return shown


def book_outputs(nb: nbformat.NotebookNode) -> list[str]:
    return [output for _, output in notebooks.examples(nb)]


def test_story_pages_are_the_numbered_ones():
    assert len(STORY_PAGES) == 47


@pytest.mark.parametrize("page", STORY_PAGES)
def test_notebooks_of_both_languages(page):
    """Valid notebooks; the same code cells in both languages; prose in the language asked."""
    zh, en = notebook(page, "zh"), notebook(page, "en")
    for nb in (zh, en):
        nbformat.validate(nb)
    code = lambda nb: [(c.source, c.outputs) for c in nb.cells if c.cell_type == "code"]
    assert code(zh) == code(en)
    assert zh.cells[0].cell_type == en.cells[0].cell_type == "markdown"
    assert zh.cells[0].source.startswith("# ") and en.cells[0].source.startswith("# ")
    cjk = re.compile(r"[\u4e00-\u9fff]")
    prose = lambda nb: "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    # No mkdocs syntax is left; the English prose has no Chinese outside code and quoted titles.
    for nb in (zh, en):
        text = prose(nb)
        assert not re.search(r"^(:::|===|\?\?\?|!!!) ", text, re.M), page
        assert "{#" not in text and "][annotated_" not in text and 'markdown="' not in text
    english = re.sub(
        r"```.*?```|`[^`]*`|《[^》]*》|“[^”]*”|<cite.*?</cite>", "", prose(en), flags=re.S
    )
    chinese_lines = [line for line in english.splitlines() if cjk.search(line)]
    assert not chinese_lines, chinese_lines[:5]
    assert cjk.search(prose(zh))


def test_links_point_back_at_the_book():
    """Links point back at the book: a listing at its anchor on the page, chapters at their pages."""
    nb = notebook("chapters/06-call-and-forward-hooks.md", "en")
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert (
        "[the book's page](../chapters/06-call-and-forward-hooks/"
        "#annotated_nn.modules.module.Module._call_impl)" in text
    )
    assert "(../chapters/appendix/hooks-and-globals/)" in text
    assert "reference answers are folded on [the book's page]" in text


class DefaultCapabilityRun:
    """All notebooks, run in one subprocess with the plain CPU kernels (one namespace each)."""

    def __init__(self, workdir: Path) -> None:
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        paths = [str(ROOT / "annotated_src"), str(ROOT), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        self.result, self.log = workdir / "outputs.json", workdir / "log.txt"
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, __file__, str(self.result)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=ROOT,
            )
        self.outputs: dict[str, list[str]] | None = None

    def output(self, page: str) -> list[str]:
        if self.outputs is None:
            returncode = self.proc.wait(timeout=600)
            assert returncode == 0, self.log.read_text(encoding="utf-8")[-4000:]
            self.outputs = json.loads(self.result.read_text(encoding="utf-8"))
        return self.outputs[page]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def default_capability(tmp_path_factory):
    """The subprocess run, or None when this CPU's level is the default already."""
    if torch.backends.cpu.get_cpu_capability() == "DEFAULT":
        yield None
        return
    run = DefaultCapabilityRun(tmp_path_factory.mktemp("notebooks-default"))
    try:
        yield run
    finally:
        run.close()


@pytest.mark.parametrize("page", STORY_PAGES)
def test_notebook_prints_what_the_book_shows(page, default_capability):
    nb = notebook(page, "zh")
    expected = book_outputs(nb)
    assert run_notebook(nb) == expected
    if default_capability is not None:
        assert default_capability.output(page) == expected, (
            "ATEN_CPU_CAPABILITY=default prints something else"
        )


@pytest.mark.slow
def test_jupyter_execute_runs_chapter_6(tmp_path):
    """The book's command for a downloaded notebook: `.venv/bin/jupyter execute` (make notebook)."""
    page = "chapters/06-call-and-forward-hooks.md"
    path = tmp_path / Path(notebooks.notebook_name(page, "en")).name
    path.write_text(notebooks.write(notebook(page, "en")), encoding="utf-8")
    jupyter = Path(sys.executable).parent / "jupyter"
    env = dict(os.environ)
    paths = [str(ROOT / "annotated_src"), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    proc = subprocess.run(
        [str(jupyter), "execute", "--output", "{notebook_name}.run.ipynb", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    ran = nbformat.read(tmp_path / path.name.replace(".ipynb", ".run.ipynb"), as_version=4)
    code = [c for c in ran.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    shown = [
        "".join(o.get("text", "") for o in c.outputs if o.get("name") == "stdout") for c in code
    ]
    assert shown[1:] == book_outputs(notebook(page, "en"))
    assert not [o for c in code for o in c.outputs if o.output_type != "stream"]


# -- the built site ------------------------------------------------------------------------

LINK_P = re.compile(r'<p class="book-notebook"[^>]*>(.*?)</p>', re.S)
LINK_A = re.compile(r'<a class="book-(zh|en)" lang="\1" href="([^"]+)" download>([^<]+)</a>')


@pytest.mark.book
def test_every_story_page_links_its_notebooks(book):
    problems = []
    for page in STORY_PAGES:
        url = notebooks.page_url(page)
        html = book.html(url)
        found = LINK_P.findall(html)
        if len(found) != 1:
            problems.append(f"{page}: {len(found)} download paragraphs")
            continue
        anchors = {lang: (href, text) for lang, href, text in LINK_A.findall(found[0])}
        if set(anchors) != {"zh", "en"}:
            problems.append(f"{page}: links for {sorted(anchors)}")
            continue
        assert anchors["zh"][1] == "下载本章 notebook"
        assert anchors["en"][1] == "Download this chapter as a notebook"
        # The link sits just under the H1.
        assert re.search(r"</h1>\s*<p class=\"book-notebook\"", html), page
        for lang, (href, _) in anchors.items():
            target = (book.site / url / href).resolve()
            expected = (book.site / notebooks.notebook_name(page, lang)).resolve()
            if target != expected or not target.is_file():
                problems.append(f"{page}: {lang} link {href} -> {target}")
                continue
            written = nbformat.reads(target.read_text(encoding="utf-8"), as_version=4)
            if written != notebook(page, lang):
                problems.append(f"{page}: {lang} notebook differs from page_notebook()")
    assert not problems, problems[:10]
    assert len(list((book.site / notebooks.FOLDER).glob("*.ipynb"))) == 2 * len(STORY_PAGES)


@pytest.mark.book
def test_get_the_code_page_is_linked_from_home_and_reading_guide(book):
    html = book.html("get-the-code/")
    assert "获取代码与运行" in html and "Get the code and run it" in html
    for page, href in (
        ("", "get-the-code/"),
        ("chapters/00-reading-guide/", "../../get-the-code/"),
    ):
        assert f'href="{href}"' in book.html(page), page
    # In the navigation, not numbered (it is not a story page).
    assert "get-the-code.md" not in numbering.table()
    assert re.search(r'href="[^"]*get-the-code/"', book.html("chapters/01-parameter-and-buffer/"))


if __name__ == "__main__":
    # The subprocess of DefaultCapabilityRun: every notebook, outputs to argv[1] as {page: [...]}.
    outputs = {page: run_notebook(notebook(page, "zh")) for page in STORY_PAGES}
    Path(sys.argv[1]).write_text(json.dumps(outputs), encoding="utf-8")


def test_get_the_code_instructions_follow_the_configured_repository():
    """The clone command only when a repository is configured; the source archive always."""
    import get_the_code  # tools/book/get_the_code.py

    page = (DOCS / get_the_code.PAGE).read_text(encoding="utf-8")
    url = "https://example.org/you/annotated_nn/"
    with_repo = get_the_code.fill(page, url, get_the_code.ARCHIVE)
    without = get_the_code.fill(page, None, get_the_code.ARCHIVE)
    assert with_repo.count(f"    git clone {url} annotated_nn") == 2  # once per language tab
    assert "    git clone" not in without
    for text in (with_repo, without):
        assert "<!-- book:get-source" not in text
        assert text.count(f"]({get_the_code.ARCHIVE})") == 2
        assert text.count(f"    tar -xzf {get_the_code.ARCHIVE}") == 2


def test_source_archive_holds_the_checkout(tmp_path):
    """The archive unpacks to annotated_nn/ with what `make` needs, and nothing built or installed."""
    import tarfile

    import get_the_code  # tools/book/get_the_code.py

    data = get_the_code.archive_bytes(ROOT)
    path = tmp_path / get_the_code.ARCHIVE
    path.write_bytes(data)
    with tarfile.open(path) as tar:
        names = set(tar.getnames())
    for needed in (
        "Makefile",
        "pyproject.toml",
        "constraints.txt",
        "mkdocs.yml",
        "annotated_src/annotated_nn/__init__.py",
        "docs/get-the-code.md",
        "tools/book/notebooks.py",
        "tests/book/test_notebooks.py",
    ):
        assert f"annotated_nn/{needed}" in names, needed
    assert not [n for n in names if re.search(r"/(\.venv|site|__pycache__|\.git)/", n)]
    assert get_the_code.archive_bytes(ROOT) == data  # the same files give the same bytes


@pytest.mark.book
def test_the_site_offers_the_source_archive(book):
    import get_the_code  # tools/book/get_the_code.py

    assert (book.site / get_the_code.ARCHIVE).stat().st_size > 100_000
    assert f'href="../{get_the_code.ARCHIVE}"' in book.html("get-the-code/")
