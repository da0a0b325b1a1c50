"""Keyboard only: every kind of control, on one experiment that uses it, reached with Tab and worked
with the keys a reader would press; German names and values for screen readers; reduced motion.

The kinds come from the concept modules' PARAMS, so a new page or a new kind of control is picked up
by itself, and a kind nobody taught this file how to operate fails the coverage test.
"""

from __future__ import annotations

import math
import os
import random
import re
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.pageblocks import experiment_block

pytestmark = pytest.mark.browser

SITE = Path(os.environ.get("PROBIERLABOR_SITE", Path(__file__).resolve().parents[2] / "site"))
ROOT = "[data-experiment]:not([data-url-prefix])"  # the page's experiment, not an A/B copy of it
MAX_TABS = 40  # presets, tools and every control of the largest experiment (irt) fit well within this
# A unit the reader hears with the value: the declared one, else one named at the end of the label
# ("Netz hin (ms)", "Richtung von q₁ (Grad)", "Wahrscheinlichkeit bei 2 Stunden (in %)").
LABEL_UNIT = re.compile(r"\((?:in )?(ms|s|%|Grad)\)\s*$")
GERMAN = re.compile(r"\b(der|die|das|und|ist|mit|bei|von|nach|ein|eine|im|auf|für|nicht|liegt|wird)\b|[äöüß]",
                    re.IGNORECASE)
ENGLISH_DECIMAL = re.compile(r"\d\.(?!\d{3}(?!\d))\d")  # 0.75 is English; 10.000 is a German thousands group


# ---- which kinds exist, and one page for each ------------------------------------------------

def kind_of(p) -> str:
    if p.kind in ("int", "float"):
        if p.widget == "number":
            return "number"
        return "range-log" if p.log else "range"
    if p.kind == "choice":
        return "select" if p.widget == "select" else "radio"
    return {"bool": "toggle", "seed": "seed", "moves": "moves"}.get(p.kind, p.kind)  # a new kind: see below


def typed(p) -> str:
    """What the keyboard test types into a text field: a list of values, or a text of allowed characters."""
    if p.kind == "text":
        letters = p.allowed if isinstance(p.allowed, str) else "Haus"  # a test of each character: any word
        text = letters[:max(p.count[0], 4)]
        assert p.coerce(text) == (text, None), text
        return text
    return typed_values(p)


def typed_values(p) -> str:
    """What the keyboard test types into a field for a list of values: as few as allowed, all fitting
    (a distribution summing to 1), in German."""
    shares = (0.6, 0.4) if p.normalise else tuple(round(p.lo + (p.hi - p.lo) * f, 2) for f in (0.3, 0.6))
    values = shares + (0.0,) * (p.count[0] - 2)
    text = p.to_field(values)
    assert p.coerce(text) == (values, None), text
    return text


def unit_of(p) -> str:
    if p.unit:
        return p.unit
    match = LABEL_UNIT.search(p.label)
    return match.group(1) if match else ""


def step_value(p, current):
    """The value one key press (Arrow key on a slider, field or radio group; Space on a switch) gives."""
    if p.kind in ("int", "float") and p.log:
        exponent = math.log10(current) + (p.step if current * 10 ** p.step <= p.hi else -p.step)
        return float(f"{10 ** exponent:.3g}")  # experiment/controls.js sends three significant digits
    if p.kind in ("int", "float"):
        step = p.step or 1
        value = current + step if current + step <= p.hi + 1e-9 else current - step
        return round(value, 10) if p.kind == "float" else int(value)
    if p.kind == "choice":
        values = [v for v, _ in p.choices]
        if p.widget == "select":  # ArrowDown, or ArrowUp on the last option
            i = values.index(current)
            return values[i + 1] if i + 1 < len(values) else values[i - 1]
        return values[(values.index(current) + 1) % len(values)]  # ArrowRight wraps round
    if p.kind == "bool":
        return not current
    return None


def key_for(p, current) -> str:
    if p.kind in ("int", "float") and p.widget == "number":
        return "ArrowUp" if step_value(p, current) > current else "ArrowDown"
    if p.kind in ("int", "float"):
        return "ArrowRight" if step_value(p, current) > current else "ArrowLeft"
    if p.kind == "choice":
        if p.widget == "select":
            values = [v for v, _ in p.choices]
            return "ArrowDown" if values.index(step_value(p, current)) > values.index(current) else "ArrowUp"
        return "ArrowRight"
    return " "


