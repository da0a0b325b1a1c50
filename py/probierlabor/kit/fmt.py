"""German number formatting: decimal comma, real minus sign, grouping from 10 000 on.

Every number a reader sees goes through here, on the page, in the prose and in the CLI,
so that "27,5" in the text and "27,5" under the figure come from the same rounding.
static/js/fmt.js ports the rules the browser needs; tests/golden/numbers.json holds both to
the same answers.

Rounding is the one a reader does by hand: the number as Python prints it (0.15, not the
binary 0.1499…), halves away from zero (0,15 → 0,2; 2,5 → 3).
"""

from __future__ import annotations

import functools
import math
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

MINUS = "\u2212"
THIN_NBSP = "\u202f"  # narrow no-break space groups thousands without breaking the number
APPROX = "≈ "

KIB, MIB, GIB = 2**10, 2**20, 2**30
BYTE_UNITS = {"KiB": KIB, "MiB": MIB, "GiB": GIB}


# A figure formats the same numbers again on every slider step (ticks, table cells, the values that did
# not move); remembered, a number costs a lookup instead of a decimal rounding. typed: 1, 1.0 and True
# are three different answers.
@functools.lru_cache(maxsize=4096, typed=True)
def de(value, digits: int | None = None, trim: bool = False) -> str:
    """Format ``value`` with ``digits`` decimals (None: integers as they are, others 2);
    ``trim`` drops trailing zeros (0,50 → 0,5; 2,00 → 2)."""
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
    return _join(_fixed(abs(float(value)), digits), value < 0, trim)


def de_auto(value: float, significant: int = 3) -> str:
    """Format with about ``significant`` significant digits, dropping trailing zeros (0,01 / 1 / 12,5)."""
    if value == 0 or not math.isfinite(value):
        return de(value, 0)
    digits = max(0, significant - 1 - math.floor(math.log10(abs(value))))
    return de(value, digits, trim=True)


def token(text: str) -> str:
    """A token as a chip or a figure shows it: every space as ␣, a line break as ↵, another control
    character by its byte as ‹1F› (as engine/bpe.py writes a byte of an unfinished character)."""
    text = text.replace(" ", "\u2423").replace("\n", "\u21b5")
    return "".join(f"‹{ord(ch):02X}›" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in text)


def count(n: int, one: str, many: str) -> str:
    """A number with its noun in the right form: 1 Token, 2 Tokens, 0 Tokens."""
    return f"{de(n)} {one if n == 1 else many}"


def tick(value: float) -> str:
    """An axis label: as many decimals as the tick has, none for whole numbers (2; 0,25; −1,5)."""
    return de(float(value), 6, trim=True)


def pct(value: float, digits: int = 1) -> str:
    """A share as percent: 0.275 → 27,5 %. Shifted by two places, not multiplied: 0.145 is 14,5 %, never 14,499…"""
    if not math.isfinite(value):
        return de(value) + THIN_NBSP + "%"
    return _join(_half_up(Decimal(repr(abs(float(value)))).scaleb(2), digits), value < 0, False) + THIN_NBSP + "%"


# -- exact numbers ---------------------------------------------------------------------

