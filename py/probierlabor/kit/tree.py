"""Shared pieces of the decoding pages (greedy decoding, beam search, top-k, top-p).

* ``Tree``: a left-to-right token tree as SVG (start → first token → second token) with
  CSS classes only, used by greedy-decoding and beam-search;

Their exact numbers (0,51; 4/9 ≈ 0,444) come from kit/fmt.py like every other number.

Colours come from static/css/probierlabor.css (block „decode“), never from here.
"""

from __future__ import annotations

import math
from html import escape


# -- a token tree -----------------------------------------------------------------------

class Tree:
    """Start on the left, one column per step. Nodes are placed by the caller (column, row)."""

    def __init__(self, width: int, height: int, columns: list[float], label: str):
        self.w, self.h = width, height
        self.columns = columns
        self.label = label
        self.edges: list[str] = []
        self.nodes: list[str] = []
        self.texts: list[str] = []

    def edge(self, a: tuple[float, float], b: tuple[float, float], cls: str, text: str = "",
             text_cls: str = "pl-tree-prob", at: float = 0.62, r: float = 15):
        (x1, y1), (x2, y2) = a, b
        length = math.hypot(x2 - x1, y2 - y1) or 1
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        self.edges.append(f'<line class="pl-tree-edge {cls}" x1="{x1 + ux * r:.1f}" y1="{y1 + uy * r:.1f}" '
                          f'x2="{x2 - ux * r:.1f}" y2="{y2 - uy * r:.1f}"/>')
        if text:
            tx, ty = x1 + (x2 - x1) * at, y1 + (y2 - y1) * at
            # above a rising line, below a falling one: the label never sits on its own line
            dy = -6 if y2 <= y1 else 14
            if abs(y2 - y1) < 4:
                dy = -6
            self.texts.append(f'<text class="{text_cls}" x="{tx:.1f}" y="{ty + dy:.1f}" '
                              f'text-anchor="middle">{escape(text)}</text>')

    def node(self, x: float, y: float, token: str, cls: str, title: str = "", r: float = 15, square=False):
        inner = f"<title>{escape(title)}</title>" if title else ""
        if square:
            shape = (f'<rect class="pl-tree-node {cls}" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" '
                     f'height="{2 * r}" rx="3">{inner}</rect>')
        else:
            shape = f'<circle class="pl-tree-node {cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r}">{inner}</circle>'
        size = "" if len(token) <= 2 else ' font-size="10"'
        text_cls = " ".join(f"{c}-t" for c in cls.split() if c != "pl-tree-n")
        self.nodes.append(shape + f'<text class="pl-tree-token {text_cls}" x="{x:.1f}" y="{y + 4.5:.1f}" '
                                  f'text-anchor="middle"{size}>{escape(token)}</text>')

    def text(self, x: float, y: float, text: str, cls: str = "pl-tree-label", anchor: str = "start"):
        self.texts.append(f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">'
                          f"{escape(text)}</text>")

    def raw(self, markup: str):
        self.texts.append(markup)

    def legend(self, y: float, entries: list[tuple[str, str]], x0: float = 8, per_row: int = 3, col: float = 158):
        for i, (cls, text) in enumerate(entries):
            x = x0 + (i % per_row) * col
            yy = y + 18 * (i // per_row)
            if cls.startswith("node:"):
                self.texts.append(f'<circle class="pl-tree-node {cls[5:]}" cx="{x + 11}" cy="{yy}" r="6"/>')
            else:
                self.texts.append(f'<line class="pl-tree-edge {cls}" x1="{x}" y1="{yy}" x2="{x + 22}" y2="{yy}"/>')
            self.texts.append(f'<text class="pl-legend" x="{x + 28}" y="{yy + 4}">{escape(text)}</text>')

    def render(self) -> str:
        return (f'<svg class="pl-plot pl-tree" viewBox="0 0 {self.w} {self.h}" role="img" '
                f'aria-label="{escape(self.label)}" xmlns="http://www.w3.org/2000/svg">'
                + "".join(self.edges) + "".join(self.nodes) + "".join(self.texts) + "</svg>")


def swatch_legend(entries: list[tuple[str, str]], x: float, y: float, width: float) -> str:
    """A legend box with filled swatches (for bars; ``svg.Plot.legend`` draws line swatches)."""
    rows = [f'<rect class="pl-legend-bg" x="{x - 6:.0f}" y="{y - 4:.0f}" width="{width:.0f}" '
            f'height="{len(entries) * 18 + 6}" rx="4"/>']
    for i, (cls, text) in enumerate(entries):
        yy = y + 18 * i
        rows.append(f'<rect class="{cls}" x="{x:.0f}" y="{yy:.0f}" width="16" height="11"/>')
        rows.append(f'<text class="pl-legend" x="{x + 22:.0f}" y="{yy + 10:.0f}">{escape(text)}</text>')
    return "".join(rows)


# -- tables ----------------------------------------------------------------------------

def table(head: list[str], rows: list, caption: str = "", row_classes: list[str] | None = None) -> str:
    """A small escaped HTML table (class pl-dec-table); a row given as a string is a section heading."""
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = []
    for i, row in enumerate(rows):
        if isinstance(row, str):  # a section heading across the table
            body.append(f'<tr class="pl-dec-section"><th colspan="{len(head)}" scope="rowgroup">{escape(row)}</th></tr>')
            continue
        cls = f' class="{row_classes[i]}"' if row_classes and row_classes[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>")
    return (f'<div class="pl-dec-scroll"><table class="pl-dec-table">{cap}<thead><tr>{th}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')
