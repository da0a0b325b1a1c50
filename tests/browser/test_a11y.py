"""Automated accessibility scan (axe-core from npm, run inside the page) on every page of the site.

Every page, in the light and the dark scheme, after its experiment is ready: no violation of
impact "serious" or "critical" against WCAG 2.1 A/AA (in the dark scheme: of the rules on colours). axe cannot judge everything (whether a
summary is helpful, whether a figure is understandable); the keyboard tests and the live summaries
have their own tests.
"""

from __future__ import annotations

import pytest
from conftest import COLOUR_RULES, describe, scan, settle, switch_scheme
from probierlabor import SLUGS

PAGES = ["", *SLUGS, "systemcheck"]


@pytest.mark.parametrize("slug", PAGES, ids=lambda s: s or "start")
def test_no_serious_accessibility_violations(reader, axe_source, check, slug):
    """One visit per page, light first, then dark by the theme's toggle."""
    v = reader(f"/{slug}/" if slug else "/")
    if v.page.locator("[data-experiment]").count():
        v.wait_state()
    if v.page.locator("section.pl-replay").count():
        v.page.wait_for_selector("section.pl-replay:not([data-state='loading'])", timeout=30_000)
    v.page.wait_for_timeout(300)  # a11y.js marks scrollable regions shortly after rendering
    for scheme in ("light", "dark"):
        if scheme == "dark":
            switch_scheme(v.page, scheme)
        settle(v.page)  # colours as shown, not halfway through a fade-in or the change of scheme
        with check(scheme):
            violations = scan(v.page, axe_source, rules=COLOUR_RULES if scheme == "dark" else None)
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
    assert {x["id"] for x in scan(v.page, axe_source, rules=COLOUR_RULES)} == {"color-contrast"}
