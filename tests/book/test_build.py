"""The built book: strict build, pages, links, assets, generated pages, panels, edit links."""

from __future__ import annotations

import html as html_lib
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.book


class _Loader(yaml.SafeLoader):
    """mkdocs.yml may hold tags such as !ENV; read them as plain values."""


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def nav_paths(nav) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [p for item in nav for p in nav_paths(item)]
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in nav_paths(value)]
    return []


class Links(HTMLParser):
    """Collects ids and the URLs of href/src attributes of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str, str]] = []  # (tag, attribute, url)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and tag != "meta":
                self.ids.add(value)
            if name in ("href", "src") or (
                name == "content" and tag == "meta" and value.startswith("http")
            ):
                self.urls.append((tag, name, value))
            if name == "srcset":
                for part in value.split(","):
                    self.urls.append((tag, name, part.strip().split(" ")[0]))


def parse(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def parsed(book) -> dict[Path, Links]:
    return {p: parse(p) for p in book.pages()}


def test_strict_build_passes_without_warnings(book):
    assert book.returncode == 0 and not book.warnings, (
        "\n".join(book.warnings) or book.output[-3000:]
    )


def test_every_nav_page_exists(book):
    cfg = config()
    paths = nav_paths(cfg["nav"])
    assert paths, "empty nav"
    for rel in paths:
        if rel.startswith("generated/"):
            assert (book.site / rel[:-3] / "index.html").exists(), rel
        else:
            assert (ROOT / "docs" / rel).is_file(), f"docs/{rel} is in the nav but does not exist"


def test_chapter_order_in_nav():
    paths = [p for p in nav_paths(config()["nav"]) if p.startswith("chapters/")]
    expected = [
        "00-reading-guide",
        "01-parameter-and-buffer",
        "02-construction",
        "03-attribute-routing",
        "04-module-tree",
        "05-containers",
        "06-call-and-forward-hooks",
        "07-backward-hooks",
        "08-modes-and-grads",
        "09-transforming",
        "10-state-dict",
        "11-load-state-dict",
        "12-repr-and-dir",
        "13-init",
        "14-lazy-modules",
        "15-parallel",
        "16-end-to-end",
        "17-recipes",
        "layers/index",
        "layers/linear",
        "layers/conv",
        "layers/pooling",
        "layers/padding",
        "layers/upsampling-fold",
        "layers/normalization",
        "layers/dropout",
        "layers/activation",
        "layers/flatten-embedding",
        "layers/loss",
        "layers/transformer",
        "layers/rnn",
        "ddp/overview",
        "ddp/iteration",
        "ddp/join-and-hooks",
        "ddp/torchrun",
        "reparam/parametrize",
        "reparam/norms",
        "reparam/prune",
        "optim/optimizer",
        "optim/sgd",
        "optim/adam",
        "optim/rmsprop-adagrad",
        "optim/lr-scheduler",
        "optim/lr-scheduler-formulas",
        "optim/lr-scheduler-adaptive",
        "optim/swa",
        "optim/clip-grad",
        "appendix/hooks-and-globals",
        "appendix/glossary",
    ]
    assert [p[len("chapters/") : -3] for p in paths] == expected


def test_no_google_section_left_as_a_paragraph(book):
    pattern = re.compile(
        r"<p>\s*(Args|Arguments|Returns|Raises|Yields|Examples|Attributes|Note|Warning)\s*:"
    )
    bad = []
    for page in book.pages():
        for m in pattern.finditer(page.read_text(encoding="utf-8")):
            bad.append(f"{page.relative_to(book.site)}: {m.group(0)}")
    assert not bad, bad[:20]


def test_no_external_hosts(book, parsed):
    """Nothing is loaded from another host and no link leaves the site.

    The one absolute URL allowed is the page's own canonical address, ``<link rel="canonical">``
    under ``site_url`` when one is set (it names where the book is published; nothing is fetched
    from it). mkdocs.yml sets none (BOOK_SITE_URL does), so a default build has no such link.
    """
    site_url = config().get("site_url")
    bad = []
    for page, links in parsed.items():
        for tag, attribute, url in links.urls:
            parts = urlparse(url)
            if parts.scheme in ("http", "https") or url.startswith("//"):
                if tag == "link" and site_url and url.startswith(site_url):
                    continue
                bad.append(f"{page.relative_to(book.site)}: <{tag} {attribute}={url}>")
    for css in book.site.rglob("*.css"):
        for m in re.finditer(
            r"url\(\s*['\"]?((?:https?:)?//[^'\")]+)", css.read_text(encoding="utf-8")
        ):
            bad.append(f"{css.relative_to(book.site)}: url({m.group(1)})")
    for svg in book.site.rglob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        for m in re.finditer(r"(?:href|src)=\"((?:https?:)?//[^\"]+)\"", text):
            if "www.w3.org" not in m.group(1):
                bad.append(f"{svg.relative_to(book.site)}: {m.group(1)}")
    assert not bad, bad[:30]


def test_no_broken_internal_links_or_anchors(book, parsed):
    ids = {page: links.ids for page, links in parsed.items()}
    broken = []
    for page, links in parsed.items():
        for tag, attribute, url in links.urls:
            page_url = "file://" + str(page)
            parts = urlparse(url)
            if parts.scheme in ("http", "https", "mailto", "data", "javascript") or url.startswith(
                "//"
            ):
                continue
            if url.startswith("/"):
                # Only 404.html uses root-relative URLs (it is served from any path).
                url = url.lstrip("/")
                page_url = "file://" + str(book.site) + "/"
            target = urlparse(urljoin(page_url, url))
            path = Path(unquote(target.path))
            if path.is_dir():
                path = path / "index.html"
            if not path.exists():
                broken.append(f"{page.relative_to(book.site)}: {url}")
                continue
            fragment = unquote(target.fragment)
            if fragment and path.suffix == ".html":
                if fragment not in ids.get(path, set()) and fragment not in ("", "__search"):
                    broken.append(f"{page.relative_to(book.site)}: {url} (no such anchor)")
    assert not broken, broken[:30]


def documented_objects():
    """Dotted paths of every module-level def/class and every class member def/class (not the
    nested helpers inside functions, which mkdocstrings cannot render on their own) of
    annotated_nn and annotated_examples; @overload stubs excluded."""
    import ast

    def is_overload(node):
        return any(
            (getattr(d, "id", None) or getattr(d, "attr", None)) == "overload"
            for d in node.decorator_list
        )

    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    paths = []
    for package in ("annotated_nn", "annotated_examples"):
        for file in sorted((ROOT / "annotated_src" / package).rglob("*.py")):
            module = ".".join(file.relative_to(ROOT / "annotated_src").with_suffix("").parts)
            module = module.removesuffix(".__init__")
            for node in ast.parse(file.read_text(encoding="utf-8")).body:
                if not isinstance(node, kinds) or (
                    not isinstance(node, ast.ClassDef) and is_overload(node)
                ):
                    continue
                paths.append(f"{module}.{node.name}")
                if isinstance(node, ast.ClassDef):
                    paths += [
                        f"{module}.{node.name}.{member.name}"
                        for member in node.body
                        if isinstance(member, kinds)
                        and (isinstance(member, ast.ClassDef) or not is_overload(member))
                    ]
    return paths


def test_every_function_and_class_is_rendered(book):
    heading = re.compile(
        r'<h\d id="((?:annotated_nn|annotated_examples)[^"]*)" class="doc doc-heading"'
    )
    rendered = set()
    for page in book.pages():
        rendered.update(heading.findall(page.read_text(encoding="utf-8")))
    expected = documented_objects()
    assert len(expected) > 700
    missing = [path for path in expected if path not in rendered]
    assert not missing, missing


def test_every_object_rendered_once(book):
    heading = re.compile(
        r'<h\d id="((?:annotated_nn|annotated_examples)[^"]*)" class="doc doc-heading"'
    )
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for page in book.pages():
        for m in heading.finditer(page.read_text(encoding="utf-8")):
            seen[m.group(1)] += 1
            where.setdefault(m.group(1), []).append(str(page.relative_to(book.site)))
    twice = {k: where[k] for k, n in seen.items() if n > 1}
    assert seen, "no annotated_nn object is rendered anywhere"
    assert not twice, twice


def test_module_49_table_links_every_method(book):
    text = book.html("generated/module-49/")
    table = text.split('<h2 id="151-names-added-since-151"', 1)[0]
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>\s*<td>(.*?)</td>", table, re.S)
    assert [int(n) for n, _ in rows] == list(range(1, 50))
    unlinked = [re.sub("<[^>]+>", "", cell).strip() for _, cell in rows if "<a " not in cell]
    assert not unlinked, f"methods of the 49 not rendered anywhere in the book: {unlinked}"


def test_module_49_summaries_come_from_docstrings(book):
    import ast

    from tools.book.generated import METHODS_1_5_1, summary

    tree = ast.parse(
        (ROOT / "annotated_src/annotated_nn/modules/module.py").read_text(encoding="utf-8")
    )
    module = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Module")
    docs = {
        n.name: ast.get_docstring(n) or ""
        for n in module.body
        if isinstance(n, ast.FunctionDef) and ast.get_docstring(n)
    }
    text = html_lib.unescape(re.sub("<[^>]+>", "", book.html("generated/module-49/")))
    for name in METHODS_1_5_1:
        if name in docs:
            en, zh = summary(docs[name])
            assert " ".join(en.replace("`", "").split()) in " ".join(text.split()), (name, en)


def test_torch_comparisons(book):
    """Each listing of an object with a torch counterpart says "same code" or links a diff."""
    from tools.book.panels import torch_source

    heading = re.compile(r'<h\d id="(annotated_nn[^"]*)" class="doc doc-heading"')
    missing, same, differs = [], 0, 0
    for page in book.pages():
        if "/compare/" in page.as_posix():
            continue
        text = page.read_text(encoding="utf-8")
        headings = list(heading.finditer(text))
        for index, m in enumerate(headings):
            if torch_source(m.group(1)) is None:
                continue
            end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
            section = text[m.end() : end]
            if 'class="book-listing' not in section:
                continue  # an attribute: no code of its own to compare
            panel = re.search(
                r'<details class="book-cmp-panel"[^>]* data-book-src="([^"]+)"', section
            )
            if 'class="book-cmp-same"' in section:
                same += 1
            elif panel:
                target = (page.parent / panel.group(1)).resolve()
                assert target.is_file(), target
                assert 'class="book-cmp-' in target.read_text(encoding="utf-8")
                differs += 1
            else:
                missing.append(m.group(1))
    assert same > 100 and differs > 20, (same, differs)
    assert not missing, missing[:20]


def test_comparison_ignores_docstrings_and_comments():
    """Our `Module.train` differs from torch's only in docstring and comments: "same code"."""
    from tools.book import panels

    path = str(ROOT / "annotated_src/annotated_nn/modules/module.py")
    found = panels.compare("annotated_nn.modules.module.Module.train", path, "Module.train")
    assert found is not None and found.same and found.changed == 0
    changed = panels.compare("annotated_nn.modules.module.Module", path, "Module")
    assert changed is not None and not changed.same and changed.fragment


