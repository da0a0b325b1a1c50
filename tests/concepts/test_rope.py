"""RoPE: the figures of CONCEPTS.md §25, the rotation identity, shift invariance, the real frequencies."""

import itertools
import json
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import rope
from probierlabor.kit import api


@pytest.mark.parametrize("m, n, expected", [(3, 4, 0.866025), (5, 11, -1.0), (10, 22, 1.0), (0, 1, 0.866025),
                                            (0, 6, -1.0), (0, 12, 1.0)])
def test_the_articles_distances(m, n, expected):
    assert round(rope.score(m, n, 30), 6) == expected
    assert round(rope.compute(m=m, n=n)["score"], 6) == expected


def test_distance_1_is_cos_30_degrees():
    assert rope.score(3, 4, 30) == pytest.approx(math.sqrt(3) / 2, abs=1e-12)


@pytest.mark.parametrize("preset, distance, value", [("Abstand 1", 1, 0.866), ("Abstand 6", 6, -1.0),
                                                     ("Abstand 12", 12, 1.0), ("Beide verschoben", 1, 0.866)])
def test_presets(preset, distance, value):
    r = api.run("rope", api.preset_values("rope", preset))["result"]
    assert r["distance"] == distance and round(r["score"], 3) == value


@given(st.integers(0, 24), st.integers(0, 24), st.integers(0, 24), st.integers(1, 180))
def test_shifting_both_positions_keeps_the_dot_product(m, n, s, theta):
    r = rope.compute(m=m, n=n, shift=s, theta=theta)
    assert (r["m"], r["n"]) == (m + s, n + s)
    assert r["score"] == pytest.approx(rope.score(m, n, theta), abs=1e-12)
    assert r["score"] == pytest.approx(r["score_unshifted"], abs=1e-12)


vectors = st.tuples(st.floats(-3, 3), st.floats(-3, 3))


@given(vectors, vectors, st.integers(0, 200), st.integers(0, 200), st.floats(0.5, 180))
def test_the_rotation_identity(q, k, m, n, theta):
    # ⟨R(mθ)q, R(nθ)k⟩ = (q·k)·cos((n−m)θ) + (q_b·k_a − q_a·k_b)·sin((n−m)θ)
    phi = math.radians((n - m) * theta)
    expected = (q[0] * k[0] + q[1] * k[1]) * math.cos(phi) + (q[1] * k[0] - q[0] * k[1]) * math.sin(phi)
    assert rope.score(m, n, theta, q, k) == pytest.approx(expected, abs=1e-9)


@given(vectors, st.floats(-720, 720))
def test_the_rotation_keeps_the_length(u, degrees):
    assert math.hypot(*rope.rotate(u, degrees)) == pytest.approx(math.hypot(*u), abs=1e-12)


def test_the_value_vector_is_not_rotated():
    vs = {tuple(rope.compute(m=m, n=n, shift=s)["v"]) for m, n, s in [(0, 0, 0), (3, 4, 0), (3, 4, 7), (24, 1, 24)]}
    assert vs == {rope.V0}


def test_the_value_is_not_monotone_in_the_distance():
    scores = [rope.score(0, d, 30) for d in range(13)]
    assert scores[6] < scores[12] and scores[12] == pytest.approx(scores[0])


@pytest.mark.parametrize("dim", rope.DIMS)
def test_real_frequencies(dim):
    thetas = rope.frequencies(dim)
    assert len(thetas) == dim // 2 and thetas[0] == 1.0
    assert all(b < a for a, b in itertools.pairwise(thetas))
    for i, t in enumerate(thetas):
        assert t == pytest.approx(10000 ** (-2 * i / dim))
    assert rope.mean_score(0, dim) == pytest.approx(1.0)


def test_many_frequencies_do_not_return_to_1_at_distance_12():
    r = rope.compute(m=10, n=22)
    assert r["score"] == pytest.approx(1.0) and r["real_score"] < 0.9
    assert round(r["theta_first_deg"], 1) == 57.3
    assert r["theta_last_rad"] == pytest.approx(10000 ** (-126 / 128))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 24), st.integers(0, 24), st.integers(0, 24), st.integers(1, 180), st.sampled_from(rope.DIMS))
