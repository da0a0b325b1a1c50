"""Automated accessibility scan (axe-core from npm, run inside the page) on every page of the site.

Every page, in the light and the dark scheme, after its experiment is ready: no violation of
impact "serious" or "critical" against WCAG 2.1 A/AA. axe cannot judge everything (whether a
summary is helpful, whether a figure is understandable); the keyboard tests and the live summaries
have their own tests.
"""

from __future__ import annotations

import pytest
from conftest import describe, scan, settle

from probierlabor import SLUGS

PAGES = ["", *SLUGS, "systemcheck"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("slug", PAGES, ids=lambda s: s or "start")
def test_no_serious_accessibility_violations(reader, axe_source, slug, scheme):
    v = reader(f"/{slug}/" if slug else "/", color_scheme=scheme)
    if v.page.locator("[data-experiment]").count():
        v.wait_state()
    if v.page.locator("section.pl-replay").count():
        v.page.wait_for_selector("section.pl-replay:not([data-state='loading'])", timeout=30_000)
    v.page.wait_for_timeout(300)  # a11y.js marks scrollable regions shortly after rendering
    settle(v.page)  # colours as shown, not halfway through a fade-in
    violations = scan(v.page, axe_source)
    assert not violations, describe(violations)


def test_the_scan_finds_a_real_violation(reader, axe_source):
    """The scan itself works: an image without alternative text and grey-on-grey text are reported."""
    v = reader("/ewc/")
    v.wait_state()
    v.page.evaluate("""() => {
        const p = document.createElement('p');
        p.textContent = 'kaum lesbar';
        p.style.cssText = 'color:#ccc;background:#ddd';
        document.querySelector('article').appendChild(p);
    }""")
    ids = {x["id"] for x in scan(v.page, axe_source)}
    assert "color-contrast" in ids
