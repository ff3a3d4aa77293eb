r"""Tests of the annotation checker, and of the package against it. / 注释检查器的测试，以及用它检查整个包。

The first test is the project's bilingual-coverage gate: it fails while any def or class of
annotated_nn lacks either language. The others feed the checker small broken sources and assert
that each problem is reported with the right kind on the right line.

第一个测试是项目的双语覆盖门槛：只要 annotated_nn 里还有函数或类缺少任一语言，它就失败。
其余测试把故意写坏的小段源代码交给检查器，断言每个问题都以正确的类别、在正确的行被报告。
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import annotations  # noqa: E402

GLOSSARY = [annotations.Term("hook", "钩子", ("挂钩", "勾子"))]


def check(source: str) -> list[annotations.Problem]:
    """Every problem the checker finds in a source. / 检查器在一段源代码中发现的全部问题。"""
    report = annotations.check_source(textwrap.dedent(source), "m.py", "m", GLOSSARY)
    return [p for record in report.records for p in record.problems]


def line_of(source: str, needle: str) -> int:
    """1-based line of the first line containing `needle`. / 第一处包含 `needle` 的行号。"""
    for number, line in enumerate(textwrap.dedent(source).splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in source")


def kinds(problems: list[annotations.Problem]) -> list[tuple[str, int]]:
    """`(kind, line)` of each problem, sorted. / 每个问题的 `(类别, 行号)`，已排序。"""
    return sorted((p.kind, p.line) for p in problems)


GOOD = '''
    def scale(x, factor=2, *args, **kwargs):
        r"""Multiply by a factor. / 乘以一个系数。

        === "中文"

            把输入乘以 `factor`，其余参数原样忽略。

        === "English"

            Multiplies the input by `factor` and ignores the rest.

        Args:
            x: The input. / 输入。
            factor: The factor. / 系数。
            *args: Ignored. / 忽略。
            kwargs: Ignored too. / 同样忽略。

        Returns:
            `x * factor`. / `x` 乘以 `factor`。

        Raises:
            TypeError: `x` is not a number. / `x` 不是数。

        Examples:
            >>> scale(3)
            6
        """
        # 中: 乘法对张量和数都适用，
        #     所以不做类型检查。
        # EN: Multiplication works for tensors and numbers alike,
        #     so there is no type check.
        # DIFF(torch 2.13): 中: 这里没有对应的 torch 函数。
        # EN: There is no torch counterpart here.
        return x * factor
'''


# ---------------------------------------------------------------------------------------------
# The gate over the real package / 对真实包的门槛检查
# ---------------------------------------------------------------------------------------------


def test_package_is_fully_bilingual():
    """Every def and class of annotated_nn passes the checker. / annotated_nn 的每个定义都通过检查。"""
    reports = annotations.check_project(ROOT)
    assert reports, "no source files found under annotated_src"
    text, total = annotations.format_report(reports)
    problem_lines = [line for line in text.splitlines() if re.match(r"\S+:\d+: ", line)]
    assert total == 0, f"{total} annotation problems:\n" + "\n".join(problem_lines[:200])


def test_checker_follows_its_own_rules():
    """tools/annotations.py is annotated the way it demands. / 检查器自身也符合它检查的规范。"""
    path = ROOT / "tools" / "annotations.py"
    glossary = annotations.load_glossary(ROOT / "docs" / "glossary.yml")
    report = annotations.check_source(path.read_text(encoding="utf-8"), "a.py", "a", glossary)
    assert [p for r in report.records for p in r.problems] == []


# ---------------------------------------------------------------------------------------------
# The checker on small sources / 检查器在小段源代码上的表现
# ---------------------------------------------------------------------------------------------


def test_correct_example_is_clean():
    """A docstring and comments that follow the guide. / 完全符合规范的文档字符串与注释。"""
    assert check(GOOD) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Register a buffer. / 注册缓冲区。", True),
        ("Wrapped over a line. /\n    换行也可以。", True),
        ("注册缓冲区。 / Register a buffer.", False),
        ("Register a buffer.", False),
        ("注册缓冲区。", False),
        ("`max_val <= min_val`. / `max_val <= min_val`。", True),
        ("`Φ(x)`. / `Φ(x)` 的值。", True),
        ('E.g. `"in_features=2"`. / 例如 `"in_features=2"`。', True),
        ("Logits. / logits。", False),
        ("`# 中:` lines. / `# 中:` 行。", True),
    ],
)
def test_bilingual_pair(text, expected):
    """The `English. / 中文。` rule on its own. / 单独测试 `English. / 中文。` 规则。"""
    assert annotations.is_bilingual_pair(text) is expected


def test_missing_docstring():
    """No docstring at all. / 完全没有文档字符串。"""
    source = """
    class Plain:
        pass
    """
    assert kinds(check(source)) == [("docstring", line_of(source, "class Plain"))]


def test_missing_summary_language():
    """An English-only first line. / 第一行只有英文。"""
    source = GOOD.replace("Multiply by a factor. / 乘以一个系数。", "Multiply by a factor.")
    assert kinds(check(source)) == [("summary", line_of(source, "Multiply by a factor."))]


def test_summary_in_the_wrong_order():
    """Chinese before English on the first line. / 第一行中文在前。"""
    source = GOOD.replace(
        "Multiply by a factor. / 乘以一个系数。", "乘以一个系数。 / Multiply by a factor."
    )
    assert kinds(check(source)) == [("summary", line_of(source, "乘以一个系数。 / Multiply"))]


def test_missing_tab():
    """The English tab is missing. / 缺少 English 标签页。"""
    source = GOOD.replace('=== "English"', "")
    assert ("tabs", line_of(source, '=== "中文"')) in kinds(check(source))


def test_tabs_in_the_wrong_order():
    """`English` tab before the `中文` tab. / English 标签页排在中文前面。"""
    zh_tab = '=== "中文"\n\n            把输入乘以 `factor`，其余参数原样忽略。'
    en_tab = '=== "English"\n\n            Multiplies the input by `factor` and ignores the rest.'
    source = GOOD.replace(zh_tab, "TMP").replace(en_tab, zh_tab).replace("TMP", en_tab)
    assert kinds(check(source)) == [("tabs", line_of(source, '=== "English"'))]


def test_swapped_languages():
    """Right labels, each holding the other language. / 标签正确，但内容语言对调。"""
    source = GOOD.replace("把输入乘以 `factor`，其余参数原样忽略。", "TMP")
    source = source.replace(
        "Multiplies the input by `factor` and ignores the rest.",
        "把输入乘以 `factor`，其余参数原样忽略。",
    )
    source = source.replace("TMP", "Multiplies the input by `factor` and ignores the rest.")
    assert kinds(check(source)) == [
        ("en-tab", line_of(source, '=== "English"')),
        ("zh-tab", line_of(source, '=== "中文"')),
    ]


def test_args_inside_a_tab():
    """`Args:` indented into the English tab. / `Args:` 被缩进进了 English 标签页。"""
    source = GOOD.replace(
        "Multiplies the input by `factor` and ignores the rest.\n",
        "Multiplies the input by `factor` and ignores the rest.\n\n"
        "            Args:\n                x: The input. / 输入。\n",
    )
    found = kinds(check(source))
    assert ("section-in-tab", line_of(source, "Args:")) in found  # the first `Args:` is in the tab


def test_undocumented_parameter():
    """A parameter of the signature missing from Args. / 签名中的参数没有写进 Args。"""
    source = GOOD.replace("            factor: The factor. / 系数。\n", "")
    assert kinds(check(source)) == [("args-missing", line_of(source, "def scale"))]
    assert "`factor`" in check(source)[0].message


def test_undocumented_star_args():
    """`**kwargs` missing from Args. / Args 中漏了 `**kwargs`。"""
    source = GOOD.replace("            kwargs: Ignored too. / 同样忽略。\n", "")
    problems = check(source)
    assert kinds(problems) == [("args-missing", line_of(source, "def scale"))]
    assert "`**kwargs`" in problems[0].message


def test_self_needs_no_entry_but_unknown_names_are_reported():
    """`self` is exempt; a stale Args name is reported. / `self` 不用写；过时的参数名会被报告。"""
    source = '''
    class Box:
        r"""A box. / 一个盒子。

        === "中文"

            只用来装东西的类。

        === "English"

            A class that only holds things.
        """

        def put(self, item):
            r"""Put an item in. / 放进一件东西。

            === "中文"

                把东西放进盒子。

            === "English"

                Puts the item into the box.

            Args:
                item: The item. / 东西。
                thing: Old name. / 旧名字。
            """
    '''
    assert kinds(check(source)) == [("args-unknown", line_of(source, "thing: Old name"))]


def test_english_only_args_item():
    """An Args item with no Chinese. / Args 条目没有中文。"""
    source = GOOD.replace("x: The input. / 输入。", "x: The input.")
    assert kinds(check(source)) == [("args-lang", line_of(source, "x: The input."))]


def test_multiline_args_item_is_one_item():
    """An item wrapped over two lines. / 跨两行的条目。"""
    source = GOOD.replace(
        "x: The input. / 输入。",
        "x: The input, a tensor or a number,\n                of any shape. / 输入。",
    )
    assert check(source) == []


def test_english_only_raises_item():
    """A Raises item with no Chinese. / Raises 条目没有中文。"""
    source = GOOD.replace("TypeError: `x` is not a number. / `x` 不是数。", "TypeError: bad x.")
    assert kinds(check(source)) == [("item-lang", line_of(source, "TypeError: bad x."))]


def test_unpaired_chinese_comment():
    """A `# 中:` block with no `# EN:` block. / `# 中:` 块后面没有 `# EN:` 块。"""
    source = GOOD.replace(
        "        # EN: Multiplication works for tensors and numbers alike,\n"
        "        #     so there is no type check.\n",
        "        x = x\n",
    )
    assert kinds(check(source)) == [("comment-pair", line_of(source, "# 中: 乘法"))]


def test_english_comment_without_chinese_above():
    """A `# EN:` block after a blank line. / `# EN:` 块与 `# 中:` 块之间隔了空行。"""
    source = GOOD.replace(
        "        #     所以不做类型检查。\n", "        #     所以不做类型检查。\n\n"
    )
    assert kinds(check(source)) == [
        ("comment-pair", line_of(source, "# 中: 乘法")),
        ("comment-pair", line_of(source, "# EN: Multiplication")),
    ]


def test_comment_blocks_in_the_wrong_language():
    """English under `# 中:` and Chinese under `# EN:`. / 中文块写英文、英文块写中文。"""
    source = GOOD.replace("# 中: 乘法对张量和数都适用，", "# 中: Works for tensors,").replace(
        "#     所以不做类型检查。", "#     too."
    )
    source = source.replace(
        "# EN: Multiplication works for tensors and numbers alike,", "# EN: 乘法对张量和数都适用。"
    )
    source = source.replace("#     so there is no type check.", "#")
    assert kinds(check(source)) == [
        ("comment-lang", line_of(source, "# 中: Works")),
        ("comment-lang", line_of(source, "# EN: 乘法")),
    ]


def test_misspelt_comment_tag():
    """`# 中：` with a full-width colon. / 用了全角冒号的 `# 中：`。"""
    source = GOOD.replace("# 中: 乘法", "# 中：乘法")
    found = kinds(check(source))
    assert ("comment-tag", line_of(source, "# 中：乘法")) in found


def test_off_glossary_term():
    """A forbidden rendering of "hook". / 使用了术语表禁用的“挂钩”。"""
    source = GOOD.replace("# 中: 乘法对张量和数都适用，", "# 中: 乘法对张量和挂钩都适用，")
    problems = check(source)
    assert kinds(problems) == [("glossary", line_of(source, "挂钩都适用"))]
    assert "钩子" in problems[0].message


def test_glossary_in_a_docstring():
    """A forbidden word inside a tab. / 标签页中的禁用词。"""
    source = GOOD.replace("其余参数原样忽略。", "其余参数原样忽略，不触发勾子。")
    assert kinds(check(source)) == [("glossary", line_of(source, "不触发勾子"))]


def test_glossary_exemptions():
    """Quoted words and `挂钩子` (attach a hook) pass. / 引号中的词与“挂钩子”不报告。"""
    source = GOOD.replace(
        "其余参数原样忽略。", "其余参数原样忽略；有文章把钩子称为“挂钩”，这里不挂钩子。"
    )
    assert check(source) == []


def test_diff_marker_in_one_language():
    """A DIFF marker explained only in English. / DIFF 标记只有英文说明。"""
    source = GOOD.replace(
        "        # DIFF(torch 2.13): 中: 这里没有对应的 torch 函数。\n        # EN: There is no torch counterpart here.\n",
        "        # DIFF(torch 2.13): there is no torch counterpart here.\n",
    )
    assert kinds(check(source)) == [("diff-marker", line_of(source, "DIFF(torch 2.13)"))]


def test_diff_marker_styles():
    """The three accepted ways to write a DIFF marker. / DIFF 标记的三种合格写法。"""
    one_line = (
        "        # DIFF(torch 2.13): no torch counterpart here / 这里没有对应的 torch 函数。\n"
    )
    marker_above_pair = (
        "        # DIFF(torch 2.13):\n"
        "        # 中: 这里没有对应的 torch 函数。\n"
        "        # EN: There is no torch counterpart here.\n"
    )
    both_tagged = (
        "        # DIFF(torch 2.13): 中: 这里没有对应的 torch 函数。\n"
        "        # DIFF(torch 2.13): EN: There is no torch counterpart here.\n"
    )
    original = (
        "        # DIFF(torch 2.13): 中: 这里没有对应的 torch 函数。\n"
        "        # EN: There is no torch counterpart here.\n"
    )
    for style in (one_line, marker_above_pair, both_tagged):
        source = GOOD.replace(original, style)
        assert check(source) == [], style
    report = annotations.check_source(textwrap.dedent(GOOD.replace(original, both_tagged)), "m.py")
    assert len(report.diffs) == 1 and report.diffs[0].qualname == "scale"


def test_marker_separated_from_its_explanation():
    """A blank line between the marker and its pair. / 标记与说明之间隔了空行。"""
    source = GOOD.replace(
        "        # DIFF(torch 2.13): 中: 这里没有对应的 torch 函数。\n",
        "        # DIFF(torch 2.13):\n\n        # 中: 这里没有对应的 torch 函数。\n",
    )
    assert kinds(check(source)) == [("diff-marker", line_of(source, "DIFF(torch 2.13)"))]


def test_nested_defs_overloads_and_qualnames():
    """Nested defs are checked, overload stubs are not. / 嵌套定义要检查，overload 桩函数不检查。"""
    source = '''
    from typing import overload

    class Outer:
        r"""Outer class. / 外层类。

        === "中文"

            用来测试嵌套定义的外层类。

        === "English"

            An outer class for testing nested definitions.
        """

        @overload
        def get(self, key: int) -> int: ...

        def get(self, key):
            r"""Get a value. / 取一个值。

            === "中文"

                返回内部函数的结果。

            === "English"

                Returns what the inner function returns.

            Args:
                key: The key. / 键。
            """

            def inner():
                return key

            return inner()
    '''
    report = annotations.check_source(textwrap.dedent(source), "m.py", "m", GLOSSARY)
    names = [(r.qualname, r.kind) for r in report.records]
    assert names == [
        ("<module>", "module"),
        ("Outer", "class"),
        ("Outer.get", "method"),
        ("Outer.get.<locals>.inner", "function"),
    ]
    assert kinds(check(source)) == [("docstring", line_of(source, "def inner"))]


def test_comment_problems_belong_to_the_innermost_def():
    """A line problem is filed under the def that contains it. / 按行的问题归到包含它的定义。"""
    source = GOOD.replace("# 中: 乘法对张量和数都适用，", "# 中: 乘法对张量和挂钩都适用，")
    report = annotations.check_source(textwrap.dedent(source), "m.py", "m", GLOSSARY)
    by_name = {r.qualname: [p.kind for p in r.problems] for r in report.records}
    assert by_name == {"<module>": [], "scale": ["glossary"]}


def test_problems_are_strings_for_the_book():
    """A Problem reads as `kind (line N)`. / Problem 本身是 `类别 (line 行号)` 字符串。"""
    problem = annotations.Problem("tabs", 12, "message")
    assert problem == "tabs (line 12)" and ", ".join([problem]) == "tabs (line 12)"
    assert (problem.kind, problem.line, problem.message) == ("tabs", 12, "message")


def test_collect_comment_pairs_and_cli(tmp_path, capsys):
    """The file-level API and the command line on a small project. / 在一个小项目上测试文件级接口与命令行。"""
    package = tmp_path / "annotated_src" / "annotated_nn"
    package.mkdir(parents=True)
    (package / "good.py").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    bad = GOOD.replace("x: The input. / 输入。", "x: The input.")
    (package / "bad.py").write_text(textwrap.dedent(bad), encoding="utf-8")

    records = annotations.collect(tmp_path)
    assert [(r.file, r.qualname) for r in records] == [
        ("annotated_src/annotated_nn/bad.py", "scale"),
        ("annotated_src/annotated_nn/good.py", "scale"),
    ]
    assert records[0].module == "annotated_nn.bad" and not records[1].problems

    pairs = annotations.comment_pairs(tmp_path)
    assert len(pairs) == 4 and all(
        p.en_line == p.line + 2 or p.en_line == p.line + 1 for p in pairs
    )
    assert pairs[0].zh.startswith("乘法") and pairs[0].en.startswith("Multiplication")

    assert annotations.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    item_line = line_of(bad, "x: The input.")
    assert f"annotated_src/annotated_nn/bad.py:{item_line}: args-lang:" in out
    # The fix hint sits right under the problem; only the file with problems gets a table row.
    lines = out.splitlines()
    at = next(
        i for i, line in enumerate(lines) if line.startswith("annotated_src/annotated_nn/bad.py:")
    )
    assert lines[at + 1].startswith("    fix: write the item as `English. / 中文。`")
    assert "annotations: 1/2 defs clean, 1 problems." in out

    (package / "bad.py").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    assert annotations.main([str(tmp_path)]) == 0


def test_no_sources_is_an_error(tmp_path, capsys):
    """An empty project exits with 2. / 空项目的退出码为 2。"""
    assert annotations.main([str(tmp_path)]) == 2


# ---------------------------------------------------------------------------------------------
# The glossary / 术语表
# ---------------------------------------------------------------------------------------------


def load_raw_glossary() -> list[dict]:
    """The glossary file's entries. / 术语表文件中的条目。"""
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "docs" / "glossary.yml").read_text(encoding="utf-8"))["terms"]


