"""Input while Python is still starting is never lost: a preset shows its pre-rendered view at once,
any other change waits (marked as pending) and is computed as soon as Python is ready.

"Before Python is ready" is made deterministic without paying a cold start per page: after the first
page, the runtime's entry point is taken away (as if Python were not there yet) before each instant
navigation, and handed back through ``probierlabor.connect`` (what static/py/boot.py reaches through runtime/start.js) once the
inputs are made. One page races the real cold start, one holds the real boot.py until the input is in.
"""

from __future__ import annotations

import contextlib
from urllib.parse import parse_qsl, urlsplit

import pytest
from conftest import READY_MS, Gate, record
from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.pageblocks import experiment_block

pytestmark = pytest.mark.browser

ROOT = "[data-experiment]:not([data-url-prefix])"
PENDING = "Python startet"

HOLD = """() => { const r = window.probierlabor.runtime;
    window.__held = [r.run, r.systemcheck, r.workshop, r.liveCheck]; r.run = null; }"""
RELEASE = "() => window.probierlabor.connect(...window.__held)"

# The raw values the page would send to Python (experiment/controls.js fromControls).
CONTROLS = """sel => { const raw = {};
  document.querySelector(sel).querySelectorAll('[data-param]').forEach(el => {
    const name = el.dataset.param;
    if (el.type === 'radio') { if (el.checked) raw[name] = el.value; }
    else if (el.type === 'checkbox') raw[name] = el.checked ? '1' : '0';
    else if (el.type === 'range' && 'log' in el.dataset) raw[name] = String(Number((10 ** Number(el.value)).toPrecision(3)));
    else raw[name] = el.value;
  });
  return raw; }"""

# Markup as the browser serialises it, less what static/js/a11y.js adds to a region that scrolls
# (a tab stop and its name) whenever it gets round to it.
NORMALISE = """const norm = markup => { const f = document.createElement('figure'); f.innerHTML = markup;
  f.querySelectorAll("[class*='-scroll']").forEach(el => ['tabindex', 'role', 'aria-label', 'data-pl-scroll-focus']
    .forEach(a => el.removeAttribute(a)));
  return f.innerHTML; };"""

SHOWN = """sel => { const root = document.querySelector(sel);""" + NORMALISE + """
  return {
    figure: norm(root.querySelector('.pl-figure').innerHTML), extra: norm(root.querySelector('.pl-extra').innerHTML),
    readouts: [...root.querySelectorAll('[data-readout] dd')].map(dd => dd.textContent),
    summary: root.querySelector('.pl-summary').textContent,
    pending: root.classList.contains('pl-pending'),
    busy: root.querySelector('.pl-stage').getAttribute('aria-busy'),
    status: root.querySelector('.pl-status').hidden ? null : root.querySelector('.pl-status-text').textContent,
    state: root.dataset.state,
  }; }"""


def shown(v):
    return v.page.evaluate(SHOWN, ROOT)


def normalised(v, markup: str) -> str:
    """Markup as the page would show it, to compare with what it shows."""
    return v.page.evaluate("m => { " + NORMALISE + " return norm(m); }", markup)


def url_state(v) -> dict:
    return dict(parse_qsl(urlsplit(v.page.url).query))


def chosen_preset(slug: str) -> int:
    """The last preset whose view differs from the default: its click must be visible."""
    presets = api.concept(slug).PRESETS
    return max(i for i, p in enumerate(presets) if api.run(slug, api.preset_values(slug, p.label))["url"])


def first_other_control(slug: str):
    """A slider if the page has one, else its first control of another kind."""
    params = [p for p in api.concept(slug).PARAMS if p.kind != "moves"]
    sliders = [p for p in params if p.kind in ("int", "float") and p.widget != "number"]
    return (sliders or params)[0]


