"""SVG for the figures: ``Plot`` (axes, grid, lines, points, legend) and the blocks of hand-drawn
figures (``figure`` for the root, ``rect``, ``text``, ``arrow``, legend ``key``s).

Why not matplotlib: a Python-built SVG string reaches the DOM in about a millisecond in
Pyodide, a matplotlib PNG costs 70–135 ms, and matplotlib adds seconds to start-up.
SVG also stays sharp on a projector and takes its colours from CSS (light, dark, print).
The same string is pre-rendered at build time under CPython and produced live in the
browser, so both look identical.

Elements carry CSS classes (``pl-…``), never colours; see static/css/probierlabor.css.

A figure can be laid out for a narrow screen (kit/layout.py): ``figure`` marks it, so that the CSS
raises its smallest text to 12 px; ``Plot`` shows fewer ticks on its axes; ``panels`` puts the
panels of a figure side by side on a wide screen and one under the other on a narrow one.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterable, Sequence
from html import escape

from . import fmt
from .layout import NARROW, WIDE, fewer_ticks

_LIMIT = 1e4  # coordinates beyond the view are pulled in; the clip path hides the rest
_CHAR_WIDTH = 6.8  # mean width of a legend character (12 px), for laying out entries side by side
# A character's width in em where a label must keep clear of its neighbours: wider than the mean of
# digits and letters in the site's fonts, so that an estimate errs on the side of room.
_EM_WIDTH = 0.6


class Plot:
    def __init__(self, width: int, height: int, xlim, ylim, label: str,
                 margin: Sequence[int] = (16, 16, 46, 60), layout: str = WIDE):
        self.w, self.h = width, height
        self.layout = layout
        self.x0, self.x1 = map(float, xlim)
        self.y0, self.y1 = map(float, ylim)
        top, right, bottom, left = margin
        self.left, self.right = left, width - right
        self.top, self.bottom = top, height - bottom
        self.label = label
        self.clip_id = "c{:08x}".format(zlib.crc32(f"{label}{width}{height}".encode()))
        self.back: list[str] = []
        self.body: list[str] = []
        self.front: list[str] = []
        self.hits: list[str] = []

    # -- coordinates

    def px(self, x: float) -> float:
        return self.left + (x - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def py(self, y: float) -> float:
        return self.bottom - (y - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)

    # -- elements

    def grid(self, xticks: Iterable[float], yticks: Iterable[float], xlabel: str | tuple[str, str], ylabel: str,
             xfmt: Callable = fmt.tick, yfmt: Callable = fmt.tick):
        """Ticks, grid lines, frame and the axes' names. An ``xlabel`` in two parts is one line on a wide
        figure and two on a narrow one, which then needs 18 px more margin below."""
        out = self.back
        if isinstance(xlabel, tuple):
            if self.layout == NARROW:
                out.append(f'<text class="pl-axis" x="{(self.left + self.right) / 2:.1f}" y="{self.h - 24}" '
                           f'text-anchor="middle">{escape(xlabel[0])}</text>')
                xlabel = xlabel[1]
            else:
                xlabel = " ".join(xlabel)
        xticks, yticks = list(xticks), list(yticks)
        if len(xticks) > 1:
            xticks = fewer_ticks(xticks, self.layout, abs(self.px(xticks[-1]) - self.px(xticks[0])))
        if len(yticks) > 1:  # labels side by side need more room than labels one above the other
            yticks = fewer_ticks(yticks, self.layout, abs(self.py(yticks[-1]) - self.py(yticks[0])), least_px=24)
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
        # px, py and _pull written out: a curve has a hundred points or more and is drawn anew on every
        # slider step and drag move, where the calls cost more than the arithmetic. The same operations
        # in the same order: the same digits as px and py.
        left, x0, xspan, width = self.left, self.x0, self.x1 - self.x0, self.right - self.left
        bottom, y0, yspan, height = self.bottom, self.y0, self.y1 - self.y0, self.bottom - self.top
        coords = []
        for x, y in points:
            cx = left + (x - x0) / xspan * width
            cy = bottom - (y - y0) / yspan * height
            cx = cx if -_LIMIT <= cx <= _LIMIT else _pull(cx)  # NaN fails both tests as well
            cy = cy if -_LIMIT <= cy <= _LIMIT else _pull(cy)
            coords.append(f"{cx:.1f},{cy:.1f}")
        self.body.append(f'<polyline class="{cls}" points="{" ".join(coords)}"/>')

    def line(self, x1, y1, x2, y2, cls: str):
        self.body.append(f'<line class="{cls}" x1="{self._cx(x1):.1f}" y1="{self._cy(y1):.1f}" '
                         f'x2="{self._cx(x2):.1f}" y2="{self._cy(y2):.1f}"/>')

    def hline(self, y: float, cls: str):
        self.line(self.x0, y, self.x1, y, cls)

    def point(self, x: float, y: float, r: float, cls: str, attrs: dict | None = None, title: str = "",
              hit: float = 0):
        """A dot at a data point. A draggable one (``data-drag`` in ``attrs``) may get an invisible larger
        circle of radius ``hit`` that a finger grabs as well; all of them lie under all dots, so that a
        visible dot always wins over a neighbour's hit area."""
        extra = "".join(f' {k}="{escape(str(v))}"' for k, v in (attrs or {}).items())
        inner = f"<title>{escape(title)}</title>" if title else ""
        if hit > r and attrs and "data-drag" in attrs:
            self.hits.append(f'<circle class="pl-drag-hit" cx="{self._cx(x):.1f}" cy="{self._cy(y):.1f}" r="{hit}" '
                             f'data-drag-hit="{escape(str(attrs["data-drag"]))}"/>')
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
        rows += [key(x, y + 14 + 18 * i, cls, text, w=24, gap=6, line=True) for i, (cls, text) in enumerate(entries)]
        self.legend_rows = rows

    def render(self) -> str:
        # A figure with draggable points or bars is a group of controls, not one picture: role="img" would
        # hide the points (sliders) from screen readers and keyboards.
        role = "group" if any("tabindex=" in part for part in self.front + self.body) else "img"
        # data-*: the plot box and ranges, so that dragging in the browser maps pixels back to data
        attrs = {"data-box": f"{self.left} {self.top} {self.right} {self.bottom}",
                 "data-xrange": f"{self.x0:g} {self.x1:g}", "data-yrange": f"{self.y0:g} {self.y1:g}"}
        return figure(self.w, self.h, self.inner(), label=self.label, role=role, attrs=attrs, layout=self.layout)

    def inner(self) -> str:
        """The plot without its ``<svg>`` root: one panel of a larger figure (``panels``)."""
        cid = self.clip_id
        legend = "".join(getattr(self, "legend_rows", []))
        return (f'<defs><clipPath id="{cid}"><rect x="{self.left}" y="{self.top}" '
                f'width="{self.right - self.left}" height="{self.bottom - self.top}"/></clipPath></defs>'
                + "".join(self.back)
                + f'<g clip-path="url(#{cid})">' + "".join(self.body) + "</g>"
                + legend
                + "".join(self.hits)
                + "".join(self.front))

    # -- helpers

    def _cx(self, x: float) -> float:
        return _pull(self.px(x))

    def _cy(self, y: float) -> float:
        return _pull(self.py(y))


