"""MkDocs hook: a number in the prose that a preset of the page's experiment shows becomes a link to
that preset (probierlabor/pageblocks/prose_values.py says how the macro marks it)."""

from __future__ import annotations

from mkdocs.plugins import event_priority
from probierlabor.pageblocks import prose_values


@event_priority(50)  # before the search plugin indexes the page: it must not keep the marks
def on_page_content(html, page, **_):
    return prose_values.link(html, page.meta.get("concepts") or [])
