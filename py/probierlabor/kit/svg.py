"""A small SVG plotting helper: axes, grid, lines, points, legend.

Why not matplotlib: a Python-built SVG string reaches the DOM in about a millisecond in
Pyodide, a matplotlib PNG costs 70–135 ms, and matplotlib adds seconds to start-up.
SVG also stays sharp on a projector and takes its colours from CSS (light, dark, print).
The same string is pre-rendered at build time under CPython and produced live in the
browser, so both look identical.

Elements carry CSS classes (``pl-…``), never colours; see static/css/probierlabor.css.
"""

from __future__ import annotations

import math
import zlib
from html import escape
from typing import Callable, Iterable, Sequence

_LIMIT = 1e4  # coordinates beyond the view are pulled in; the clip path hides the rest


class Plot:
    def __init__(self, width: int, height: int, xlim, ylim, label: str,
                 margin: Sequence[int] = (16, 16, 46, 60)):
        self.w, self.h = width, height
        self.x0, self.x1 = map(float, xlim)
        self.y0, self.y1 = map(float, ylim)
        top, right, bottom, left = margin
        self.left, self.right = left, width - right
        self.top, self.bottom = top, height - bottom
        self.label = label
        self.clip_id = "c%08x" % zlib.crc32(f"{label}{width}{height}".encode())
        self.back: list[str] = []
        self.body: list[str] = []
        self.front: list[str] = []

    # -- coordinates

    def px(self, x: float) -> float:
        return self.left + (x - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def py(self, y: float) -> float:
        return self.bottom - (y - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)

    # -- elements

    def grid(self, xticks: Iterable[float], yticks: Iterable[float], xlabel: str, ylabel: str,
             xfmt: Callable = lambda v: f"{v:g}", yfmt: Callable = lambda v: f"{v:g}".replace("-", "−")):
        out = self.back
        for v in xticks:
            x = self.px(v)
            out.append(f'<line class="pl-grid" x1="{x:.1f}" y1="{self.top}" x2="{x:.1f}" y2="{self.bottom}"/>')
            out.append(f'<text class="pl-tick" x="{x:.1f}" y="{self.bottom + 18}" text-anchor="middle">'
                       f"{escape(xfmt(v))}</text>")
        for v in yticks:
            y = self.py(v)
            out.append(f'<line class="pl-grid" x1="{self.left}" y1="{y:.1f}" x2="{self.right}" y2="{y:.1f}"/>')
            out.append(f'<text class="pl-tick" x="{self.left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                       f"{escape(yfmt(v))}</text>")
        out.append(f'<rect class="pl-frame" x="{self.left}" y="{self.top}" width="{self.right - self.left}" '
                   f'height="{self.bottom - self.top}"/>')
        out.append(f'<text class="pl-axis" x="{(self.left + self.right) / 2:.1f}" y="{self.h - 6}" '
                   f'text-anchor="middle">{escape(xlabel)}</text>')
        out.append(f'<text class="pl-axis" transform="translate(14 {(self.top + self.bottom) / 2:.1f}) rotate(-90)" '
                   f'text-anchor="middle">{escape(ylabel)}</text>')

    def polyline(self, points: Iterable[tuple[float, float]], cls: str):
        coords = " ".join(f"{self._cx(x):.1f},{self._cy(y):.1f}" for x, y in points)
        self.body.append(f'<polyline class="{cls}" points="{coords}"/>')

    def line(self, x1, y1, x2, y2, cls: str):
        self.body.append(f'<line class="{cls}" x1="{self._cx(x1):.1f}" y1="{self._cy(y1):.1f}" '
                         f'x2="{self._cx(x2):.1f}" y2="{self._cy(y2):.1f}"/>')

    def hline(self, y: float, cls: str):
        self.line(self.x0, y, self.x1, y, cls)

    def point(self, x: float, y: float, r: float, cls: str, attrs: dict | None = None, title: str = ""):
        extra = "".join(f' {k}="{escape(str(v))}"' for k, v in (attrs or {}).items())
        inner = f"<title>{escape(title)}</title>" if title else ""
        self.front.append(f'<circle class="{cls}" cx="{self._cx(x):.1f}" cy="{self._cy(y):.1f}" r="{r}"{extra}>'
                          f"{inner}</circle>")

    def path(self, d: str, cls: str):
        self.body.append(f'<path class="{cls}" d="{d}"/>')

    def text(self, x: float, y: float, text: str, cls: str = "pl-label", anchor: str = "start",
             dy: float = 0, dx: float = 0):
        """Text at a data point, moved by dx/dy pixels (positive dy is downwards)."""
        self.front.append(f'<text class="{cls}" x="{self.px(x) + dx:.1f}" y="{self.py(y) + dy:.1f}" '
                          f'text-anchor="{anchor}">{escape(text)}</text>')

    def legend(self, entries: Sequence[tuple[str, str]], corner: str = "tl"):
        """A legend box inside the plot; ``corner`` is tl, tr, bl or br (put it where no data lie)."""
        width = max(len(t) for _, t in entries) * 6.6 + 44
        height = len(entries) * 18 + 6
        x = self.left + 10 if corner[1] == "l" else self.right - 10 - width + 6
        y = self.top + 8 if corner[0] == "t" else self.bottom - 8 - height + 2
        rows = [f'<rect class="pl-legend-bg" x="{x - 6:.0f}" y="{y - 2}" width="{width:.0f}" height="{height}" rx="4"/>']
        for i, (cls, text) in enumerate(entries):
            yy = y + 10 + 18 * i
            rows.append(f'<line class="{cls}" x1="{x:.0f}" y1="{yy}" x2="{x + 24:.0f}" y2="{yy}"/>')
            rows.append(f'<text class="pl-legend" x="{x + 30:.0f}" y="{yy + 4}">{escape(text)}</text>')
        self.legend_rows = rows

    def render(self) -> str:
        cid = self.clip_id
        legend = "".join(getattr(self, "legend_rows", []))
        # A figure with draggable points is a group of controls, not one picture: role="img" would
        # hide the points (sliders) from screen readers and keyboards.
        role = "group" if any("tabindex=" in part for part in self.front) else "img"
        return (
            f'<svg class="pl-plot" viewBox="0 0 {self.w} {self.h}" role="{role}" aria-label="{escape(self.label)}" '
            f'data-box="{self.left} {self.top} {self.right} {self.bottom}" '
            f'data-xrange="{self.x0:g} {self.x1:g}" data-yrange="{self.y0:g} {self.y1:g}" '
            f'xmlns="http://www.w3.org/2000/svg">'
            f'<defs><clipPath id="{cid}"><rect x="{self.left}" y="{self.top}" '
            f'width="{self.right - self.left}" height="{self.bottom - self.top}"/></clipPath></defs>'
            + "".join(self.back)
            + f'<g clip-path="url(#{cid})">' + "".join(self.body) + "</g>"
            + legend
            + "".join(self.front)
            + "</svg>"
        )

    # -- helpers

    def _cx(self, x: float) -> float:
        return _pull(self.px(x))

    def _cy(self, y: float) -> float:
        return _pull(self.py(y))


def arrow(x1: float, y1: float, x2: float, y2: float, cls: str, head: float = 9.0) -> str:
    """A line with a filled head, in pixel coordinates (for hand-built figures; colours from CSS)."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length < 1e-9:  # a zero vector still shows where it is
        return f'<circle class="{cls}-head" cx="{x2:.1f}" cy="{y2:.1f}" r="3"/>'
    ux, uy = dx / length, dy / length
    size = min(head, length * 0.6)
    bx, by = x2 - ux * size, y2 - uy * size
    left = (bx - uy * size * 0.5, by + ux * size * 0.5)
    right = (bx + uy * size * 0.5, by - ux * size * 0.5)
    return (f'<line class="{cls}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}"/>'
            f'<polygon class="{cls}-head" points="{x2:.1f},{y2:.1f} {left[0]:.1f},{left[1]:.1f} '
            f'{right[0]:.1f},{right[1]:.1f}"/>')


def text(x: float, y: float, content: str, cls: str = "pl-label", anchor: str = "start", extra: str = "") -> str:
    """A text element in pixel coordinates; ``extra`` is raw attribute text."""
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{extra}>'
            f"{escape(content)}</text>")


def _pull(v: float) -> float:
    if not math.isfinite(v):
        return _LIMIT if v > 0 else -_LIMIT
    return max(-_LIMIT, min(_LIMIT, v))