def as_fraction(value) -> Fraction:
    """The decimal a reader typed or a slider sent, as an exact fraction (0.2 → 1/5, not 0.2000000000000000111)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value)))


def decimal_places(x: Fraction) -> int | None:
    """How many decimals ``x`` needs to be written exactly (3/8 → 3), None if it never ends (1/3)."""
    d, twos, fives = Fraction(x).denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    return max(twos, fives) if d == 1 else None


# Remembered like ``de``: tables and trees write the same exact chances again on every slider step.
@functools.lru_cache(maxsize=4096, typed=True)
def exact(x, most: int | None = 6, approx: int = 3, fraction: bool = False, equals: bool = False) -> str:
    """An exact number in German: its decimal where it ends within ``most`` places
    (7/2 → 3,5; 51/100 → 0,51), otherwise rounded to ``approx`` places after „≈“.

    ``fraction``: a short fraction (denominator below 1000) stands before its rounding, 1/3 ≈ 0,333;
    ``equals``: it stands before an exact decimal too, 1/2 = 0,5 (where counting is the point).
    None is „–“."""
    if x is None:
        return "–"
    x = Fraction(x)
    places = decimal_places(x)
    short = fraction and x.denominator < 1000
    if places is not None and (most is None or places <= most):
        text = _exact_decimal(x, places)
        return f"{ratio(x)} = {text}" if equals and short and x.denominator > 1 else text
    rounded = de(float(x), approx)
    return f"{ratio(x)} ≈ {rounded}" if short else APPROX + rounded


def root(x, n: int) -> Fraction | None:
    """The exact ``n``-th root of a fraction ``x`` ≥ 0 where it is a fraction (27/8, 3 → 3/2), else None.
    Read off the integer roots of numerator and denominator, never guessed from a float: a float root of a
    number with 17 digits is off in the last place, and the test „root ** n == x“ then fails for an exact root."""
    x = Fraction(x)
    if x < 0 or n < 1:
        return None
    top, bottom = _integer_root(x.numerator, n), _integer_root(x.denominator, n)
    return Fraction(top, bottom) if top**n == x.numerator and bottom**n == x.denominator else None


def _integer_root(a: int, n: int) -> int:
    """⌊a^(1/n)⌋ for an integer a ≥ 0, exact at any size (Newton's method on integers, from above)."""
    if a < 2 or a.bit_length() <= n:  # a < 2^n: the root is below 2 (and a huge n costs nothing)
        return min(a, 1)
    x = 1 << -(-a.bit_length() // n)  # 2^⌈bits/n⌉ > the root
    while True:
        y = ((n - 1) * x + a // x ** (n - 1)) // n
        if y >= x:
            return x
        x = y


def ratio(x: Fraction) -> str:
    """A fraction as a reader writes it: 3, 4/9, −1/3."""
    x = Fraction(x)
    sign = MINUS if x < 0 else ""
    return sign + (str(abs(x.numerator)) if x.denominator == 1 else f"{abs(x.numerator)}/{x.denominator}")


def over_common(values) -> list[str]:
    """Fractions written over their least common denominator: [4/9, 1/3, 2/9] → 4/9, 3/9, 2/9."""
    values = [Fraction(v) for v in values]
    common = math.lcm(*(v.denominator for v in values)) if values else 1
    if common == 1:
        return [ratio(v) for v in values]
    return [f"{MINUS if v < 0 else ''}{abs(v.numerator) * (common // v.denominator)}/{common}" for v in values]


def size(n_bytes: int, unit: str) -> str:
    """Bytes in KiB, MiB or GiB: exact where four decimals suffice (31,25 MiB), else ≈ four significant digits."""
    value = Fraction(n_bytes, BYTE_UNITS[unit])
    places = decimal_places(value)
    text = _exact_decimal(value, places) if places is not None and places <= 4 else APPROX + de_auto(float(value), 4)
    return text + THIN_NBSP + unit


# -- pieces ----------------------------------------------------------------------------

def _fixed(x: float, digits: int) -> str:
    """``x`` ≥ 0 with ``digits`` decimals, rounded as written. Python's own formatting rounds the binary
    value, which differs only where the written number ends in a 5 just behind the cut (0.15, 2.5):
    those, and exponents, take the slower exact way."""
    written = repr(x)
    if "e" in written or written.partition(".")[2][digits:] == "5":
        return _half_up(Decimal(written), digits)
    return f"{x:.{digits}f}"


def _half_up(x: Decimal, digits: int) -> str:
    # "f": str() would write a small quantized value with an exponent (1.00E-10), which no reader reads
    return format(x.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP, Context(prec=400 + digits)), "f")


def _exact_decimal(x: Fraction, places: int) -> str:
    """``x`` written with exactly ``places`` decimals, which it must fit: no float on the way."""
    digits = str(abs(x.numerator) * 10**places // x.denominator).rjust(places + 1, "0")
    text = digits[: len(digits) - places] + ("." + digits[-places:] if places else "")
    return _join(text, x < 0, trim=False)


def _join(text: str, negative: bool, trim: bool) -> str:
    """``text`` is an unsigned decimal with a point; German comma, grouping and minus (never „−0,0“)."""
    whole, _, frac = text.partition(".")
    if trim:
        frac = frac.rstrip("0")
    zero = not whole.strip("0") and not frac.strip("0")
    return _group(whole, negative and not zero) + ("," + frac if frac else "")


def _group(whole: str, negative: bool) -> str:
    if len(whole) > 4:  # German typesetting groups 10 000 and up, leaves 1234 alone
        parts = []
        while len(whole) > 3:
            parts.insert(0, whole[-3:])
            whole = whole[:-3]
        parts.insert(0, whole)
        whole = THIN_NBSP.join(parts)
    return (MINUS if negative else "") + whole
