"""The visible line of a folded docstring reference names what is inside, with no empty label.

tools/book/templates/python/material/docstring.html.jinja folds the reference sections of an
object (parameters, returns, raises ...) into one `<details class="book-docsec">`; its `<summary>`
gives each section's title followed by the names it holds. A section with nothing to name (a
return without a type, as in `Module.load_state_dict`) shows its title without the colon, so the
line never reads "返回： ·" / "Returns: ·".
"""

from __future__ import annotations

import re

SUMMARY = re.compile(r'<details class="book-docsec">\s*<summary>(.*?)</summary>', re.S)
# A section title in both languages, and whether names (`<code>`) follow it.
TITLE = re.compile(
    r'<span class="doc-section-title"><span class="book-zh">([^<]*)</span>'
    r'<span class="book-en">([^<]*)</span></span>(\s*<code>)?'
)


def titles(summary: str) -> list[tuple[str, str, bool]]:
    """`(zh, en, followed_by_names)` for each section title of one summary."""
    return [(zh, en, bool(code)) for zh, en, code in TITLE.findall(summary)]


def test_a_title_ends_with_a_colon_exactly_when_names_follow(book):
    checked, bare, wrong = 0, 0, []
    for page in book.pages():
        for summary in SUMMARY.findall(page.read_text(encoding="utf-8")):
            for zh, en, named in titles(summary):
                checked += 1
                bare += not named
                colons = (zh.endswith("："), en.endswith(":"))
                if colons != (named, named):
                    wrong.append((page.relative_to(book.site).as_posix(), zh, en, named))
    assert checked > 500, checked
    assert bare > 0, "no section without names: the case this test is about never occurred"
    assert not wrong, wrong[:10]


def test_load_state_dict_summary_reads_without_an_empty_label(book):
    text = book.html("chapters/11-load-state-dict/")
    start = text.index('id="annotated_nn.modules.module.Module.load_state_dict"')
    summary = SUMMARY.search(text, start).group(1)
    assert titles(summary) == [
        ("参数：", "Parameters:", True),
        ("返回", "Returns", False),
        ("引发：", "Raises:", True),
    ]
