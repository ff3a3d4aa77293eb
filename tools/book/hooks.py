"""mkdocs hooks of the annotated_nn book (``hooks:`` in mkdocs.yml). / 本书的 mkdocs 钩子。

- ``on_files``: adds the generated pages and diagrams (tools/book/generated.py, run in a fresh
  process so that it always sees the current code) as virtual files; nothing is written to docs/.
- ``on_page_markdown``: points "Edit this page" at the ``.py`` file of the page's first
  ``::: annotated_nn.…`` object (or at the generator, for generated pages).
- ``on_page_content``: marks ``# 中:`` / ``# EN:`` comment lines for the language switch and adds
  the "PyTorch source" panels (tools/book/panels.py), then makes repeated ``id``s unique.

``BOOK_PLACEHOLDERS=1`` adds a stub for each chapter in the nav that does not exist yet (for
building the book while the chapters are being written; never set in tests or CI).
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import panels  # noqa: E402  (tools/book/panels.py)

log = logging.getLogger("mkdocs.hooks.book")

DIRECTIVE = re.compile(r"^:::\s+(annotated_nn(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$", re.M)
GENERATOR = "tools/book/generated.py"

_state: dict = {}


def _repo_edit_base(config) -> str | None:
    """``<repo_url>/edit/main/`` from the one ``repo_url`` setting. / 由唯一的 ``repo_url`` 设置得到编辑链接前缀。"""
    repo_url, edit_uri = config.get("repo_url"), config.get("edit_uri") or ""
    if not repo_url:
        return None
    # edit_uri is "edit/main/docs/": the branch part without the docs folder.
    branch_part = edit_uri.rstrip("/")
    if branch_part.endswith("/" + Path(config["docs_dir"]).name):
        branch_part = branch_part[: -len(Path(config["docs_dir"]).name) - 1]
    return repo_url.rstrip("/") + "/" + branch_part.strip("/") + "/"


def source_file_of(dotted: str) -> str | None:
    """Repository path of the ``.py`` file defining a dotted object. / 定义某个点号路径对象的 ``.py`` 文件在仓库中的路径。"""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT / "annotated_src" / Path(*parts[:cut])
        if base.with_suffix(".py").is_file():
            return base.with_suffix(".py").relative_to(ROOT).as_posix()
        if (base / "__init__.py").is_file():
            return (base / "__init__.py").relative_to(ROOT).as_posix()
    return None


def _nav_paths(nav) -> list[str]:
    """All page paths in the nav config. / nav 配置中的全部页面路径。"""
    found: list[str] = []
    if isinstance(nav, str):
        found.append(nav)
    elif isinstance(nav, list):
        for item in nav:
            found.extend(_nav_paths(item))
    elif isinstance(nav, dict):
        for value in nav.values():
            found.extend(_nav_paths(value))
    return found


def on_config(config, **kwargs):
    """Reset per-build state. / 重置每次构建的状态。"""
    _state.clear()
    _state["renderer"] = panels.PanelRenderer(config)
    _state["edit_base"] = _repo_edit_base(config)
    return config


def on_files(files, config, **kwargs):
    """Add the generated pages and diagrams. / 加入生成的页面与图。"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "annotated_src"), str(ROOT)]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    proc = subprocess.run(
        [sys.executable, str(ROOT / GENERATOR)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise PluginError(f"{GENERATOR} failed:\n{proc.stderr[-4000:]}")
    generated = json.loads(proc.stdout)
    for src_uri, content in sorted(generated.items()):
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, src_uri, content=content))
    _state["generated"] = set(generated)
    if os.environ.get("BOOK_PLACEHOLDERS") == "1":
        for path in _nav_paths(config["nav"] or []):
            if path.endswith(".md") and files.get_file_from_path(path) is None:
                log.info("placeholder for missing page %s", path)
                title = Path(path).stem
                files.append(
                    File.generated(
                        config,
                        path,
                        content=f"# {title}\n\n（此页尚未写成 / This page is not written yet.）\n",
                    )
                )
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    """Point "Edit this page" at the code shown, for API and generated pages. / 让 API 页与生成页的“编辑此页”指向所展示的代码。"""
    base = _state.get("edit_base")
    if base is None:
        return markdown
    if page.file.src_uri in _state.get("generated", ()):
        page.edit_url = base + GENERATOR
        return markdown
    match = DIRECTIVE.search(markdown)
    if match:
        source = source_file_of(match.group(1))
        if source:
            page.edit_url = base + source
    return markdown


def on_page_content(html, page, config, files, **kwargs):
    """Language-tag code comments and add the PyTorch source panels. / 标注代码注释的语言并加入 PyTorch 源码面板。"""
    html = panels.mark_comment_languages(html)
    html, _count = panels.insert_torch_panels(html, _state["renderer"])
    return panels.unique_ids(html)


def on_serve(server, config, builder, **kwargs):
    """Rebuild when the book's tools or the diagram generators change. / 书的工具或图生成器改动时重新构建。"""
    for path in (HERE, ROOT / "diagrams" / "generate.py", ROOT / "annotated_src"):
        server.watch(str(path))
    return server
