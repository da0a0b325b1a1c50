"""Numbers in the prose that a preset shows link to that preset (pageblocks/prose_values.py)."""

import html as htmllib
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.pageblocks import prose_values as pv

from tests.browser.conftest import SITE

SLUG = "greedy-decoding"
LABELS = [p.label for p in api.concept(SLUG).PRESETS]


def url_of(label):
    return api.preset_url(SLUG, label)


def test_a_number_is_marked_with_the_preset_that_shows_its_state_and_only_then():
    last = LABELS[-1]
    assert pv.mark(SLUG, url_of(last), "0,5") == f"{pv.OPEN}{SLUG}{pv.SEP}{len(LABELS) - 1}{pv.TEXT}0,5{pv.CLOSE}"
    assert pv.preset_of(SLUG, url_of(LABELS[0])) == 0
    assert pv.mark(SLUG, {"no_such": "state"}, "0,5") == "0,5"


def test_marks_become_links_outside_formulas_and_bare_numbers_inside_and_for_another_pages_experiment():
    index = len(LABELS) - 1
    marked = pv.mark(SLUG, url_of(LABELS[index]), "0,396")
    other = pv.mark("top-k-sampling", {}, "3")
    page = (f'<h2 id="probiere-es-aus">Probiere es aus</h2><p>BA hätte {marked}, siehe {other}.</p>'
            f'<span class="arithmatex">\\(0{marked}\\)</span><div class="arithmatex">\\[{marked}\\]</div>')
    out = pv.link(page, [SLUG])
    assert "\ue000" not in out and "\ue003" not in out
    links = re.findall(r'<a class="pl-value" href="([^"]+)" data-view="([^"]+)" title="([^"]+)">([^<]+)</a>', out)
    assert len(links) == 1, out
    href, view, title, text = links[0]
    href = htmllib.unescape(href)
    assert (view, text) == (f"{SLUG}:{index}", "0,396") and LABELS[index] in htmllib.unescape(title)
    assert dict(parse_qsl(urlsplit(href).query)) == {k: str(v) for k, v in url_of(LABELS[index]).items()}
    assert href.endswith("#probiere-es-aus")
    assert '<span class="arithmatex">\\(00,396\\)</span><div class="arithmatex">\\[0,396\\]</div>' in out
    assert "siehe 3." in out  # top-k's experiment is not on this page: no link that would go nowhere


@pytest.mark.parametrize("slug", SLUGS)
def test_every_built_page_links_its_preset_numbers_and_keeps_no_marks(slug):
    page = (SITE / slug / "index.html").read_text(encoding="utf-8")
    assert not re.search("[\ue000-\ue003]", page), f"{slug}: a mark of prose_values is left in the page"
    presets = api.concept(slug).PRESETS
    for view in re.findall(r'<a class="pl-value" href="[^"]+" data-view="([^"]+)"', page):
        owner, index = view.split(":")
        assert owner == slug and int(index) < len(presets), view
