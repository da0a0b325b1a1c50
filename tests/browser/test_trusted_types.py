"""The Trusted Types gate (static/js/trusted.js): every string that becomes markup or script passes it,
no other policy can be made, attacks that a missed escape would let in run nothing, and the site's own
markup comes through it unchanged – held against DOMPurify, the library it does not use (see trusted.js
for why), on the same inputs."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT
from probierlabor import SLUGS

pytestmark = pytest.mark.browser

PURIFY = ROOT / "node_modules" / "dompurify" / "dist" / "purify.min.js"
BLANK = "/leer-ohne-richtlinie/"  # answered by the test itself, with no policy

# Markup an escape forgotten somewhere might let into a page. Each calls hit(name) if any of it runs;
# the attacks on sanitizers themselves (the "mutation" ones: markup that parses differently once written
# out again) are among them.
ATTACKS = {
    "img": '<img src="x:" onerror="hit(\'img\')">',
    "upper": '<IMG SRC="x:" ONERROR="hit(\'upper\')">',
    "svg-load": '<svg onload="hit(\'svg-load\')"></svg>',
    "toggle": '<details open ontoggle="hit(\'toggle\')"><summary>x</summary></details>',
    "focus": '<input autofocus onfocus="hit(\'focus\')">',
    "source": '<video><source onerror="hit(\'source\')"></video>',
    "link": '<a href="javascript:hit(\'link\')">x</a>',
    "link-case": '<a href="JaVaScRiPt:hit(\'link-case\')">x</a>',
    "link-entities": '<a href="&#106;avascript&#58;hit(\'link-entities\')">x</a>',
    "link-tab": '<a href="jav&#9;ascript:hit(\'link-tab\')">x</a>',
    "link-space": '<a href=" &#14; javascript:hit(\'link-space\')">x</a>',
    "svg-link": '<svg><a href="javascript:hit(\'svg-link\')"><text y="20">x</text></a></svg>',
    "svg-xlink": '<svg><a xlink:href="javascript:hit(\'svg-xlink\')"><text y="20">x</text></a></svg>',
    "svg-animate": '<svg><a><animate attributeName="href" values="javascript:hit(\'svg-animate\')" dur="0.01s" '
                   'fill="freeze"/><text y="20">x</text></a></svg>',
    "svg-set": '<svg><a><set attributeName="href" to="javascript:hit(\'svg-set\')"/><text y="20">x</text></a></svg>',
    "form": '<form action="javascript:hit(\'form\')"><button>x</button></form>',
    "formaction": '<form><button formaction="javascript:hit(\'formaction\')">x</button></form>',
    "srcdoc": '<iframe srcdoc="<script>parent.hit(\'srcdoc\')</script>"></iframe>',
    "iframe": '<iframe src="javascript:parent.hit(\'iframe\')"></iframe>',
    "object": '<object data="javascript:hit(\'object\')"></object>',
    "embed": '<embed src="javascript:hit(\'embed\')">',
    "script": "<script>hit('script')</script>",
    "svg-script": "<svg><script>hit('svg-script')</script></svg>",
    "noscript": '<noscript><p title="</noscript><img src=x: onerror=hit(\'noscript\')>"></p></noscript>',
    "mglyph": "<form><math><mtext></form><form><mglyph><style></math><img src=x: onerror=hit('mglyph')>",
    "svg-style": "<svg></p><style><a id=\"</style><img src=x: onerror=hit('svg-style')>\">",
    "math-style": "<math><mi><style><img src=x: onerror=hit('math-style')></style></mi></math>",
    "base": '<base href="javascript:hit(\'base\')//">',
}

# In a blank page without a policy, so that nothing but the gate stands between markup and code. `gate`
# is the module static/js/trusted.js, imported there (BLANK).
HARNESS = """async ([attacks, how]) => {
  window.hits = window.hits || [];
  window.hit = (name) => window.hits.push(how + ':' + name);
  const box = document.createElement('div');
  // a form that lost its javascript: address would reload this page: only such an address may submit
  box.addEventListener('submit', (e) => {
    const to = (e.submitter && e.submitter.getAttribute('formaction')) || e.target.getAttribute('action') || '';
    if (!/javascript:/i.test(to)) e.preventDefault();
  });
  document.body.append(box);
  for (const markup of Object.values(attacks)) {
    const slot = document.createElement('div');
    box.append(slot);
    if (how === 'raw') slot.innerHTML = markup;
    else if (how === 'fragment') slot.append(gate.fragment(markup));
    else if (how === 'text') slot.innerHTML = trustedTypes.defaultPolicy.createHTML(markup, 'Element innerHTML');
    else slot.innerHTML = DOMPurify.sanitize(markup);
  }
  await new Promise((r) => setTimeout(r, 300));  // loads, errors, the SVG animation's first frame
  for (const el of box.querySelectorAll('a, button, text')) {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  }
  box.querySelectorAll('input').forEach((el) => el.focus());
  await new Promise((r) => setTimeout(r, 700));
  box.remove();
  return window.hits.filter((h) => h.startsWith(how + ':')).map((h) => h.slice(how.length + 1));
}"""

# A plain string written as markup, as the theme writes it.
WRITE = """() => { const d = document.createElement('div');
  d.innerHTML = '<b>fett</b><img src="x:" onerror="hit()">'; return d.innerHTML; }"""

# The markup as the browser parses it, without any cleaning, and as each gate hands it on.
SAME = """([markup]) => {
  const t = document.createElement('template');
  t.innerHTML = markup;
  const f = document.createElement('template');
  f.content.append(gate.fragment(markup));
  return { parsed: t.innerHTML, fragment: f.innerHTML,
           text: String(trustedTypes.defaultPolicy.createHTML(markup, 'Element innerHTML')),
           purified: DOMPurify.sanitize(markup) };
}"""


def test_the_gate_lets_no_attack_run_and_keeps_the_sites_markup(browser, origin, check):
    context = browser.new_context()
    try:
        page = context.new_page()
        # The site under its policy: no policy besides the gate's two can be made, and what the page
        # itself writes keeps working through it.
        page.goto(origin + "/kv-cache/")
        page.wait_for_function("""() => [...document.querySelectorAll('[data-experiment], section.pl-replay')]
            .every(r => r.dataset.state === 'ready')""", timeout=90_000)
        with check("no other policy"):
            made = page.evaluate("""() => ['default', 'probierlabor-parse', 'mine'].map((name) => {
                try { trustedTypes.createPolicy(name, { createHTML: (s) => s }); return name; }
                catch (e) { return null; } })""")
            assert made == [None, None, None]
        with check("plain strings pass the default gate"):
            left = page.evaluate(WRITE)
            assert left == '<b>fett</b><img src="x:">'
        with check("a page fetched for instant navigation keeps its scripts"):
            kept = page.evaluate("""async () => {
                const text = await (await fetch(location.href)).text();
                const doc = new DOMParser().parseFromString(text, 'text/html');
                return { src: doc.querySelectorAll('script[src]').length,
                         inline: doc.querySelectorAll('script:not([src])').length,
                         content: doc.querySelector('article') !== null }; }""")
            raw = (ROOT / "site" / "kv-cache" / "index.html").read_text(encoding="utf-8")
            assert kept == {"src": len(re.findall(r"<script\b[^>]*\ssrc=", raw)), "inline": raw.count("<script>")
                            + raw.count('<script id="__config"'), "content": True}
        markup = page.evaluate("document.querySelector('article').innerHTML")  # experiment, replays, formulas

        # A blank page of the site's origin without a policy: the gate, imported as main.js imports it,
        # and DOMPurify side by side, on the same inputs. In a context of its own, where the site's
        # service worker (registered by the visit above) cannot answer for the page.
        context.close()
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        page.route(origin + BLANK, lambda route: route.fulfill(content_type="text/html",
                                                               body="<!DOCTYPE html><title>leer</title>"))
        # A module of main.js that fails to load stops main.js, not the gate: the theme still writes its
        # markup through the gate and changes pages instantly (the tab's window stays).
        failed = []
        page.route("**/static/js/a11y.js", lambda route: (failed.append(route.request.url), route.fulfill(status=404)))
        page.goto(origin + "/overfitting/")
        with check("a module of main.js that fails to load leaves the gate standing"):
            assert failed and page.evaluate("window.probierlabor") is None  # main.js did not run
            assert page.evaluate(WRITE) == '<b>fett</b><img src="x:">'
            page.evaluate("window.__stay = true")
            # the menu's first page: its link is on the first screen however long the menu grows
            page.locator(f"a.md-nav__link[href$='{SLUGS[0]}/']").first.click()
            page.wait_for_function(f"() => document.querySelector('[data-experiment]').dataset.experiment === '{SLUGS[0]}'")
            assert page.evaluate("window.__stay") is True
        page.goto(origin + BLANK)
        page.evaluate("import('/static/js/trusted.js').then((module) => { window.gate = module; })")
        page.add_script_tag(path=str(PURIFY))
        with check("the attacks are real: unguarded, most of them run"):
            ran = page.evaluate(HARNESS, [ATTACKS, "raw"])
            assert len(set(ran)) >= 10, ran
        for how in ("fragment", "text", "purify"):
            with check(f"nothing runs through {how}"):
                assert page.evaluate(HARNESS, [ATTACKS, how]) == []
        with check("the site's own markup passes unchanged"):
            out = page.evaluate(SAME, [markup])
            assert len(out["parsed"]) > 50_000
            assert out["fragment"] == out["parsed"]
            assert out["text"] == out["parsed"]
        with check("what DOMPurify keeps of an attack passes the gate as it is"):
            for name, attack in ATTACKS.items():
                out = page.evaluate(SAME, [page.evaluate("([m]) => DOMPurify.sanitize(m)", [attack])])
                assert out["fragment"] == out["parsed"], (name, json.dumps(out))
    finally:
        context.close()
