"""Every experiment on a phone: 390 × 844 CSS pixels, touch emulated.

What a class sees after scanning the QR code: figure labels big enough to read, no page wider than the
screen, controls big enough for a finger, and each kind of control operated by touch. The figure
measurement is the effective size on screen: the text's font size in the figure's own units times the
scale at which the browser draws the figure (its box over its viewBox).

Screenshots of every page at 390 px land in out/phone/ for review; out/phone/sizes.json keeps the
smallest effective label size per page.
"""

from __future__ import annotations

import json

import pytest
from conftest import READY_MS, ROOT, Reader, picture, settle, switch_scheme
from probierlabor import SLUGS
from probierlabor.kit import api, layout

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# A small phone (an iPhone SE of the first generation, many cheap Android phones): a figure drawn for
# 390 px would shrink its labels below 11 px there, so it keeps its size and scrolls sideways instead.
SMALL_PHONE = {"width": 320, "height": 640}
SHOTS = ROOT / "out" / "phone"
MIN_LABEL_PX = layout.MIN_LABEL_PX  # the floor for any text in a figure
MIN_TARGET_PX = 24  # WCAG 2.2 target size (minimum)

# The smallest effective font size of the non-empty texts in the experiment's figures; the text that
# has it, for the failure message. A figure's scale is what preserveAspectRatio (meet) makes of its box.
SMALLEST_LABEL = """() => {
  let best = {size: Infinity, text: ''};
  for (const svg of document.querySelectorAll('[data-experiment] svg.pl-plot')) {
    const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
    if (!box.width || !view || !view.width) continue;
    const scale = Math.min(box.width / view.width, box.height / view.height);
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim() || !t.getClientRects().length) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (size < best.size) best = {size, text: t.textContent.trim().slice(0, 40)};
    }
  }
  return best;
}"""

# Every control in the page's content that a reader can see (the experiment, its tools, the lesson, a
# replay): its box in CSS pixels. An experiment's radio button is hidden inside its pill-shaped label,
# so the label is the target.
TARGETS = """() => {
  const out = [];
  const sel = '.md-content :is(button, select, summary, input:not([type=hidden]):not(.pl-option input), .pl-option)';
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    // a closed <details> keeps its content laid out (Chromium) but shows only its summary
    const shut = el.closest('details:not([open])');
    if (shut && !(el.tagName === 'SUMMARY' && el.parentElement === shut)) continue;
    const r = el.getBoundingClientRect();
    out.push({what: (el.className || el.tagName) + ' ' + (el.textContent || el.dataset.param || '').trim().slice(0, 30),
              w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10});
  }
  return out;
}"""


class PhoneReader(Reader):
    """A tab that lives across this module's tests, in a phone: touch and mobile viewport emulated."""

    def __init__(self, browser, origin, viewport):
        super().__init__(browser, origin)
        self.viewport = viewport

    def tab(self):
        if self.page is None:
            self.context = self.browser.new_context(viewport=self.viewport, color_scheme="light",
                                                    has_touch=True, is_mobile=True)
            self.page = self.context.new_page()
        return self.page


def phone_tab(browser, origin, viewport):
    tab = PhoneReader(browser, origin, viewport)

    def open_(path, color_scheme="light"):
        page = tab.tab()
        tab.reset(viewport["width"], viewport["height"], color_scheme)
        tab.go(path)
        page.wait_for_selector('[data-experiment][data-state="ready"]', timeout=READY_MS)
        return page

    return tab, open_


@pytest.fixture(scope="module")
def phone(browser, origin):
    tab, open_ = phone_tab(browser, origin, PHONE)
    yield open_
    tab.discard()


@pytest.fixture(scope="module")
def small_phone(browser, origin):
    """A tab of its own: resizing the shared phone tab would leave its touch coordinates off scale."""
    tab, open_ = phone_tab(browser, origin, SMALL_PHONE)
    yield open_
    tab.discard()


