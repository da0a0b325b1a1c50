"""The width a figure is drawn for: ``wide`` (a desktop column, a projector) or ``narrow`` (a phone).

A figure drawn for a desktop column and scaled down to a phone's width shrinks its labels below
legibility. So the page reports which of the two widths its experiment has (the CSS decides, with the
rules the build writes from the numbers below into static/css/layout.css, mkdocs_hooks/stylesheets.py;
static/js/experiment/fit.js reads it and mount.js passes it on), and a concept whose
``view`` takes a ``layout`` lays the same numbers out for it: panels one under the other instead of
side by side, fewer ticks on a dense axis, no text smaller than 12 px. The layout is not part of the
experiment's state: it never reaches the URL, and a shared link shows the same numbers on any screen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

WIDE, NARROW = "wide", "narrow"
LAYOUTS = (WIDE, NARROW)

# An experiment with less content width than this (CSS pixels) is narrow: a phone. The experiment's own
# width decides, not the window's, so a side of the A/B comparison on a desktop stays wide.
NARROW_BELOW = 400

# A narrow figure's width in its own pixels: about what a 390-pixel phone leaves for it (332 px), so
# that 12-pixel text stays above 11 px on screen and 13-pixel values above 12 px; a smaller phone
# (360 px) still lets it scroll sideways in its region rather than shrink below that.
NARROW_WIDTH = 340

# The smallest font size of a narrow figure (ticks, legends, small notes) in its own pixels; the CSS
# raises a concept's smaller print to it (var(--pl-narrow-min-font) beside the concept's module).
NARROW_MIN_FONT = 12

# No text of a figure below this many CSS pixels on screen: on a phone a figure stops shrinking where its
# smallest label would get there and scrolls sideways instead (static/js/experiment/ reads it as
# --pl-min-label).
MIN_LABEL_PX = 11


# The window widths (CSS em/rem) where the page's own blocks rearrange, apart from the figure's narrow
# layout above. A media query cannot read a custom property, so the hand-written stylesheets spell
# them out; tests/hooks/test_stylesheets.py holds every query in static/css and beside the concepts to this
# table, so a new breakpoint is named here first.
PAGE_BREAKPOINTS = {
    "(max-width: 40em)": "a phone: side-by-side figures, control grids and replay rows stack",
    "(max-width: 36em)": "the kernel replay's rows put their values under the name",
    "(max-width: 44.9375em)": "mkdocs-material's own header breakpoint (offline chip, present button)",
    "(min-width: 40rem)": "presentation mode puts the controls beside the figure (container query)",
}


def check(layout: str) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"Unbekannte Breite „{layout}“ für eine Abbildung; möglich sind {' und '.join(LAYOUTS)}.")
    return layout


def width(wide: float, layout: str) -> float:
    """The figure's width: its own on a wide screen, at most ``NARROW_WIDTH`` on a narrow one."""
    return wide if layout == WIDE else min(wide, NARROW_WIDTH)


def fewer_ticks(ticks: Sequence[float], layout: str, span_px: float, least_px: float = 40) -> list[float]:
    """A dense axis on a narrow figure: every second (third, …) tick, so that neighbours stand at least
    ``least_px`` apart along the ``span_px`` that the ticks cover; the zero stays if there is one, else
    the first. A wide figure keeps them all."""
    ticks = list(ticks)
    if layout == WIDE or len(ticks) < 3:
        return ticks
    gap = span_px / (len(ticks) - 1)
    every = max(1, math.ceil(least_px / gap)) if gap > 0 else 1
    return ticks[ticks.index(0) % every if 0 in ticks else 0::every]
