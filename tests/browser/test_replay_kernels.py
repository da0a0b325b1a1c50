"""What the kernel replay views show: FlashAttention's tiles and speculative decoding's rounds.

Every number asserted is read from the trace the panel plays (static/traces/*.json), formatted the
German way, and looked up in what the browser renders for that step; a few are also pinned to the
articles' values (A is accepted with 1/3, corrections only B or C, u/l is the engine's output).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from conftest import COLOUR_RULES, scan, settle
from replay_helpers import ROOT, SHOTS, SITE, TRACES, go, open_panel, shown, trace  # noqa: F401


def de(x: float, digits: int) -> str:
    """German number as the views print it: decimal comma, real minus sign, no '−0'. Rounded like the
    browser's toLocaleString: the shortest decimal of the float, halves away from zero (2,125 → 2,13)."""
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    s = f"{q:f}".replace(".", ",")
    if s.startswith("-"):
        s = "−" + s[1:]
    return "0" + s[2:] if re.fullmatch(r"−0(,0*)?", s) else s


def tiles_of(t: dict) -> list[list[dict]]:
    return [[e for e in s["events"] if e["type"] == "tile"] for s in t["steps"]]


def verifies(t: dict) -> list[dict]:
    return [next(e for e in s["events"] if e["type"] == "verify") for s in t["steps"]]


# ------------------------------------------------------------------------------ FlashAttention


