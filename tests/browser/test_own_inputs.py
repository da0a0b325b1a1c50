"""The reader's own distribution, typed into an experiment (Param kind „values“): what Python changed
in it is said at once, the result belongs to the typed values, and the link brings both back."""

from __future__ import annotations

import pytest
from conftest import ARRIVED, FOLLOW

from probierlabor.kit import api

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
    assert expected["params"]["dist"] == [0.6, 0.2, 0.1, 0.1]
    v = visit(f"/{SLUG}/")
    v.wait_state()
    v.page.fill(FIELD, TYPED)
    v.page.press(FIELD, "Enter")
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[ROOT, expected["summary"]])
    notes = v.page.locator(f"{ROOT} .pl-notes")
    assert notes.is_visible()
    assert [line for line in notes.inner_text().splitlines() if line] == ["Deine Eingabe passte nicht ganz. Angepasst:",
                                               "„Eigene Verteilung“: Die Werte ergaben zusammen 5; "
                                               "sie wurden durch 5 geteilt."]
    now = shown(v)
    assert now["field"] == "0,6; 0,2; 0,1; 0,1"  # the divided values, in German
    assert now["search"] == {"dist": "0.6_0.2_0.1_0.1"}
    assert now["readouts"] == [[r["key"], r["value"]] for r in expected["readouts"]]
    assert expected["summary"] == "p = 0,75: Die eigene Verteilung behält 2 Tokens (A, B, Summe 0,8)."

    # reloading the page's link shows the same result, without a note (nothing left to change)
    v.page.reload()
    v.wait_state()
    assert shown(v) == now
    assert v.page.locator(f"{ROOT} .pl-notes").is_hidden()

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
    assert not v.console_errors()
