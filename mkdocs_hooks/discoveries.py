"""MkDocs hook: „Was du entdeckst“ waits until the reader has guessed or tried.

The section names what the experiment shows, so on a concept page it arrives folded: its heading
becomes the summary of a <details> that holds the section up to the next heading of its level. The
lesson script (static/js/classroom/lesson.js) opens it once the guess is committed or a task solved;
the reader, a teacher in presentation mode or a screen reader opens it like any <details>, the
browser's find in page opens it too, and print.css prints it open. Without a lesson (or a script) it
is simply a section one click away.
"""

from __future__ import annotations

import re

from probierlabor.pageblocks.glossary import FINDINGS

# python-markdown's toc writes the heading's id from its text; the section ends at the next h1 or h2
HEADING = re.compile(r'<h2 id="(?P<id>[^"]+)">(?P<title>' + re.escape(FINDINGS) + r')(?P<rest>.*?)</h2>', re.S)
NEXT = re.compile(r"<h[12][\s>]")
NOTE = "Erst vermuten und ausprobieren, dann aufklappen."


def fold(html: str, slug: str) -> str:
    """The section „Was du entdeckst“ of ``html`` as a folded <details> (unchanged if there is none)."""
    found = HEADING.search(html)
    if not found:
        return html
    after = NEXT.search(html, found.end())
    end = after.start() if after else len(html)
    # no permalink inside: a link in a summary is a control inside a control (axe: nested-interactive)
    rest = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", found["rest"], flags=re.S)
    summary = (f'<h2 id="{found["id"]}">{found["title"]}{rest}</h2>'
               f'<span class="pl-discover-note">{NOTE}</span>')
    return (f'{html[:found.start()]}<details class="pl-discover" data-lesson="{slug}">'
            f'<summary>{summary}</summary>{html[found.end():end]}</details>{html[end:]}')


def on_page_content(html, page, **_):
    concepts = page.meta.get("concepts") or []  # the experiments the page embeds (macros.py)
    return fold(html, concepts[0]) if concepts else html
