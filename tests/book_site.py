"""One strict build of the book per test session, shared by every pytest-xdist worker.

The first process that needs the book (tests/conftest.py starts it as soon as the collected tests
include a book test) runs this file in the background; the build overlaps with the tests that do
not need it. Every worker's ``book`` fixture (tests/book/conftest.py) waits for ``result.json`` in
the session's shared temporary directory and reads the same site. A marker file created with
``O_EXCL`` makes sure that only one build starts.

    python tests/book_site.py SHARED_DIR     # builds SHARED_DIR/site, writes SHARED_DIR/result.json
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shared_dir(basetemp: Path) -> Path:
    """The directory the session's processes share: the controller's basetemp under xdist."""
    base = basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp
    return base / "book-build"


def start(shared: Path) -> None:
    """Start the build in the background unless a process of this session already did."""
    shared.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(shared / "started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    log = (shared / "log.txt").open("w")
    proc = subprocess.Popen(
        [sys.executable, __file__, str(shared)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    # 中: 会话提前结束时（Ctrl-C、-x）不让构建在后台继续跑。
    # EN: A session that ends early (Ctrl-C, -x) does not leave the build running.
    atexit.register(lambda: proc.poll() is None and proc.kill())


def wait(shared: Path, timeout: float = 900) -> dict:
    """The build's result (site, returncode, output, strict), once it is written."""
    result = shared / "result.json"
    deadline = time.monotonic() + timeout
    while not result.exists():
        if time.monotonic() > deadline:
            log = shared / "log.txt"
            tail = log.read_text(encoding="utf-8")[-4000:] if log.exists() else ""
            raise TimeoutError(f"the book's build did not finish in {timeout} s:\n{tail}")
        time.sleep(0.2)
    return json.loads(result.read_text(encoding="utf-8"))


def build(shared: Path) -> dict:
    """``mkdocs build --strict``; if that aborts, once more without --strict for the other tests."""
    site = shared / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("BOOK_PLACEHOLDERS", None)
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "--clean", "-d", str(site)]
    run = dict(cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    strict = subprocess.run(mkdocs + ["--strict"], **run)
    output = strict.stdout + strict.stderr
    result = {"site": str(site), "returncode": strict.returncode, "output": output, "strict": True}
    if strict.returncode != 0:
        retry = subprocess.run(mkdocs + ["--no-strict"], **run)
        result["strict"] = False
        result["failed"] = retry.returncode != 0
        result["retry_output"] = retry.stdout + retry.stderr
    return result


if __name__ == "__main__":
    shared = Path(sys.argv[1])
    partial = shared / "result.json.partial"
    partial.write_text(json.dumps(build(shared)), encoding="utf-8")
    partial.replace(shared / "result.json")
