"""MkDocs hook: the stylesheets the build writes, and the concept rules a page carries.

- ``static/css/layout.css``: the narrow layout's rules with kit/layout.py's numbers (the width below which
  an experiment is narrow, the smallest print of a narrow figure, the smallest label on screen). A media or
  container query cannot read a custom property, so the rule is written here rather than in static/css.
- A concept's own rules (its figures' classes) live beside its module, py/probierlabor/concepts/<module>.css,
  and go into its page alone (mkdocs_hooks/macros.py notes which concept a page embeds), as a <style> in
  its head after every shared stylesheet; where a shared rule must still win (print.css), the concept's rule
  of the same weight keeps to its medium. In the page, not a file of its own: instant navigation adds a new
  page's head elements only after its content, and a stylesheet loaded then would arrive after the
  experiment was mounted and its figure measured (static/js/experiment/); a <style> applies at
  once.
The Content-Security-Policy allows each such <style> by its hash (csp.py), and the service worker's list
(offline.py) has layout.css like every built file.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File
from probierlabor.kit import layout

ROOT = Path(__file__).resolve().parent.parent
CONCEPTS = ROOT / "py" / "probierlabor" / "concepts"
LAYOUT_CSS = "static/css/layout.css"
META_KEY = "concepts"  # the slugs whose experiments a page embeds (macros.py)


def layout_stylesheet() -> str:
    # max-width includes its bound: 0,02 px under it, an experiment exactly NARROW_BELOW wide stays wide
    return f"""/* Written by the build (mkdocs_hooks/stylesheets.py) from py/probierlabor/kit/layout.py: change the numbers there. */
:root {{ --pl-narrow-min-font: {layout.NARROW_MIN_FONT}px; --pl-min-label: {layout.MIN_LABEL_PX}px; }}
/* Before Python runs, the build's two versions of the default figure (data-pl-layout on their wrappers)
   are chosen here; after it, static/js/experiment/ reads --pl-layout and Python draws for it. */
.pl-experiment {{ container-type: inline-size; }}
.pl-stage {{ --pl-layout: {layout.WIDE}; }}
[data-pl-layout="{layout.NARROW}"] {{ display: none; }}
@container (max-width: {layout.NARROW_BELOW - 0.02:g}px) {{
  .pl-stage {{ --pl-layout: {layout.NARROW}; }}
  [data-pl-layout="{layout.WIDE}"] {{ display: none; }}
  [data-pl-layout="{layout.NARROW}"] {{ display: block; }}
}}
"""


def concept_stylesheets() -> dict[str, Path]:
    """slug → the stylesheet beside its module, for every concept that has one."""
    return {path.stem.replace("_", "-"): path for path in sorted(CONCEPTS.glob("*.css"))}


def on_files(files, config):
    files.append(File.generated(config, LAYOUT_CSS, content=layout_stylesheet()))
    return files


def on_page_context(context, page, config, nav):
    sheets = concept_stylesheets()
    context["concept_styles"] = [(slug, sheets[slug].read_text(encoding="utf-8"))
                                 for slug in page.meta.get(META_KEY, ()) if slug in sheets]
    return context
