"""overrides/main.html hooks mkdocs-material through its documented blocks (extrahead, scripts); two things
the theme has no block or option for are patched, and this file holds each patch to the theme they were
written against: the bundle's script tag gets ``defer`` inside the scripts block, and the bundle's request
for sitemap.xml is answered from the page. A new theme version fails here first, with what to check."""

from __future__ import annotations

import importlib.metadata
import os
import re
from pathlib import Path

import material
import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # as tests/browser/conftest.py
THEME = Path(material.__file__).resolve().parent / "templates"
OVERRIDE = (ROOT / "overrides" / "main.html").read_text(encoding="utf-8")

# The theme version both patches were read against. A new one: read its base.html's scripts block and its
# bundle's sitemap request again, adjust overrides/main.html if they changed, then raise this.
CHECKED = "9.8.2"


def _block(template: str, name: str) -> str:
    found = re.search(r"\{%-?\s*block " + name + r"\s*-?%\}(.*?)\{%-?\s*endblock\s*-?%\}", template, re.S)
    assert found, f"no block {name}"
    return found.group(1)


def _bundle() -> str:
    (bundle,) = (THEME / "assets" / "javascripts").glob("bundle.*.min.js")
    return bundle.read_text(encoding="utf-8")


def test_the_theme_is_the_version_the_patches_were_checked_against():
    installed = importlib.metadata.version("mkdocs-material")
    pinned = re.search(r"^mkdocs-material==(\S+)", (ROOT / "requirements.txt").read_text(encoding="utf-8"), re.M)
    assert installed == pinned.group(1) == CHECKED, (
        f"mkdocs-material {installed} (requirements.txt: {pinned.group(1)}), the patches in overrides/main.html "
        f"were checked against {CHECKED}: check them against the new version, then raise CHECKED")


def test_the_defer_patch_meets_the_bundle_as_the_scripts_blocks_one_plain_script_tag():
    old, new = re.search(r"\{\{\s*super\(\)\s*\|\s*replace\('([^']*)',\s*'([^']*)'\)\s*\}\}",
                         _block(OVERRIDE, "scripts")).groups()
    assert new == old.replace("<script ", "<script defer ")
    theirs = _block((THEME / "base.html").read_text(encoding="utf-8"), "scripts")
    # the bundle, and the site's own extra_javascript (none: every script of the site is a module in extrahead)
    assert re.findall(r"<script\b[^>]*>", theirs) == [
        """<script src="{{ 'assets/javascripts/bundle.""" + re.search(r"bundle\.(\w+)\.min\.js", theirs).group(1)
        + """.min.js' | url }}">"""]
    assert theirs.count(old) == 1
    assert "extra_javascript" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_bundle_asks_for_the_sitemap_under_config_base_by_xmlhttprequest_alone():
    """The page answers XMLHttpRequest's open() for ``new URL("sitemap.xml", base)``; a theme that asked by
    fetch(), or for another address, would pass it by and lose instant navigation off site_url."""
    bundle = _bundle()
    assert bundle.count('new URL("sitemap.xml",') == 1
    assert "new XMLHttpRequest" in bundle and "fetch(" not in bundle and "sendBeacon" not in bundle
    script = re.search(r"<script>\s*\(function \(\) \{(.*?)\}\)\(\);\s*</script>", _block(OVERRIDE, "extrahead"), re.S)
    assert 'new URL("sitemap.xml", base)' in script.group(1) and "XMLHttpRequest.prototype.open" in script.group(1)


def test_every_built_page_loads_the_bundle_deferred_after_the_modules():
    if not (SITE / "index.html").is_file():
        pytest.skip(f"{SITE} fehlt: erst die Website bauen")
    pages = [*sorted(SITE.rglob("index.html")), SITE / "404.html"]
    for page in pages:
        scripts = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", page.read_text(encoding="utf-8"))
        assert [s for s in scripts if "type=\"module\"" not in s and " defer " not in s] == [], page
        bundle = [i for i, s in enumerate(scripts) if "assets/javascripts/bundle." in s]
        assert len(bundle) == 1 and bundle[0] == len(scripts) - 1 and " defer " in scripts[-1], (page, scripts)
        assert "static/js/main.js" in scripts[bundle[0] - 1], (page, scripts)