@pytest.fixture(scope="module")
def sizes():
    found = {}
    yield found
    if found:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / "sizes.json"
        known = json.loads(path.read_text()) if path.exists() else {}
        path.write_text(json.dumps({**known, **found}, indent=1, sort_keys=True))


# The figures laid out for a narrow screen (kit/layout.py): their layout, whether their region still
# scrolls, and the smallest effective size of their main texts. The CSS sets those (labels, values,
# headings) at 13 px or more and small print (ticks, legends, notes, labels inside bars) at 12 px,
# which the 11-pixel floor above covers. Only the figures on screen count: the first paint holds a
# wide and a narrow one.
NARROW_FIT = """(MAIN_PX) => {
  const root = document.querySelector('[data-experiment]');
  const out = {layouts: [], scrolls: [], main: Infinity, text: ''};
  for (const region of root.querySelectorAll('.pl-figure, .pl-extra')) {
    const svgs = [...region.querySelectorAll('svg.pl-plot')].filter(s => s.getClientRects().length);
    if (!svgs.length) continue;
    if (region.scrollWidth > region.clientWidth + 1) out.scrolls.push(region.className);
    for (const svg of svgs) {
      out.layouts.push(svg.dataset.layout || 'wide');
      const box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
      const scale = Math.min(box.width / view.width, box.height / view.height);
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim() || !t.getClientRects().length) continue;
        const px = parseFloat(getComputedStyle(t).fontSize);
        if (px < MAIN_PX) continue;
        const size = px * scale;
        if (size < out.main) { out.main = size; out.text = t.textContent.trim().slice(0, 40); }
      }
    }
  }
  return out;
}"""
MAIN_VALUE_PX = 12  # the size for a figure's main values
MAIN_TEXT_PX = 13  # what the CSS gives them in the figure's own pixels


def fit(page):
    return page.evaluate(NARROW_FIT, MAIN_TEXT_PX)

NARROW_SLUGS = [slug for slug in SLUGS if api.draws_narrow(slug)]


def assert_fits(info, slug, when):
    assert info["layouts"] and set(info["layouts"]) == {"narrow"}, f"{slug}, {when}: {info['layouts']}"
    assert info["scrolls"] == [], f"{slug}, {when}: the figure still scrolls sideways"
    assert info["main"] >= MAIN_VALUE_PX, f"{slug}, {when}: „{info['text']}“ erscheint mit {info['main']:.1f} px"


# Pages whose typed field sits far below the figure it changes on a phone (walkthrough 2026-12-06, row 12):
# the field and a new value for it.
TYPED = {"embeddings": ("word", "Katze"), "attention": ("query", "2; 1")}
# The typed field's box, how many px of the figure are on screen below the sticky header, and its height.
FIELD_AND_FIGURE = """name => {
  const root = document.querySelector('[data-experiment]'), top = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const f = root.querySelector(`input[data-param="${name}"]`).getBoundingClientRect();
  const g = root.querySelector('.pl-figure').getBoundingClientRect();
  return {field: {top: f.top, bottom: f.bottom}, header: top, height: innerHeight, tall: g.height,
          figure: Math.max(0, Math.min(g.bottom, innerHeight) - Math.max(g.top, top))};
}"""


