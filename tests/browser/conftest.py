"""Real-browser fixtures: Debian's Chromium driven by Playwright against the built site on loopback.

Two ways to open a page, both recording every request and console message, so each test can assert
that nothing left the site's origin and nothing logged an error:

``reader``  one tab per test worker that moves from page to page the way a reader does: a click on a
            link, which mkdocs-material's instant navigation turns into a page change inside the same
            document. Python cold-starts once per worker instead of once per test (a cold start costs
            3–4 s on a quiet machine and 10–17 s on a busy 2-core CI machine; a page change ≈ 0.2 s).
            Before each test the tab is put back into a known state (see ``Reader.reset``).
``visit``   a fresh browser context and a cold page load, for what is about a first visit: the cold
            start itself, faked responses (routes), JavaScript switched off, reloads, the 404 page
            (not in the sitemap, so no instant navigation), anything that changes the runtime.
"""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]

SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # another build folder, e.g. in parallel work
SCREENSHOTS = ROOT / "out" / "screenshots"
# Pictures for a person to look at (out/screenshots, out/phone), not checks: encoding a PNG costs a
# busy core 0,3–1,5 s, about a minute of every `make test`. `make screenshots` takes them.
PICTURES = os.environ.get("PL_SCREENSHOTS") == "1"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
READY_MS = 90_000  # a cold start on a busy 2-core CI machine; the benchmark measures the real time
BROWSER_FIXTURES = {"browser", "visit", "reader"}


def pytest_collection_modifyitems(items):
    # `-m "not browser"` must leave out every test that drives Chromium, also in a file that forgot
    # its pytestmark: one such file makes the unit run wait minutes for Chromium.
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    # The reader fixture asks at teardown whether the test failed (then its tab is not reused).
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def picture(target, name, folder=SCREENSHOTS, **kwargs):
    """Saves ``target`` (a page or a locator) as ``folder/name.png`` when pictures are asked for."""
    if PICTURES:
        folder.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(folder / f"{name}.png"), **kwargs)


def start_server(folder):
    """tools/serve.py on a free loopback port, in a thread; returns the server (``stop_server`` ends it)."""
    from tools.serve import make_server

    server = make_server(folder, "127.0.0.1", 0)  # port 0: test workers running side by side never collide
    threading.Thread(target=server.serve_forever, daemon=True).start()
    server.origin = f"http://127.0.0.1:{server.server_port}"
    return server


def stop_server(server):
    server.shutdown()
    server.server_close()  # the port refuses connections from now on: the site is really gone


@pytest.fixture(scope="session")
def origin():
    if not (SITE / "index.html").exists():
        pytest.fail("site/ fehlt: `make test` baut sie vorher (make site).")
    server = start_server(SITE)
    yield server.origin
    stop_server(server)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield instance
        instance.close()


@dataclass
class Visit:
    page: object
    origin: str
    requests: list = field(default_factory=list)
    console: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    handlers: list = field(default_factory=list)

    def foreign_requests(self):
        return [u for u in self.requests if not (u.startswith((self.origin + "/", "data:", "blob:")))]

    def console_errors(self):
        return [m for m in self.console if m[0] == "error"] + [("pageerror", e) for e in self.page_errors]

    def wait_state(self, states=("ready",), timeout=READY_MS, selector="[data-experiment]"):
        wanted = ", ".join(f'{selector}[data-state="{s}"]' for s in states)
        self.page.wait_for_selector(wanted, timeout=timeout)
        return self.page.get_attribute(selector, "data-state")

    def screenshot(self, name, **kwargs):
        picture(self.page, name, **kwargs)

    def stop(self):
        """Stops recording: a shared tab's next test records its own requests and messages."""
        for event, handler in self.handlers:
            self.page.remove_listener(event, handler)
        self.handlers.clear()


# What Chromium logs for a page served with status 404 (the site's 404 page itself).
NOT_FOUND = "Failed to load resource: the server responded with a status of 404 (Not Found)"


def settle(page, selector=None):
    """Waits until every finite CSS animation and transition (in ``selector``, or anywhere) has ended:
    colours and positions are then what the reader sees, whatever the machine's speed."""
    page.evaluate("""s => { const root = s ? document.querySelector(s) : document;
        const running = root.getAnimations({subtree: true})
            .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
        return Promise.all(running.map(a => a.finished.catch(() => null))); }""", selector)


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@pytest.fixture(scope="session")
def axe_source():
    """axe-core from npm, run inside the page (test_a11y.py scans every page, test_lesson_ui.py a solved lesson)."""
    if not AXE.exists():
        pytest.fail("node_modules/axe-core fehlt: `make test` installiert es mit npm ci.")
    return AXE.read_text(encoding="utf-8")


