"""Shared by the replay view tests (test_replay_*.py): open a page at its panel, jump to a step."""

from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("PROBIERLABOR_SITE", ROOT / "site"))  # as conftest.py: parallel builds
TRACES = SITE / "static" / "traces"
SHOTS = ROOT / "out" / "screenshots"


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