@pytest.mark.parametrize("slug", SLUGS)
def test_phone_page_is_readable_and_fits(phone, sizes, check, slug):
    page = phone(f"/{slug}/")
    settle(page)
    smallest = page.evaluate(SMALLEST_LABEL)
    sizes[slug] = round(smallest["size"], 1)
    picture(page, f"{slug}-390", SHOTS, full_page=True)
    picture(page.locator("[data-experiment]"), f"{slug}-390-experiment", SHOTS)
    with check("labels"):
        assert smallest["size"] >= MIN_LABEL_PX, f"„{smallest['text']}“ erscheint mit {smallest['size']:.1f} px"
    with check("targets"):
        small = [t for t in page.evaluate(TARGETS) if t["w"] < MIN_TARGET_PX or t["h"] < MIN_TARGET_PX]
        assert small == [], "Bedienelemente unter 24 × 24 px"
    if slug in NARROW_SLUGS:
        with check("narrow figure"):
            assert_fits(fit(page), slug, "Python")
    if slug in TYPED:
        with check("Enter in a typed field shows the figure it changed"):
            name, value = TYPED[slug]
            field = page.locator(f'[data-experiment] input[data-param="{name}"]')
            field.evaluate("el => el.scrollIntoView({block: 'center'})")  # where a reader types, the figure far above
            field.fill(value)
            field.press("Enter")
            seen = page.evaluate(FIELD_AND_FIGURE, name)
            assert seen["field"]["top"] >= seen["header"] and seen["field"]["bottom"] <= seen["height"], seen
            assert seen["figure"] >= min(300, seen["tall"]), seen

    for scheme in ("light", "dark"):
        if scheme == "dark":
            switch_scheme(page, scheme)
        with check(f"width, {scheme}"):
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= PHONE["width"], f"{scheme}: die Seite ist {wide} px breit"


# Where a shared link leaves the reader: the boxes of the figure, of the first control's widget (its slider,
# field or options; the help under it may stay below) and of the sticky header, in the viewport's coordinates.
ON_SCREEN = """() => {
  const root = document.querySelector('[data-experiment]');
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  return {figure: box(root.querySelector('.pl-figure')), control: box(root.querySelector('.pl-controls .pl-control :is(.pl-options, select, input:not([type=hidden]), button)')),
          header: box(document.querySelector('.md-header')), height: innerHeight};
}"""


# beam-search: the width slider sat 1 150 px above the tree; mqa: the tallest narrow figure (742 px)
@pytest.mark.parametrize("slug", ["beam-search", "mqa", "top-p-sampling"])
def test_a_shared_link_shows_the_figure_and_its_first_control(phone, slug):
    """A link with a setting opens at the experiment, not at the top of the page 1 900–2 700 px above it."""
    preset = api.concept(slug).PRESETS[-1]
    state = api.run(slug, api.preset_values(slug, preset.label))["url"]
    page = phone(f"/{slug}/?" + "&".join(f"{k}={v}" for k, v in state.items()))
    settle(page)
    seen = page.evaluate(ON_SCREEN)
    top, bottom = seen["header"]["bottom"], seen["height"]
    figure, control = seen["figure"], seen["control"]
    shown, tall = min(figure["bottom"], bottom) - max(figure["top"], top), figure["bottom"] - figure["top"]
    # the whole figure where it fits above the control; mqa's (742 px) leaves its top 40 px under the header
    assert shown >= (0.9 * tall if tall > 600 else tall), seen
    assert top <= control["top"] and control["bottom"] <= bottom, seen


# Whether the text ``t`` stands on screen: in a visible element between the sticky header and the bottom edge.
TEXT_IN_VIEW = """t => {
  const top = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const el = node.parentElement;
    if (!node.textContent.includes(t) || !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.height && r.top >= top && r.bottom <= innerHeight) return true;
  }
  return false;
}"""


def test_the_verdict_shows_where_the_student_works(phone):
    """The guess's verdict shows at the experiment that answered it, not only under the guess far above."""
    slug = "beam-search"
    prediction = api.concept(slug).LESSON.prediction
    page = phone(f"/{slug}/")
    page.evaluate("k => localStorage.removeItem(k)", f"probierlabor.lektion.{slug}")
    part = page.locator(f'.pl-predict[data-lesson="{slug}"]')
    if part.get_by_role("button", name="Ändern").is_visible():  # progress the page read before
        page.locator(f'.pl-tasks[data-lesson="{slug}"] [data-lesson-reset]').tap()
    wrong = (prediction.answer + 1) % len(prediction.choices)
    part.locator("label.pl-guess-choice").nth(wrong).tap()
    part.get_by_role("button", name="Festlegen", exact=True).tap()
    # the example's tree by a finger on its option, the width with the slider under the figure
    params = {p.name: p for p in api.concept(slug).PARAMS}
    for name, value in prediction.example.items():
        if params[name].kind == "choice":
            page.locator(f'label.pl-option:has([data-param="{name}"][value="{params[name].to_url(value)}"])').tap()
        else:
            slider = page.locator(f'input[type="range"][data-param="{name}"]')
            slider.focus()
            slider.press("Home")
            assert value == params[name].lo
    part.locator(".pl-verdict").wait_for(state="visible")
    verdict = part.locator(".pl-verdict-text").inner_text()
    assert "stimmt nicht" in verdict
    assert page.evaluate(TEXT_IN_VIEW, verdict), "the verdict is not on screen"
    # and the way up to the guess and its explanation
    page.get_by_role("button", name="Zur Vermutung").tap()
    page.wait_for_function("() => document.activeElement === document.querySelector('.pl-predict .pl-verdict')")
    assert page.evaluate(TEXT_IN_VIEW, prediction.explain[:40])
    assert page.get_by_role("button", name="Zur Vermutung").count() == 0


