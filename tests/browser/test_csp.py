"""The Content-Security-Policy (mkdocs_hooks/csp.py in every page, tools/serve.py as a header): in force,
one text everywhere, and nothing the site does breaks it – every page, its experiment, the replays,
the share toolbar, presentation mode and the Systemcheck page, online and from the offline copy. Python tags
added to a page are never run."""

from __future__ import annotations

import html
import importlib.util
import re
import urllib.request

import pytest
from conftest import ARRIVED, FOLLOW, READY_MS, ROOT, SITE, record, start_server, stop_server
from probierlabor import SLUGS
from probierlabor.kit import api

from tools import serve

pytestmark = pytest.mark.browser

_spec = importlib.util.spec_from_file_location("csp_hook", ROOT / "mkdocs_hooks" / "csp.py")
csp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(csp)

# Every violation in the document, from its first script on (an init script runs before the page's own).
WATCH = """window.__plCsp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__plCsp.push(
  [e.effectiveDirective, e.blockedURI, e.sourceFile + ':' + e.lineNumber, (e.sample || '').slice(0, 80)]));"""
ALL_READY = """() => {
  const roots = [...document.querySelectorAll('[data-experiment], section.pl-replay')];
  return roots.every(r => r.dataset.state === 'ready');
}"""
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def test_every_page_carries_the_one_policy_and_the_server_sends_it(origin):
    header = serve.site_policy(SITE)  # with what only a header can say (csp.HEADER_ONLY)
    policy = "; ".join([csp.shared(header), *(f"{name} {sources}" for name, sources in csp.PAGE_ONLY)])
    assert "frame-ancestors 'self'" in header and "trusted-types" not in header
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    assert "'unsafe-inline'" not in directives["script-src"] + directives["style-src"]
    assert "'unsafe-eval'" not in directives["script-src"]  # nothing on the pages evaluates text as code
    pages = sorted(SITE.rglob("*.html"))
    assert len(pages) >= len(SLUGS) + 3  # the concepts, the start page, the Systemcheck, the 404 page
    for page in pages:
        text = page.read_text(encoding="utf-8")
        [meta] = POLICY.findall(text)
        assert html.unescape(meta) == policy, page
        assert text.index("Content-Security-Policy") < text.index("<script"), page
        for body in csp.inline_scripts(text):
            assert csp.script_hash(body) in policy, (page, body[:60])
    for path in ("/", "/ewc/", "/sw.js", "/static/js/main.js"):
        with urllib.request.urlopen(origin + path) as response:
            assert response.headers["Content-Security-Policy"] == header, path


def _use_the_experiment(page, slug):
    label = api.concept(slug).PRESETS[-1].label
    page.get_by_role("button", name=label, exact=True).first.click()
    want = api.run(slug, api.preset_values(slug, label))["summary"]
    page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=want)


def _use_the_replays(page):
    for panel in page.locator("section.pl-replay").all():
        panel.locator(".pl-r-next").click()
        panel.locator('input[type="range"]').fill(str(panel.evaluate("el => window.probierlabor.player(el).length")))


def _use_the_share_toolbar_and_presentation_mode(page):
    page.get_by_role("button", name="QR-Code", exact=True).click()
    page.get_by_role("dialog", name="QR-Code dieser Einstellung").locator(".pl-qr-code svg").wait_for()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Link kopieren", exact=True).click()
    ab = page.get_by_role("button", name="A/B-Vergleich", exact=True)
    ab.click()
    page.locator(".pl-ab").wait_for()
    ab.click()
    page.keyboard.press("p")
    page.wait_for_function("() => document.documentElement.classList.contains('pl-present')")
    for _ in range(3):
        if not page.evaluate("document.documentElement.classList.contains('pl-present')"):
            break
        page.keyboard.press("Escape")


# Python tags added once Python runs (a missed escape in the page's HTML would add them): a runtime that
# watches the page for such tags, as PyScript does, would run each as Python.
# A script element's text is refused by Trusted Types whatever its type; markup and other elements pass.
INJECT = """() => {
  const code = 'import js; js.window.__plPython = True';
  const script = Object.assign(document.createElement('script'), { type: 'py' });
  let refused = null;
  try { script.textContent = code; } catch (e) { refused = e.name; }
  const element = Object.assign(document.createElement('py-script'), { textContent: code });
  const holder = document.createElement('div');
  holder.innerHTML = '<script type="py">' + code + '</script><py-script>' + code + '</py-script>';
  document.body.append(script, element, holder);
  return refused;
}"""


