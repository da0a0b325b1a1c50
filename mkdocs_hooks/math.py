"""MkDocs hook: renders every formula with KaTeX while the site is built.

pymdownx.arithmatex leaves TeX in the pages as \\( … \\) and \\[ … \\]. Rendering it here instead of in
the browser means formulas are there in the first paint, in print and without JavaScript, the page does
not shift when they appear on a projector, and no page pays KaTeX's ≈ 0.2 s of script before Python's
start. The browser then needs only katex.min.css and its fonts. One node process renders the whole site
(mkdocs_hooks/katex_render.cjs, KaTeX from node_modules: the version package-lock.json pins).
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

RENDER = Path(__file__).with_name("katex_render.cjs")
FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
DELIMITERS = {"span": (r"\(", r"\)", False), "div": (r"\[", r"\]", True)}


def tex_of(tag: str, body: str) -> tuple[str, bool]:
    left, right, display = DELIMITERS[tag]
    text = html.unescape(body).strip()
    if not (text.startswith(left) and text.endswith(right)):
        raise PluginError(f"arithmatex-Element ohne {left} … {right}: {text[:80]!r}")
    return text[len(left):-len(right)].strip(), display


def render(items: list[tuple[str, bool]]) -> list[str]:
    """KaTeX's HTML for each (tex, display); a formula it cannot parse is a build error."""
    if not items:
        return []
    try:
        done = subprocess.run(["node", str(RENDER)], input=json.dumps(items), capture_output=True,
                              text=True, encoding="utf-8", check=False)
    except FileNotFoundError:
        raise PluginError("node fehlt: die Formeln werden beim Bauen mit KaTeX gesetzt (`make site` richtet es ein)") from None
    if done.returncode == 3:
        failure = json.loads(done.stdout)
        raise PluginError(f"KaTeX kann die Formel {items[failure['index']][0]!r} nicht setzen: {failure['error']}")
    if done.returncode != 0:
        raise PluginError(f"KaTeX-Aufruf gescheitert: {done.stderr.strip()[:500]}")
    return json.loads(done.stdout)


@event_priority(50)  # before mkdocs_hooks/offline.py hashes the built files
def on_post_build(config):
    texts = {page: page.read_text(encoding="utf-8") for page in Path(config["site_dir"]).rglob("*.html")}
    texts = {page: text for page, text in texts.items() if 'class="arithmatex"' in text}
    wanted = sorted({tex_of(m.group(1), m.group(2)) for text in texts.values() for m in FORMULA.finditer(text)})
    rendered = dict(zip(wanted, render(wanted)))
    for page, text in texts.items():
        def typeset(m):
            return f'<{m.group(1)} class="arithmatex">{rendered[tex_of(m.group(1), m.group(2))]}</{m.group(1)}>'
        page.write_text(FORMULA.sub(typeset, text), encoding="utf-8")
