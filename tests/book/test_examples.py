"""The chapters' examples: every ```python block followed by a ```text block prints that text.

The reading guide promises that every example was really run, that the output shown is what it
printed, and that `import torch.nn as nn` in place of `import annotated_nn as nn` prints the same.
Each example runs in-process (fresh globals, torch's RNG state restored afterwards) with
annotated_nn, then with every `annotated_nn` import pointed at torch.
"""

from __future__ import annotations

import contextlib
import io
import re
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
    """The same example on torch.nn. / 同一个示例改用 torch.nn。"""
    return (
        code.replace("import annotated_nn as nn", "import torch.nn as nn")
        .replace("annotated_nn.utils.hooks", "torch.utils.hooks")
        .replace("annotated_nn", "torch.nn")
    )


EXAMPLES = examples()


def test_there_are_examples():
    assert len(EXAMPLES) > 50


@pytest.mark.parametrize(
    "page, line, code, expected", EXAMPLES, ids=[f"{p}:{n}" for p, n, _, _ in EXAMPLES]
)
def test_example_prints_what_the_book_shows(page, line, code, expected):
    assert run(code) == expected.rstrip()
    # An example that names torch's own DDP contrasts the two libraries: no torch twin to compare.
    if "annotated_nn" in code and "torch.nn.parallel." not in code:
        assert run(as_torch(code)) == expected.rstrip(), "torch.nn prints something else"


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