def test_any_setting_gives_a_valid_figure(m, n, s, theta, dim):
    out = api.run("rope", {"m": m, "n": n, "shift": s, "theta": theta, "dim": dim})
    assert out["notes"] == []
    json.dumps(out)
    r = out["result"]
    assert -1 - 1e-12 <= r["score"] <= 1 + 1e-12 and -1 <= r["real_score"] <= 1
    assert 0 <= r["angle_between"] <= 180
    assert r["score"] == pytest.approx(math.cos(math.radians(r["angle_between"])), abs=1e-9)
    ET.fromstring(out["figure"])
    ET.fromstring(f"<div>{out['extra']}</div>")


def test_readouts_are_german():
    values = {r.key: r.value for r in rope.view(rope.compute()).readouts}
    assert values["score"] == "0,866" and values["distance"] == "1" and values["angle_between"] == "30°"
    assert {r.key: r.value for r in rope.view(rope.compute(m=5, n=11)).readouts}["score"] == "−1,000"


def test_one_position_short_of_a_full_turn_is_not_back_at_one():
    """Near miss of the first task: distance 11 at 30° leaves 30° between the arrows, cos 330° ≈ 0,866."""
    out = api.run("rope", {"n": 14})
    assert out["result"]["distance"] == 11 and math.isclose(out["result"]["score"], math.sqrt(3) / 2)
    assert "full_turn" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_the_turned_product():
    """The numpy script (workshop/rope.py) at the default, two presets and other settings: same distance,
    same dot product, same angle, same mean over the real frequencies."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(rope.SLUG, "Abstand 6"), api.preset_values(rope.SLUG, "Beide verschoben"),
              {"m": 20, "n": 2, "shift": 5, "theta": 47, "dim": 16}]
    for state, out in zip(states, run_states(rope.SLUG, states)):
        r = api.run(rope.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Abstand") == r["distance"]
        assert number(out["stdout"], "Skalarprodukt") == pytest.approx(r["score"], abs=5e-5)
        assert number(out["stdout"], "Winkel dazwischen") == pytest.approx(r["angle_between"], abs=5e-3)
        assert number(out["stdout"], "Mittel über alle Paare") == pytest.approx(r["real_score"], abs=5e-5)


# -- own query and key, fractional θ (Param kind „values“, a float θ) ---------------------------------

def turned_product(q, k, m, n, theta):
    """⟨R(mθ)q, R(nθ)k⟩ from the closed form: (q·k)·cos((n−m)θ) + (q₂k₁ − q₁k₂)·sin((n−m)θ)."""
    phi = math.radians((n - m) * theta)
    return (q[0] * k[0] + q[1] * k[1]) * math.cos(phi) + (q[1] * k[0] - q[0] * k[1]) * math.sin(phi)


unit = st.integers(-100, 100).map(lambda i: i / 100)


@settings(max_examples=80, deadline=None)
@given(unit, unit, unit, unit, st.integers(0, 24), st.integers(0, 24), st.integers(0, 24), st.integers(1, 360))
def test_own_vectors_and_a_fractional_theta(q1, q2, k1, k2, m, n, s, halves):
    theta = halves / 2
    out = api.run("rope", {"query": f"{q1}; {q2}", "key": f"{k1}; {k2}", "m": m, "n": n, "shift": s, "theta": theta})
    assert out["notes"] == []
    r = out["result"]
    want = turned_product((q1, q2), (k1, k2), m, n, theta)
    assert r["score"] == pytest.approx(want, abs=1e-9) and r["score_unshifted"] == pytest.approx(want, abs=1e-9)
    # the angle between the arrows, and the product as lengths times its cosine
    lengths = math.hypot(q1, q2) * math.hypot(k1, k2)
    if lengths > 1e-9:
        assert r["score"] == pytest.approx(lengths * math.cos(math.radians(r["angle_between"])), abs=1e-9)
    # the real frequencies: the same q and k in every pair
    thetas = rope.frequencies(r["dim"])
    mean = sum(turned_product((q1, q2), (k1, k2), 0, n - m, math.degrees(t)) for t in thetas) / len(thetas)
    assert r["real_score"] == pytest.approx(mean, abs=1e-9)
    ET.fromstring(out["figure"])
    ET.fromstring(f"<div>{out['extra']}</div>")


def test_a_key_at_right_angles_and_a_half_degree_theta():
    out = api.run("rope", {"key": "0; 1", "theta": "22,5", "m": 0, "n": 4})
    r = out["result"]
    assert out["url"] == {"m": "0", "theta": "22.5", "key": "0_1"}
    # k starts at 90°, turns 4 · 22,5° = 90° more: 180° from q = (1; 0)
    assert r["angle_k"] == 180 and r["angle_between"] == 180 and r["score"] == pytest.approx(-1, abs=1e-12)
    assert "θ = 22,5°" in out["summary"] and "q (1; 0), k (0; 1)" in out["figure"]
    assert out["lesson"]["solved"] == []  # the tasks are about q = k = (1; 0)


def test_bad_vectors_and_theta_are_replaced_with_a_note():
    out = api.run("rope", {"query": "2; 0", "key": "1", "theta": "0,25"})
    assert out["params"]["query"] == [1.0, 0.0] and out["params"]["key"] == [1.0, 0.0]
    assert out["params"]["theta"] == 0.5
    notes = out["notes"]
    assert len(notes) == 3
    assert "2 liegt außerhalb von −1 bis 1 und wurde begrenzt" in notes[1]
    assert "mindestens 2 Werte; verwendet wird 1; 0" in notes[2]


def test_workshop_script_takes_own_vectors_and_a_fractional_theta():
    from workshop_check import number, run_states

    states = [{"query": "0,6; 0,8", "key": "-0,5; 0,2", "theta": 12.5, "m": 7, "n": 2, "dim": 16},
              {"key": "0; 1", "theta": 22.5, "m": 0, "n": 4}]
    for state, out in zip(states, run_states(rope.SLUG, states)):
        r = api.run(rope.SLUG, state)["result"]
        assert number(out["stdout"], "Skalarprodukt") == pytest.approx(r["score"], abs=5e-5)
        assert number(out["stdout"], "Winkel dazwischen") == pytest.approx(r["angle_between"], abs=5e-3)
        assert number(out["stdout"], "Mittel über alle Paare") == pytest.approx(r["real_score"], abs=5e-5)


def test_at_180_degrees_one_pair_tells_only_even_from_odd_distances():
    # the lesson's explanation says so, and not that the pair tells close distances apart
    score = {d: rope.compute(m=0, n=d, theta=180.0)["score"] for d in range(7)}
    assert len({round(score[d], 9) for d in (1, 3, 5)}) == 1 and len({round(score[d], 9) for d in (0, 2, 4, 6)}) == 1
    assert round(score[1], 9) != round(score[0], 9)
    [task] = [t for t in rope.LESSON.tasks if t.key == "neighbours_opposite"]
    assert "gerade von ungeraden" in task.explain and "nahe Abstände" not in task.explain


def test_the_key_sentence_reads_what_the_angle_means():
    """Under the circle: a shift changes nothing, a whole turn gives back the product of distance 0 while
    the real frequencies do not, and θ = 180° tells only even from odd distances."""
    default = api.run("rope")["summary"]
    assert "Abstand 1, die Pfeile stehen 30° auseinander, Skalarprodukt 0,866" in default
    # that a shift changes nothing answers the lesson's guess: a sentence of its own, held back until the guess
    assert "Es zählt nur der Abstand" in api.run("rope")["answer"] and "Es zählt nur" not in default
    assert "im Mittel 0,970" in default and "Umdrehungen" not in default
    shifted = api.run("rope", api.preset_values("rope", "Beide verschoben"))
    assert "Beide um 7 verschoben ändert daran nichts" in shifted["answer"] and "Skalarprodukt 0,866" in shifted["summary"]
    turn = api.run("rope", api.preset_values("rope", "Abstand 12"))["summary"]
    assert "volle Umdrehungen" in turn and "im Mittel 0,662 statt 1,000" in turn
    half = api.run("rope", {"theta": 180, "n": 6})["summary"]
    assert "nur gerade von ungeraden Abständen" in half and "Skalarprodukt −1,000" in half
