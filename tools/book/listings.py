"""Annotated listings: source rendered as rows of note | code. / 带注释的代码清单：按“注释 | 代码”分行呈现源码。

The book's main text is the source itself. For every object mkdocstrings renders, the template
(tools/book/templates/python/material/{function,class}.html.jinja) leaves a slot instead of its
folded "source code" block; ``listing_html`` fills it with a listing built here from the ``.py``
file at build time:

- the ``# 中:`` / ``# EN:`` note above a block becomes the left cell of a row, the block the right
  cell (CSS stacks them on a phone); both languages are in the HTML, the reader's choice shows one;
- the object's own docstring is left out: mkdocstrings already rendered it right above, as the
  listing's opening note;
- a class's listing leaves out its methods and nested classes (each has its own heading and
  listing on the page) and shows a linked one-line stub where each stood, so no line of source
  appears twice on a page;
- a nested function's docstring (mkdocstrings does not render nested functions) becomes a note of
  its own, split by language like any other note;
- the file's real line numbers are kept; note lines are simply not shown among the code lines.

Nothing generated here is written to the repository.
"""

from __future__ import annotations

import ast
import html
import re
import tokenize
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import markdown
from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES

ZH_TAG, EN_TAG = "# 中:", "# EN:"
DIFF = re.compile(r"^#\s*DIFF\(torch[ \d.]*\)\s*:?\s*(.*)$")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
TAB = re.compile(r'^(\s*)===\s+"(中文|English)"\s*$')
SECTION = re.compile(r"^\s*[A-Z][A-Za-z ]*:(\s.*)?$")
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

_inline_md = markdown.Markdown(extensions=["md_in_html"])
# The hook replaces this with the page-relative URL of the divergences page.
DIVERGENCES_LINK = "@@book-divergences@@"
# A DIFF badge inside a merged note, before the paragraph it marks (replaced in listing_html).
DIFF_BADGE = "@@book-diff@@"
DIFF_HTML = f'<a class="book-diff" href="{DIVERGENCES_LINK}">DIFF</a>'


@dataclass
class Row:
    """One row of a listing: a note and the code under it. / 清单的一行：一段注释及其下方的代码。"""

    zh: list[str] = field(default_factory=list)
    en: list[str] = field(default_factory=list)
    diff: bool = False
    code: list[tuple[int, str]] = field(default_factory=list)  # (line number, HTML)
    stubs: set[int] = field(default_factory=set)  # lines that stand for a member's own listing

    @property
    def has_note(self) -> bool:
        """Whether the row has a note. / 这一行是否有注释。"""
        return bool(self.zh or self.en)


@lru_cache(maxsize=None)
def _parsed(path: str) -> tuple[list[str], ast.Module, tuple[str, ...]]:
    """Lines, tree and highlighted lines of one file. / 一个文件的源码行、语法树与高亮后的各行。"""
    text = Path(path).read_text(encoding="utf-8")
    return text.splitlines(), ast.parse(text), tuple(_highlight_lines(text))


