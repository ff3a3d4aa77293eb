"""Every story page's exercises and their reference answers; each answer's code runs on both libraries.

A story page ends with a section ``## 练习 / Exercises {#exercises}``: the exercises as a numbered
list in a ``=== "中文"`` tab and the same number in a ``=== "English"`` tab (2 to 4 of them), then
one folded answer per exercise::

    ??? note "练习 1 的答案 / Answer to exercise 1"

        === "中文"

            理由，几句话。

        === "English"

            The reasoning, in a few sentences.

        ```python
        import torch
        import annotated_nn as nn
        ...
        assert ...
        ```

The answer's code is the proof of its reasoning: this file runs it, unchanged, once with
``annotated_nn`` / ``annotated_optim`` and once with every such import pointed at ``torch.nn`` /
``torch.optim`` (one test per answer and library), so an answer cannot drift from the behavior it
describes. It must assert what it claims. Code with an ``if __name__ == "__main__":`` block (the
gloo process groups of the DDP pages, which ``torch.multiprocessing`` starts from a file) runs as a
script in a fresh interpreter; all other code runs in this process with fresh globals.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
import torch
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NUMBERS = ROOT / "tools" / "book" / "numbers.yml"

SECTION = re.compile(r"^## 练习 / Exercises \{#exercises\}[ \t]*$(.*?)(?=^## |\Z)", re.M | re.S)
TAB = re.compile(r'^=== "(中文|English)"[ \t]*\n(.*?)(?=^=== |^\?\?\? |^[^\s]|\Z)', re.M | re.S)
ITEM = re.compile(r"^    (\d+)\. ", re.M)
ANSWER = re.compile(
    r'^\?\?\? note "练习 (\d+) 的答案 / Answer to exercise (\d+)"[ \t]*\n(.*?)(?=^\S|\Z)',
    re.M | re.S,
)
ANSWER_TAB = re.compile(r'^    === "(中文|English)"[ \t]*\n\n        \S', re.M)
ANSWER_CODE = re.compile(r"^    ```python[ \t]*\n(.*?)^    ```[ \t]*$", re.M | re.S)


def story_pages() -> list[str]:
    """The numbered pages of the book (tools/book/numbers.yml), as paths under docs/."""
    return list(yaml.safe_load(NUMBERS.read_text(encoding="utf-8")))


def exercises_section(page: str) -> str | None:
    """The text of the page's exercise section, or None."""
    match = SECTION.search((DOCS / page).read_text(encoding="utf-8"))
    return match.group(1) if match else None


def exercise_numbers(section: str) -> dict[str, list[int]]:
    """The numbers of the listed exercises, per language tab."""
    return {lang: [int(n) for n in ITEM.findall(body)] for lang, body in TAB.findall(section)}


def answers(page: str) -> list[tuple[int, str, str]]:
    """(exercise number, answer text, answer code) for each folded answer of the page."""
    section = exercises_section(page) or ""
    found = []
    for match in ANSWER.finditer(section):
        body = match.group(3)
        code = ANSWER_CODE.search(body)
        found.append((int(match.group(1)), body, textwrap.dedent(code.group(1)) if code else ""))
    return found


ALL_ANSWERS = [(page, number, code) for page in story_pages() for number, _, code in answers(page)]


def as_torch(code: str) -> str:
    """The same code on torch.nn and torch.optim. / 同一段代码改用 torch.nn 与 torch.optim。"""
    return (
        code.replace("import annotated_nn as nn", "import torch.nn as nn")
        .replace("annotated_nn.utils.hooks", "torch.utils.hooks")
        .replace("annotated_nn", "torch.nn")
        .replace("annotated_optim", "torch.optim")
    )


def run_in_process(code: str) -> None:
    """Run the code with fresh globals; torch's RNG state is restored afterwards."""
    state = torch.get_rng_state()
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(code, "<answer>", "exec"), {"__name__": "__answer__"})
    finally:
        torch.set_rng_state(state)


def run_as_script(code: str, tmp_path: Path) -> None:
    """Run the code as a file in a fresh interpreter (its ``__main__`` block runs)."""
    script = tmp_path / "answer.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ)
    paths = [str(ROOT / "annotated_src"), str(ROOT), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]


@pytest.mark.parametrize("page", story_pages())
def test_every_story_page_has_two_to_four_exercises_in_both_languages(page):
    section = exercises_section(page)
    assert section is not None, f"{page}: no '## 练习 / Exercises {{#exercises}}' section"
    numbers = exercise_numbers(section)
    assert set(numbers) == {"中文", "English"}, f"{page}: exercise tabs {sorted(numbers)}"
    assert numbers["中文"] == numbers["English"], f"{page}: the two languages list {numbers}"
    count = len(numbers["English"])
    assert 2 <= count <= 4, f"{page}: {count} exercises"
    assert numbers["English"] == list(range(1, count + 1)), f"{page}: numbered {numbers}"


@pytest.mark.parametrize("page", story_pages())
def test_every_exercise_has_one_folded_answer_in_both_languages_with_code(page):
    section = exercises_section(page) or ""
    listed = exercise_numbers(section).get("English", [])
    found = answers(page)
    assert [number for number, _, _ in found] == listed, (
        f"{page}: answers to {found and [n for n, _, _ in found]}, exercises {listed}"
    )
    for match in ANSWER.finditer(section):
        assert match.group(1) == match.group(2), (
            f"{page}: title numbers differ: {match.group(0)[:80]}"
        )
    for number, body, code in found:
        langs = ANSWER_TAB.findall(body)
        assert langs == ["中文", "English"], f"{page} answer {number}: reasoning tabs {langs}"
        assert code.strip(), f"{page} answer {number}: no ```python block"
        assert re.search(r"^\s*assert\b", code, re.M), f"{page} answer {number}: asserts nothing"
        assert "annotated_nn" in code or "annotated_optim" in code, (
            f"{page} answer {number}: does not use the library, so it proves nothing about it"
        )
        for index, line in enumerate(code.splitlines()):
            comment = line.strip()
            if comment.startswith("# 中:"):
                following = (
                    code.splitlines()[index + 1].strip()
                    if index + 1 < len(code.splitlines())
                    else ""
                )
                assert following.startswith(("# 中:", "# EN:")), (
                    f"{page} answer {number}: 中 without EN"
                )
            elif comment.startswith("#"):
                assert comment.startswith("# EN:"), (
                    f"{page} answer {number}: a comment line is `# 中:` / `# EN:` pairs: {comment}"
                )


def _ids() -> list[str]:
    return [f"{page}:answer{number}" for page, number, _ in ALL_ANSWERS]


@pytest.mark.parametrize("library", ["annotated", "torch"])
@pytest.mark.parametrize("page, number, code", ALL_ANSWERS, ids=_ids())
def test_answer_code_passes(page, number, code, library, tmp_path):
    if library == "torch":
        code = as_torch(code)
    if re.search(r'^if __name__ == "__main__":', code, re.M):
        run_as_script(code, tmp_path)
    else:
        run_in_process(code)
