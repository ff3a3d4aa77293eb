#!/usr/bin/env python3
r"""Check annotated_nn's bilingual commentary against the annotation guide. / 按注释规范检查 annotated_nn 的双语注释。

Run it as `make annotations` or `python tools/annotations.py [ROOT]`. It reads every `*.py` file of
`annotated_src/annotated_nn` (and `annotated_src/annotated_examples` when it exists), checks every
function, method and class, nested ones included (`@overload` stubs are exempt), prints each
problem as `file:line: kind: message`, then a table per file, and exits with status 1 when it
found any problem. The book imports `collect` (coverage page), `comment_pairs` and
`diff_markers` from here; importing this module has no side effects.

用 `make annotations` 或 `python tools/annotations.py [ROOT]` 运行。它读取
`annotated_src/annotated_nn`（以及存在时的 `annotated_src/annotated_examples`）下的每个 `*.py`，
检查每个函数、方法和类，嵌套的也算（`@overload` 桩函数除外）；逐条打印 `文件:行号: 类别: 说明`，
再按文件打印一张汇总表；只要发现问题，退出码就是 1。书从这里导入 `collect`（覆盖率页面）、
`comment_pairs` 和 `diff_markers`；导入本模块不会产生任何副作用。

The rules, by problem kind (the same list is in `KINDS` below):
各类问题对应的规则（与下面的 `KINDS` 一致）：

- `syntax`: the file parses. / 文件能被解析。
- `docstring`: every def and class has a docstring. / 每个 def 和 class 都要有文档字符串。
- `summary`: its first line reads `English. / 中文。` / 第一行写成 `English. / 中文。`。
- `tabs`: top-level `=== "中文"` then `=== "English"` tabs. / 顶层先有 `=== "中文"` 标签页，再有 `=== "English"`。
- `zh-tab`, `en-tab`: the 中文 tab has >= 4 CJK characters; the English tab >= 3 English words and
  <= 2 CJK characters outside code. / 中文标签页至少 4 个汉字；English 标签页至少 3 个英文单词，
  代码之外的汉字不超过 2 个。
- `section-in-tab`: `Args:`, `Returns:` ... stay outside the tabs. / `Args:` 等小节放在标签页之外。
- `args-missing`, `args-unknown`: `Args:` matches the signature. / `Args:` 与函数签名一致。
- `args-lang`, `item-lang`: section items read `English. / 中文。` / 各小节条目写成 `English. / 中文。`。
- `comment-pair`, `comment-tag`, `comment-lang`: `# 中:` blocks are followed by `# EN:` blocks.
  / `# 中:` 注释块后面紧跟 `# EN:` 注释块。
- `diff-marker`: `# DIFF(torch 2.13): ...` is explained in both languages. / DIFF 标记用两种语言说明。
- `glossary`: Chinese text uses the glossary's terms (docs/glossary.yml). / 中文使用术语表里的译名。
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

# 中: 本文件位于 <项目>/tools/，所以项目根目录是上一级；命令行不给 ROOT 时就用它。
# EN: This file lives in <project>/tools/, so the project root is one level up; it is the
#     default when no ROOT is given on the command line.
PROJECT_ROOT = Path(__file__).resolve().parents[1]

# Package directories checked, relative to the project root. / 要检查的包目录（相对项目根目录）。
PACKAGE_DIRS = (
    "annotated_src/annotated_nn",
    "annotated_src/annotated_optim",
    "annotated_src/annotated_examples",
)
GLOSSARY_FILE = "docs/glossary.yml"

# 中: 核心文件（读者逐行阅读的模块系统本身）里，函数体中连续的代码行最多 8 行就要有一段
# 中: `# 中:`/`# EN:` 注释；其它文件只统计、不报错（覆盖率页面会显示）。
# EN: In the core files (the module system itself, which readers follow line by line) a function
# EN: body may run at most 8 code lines without a `# 中:`/`# EN:` note; other files are measured
# EN: (the coverage page shows it) but not held to it.
MAX_UNANNOTATED_RUN = 8
CORE_FILES = (
    "annotated_src/annotated_nn/modules/module.py",
    "annotated_src/annotated_nn/parameter.py",
    "annotated_src/annotated_nn/utils/hooks.py",
    "annotated_src/annotated_nn/modules/_functions.py",
    "annotated_src/annotated_nn/modules/container.py",
    "annotated_src/annotated_nn/modules/lazy.py",
    "annotated_src/annotated_nn/init.py",
    "annotated_src/annotated_nn/parallel/",
    "annotated_src/annotated_optim/",
)


def is_core_file(file: str) -> bool:
    r"""Whether a project path is one of the core files. / 某个项目路径是否属于核心文件。

    === "中文"

        以 `/` 结尾的条目表示整个目录（例如 `parallel/`）。

    === "English"

        An entry ending in `/` stands for a whole folder (e.g. `parallel/`).

    Args:
        file: Path relative to the project root, with `/`. / 相对项目根目录、用 `/` 分隔的路径。

    Returns:
        True for a core file. / 是核心文件时返回 True。
    """
    return any(
        file == core or (core.endswith("/") and file.startswith(core)) for core in CORE_FILES
    )


# Problem kinds: kind -> (English, 中文). / 问题类别：类别 -> (英文说明, 中文说明)。
KINDS: dict[str, tuple[str, str]] = {
    "syntax": ("the file does not parse", "文件无法解析"),
    "docstring": ("no docstring", "缺少文档字符串"),
    "summary": ("first line is not `English. / 中文。`", "第一行不是 `English. / 中文。`"),
    "tabs": (
        'no top-level `=== "中文"` tab followed by `=== "English"`',
        '缺少顶层的 `=== "中文"` 标签页或其后的 `=== "English"` 标签页',
    ),
    "zh-tab": ("the 中文 tab has no Chinese text", "中文标签页里没有中文内容"),
    "en-tab": ("the English tab has no English text", "English 标签页里没有英文内容"),
    "section-in-tab": ("a Google section inside a tab", "Google 风格小节写在了标签页里"),
    "args-missing": ("a parameter missing from `Args:`", "有参数没写进 `Args:`"),
    "args-unknown": (
        "`Args:` names a parameter the signature lacks",
        "`Args:` 写了签名里没有的参数",
    ),
    "args-lang": ("an `Args:` item not in both languages", "`Args:` 条目不是中英双语"),
    "item-lang": (
        "a Returns/Raises/Yields/Attributes item not in both languages",
        "返回值等条目不是中英双语",
    ),
    "comment-pair": (
        "a `# 中:` block without its `# EN:` block, or the reverse",
        "`# 中:` 与 `# EN:` 注释没有成对",
    ),
    "comment-tag": ("a misspelt `# 中:` / `# EN:` prefix", "`# 中:` / `# EN:` 前缀写法不对"),
    "comment-lang": ("a comment block in the wrong language", "注释块的语言不对"),
    "diff-marker": ("a DIFF marker not explained in both languages", "DIFF 标记没有用两种语言说明"),
    "glossary": ("a word the glossary forbids", "使用了术语表禁用的译法"),
    "spelling": (
        "a British spelling (torch writes American English)",
        "英式拼写（torch 用美式英语）",
    ),
    "lang-mismatch": (
        "the two languages cite different `code` or numbers, in a core file",
        "核心文件中两种语言引用的 `代码` 或数字不一致",
    ),
    "not-in-book": (
        "a def or class no `::: path` directive of the book renders",
        "书中没有任何 `::: 路径` 指令渲染这个定义",
    ),
    "unannotated-run": (
        f"more than {MAX_UNANNOTATED_RUN} code lines in a row without a note, in a core file",
        f"核心文件中连续超过 {MAX_UNANNOTATED_RUN} 行代码没有注释",
    ),
}

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# An English word: two or more ASCII letters. / 英文单词：两个及以上的 ASCII 字母。
WORD = re.compile(r"[A-Za-z]{2,}")

TAB_MARKER = re.compile(r'^===\+?\s+"([^"]*)"')
# A Google section header at the docstring's own indentation, e.g. `Args:` or `Note: title`.
# 与文档字符串本身同一缩进的 Google 小节标题，例如 `Args:` 或 `Note: 标题`。
SECTION_HEADER = re.compile(r"^([A-Z][A-Za-z]*(?: [A-Za-z]+)*):(?:\s+(.*))?$")
ARGS_SECTIONS = {
    "Args",
    "Arguments",
    "Parameters",
    "Params",
    "Keyword Args",
    "Keyword Arguments",
    "Other Parameters",
}
ITEM_SECTIONS = {"Raises", "Attributes", "Warns"}
TEXT_SECTIONS = {"Returns", "Return", "Yields", "Yield"}
# Headers that must never appear inside a tab (there they are not parsed as sections).
# 不能出现在标签页里的小节标题（在标签页里它们不会被解析成小节）。
SECTION_IN_TAB = re.compile(
    r"^\s*(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|"
    r"Returns|Return|Raises|Yields|Yield|Examples|Example|Attributes|Warns|Receives|"
    r"Note|Notes|Warning|Warnings|See Also|Todo):\s*$"
)
ITEM_LINE = re.compile(r"^(\*{0,2}[A-Za-z_][\w.]*)\s*(?:\(([^)]*)\))?\s*:(?:\s+(.*))?$")

ZH_TAG, EN_TAG = "# 中:", "# EN:"
# Near misses of the two prefixes (`#中:`, `# 中：`, `# En:` ...). / 两个前缀的常见误写。
NEAR_ZH = re.compile(r"^#\s*中\s*[:：]")
NEAR_EN = re.compile(r"^#\s*EN\s*[:：]", re.IGNORECASE)
DIFF_MARKER = re.compile(r"DIFF\(torch[ \d.]*\)")
# A DIFF marker at the start of a comment's text, with its colon. / 注释开头的 DIFF 标记（连同冒号）。
DIFF_PREFIX = re.compile(r"DIFF\(torch[ \d.]*\)\s*:?\s*")
# Quoted spans are exempt from the glossary check. / 引号或反引号中的文字不做术语检查。
QUOTED = re.compile(r"`[^`]*`|“[^”]*”|「[^」]*」|\"[^\"]*\"")


class Problem(str):
    r"""One problem found at one source line. / 在某一行源代码发现的一个问题。

    === "中文"

        `kind` 是 `KINDS` 里的一个键，`line` 是文件中的行号（从 1 开始），`message`
        用英文说明具体是哪里不对，便于在终端里直接定位。它同时也是一个字符串
        `"kind (line N)"`，这样覆盖率页面等使用者可以直接拼接或显示问题列表。

    === "English"

        `kind` is one of the keys of `KINDS`, `line` is the 1-based line in the file, and
        `message` says in English what exactly is wrong, so the terminal output is enough to act
        on. It is also the string `"kind (line N)"`, so that consumers such as the coverage page
        can join or show a list of problems as it is.

    Args:
        kind: Key of `KINDS`. / `KINDS` 中的类别名。
        line: 1-based line number. / 从 1 开始的行号。
        message: What is wrong, in English. / 问题说明（英文）。

    Attributes:
        kind: Key of `KINDS`. / `KINDS` 中的类别名。
        line: 1-based line number. / 从 1 开始的行号。
        message: What is wrong, in English. / 问题说明（英文）。
    """

    kind: str
    line: int
    message: str

    def __new__(cls, kind: str, line: int, message: str) -> Problem:
        r"""Build the string and attach the fields. / 生成字符串并附上各字段。

        === "中文"

            字符串部分只含类别和行号，不含说明文字，放进表格单元格也不会出问题。

        === "English"

            The string part holds only the kind and line, not the message, so it is safe in a
            table cell.

        Args:
            kind: Key of `KINDS`. / `KINDS` 中的类别名。
            line: 1-based line number. / 从 1 开始的行号。
            message: What is wrong, in English. / 问题说明（英文）。

        Returns:
            The new problem. / 新建的问题对象。
        """
        problem = super().__new__(cls, f"{kind} (line {line})")
        problem.kind, problem.line, problem.message = kind, line, message
        return problem

    def __repr__(self) -> str:
        r"""Show all three fields. / 显示全部三个字段。

        === "中文"

            便于在测试失败信息里看清是哪一类、哪一行、什么问题。

        === "English"

            Makes test failure messages show the kind, the line and the message.

        Returns:
            `Problem(kind, line, message)`. / `Problem(类别, 行号, 说明)`。
        """
        return f"Problem({self.kind!r}, {self.line}, {self.message!r})"


@dataclass
class Record:
    r"""The check result of one def, class or module. / 一个函数、类或模块的检查结果。

    === "中文"

        每个被检查的函数、方法和类对应一条记录。注释、术语等按行号归到包含该行的最内层
        定义上；不属于任何定义的问题（模块级注释、模块文档字符串里的术语）归到该文件的
        `kind == "module"` 记录上，`collect` 只在它确有问题时才返回它。

    === "English"

        There is one record per checked function, method and class. Line-based problems such as
        comments and glossary words go to the innermost def that contains the line; problems
        outside every def (module-level comments, the module docstring) go to the file's record
        of kind `"module"`, which `collect` returns only when it has problems.

    Attributes:
        file: Path relative to the project root, with `/`. / 相对项目根目录的路径，用 `/` 分隔。
        line: Line of the `def`/`class` keyword (1 for a module). / `def`/`class` 所在行（模块为 1）。
        module: Dotted module name, e.g. `annotated_nn.modules.linear`. / 点号分隔的模块名。
        qualname: Python qualified name, `<module>` for a module. / Python 限定名，模块记录为 `<module>`。
        kind: `function`, `method`, `class` or `module`. / 记录种类。
        problems: Problems found, sorted by line. / 按行号排序的问题列表。
        longest_run: Most code lines in a row without a note. / 连续无注释代码行的最大行数。
        longest_run_line: Where that run starts (0: none). / 该段的起始行（0 表示没有）。
    """

    file: str
    line: int
    module: str
    qualname: str
    kind: str
    problems: list[Problem] = field(default_factory=list)
    longest_run: int = 0
    longest_run_line: int = 0

    @property
    def ok(self) -> bool:
        r"""Whether the record has no problem. / 该记录是否没有任何问题。

        === "中文"

            没有发现任何问题时为真；覆盖率页面用它来统计合格的定义。

        === "English"

            True when nothing was found; the coverage page counts clean defs with it.

        Returns:
            True when `problems` is empty. / `problems` 为空时返回 True。
        """
        return not self.problems


@dataclass(frozen=True)
class CommentPair:
    r"""A `# 中:` comment block and the `# EN:` block below it. / 一个 `# 中:` 注释块及其下方的 `# EN:` 注释块。

    === "中文"

        书中按语言切换显示注释时用到它。没有配对的 `# 中:` 块也会列出，此时 `en_line`
        为 `None`、`en` 为空字符串（检查器同时会报告 `comment-pair` 问题）。

    === "English"

        The book uses these to show the comments of one language at a time. An unpaired `# 中:`
        block is listed too, with `en_line=None` and `en=""` (and the checker reports a
        `comment-pair` problem for it).

    Attributes:
        file: Path relative to the project root. / 相对项目根目录的路径。
        line: First line of the `# 中:` block. / `# 中:` 块的第一行。
        zh: Chinese text, prefixes removed. / 去掉前缀后的中文内容。
        en_line: First line of the `# EN:` block, or None. / `# EN:` 块的第一行，没有则为 None。
        en: English text, prefixes removed. / 去掉前缀后的英文内容。
        end_line: Last line of the pair. / 这一对注释的最后一行。
    """

    file: str
    line: int
    zh: str
    en_line: int | None
    en: str
    end_line: int


@dataclass(frozen=True)
class DiffMarker:
    r"""A `# DIFF(torch 2.13)` marker and its comment block. / 一个 DIFF 标记及其注释块。

    === "中文"

        书里把所有 DIFF 标记汇总成一张“与 PyTorch 的差异”清单，可以直接使用这里的结果。

    === "English"

        The book collects every DIFF marker into one ledger of deliberate differences from
        PyTorch; this is the data for it.

    Attributes:
        file: Path relative to the project root. / 相对项目根目录的路径。
        line: Line of the marker. / 标记所在行。
        qualname: Innermost def around it, `<module>` at module level. / 所在的最内层定义，模块级为 `<module>`。
        text: The block's text, comment prefixes removed. / 去掉注释前缀后的整块文字。
    """

    file: str
    line: int
    qualname: str
    text: str


@dataclass(frozen=True)
class Term:
    r"""One glossary entry from docs/glossary.yml. / docs/glossary.yml 中的一个术语。

    === "中文"

        `forbidden_zh` 列出不应出现在中文注释里的其他译法，检查器遇到时提示改用 `zh`。

    === "English"

        `forbidden_zh` lists other renderings that should not appear in Chinese text; the checker
        suggests `zh` instead whenever it meets one.

    Attributes:
        en: English term. / 英文术语。
        zh: Chinese term to use. / 应使用的中文译名。
        forbidden_zh: Renderings to avoid. / 应避免的译法。
    """

    en: str
    zh: str
    forbidden_zh: tuple[str, ...] = ()


def load_glossary(path: Path) -> list[Term]:
    r"""Read the glossary file. / 读取术语表文件。

    === "中文"

        文件格式见 docs/glossary.yml 开头的说明；这里只取检查需要的三个字段。PyYAML
        随 mkdocs 一起安装，所以放在函数里导入，避免导入本模块时就依赖它。

    === "English"

        The format is described at the top of docs/glossary.yml; only the three fields the check
        needs are kept. PyYAML comes with mkdocs, and is imported here rather than at module level
        so that importing this module needs nothing beyond the standard library.

    Args:
        path: The YAML file. / YAML 文件路径。

    Returns:
        The terms, in file order. / 按文件顺序排列的术语。
    """
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [
        Term(str(t["en"]), str(t["zh"]), tuple(str(w) for w in t.get("forbidden_zh") or ()))
        for t in data.get("terms", [])
    ]


@dataclass(frozen=True)
class Spelling:
    r"""A British spelling and the American one to use. / 一种英式拼写及应改用的美式拼写。

    === "中文"

        `pattern` 是按整词、不分大小写匹配的正则表达式（来自 docs/glossary.yml 的 `spelling_en`）。

    === "English"

        `pattern` is a regular expression matched as a whole word, case-insensitively (from
        docs/glossary.yml's `spelling_en`).

    Attributes:
        pattern: The British forms. / 英式写法。
        american: What to write instead. / 应改用的写法。
    """

    pattern: str
    american: str


def load_spelling(path: Path) -> list[Spelling]:
    r"""Read the spelling rules of the glossary file. / 读取术语表文件中的拼写规则。

    === "中文"

        文件里没有 `spelling_en` 时返回空列表。

    === "English"

        Returns an empty list when the file has no `spelling_en`.

    Args:
        path: The YAML file. / YAML 文件路径。

    Returns:
        The rules, in file order. / 按文件顺序排列的规则。
    """
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [
        Spelling(str(rule["british_only"]), str(rule["american"]))
        for rule in data.get("spelling_en") or []
    ]


def _spelling_problems(lines: list[tuple[int, str]], rules: list[Spelling]) -> list[Problem]:
    r"""Find British spellings. / 查找英式拼写。

    === "中文"

        与术语检查一样，引号和反引号里的文字不检查（可以照原文引用）。

    === "English"

        As with the glossary, quoted and backticked text is skipped (a quotation stays as written).

    Args:
        lines: `(line number, text)` pairs to scan. / 要检查的 `(行号, 文字)`。
        rules: The spelling rules. / 拼写规则。

    Returns:
        One problem per British word. / 每个英式拼写一个问题。
    """
    if not rules:
        return []
    combined = [(re.compile(rf"\b(?:{rule.pattern})\b", re.I), rule) for rule in rules]
    problems = []
    for number, text in lines:
        bare = QUOTED.sub(" ", text)
        for pattern, rule in combined:
            for match in pattern.finditer(bare):
                problems.append(
                    Problem(
                        "spelling",
                        number,
                        f"“{match.group(0)}” → {rule.american} (American, as torch writes) / 改用美式拼写",
                    )
                )
    return problems


def count_cjk(text: str) -> int:
    r"""Count the Chinese characters in a text. / 统计文字中的汉字个数。

    === "中文"

        只数汉字（CJK 统一表意文字），中文标点不算。

    === "English"

        Only CJK ideographs are counted; Chinese punctuation is not.

    Args:
        text: Any text. / 任意文字。

    Returns:
        The number of CJK ideographs. / 汉字个数。
    """
    return len(CJK.findall(text))


def prose(text: str) -> str:
    r"""A text with its backtick code spans blanked out. / 把反引号中的代码替换为空白后的文字。

    === "中文"

        英文内容里提到 `# 中:` 这样的代码时，其中的汉字不应算作“英文里混入了中文”。

    === "English"

        When English text quotes code such as the Chinese comment tag, the CJK characters of the
        code must not count as Chinese prose.

    Args:
        text: Markdown text. / Markdown 文字。

    Returns:
        The text without code spans. / 去掉代码片段后的文字。
    """
    return re.sub(r"`[^`\n]*`", " ", text)


def is_bilingual_pair(text: str) -> bool:
    r"""Whether a text reads `English. / 中文。` / 判断文字是否为 `English. / 中文。` 的形式。

    === "中文"

        只要存在某个 ` / `，左边是英文、右边有汉字，就算合格。左边要有英文单词（代码里的
        也算），或者去掉反引号中的代码后不剩字母；并且代码之外的汉字不超过 2 个。右边至少
        有一个汉字。因此 `` `Φ(x)`. / `Φ(x)` 的值。 `` 合格，中英顺序颠倒的
        （`中文。 / English.`）不合格。整段去掉代码后既无英文单词也无汉字的条目（例如
        `` `a <= b`. / `a <= b`。 ``）没有可翻译的内容，也算合格。换行先合并成空格，
        所以 ` / ` 落在行尾也没关系。

    === "English"

        True when some ` / ` has English on its left and Chinese on its right. The left side
        needs an English word (one in code counts) or no letters at all outside backtick code,
        and at most 2 CJK characters outside code; the right side needs a CJK character. So
        `` `Φ(x)`. / `Φ(x)` 的值。 `` passes and the reversed order (`中文。 / English.`) fails. An
        item with neither English words nor CJK once its code is removed (such as
        `` `a <= b`. / `a <= b`。 ``) has nothing to translate and passes. Line breaks are
        folded into spaces first, so a ` / ` at the end of a line is fine.

    Args:
        text: A summary line or a section item. / 摘要行或小节条目。

    Returns:
        True when the text is an English/Chinese pair. / 是中英成对的文字时返回 True。
    """
    text = " ".join(text.split())
    if not WORD.search(prose(text)) and not count_cjk(prose(text)):
        return True
    for m in re.finditer(r" / ", text):
        english, chinese = text[: m.start()], text[m.end() :]
        english_ok = WORD.search(english) or not re.search(r"[A-Za-z]", prose(english))
        if english_ok and count_cjk(prose(english)) <= 2 and count_cjk(chinese) >= 1:
            return True
    return False


def _indent(line: str) -> int:
    r"""Width of a line's leading whitespace. / 行首空白的宽度。

    === "中文"

        文档字符串已经把制表符展开成空格，所以直接数空格即可。

    === "English"

        Tabs were already expanded to spaces, so counting spaces is enough.

    Args:
        line: One line of text. / 一行文字。

    Returns:
        The number of leading spaces. / 行首空格数。
    """
    return len(line) - len(line.lstrip(" "))


@dataclass
class _Block:
    r"""A top-level part of a docstring: a tab, a section or text. / 文档字符串的顶层部分：标签页、小节或普通文字。

    === "中文"

        文档字符串去掉公共缩进后，顶格的一行开始一个新部分：`=== "..."` 开始标签页，
        `Args:` 之类开始小节，其他文字自成一块；缩进的行和空行属于前面的部分。

    === "English"

        After the docstring's common indentation is removed, each line at column 0 starts a new
        part: `=== "..."` starts a tab, `Args:` and the like start a section, anything else is
        plain text; indented and blank lines belong to the part above them.

    Attributes:
        kind: `tab`, `section` or `text`. / 部分的种类。
        title: Tab label or section name. / 标签页名或小节名。
        start: Index of the opening line. / 开头一行的下标。
        body: `(index, line)` pairs of the body. / 正文各行的 `(下标, 内容)`。
    """

    kind: str
    title: str
    start: int
    body: list[tuple[int, str]] = field(default_factory=list)


class _Docstring:
    r"""A docstring split into lines that map back to source lines. / 拆成行并能对应回源代码行号的文档字符串。

    === "中文"

        第 0 行是摘要；其余各行去掉公共缩进。三引号字符串中的换行与源文件一一对应，
        所以第 i 行就在源文件的 `first_line + i` 行；若字符串里用了 `\n` 之类的转义导致
        对不上，则所有行号都退回到字符串开头那一行。

    === "English"

        Line 0 is the summary; the other lines lose their common indentation. The newlines of a
        triple-quoted string are the file's own, so line i sits on source line `first_line + i`;
        when escapes such as `\n` break that correspondence, every line maps to the string's
        first line instead.

    Args:
        node: The string constant holding the docstring. / 存放文档字符串的字符串常量节点。
    """

    def __init__(self, node: ast.Constant) -> None:
        r"""Split and dedent the docstring. / 拆分文档字符串并去掉公共缩进。

        === "中文"

            做的事与 `inspect.cleandoc` 相同，但保留首尾空行，使下标与源代码行号对应。

        === "English"

            Does what `inspect.cleandoc` does, but keeps leading and trailing blank lines so
            indices still match source lines.

        Args:
            node: The string constant holding the docstring. / 存放文档字符串的字符串常量节点。
        """
        raw = node.value.expandtabs()
        lines = raw.split("\n")
        margin = min((_indent(ln) for ln in lines[1:] if ln.strip()), default=0)
        self.lines = [lines[0].strip()] + [ln[margin:] if ln.strip() else "" for ln in lines[1:]]
        self.first_line = node.lineno
        self.exact = node.end_lineno == node.lineno + len(lines) - 1

    def lineno(self, index: int) -> int:
        r"""Source line of a docstring line. / 文档字符串第 index 行对应的源代码行号。

        === "中文"

            行号无法精确对应时返回字符串开头所在的行。

        === "English"

            Falls back to the string's first line when lines cannot be matched exactly.

        Args:
            index: Index into `lines`. / `lines` 中的下标。

        Returns:
            A 1-based source line. / 从 1 开始的源代码行号。
        """
        return self.first_line + index if self.exact else self.first_line

    def blocks(self) -> list[_Block]:
        r"""Split the docstring below the summary into top-level parts. / 把摘要以下的内容切分成顶层部分。

        === "中文"

            只看顶格的行：它们决定一个部分从哪里开始。`Note:` 小节里面可以再放标签页，
            那些标签页是缩进的，因此属于 `Note` 小节，不会被当成顶层标签页。

        === "English"

            Only lines at column 0 matter: they start the parts. Tabs nested in a `Note:` section
            are indented, so they belong to that section, not to the top level.

        Returns:
            The parts in order. / 按顺序排列的各部分。
        """
        blocks: list[_Block] = []
        for index, line in enumerate(self.lines[1:], start=1):
            if line.strip() and _indent(line) == 0:
                tab = TAB_MARKER.match(line)
                section = SECTION_HEADER.match(line)
                if tab:
                    blocks.append(_Block("tab", tab.group(1), index))
                elif section:
                    blocks.append(_Block("section", section.group(1), index))
                else:
                    blocks.append(_Block("text", "", index))
            elif blocks:
                blocks[-1].body.append((index, line))
        return blocks


def _section_items(block: _Block) -> list[tuple[int, str, str]]:
    r"""Split a section body into items. / 把小节正文拆成条目。

    === "中文"

        第一条非空行的缩进就是条目的缩进；处于这一缩进且形如 `name: 说明` 或
        `name (类型): 说明` 的行开始一个新条目，更深缩进的行是上一条目的续行。

    === "English"

        The first non-blank line sets the item indentation; a line at that indentation shaped
        like `name: text` or `name (type): text` starts an item, and deeper lines continue the
        previous item.

    Args:
        block: A section block. / 一个小节。

    Returns:
        `(index, name, text)` per item. / 每个条目的 `(下标, 名字, 说明)`。
    """
    items: list[tuple[int, str, str]] = []
    item_indent = None
    for index, line in block.body:
        if not line.strip():
            continue
        if item_indent is None:
            item_indent = _indent(line)
        match = ITEM_LINE.match(line.strip())
        if _indent(line) == item_indent and match:
            items.append((index, match.group(1), match.group(3) or ""))
        elif items:
            first, name, text = items[-1]
            items[-1] = (first, name, text + " " + line.strip())
    return items


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    r"""The parameter names a docstring must document. / 文档字符串必须说明的参数名。

    === "中文"

        按签名顺序列出所有参数；排在第一位的 `self` 或 `cls` 不算。`*args` 与 `**kwargs`
        保留星号，便于在提示中显示。

    === "English"

        All parameters in signature order, except a leading `self` or `cls`. `*args` and
        `**kwargs` keep their stars, for the messages.

    Args:
        node: A function definition. / 函数定义节点。

    Returns:
        Parameter names, starred ones with their stars. / 参数名列表，可变参数带星号。
    """
    a = node.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    if positional and positional[0] in ("self", "cls"):
        positional = positional[1:]
    names = positional
    if a.vararg:
        names.append("*" + a.vararg.arg)
    names += [p.arg for p in a.kwonlyargs]
    if a.kwarg:
        names.append("**" + a.kwarg.arg)
    return names


def check_docstring(node: ast.AST) -> list[Problem]:
    r"""Check the docstring of one def or class. / 检查一个函数或类的文档字符串。

    === "中文"

        依次检查：有没有文档字符串、摘要行、两个顶层标签页及其语言、标签页里是否混入了
        Google 小节、`Args:` 是否与签名一致，以及各小节条目是否中英成对。

    === "English"

        Checks in turn: that there is a docstring, the summary line, the two top-level tabs and
        their languages, Google sections hiding inside tabs, `Args:` against the signature, and
        whether the section items come in both languages.

    Args:
        node: A `FunctionDef`, `AsyncFunctionDef` or `ClassDef`. / 函数或类的定义节点。

    Returns:
        The problems found. / 发现的问题。
    """
    body = getattr(node, "body", [])
    statement = body[0] if body else None
    if not (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    ):
        return [Problem("docstring", node.lineno, f"`{node.name}` has no docstring")]
    doc = _Docstring(statement.value)
    problems: list[Problem] = []

    summary = next((i for i, line in enumerate(doc.lines) if line.strip()), 0)
    if not is_bilingual_pair(doc.lines[summary]):
        problems.append(
            Problem("summary", doc.lineno(summary), "first line is not `English. / 中文。`")
        )

    blocks = doc.blocks()
    tabs = [b for b in blocks if b.kind == "tab"]
    zh_tab = next((b for b in tabs if b.title == "中文"), None)
    en_tab = next((b for b in tabs if b.title == "English"), None)
    if zh_tab is None or en_tab is None or zh_tab.start > en_tab.start:
        found = ", ".join(f'"{b.title}"' for b in tabs) or "none"
        problems.append(
            Problem(
                "tabs",
                doc.lineno(tabs[0].start if tabs else 0),
                f'needs a "中文" tab, then an "English" tab (found: {found})',
            )
        )
    if zh_tab is not None:
        text = "\n".join(line for _, line in zh_tab.body)
        if count_cjk(text) < 4:
            problems.append(
                Problem("zh-tab", doc.lineno(zh_tab.start), "the 中文 tab has < 4 CJK characters")
            )
    if en_tab is not None:
        text = "\n".join(line for _, line in en_tab.body)
        if len(WORD.findall(text)) < 3 or count_cjk(prose(text)) > 2:
            problems.append(
                Problem(
                    "en-tab",
                    doc.lineno(en_tab.start),
                    "the English tab needs >= 3 English words and <= 2 CJK characters outside code",
                )
            )
    for tab in tabs:
        for index, line in tab.body:
            if SECTION_IN_TAB.match(line):
                problems.append(
                    Problem(
                        "section-in-tab",
                        doc.lineno(index),
                        f'`{line.strip()}` inside the "{tab.title}" tab is not parsed as a section',
                    )
                )

    sections = [b for b in blocks if b.kind == "section"]
    documented: dict[str, int] = {}
    for section in sections:
        if section.title in ARGS_SECTIONS:
            for index, name, text in _section_items(section):
                documented[name.lstrip("*")] = index
                if not is_bilingual_pair(text):
                    problems.append(
                        Problem(
                            "args-lang",
                            doc.lineno(index),
                            f"`{name}` is not described as `English. / 中文。`",
                        )
                    )
        elif section.title in ITEM_SECTIONS:
            for index, name, text in _section_items(section):
                if not is_bilingual_pair(text):
                    problems.append(
                        Problem(
                            "item-lang",
                            doc.lineno(index),
                            f"{section.title} item `{name}` is not `English. / 中文。`",
                        )
                    )
        elif section.title in TEXT_SECTIONS:
            text = " ".join(line.strip() for _, line in section.body)
            if text and not is_bilingual_pair(text):
                problems.append(
                    Problem(
                        "item-lang",
                        doc.lineno(section.start),
                        f"{section.title}: is not `English. / 中文。`",
                    )
                )

    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = _signature(node)
        for name in params:
            if name.lstrip("*") not in documented:
                problems.append(
                    Problem("args-missing", node.lineno, f"parameter `{name}` is not in Args:")
                )
        known = {name.lstrip("*") for name in params}
        for name, index in documented.items():
            if name not in known:
                problems.append(
                    Problem(
                        "args-unknown",
                        doc.lineno(index),
                        f"Args: documents `{name}`, which is not a parameter",
                    )
                )
    return problems


@dataclass(frozen=True)
class _Comment:
    r"""One `#` comment of a source file. / 源文件中的一条 `#` 注释。

    === "中文"

        `own_line` 表示这一行只有注释；代码后面的行尾注释不参与配对检查。

    === "English"

        `own_line` is True when the comment is alone on its line; trailing comments after code
        take no part in pairing.

    Attributes:
        line: 1-based line. / 行号。
        text: The comment, from `#` on, stripped. / 从 `#` 开始、去掉首尾空白的注释。
        own_line: Whether it stands alone on its line. / 是否独占一行。
    """

    line: int
    text: str
    own_line: bool


def _comments(source: str) -> list[_Comment]:
    r"""All comments of a source, found with `tokenize`. / 用 `tokenize` 找出源代码中的所有注释。

    === "中文"

        用词法分析而不是正则表达式，这样字符串里的 `#` 不会被误认为注释。

    === "English"

        Tokenizing rather than pattern matching keeps a `#` inside a string from being taken for
        a comment.

    Args:
        source: Python source text. / Python 源代码。

    Returns:
        The comments in file order. / 按出现顺序排列的注释。
    """
    comments = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            own_line = not token.line[: token.start[1]].strip()
            comments.append(_Comment(token.start[0], token.string.strip(), own_line))
    return comments


def _split_tag(text: str) -> tuple[str, str, str]:
    r"""Split a comment into DIFF marker, language tag and text. / 把注释拆成 DIFF 标记、语言前缀与正文。

    === "中文"

        DIFF 标记可以单独成行（`# DIFF(torch 2.13):`），也可以写在语言前缀前面
        （`# DIFF(torch 2.13): 中: ...`），后一种情况该行仍算作 `# 中:` 行。语言前缀必须
        一字不差地写成 `中:` 或 `EN:`。

    === "English"

        A DIFF marker may stand alone (`# DIFF(torch 2.13):`) or precede a language tag
        (`# DIFF(torch 2.13): 中: ...`), in which case the line still counts as a `# 中:` line.
        The language tag must be exactly `中:` or `EN:`.

    Args:
        text: One comment, starting with `#`. / 以 `#` 开头的一条注释。

    Returns:
        `(marker, tag, text)`: the marker or `""`, `"zh"`, `"en"` or `""`, and the bare text.
            / `(标记, 前缀, 正文)`：标记或空串，`"zh"`、`"en"` 或空串，以及去掉前缀的正文。
    """
    body = text[1:].strip()
    # 中: 前缀要求 `#` 后恰好一个空格；`#中:` 之类的写法留给 comment-tag 检查报告。
    # EN: A tag needs exactly one space after `#`; forms like `#中:` are left to the
    #     comment-tag check.
    spaced = text.startswith("# ") and not text.startswith("#  ")
    marker = DIFF_PREFIX.match(body)
    prefix = ""
    if marker:
        prefix, body = marker.group(0).strip(), body[marker.end() :]
    for tag, label in (("zh", ZH_TAG[2:]), ("en", EN_TAG[2:])):
        if (spaced or marker) and (body == label or body.startswith(label + " ")):
            return prefix, tag, body[len(label) :].strip()
    return prefix, "", body


def _tag(comment: _Comment) -> str:
    r"""The role of a comment line in the pairing rule. / 一行注释在配对规则中的角色。

    === "中文"

        `zh` 与 `en` 分别开启中文块和英文块；单独的 DIFF 标记行是 `diff`，它会截断前面的
        注释块；其余的是 `other`，即普通的续行。

    === "English"

        `zh` and `en` open a Chinese and an English block; a DIFF marker line without a language
        tag is `diff` and ends the block above it; anything else is `other`, a plain
        continuation line.

    Args:
        comment: One comment. / 一条注释。

    Returns:
        `zh`, `en`, `diff` or `other`. / 四种角色之一。
    """
    marker, tag, _ = _split_tag(comment.text)
    return tag or ("diff" if marker else "other")


def _block_text(comments: list[_Comment]) -> str:
    r"""The text of a comment block, tags removed. / 去掉前缀后的注释块文字。

    === "中文"

        DIFF 标记保留在文字开头，这样书中单独显示某种语言时仍能看出这是一处差异。

    === "English"

        A DIFF marker is kept at the front, so that a reader who sees only one language still
        sees that this is a difference.

    Args:
        comments: Consecutive comment lines. / 相邻的注释行。

    Returns:
        Their text, one line each. / 各行文字，每行一条。
    """
    lines = []
    for comment in comments:
        marker, _, text = _split_tag(comment.text)
        lines.append(f"{marker} {text}".strip())
    return "\n".join(lines)


def _runs(comments: list[_Comment]) -> list[list[_Comment]]:
    r"""Group own-line comments on consecutive lines. / 把相邻行上独占一行的注释分组。

    === "中文"

        空行或代码行会把注释分成不同的组；配对规则只在同一组内起作用。

    === "English"

        A blank line or a line of code separates two runs; the pairing rule works within a run.

    Args:
        comments: All comments of a file. / 文件中的全部注释。

    Returns:
        Runs of comments, each on consecutive lines. / 若干组，每组中的注释行号连续。
    """
    runs: list[list[_Comment]] = []
    for comment in comments:
        if not comment.own_line:
            continue
        if runs and runs[-1][-1].line == comment.line - 1:
            runs[-1].append(comment)
        else:
            runs.append([comment])
    return runs


def pair_comments(
    comments: list[_Comment], file: str = ""
) -> tuple[list[CommentPair], list[Problem]]:
    r"""Pair `# 中:` blocks with `# EN:` blocks. / 把 `# 中:` 注释块与 `# EN:` 注释块配对。

    === "中文"

        规则：`# 中:` 行开启中文块，其后相邻的 `# 中:` 行和普通 `#` 续行都属于这个块；
        紧接着中文块的必须是 `# EN:` 行，它开启英文块，英文块同样包含其后相邻的 `# EN:`
        行和续行，直到下一个 `# 中:` 行、单独的 DIFF 标记行或非注释行。中文块后面没有
        英文块，或者 `# EN:` 前面没有紧挨着的中文块，都报告 `comment-pair`。中文块至少要有
        2 个汉字，英文块至少要有 2 个英文单词且（反引号中的代码之外）汉字不超过 2 个，否则报告 `comment-lang`。
        前缀写错（`#中:`、`# 中：`、`# En:`）报告 `comment-tag`。

    === "English"

        The rule: a `# 中:` line opens a Chinese block, which goes on over the adjacent `# 中:`
        lines and plain `#` continuation lines. The line right after the Chinese block must be a
        `# EN:` line; it opens the English block, which goes on over adjacent `# EN:` and
        continuation lines until the next `# 中:` line, a standalone DIFF marker line, or a line
        that is not a comment. A Chinese block with no English block below, or a `# EN:` line
        without a Chinese block right above, is a `comment-pair` problem. A Chinese block needs at
        least 2 CJK characters and an English block at least 2 English words and at most 2 CJK
        characters outside code spans (`comment-lang`). A misspelt prefix (`#中:`, `# 中：`, `# En:`) is `comment-tag`.

    Args:
        comments: All comments of one file. / 一个文件的全部注释。
        file: Path to store in the pairs. / 写入结果的文件路径。

    Returns:
        The pairs and the problems found. / 配对结果与发现的问题。
    """
    pairs: list[CommentPair] = []
    problems: list[Problem] = []
    for comment in comments:
        marker, tag, text = _split_tag(comment.text)
        if tag and not comment.own_line:
            problems.append(
                Problem("comment-pair", comment.line, "a tagged comment must have its own line")
            )
        elif not tag and (NEAR_ZH.match("# " + text) or NEAR_EN.match("# " + text)):
            problems.append(
                Problem(
                    "comment-tag",
                    comment.line,
                    f"write the prefix exactly `{ZH_TAG}` or `{EN_TAG}`: {comment.text[:20]!r}",
                )
            )
    for run in _runs(comments):
        tags = [_tag(c) for c in run]
        i = 0
        while i < len(run):
            if tags[i] == "en":
                problems.append(
                    Problem("comment-pair", run[i].line, "`# EN:` without a `# 中:` block above")
                )
                i += 1
                continue
            if tags[i] != "zh":
                i += 1
                continue
            # 中: 中文块：从这一行起，越过后续的 `# 中:` 行与续行。
            # EN: The Chinese block: this line plus the `# 中:` and continuation lines below it.
            j = i + 1
            while j < len(run) and tags[j] in ("zh", "other"):
                j += 1
            zh_text = _block_text(run[i:j])
            if count_cjk(DIFF_MARKER.sub(" ", zh_text)) < 2:
                problems.append(
                    Problem("comment-lang", run[i].line, "`# 中:` block has no Chinese")
                )
            if j == len(run) or tags[j] != "en":
                problems.append(
                    Problem("comment-pair", run[i].line, "`# 中:` block not followed by `# EN:`")
                )
                pairs.append(CommentPair(file, run[i].line, zh_text, None, "", run[j - 1].line))
                i = j
                continue
            k = j + 1
            while k < len(run) and tags[k] in ("en", "other"):
                k += 1
            en_text = _block_text(run[j:k])
            english_words = WORD.findall(DIFF_MARKER.sub(" ", en_text))
            if len(english_words) < 2 or count_cjk(prose(en_text)) > 2:
                problems.append(
                    Problem("comment-lang", run[j].line, "`# EN:` block is not English")
                )
            pairs.append(
                CommentPair(file, run[i].line, zh_text, run[j].line, en_text, run[k - 1].line)
            )
            i = k
    return pairs, problems


def _diff_blocks(comments: list[_Comment], pairs: list[CommentPair]) -> list[tuple[int, str]]:
    r"""Find each DIFF marker with the text of its comment block. / 找出每个 DIFF 标记及其注释块的文字。

    === "中文"

        标记所在的注释块包括：标记那一行、同一组里它下面的注释行，以及标记所在的
        `# 中:`/`# EN:` 注释对。因此三种写法都可以：一行里写两种语言；单独一行标记，
        下面跟一对 `# 中:`/`# EN:`；或者把标记写在注释对的前缀前面
        （`# DIFF(torch 2.13): 中: ...`）。同一注释对里的多个标记只算一处。

    === "English"

        A marker's block is the marker line, the comment lines below it in the same run, and
        the `# 中:`/`# EN:` pair the marker sits in. So any of three styles works: both languages
        on one line; the marker alone on a line with a `# 中:`/`# EN:` pair below it; or the
        marker in front of a pair's tags (`# DIFF(torch 2.13): 中: ...`). Several markers in one
        pair count as one.

    Args:
        comments: All comments of one file. / 一个文件的全部注释。
        pairs: The file's comment pairs. / 该文件的注释对。

    Returns:
        `(line, text)` per marker. / 每个标记的 `(行号, 文字)`。
    """
    by_line = {c.line: c for c in comments}
    found = []
    seen_pairs: set[int] = set()
    for run in _runs(comments) + [[c] for c in comments if not c.own_line]:
        for position, comment in enumerate(run):
            if not DIFF_MARKER.search(comment.text):
                continue
            lines = {c.line for c in run[position:]}
            pair = next((p for p in pairs if p.line <= comment.line <= p.end_line), None)
            if pair is not None:
                if pair.line in seen_pairs:
                    continue
                seen_pairs.add(pair.line)
                lines |= set(range(pair.line, pair.end_line + 1))
            block = [by_line[n] for n in sorted(lines) if n in by_line]
            found.append((comment.line, _block_text(block)))
    return found


def _part_of_correct_term(span: tuple[int, int], correct: list[tuple[int, int]]) -> bool:
    r"""Whether a forbidden word is really part of a correct term. / 判断禁用词是否其实属于某个正确术语。

    === "中文"

        正确术语与禁用词交叠、并且伸出禁用词之外时成立，例如“挂钩子”中的“钩子”。
        正确术语完全落在禁用词内部时不成立，否则含有正确术语的禁用词永远查不出来。

    === "English"

        True when a correct term overlaps the forbidden word and reaches beyond it. A correct
        term lying wholly inside the forbidden word does not count, or a forbidden compound that
        contains a correct term could never be caught.

    Args:
        span: `(start, end)` of the forbidden word. / 禁用词的 `(起点, 终点)`。
        correct: `(start, end)` of each correct term on the line. / 该行每个正确术语的位置。

    Returns:
        True when the forbidden word should be ignored. / 应忽略该禁用词时返回 True。
    """
    start, end = span
    return any(a < end and b > start and (a < start or b > end) for a, b in correct)


def _glossary_problems(lines: list[tuple[int, str]], glossary: list[Term]) -> list[Problem]:
    r"""Find forbidden renderings of glossary terms. / 查找术语表禁用的译法。

    === "中文"

        引号、直角引号或反引号中的文字不检查，这样在引用其他文章的说法时可以照写原文。
        禁用词若与正确的术语交叠并超出禁用词本身，也不算：例如“挂钩子”里的“挂钩”
        其实是“挂”加“钩子”。

    === "English"

        Text in quotes or backticks is skipped, so the commentary can quote another article's
        wording as it is. A forbidden word that overlaps a correct term reaching beyond it does
        not count either: in `挂钩子` ("attach a hook") the `挂钩` is really `挂` + `钩子`.

    Args:
        lines: `(line number, text)` pairs to scan. / 要检查的 `(行号, 文字)`。
        glossary: The terms. / 术语表。

    Returns:
        One problem per forbidden word and line. / 每行每个禁用词一个问题。
    """
    problems = []
    # 中: 每个禁用词、每个正确术语各编译一次；只在含有其中某个字的行上逐个查找。
    # EN: Each forbidden word and correct term is compiled once; a line is searched word by word
    # EN: only when it holds a character of one of them.
    forbidden = [(re.compile(re.escape(w)), w, t) for t in glossary for w in t.forbidden_zh]
    correct_terms = [re.compile(re.escape(t.zh)) for t in glossary]
    first_chars = set("前置") | {w[0] for _, w, _ in forbidden}
    for number, text in lines:
        if not CJK.search(text) or not first_chars.intersection(text):
            continue
        bare = QUOTED.sub(" ", text)
        correct = [
            (m.start(), m.end()) for pattern in correct_terms for m in pattern.finditer(bare)
        ]
        # 中: 几个禁用词可能落在同一处（一个长的禁用词里含着一个短的）：只报最长、最具体的那个。
        # EN: Several forbidden words may cover one place (a long one holding a short one): only
        # EN: the longest, most specific one is reported.
        found = [
            (m.span(), word, term)
            for pattern, word, term in forbidden
            for m in pattern.finditer(bare)
            if not _part_of_correct_term(m.span(), correct)
        ]
        flagged: list[tuple[int, int]] = []
        for (start, end), word, term in sorted(found, key=lambda f: f[0][0] - f[0][1]):
            if any(a < end and b > start for a, b in flagged):
                continue
            flagged.append((start, end))
            problems.append(Problem("glossary", number, f"“{word}” → “{term.zh}” ({term.en})"))
        # 中: 术语表没有列出的变体：`前` 或 `置` 紧接着 `钩子` 的写法一律报错，应写成 `预钩子` 或 `后钩子`。
        # 中: 这条规则不依赖列表，所以新的写法也查得出。
        # EN: Variants the glossary does not list: `前` or `置` right before `钩子` always means `预钩子`
        # EN: (pre-hook) or `后钩子` (post-hook). The rule needs no list, so it catches a new wording too.
        if any(t.zh == "预钩子" for t in glossary):
            for m in re.finditer(r"[前置]钩子", bare):
                if not any(a < m.end() and b > m.start() for a, b in flagged):
                    problems.append(
                        Problem(
                            "glossary",
                            number,
                            f"“{m.group(0)}”: a pre-hook is “预钩子”, a post-hook “后钩子” / "
                            "预钩子写作“预钩子”，后钩子写作“后钩子”",
                        )
                    )
    return problems


def _docstring_lines(tree: ast.Module) -> list[tuple[int, str]]:
    r"""Every docstring line of a file, with its source line. / 文件中所有文档字符串的每一行及其行号。

    === "中文"

        包括模块、类和函数的文档字符串，供术语检查使用。

    === "English"

        Module, class and function docstrings alike, for the glossary check.

    Args:
        tree: The parsed file. / 解析后的语法树。

    Returns:
        `(line number, text)` pairs. / `(行号, 文字)` 列表。
    """
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                doc = _Docstring(body[0].value)
                lines += [(doc.lineno(i), line) for i, line in enumerate(doc.lines)]
    return lines


def _line_kinds(source: str, tree: ast.Module) -> dict[int, str]:
    r"""What each line is, for the unannotated-run measure. / 每一行的类别，供“连续无注释代码”统计使用。

    === "中文"

        `"note"`：`# 中:` / `# EN:` 注释块里的行（包括缩进的续行）；`"code"`：含有代码记号
        的行（多行字符串的每一行都算）；文档字符串的行、空行和普通注释都不出现在结果里。
        用 `tokenize` 而不是正则表达式，字符串里的 `#` 不会被当成注释。

    === "English"

        `"note"`: a line of a `# 中:` / `# EN:` block (indented continuation lines included);
        `"code"`: a line holding a code token (every line of a multi-line string counts). Docstring
        lines, blank lines and plain comments are left out. Tokenizing keeps a `#` inside a string
        from being taken for a comment.

    Args:
        source: Python source text. / Python 源代码。
        tree: The parsed source. / 解析后的语法树。

    Returns:
        Line number → `"note"` or `"code"`. / 行号 → `"note"` 或 `"code"`。
    """
    docstring = {number for number, _ in _docstring_lines(tree)}
    kinds: dict[int, str] = {}
    previous_note = 0
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            text = token.string.strip()
            tagged = text.startswith((ZH_TAG, EN_TAG))
            continues = previous_note == token.start[0] - 1 and re.match(r"#\s{2,}\S", text)
            if tagged or continues:
                kinds[token.start[0]] = "note"
                previous_note = token.start[0]
        elif token.type not in skip and token.type != tokenize.ENDMARKER:
            for number in range(token.start[0], token.end[0] + 1):
                if number not in docstring:
                    kinds.setdefault(number, "code")
    return kinds


def longest_unannotated_run(
    node: ast.AST, kinds: dict[int, str], nested: list[ast.AST]
) -> tuple[int, int]:
    r"""The longest run of code lines without a note in one definition's body. / 一个定义体内最长的无注释代码段。

    === "中文"

        只看定义体本身：签名和文档字符串不算；嵌套的函数和类有各自的记录，它们的范围
        在这里把连续段截断。空行和普通注释不打断连续段，`# 中:`/`# EN:` 注释块把计数清零。

    === "English"

        Only the body counts: neither the signature nor the docstring. Nested functions and
        classes have records of their own, and their spans cut the run here. Blank lines and plain
        comments do not break a run; a `# 中:`/`# EN:` block resets it.

    Args:
        node: A def or class node. / 函数或类节点。
        kinds: The result of `_line_kinds`. / `_line_kinds` 的结果。
        nested: Definitions directly inside it. / 直接嵌套在其中的定义。

    Returns:
        `(length, first line)`; `(0, 0)` for a body without code. / `(行数, 起始行)`；没有代码时为 `(0, 0)`。
    """
    cuts = set()
    for child in nested:
        start = min([child.lineno] + [d.lineno for d in child.decorator_list])
        cuts.update(range(start, child.end_lineno + 1))
    best, best_start, run, start = 0, 0, 0, 0
    # 中: 从第一条语句（通常是文档字符串）开始数：签名不算，文档字符串的行已被 `kinds` 排除。
    # EN: Count from the first statement (usually the docstring): the signature does not count,
    # EN: and `kinds` already leaves docstring lines out.
    for number in range(node.body[0].lineno, node.end_lineno + 1):
        if number in cuts:
            run = 0
            continue
        kind = kinds.get(number)
        if kind == "note":
            run = 0
        elif kind == "code":
            if run == 0:
                start = number
            run += 1
            if run > best:
                best, best_start = run, start
    return best, best_start


CODE_SPAN = re.compile(r"`([^`]+)`")
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")


def facts(text: str) -> tuple[frozenset[str], frozenset[str]]:
    r"""The inline code and the numbers a text cites. / 一段文字引用的行内代码与数字。

    === "中文"

        两种语言讲同样的事实时，引用的 `代码` 和数字应当相同；这是检查“内容一致”的一个
        便宜的替代指标。数字只数代码之外的、独立的数字（`conv2d` 里的 2 不算）。

    === "English"

        Two languages that state the same facts cite the same `code` and numbers; this is a cheap
        proxy for "the same content". Numbers count outside code, standing alone (the 2 of
        `conv2d` does not count).

    Args:
        text: Prose with inline code. / 含行内代码的文字。

    Returns:
        `(code spans, numbers)`. / `(行内代码集合, 数字集合)`。
    """
    code = frozenset(span.strip() for span in CODE_SPAN.findall(text))
    numbers = frozenset(NUMBER.findall(CODE_SPAN.sub(" ", text)))
    return code, numbers


def mismatch(zh: str, en: str) -> str | None:
    r"""How two language versions differ in what they cite, or None. / 两种语言版本引用内容的差别，没有差别时为 None。

    === "中文"

        只比较集合（顺序、次数不论），报告只在一边出现的代码和数字。

    === "English"

        Compares sets only (order and repetition aside) and names what appears on one side only.

    Args:
        zh: The Chinese text. / 中文文字。
        en: The English text. / 英文文字。

    Returns:
        A message, or None when both cite the same. / 说明文字；两边一致时为 None。
    """
    zh_code, zh_numbers = facts(zh)
    en_code, en_numbers = facts(en)
    parts = []
    for label, only_zh, only_en in (
        ("code", zh_code - en_code, en_code - zh_code),
        ("numbers", zh_numbers - en_numbers, en_numbers - zh_numbers),
    ):
        if only_zh:
            parts.append(f"{label} only in 中文: {', '.join(sorted(only_zh))}")
        if only_en:
            parts.append(f"{label} only in English: {', '.join(sorted(only_en))}")
    return "; ".join(parts) or None


def language_mismatches(node: ast.AST) -> list[Problem]:
    r"""Docstring parts whose two languages cite different code or numbers. / 两种语言引用的代码或数字不一致的文档字符串部分。

    === "中文"

        比较三处：首行的两半、两个标签页的全文、`Args:` 等小节里每一条的两半。

    === "English"

        Compares three places: the two halves of the summary line, the two tabs as wholes, and the
        two halves of each item of `Args:` and the other sections.

    Args:
        node: A def or class node. / 函数或类节点。

    Returns:
        One `lang-mismatch` problem per place that differs. / 每处不一致一个 `lang-mismatch` 问题。
    """
    raw = ast.get_docstring(node, clean=False)
    if not raw:
        return []
    doc = _Docstring(node.body[0].value)
    problems = []

    def compare(index: int, zh: str, en: str, where: str) -> None:
        r"""Record a problem when two texts cite different things. / 两段文字引用的内容不同时记录问题。

        === "中文"

            问题的行号取该部分在文档字符串中的起始行。

        === "English"

            The problem's line is where that part of the docstring starts.

        Args:
            index: Line index in the docstring. / 在文档字符串中的行索引。
            zh: The Chinese text. / 中文文字。
            en: The English text. / 英文文字。
            where: Which part, for the message. / 哪一部分，用于说明。
        """
        found = mismatch(zh, en)
        if found:
            problems.append(Problem("lang-mismatch", doc.lineno(index), f"{where}: {found}"))

    summary = doc.lines[0].strip() if doc.lines else ""
    if " / " in summary:
        english, _, chinese = summary.rpartition(" / ")
        compare(0, chinese, english, "summary line")
    blocks = doc.blocks()
    tabs = {b.title: b for b in blocks if b.kind == "tab"}
    if "中文" in tabs and "English" in tabs:
        zh = "\n".join(line for _, line in tabs["中文"].body)
        en = "\n".join(line for _, line in tabs["English"].body)
        compare(tabs["中文"].start, zh, en, "the two tabs")
    for section in (b for b in blocks if b.kind == "section"):
        if section.title in ARGS_SECTIONS or section.title in ITEM_SECTIONS:
            for index, name, text in _section_items(section):
                if " / " in text:
                    english, _, chinese = text.rpartition(" / ")
                    compare(index, chinese, english, f"{section.title} `{name}`")
    return problems


def _is_overload(node: ast.AST) -> bool:
    r"""Whether a def is an `@overload` stub. / 判断一个定义是否是 `@overload` 桩函数。

    === "中文"

        `@overload` 与 `@typing.overload` 两种写法都认。桩函数只有类型信息，不需要注释。

    === "English"

        Both `@overload` and `@typing.overload` count. Stubs only carry types and need no
        commentary.

    Args:
        node: A definition node. / 定义节点。

    Returns:
        True for an overload stub. / 是桩函数时返回 True。
    """
    for decorator in getattr(node, "decorator_list", []):
        name = (
            decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
        )
        if name == "overload":
            return True
    return False


def _direct_children(node: ast.AST) -> list[ast.AST]:
    r"""Definitions directly inside one definition. / 直接位于某个定义内部的定义。

    === "中文"

        穿过 `if`/`try`/`with` 等语句块，但不进入更深一层的定义。

    === "English"

        Looks through `if`/`try`/`with` blocks, but not into a deeper definition.

    Args:
        node: A def or class node. / 函数或类节点。

    Returns:
        The nested definition nodes. / 嵌套定义的节点。
    """
    found = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(child)
        else:
            stack.extend(ast.iter_child_nodes(child))
    return found


def _definitions(tree: ast.Module) -> list[tuple[ast.AST, str, str]]:
    r"""Every def and class of a file with its qualname and kind. / 文件中每个定义及其限定名和种类。

    === "中文"

        递归进入类体、函数体以及 `if`/`try` 等语句块，嵌套定义的限定名与 Python 的
        `__qualname__` 相同（函数内部的定义带 `<locals>`）。`@overload` 桩函数被跳过。

    === "English"

        Recurses into class bodies, function bodies and `if`/`try` blocks; nested qualnames
        follow Python's `__qualname__` (defs inside a function get `<locals>`). `@overload` stubs
        are skipped.

    Args:
        tree: The parsed file. / 解析后的语法树。

    Returns:
        `(node, qualname, kind)` in source order. / 按源代码顺序排列的 `(节点, 限定名, 种类)`。
    """
    found: list[tuple[ast.AST, str, str]] = []

    def visit(parent: ast.AST, prefix: str, in_class: bool) -> None:
        r"""Walk the children of one node. / 遍历一个节点的子节点。

        === "中文"

            遇到定义就记录下来，再以它为前缀继续向里走；其他语句只是透明地向下遍历。

        === "English"

            A definition is recorded, then walked into with itself as the prefix; any other
            statement is walked through transparently.

        Args:
            parent: The node whose children are walked. / 要遍历其子节点的节点。
            prefix: Qualname prefix, e.g. `Module.`. / 限定名前缀，例如 `Module.`。
            in_class: Whether defs here are methods. / 此处的函数是否为方法。
        """
        for node in ast.iter_child_nodes(parent):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if _is_overload(node):
                    continue
                qualname = prefix + node.name
                is_class = isinstance(node, ast.ClassDef)
                kind = "class" if is_class else ("method" if in_class else "function")
                found.append((node, qualname, kind))
                visit(node, qualname + ("." if is_class else ".<locals>."), is_class)
            else:
                visit(node, prefix, in_class)

    visit(tree, "", False)
    return found


@dataclass
class FileReport:
    r"""Everything the checker finds in one file. / 检查器在一个文件中得到的全部结果。

    === "中文"

        `records` 的第一条总是该文件的模块记录，其余按源代码顺序排列。

    === "English"

        The first of `records` is always the file's module record; the rest follow source order.

    Attributes:
        records: Module record, then one per def. / 模块记录，以及每个定义一条记录。
        pairs: The `# 中:`/`# EN:` pairs. / 注释对。
        diffs: The DIFF markers. / DIFF 标记。
    """

    records: list[Record]
    pairs: list[CommentPair]
    diffs: list[DiffMarker]


def check_source(
    source: str,
    file: str = "<string>",
    module: str = "",
    glossary: list[Term] | None = None,
    spelling: list[Spelling] | None = None,
) -> FileReport:
    r"""Check one source text. / 检查一段源代码。

    === "中文"

        先逐个检查定义的文档字符串，再做按行号的检查（注释配对、DIFF 标记、术语），
        把这些问题归到包含该行的最内层定义上；不在任何定义里的归到模块记录。

    === "English"

        Checks each definition's docstring, then the line-based checks (comment pairs, DIFF
        markers, glossary words), whose problems go to the innermost definition containing the
        line, or to the module record when no definition contains it.

    Args:
        source: Python source text. / Python 源代码。
        file: Path shown in reports. / 报告中显示的路径。
        module: Dotted module name. / 点号分隔的模块名。
        glossary: Terms to enforce; None for none. / 要执行的术语表，None 表示不检查。
        spelling: Spelling rules; None for none. / 拼写规则，None 表示不检查。

    Returns:
        The file's records, pairs and markers. / 该文件的记录、注释对与 DIFF 标记。
    """
    module_record = Record(file, 1, module, "<module>", "module")
    try:
        tree = ast.parse(source)
        comments = _comments(source)
    except (SyntaxError, tokenize.TokenError) as error:
        line = getattr(error, "lineno", None) or 1
        module_record.problems.append(Problem("syntax", line, str(error)))
        return FileReport([module_record], [], [])

    records = [module_record]
    spans = []
    kinds = _line_kinds(source, tree)
    core = is_core_file(file)
    for node, qualname, kind in _definitions(tree):
        record = Record(file, node.lineno, module, qualname, kind, check_docstring(node))
        record.longest_run, record.longest_run_line = longest_unannotated_run(
            node, kinds, _direct_children(node)
        )
        if core:
            record.problems += language_mismatches(node)
        if core and record.longest_run > MAX_UNANNOTATED_RUN:
            record.problems.append(
                Problem(
                    "unannotated-run",
                    record.longest_run_line,
                    f"{record.longest_run} code lines without a `# 中:`/`# EN:` note "
                    f"(at most {MAX_UNANNOTATED_RUN} in a core file)",
                )
            )
        records.append(record)
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        spans.append((start, node.end_lineno, record))

    def owner(line: int) -> Record:
        r"""The innermost record whose definition contains a line. / 包含某一行的最内层定义的记录。

        === "中文"

            起始行最大的那个包含区间就是最内层的定义。

        === "English"

            Of the spans containing the line, the one starting last is the innermost.

        Args:
            line: A source line. / 源代码行号。

        Returns:
            A def record, or the module record. / 定义的记录，或模块记录。
        """
        inside = [(start, record) for start, end, record in spans if start <= line <= end]
        return max(inside, key=lambda pair: pair[0])[1] if inside else module_record

    pairs, line_problems = pair_comments(comments, file)
    if core:
        for pair in pairs:
            found = mismatch(pair.zh, pair.en) if pair.en_line else None
            if found:
                line_problems.append(Problem("lang-mismatch", pair.line, f"note pair: {found}"))
    diffs = []
    for line, text in _diff_blocks(comments, pairs):
        body = DIFF_MARKER.sub(" ", text)
        if count_cjk(body) < 2 or len(WORD.findall(body)) < 2:
            line_problems.append(
                Problem("diff-marker", line, "explain the DIFF marker in both languages")
            )
        diffs.append(DiffMarker(file, line, owner(line).qualname, text))
    texts = _docstring_lines(tree) + [(c.line, c.text) for c in comments]
    line_problems += _glossary_problems(texts, glossary or [])
    line_problems += _spelling_problems(texts, spelling or [])
    for problem in line_problems:
        owner(problem.line).problems.append(problem)
    for record in records:
        record.problems.sort(key=lambda p: (p.line, p.kind))
    return FileReport(records, pairs, diffs)


def source_files(root: Path) -> list[tuple[Path, str]]:
    r"""The files to check, with their module names. / 要检查的文件及其模块名。

    === "中文"

        模块名由相对 `annotated_src` 的路径得到，`__init__.py` 对应包本身。

    === "English"

        Module names come from the path below `annotated_src`; `__init__.py` stands for the
        package itself.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        `(path, module name)` pairs, sorted by path. / 按路径排序的 `(路径, 模块名)`。
    """
    files = []
    for package in PACKAGE_DIRS:
        directory = root / package
        if not directory.is_dir():
            continue
        for path in sorted(directory.rglob("*.py")):
            parts = list(path.relative_to(directory.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files.append((path, ".".join(parts)))
    return files


def _default_glossary(root: Path) -> list[Term]:
    r"""The glossary to use for a project root. / 某个项目根目录应使用的术语表。

    === "中文"

        优先用 `root` 下的 docs/glossary.yml；没有时（例如测试用的临时目录）用本仓库自己的。

    === "English"

        Prefers `root`'s docs/glossary.yml and falls back to this repository's own (e.g. for a
        temporary directory in the tests).

    Args:
        root: The project root. / 项目根目录。

    Returns:
        The terms, or an empty list when no file exists. / 术语列表；找不到文件时为空。
    """
    for path in (root / GLOSSARY_FILE, PROJECT_ROOT / GLOSSARY_FILE):
        if path.is_file():
            return load_glossary(path)
    return []


def check_project(root: Path, glossary: list[Term] | None = None) -> list[FileReport]:
    r"""Check every file of a project. / 检查项目中的每个文件。

    === "中文"

        `collect`、`comment_pairs` 和 `diff_markers` 都建立在它之上。

    === "English"

        `collect`, `comment_pairs` and `diff_markers` are built on it.

    Args:
        root: The project root. / 项目根目录。
        glossary: Terms to enforce; None loads the default. / 术语表；None 表示读取默认文件。

    Returns:
        One report per file. / 每个文件一份结果。
    """
    root = Path(root)
    terms = _default_glossary(root) if glossary is None else glossary
    spelling = _default_spelling(root) if glossary is None else []
    reports = []
    for path, module in source_files(root):
        file = path.relative_to(root).as_posix()
        reports.append(
            check_source(path.read_text(encoding="utf-8"), file, module, terms, spelling)
        )
    for path in sorted((root / "docs").rglob("*.md")) if glossary is None else []:
        reports.append(check_page(path, root, terms, spelling))
    by_file = {report.records[0].file: report for report in reports}
    for file, line, problem in book_problems(root) if glossary is None else []:
        report = by_file[file]
        owner = next((r for r in report.records[1:] if r.line == line), report.records[0])
        owner.problems.append(problem)
    return reports


DIRECTIVE = re.compile(r"^:::\s+((?:annotated_nn|annotated_optim|annotated_examples)[\w.]*)\s*$")


def book_directives(root: Path) -> dict[str, tuple[str, dict]]:
    r"""Every `::: path` directive of the book, with its page and options. / 书中每条 `::: 路径` 指令及其页面与选项。

    === "中文"

        选项是指令下方缩进的 YAML（`options:` 之下），例如 `members: false`、`filters: []`。

    === "English"

        The options are the indented YAML below a directive (under `options:`), such as
        `members: false` or `filters: []`.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        Dotted path → (docs page, options). / 点号路径 → (docs 页面, 选项)。
    """
    import yaml

    found: dict[str, tuple[str, dict]] = {}
    for page in sorted((root / "docs").rglob("*.md")):
        lines = page.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            match = DIRECTIVE.match(line)
            if not match:
                continue
            block = []
            for following in lines[index + 1 :]:
                if following.strip() and not following.startswith("    "):
                    break
                block.append(following[4:])
            data = yaml.safe_load("\n".join(block)) or {}
            options = data.get("options", {}) if isinstance(data, dict) else {}
            found[match.group(1)] = (page.relative_to(root).as_posix(), options or {})
    return found


def _rendered_by(path: str, directives: dict[str, tuple[str, dict]]) -> bool:
    r"""Whether some directive renders a dotted path. / 是否有某条指令会渲染这个点号路径。

    === "中文"

        自己有指令，或者所在的类有指令且没有 `members: false`：默认过滤掉单下划线开头的私有成员
        （mkdocstrings 的默认 `filters`），`filters: []` 时全部渲染。

    === "English"

        Its own directive, or its class's directive without `members: false`: by default private
        members (one leading underscore, mkdocstrings' default `filters`) are left out;
        `filters: []` renders them all.

    Args:
        path: A dotted path. / 点号路径。
        directives: The result of `book_directives`. / `book_directives` 的结果。

    Returns:
        True when it is rendered. / 会被渲染时返回 True。
    """
    if path in directives:
        return True
    owner, _, name = path.rpartition(".")
    if owner not in directives:
        return False
    options = directives[owner][1]
    if options.get("members") is False:
        return False
    if isinstance(options.get("members"), list):
        return name in options["members"]
    private = bool(re.match(r"^_[^_]", name))
    return not private or options.get("filters") == []


def book_problems(root: Path) -> list[tuple[str, int, Problem]]:
    r"""Defs and classes the book does not render, with where to add them. / 书中没有渲染的定义，以及该加在哪里。

    === "中文"

        与书的测试用同样的对象清单：模块顶层的函数与类，以及类里的方法与嵌套类（函数内部的嵌套
        定义在所属函数的代码清单里，不单独渲染）。建议的章节是已经渲染同一个类或同一个模块的那一章。

    === "English"

        The same objects as the book's test: module-level functions and classes, and the methods
        and nested classes of a class (defs nested in a function appear in its listing and are not
        rendered on their own). The suggested chapter is the one that already renders the same
        class or module.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        `(file, line, problem)` triples. / `(文件, 行号, 问题)` 三元组。
    """
    directives = book_directives(root)
    if not directives:
        return []
    pages_by_prefix: dict[str, str] = {}
    for path, (page, _) in directives.items():
        for cut in range(path.count(".") + 1):
            pages_by_prefix.setdefault(path.rsplit(".", cut)[0] if cut else path, page)
    problems = []
    for file, module in source_files(root):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            members = [node] + [
                m
                for m in (node.body if isinstance(node, ast.ClassDef) else [])
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            ]
            for member in members:
                if _is_overload(member):
                    continue
                qualname = node.name if member is node else f"{node.name}.{member.name}"
                path = f"{module}.{qualname}"
                if _rendered_by(path, directives):
                    continue
                owner = path.rsplit(".", 1)[0]
                page = (
                    pages_by_prefix.get(owner) or pages_by_prefix.get(module) or "docs/chapters/…"
                )
                problems.append(
                    (
                        file.relative_to(root).as_posix(),
                        member.lineno,
                        Problem(
                            "not-in-book",
                            member.lineno,
                            f"no chapter renders `{path}`: add `::: {path}` to {page}",
                        ),
                    )
                )
    return problems


def _default_spelling(root: Path) -> list[Spelling]:
    r"""The spelling rules for a project root. / 某个项目根目录应使用的拼写规则。

    === "中文"

        与术语表一样，优先用 `root` 下的 docs/glossary.yml。

    === "English"

        Like the glossary, prefers `root`'s docs/glossary.yml.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        The rules, or an empty list. / 规则；没有时为空列表。
    """
    for path in (root / GLOSSARY_FILE, PROJECT_ROOT / GLOSSARY_FILE):
        if path.is_file():
            return load_spelling(path)
    return []


def check_page(
    path: Path, root: Path, glossary: list[Term], spelling: list[Spelling]
) -> FileReport:
    r"""Check one page of the book for glossary words and spelling. / 检查书中一页的术语与拼写。

    === "中文"

        书页不是代码，只做逐行的术语与拼写检查；代码块（```` ``` ```` 之间）与行内代码跳过。

    === "English"

        A page is not code: only the line-based glossary and spelling checks apply; fenced code
        blocks and inline code are skipped.

    Args:
        path: The Markdown file. / Markdown 文件。
        root: The project root. / 项目根目录。
        glossary: Terms to enforce. / 术语表。
        spelling: Spelling rules. / 拼写规则。

    Returns:
        A report with one page record. / 只含一条页面记录的结果。
    """
    file = path.relative_to(root).as_posix()
    record = Record(file, 1, "", "<page>", "module")
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    record.problems = sorted(
        _glossary_problems(lines, glossary) + _spelling_problems(lines, spelling),
        key=lambda p: (p.line, p.kind),
    )
    return FileReport([record], [], [])


def collect(root: Path, glossary: list[Term] | None = None) -> list[Record]:
    r"""Check a project and return one record per def, class and file. / 检查项目，为每个定义、类和文件返回一条记录。

    === "中文"

        这是覆盖率页面使用的接口。每个定义一条记录；某个文件在所有定义之外还有问题时，
        另加一条 `kind == "module"` 的记录，统计“定义”时应把它排除。

    === "English"

        This is the API for the coverage page: one record per definition, plus a record of kind
        `"module"` for a file that has problems outside every definition; leave those out when
        counting definitions.

    Args:
        root: The project root. / 项目根目录。
        glossary: Terms to enforce; None loads the default. / 术语表；None 表示读取默认文件。

    Returns:
        All records, file by file. / 按文件排列的全部记录。
    """
    return [
        record
        for report in check_project(root, glossary)
        for record in report.records
        if record.kind != "module" or record.problems
    ]


def comment_pairs(root: Path) -> list[CommentPair]:
    r"""All `# 中:`/`# EN:` comment pairs of a project. / 项目中所有 `# 中:`/`# EN:` 注释对。

    === "中文"

        未配对的 `# 中:` 块也在其中，其 `en_line` 为 None。

    === "English"

        Unpaired `# 中:` blocks are included, with `en_line=None`.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        The pairs, file by file. / 按文件排列的注释对。
    """
    return [pair for report in check_project(root, []) for pair in report.pairs]


def diff_markers(root: Path) -> list[DiffMarker]:
    r"""All DIFF markers of a project, for the book's ledger. / 项目中所有 DIFF 标记，供书中的差异清单使用。

    === "中文"

        每个标记附带它所在注释块的文字和最内层定义的限定名。

    === "English"

        Each marker comes with the text of its comment block and the innermost definition's
        qualname.

    Args:
        root: The project root. / 项目根目录。

    Returns:
        The markers, file by file. / 按文件排列的 DIFF 标记。
    """
    return [marker for report in check_project(root, []) for marker in report.diffs]


# 中: 每类问题怎么改，两种语言各一句；报告在每条问题下面给出。
# EN: How to fix each kind of problem, in both languages; the report prints it under each problem.
HINTS: dict[str, tuple[str, str]] = {
    "syntax": ("fix the Python syntax error first", "先修好 Python 语法错误"),
    "docstring": (
        'add a docstring: `English. / 中文。`, then `=== "中文"` and `=== "English"` tabs',
        '加上文档字符串：首行 `English. / 中文。`，再写 `=== "中文"` 与 `=== "English"` 两个标签页',
    ),
    "summary": (
        "write the first line as `English summary. / 中文摘要。`",
        "第一行写成 `English summary. / 中文摘要。`",
    ),
    "tabs": (
        'add `=== "中文"`, then `=== "English"`, at the docstring\'s indentation',
        '在文档字符串的缩进层级先写 `=== "中文"`，再写 `=== "English"`',
    ),
    "zh-tab": ("write the Chinese text in the 中文 tab", "在中文标签页里写中文说明"),
    "en-tab": ("write the English text in the English tab", "在 English 标签页里写英文说明"),
    "section-in-tab": (
        "move the section out of the tab, back to the docstring's own indentation",
        "把这一小节移出标签页，回到文档字符串本身的缩进层级",
    ),
    "args-missing": ("add the parameter to `Args:`", "把这个参数写进 `Args:`"),
    "args-unknown": (
        "remove the entry, or rename it to a real parameter",
        "删掉这一条，或改成签名里真有的参数名",
    ),
    "args-lang": ("write the item as `English. / 中文。`", "把这一条写成 `English. / 中文。`"),
    "item-lang": ("write the item as `English. / 中文。`", "把这一条写成 `English. / 中文。`"),
    "comment-pair": (
        "put the `# EN:` lines right below the `# 中:` lines they translate",
        "在 `# 中:` 各行的正下方写对应的 `# EN:` 各行",
    ),
    "comment-tag": (
        "spell the prefix exactly `# 中:` or `# EN:`",
        "前缀只能写成 `# 中:` 或 `# EN:`",
    ),
    "comment-lang": (
        "Chinese goes after `# 中:`, English after `# EN:`",
        "`# 中:` 后写中文，`# EN:` 后写英文",
    ),
    "diff-marker": (
        "explain the DIFF marker in a `# 中:` and an `# EN:` block right below it",
        "在 DIFF 标记下面用 `# 中:` 和 `# EN:` 两段说明",
    ),
    "glossary": (
        "use the glossary's term (docs/glossary.yml); quote a foreign wording in “” if you must",
        "改用术语表里的译名（docs/glossary.yml）；确需引用别处的说法时放进“”",
    ),
    "spelling": (
        "use the American spelling (docs/glossary.yml, spelling_en)",
        "改用美式拼写（docs/glossary.yml 的 spelling_en）",
    ),
    "lang-mismatch": (
        "make both languages cite the same `code` and the same digits (write 2, not 二)",
        "让两种语言引用相同的 `代码` 和相同的数字（写 2，不写“二”）",
    ),
    "not-in-book": (
        "add the `::: path` line the message names to that chapter (CONTRIBUTING: a new def)",
        "把消息里写的 `::: 路径` 一行加到那一章（见 CONTRIBUTING：新增定义）",
    ),
    "unannotated-run": (
        "add a `# 中:` / `# EN:` note above a block of these lines (why it is there)",
        "在这几行中的一段代码上方加一对 `# 中:` / `# EN:` 注释（说明它为什么这样写）",
    ),
}

# 中: 一个根本原因会引出的连带问题：Google 小节写进标签页后，它不被解析，于是参数显得“缺失”，
# 中: 标签页的文字也可能显得不够；这些问题折叠在根本原因之下，不单独列出。
# EN: Knock-on problems of one root cause: a Google section inside a tab is not parsed, so its
# EN: parameters look "missing" and the tab's text may look too short; they are folded under the
# EN: root cause instead of listed on their own.
KNOCK_ON = {"section-in-tab": {"args-missing", "args-unknown", "en-tab", "zh-tab"}}


def _fold(problems: list[Problem]) -> list[tuple[Problem, list[Problem]]]:
    r"""Group one record's problems under their root causes. / 把一条记录的问题归到各自的根本原因之下。

    === "中文"

        有根本原因（见 `KNOCK_ON`）时，它引出的那几类问题放进它的“连带”列表；其余问题各自独立。

    === "English"

        When a root cause (see `KNOCK_ON`) is present, the kinds it causes go into its
        "knock-on" list; every other problem stands alone.

    Args:
        problems: One record's problems. / 一条记录的问题。

    Returns:
        `(problem, knock-on problems)` pairs. / `(问题, 连带问题)` 列表。
    """
    roots = [p for p in problems if p.kind in KNOCK_ON]
    caused = {kind for root in roots for kind in KNOCK_ON[root.kind]}
    out = []
    for problem in problems:
        if roots and problem.kind in caused:
            continue
        knock_on = [p for p in problems if p.kind in KNOCK_ON.get(problem.kind, ())]
        out.append((problem, knock_on))
    return out


def format_report(reports: list[FileReport]) -> tuple[str, int]:
    r"""Render the terminal report. / 生成终端输出的报告。

    === "中文"

        先逐条列出问题（`文件:行号: 类别: 说明 [限定名]`，编辑器可以直接跳转），每条下面给出
        两种语言的修改提示，连带问题折叠在根本原因下；再列出有问题的文件，其余文件只用一行汇总，
        最后是按类别的计数与结论，所以结论总在最后几行。

    === "English"

        Lists each problem first (`file:line: kind: message [qualname]`, which editors can jump
        to) with a fix hint in both languages below it, knock-on problems folded under their root
        cause; then the files with problems, one summary line for the rest, and the counts by
        kind and the verdict, so the verdict is always at the bottom.

    Args:
        reports: Results of `check_project`. / `check_project` 的结果。

    Returns:
        The text and the total number of problems. / 报告文字与问题总数。
    """
    out = []
    by_kind: Counter[str] = Counter()
    rows = []
    for report in reports:
        defs = [r for r in report.records if r.kind != "module"]
        count = 0
        listed = []
        for record in report.records:
            for problem, knock_on in _fold(record.problems):
                listed.append((problem, knock_on, record))
        for problem, knock_on, record in sorted(listed, key=lambda x: (x[0].line, x[0].kind)):
            where = f" [{record.qualname}]" if record.kind != "module" else ""
            out.append(f"{record.file}:{problem.line}: {problem.kind}: {problem.message}{where}")
            english, chinese = HINTS.get(problem.kind, ("", ""))
            if english:
                out.append(f"    fix: {english} / 修改：{chinese}")
            for other in knock_on:
                out.append(f"    (follows from it / 由此引起) line {other.line}: {other.kind}")
            by_kind[problem.kind] += 1
            count += 1
        file = report.records[0].file
        rows.append((file, len(defs), sum(r.ok for r in defs), count))

    bad_rows = [row for row in rows if row[3]]
    if out:
        out.append("")
    if bad_rows:
        width = max(len(row[0]) for row in bad_rows)
        out.append(f"{'file':<{width}}  {'defs':>5}  {'OK':>5}  {'problems':>8}")
        for file, defs, ok, count in bad_rows:
            out.append(f"{file:<{width}}  {defs:>5}  {ok:>5}  {count:>8}")
    clean = len(rows) - len(bad_rows)
    out.append(f"{clean} other files clean. / 其余 {clean} 个文件没有问题。")
    total_defs = sum(row[1] for row in rows)
    total_ok = sum(row[2] for row in rows)
    total = sum(row[3] for row in rows)
    if by_kind:
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(by_kind.items()))
        out.append(f"problems by kind / 按类别: {counts}")
    out.append(
        f"annotations: {total_ok}/{total_defs} defs clean, {total} problems. / "
        f"注释检查：{total_defs} 个定义中 {total_ok} 个合格，共 {total} 个问题。"
    )
    return "\n".join(out), total


def main(argv: list[str] | None = None) -> int:
    r"""Command-line entry point. / 命令行入口。

    === "中文"

        没有找到任何源文件时退出码为 2，有问题时为 1，全部合格时为 0。

    === "English"

        Exits with 2 when there is no source file at all, 1 when there are problems, and 0 when
        everything is clean.

    Args:
        argv: Arguments without the program name; None reads `sys.argv`. / 不含程序名的参数列表。

    Returns:
        The exit status. / 退出码。
    """
    parser = argparse.ArgumentParser(
        description="Check annotated_nn's bilingual commentary. / 检查 annotated_nn 的双语注释。"
    )
    parser.add_argument(
        "root", nargs="?", type=Path, default=PROJECT_ROOT, help="project root / 项目根目录"
    )
    args = parser.parse_args(argv)
    reports = check_project(args.root)
    if not reports:
        print(f"annotations: no source files under {args.root} / 没有找到源文件", file=sys.stderr)
        return 2
    text, total = format_report(reports)
    print(text)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
