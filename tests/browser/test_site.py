"""The site around the experiments: start page map, offline search, nothing from outside."""

import re

import pytest
from conftest import NOT_FOUND, SITE
from playwright.sync_api import expect
from probierlabor import SLUGS
from probierlabor.concepts.graph import PATHS
from probierlabor.kit import api

pytestmark = pytest.mark.browser


def test_start_page_lists_every_concept_and_loads_nothing_from_outside(reader):
    v = reader("/")
    v.page.wait_for_selector(".pl-map")
    # instant navigation may make the links absolute; what counts is the page each one opens
    hrefs = v.page.eval_on_selector_all(".pl-card", "cards => cards.map(c => new URL(c.href).pathname)")
    assert sorted(hrefs) == sorted(f"/{slug}/" for slug in SLUGS)
    maps = " ".join(v.page.locator(".pl-map").all_inner_texts())
    for slug in SLUGS:
        assert api.concept(slug).TEASER in maps, slug
    # the theme's credit stays, in the site's language
    credit = v.page.locator(".md-copyright")
    assert " ".join(credit.inner_text().split()) == "Erstellt mit Material for MkDocs"
    assert credit.locator("a").get_attribute("href") == "https://squidfunk.github.io/mkdocs-material/"
    v.page.locator(f'.pl-card[href$="{SLUGS[0]}/"]').first.click()
    v.page.wait_for_selector(f'[data-experiment="{SLUGS[0]}"]')
    v.wait_state()
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_search_works_offline(visit):
    # a first visit: the index loads in a worker while the reader already types (in the shared tab,
    # on a machine with a load of 17 on 2 cores, the results once stayed hidden: kept cold until understood)
    v = visit("/")
    field = v.page.locator(".md-search__input").first
    field.click()
    for _ in range(20):  # the index loads in a worker; a query typed before it is ready finds nothing
        field.fill("")
        field.press_sequentially("Fisher")
        try:
            v.page.wait_for_selector(".md-search-result__item", timeout=1500)
            break
        except Exception:
            continue
    assert "EWC" in v.page.inner_text(".md-search-result")
    # a result's text shows a formula as it reads, not its TeX („\frac{\exp(z_i/T)}…“);
    # knowledge distillation's section on the temperature holds one such
    field.fill("")
    field.press_sequentially("Temperatur")
    v.page.wait_for_function("() => /Temperatur: weichere Ziele/.test(document.querySelector('.md-search-result').innerText)")
    results = v.page.inner_text(".md-search-result")
    assert "exp(zi/T)" in results and not re.search(r"\\[a-zA-Z]+", results), results
    assert v.foreign_requests() == []


def test_page_changes_keep_the_one_python_runtime_on_any_port(reader):
    # The test server runs on a random port, not site_url's 8000: instant navigation must work anyway.
    v = reader("/overfitting/")
    v.wait_state()
    v.page.evaluate("window.__same_document = true")
    booted = v.page.evaluate("window.probierlabor.runtime.readyAt")
    v.page.locator('.md-nav__link[href$="ewc/"]').first.click()
    v.page.wait_for_selector('[data-experiment="ewc"][data-state="ready"]', timeout=30_000)
    assert v.page.evaluate("window.__same_document === true"), "the click reloaded the page"
    assert v.page.evaluate("window.probierlabor.runtime.readyAt") == booted
    assert v.page.url.endswith("/ewc/")
    # back and forth still works, and the experiment on the first page mounts again
    v.page.go_back()
    v.page.wait_for_selector('[data-experiment="overfitting"][data-state="ready"]', timeout=30_000)
    assert v.page.evaluate("window.__same_document === true")
    assert v.console_errors() == [] and v.foreign_requests() == []


def test_a_page_without_a_replay_loads_no_replay_code(visit):
    """static/js/main.js imports a feature's modules only for a page whose markup declares it: cold on a
    page without a replay, the browser asks for no file of static/js/replay/; the next page has one."""
    v = visit("/overfitting/")
    v.wait_state()
    scripts = [url for url in v.requests if "/static/js/" in url]
    assert any(url.endswith("/static/js/experiment/mount.js") for url in scripts), scripts
    assert [url for url in scripts if "/static/js/replay/" in url] == []
    assert [url for url in v.requests if "realmodel" in url] == []  # „Am echten Modell“: tests/browser/test_real_model.py
    v.page.evaluate("window.__same_document = true")
    v.page.evaluate("document.querySelector('.md-nav__link[href$=\"kv-cache/\"]').click()")  # the theme's navigation
    v.page.wait_for_selector('section.pl-replay[data-replay][data-state="ready"]', timeout=30_000)
    assert v.page.evaluate("window.__same_document === true")
    assert any(url.endswith("/static/js/replay/core.js") for url in v.requests)
    assert v.console_errors() == [] and v.foreign_requests() == []


def test_an_unknown_address_shows_the_sites_404_page_styled_and_leading_back(visit):
    # mkdocs writes 404.html with links from the root; tools/serve.py answers an unknown address with it
    v = visit("/gibt/es/nicht")
    v.page.wait_for_selector(".pl-offline-chip")  # our scripts ran: the links resolved inside the site
    assert "404" in v.page.inner_text("article")
    assert v.page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
    v.page.locator('.md-nav__link[href$="ewc/"]').first.click()
    v.page.wait_for_selector('[data-experiment="ewc"][data-state="ready"]', timeout=30_000)
    assert v.page.url == v.origin + "/ewc/"
    assert v.foreign_requests() == []
    # the browser notes the 404 page's own status, once; no link of the page failed
    assert v.console_errors() == [("error", NOT_FOUND)]


