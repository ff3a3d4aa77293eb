r"""Run every `>>>` example in annotated_nn's docstrings. / 运行 annotated_nn 文档字符串中的每个 `>>>` 示例。

The annotation guide says examples really run; this test enforces it. One test per module file
(found on disk, so a module that fails to import fails its own test instead of the collection).
Modules that re-export another library's module (`annotated_nn.functional` *is*
`torch.nn.functional`) are skipped: their docstrings are not ours. Each example runs with torch's
RNG state saved and restored, so examples that seed or draw random numbers leave no trace on the
other tests.

注释规范要求示例真的能运行，这个测试负责把关。每个模块文件一个测试（从磁盘上查找，因此某个
模块导入失败只会让它自己的测试失败，而不会让整个收集过程出错）。转出其他库模块的模块
（`annotated_nn.functional` 就是 `torch.nn.functional`）会被跳过：那些文档字符串不是我们写的。
每个示例运行前后保存并恢复 torch 的随机数状态，设定种子或抽取随机数的示例不会影响其他测试。
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest
import torch

SRC = Path(__file__).resolve().parents[1] / "annotated_src"
PACKAGES = ("annotated_nn", "annotated_optim", "annotated_examples")
# Same flags for everyone, including the pre-commit hook (it runs this file).
# 所有人使用同一组选项，pre-commit 钩子也运行本文件。
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def module_names() -> list[str]:
    """Dotted names of every module file of the packages. / 各包中每个模块文件的点号名字。"""
    names = []
    for package in PACKAGES:
        for path in sorted((SRC / package).rglob("*.py")):
            parts = list(path.relative_to(SRC).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


@pytest.mark.parametrize("name", module_names())
def test_docstring_examples(name: str) -> None:
    """Every example of one module passes. / 一个模块中的所有示例都通过。"""
    module = importlib.import_module(name)
    if module.__name__ != name:
        pytest.skip(f"{name} re-exports {module.__name__}")
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    report: list[str] = []
    for test in finder.find(module, name):
        with torch.random.fork_rng(devices=[]):
            runner.run(test, out=report.append, clear_globs=True)
    assert runner.failures == 0, (
        f"{runner.failures} of {runner.tries} examples failed:\n" + "".join(report)
    )