def test_tiles_show_m_l_rescaling_and_the_output_of_every_step(reader):
    t = trace("flash-attention-tiles")
    _v, panel = open_panel(reader, "flash-attention", "flash-attention-tiles")
    steps = tiles_of(t)
    # every key up to the query, in tiles of 4
    assert [len(s) for s in steps] == [-(-(s[0]["query"] + 1) // 4) for s in steps] and len(steps) == 3
    rises = 0
    for index, tiles in enumerate(steps, start=1):
        go(panel, index)
        view = panel.locator(".pl-replay-view")
        rows = view.locator("li.plk-row")
        assert rows.count() == len(tiles)
        query = tiles[0]["query"]
        # layers and heads counted from 1, as on the page and in the attention heatmap
        head = view.locator(".plk-head").inner_text()
        assert f"Schicht {tiles[0]['layer'] + 1}, Kopf {tiles[0]['head'] + 1}," in head
        assert view.locator(".plk-key").count() == query + 1  # the current context: every key up to the query
        assert view.locator(".plk-key.plk-self").count() == 1
        m_old = None
        for j, e in enumerate(tiles):
            row = rows.nth(j).inner_text()
            assert f"m = {de(e['m'], 3)}" in row
            assert de(e["l"], 3) in row
            assert f"Keys {e['keys'][0]}–{e['keys'][1] - 1}" in row
            rose = m_old is not None and e["m"] > m_old
            assert ("m steigt" in row) == rose
            if rose:
                rises += 1
                assert de(math.exp(m_old - e["m"]), 3) in row  # the factor e^{m_old − m_new}
                assert "plk-row-rise" in rows.nth(j).get_attribute("class")
            m_old = e["m"]
        out = view.locator(".plk-out").inner_text()
        assert "[" + "; ".join(de(x, 3) for x in tiles[-1]["out"]) + "]" in out
        assert "dichte Attention" in out and "Zahl für Zahl die Ausgabe der Engine" in out
        shares = [float(s.replace("%", "").replace(",", ".").strip())
                  for s in view.locator(".plk-share").all_inner_texts()]
        assert abs(sum(shares) - 100) < 2  # the tiles' shares of the final weight add up
    assert rises >= 2  # the trace shows the rescaling it is recorded for


def test_tiles_pinned_numbers_of_the_first_decode_step(reader):
    v, panel = open_panel(reader, "flash-attention", "flash-attention-tiles")
    go(panel, 2)
    rows = panel.locator("li.plk-row")
    assert [rows.nth(j).locator(".plk-m").inner_text() for j in range(4)] == [
        "m = 0,542", "m = 0,739", "m = 0,739", "m = 0,739"]
    second = rows.nth(1).inner_text()
    assert "e0,542 − 0,739 = 0,821" in second.replace("\n", "")
    assert "l = 0,821 · 2,726 + 1,943 = 4,182" in second
    assert rows.nth(2).locator(".plk-l").inner_text() == "l = 4,182 + 1,730 = 5,913"
    assert "„Die“" in panel.locator(".plk-dense").inner_text()  # the token the model chose afterwards
    assert not v.foreign_requests() and not v.console_errors()


# ------------------------------------------------------------------------------ speculative decoding


def test_pq_round_with_a_rejected_a_shows_one_third_u_and_the_correction(reader):
    t = trace("speculative-decoding-pq")
    v, panel = open_panel(reader, "speculative-decoding", "speculative-decoding-pq")
    vf = verifies(t)
    index = next(i for i, x in enumerate(vf, start=1) if x["accepted"] == 0 and x["proposals"][:1] == [0])
    x = vf[index - 1]
    go(panel, index)
    cards = panel.locator("li.plk-card")
    assert cards.count() == len(x["proposals"]) + 1
    first = cards.nth(0).inner_text()
    assert "A" in first and "abgelehnt" in first
    assert "min(1, p/q) = 0,333" in first and "q = 0,6 · p = 0,2" in first
    assert f"u = {de(x['uniforms'][0], 3)} ≥ 0,333" in first
    for j in range(1, len(x["proposals"])):
        assert cards.nth(j).get_attribute("data-verdict") == "skip"
        assert "line-through" in cards.nth(j).locator(".plk-tok").evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "line-through" in cards.nth(0).locator(".plk-tok").evaluate("e => getComputedStyle(e).textDecorationLine")
    fix = cards.nth(len(x["proposals"]))
    assert fix.get_attribute("data-verdict") == "correction"
    assert fix.locator(".plk-tok").inner_text() == "ABC"[x["correction"]]
    assert "max(0, p − q)" in fix.inner_text()
    assert not v.foreign_requests() and not v.console_errors()


def test_pq_every_round_acceptance_corrections_and_running_totals(reader):
    t = trace("speculative-decoding-pq")
    v, panel = open_panel(reader, "speculative-decoding", "speculative-decoding-pq")
    accepted = examined = tokens = 0
    seen_correction = seen_bonus = False
    for index, x in enumerate(verifies(t), start=1):
        go(panel, index)
        cards = panel.locator("li.plk-card")
        for j, token in enumerate(x["proposals"]):
            card = cards.nth(j)
            if j < len(x["accept_probs"]):
                # A: min(1, 0,2/0,6) = 1/3; B and C are proposed too rarely and always pass
                expected = "0,333" if token == 0 else "1"
                assert f"min(1, p/q) = {expected}" in card.inner_text()
                assert card.get_attribute("data-verdict") == ("acc" if j < x["accepted"] else "rej")
            else:
                assert card.get_attribute("data-verdict") == "skip"
        last = cards.nth(cards.count() - 1)
        if x["correction"] is not None:
            seen_correction = True
            assert last.get_attribute("data-verdict") == "correction"
            assert last.locator(".plk-tok").inner_text() in ("B", "C")  # max(0, p − q) is 0 for A
        else:
            seen_bonus = True
            assert last.get_attribute("data-verdict") == "bonus"
            assert last.locator(".plk-tok").inner_text() == "ABC"[x["bonus"]]
        accepted += x["accepted"]
        examined += len(x["accept_probs"])
        tokens += len(x["emitted"])
        assert panel.locator(".plk-tpc").inner_text() == de(tokens / index, 2)
        assert f"({accepted} von {examined} geprüften)" in panel.locator(".plk-rate").inner_text()
    assert seen_correction and seen_bonus
    cfg = t["config"]
    assert panel.locator(".plk-tpc").inner_text() == de(cfg["tokens_per_target_call"], 2) == "2,07"
    assert panel.locator(".plk-rate").inner_text().startswith(de(100 * cfg["acceptance_rate"], 1) + "\u202f%")
    # the histogram of emitted tokens against p
    text = t["result"]["outputs"]["r"]["text"]
    rows = panel.locator(".plk-hrow")
    assert rows.count() == 3
    for j, (name, p) in enumerate(zip("ABC", t["model"]["probs"], strict=True)):
        row = rows.nth(j).inner_text()
        assert f"{text.count(name)} von {len(text)} = {de(text.count(name) / len(text), 3)}" in row
        assert f"p = {de(p, 1)}" in row
    assert "0,6" in panel.locator(".plk-expect").inner_text()  # Σ min(p, q) = 0,2 + 0,3 + 0,1
    assert not v.foreign_requests() and not v.console_errors()


def test_tiny_greedy_rounds_and_the_final_text(reader):
    t = trace("speculative-decoding-tiny")
    v, panel = open_panel(reader, "speculative-decoding", "speculative-decoding-tiny")
    req = t["workload"]["requests"][0]
    emitted_text = ""
    for index, x in enumerate(verifies(t), start=1):
        go(panel, index)
        emits = [e["text"] for e in t["steps"][index - 1]["events"] if e["type"] == "emit"]
        step_text = "".join(emits)
        assert panel.locator(".plk-head .plk-tok").all_inner_texts() == [shown(text) for text in emits]
        assert panel.locator(".plk-new").text_content() == step_text
        emitted_text += step_text
        cards = panel.locator("li.plk-card")
        assert [cards.nth(j).get_attribute("data-verdict") for j in range(len(x["proposals"]))] == (
            ["acc"] * x["accepted"] + (["rej"] + ["skip"] * (len(x["proposals"]) - x["accepted"] - 1)
                                       if x["rejected"] else []))
        assert "u =" not in panel.locator(".plk-cards").inner_text()  # greedy draws no uniforms
    assert emitted_text == t["result"]["outputs"]["r"]["text"]
    line = panel.locator(".plk-text").evaluate(
        "e => [...e.querySelectorAll('.plk-prompt, .plk-old, .plk-new')].map(s => s.textContent).join('')")
    assert line == req["prompt_text"] + t["result"]["outputs"]["r"]["text"]
    assert panel.locator(".plk-tpc").inner_text() == de(t["config"]["tokens_per_target_call"], 2)
    assert panel.locator(".plk-hist").count() == 0  # no constant p to compare against
    assert not v.foreign_requests() and not v.console_errors()


# ------------------------------------------------------------------------------ looks


@pytest.mark.parametrize("slug, names", [
    ("flash-attention", ["flash-attention-tiles"]),
    ("speculative-decoding", ["speculative-decoding-pq", "speculative-decoding-tiny"]),
])
@pytest.mark.parametrize("width", [1280, 390])
def test_kernel_views_fit_readable_fast_and_dark(reader, slug, names, width):
    v = reader(f"/{slug}/", width=width, height=900, color_scheme="dark")
    for name in names:
        selector = f'section.pl-replay[data-replay="{name}"]'
        v.page.wait_for_selector(f'{selector}[data-state="ready"]', timeout=30_000)
        panel = v.page.locator(selector)
        # stepping through the whole trace repaints quickly (best of 5 passes: the test machine is shared)
        ms = panel.evaluate("""el => { let best = Infinity;
            for (let pass = 0; pass < 5; pass++) {
              const t0 = performance.now(); window.probierlabor.player(el).reset();
              for (let i = 0; i < window.probierlabor.player(el).length; i++) window.probierlabor.player(el).step(1);
              best = Math.min(best, (performance.now() - t0) / (window.probierlabor.player(el).length + 1));
            }
            return best; }""")
        assert ms < 30, f"{name}: {ms:.1f} ms per step"
        go(panel, 2 if "tiles" in name else 4)
        settle(v.page)  # the tile rows fade in one after another
        assert v.page.evaluate("document.documentElement.scrollWidth") <= width
        small = panel.locator(".pl-replay-view").evaluate("""root => [...root.querySelectorAll('*')]
            .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .filter(e => parseFloat(getComputedStyle(e).fontSize) < 12)
            .map(e => `${e.tagName}.${e.className} ${getComputedStyle(e).fontSize}: ${e.textContent.slice(0, 30)}`)""")
        assert not small, small
        box = panel.evaluate("el => { const r = el.getBoundingClientRect(); "
                             "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }")
        v.page.evaluate("window.scrollTo(0, 0)")
        v.screenshot(f"replay-{slug}-{name.removeprefix(slug + '-')}-{width}", full_page=True, clip=box)
    assert v.page.evaluate("document.body.dataset.mdColorScheme || document.body.getAttribute('data-md-color-scheme')") == "slate"
    assert not v.foreign_requests() and not v.console_errors()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_kernel_views_pass_axe_in_the_interesting_steps(reader, axe_source, scheme):
    """The page scan (test_a11y.py) sees step 0; rescaling, rejections and skips appear only later."""
    for slug, name, steps in [("flash-attention", "flash-attention-tiles", [2, 3]),
                              ("speculative-decoding", "speculative-decoding-pq", [4, 5, 29]),
                              ("speculative-decoding", "speculative-decoding-tiny", [2, 3])]:
        v, panel = open_panel(reader, slug, name, color_scheme=scheme)
        for index in steps:
            go(panel, index)
            # after every row's fade-in (staggered: row i starts after i × 0.12 s): axe measures colours as shown
            settle(v.page, f'section.pl-replay[data-replay="{name}"]')
            bad = [(x["id"], [n["target"] for n in x["nodes"]])
                   for x in scan(v.page, axe_source, rules=COLOUR_RULES if scheme == "dark" else None,
                                 within=f'section.pl-replay[data-replay="{name}"]')]
            assert not bad, f"{name}, Schritt {index}: {bad}"