def audible(slug, raw) -> bool:
    """The change shows in the figure and is spoken by the live summary."""
    base, changed = api.run(slug), api.run(slug, raw)
    return changed["summary"] != base["summary"] and changed["figure"] != base["figure"]


def choose() -> dict[str, tuple[str, str]]:
    """kind -> (slug, parameter name): the first experiment where one key press of that kind changes
    figure and summary. Sliders: one with a fractional step first (the decimal comma is checked)."""
    chosen: dict[str, tuple[str, str]] = {}
    for prefer_fraction in (True, False):
        for slug in SLUGS:
            for p in api.concept(slug).PARAMS:
                kind = kind_of(p)
                if kind in chosen or (kind == "range" and prefer_fraction and float(p.step or 1).is_integer()):
                    continue
                if p.kind == "seed":
                    ok = all(audible(slug, {p.name: p.default + i}) for i in (1, 2, 3))
                elif p.kind == "moves":
                    ok = audible(slug, {p.name: "0:100"})
                elif p.kind in ("values", "text"):
                    ok = audible(slug, {p.name: typed(p)})
                else:
                    ok = audible(slug, {p.name: step_value(p, p.default)})
                if ok:
                    chosen[kind] = (slug, p.name)
    # and a slider with a unit, which the reader must hear with the value
    with_unit = [(s, p.name) for s in SLUGS for p in api.concept(s).PARAMS
                 if kind_of(p) == "range" and unit_of(p) and audible(s, {p.name: step_value(p, p.default)})]
    if with_unit:
        chosen["range-unit"] = with_unit[0]
    return chosen


KINDS_IN_USE = sorted({kind_of(p) for slug in SLUGS for p in api.concept(slug).PARAMS})
CHOSEN = choose()
PAGE_KINDS = ("preset", "toolbar")  # on every experiment: done on the page that hosts most kinds
HOST = max(sorted({s for s, _ in CHOSEN.values()}), key=lambda s: sum(c[0] == s for c in CHOSEN.values()))
BY_SLUG: dict[str, list[str]] = {}
for _kind, (_slug, _) in sorted(CHOSEN.items()):
    BY_SLUG.setdefault(_slug, []).append(_kind)
BY_SLUG[HOST] += list(PAGE_KINDS)

PANEL = re.compile(r'<section class="pl-replay" data-replay="([^"]+)"')
REPLAYS = sorted((html.parent.name, name) for html in SITE.glob("*/index.html")
                 for name in PANEL.findall(html.read_text(encoding="utf-8")))
REPLAY_PAGES = sorted({slug for slug, _ in REPLAYS})


def test_every_kind_of_control_in_use_is_operated_by_keyboard():
    operated = set(OPERATE)
    assert set(KINDS_IN_USE) <= operated, f"no keyboard test for {set(KINDS_IN_USE) - operated}"
    missing = set(KINDS_IN_USE) - set(CHOSEN)
    assert not missing, f"no experiment where one key press changes figure and summary: {missing}"
    assert REPLAY_PAGES, "no page with a replay panel found in the built site"


# ---- German values for screen readers, without a browser --------------------------------------

SLIDERS = [(s, p) for s in SLUGS for p in api.concept(s).PARAMS if kind_of(p) in ("range", "range-log")]


@pytest.mark.parametrize("slug, p", SLIDERS, ids=[f"{s}-{p.name}" for s, p in SLIDERS])
def test_every_slider_speaks_its_value_in_german_with_its_unit(slug, p):
    html = experiment_block.experiment(slug)
    valuetext = re.search(rf'data-param="{p.name}"[^>]*aria-valuetext="([^"]*)"', html).group(1)
    assert valuetext == spoken(p, p.default)
    for value in (p.lo, p.hi, step_value(p, p.default)):
        text = spoken(p, value)
        assert not ENGLISH_DECIMAL.search(text), text
        if isinstance(value, float) and not value.is_integer():
            assert "," in text, text


def spoken(p, value) -> str:
    unit = unit_of(p)
    text = p.format(value)
    return f"{text} {unit}" if unit and not text.endswith(unit) else text


# ---- the browser: reaching a control -------------------------------------------------------------