def _run_on_config(hooks, cfg: dict) -> None:
    """Run the hook's on_config, then stop the processes it starts (not needed here)."""
    hooks.on_config(cfg)
    generator = hooks._state.pop("generator")
    generator.kill()
    generator.communicate()
    hooks.trace.stop(hooks._state.pop("tracer"))


def test_no_repository_link_without_a_configured_repository(book):
    """mkdocs.yml names no repository: no header link, no edit button, no dead link anywhere."""
    assert "repo_url" not in config()
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        assert 'class="md-source"' not in text, page
        assert "md-content__button" not in text, page
        assert not re.search(r'href="https?://(?:www\.)?github\.com', text), page


def test_edit_links_follow_the_configured_repository(monkeypatch):
    """With BOOK_REPO_URL set, API pages edit the .py they render, prose pages their .md."""
    from types import SimpleNamespace

    from tools.book import hooks

    monkeypatch.setenv("BOOK_REPO_URL", "https://example.org/you/annotated_nn")
    cfg = {"repo_url": None, "edit_uri": None, "docs_dir": str(ROOT / "docs"), "site_url": None}
    _run_on_config(hooks, cfg)
    assert cfg["repo_url"] == "https://example.org/you/annotated_nn/"
    assert cfg["edit_uri"] == "edit/main/docs/"
    hooks._state["generated"] = set()
    page = SimpleNamespace(file=SimpleNamespace(src_uri="chapters/06-call-and-forward-hooks.md"))
    page.edit_url = "unchanged"
    markdown = (ROOT / "docs/chapters/06-call-and-forward-hooks.md").read_text(encoding="utf-8")
    hooks.on_page_markdown(markdown, page, cfg, None)
    assert page.edit_url == (
        "https://example.org/you/annotated_nn/edit/main/annotated_src/annotated_nn/modules/module.py"
    )


