"""Offline use with the service worker (static/js/offline/offline.js, sw.js from mkdocs_hooks/offline.py): one
visit stores the whole site, then every page works with the server gone; a new version installs beside
the old one and takes over at the next page change; without a secure context a German hint explains why.

These tests start their own server (``start_server``) because they switch it off or swap its files.
"""

from __future__ import annotations

import contextlib
import gzip
import importlib.util
import os
import shutil
from pathlib import Path

import pytest
from conftest import ARGS, CHROMIUM, NOT_FOUND, READY_MS, ROOT, SITE, record, start_server, stop_server
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from probierlabor import SLUGS
from probierlabor.kit import api

pytestmark = pytest.mark.browser

CHIP = ".pl-offline-chip"
# Python's memory snapshot, made by the build (tools/python_snapshot.mjs); every page starts from it
SNAPSHOT = "static/vendor/pyodide/python-snapshot.bin.gz"
PRECACHE_MS = 180_000
ALL_READY = """() => {
  const roots = [...document.querySelectorAll('[data-experiment], [data-replay]')];
  return roots.length > 0 && roots.every(r => r.dataset.state !== 'loading');
}"""


def _site_files(site: Path) -> list[str]:
    """What the service worker must store: every file of the build but sw.js itself."""
    return [rel for rel in (p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
            if rel != "sw.js" and not any(part.startswith(".") for part in rel.split("/"))]


def _chip(page) -> dict:
    return page.eval_on_selector(CHIP, "c => ({...c.dataset})")


# Where the indicator stands in the header (its box, rounded to whole pixels), and a recorder of every box it
# had while its state and words changed on this page.
CHIP_BOX = "c => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round).join(); }"
RECORD_CHIP_BOXES = f"""c => {{ const box = {CHIP_BOX}; window.plChipBoxes = [box(c)];
  new MutationObserver(() => window.plChipBoxes.push(box(c)))
    .observe(c, {{attributes: true, childList: true, characterData: true, subtree: true}}); }}"""


def _wait_offline_ready(page, version=None):
    selector = f'{CHIP}[data-offline-state="ready"]' + (f'[data-offline-version="{version}"]' if version else "")
    page.wait_for_selector(selector, timeout=PRECACHE_MS)
    return _chip(page)


def _cache_names(page) -> list[str]:
    """The service worker's caches."""
    return [name for name in page.evaluate("caches.keys()") if name.startswith("probierlabor ")]


def _assert_everything_ready(page, where):
    page.wait_for_function(ALL_READY, timeout=READY_MS)
    states = page.eval_on_selector_all(
        "[data-experiment], [data-replay]",
        "rs => rs.map(r => (r.dataset.experiment || r.dataset.replay) + '=' + r.dataset.state)")
    assert all(s.endswith("=ready") for s in states), (where, states)
    return states


def _first_visit(context, origin, path):
    """A page of the site in a context that has never seen it, with Python ready."""
    page = context.new_page()
    v = record(page, origin)
    page.goto(origin + path)
    _assert_everything_ready(page, "first visit")
    return page, v


def test_after_one_visit_every_page_works_with_the_server_gone(browser, tmp_path):
    # served from a sub-folder, as on a school server next to other things
    shutil.copytree(SITE, tmp_path / "schule" / "probierlabor")  # a copy: tools/serve.py follows no link out of its folder
    server = start_server(tmp_path / "schule")
    base = server.origin + "/probierlabor"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        v = record(page, server.origin)
        page.goto(base + "/")
        page.eval_on_selector(CHIP, RECORD_CHIP_BOXES)
        chip = _wait_offline_ready(page)
        # the indicator keeps its place while it checks, loads and is ready, and on every page
        boxes = page.evaluate("window.plChipBoxes")
        assert len(set(boxes)) == 1, boxes
        expected = _site_files(SITE)
        assert int(chip["offlineDone"]) == int(chip["offlineTotal"]) == len(expected)
        names = _cache_names(page)
        assert names == [f"probierlabor /probierlabor/ {chip['offlineVersion']}"]
        assert page.evaluate("n => caches.open(n).then(c => c.keys()).then(k => k.length)", names[0]) == len(expected)

        # the server is switched off and the browser is told it is offline: everything comes from the cache
        stop_server(server)
        context.set_offline(True)
        failed = []  # (a request cut short by the next page.goto is no failure of the cache)
        page.on("requestfailed", lambda r: failed.append(r.url) if "ERR_ABORTED" not in (r.failure or "") else None)

        page.goto(base + "/")  # a full load of the start page
        page.wait_for_selector(".pl-map")
        _wait_offline_ready(page)

        # a shared link, loaded in full: Python starts from the stored runtime and its memory snapshot
        first = SLUGS[0]
        preset = api.concept(first).PRESETS[-1]
        expected_run = api.run(first, api.preset_values(first, preset.label))
        link = "&".join(f"{k}={val}" for k, val in expected_run["url"].items())
        page.goto(f"{base}/{first}/?{link}")
        _assert_everything_ready(page, first)
        assert page.inner_text(".pl-summary") == expected_run["summary"]
        assert page.evaluate("window.probierlabor.config.snapshot") == {"state": "restored"}

        # then through every page with „Weiter“, as a reader would
        visited = [first]
        following = page.locator("a.md-footer__link--next")
        while following.count():
            target = following.evaluate("a => a.href")
            following.click()
            # the new address and the new content (its footer no longer points to it): never the old page's link
            page.wait_for_function("""t => location.href === t &&
                [...document.querySelectorAll('a.md-footer__link--next')].every(a => a.href !== t)""", arg=target)
            slug = page.evaluate("location.pathname.split('/').filter(Boolean).pop()")
            visited.append(slug)
            if slug in SLUGS:
                _assert_everything_ready(page, slug)
            assert page.locator(f"{CHIP}[data-offline-state='ready']").count() == 1, slug
            assert page.eval_on_selector(CHIP, CHIP_BOX) == boxes[0], slug
        assert sorted(visited) == sorted([*list(SLUGS), "systemcheck", "glossar"])  # each page once, none left out
        panel = page.inner_text("[data-offline-panel]")
        assert f"Offline bereit: {len(expected)} von {len(expected)} Dateien" in panel

        # a folder address without its slash still opens, and search finds pages offline
        page.goto(f"{base}/ewc")
        page.wait_for_url(f"{base}/ewc/")
        _assert_everything_ready(page, "ewc")
        field = page.locator(".md-search__input").first
        field.click()
        for _ in range(20):
            field.fill("")
            field.press_sequentially("Fisher")
            try:
                page.wait_for_selector(".md-search-result__item", timeout=1500)
                break
            except Exception:
                continue
        # results may first show for a part of the word: wait for the whole one
        page.wait_for_function("() => ((document.querySelector('.md-search-result') || {}).innerText || '').includes('EWC')")

        # an unknown address gets the site's 404 page, styled and with working links inside the sub-folder
        page.goto(f"{base}/gibt-es-nicht/")
        page.wait_for_selector(f"{CHIP}[data-offline-state='ready']")
        assert page.eval_on_selector(CHIP, CHIP_BOX) == boxes[0], "404"
        assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
        page.locator('.md-nav__link[href$="ewc/"]').first.click()
        page.wait_for_url(f"{base}/ewc/")
        _assert_everything_ready(page, "ewc from the 404 page")

        assert failed == [], "with the server gone, every request must be answered from the cache"
        assert v.foreign_requests() == []
        # the browser notes the 404 page's own status, once; nothing else went wrong
        assert v.console_errors() == [("error", NOT_FOUND)]
    finally:
        context.close()
        stop_server(server)


def test_alles_vorladen_restores_files_the_browser_dropped(browser, origin):
    context = browser.new_context()
    try:
        page = context.new_page()
        v = record(page, origin)
        page.goto(origin + "/systemcheck/")
        chip = _wait_offline_ready(page)
        total = int(chip["offlineTotal"])
        dropped = ["static/vendor/pyodide/pyodide.asm.wasm", "ewc/", "search/search_index.json"]
        page.evaluate("""async (paths) => {
            const cache = await caches.open((await caches.keys())[0]);
            for (const p of paths) if (!await cache.delete(new URL(p, location.origin + '/').href)) throw new Error(p);
        }""", dropped)
        page.evaluate("window.probierlabor.offline.refresh()")
        panel = page.locator('[data-offline-panel][data-offline-state="idle"]')
        panel.wait_for()
        assert f"({total - 3} von {total} Dateien)" in panel.inner_text()
        button = page.get_by_role("button", name="Alles vorladen")
        assert button.is_enabled()
        button.click()
        page.wait_for_selector('[data-offline-panel][data-offline-state="ready"]', timeout=PRECACHE_MS)
        assert _chip(page)["offlineDone"] == str(total)
        assert button.is_disabled()
        size = page.evaluate("""async () => {
            const cache = await caches.open((await caches.keys())[0]);
            const r = await cache.match(new URL('static/vendor/pyodide/pyodide.asm.wasm', location.origin + '/').href);
            return (await r.arrayBuffer()).byteLength;
        }""")
        assert size == (SITE / "static/vendor/pyodide/pyodide.asm.wasm").stat().st_size
        assert v.console_errors() == []
    finally:
        context.close()


def test_a_half_copied_site_is_not_stored_and_says_which_file_is_wrong(browser, tmp_path):
    """A file on the server that does not match the build (an interrupted copy) must not end up in the
    offline copy: the download stops with a German message naming the file, and a retry after the
    repair completes it."""
    copy = tmp_path / "site"
    shutil.copytree(SITE, copy)
    broken = "assets/javascripts/lunr/min/lunr.multi.min.js"  # a file this page never loads itself (one language)
    index = copy / broken
    good = index.read_bytes()
    index.write_bytes(good[: len(good) // 2])
    server = start_server(copy)
    context = browser.new_context()
    downloads = []
    context.on("request", lambda r: downloads.append(r.url[len(server.origin):]) if r.service_worker else None)
    try:
        page = context.new_page()
        v = record(page, server.origin)
        page.goto(server.origin + "/systemcheck/")
        # At once, without waiting for Python – unless the precache that Python's start triggers has
        # begun already (a slow machine), which disables the button until it ends in the same error.
        page.wait_for_function("""() => {
            const b = document.querySelector('[data-offline-preload]');
            const p = document.querySelector('[data-offline-panel]');
            return (b && !b.disabled) || (p && p.dataset.offlineState === 'error');
        }""", timeout=PRECACHE_MS)
        button = page.get_by_role("button", name="Alles vorladen")
        with contextlib.suppress(PlaywrightTimeout):  # the automatic precache took over in between; same error
            button.click(timeout=5_000)

        panel = page.locator('[data-offline-panel][data-offline-state="error"]')
        panel.wait_for(timeout=PRECACHE_MS)
        text = panel.inner_text()
        assert "Vorladen unterbrochen" in text and f"{broken} passt nicht zu dieser Version" in text
        assert _chip(page)["offlineState"] == "error"
        assert page.evaluate("navigator.serviceWorker.controller") is None
        # Python's start (which would begin the download on its own) does not retry behind the reader's back:
        # the error and the retry button stay until the reader acts.
        downloads.clear()
        page.wait_for_function("() => { const r = window.probierlabor && window.probierlabor.runtime;"
                               " return r && (r.run || r.failure); }", timeout=PRECACHE_MS)
        page.wait_for_timeout(4000)  # longer than offline/offline.js's QUIET_MS before an automatic start
        assert downloads == [] and _chip(page)["offlineState"] == "error"
        assert page.get_by_role("button", name="Alles vorladen").is_enabled()

        index.write_bytes(good)  # the copy is repaired: a second try keeps what it had and completes
        downloads.clear()
        page.get_by_role("button", name="Alles vorladen").click()
        assert int(_wait_offline_ready(page)["offlineDone"]) == len(_site_files(copy))
        assert set(downloads) <= {"/sw.js", "/" + broken}, downloads
        assert v.console_errors() == []
    finally:
        context.close()
        stop_server(server)


def _load_hook():
    spec = importlib.util.spec_from_file_location("offline_hook", ROOT / "mkdocs_hooks" / "offline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _switch(link: Path, target: Path):
    fresh = link.with_name(link.name + ".new")
    os.symlink(target, fresh)
    os.replace(fresh, link)  # atomic: the server sees either version, never a mix


def _version_b(tmp_path: Path) -> tuple[Path, str]:
    """Version B: the same build with ewc's page changed, and its own sw.js (as a new deployment would have)."""
    new = tmp_path / "b"
    shutil.copytree(SITE, new)
    page_b = new / "ewc" / "index.html"
    page_b.write_text(page_b.read_text(encoding="utf-8").replace(
        "</article>", '<p id="pl-neu">Neue Version dieser Seite</p></article>', 1), encoding="utf-8")
    return new, _load_hook().write_service_worker(new)


def test_a_new_version_installs_beside_the_old_and_takes_over_at_the_next_page_change(browser, tmp_path):
    new, version_b = _version_b(tmp_path)
    live = tmp_path / "live"
    os.symlink(SITE, live)
    server = start_server(live)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    downloads = []
    context.on("request", lambda r: downloads.append(r.url) if r.service_worker else None)
    try:
        tab = context.new_page()
        v = record(tab, server.origin)
        tab.goto(server.origin + "/overfitting/")
        _assert_everything_ready(tab, "overfitting")
        version_a = _wait_offline_ready(tab)["offlineVersion"]
        assert version_a != version_b
        other = context.new_page()  # a second tab, left open on the old version
        w = record(other, server.origin)
        other.goto(server.origin + "/ewc/")
        _assert_everything_ready(other, "ewc")
        for p in (tab, other):
            p.evaluate("window.__in_use = true")

        _switch(live, new)
        downloads.clear()
        tab.evaluate("window.probierlabor.offline.checkForUpdate()")
        for p in (tab, other):
            p.wait_for_selector(f'{CHIP}[data-offline-state="update"]', timeout=PRECACHE_MS)
            note = p.locator(".pl-offline-note").inner_text()
            assert note.startswith("Neue Version verfügbar – beim nächsten Seitenwechsel aktiv"), note
        # only what changed came over the network; every other file was copied from the old cache
        # (each tab may ask for sw.js on its own; the site's files are fetched by the installing worker only)
        fetched = [u[len(server.origin):] for u in downloads]
        assert sorted(set(fetched)) == ["/ewc/", "/sw.js"] and fetched.count("/ewc/") == 1, fetched
        assert len(_cache_names(tab)) == 2

        # the page in use keeps working and is not reloaded
        label = api.concept("overfitting").PRESETS[-1].label
        tab.get_by_role("button", name=label, exact=True).click()
        expected = api.run("overfitting", api.preset_values("overfitting", label))["summary"]
        tab.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=expected)
        assert tab.evaluate("window.__in_use") is True

        # the next page change loads the new version in full; the old cache is gone
        tab.locator('.md-nav__link[href$="ewc/"]').first.click()
        tab.wait_for_selector("#pl-neu", timeout=30_000)
        assert tab.evaluate("window.__in_use") is None
        _assert_everything_ready(tab, "ewc (B)")
        assert _wait_offline_ready(tab, version_b)["offlineDone"] == _chip(tab)["offlineTotal"]
        assert len(_cache_names(tab)) == 1 and _cache_names(tab)[0].endswith(version_b)

        # the other tab: still the old page, still working, still not reloaded ...
        other.wait_for_timeout(300)
        label = api.concept("ewc").PRESETS[-1].label
        other.get_by_role("button", name=label, exact=True).click()
        expected = api.run("ewc", api.preset_values("ewc", label))["summary"]
        other.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=expected)
        assert other.evaluate("window.__in_use") is True and other.locator("#pl-neu").count() == 0
        assert other.locator(".pl-offline-note").is_visible()
        # ... until its next page change, which loads the new version
        other.locator('.md-nav__link[href$="overfitting/"]').first.click()
        other.wait_for_url("**/overfitting/")
        other.wait_for_load_state()
        assert other.evaluate("window.__in_use") is None
        _assert_everything_ready(other, "overfitting (B)")
        assert _wait_offline_ready(other, version_b)
        for watched in (v, w):
            assert watched.console_errors() == [] and watched.foreign_requests() == []
    finally:
        context.close()
        stop_server(server)


def test_plain_http_from_a_network_address_explains_why_there_is_no_offline_copy(browser):
    """A school server reached as http://schule.test: no secure context, so no service worker – the site
    still works, and the indicator and the Systemcheck say why in German."""
    server = start_server(SITE)
    # a second Chromium that resolves schule.test to this machine, as a school's DNS would
    network = browser.browser_type.launch(executable_path=CHROMIUM,
                                          args=[*ARGS, "--host-resolver-rules=MAP schule.test 127.0.0.1"])
    try:
        page = network.new_page()
        origin = f"http://schule.test:{server.server_port}"
        v = record(page, origin)
        page.goto(origin + "/ewc/")
        assert page.evaluate("window.isSecureContext") is False
        _assert_everything_ready(page, "ewc")
        assert _chip(page)["offlineState"] == "insecure"
        page.locator(CHIP).click()
        panel = page.locator('[data-offline-panel][data-offline-state="insecure"]')
        panel.wait_for()
        text = panel.inner_text()
        assert "https://" in text and "127.0.0.1" in text and "start.bat" in text
        assert page.get_by_role("button", name="Alles vorladen").count() == 0  # nothing to offer here
        assert page.evaluate("navigator.serviceWorker === undefined")
        assert v.console_errors() == [] and v.foreign_requests() == []
    finally:
        network.close()
        stop_server(server)


def test_a_file_planted_in_the_offline_cache_is_neither_served_nor_copied_into_a_new_version(browser, tmp_path):
    """Caches belong to the origin, not to the site: another app on the same host and port can write into
    Probierlabor's cache, the hash header included. A stored body that does not match the build is never
    shown, a stored type is never served, and a new version does not take a planted body over from the
    old cache. Once another app answers at the address (sw.js: 404), the copy removes itself."""
    shown, copied = [slug for slug in SLUGS if slug != "ewc"][:2]
    new, version_b = _version_b(tmp_path)
    live = tmp_path / "live"
    os.symlink(SITE, live)
    server = start_server(live)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.origin + "/systemcheck/")
        _wait_offline_ready(page)
        plant = """async ([path, html]) => {
            const cache = await caches.open((await caches.keys())[0]);
            const url = new URL(path, location.origin + '/').href;
            const stored = await cache.match(url);
            await cache.put(url, new Response(html, { headers: stored.headers }));
        }"""
        planted = '<!doctype html><title>Untergeschoben</title><p id="pl-planted">fremd</p>'
        for slug in (shown, copied):
            page.evaluate(plant, [f"{slug}/", planted])

        page.goto(f"{server.origin}/{shown}/")
        assert page.title() != "Untergeschoben" and page.locator("#pl-planted").count() == 0
        assert page.locator("[data-experiment]").count() == 1

        # the right body with a document's type: still served as what its name says
        script = "static/js/fmt.js"
        page.evaluate("""async (path) => {
            const cache = await caches.open((await caches.keys())[0]);
            const url = new URL(path, location.origin + '/').href;
            const stored = await cache.match(url);
            const headers = new Headers(stored.headers);
            headers.set('content-type', 'text/html');
            await cache.put(url, new Response(await stored.arrayBuffer(), { headers }));
        }""", script)
        served = page.evaluate("""async (path) => { const r = await fetch(path);
            return [r.headers.get("content-type"), r.headers.get("x-content-type-options"),
                    (await r.arrayBuffer()).byteLength]; }""",
                               "/" + script)
        assert served == ["text/javascript", "nosniff", (SITE / script).stat().st_size]

        _switch(live, new)
        page.evaluate("window.probierlabor.offline.checkForUpdate()")
        page.wait_for_selector(f'{CHIP}[data-offline-state="update"]', timeout=PRECACHE_MS)
        stored = page.evaluate("""async ([name, path]) => {
            const cache = await caches.open(name);
            const r = await cache.match(new URL(path, location.origin + '/').href);
            return r && r.text();
        }""", [next(n for n in _cache_names(page) if n.endswith(version_b)), f"{copied}/"])
        assert stored == (new / copied / "index.html").read_text(encoding="utf-8")

        # Probierlabor is gone, another app answers on this port: its sw.js answers 404, and the first
        # full page load ends the stored copy, so that the next one shows the other app
        other = tmp_path / "andere"
        other.mkdir()
        (other / "index.html").write_text("<!doctype html><title>Andere App</title><p>hallo</p>", encoding="utf-8")
        _switch(live, other)
        page.goto(server.origin + "/")
        gone = """async () => [Boolean(await navigator.serviceWorker.getRegistration()), await caches.keys()]"""
        for _ in range(150):  # the copy ends itself after answering the load (a request to sw.js)
            if page.evaluate(gone) == [False, []]:
                break
            page.wait_for_timeout(200)
        assert page.evaluate(gone) == [False, []]
        page.goto(server.origin + "/")
        assert page.title() == "Andere App"
    finally:
        context.close()
        stop_server(server)


def _snapshot_bytes(kind: str) -> bytes:
    """What a server could send instead of the built python-snapshot.bin.gz."""
    raw = gzip.decompress((SITE / SNAPSHOT).read_bytes())
    if kind == "damaged":
        return gzip.compress(bytes([7]) * len(raw))
    if kind == "cut off":  # a half-copied file: the unpacking fails
        return (SITE / SNAPSHOT).read_bytes()[:1_000_000]
    if kind == "too small":  # whole, but too little memory for Pyodide's module: it fails to link
        return gzip.compress(raw[:4 * 2**20])
    if kind == "from another Pyodide":  # the build id Pyodide checks, words 4-11 of the header
        return gzip.compress(raw[:16] + bytes(32) + raw[48:])
    raise ValueError(kind)


@pytest.mark.parametrize("kind", ["damaged", "cut off", "too small", "from another Pyodide", "missing"])
def test_a_bad_python_snapshot_is_left_aside_and_python_starts_as_usual(browser, origin, kind):
    """A snapshot that does not load (a half-copied USB stick, a server with another build) must never keep
    Python from starting."""
    context = browser.new_context()
    try:
        page = context.new_page()
        v = record(page, origin)
        if kind == "missing":
            page.route(f"**/{SNAPSHOT}", lambda route: route.fulfill(status=404, body="fehlt"))
        else:
            body = _snapshot_bytes(kind)
            page.route(f"**/{SNAPSHOT}", lambda route: route.fulfill(body=body, content_type="application/gzip"))
        page.goto(origin + "/ewc/")
        page.wait_for_function("() => window.probierlabor.config.snapshot.state !== 'none'", timeout=READY_MS)
        assert page.evaluate("window.probierlabor.config.snapshot") == {"state": "off"}
        # what follows is the one usual start (python-start.mjs), whatever was wrong: one kind waits for it
        if kind == "too small":
            _assert_everything_ready(page, "with the bad snapshot")
            page.get_by_role("button", name="EWC", exact=True).click()
            expected = api.run("ewc", api.preset_values("ewc", "EWC"))
            page.wait_for_function("s => document.querySelector('.pl-summary').innerText === s", arg=expected["summary"])
        assert v.page_errors == []
    finally:
        context.close()


def test_every_visit_draws_its_own_random_numbers(browser, origin):
    """The snapshot was made once, at build time, with Python's random module already seeded: every visit
    would draw the same „random“ numbers (in the Werkstatt's own code, say) unless it is seeded anew."""
    drawn = []
    for _ in range(2):
        context = browser.new_context()
        try:
            page, _v = _first_visit(context, origin, "/ewc/")
            assert page.evaluate("window.probierlabor.config.snapshot") == {"state": "restored"}
            drawn.append(page.evaluate(
                "window.probierlabor.config.pyodide.then(py => py.runPython('import random; random.random()'))"))
        finally:
            context.close()
    assert drawn[0] != drawn[1]


def test_the_offline_copy_waits_while_the_reader_works(browser, origin):
    """Storing 39 MB takes a core for seconds and makes every move of a drag slower while it runs, so it
    starts once the reader pauses, not 3 s after Python is ready mid-drag."""
    context = browser.new_context()
    try:
        page, v = _first_visit(context, origin, "/overfitting/")
        slider = page.locator('[data-experiment] input[type="range"]').first
        slider.focus()
        for i in range(28):  # 5,6 s of slider steps: past offline/offline.js's QUIET_MS (3 s) after ready
            slider.press("ArrowRight" if i % 4 < 2 else "ArrowLeft")
            page.wait_for_timeout(200)
        assert _chip(page)["offlineState"] == "idle"
        _wait_offline_ready(page)  # the pause: storing starts by itself
        assert v.page_errors == [] and v.foreign_requests() == []
    finally:
        context.close()