def tab_to(v, selector, scope=ROOT) -> int:
    """Press Tab from the top of ``scope`` until ``selector`` has the focus; returns the presses."""
    v.page.evaluate("sel => { const top = document.querySelector(sel); top.tabIndex = -1; top.focus(); }", scope)
    for presses in range(1, MAX_TABS + 1):  # noqa: B007 - the count is what the function returns
        v.page.keyboard.press("Tab")
        if v.page.evaluate("sel => document.activeElement.matches(sel)", selector):
            break
    else:
        pytest.fail(f"{selector}: not reached with {MAX_TABS} Tab presses from the top of {scope}")
    # Shift+Tab leaves it and Tab comes back: no trap, the same order both ways
    v.page.keyboard.press("Shift+Tab")
    assert not v.page.evaluate("sel => document.activeElement.matches(sel)", selector)
    v.page.keyboard.press("Tab")
    assert v.page.evaluate("sel => document.activeElement.matches(sel)", selector)
    assert_focus_visible(v, selector)
    return presses


def assert_focus_visible(v, selector):
    look = v.page.evaluate("""() => {
        const el = document.activeElement;
        // a radio pill's input is transparent: its pill shows the focus
        const shown = el.matches('.pl-option input') ? el.nextElementSibling : el;
        const cs = getComputedStyle(shown);
        const look = {visible: el.matches(':focus-visible'), outline: cs.outlineStyle,
                      width: parseFloat(cs.outlineWidth), shadow: cs.boxShadow, svg: el instanceof SVGElement};
        if (look.svg) {  // a point in a figure: drawn with a thicker ring than its unfocused neighbours
          const other = [...el.ownerSVGElement.querySelectorAll('[tabindex]')].find((o) => o !== el);
          look.ring = parseFloat(cs.strokeWidth);
          look.otherRing = parseFloat(getComputedStyle(other).strokeWidth);
        }
        return look; }""")
    assert look["visible"], f"{selector}: focus came from the keyboard but is not :focus-visible"
    if look["svg"]:
        assert look["ring"] > look["otherRing"], f"{selector}: focused point looks like the others {look}"
    else:
        assert (look["outline"] != "none" and look["width"] >= 1) or look["shadow"] != "none", \
            f"{selector}: no visible focus indicator {look}"


def has_name(v, role, name):
    """The focused element is found by its role and German accessible name (Playwright's ARIA engine)."""
    target = v.page.get_by_role(role, name=name, exact=False)
    assert any(target.nth(i).evaluate("el => el === document.activeElement") for i in range(target.count())), \
        f"the focused element is no {role} named „{name}“"


# ---- the browser: what a change must do ----------------------------------------------------------

def state(v, slug) -> dict:
    names = {p.name for p in api.concept(slug).PARAMS}
    return {k: val for k, val in v.page.evaluate("[...new URLSearchParams(location.search)]") if k in names}


def snapshot(v):
    return {
        "figure": v.page.inner_html(f"{ROOT} .pl-figure") + v.page.inner_html(f"{ROOT} .pl-extra"),
        "url": v.page.evaluate("location.search"),
        "summary": v.page.inner_text(f"{ROOT} .pl-summary"),
        "renders": v.page.evaluate("sel => document.querySelector(sel).plKeyRenders || 0", ROOT),
    }


def count_renders(v):
    v.page.evaluate("""sel => { const root = document.querySelector(sel);
        if (!root.plKeyCounting) { root.plKeyCounting = true;
          root.addEventListener('pl:rendered', () => { root.plKeyRenders = (root.plKeyRenders || 0) + 1; }); } }""",
                    ROOT)


def press_and_check(v, slug, key, what):
    before = snapshot(v)
    v.page.keyboard.press(key)
    v.page.wait_for_function("([sel, n]) => (document.querySelector(sel).plKeyRenders || 0) > n",
                             arg=[ROOT, before["renders"]], timeout=30_000)
    v.page.wait_for_function("sel => !document.querySelector(sel).hasAttribute('aria-busy')", arg=ROOT)
    after = snapshot(v)
    assert after["url"] != before["url"], f"{what}: {key} left the URL as it was"
    assert after["figure"] != before["figure"], f"{what}: {key} left the figure as it was"
    now = state(v, slug)
    assert after["summary"] == api.run(slug, now)["summary"], what
    assert after["summary"] != before["summary"], f"{what}: the live summary says nothing new"
    return now


def current(p, now):
    return p.coerce(now[p.name])[0] if p.name in now else p.default


def same(a, b):
    return math.isclose(a, b, rel_tol=1e-9) if isinstance(a, float) or isinstance(b, float) else a == b