def test_a_preset_key_brings_the_figure_into_view(phone):
    """classroom/present.js shows what a key changed; on a phone the controls stand between figure and
    readouts, so the stage has no box of its own to measure."""
    page = phone("/top-p-sampling/")  # at the top of the page, the figure far below
    page.keyboard.press("2")
    page.wait_for_function("""() => { const r = document.querySelector('[data-experiment] .pl-figure').getBoundingClientRect();
        return Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) >= r.height / 2; }""", timeout=10_000)


@pytest.mark.parametrize("slug", NARROW_SLUGS[:2])
def test_the_first_paint_already_fits_the_phone(visit, slug):
    """Before any script runs: the build's narrow version of the default figure, chosen by the CSS."""
    v = visit(f"/{slug}/", width=PHONE["width"], height=PHONE["height"], javascript=False)
    assert_fits(fit(v.page), slug, "ohne JavaScript")


def test_the_desktop_keeps_the_wide_figure(reader):
    v = reader(f"/{NARROW_SLUGS[0]}/")
    v.wait_state()
    layouts = fit(v.page)["layouts"]
    assert layouts and set(layouts) == {"wide"}
    assert "layout" not in v.page.evaluate("location.search")


def test_turning_a_tablet_into_a_phone_draws_the_narrow_figure(reader):
    v = reader(f"/{NARROW_SLUGS[0]}/", width=700, height=844)
    v.wait_state()
    assert set(fit(v.page)["layouts"]) == {"wide"}
    v.page.set_viewport_size(PHONE)
    v.page.wait_for_function("() => document.querySelector('[data-experiment] .pl-figure svg').dataset.layout === 'narrow'")


# The figure's region: does it scroll, can a keyboard reach it, what is it called, is the hint shown.
REGION = """el => ({scrolls: el.scrollWidth > el.clientWidth, tab: el.tabIndex, label: el.getAttribute('aria-label') || '',
  hint: getComputedStyle(el.closest('[data-experiment]').querySelector('.pl-swipe')).display})"""


def test_a_figure_wider_than_the_screen_scrolls_in_its_own_labelled_region(small_phone):
    page = small_phone("/overfitting/")  # its narrow figure fits 390 px, not 320 px
    region = page.locator("[data-experiment] .pl-figure")
    page.wait_for_function("() => document.querySelector('[data-experiment] .pl-figure').tabIndex === 0")
    assert region.evaluate("el => el.querySelector('svg').dataset.layout") == "narrow"
    info = region.evaluate(REGION)
    assert info["scrolls"] and info["label"] and info["hint"] != "none"
    assert region.evaluate("el => { el.scrollLeft = 200; return el.scrollLeft; }") > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert page.evaluate(SMALLEST_LABEL)["size"] >= MIN_LABEL_PX, "it scrolls rather than shrink"


def test_the_swipe_hint_goes_when_the_figure_fits(reader):
    # not the phone's tab: resizing it would leave its touch coordinates off scale
    v = reader("/top-p-sampling/", width=620, height=844)  # still narrow, but wide enough for top-p's figure
    v.wait_state()
    region = v.page.locator("[data-experiment] .pl-figure")
    assert region.evaluate("el => el.style.getPropertyValue('--pl-fit-width')"), "the figure learnt its width"
    info = region.evaluate(REGION)
    assert not info["scrolls"] and info["hint"] == "none"


