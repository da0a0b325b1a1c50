"""MkDocs hook: renders every formula with KaTeX while the site is built.

pymdownx.arithmatex leaves TeX in the pages as \\( … \\) and \\[ … \\]. Rendering it here instead of in
the browser means formulas are there in the first paint, in print and without JavaScript, the page does
not shift when they appear on a projector, and no page pays KaTeX's ≈ 0.2 s of script before Python's
start. The browser then needs only katex.min.css and its fonts. One node process renders the whole site
(mkdocs_hooks/katex_render.cjs, KaTeX from node_modules: the version package-lock.json pins).

The search plugin reads the pages before that and kept their TeX, so a result showed
``\\frac{\\exp(z_i/T)}…``: its index gets each formula's text as KaTeX renders it (its MathML, read aloud
by screen readers too), ``α<0`` for ``\alpha < 0``.
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
# A formula as the search index holds it (the plugin drops the tags, HTML-escapes the text): \( … \) or \[ … \]
INDEXED = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
MATHML = re.compile(r'<span class="katex-mathml">(.*?)</span>', re.S)
ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.S)
INVISIBLE = re.compile("[\u2061-\u2064]")  # MathML's invisible operators (function application, times, separator, plus)


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


def text_of(rendered: str) -> str:
    """The words and symbols of KaTeX's rendering, without its TeX source (the MathML's annotation)."""
    mathml = ANNOTATION.sub("", MATHML.search(rendered).group(1))
    return " ".join(INVISIBLE.sub("", html.unescape(re.sub(r"<[^>]+>", "", mathml))).split())


def index_without_tex(index: Path, rendered: dict[tuple[str, bool], str]) -> None:
    data = json.loads(index.read_text(encoding="utf-8"))
    # the plugin joins a formula's lines: compared with single spaces
    known = {(" ".join(tex.split()), display): out for (tex, display), out in rendered.items()}

    def spoken(m):
        display = m.group(2) is not None
        key = (" ".join(html.unescape(m.group(2) if display else m.group(1)).split()), display)
        return html.escape(text_of(known[key]), quote=False) if key in known else m.group(0)

    for doc in data["docs"]:
        doc["text"] = INDEXED.sub(spoken, doc["text"])
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


# after the search plugin has written its index, before mkdocs_hooks/csp.py and offline.py read the built files
@event_priority(-10)
def on_post_build(config):
    texts = {page: page.read_text(encoding="utf-8") for page in Path(config["site_dir"]).rglob("*.html")}
    texts = {page: text for page, text in texts.items() if 'class="arithmatex"' in text}
    wanted = sorted({tex_of(m.group(1), m.group(2)) for text in texts.values() for m in FORMULA.finditer(text)})
    rendered = dict(zip(wanted, render(wanted)))
    for page, text in texts.items():
        def typeset(m):
            return f'<{m.group(1)} class="arithmatex">{rendered[tex_of(m.group(1), m.group(2))]}</{m.group(1)}>'
        page.write_text(FORMULA.sub(typeset, text), encoding="utf-8")
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    if index.exists():
        index_without_tex(index, rendered)
