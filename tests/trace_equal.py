"""Two traces of one run on two machines: equal event for event (tests only)."""

from __future__ import annotations

import math


def same(a, b, where="trace") -> None:
    """Equal event for event: every id, token, position, block and decision exactly; a float number
    (FlashAttention's m, l, u, speculative decoding's probabilities) to 1e-12 of itself. Pyodide's numpy
    has no BLAS of its own and another libm, so sums and exp may differ in the last bit. A float may
    come back as an int (1.0 through JavaScript is 1)."""
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if numbers and float in (type(a), type(b)):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15), f"{where}: {a} != {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), f"{where}: {len(a)} != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    else:
        assert type(a) is type(b) and a == b, f"{where}: {a!r} != {b!r}"
