"""The book's search index, one file per language (a hook in mkdocs.yml). / 本书的搜索索引，每种语言一个文件。

Material's search plugin parses every page into one entry per section (title and text) and
writes ``search/search_index.json``. The pages are bilingual: every Chinese half sits in an
element of class ``book-zh``, every English half in ``book-en`` (tools/book/bilingual.py), and
the reader sees one language at a time. The plugin's parser keeps no classes, so:

- ``on_env`` (after hooks.py has set the listings aside) marks the start and end of every
  ``book-zh`` / ``book-en`` element with private-use characters that the parser keeps as text;
- ``on_post_page`` removes the marks from the page written (it is byte for byte unchanged);
- ``on_post_build`` splits each entry into its Chinese and its English text along the marks and
  writes ``search_index.json`` (Chinese, what Material loads by default) and
  ``search_index.en.json`` (English). Text outside both kinds of element (identifiers, code names)
  goes into both. API entries get their owner in the title (``Conv2d._conv_forward``).

docs/assets/search.js and docs/assets/search-worker.js load the reader's language and search it.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]

# Private-use characters: the start and the end of a Chinese and of an English half.
ZH_OPEN, ZH_CLOSE, EN_OPEN, EN_CLOSE = "\ue0a0", "\ue0a1", "\ue0a2", "\ue0a3"
OPENS = {ZH_OPEN: "zh", EN_OPEN: "en"}
CLOSES = {ZH_CLOSE: "zh", EN_CLOSE: "en"}
MARKS = re.compile(f"[{ZH_OPEN}{ZH_CLOSE}{EN_OPEN}{EN_CLOSE}]")
MARK_SPLIT = re.compile(f"([{ZH_OPEN}{ZH_CLOSE}{EN_OPEN}{EN_CLOSE}])")

TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>|<!--.*?-->", re.S)
LANGUAGE_CLASS = re.compile(r'\bclass="(?:[^"]*\s)?book-(zh|en)(?:\s[^"]*)?"')
VOID = set("area base br col embed hr img input link meta param source track wbr".split())
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
CJK_RUN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u200b]+")


def mark_languages(content: str) -> str:
    """Mark the inside of every ``book-zh`` / ``book-en`` element. / 标出每个中文、英文元素的内部。"""
    out, pos, stack = [], 0, []
    for match in TAG.finditer(content):
        closing, name = match.group(1), (match.group(2) or "").lower()
        if not name or name in VOID or match.group(0).endswith("/>"):
            continue
        if closing:
            # Pop to the matching element (HTML written by the book is well formed).
            while stack:
                tag, language = stack.pop()
                if language:
                    out.append(content[pos : match.start()])
                    out.append(ZH_CLOSE if language == "zh" else EN_CLOSE)
                    pos = match.start()
                if tag == name:
                    break
            continue
        found = LANGUAGE_CLASS.search(match.group(3) or "")
        language = found.group(1) if found else None
        stack.append((name, language))
        if language:
            out.append(content[pos : match.end()])
            out.append(ZH_OPEN if language == "zh" else EN_OPEN)
            pos = match.end()
    out.append(content[pos:])
    return "".join(out)


@event_priority(-110)
def on_env(env, config, files, **kwargs):
    """Mark the language halves before the search plugin parses the pages. / 在搜索插件解析页面之前标出两种语言。"""
    # 中: 优先级 -110：在 hooks.py 的 on_env（-100，把代码清单放在一旁）之后，清单里不会有标记。
    # EN: Priority -110: after hooks.py's on_env (-100, which sets the listings aside), so no
    #     listing carries a mark.
    for file in files:
        page = file.page
        if page is not None and page.content:
            page.content = mark_languages(page.content)
    return env


@event_priority(-110)
def on_post_page(output, page, config, **kwargs):
    """The written page carries no marks. / 写出的页面不带标记。"""
    return MARKS.sub("", output)


def language_half(value: str, language: str) -> str:
    """What the reader of ``language`` sees of a marked string. / 某语言的读者能看到的那部分。

    A section may start or end inside a half (the parser cuts at headings): a close mark with no
    open mark before it means the string starts inside that half.
    """
    pieces = MARK_SPLIT.split(value)
    starting, depth = [], []
    for piece in pieces[1::2]:
        if piece in OPENS:
            depth.append(OPENS[piece])
        elif depth:
            depth.pop()
        else:
            starting.insert(0, CLOSES[piece])
    stack, kept = starting, [pieces[0]] if all(item == language for item in starting) else []
    for mark, text in zip(pieces[1::2], pieces[2::2]):
        if mark in OPENS:
            stack.append(OPENS[mark])
        elif stack:
            stack.pop()
        if all(item == language for item in stack):
            kept.append(text)
    return "".join(kept)


def title_half(title: str, language: str) -> str:
    """A title in one language; an unmarked "中文 / English" title is cut at the slash. / 标题的一种语言。"""
    if MARKS.search(title):
        return language_half(title, language)
    halves = [h.strip() for h in title.split(" / ")]
    chinese = [h for h in halves if CJK.search(h)]
    english = [h for h in halves if h and not CJK.search(h)]
    if chinese and english:
        return " / ".join(chinese if language == "zh" else english)
    return title


# The label of a Google-style section as mkdocstrings renders it through tools/book/templates
# (<span class="book-zh">参数：</span><span class="book-en">Parameters:</span>), marked.
SECTION_TABLE = re.compile(
    f"{ZH_OPEN}\u200b?(?:参数|返回|引发|示例|产生|属性)\u200b?[：:]\u200b?{ZH_CLOSE}\\s*"
    f"{EN_OPEN}(?:Parameters|Returns|Raises|Examples|Yields|Attributes):"
)

# A run of search separators (U+200B from jieba, whitespace, the Chinese punctuation mkdocs.yml
# names) holding at least one real whitespace or punctuation mark.
SEPARATOR_RUN = re.compile(r"[\s\u200b]*([\s，。、：；（）！？])[\s\u200b]*")


def _one_separator(run: re.Match) -> str:
    """What a run of search separators becomes. / 一段搜索分隔符留下什么。"""
    kept = run.group(1)
    return " " if kept.isspace() else kept


def _is_private_api_entry(location: str) -> bool:
    """Whether a search entry is a private object's or a special method's section. / 搜索条目是否属于私有对象或特殊方法的小节。"""
    if "#annotated_" not in location:
        return False
    parts = location.split("#", 1)[1].split(".")
    # 中: 单下划线开头的部分（私有对象），以及特殊方法（`__init__`、`__repr__` 等）本身。
    # EN: A part with one leading underscore (a private object), or a special method itself
    #     (`__init__`, `__repr__` and so on).
    return any(part.startswith("_") and not part.startswith("__") for part in parts) or (
        parts[-1].startswith("__") and parts[-1].endswith("__")
    )


@lru_cache(maxsize=None)
def _is_module(dotted: str) -> bool:
    """Whether a dotted path names a module of annotated_src. / 点号路径是否是 annotated_src 里的模块。"""
    base = ROOT / "annotated_src" / Path(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def owner_and_name(anchor: str) -> tuple[str, str] | None:
    """(module, qualified name) of an API anchor ``annotated_nn.modules.conv.Conv2d.x``. / API 锚点的（模块, 限定名）。"""
    parts = anchor.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        if _is_module(".".join(parts[:cut])):
            return ".".join(parts[:cut]), ".".join(parts[cut:])
    return None


def api_titles(docs: list[dict]) -> None:
    """An API entry's title is its qualified name; same names also get their module. / API 条目的标题用限定名，同名时再加模块。"""
    # 中: mkdocstrings 的标题只是对象名（_conv_forward），Conv1d/2d/3d 的同名方法在结果里分不清，
    #     `Conv2d._conv_forward` 这样的查询也找不到。标题换成限定名（类名.方法名）；限定名仍相同
    #     的（不同模块里的同名函数）再加上模块的最后一段。
    # EN: mkdocstrings titles an object by its name only (_conv_forward): the methods of Conv1d,
    #     Conv2d and Conv3d looked the same in the results, and `Conv2d._conv_forward` found
    #     nothing. The title becomes the qualified name (Class.method); names still alike
    #     (functions of the same name in different modules) also get their module's last part.
    named = []
    for doc in docs:
        anchor = doc["location"].partition("#")[2]
        if not anchor.startswith("annotated_"):
            continue
        found = owner_and_name(anchor)
        # The heading: the object's name, then mkdocstrings' labels (staticmethod, property ...).
        name, _, labels = MARKS.sub("", doc["title"]).strip().partition(" ")
        if found is None or name != anchor.rsplit(".", 1)[-1]:
            continue
        named.append((doc, found, labels))
    count: dict[str, int] = {}
    for _doc, (_module, qualname), _labels in named:
        count[qualname] = count.get(qualname, 0) + 1
    for doc, (module, qualname), labels in named:
        title = qualname if count[qualname] == 1 else module.rsplit(".", 1)[-1] + "." + qualname
        doc["title"] = f"{title} {labels}".strip()