def test_glossary_is_complete_and_consistent():
    """Fields, size, and no forbidden word inside a correct one. / 字段齐全、数量足够、禁用词不与正确译名冲突。"""
    terms = load_raw_glossary()
    assert len(terms) >= 30
    fields = {"en", "zh", "definition_en", "definition_zh", "where", "forbidden_zh"}
    for term in terms:
        assert set(term) == fields, term
        assert all(str(term[k]).strip() for k in fields - {"forbidden_zh"}), term
        assert (ROOT / "docs" / term["where"].partition("#")[0]).is_file(), term["where"]
    required = {"Module", "parameter", "buffer", "hook", "submodule", "state_dict", "forward pass"}
    assert required <= {t["en"] for t in terms}
    english = [t["en"] for t in terms]
    assert len(english) == len(set(english))
    for term in terms:
        for word in term["forbidden_zh"]:
            for other in terms:
                assert word not in other["zh"], (word, other["en"])
                assert word not in other["definition_zh"], (word, other["en"])


def test_glossary_page_is_rendered():
    """The mkdocs hook fills the glossary page's marker. / mkdocs 钩子替换术语表页面中的标记。"""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "glossary_hook", ROOT / "tools" / "book" / "glossary_hook.py"
    )
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = (ROOT / hook.PAGE).read_text(encoding="utf-8")
    assert hook.MARKER in page
    titles = {"chapters/01-parameter-and-buffer.md": "参数与缓冲区 / Parameters and buffers"}
    html = hook.render_glossary(ROOT / "docs" / "glossary.yml", titles)
    for term in load_raw_glossary():
        assert term["zh"] in html and term["en"] in html
        assert term["definition_en"].split()[0] in html
    assert (
        '<span class="book-en">Parameters and buffers</span>](../01-parameter-and-buffer.md#parameter)'
        in html
    )


