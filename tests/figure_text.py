"""Where a figure's texts stand, for tests that keep labels apart.

A text's box is estimated, not measured: its width from the font size and the number of characters
(kit/svg.py ``text_width``, the estimate the figures place their labels with), 0,75 of the size above
the baseline and 0,25 below. The font sizes come from the page's CSS, so a test checks the sizes the
reader sees, not a copy of them."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from probierlabor.kit.layout import NARROW_MIN_FONT
from probierlabor.kit.svg import text_width

ROOT = Path(__file__).parents[1]
# the shared rules and each concept's own (mkdocs_hooks/stylesheets.py links a concept's beside its module)
CSS = [ROOT / "static/css/probierlabor.css", *sorted((ROOT / "py/probierlabor/concepts").glob("*.css"))]
NS = "{http://www.w3.org/2000/svg}"
# classes every figure's texts may carry; a figure's own classes (the prefix) say more where they set a size
BASE = ("pl-label", "pl-legend", "pl-tick", "pl-axis")


def font_sizes(prefix: str, layout: str = "wide") -> dict:
    """The font size (px) of each class that starts with ``prefix``, and of the base classes, as the CSS
    sets them for ``layout``: a narrow figure's own rules (``[data-layout="narrow"]``) win there."""
    css = re.sub(r"/\*.*?\*/", "", "\n".join(path.read_text() for path in CSS), flags=re.S)
    css = css.replace("var(--pl-narrow-min-font)", f"{NARROW_MIN_FONT}px")  # layout.css, from kit/layout.py
    sizes, narrow = {}, {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        size = re.search(r"font-size:\s*([\d.]+)px", body)
        if not size:
            continue
        into = narrow if 'data-layout="narrow"' in selector else sizes
        for cls in re.findall(r"\.([\w-]+)", selector):
            if cls.startswith(prefix) or cls in BASE:
                into.setdefault(cls, float(size.group(1)))
    return sizes | narrow if layout == "narrow" else sizes


def text_boxes(figure: str, sizes: dict) -> list[tuple[str, tuple[float, float, float, float], str]]:
    """(text, (left, top, right, bottom), classes) of every text in the figure but a turned one; the size
    of a text is that of its own prefixed class where it has one, else that of a base class."""
    out = []
    for t in ET.fromstring(figure).iter(NS + "text"):
        if t.get("x") is None:  # a turned axis title (placed by a transform) stands apart from the figure
            continue
        classes = t.get("class").split()
        own = [sizes[c] for c in classes if c in sizes and c not in BASE]
        size = float(t.get("font-size") or max(own or [sizes.get(c, 0) for c in classes]))
        assert size, t.get("class")
        w, x, y = text_width(t.text, size), float(t.get("x")), float(t.get("y"))
        left = {"start": x, "end": x - w, "middle": x - w / 2}[t.get("text-anchor")]
        out.append((t.text, (left, y - 0.75 * size, left + w, y + 0.25 * size), t.get("class")))
    return out


def gap(a, b) -> float:
    """How far apart two boxes are (the larger of the horizontal and vertical distance); below 0 they overlap."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
