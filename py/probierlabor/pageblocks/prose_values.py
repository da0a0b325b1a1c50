"""Numbers in a page's prose that the experiment can show, so the text and the experiment never disagree.

``{{ value(...) }}`` writes a number of one state of the experiment (a preset, the default, or the
default with some values changed). Where that state is one of the page's presets, the number becomes a
link: a click sets the experiment to that preset (static/js/experiment/prose-values.js), and without a
script the link's query string opens the page in that state.

The macro runs on the page's Markdown, before python-markdown and arithmatex; a link written there
would be escaped inside a formula. So the macro only marks the number with characters of Unicode's
private use area, and ``link`` turns the marks into links once the page is HTML: inside a formula it
drops them, and KaTeX (mkdocs_hooks/math.py) typesets the bare number.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import urlencode

from probierlabor.kit import api

OPEN, SEP, TEXT, CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
MARKED = re.compile(f"{OPEN}([^{SEP}]*){SEP}([0-9]+){TEXT}([^{CLOSE}]*){CLOSE}")
FORMULA = re.compile(r'<(span|div) class="arithmatex">.*?</\1>', re.S)
ANCHOR = "probiere-es-aus"  # the section that holds the experiment (pages/*.md)


def preset_of(slug: str, url: dict) -> int | None:
    """The index of the preset whose state has this query string, or None."""
    for index, preset in enumerate(api.concept(slug).PRESETS):
        if api.preset_url(slug, preset.label) == url:
            return index
    return None


def mark(slug: str, url: dict, text: str) -> str:
    """``text`` as the macro writes it: marked when a preset shows this state."""
    index = preset_of(slug, url)
    return text if index is None else f"{OPEN}{slug}{SEP}{index}{TEXT}{text}{CLOSE}"


def _link(found: re.Match, anchor: str) -> str:
    slug, index, text = found[1], int(found[2]), found[3]
    preset = api.concept(slug).PRESETS[index]
    query = urlencode(api.preset_url(slug, preset.label))
    href = f"?{query}{anchor}" if query else f"./{anchor}"
    return (f'<a class="pl-value" href="{escape(href)}" data-view="{escape(slug)}:{index}" '
            f'title="{escape(f"Im Experiment zeigen: „{preset.label}“")}">{text}</a>')


def link(html: str, embedded: list[str]) -> str:
    """The page's HTML with every marked number of an experiment the page ``embedded`` a link; bare
    inside formulas and where the experiment is another page's."""
    anchor = f"#{ANCHOR}" if f'id="{ANCHOR}"' in html else ""
    bare = FORMULA.sub(lambda m: MARKED.sub(lambda n: n[3], m[0]), html)
    return MARKED.sub(lambda m: _link(m, anchor) if m[1] in embedded else m[3], bare)
