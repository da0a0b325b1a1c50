"""Polynomial least squares (optionally with a ridge penalty) in pure Python.

Why not numpy: importing numpy in the browser costs about two seconds before a page
can answer, while these fits are at most 80 × 10 and take well under a millisecond.
Pure Python also gives the same digits under CPython (tests, CLI, build) and Pyodide.

Inputs are expected on x ∈ [−1, 1]; there the monomial basis up to degree 9 is well
enough conditioned for Householder QR (the normal equations would square the condition).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Generic on purpose: this module fits any data; a concept that knows what x means says so itself.
UNDETERMINED = ("Die Punkte legen die Kurve nicht fest: es gibt weniger verschiedene x-Werte als "
                "Koeffizienten (wähle einen kleineren Grad oder mehr verschiedene Punkte).")


def design(xs: Sequence[float], degree: int) -> list[list[float]]:
    rows = []
    for x in xs:
        row = [1.0]
        for _ in range(degree):
            row.append(row[-1] * x)
        rows.append(row)
    return rows


def fit(xs: Sequence[float], ys: Sequence[float], degree: int, ridge: float = 0.0) -> list[float]:
    """Coefficients c₀…c_d minimising Σ(y − p(x))² + ridge·Σ_{j≥1} c_j².

    The intercept is not penalised, so a penalty pulls the curve towards a flat
    line at the mean, not towards zero scoops.
    """
    r, qb = _triangular(*_system(xs, ys, degree, ridge))
    return _solve(r, qb, degree + 1)


def fits(xs: Sequence[float], ys: Sequence[float], top: int, ridge: float = 0.0) -> list[list[float]]:
    """``fit`` for every degree 0…top, with the same digits, from one QR instead of top + 1.

    Householder QR works column by column, and a column is only changed by the reflections of the
    columns before it: the first d + 1 columns of the degree-``top`` system go through exactly the
    operations of the degree-d system. Its extra penalty rows (for c_{d+1}…) are zero in those
    columns and add only exact zeros. Raises like ``fit(…, top, …)``.
    """
    r, qb = _triangular(*_system(xs, ys, top, ridge))
    return [_solve(r, qb, d + 1) for d in range(top + 1)]


def _system(xs, ys, degree: int, ridge: float) -> tuple[list[list[float]], list[float]]:
    """The least-squares rows: the design, then a row √ridge·c_j = 0 for each j ≥ 1."""
    rows = design(xs, degree)
    rhs = [float(y) for y in ys]
    if ridge > 0:
        root = math.sqrt(ridge)
        for j in range(1, degree + 1):
            row = [0.0] * (degree + 1)
            row[j] = root
            rows.append(row)
            rhs.append(0.0)
    return rows, rhs


def evaluate(coef: Sequence[float], x: float) -> float:
    value = 0.0
    for c in reversed(coef):  # Horner
        value = value * x + c
    return value


def rmse(coef: Sequence[float], xs: Sequence[float], ys: Sequence[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys):
        r = y - evaluate(coef, x)
        total += r * r
    return math.sqrt(total / len(xs))


def _triangular(a: list[list[float]], b: list[float]) -> tuple[list[list[float]], list[float]]:
    """Householder QR of a (m × n, m ≥ n): R in the upper triangle of the returned rows, and Qᵀb."""
    m, n = len(a), len(a[0])
    a = [row[:] for row in a]
    b = b[:]
    for k in range(n):
        norm = math.sqrt(sum(a[i][k] * a[i][k] for i in range(k, m)))
        if norm == 0.0:
            raise ValueError(UNDETERMINED)
        alpha = -norm if a[k][k] >= 0 else norm
        v = [0.0] * m
        v[k] = a[k][k] - alpha
        for i in range(k + 1, m):
            v[i] = a[i][k]
        vnorm2 = sum(v[i] * v[i] for i in range(k, m))
        if vnorm2 == 0.0:
            continue
        for j in range(k, n):
            s = 2.0 * sum(v[i] * a[i][j] for i in range(k, m)) / vnorm2
            for i in range(k, m):
                a[i][j] -= s * v[i]
        s = 2.0 * sum(v[i] * b[i] for i in range(k, m)) / vnorm2
        for i in range(k, m):
            b[i] -= s * v[i]
    return a, b


def _solve(r: list[list[float]], qb: list[float], n: int) -> list[float]:
    """The least-squares solution for the first n columns, by back substitution (needs full column rank)."""
    coef = [0.0] * n
    for k in range(n - 1, -1, -1):
        if abs(r[k][k]) < 1e-13 * max(1.0, abs(r[0][0])):
            raise ValueError(UNDETERMINED)
        coef[k] = (qb[k] - sum(r[k][j] * coef[j] for j in range(k + 1, n))) / r[k][k]
    return coef