def test_sitemap_names_no_address_without_a_site_url(book):
    """mkdocs.yml sets no site_url, so the default build's sitemap names no address (mkdocs lists
    the pages under a site_url only: BOOK_SITE_URL gives one, see the next test); instant
    navigation stays configured and works wherever the sitemap lists the pages."""
    assert config().get("site_url") is None
    sitemap = (book.site / "sitemap.xml").read_text(encoding="utf-8")
    assert "<urlset" in sitemap and "<loc>" not in sitemap
    assert '"navigation.instant"' in book.html("index.html")


def test_404_page_links_follow_site_url(book, monkeypatch):
    """404.html is served at any depth, so its links start at site_url's path, never elsewhere.

    A copy published under a sub-path sets BOOK_SITE_URL (e.g. https://host/annotated_nn/), and
    the hook puts it in site_url, so the 404 page's links then start with /annotated_nn/.
    """
    from urllib.parse import urlparse as parse

    from tools.book import hooks

    base = parse(config().get("site_url") or "/").path
    text = (book.site / "404.html").read_text(encoding="utf-8")
    links = re.findall(r'(?:href|src)="(/[^"]*)"', text)
    assert links and all(link.startswith(base) for link in links), links[:5]
    monkeypatch.setenv("BOOK_SITE_URL", "https://example.org/annotated_nn")
    cfg = {"repo_url": None, "edit_uri": None, "docs_dir": str(ROOT / "docs"), "site_url": None}
    _run_on_config(hooks, cfg)
    assert cfg["site_url"] == "https://example.org/annotated_nn/"