def change(v, slug: str, p) -> None:
    """Changes one control the way a reader would."""
    root = v.page.locator(ROOT)
    field = root.locator(f'[data-param="{p.name}"]')
    if p.kind == "seed":
        root.locator(f'[data-seed-for="{p.name}"]').click()
    elif p.kind in ("int", "float") and p.widget == "number":
        step = p.step or 1
        now = p.coerce(field.input_value())[0]  # German, as the field shows it: „−3“, „1,5“
        field.fill(f"{now - step if now + step > p.hi else now + step:g}")
        field.evaluate("el => el.blur()")  # a number field reports its change when left
    elif p.kind in ("int", "float"):
        at_top = field.evaluate("el => Number(el.value) >= Number(el.max)")
        field.focus()
        v.page.keyboard.press("ArrowLeft" if at_top else "ArrowRight")
    elif p.kind == "choice" and p.widget == "select":
        other = field.evaluate("el => [...el.options].find(o => !o.selected).value")
        field.select_option(other)
    elif p.kind == "choice":
        root.locator(f'label.pl-option:has(input[data-param="{p.name}"]:not(:checked))').first.click()
    elif p.kind == "bool":
        field.click()
    else:
        raise AssertionError(f"{slug}: no way to change a {p.kind} control")


def drag_a_point(v) -> None:
    """Drags the first movable point of the figure (overfitting) up by 40 pixels."""
    point = v.page.locator(f"{ROOT} [data-drag]").first
    point.scroll_into_view_if_needed()
    before = point.get_attribute("cy")
    box = point.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    v.page.mouse.move(x, y)
    v.page.mouse.down()
    v.page.mouse.move(x, y - 20, steps=2)
    v.page.mouse.move(x, y - 40, steps=2)
    v.page.mouse.up()
    assert point.get_attribute("cy") != before, "the dragged point stayed where it was"


def assert_view(v, slug: str, expected: dict, what: str) -> None:
    now = shown(v)
    assert now["summary"] == expected["summary"], f"{slug}, {what}: summary"
    assert now["readouts"] == [r["value"] for r in expected["readouts"]], f"{slug}, {what}: readouts"
    assert now["figure"] == normalised(v, expected["figure"]), f"{slug}, {what}: figure"
    assert now["extra"] == normalised(v, expected["extra"]), f"{slug}, {what}: second figure or table"
    assert url_state(v) == expected["url"], f"{slug}, {what}: URL"


def early_preset(v, slug: str, index: int) -> None:
    """Before Python: the preset's view at once, with its URL; nothing pending."""
    label = api.concept(slug).PRESETS[index].label
    expected = api.run(slug, api.preset_values(slug, label))
    assert_view(v, slug, expected, f"„{label}“ before Python")
    now = shown(v)
    assert now["state"] == "loading" and not now["pending"] and now["busy"] is None, (slug, now["state"])
    assert label in now["status"], (slug, now["status"])


def inputs_then_release(v, slug: str, *, release) -> None:
    """The test itself: a preset, then another control, before Python; the final state once ready."""
    v.page.wait_for_selector(f'[data-experiment="{slug}"]', state="attached")
    preset = chosen_preset(slug)
    v.page.locator(f"{ROOT} .pl-presets [data-preset]").nth(preset).click()
    racing = release is None
    if not racing:
        early_preset(v, slug, preset)
    p = first_other_control(slug)
    change(v, slug, p)
    if slug == "overfitting":
        drag_a_point(v)
    raw = v.page.evaluate(CONTROLS, ROOT)
    if not racing:
        now = shown(v)
        assert now["pending"] and now["busy"] == "true", f"{slug}: a kept change is not marked as pending"
        assert now["status"].startswith(PENDING), (slug, now["status"])
        release()
    v.wait_state(selector=ROOT, timeout=READY_MS)
    expected = api.run(slug, raw)
    assert not expected["notes"], (slug, raw, expected["notes"])
    preset_values = api.preset_values(slug, api.concept(slug).PRESETS[preset].label)
    assert expected["params"][p.name] != api.jsonable(preset_values[p.name]), f"{slug}: {p.name} did not change"
    if slug == "overfitting":
        assert expected["params"]["moves"], "the dragged point was lost"
    assert_view(v, slug, expected, "once Python is ready")
    now = shown(v)
    assert not now["pending"] and now["busy"] is None and now["status"] is None, (slug, now)


