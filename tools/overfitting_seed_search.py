#!/usr/bin/env python3
"""Seed search for the overfitting page (py/probierlabor/concepts/overfitting.py).

DEV TOOL, NOT SHIPPED: needs numpy (``pip install numpy``), unlike the page itself,
which is pure Python.  Run from the repository root:

    python3 tools/overfitting_seed_search.py --workers 2

The article quotes its figures for ONE simulated notebook.  This script picks the fixed
seeds of ``overfitting.py`` so that the page's default notebooks come close to them:

    case  params                       train   test    seed that decides it
    1     degree 1, 10 days, λ = 0     27.5    –       SEED_NOTEBOOK[10]
    2     degree 9, 10 days, λ = 0     (0)     236.5   SEED_NOTEBOOK[10]
    3     degree 3, 10 days, λ = 0     10.9    16.8    SEED_NOTEBOOK[10]
    4     degree 9, 80 days, λ = 0     14.8    15.9    SEED_NOTEBOOK[80]
    5     degree 9, 10 days, λ = 0.01  5.8     21.2    SEED_NOTEBOOK[10]
    noise floor on the 400 new days    ≈ 15            SEED_NEW_DAYS

All test errors (and the noise floor) also depend on SEED_NEW_DAYS.  The score of a
choice is the largest relative deviation |value/target − 1| over all eleven numbers
above (case 2's training error is 0 for every seed and is left out).

Procedure:

1. every SEED_NEW_DAYS in ``--new-days-range`` whose noise floor lies within
   ``--floor-tol`` of 15 becomes a candidate; for each, the 400 new days are reduced
   to their Gram matrix, so that a test RMSE costs one quadratic form per fit;
2. SEED_NOTEBOOK[10] runs over ``--range10``: data come from the module's own
   ``notebook()`` (exactly the page's random stream), the four fits are batched in
   numpy; seeds whose three training errors (independent of the new days) are not all
   within ``--prefilter`` are dropped before any test error is computed; the best
   notebook seed is kept per candidate;
3. the same for SEED_NOTEBOOK[80] over ``--range80`` (case 4);
4. the ``--confirm-top`` candidates with the smallest overall score are recomputed with
   the module's pure-Python ``polyfit`` (the numbers the page shows); the smallest largest
   deviation wins, ties (often several new-days seeds share one limiting notebook) going
   to the smallest RMS deviation.  Copy the printed seeds into ``overfitting.py``.

``--confirm SEED10 SEED80 SEED_NEW`` only prints the figures of given seeds.

Numpy's fits (QR, normal-equation free) agree with the pure-Python ones to far better
than the 0.1 % that matters here; step 4 is the authority all the same.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool

import numpy as np
from probierlabor.concepts import overfitting as o
from probierlabor.kit import polyfit

FLOOR_TARGET = 15.0
# name: (target, is this a training error?)
TARGETS10 = {
    "train1": 27.5, "test9": 236.5, "train3": 10.9, "test3": 16.8, "train9r": 5.8, "test9r": 21.2,
}
TARGETS80 = {"train9": 14.8, "test9": 15.9}
LAM = 0.01
DEG = 9

# -- worker state (set once per process) ------------------------------------------

_G = _B = _YY = None  # per new-days candidate: Gram matrix (K,10,10), moments (K,10), mean y² (K,)


def _init(g, b, yy):
    global _G, _B, _YY
    _G, _B, _YY = g, b, yy


def _pad(c):
    out = np.zeros((c.shape[0], DEG + 1))
    out[:, : c.shape[1]] = c
    return out


def _lsq(v, y):
    """Batched least squares by QR: v (S,m,n), y (S,m) -> (S,n)."""
    q, r = np.linalg.qr(v)
    return np.linalg.solve(r, np.einsum("smn,sm->sn", q, y)[..., None])[..., 0]


def _train(v, y, c):
    return np.sqrt(np.mean((y - np.einsum("smn,sn->sm", v, c)) ** 2, axis=1))


def _test(c):
    """Test RMSE of padded coefficients c (S,10) on every candidate: (S,K)."""
    mse = (np.einsum("sj,kjl,sl->sk", c, _G, c) - 2.0 * c @ _B.T + _YY[None, :])
    return np.sqrt(np.maximum(mse, 0.0))


def _dev(value, target):
    return np.abs(value / target - 1.0)


def _chunk10(args):
    lo, hi, pre = args
    seeds = np.arange(lo, hi)
    data = [o.notebook(10, int(s)) for s in seeds]
    x = (np.array([d[0] for d in data]) - 25.0) / 10.0
    y = np.array([d[1] for d in data])
    v = x[:, :, None] ** np.arange(DEG + 1)
    # training errors first: they do not depend on the new days
    c1 = _lsq(v[:, :, :2], y)
    tr1 = _train(v[:, :, :2], y, c1)
    c3 = _lsq(v[:, :, :4], y)
    tr3 = _train(v[:, :, :4], y, c3)
    pen = np.zeros((DEG, DEG + 1))
    pen[np.arange(DEG), np.arange(1, DEG + 1)] = math.sqrt(LAM)
    va = np.concatenate([v, np.broadcast_to(pen, (len(seeds), DEG, DEG + 1))], axis=1)
    ya = np.concatenate([y, np.zeros((len(seeds), DEG))], axis=1)
    cr = _lsq(va, ya)
    trr = _train(v, y, cr)
    trdev = np.max(np.stack([_dev(tr1, TARGETS10["train1"]), _dev(tr3, TARGETS10["train3"]),
                             _dev(trr, TARGETS10["train9r"])]), axis=0)
    keep = trdev <= pre
    k = _G.shape[0]
    best = np.full(k, np.inf)
    best_seed = np.full(k, -1, dtype=np.int64)
    if not keep.any():
        return best, best_seed, len(seeds), 0
    seeds, v, y, trdev = seeds[keep], v[keep], y[keep], trdev[keep]
    c1, c3, cr = c1[keep], c3[keep], cr[keep]
    c9 = np.linalg.solve(v, y[..., None])[..., 0]
    score = trdev[:, None]  # (S,1), broadcast to (S,K) below
    for c, target in ((c9, "test9"), (_pad(c3), "test3"), (cr, "test9r")):
        score = np.maximum(score, _dev(_test(c), TARGETS10[target]))
    arg = np.argmin(score, axis=0)
    best = score[arg, np.arange(k)]
    best_seed = seeds[arg]
    return best, best_seed, len(keep), int(keep.sum())


def _chunk80(args):
    lo, hi, pre = args
    seeds = np.arange(lo, hi)
    data = [o.notebook(80, int(s)) for s in seeds]
    x = (np.array([d[0] for d in data]) - 25.0) / 10.0
    y = np.array([d[1] for d in data])
    v = x[:, :, None] ** np.arange(DEG + 1)
    c = _lsq(v, y)
    trdev = _dev(_train(v, y, c), TARGETS80["train9"])
    keep = trdev <= pre
    k = _G.shape[0]
    if not keep.any():
        return np.full(k, np.inf), np.full(k, -1, dtype=np.int64), len(seeds), 0
    score = np.maximum(trdev[keep][:, None], _dev(_test(c[keep]), TARGETS80["test9"]))
    arg = np.argmin(score, axis=0)
    return score[arg, np.arange(k)], seeds[keep][arg], len(seeds), int(keep.sum())


def _search(fn, lo, hi, chunk, pre, workers, init_args, label):
    jobs = [(a, min(a + chunk, hi), pre) for a in range(lo, hi, chunk)]
    k = init_args[0].shape[0]
    best = np.full(k, np.inf)
    best_seed = np.full(k, -1, dtype=np.int64)
    seen = kept = 0
    t0 = time.time()
    with Pool(workers, initializer=_init, initargs=init_args) as pool:
        for i, (b, s, n, m) in enumerate(pool.imap_unordered(fn, jobs), start=1):
            better = b < best
            best[better], best_seed[better] = b[better], s[better]
            seen, kept = seen + n, kept + m
            if i % max(1, len(jobs) // 20) == 0 or i == len(jobs):
                print(f"  {label}: {seen:,} seeds, {kept:,} past the training filter, "
                      f"best so far {100 * best.min():.2f} % ({time.time() - t0:.0f} s)", flush=True)
    return best, best_seed


# -- new-days candidates -----------------------------------------------------------

def _floor(seed):
    temps, scoops = o.new_days(o.N_NEW_DAYS, seed)
    return math.sqrt(sum((y - o.true_scoops(t)) ** 2 for t, y in zip(temps, scoops)) / len(temps))


def _gram(seed):
    temps, scoops = o.new_days(o.N_NEW_DAYS, seed)
    x = (np.array(temps) - 25.0) / 10.0
    y = np.array(scoops)
    p = x[:, None] ** np.arange(DEG + 1)
    return p.T @ p / len(x), p.T @ y / len(x), float(y @ y) / len(x)


# -- pure-Python confirmation ------------------------------------------------------

def confirm(seed10: int, seed80: int, seed_new: int) -> dict:
    """The figures exactly as the page computes them (module's notebook, polyfit)."""
    temps, scoops = o.new_days(o.N_NEW_DAYS, seed_new)
    nx, ny = [o.to_x(t) for t in temps], scoops
    floor = math.sqrt(sum((y - o.true_scoops(t)) ** 2 for t, y in zip(temps, scoops)) / len(temps))

    def run(n, seed, degree, lam):
        t, y = o.notebook(n, seed)
        xs = [o.to_x(v) for v in t]
        coef = polyfit.fit(xs, y, degree, lam)
        return polyfit.rmse(coef, xs, y), polyfit.rmse(coef, nx, ny)

    out = {"noise_floor": floor}
    out["case1"] = run(10, seed10, 1, 0.0)
    out["case2"] = run(10, seed10, 9, 0.0)
    out["case3"] = run(10, seed10, 3, 0.0)
    out["case4"] = run(80, seed80, 9, 0.0)
    out["case5"] = run(10, seed10, 9, LAM)
    return out


def _rows(vals: dict) -> list:
    return [
        ("1 train (d1, 10 Tage)", vals["case1"][0], 27.5),
        ("2 train (d9, 10 Tage)", vals["case2"][0], None),
        ("2 test", vals["case2"][1], 236.5),
        ("3 train (d3, 10 Tage)", vals["case3"][0], 10.9),
        ("3 test", vals["case3"][1], 16.8),
        ("4 train (d9, 80 Tage)", vals["case4"][0], 14.8),
        ("4 test", vals["case4"][1], 15.9),
        ("5 train (d9, λ=0.01)", vals["case5"][0], 5.8),
        ("5 test", vals["case5"][1], 21.2),
        ("noise floor", vals["noise_floor"], FLOOR_TARGET),
    ]


def _devs(vals: dict) -> list[float]:
    return [abs(value / target - 1.0) for _, value, target in _rows(vals) if target is not None]


def report(vals: dict) -> float:
    rows = _rows(vals)
    worst = 0.0
    print(f"  {'case':24s} {'value':>9s} {'article':>8s} {'dev':>8s}")
    for name, value, target in rows:
        if target is None:
            print(f"  {name:24s} {value:9.3f} {'0':>8s}")
            continue
        d = value / target - 1.0
        worst = max(worst, abs(d))
        print(f"  {name:24s} {value:9.3f} {target:8.1f} {100 * d:+7.2f} %")
    print(f"  largest deviation: {100 * worst:.2f} %")
    return worst


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--new-days-range", type=int, nargs=2, default=(0, 10_000), metavar=("LO", "HI"),
                    help="SEED_NEW_DAYS candidates, half-open [LO, HI) (default 0 10000)")
    ap.add_argument("--floor-tol", type=float, default=0.1,
                    help="keep new-days seeds with |noise floor − 15| ≤ this (default 0.1)")
    ap.add_argument("--range10", type=int, nargs=2, default=(0, 20_000_000), metavar=("LO", "HI"),
                    help="SEED_NOTEBOOK[10] range [LO, HI) (default 0 20000000: about 8 min on 2 cores)")
    ap.add_argument("--range80", type=int, nargs=2, default=(0, 100_000), metavar=("LO", "HI"),
                    help="SEED_NOTEBOOK[80] range [LO, HI) (default 0 100000)")
    ap.add_argument("--prefilter", type=float, default=0.10,
                    help="drop notebooks whose training errors deviate more than this (default 0.10)")
    ap.add_argument("--chunk", type=int, default=20_000, help="seeds per work unit (default 20000)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--confirm-top", type=int, default=50,
                    help="leading combinations re-scored in pure Python for the final ranking (default 50)")
    ap.add_argument("--confirm", type=int, nargs=3, metavar=("SEED10", "SEED80", "SEED_NEW"),
                    help="skip the search, only print the pure-Python figures of these seeds")
    a = ap.parse_args(argv)

    if a.confirm:
        report(confirm(*a.confirm))
        return

    t0 = time.time()
    floors = {s: _floor(s) for s in range(*a.new_days_range)}
    cands = [s for s, f in floors.items() if abs(f - FLOOR_TARGET) <= a.floor_tol]
    if not cands:
        sys.exit("no new-days seed has its noise floor within the tolerance")
    print(f"{len(cands)} new-days candidates (of {len(floors)}) with floor within "
          f"15 ± {a.floor_tol} ({time.time() - t0:.0f} s)", flush=True)
    grams = [_gram(s) for s in cands]
    init = (np.array([g for g, _, _ in grams]), np.array([b for _, b, _ in grams]),
            np.array([yy for _, _, yy in grams]))
    floor_dev = np.array([abs(floors[s] / FLOOR_TARGET - 1.0) for s in cands])

    b10, s10 = _search(_chunk10, *a.range10, a.chunk, a.prefilter, a.workers, init, "10 days")
    b80, s80 = _search(_chunk80, *a.range80, max(1, a.chunk // 8), a.prefilter, a.workers, init, "80 days")

    total = np.maximum(np.maximum(b10, b80), floor_dev)
    order = [i for i in np.argsort(total) if np.isfinite(total[i])]
    if not order:
        sys.exit("no combination passed the training filter; widen --prefilter or the ranges")
    # Many candidates often share the same limiting deviation (the same 10-day notebook's
    # training error): confirm the leaders in pure Python and break ties by the RMS deviation.
    ranked = []
    for i in order[: a.confirm_top]:
        combo = (int(s10[i]), int(s80[i]), int(cands[i]))
        devs = _devs(confirm(*combo))
        ranked.append((round(max(devs), 5), math.sqrt(sum(d * d for d in devs) / len(devs)), combo))
    ranked.sort()
    print(f"\nsearch took {time.time() - t0:.0f} s; best combinations (pure Python, max and RMS deviation):")
    for worst, rms, (x10, x80, xnew) in ranked[:5]:
        print(f"  SEED_NEW_DAYS = {xnew:>5}  SEED_NOTEBOOK = {{10: {x10}, 80: {x80}}}  "
              f"max {100 * worst:.2f} %, rms {100 * rms:.2f} %")
    best = ranked[0][2]
    print(f"\npure-Python figures of SEED_NOTEBOOK = {{10: {best[0]}, 80: {best[1]}}}, "
          f"SEED_NEW_DAYS = {best[2]}:")
    report(confirm(*best))


if __name__ == "__main__":
    main()