def listings_of(text: str) -> list[str]:
    """The HTML of every annotated listing on a page."""
    return re.findall(r'<section class="book-listing[^"]*"[^>]*>.*?</section>', text, re.S)


def test_listings_pair_every_note_with_its_code(book):
    """Every rendered object has a listing; notes come in both languages; nothing is folded."""
    rows = notes = 0
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        assert "book-listing-slot" not in text, page
        assert 'class="mkdocstrings-source"' not in text, page
        for listing in listings_of(text):
            assert not re.search(r'===\s*(?:"|&quot;)', listing), listing[:300]
            rows += listing.count('class="book-row')
            zh = listing.count('<div class="book-zh">')
            en = listing.count('<div class="book-en">')
            assert zh == en, (page, zh, en)
            notes += zh
    assert rows > 2000 and notes > 1000, (rows, notes)


def test_listing_leaves_out_the_docstring_and_the_methods(book):
    """`Module`'s listing has neither its docstring nor a method body; each method is a stub."""
    text = book.html("chapters/02-construction/")
    listing = re.search(
        r'<section class="book-listing[^"]*" data-search-exclude id="annotated_nn\.modules\.module'
        r'\.Module--listing">.*?</section>',
        text,
        re.S,
    )
    assert listing, "no listing for Module"
    body = html_lib.unescape(re.sub(r"<[^>]+>", "", listing.group(0)))
    assert "Base class for all neural network modules" not in body
    assert "def __init__(self, *args: Any, **kwargs: Any) -> None: …" in body
    assert "super().__setattr__" not in body  # __init__'s body lives in its own listing


def test_call_impl_listing_carries_the_docstring_step_numbers(book):
    """The steps numbered in `_call_impl`'s docstring are marked where they happen."""
    text = book.html("chapters/06-call-and-forward-hooks/")
    listing = next(
        item for item in listings_of(text) if "Module._call_impl--listing" in item.split(">")[0]
    )
    for number in range(1, 8):
        assert f"第 {number} 步" in listing and f"Step {number}" in listing, number