# What a change of colour scheme alone can break: the theme swaps colours, never the markup that the other
# rules judge (names, roles, structure). A page's second scheme needs only these (a full scan costs twice).
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def scan(page, axe_source, rules=None, within=None) -> list[dict]:
    """Violations of impact "serious" or "critical" against WCAG 2.1 A/AA (or of the given axe ``rules``),
    in the whole page or in the element the selector ``within`` names."""
    if not page.evaluate("typeof window.axe === 'object'"):  # it outlives page changes in the shared tab
        page.evaluate(axe_source)
    only = {"type": "rule", "values": list(rules)} if rules else {"type": "tag", "values": AXE_TAGS}
    result = page.evaluate("([only, within]) => axe.run(within || document, {runOnly: only})", [only, within])
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {n['target']} – {n.get('failureSummary', '')[:160]}"
                     for v in violations for n in v["nodes"][:3])


@contextmanager
def header_hidden(page):
    """The sticky header would cover part of a long element's screenshot. Hidden through the DOM: the
    site's Content-Security-Policy refuses an added stylesheet (and so Playwright's ``style=`` option)."""
    page.evaluate("document.querySelector('.md-header').style.setProperty('visibility', 'hidden', 'important')")
    try:
        yield
    finally:
        page.evaluate("document.querySelector('.md-header').style.removeProperty('visibility')")


class Checks:
    """Several checks on one visit of a page, each with a name: a failed one is noted and the visit goes on,
    and ``done`` fails the test once, naming every check that failed. A check that breaks otherwise (a
    timeout, an error in the page) ends the test at once, its name added to the error."""

    def __init__(self):
        self.failed = []

    @contextmanager
    def __call__(self, name):
        try:
            yield
        except AssertionError as failure:
            self.failed.append(f"{name}: {failure}")
        except Exception as error:
            error.add_note(f"in the check „{name}“")
            raise

    def report(self):
        return f"{len(self.failed)} check(s) failed:\n" + "\n".join(self.failed)


@pytest.fixture
def check():
    """``with check("name"): assert ...`` for each check of a visit; the test fails at its end, listing them."""
    return Checks()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    # The checks noted by ``check`` fail the test itself (not its teardown), so the reader's tab is discarded.
    checks = getattr(item, "funcargs", {}).get("check")
    try:
        result = yield
    except BaseException as error:
        if checks is not None and checks.failed:
            error.add_note(checks.report())
        raise
    if checks is not None and checks.failed:
        pytest.fail(checks.report(), pytrace=False)
    return result


def switch_scheme(page, scheme):
    """The colour scheme, switched in the open page as a reader does it: the theme's palette toggle (the theme
    reads the reader's preference on a first load only), with the preference emulated to match."""
    page.emulate_media(color_scheme=scheme)
    palette = "slate" if scheme == "dark" else "default"
    page.evaluate(PALETTE, palette)
    page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=palette)


def record(page, origin) -> Visit:
    """Watches a page: every request, console message and uncaught error."""
    v = Visit(page, origin)
    v.handlers = [("request", lambda r: v.requests.append(r.url)),
                  ("console", lambda m: v.console.append((m.type, m.text))),
                  ("pageerror", lambda e: v.page_errors.append(str(e)))]
    for event, handler in v.handlers:
        page.on(event, handler)
    return v


class Gate:
    """Holds boot.py back in the network until opened; one that comes later passes at once."""

    def __init__(self):
        self.held, self.open = [], False

    def __call__(self, route):
        if self.open:
            route.continue_()
        else:
            self.held.append(route)

    def release(self):
        self.open = True
        for route in self.held:
            route.continue_()


@pytest.fixture
def visit(browser, origin):
    contexts = []

    def open_(path, *, width=1280, height=720, routes=(), color_scheme="light", javascript=True,
              service_workers="allow", init_script=None):
        # The site's service worker (static/js/offline/offline.js) answers from its cache, and requests it
        # answers never reach page.route: a test that fakes responses runs without it.
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme,
                                      java_script_enabled=javascript,
                                      service_workers="block" if routes else service_workers)
        contexts.append(context)
        page = context.new_page()
        if init_script:
            page.add_init_script(init_script)
        v = record(page, origin)
        for pattern, handler in routes:
            page.route(pattern, handler)
        page.goto(origin + path)
        return v

    yield open_
    for context in contexts:
        context.close()


# Clicks a link to ``url`` as a reader would; mkdocs-material's click handler on the document
# (navigation.instant) turns it into a page change without a reload. The link is added for the
# click, so that any address works, also one with a query string or #praesentation.
FOLLOW = """url => { const a = document.createElement('a'); a.href = url; a.textContent = url;
  document.body.append(a); document.querySelector('[data-md-component=container]').plLeft = true;
  a.click(); a.remove(); }"""
# The new page is there once its content replaced the old (the address may be rewritten at once:
# a clamped value, #praesentation taken away).
# (for a moment during the swap there is no container at all)
ARRIVED = """path => { const container = document.querySelector('[data-md-component=container]');
  return location.pathname === path && container !== null && !container.plLeft; }"""