# ---- one function per kind of control -------------------------------------------------------------

def op_range(v, slug, p):
    value = current(p, state(v, slug))
    presses = tab_to(v, f'input[type="range"][data-param="{p.name}"]')
    has_name(v, "slider", p.label)
    new = step_value(p, value)
    now = press_and_check(v, slug, key_for(p, value), f"{slug}/{p.name}")
    assert same(current(p, now), new), (now, new)
    slider = v.page.locator(f'input[type="range"][data-param="{p.name}"]')
    assert slider.get_attribute("aria-valuetext") == spoken(p, new)
    assert v.page.inner_text(f'{ROOT} [data-output="{p.name}"]') == p.format(new)
    if isinstance(new, float) and not new.is_integer():
        assert "," in slider.get_attribute("aria-valuetext")
    # End and Home reach the ends of the scale
    press_and_check(v, slug, "Home" if same(new, p.hi) else "End", f"{slug}/{p.name} End/Home")
    return presses


def op_number(v, slug, p):
    value = current(p, state(v, slug))
    presses = tab_to(v, f'input[data-step][data-param="{p.name}"]')  # a typed field that the arrow keys step
    has_name(v, "textbox", p.label)
    new = step_value(p, value)
    now = press_and_check(v, slug, key_for(p, value), f"{slug}/{p.name}")
    assert same(current(p, now), new)
    # typing a number and Enter
    typed = next(x for x in (p.lo, p.hi, (p.lo + p.hi) / 2)
                 if not same(x, new) and api.run(slug, {**now, p.name: x})["summary"] != api.run(slug, now)["summary"])
    typed = int(typed) if p.kind == "int" else typed
    v.page.keyboard.press("Control+a")
    v.page.keyboard.type(p.to_field(typed))  # German, as the field shows it
    now = press_and_check(v, slug, "Enter", f"{slug}/{p.name} typed {typed}")
    assert same(current(p, now), typed)
    return presses


def op_select(v, slug, p):
    value = current(p, state(v, slug))
    presses = tab_to(v, f'select[data-param="{p.name}"]')
    has_name(v, "combobox", p.label)
    new = step_value(p, value)
    now = press_and_check(v, slug, key_for(p, value), f"{slug}/{p.name}")
    assert current(p, now) == new
    return presses


def op_radio(v, slug, p):
    value = current(p, state(v, slug))
    presses = tab_to(v, f'input[type="radio"][data-param="{p.name}"]:checked')
    labels = dict(p.choices)
    has_name(v, "radio", labels[value])
    v.page.get_by_role("group", name=p.label, exact=True).first.wait_for()  # the pills are one named group
    new = step_value(p, value)
    now = press_and_check(v, slug, "ArrowRight", f"{slug}/{p.name}")
    assert current(p, now) == new
    has_name(v, "radio", labels[new])  # the focus moved with the choice
    return presses


def op_toggle(v, slug, p):
    value = current(p, state(v, slug))
    presses = tab_to(v, f'input[type="checkbox"][data-param="{p.name}"]')
    has_name(v, "switch", p.label)
    now = press_and_check(v, slug, " ", f"{slug}/{p.name}")
    assert current(p, now) is (not value)
    assert v.page.evaluate("document.activeElement.checked") is (not value)
    return presses


def op_seed(v, slug, p):
    presses = tab_to(v, f'button[data-seed-for="{p.name}"]')
    has_name(v, "button", p.label)
    now = press_and_check(v, slug, "Enter", f"{slug}/{p.name}")
    assert p.name in now
    return presses


def op_moves(v, slug, p):
    presses = tab_to(v, '[data-drag="0"]')
    point = v.page.evaluate("document.activeElement.getAttribute('aria-label')")
    has_name(v, "slider", point)
    height = float(v.page.get_attribute(f'{ROOT} [data-drag="0"]', "aria-valuenow"))
    now = press_and_check(v, slug, "ArrowUp", f"{slug}/{p.name}")
    assert dict(current(p, now)) == {0: height + 5}
    # the point keeps the focus after the figure is redrawn: the next press moves it again
    assert v.page.evaluate("document.activeElement.dataset.drag") == "0"
    now = press_and_check(v, slug, "ArrowUp", f"{slug}/{p.name} again")
    assert dict(current(p, now))[0] > height + 5
    return presses


