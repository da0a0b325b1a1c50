"""The reader's own distribution, typed into an experiment (Param kind „values“): what Python changed
in it is said at once, the result belongs to the typed values, and the link brings both back."""

from __future__ import annotations

import pytest
from conftest import ARRIVED, FOLLOW
from probierlabor.kit import api, distribution

pytestmark = pytest.mark.browser

SLUG = "top-p-sampling"
ROOT = "[data-experiment]:not([data-url-prefix])"
FIELD = f'{ROOT} input[data-param="dist"]'
TYPED = "3; 1; 0,5; 0,5"  # sums to 5: every value is divided by 5


def shown(v) -> dict:
    return {
        "summary": v.page.inner_text(f"{ROOT} .pl-summary"),
        "readouts": v.page.eval_on_selector_all(f"{ROOT} [data-readout]",
                                                "els => els.map(e => [e.dataset.readout, e.querySelector('dd').textContent])"),
        "field": v.page.input_value(FIELD),
        "search": dict(v.page.evaluate("[...new URLSearchParams(location.search)]")),
    }


def test_an_own_distribution_is_divided_with_a_note_and_the_link_brings_it_back(visit):
    expected = api.run(SLUG, {"dist": TYPED})
    assert expected["params"]["dist"] == [3, 1, 0.5, 0.5]  # kept as typed, divided exactly when computed
    v = visit(f"/{SLUG}/")
    v.wait_state()
    v.page.fill(FIELD, TYPED)
    v.page.press(FIELD, "Enter")
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, expected["summary"]])
    notes = v.page.locator(f"{ROOT} .pl-notes")
    assert notes.is_visible()
    division = "„Eigene Verteilung“: Die Werte ergaben zusammen 5; sie wurden durch 5 geteilt."
    assert [line for line in notes.inner_text().splitlines() if line] == ["Deine Eingabe passte nicht ganz. Angepasst:",
                                                                         division]
    now = shown(v)
    assert now["field"] == "3; 1; 0,5; 0,5"  # the typed values stay, in German
    assert now["search"] == {"dist": "3_1_0.5_0.5"}
    assert now["readouts"] == [[r["key"], r["value"]] for r in expected["readouts"]]
    assert expected["summary"] == "Bei p = 0,75 behält deine Verteilung 2 Tokens (A, B), Summe 0,8."

    # reloading the page's link shows the same result, and says again that it divides
    v.page.reload()
    v.wait_state()
    assert shown(v) == now
    assert division in v.page.inner_text(f"{ROOT} .pl-notes")

    # a typed value that fits needs no note either, and an emptied field brings the article's rows back
    v.page.fill(FIELD, "1; 2")
    v.page.press(FIELD, "Enter")
    v.page.wait_for_function("sel => !document.querySelector(sel + ' .pl-notes').hidden", arg=ROOT)
    v.page.fill(FIELD, "0,5; 0,5")
    v.page.press(FIELD, "Enter")
    v.page.wait_for_function("sel => document.querySelector(sel + ' .pl-notes').hidden", arg=ROOT)
    assert shown(v)["search"] == {"dist": "0.5_0.5"}
    v.page.fill(FIELD, "")
    v.page.press(FIELD, "Enter")
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, api.run(SLUG)["summary"]])
    assert shown(v)["search"] == {}
    assert not v.console_errors()


PC = "prefix-caching"
CACHED = f'{ROOT} input[data-param="cached"]'


def test_an_own_cached_text_loses_an_odd_character_with_a_note_and_the_link_brings_it_back(visit):
    """The text kind of parameter: what is typed is one token per character, a character outside the
    allowed set is left out and said, and the link carries the text."""
    expected = api.run(PC, {"cached": "Hallo Welt!"})
    assert expected["params"]["cached"] == "Hallo Welt"
    v = visit(f"/{PC}/")
    v.wait_state()
    v.page.fill(CACHED, "Hallo Welt!")
    v.page.press(CACHED, "Enter")
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, expected["summary"]])
    notes = v.page.locator(f"{ROOT} .pl-notes")
    assert [line for line in notes.inner_text().splitlines() if line] == [
        "Deine Eingabe passte nicht ganz. Angepasst:",
        "„Eigener Text im Cache“: Das Zeichen „!“ geht hier nicht und wurde weggelassen."]
    assert v.page.input_value(CACHED) == "Hallo Welt"
    assert dict(v.page.evaluate("[...new URLSearchParams(location.search)]")) == {"cached": "Hallo Welt"}
    figure = v.page.inner_html(f"{ROOT} .pl-figure")
    assert "kein voller Block" not in figure and "␣" in figure  # 10 characters in blocks of 2; the space is shown

    v.page.reload()
    v.wait_state()
    assert v.page.inner_text(f"{ROOT} .pl-summary") == expected["summary"]
    assert v.page.input_value(CACHED) == "Hallo Welt"
    assert notes.is_hidden()
    assert not v.console_errors()