# Nothing focused, and the next Tab starts at the top of the page as after a fresh load: Chromium
# starts from the element focused or clicked last, which may lie anywhere in the page before.
TOP = """() => { const body = document.body; body.tabIndex = -1; body.focus({preventScroll: true});
  body.blur(); body.removeAttribute('tabindex'); }"""

# Everything a test may have left open that outlives a page change: dialogs (QR code, key help),
# search and the navigation drawer, a focused element, a learning path followed.
CLOSE = """() => {
  document.querySelectorAll('dialog[open]').forEach((d) => d.close());
  for (const id of ['__search', '__drawer']) {
    const toggle = document.getElementById(id);
    if (toggle && toggle.checked) { toggle.checked = false; toggle.dispatchEvent(new Event('change')); }
  }
  const query = document.querySelector('.md-search__input');
  if (query && query.value) { query.value = ''; query.dispatchEvent(new Event('input')); }
  if (document.activeElement) document.activeElement.blur();
  sessionStorage.removeItem('probierlabor.lernpfad');  // a learning path followed (static/js/classroom/paths.js)
  window.scrollTo(0, 0);
}"""


# The theme keeps the chosen palette (its header toggle) in localStorage and reads the reader's
# colour scheme only on a page's first load: in a tab that lives on, the scheme a test asks for is
# switched with that toggle, as a reader would.
PALETTE = """scheme => { if (document.body.dataset.mdColorScheme === scheme) return;
  document.querySelector(`[data-md-component=palette] input[data-md-color-scheme="${scheme}"]`).click(); }"""


class Reader:
    """One tab that lives across tests; Python inside it boots once."""

    def __init__(self, browser, origin):
        self.browser, self.origin = browser, origin
        self.context = self.page = None

    def tab(self):
        if self.page is None:
            self.context = self.browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light")
            self.page = self.context.new_page()
        return self.page

    def discard(self):
        if self.context is not None:
            self.context.close()
        self.context = self.page = None

    def reset(self, width, height, color_scheme):
        """The state a fresh tab would have, as far as a test can change it: screen size, colour scheme
        (emulated and the theme's palette), print and motion emulation, permissions, presentation mode (a class on <html> and an entry in
        sessionStorage, both meant to survive page changes), open dialogs, search, drawer, focus, and no
        pointer over the page (a link left under the mouse shows its hover colour, which axe then measures)."""
        page = self.page
        page.mouse.move(-1, -1)
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(media="null", color_scheme=color_scheme, reduced_motion="null")
        self.context.clear_permissions()
        if page.url.startswith(self.origin):
            page.evaluate(CLOSE)
            switch_scheme(page, color_scheme)
            for _ in range(3):  # Esc closes the key help first, then leaves presentation mode
                if not page.evaluate("document.documentElement.classList.contains('pl-present')"):
                    break
                page.keyboard.press("Escape")
            assert not page.evaluate("document.documentElement.classList.contains('pl-present')")
            assert page.evaluate("sessionStorage.getItem('probierlabor.praesentation')") is None

    def go(self, path):
        page, url = self.page, self.origin + path
        if not page.url.startswith(self.origin):
            page.goto(url)  # the worker's first page: the one cold start
            return
        change_page(page, url)


def change_page(page, url):
    """Goes to ``url`` by the theme's instant navigation, so that its page mounts anew; Python stays."""
    if urlsplit(page.url).path == urlsplit(url).path:
        # the theme only changes pages when the path changes: a new query string alone would stay on
        # this page without mounting its experiment again, so the reader goes via another page first
        origin = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
        _follow(page, origin + ("/" if urlsplit(url).path != "/" else "/ewc/"))
    _follow(page, url)


def _follow(page, url):
    page.evaluate(FOLLOW, url)
    page.wait_for_function(ARRIVED, arg=urlsplit(url).path, timeout=30_000)
    page.evaluate(TOP)


@pytest.fixture(scope="session")
def _reader_tab(browser, origin):
    reader = Reader(browser, origin)
    yield reader
    reader.discard()


@pytest.fixture
def reader(_reader_tab, request):
    """Like ``visit``, in the worker's shared tab: ``reader(path, width=, height=, color_scheme=)``."""
    tab, visits = _reader_tab, []

    def open_(path, *, width=1280, height=720, color_scheme="light"):
        for v in visits:
            v.stop()
        page = tab.tab()
        tab.reset(width, height, color_scheme)
        v = record(page, tab.origin)
        visits.append(v)
        tab.go(path)
        return v

    yield open_
    for v in visits:
        v.stop()
    failed = any(getattr(getattr(request.node, f"rep_{when}", None), "failed", False) for when in ("setup", "call"))
    if failed:
        tab.discard()  # whatever broke stays with this test: the next one starts in a fresh tab
