"""The decoding tree of greedy decoding and beam search: a left-to-right token tree as SVG (start → first
token → second token), with CSS classes only.

Its numbers (0,51; 4/9 ≈ 0,444) come from kit/fmt.py like every other number; its colours from
static/css/probierlabor.css (block „decode“), never from here.
"""

from __future__ import annotations

import math
from html import escape

from . import svg
from .layout import NARROW, NARROW_MIN_FONT, WIDE

PROB_SIZE = 12  # the chances on the edges (pl-tree-prob in probierlabor.css)


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
        self.pending: list[tuple] = []  # edge labels that keep clear of the nodes, placed by render
        self.taken: list[tuple[float, float, float, float]] = []  # the nodes' boxes

    def edge(self, a: tuple[float, float], b: tuple[float, float], cls: str, text: str = "",
             text_cls: str = "pl-tree-prob", at: float = 0.62, r: float = 15,
             clear: tuple[float, float] | None = None):
        """A line from node ``a`` to node ``b`` with its label ``at`` the way along. ``clear``, the radii
        of the two nodes, lets ``render`` find the label a place off every node and every other such
        label (where rows stand close, a fixed share of the way runs into them)."""
        (x1, y1), (x2, y2) = a, b
        length = math.hypot(x2 - x1, y2 - y1) or 1
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        self.edges.append(f'<line class="pl-tree-edge {cls}" x1="{x1 + ux * r:.1f}" y1="{y1 + uy * r:.1f}" '
                          f'x2="{x2 - ux * r:.1f}" y2="{y2 - uy * r:.1f}"/>')
        if text and clear:
            self.pending.append((a, b, clear, text, text_cls))
        elif text:
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
        reach = max(r, svg.text_width(token, 13) / 2)  # a long token may stand out of a small node
        self.taken.append((x - reach, y - r, x + reach, y + r))
        text_cls = " ".join(f"{c}-t" for c in cls.split() if c != "pl-tree-n")
        self.nodes.append(shape + f'<text class="pl-tree-token {text_cls}" x="{x:.1f}" y="{y + 4.5:.1f}" '
                                  f'text-anchor="middle"{size}>{escape(token)}</text>')

    def text(self, x: float, y: float, text: str, cls: str = "pl-tree-label", anchor: str = "start"):
        # taken at the size of the largest tree text (pl-tree-label, 13 px): edge labels keep off it
        w = svg.text_width(text, 13)
        left = {"start": x, "end": x - w, "middle": x - w / 2}[anchor]
        self.taken.append((left, y - 13 * 0.75, left + w, y + 13 / 4))
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

    def _place(self, a, b, radii, width: float) -> tuple[float, float]:
        """A place for a label ``width`` wide by the line a → b that is off every node and every label
        placed before: from the middle of the stretch between the two nodes outwards, on the usual side
        of the line (above a rising one, below a falling one), then on the other; else above both
        nodes or below them. A digit reaches about 0,75 of the font size above its baseline and 0,25 below."""
        (x1, y1), (x2, y2) = a, b
        start, end = x1 + radii[0], x2 - radii[1]
        usual = -6 if y2 <= y1 or abs(y2 - y1) < 4 else 14
        # the other side, then further off the line on either (a label's height and a gap at a time)
        above, below = (-6, -20, -34), (14, 28, 42)
        offsets = [dy for pair in zip(above, below) for dy in (pair if usual < 0 else pair[::-1])]
        places = [(start + (end - start) * share, dy) for dy in offsets
                  for share in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9)]
        places = [(x, y1 + (y2 - y1) * (x - x1) / (x2 - x1) + dy) for x, dy in places]
        places += [((start + end) / 2, min(y1, y2) - max(radii) - 2 - PROB_SIZE / 4),
                   ((start + end) / 2, max(y1, y2) + max(radii) + 2 + PROB_SIZE * 0.75)]
        for x, y in places:
            box = (x - width / 2, y - PROB_SIZE * 0.75, x + width / 2, y + PROB_SIZE / 4)
            room = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)
            if not any(_overlap(room, other) for other in self.taken):
                self.taken.append(box)
                return x, y
        return places[0]  # no free place: the label still shows, where it belongs

    def render(self) -> str:
        for a, b, radii, text, cls in self.pending:
            x, y = self._place(a, b, radii, svg.text_width(text, PROB_SIZE))
            self.texts.append(f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="middle">{escape(text)}</text>')
        self.pending = []
        return svg.figure(self.w, self.h, self.edges + self.nodes + self.texts, label=self.label, cls="pl-tree",
                          layout=self.layout)


def _overlap(p, q) -> bool:
    """Do the boxes (left, top, right, bottom) p and q overlap?"""
    return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]