def figure(width: float, height: float, body: str | Iterable[str], *, label: str, cls: str = "",
           role: str = "img", attrs: dict | None = None, layout: str = WIDE) -> str:
    """The ``<svg>`` root of every figure: a viewBox in pixels (the figure scales with the page), the
    class pl-plot that the CSS colours hang on, and the accessible name a screen reader says instead
    of the drawing. ``cls`` adds the concept's own class, ``attrs`` further attributes; a figure laid
    out for a narrow screen says so in data-layout (its small text grows to 12 px in the CSS)."""
    names = f"pl-plot {cls}" if cls else "pl-plot"
    content = body if isinstance(body, str) else "".join(body)
    # handles one can tab to (kit/drag.py) make a group of controls: role="img" would hide them
    role = "group" if role == "img" and ' tabindex="' in content else role
    attrs = {**(attrs or {}), **({"data-layout": NARROW} if layout == NARROW else {})}
    extra = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
    return (f'<svg class="{names}" viewBox="0 0 {_size(width)} {_size(height)}" role="{role}" '
            f'aria-label="{escape(label)}"{extra} xmlns="http://www.w3.org/2000/svg">{content}</svg>')


def panels(items: Sequence[tuple[float, float, str]], layout: str, gap: float = 16) -> tuple[float, float, str]:
    """Panels ``(width, height, markup)``, each drawn from its own origin, side by side on a wide
    screen and one under the other on a narrow one (aligned left). Returns the width and height of the
    whole and its markup, for ``figure``."""
    out, offset = [], 0.0
    for w, h, markup in items:
        x, y = (offset, 0) if layout == WIDE else (0, offset)
        out.append(f'<g transform="translate({x:g} {y:g})">{markup}</g>')
        offset += (w if layout == WIDE else h) + gap
    across = offset - gap if items else 0
    if layout == WIDE:
        return across, max((h for _, h, _ in items), default=0), "".join(out)
    return max((w for w, _, _ in items), default=0), across, "".join(out)


