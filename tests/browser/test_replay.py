"""Recorded engine runs in the browser: every replay panel on every page, generic checks.

What each view draws is tested per page (test_replay_<view>… in the page's own test); here: every
panel loads its trace offline, becomes ready, steps, scrubs and plays, its last state shows the
trace's result, and a missing, corrupt or incompatible trace gives a German message while the
page's live experiment keeps working.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from replay_helpers import traces_tab

# The built site the panels are discovered in (as in conftest.py: PROBIERLABOR_SITE for parallel builds).
SITE = Path(os.environ.get("PROBIERLABOR_SITE", Path(__file__).resolve().parents[2] / "site"))

PANEL = re.compile(r'<section class="pl-replay" data-replay="([^"]+)" data-view="([^"]+)"')


def panels() -> list[tuple[str, str, str]]:
    found = []
    for html in sorted(SITE.glob("*/index.html")):
        for name, view in PANEL.findall(html.read_text(encoding="utf-8")):
            found.append((html.parent.name, name, view))
    return found


PANELS = panels()


def test_the_engine_pages_have_replay_panels():
    pages = {p for p, _, _ in PANELS}
    assert {"decode", "prefill", "kv-cache", "flash-attention", "paged-attention", "prefix-caching",
            "continuous-batching", "ttft", "speculative-decoding", "gqa", "mqa"} <= pages


@pytest.mark.parametrize("slug, name, view", PANELS, ids=[f"{p}-{n}" for p, n, _ in PANELS])
def test_panel_replays_offline(reader, slug, name, view):
    v = reader(f"/{slug}/")
    panel = v.page.locator(f'section.pl-replay[data-replay="{name}"]')
    v.page.wait_for_selector(f'section.pl-replay[data-replay="{name}"][data-state="ready"]', timeout=30_000)
    trace = json.loads((SITE / "static" / "traces" / f"{name}.json").read_text(encoding="utf-8"))
    length = panel.evaluate("el => window.probierlabor.player(el).length")
    assert length >= trace["result"]["num_steps"]
    assert panel.locator(".pl-r-counter").inner_text() == f"0 von {length}"
    before = panel.locator(".pl-replay-view").inner_html()
    panel.locator(".pl-r-next").click()
    assert panel.locator(".pl-r-counter").inner_text() == f"1 von {length}"
    after = panel.locator(".pl-replay-view").inner_html()
    assert after != before, "a step must change what the panel shows"
    # scrub to the end: the summary speaks about the finished run
    panel.locator('input[type="range"]').fill(str(length))
    assert panel.locator(".pl-r-counter").inner_text() == f"{length} von {length}"
    assert panel.locator(".pl-replay-summary").inner_text().strip()
    # play from the start at 4×, pause, reset
    panel.evaluate("el => { window.probierlabor.player(el).reset(); window.probierlabor.player(el).setSpeed(4); window.probierlabor.player(el).play(); }")
    v.page.wait_for_function(f"() => window.probierlabor.player(document.querySelector('section.pl-replay[data-replay=\"{name}\"]')).index >= 2",
                             timeout=5_000)
    panel.evaluate("el => window.probierlabor.player(el).pause()")
    assert not panel.evaluate("el => window.probierlabor.player(el).playing")
    panel.locator(".pl-r-reset").click()
    assert panel.locator(".pl-r-counter").inner_text() == f"0 von {length}"
    assert "Backend" in panel.locator(".pl-replay-machine").inner_text()
    assert not v.foreign_requests() and not v.console_errors()


def _corrupt(route):
    # Events that contradict each other are refused at build time (mkdocs_hooks/traces.py,
    # tests/hooks/test_traces_hook.py); the browser refuses what it cannot fold: here a request nobody sent.
    response = route.fetch()
    trace = response.json()
    first = next(s for s in trace["steps"] if any(e["type"] == "emit" for e in s["events"]))
    next(e for e in first["events"] if e["type"] == "emit")["seq"] = "niemand"
    route.fulfill(response=response, body=json.dumps(trace))


def _future(route):
    response = route.fetch()
    trace = response.json()
    trace["schema_version"] = 99
    route.fulfill(response=response, body=json.dumps(trace))


# A trace that arrives whole stays in the tab's memory (it does not change while the reader is on the site),
# and a page loads all of its panels' traces: each whole fault comes last for its trace.
FAULTS = [
    ("widersprüchlich", "ttft", "continuous-batching-realistic", _corrupt, ("unbekannte Anfrage niemand",)),
    ("fehlt", "continuous-batching", "continuous-batching-article",
     lambda route: route.fulfill(status=404, body="nicht da"), ("fehlt",)),
    ("kaputt", "continuous-batching", "continuous-batching-article",
     lambda route: route.fulfill(status=200, body="{nicht json", content_type="application/json"), ("beschädigt",)),
    ("neuere Version", "continuous-batching", "continuous-batching-article", _future, ("Version 99",)),
]


def test_a_bad_trace_gives_a_german_message_and_the_page_keeps_working(visit, check):
    v, open_ = traces_tab(visit)
    for fault, slug, name, handler, message in FAULTS:
        with check(fault):
            panel = open_(slug, name, handler, "error")
            text = v.page.locator(f"{panel} .pl-replay-error").inner_text()
            assert any(m in text for m in message) and "Rest der Seite" in text, text
            assert v.wait_state() == "ready"  # the live experiment is untouched
            root = v.page.locator("[data-experiment]")
            before = root.locator(".pl-figure").inner_html()
            root.locator("[data-preset]").last.click()
            v.page.wait_for_function("() => document.querySelector('[data-experiment]').dataset.state === 'ready'")
            assert root.locator(".pl-figure").inner_html() != before or root.locator("[data-preset]").count() == 1