def op_values(v, slug, p):
    """A typed list or text: select what the field holds, type the new one, Enter."""
    presses = tab_to(v, f'input[type="text"][data-param="{p.name}"]')
    has_name(v, "textbox", p.label)
    text = typed(p)
    v.page.keyboard.press("Control+a")
    v.page.keyboard.type(text)
    now = press_and_check(v, slug, "Enter", f"{slug}/{p.name} typed")
    assert current(p, now) == p.coerce(text)[0]
    assert v.page.input_value(f'{ROOT} [data-param="{p.name}"]') == text
    return presses


def op_preset(v, slug, _):
    now = state(v, slug)
    shown = api.run(slug, now)["summary"]
    preset = next(pr for pr in api.concept(slug).PRESETS
                  if api.run(slug, api.preset_values(slug, pr.label))["summary"] != shown)
    index = api.concept(slug).PRESETS.index(preset)
    presses = tab_to(v, f'.pl-presets [data-key="{index}"]')
    has_name(v, "button", preset.label)
    press_and_check(v, slug, "Enter", f"{slug} preset {preset.label}")
    assert v.page.inner_text(f"{ROOT} .pl-summary") == api.run(slug, api.preset_values(slug, preset.label))["summary"]
    return presses


def op_toolbar(v, slug, _):
    # The tools are one tab stop (WAI-ARIA toolbar): Tab reaches the first, the arrows move along
    presses = tab_to(v, f'{ROOT} .pl-toolbar [data-share="link"]')
    shown = v.page.eval_on_selector_all(f'{ROOT} .pl-toolbar button:not([hidden])', "bs => bs.map(b => b.textContent)")
    assert shown[:3] == ["Link kopieren", "QR-Code", "A/B-Vergleich"], shown
    v.page.keyboard.press("End")
    assert v.page.evaluate("document.activeElement.textContent") == shown[-1]
    v.page.keyboard.press("ArrowRight")  # wraps round
    assert v.page.evaluate("document.activeElement.dataset.share") == "link"
    v.page.keyboard.press("Tab")
    assert not v.page.evaluate("document.activeElement.closest('.pl-toolbar')"), "Tab must leave the toolbar"
    v.page.keyboard.press("Shift+Tab")
    assert v.page.evaluate("document.activeElement.dataset.share") == "link"
    # QR-Code: Enter opens the dialog, Esc closes it and gives the focus back
    v.page.keyboard.press("ArrowRight")
    assert v.page.evaluate("document.activeElement.dataset.share") == "qr"
    assert_focus_visible(v, f'{ROOT} .pl-toolbar [data-share="qr"]')
    has_name(v, "button", "QR-Code")
    v.page.keyboard.press("Enter")
    v.page.wait_for_selector("dialog.pl-qr[open]")
    assert v.page.evaluate("document.activeElement.closest('dialog.pl-qr') !== null"), "focus stays behind the dialog"
    v.page.keyboard.press("Escape")
    v.page.wait_for_selector("dialog.pl-qr", state="detached")
    assert v.page.evaluate("document.activeElement.dataset.share") == "qr"
    # A/B-Vergleich: Space opens the second copy, Space again closes it
    v.page.keyboard.press("ArrowRight")
    assert v.page.evaluate("document.activeElement.dataset.share") == "ab", "the tools are not in reading order"
    has_name(v, "button", "A/B-Vergleich")
    v.page.keyboard.press(" ")
    v.page.wait_for_selector('[data-experiment][data-url-prefix="b."][data-state="ready"]', timeout=30_000)
    assert v.page.get_attribute(f'{ROOT} [data-share="ab"]', "aria-pressed") == "true"
    assert f"ab={slug}" in v.page.evaluate("location.search")
    assert v.page.evaluate("document.activeElement.dataset.share") == "ab", "opening B lost the focus"
    v.page.keyboard.press(" ")
    v.page.wait_for_selector('[data-experiment][data-url-prefix="b."]', state="detached")
    assert "ab=" not in v.page.evaluate("location.search")
    assert v.page.evaluate("document.activeElement.dataset.share") == "ab", "closing B lost the focus"
    return presses


OPERATE = {
    "range": op_range, "range-unit": op_range, "range-log": op_range, "number": op_number, "select": op_select,
    "radio": op_radio, "toggle": op_toggle, "seed": op_seed, "moves": op_moves, "values": op_values,
    "text": op_values,
    "preset": op_preset, "toolbar": op_toolbar,
}


