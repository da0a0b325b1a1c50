"""The site around the experiments: start page map, offline search, nothing from outside."""

import pytest

from probierlabor import SLUGS, api

pytestmark = pytest.mark.browser


def test_start_page_lists_every_concept_and_loads_nothing_from_outside(visit):
    v = visit("/")
    v.page.wait_for_selector(".pl-map")
    hrefs = v.page.eval_on_selector_all(".pl-card", "cards => cards.map(c => c.getAttribute('href'))")
    assert sorted(hrefs) == sorted(f"{slug}/" for slug in SLUGS)
    maps = " ".join(v.page.locator(".pl-map").all_inner_texts())
    for slug in SLUGS:
        assert api.concept(slug).TEASER in maps, slug
    v.page.locator(f'.pl-card[href="{SLUGS[0]}/"]').click()
    v.page.wait_for_selector(f'[data-experiment="{SLUGS[0]}"]')
    v.wait_state()
    assert v.foreign_requests() == [] and v.console_errors() == []


def test_search_works_offline(visit):
    v = visit("/")
    field = v.page.locator(".md-search__input").first
    field.click()
    for _ in range(20):  # the index loads in a worker; a query typed before it is ready finds nothing
        field.fill("")
        field.press_sequentially("Fisher")
        try:
            v.page.wait_for_selector(".md-search-result__item", timeout=1500)
            break
        except Exception:  # noqa: BLE001 - not ready yet: type again
            continue
    assert "EWC" in v.page.inner_text(".md-search-result")
    assert v.foreign_requests() == []