def test_pages_stay_under_one_megabyte(book):
    heavy = [
        (page.relative_to(book.site).as_posix(), page.stat().st_size)
        for page in book.pages()
        if page.stat().st_size > 1_000_000
    ]
    assert not heavy, heavy


def test_search_index_is_small_and_holds_no_code(book):
    index = book.site / "search" / "search_index.json"
    assert index.stat().st_size <= 1_500_000, index.stat().st_size
    text = index.read_text(encoding="utf-8")
    assert "forward_call = self._slow_forward" not in text
    assert "def _call_impl" not in text
    assert "中文English" not in text


def test_search_index_keeps_the_prose_after_listings(book):
    """Sections after a page's listings keep their text in the index (hooks.py sets listings aside)."""
    import json

    docs = json.loads((book.site / "search" / "search_index.json").read_text(encoding="utf-8"))[
        "docs"
    ]
    text = {d["location"]: d["text"] for d in docs}
    for anchor in ("ddp", "consume-prefix"):
        assert "DataParallel" in text[f"chapters/15-parallel/#{anchor}"], anchor


def test_search_index_has_chinese_segments(book):
    import json

    docs = json.loads((book.site / "search" / "search_index.json").read_text(encoding="utf-8"))[
        "docs"
    ]
    text = " ".join(d["title"] + " " + d["text"] for d in docs)
    assert "\u200b" in text, "jieba segmentation missing from the search index"
    assert "钩子" in text


def test_ids_are_unique_on_every_page(book):
    """No page repeats an id: repeated tab ids would share one radio group and blank a tab set.

    mkdocstrings converts a docstring's sections separately, so a Note's tabs restart the tab
    counter of the docstring's own tabs (``…--__tabbed_1_1`` twice); tools/book/panels.py renames
    the repeats. Every label must point at an input of its own tab set.
    """
    problems = []
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        rel = page.relative_to(book.site).as_posix()
        repeated = [i for i, n in Counter(re.findall(r'\sid="([^"]+)"', text)).items() if n > 1]
        if repeated:
            problems.append(f"{rel}: {repeated[:3]}")
        for tab_set in re.findall(
            r'<div class="tabbed-set[^"]*"[^>]*>((?:<input [^>]*>)+)<div class="tabbed-labels">((?:<label [^>]*>.*?</label>)+)</div>',
            text,
        ):
            inputs = re.findall(r'\sid="([^"]+)"', tab_set[0])
            labels = re.findall(r'\sfor="([^"]+)"', tab_set[1])
            if inputs != labels:
                problems.append(f"{rel}: labels {labels[:2]} for inputs {inputs[:2]}")
    assert not problems, problems[:10]


def test_no_tab_syntax_left_in_pages(book):
    """No page holds the raw text of a tab header (`=== "中文"`), rendered or in its HTML."""
    found = []
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r'===\s*"(中文|English)"', text):
            found.append(
                f"{page.relative_to(book.site).as_posix()}: {text[m.start() - 80 : m.end()]!r}"
            )
    assert not found, found[:5]


def test_glossary_page_is_for_readers(book):
    """One table: 中文, English, meaning, where it is explained; no forbidden variants shown."""
    terms = yaml.safe_load((ROOT / "docs/glossary.yml").read_text(encoding="utf-8"))["terms"]
    text = book.html("chapters/appendix/glossary/")
    for term in terms:
        assert f'<span class="book-term-zh" lang="zh">{term["zh"]}</span>' in text, term["zh"]
        assert term.get("where"), term["en"]
        for word in term.get("forbidden_zh") or []:
            assert word not in re.sub(r"<[^>]+>", "", text), word
    assert text.count('<td><span class="book-term-zh"') == len(terms)


def test_no_language_tab_set_is_left(book):
    """Every 中文/English tab set became its two language blocks (also when two pairs merged)."""
    left = []
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        for labels in re.findall(r'<div class="tabbed-labels">(.*?)</div>', text, re.S):
            if ">中文</label>" in labels or ">English</label>" in labels:
                left.append(page.relative_to(book.site).as_posix())
    assert not left, left