def test_an_old_link_with_the_former_name_q_shows_its_state_under_the_new_name_and_no_search(visit):
    """metr-horizon's threshold was called q; ?q= is also the theme's search (Param.alias)."""
    expected = api.run("metr-horizon", {"s": "0.25", "q": "80"})
    v = visit("/metr-horizon/?s=0.25&q=80")
    v.wait_state()
    assert dict(v.page.evaluate("[...new URLSearchParams(location.search)]")) == {"s": "0.25", "quote": "80"}
    assert v.page.inner_text(f"{ROOT} .pl-summary") == expected["summary"]
    assert v.page.is_checked(f'{ROOT} input[data-param="quote"][value="80"]')
    assert not v.page.evaluate("document.getElementById('__search').checked")
    assert v.page.locator(f"{ROOT} .pl-notes").is_hidden()
    assert not v.console_errors()


def test_an_old_link_reached_by_instant_navigation_is_renamed_as_well(visit):
    """The theme's instant navigation keeps the page's scripts: the renaming happens when the experiment mounts."""
    expected = api.run("metr-horizon", {"s": "0.25", "q": "80"})
    v = visit("/overfitting/")
    v.wait_state()
    v.page.evaluate(FOLLOW, v.origin + "/metr-horizon/?s=0.25&q=80")
    v.page.wait_for_function(ARRIVED, arg="/metr-horizon/")
    v.wait_state()
    assert dict(v.page.evaluate("[...new URLSearchParams(location.search)]")) == {"s": "0.25", "quote": "80"}
    assert v.page.inner_text(f"{ROOT} .pl-summary") == expected["summary"]
    # kl-divergence's links from before p and q changed roles name the reference q1 and the approximation
    # p1: they become p_a and q_a, and the page shows the same state
    old = api.run("kl-divergence", {"q1": "0.8", "p1": "0.3"})
    v.page.evaluate(FOLLOW, v.origin + "/kl-divergence/?q1=0.8&p1=0.3")
    v.page.wait_for_function(ARRIVED, arg="/kl-divergence/")
    v.wait_state()
    assert dict(v.page.evaluate("[...new URLSearchParams(location.search)]")) == {"p_a": "0.8", "q_a": "0.3"}
    assert v.page.inner_text(f"{ROOT} .pl-summary") == old["summary"]
    assert old["summary"].startswith("p = (0,8; 0,2)")
    assert not v.console_errors()


# The bars of an own distribution are handles (kit/distribution.py): the dragged bar takes the chance
# under the pointer, the others keep theirs relative to each other, through the field and Python's
# one division by the sum.
BAR = ROOT + ' [data-drag="{}"][data-drag-field="dist"]'
SCREEN_Y_OF = """([el, value]) => {
  const [y0, y1, v0, v1] = el.dataset.dragY.split(" ").map(Number);
  const pt = el.ownerSVGElement.createSVGPoint();
  pt.x = 0; pt.y = y0 + (value - v0) / (v1 - v0) * (y1 - y0);
  return pt.matrixTransform(el.getScreenCTM()).y;
}"""


def chances(v) -> list[float]:
    return v.page.eval_on_selector_all(f'{ROOT} [data-drag][data-drag-field="dist"]',
                                       "els => els.map(e => Number(e.getAttribute('aria-valuenow')))")


def drag_through(v, handle: str, values) -> None:
    """Grab ``handle`` with the mouse, move it through ``values`` (where each lies on screen), let go."""
    bar = v.page.locator(handle)
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    x = box["x"] + box["width"] / 2
    v.page.mouse.move(x, box["y"] + 2)
    v.page.mouse.down()
    for value in values:  # the figure is drawn anew at every step: find the handle again
        v.page.mouse.move(x, v.page.evaluate(SCREEN_Y_OF, [v.page.locator(handle).element_handle(), value]))
    v.page.mouse.up()


def settled_on(v, summary: str) -> dict:
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, summary])
    return shown(v)


