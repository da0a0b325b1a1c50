"""The „Im Code nachrechnen“ section as the build writes it (py/probierlabor/pageblocks/workshop_block.py)."""

from html.parser import HTMLParser

import pytest
from probierlabor import SLUGS
from probierlabor.kit import workshop
from probierlabor.pageblocks import workshop_block


class _Section(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.code, self.in_code, self.buttons, self.label = [], "", False, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self.in_code = self.in_code or "data-workshop-code" in attrs
        if tag == "button":
            self.label = attrs

    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_code = False

    def handle_data(self, data):
        if self.in_code:
            self.code += data
        if self.label is not None:
            self.buttons.append((data, self.label))
            self.label = None


WITH_SCRIPT = [s for s in SLUGS if workshop_block.has_script(s)]


@pytest.mark.parametrize("slug", WITH_SCRIPT)
def test_the_section_is_collapsed_and_carries_the_default_script_as_text(slug):
    html = workshop_block.section(slug)
    assert "\n" not in html, "eine Zeile: eine Leerzeile des Skripts beendete sonst Markdowns HTML-Block"
    page = _Section()
    page.feed(html)
    tag, attrs = page.tags[0]
    assert tag == "details" and attrs["data-workshop"] == slug and "open" not in attrs
    assert page.code == workshop.template(slug)  # print and no-JS show exactly the script
    assert [label for label, _ in page.buttons] == ["Ausführen", "Zurücksetzen", "Abbrechen"]
    assert "disabled" in page.buttons[2][1] and "disabled" not in page.buttons[0][1]
    marks = {name for _, attrs in page.tags for name in attrs if name.startswith("data-workshop-")}
    assert {"data-workshop-editor", "data-workshop-status", "data-workshop-output", "data-workshop-figure"} <= marks
    # no inline script or style for the Content-Security-Policy (the script's own text may say `linestyle=`)
    assert all(tag != "script" and "style" not in attrs for tag, attrs in page.tags)


def test_a_script_with_html_in_it_stays_text(monkeypatch):
    monkeypatch.setattr(workshop, "template", lambda slug: 'print("<b>a & b</b>")\n\nx = 1\n')
    html = workshop_block.section("top-p-sampling")
    assert "<b>" not in html and "&lt;b&gt;a &amp; b&lt;/b&gt;" in html
    page = _Section()
    page.feed(html)
    assert page.code == 'print("<b>a & b</b>")\n\nx = 1\n'


def test_a_page_without_a_script_gets_nothing(monkeypatch):
    def missing(slug):
        raise KeyError(f"Für „{slug}“ gibt es kein Skript zum Nachrechnen.")
    monkeypatch.setattr(workshop, "template", missing)
    assert not workshop_block.has_script("top-p-sampling") and workshop_block.section("top-p-sampling") == ""


def test_fill_json_answers_the_browser_with_the_script_or_a_german_message():
    import json

    out = json.loads(workshop.fill_json("top-p-sampling", json.dumps({"p": "0.5"})))
    assert "\np = 0.5\n" in out["script"]
    assert json.loads(workshop.fill_json("gibt-es-nicht", "{}"))["error"].startswith("Unbekanntes Konzept „gibt-es-nicht“")
    def missing(slug):
        raise KeyError(f"Für „{slug}“ gibt es kein Skript zum Nachrechnen.")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(workshop, "template", missing)
        assert "kein Skript" in json.loads(workshop.fill_json("top-p-sampling", "{}"))["error"]
