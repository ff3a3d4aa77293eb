"""The README's quickstart runs and prints what its comments say; its two commands exist in the Makefile."""

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quickstart():
    section = README.split("## Quickstart", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_quickstart_runs_and_prints_what_it_says():
    code = quickstart()
    assert len(code.strip().splitlines()) <= 22
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README-quickstart", "exec"), {})
    assert out.getvalue() == "hook saw (2, 3)\n['scale', 'calls']\nNet(\n  (inner): Module()\n)\n"


def test_the_two_commands_are_make_targets():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("docs", "test"):
        assert f"make {target}" in README
        assert re.search(rf"^{target}:", makefile, re.M)
    assert "bash" not in (ROOT / ".ci/run").read_text().split("make test")[1]