def rect(x: float, y: float, w: float, h: float, cls: str, *, rx: float = 0, title: str = "") -> str:
    """A rectangle in pixel coordinates; ``title`` is its tooltip (and what a screen reader may read)."""
    corner = f' rx="{rx:g}"' if rx else ""
    shape = f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}"{corner}'
    return f"{shape}><title>{escape(title)}</title></rect>" if title else shape + "/>"


def key(x: float, y: float, cls: str, label: str, *, w: float = 12, h: float | None = None, rx: float = 0,
        gap: float = 5, line: bool = False, text_cls: str = "pl-legend") -> str:
    """One legend entry: a filled swatch (or a short line, ``line=True``) and its label to the right.
    ``y`` is the label's baseline; the swatch is centred on the middle of the lower-case letters."""
    middle = y - 4
    if line:
        mark = f'<line class="{cls}" x1="{x:.1f}" y1="{middle:.1f}" x2="{x + w:.1f}" y2="{middle:.1f}"/>'
    else:
        h = w if h is None else h
        mark = rect(x, middle - h / 2, w, h, cls, rx=rx)
    return mark + text(x + w + gap, y, label, text_cls)


def key_row(entries: Sequence[tuple[str, str]], x: float, y: float, *, w: float = 14, gap: float = 5,
            space: float = 16, lines: Iterable[str] = ()) -> str:
    """Legend entries side by side from ``x`` on (baseline ``y``), each as wide as its label needs;
    the classes in ``lines`` are drawn as line swatches, the others filled."""
    lines = set(lines)
    out = []
    for cls, label in entries:
        out.append(key(x, y, cls, label, w=w, gap=gap, line=cls in lines))
        x += w + gap + int(len(label) * _CHAR_WIDTH) + space
    return "".join(out)


def swatch_legend(entries: Sequence[tuple[str, str]], x: float, y: float, width: float) -> str:
    """A legend box with filled swatches (for bars; ``Plot.legend`` draws line swatches)."""
    rows = [f'<rect class="pl-legend-bg" x="{x - 6:.0f}" y="{y - 4:.0f}" width="{width:.0f}" '
            f'height="{len(entries) * 18 + 6}" rx="4"/>']
    rows += [key(x, y + 18 * i + 10, cls, label, w=16, h=11, gap=6) for i, (cls, label) in enumerate(entries)]
    return "".join(rows)


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


def text_width(content: str, size: float) -> float:
    """About how wide ``content`` is at font size ``size`` (px): enough to keep two labels apart."""
    return len(content) * size * _EM_WIDTH


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def text_box(x: float, y: float, content: str, size: float, anchor: str = "start", pad: float = 2.0) -> Box:
    """About the box a text with baseline ``y`` takes, ``pad`` wider on every side: room a line keeps clear of.
    Estimated like ``text_width`` (wide rather than narrow), from the ascent of capitals down to a comma's tail."""
    w = text_width(content, size)
    x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    return x0 - pad, y - size - pad, x0 + w + pad, y + 0.3 * size + pad


def vline(x: float, y0: float, y1: float, cls: str, *, avoid: Iterable[Box] = (), width: float = 3.0) -> str:
    """A vertical line from ``y0`` down to ``y1`` that leaves a gap wherever it would cross a box of ``avoid``
    (a line ``width`` wide): a threshold drawn across a figure never runs through its labels."""
    gaps = sorted((b[1], b[3]) for b in avoid if b[0] - width / 2 <= x <= b[2] + width / 2)
    pieces, top = [], y0
    for g0, g1 in gaps:
        if g0 > top:
            pieces.append((top, min(g0, y1)))
        top = max(top, g1)
    pieces.append((top, y1))
    return "".join(f'<line class="{cls}" x1="{x:.1f}" y1="{a:.1f}" x2="{x:.1f}" y2="{b:.1f}"/>'
                   for a, b in pieces if b - a >= 4)  # no dot of a line between two gaps


def _size(v: float) -> str:
    """A viewBox size: whole pixels stay whole (400, not 400.0)."""
    return f"{round(v, 1):g}"


def _pull(v: float) -> float:
    if not math.isfinite(v):
        return _LIMIT if v > 0 else -_LIMIT
    return max(-_LIMIT, min(_LIMIT, v))
