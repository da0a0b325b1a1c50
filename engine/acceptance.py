"""Speculative decoding's rule at one position (Leviathan et al. 2023, §2.3 and Algorithm 1).

A draft proposes x drawn from q; the target, whose distribution is p, keeps it with probability
min(1, p(x)/q(x)). After a rejection the correction is drawn from the residual max(0, p − q),
normalised. Per token, the kept mass min(p, q) plus the rejected mass 1 − Σ min(p, q) times the
residual is exactly p. Drawing the correction from p instead counts the kept mass twice.

The one copy of this arithmetic: ``engine.speculative`` verifies with it (floats), the concept page
``probierlabor.concepts.speculative_decoding`` shows its exact balance (``fractions.Fraction``). Plain
Python on purpose, no numpy: the browser loads this module next to the probierlabor package
(mkdocs_hooks/assemble.py puts it into the zip), and one definition serves floats and Fractions alike.
"""

from __future__ import annotations

from collections.abc import Sequence

CORRECTIONS = ("residual", "plain")  # the right rule, and the article's wrong one (correction from p)


def accept_prob(p: Sequence, q: Sequence, token: int):
    """min(1, p(x)/q(x)) for a proposal x drawn from q (so q(x) > 0)."""
    if not q[token] > 0:
        raise ValueError(f"token {token} has draft probability 0 and cannot have been proposed")
    return min(1, p[token] / q[token])


def excess(p: Sequence, q: Sequence) -> tuple:
    """max(0, p − q) per token: what the target wants more of than the draft proposes."""
    if len(p) != len(q):
        raise ValueError(f"p and q need the same tokens, got {len(p)} and {len(q)}")
    return tuple(max(0 * a, a - b) for a, b in zip(p, q, strict=True))


def residual(p: Sequence, q: Sequence) -> tuple:
    """The correction distribution: max(0, p − q), normalised.

    Its total is the rejected mass, so it is zero only if p = q, where nothing is ever rejected;
    floats can still reject by a rounding error there, and then p itself is the right answer.
    """
    diff = excess(p, q)
    total = sum(diff)
    return tuple(d / total for d in diff) if total > 0 else tuple(p)


def balance(p: Sequence, q: Sequence, correction: str = "residual") -> dict:
    """The bookkeeping of one position; pass Fractions for exact numbers.

    accept_prob: min(1, p/q) per token (None where q = 0: never proposed); accepted: min(p, q), the
    mass kept unconditionally; rate: Σ accepted; rejected: 1 − rate; excess, excess_total:
    max(0, p − q) and its sum (= rejected); correction: the distribution a rejection draws from
    (``"residual"``: the excess normalised, None if nothing is ever rejected; ``"plain"``: p, wrong);
    added: rejected · correction; final: accepted + added, the distribution that comes out (= p with
    the right rule); distance: total variation between final and p.
    """
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}")
    zero = 0 * p[0]  # a zero of the caller's number type (Fraction stays Fraction)
    accepted = tuple(min(a, b) for a, b in zip(p, q, strict=True))
    rate = sum(accepted, zero)
    rejected = 1 - rate
    diff = excess(p, q)
    total = sum(diff, zero)
    corr = tuple(p) if correction == "plain" else tuple(d / total for d in diff) if total > 0 else None
    added = tuple(rejected * c for c in corr) if corr else (zero,) * len(p)
    final = tuple(a + c for a, c in zip(accepted, added, strict=True))
    return {
        "accept_prob": tuple(accept_prob(p, q, x) if q[x] > 0 else None for x in range(len(p))),
        "accepted": accepted, "rate": rate, "rejected": rejected,
        "excess": diff, "excess_total": total, "correction": corr, "added": added, "final": final,
        "distance": sum((abs(f - a) for f, a in zip(final, p, strict=True)), zero) / 2,
    }