def test_tapping_a_preset_shows_its_view(phone):
    slug = "top-p-sampling"
    page = phone(f"/{slug}/")
    preset = api.concept(slug).PRESETS[-1]
    page.get_by_role("button", name=preset.label, exact=True).tap()
    expected = api.run(slug, api.preset_values(slug, preset.label))["summary"]
    page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=expected)


def test_dragging_a_slider_by_touch_changes_the_experiment_and_no_pill_covers_it(phone):
    slug = "top-p-sampling"
    page = phone(f"/{slug}/")
    param = next(p for p in api.concept(slug).PARAMS if p.kind in ("int", "float") and p.widget != "number")
    slider = page.locator(f'input[type="range"][data-param="{param.name}"]')
    slider.evaluate("el => el.scrollIntoView({block: 'center'})")  # not under the sticky header
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    touch(page, [(box["x"] + box["width"] / 2, y), (box["x"] + box["width"] * 0.8, y),
                 (box["x"] + box["width"] - 2, y)])
    page.wait_for_function(f"() => location.search.includes('{param.name}=')")
    raw = page.evaluate(f"new URLSearchParams(location.search).get('{param.name}')")
    assert api.run(slug, {param.name: raw})["summary"] == page.inner_text(".pl-summary")

    # The theme's „Zurück zum Seitenanfang“, shown after a scroll up, lay on the slider; it still comes
    # over the prose („Grenzen“, far from any block).
    on_slider = pill_over(page, f'input[type="range"][data-param="{param.name}"]')
    assert on_slider["under"] == [], on_slider
    assert pill_over(page, "h2#grenzen")["shown"], "the pill no longer comes"


# Where a figure's element stands on screen once the page holds still. A figure that scrolls sideways
# gets its swipe hint above it from a11y.js 150 ms after each view, a line that moves the figure down:
# a box read as soon as the experiment is ready (at once with a warm Python) is then 30 px off, and a
# finger put there misses the point, in the full suite more often than alone.
STEADY_CENTRE = """async el => {
  const frame = () => new Promise(done => requestAnimationFrame(() => done()));
  let last = '';
  for (;;) {
    await frame();
    const r = el.getBoundingClientRect();
    const now = [r.x, r.y, r.width, r.height].map(v => v.toFixed(1)).join();
    if (now === last) return {x: r.x + r.width / 2, y: r.y + r.height / 2};
    last = now;
  }
}"""


def steady_centre(page, locator, scrolls=True):
    """The centre of ``locator`` once it stands still; ``scrolls``: the figure scrolls sideways, and its
    swipe hint is waited for. A figure that fits gets no hint, and nothing moves it."""
    if scrolls:
        page.wait_for_function("() => document.querySelector('[data-experiment] .pl-figure').dataset.plScrollFocus !== undefined")
    centre = locator.evaluate(STEADY_CENTRE)
    return centre["x"], centre["y"]


def test_dragging_a_point_by_touch_moves_it(phone):
    page = phone("/overfitting/")
    region = page.locator("[data-experiment] .pl-figure")
    info = region.evaluate(REGION)
    assert region.evaluate("el => el.querySelector('svg').dataset.layout") == "narrow" and not info["scrolls"]
    point = page.locator('[data-experiment] circle[data-drag="0"]')
    point.evaluate("el => el.scrollIntoView({block: 'center'})")  # not under the sticky header
    before = float(point.get_attribute("aria-valuenow"))
    x, y = steady_centre(page, point, scrolls=False)
    # beside the dot (radius 6), on the side without a neighbour: a finger grabs it by the larger
    # invisible circle around it
    x -= 12 * page.evaluate("el => el.getBoundingClientRect().width / (2 * el.r.baseVal.value)", point.element_handle())
    scrolled = page.evaluate("window.scrollY")
    touch(page, [(x, y), (x, y - 20), (x, y - 60)])
    page.wait_for_function("() => location.search.includes('moves=')")
    after = float(page.locator('[data-experiment] circle[data-drag="0"]').get_attribute("aria-valuenow"))
    assert after > before + 5, (before, after)
    assert page.evaluate("window.scrollY") == scrolled, "the finger moved the point, not the page"