# Tags the search plugin keeps inside a line of text: removed without a space, so that
# "(<code>x</code>)" reads "(x)".
INLINE_TAG = re.compile(r"</?(?:code|sub|sup)>")


def entry_in(doc: dict, language: str) -> dict:
    """One entry of the index in one language. / 一种语言的一个索引条目。"""
    text = doc["text"]
    # 中: 私有对象与特殊方法（共六百多个）只留摘要那一段：标题仍可搜到，说明在书页上读；
    #     否则它们占索引的一成以上。
    # EN: Private objects and special methods (over six hundred) keep only their summary
    #     paragraph: the title stays searchable and the rest is read on the page; otherwise
    #     they take more than a tenth of the index.
    if _is_private_api_entry(doc["location"]):
        first = re.match(r"\s*<p>.*?</p>", text, re.S)
        text = first.group(0) if first else text
    # 中: API 条目只留摘要与正文：参数、返回值、异常、示例的表格在书页上看，不进索引。
    # EN: API entries keep their summary and prose only: the tables of parameters, returns,
    #     exceptions and examples are read on the page, not indexed.
    if "#annotated_" in doc["location"]:
        text = SECTION_TABLE.split(text, maxsplit=1)[0]
    text = language_half(text, language)
    title = title_half(doc["title"], language)
    # 中: 去掉 HTML 标签与实体：结果摘要只显示纯文字（search-worker.js 负责转义）。
    # EN: Tags and entities removed: a result shows plain text (search-worker.js escapes it).
    text = html.unescape(re.sub(r"<[^>]+>", " ", INLINE_TAG.sub("", text)))
    title = html.unescape(re.sub(r"<[^>]+>", "", title))
    if language == "en":
        # 中: 英文读者看不到的中文（词汇表的中文列、引用的中文题名）不进英文索引。
        # EN: Chinese an English reader is not shown (the glossary's Chinese column, cited
        #     Chinese titles) stays out of the English index.
        text, title = CJK_RUN.sub(" ", text), CJK_RUN.sub(" ", title)
    # 中: jieba 在每个中文词两侧插入 U+200B（3 字节）；紧挨空白或中文标点的那些是多余的。
    # EN: jieba puts U+200B (3 bytes) on both sides of every Chinese word; those next to
    #     whitespace or Chinese punctuation are redundant (they separate already).
    text = SEPARATOR_RUN.sub(_one_separator, text).strip("\u200b ")
    title = re.sub(r"\s+", " ", title).strip("\u200b ")
    return {"location": doc["location"], "title": title, "text": text}


INDEX_FILES = {"zh": "search_index.json", "en": "search_index.en.json"}


def on_post_build(config, **kwargs):
    """Write the index of each language. / 写出每种语言的索引。"""
    folder = Path(config["site_dir"]) / "search"
    index = folder / "search_index.json"
    if not index.is_file():
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    api_titles(data["docs"])
    for language, name in INDEX_FILES.items():
        docs = [entry_in(doc, language) for doc in data["docs"]]
        # 中: 标题与正文在这种语言里都为空的条目（只有另一种语言的小节）不进索引。
        # EN: An entry with neither title nor text in this language (a section of the other
        #     language only) is left out.
        docs = [doc for doc in docs if doc["title"] or doc["text"]]
        out = {"config": dict(data["config"], book_lang=language), "docs": docs}
        # 中: 按 UTF-8 写出而不是 \uXXXX 转义：每个汉字 3 字节而不是 6 字节。
        # EN: UTF-8 instead of \uXXXX escapes: 3 bytes per Chinese character, not 6.
        (folder / name).write_text(
            json.dumps(out, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )
