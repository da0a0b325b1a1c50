"""engine/acceptance.py, the one copy of speculative decoding's rule, against the two computations it
replaced (engine/speculative.py and the concept page, as they stood before; kept here as oracles) on
random distributions, exact and in floats."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import acceptance


# ---- the replaced computations, verbatim in their arithmetic
def old_engine_residual(p, q):
    if isinstance(p, np.ndarray) or isinstance(q, np.ndarray):
        diff = np.maximum(np.asarray(p, dtype=np.float64) - np.asarray(q, dtype=np.float64), 0.0)
        total = diff.sum()
        return diff / total if total > 0 else np.asarray(p, dtype=np.float64).copy()
    diff = [max(0, a - b) for a, b in zip(p, q, strict=True)]
    total = sum(diff)
    return [d / total for d in diff] if total > 0 else list(p)


def old_engine_balance(p, q):
    accepted = [min(a, b) for a, b in zip(p, q, strict=True)]
    rejected_mass = 1 - sum(accepted)
    res = old_engine_residual(list(p), list(q))
    return {"accept_prob": [min(1, p[x] / q[x]) if q[x] > 0 else None for x in range(len(p))],
            "accepted": accepted, "acceptance_rate": sum(accepted), "rejected_mass": rejected_mass,
            "residual": res, "final": [a + rejected_mass * r for a, r in zip(accepted, res, strict=True)],
            "final_if_correction_from_p": [a + rejected_mass * b for a, b in zip(accepted, p, strict=True)]}


def old_concept_balance(p, q, correction="residual"):
    F = Fraction
    accepted = tuple(min(pi, qi) for pi, qi in zip(p, q))
    accept_prob = tuple(None if qi == 0 else min(F(1), pi / qi) for pi, qi in zip(p, q))
    rate = sum(accepted)
    rejected = 1 - rate
    residual = tuple(max(F(0), pi - qi) for pi, qi in zip(p, q))
    total = sum(residual)
    if correction == "plain":
        corr = tuple(p)
    elif total > 0:
        corr = tuple(r / total for r in residual)
    else:
        corr = None
    added = tuple(rejected * c for c in corr) if corr else (F(0),) * len(p)
    final = tuple(a + c for a, c in zip(accepted, added))
    distance = sum(abs(f - pi) for f, pi in zip(final, p)) / 2
    return {"accepted": accepted, "accept_prob": accept_prob, "rate": rate, "rejected": rejected,
            "residual": residual, "residual_total": total, "correction": corr, "added": added,
            "final": final, "distance": distance}


def fractions(n):
    """A probability vector of n Fractions; zeros on purpose (tokens the draft never proposes)."""
    return st.lists(st.integers(0, 12), min_size=n, max_size=n).filter(any).map(
        lambda w: tuple(Fraction(x, sum(w)) for x in w))


@given(data=st.data(), n=st.integers(1, 7), correction=st.sampled_from(acceptance.CORRECTIONS))
def test_exact_balance_equals_the_concepts_old_one(data, n, correction):
    p, q = data.draw(fractions(n)), data.draw(fractions(n))
    new, old = acceptance.balance(p, q, correction), old_concept_balance(p, q, correction)
    renamed = {"excess": "residual", "excess_total": "residual_total"}
    assert {renamed.get(k, k): v for k, v in new.items()} == old
    assert all(type(v) is Fraction for v in new["final"])  # exact all the way, no float crept in


@given(data=st.data(), n=st.integers(1, 7))
def test_exact_balance_equals_the_engines_old_one(data, n):
    p, q = data.draw(fractions(n)), data.draw(fractions(n))
    new, old = acceptance.balance(p, q), old_engine_balance(p, q)
    assert list(new["accept_prob"]) == old["accept_prob"]
    assert list(new["accepted"]) == old["accepted"] and new["rate"] == old["acceptance_rate"]
    assert new["rejected"] == old["rejected_mass"] and list(new["final"]) == old["final"]
    assert list(acceptance.residual(p, q)) == old["residual"]
    if new["correction"] is not None:  # the old one fell back to p where nothing is ever rejected
        assert list(new["correction"]) == old["residual"]
    assert list(acceptance.balance(p, q, "plain")["final"]) == old["final_if_correction_from_p"]


@pytest.mark.parametrize("seed", range(20))
def test_float_residual_and_accept_prob_match_the_engines_old_numpy_code(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    p, q = rng.dirichlet(np.full(n, 0.3)), rng.dirichlet(np.full(n, 0.3))
    p[rng.random(n) < 0.2] = 0  # exact zeros, as top-k and top-p leave them
    p /= p.sum() if p.sum() else 1
    np.testing.assert_allclose(acceptance.residual(p.tolist(), q.tolist()), old_engine_residual(p, q),
                               rtol=1e-12, atol=1e-15)
    x = int(random.Random(seed).choice(np.flatnonzero(q > 0)))
    assert acceptance.accept_prob(p.tolist(), q.tolist(), x) == min(1, p[x] / q[x])


def test_p_equal_q_rejects_nothing_and_the_residual_falls_back_to_p():
    p = (Fraction(1, 3), Fraction(2, 3))
    b = acceptance.balance(p, p)
    assert b["rejected"] == 0 and b["correction"] is None and b["final"] == p
    assert acceptance.residual(p, p) == p


def test_wrong_input_is_refused():
    with pytest.raises(ValueError, match="same tokens"):
        acceptance.excess([1], [Fraction(1, 2), Fraction(1, 2)])
    with pytest.raises(ValueError, match="correction"):
        acceptance.balance([1], [1], "from-p")
    with pytest.raises(ValueError, match="draft probability 0"):
        acceptance.accept_prob([Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)], 0)

