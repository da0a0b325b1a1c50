"""„Im Code nachrechnen“ in the browser (pageblocks/workshop_block.py, static/js/workshop/workshop.js, the worker).

Offline-safe like every browser test: every request, the worker's included (recorded on the browser
context), stays on the site's origin. A run's printed text must equal what CPython prints for the
same filled script (tests/workshop_check.py), so the browser's Pyodide, numpy and matplotlib
compute what the tests check against the concept module.
"""

from __future__ import annotations

import http.server
import re
import threading

import pytest
from conftest import ARRIVED, FOLLOW, SITE, describe, record, scan, settle, start_server, stop_server, switch_scheme
from probierlabor import SLUGS
from probierlabor.kit import workshop
from probierlabor.pageblocks import workshop_block

from tests.workshop_check import run_scripts

pytestmark = pytest.mark.browser

WITH_SCRIPT = [slug for slug in SLUGS if workshop_block.has_script(slug)]
# A run costs a worker with its own Pyodide, numpy and matplotlib: run on a few pages of different kinds
# (every script runs in CPython in its concept's test). Continual learning reads its messages from the
# page's own Python package, which the worker loads too.
RUN_ON = [s for s in ("top-p-sampling", "tokenisierung", "continual-learning", "continuous-batching") if s in WITH_SCRIPT]
SECTION = ".pl-workshop"
MAIN = "[data-experiment]:not([data-url-prefix])"
FIRST_RUN_MS = 180_000  # a fresh worker: Pyodide, numpy, matplotlib and its font cache on a busy 2-core machine
STORE = "probierlabor.werkstatt."


FORGE = """import js
from pyodide.ffi import to_js
as_js = lambda d: to_js(d, dict_converter=js.Object.fromEntries)
try:
    for run in range(1, 100):
        js.postMessage(as_js({"id": run, "type": "done", "output": "gefälscht", "figures": [], "error": None}))
    for _ in range(20000):
        js.postMessage(as_js({"id": 0, "type": "progress", "done": 1, "total": 2}))
except Exception as error:
    print(type(error).__name__)
print("echt")
"""


def all_requests(v):
    """Requests of the page and of its Web Workers (page.on('request') does not see a worker's)."""
    seen = []
    v.page.context.on("request", lambda r: seen.append(r.url))
    return seen


def code(page) -> str:
    """The editor's text, asked of CodeMirror itself (the module the editor came from, served at the site's root)."""
    return page.evaluate("""async () => {
        const { EditorView } = await import('/static/vendor/codemirror/codemirror.js');
        const box = document.querySelector('.pl-workshop [data-workshop-editor]').shadowRoot;
        return EditorView.findFromDOM(box.querySelector('.cm-editor')).state.doc.toString(); }""")


