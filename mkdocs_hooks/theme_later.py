"""MkDocs hook: the theme's script is loaded after Python has started, not by the page.

mkdocs-material ends every page with a parser-blocking <script> for its bundle. Here that tag becomes
a prefetch link (fetched when the network is idle, never run), and static/js/theme-later.js runs it
once the tab's Python runtime is ready: why, and what was measured, is said there. The tag is found
in the built HTML rather than written into overrides/main.html, so a theme update that renames its
bundle changes nothing here; a page without exactly one such tag stops the build.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

BUNDLE = re.compile(r'<script src="([^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>')
# the theme's configuration, in every page the theme built
THEME_PAGE = '<script id="__config" type="application/json">'


def defer_theme(html: str, where: str = "page") -> str:
    found = BUNDLE.findall(html)
    if len(found) != 1:
        raise PluginError(f"{where}: {len(found)} Skript-Tags des Theme-Bundles statt genau einem")
    return BUNDLE.sub(lambda m: f'<link rel="prefetch" href="{m.group(1)}" data-pl-theme-bundle>', html)


def defer_site(site: Path) -> int:
    count = 0
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        if THEME_PAGE in html:
            path.write_text(defer_theme(html, str(path.relative_to(site))), encoding="utf-8")
            count += 1
    return count


@event_priority(-40)  # after site.py and the search plugin, before csp.py hashes the inline scripts
def on_post_build(config):
    defer_site(Path(config["site_dir"]))
