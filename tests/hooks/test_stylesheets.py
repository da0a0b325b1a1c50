"""mkdocs_hooks/stylesheets.py: the layout's numbers live in kit/layout.py alone, and each concept's own
rules in a stylesheet beside its module that only its page links."""

from __future__ import annotations

import functools
import importlib.util
import re
import types
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api, layout

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("stylesheets_hook", ROOT / "mkdocs_hooks" / "stylesheets.py")
stylesheets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stylesheets)

# every stylesheet and script the repository writes by hand
SOURCES = [*sorted((ROOT / "static/css").glob("*.css")), *sorted(stylesheets.CONCEPTS.glob("*.css")),
           *sorted((ROOT / "static/js").glob("*.js"))]


def _code(path: Path) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)


def test_the_layout_stylesheet_carries_the_numbers_of_kit_layout():
    css = stylesheets.layout_stylesheet()
    assert "@container (max-width: 399.98px)" in css
    assert "--pl-narrow-min-font: 12px" in css and "--pl-min-label: 11px" in css


def test_changing_kit_layout_alone_changes_the_built_rules(monkeypatch):
    monkeypatch.setattr(layout, "NARROW_BELOW", 480)
    monkeypatch.setattr(layout, "NARROW_MIN_FONT", 13)
    monkeypatch.setattr(layout, "MIN_LABEL_PX", 10)
    css = stylesheets.layout_stylesheet()
    assert "@container (max-width: 479.98px)" in css
    assert "--pl-narrow-min-font: 13px" in css and "--pl-min-label: 10px" in css


def test_no_copy_of_the_layout_numbers_is_left_in_the_hand_written_files():
    for path in SOURCES:
        code = _code(path)
        # the narrow layout's query is in CSS pixels (present.css's own query, in rem, is another matter)
        assert not re.search(r"@container[^{]*px", code), f"{path.name}: the narrow breakpoint belongs to kit/layout.py"
        for selector, body in re.findall(r"([^{}]*data-layout=\"narrow\"[^{}]*)\{([^{}]*)\}", code):
            assert not re.search(r"font-size:\s*[\d.]+px", body), f"{path.name}: {selector.strip()}"
    script = _code(ROOT / "static/js/experiment/fit.js")
    assert "--pl-min-label" in script and not re.search(r"MIN_LABEL\w*\s*=\s*\d", script)


def test_every_width_query_in_the_hand_written_stylesheets_is_named_in_kit_layout():
    found = set()
    for path in SOURCES:
        if path.suffix != ".css":
            continue
        for query in re.findall(r"@(?:media|container)\b([^{]*)\{", _code(path)):
            for width_query in re.findall(r"\((?:max|min)-width:[^)]*\)", query):
                found.add(width_query)
                assert width_query in layout.PAGE_BREAKPOINTS, f"{path.name}: {width_query} is not in kit/layout.py"
    assert found == set(layout.PAGE_BREAKPOINTS), "kit/layout.py names a breakpoint that no stylesheet uses"

def test_the_build_writes_the_layout_and_only_a_concepts_page_carries_its_rules(tmp_path):
    config = types.SimpleNamespace(site_dir=str(tmp_path), use_directory_urls=True,
                                   plugins=types.SimpleNamespace(_current_plugin=None))
    files = {f.dest_uri: f for f in stylesheets.on_files([], config)}
    assert files[stylesheets.LAYOUT_CSS].content_string == stylesheets.layout_stylesheet()
    sheets = stylesheets.concept_stylesheets()
    # a stylesheet beside a module that is no concept would be carried by no page
    assert sheets and set(sheets) <= set(SLUGS)
    for slug in ("gqa", "greedy-decoding"):
        page = types.SimpleNamespace(meta={stylesheets.META_KEY: [slug]})
        styles = stylesheets.on_page_context({}, page, config, None)["concept_styles"]
        assert styles == ([(slug, sheets[slug].read_text(encoding="utf-8"))] if slug in sheets else [])
    start = stylesheets.on_page_context({}, types.SimpleNamespace(meta={}), config, None)
    assert start["concept_styles"] == []


@functools.cache
def _markup(slug: str) -> str:
    out = api.run(slug, {})
    return out["figure"] + (out.get("extra") or "")


@pytest.mark.parametrize("slug", sorted(stylesheets.concept_stylesheets()))
def test_a_concepts_stylesheet_styles_no_class_of_another_concepts_figure(slug):
    """Another concept's page does not load this sheet: a class of its figure styled here would stay bare there."""
    mine = set(re.findall(r"\.(pl-[\w-]+)", _code(stylesheets.concept_stylesheets()[slug])))
    shared = {"pl-plot", "pl-label", "pl-legend", "pl-tick", "pl-axis", "pl-table", "pl-faint", "pl-value"}
    for other in SLUGS:
        if other != slug:
            carried = set(re.findall(r'class="([^"]*)"', _markup(other)))
            strangers = {cls for cls in mine - shared if any(cls in classes.split() for classes in carried)}
            assert not strangers, f"{slug}.css styles {sorted(strangers)}, which {other}'s figure carries"