def test_every_page_keeps_a_preset_and_a_change_made_before_python_is_ready(visit):
    """All pages in one tab: the first races the real cold start, the others are navigated to
    (instant navigation) with the runtime held back until the inputs are made."""
    v = visit(f"/{SLUGS[0]}/")
    v.page.set_default_timeout(READY_MS)  # a busy machine starting Python may hold the page's main thread for long
    inputs_then_release(v, SLUGS[0], release=None)
    for slug in SLUGS[1:]:
        v.page.evaluate(HOLD)
        v.page.locator(f'.md-nav__link[href$="{slug}/"]').first.evaluate("a => a.click()")
        v.page.wait_for_selector(f'[data-experiment="{slug}"]', state="attached")
        if slug == SLUGS[1]:  # presentation keys (1–9) choose a preset before Python just like a click
            # the key's preset scrolls the figure into view; smoothly, a click that follows at once can
            # land on the button that was under the pointer a frame earlier (it did, on a busy CI machine)
            v.page.emulate_media(reduced_motion="reduce")
            v.page.locator("body").focus()
            v.page.keyboard.press("3")
            early_preset(v, slug, 2)
        inputs_then_release(v, slug, release=lambda: v.page.evaluate(RELEASE))
    assert v.foreign_requests() == [] and v.console_errors() == []


@contextlib.contextmanager
def held(browser, origin, pattern):
    """A fresh page whose request for ``pattern`` waits at a Gate (no service worker: it would answer it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, service_workers="block")
    try:
        page = context.new_page()
        page.set_default_timeout(READY_MS)
        gate = Gate()
        page.route(pattern, gate)
        yield page, gate, record(page, origin)
    finally:
        context.close()


def test_a_preset_works_as_soon_as_the_experiments_own_code_is_there(browser, origin):
    """The lesson's and the share bar's modules held in the network: the experiment is wired as soon as
    its own module has come, and a preset clicked then shows its view. Waiting for every feature's module
    would lose such a click on a slow network."""
    slug = SLUGS[1]
    gate = Gate()
    with held(browser, origin, "**/static/js/classroom/lesson.js") as (page, lesson, v):
        page.route("**/static/js/classroom/share.js", gate)
        page.goto(f"{origin}/{slug}/", wait_until="domcontentloaded")
        page.wait_for_function(f"""() => {{ try {{ window.probierlabor.values(document.querySelector('{ROOT}'));
            return true; }} catch (_) {{ return false; }} }}""")  # the experiment's module has come
        page.wait_for_timeout(100)
        index = chosen_preset(slug)
        page.locator(f"{ROOT} .pl-presets [data-preset]").nth(index).click()
        label = api.concept(slug).PRESETS[index].label
        assert_view(v, slug, api.run(slug, api.preset_values(slug, label)), f"„{label}“ while two modules load")
        assert lesson.held and gate.held, "the modules were not held: the test proves nothing"
        lesson.release()
        gate.release()
        page.wait_for_selector(".pl-tasks[data-lesson] .pl-lesson-note", state="visible")  # they mount late


def test_a_change_waits_for_the_real_boot(browser, origin):
    """The real boot.py held back by the network until the input is in: pending, then computed."""
    slug = "overfitting"
    with held(browser, origin, "**/static/py/boot.py") as (page, gate, v):
        page.goto(f"{origin}/{slug}/", wait_until="domcontentloaded")
        inputs_then_release(v, slug, release=gate.release)
        assert v.foreign_requests() == [] and v.console_errors() == []


def test_python_ready_before_the_page_script_still_starts_the_experiment(browser, origin):
    """With the site stored offline, Python can be ready before the experiment's code has arrived (seen
    on a reload in the full suite, when that code came at the end of a long page: boot.py's call failed
    and the page stayed on „Python startet“). Here the experiment's module is held until Python is done."""
    slug = "validation-set"
    with held(browser, origin, "**/static/js/experiment/mount.js") as (page, gate, v):
        page.goto(f"{origin}/{slug}/", wait_until="commit")
        page.wait_for_function("() => !!(window.probierlabor && window.probierlabor.runtime.run)")
        assert page.evaluate(f"document.querySelector('{ROOT}').dataset.state") == "loading"  # the order this test is about
        # a preset pressed while the experiment's code is still on its way is not lost
        label = api.concept(slug).PRESETS[-1].label
        page.locator(f"{ROOT} .pl-presets [data-preset]").last.click()
        gate.release()
        v.wait_state()
        assert page.locator(f"{ROOT} .pl-figure svg").count() >= 1
        expected = api.run(slug, api.preset_values(slug, label))
        page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=expected["summary"])
        assert v.foreign_requests() == [] and v.console_errors() == []


