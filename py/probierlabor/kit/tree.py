"""Shared pieces of the decoding pages (greedy decoding, beam search, top-k, top-p).

* exact numbers: ``exact`` turns a slider float into the decimal fraction the reader sees,
  ``dec`` prints a fraction as its exact decimal where it has one, ``over_common`` prints
  several fractions over one denominator (4/9, 3/9, 2/9 as in the article, not 4/9, 1/3, 2/9);
* ``Tree``: a left-to-right token tree as SVG (start → first token → second token) with
  CSS classes only, used by greedy-decoding and beam-search;
* ``bar_chart``: grouped bars for the sampling pages.

Colours come from static/css/probierlabor.css (block „decode“), never from here.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from . import fmt, svg


# -- exact numbers --------------------------------------------------------------------

def exact(value) -> Fraction:
    """The decimal a reader typed or a slider sent, as an exact fraction (0.51 → 51/100)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value)))


def dec(x: Fraction, max_digits: int = 6, fallback: int = 3) -> str:
    """German decimal text: exact where the fraction ends within ``max_digits`` (0,306; 0,18; 1),
    otherwise rounded to ``fallback`` digits with a leading „≈“."""
    x = Fraction(x)
    for digits in range(max_digits + 1):
        if (x * 10**digits).denominator == 1:
            return fmt.de(float(x), digits)
    return "≈ " + fmt.de(float(x), fallback)


def frac_text(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def over_common(values) -> list[str]:
    """Fractions written over their least common denominator: [4/9, 1/3, 2/9] → 4/9, 3/9, 2/9."""
    values = [Fraction(v) for v in values]
    if not values:
        return []
    common = 1
    for v in values:
        common = common * v.denominator // math.gcd(common, v.denominator)
    if common == 1:
        return [str(v.numerator) for v in values]
    return [f"{v.numerator * (common // v.denominator)}/{common}" for v in values]


def ln_text(p: Fraction, digits: int = 3) -> str:
    return "−∞" if p == 0 else fmt.de(math.log(p), digits)


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
                self.texts.append(svg.text(x + 28, yy + 4, text, "pl-legend"))
            else:
                self.texts.append(svg.key(x, yy + 4, f"pl-tree-edge {cls}", text, w=22, gap=6, line=True))

    def render(self) -> str:
        return svg.figure(self.w, self.h, self.edges + self.nodes + self.texts, label=self.label, cls="pl-tree")