NEIGHBOURS = """([hit]) => {
  // the two points farthest apart whose finger areas still overlap (a finger between them is far from
  // both dots): their centres on screen, the earlier one (drawn first, so under the other) first
  const dots = [...document.querySelectorAll('[data-experiment] circle[data-drag]')].map(el => {
    const r = el.getBoundingClientRect();
    return {index: el.dataset.drag, x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2};
  });
  const scale = dots[0].r / document.querySelector('[data-experiment] circle[data-drag]').r.baseVal.value;
  let pair = null, widest = 0;
  for (let i = 0; i < dots.length; i++) for (let j = i + 1; j < dots.length; j++) {
    const d = Math.hypot(dots[i].x - dots[j].x, dots[i].y - dots[j].y);
    if (d > widest && d < 2 * hit * scale - 6) [pair, widest] = [[dots[i], dots[j]], d];
  }
  return pair;
}"""


def test_a_finger_between_two_points_takes_the_nearer_one(phone):
    """On a phone the finger areas of neighbouring points overlap; the later point's lies on top, and it
    took the finger even where the earlier point was nearer. (Chromium moves a touch near a dot onto the
    dot itself, so the finger goes where both dots are far.)"""
    from probierlabor.concepts.overfitting import HIT_RADIUS
    page = phone("/overfitting/")
    page.locator("[data-experiment] .pl-figure").evaluate("el => el.scrollIntoView({block: 'center'})")
    steady_centre(page, page.locator('[data-experiment] circle[data-drag="0"]'), scrolls=False)
    near, far = page.evaluate(NEIGHBOURS, [HIT_RADIUS])
    # 3 px from the middle towards the earlier point: inside both finger areas, on neither dot
    d = ((far["x"] - near["x"]) ** 2 + (far["y"] - near["y"]) ** 2) ** 0.5
    t = 0.5 - 3 / d
    x, y = near["x"] + t * (far["x"] - near["x"]), near["y"] + t * (far["y"] - near["y"])
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).dataset.dragHit", [x, y]) == far["index"]
    touch(page, [(x, y), (x, y - 20), (x, y - 50)])
    page.wait_for_function("() => location.search.includes('moves=')")
    moves = page.evaluate("new URLSearchParams(location.search).get('moves')")
    assert [m.split(":")[0] for m in moves.split(",")] == [near["index"]], moves


