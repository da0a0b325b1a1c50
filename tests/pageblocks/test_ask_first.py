"""Think first, then read: the question comes before the prose that answers it, and „Was du
entdeckst“ arrives folded (mkdocs_hooks/discoveries.py)."""

import re

import pytest
from probierlabor import SLUGS
from probierlabor.pageblocks.glossary import FINDINGS

from mkdocs_hooks import discoveries
from tests.browser.conftest import SITE


def built(slug: str) -> str:
    return (SITE / slug / "index.html").read_text(encoding="utf-8")


def test_the_section_up_to_the_next_heading_is_folded_and_the_rest_stays():
    html = ('<p>vorher</p><h2 id="was-du-entdeckst">Was du entdeckst<a class="headerlink" href="#was-du-entdeckst">¶</a></h2>'
            '<ul><li>eins</li></ul><h3 id="u">Unter</h3><p>zwei</p><h2 id="grenzen">Grenzen</h2><p>danach</p>')
    folded = discoveries.fold(html, "greedy-decoding")
    start = folded.index('<details class="pl-discover" data-lesson="greedy-decoding"><summary><h2 id="was-du-entdeckst">')
    end = folded.index("</details>")
    assert folded[:start] == "<p>vorher</p>" and folded[end:] == '</details><h2 id="grenzen">Grenzen</h2><p>danach</p>'
    assert "eins" in folded[start:end] and "Unter" in folded[start:end]
    assert "headerlink" not in folded  # a link inside the summary would be a control inside a control
    assert discoveries.fold("<p>ohne</p>", "x") == "<p>ohne</p>"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_concept_page_folds_its_discoveries_and_asks_before_it_explains(slug):
    html = built(slug)
    assert html.count('<details class="pl-discover"') == 1, slug
    folded = html[html.index('<details class="pl-discover"'):]
    assert re.match(r'<details class="pl-discover" data-lesson="[^"]+"><summary><h2 id="[^"]+">' + FINDINGS, folded)
    # the question stands before every section of prose; only the section that holds the experiment may
    # come first (tests/browser/test_pages.py checks that both fit a laptop's first screen)
    article = html[html.index("<article"):]
    before = re.findall(r'<h2 id="([^"]+)"', article[:article.index('class="pl-lesson pl-predict"')])
    assert before in ([], ["probiere-es-aus"]), f"{slug}: Abschnitte vor der Frage: {before}"
