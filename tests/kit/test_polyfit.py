import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.kit import polyfit

xs10 = [-1 + 2 * (i + 0.5) / 10 for i in range(10)]


@given(st.lists(st.floats(min_value=-50, max_value=50), min_size=1, max_size=10))
def test_noiseless_polynomials_are_recovered(coef):
    ys = [polyfit.evaluate(coef, x) for x in xs10]
    got = polyfit.fit(xs10, ys, len(coef) - 1)
    assert all(math.isclose(a, b, abs_tol=1e-6 * (1 + max(map(abs, coef)))) for a, b in zip(got, coef))


@given(st.lists(st.floats(min_value=-300, max_value=300), min_size=10, max_size=10))
def test_training_error_never_rises_with_the_degree(ys):
    errors = [polyfit.rmse(polyfit.fit(xs10, ys, d), xs10, ys) for d in range(10)]
    assert all(b <= a + 1e-7 for a, b in itertools.pairwise(errors))
    assert errors[-1] < 1e-6  # 10 coefficients through 10 points


@given(st.lists(st.floats(min_value=-300, max_value=300), min_size=10, max_size=10),
       st.sampled_from([1e-4, 1e-2, 1.0]))
def test_a_penalty_costs_training_error_and_shrinks_the_coefficients(ys, lam):
    plain, ridge = polyfit.fit(xs10, ys, 9), polyfit.fit(xs10, ys, 9, lam)
    assert polyfit.rmse(ridge, xs10, ys) >= polyfit.rmse(plain, xs10, ys) - 1e-9
    assert sum(c * c for c in ridge[1:]) <= sum(c * c for c in plain[1:]) + 1e-6


def test_the_intercept_is_not_penalised():
    ys = [100.0] * 10
    coef = polyfit.fit(xs10, ys, 3, ridge=1e6)
    assert math.isclose(coef[0], 100.0) and all(abs(c) < 1e-9 for c in coef[1:])


@pytest.mark.parametrize("seed", range(25))
def test_fit_is_numpys_least_squares_on_random_problems(seed):
    rng = np.random.default_rng(seed)
    degree = int(rng.integers(0, 10))
    m = int(rng.integers(degree + 1, 81))
    xs = rng.uniform(-1, 1, m).tolist()
    ys = rng.normal(0, rng.uniform(0.1, 100), m).tolist()
    ridge = float(rng.choice([0.0, 10.0 ** rng.uniform(-6, 2)]))
    a = np.vander(xs, degree + 1, increasing=True)
    b = np.array(ys)
    if ridge:  # the penalty as extra rows sqrt(ridge)·c_j = 0, intercept free
        a = np.vstack([a, np.sqrt(ridge) * np.eye(degree + 1)[1:]])
        b = np.concatenate([b, np.zeros(degree)])
    want = np.linalg.lstsq(a, b, rcond=None)[0]
    got = polyfit.fit(xs, ys, degree, ridge)
    # the same minimiser up to the problem's conditioning
    scale = np.linalg.cond(a) * 1e-12 * (1 + np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=0, atol=max(scale, 1e-9))
    residual = lambda c: np.linalg.norm(a @ c - b)  # noqa: E731
    assert residual(np.array(got)) <= residual(want) * (1 + 1e-9) + 1e-12


def test_too_few_distinct_x_values_are_refused_in_general_terms():
    with pytest.raises(ValueError) as caught:
        polyfit.fit([0.5, 0.5, 0.5, -0.2], [1.0, 2.0, 3.0, 4.0], 2)
    assert "x-Werte" in str(caught.value) and "Temperatur" not in str(caught.value)


@given(st.lists(st.floats(min_value=-1, max_value=1), min_size=10, max_size=40, unique=True),
       st.data(), st.sampled_from([0.0, 1e-4, 1e-2, 1.0]))
def test_fits_of_every_degree_are_fit_digit_for_digit(xs, data, ridge):
    ys = data.draw(st.lists(st.floats(min_value=-300, max_value=300), min_size=len(xs), max_size=len(xs)))
    top = data.draw(st.integers(0, 9))
    try:
        want = [polyfit.fit(xs, ys, d, ridge) for d in range(top + 1)]
    except ValueError:  # x values too close for this degree: fits refuses as fit does
        with pytest.raises(ValueError):
            polyfit.fits(xs, ys, top, ridge)
        return
    assert polyfit.fits(xs, ys, top, ridge) == want
