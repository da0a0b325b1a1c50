import math

from hypothesis import given, strategies as st

from probierlabor.kit import polyfit

xs10 = [-1 + 2 * (i + 0.5) / 10 for i in range(10)]


@given(st.lists(st.floats(min_value=-50, max_value=50), min_size=1, max_size=10))
def test_noiseless_polynomials_are_recovered(coef):
    ys = [polyfit.evaluate(coef, x) for x in xs10]
    got = polyfit.fit(xs10, ys, len(coef) - 1)
    assert all(math.isclose(a, b, abs_tol=1e-6 * (1 + max(map(abs, coef)))) for a, b in zip(got, coef))


@given(st.lists(st.floats(min_value=-300, max_value=300), min_size=10, max_size=10))
def test_training_error_never_rises_with_the_degree(ys):
    errors = [polyfit.rmse(polyfit.fit(xs10, ys, d), xs10, ys) for d in range(0, 10)]
    assert all(b <= a + 1e-7 for a, b in zip(errors, errors[1:]))
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
