"""A distribution the reader types in: one declaration for every page that lets them (top-k, top-p,
KL divergence, knowledge distillation), so the range, the count and the wording are the same on all.

The values arrive checked by the contract (kind ``values``): 2 to 8 numbers, each between 0 and 100,
divided by their sum unless they already sum to exactly 1. An empty field means „none typed“, and the
page shows the article's numbers.
"""

from __future__ import annotations

from fractions import Fraction

from .contract import Param

LETTERS = "ABCDEFGH"
COUNT = (2, len(LETTERS))


def own(name: str = "dist", label: str = "Eigene Verteilung", help: str = "") -> Param:
    return Param(name, label, "values", (), lo=0.0, hi=100.0, count=COUNT, normalise=True,
                 widget="z. B. 0,5; 0,25; 0,15; 0,1",
                 help=help or "2 bis 8 Chancen, mit Semikolon getrennt. Ergeben sie nicht 1, "
                              "wird durch ihre Summe geteilt. Leer: die Zahlen des Artikels.")


def names(n: int) -> tuple[str, ...]:
    """The tokens of a typed distribution: A, B, C, … in the order they were typed."""
    return tuple(LETTERS[:n])


def exact(values) -> tuple[Fraction, ...]:
    """The typed decimals as exact fractions (0,1 is 1/10 here, not the nearest binary float)."""
    return tuple(Fraction(repr(float(v))) for v in values)