@pytest.mark.parametrize("slug", sorted(BY_SLUG), ids=lambda s: f"{s}-{'+'.join(BY_SLUG[s])}")
def test_keyboard_alone_operates_each_kind_of_control(reader, slug):
    v = reader(f"/{slug}/")
    v.wait_state()
    count_renders(v)
    params = {p.name: p for p in api.concept(slug).PARAMS}
    for kind in BY_SLUG[slug]:
        p = params[CHOSEN[kind][1]] if kind in CHOSEN else None
        presses = OPERATE[kind](v, slug, p)
        assert presses <= MAX_TABS, kind
    assert v.foreign_requests() == [] and v.console_errors() == []


# ---- replay panels ---------------------------------------------------------------------------------

def panel_counter(v, panel):
    return v.page.inner_text(f"{panel} .pl-r-counter")


@pytest.mark.parametrize("slug, name", REPLAYS[:1])
def test_keyboard_alone_plays_steps_and_scrubs_a_replay(reader, slug, name):
    panel = f'section.pl-replay[data-replay="{name}"]'
    v = reader(f"/{slug}/")
    v.page.wait_for_selector(f'{panel}[data-state="ready"]', timeout=30_000)
    length = v.page.evaluate("sel => window.probierlabor.player(document.querySelector(sel)).length", panel)
    view = lambda: v.page.inner_html(f"{panel} .pl-replay-view")  # noqa: E731
    summary = lambda: v.page.inner_text(f"{panel} .pl-replay-summary")  # noqa: E731

    tab_to(v, f"{panel} .pl-r-next", scope=panel)
    has_name(v, "button", "Ein Schritt vor")
    before, said = view(), summary()
    v.page.keyboard.press("Enter")
    assert panel_counter(v, panel) == f"1 von {length}"
    assert view() != before and summary() != said and summary().strip()

    v.page.keyboard.press("Tab")  # the step slider
    has_name(v, "slider", "Schritt wählen")
    assert_focus_visible(v, "the step slider")
    v.page.keyboard.press("ArrowRight")
    assert panel_counter(v, panel) == f"2 von {length}"
    scrub = v.page.locator(f'{panel} input[type="range"]')
    assert scrub.get_attribute("aria-valuetext") == f"Schritt 2 von {length}"
    v.page.keyboard.press("End")
    assert panel_counter(v, panel) == f"{length} von {length}"
    v.page.keyboard.press("Home")
    assert panel_counter(v, panel) == f"0 von {length}"

    v.page.keyboard.press("Tab")  # the speed
    has_name(v, "combobox", "Abspieltempo")
    v.page.keyboard.press("ArrowDown")
    assert v.page.evaluate("sel => window.probierlabor.player(document.querySelector(sel)).speed", panel) == 2

    tab_to(v, f"{panel} .pl-r-play", scope=panel)
    has_name(v, "button", "Abspielen")
    v.page.keyboard.press(" ")
    v.page.wait_for_function("sel => window.probierlabor.player(document.querySelector(sel)).index >= 2", arg=panel, timeout=10_000)
    has_name(v, "button", "Pause")  # the same button now says what it does next
    v.page.keyboard.press(" ")
    assert not v.page.evaluate("sel => window.probierlabor.player(document.querySelector(sel)).playing", panel)
    at = v.page.evaluate("sel => window.probierlabor.player(document.querySelector(sel)).index", panel)
    v.page.wait_for_timeout(800)
    assert v.page.evaluate("sel => window.probierlabor.player(document.querySelector(sel)).index", panel) == at

    v.page.keyboard.press("Shift+Tab")
    v.page.keyboard.press("Shift+Tab")
    has_name(v, "button", "Zum Anfang")
    v.page.keyboard.press("Enter")
    assert panel_counter(v, panel) == f"0 von {length}"
    assert v.foreign_requests() == [] and v.console_errors() == []


# ---- reduced motion --------------------------------------------------------------------------------

# Counts, frame by frame, every CSS animation or transition running anywhere in the document.
WATCH_MOTION = """() => { window.plMotion = 0; window.plMotionWhat = [];
  const look = () => { const running = document.getAnimations().filter((a) => a.playState === 'running');
    if (running.length) { window.plMotion += running.length;
      window.plMotionWhat.push(...running.map((a) => (a.animationName || a.transitionProperty || 'js') + ' on ' +
        ((a.effect && a.effect.target && a.effect.target.className) || '?'))); }
    requestAnimationFrame(look); };
  requestAnimationFrame(look); }"""