def test_a_bar_of_an_own_distribution_is_dragged_by_mouse_and_by_keyboard(visit):
    v = visit(f"/{SLUG}/?dist=5_3_2")  # the reader's own units: five, three and two parts
    v.wait_state()
    assert chances(v) == [0.5, 0.3, 0.2]
    drag_through(v, BAR.format(0), (0.55, 0.6, 0.65, 0.7))
    v.page.wait_for_function("sel => Math.abs(document.querySelector(sel).getAttribute('aria-valuenow') - 0.7) < 0.01",
                             arg=BAR.format(0))
    a, b, c = chances(v)
    assert abs(b / c - 1.5) < 0.01, "the other bars kept their proportion"
    url = dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))["dist"]
    assert url.split("_")[1:] == ["3", "2"], "the bars not dragged keep the numbers the reader typed"
    expected = api.run(SLUG, {"dist": url})
    assert [float(x) for x in distribution.shares(expected["params"]["dist"])] == [a, b, c]  # the link gives the bars
    now = settled_on(v, expected["summary"])
    assert now["field"] == expected["controls"]["dist"]
    assert now["readouts"] == [[r["key"], r["value"]] for r in expected["readouts"]]
    note = v.page.inner_text(f"{ROOT} .pl-notes")
    assert "„Eigene Verteilung“: Die Werte ergaben zusammen" in note and "geteilt" in note

    # the keyboard: B one step (0,01) up, and the focus stays on B through the new figure
    v.page.locator(BAR.format(1)).focus()
    v.page.keyboard.press("ArrowUp")
    v.page.wait_for_function("([sel, b]) => Number(document.querySelector(sel).getAttribute('aria-valuenow')) > b + 0.005",
                             arg=[BAR.format(1), b])
    a2, b2, c2 = chances(v)
    assert abs(b2 - (b + 0.01)) < 0.0002 and abs(a2 / c2 - a / c) < 0.01
    assert v.page.evaluate("document.activeElement.dataset.drag") == "1"
    url = dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))["dist"]
    assert settled_on(v, api.run(SLUG, {"dist": url})["summary"])["field"] == api.run(SLUG, {"dist": url})["controls"]["dist"]
    assert not v.console_errors()


# A logit bar (softmax-temperatur, kit/drag.py ``direct``) takes the value under the pointer as it is:
# no division by a sum, the other logits stay, and the field holds all of them from then on.
LOGIT = ROOT + ' [data-drag="{}"][data-drag-field="logits"]'


def test_a_logit_bar_is_dragged_to_the_value_under_the_pointer_and_by_keyboard(visit):
    slug = "softmax-temperatur"
    v = visit(f"/{slug}/")
    v.wait_state()
    logits = lambda: v.page.eval_on_selector_all(f'{ROOT} [data-drag][data-drag-field="logits"]',  # noqa: E731
                                                 "els => els.map(e => Number(e.getAttribute('aria-valuenow')))")
    assert logits() == [2, 1, 0.5, -1]
    drag_through(v, LOGIT.format(1), (1.5, 2.0, 2.5))
    v.page.wait_for_function("sel => Math.abs(document.querySelector(sel).getAttribute('aria-valuenow') - 2.5) < 0.01",
                             arg=LOGIT.format(1))
    assert logits() == [2, 2.5, 0.5, -1], "only B moved, to the value under the pointer"
    url = dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))["logits"]
    assert url == "2_2.5_0.5_-1"
    expected = api.run(slug, {"logits": url})
    assert not expected["notes"]
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, expected["summary"]])
    assert v.page.input_value(f'{ROOT} input[data-param="logits"]') == expected["controls"]["logits"] == "2; 2,5; 0,5; \u22121"

    # the keyboard: C one step (0,1) down, the focus stays on C
    v.page.locator(LOGIT.format(2)).focus()
    v.page.keyboard.press("ArrowDown")
    v.page.wait_for_function("sel => Math.abs(document.querySelector(sel).getAttribute('aria-valuenow') - 0.4) < 1e-9",
                             arg=LOGIT.format(2))
    assert logits() == [2, 2.5, 0.4, -1]
    assert v.page.evaluate("document.activeElement.dataset.drag") == "2"
    assert not v.console_errors()


# The p bars of kreuzentropie-perplexitaet are direct handles too: a dragged bar writes every bar into the
# own list, and the untouched ones keep the table's exact fractions (1/104 stays 1/104, not its float).
P_BAR = ROOT + ' [data-drag="{}"][data-drag-field="p"]'


def test_a_p_bar_dragged_by_mouse_and_by_keyboard_moves_the_loss_and_leaves_the_others_exact(visit):
    slug = "kreuzentropie-perplexitaet"
    v = visit(f"/{slug}/?satz=miaut")
    v.wait_state()
    drag_through(v, P_BAR.format(1), (0.45, 0.4))
    v.page.wait_for_function("sel => Math.abs(document.querySelector(sel).getAttribute('aria-valuenow') - 0.4) < 0.01",
                             arg=P_BAR.format(1))
    url = dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))["p"]
    expected = api.run(slug, {"satz": "miaut", "p": url})
    assert not expected["notes"] and expected["result"]["changed"] == [1]
    assert expected["result"]["probs_exact"][2] == "1/104"
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, expected["summary"]])

    # the keyboard: „miaut“ one step (0,01) up, onto the step's grid (1/104 + 0,01 → 0,02), and cheaper
    v.page.locator(P_BAR.format(2)).focus()
    v.page.keyboard.press("ArrowUp")
    v.page.wait_for_function("sel => Math.abs(document.querySelector(sel).getAttribute('aria-valuenow') - 0.02) < 1e-9",
                             arg=P_BAR.format(2))
    url = dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))["p"]
    after = api.run(slug, {"satz": "miaut", "p": url})
    assert after["result"]["mean"] < expected["result"]["mean"]
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, after["summary"]])
    assert v.page.evaluate("document.activeElement.dataset.drag") == "2"
    assert not v.console_errors()
