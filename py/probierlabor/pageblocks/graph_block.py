"""Markdown for a page's "Vorher lesen" line and "Siehe auch" section, from concepts/graph.py.

The links are relative Markdown links (``decode.md``), named by each concept module's TITLE, so
MkDocs checks them in strict mode like any hand-written link.
"""

from __future__ import annotations

from ..concepts import graph
from ..kit import api
from . import glossary


def link(slug: str) -> str:
    return f"[{api.concept(slug).TITLE}]({slug}.md)"


def _german_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " und " + items[-1]


def read_first(slug: str) -> str:
    """One short line, or "" for a page that needs nothing before it."""
    before = graph.READ_FIRST[slug]
    if not before:
        return ""
    return f"**Vorher lesen:** {_german_list([link(s) for s in before])}."


def see_also(slug: str) -> str:
    lines = ["## Siehe auch", ""]
    lines += [f"- {link(other)} – {reason}" for other, reason in graph.SEE_ALSO[slug]]
    terms = graph.TERMS[slug]
    if terms:
        label = "Verwandter Begriff ohne eigene Seite" if len(terms) == 1 else "Verwandte Begriffe ohne eigene Seite"
        # One line per term: a run of terms with their reasons would make one sentence of 40 words and more.
        lines.append(f"- {label}:")
        lines += [f"    - *{glossary.link(term)}*" + (f" – {why}" if why else "") for term, why in terms]
    return "\n".join(lines)