def _add_python_tags(page):
    assert page.evaluate(INJECT) == "TypeError"
    page.evaluate("window.__plCsp.splice(0)")  # the refusal's report
    # Python itself is idle and answers; anything queued for it ran before this
    assert page.evaluate("window.probierlabor.config.pyodide.then(py => py.runPythonAsync('1 + 1'))") == 2
    page.wait_for_timeout(1000)
    assert page.evaluate("window.__plPython") is None


def _refusal(message):
    """A console line of the policy: a blocked load or script, or a refused Trusted Types assignment."""
    return "Content Security Policy" in message or "requires 'Trusted" in message


def test_nothing_the_site_does_breaks_its_policy_online_or_offline(browser):
    server = start_server(SITE)  # its own server: switched off for the offline part
    origin = server.origin
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    context.add_init_script(WATCH)
    violations = []

    def seen(where):
        violations.extend((where, *found) for found in page.evaluate("window.__plCsp.splice(0)"))

    try:
        page = context.new_page()
        v = record(page, origin)
        page.goto(origin + "/")
        # the policy is in force: a script slipped into the page does not run, and that is reported.
        # Its text is refused by Trusted Types (static/js/trusted.js lets only the page's own scripts be
        # set as text), before the script-src hashes would refuse to run it.
        refused = page.evaluate("""() => { const s = document.createElement('script');
            try { s.textContent = 'window.__plRan = true'; } catch (e) { return e.name; }
            document.head.append(s); }""")
        assert refused == "TypeError" and page.evaluate("window.__plRan") is None
        # the gate, whose cleaned fragments morph.js puts into the page, is the module main.js loaded
        # (one instance: its policies could not be made twice), on no window global, and no script can
        # swap its fragment(): an import's binding is read-only outside the module
        assert page.evaluate("""async () => { const gate = await import('/static/js/trusted.js');
            const fragment = gate.fragment;
            try { gate.fragment = () => 'x'; } catch (_) { /* refused, as in a strict-mode script */ }
            return gate.fragment === fragment
                && Object.getOwnPropertyNames(window).filter((key) => key.startsWith('probierlabor'))
                    .join() === 'probierlabor'
                && gate.fragment('<a href="javascript:hit()">1</a>').firstChild.outerHTML === '<a>1</a>'; }""")
        # reported by the meta tag's policy, which alone carries Trusted Types (csp.PAGE_ONLY)
        page.wait_for_function("() => window.__plCsp.length === 1")
        assert [found[0] for found in page.evaluate("window.__plCsp.splice(0)")] == ["require-trusted-types-for"]
        page.wait_for_function("() => true")  # a round trip: the console has reported the two blocks too
        planted = sum(_refusal(m[1]) for m in v.console)

        for slug in [*SLUGS, "systemcheck"]:
            page.evaluate(FOLLOW, f"{origin}/{slug}/")
            page.wait_for_function(ARRIVED, arg=f"/{slug}/", timeout=30_000)
            page.wait_for_function(ALL_READY, timeout=READY_MS)
            if slug != "systemcheck":  # its run (numpy, matplotlib in the worker) in test_runtime.py, offline
                _use_the_experiment(page, slug)  # in test_workshop_ui.py: both fail on a refused load
                _use_the_replays(page)
            if slug == SLUGS[0]:
                _use_the_share_toolbar_and_presentation_mode(page)
                _add_python_tags(page)
            seen(slug)
        page.goto(origin + "/gibt-es-nicht/")
        seen("404")

        # offline: every file from the service worker's cache, the policy from the stored pages
        page.goto(origin + "/")
        page.wait_for_selector('.pl-offline-chip[data-offline-state="ready"]', timeout=180_000)
        stop_server(server)
        context.set_offline(True)
        for path in ("/ewc/", "/kv-cache/", "/systemcheck/"):
            page.goto(origin + path)
            page.wait_for_function(ALL_READY, timeout=READY_MS)
            assert page.evaluate("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]') !== null")
            # Python's memory snapshot, fetched and unpacked under the policy (static/js/runtime/start.js);
            # the pre-rendered experiments are ready before Python is, so its start is awaited first
            page.wait_for_function("() => window.probierlabor.config.snapshot.state !== 'none'", timeout=READY_MS)
            assert page.evaluate("window.probierlabor.config.snapshot.state") == "restored"
            seen("offline " + path)
        assert violations == []
        # a worker (the search index) would report in the console only; the two planted scripts (here
        # and in _add_python_tags) are reported once each
        assert planted == 1 and sum(_refusal(m[1]) for m in v.console) == 2
    finally:
        context.close()
        stop_server(server)
