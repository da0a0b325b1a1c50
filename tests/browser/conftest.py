"""Real-browser fixtures: Debian's Chromium driven by Playwright against the built site on loopback.

Every page opened through ``visit`` records all requests and console messages, so each test can
assert that nothing left the site's origin and nothing logged an error.
"""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # another build folder, e.g. in parallel work
SCREENSHOTS = ROOT / "out" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
READY_MS = 90_000  # a cold start on a busy 2-core CI machine; the benchmark measures the real time


def start_server(folder):
    """tools/serve.py on a free loopback port, in a thread; returns the server (``stop_server`` ends it)."""
    from tools.serve import make_server

    server = make_server(folder, "127.0.0.1", 0)
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

    def foreign_requests(self):
        return [u for u in self.requests if not (u.startswith(self.origin + "/") or u.startswith("data:")
                                                  or u.startswith("blob:"))]

    def console_errors(self):
        return [m for m in self.console if m[0] == "error"] + [("pageerror", e) for e in self.page_errors]

    def wait_state(self, states=("ready",), timeout=READY_MS, selector="[data-experiment]"):
        wanted = ", ".join(f'{selector}[data-state="{s}"]' for s in states)
        self.page.wait_for_selector(wanted, timeout=timeout)
        return self.page.get_attribute(selector, "data-state")

    def screenshot(self, name, **kwargs):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), **kwargs)


# What Chromium logs for a page served with status 404 (the site's 404 page itself).
NOT_FOUND = "Failed to load resource: the server responded with a status of 404 (Not Found)"


def settle(page, selector=None):
    """Waits until every finite CSS animation and transition (in ``selector``, or anywhere) has ended:
    colours and positions are then what the reader sees, whatever the machine's speed."""
    page.evaluate("""s => { const root = s ? document.querySelector(s) : document;
        const running = root.getAnimations({subtree: true})
            .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
        return Promise.all(running.map(a => a.finished.catch(() => null))); }""", selector)


def record(page, origin) -> Visit:
    """Watches a page: every request, console message and uncaught error."""
    v = Visit(page, origin)
    page.on("request", lambda r: v.requests.append(r.url))
    page.on("console", lambda m: v.console.append((m.type, m.text)))
    page.on("pageerror", lambda e: v.page_errors.append(str(e)))
    return v


@pytest.fixture
def visit(browser, origin):
    contexts = []

    def open_(path, *, width=1280, height=720, routes=(), color_scheme="light", javascript=True):
        # The site's service worker (static/js/offline.js) answers from its cache, and requests it
        # answers never reach page.route: a test that fakes responses runs without it.
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme,
                                      java_script_enabled=javascript,
                                      service_workers="block" if routes else "allow")
        contexts.append(context)
        page = context.new_page()
        v = record(page, origin)
        for pattern, handler in routes:
            page.route(pattern, handler)
        page.goto(origin + path)
        return v

    yield open_
    for context in contexts:
        context.close()