def type_code(page, text):
    """Replaces the editor's text as a reader would: select all, type."""
    page.click(f"{SECTION} .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def open_section(page):
    page.click(f"{SECTION} > summary")
    page.wait_for_selector(f"{SECTION} .cm-editor", timeout=90_000)  # the editor modules load on first open
    assert page.is_hidden(f"{SECTION} [data-workshop-code]")  # the editor replaced the plain text
    assert page.is_hidden(f"{SECTION} [data-workshop-output]") or page.text_content(f"{SECTION} [data-workshop-output]")


def run_and_wait(page, timeout=FIRST_RUN_MS) -> str:
    page.click(f"{SECTION} [data-workshop-run]")
    page.wait_for_function("""() => { const s = document.querySelector('.pl-workshop');
        return s.getAttribute('aria-busy') === 'false'; }""", timeout=timeout)
    return page.text_content(f"{SECTION} [data-workshop-status]")


def state_text(page) -> str:
    return page.text_content(f"{MAIN} .pl-summary")


def test_runs_show_the_numbers_and_figure_errors_and_endless_loops_leave_the_page_working(visit, origin, check):
    """The pages of RUN_ON one after the other in one tab, as a reader moves on: the tab's one worker
    starts once, with Pyodide, numpy and matplotlib from this site, and serves every page. The endless
    loop ends it on the last page, and the run after that starts a fresh one."""
    v = visit(f"/{RUN_ON[0]}/")
    requests = all_requests(v)
    page = v.page
    for slug in RUN_ON:
        if slug != RUN_ON[0]:
            page.evaluate(FOLLOW, f"{origin}/{slug}/")
            page.wait_for_function(ARRIVED, arg=f"/{slug}/", timeout=30_000)
        with check(slug):
            run_the_script_and_an_error(v, slug, check if slug == RUN_ON[0] else None)

    page = v.page
    # an endless loop: Abbrechen ends it
    type_code(page, "while True:\n    pass\n")
    page.click(f"{SECTION} [data-workshop-run]")
    page.wait_for_function("() => document.querySelector('.pl-workshop [data-workshop-status]').textContent"
                           " === 'Dein Code läuft …' && !document.querySelector('.pl-workshop [data-workshop-stop]').disabled")
    page.click(f"{SECTION} [data-workshop-stop]")
    assert page.text_content(f"{SECTION} [data-workshop-status]").startswith("Abgebrochen.")
    assert page.is_enabled(f"{SECTION} [data-workshop-run]")

    # the next run starts a fresh worker, which works
    type_code(page, "import numpy as np\nprint(np.arange(3).sum())\n")
    status = run_and_wait(page)
    assert status.startswith("Fertig"), status
    assert page.text_content(f"{SECTION} [data-workshop-output]") == "3\n"
    assert page.locator(f"{SECTION} [data-workshop-figure] img").count() == 0

    # the loop again, stopped by the time limit (shortened for the test; the page says 20 s): the same
    # halt() as „Abbrechen“, so the fresh start after it is not waited for a second time
    assert page.get_attribute(SECTION, "data-workshop-limit") == str(workshop_block.LIMIT_S)
    page.evaluate("document.querySelector('.pl-workshop').dataset.workshopLimit = '2'")
    type_code(page, "while True:\n    pass\n")
    status = run_and_wait(page)
    assert status.startswith("Nach 2 Sekunden abgebrochen. Läuft dein Code in einer Endlosschleife?"), status
    assert page.is_enabled(f"{SECTION} [data-workshop-run]")

    assert page.locator(".pl-error, .py-error").count() == 0  # no red box anywhere
    assert not v.console_errors(), v.console_errors()
    assert not v.foreign_requests(), v.foreign_requests()
    foreign = [u for u in requests if not (u.startswith((origin + "/", "data:", "blob:")))]
    assert not foreign, foreign
    assert any("/static/vendor/pyodide/matplotlib-" in u for u in requests)  # loaded by the worker, from here


# Every status line of the first run, with when it appeared, and when „Ausführen“ was pressed.
WATCH_STATUS = """() => {
    const line = document.querySelector('.pl-workshop [data-workshop-status]');
    window.plSeen = [];
    new MutationObserver(() => window.plSeen.push([line.textContent, performance.now()]))
        .observe(line, { childList: true, characterData: true, subtree: true });
    document.addEventListener('click', (e) => {
        if (e.target.closest('[data-workshop-run]') && !window.plPressed) window.plPressed = performance.now();
    }, true);
}"""


# Appended to beam search's script: its y axis label and the smallest tick label in the image's pixels.
PROBE_FIGURE = """
print("Achse:", achse.get_ylabel())
print("Striche:", min(t.get_fontsize() for t in achse.get_xticklabels() + achse.get_yticklabels()) * figur.dpi / 72)
"""


def seconds_shown(text: str) -> float:
    shown = re.match(r"Fertig nach (\d+,\d) s", text)
    assert shown, text
    return float(shown.group(1).replace(",", "."))


# The status lines a first run may show, in their order: those of the loading the worker has still to do
# when „Ausführen“ is pressed (it began when the section opened), then the run.
STAGES = ("Python für deinen Code wird gestartet …", "numpy wird geladen (Paket 1 von 2) …",
          "matplotlib wird geladen (Paket 2 von 2) …", "Dein Code läuft …")
WORKER_SCRIPT = "/static/js/runtime/python-worker.js"


def run_the_script_and_an_error(v, slug, check=None):
    """The page's script as the experiment fills it: CPython's numbers and a figure; then an error in the
    reader's code, and the experiment goes on."""
    v.wait_state()
    page = v.page
    params = workshop.settings(workshop.template(slug), slug)
    # the experiment is changed before the section opens: the script starts from what it shows now
    page.locator(f"{MAIN} [data-preset]").first.click()
    v.wait_state()
    open_section(page)
    filled = workshop.fill(slug, page.evaluate(f"window.probierlabor.values(document.querySelector('{MAIN}'))"))
    assert code(page) == filled and params

    if check:  # the tab's first run: Python, numpy and matplotlib load first
        with check("opening the section starts the worker, before any press"):
            # the worker itself, not a request for its file: the offline copy fetches every file of the site
            for _ in range(100):
                if any(WORKER_SCRIPT in w.url for w in page.workers):
                    break
                page.wait_for_timeout(100)
            assert any(WORKER_SCRIPT in w.url for w in page.workers), [w.url for w in page.workers]
        page.evaluate(WATCH_STATUS)
    status = run_and_wait(page)
    assert status.startswith("Fertig"), status
    if check:
        seen, pressed = page.evaluate("[window.plSeen, window.plPressed]")
        lines = [text for text, _ in seen]
        with check("while Python and its packages load, the page says which"):
            # the stages left at the press, in order, each only for its own loading, and then the run
            assert all(line in STAGES for line in lines[:-1]), lines
            shown = [STAGES.index(line) for line in lines[:-1]]
            assert shown == sorted(shown) and shown[-1] == len(STAGES) - 1, lines
        with check("the time shown runs from the press to the result"):
            # the page's own clock: the status said „Fertig“ this long after the press (shown to the tenth;
            # the result is drawn between the measurement and the status line)
            assert abs(seconds_shown(status) - (seen[-1][1] - pressed) / 1000) <= 0.5, (status, seen[-1][1] - pressed)
            # the time Python took to load, once it is worth a word (workshop.js: STARTUP_S)
            startup = r"(: \d+,\d s hat Python mit seinen Paketen zum Starten gebraucht, \d+,\d s dein Code)?"
            assert re.fullmatch(rf"Fertig nach \d+,\d s{startup}\.", status), status
    expected = run_scripts([filled])[0]["stdout"]
    assert page.text_content(f"{SECTION} [data-workshop-output]") == expected
    figure = page.locator(f"{SECTION} [data-workshop-figure] img")
    assert figure.count() == 1
    assert figure.evaluate("img => img.complete && img.naturalWidth > 200 && img.src.startsWith('data:image/png')")

    if check:  # the workshop's figures: tick labels as large as the page's text, no „Länge^0“
        beam = page.evaluate("JSON.parse(window.probierlabor.runtime.workshop('beam-search', '{}')).script")  # the site's
        type_code(page, beam + PROBE_FIGURE)
        assert run_and_wait(page).startswith("Fertig"), page.text_content(f"{SECTION} [data-workshop-status]")
        printed = dict(line.split(": ", 1) for line in page.text_content(f"{SECTION} [data-workshop-output]").splitlines())
        shown, text_px = page.evaluate("""() => { const img = document.querySelector('.pl-workshop [data-workshop-figure] img');
            return [img.getBoundingClientRect().width / img.naturalWidth,
                    parseFloat(getComputedStyle(document.querySelector('.md-content .md-typeset p')).fontSize)]; }""")
        with check("the figure's axis label"):
            assert printed["Achse"] == "Σ ln p", printed  # α = 0: divided by nothing
        with check("the figure's tick labels"):
            assert float(printed["Striche"]) * shown >= text_px - 0.5, (printed, shown, text_px)

    # the reader's code posts to the page as the worker would: results for every run, then a flood; the
    # page hears only the worker's own channel and shows what the code really printed
    type_code(page, FORGE)
    status = run_and_wait(page)
    assert status.startswith("Fertig"), status
    printed = page.text_content(f"{SECTION} [data-workshop-output]")
    assert printed.endswith("echt\n") and "gefälscht" not in printed, printed

    # an error in the reader's code: their line and Python's error, in German; the page goes on
    lines = filled.splitlines()
    lines.insert(3, "print(nicht_definiert)")
    type_code(page, "\n".join(lines) + "\n")
    status = run_and_wait(page)
    assert status == ("Dein Code hat einen Fehler. Zeile 4: NameError: name 'nicht_definiert' is not defined"), status
    assert page.get_attribute(f"{SECTION} [data-workshop-status]", "data-kind") == "error"
    before, seen = state_text(page), set()
    for button in page.locator(f"{MAIN} [data-preset]").all():
        button.click()
        v.wait_state()
        seen.add(state_text(page))
    assert seen - {before}, "das Experiment rechnet nach dem Fehler weiter"


@pytest.mark.parametrize("slug", WITH_SCRIPT[:1])
def test_edits_survive_a_reload_and_zuruecksetzen_restores_the_experiments_values(visit, origin, slug):
    p = workshop.settings(workshop.template(slug), slug)[0]
    v = visit(f"/{slug}/")
    v.wait_state()
    page = v.page
    open_section(page)
    values = page.evaluate(f"window.probierlabor.values(document.querySelector('{MAIN}'))")
    filled = workshop.fill(slug, values)
    assert code(page) == filled
    assert page.evaluate(f"localStorage.getItem('{STORE}{slug}')") is None  # nothing edited, nothing kept

    page.click(f"{SECTION} .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# meine Änderung\n")
    edited = filled + "# meine Änderung\n"
    assert code(page) == edited
    page.reload()
    v.wait_state()
    open_section(page)
    assert code(page) == edited
    assert "letzte Fassung" in page.text_content(f"{SECTION} [data-workshop-status]")

    page.click(f"{SECTION} [data-workshop-reset]")
    assert code(page) == filled
    assert page.evaluate(f"localStorage.getItem('{STORE}{slug}')") is None
    page.reload()
    v.wait_state()
    open_section(page)
    assert code(page) == filled
    assert not v.console_errors(), v.console_errors()
    assert p in filled


def test_the_script_starts_from_the_state_the_experiment_shows(reader):
    slug = "top-p-sampling"
    v = reader(f"/{slug}/?p=0.5&temperature=1.5")
    v.wait_state()
    open_section(v.page)
    assert "\np = 0.5\ntemperature = 1.5\n" in code(v.page)
    # presentation mode shows the code large, for the back of the room
    size = ("() => parseFloat(getComputedStyle(document.querySelector('.pl-workshop [data-workshop-editor]')"
            ".shadowRoot.querySelector('.cm-content')).fontSize)")  # the editor lives in a shadow root
    normal = v.page.evaluate(size)
    v.page.evaluate("document.activeElement && document.activeElement.blur()")
    v.page.keyboard.press("p")
    v.page.wait_for_function("() => document.documentElement.classList.contains('pl-present')")
    assert v.page.evaluate(size) >= 1.5 * normal


# document.currentScript names whatever classic script runs when it is read: while a Python boot script
# runs, static/py/boot.py, and a module that found its editor from it would look in static/py/ (a 404,
# net::ERR_ABORTED, no editor), on a busy machine now and then. Here the getter answers like that for the
# whole visit, so a script that reads it late loses every time.
CURRENT_SCRIPT_IS_PYTHON = """Object.defineProperty(Document.prototype, "currentScript", { configurable: true,
  get: () => Object.assign(document.createElement("script"), { src: location.origin + "/static/py/boot.py" }) });"""


def test_the_editor_and_the_worker_are_found_whatever_current_script_names(visit, origin):
    slug = RUN_ON[0]
    v = visit(f"/{slug}/", init_script=CURRENT_SCRIPT_IS_PYTHON)
    v.wait_state()
    open_section(v.page)
    # the tab's Python worker (static/js/runtime/worker.js) is found from the site's root as well; its Pyodide need not start
    with v.page.context.expect_event("response", lambda r: "python-worker" in r.url) as worker:
        v.page.click(f"{SECTION} [data-workshop-run]")
    assert worker.value.ok and worker.value.url == origin + "/static/js/runtime/python-worker.js"
    v.page.click(f"{SECTION} [data-workshop-stop]")


def test_the_open_section_is_accessible(reader, axe_source, check):
    v = reader(f"/{WITH_SCRIPT[0]}/")
    v.wait_state()
    open_section(v.page)
    for scheme in ("light", "dark"):
        if scheme == "dark":
            switch_scheme(v.page, scheme)
        settle(v.page)
        with check(scheme):
            violations = scan(v.page, axe_source)
            assert not violations, describe(violations)


# The reader's code tries every way out of the worker to another origin: a server on this machine that
# would answer each of them (CORS allowed), so only the site's policy can stop them.
ESCAPE = """import builtins
import js
from pyodide.ffi import create_proxy
url = {url!r}
seen = builtins.__dict__.setdefault("seen", [])  # kept in the worker for the next run, which reads it
try:
    request = js.XMLHttpRequest.new()
    request.open("GET", url + "/xhr", False)
    request.send()
    print("xhr", request.status)
except Exception:
    print("xhr blockiert")
js.fetch(url + "/fetch").then(create_proxy(lambda r: seen.append(f"fetch {{r.status}}")),
                              create_proxy(lambda e: seen.append("fetch blockiert")))
try:
    socket = js.WebSocket.new(url.replace("http:", "ws:") + "/ws")
    socket.onopen = create_proxy(lambda e: seen.append("websocket offen"))
    socket.onerror = create_proxy(lambda e: seen.append("websocket zu"))
except Exception:
    seen.append("websocket zu")
"""
SEEN = "import builtins\nprint(sorted(builtins.seen))\n"


class Elsewhere(http.server.BaseHTTPRequestHandler):
    """Another origin that answers everyone, and notes what reached it."""

    def do_GET(self):
        self.server.reached.append(self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def test_the_workshop_runs_offline_from_the_stored_site_under_the_sites_policy(browser):
    """The editor's modules, the worker, its Pyodide and the wheels all come from the service worker's
    copy (mkdocs_hooks/offline.py stores every built file) with the server gone. The worker served from
    that copy keeps the site's policy: the reader's code reaches no other origin."""
    server = start_server(SITE)
    elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    elsewhere.reached = []
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        v = record(page, server.origin)
        slug = WITH_SCRIPT[0]
        page.goto(f"{server.origin}/{slug}/")
        page.wait_for_selector('.pl-offline-chip[data-offline-state="ready"]', timeout=FIRST_RUN_MS)

        page.reload()  # now every file, the worker's script included, comes from the offline copy
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        v.wait_state()
        open_section(page)
        type_code(page, ESCAPE.format(url=f"http://127.0.0.1:{elsewhere.server_port}"))
        assert run_and_wait(page).startswith("Fertig")
        assert page.text_content(f"{SECTION} [data-workshop-output]") == "xhr blockiert\n"
        # fetch and WebSocket answer later: the next runs in the same worker read what came back
        type_code(page, SEEN)
        for _ in range(20):
            assert run_and_wait(page).startswith("Fertig")
            answers = page.text_content(f"{SECTION} [data-workshop-output]")
            if answers.count("'") == 4:
                break
        assert answers == "['fetch blockiert', 'websocket zu']\n"
        assert elsewhere.reached == []
        page.click(f"{SECTION} [data-workshop-reset]")  # the script of the page again, for the run offline
        v.stop()  # the refused attempts count as requests of the page; the run offline must make none
        v = record(page, server.origin)

        stop_server(server)
        context.set_offline(True)
        failed = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.reload()
        v.wait_state()
        open_section(page)
        assert run_and_wait(page).startswith("Fertig")
        assert page.locator(f"{SECTION} [data-workshop-figure] img").count() == 1
        assert failed == [] and v.foreign_requests() == []
        # numpy and matplotlib loaded and drew under the stored pages' policy (the CSP tour leaves this run here)
        assert not [m for m in v.console if "Content Security Policy" in m[1]], v.console
    finally:
        context.close()
        stop_server(server)
        stop_server(elsewhere)


TYPED_LINE = "probe = 3 * 0.5 + 1  # 9 Tokens, p = 0.9; R? L! A/V .\n"


def test_typing_in_the_code_editor_fires_no_shortcut_of_the_page(reader, check):
    """The editor lives in a shadow root, where the page's shortcuts („3“ a preset, „p“ presentation mode,
    „.“ the next preset) would see its keys too. Every key of a whole line stays with the editor."""
    for slug in [s for s in ("top-p-sampling", "overfitting", "beam-search") if s in WITH_SCRIPT]:
        v = reader(f"/{slug}/")
        v.wait_state()
        page = v.page
        open_section(page)
        before = (page.url, state_text(page), code(page))
        page.click(f"{SECTION} .cm-content")
        page.keyboard.press("Control+End")
        page.keyboard.type(TYPED_LINE)  # key by key, as a reader types
        with check(f"{slug}: the line arrives intact"):
            assert code(page) == before[2] + TYPED_LINE
        with check(f"{slug}: nothing else changed"):
            assert not page.evaluate("document.documentElement.classList.contains('pl-present')")
            assert (page.url, state_text(page)) == before[:2]
        page.click(f"{SECTION} [data-workshop-reset]")
