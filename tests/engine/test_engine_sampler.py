"""Sampler: greedy, temperature, top-k, top-p in Transformers' order, seeded draws, clear errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine.sampler import (
    GREEDY,
    SamplingParams,
    apply_temperature,
    draw,
    log_softmax,
    probabilities,
    process_logits,
    sample,
    softmax,
    top_k_filter,
    top_p_filter,
)

LN2 = np.log(2.0)


def kept(x):
    return set(np.flatnonzero(np.isfinite(x)).tolist())


def tv(a, b):
    return 0.5 * float(np.abs(np.asarray(a) - np.asarray(b)).sum())


# ------------------------------------------------------------------ invalid settings


@pytest.mark.parametrize("kwargs,message", [
    ({"temperature": 0.0}, "temperature must be a positive number"),
    ({"temperature": -1.0}, "temperature must be a positive number"),
    ({"temperature": float("nan")}, "temperature must be a positive number"),
    ({"temperature": float("inf")}, "temperature must be a positive number"),
    ({"top_k": 0}, "top_k must be a positive integer"),
    ({"top_k": -3}, "top_k must be a positive integer"),
    ({"top_k": 2.0}, "top_k must be a positive integer"),
    ({"top_k": True}, "top_k must be a positive integer"),
    ({"top_p": 0.0}, r"top_p must lie in \(0, 1\]"),
    ({"top_p": 1.5}, r"top_p must lie in \(0, 1\]"),
    ({"top_p": -0.1}, r"top_p must lie in \(0, 1\]"),
    ({"top_p": float("nan")}, r"top_p must lie in \(0, 1\]"),
    ({"greedy": True, "top_k": 0}, "top_k must be a positive integer"),
])
def test_invalid_settings_fail_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SamplingParams(**kwargs)


def test_greedy_ignores_temperature_and_sampling_needs_a_generator():
    with pytest.raises(TypeError, match="greedy must be True or False"):
        SamplingParams(greedy=1)
    SamplingParams(greedy=True, temperature=0.0)  # temperature plays no part in argmax decoding
    with pytest.raises(TypeError, match=r"numpy.random.Generator"):
        sample([1.0, 2.0], SamplingParams())
    with pytest.raises(TypeError, match=r"numpy.random.Generator"):
        sample([1.0, 2.0], SamplingParams(), rng=7)  # a bare seed is not accepted: pass a Generator
    with pytest.raises(ValueError, match="greedy decoding does not filter"):
        process_logits([1.0, 2.0], GREEDY)


@pytest.mark.parametrize("logits,message", [
    ([], "shape"), ([[[1.0]]], "shape"), ([1.0, float("nan")], "NaN"), ([-np.inf, -np.inf], "−inf everywhere"),
])
def test_invalid_logits_fail_clearly(logits, message):
    with pytest.raises(ValueError, match=message):
        sample(logits, SamplingParams(), np.random.default_rng(0))


# ------------------------------------------------------------------ the single rules, by example


def test_greedy_is_argmax_with_ties_to_the_lowest_id():
    logits = np.array([[0.1, 3.0, 3.0, -1.0], [5.0, 1.0, 2.0, 5.0]], dtype=np.float32)
    assert sample(logits, GREEDY).tolist() == [1, 0]
    assert probabilities(logits, GREEDY).tolist() == [[0, 1, 0, 0], [1, 0, 0, 0]]


def test_log_softmax_is_the_log_of_softmax_row_by_row_and_stays_finite_far_below_the_top():
    rows = np.array([[2.0, 1.0, -1.0], [0.0, 0.0, 0.0]])
    assert np.allclose(log_softmax(rows), np.log(softmax(rows)))
    assert np.allclose(np.exp(log_softmax(rows[0])).sum(), 1.0)
    far = log_softmax([0.0, -800.0])  # exp(−800) is 0 in float64: ln of softmax would be −inf
    assert np.isfinite(far).all() and far[1] == pytest.approx(-800.0)


def test_temperature_divides_the_logits():
    probs = probabilities([1.0, 2.0, 3.0], SamplingParams(temperature=0.5))
    np.testing.assert_allclose(probs, np.exp([2.0, 4.0, 6.0]) / np.exp([2.0, 4.0, 6.0]).sum(), rtol=1e-12)
    flat = probabilities([1.0, 2.0, 3.0], SamplingParams(temperature=100.0))
    assert np.ptp(flat) < 0.01  # high temperature: nearly uniform


def test_top_k_keeps_ties_at_the_kth_value_as_transformers_does():
    logits = np.array([3.0, 1.0, 2.0, 2.0, 0.0])
    assert kept(top_k_filter(logits, 1)) == {0}
    assert kept(top_k_filter(logits, 2)) == {0, 2, 3}  # the 2nd largest value 2.0 occurs twice
    assert kept(top_k_filter(logits, 3)) == {0, 2, 3}
    assert kept(top_k_filter(logits, 4)) == {0, 1, 2, 3}
    assert kept(top_k_filter(logits, 99)) == {0, 1, 2, 3, 4}  # k beyond the vocabulary keeps all
    out = top_k_filter(logits, 2)
    assert out[0] == 3.0 and out[2] == 2.0  # kept logits unchanged


def test_top_p_keeps_the_shortest_prefix_reaching_p():
    logits = np.array([3.0, 2.0, 1.0, 0.0]) * LN2  # probabilities 8/15, 4/15, 2/15, 1/15
    assert kept(top_p_filter(logits, 0.5)) == {0}
    assert kept(top_p_filter(logits, 0.6)) == {0, 1}
    assert kept(top_p_filter(logits, 0.85)) == {0, 1, 2}
    assert kept(top_p_filter(logits, 0.95)) == {0, 1, 2, 3}
    assert kept(top_p_filter(logits, 1.0)) == {0, 1, 2, 3}
    # Ties are broken by id, deterministically: the shortest prefix, not every tied token.
    assert kept(top_p_filter(np.zeros(4), 0.25)) == {0}
    assert kept(top_p_filter(np.zeros(4), 0.3)) == {0, 1}
    assert kept(top_p_filter(np.array([0.0, 1.0, 0.0, 1.0]), 0.3)) == {1}  # 0.366 each for ids 1 and 3


def test_order_is_temperature_then_top_k_then_top_p():
    # top-p after temperature: a sharper distribution needs fewer tokens to reach p.
    logits = np.array([2.0, 1.0, 0.0])
    assert kept(process_logits(logits, SamplingParams(temperature=0.5, top_p=0.7))) == {0}
    assert kept(process_logits(logits, SamplingParams(temperature=2.0, top_p=0.7))) == {0, 1}
    # top-p after top-k, on the renormalised survivors: k = 2 leaves 1/2 each, and p = 0.5 then keeps
    # one token; top-p first would see 0.498 each, keep two, and top-k would not change that.
    logits = np.array([0.0, 0.0, -5.0, -5.0])
    assert kept(process_logits(logits, SamplingParams(top_k=2, top_p=0.5))) == {0}
    assert kept(top_k_filter(top_p_filter(logits, 0.5), 2)) == {0, 1}


def test_batches_of_rows_are_processed_row_by_row():
    rows = np.array([[3.0, 2.0, 1.0, 0.0], [0.0, 1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 0.0]]) * LN2
    params = SamplingParams(temperature=0.9, top_k=3, top_p=0.8)
    batch = probabilities(rows, params)
    for row, expected in zip(rows, batch, strict=True):
        assert np.array_equal(probabilities(row, params), expected)
    assert sample(rows, params, np.random.default_rng(1)).shape == (3,)


# ------------------------------------------------------------------ drawing


def test_draws_follow_the_distribution_and_never_pick_probability_zero():
    probs = np.array([0.0, 0.2, 0.0, 0.5, 0.3, 0.0])
    tokens = draw(np.tile(probs, (100_000, 1)), np.random.default_rng(5))
    counts = np.bincount(tokens, minlength=6) / len(tokens)
    assert counts[[0, 2, 5]].sum() == 0
    assert tv(counts, probs) < 0.01
    shifted = np.bincount(draw(np.tile(np.roll(probs, 1), (100_000, 1)), np.random.default_rng(5)), minlength=6)
    assert tv(shifted / 100_000, probs) > 0.3  # the check can fail


def test_same_seed_same_tokens_other_seed_other_tokens():
    logits = np.random.default_rng(0).standard_normal((64, 48))
    params = SamplingParams(temperature=1.3, top_k=20, top_p=0.9)
    a = sample(logits, params, np.random.default_rng(42))
    b = sample(logits, params, np.random.default_rng(42))
    c = sample(logits, params, np.random.default_rng(43))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


# ------------------------------------------------------------------ invariants (hypothesis)

finite = st.floats(-30, 30, allow_nan=False, allow_infinity=False)
logit_rows = hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 12)),
                        elements=st.one_of(finite, st.sampled_from([0.0, 1.0, -2.5])))  # some ties
params_strategy = st.builds(
    SamplingParams,
    temperature=st.floats(0.05, 5.0),
    top_k=st.one_of(st.none(), st.integers(1, 14)),
    top_p=st.one_of(st.just(1.0), st.floats(0.01, 1.0)),
)


@given(rows=logit_rows, params=params_strategy, seed=st.integers(0, 2**32 - 1))
@settings(max_examples=150, deadline=None)
def test_sampling_invariants(rows, params, seed):
    probs = probabilities(rows, params)
    assert np.all(probs >= 0) and np.allclose(probs.sum(axis=-1), 1.0, atol=1e-12)
    tokens = sample(rows, params, np.random.default_rng(seed))
    assert np.array_equal(tokens, sample(rows, params, np.random.default_rng(seed)))  # determinism
    assert np.all(probs[np.arange(len(rows)), tokens] > 0)  # only kept tokens are drawn
    # Filtering only removes tokens; the survivors keep their relative weights (softmax of x / T).
    for x, pr in zip(rows, probs, strict=True):
        alive = pr > 0
        reference = softmax(x[alive] / params.temperature)
        np.testing.assert_allclose(pr[alive], reference, rtol=1e-9, atol=1e-300)


@given(rows=logit_rows, k=st.integers(1, 14))
@settings(max_examples=200, deadline=None)
def test_top_k_keeps_at_least_k_and_more_only_for_ties(rows, k):
    out = top_k_filter(rows, k)
    for x, y in zip(rows, out, strict=True):
        n = len(kept(y))
        ranked = np.sort(x)[::-1]
        assert n >= min(k, len(x))
        if n > k:
            assert ranked[k - 1] == ranked[k]  # a tie at the k-th value
        assert kept(y) == {i for i in range(len(x)) if x[i] >= ranked[min(k, len(x)) - 1]}


@given(rows=logit_rows, p=st.floats(0.001, 1.0), temperature=st.floats(0.1, 3.0))
@settings(max_examples=200, deadline=None)
def test_top_p_keeps_the_minimal_prefix(rows, p, temperature):
    x = apply_temperature(rows, temperature)
    out = top_p_filter(x, p)
    if p == 1:  # off: nothing is removed, even where rounding lets fewer tokens sum to 1.0
        assert np.array_equal(out, x)
        return
    for xi, yi in zip(x, out, strict=True):
        probs = softmax(xi)
        order = np.argsort(-probs, kind="stable").tolist()
        keep = kept(yi)
        n = len(keep)
        assert keep == set(order[:n])  # a prefix of the sorted order, ties by id
        mass = np.cumsum(probs[order])
        assert mass[n - 1] >= p or n == len(xi)  # reaches p (or everything is kept)
        if n > 1:
            assert mass[n - 2] < p  # one token fewer would not reach it: minimal


@given(rows=logit_rows, temperature=st.floats(0.05, 5.0), top_p=st.floats(0.01, 1.0), seed=st.integers(0, 1000))
@settings(max_examples=100, deadline=None)
def test_top_k_1_equals_greedy(rows, temperature, top_p, seed):
    rows = rows.copy()
    rows[np.arange(len(rows)), np.argmax(rows, axis=-1)] += 0.5  # a unique maximum in every row
    params = SamplingParams(temperature=temperature, top_k=1, top_p=top_p)
    assert np.array_equal(sample(rows, params, np.random.default_rng(seed)), sample(rows, GREEDY))
