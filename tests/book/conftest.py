"""Fixtures of the book tests: one strict build per session, a local server, a headless browser."""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

import book_site  # tests/book_site.py (tests/ is on sys.path)

ROOT = Path(__file__).resolve().parents[2]
# The tests import the book's tools (tools/book/*.py, diagrams/generate.py) from the project root.
for _path in (ROOT, ROOT / "annotated_src"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "artifacts" / "screenshots"


class Build:
    """The result of one ``mkdocs build --strict`` into a temporary directory."""

    def __init__(self, site: Path, returncode: int, output: str, strict: bool) -> None:
        self.site = site
        self.returncode = returncode
        self.output = output
        self.strict = strict

    def pages(self) -> list[Path]:
        """Every HTML page of the site, sorted."""
        return sorted(self.site.rglob("*.html"))

    def html(self, rel: str) -> str:
        """The HTML of one page, by its path in the site (``generated/module-49/``)."""
        path = self.site / rel
        if path.is_dir() or rel.endswith("/"):
            path = path / "index.html"
        return path.read_text(encoding="utf-8")

    @property
    def warnings(self) -> list[str]:
        """The WARNING lines of the build output."""
        return [line for line in self.output.splitlines() if re.match(r"^\s*WARNING\b", line)]


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Build:
    """The book, built once per session for every worker (strict; if that aborts, non-strict)."""
    shared = book_site.shared_dir(tmp_path_factory.getbasetemp())
    book_site.start(shared)  # usually started at collection already (tests/conftest.py)
    result = book_site.wait(shared)
    if result.get("failed"):
        pytest.fail("mkdocs build failed even without --strict:\n" + result["retry_output"][-4000:])
    return Build(Path(result["site"]), result["returncode"], result["output"], result["strict"])


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # 中: 页面没载完就离开时浏览器会断开连接：不必打印回溯。
        # EN: A page left before it finished loading closes its connections: no traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def server(book) -> str:
    """Serve the built site on 127.0.0.1 at a free port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(book.site))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium driven by Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed (make sysdeps)")
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser context and page; records console errors and every requested URL."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.console_errors = []
    page.requests = []
    page.on("console", lambda msg: msg.type == "error" and page.console_errors.append(msg.text))
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("request", lambda request: page.requests.append(request.url))
    try:
        yield page
    finally:
        context.close()


SEARCH_INDEX = re.compile(r"/search/search_index(\.en)?\.json$")


@pytest.fixture(scope="session")
def without_search_index():
    """A function that makes a page refuse its requests for the search index.

    For checks of what a page shows unsearched: Material fetches the index (about 1 MB) on every
    page load and the book's worker indexes it, seconds of CPU per page on a busy machine that
    such a check does not need. Material then logs the failed request: not for a test that
    searches or asserts that the console stays clean.
    """

    def refuse(page) -> None:
        page.route(SEARCH_INDEX, lambda route: route.abort())

    return refuse


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Directory for screenshots (gitignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
