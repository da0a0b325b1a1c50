"""The map of the concepts (probierlabor/concepts/graph.py): complete, honest and really on the pages."""

import re
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.concepts import graph
from probierlabor.kit import api
from probierlabor.pageblocks import glossary, graph_block

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"


def _key(name: str) -> str:
    return re.sub(r"[\s\-]", "", name).casefold()


def test_graph_covers_exactly_the_concepts_with_a_page():
    for table in (graph.READ_FIRST, graph.SEE_ALSO, graph.TERMS):
        assert set(table) == set(SLUGS)
    for slug in SLUGS:
        assert set(graph.READ_FIRST[slug]) <= set(SLUGS)
        assert {other for other, _ in graph.SEE_ALSO[slug]} <= set(SLUGS)
        assert slug not in graph.READ_FIRST[slug]
        assert slug not in {other for other, _ in graph.SEE_ALSO[slug]}


def test_every_related_concept_has_a_reason_and_appears_once():
    for slug, related in graph.SEE_ALSO.items():
        others = [other for other, _ in related]
        assert len(others) == len(set(others)), slug
        assert related, f"{slug}: keine Seite unter „Siehe auch“"
        for other, reason in related:
            assert reason.strip() and reason.endswith("."), (slug, other)


def test_every_page_that_uses_a_foundation_idea_links_to_its_page():
    # attention, softmax and „Token“ are used on many pages: each such page links to the page that explains it
    assert set(graph.USES) == {s for s in SLUGS if api.concept(s).GROUP == "Grundlagen"}
    for foundation, words in graph.USES.items():
        for slug in SLUGS:
            text = (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8")
            if slug != foundation and re.search(words, text):
                linked = set(graph.READ_FIRST[slug]) | {other for other, _ in graph.SEE_ALSO[slug]}
                assert foundation in linked, f"{slug} spricht von {re.search(words, text).group()}, " \
                                             f"verlinkt aber {foundation} nicht"


def test_no_term_without_a_page_has_a_page():
    names = {}
    for slug in SLUGS:
        title = api.concept(slug).TITLE
        names[_key(slug)] = slug
        names[_key(title)] = slug
        # "Elastic Weight Consolidation (EWC)": the name and the short form alone count too.
        match = re.fullmatch(r"(.+?)\s*\((.+)\)", title)
        if match:
            names[_key(match.group(1))] = slug
            names[_key(match.group(2))] = slug
    for slug, terms in graph.TERMS.items():
        for term, _ in terms:
            assert _key(term) not in names, f"{slug}: „{term}“ hat eine eigene Seite ({names.get(_key(term))})"


def test_every_page_has_at_least_two_incoming_links():
    for slug in SLUGS:
        assert len(graph.incoming(slug)) >= 2, (slug, graph.incoming(slug))


def test_prerequisites_have_no_cycle():
    done, active = set(), []

    def visit(slug):
        assert slug not in active, " → ".join([*active, slug])
        if slug in done:
            return
        active.append(slug)
        for before in graph.READ_FIRST[slug]:
            visit(before)
        active.pop()
        done.add(slug)

    for slug in SLUGS:
        visit(slug)


def test_nav_order_follows_the_named_prerequisites():
    assert SLUGS.index("mqa") < SLUGS.index("gqa")
    assert SLUGS.index("prefill") < SLUGS.index("decode") < SLUGS.index("kv-cache")
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert nav.index("mqa.md") < nav.index("gqa.md")
    assert nav.index("prefill.md") < nav.index("decode.md") < nav.index("kv-cache.md")


def test_learning_paths_follow_the_graph():
    assert 2 <= len(graph.PATHS) <= 4
    assert graph.PATHS[0][2] == tuple(s for s in SLUGS if api.concept(s).GROUP == "Grundlagen")  # first, all six
    for title, description, slugs in graph.PATHS:
        assert title and description and len(slugs) >= 3
        assert set(slugs) <= set(SLUGS)
        # What a step says to read first is an earlier step of the same path.
        for i, slug in enumerate(slugs):
            assert set(graph.READ_FIRST[slug]) <= set(slugs[:i]), (title, slug)


def test_start_page_offers_the_learning_paths():
    page = SITE / "index.html"
    if not page.exists():
        pytest.skip("site/ fehlt: erst `make site`")
    html = page.read_text(encoding="utf-8")
    paths = html.split('<div class="pl-paths">', 1)[1].split("</div>", 1)[0].split('<section class="pl-path"')[1:]
    assert len(paths) == len(graph.PATHS)
    for section, (title, description, slugs) in zip(paths, graph.PATHS):
        assert section.startswith(f' data-path="{title}">')  # static/js/classroom/paths.js follows the path by its title
        assert f"<h3>{title}</h3>" in section and description in section
        assert re.findall(r'<li data-step="([a-z0-9-]+)"><a href="\1/" data-path="([^"]+)">', section) == [
            (slug, title) for slug in slugs]


@pytest.mark.parametrize("slug", SLUGS)
def test_page_takes_both_sections_from_the_graph(slug):
    text = (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8")
    assert f'{{{{ read_first("{slug}") }}}}' in text
    assert text.rstrip().endswith(f'{{{{ see_also("{slug}") }}}}')
    assert "## Siehe auch" not in text and "ohne eigene Seite" not in text
    rendered = graph_block.see_also(slug)
    for other, _ in graph.SEE_ALSO[slug]:
        assert f"[{api.concept(other).TITLE}]({other}.md)" in rendered
    first = graph_block.read_first(slug)
    assert bool(first) == bool(graph.READ_FIRST[slug])
    for before in graph.READ_FIRST[slug]:
        assert f"({before}.md)" in first


def _links(html: str) -> list[str]:
    return re.findall(r'href="\.\./([a-z0-9-]+)/"', html)


@pytest.mark.parametrize("slug", SLUGS)
def test_built_page_contains_the_generated_links(slug):
    page = SITE / slug / "index.html"
    if not page.exists():
        pytest.skip("site/ fehlt: erst `make site`")
    html = page.read_text(encoding="utf-8")
    section = html.split('<h2 id="siehe-auch">', 1)[1].split("</ul>", 1)[0]
    assert _links(section) == [other for other, _ in graph.SEE_ALSO[slug]]
    for term, _ in graph.TERMS[slug]:
        # A term without a page links to its glossary entry.
        assert f'<em><a href="../glossar/#{glossary.by_term()[term].anchor}">{term}</a></em>' in section
    if graph.READ_FIRST[slug]:
        line = html.split("<strong>Vorher lesen:</strong>", 1)[1].split("</p>", 1)[0]
        assert _links(line) == list(graph.READ_FIRST[slug])
    else:
        assert "Vorher lesen" not in html
