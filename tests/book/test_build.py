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

REPO_URL = "https://github.com/annotated-nn/annotated_nn"


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
        "13-init",
        "14-lazy-modules",
        "15-parallel",
        "16-end-to-end",
        "17-recipes",
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
    """Nothing is loaded from another host; the only external links go to the repository."""
    bad = []
    for page, links in parsed.items():
        for tag, attribute, url in links.urls:
            parts = urlparse(url)
            if parts.scheme in ("http", "https") or url.startswith("//"):
                if tag == "a" and url.startswith(REPO_URL):
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


def test_torch_source_panels(book):
    """Each rendered object with a torch counterpart is followed by a panel of torch's source."""
    import torch
    from tools.book.panels import torch_source

    heading = re.compile(r'<h\d id="(annotated_nn[^"]*)" class="doc doc-heading"')
    missing = []
    total = 0
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        panels = set(
            re.findall(
                r'<details class="quote torch-source" data-search-exclude data-torch="([^"]+)"',
                text,
            )
        )
        for m in heading.finditer(text):
            found = torch_source(m.group(1))
            if found is None:
                continue
            total += 1
            if found[0] not in panels:
                missing.append(m.group(1))
        if panels:
            assert f"PyTorch {torch.__version__} source" in text
    assert total > 0
    assert not missing, missing[:20]


def test_edit_links(book):
    """Every page has an edit link built from repo_url; API pages open the .py that holds the code."""
    directive = re.compile(r"^:::\s+(annotated_nn[\w.]*)", re.M)
    problems = []
    for page in book.pages():
        rel = page.relative_to(book.site).as_posix()
        if rel in ("404.html",):
            continue
        text = page.read_text(encoding="utf-8")
        m = re.search(r'<a href="([^"]+)" title="[^"]*" class="md-content__button md-icon"', text)
        if not m:
            problems.append(f"{rel}: no edit link")
            continue
        edit = m.group(1)
        if not edit.startswith(REPO_URL + "/edit/main/"):
            problems.append(f"{rel}: {edit}")
            continue
        source = (
            rel[: -len("index.html")].rstrip("/") + ".md" if rel != "index.html" else "index.md"
        )
        md = ROOT / "docs" / source
        if md.exists():
            first = directive.search(md.read_text(encoding="utf-8"))
            if first:
                if not edit.endswith(".py"):
                    problems.append(f"{rel}: API page edits {edit}")
                else:
                    target = edit[len(REPO_URL + "/edit/main/") :]
                    assert (ROOT / target).is_file(), target
            elif edit != f"{REPO_URL}/edit/main/docs/{source}":
                problems.append(f"{rel}: {edit}")
        elif rel.startswith("generated/"):
            if not edit.endswith("tools/book/generated.py"):
                problems.append(f"{rel}: {edit}")
    assert not problems, problems[:20]


def test_api_parity_lists_every_public_name(book):
    import torch.nn.modules

    text = html_lib.unescape(book.html("generated/api-parity/"))
    for name in torch.nn.modules.__all__:
        assert f">{name}</code>" in text, name


def test_divergence_ledger_lists_every_marker(book):
    markers = []
    for path in sorted((ROOT / "annotated_src/annotated_nn").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "DIFF(torch 2.13)" in line:
                markers.append((path.relative_to(ROOT / "annotated_src").as_posix(), number))
    text = html_lib.unescape(book.html("generated/divergences/"))
    listed = set(re.findall(r"<code>([\w/]+\.py):(\d+)</code>", text))
    listed = {(f, int(n)) for f, n in listed}
    # Marker lines in a row (one per language or per line) form one entry, listed at the first.
    marked = set(markers)
    for file, number in markers:
        first = number
        while (file, first - 1) in marked:
            first -= 1
        assert (file, first) in listed, (file, number)


def test_annotation_coverage_page(book):
    text = html_lib.unescape(book.html("generated/annotation-coverage/"))
    for path in sorted((ROOT / "annotated_src/annotated_nn").rglob("*.py")):
        assert f"<code>{path.relative_to(ROOT).as_posix()}</code>" in text, path


def test_code_comment_lines_are_tagged(book):
    """The source views tag 中 and EN comment lines for the language switch, in equal numbers."""
    zh = en = 0
    for page in book.pages():
        text = page.read_text(encoding="utf-8")
        zh += len(
            re.findall(
                r'class="book-zh"><span class="linenos"[^>]*></span>\s*<span class="c1"># 中:', text
            )
        )
        en += len(
            re.findall(
                r'class="book-en"><span class="linenos"[^>]*></span>\s*<span class="c1"># EN:', text
            )
        )
    assert zh > 0 and zh == en, (zh, en)


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


def test_glossary_tables_have_tab_sets_of_their_own(book):
    """The glossary's intro and its tables are two 中文/English tab sets, not one set of four."""
    text = book.html("chapters/appendix/glossary/")
    label_sets = re.findall(
        r'<div class="tabbed-labels">((?:<label [^>]*>.*?</label>)+)</div>', text
    )
    assert len(label_sets) >= 2
    for labels in label_sets:
        assert re.findall(r">([^<]*)</label>", labels) == ["中文", "English"], labels
