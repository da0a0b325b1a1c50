"""mkdocs_hooks/theme_later.py: the theme's script tag becomes the link static/js/theme-later.js loads."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("theme_later", ROOT / "mkdocs_hooks" / "theme_later.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

TAG = '<script src="../assets/javascripts/bundle.0123abcd.min.js"></script>'


def test_the_one_script_tag_becomes_a_link_that_is_never_run():
    out = hook.defer_theme(f"<body><p>x</p>{TAG}<script src='a.js'></script></body>")
    assert out == ('<body><p>x</p><link rel="prefetch" href="../assets/javascripts/bundle.0123abcd.min.js" '
                   "data-pl-theme-bundle><script src='a.js'></script></body>")


@pytest.mark.parametrize("tags", [0, 2])
def test_a_page_without_exactly_one_tag_stops_the_build(tags):
    with pytest.raises(PluginError, match="Theme-Bundles"):
        hook.defer_theme("<body>" + TAG * tags + "</body>")


def test_the_site_folder_is_rewritten_page_by_page(tmp_path):
    theme = f"<html><body>{hook.THEME_PAGE}{{}}</script>{TAG}</body></html>"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(theme, encoding="utf-8")
    (tmp_path / "raw.html").write_text(TAG, encoding="utf-8")  # not a page of the theme: left alone
    assert hook.defer_site(tmp_path) == 1
    assert "data-pl-theme-bundle" in (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    assert (tmp_path / "raw.html").read_text(encoding="utf-8") == TAG
