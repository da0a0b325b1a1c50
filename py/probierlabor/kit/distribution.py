"""A distribution the reader types in: one declaration for every page that lets them (top-k, top-p,
KL divergence, knowledge distillation), so the range, the count and the wording are the same on all.

The values arrive checked by the contract (kind ``values``): 2 to 8 numbers as typed, each between 0
and 100, with a note when they do not sum to exactly 1; ``shares`` divides them by their sum, exactly,
so that „1; 1; 1“ gives three equal thirds (a tie stays a tie) and a tiny share stays above 0. The
field and the link keep the typed numbers. An empty field means „none typed“, and the page shows the
article's numbers.

The bars of a typed distribution are handles (``bar``): dragged, a bar takes the chance under the
pointer and the other bars keep theirs relative to each other. The browser writes only the dragged
entry into the field, as the number that has that share of the new sum, and the division by the sum
is the one every typed distribution takes, with its note (static/js/experiment/drag.js, ``setShare``).
So the reader's other numbers are never overwritten by the drag, only divided, as if typed.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from . import drag, fmt
from .contract import Param

LETTERS = "ABCDEFGH"
COUNT = (2, len(LETTERS))
# A dragged bar stops short of 1, so that the others keep a little each and with it their proportions.
MAX_SHARE = 0.99
STEP = 0.01  # one arrow key; with Shift five


def own(name: str = "dist", label: str = "Eigene Verteilung", help: str = "", alias: str = "") -> Param:
    return Param(name, label, "values", (), lo=0.0, hi=100.0, count=COUNT, normalise=True, alias=alias,
                 widget="z. B. 0,5; 0,25; 0,15; 0,1",
                 help=help or "2 bis 8 Wahrscheinlichkeiten, mit Semikolon getrennt. Ergeben sie nicht 1, "
                              "wird durch ihre Summe geteilt. Leer: die Zahlen des Beispiels.")


def names(n: int) -> tuple[str, ...]:
    """The tokens of a typed distribution: A, B, C, … in the order they were typed."""
    return tuple(LETTERS[:n])


def exact(values) -> tuple[Fraction, ...]:
    """The typed decimals as exact fractions (0,1 is 1/10 here, not the nearest binary float)."""
    return tuple(fmt.as_fraction(v) for v in values)


def shares(values) -> tuple[Fraction, ...]:
    """The typed values divided by their sum, as exact fractions (the division ``normalise`` promises)."""
    typed = exact(values)
    total = sum(typed)
    return tuple(x / total for x in typed)


def ln(x) -> float:
    """The natural log of a positive chance or ratio of chances. A typed 5e-324 among 100 has a share
    below the smallest float, so an exact fraction that a float would turn into 0 (or ∞) takes the logs
    of its numerator and denominator."""
    try:
        return math.log(x)
    except (ValueError, OverflowError):
        return math.log(x.numerator) - math.log(x.denominator)


def handle(param: Param, index: int, value: float, *, top: float, bottom: float) -> dict:
    """The attributes that make a mark of entry ``index`` of the typed distribution ``param`` (one made
    by ``own``) a handle, the chance 0 at the height ``bottom`` and 1 at ``top``."""
    token = LETTERS[index]
    return drag.attrs(param.name, index, value, at=(bottom, top, 0, 1), lo=0, hi=max(MAX_SHARE, value), step=STEP,
                      label=f"{param.label}: {token}", valuetext=f"{token}: {fmt.de_auto(value)}")


def target(param: Param, index: int, x: float, width: float, *, room: float, top: float, bottom: float) -> str:
    """A finger's target for a mark centred on ``x`` and ``width`` wide: the mark, and around a thin one
    up to 44 px of the ``room`` it has, so that targets never overlap each other."""
    return drag.hit(x, max(width, drag.target_width(room)), top, bottom, param.name, index)


def bar(param: Param, index: int, value: float, *, x: float, width: float, top: float, bottom: float, cls: str,
        room: float, title: str = "") -> tuple[str, str]:
    """Entry ``index`` as a draggable bar from ``x``, ``width`` wide (see ``handle``); ``room`` is how
    wide the finger's target may be. Returns (target, bar): a visible bar under a target is grabbed
    through it."""
    y = bottom - value * (bottom - top)
    inner = f"<title>{escape(title)}</title>" if title else ""
    mark = (f'<rect class="{cls} pl-bar-handle" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
            f'height="{bottom - y:.1f}"{drag.markup(handle(param, index, value, top=top, bottom=bottom))}>{inner}</rect>')
    return target(param, index, x + width / 2, width, room=room, top=top, bottom=bottom), mark
