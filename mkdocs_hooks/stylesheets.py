"""MkDocs hook: the stylesheets the build writes.

- ``static/css/layout.css``: the narrow layout's rules with kit/layout.py's numbers (the width below which
  an experiment is narrow, the smallest print of a narrow figure, the smallest label on screen). A media or
  container query cannot read a custom property, so the rule is written here rather than in static/css.
The file is part of the built site like any other, so the service worker's list (offline.py) and the
Content-Security-Policy (style-src 'self', csp.py) cover it without a word here.
"""

from __future__ import annotations

from mkdocs.structure.files import File

from probierlabor.kit import layout

LAYOUT_CSS = "static/css/layout.css"


def layout_stylesheet() -> str:
    # max-width includes its bound: 0,02 px under it, an experiment exactly NARROW_BELOW wide stays wide
    return f"""/* Written by the build (mkdocs_hooks/stylesheets.py) from py/probierlabor/kit/layout.py: change the numbers there. */
:root {{ --pl-narrow-min-font: {layout.NARROW_MIN_FONT}px; --pl-min-label: {layout.MIN_LABEL_PX}px; }}
/* Before Python runs, the build's two versions of the default figure (data-pl-layout on their wrappers)
   are chosen here; after it, probierlabor.js reads --pl-layout and Python draws for it. */
.pl-experiment {{ container-type: inline-size; }}
.pl-stage {{ --pl-layout: {layout.WIDE}; }}
[data-pl-layout="{layout.NARROW}"] {{ display: none; }}
@container (max-width: {layout.NARROW_BELOW - 0.02:g}px) {{
  .pl-stage {{ --pl-layout: {layout.NARROW}; }}
  [data-pl-layout="{layout.WIDE}"] {{ display: none; }}
  [data-pl-layout="{layout.NARROW}"] {{ display: block; }}
}}
"""


def on_files(files, config):
    files.append(File.generated(config, LAYOUT_CSS, content=layout_stylesheet()))
    return files

