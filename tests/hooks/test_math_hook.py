"""mkdocs_hooks/math.py: formulas typeset by KaTeX at build time, and a formula KaTeX rejects stops the build."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # as tests/browser/conftest.py
spec = importlib.util.spec_from_file_location("math_hook", ROOT / "mkdocs_hooks" / "math.py")
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)


def test_tex_comes_out_of_arithmatex_unescaped():
    assert hook.tex_of("span", r"\(a &lt; b\)") == ("a < b", False)
    assert hook.tex_of("div", "\\[\nx^2\n\\]") == ("x^2", True)
    with pytest.raises(PluginError, match="ohne"):
        hook.tex_of("span", "a < b")


def test_katex_typesets_inline_and_display_with_mathml_for_screen_readers():
    inline, display = hook.render([(r"\frac{1}{2}", False), (r"\sum_i p_i = 1", True)])
    assert 'class="katex"' in inline and "katex-display" not in inline
    assert 'class="katex-display"' in display
    assert '<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>' in inline
    assert "<math" in display


def test_a_formula_katex_cannot_read_stops_the_build_with_its_text():
    with pytest.raises(PluginError, match=r"\\frac\{1\}.*nicht setzen"):
        hook.render([("x", False), (r"\frac{1}", False)])


def test_the_whole_site_through_the_hook(tmp_path):
    page = tmp_path / "seite" / "index.html"
    page.parent.mkdir()
    page.write_text('<p><span class="arithmatex">\\(\\alpha\\)</span> und '
                    '<div class="arithmatex">\\[\n\\beta\n\\]</div> und '
                    '<span class="arithmatex">\\(\\alpha\\)</span></p>', encoding="utf-8")
    (tmp_path / "ohne.html").write_text("<p>keine Formel</p>", encoding="utf-8")
    # the search plugin's index of that page: the tags gone, the TeX escaped, a display formula's lines joined
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    index.write_text(json.dumps({"config": {}, "docs": [{"location": "seite/", "title": "Seite", "text":
        "<p>\\(\\alpha\\) und</p> \\[ \\beta \\] und <code>\\(a &lt; b\\)</code>"}]}), encoding="utf-8")
    hook.on_post_build({"site_dir": str(tmp_path)})
    # each formula as it reads; TeX that was no formula of the page (here in code) stays as it was
    assert json.loads(index.read_text(encoding="utf-8"))["docs"][0]["text"] == \
        "<p>α und</p> β und <code>\\(a &lt; b\\)</code>"
    text = page.read_text(encoding="utf-8")
    assert text.count('<span class="arithmatex"><span class="katex">') == 2
    assert text.count('<div class="arithmatex"><span class="katex-display">') == 1
    shown = re.sub(r"<annotation.*?</annotation>", "", text, flags=re.S)  # the TeX kept for screen readers
    assert "\\(" not in shown and "\\[" not in shown and "\\alpha" not in shown
    assert (tmp_path / "ohne.html").read_text(encoding="utf-8") == "<p>keine Formel</p>"


class VisibleText(HTMLParser):
    """The text a reader sees: without scripts, styles, code and the TeX KaTeX keeps for screen readers."""

    HIDDEN: ClassVar = frozenset({"script", "style", "code", "pre", "textarea", "math", "annotation"})
    VOID: ClassVar = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

    def __init__(self):
        super().__init__()
        self.open, self.parts = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.HIDDEN & set(self.open):
            self.parts.append(data)


# A TeX command or delimiter in running text. Markdown eats the backslash of a stray "\[" (a display
# formula it did not see as a block, e.g. inside a list item) and leaves "[ \min_{c} … ]": the commands stay.
RAW_TEX = re.compile(r"\\(?:[A-Za-z]+|[()\[\]])")


def raw_tex(html_text: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html_text)
    text = "".join(parser.parts)
    return [text[max(0, m.start() - 30):m.end() + 30] for m in RAW_TEX.finditer(text)]


def test_raw_tex_is_found_in_text_but_not_in_code_or_typeset_formulas():
    assert raw_tex("<ul><li>Strafe:</li></ul><p>[\n  \\min_{c}\\; \\sum_i c_i^2 .\n  ]</p>")
    assert raw_tex("<p>und \\(x\\) roh</p>")
    typeset = hook.render([(r"\min_c \sum_i c_i^2", True)])[0]
    assert not raw_tex(f"<p><code>\\(x\\)</code></p><div class=\"arithmatex\">{typeset}</div>")


def test_no_built_page_shows_raw_tex():
    pages = sorted(SITE.rglob("*.html"))
    if not pages:
        pytest.skip("site not built")
    found = {}
    for page in pages:
        if hits := raw_tex(page.read_text(encoding="utf-8")):
            found[str(page.relative_to(SITE))] = hits[0]
    assert not found, f"Formeln als roher TeX-Text: {found}"