def test_without_python_the_presets_still_show_and_other_changes_go_back(visit):
    """Python cannot start (its WebAssembly file is missing): the presets still show their views, and
    a slider moved then returns to the view on screen instead of promising a state that never comes."""
    slug = "top-p-sampling"
    v = visit(f"/{slug}/", routes=[("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="fehlt"))])
    v.wait_state(("error",), timeout=60_000)
    preset = chosen_preset(slug)
    v.page.locator(f"{ROOT} .pl-presets [data-preset]").nth(preset).click()
    expected = api.run(slug, api.preset_values(slug, api.concept(slug).PRESETS[preset].label))
    assert_view(v, slug, expected, "preset without Python")
    p = first_other_control(slug)
    change(v, slug, p)
    assert v.page.evaluate(CONTROLS, ROOT) == expected["controls"], "the slider kept a value nothing will compute"
    assert_view(v, slug, expected, "slider without Python")
    assert not shown(v)["pending"]
    assert "Python konnte nicht gestartet werden" in v.page.inner_text(f"{ROOT} .pl-notes")


def test_a_links_state_stays_in_the_address_when_python_fails_later(browser, origin):
    """A link whose state no preset has waits for Python; when Python then fails, the address keeps the
    link's values (to share or to reload), as the school-server sharing test expects."""
    slug, query = "overfitting", "degree=5&lam=0.01"
    context = browser.new_context(viewport={"width": 1280, "height": 720}, service_workers="block")
    try:
        page = context.new_page()
        page.route("**/static/py/boot.py", Gate())  # never released: the failure below comes first
        page.goto(f"{origin}/{slug}/?{query}", wait_until="domcontentloaded")
        page.wait_for_selector(f'{ROOT}.pl-pending', state="attached", timeout=READY_MS)
        page.evaluate("window.probierlabor.fail('Testfehler')")
        page.wait_for_selector(f'{ROOT}[data-state="error"]', state="attached", timeout=READY_MS)
        assert page.evaluate("location.search") == f"?{query}"
    finally:
        context.close()


def test_every_preset_is_pre_rendered_as_python_computes_it():
    """Without a browser: the views in the page's template are api.run's, for each preset."""
    for slug in SLUGS:
        data, chosen = experiment_block.prerendered(slug)
        for index, preset in enumerate(api.concept(slug).PRESETS):
            view = data["views"][chosen[index]]
            out = api.run(slug, api.preset_values(slug, preset.label))
            assert experiment_block.markup_of(data, view["figure"]) == out["figure"], (slug, preset.label)
            assert experiment_block.markup_of(data, view["extra"]) == out["extra"], (slug, preset.label)
            assert view["url"] == out["url"] and view["summary"] == out["summary"], (slug, preset.label)
            assert view["answer"] == out["answer"] and view["extra_answers"] == out["extra_answers"], (slug, preset.label)
            assert [bool(r.get("answers")) for r in view["readouts"]] == [r["answers"] for r in out["readouts"]], slug
        assert data["views"][0]["controls"] == api.run(slug)["controls"], slug
