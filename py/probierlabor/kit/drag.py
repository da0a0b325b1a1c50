"""Handles the reader drags in a figure: the markup by which static/js/experiment/drag.js knows which
field and which entry a handle edits, and how a height on screen maps to a value.

A handle is a slider for a keyboard and a screen reader (role, tabindex, aria-value…), and the
browser code reads the same attributes for the mouse and the finger: ``data-drag`` (the entry's
index), ``data-drag-field`` (the parameter), ``data-drag-y`` (the heights of two values),
``data-drag-step`` (one arrow key). What a handle writes goes into its field, and from there the one
path every change takes. Overfitting's points (kit/svg.py ``Plot.point``) speak the same language
and leave the field and the mapping to their defaults (the dragged points, the Plot's axes).
"""

from __future__ import annotations

from html import escape

# A finger needs about 44 px; WCAG 2.2 asks at least 24 px of any pointer target (2.5.8).
TARGET_MIN = 24
TARGET_GOOD = 44


def attrs(field: str, index: int, value: float, *, at: tuple[float, float, float, float], lo: float, hi: float,
          step: float, label: str, valuetext: str, direct: bool = False) -> dict:
    """The attributes of a handle for entry ``index`` of ``field`` that now holds ``value``;
    ``at`` = (y0, y1, v0, v1): the value v0 lies at the height y0 of the figure, v1 at y1.
    ``direct``: the entry takes the value under the pointer as it is (own logits), not as a share of
    the sum that the other entries keep (kit/distribution.py)."""
    y0, y1, v0, v1 = at
    return {**({"data-drag-set": ""} if direct else {}), "data-drag": index, "data-drag-field": field, "data-drag-y": f"{y0:g} {y1:g} {v0:g} {v1:g}",
            "data-drag-step": f"{step:g}", "tabindex": 0, "role": "slider", "aria-label": label,
            "aria-valuemin": f"{lo:g}", "aria-valuemax": f"{hi:g}", "aria-valuenow": repr(float(value)),
            "aria-valuetext": valuetext}


def target_width(room: float) -> float:
    """How wide a finger's target can be in ``room`` pixels without reaching a neighbour's: 44 where
    they are there. Under 24 only where the figure has no more room; the typed field beside it is
    then the equivalent control (WCAG 2.5.8 allows that)."""
    return min(TARGET_GOOD, room)


def hit(x: float, width: float, top: float, bottom: float, field: str, index: int) -> str:
    """An invisible target from ``top`` to ``bottom`` (the whole height a value can take, so that a
    bar of height 0 can be grabbed too), centred on ``x``; it must lie under every visible handle."""
    return (f'<rect class="pl-drag-hit" x="{x - width / 2:.1f}" y="{top:.1f}" width="{width:.1f}" '
            f'height="{bottom - top:.1f}" data-drag-hit="{index}" data-drag-field="{escape(field)}"/>')


def markup(attributes: dict) -> str:
    return "".join(f' {k}="{escape(str(v))}"' for k, v in attributes.items())