@lru_cache(maxsize=None)
def _comments_inside_statements(path: str) -> dict[int, int]:
    """Comment lines inside a multi-line statement, mapped to the statement's first line. / 多行语句内部的注释行 → 该语句的首行。"""
    inside: dict[int, int] = {}
    start = None
    with open(path, "rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type in (tokenize.ENCODING, tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
                continue
            if token.type == tokenize.COMMENT:
                if start is not None:
                    inside[token.start[0]] = start
            elif token.type == tokenize.NEWLINE:
                start = None
            elif start is None:
                start = token.start[0]
    return inside


def _row_above(rows: list[Row], statement: int) -> Row:
    """The row that takes a note found inside a statement: one starting at the statement. / 语句内部的注释归入的行：从该语句开始的那一行。

    A note never splits a statement: it attaches above the statement's first line, after the
    note already there (if any), as a paragraph of its own.
    """
    row = rows[-1]
    cut = next((i for i, (number, _) in enumerate(row.code) if number >= statement), len(row.code))
    if cut:
        row = Row(code=row.code[cut:])
        del rows[-1].code[cut:]
        rows.append(row)
    if row.has_note:
        row.zh.append("")
        row.en.append("")
    return row


def _merge_codeless_notes(rows: list[Row]) -> list[Row]:
    """A note with no code under it joins the next row's note. / 下方没有代码的注释并入下一行的注释。

    Two note blocks in a row (a note and a DIFF marker, or a comment above a nested function's
    docstring) explain the same code: one cell, one paragraph each, each DIFF badge before its
    own paragraph. A note after the last line of code joins the row above it.
    """
    out: list[Row] = []
    for row in rows:
        if out and out[-1].has_note and not out[-1].code:
            _join_notes(out.pop(), row)
        out.append(row)
    if len(out) > 1 and not out[-1].code:
        last = out.pop()
        _join_notes(last, out[-1], after=True)
    return out


def _join_notes(first: Row, second: Row, after: bool = False) -> None:
    """Put ``first``'s note before ``second``'s (after it with ``after``), in ``second``. / 把两段注释合进 ``second``。"""
    for part in (first, second):
        if part.diff and part.has_note:
            part.zh[:1] = [DIFF_BADGE + " " + "".join(part.zh[:1]).lstrip()]
            part.en[:1] = [DIFF_BADGE + " " + "".join(part.en[:1]).lstrip()]
            part.diff = False
    gap = [""] if first.has_note and second.has_note else []
    if after:
        second.zh += gap + first.zh
        second.en += gap + first.en
    else:
        second.zh[:0] = first.zh + gap
        second.en[:0] = first.en + gap


def _css_class(token_type) -> str:
    """Pygments' short CSS class of a token type. / Pygments 为某种记号使用的短类名。"""
    while token_type not in STANDARD_TYPES:
        token_type = token_type.parent
    return STANDARD_TYPES[token_type]


def _highlight_lines(text: str) -> list[str]:
    """Highlight a whole file once and cut the HTML into lines. / 整个文件高亮一次，再按行切开。

    Highlighting the whole file keeps multi-line strings right; every line gets its own closed
    spans, so any subset of lines can be shown.
    """
    lines: list[list[str]] = [[]]
    for token_type, value in PythonLexer(stripnl=False, ensurenl=False).get_tokens(text):
        # Spaces and punctuation keep the default color: no span, a lighter page.
        css = _css_class(token_type)
        css = "" if css in ("w", "p") else css
        parts = value.split("\n")
        for index, part in enumerate(parts):
            if index:
                lines.append([])
            if part:
                escaped = html.escape(part, quote=False)
                lines[-1].append(f'<span class="{css}">{escaped}</span>' if css else escaped)
    return ["".join(parts) for parts in lines]


def find_node(tree: ast.Module, qualname: str) -> ast.AST | None:
    """The def/class node of a dotted qualname in a module tree. / 按点号限定名在模块语法树中找到定义节点。"""
    scope: list[ast.AST] = tree.body
    node = None
    for name in qualname.split("."):
        found = [n for n in _walk_defs(scope) if getattr(n, "name", None) == name]
        # The implementation, not an ``@overload`` stub above it (``Module.to``, ``state_dict``).
        real = [
            n for n in found if not any(_is_overload(d) for d in getattr(n, "decorator_list", []))
        ]
        node = (real or found or [None])[0]
        if node is None:
            return None
        scope = node.body
    return node


def _is_overload(decorator: ast.expr) -> bool:
    """``@overload`` or ``@typing.overload``. / 是否为 ``@overload`` 装饰器。"""
    return (isinstance(decorator, ast.Name) and decorator.id == "overload") or (
        isinstance(decorator, ast.Attribute) and decorator.attr == "overload"
    )


def _walk_defs(body: list[ast.AST]):
    """Definitions of a body, looking through if/try blocks. / 一个语句块中的定义（穿过 if/try 块）。"""
    for statement in body:
        if isinstance(statement, DEFS):
            yield statement
        elif isinstance(statement, (ast.If, ast.Try, ast.With)):
            for child in ast.iter_child_nodes(statement):
                if isinstance(child, ast.stmt):
                    yield from _walk_defs([child])
            for handler in getattr(statement, "handlers", []):
                yield from _walk_defs(handler.body)
            yield from _walk_defs(getattr(statement, "orelse", []))
            yield from _walk_defs(getattr(statement, "finalbody", []))


def _docstring_node(node: ast.AST) -> ast.Expr | None:
    """The docstring expression of a def/class, if any. / 定义的文档字符串表达式（若有）。"""
    body = getattr(node, "body", [])
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[0]
    return None


def _start(node: ast.AST) -> int:
    """First line of a definition, decorators included. / 定义的第一行（含装饰器）。"""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def split_docstring(doc: str) -> tuple[str, str]:
    """The Chinese and the English text of a bilingual docstring. / 双语文档字符串的中文与英文部分。

    The summary line ``English. / 中文。`` is cut at its separator; each tab's body goes to its
    language; Google sections (``Args:`` ...) are left out: a nested helper's note keeps the
    story, the listing keeps the code.
    """
    lines = doc.expandtabs().strip("\n").splitlines()
    if not lines:
        return "", ""
    en_summary, zh_summary = split_bilingual_text(lines[0].strip())
    zh, en = [zh_summary], [en_summary]
    current, indent = None, 0
    for line in lines[1:]:
        tab = TAB.match(line)
        if tab:
            current, indent = ("zh" if tab.group(2) == "中文" else "en"), len(tab.group(1))
            continue
        if current and line.strip() and len(line) - len(line.lstrip()) <= indent:
            current = None
        if current is None:
            continue
        (zh if current == "zh" else en).append(line.strip())
    return _join(zh, "zh"), _join(en, "en")


def split_bilingual_text(text: str) -> tuple[str, str]:
    """Cut ``English. / 中文。`` (or ``中文 / English``) into (English, Chinese). / 把双语单行切成（英文, 中文）。"""
    parts = text.split(" / ")
    for cut in range(len(parts) - 1, 0, -1):
        left, right = " / ".join(parts[:cut]), " / ".join(parts[cut:])
        if not CJK.search(_no_code(left)) and CJK.search(_no_code(right)):
            return left, right
    for cut in range(1, len(parts)):
        left, right = " / ".join(parts[:cut]), " / ".join(parts[cut:])
        if CJK.search(_no_code(left)) and not CJK.search(_no_code(right)):
            return right, left
    return text, text


def _no_code(text: str) -> str:
    """Text without its inline code. / 去掉行内代码后的文字。"""
    return re.sub(r"`[^`]*`", "", text)


def _join(lines: list[str], lang: str) -> str:
    """Join wrapped comment lines into one text. / 把折行的注释拼回一段文字。

    Chinese lines join without a space between two CJK characters; a blank line keeps a
    paragraph break.
    """
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            out += "\n\n" if out and not out.endswith("\n\n") else ""
            continue
        if not out or out.endswith("\n\n"):
            out += line
        elif lang == "zh" and CJK.match(line[0]) and CJK.match(out[-1]):
            out += line
        else:
            out += " " + line
    return out.strip()


def _note_html(text: str) -> str:
    """Inline Markdown of a note (code spans, emphasis, links). / 注释的行内 Markdown（代码、强调、链接）。"""
    _inline_md.reset()
    return _inline_md.convert(text)


def build_rows(path: str, module: str, qualname: str) -> tuple[list[Row], ast.AST] | None:
    """The rows of one object's listing. / 一个对象的代码清单的各行。"""
    lines, tree, highlighted = _parsed(path)
    node = find_node(tree, qualname)
    if node is None:
        return None
    hidden: set[int] = set()
    stubs: dict[int, ast.AST] = {}
    notes_at: dict[int, tuple[str, str]] = {}
    own_doc = _docstring_node(node)
    if own_doc is not None:
        hidden.update(range(own_doc.lineno, own_doc.end_lineno + 1))
    if isinstance(node, ast.ClassDef):
        # Members with their own heading on the page: one stub line each.
        for member in _walk_defs(node.body):
            stubs[_start(member)] = member
            hidden.update(range(_start(member), member.end_lineno + 1))
    for inner in ast.walk(node):
        if inner is node or not isinstance(inner, DEFS) or _start(inner) in stubs:
            continue
        if any(_start(s) <= inner.lineno <= s.end_lineno for s in stubs.values()):
            continue
        doc = _docstring_node(inner)
        if doc is not None:
            hidden.update(range(doc.lineno, doc.end_lineno + 1))
            notes_at[_start(inner)] = split_docstring(doc.value.value)

    rows: list[Row] = [Row()]
    state = None  # "diff", "zh" or "en" while inside a note block
    inside = _comments_inside_statements(path)
    for number in range(_start(node), node.end_lineno + 1):
        if number in stubs:
            rows[-1].code.append((number, _stub_html(lines, stubs[number], module, qualname)))
            rows[-1].stubs.add(number)
            continue
        if number in hidden:
            continue
        if number in notes_at:
            zh, en = notes_at[number]
            rows.append(Row(zh=[zh], en=[en]))
        stripped = lines[number - 1].strip()
        diff = DIFF.match(stripped)
        if diff:
            # A DIFF marker opens a note; its explanation follows on the same or the next lines.
            if number in inside:
                row = _row_above(rows, inside[number])
                if row.has_note:  # a badge before this paragraph, not before the whole note
                    row.zh.append(DIFF_BADGE)
                    row.en.append(DIFF_BADGE)
                else:
                    row.diff = True
            else:
                rows.append(Row(diff=True))
            rest = diff.group(1)
            stripped, state = rest, "diff"
            if not rest:
                continue
        if stripped.startswith("中:") or stripped.startswith(ZH_TAG):
            if state not in ("diff", "zh"):
                if number in inside:
                    _row_above(rows, inside[number])
                else:
                    rows.append(Row())
            rows[-1].zh.append(stripped.split(":", 1)[1])
            state = "zh"
        elif stripped.startswith("EN:") or stripped.startswith(EN_TAG):
            rows[-1].en.append(stripped.split(":", 1)[1])
            state = "en"
        elif state in ("zh", "en") and re.match(r"#\s{2,}\S", stripped):
            (rows[-1].zh if state == "zh" else rows[-1].en).append(stripped[1:])
        else:
            state = None
            rows[-1].code.append((number, highlighted[number - 1]))
    for row in rows:
        while row.code and not lines[row.code[-1][0] - 1].strip():
            row.code.pop()
        while row.code and not lines[row.code[0][0] - 1].strip():
            row.code.pop(0)
    return _merge_codeless_notes([row for row in rows if row.code or row.has_note]), node


def _stub_html(lines: list[str], member: ast.AST, module: str, owner: str) -> str:
    """A member's first line, linked to its own listing. / 成员的第一行，链接到它自己的清单。"""
    line = lines[member.lineno - 1]
    indent = len(line) - len(line.lstrip())
    target = html.escape(f"{module}.{owner}.{member.name}")
    text = html.escape(line.strip() + " …", quote=False)
    return (
        " " * indent
        + f'<autoref identifier="{target}" optional><span class="book-stub">{text}</span></autoref>'
    )


def row_anchor(row: Row, lines: list[str], prefix: str) -> str:
    """The stable anchor of one row. / 一行的稳定锚点。

    The object's qualified name, then the first six words (identifiers, keywords, numbers) of the
    row's code, read from its first line on: ``Module._call_impl--if-not-self-_backward_hooks-or-self``.
    It does not move when lines are added above (a line number would), nor when a note is
    reworded or read in the other language; it changes only when the row's first code changes.
    A row without code takes the first words of its English note. A repeat on the same listing
    gets ``-2``, ``-3``.
    """
    texts = [lines[number - 1] for number, _ in row.code] or [_join(row.en, "en")]
    words: list[str] = []
    for text in texts:
        words += re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+", text)
        if len(words) >= 6:
            break
    return prefix + "--" + ("-".join(words[:6]) or "row")


def _code_line(number: int, content: str, raw: str, line_id: str | None) -> str:
    """One code line: its number (a link to the line), the indentation, the code. / 一行代码：行号（指向本行的链接）、缩进、代码。

    The line's own indentation is given to CSS (``--i``): a line too long for the column wraps,
    and its continuation lines hang past that indentation (book.css), so Python's structure
    stays readable. On a phone the indentation (``book-ind``) is drawn narrower. A member's stub
    (``line_id`` None) has no anchor of its own: the line belongs to the member's listing.
    """
    indent = len(raw) - len(raw.lstrip(" "))
    if indent:
        # The indentation may open a string token (inside a multi-line string): move it out.
        span = re.match(r'(<span class="[^"]*">)?( +)', content)
        if span and len(span.group(2)) >= indent:
            content = (
                f'<span class="book-ind">{" " * indent}</span>'
                + (span.group(1) or "")
                + content[span.start(2) + indent :]
            )
        else:
            indent = 0
    style = f' style="--i:{indent}"' if indent else ""
    if line_id is None:
        return f'<span class="book-line"{style}><span class="book-ln">{number}</span>{content}\n</span>'
    return (
        f'<span class="book-line" id="{line_id}"{style}><a class="book-ln" href="#{line_id}"'
        f' tabindex="-1">{number}</a>{content}\n</span>'
    )


def line_tag(module: str) -> str:
    """The file part of a line's anchor. / 行锚点中的文件部分。

    Short and unique per file: ``rnn`` for annotated_nn.modules.rnn, ``utils.rnn`` for
    annotated_nn.utils.rnn (both on the RNN page), ``sgd`` for annotated_optim.sgd.
    """
    for prefix in ("annotated_nn.modules.", "annotated_nn.", "annotated_optim."):
        if module.startswith(prefix):
            return module[len(prefix) :]
    return module


def listing_html(path: str, module: str, qualname: str, slot_id: str) -> str:
    """HTML of one object's annotated listing. / 一个对象的带注释代码清单的 HTML。"""
    built = build_rows(path, module, qualname)
    if built is None:
        return ""
    rows, node = built
    lines = _parsed(path)[0]
    tag = line_tag(module)
    digits = len(str(max((n for row in rows for n, _ in row.code), default=1)))
    # A <section>: Material's search parser matches an excluded element by tag name, so an excluded
    # <div> would end at the first inner </div>; no <section> is nested inside a listing. Its class
    # book-d<N> sizes the line-number gutter for N digits.
    out = [
        f'<section class="book-listing no-copy book-d{digits}" data-search-exclude'
        f' id="{slot_id}--listing">'
    ]
    seen: dict[str, int] = {}
    for row in rows:
        anchor = row_anchor(row, lines, qualname)
        seen[anchor] = seen.get(anchor, 0) + 1
        if seen[anchor] > 1:
            anchor += f"-{seen[anchor]}"
        anchor = html.escape(anchor)
        note = ""
        if row.has_note:
            zh = _note_html(_join(row.zh, "zh"))
            en = _note_html(_join(row.en, "en"))
            badge = DIFF_HTML if row.diff else ""
            zh, en = (text.replace(DIFF_BADGE, DIFF_HTML) for text in (zh, en))
            note = f'<div class="book-zh">{badge}{zh}</div><div class="book-en">{badge}{en}</div>'
        code = "".join(
            _code_line(
                number,
                content,
                lines[number - 1],
                None if number in row.stubs else f"{tag}-L{number}",
            )
            for number, content in row.code
        )
        code_cell = (
            f'<div class="book-code highlight"><pre><code>{code}</code></pre></div>'
            if code
            else '<div class="book-code"></div>'
        )
        kind = "book-row" + ("" if row.has_note else " book-row--bare")
        link = (
            f'<a class="book-anchor" href="#{anchor}" title="本段链接"'
            ' data-book-en-title="Link here">¶</a>'
        )
        out.append(
            f'<div class="{kind}" id="{anchor}">'
            f'<div class="book-note">{link}{note}</div>{code_cell}</div>'
        )
    out.append("</section>")
    return "\n".join(out)
