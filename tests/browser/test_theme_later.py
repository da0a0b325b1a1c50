"""The theme's bundle runs once Python is ready (static/js/theme-later.js, mkdocs_hooks/theme_later.py),
so that it does not hold up Python's start. The theme must still do all it did: instant page changes
that keep the runtime, every page script hearing every page, and the header working even when Python
never starts."""

from __future__ import annotations

import importlib.util
import re

from conftest import ARRIVED, FOLLOW, READY_MS, ROOT, SITE

from probierlabor import SLUGS
from probierlabor.kit import api

_spec = importlib.util.spec_from_file_location("theme_later", ROOT / "mkdocs_hooks" / "theme_later.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

# when the theme sets window.document$ (its bundle has run) and when the first experiment turns ready
WATCH = """(() => { let themed;
  Object.defineProperty(window, 'document$', {configurable: true, get: () => themed,
    set: (value) => { themed = value; window.__plThemeAt = performance.now(); }});
  new MutationObserver(() => {
    if (window.__plReadyAt === undefined && document.querySelector('[data-experiment][data-state="ready"]'))
      window.__plReadyAt = performance.now();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state']});
})();"""


def test_the_theme_runs_after_the_experiment_and_page_changes_keep_the_runtime(visit):
    first, second = SLUGS[3], SLUGS[4]
    v = visit(f"/{first}/", init_script=WATCH)
    v.wait_state()
    assert v.page.evaluate("window.probierlaborPages.theme()") is True
    ready_at, theme_at = v.page.evaluate("[window.__plReadyAt, window.__plThemeAt]")
    assert ready_at < theme_at, "the theme's bundle ran before the experiment was ready"
    v.page.evaluate("window.__plSameTab = true")
    v.page.evaluate(FOLLOW, f"{v.origin}/{second}/")
    v.page.wait_for_function(ARRIVED, arg=f"/{second}/", timeout=30_000)
    v.wait_state()
    assert v.page.evaluate("window.__plSameTab") is True, "the page change was a full reload"
    # every page script heard the new page: the experiment runs a preset, the share toolbar is there
    label = api.concept(second).PRESETS[-1].label
    v.page.get_by_role("button", name=label, exact=True).first.click()
    want = api.run(second, api.preset_values(second, label))["summary"]
    v.page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=want)
    assert v.page.get_by_role("button", name="Link kopieren", exact=True).count() == 1
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_without_python_the_theme_still_comes_and_its_header_works(visit):
    v = visit("/ewc/", routes=[("**/static/vendor/pyodide/pyodide.mjs", lambda route: route.fulfill(status=404))],
              init_script=WATCH)
    v.wait_state(("error",), timeout=READY_MS)
    v.page.wait_for_function("window.__plThemeAt !== undefined", timeout=10_000)  # not the 15 s fallback
    scheme = v.page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    other = "slate" if scheme == "default" else "default"
    v.page.locator(f"[data-md-component=palette] label[for]:visible").first.click()
    v.page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') === s", arg=other)


def test_every_built_theme_page_links_the_bundle_and_never_runs_it():
    pages = [p for p in SITE.rglob("*.html") if hook.THEME_PAGE in p.read_text(encoding="utf-8")]
    assert len(pages) >= 33
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not hook.BUNDLE.search(text), page
        [href] = re.findall(r'<link rel="prefetch" href="([^"]+)" data-pl-theme-bundle>', text)
        # 404.html links from the site's root (a server shows it at any depth)
        assert ((SITE / href.lstrip("/")) if href.startswith("/") else (page.parent / href)).resolve().is_file(), (page, href)
