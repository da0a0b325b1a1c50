"""`make bench`: Probierlabor's speed, measured side by side in one run (not a test).

In headless Chromium on loopback, for every concept page and for bare Pyodide pages:
cold time to ready (fresh browser context, empty cache), time to first content, the time from a
trusted input event to the repainted figure (slider; dragging a point), a repeat visit (the site
stored offline, then a full reload), the site's size, „Im Code nachrechnen“ (Ausführen → figure on
first use and on a second run, beside the Systemcheck's numpy and matplotlib load times), and the first
run of the tab's Python worker („Ausführen“, the first step of „Am echten Modell“) against bare Pyodide starts. Cold loads of the concept pages and of the
bare page are interleaved (a bare load after every two pages), and each page's ratio is the median of its
loads divided by the bare loads just around them, so every ratio compares loads made under the same conditions. Targets:

    ready ≤ 1.15 × bare runtime (every page) · first content ≤ 0.5 s · slider → next frame median ≤ 33 ms
    dragging ≤ 16 ms · repeat visit ≤ 0.5 × cold · whole site ≤ 42 MB (plus the model's weights) · replay step → next frame ≤ 33 ms

    python tools/bench.py [--runs 3] [--steps 30] [--json out/bench.json]
    python tools/bench.py --reference ../old/site [--slider-only] [--pages gqa,pass-at-k]
                                               slider → repaint of every page side by side with another
                                               build (make bench REFERENCE=…): both served, loaded in
                                               turn page by page (A B, then B A), the ratio per page
    python tools/bench.py --workshop-only      just the „Im Code nachrechnen“ measurement
    python tools/bench.py --live-only [--pages continuous-batching]
                                               just „Eigener Lauf“: each engine page's first preset run in
                                               the browser and in CPython, their ratio, the longest
                                               main-thread task while the engine runs
    python tools/bench.py --first-runs-only    just the first „Ausführen“ of „Im Code nachrechnen“ and the first
                                               step of „Am echten Modell“ in a fresh tab, each between two
                                               bare Pyodide starts, and their ratio (target ≤ 1.0)
    python tools/bench.py --realmodel-only     just „Am echten Modell“: the model's load after the worker is up
                                               (target ≤ 2 s) and ms per generated token in the browser
                                               (target ≤ 30) beside CPython, on the six decoding pages
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from probierlabor import SLUGS
from probierlabor.kit import api

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]

# Records the moment an experiment (or the bare page's body) turns ready, and input → repaint times.
PROBE = """
window.__bench = {ready: null, lat: [], pending: null};
const sel = '[data-experiment][data-state="ready"], body[data-state="ready"]';
new MutationObserver(() => {
  if (window.__bench.ready === null && document.querySelector(sel)) window.__bench.ready = performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-state']});
for (const type of ['input', 'pointermove']) {
  addEventListener(type, (e) => { if (e.isTrusted) window.__bench.pending = e.timeStamp; }, true);
}
"""

# After each render: the experiment's DOM has changed and is laid out (forced layout) → "repainted";
# the frame after that has been presented → "next frame". The change is seen by a MutationObserver, not
# by an event of the page script, so that any build is measured the same way, an older one as well
# (--reference). Its callback runs once the input's handlers have returned: the whole render is in.
MEASURE = """
() => { const root = document.querySelector('[data-experiment]');
  new MutationObserver(() => {
    const b = window.__bench; if (b.pending === null) return;
    root.offsetHeight;  // force style and layout of the new figure
    const laid = performance.now(), start = b.pending; b.pending = null;
    requestAnimationFrame(() => requestAnimationFrame(() => b.lat.push([laid - start, performance.now() - start])));
  }).observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""

# The reference start: Pyodide itself, loaded and started the plain way from its own module (the pages
# start the same Pyodide from the build's memory snapshot, static/js/runtime/start.js).
BARE = """<!doctype html><html lang="de"><head><meta charset="utf-8"><title>bare</title></head><body>
<script type="module">
import {{ loadPyodide }} from "/static/vendor/pyodide/pyodide.mjs";
const py = await loadPyodide({{ indexURL: "/static/vendor/pyodide/" }});
{imports}
document.body.dataset.state = "ready";
</script></body></html>"""

BARE_PAGES = {
    "bare": "",
    "bare+numpy": "await py.loadPackage('numpy'); py.runPython('import numpy');",
}


# A bare load after every PAIR concept pages: each page's ratio is taken against the bare loads just
# before and after it, so a machine that slows down or speeds up during the run (another process, heat)
# shifts both sides of a ratio alike.
PAIR = 2


def load_order(slugs: list[str], run: int) -> list[str]:
    """One run's cold loads: bare, two pages, bare, two pages, …, bare; every other run backwards, so
    no page always goes first; the bare page with numpy once per run, for comparison."""
    pages = list(slugs) if run % 2 == 0 else list(reversed(slugs))
    order = ["bare", "bare+numpy"]
    for start in range(0, len(pages), PAIR):
        order += [*pages[start:start + PAIR], "bare"]
    return order


def paired_ratios(ready: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """(name, ready ÷ mean of the nearest bare loads before and after it) for every non-bare load."""
    bare = [i for i, (name, _) in enumerate(ready) if name == "bare"]
    out = []
    for i, (name, ms) in enumerate(ready):
        if name == "bare":
            continue
        near = [ready[j][1] for j in (max((j for j in bare if j < i), default=None),
                                      min((j for j in bare if j > i), default=None)) if j is not None]
        out.append((name, ms / statistics.mean(near)))
    return out


def serve_bare(site: Path):
    """The bare Pyodide pages (BARE_PAGES) beside a copy of the build's static/ (a copy, not a link:
    tools/serve.py refuses any path that resolves outside the folder it serves) → (server, url, folder)."""
    root = Path(tempfile.mkdtemp(prefix="probierlabor-bench-"))
    shutil.copytree(site / "static", root / "static")
    for name, imports in BARE_PAGES.items():
        (root / f"{name}.html").write_text(BARE.format(imports=imports), encoding="utf-8")
    return (*serve(root), root)


def serve(folder: Path):
    from serve import make_server  # bench.py runs as a script, serve.py beside it; tests import the rest
    server = make_server(folder, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def cold_load(browser, url: str, wait_ms: int = 120_000) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_function("() => window.__bench && window.__bench.ready !== null", timeout=wait_ms)
    result = page.evaluate("""() => ({
        ready: window.__bench.ready,
        fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null,
        bytes: performance.getEntriesByType('resource').reduce((s, e) => s + (e.encodedBodySize || 0), 0)
              + (performance.getEntriesByType('navigation')[0] || {}).encodedBodySize })""")
    return {"context": context, "page": page, **result}


def slider_latency(page, jumps: int) -> list:
    """The first slider jumped between its ends by trusted keys (End, Home, End, …: the largest change a
    slider makes, often a figure with many more or fewer elements); on pages without a slider, the first
    radio group (← from its first choice wraps to the last, → back), with the experiment's switches on:
    a choice may count only under a switch (experience-replay's „take“ only with replay on; with it off
    the figure stays as it is and the bench timed a toolbar's late update, 154 ms). [(repainted ms, next
    frame ms)], one per jump; the next jump comes once the last one's frame is measured."""
    page.evaluate(MEASURE)
    control = page.locator('[data-experiment] input[type="range"]').first
    keys = ("End", "Home")
    if page.locator('[data-experiment] input[type="range"]').count() == 0:
        control = page.locator('[data-experiment] input[type="radio"]').first
        keys = ("ArrowLeft", "ArrowRight")
        if page.locator('[data-experiment] input[type="radio"]').count() == 0:
            return []
        switches = page.locator('[data-experiment] input[type="checkbox"][data-param]')
        for i in range(switches.count()):
            switches.nth(i).check()
        control.check()
    control.focus()
    if keys[0] == "End":
        control.press("Home")
    page.wait_for_timeout(300)  # a render that the start caused is over
    page.evaluate("window.__bench.lat = []")
    for i in range(jumps):
        control.press(keys[i % 2])
        page.wait_for_function(f"() => window.__bench.lat.length > {i}", timeout=30_000)
        page.wait_for_timeout(50)
    return page.evaluate("window.__bench.lat")


REFERENCE, CURRENT = "reference", "this build"


def ab_order(slugs: list[str], rounds: int) -> list[tuple[str, str]]:
    """(page, build) in the order the side-by-side slider loads them: page by page both builds, the one
    that went second going first on the next page (A B, B A, A B, …), every other round backwards, so
    neither build nor any page always has the first or the quieter turn."""
    order = []
    for run in range(rounds):
        pages = list(enumerate(slugs))
        for i, slug in pages if run % 2 == 0 else reversed(pages):
            pair = (CURRENT, REFERENCE) if (i + run) % 2 == 0 else (REFERENCE, CURRENT)
            order += [(slug, build) for build in pair]
    return order


def ratio_interval(ref: list[float], now: list[float], resamples: int = 2000, level: float = 0.95) -> tuple:
    """The ratio of medians (now ÷ ref) that resampling both sides gives in ``level`` of the cases (a
    percentile bootstrap, seeded): a page whose whole interval lies above 1 is slower beyond the noise
    of the run; one whose interval holds 1 cannot be told apart from the reference."""
    rng = random.Random(0)
    ratios = sorted(statistics.median(rng.choices(now, k=len(now))) / statistics.median(rng.choices(ref, k=len(ref)))
                    for _ in range(resamples))
    cut = int(resamples * (1 - level) / 2)
    return ratios[cut], ratios[-1 - cut]


def side_by_side(samples: dict[str, dict[str, list]]) -> dict:
    """Per page the medians of both builds' (repainted, next frame) samples, their ratio (this build ÷ the
    reference) and its 95 % interval; over the pages measured on both: the median, the worst page, how
    many got slower and how many beyond the noise (the whole interval above 1)."""
    rows = []
    for slug, builds in samples.items():
        if not builds[REFERENCE] or not builds[CURRENT]:
            continue
        row = {"page": slug}
        for key, column in (("repaint", 0), ("frame", 1)):
            ref_samples = [s[column] for s in builds[REFERENCE]]
            now_samples = [s[column] for s in builds[CURRENT]]
            ref, now = median(ref_samples), median(now_samples)
            row[key] = {REFERENCE: ref, CURRENT: now, "ratio": now / ref,
                        "interval": ratio_interval(ref_samples, now_samples)}
        rows.append(row)
    summary = {}
    for key in ("repaint", "frame"):
        summary[key] = {build: {"median": median([r[key][build] for r in rows]),
                                "worst": max(rows, key=lambda r: r[key][build])["page"] if rows else None,
                                "worst_ms": max((r[key][build] for r in rows), default=float("nan"))}
                        for build in (REFERENCE, CURRENT)}
        summary[key]["slower"] = sum(r[key]["ratio"] > 1 for r in rows)
        summary[key]["beyond_noise"] = [r["page"] for r in rows if r[key]["interval"][0] > 1]
        summary[key]["ratio_median"] = median([r[key]["ratio"] for r in rows])
    return {"rows": rows, "summary": summary}


def slider_side_by_side(browser, urls: dict[str, str], slugs: list[str], rounds: int, jumps: int) -> dict:
    """Slider jumps on every page in both builds, loaded cold in ab_order: {page: {build: samples}}."""
    samples = {slug: {REFERENCE: [], CURRENT: []} for slug in slugs}
    for slug, build in ab_order(slugs, rounds):
        load = cold_load(browser, f"{urls[build]}/{slug}/")
        samples[slug][build] += slider_latency(load["page"], jumps)
        load["context"].close()
    return samples


def print_side_by_side(compared: dict, reference: Path, rounds: int, jumps: int) -> None:
    print(f"\nslider → repaint side by side with the reference {reference}\n({jumps} jumps between a slider's "
          f"ends per page, build and round, {rounds} rounds, loaded in turn A B, B A; median ms)")
    print(f"{'page':<24}{'reference':>11}{'this build':>12}{'×':>7}   {'next frame: ref':>16}{'this':>8}{'×':>7}"
          f"{'95 % interval':>16}")
    for r in compared["rows"]:
        p, f = r["repaint"], r["frame"]
        low, high = f["interval"]
        print(f"{r['page']:<24}{p[REFERENCE]:>11.1f}{p[CURRENT]:>12.1f}{p['ratio']:>7.2f}   "
              f"{f[REFERENCE]:>16.1f}{f[CURRENT]:>8.1f}{f['ratio']:>7.2f}{f'{low:.2f}–{high:.2f}':>16}")
    for key, label in (("repaint", "repainted"), ("frame", "next frame")):
        s = compared["summary"][key]
        ref, now = s[REFERENCE], s[CURRENT]
        print(f"{label}: median over pages {ref['median']:.1f} → {now['median']:.1f} ms, worst page "
              f"{ref['worst_ms']:.1f} ({ref['worst']}) → {now['worst_ms']:.1f} ms ({now['worst']}); "
              f"ratio median {s['ratio_median']:.2f}, {s['slower']} of {len(compared['rows'])} pages slower, "
              f"{len(s['beyond_noise'])} beyond the noise{': ' + ', '.join(s['beyond_noise']) if s['beyond_noise'] else ''}")


# Recorded runs stepped on their pages (the 16-request schedule with its twin, the two busiest memory
# views): from the player's step(1) (window.probierlabor.player) to the view laid out, and to the frame after it, as for the slider.
REPLAY_PANELS = {"continuous-batching": "continuous-batching-realistic",
                 "paged-attention": "paged-attention-pressure", "prefix-caching": "prefix-caching-shared"}
REPLAY_STEPS = """
async ([sel, steps]) => {
  const el = document.querySelector(sel);
  el.scrollIntoView();
  window.probierlabor.player(el).reset();
  const out = [];
  for (let i = 0; i < steps; i++) {
    const start = performance.now();
    window.probierlabor.player(el).step(1);
    el.offsetHeight;  // force style and layout of the new view
    const laid = performance.now();
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    out.push([laid - start, performance.now() - start]);
    await new Promise((done) => setTimeout(done, 30));
  }
  return out;
}
"""


def replay_step_latency(page, name: str, steps: int = 20) -> list:
    panel = f'section.pl-replay[data-replay="{name}"]'
    page.wait_for_selector(f'{panel}[data-state="ready"]', timeout=30_000)
    return page.evaluate(REPLAY_STEPS, [panel, steps])


def best_ms(work, runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def training_ms() -> float:
    """One continual-learning variant (EWC, 100 %, 20 rounds) trained in CPython, best of 5: the
    page retrains on every change, so this bounds its slider latency in the browser as well."""
    from probierlabor.concepts import continual_learning as cl
    return best_ms(lambda: cl.train("ewc", 100, 20, 3))


def speculative_ms() -> float:
    """Speculative decoding's compute and view at its most trials (10 000 draws), in CPython, best of 5:
    the page runs both on every change."""
    from probierlabor.concepts import speculative_decoding as sd
    return best_ms(lambda: sd.view(sd.compute(trials=10000)))


def reservoir_ms() -> float:
    """Reservoir sampling's simulation behind a slider change (k = 4, 2000 runs), uncached, in CPython,
    best of 5 seeds: the page reruns it on every new seed."""
    from probierlabor.concepts import reservoir_sampling as rs
    seeds = iter(range(5))
    return best_ms(lambda: rs.simulate.__wrapped__(4, 2000, next(seeds)))


def metr_horizon_ms() -> float:
    """METR's horizon page for a slider change at its most tasks (160), in CPython, best of 5."""
    return best_ms(lambda: api.run("metr-horizon", {"s": 1.0, "tasks": 160, "seed": 3}))


def drag_latency(page, steps: int) -> list:
    page.evaluate("window.__bench.lat = []")
    point = page.locator("[data-experiment] circle[data-drag]").nth(4)
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(steps):
        page.mouse.move(x, y - 2 * ((i % 20) - 10 if i % 40 < 20 else 10 - (i % 20)))
        page.wait_for_timeout(20)
    page.mouse.up()
    page.wait_for_timeout(200)
    return page.evaluate("window.__bench.lat")


def page_changes(browser, site_url: str, slugs: list[str]) -> dict:
    """Time from a click on the next page's nav link to its experiment being ready (one runtime
    for the whole visit), against a full reload of the same page from the HTTP cache."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{site_url}/{slugs[0]}/")
    page.wait_for_selector("[data-experiment][data-state='ready']", timeout=120_000)
    warm, reload = [], []
    for slug in slugs[1:]:
        page.evaluate("window.__t0 = performance.now()")
        page.locator(f'.md-nav__link[href$="{slug}/"]').first.click()
        page.wait_for_selector(f'[data-experiment="{slug}"][data-state="ready"]', timeout=120_000)
        same = page.evaluate("window.__t0 !== undefined")
        warm.append(page.evaluate("performance.now() - window.__t0") if same else float("nan"))
    for slug in slugs[1:4]:
        start = page.evaluate("Date.now()")
        page.goto(f"{site_url}/{slug}/")
        page.wait_for_selector(f'[data-experiment="{slug}"][data-state="ready"]', timeout=120_000)
        reload.append(page.evaluate("Date.now()") - start)
    context.close()
    return {"warm_ms": warm, "reload_ms": reload}


def repeat_visits(browser, url: str, reloads: int) -> list:
    """A reader's second visit: the page is opened once and left until the whole site is stored offline
    (the service worker's automatic download), then reloaded; ready time of each full reload in ms."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_selector('[data-offline-state="ready"]', state="attached", timeout=300_000)
    times = []
    for _ in range(reloads):
        page.reload()
        page.wait_for_function("() => window.__bench && window.__bench.ready !== null", timeout=120_000)
        times.append(page.evaluate("window.__bench.ready"))
        restored = page.evaluate("window.probierlabor.config.snapshot.state") == "restored"
        print(f"  repeat visit: ready {times[-1] / 1000:.2f} s, Python {'from its snapshot' if restored else 'started anew'}")
    context.close()
    return times


def press_run(page, slug: str) -> float:
    """„Ausführen“ of the open „Im Code nachrechnen“: ms from the press to the figure on the page."""
    detail = page.evaluate("""() => new Promise((resolve) => {
        const section = document.querySelector('.pl-workshop');
        section.addEventListener('pl:workshop-done', (e) => resolve(e.detail), {once: true});
        section.querySelector('[data-workshop-run]').click(); })""")
    if detail["error"] or not detail["figures"]:
        raise RuntimeError(f"{slug}: das Skript lief nicht durch ({detail})")
    return detail["ms"]


def workshop_times(browser, site_url: str, slug: str) -> dict:
    """„Im Code nachrechnen“: „Ausführen“ → the figure on the page, on first use (pressed as soon as the code
    shows: the worker's loading of Pyodide, numpy and matplotlib began only as the section opened) and on a
    second run; beside them, the Systemcheck's load
    times of numpy and matplotlib in the page's own runtime (each in a fresh browser context)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{site_url}/systemcheck/")
    page.wait_for_function("() => !!(window.probierlabor && window.probierlabor.runtime.systemcheck)", timeout=120_000)
    check = json.loads(page.evaluate("window.probierlabor.runtime.systemcheck()"))
    context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{site_url}/{slug}/")
    page.wait_for_selector('[data-experiment][data-state="ready"]', timeout=120_000)
    page.click(".pl-workshop > summary")
    page.wait_for_selector(".pl-workshop .cm-editor", timeout=90_000)
    runs = [press_run(page, slug) for _ in range(2)]
    context.close()
    return {"slug": slug, "first_ms": runs[0], "second_ms": runs[1],
            "systemcheck_numpy_s": check["numpy"]["seconds"], "systemcheck_matplotlib_s": check["matplotlib"]["seconds"]}


# The first run in a fresh tab, as a reader comes to it: the worker may start loading at a sign that a run
# is coming (static/js/runtime/worker.js, prepare), so the bench gives the reader a reader's pauses. READ_S:
# from the code on screen to the press of „Ausführen“ (the button sits under the code: the reader reads
# or scrolls past it first); POINT_S: from the pointer on „Am echten Modell“'s summary to the click.
# The same runs „at once“ (no pause, no pointer before the click) are the worst case, printed beside them.
READ_S = 2.0
POINT_S = 0.5
FIRST_RUNS = ("workshop", "realmodel", "workshop at once", "realmodel at once")


def first_run_order(rounds: int) -> list[str]:
    """Each first run between two bare Pyodide starts (their mean is its reference, as for the cold
    loads: paired_ratios); every other round backwards, so no kind always follows the same."""
    order = ["bare"]
    for run in range(rounds):
        for name in (FIRST_RUNS if run % 2 == 0 else FIRST_RUNS[::-1]):
            order += [name, "bare"]
    return order


def first_run(browser, site_url: str, name: str, workshop_slug: str, realmodel_slug: str) -> float:
    """ms from the press (workshop) or the click that opens the block (realmodel) to the result, in a fresh
    browser context once the page's own Python is ready."""
    kind = name.split()[0]
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{site_url}/{workshop_slug if kind == 'workshop' else realmodel_slug}/")
    page.wait_for_selector('[data-experiment][data-state="ready"]', timeout=120_000)
    at_once = name.endswith("at once")
    if kind == "workshop":
        page.click(".pl-workshop > summary")
        page.wait_for_selector(".pl-workshop .cm-editor", timeout=90_000)
        if not at_once:
            page.wait_for_timeout(READ_S * 1000)
        ms = press_run(page, workshop_slug)
    else:
        summary = page.locator(".pl-realmodel > summary")
        if not at_once:
            summary.hover()
            page.wait_for_timeout(POINT_S * 1000)
        page.evaluate("""() => { const block = document.querySelector('.pl-realmodel');
            window.__benchFirst = new Promise((resolve) => {
              block.addEventListener('toggle', () => { const opened = performance.now();
                block.addEventListener('pl:realmodel-done', (e) => resolve([performance.now() - opened, e.detail]), {once: true});
              }, {once: true}); }); }""")
        if at_once:  # no pointer on the summary first
            page.evaluate("document.querySelector('.pl-realmodel').open = true")
        else:
            summary.click()
        ms, detail = page.evaluate("window.__benchFirst")
        if detail["error"]:
            raise RuntimeError(f"{realmodel_slug}: „Am echten Modell“ lief nicht durch ({detail['error']})")
    context.close()
    return ms


def first_runs(browser, site_url: str, bare_url: str, workshop_slug: str, realmodel_slug: str, rounds: int) -> dict:
    """The first „Ausführen“ of „Im Code nachrechnen“ and the first step of „Am echten Modell“ in a fresh tab,
    each against the bare Pyodide starts just before and after it: {name: {"ms": [...], "ratio": [...]}}, and
    the bare starts under "bare"."""
    measured = []
    for name in first_run_order(rounds):
        if name == "bare":
            load = cold_load(browser, f"{bare_url}/bare.html")
            load["context"].close()
            measured.append((name, load["ready"]))
        else:
            measured.append((name, first_run(browser, site_url, name, workshop_slug, realmodel_slug)))
    out = {name: {"ms": [ms for n, ms in measured if n == name]} for name in ("bare", *FIRST_RUNS)}
    for name in FIRST_RUNS:
        out[name]["ratio"] = [ratio for n, ratio in paired_ratios(measured) if n == name]
    out["slugs"] = {"workshop": workshop_slug, "realmodel": realmodel_slug}
    return out


def first_run_checks(runs: dict) -> list[tuple[str, float]]:
    """The target: each first run (after the reader's pause) within 1.0 × a bare Pyodide start."""
    return [(f"first {label} vs 1.0 × a bare Pyodide start (median ratio)", median(runs[name]["ratio"]))
            for name, label in (("workshop", "„Ausführen“ of „Im Code nachrechnen“"),
                                ("realmodel", "step of „Am echten Modell“"))]


def print_first_runs(runs: dict) -> None:
    print(f"\n{'first run in a fresh tab':<28}{'median s':>10}{'× bare':>8}   (ratio per run)")
    print(f"{'bare Pyodide start':<28}{median(runs['bare']['ms']) / 1000:>10.2f}")
    for name in FIRST_RUNS:
        ratios = runs[name]["ratio"]
        print(f"{name:<28}{median(runs[name]['ms']) / 1000:>10.2f}{median(ratios):>8.2f}   "
              + " ".join(f"{r:.2f}" for r in ratios))
    print(f"(workshop: „Ausführen“ → figure on {runs['slugs']['workshop']}, pressed {READ_S:g} s after the code "
          f"showed; realmodel: the click that opens the block → first distribution on {runs['slugs']['realmodel']}, "
          f"the pointer {POINT_S:g} s on its summary before; at once: no pause, no pointer)")


LONG_TASKS = """() => { window.__benchLong = []; if (window.__benchObserver) window.__benchObserver.disconnect();
  window.__benchObserver = new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__benchLong.push(e.duration)));
  window.__benchObserver.observe({ type: "longtask" }); }"""
LIVE_RUN = """() => new Promise((resolve) => {
  const section = document.querySelector('.pl-live');
  section.addEventListener('pl:live-done', (e) => resolve(e.detail), {once: true});
  section.querySelector('[data-live-start]').click(); })"""


def live_times(browser, site_url: str, slugs: list[str]) -> list[dict]:
    """„Eigener Lauf“ with each page's default workload (its first preset): „Starten“ → trace on first use
    (the worker starts Pyodide, numpy and the engine) and on a second run; the engine's own time in the
    browser's worker beside the same run in CPython (best of 3); the longest main-thread task during each."""
    from probierlabor.live.runs import run_settings
    from probierlabor.pageblocks import live_block

    rows = []
    for slug in slugs:
        settings = live_block.presets(slug)[0][1]
        cpython = []
        for _ in range(3):
            started = time.perf_counter()
            run_settings(settings)
            cpython.append(time.perf_counter() - started)
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(f"{site_url}/{slug}/")
        page.wait_for_selector('[data-experiment][data-state="ready"]', timeout=120_000)
        runs = []
        for _ in range(2):
            page.evaluate(LONG_TASKS)
            detail = page.evaluate(LIVE_RUN)
            if detail["error"]:
                raise RuntimeError(f"{slug}: der eigene Lauf lief nicht durch ({detail['error']})")
            page.wait_for_timeout(300)  # the replay's first drawing belongs to the run
            runs.append({"ms": detail["ms"], "engine_s": detail["seconds"],
                         "longest_task_ms": max(page.evaluate("window.__benchLong"), default=0)})
        context.close()
        rows.append({"slug": slug, "first": runs[0], "second": runs[1], "cpython_s": min(cpython),
                     "ratio": runs[1]["engine_s"] / min(cpython)})
    return rows


def print_live(rows: list[dict]) -> None:
    print(f"\n{'Eigener Lauf':<22}{'first s':>9}{'again s':>9}{'browser s':>11}{'CPython s':>11}{'ratio':>7}"
          f"{'longest task ms':>17}")
    for r in rows:
        print(f"{r['slug']:<22}{r['first']['ms'] / 1000:>9.2f}{r['second']['ms'] / 1000:>9.2f}"
              f"{r['second']['engine_s']:>11.3f}{r['cpython_s']:>11.3f}{r['ratio']:>7.2f}"
              f"{r['first']['longest_task_ms']:>9.0f} / {r['second']['longest_task_ms']:<5.0f}")
    print("(first: „Starten“ → replay with Pyodide, numpy and the engine loaded on first use; again: a second run; "
          "browser: the engine's time in the worker; longest task: on the first / second run)")


REALMODEL_RUN = """(steps) => new Promise((resolve) => {
  const block = document.querySelector('.pl-realmodel');
  block.addEventListener('pl:realmodel-done', (e) => resolve(e.detail), {once: true});
  if (steps === null) block.open = true;
  else block.querySelector(steps ? '[data-realmodel-all]' : '[data-realmodel-reset]').click(); })"""


def realmodel_times(browser, site_url: str, slugs: list[str]) -> list[dict]:
    """„Am echten Modell“ on each decoding page: opening the block (the worker starts Pyodide and numpy, then the
    model loads: its files fetched and the model built, the part measured as load), then „Ganzer Text“ twice
    (ms per generated token: the worker's compute time over the tokens, the second run) beside the same
    run in CPython (best of 3)."""
    from probierlabor.realmodel import fields, methods, views

    rows = []
    for slug in slugs:
        settings = {"prompt": fields.DEFAULT_PROMPT, "steps": str(fields.MAX_NEW_TOKENS)}
        cpython = []
        for _ in range(3):
            page_runner = views.VIEWS[slug].run
            started = time.perf_counter()
            out = methods.Decoding(page_runner.method, page_runner.shown)(settings)  # not the run it holds
            cpython.append((time.perf_counter() - started) / len(out["tokens"]))
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        page = context.new_page()
        page.goto(f"{site_url}/{slug}/")
        page.wait_for_selector('[data-experiment][data-state="ready"]', timeout=120_000)
        opened = page.evaluate(REALMODEL_RUN, None)
        runs = []
        for _ in range(2):
            page.evaluate(REALMODEL_RUN, 0)
            runs.append(page.evaluate(REALMODEL_RUN, 1))
        context.close()
        if opened["error"] or runs[-1]["error"]:
            raise RuntimeError(f"{slug}: „Am echten Modell“ lief nicht durch ({opened['error'] or runs[-1]['error']})")
        per_token = runs[-1]["compute"] / runs[-1]["tokens"]
        rows.append({"slug": slug, "open_ms": opened["ms"], "load_s": opened["load"], "browser_ms_per_token": per_token * 1000,
                     "cpython_ms_per_token": min(cpython) * 1000, "ratio": per_token / min(cpython)})
    return rows


def print_realmodel(rows: list[dict]) -> None:
    print(f"\n{'Am echten Modell':<22}{'open s':>8}{'load s':>8}{'ms/token':>10}{'CPython':>9}{'ratio':>7}")
    for r in rows:
        print(f"{r['slug']:<22}{r['open_ms'] / 1000:>8.2f}{r['load_s']:>8.3f}{r['browser_ms_per_token']:>10.2f}"
              f"{r['cpython_ms_per_token']:>9.2f}{r['ratio']:>7.2f}")
    print("(open: opening the block → first distribution, with Pyodide and numpy on first use; load: the model's "
          "files fetched and the model built, after the worker is up; ms/token: „Ganzer Text“, the worker's time "
          "per generated token, beside CPython's)")
    print_checks([(f"{r['slug']}: model load vs 2 s", r["load_s"] / 2) for r in rows]
                 + [(f"{r['slug']}: ms per generated token vs 30 ms", r["browser_ms_per_token"] / 30) for r in rows])


def print_workshop(times: dict) -> None:
    print(f"\nIm Code nachrechnen on {times['slug']}: Ausführen → figure {times['first_ms'] / 1000:.2f} s on first use, "
          f"{times['second_ms'] / 1000:.2f} s on a second run · Systemcheck in the page's runtime: numpy "
          f"{times['systemcheck_numpy_s']:.2f} s, matplotlib (load and draw) {times['systemcheck_matplotlib_s']:.2f} s")


def reference_checks(compared: dict | None) -> list[tuple[str, float]]:
    """This build's slider against the reference's: per page (the low end of its 95 % interval: above 1, the
    page is slower beyond the noise of the run), and the median and worst page over all."""
    if not compared:
        return []
    checks = [(f"{r['page']}: slider → next frame vs the reference (low end of the 95 % interval)",
               r["frame"]["interval"][0]) for r in compared["rows"]]
    s = compared["summary"]["frame"]
    checks.append(("slider → next frame, median over pages vs the reference",
                   s[CURRENT]["median"] / s[REFERENCE]["median"]))
    checks.append(("slider → next frame, worst page vs the reference's worst",
                   s[CURRENT]["worst_ms"] / s[REFERENCE]["worst_ms"]))
    return checks


def print_checks(checks: list[tuple[str, float]]) -> None:
    print("\ntargets (measured / target = ratio; ≤ 1 meets the target):")
    for label, ratio in checks:
        print(f"  {'ok  ' if ratio <= 1 else 'MISS'} {ratio:5.2f}  {label}")


def median(values):
    return statistics.median(values) if values else float("nan")


def folder_bytes(folder: Path) -> int:
    """The site's size without its model's weights (served under engine/weights/), which come on top of the budget:
    a page loads them only when „Am echten Modell“ is opened (tests/tools/test_vendor_runtime.py, the same rule)."""
    weights = folder / "engine" / "weights"
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.parent != weights)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="cold loads per page (median reported)")
    parser.add_argument("--steps", type=int, default=30, help="drag moves per page")
    parser.add_argument("--json", help="also write the measurements to this file")
    parser.add_argument("--repeat-page", default="overfitting",
                        help="the page whose repeat visit (site stored offline, full reload) is measured")
    parser.add_argument("--pages", help="comma-separated slugs to measure (default: all)")
    parser.add_argument("--workshop-only", action="store_true",
                        help="measure only „Im Code nachrechnen“ (on --workshop-page) and the Systemcheck")
    parser.add_argument("--workshop-page", default="top-p-sampling", help="a page with a workshop script")
    parser.add_argument("--realmodel-page", default="top-p-sampling", help="a page with „Am echten Modell“")
    parser.add_argument("--first-runs-only", action="store_true",
                        help="measure only the first run of „Im Code nachrechnen“ and the first step of „Am echten "
                             "Modell“ in a fresh tab, each beside bare Pyodide starts (--runs rounds)")
    parser.add_argument("--live-only", action="store_true",
                        help="measure only „Eigener Lauf“ on the engine pages (browser vs CPython, long tasks)")
    parser.add_argument("--realmodel-only", action="store_true",
                        help="measure only „Am echten Modell“ (model load, ms per token: browser vs CPython)")
    parser.add_argument("--site", type=Path, default=SITE,
                        help="another build to measure (e.g. an older revision's, for an A/B comparison)")
    parser.add_argument("--reference", type=Path,
                        help="a built site/ (e.g. of an older revision, in a git worktree) whose slider → repaint "
                             "is measured side by side with this build's, page by page")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the side-by-side slider comparison (--reference)")
    parser.add_argument("--jumps", type=int, default=9, help="slider jumps per page (and build and round)")
    parser.add_argument("--slider-only", action="store_true", help="measure only slider → repaint (with --reference: "
                                                                   "only the side-by-side table)")
    args = parser.parse_args(argv)
    if args.slider_only and not args.reference:
        parser.error("--slider-only misst den Regler neben einem Vergleichsbau: --reference fehlt")
    site = args.site.resolve()
    reference = args.reference.resolve() if args.reference else None
    for folder in (site, reference):
        if folder and not (folder / "index.html").exists():
            print(f"{folder} enthält keine gebaute Website: erst `make site` (dort).", file=sys.stderr)
            return 1

    from playwright.sync_api import sync_playwright
    from probierlabor.pageblocks import live_block
    from probierlabor.realmodel.views import pages as realmodel_pages

    # A part alone: (key in the JSON, measure(browser, url), print)
    live_pages = [s for s in args.pages.split(",") if s in live_block.PAGES] if args.pages else sorted(live_block.PAGES)
    part = (("first_runs", lambda browser, url: first_runs(browser, url, bare_url, args.workshop_page,
                                                           args.realmodel_page, args.runs), print_first_runs)
            if args.first_runs_only else
            ("live", lambda browser, url: live_times(browser, url, live_pages), print_live)
            if args.live_only else
            ("realmodel", lambda browser, url: realmodel_times(browser, url, realmodel_pages("decoding")), print_realmodel)
            if args.realmodel_only else
            ("workshop", lambda browser, url: workshop_times(browser, url, args.workshop_page), print_workshop)
            if args.workshop_only else None)
    if part:
        key, measure, show = part
        server, url = serve(site)
        bare_server, bare_url, bare_root = serve_bare(site)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS)
            cold_load(browser, f"{bare_url}/bare.html")["context"].close()  # Chromium's own first start
            measured = measure(browser, url)
            browser.close()
        server.shutdown()
        bare_server.shutdown()
        shutil.rmtree(bare_root)
        show(measured)
        if key == "first_runs":
            print_checks(first_run_checks(measured))
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps({key: measured}, indent=1))
        return 0

    slugs = [s for s in args.pages.split(",") if s in SLUGS] if args.pages else list(SLUGS)
    compared = None
    if reference:
        # a page the reference build does not have yet cannot be compared side by side
        newer = [s for s in slugs if not (reference / s / "index.html").exists()]
        if newer:
            print(f"not in the reference build, not compared: {', '.join(newer)}")
        compare = [s for s in slugs if s not in newer]
        servers = {CURRENT: serve(site), REFERENCE: serve(reference)}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS)
            # Chromium's own first start is no page's cost
            cold_load(browser, f"{servers[CURRENT][1]}/{slugs[0]}/")["context"].close()
            samples = slider_side_by_side(browser, {b: url for b, (_, url) in servers.items()}, compare,
                                          args.rounds, args.jumps)
            browser.close()
        for server, _ in servers.values():
            server.shutdown()
        compared = {**side_by_side(samples), "samples": samples}  # every jump, for another statistic later
        print_side_by_side(compared, reference, args.rounds, args.jumps)
        if args.slider_only:
            checks = [(f"{r['page']}: slider → next frame median vs 33 ms", r["frame"][CURRENT] / 33)
                      for r in compared["rows"]] + reference_checks(compared)
            print_checks(checks)
            if args.json:
                Path(args.json).parent.mkdir(parents=True, exist_ok=True)
                Path(args.json).write_text(json.dumps({"slider_side_by_side": compared, "checks": checks}, indent=1))
            return 0

    site_server, site_url = serve(site)
    bare_server, bare_url, bare_root = serve_bare(site)

    targets = {name: f"{bare_url}/{name}.html" for name in BARE_PAGES}
    targets.update({slug: f"{site_url}/{slug}/" for slug in slugs})
    loads = {name: [] for name in targets}
    latency = {slug: {"slider": [], "drag": [], "replay": []} for slug in slugs}
    ratios = {name: [] for name in targets}

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS)
        warm = cold_load(browser, targets["bare"])  # the first start of Chromium itself is not the site's cost
        warm["context"].close()
        for run in range(args.runs):
            sequence = load_order(slugs, run)
            ready = []  # (name, ms) in the order loaded
            for name in sequence:
                load = cold_load(browser, targets[name])
                loads[name].append({k: load[k] for k in ("ready", "fcp", "bytes")})
                ready.append((name, load["ready"]))
                if name in latency and run == 0:
                    latency[name]["slider"] = (samples[name][CURRENT] if compared else
                                               slider_latency(load["page"], args.jumps))
                    if name in REPLAY_PANELS:
                        latency[name]["replay"] = replay_step_latency(load["page"], REPLAY_PANELS[name])
                # a drag in every run: one run's 30 moves scattered from 14 to 25 ms between otherwise equal runs
                if name in latency and any(p.kind == "moves" for p in api.concept(name).PARAMS):
                    if run:
                        load["page"].evaluate(MEASURE)
                    latency[name]["drag"] += drag_latency(load["page"], args.steps)
                load["context"].close()
            for name, ratio in paired_ratios(ready):
                ratios[name].append(ratio)
        changes = page_changes(browser, site_url, slugs) if len(slugs) > 1 else {"warm_ms": [], "reload_ms": []}
        repeat_page = args.repeat_page if args.repeat_page in loads else slugs[0]
        repeat = repeat_visits(browser, targets[repeat_page], args.runs)
        workshop = workshop_times(browser, site_url, args.workshop_page)
        firsts = first_runs(browser, site_url, bare_url, args.workshop_page, args.realmodel_page, args.runs)
        lives = live_times(browser, site_url, [slug for slug in sorted(live_block.PAGES) if slug in slugs])
        browser.close()
    site_server.shutdown()
    bare_server.shutdown()
    shutil.rmtree(bare_root)

    bare_ready = median([x["ready"] for x in loads["bare"]])
    site_mb = folder_bytes(site) / 1e6
    rows = []
    print(f"\nProbierlabor benchmark · headless Chromium on loopback · {args.runs} cold loads per page "
          f"(median) · {os.cpu_count()} CPU cores\n")
    print(f"{'page':<16}{'ready s':>9}{'× bare':>8}{'first content s':>17}{'downloaded MB':>15}"
          f"{'slider ms':>11}{'next frame':>12}{'drag ms':>9}")
    for name in targets:
        ready = median([x["ready"] for x in loads[name]]) / 1000
        fcp = median([x["fcp"] for x in loads[name] if x["fcp"]]) / 1000
        mb = median([x["bytes"] for x in loads[name]]) / 1e6
        lat = latency.get(name, {"slider": [], "drag": []})
        slider = median([a for a, _ in lat["slider"]])
        frame = median([b for _, b in lat["slider"]])
        drag = median([a for a, _ in lat["drag"]])
        ratio = median(ratios[name]) if ratios[name] else ready * 1000 / bare_ready
        rows.append({"page": name, "ready_s": ready, "ratio_to_bare": ratio, "first_content_s": fcp,
                     "downloaded_mb": mb, "slider_ms": slider, "slider_next_frame_ms": frame, "drag_ms": drag,
                     "slider_samples": len(lat["slider"]), "drag_samples": len(lat["drag"])})
        fmt = lambda v, spec: ("–" if v != v else format(v, spec))  # noqa: E731 - NaN shows as a dash
        print(f"{name:<16}{ready:>9.2f}{ratio:>8.2f}{fmt(fcp, '.2f'):>17}{mb:>15.1f}"
              f"{fmt(slider, '.1f'):>11}{fmt(frame, '.1f'):>12}{fmt(drag, '.1f'):>9}")

    replays = {slug: latency[slug]["replay"] for slug in REPLAY_PANELS if latency.get(slug, {}).get("replay")}
    for slug, replay in replays.items():
        print(f"\nreplay step on {slug} ({REPLAY_PANELS[slug]}, {len(replay)} steps): repaint median "
              f"{median([a for a, _ in replay]):.1f} ms, slowest {max(a for a, _ in replay):.1f} ms, "
              f"next frame median {median([b for _, b in replay]):.1f} ms")
    train, speculative, horizon, reservoir = training_ms(), speculative_ms(), metr_horizon_ms(), reservoir_ms()
    print(f"\ncontinual learning, one variant trained in CPython: {train:.1f} ms (best of 5)")
    print(f"speculative decoding, compute and view at 10 000 trials in CPython: {speculative:.1f} ms (best of 5)")
    print(f"METR horizon, a run at 160 tasks in CPython: {horizon:.1f} ms (best of 5)")
    print(f"reservoir sampling, 2000 runs at k = 4 in CPython: {reservoir:.1f} ms (best of 5)")
    warm, reload = changes["warm_ms"], changes["reload_ms"]
    if warm:
        print(f"\npage change by nav link, one runtime ({len(warm)} changes): median {median(warm):.0f} ms, "
              f"max {max(warm):.0f} ms · full reload from HTTP cache: median {median(reload):.0f} ms "
              f"(× {median(reload) / median(warm):.0f})")
    site_ratios = [row["ratio_to_bare"] for row in rows if row["page"] in SLUGS]
    worst = max(rows, key=lambda row: row["ratio_to_bare"] if row["page"] in SLUGS else 0)
    print(f"\ncold ready × bare, over {len(site_ratios)} pages: max {max(site_ratios):.2f} ({worst['page']}), "
          f"median {median(site_ratios):.2f}")
    cold_ms = median([x["ready"] for x in loads[repeat_page]])
    repeat_ratio = median(repeat) / cold_ms
    print(f"repeat visit of {repeat_page} (site stored offline, full reload, {len(repeat)} reloads): "
          f"median {median(repeat) / 1000:.2f} s = {repeat_ratio:.2f} × its cold start ({cold_ms / 1000:.2f} s), "
          f"{median(repeat) / bare_ready:.2f} × the bare runtime's cold start")
    print_workshop(workshop)
    print_first_runs(firsts)
    print_live(lives)
    print(f"\nwhole site: {site_mb:.1f} MB")
    checks = []
    for row in rows:
        if row["page"] in SLUGS:
            checks.append((f"{row['page']}: ready vs 1.15 × bare", row["ratio_to_bare"] / 1.15))
            checks.append((f"{row['page']}: first content vs 0.5 s", row["first_content_s"] / 0.5))
            checks.append((f"{row['page']}: slider → next frame median vs 33 ms", row["slider_next_frame_ms"] / 33))
            if row["drag_samples"]:
                checks.append((f"{row['page']}: dragging median vs 16 ms", row["drag_ms"] / 16))
    if warm:
        checks.append(("page change → ready, median vs 0.3 s", median(warm) / 300))
    for slug, replay in replays.items():
        checks.append((f"{slug}: replay step → next frame median vs 33 ms", median([b for _, b in replay]) / 33))
        checks.append((f"{slug}: slowest replay step → laid out vs 100 ms", max(a for a, _ in replay) / 100))
    for r in lives:
        checks.append((f"{r['slug']}: Eigener Lauf, longest main-thread task on a second run vs 100 ms",
                       r["second"]["longest_task_ms"] / 100))
    checks += first_run_checks(firsts)
    checks.append(("continual learning: one variant trained vs 50 ms", train / 50))
    checks.append(("speculative decoding: compute and view at 10 000 trials vs 100 ms", speculative / 100))
    checks.append(("METR horizon: a run at 160 tasks vs 50 ms", horizon / 50))
    checks.append(("reservoir sampling: 2000 runs at k = 4 vs 20 ms", reservoir / 20))
    checks.append((f"repeat visit of {repeat_page} vs 0.5 × cold", repeat_ratio / 0.5))
    checks.append(("whole site vs 42 MB", site_mb / 42))
    checks += reference_checks(compared)
    print_checks(checks)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"rows": rows, "site_mb": site_mb, "page_changes": changes, "repeat_visit_ms": repeat,
                                                   "replay_step_ms": replays, "training_ms": train, "speculative_ms": speculative, "metr_horizon_ms": horizon, "reservoir_ms": reservoir, "workshop": workshop, "first_runs": firsts, "live": lives,
                                                   "slider_side_by_side": compared, "checks": checks}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
