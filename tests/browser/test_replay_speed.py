"""Replay speeds in presentation mode, on a real panel: + and − walk exactly the speeds the panel's
select offers (pageblocks/replay_block.py SPEEDS, the one list of them), the select shows the new one, the
announcement names it, and the playback timer really runs at it."""

from __future__ import annotations

import pytest
from probierlabor.pageblocks.replay_block import SPEEDS
from replay_helpers import open_panel

pytestmark = pytest.mark.browser

SLUG, NAME = "paged-attention", "paged-attention-pressure"

# Records the delay of every timer the page starts from now on: the interval the panel plays at.
SPY = """() => {
  window.plIntervals = [];
  const real = window.setInterval;
  window.setInterval = function (fn, ms, ...rest) { window.plIntervals.push(ms); return real.call(this, fn, ms, ...rest); };
}"""


def announced(v):
    return v.page.evaluate("document.getElementById('pl-present-live').textContent")


def press(v, panel, key):
    """Plays from the start, then presses ``key``: the speed change must restart the running timer."""
    panel.evaluate("el => { window.probierlabor.player(el).reset(); window.probierlabor.player(el).play(); }")
    v.page.evaluate("document.getElementById('pl-present-live').textContent = ''")
    v.page.keyboard.press(key)
    v.page.wait_for_function("() => document.getElementById('pl-present-live').textContent !== ''")
    return {"speed": panel.evaluate("el => window.probierlabor.player(el).speed"),
            "select": panel.locator("select").input_value(),
            "said": announced(v),
            "interval": v.page.evaluate("window.plIntervals[window.plIntervals.length - 1]"),
            "playing": panel.evaluate("el => window.probierlabor.player(el).playing")}


def test_plus_and_minus_walk_the_offered_speeds_and_playback_follows(visit):
    v, panel = open_panel(visit, SLUG, NAME)
    v.wait_state()  # Python has started: its start-up no longer holds up the timers measured below
    offered = panel.locator("select option").evaluate_all("os => os.map(o => [Number(o.value), o.textContent])")
    assert offered == [[value, label] for value, label in SPEEDS]
    values = [value for value, _ in SPEEDS]
    start = values.index(panel.evaluate("el => window.probierlabor.player(el).speed"))

    panel.locator(".pl-replay-title").click()  # the panel the keys go to
    v.page.keyboard.press("p")
    assert v.page.evaluate("document.documentElement.classList.contains('pl-present')")
    v.page.evaluate(SPY)

    base = None  # speed × interval: the same at every speed, the interval at 1×
    walk = [("-", i) for i in range(start - 1, -1, -1)] + [("+", i) for i in range(1, len(SPEEDS))]
    for key, i in walk:
        value, label = SPEEDS[i]
        now = press(v, panel, key)
        assert now["speed"] == value and float(now["select"]) == value, (key, now)
        assert label in now["said"] and "geht es nicht" not in now["said"], now
        assert now["playing"]
        base = base or now["interval"] * value
        assert now["interval"] * value == pytest.approx(base), (value, now["interval"])

    # at the top (and then the bottom) it stays and says so, without a speed the select lacks
    top = press(v, panel, "+")
    assert top["speed"] == values[-1] and SPEEDS[-1][1] in top["said"] and "schneller geht es nicht" in top["said"]
    for _ in range(len(SPEEDS) - 1):
        press(v, panel, "-")
    bottom = press(v, panel, "-")
    assert bottom["speed"] == values[0] and SPEEDS[0][1] in bottom["said"] and "langsamer" in bottom["said"]
    assert float(bottom["select"]) == values[0]

    # the real clock: at the fastest speed two steps come sooner than one step at the slowest
    slowest = base / values[0]
    for _ in range(len(SPEEDS) - 1):
        press(v, panel, "+")
    elapsed = panel.evaluate("""el => new Promise((done) => {
        window.probierlabor.player(el).reset(); const t0 = performance.now(); window.probierlabor.player(el).play();
        el.addEventListener('pl:replay-step', function on(e) {
            if (e.detail.index >= 2) { el.removeEventListener('pl:replay-step', on); done(performance.now() - t0); }
        });
    })""")
    assert 2 * base / values[-1] * 0.9 <= elapsed < slowest, elapsed
    panel.evaluate("el => window.probierlabor.player(el).pause()")
    assert v.console_errors() == []
