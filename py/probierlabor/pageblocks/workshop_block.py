"""HTML of a page's „Im Code nachrechnen“ section (kit/workshop.py), rendered after its lesson.

A collapsed ``<details>`` holds the default script as plain text, so print and a reader without
JavaScript see the code; static/js/workshop/workshop.js turns it into an editor when the section opens and
runs it in the tab's Python Web Worker (static/js/runtime/python-worker.js). A page whose concept has no script gets
nothing.

The markup is the contract with workshop.js: ``data-workshop`` names the slug, ``data-workshop-*``
marks the buttons and areas. No inline script or style (the site's Content-Security-Policy).
"""

from __future__ import annotations

from html import escape

from ..kit import workshop

# How long the reader's code may run before static/js/workshop/workshop.js ends its worker: an endless loop
# is stopped with a message, while every script of the site needs well under a second.
LIMIT_S = 20
TITLE = "Im Code nachrechnen"
INTRO = ("Hier rechnet ein kurzes Python-Programm mit numpy und matplotlib das Experiment nach. "
         "Es startet mit den Einstellungen, die das Experiment gerade zeigt. Ändere den Code und "
         "führe ihn aus.")


def has_script(slug: str) -> bool:
    try:
        workshop.template(slug)
    except KeyError:
        return False
    return True


def section(slug: str) -> str:
    if not has_script(slug):
        return ""
    # One line of HTML (Markdown would break blank lines into paragraphs), and no "$" or "\\" left for
    # the formula typesetter (pymdownx.arithmatex) to take as the start of a formula.
    code = escape(workshop.template(slug)).replace("\n", "&#10;").replace("$", "&#36;").replace("\\", "&#92;")
    button = '<button type="button" class="md-button{cls}" data-workshop-{name}{extra}>{label}</button>'
    buttons = "".join(button.format(cls=cls, name=name, extra=extra, label=label) for cls, name, extra, label in (
        (" md-button--primary", "run", "", "Ausführen"),
        ("", "reset", "", "Zurücksetzen"),
        ("", "stop", " disabled", "Abbrechen"),
    ))
    return (
        f'<details class="pl-workshop" data-workshop="{escape(slug)}" data-workshop-limit="{LIMIT_S}" data-search-exclude>'
        f"<summary>{TITLE}</summary>"
        f'<p class="pl-workshop-intro">{escape(INTRO)}</p>'
        f'<pre class="pl-workshop-code" data-workshop-code><code>{code}</code></pre>'
        f'<div class="pl-workshop-editor" data-workshop-editor hidden></div>'
        f'<p class="pl-workshop-actions">{buttons}</p>'
        f'<p class="pl-workshop-status" data-workshop-status role="status" aria-live="polite"></p>'
        f'<pre class="pl-workshop-output" data-workshop-output hidden></pre>'
        f'<div class="pl-workshop-figure" data-workshop-figure></div>'
        f"</details>"
    )
