"""German number formatting: decimal comma, real minus sign, grouping from 10 000 on.

Every number a reader sees goes through here, on the page, in the prose and in the CLI,
so that "27,5" in the text and "27,5" under the figure come from the same rounding.
"""

from __future__ import annotations

import math
from fractions import Fraction

MINUS = "\u2212"
THIN_NBSP = "\u202f"  # narrow no-break space groups thousands without breaking the number


def de(value, digits: int | None = None) -> str:
    """Format ``value`` with ``digits`` decimals (None: integers as they are, others 2)."""
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, bool):
        return "ja" if value else "nein"
    if isinstance(value, int) and digits is None:
        return _group(str(abs(value)), value < 0)
    if digits is None:
        digits = 2
    if not math.isfinite(value):
        return "∞" if value > 0 else MINUS + "∞" if value < 0 else "–"
    text = f"{abs(value):.{digits}f}"
    negative = value < 0 and float(text) != 0.0  # no "−0,0"
    whole, _, frac = text.partition(".")
    body = _group(whole, False)
    return (MINUS if negative else "") + body + ("," + frac if frac else "")


def de_auto(value: float, significant: int = 3) -> str:
    """Format with about ``significant`` significant digits, dropping trailing zeros (0,01 / 1 / 12,5)."""
    if value == 0 or not math.isfinite(value):
        return de(value, 0)
    digits = max(0, significant - 1 - int(math.floor(math.log10(abs(value)))))
    text = de(value, digits)
    if "," in text:
        text = text.rstrip("0").rstrip(",")
    return text


def pct(value: float, digits: int = 1) -> str:
    return de(100 * value, digits) + THIN_NBSP + "%"


def _group(whole: str, negative: bool) -> str:
    if len(whole) > 4:  # German typesetting groups 10 000 and up, leaves 1234 alone
        parts = []
        while len(whole) > 3:
            parts.insert(0, whole[-3:])
            whole = whole[:-3]
        parts.insert(0, whole)
        whole = THIN_NBSP.join(parts)
    return (MINUS if negative else "") + whole
