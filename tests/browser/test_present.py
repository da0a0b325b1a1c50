"""Presentation mode, keyboard shortcuts and print (static/js/classroom/present.js, present.css, print.css)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from conftest import picture
from probierlabor.kit import api

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


def state(v):
    return dict(parse_qsl(v.page.evaluate("location.search.slice(1)")))


def expected(slug, label):
    return api.run(slug, api.preset_values(slug, label))


def shows(v, slug, label):
    """Wait until the page shows the preset (summary from the same Python), then compare the URL."""
    want = expected(slug, label)
    v.page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=want["summary"])
    assert state(v) == want["url"], label
    current = v.page.locator(".pl-preset.pl-present-current")
    assert current.count() == 1 and current.inner_text() == label


def presenting(v):
    return v.page.evaluate("document.documentElement.classList.contains('pl-present')")


def box(v, selector):
    return v.page.locator(selector).first.bounding_box()


def font_px(v, selector):
    return v.page.eval_on_selector(selector, "el => parseFloat(getComputedStyle(el).fontSize)")


def test_p_and_the_header_button_toggle_presentation_mode_and_esc_leaves(reader):
    v = reader("/overfitting/")
    v.wait_state()
    assert v.page.locator(".md-sidebar--primary").is_visible()
    figure, text = box(v, ".pl-figure svg")["width"], font_px(v, ".md-content__inner > p:not(.pl-print-state)")

    v.page.keyboard.press("p")
    assert presenting(v)
    assert v.page.get_attribute(".pl-present-toggle", "aria-pressed") == "true"
    # mkdocs-material binds p to "previous page": the key must stay with presentation mode
    v.page.wait_for_timeout(400)
    assert v.page.evaluate("location.pathname") == "/overfitting/"
    assert v.page.locator(".md-sidebar--primary").is_hidden()
    assert v.page.locator(".md-sidebar--secondary").is_hidden()
    assert v.page.locator(".md-header__title").is_hidden() and v.page.locator(".md-search").is_hidden()
    assert box(v, ".pl-figure svg")["width"] > 1.08 * figure
    assert font_px(v, ".md-content__inner > p:not(.pl-print-state)") > 1.2 * text
    # figure and readouts side by side: one projector screen shows both
    fig, readouts = box(v, ".pl-figure"), box(v, ".pl-readouts")
    assert readouts["x"] >= fig["x"] + fig["width"] - 1 and readouts["y"] < fig["y"] + fig["height"]
    assert v.page.evaluate("document.documentElement.scrollWidth") <= 1280

    v.page.keyboard.press("Escape")
    assert not presenting(v)
    assert v.page.locator(".md-sidebar--primary").is_visible()
    assert v.page.evaluate("sessionStorage.getItem('probierlabor.praesentation')") is None

    # by keyboard alone: Tab reaches the header button, Enter switches the mode on
    v.page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(30):
        v.page.keyboard.press("Tab")
        if v.page.evaluate("document.activeElement.classList.contains('pl-present-toggle')"):
            break
    else:
        pytest.fail("Tab never reaches the Präsentieren button")
    v.page.keyboard.press("Enter")
    assert presenting(v)
    outline = v.page.eval_on_selector(".pl-present-toggle", "el => getComputedStyle(el).outlineStyle")
    assert outline == "solid", "keyboard focus must be visible"
    v.page.locator(".pl-present-toggle").click()  # and the mouse switches it off again
    assert not presenting(v)
    assert v.console_errors() == [] and v.foreign_requests() == []


def test_help_lists_the_keys_and_esc_closes_only_the_help(reader):
    v = reader("/ewc/#praesentation")
    v.wait_state()
    assert presenting(v)
    v.page.keyboard.press("?")
    dialog = v.page.locator("dialog#pl-keys")
    assert dialog.is_visible()
    text = dialog.inner_text()
    for words in ("Tastenkürzel", "Präsentationsmodus", "Voreinstellung", "Aufzeichnung", "Leertaste", "Strg + P"):
        assert words in text
    v.page.keyboard.press("1")  # keys do not act behind the open help
    assert state(v) == {}
    v.page.keyboard.press("Escape")
    assert dialog.is_hidden()
    assert presenting(v), "Esc closes the help first, not presentation mode"
    v.page.locator(".pl-present-help").click()
    assert dialog.is_visible()
    v.page.get_by_role("button", name="Schließen").click()
    assert dialog.is_hidden()


def test_keyboard_alone_chooses_steps_and_resets_presets(reader):
    slug = "ewc"  # its default is the last preset, "EWC": R must find it, not just take the first
    v = reader(f"/{slug}/")
    v.wait_state()
    labels = [p.label for p in api.concept(slug).PRESETS]
    assert labels == ["Ohne Schutz", "Gleiche Strafe", "EWC"]
    assert state(v) == {}

    v.page.keyboard.press("1")
    shows(v, slug, "Ohne Schutz")
    v.page.keyboard.press("ArrowRight")
    shows(v, slug, "Gleiche Strafe")
    v.page.keyboard.press("ArrowLeft")
    shows(v, slug, "Ohne Schutz")
    v.page.keyboard.press("ArrowLeft")  # the first preset stays: no wrap-around surprise
    shows(v, slug, "Ohne Schutz")
    v.page.keyboard.press("2")
    shows(v, slug, "Gleiche Strafe")
    v.page.keyboard.press("r")
    shows(v, slug, "EWC")
    assert v.page.evaluate("location.search") == ""
    v.page.keyboard.press("9")  # no ninth preset: nothing happens
    shows(v, slug, "EWC")

    # with modifier keys the browser keeps its own meaning
    v.page.keyboard.press("Control+1")
    v.page.keyboard.press("Alt+ArrowLeft")
    shows(v, slug, "EWC")

    # a manual change, then a step, goes on from the chosen preset
    v.page.keyboard.press("1")
    shows(v, slug, "Ohne Schutz")
    slider = v.page.locator('input[data-param="lam"]')
    slider.focus()
    slider.press("ArrowLeft")  # the slider keeps its arrow keys
    v.page.wait_for_function("() => location.search.includes('lam=')")
    assert v.page.locator(".pl-preset.pl-present-current").count() == 0
    v.page.evaluate("document.activeElement.blur()")
    v.page.keyboard.press("ArrowRight")
    shows(v, slug, "Gleiche Strafe")

    # presentation mode: Page Up/Down (what a presenter remote sends) step the presets too
    v.page.keyboard.press("p")
    assert presenting(v)
    v.page.keyboard.press("PageDown")
    shows(v, slug, "EWC")
    v.page.keyboard.press("PageUp")
    shows(v, slug, "Gleiche Strafe")
    assert v.console_errors() == []


# The part of an element on screen, as a share of its height (or of the screen's, where it is taller).
ON_SCREEN = """el => { const box = el.getBoundingClientRect();
  const seen = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
  return seen / Math.min(box.height, innerHeight); }"""


def test_task_keys_and_a_presenter_remote_bring_the_tasks_into_view(reader, check):
    """A / V / L change the task shown while presenting, and the task comes into view as a preset's figure does.
    A presenter remote has Bild↑ / Bild↓ (some send ← / →) and „Bild aus“, which sends B or „.“ (the
    theme's „next page“): Bild↓ walks the presets, after the last one the tasks, one at a time, and Bild↑
    back the same way; „Bild aus“ shows the task's solution and stays on the page."""
    slug = "softmax-temperatur"
    labels = [p.label for p in api.concept(slug).PRESETS]
    count = len(api.concept(slug).LESSON.tasks)
    v = reader(f"/{slug}/#praesentation")
    v.wait_state()
    v.page.emulate_media(reduced_motion="reduce")  # a scroll lands at once
    assert presenting(v)
    section = v.page.locator(f'.pl-tasks[data-lesson="{slug}"]')
    items = section.locator(".pl-task")
    shown = lambda: [i for i in range(count) if items.nth(i).is_visible()]  # noqa: E731
    on_screen = lambda locator: locator.evaluate(ON_SCREEN)  # noqa: E731
    assert on_screen(section) == 0, "the tasks start off screen: the test proves nothing"

    with check("A, V and L bring the task into view"):
        v.page.keyboard.press("a")
        assert shown() == [1] and on_screen(section) >= 0.99
        v.page.evaluate("window.scrollTo(0, 0)")
        v.page.keyboard.press("l")
        assert items.nth(1).locator(".pl-explain").is_visible() and on_screen(section) >= 0.99
        v.page.keyboard.press("l")
        v.page.evaluate("window.scrollTo(0, 0)")
        v.page.keyboard.press("v")
        assert shown() == [0] and on_screen(section) >= 0.99

    with check("a remote walks through the presets to the tasks and back"):
        solved = section.locator(".pl-solved").count()  # what this tab stored before: a chosen preset adds nothing
        v.page.keyboard.press("1")
        shows(v, slug, labels[0])
        for label in labels[1:]:
            v.page.keyboard.press("PageDown")
            shows(v, slug, label)
        v.page.keyboard.press("PageDown")  # past the last preset: the tasks
        shows(v, slug, labels[-1])
        assert shown() == [0] and on_screen(section) >= 0.99
        assert section.locator(".pl-solved").count() == solved
        v.page.keyboard.press(".")  # „Bild aus“
        assert items.first.locator(".pl-explain").is_visible() and on_screen(section) >= 0.99
        for i in range(1, count + 1):  # the last task stays the last
            v.page.keyboard.press("PageDown")
            assert shown() == [min(i, count - 1)]
        v.page.keyboard.press("b")
        assert items.nth(count - 1).locator(".pl-explain").is_visible()
        for i in reversed(range(count - 1)):
            v.page.keyboard.press("PageUp")
            assert shown() == [i]
        v.page.keyboard.press("PageUp")  # before the first task: back to the experiment, as it was
        shows(v, slug, labels[-1])
        assert on_screen(v.page.locator(".pl-figure")) >= 0.5
        v.page.keyboard.press("ArrowLeft")  # ← / → walk the same way where no replay takes them
        shows(v, slug, labels[-2])
        assert v.page.evaluate("location.pathname") == f"/{slug}/", "„.“ went to the next page"

    with check("the help names the remote's keys"):
        v.page.keyboard.press("?")
        help_text = v.page.locator("dialog#pl-keys").inner_text()
        assert "nach der letzten weiter zu den Aufgaben" in help_text and "Bild aus" in help_text
        v.page.keyboard.press("?")
    assert v.console_errors() == []


def test_keys_do_nothing_while_typing_in_a_number_input(reader):
    v = reader("/kv-cache/")
    v.wait_state()
    v.page.keyboard.press("p")
    assert presenting(v)
    field = v.page.locator('input[data-param="layers"]')
    field.focus()
    before = v.page.inner_html(".pl-figure")
    for key in ("p", "Escape", "r", "ArrowRight", "ArrowLeft", "PageDown", "Space"):
        field.press(key)
    assert presenting(v), "P and Esc in a field are typing, not commands"
    assert state(v) == {} and v.page.inner_html(".pl-figure") == before
    assert "p" in field.input_value() and "r" in field.input_value(), "the letters went into the field"
    field.fill("11")
    field.press("Enter")  # and the field itself still works
    v.page.wait_for_function("() => location.search.includes('layers=11')")


def test_presentation_mode_survives_instant_navigation_and_reload(visit):
    v = visit("/overfitting/#praesentation")
    v.wait_state()
    assert presenting(v)
    assert v.page.evaluate("location.hash") == "", "the mode must not stay in links the reader shares"
    v.page.evaluate("window.plSamePage = true")
    v.page.locator('.md-content__inner a[href$="/ewc/"]').first.click()  # material made it absolute
    v.page.wait_for_function("() => location.pathname === '/ewc/'")
    v.wait_state(selector='[data-experiment="ewc"]')  # not the old page's, which may still be there
    assert v.page.evaluate("window.plSamePage === true"), "instant navigation, no reload"
    assert presenting(v)
    assert v.page.locator(".md-sidebar--primary").is_hidden()
    assert v.page.get_attribute(".pl-present-toggle", "aria-pressed") == "true"
    assert v.page.locator(".pl-present-toggle").count() == 1
    v.page.keyboard.press("2")  # the keys act on the new page's experiment
    shows(v, "ewc", "Gleiche Strafe")
    v.page.keyboard.press("n")  # the theme's "next page" key still works (its "p" and, while presenting, "." are ours)
    v.page.wait_for_function("() => location.pathname === '/reservoir-sampling/'")
    v.wait_state(selector='[data-experiment="reservoir-sampling"]')
    assert presenting(v) and v.page.evaluate("window.plSamePage === true")

    v.page.reload()
    v.wait_state()
    assert presenting(v), "a reload in the same tab keeps the mode"
    v.page.keyboard.press("Escape")
    v.page.reload()
    v.wait_state()
    assert not presenting(v)
    assert v.console_errors() == []


REPLAY_STUB = """() => {
  const panel = document.createElement('section');
  panel.className = 'pl-replay';
  panel.dataset.replay = 'stub';
  panel.dataset.state = 'ready';
  const calls = [];
  let playing = false, index = 0;
  window.probierlabor.setPlayer(panel, {
    step(d) { calls.push(['step', d]); index += d; }, toggle() { calls.push(['toggle']); playing = !playing; },
    play() { calls.push(['play']); }, pause() { calls.push(['pause']); }, reset() { calls.push(['reset']); index = 0; },
    get playing() { return playing; }, get index() { return index; }, get length() { return 10; },
  });
  window.replayCalls = calls;
  document.querySelector('.md-content__inner').append(panel);
}"""


def test_replay_keys_go_to_a_ready_replay_panel(reader):
    """The replay contract (window.probierlabor.player(el)) with a stand-in panel: arrows, Space and R go to the replay,
    digits and Page Up/Down still choose presets. + and − need the panel's own list of speeds, so
    they are tested on a real panel (test_replay_speed.py); the stand-in has none and ignores them."""
    v = reader("/ewc/")
    v.wait_state()
    v.page.evaluate(REPLAY_STUB)
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft", " ", "r", "+", "-"):
        v.page.keyboard.press(key)
    calls = v.page.evaluate("window.replayCalls")
    assert calls == [["step", 1], ["step", 1], ["step", -1], ["toggle"], ["reset"]]
    assert state(v) == {}, "with a replay on the page, arrows and R leave the experiment alone"
    v.page.keyboard.press("1")
    shows(v, "ewc", "Ohne Schutz")
    v.page.keyboard.press("p")
    v.page.keyboard.press("PageDown")
    shows(v, "ewc", "Gleiche Strafe")
    assert len(v.page.evaluate("window.replayCalls")) == 5
    # a panel that is still loading (or broken) does not swallow the keys
    v.page.evaluate("document.querySelector('[data-replay]').dataset.state = 'error'")
    v.page.keyboard.press("ArrowRight")
    shows(v, "ewc", "EWC")
    assert v.console_errors() == []


def test_print_is_a_worksheet_with_the_state_line(reader):
    v = reader("/overfitting/?degree=9", color_scheme="dark")
    v.wait_state()
    v.page.keyboard.press("2")  # the second preset
    shows(v, "overfitting", "Grad 9 trifft jeden Punkt")
    url = v.page.evaluate("location.href")
    v.page.emulate_media(media="print")
    for hidden in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".pl-presets",
                   ".pl-toolbar", 'input[type="range"][data-param="degree"]'):
        assert v.page.locator(hidden).first.is_hidden(), hidden
    line = v.page.locator(".pl-print-state")
    assert line.is_visible() and line.inner_text() == f"Stand: {url}"
    # a control prints as its value: the chosen option stays, the others go
    days = api.concept("overfitting").PARAMS[1]
    chosen = expected("overfitting", "Grad 9 trifft jeden Punkt")["controls"][days.name]
    for value, label in days.choices:
        option = v.page.locator(f'input[data-param="{days.name}"][value="{days.to_url(value)}"] + span')
        assert option.is_visible() == (days.to_url(value) == chosen), label
    assert "Grad der Kurve: 9" in v.page.inner_text(".pl-controls")
    # paper is white, also when the screen was dark
    colour = v.page.eval_on_selector(".md-content__inner > p:not(.pl-print-state)", "el => getComputedStyle(el).color")
    assert colour.startswith(("rgba(0, 0, 0", "rgb(0, 0, 0")), colour
    assert v.page.eval_on_selector(".pl-figure svg text", "el => getComputedStyle(el).fill").startswith("rgba(0, 0, 0")
    v.screenshot("print-overfitting", full_page=True)
    pdf = v.page.pdf(format="A4", print_background=True)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    (ROOT / "out").mkdir(exist_ok=True)
    (ROOT / "out" / "print-overfitting.pdf").write_bytes(pdf)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("slug", ["overfitting", "kv-cache", "top-p-sampling", "validation-set"])