def test_formulas_arrive_typeset_in_katex_fonts_without_katex_script(visit):
    v = visit("/kl-divergence/")  # a first load: what it requests is all the page needs
    v.wait_state()
    assert v.page.locator(".arithmatex .katex-html").count() > 10
    assert v.page.evaluate("document.fonts.check('16px KaTeX_Main') && document.fonts.check('16px KaTeX_Math')")
    loaded = v.page.evaluate("[...document.fonts].filter(f => f.family.startsWith('KaTeX') && f.status === 'loaded').length")
    assert loaded >= 2  # the vendored fonts, from this server (foreign requests are checked below)
    assert not [u for u in v.requests if u.endswith(".js") and "katex" in u.lower()]
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_a_learning_path_leads_from_step_to_step_and_the_start_page_marks_the_steps_opened(reader):
    """On a path, „Weiter“ at the bottom of a page leads to the path's next step, not the menu's (KV-Cache →
    FlashAttention)."""
    title, _, slugs = next(path for path in PATHS if "kv-cache" in path[2])  # where the menu's order differs
    titles = {slug: api.concept(slug).TITLE for slug in slugs}
    v = reader("/")
    v.page.wait_for_selector(".pl-map")
    # the header's offline indicator says what a state means for using the site without a network, and its
    # widest words leave the page title room
    rooms = v.page.locator(".pl-offline-chip .pl-offline-room").all_text_contents()
    assert "Offline noch nicht bereit" in rooms and "Nicht offline" not in rooms, rooms
    assert v.page.locator(".md-header__title").evaluate("t => t.getBoundingClientRect().width") > 200
    # the last step of a path: the footer's „Weiter“ leads back to the start page, as the bar does, not off the path
    v.page.locator('.pl-path[data-path="Grundlagen"] li[data-step="gradientenabstieg"] a').click()
    v.page.wait_for_function("() => location.pathname === '/gradientenabstieg/' && document.querySelector('.pl-path-where')")
    assert v.page.locator(".pl-path-bar").get_by_role("link", name="Letzter Schritt – zurück zur Startseite").count() == 1
    nxt = v.page.locator("a.md-footer__link--next")
    assert nxt.evaluate("a => new URL(a.href).pathname") == "/"
    assert " ".join(nxt.inner_text().split()) == "Weiter Startseite (Ende des Lernpfads)"
    nxt.click()
    v.page.wait_for_selector(".pl-map")
    reset = v.page.locator(".pl-paths-reset button")
    if reset.is_visible():  # steps this tab opened in earlier tests
        reset.click()
    v.page.evaluate("window.__same_document = true")
    v.page.locator(f'.pl-path[data-path="{title}"] li[data-step="{slugs[0]}"] a').click()
    kv = slugs.index("kv-cache")
    for i, slug in enumerate(slugs[:kv + 2]):
        if i:  # the footer's „Weiter“, as a reader goes on
            nxt = v.page.locator("a.md-footer__link--next")
            assert nxt.evaluate("a => new URL(a.href).pathname") == f"/{slug}/"
            assert " ".join(nxt.inner_text().split()) == f"Weiter {titles[slug]}"
            nxt.click()
        v.page.wait_for_function("p => location.pathname === p && document.querySelector('.pl-path-where')", arg=f"/{slug}/")
        bar = v.page.locator(".pl-path-bar")
        # the bar is redrawn once the new page is in place; until then the previous step's bar may still show
        expect(bar.locator(".pl-path-where")).to_have_text(f"Lernpfad ‚{title}‘, Schritt {i + 1} von {len(slugs)}")
        if i:
            assert bar.get_by_role("link", name=f"← {titles[slugs[i - 1]]}").count() == 1
        assert bar.get_by_role("link", name=f"{titles[slugs[i + 1]]} →").count() == 1
    assert slugs[kv + 1] == "greedy-decoding"  # the menu's next after KV-Cache is FlashAttention
    assert v.page.evaluate("window.__same_document === true"), "a page change reloaded the page (and Python)"

    # leaving the path: the bar goes, the footer follows the menu again
    v.page.get_by_role("button", name="Pfad verlassen").click()
    assert v.page.locator(".pl-path-bar").count() == 0
    menu_next = v.page.evaluate("new URL(document.querySelector('a.md-footer__link--next').href).pathname")
    assert menu_next != f"/{slugs[kv + 2]}/"

    # the start page marks the steps opened
    v.page.locator(".md-header__button.md-logo").first.click()
    v.page.wait_for_selector(".pl-path-progress:not([hidden])")
    section = v.page.locator(f'.pl-path[data-path="{title}"]')
    done = section.locator("li.pl-step-done").evaluate_all("items => items.map(li => li.dataset.step)")
    assert done == list(slugs[:kv + 2])
    assert section.locator(".pl-path-progress").inner_text() == (
        f"{kv + 2} von {len(slugs)} Schritten besucht. Weiter mit: {titles[slugs[kv + 2]]}")
    assert v.console_errors() == [] and v.foreign_requests() == []


def test_no_page_of_the_built_site_has_a_number_field():
    """A browser's number field reads „1,5“ as 15 or as nothing: every numeric field of the site is typed
    text that Python parses (kit/contract.py), and no script makes one either."""
    pages = sorted(SITE.rglob("*.html"))
    scripts = sorted((SITE / "static/js").rglob("*.js"))
    assert pages and scripts
    number = re.compile(r"""type=["']?number\b|\.type\s*=\s*["']number["']""")
    assert [str(f.relative_to(SITE)) for f in pages + scripts if number.search(f.read_text(encoding="utf-8"))] == []
