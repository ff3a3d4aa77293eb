"""How a reader of the built site gets the source (docs/get-the-code.md). / 读者如何从书的网站取得源码。

The build (tools/book/hooks.py) writes the source archive ``annotated_nn-src.tar.gz`` into the
site's root, from the checkout it builds: the files git tracks, as they are in the working tree
(so the archive holds the code the book shows), or, outside a git checkout (a build from the
archive itself), every file but the virtual environment, the built site and caches. Its entries
sit under ``annotated_nn/`` with a fixed date, so two builds of the same files write the same
bytes.

docs/get-the-code.md carries one marker per language, ``<!-- book:get-source:zh -->`` /
``<!-- book:get-source:en -->``; ``fill`` replaces each with that language's instructions: the
``git clone`` command when a repository is configured (``BOOK_REPO_URL`` or ``repo_url``), and
the archive in every case.
"""

from __future__ import annotations

import gzip
import io
import re
import subprocess
import tarfile
from pathlib import Path

ARCHIVE = "annotated_nn-src.tar.gz"
PREFIX = "annotated_nn"
PAGE = "get-the-code.md"
MARKER = re.compile(r"^([ \t]*)<!-- book:get-source:(zh|en) -->[ \t]*$", re.M)
SKIPPED = {
    ".git",
    ".venv",
    "site",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "artifacts",
    ".ruff_cache",
    "node_modules",
}
DATE = 1_700_000_000  # a fixed timestamp for every entry (2023-11-14), for reproducible bytes


def source_files(root: Path) -> list[str]:
    """Paths (relative, sorted) of the source files under ``root``. / 源码文件的相对路径。"""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True
        ).stdout.decode("utf-8")
        names = [name for name in listed.split("\0") if name and (root / name).is_file()]
    except (OSError, subprocess.CalledProcessError):
        names = [
            path.relative_to(root).as_posix()
            for path in root.rglob("*")
            if path.is_file() and not SKIPPED & set(path.relative_to(root).parts)
        ]
    return sorted(names)


def archive_bytes(root: Path) -> bytes:
    """The ``.tar.gz`` of the source files, reproducible. / 源码文件的 .tar.gz（可重现）。"""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in source_files(root):
            path = root / name
            data = path.read_bytes()
            info = tarfile.TarInfo(f"{PREFIX}/{name}")
            info.size, info.mtime = len(data), DATE
            info.mode = 0o755 if path.stat().st_mode & 0o100 else 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), compresslevel=6, mtime=0)


def _instructions(language: str, repo_url: str | None, archive_href: str) -> str:
    """One language's Markdown for getting the source. / 一种语言的取得源码说明。"""
    if language == "zh":
        clone = (
            f"用 git 克隆仓库：\n\n```bash\ngit clone {repo_url} annotated_nn\ncd annotated_nn\n```\n\n"
            "或者下载源码包"
            if repo_url
            else "本书的构建没有配置仓库地址（`BOOK_REPO_URL`），所以没有 `git clone` 命令；源码就在本站："
            "下载源码包"
        )
        return (
            f"{clone} [`{ARCHIVE}`]({archive_href})（构建本书时从所用的源码写出：git 跟踪的全部文件，"
            "内容与书中展示的代码相同），然后解压：\n\n"
            f"```bash\ntar -xzf {ARCHIVE}\ncd {PREFIX}\n```"
        )
    clone = (
        f"Clone the repository with git:\n\n```bash\ngit clone {repo_url} annotated_nn\ncd annotated_nn\n```\n\n"
        "or download the source archive"
        if repo_url
        else "This build of the book has no repository configured (`BOOK_REPO_URL`), so there is no "
        "`git clone` command; the source is on this site: download the source archive"
    )
    return (
        f"{clone} [`{ARCHIVE}`]({archive_href}) (the build writes it from the source it builds: "
        "every file git tracks, the same code the book shows) and unpack it:\n\n"
        f"```bash\ntar -xzf {ARCHIVE}\ncd {PREFIX}\n```"
    )


def fill(markdown: str, repo_url: str | None, archive_href: str) -> str:
    """docs/get-the-code.md with its markers replaced. / 替换页面中的标记。"""

    def replace(match: re.Match) -> str:
        indent = match.group(1)
        text = _instructions(match.group(2), repo_url, archive_href)
        return "\n".join(indent + line if line else "" for line in text.splitlines())

    filled, count = MARKER.subn(replace, markdown)
    if count != 2:
        raise ValueError(f"{PAGE} must hold one get-source marker per language, found {count}")
    return filled