def test_presentation_screenshots(reader, slug, scheme):
    v = reader(f"/{slug}/#praesentation", color_scheme=scheme)
    v.wait_state()
    assert presenting(v)
    assert v.page.evaluate("document.documentElement.scrollWidth") <= 1280, "nothing overflows sideways"
    v.page.eval_on_selector(".pl-experiment", "el => el.scrollIntoView({block: 'start'})")
    fig = box(v, ".pl-figure svg")
    assert fig["width"] >= 640, "the figure fills half the projector width at least"
    size = v.page.eval_on_selector(".pl-preset", "el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 18, "preset buttons readable from the back"
    picture(v.page, f"present-{slug}-{scheme}")
    assert v.console_errors() == [] and v.foreign_requests() == []


# Every text of top-p's figure that a piece of the red threshold line runs through, by the boxes the
# browser lays out with its own fonts (getBBox, in the figure's units) and the line's drawn width.
CROSSED = """() => {
  const svg = document.querySelector('.pl-figure svg');
  const lines = [...svg.querySelectorAll('line.pl-dec-threshold')].map((l) => {
    const half = parseFloat(getComputedStyle(l).strokeWidth) / 2, x = Number(l.getAttribute('x1'));
    return { x0: x - half, x1: x + half, y0: Number(l.getAttribute('y1')), y1: Number(l.getAttribute('y2')) };
  });
  const crossed = [...svg.querySelectorAll('text')].filter((t) => {
    const b = t.getBBox();
    return lines.some((l) => l.x0 < b.x + b.width && b.x < l.x1 && l.y0 < b.y + b.height && b.y < l.y1);
  }).map((t) => t.textContent);
  return { pieces: lines.length, crossed };
}"""


@pytest.mark.parametrize("start", ["", "&temperature=2", "&dist=0.3_0.05_0.2_0.1_0.05_0.15_0.1_0.05"])
def test_top_p_threshold_line_never_crosses_a_label_in_presentation_mode(reader, start):
    """The red p-line runs clear of the values over the bars, the kernel's line and the tokens' letters, for
    every p the slider offers, on the article's rows, at T = 2 and on eight own tokens."""
    slug = "top-p-sampling"
    v = reader(f"/{slug}/?p=0.05{start}#praesentation")
    v.wait_state()
    assert presenting(v)
    raw = dict(parse_qsl(start.lstrip("&")))
    slider = v.page.locator('input[type="range"][data-param="p"]')
    found = {}
    for step in range(20):
        p = round(0.05 * (step + 1), 2)
        if step:
            slider.press("ArrowRight")
        summary = api.run(slug, {**raw, "p": p})["summary"]
        v.page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=summary)
        seen = v.page.evaluate(CROSSED)
        assert seen["pieces"] >= 1, p  # the line is there
        if seen["crossed"]:
            found[p] = seen["crossed"]
    assert found == {}
    assert v.console_errors() == []
