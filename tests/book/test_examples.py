"""The chapters' examples: every ```python block followed by a ```text block prints that text.

The reading guide promises that every example was really run, that the output shown is what it
printed, and that `import torch.nn as nn` in place of `import annotated_nn as nn` prints the same.
Each example runs in-process (fresh globals, torch's RNG state restored afterwards) with
annotated_nn, then with every `annotated_nn` import pointed at torch.nn and every `annotated_optim`
import at torch.optim.

The digits torch prints can depend on the SIMD kernels it picks for the CPU (AVX-512, AVX2 or
none), so the examples also run on annotated_nn, in one subprocess for the whole module, with
`ATEN_CPU_CAPABILITY=default` (the plain kernels every machine has): an output that depends on
the CPU fails on any machine, not only on a reader's.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)


def examples() -> list[tuple[str, int, str, str]]:
    """(page, line, code, expected output) for each python block directly followed by a text block."""
    found = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]
        for (lang, code, start, end), (next_lang, output, next_start, _) in zip(blocks, blocks[1:]):
            if lang == "python" and next_lang == "text" and not text[end:next_start].strip():
                rel = path.relative_to(DOCS).as_posix()
                found.append((rel, text.count("\n", 0, start) + 1, code, output))
    return found


def run(code: str) -> str:
    """What the code prints (an exception's type and message included). / 代码打印的内容。"""
    out = io.StringIO()
    state = torch.get_rng_state()
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
            except Exception as exc:  # noqa: BLE001 - shown in the assertion message
                print(f"<raised {type(exc).__name__}: {exc}>")
    finally:
        torch.set_rng_state(state)
    return out.getvalue().rstrip()


def as_torch(code: str) -> str:
    """The same example on torch.nn and torch.optim. / 同一个示例改用 torch.nn 与 torch.optim。"""
    return (
        code.replace("import annotated_nn as nn", "import torch.nn as nn")
        .replace("annotated_nn.utils.hooks", "torch.utils.hooks")
        .replace("annotated_nn", "torch.nn")
        .replace("annotated_optim", "torch.optim")
    )


EXAMPLES = examples()
IDS = [f"{p}:{n}" for p, n, _, _ in EXAMPLES]


def test_there_are_examples():
    assert len(EXAMPLES) > 50


class DefaultCapabilityRun:
    """The selected examples, run on annotated_nn in a subprocess with the plain CPU kernels.

    Started by the first example test, whose first comparison `output(id)` waits for it: the
    subprocess runs on the core this worker would use.
    """

    def __init__(self, ids: list[str], workdir: Path) -> None:
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        paths = [str(ROOT / "annotated_src"), str(ROOT), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        (workdir / "ids.json").write_text(json.dumps(ids), encoding="utf-8")
        self.result, self.log = workdir / "outputs.json", workdir / "log.txt"
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, __file__, str(workdir / "ids.json"), str(self.result)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=ROOT,
            )
        self.outputs: dict[str, str] | None = None

    def output(self, example_id: str) -> str:
        if self.outputs is None:
            returncode = self.proc.wait(timeout=900)
            assert returncode == 0, self.log.read_text(encoding="utf-8")[-4000:]
            self.outputs = json.loads(self.result.read_text(encoding="utf-8"))
        return self.outputs[example_id]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def default_capability(request, tmp_path_factory):
    """The subprocess run of the selected examples, or None when this CPU's level is the default."""
    if torch.backends.cpu.get_cpu_capability() == "DEFAULT":
        yield None
        return
    selected = [
        item.callspec.id
        for item in request.session.items
        if item.module is request.module
        and item.originalname == "test_example_prints_what_the_book_shows"
    ]
    run_ = DefaultCapabilityRun(selected, tmp_path_factory.mktemp("examples-default"))
    try:
        yield run_
    finally:
        run_.close()


@pytest.mark.parametrize("page, line, code, expected", EXAMPLES, ids=IDS)
def test_example_prints_what_the_book_shows(page, line, code, expected, default_capability):
    assert run(code) == expected.rstrip()
    # An example that names torch's own DDP contrasts the two libraries: no torch twin to compare.
    if ("annotated_nn" in code or "annotated_optim" in code) and "torch.nn.parallel." not in code:
        assert run(as_torch(code)) == expected.rstrip(), "torch.nn prints something else"
    if default_capability is not None:
        assert default_capability.output(f"{page}:{line}") == expected.rstrip(), (
            "ATEN_CPU_CAPABILITY=default prints something else"
        )


def test_comment_lines_of_examples_are_bilingual():
    """Whole-line comments in the chapters' Python come as `# 中:` / `# EN:` pairs, so the switch applies."""
    problems = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) != "python":
                continue
            lines = m.group(2).splitlines()
            for index, line in enumerate(lines):
                stripped = line.strip()
                if not stripped.startswith("#"):
                    continue
                where = f"{path.relative_to(DOCS)}:{text.count(chr(10), 0, m.start()) + 2 + index}"
                if stripped.startswith("# 中:"):
                    following = lines[index + 1].strip() if index + 1 < len(lines) else ""
                    if not following.startswith("# EN:"):
                        problems.append(f"{where}: 中 without EN")
                elif not stripped.startswith("# EN:"):
                    problems.append(f"{where}: {stripped}")
    assert not problems, problems[:10]


if __name__ == "__main__":
    # The subprocess of DefaultCapabilityRun: runs the ids in argv[1], writes {id: output} to argv[2].
    wanted = set(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
    outputs = {i: run(c) for i, (_, _, c, _) in zip(IDS, EXAMPLES, strict=True) if i in wanted}
    Path(sys.argv[2]).write_text(json.dumps(outputs), encoding="utf-8")
