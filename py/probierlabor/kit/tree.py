"""Shared pieces of the decoding pages (greedy decoding, beam search, top-k, top-p).

* ``Tree``: a left-to-right token tree as SVG (start → first token → second token) with
  CSS classes only, used by greedy-decoding and beam-search;

Their exact numbers (0,51; 4/9 ≈ 0,444) come from kit/fmt.py like every other number.

Colours come from static/css/probierlabor.css (block „decode“), never from here.
"""

from __future__ import annotations

import math
from html import escape

from . import svg
from .layout import NARROW, NARROW_MIN_FONT, WIDE


# -- a token tree -----------------------------------------------------------------------

class Tree:
    """Start on the left, one column per step. Nodes are placed by the caller (column, row)."""

    def __init__(self, width: int, height: int, columns: list[float], label: str, layout: str = WIDE):
        self.w, self.h = width, height
        self.layout = layout
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
        # a longer token ("Ende") in a smaller font; a narrow figure keeps it readable on a phone
        size = "" if len(token) <= 2 else f' font-size="{NARROW_MIN_FONT if self.layout == NARROW else 10}"'
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
                self.texts.append(svg.text(x + 28, yy + 4, text, "pl-legend"))
            else:
                self.texts.append(svg.key(x, yy + 4, f"pl-tree-edge {cls}", text, w=22, gap=6, line=True))

    def render(self) -> str:
        return svg.figure(self.w, self.h, self.edges + self.nodes + self.texts, label=self.label, cls="pl-tree",
                          layout=self.layout)