def motion(v):
    v.page.wait_for_timeout(600)  # longer than any transition or entry animation on the site
    return v.page.evaluate("[window.plMotion, [...new Set(window.plMotionWhat)].slice(0, 8)]")


def act_on_experiment_and_replay(v, slug):
    """Keyboard use of the experiment (a preset, a slider) and of the replay (step, play)."""
    count_renders(v)
    op_preset(v, slug, None)
    slider = next(p for p in api.concept(slug).PARAMS if kind_of(p) == "range")
    tab_to(v, f'input[data-param="{slider.name}"]')
    v.page.keyboard.press("End")
    if v.page.locator("section.pl-replay").count():
        first = "document.querySelector('section.pl-replay')"
        v.page.wait_for_function(f"() => {first}.dataset.state === 'ready'", timeout=30_000)
        tab_to(v, "section.pl-replay .pl-r-next", scope="section.pl-replay")
        v.page.keyboard.press("Enter")
        v.page.keyboard.press("Shift+Tab")  # the play button: plays to the end and stops there
        v.page.keyboard.press(" ")
        v.page.wait_for_function(f"() => window.probierlabor.player({first}).index === window.probierlabor.player({first}).length && !window.probierlabor.player({first}).playing",
                                 timeout=30_000)


# flash-attention: its replay brings in each tile with an entry animation, and the theme's buttons
# change colour with a transition; the control run shows the watcher sees both.
MOTION_PAGE = "flash-attention"


@pytest.mark.parametrize("reduce", [False, True], ids=["normal", "reduced"])
def test_reduced_motion_stops_every_animation_and_transition(reader, reduce):
    v = reader(f"/{MOTION_PAGE}/")
    if reduce:
        v.page.emulate_media(reduced_motion="reduce")
    v.wait_state()
    v.page.evaluate(WATCH_MOTION)
    act_on_experiment_and_replay(v, MOTION_PAGE)
    count, what = motion(v)
    if reduce:
        assert count == 0, f"animations despite prefers-reduced-motion: {what}"
        assert v.page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == "auto"
        # playing still works, only without motion
        assert v.page.evaluate("window.probierlabor.player(document.querySelector('section.pl-replay')).index") >= 2
    else:
        assert count > 0, "the watcher sees no animation even without reduced motion: it would prove nothing"


def test_reduced_motion_on_a_concept_page_without_replay(reader):
    slug = CHOSEN["range"][0]
    v = reader(f"/{slug}/")
    v.page.emulate_media(reduced_motion="reduce")
    v.wait_state()
    v.page.evaluate(WATCH_MOTION)
    act_on_experiment_and_replay(v, slug)
    v.page.keyboard.press("p")  # presentation mode rearranges the page
    v.page.keyboard.press("Escape")
    count, what = motion(v)
    assert count == 0, f"animations despite prefers-reduced-motion: {what}"


# ---- the live summary of every experiment ---------------------------------------------------------

def test_every_experiment_has_a_polite_german_live_summary_that_follows_a_preset(reader):
    """One visit, every experiment through instant navigation (one Python runtime): the summary is a
    polite live region, visible, German, and speaks again after a preset chosen by keyboard."""
    v = reader(f"/{SLUGS[0]}/")
    for i, slug in enumerate(SLUGS):
        if i:
            v.page.locator(f'.md-nav__link[href$="{slug}/"]').first.evaluate("a => a.click()")
        v.page.wait_for_selector(f'[data-experiment="{slug}"][data-state="ready"]', timeout=60_000)
        summary = v.page.locator(f"{ROOT} .pl-summary")
        assert summary.get_attribute("aria-live") == "polite", slug
        assert summary.is_visible(), slug
        text = summary.inner_text().strip()
        assert text == api.run(slug)["summary"], slug
        assert GERMAN.search(text) and not ENGLISH_DECIMAL.search(text), (slug, text)
        count_renders(v)
        op_preset(v, slug, None)
        assert v.page.inner_text(f"{ROOT} .pl-summary").strip() not in ("", text), slug
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_the_seed_choice_is_not_flaky():
    """op_seed draws a random seed in the browser: every seed must change what the page says."""
    slug, name = CHOSEN["seed"]
    base = api.run(slug)["summary"]
    rng = random.Random(7)
    assert all(api.run(slug, {name: rng.randrange(2**31)})["summary"] != base for _ in range(20))
