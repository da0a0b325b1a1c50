"""mkdocs_hooks/math.py: formulas typeset by KaTeX at build time, and a formula KaTeX rejects stops the build."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
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
    hook.on_post_build({"site_dir": str(tmp_path)})
    text = page.read_text(encoding="utf-8")
    assert text.count('<span class="arithmatex"><span class="katex">') == 2
    assert text.count('<div class="arithmatex"><span class="katex-display">') == 1
    shown = re.sub(r"<annotation.*?</annotation>", "", text, flags=re.S)  # the TeX kept for screen readers
    assert "\\(" not in shown and "\\[" not in shown and "\\alpha" not in shown
    assert (tmp_path / "ohne.html").read_text(encoding="utf-8") == "<p>keine Formel</p>"
