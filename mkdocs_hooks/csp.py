"""MkDocs hook: one Content-Security-Policy for the whole site, written into every page as a meta tag.

The policy allows only what the site itself serves. Scripts come from the site's own files, plus the
few inline scripts of the theme shell (overrides/main.html and mkdocs-material's), allowed by their
SHA-256, which is computed here from the built HTML, so an edited script can never slip through.
What is loosened, each found necessary in Chromium (tests/browser/test_csp.py records every violation):
- 'wasm-unsafe-eval': Pyodide compiles its WebAssembly. No 'unsafe-eval': nothing the site runs turns a
  string into code; the pages start Pyodide directly (static/js/runtime/start.js), with no framework
  around it that would need Function().
- connect-src blob:: overrides/main.html answers the theme's request for sitemap.xml with a blob: URL
  (pages under the address in use); the blob is made by that script, nothing from outside.
- style-src-attr 'unsafe-inline': KaTeX's typeset formulas place every glyph with style attributes;
  a <style> element runs only with the SHA-256 of its text, as an inline script: the build's own, a
  concept's rules in its page (mkdocs_hooks/stylesheets.py).
- img-src data:: the theme draws its icons as data: SVGs in its stylesheet.
And tightened, in the pages only (PAGE_ONLY): require-trusted-types-for 'script' sends every string that
becomes markup, script or a script's address through static/js/trusted.js (the first module in <head>:
it runs before the other scripts that have a file), which cleans it; trusted-types names that file's two
policies, so no script can make a third.

The policy as a header, with what only a header can say (frame-ancestors: no other site may frame
these pages), goes into the file content-security-policy.txt of the site: tools/serve.py sends it from
there (the USB bundle carries serve.py without this module), and another web server's admin copies it
from there (README). One policy stays one text.
Under ``mkdocs serve`` no policy is written: its live-reload script is injected inline at serve time.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

# (directive, sources); "{scripts}" and "{styles}" are replaced by the hashes of the inline scripts and styles.
DIRECTIVES = (
    ("default-src", "'self'"),
    ("script-src", "'self' 'wasm-unsafe-eval' {scripts}"),
    ("style-src", "'self' {styles}"),
    ("style-src-attr", "'unsafe-inline'"),
    ("img-src", "'self' data:"),
    ("connect-src", "'self' blob:"),
    ("object-src", "'none'"),
    ("base-uri", "'self'"),
    ("form-action", "'self'"),
)
# In a meta tag the browser ignores these (and says so in the console): header only.
HEADER_ONLY = (("frame-ancestors", "'self'"),)
# Trusted Types guard a document's DOM, so the pages carry them (meta tag) and the header does not: a
# header covers the Web Workers too, which have no DOM and no gate, and the theme's search worker loads
# its index code with importScripts, which the rule would refuse there.
PAGE_ONLY = (("require-trusted-types-for", "'script'"), ("trusted-types", "default probierlabor-parse"))
POLICY_FILE = "content-security-policy.txt"  # tools/serve.py reads it under the same name
META = '<meta http-equiv="Content-Security-Policy" content="{}">'
# Inline scripts the browser runs: no src, and no type or a JavaScript one (the theme's JSON config is data).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)((?:\s[^>]*)?)>(.*?)</script>", re.S | re.I)
SCRIPT_TYPE = re.compile(r"""\stype=["']?([^"'\s>]+)""", re.I)
RUNS = {None, "text/javascript", "application/javascript", "module"}
INLINE_STYLE = re.compile(r"<style(?:\s[^>]*)?>(.*?)</style>", re.S | re.I)
CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)

_serving = False


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"


def inline_scripts(page: str) -> list[str]:
    found = []
    for attributes, body in INLINE_SCRIPT.findall(page):
        kind = SCRIPT_TYPE.search(attributes)
        if (kind.group(1).lower() if kind else None) in RUNS:
            found.append(body)
    return found


def script_hash(body: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"


def policy(scripts: list[str], header: bool = False, styles: list[str] = ()) -> str:
    hashes = {kind: " ".join(sorted({script_hash(body) for body in bodies}))
              for kind, bodies in (("scripts", scripts), ("styles", styles))}
    directives = DIRECTIVES + (HEADER_ONLY if header else PAGE_ONLY)
    return "; ".join(f"{name} {sources.format(**hashes)}".strip() for name, sources in directives)


def shared(text: str) -> str:
    """What a page's and the header's policy have in common: ``text`` without the directives of either alone."""
    alone = dict(HEADER_ONLY + PAGE_ONLY)
    return "; ".join(part for part in text.split("; ") if part.split(" ", 1)[0] not in alone)


def protect(site: Path) -> str:
    """Writes the policy for every page in ``site`` into each of them and, as a header, into
    ``site/content-security-policy.txt``; returns the header's policy."""
    pages = sorted(site.rglob("*.html"))
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    scripts = [body for page in texts.values() for body in inline_scripts(page)]
    styles = [body for page in texts.values() for body in INLINE_STYLE.findall(page)]
    text = policy(scripts, styles=styles)
    tag = META.format(html.escape(text, quote=False).replace('"', "&quot;"))
    for path, page in texts.items():
        if 'http-equiv="Content-Security-Policy"' in page:
            raise PluginError(f"{path}: trägt schon eine Content-Security-Policy")
        found = CHARSET.search(page)
        if not found:
            raise PluginError(f"{path}: kein <meta charset>, hinter den die Content-Security-Policy gehört")
        # right after the charset, before the first script: a policy in a meta tag covers only what follows it
        path.write_text(page[:found.end()] + tag + page[found.end():], encoding="utf-8")
    header = policy(scripts, header=True, styles=styles)
    (site / POLICY_FILE).write_text(header + "\n", encoding="utf-8")
    return header


@event_priority(-50)  # after assemble.py and the search plugin, before offline.py hashes every file for sw.js
def on_post_build(config):
    if not _serving:
        protect(Path(config["site_dir"]))
