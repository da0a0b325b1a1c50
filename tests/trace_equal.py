"""Two traces of one run, computed on two machines: equal event for event (tests only).

The one comparison for everything that holds floats numpy computed through a matrix product or a
vectorised exp: a committed trace against a fresh recording, a recorded preset against its live run,
CPython against Pyodide. Every id, token, position, block and decision must be equal exactly; a
float (FlashAttention's m, l, u and out, speculative decoding's probabilities) only to ``REL_TOL`` of
itself. The BLAS kernel OpenBLAS picks for the CPU (or none: Pyodide's numpy) sums in another order,
so the last bits differ. Measured on flash-attention-tiles: at most 1,5e-14 relative between
OpenBLAS' SkylakeX, SandyBridge and Prescott kernels (``OPENBLAS_CORETYPE``): ``REL_TOL`` leaves a
margin of about 70 and catches any change beyond the last bits.
"""

from __future__ import annotations

import math

REL_TOL = 1e-12
ABS_TOL = 1e-15  # for values at zero, where a relative bound means nothing


def same(a, b, where="trace") -> None:
    """Raises ``AssertionError`` at the first real difference, with its place in the trace and what
    kind it is; a float within ``REL_TOL`` is last-bit noise and equal. A float may come back as an
    int (1.0 through JavaScript is 1)."""
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if numbers and float in (type(a), type(b)):
        if not math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL):
            off = abs(a - b) / max(abs(a), abs(b)) if math.isfinite(a - b) else math.inf
            raise AssertionError(f"{where}: {a!r} != {b!r}, a float off by {off:.1e} of itself "
                                 f"(more than the tolerance {REL_TOL:g}: a real change, not last-bit noise)")
    elif isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            raise AssertionError(f"{where}: other fields {sorted(a)} != {sorted(b)} (a different event)")
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise AssertionError(f"{where}: {len(a)} != {len(b)} items (steps, events or tokens added or lost)")
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    elif type(a) is not type(b) or a != b:
        raise AssertionError(f"{where}: {a!r} != {b!r} (a different token, id, event or decision)")
