"""Gradient descent on a bowl in two weights: the page's numbers, the exact closed form of plain descent,
the learning rate's limit 2(1 + β)/λ_max against the iteration's eigenvalues, the reader's own input and
the numpy script."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from probierlabor.concepts import gradientenabstieg as gd
from probierlabor.kit import api

SLUG = gd.SLUG


def run(**raw):
    return api.run(SLUG, raw)


def test_the_page_bowl_has_loss_12_5_and_limit_one_half():
    r = run()["result"]
    assert Fraction(r["loss_start_exact"]) == Fraction(25, 2)  # ½(1·9 + 4·4)
    assert Fraction(r["limit_exact"]) == Fraction(1, 2)  # 2/λ_max = 2/4
    assert r["factors"] == [0.9, 0.6]
    assert not r["diverges"] and r["outside"] is None


@given(st.integers(1, 2000), st.integers(0, 30), st.integers(1, 2000), st.integers(1, 2000),
       st.integers(-400, 400), st.integers(-400, 400))
@settings(max_examples=60, deadline=None)
def test_plain_descent_shrinks_each_weight_by_one_minus_eta_lambda(lr, steps, c1, c2, s1, s2):
    eta, curv, start = Fraction(lr, 1000), (Fraction(c1, 100), Fraction(c2, 100)), (Fraction(s1, 100), Fraction(s2, 100))
    visited = gd.path(start, curv, eta, steps)
    for k, w in enumerate(visited):
        assert w == tuple((1 - eta * c) ** k * s for c, s in zip(curv, start))


def iteration_radius(eta: float, lam: float, beta: float) -> float:
    """The spectral radius of one heavy-ball step along a direction of curvature λ: (w, w_prev) ↦ (w', w)."""
    matrix = np.array([[1 + beta - eta * lam, -beta], [1.0, 0.0]])
    return max(abs(np.linalg.eigvals(matrix)))


@given(st.floats(0.001, 2.0), st.floats(0.1, 20.0), st.sampled_from([0.0, 0.5, 0.9, 0.99]))
def test_the_limit_is_where_the_iteration_stops_shrinking(eta, lam, beta):
    edge = float(gd.limit(Fraction(repr(lam)), Fraction(repr(beta))))
    if abs(eta - edge) > 1e-6 * edge:  # at the edge itself the radius is 1 up to rounding
        assert (iteration_radius(eta, lam, beta) < 1) == (eta < edge)


@pytest.mark.parametrize("raw, runs_away", [
    ({"lr": 0.49}, False), ({"lr": 0.51}, True),
    ({"lr": 0.99, "momentum": True, "beta": 0.0}, True),
    ({"lr": 0.7, "momentum": True, "beta": 0.5}, False),  # limit 2·1,5/4 = 0,75
    ({"lr": 0.51, "start": "-3; 0"}, False),  # no part along the steep direction
])
def test_the_path_runs_away_exactly_when_the_page_says_so(raw, runs_away):
    r = run(**raw, steps=50)["result"]
    beta = r["beta"]
    expected = any(r["lr"] > 2 * (1 + beta) / c and s != 0 for c, s in zip(r["curv"], r["start"]))
    assert r["diverges"] == expected
    grew = r["losses"][-1] > r["losses"][0]
    assert grew == r["diverges"]


def test_at_the_limit_the_steep_weight_swings_for_ever():
    r = run(lr=0.5, steps=21)["result"]
    assert r["swings"] and not r["diverges"]
    assert [p[1] for p in r["path"][:4]] == [2.0, -2.0, 2.0, -2.0]
    assert "genau auf der Grenze" in run(lr=0.5)["answer"]


def test_the_key_sentence_follows_every_control():
    summaries = {run(**raw)["summary"] + run(**raw)["answer"] for raw in (
        {}, {"lr": 0.01}, {"lr": 0.45}, {"lr": 0.55}, {"steps": 0}, {"steps": 5},
        {"momentum": True}, {"momentum": True, "beta": 0.5}, {"curv": "1; 1"}, {"start": "1; 1"})}
    assert len(summaries) == 10
    away = run(lr=0.55)["summary"]
    assert "größer als 2/λ_max = 0,5" in run(lr=0.55)["answer"] and "Ab Schritt 5 liegt der Weg außerhalb des Bildes" in away
    assert "kriecht" in run(lr=0.01)["summary"]
    assert "Zickzack" in run(lr=0.45)["summary"]
    assert "pendelt er zurück" in run(momentum=True)["summary"] and "pendelt" not in run()["summary"]
    readouts = {r["key"]: r["value"] for r in run(momentum=True)["readouts"]}
    assert readouts["limit"] == "2·(1 + β)/λ_max = 0,95"


def test_momentum_reaches_with_a_small_rate_what_plain_descent_cannot():
    plain = run(lr=0.01, steps=50)["result"]
    heavy = run(lr=0.01, steps=50, momentum=True)["result"]
    assert plain["ratio"] > 0.1 and heavy["ratio"] < 0.01
    assert heavy["limit"] == pytest.approx(2 * 1.9 / 4)


def test_own_start_and_curvature_are_typed_clamped_and_noted_in_german():
    out = run(start="9; -1,5", curv="0,05; 2", lr=7)
    assert out["url"]["start"] == "4_-1.5" and out["url"]["curv"] == "0.1_2"
    notes = " ".join(out["notes"])
    assert "Lernrate η" in notes and "2" in notes and "außerhalb des erlaubten Bereichs" in notes
    assert out["result"]["start"] == [4.0, -1.5]
    assert out["result"]["own"]


def test_a_start_in_the_minimum_moves_nowhere():
    out = run(start="0; 0")
    assert out["result"]["path"] == [[0.0, 0.0]] * 21
    assert "schon im Minimum" in out["summary"]


def test_the_start_is_a_handle_on_both_axes():
    figure = run(start="1,5; -2")["figure"]
    assert 'data-drag-xy="start"' in figure and 'data-drag-value="1.5 -2.0"' in figure
    assert 'role="slider"' in figure


raw_values = st.one_of(st.none(), st.text(max_size=12), st.floats(allow_nan=True), st.integers(-10**6, 10**6))


@given(st.fixed_dictionaries({}, optional={name: raw_values for name in ("lr", "steps", "momentum", "beta",
                                                                           "start", "curv")}))
@settings(max_examples=60, deadline=None)
def test_any_input_gives_a_finite_result_and_valid_svg(raw):
    out = api.run(SLUG, raw)
    r = out["result"]
    assert all(np.isfinite(x) for x in r["losses"])
    ET.fromstring(out["figure"])
    for layout in ("narrow",):
        ET.fromstring(api.run(SLUG, raw, layout=layout)["figure"])


def test_workshop_script_recomputes_the_path():
    """The numpy script (workshop/gradientenabstieg.py) walks the same path, with and without momentum."""
    from workshop_check import run_states, number

    states = [{}, api.preset_values(SLUG, "Zu große Lernrate"), api.preset_values(SLUG, "Mit Momentum"),
              {"start": "1.5_-2", "curv": "2_0.5", "lr": 0.7, "steps": 7}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "w₁") == pytest.approx(result["w"][0], rel=1e-4, abs=2e-6)
        assert number(out["stdout"], "w₂") == pytest.approx(result["w"][1], rel=1e-4, abs=2e-6)
        assert number(out["stdout"], "Verlust am Start") == pytest.approx(result["loss_start"], rel=1e-4)
        assert number(out["stdout"], "Verlust am Ende") == pytest.approx(result["loss_end"], rel=1e-4, abs=2e-6)
        assert number(out["stdout"], "Grenze der Lernrate") == pytest.approx(result["limit"], rel=1e-4)
