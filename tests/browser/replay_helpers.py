"""Shared by the replay view tests (test_replay_*.py): open a page at its panel, jump to a step."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import change_page
from probierlabor.kit import fmt

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # as conftest.py: parallel builds
TRACES = SITE / "static" / "traces"
SHOTS = ROOT / "out" / "screenshots"


def shown(text: str) -> str:
    """A token as the views write it: static/js/fmt.js token, held to kit/fmt.py's by tests/golden/numbers.json."""
    return fmt.token(text)


def trace(name: str) -> dict:
    """The trace the built site serves."""
    return json.loads((TRACES / f"{name}.json").read_text(encoding="utf-8"))


def open_panel(visit, slug: str, name: str, **kwargs):
    """Visit /slug/ and wait until the panel replaying trace ``name`` is ready; (visit, panel locator)."""
    v = visit(f"/{slug}/", **kwargs)
    selector = f'section.pl-replay[data-replay="{name}"]'
    v.page.wait_for_selector(f'{selector}[data-state="ready"]', timeout=30_000)
    return v, v.page.locator(selector)


def go(panel, index: int) -> None:
    """Show the state after ``index`` steps."""
    panel.evaluate(f"el => {{ window.probierlabor.player(el).reset(); window.probierlabor.player(el).step({index}); }}")
    assert panel.evaluate("el => window.probierlabor.player(el).index") == index


def traces_tab(visit):
    """One tab in which each case answers one trace with its own route handler (the others come unchanged),
    without the offline copy, whose answers would pass by the route. Python starts once; every case is a
    page change: ``open_(slug, name, handler, state)`` → the panel's selector once it reached ``state``."""
    serve = {}

    def route(request_route):
        name = request_route.request.url.rsplit("/", 1)[-1].removesuffix(".json")
        if name in serve:
            serve[name](request_route)
        else:
            request_route.continue_()

    v = visit("/", routes=[("**/static/traces/*.json", route)])

    def open_(slug, name, handler, state):
        serve.clear()
        serve[name] = handler
        change_page(v.page, f"{v.origin}/{slug}/")  # a panel mounts (and fetches its trace) when its page comes in
        panel = f'section.pl-replay[data-replay="{name}"]'
        v.page.locator(panel).scroll_into_view_if_needed()  # a panel loads its trace once it comes near the screen
        v.page.wait_for_selector(f'{panel}[data-state="{state}"]', timeout=30_000)
        return panel

    return v, open_
