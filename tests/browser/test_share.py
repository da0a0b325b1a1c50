"""Sharing an experiment: the link on the clipboard, the QR code, and the A/B comparison in one link."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import header_hidden, picture
from probierlabor.kit import api

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
JSQR = ROOT / "node_modules" / "jsqr" / "dist" / "jsQR.js"
A = '[data-experiment]:not([data-url-prefix])'
B = '[data-experiment][data-url-prefix="b."]'

# Renders the dialog's QR code onto a canvas and reads it back with jsQR (a decoder that shares
# no code with the generator), as a phone camera would.
DECODE = """async () => {
  const svg = document.querySelector("dialog.pl-qr[open] svg").cloneNode(true);
  const size = 660;
  svg.setAttribute("width", size); svg.setAttribute("height", size);
  const img = new Image();
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, size, size);
  const code = jsQR(ctx.getImageData(0, 0, size, size).data, size, size);
  return code ? code.data : null;
}"""


def search(v):
    return dict(v.page.evaluate("[...new URLSearchParams(location.search)]"))


def summary(v, selector):
    return v.page.inner_text(f"{selector} .pl-summary")


def wait_summary(v, selector, text):
    v.page.wait_for_function("([sel, text]) => document.querySelector(sel + ' .pl-summary').textContent === text",
                             arg=[selector, text])


def test_without_javascript_the_tools_are_not_offered(visit):
    v = visit("/overfitting/", javascript=False)
    assert v.page.locator(".pl-toolbar").count() == 1
    assert v.page.locator(".pl-toolbar").is_hidden()
    for name in ("Link kopieren", "QR-Code", "A/B-Vergleich"):
        assert v.page.get_by_role("button", name=name).count() == 0  # hidden buttons are not in the tree


def test_the_qr_code_decodes_to_the_current_setting_and_warns_about_a_local_address(visit):
    v = visit("/overfitting/?degree=9")  # a fresh tab: the generator is fetched when the dialog first opens
    v.wait_state()
    # the presets are named by what they show, and no two show the same
    buttons = v.page.locator("[data-experiment] .pl-presets [data-preset]")
    names, urls = buttons.all_inner_texts(), [b.get_attribute("data-preset-url") for b in buttons.all()]
    assert not [n for n in names if re.fullmatch(r"Experiment \d+", n.strip())], names
    assert len(set(urls)) == len(urls), dict(zip(names, urls))
    v.page.get_by_role("button", name="Grad 3", exact=True).click()
    expected = api.run("overfitting", api.preset_values("overfitting", "Grad 3"))
    wait_summary(v, A, expected["summary"])
    url = v.page.evaluate("location.href")
    assert "?" in url

    qr_button = v.page.get_by_role("button", name="QR-Code", exact=True)
    qr_button.click()
    dialog = v.page.get_by_role("dialog", name="QR-Code dieser Einstellung")
    dialog.wait_for()
    v.page.evaluate(JSQR.read_text(encoding="utf-8"))  # not add_script_tag: the site's policy refuses inline scripts
    assert v.page.evaluate(DECODE) == url
    assert dialog.locator(".pl-qr-url").inner_text() == url
    box = dialog.locator(".pl-qr-code svg").bounding_box()
    assert box["width"] >= 300 and box["width"] == pytest.approx(box["height"], abs=1), "scannable from afar"
    hint = dialog.locator(".pl-qr-hint")
    assert hint.is_visible() and "127.0.0.1" in hint.inner_text() and "Schulserver" in hint.inner_text()
    v.screenshot("share-qr")

    v.page.keyboard.press("Escape")
    v.page.wait_for_selector("dialog.pl-qr", state="detached")
    assert v.page.evaluate("document.activeElement.dataset.share") == "qr"
    assert any(u.endswith("/static/vendor/qrcode/qrcode.js") for u in v.requests), "the generator ships with the site"
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_link_kopieren_puts_the_current_setting_on_the_clipboard(reader, origin):
    v = reader("/ewc/")
    v.page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    v.wait_state()
    v.page.get_by_role("button", name="Gleiche Strafe", exact=True).click()
    v.page.wait_for_function("() => location.search.includes('mode=equal')")
    v.page.get_by_role("button", name="Link kopieren", exact=True).click()
    v.page.wait_for_function("() => document.querySelector('.pl-share-status').textContent === 'Link kopiert'")
    assert v.page.get_attribute(".pl-share-status", "role") == "status"
    assert v.page.evaluate("navigator.clipboard.readText()") == v.page.evaluate("location.href")
    assert v.page.evaluate("location.href").endswith("/ewc/?mode=equal")
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_on_a_school_server_over_http_the_link_is_copied_from_a_field_and_the_qr_code_needs_no_warning(browser, origin):
    """Plain http on a school server is no secure context: no clipboard API there, and no local address."""
    school = "http://schulserver.test"
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    seen = []

    def proxy(route):
        seen.append(route.request.url)
        if "/static/vendor/pyodide/" in route.request.url:
            route.abort()  # Python is not needed for sharing; spare the test the 26 MB
        else:
            route.fulfill(response=route.fetch(url=origin + route.request.url[len(school):]))

    try:
        context.route(f"{school}/**", proxy)
        page = context.new_page()
        page.goto(f"{school}/overfitting/?degree=5&lam=0.01")
        assert page.evaluate("window.isSecureContext") is False
        page.get_by_role("button", name="Link kopieren", exact=True).click()
        field = page.get_by_role("textbox", name="Link zu dieser Einstellung")
        field.wait_for()
        address = f"{school}/overfitting/?degree=5&lam=0.01"
        assert field.input_value() == address
        selection = page.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]")
        assert selection == [0, len(address)]
        page.wait_for_function("() => document.querySelector('.pl-share-status').textContent !== ''")
        assert page.inner_text(".pl-share-status") == "Link kopiert"
        # the copy command really reached the clipboard: read it back from a page that may read it
        reader = context.new_page()
        reader.goto(origin + "/404.html")
        assert reader.evaluate("navigator.clipboard.readText()") == address
        reader.close()

        page.get_by_role("button", name="QR-Code", exact=True).click()
        page.wait_for_selector("dialog.pl-qr[open]")
        page.evaluate(JSQR.read_text(encoding="utf-8"))
        assert page.evaluate(DECODE) == address
        assert page.locator(".pl-qr-hint").count() == 0
        assert all(u.startswith((school + "/", "data:", "blob:")) for u in seen)
    finally:
        # The search worker may still be fetching through the proxy; without this its late callback
        # fails inside the *next* test.
        context.unroute_all(behavior="ignoreErrors")
        context.close()


def test_a_b_compares_two_settings_side_by_side_and_one_link_restores_both(reader):
    v = reader("/overfitting/?degree=3")
    v.wait_state()
    three = api.run("overfitting", {"degree": 3})
    nine = api.run("overfitting", {"degree": 9})
    toggle = v.page.get_by_role("button", name="A/B-Vergleich", exact=True)
    toggle.click()
    v.wait_state(selector=B)
    assert toggle.get_attribute("aria-pressed") == "true"
    assert summary(v, B) == summary(v, A) == three["summary"], "B starts as a copy of A"
    assert search(v) == {"degree": "3", "ab": "overfitting", "b.degree": "3"}

    slider = v.page.locator(f'{B} input[type="range"][data-param="degree"]')
    slider.focus()
    slider.press("End")
    wait_summary(v, B, nine["summary"])
    assert summary(v, A) == three["summary"], "A keeps its own setting"
    assert v.page.inner_html(f"{A} .pl-figure") != v.page.inner_html(f"{B} .pl-figure")
    assert v.page.inner_text(f'{B} [data-readout="test_rmse"] dd') == next(
        r["value"] for r in nine["readouts"] if r["key"] == "test_rmse")
    # each side has its own controls: B's radio buttons are not A's
    v.page.locator(f'{B} input[data-param="days"][value="80"]').check(force=True)
    v.page.wait_for_function("() => new URLSearchParams(location.search).get('b.days') === '80'")
    assert v.page.locator(f'{A} input[data-param="days"][value="10"]').is_checked()
    assert "days" not in search(v)
    nine80 = api.run("overfitting", {"degree": 9, "days": 80})
    wait_summary(v, B, nine80["summary"])
    link = v.page.evaluate("location.href")
    a_box, b_box = v.page.locator(A).bounding_box(), v.page.locator(B).bounding_box()
    assert b_box["x"] >= a_box["x"] + a_box["width"] and abs(a_box["y"] - b_box["y"]) < 2, "side by side"
    with header_hidden(v.page):
        picture(v.page.locator(".pl-ab"), "share-ab-1280")

    before = v  # what the first part requested and logged, checked at the end
    v = reader(link[len(v.origin):])  # the shared link, followed in the same tab: both sides come back
    v.wait_state()
    v.wait_state(selector=B)
    assert summary(v, A) == three["summary"] and summary(v, B) == nine80["summary"]
    assert v.page.is_hidden(f"{A} .pl-notes") and v.page.is_hidden(f"{B} .pl-notes")
    assert v.page.get_by_role("button", name="A/B-Vergleich", exact=True).get_attribute("aria-pressed") == "true"

    v.page.get_by_role("button", name="Vergleich schließen").click()
    v.page.wait_for_selector(B, state="detached")
    assert v.page.locator("[data-experiment]").count() == 1 and v.page.locator(".pl-ab").count() == 0
    assert search(v) == {"degree": "3"}
    assert v.page.evaluate("document.activeElement.dataset.share") == "ab"
    assert v.page.get_by_role("button", name="A/B-Vergleich", exact=True).get_attribute("aria-pressed") == "false"
    # A still works after its move into the comparison and back
    v.page.get_by_role("button", name="Von vorn", exact=True).click()
    wait_summary(v, A, api.run("overfitting")["summary"])
    assert v.foreign_requests() == [] and v.console_errors() == []
    assert before.foreign_requests() == [] and before.console_errors() == []


def test_a_b_on_a_phone_stacks_without_overflow_and_clamps_a_bad_b_value(reader):
    v = reader("/ewc/?lam=1&ab=ewc&b.lam=0.2&b.mode=nichts", width=390, height=844)
    v.wait_state()
    v.wait_state(selector=B)
    assert summary(v, A) == api.run("ewc", {"lam": 1})["summary"]
    assert summary(v, B) == api.run("ewc", {"lam": 0.2, "mode": "nichts"})["summary"]
    notes = v.page.locator(f"{B} .pl-notes")
    assert notes.is_visible() and "Schutz" in notes.inner_text()  # B's bad value is named, in B
    assert v.page.is_hidden(f"{A} .pl-notes")
    assert search(v) == {"ab": "ewc", "b.lam": "0.2"}  # defaults leave the link, the bad value too
    assert v.page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing may overflow sideways"
    a_box, b_box = v.page.locator(A).bounding_box(), v.page.locator(B).bounding_box()
    assert b_box["y"] >= a_box["y"] + a_box["height"], "B below A"
    assert b_box["x"] + b_box["width"] <= 390
    with header_hidden(v.page):
        picture(v.page.locator(".pl-ab"), "share-ab-390")

    v.page.get_by_role("button", name="A/B-Vergleich", exact=True).click()  # the same button closes it
    v.page.wait_for_selector(B, state="detached")
    assert not any(k == "ab" or k.startswith("b.") for k in search(v))
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_the_qr_library_is_vendored_at_its_pinned_version():
    manifest = json.loads((ROOT / "static" / "vendor" / "MANIFEST.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert manifest["versions"]["qrcode-generator"] == lock["packages"]["node_modules/qrcode-generator"]["version"]
    assert "qrcode/qrcode.js" in manifest["files"]