def test_shared_bilingual_checker_passes():
    """The workplace's own checker (../shared/tools/bilingual_check.py) passes on the package.

    It holds every def to a bilingual docstring and every `# 中:` block to an `# EN:` block right
    after it. It does not ask for equal line counts ("the two languages need not have the same
    number of lines"), and neither does this project: each language wraps as it reads best.
    """
    import subprocess

    checker = ROOT.parent / "shared" / "tools" / "bilingual_check.py"
    if not checker.is_file():
        pytest.skip("../shared/tools/bilingual_check.py is not beside this checkout")
    proc = subprocess.run(
        [sys.executable, str(checker), str(ROOT)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "unpaired comment blocks: 0" in proc.stdout


def _function_with_run(lines: int) -> str:
    """A bilingual function whose body has one note, then ``lines`` code lines in a row."""
    body = "\n".join(f"    value_{i} = {i}" for i in range(lines))
    return (
        'def f():\n    r"""Run. / 运行。\n\n    === "中文"\n\n        一段没有注释的代码。\n\n'
        '    === "English"\n\n        A run of code without a note.\n    """\n'
        "    # 中: 准备下面要用的几个值。\n    # EN: Prepare the values used below.\n" + body + "\n"
    )


@pytest.mark.parametrize("core", [True, False])
def test_unannotated_run_over_eight_lines_fails_in_a_core_file(core):
    """A 9-line run without a note fails in a core file; elsewhere it is only measured."""
    file = "annotated_src/annotated_nn/modules/module.py" if core else "annotated_src/x.py"
    report = annotations.check_source(_function_with_run(9), file, "m", GLOSSARY)
    record = report.records[1]
    assert record.longest_run == 9
    problems = [p for p in record.problems if p.kind == "unannotated-run"]
    assert bool(problems) == core
    if core:
        assert problems[0].line == 14  # the first line of the run


def test_eight_lines_are_allowed_and_a_note_resets_the_run():
    report = annotations.check_source(
        _function_with_run(8), "annotated_src/annotated_nn/init.py", "m", GLOSSARY
    )
    assert report.records[1].longest_run == 8 and report.records[1].problems == []
    split = _function_with_run(12).replace(
        "    value_6 = 6\n",
        "    # 中: 再准备后面几个值。\n    # EN: Then prepare the remaining values.\n    value_6 = 6\n",
    )
    report = annotations.check_source(split, "annotated_src/annotated_nn/init.py", "m", GLOSSARY)
    assert report.records[1].longest_run == 6 and report.records[1].problems == []


# ---------------------------------------------------------------------------------------------
# Glossary variants, spelling and the two-language consistency check
# ---------------------------------------------------------------------------------------------

REAL_GLOSSARY = annotations.load_glossary(ROOT / "docs" / "glossary.yml")
REAL_SPELLING = annotations.load_spelling(ROOT / "docs" / "glossary.yml")


def _note(zh: str, en: str) -> str:
    """A module whose one function carries a note pair with the given texts."""
    return (
        'def f():\n    r"""Run. / 运行。\n\n    === "中文"\n\n        这是一个用来测试的函数。\n\n'
        '    === "English"\n\n        A function for the tests.\n    """\n'
        f"    # 中: {zh}\n    # EN: {en}\n    return 1\n"
    )


@pytest.mark.parametrize(
    "variant",
    [
        "前向传播前钩子",
        "前置钩子",
        "前钩子",
        "加载前钩子",
        "后置钩子",
        "full 反向钩子",
        "完全反向钩子",
        "就地置",
        "原地",
        "原位",
        "正向预钩子",
    ],
)
def test_every_known_variant_fails(variant):
    """Each variant named in the faithfulness issue (and the glossary) is reported with its line."""
    source = _note(f"这里用到{variant}的写法。", "This note uses the variant.")
    report = annotations.check_source(
        source, "annotated_src/x.py", "x", REAL_GLOSSARY, REAL_SPELLING
    )
    problems = [p for r in report.records for p in r.problems if p.kind == "glossary"]
    assert problems and problems[0].line == 12, (variant, problems)


def test_unlisted_pre_hook_variant_fails():
    """A pre-/post-hook wording no list names (前 or 置 before 钩子) is still caught."""
    source = _note("调用之前的钩子叫做保存前钩子。", "The hook before the call is a save pre-hook.")
    report = annotations.check_source(source, "annotated_src/x.py", "x", REAL_GLOSSARY)
    assert [p.kind for r in report.records for p in r.problems] == ["glossary"]


def test_correct_hook_terms_pass():
    source = _note(
        "前向预钩子、反向预钩子、完整反向钩子、加载预钩子和后钩子都是正确写法。",
        "Forward pre-hooks, backward pre-hooks, full backward hooks, load pre-hooks, post-hooks.",
    )
    report = annotations.check_source(
        source, "annotated_src/x.py", "x", REAL_GLOSSARY, REAL_SPELLING
    )
    assert [p for r in report.records for p in r.problems] == []


@pytest.mark.parametrize(
    "word", ["behaviour", "initialise", "initialised", "customise", "neighbouring", "colour"]
)
def test_british_spelling_fails(word):
    source = _note("拼写测试。", f"The {word} of this function.")
    report = annotations.check_source(source, "annotated_src/x.py", "x", [], REAL_SPELLING)
    problems = [p for r in report.records for p in r.problems if p.kind == "spelling"]
    assert problems and problems[0].line == 13, (word, problems)
    quoted = _note("拼写测试。", f"torch's old docs said “{word}”.")
    report = annotations.check_source(quoted, "annotated_src/x.py", "x", [], REAL_SPELLING)
    assert not [p for r in report.records for p in r.problems if p.kind == "spelling"]


def test_docs_pages_are_checked_too(tmp_path):
    page = tmp_path / "docs" / "chapters" / "x.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "# 标题 / Title\n\n前置钩子的行为 / the behaviour\n\n```python\n# 前置钩子\n```\n"
    )
    report = annotations.check_page(page, tmp_path, REAL_GLOSSARY, REAL_SPELLING)
    assert sorted((p.kind, p.line) for p in report.records[0].problems) == [
        ("glossary", 3),
        ("spelling", 3),
    ]


def test_languages_citing_different_code_or_numbers_fail_in_a_core_file():
    core = "annotated_src/annotated_nn/modules/module.py"
    differs = _note("至少要二维的 `input`。", "The `input` needs at least 2 dimensions.")
    report = annotations.check_source(differs, core, "m")
    problems = [p for r in report.records for p in r.problems if p.kind == "lang-mismatch"]
    assert problems and "numbers only in English: 2" in problems[0].message
    code = _note("需要 `weight`。", "Needs `weight` and `bias`.")
    report = annotations.check_source(code, core, "m")
    problems = [p for r in report.records for p in r.problems if p.kind == "lang-mismatch"]
    assert problems and "code only in English: bias" in problems[0].message
    same = _note("至少要 2 维的 `input`。", "The `input` needs at least 2 dimensions.")
    report = annotations.check_source(same, core, "m")
    assert [p for r in report.records for p in r.problems] == []
    elsewhere = annotations.check_source(differs, "annotated_src/annotated_nn/modules/conv.py", "m")
    assert [p for r in elsewhere.records for p in r.problems] == []


def test_knock_on_problems_fold_under_their_cause():
    """An `Args:` put inside the English tab: one problem at the right line, with a fix; the
    knock-on problems (parameters "missing", a short tab) are folded under it."""
    source = textwrap.dedent(
        '''
        def scale(x, factor=2):
            r"""Multiply by a factor. / 乘以一个系数。

            === "中文"

                把输入乘以 `factor`。

            === "English"

                Args:
                    x: Input. / 输入。
                    factor: Factor. / 系数。
            """
            return x * factor
        '''
    )
    report = annotations.check_source(source, "annotated_src/annotated_nn/x.py", "x", GLOSSARY)
    text, total = annotations.format_report([report])
    lines = text.splitlines()
    problems = [line for line in lines if re.match(r"\S+:\d+: ", line)]
    assert len(problems) == 1 and ": section-in-tab: " in problems[0], text
    assert lines[lines.index(problems[0]) + 1].startswith(
        "    fix: move the section out of the tab"
    )
    assert "(follows from it / 由此引起)" in text
    assert total == 1


def test_a_new_def_missing_from_the_book_is_reported_with_its_chapter(tmp_path):
    """A newcomer's new private helper: the fast check names the chapter and the `:::` line."""
    import shutil

    package = tmp_path / "annotated_src" / "annotated_nn" / "modules"
    package.mkdir(parents=True)
    source = (ROOT / "annotated_src/annotated_nn/modules/container.py").read_text(encoding="utf-8")
    helper = (
        "\n\ndef _check_update_pair(pair):\n"
        '    r"""Check one key/value pair. / 检查一个键值对。\n\n'
        '    === "中文"\n\n        确认它有两个元素。\n\n'
        '    === "English"\n\n        Make sure it has two elements.\n\n'
        "    Args:\n        pair: The pair. / 键值对。\n"
        '    """\n    return len(pair) == 2\n'
    )
    (package / "container.py").write_text(source + helper, encoding="utf-8")
    chapters = tmp_path / "docs" / "chapters"
    chapters.mkdir(parents=True)
    shutil.copy(ROOT / "docs/chapters/05-containers.md", chapters / "05-containers.md")
    reports = annotations.check_project(tmp_path)
    found = [
        (r.file, p)
        for report in reports
        for r in report.records
        for p in r.problems
        if p.kind == "not-in-book"
    ]
    assert len(found) == 1, found
    file, problem = found[0]
    assert file == "annotated_src/annotated_nn/modules/container.py"
    assert problem.line == source.count("\n") + 3
    assert problem.message == (
        "no chapter renders `annotated_nn.modules.container._check_update_pair`: add "
        "`::: annotated_nn.modules.container._check_update_pair` to docs/chapters/05-containers.md"
    )