def touch(page, points):
    """A finger put down at the first point, moved through the others, lifted: real touch events
    through the DevTools protocol (Playwright's touchscreen only taps)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), *rest = points
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for x, y in rest:
        for i in range(1, 6):  # small steps, as a finger moves
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x - x0) * i / 5, "y": y0 + (y - y0) * i / 5}]})
        x0, y0 = x, y
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_swipes_a_draggable_figure_sideways_between_its_points(small_phone):
    page = small_phone("/overfitting/")
    region = page.locator("[data-experiment] .pl-figure")
    region.evaluate("el => el.scrollIntoView({block: 'center'})")
    steady_centre(page, region)
    box = region.bounding_box()
    # the lower right of the plot holds no point at the default: the swipe starts on empty ground
    x, y = box["x"] + box["width"] * 0.8, box["y"] + box["height"] * 0.85
    touch(page, [(x, y), (x - 100, y)])
    page.wait_for_function("() => document.querySelector('[data-experiment] .pl-figure').scrollLeft > 0")
    assert "moves=" not in page.evaluate("location.search")


def test_a_finger_drags_a_bar_of_an_own_distribution(phone):
    """Top-p's own distribution on a phone: the finger's target around a bar is at least 24 px on
    screen, and a finger moved up from it raises the bar instead of scrolling the page."""
    page = phone("/top-p-sampling/?dist=0.5_0.3_0.2")
    bar = page.locator('[data-experiment] [data-drag="2"][data-drag-field="dist"]')
    target = page.locator('[data-experiment] [data-drag-hit="2"][data-drag-field="dist"]')
    target.evaluate("el => el.scrollIntoView({block: 'center', inline: 'center'})")
    assert target.bounding_box()["width"] >= 24
    # the figure fits a phone here (no swipe hint comes), so its place is steady once drawn
    centre = target.evaluate(STEADY_CENTRE)
    x, y = centre["x"], centre["y"]
    scrolled = page.evaluate("window.scrollY")
    # a finger put on the column takes the bar to it (the middle: a chance of ½) and lifts it from there;
    # a figure drawn anew under the finger at each step must not end the drag
    touch(page, [(x, y), (x, y - 20), (x, y - 40)])
    page.wait_for_function("() => location.search.includes('dist=') && !location.search.includes('dist=0.5_0.3_0.2')")
    assert float(bar.get_attribute("aria-valuenow")) > 0.8
    assert page.evaluate("window.scrollY") == scrolled, "the finger moved the bar, not the page"


def test_a_finger_drags_a_point_in_both_directions_as_far_as_it_goes(phone):
    """A point dragged in both directions (attention's vectors, embeddings' words, gradientenabstieg's start:
    data-drag-xy) follows a finger 50 px up and to the right, and the page does not scroll; the browser
    took such a gesture over for scrolling after about 15 px."""
    page = phone("/attention/")
    handle = page.locator("[data-experiment] [data-drag-xy][role] >> nth=0")
    handle.evaluate("el => el.scrollIntoView({block: 'center'})")  # not under the sticky header
    centre = handle.evaluate(STEADY_CENTRE)
    x, y = centre["x"], centre["y"]
    before = handle.get_attribute("data-drag-value")
    scrolled = page.evaluate("window.scrollY")
    touch(page, [(x, y), (x + 25, y - 25), (x + 50, y - 50)])
    page.wait_for_function("""before => { const h = document.querySelector('[data-experiment] [data-drag-xy][role]');
        return h.dataset.dragValue !== before && !document.querySelector('[data-experiment].pl-pending'); }""", arg=before)
    after = handle.evaluate(STEADY_CENTRE)
    assert page.evaluate("window.scrollY") == scrolled, "the finger moved the point, not the page"
    # the value snaps to a tenth, a few pixels at most
    assert abs(after["x"] - x - 50) < 6 and abs(after["y"] - y + 50) < 6, (after, x, y)


# The theme's „Zurück zum Seitenanfang“ when shown, and what of an interactive block lies under it.
PILL = """() => {
  const pill = document.querySelector('.md-top'), r = pill.getBoundingClientRect();
  const shown = !pill.hidden && getComputedStyle(pill).visibility !== 'hidden';
  const blocks = '[data-experiment], details[data-realmodel], [data-workshop], [data-live], .pl-tasks[data-lesson]';
  const under = [...document.querySelectorAll(`:is(${blocks}) :is(button, input:not([type=hidden]), select, summary, label, svg)`)]
    .filter(el => { const q = el.getBoundingClientRect();
      return q.width && q.right > r.left && q.left < r.right && q.bottom > r.top && q.top < r.bottom; })
    .map(el => el.tagName + ' ' + (el.textContent || '').trim().slice(0, 20));
  return {y: Math.round(scrollY), shown, under: shown ? under : []};
}"""


def pill_over(page, selector):
    """The pill after a reader's short scroll up that leaves ``selector`` 90 px from the top, under it."""
    page.evaluate("""s => { const el = document.querySelector(s);
        window.scrollTo(0, el.getBoundingClientRect().top + scrollY - 90 + 150); }""", selector)
    page.mouse.wheel(0, -150)
    page.wait_for_timeout(250)  # the theme shows the pill after a scroll up, fading in 125 ms
    return page.evaluate(PILL)
