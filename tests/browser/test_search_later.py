"""The theme's search index is built in a Web Worker; static/js/runtime/search-later.js starts that worker only
when the reader goes to the search box or once Python is ready, so that it does not compete with the
WebAssembly compile on a 2-core machine. Search must work either way."""

from __future__ import annotations

import re

from conftest import Gate

SEARCH_WORKER = re.compile(r"/assets/javascripts/workers/search\.[^/]*\.js$")


def search_finds(page, term: str, title: str) -> None:
    field = page.locator(".md-search__input").first
    field.click()
    for _ in range(30):  # a query typed while the index is still being built finds nothing: type again
        field.fill("")
        field.press_sequentially(term)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=1500)
            break
        except Exception:
            continue
    assert title in page.inner_text(".md-search-result")


def test_the_search_worker_waits_for_python_and_starts_when_the_reader_searches(visit):
    gate = Gate()  # Python held back: without the reader, nothing would start the search worker
    v = visit("/overfitting/", routes=[("**/static/py/boot.py", gate)])
    v.page.wait_for_load_state("load")
    v.page.wait_for_timeout(1500)
    assert not [u for u in v.requests if SEARCH_WORKER.search(u)], "the search worker started before Python"
    search_finds(v.page, "Fisher", "EWC")
    assert [u for u in v.requests if SEARCH_WORKER.search(u)]
    gate.release()
    assert v.foreign_requests() == [] and v.console_errors() == []


# The page's 15 s fallback timer (runtime/search-later.js) never fires: what starts the
# worker must be Python being ready, also on a slow machine where that takes longer than 15 s.
NO_FALLBACK = """(() => { const later = window.setTimeout;
  window.setTimeout = (fn, ms, ...rest) => (ms === 15000 ? 0 : later(fn, ms, ...rest)); })();"""


def test_the_search_worker_starts_by_itself_once_python_is_ready(visit):
    v = visit("/ewc/", init_script=NO_FALLBACK)
    v.wait_state()
    v.page.wait_for_function("""() => performance.getEntriesByType('resource')
        .some((e) => /workers\\/search\\.[^/]*\\.js$/.test(e.name))""", timeout=20_000)
    search_finds(v.page, "Beam", "Beam Search")
    assert v.foreign_requests() == [] and v.console_errors() == []
