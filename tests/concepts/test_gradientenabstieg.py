"""Gradient descent on a bowl in two weights: the page's numbers, the exact closed form of plain descent,
the learning rate's limit 2(1 + β)/λ_max against the iteration's eigenvalues, the reader's own input and
the numpy script."""

import itertools
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import solved_by_the_page, unmarked_roundings
from probierlabor.concepts import gradientenabstieg as gd
from probierlabor.kit import api, fmt

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


def test_the_guess_and_its_answer_name_the_limit_as_it_is():
    """At η = 2/λ_max itself the path swings for ever and does not run away: the answer is „über 0,5“."""
    guess = gd.LESSON.prediction
    limit = run()["result"]["limit"]
    assert guess.choices[guess.answer] == f"über {fmt.de_auto(limit)}"
    at, over = run(lr=limit)["result"], run(lr=0.501)["result"]
    assert at["factors"][1] == -1 and at["swings"] and not at["diverges"]
    assert not run(lr=limit)["lesson"]["shown"] and run(lr=0.501)["lesson"]["shown"]
    assert over["factors"][1] < -1 and "Für η > 0,5 ist das kleiner als −1" in guess.explain


@pytest.mark.parametrize("raw", [
    {"lr": 0.562}, {"lr": 0.501}, {"lr": 0.501, "steps": 50}, {"lr": 0.562, "start": "-3; 0,1", "steps": 3},
    {"lr": 0.562, "start": "-3; 0,1"}, {"lr": 0.6, "curv": "4; 4", "steps": 5}, {"lr": 1.2, "momentum": True},
    {"lr": 0.99, "momentum": True, "beta": 0.0, "steps": 2},
])
def test_a_path_that_runs_away_is_described_as_it_goes(raw):
    """Only the direction with a factor below −1 lands further away with every step; the other one may
    shrink, and over the first steps the loss may fall. The sentence says „gewachsen“ only where it grew."""
    out = run(**raw)
    r, text = out["result"], out["summary"]
    assert r["diverges"]
    if not r["momentum"]:
        for axis in r["edge_axes"]:
            along = [abs(p[axis]) for p in r["path"]]
            assert all(b > a for a, b in itertools.pairwise(along)), axis  # „landet weiter weg“, every step
            assert f"1 − η·λ{'₁₂'[axis]} = " in text
    assert ("gewachsen" in text) == (r["loss_end"] > r["loss_start"])
    assert "Auf Dauer wächst der Verlust ohne Grenze" in text


def test_at_the_momentum_limit_the_path_swings_without_dying_down():
    out = run(lr=0.95, momentum=True)
    r = out["result"]
    assert r["swings"] and r["loss_end"] > r["loss_start"]  # so no „sinkt nicht unter“ the end's loss
    assert "ohne abzuklingen" in out["summary"] and "sinkt nicht" not in out["summary"]


def test_rounded_numbers_carry_the_approx_sign_and_exact_ones_do_not():
    readouts = {r["key"]: r["value"] for r in run()["readouts"]}
    assert readouts["loss_start"] == "12,5" and readouts["loss_end"] == "≈ 0,0665"
    assert readouts["w"] == "≈ (−0,36; 0,00)" and readouts["factors"] == "0,9; 0,6"
    assert {r["key"]: r["value"] for r in run(steps=0)["readouts"]}["w"] == "(−3; 2)"
    assert "das sind ≈ 0,5\u202f% des Anfangs" in run()["summary"]
    assert unmarked_roundings(SLUG) == []  # the prose: „≈“ exactly before the numbers it rounds


def test_no_preset_no_number_in_the_text_and_not_the_default_solves_a_task():
    assert solved_by_the_page(SLUG) == {}


def test_a_task_on_a_region_takes_every_state_in_it():
    """„höchstens 0,05 über der Grenze“: any η in (0,5; 0,55]; „in höchstens 30 Schritten“: fewer too."""
    solved = lambda raw, key: key in run(**raw)["lesson"]["solved"]  # noqa: E731
    assert all(solved({"lr": lr, "steps": 50}, "edge") for lr in (0.501, 0.52, 0.55))
    assert not solved({"lr": 0.562}, "edge") and not solved({"lr": 0.5}, "edge")
    assert solved({"lr": 0.01, "momentum": True, "steps": 25}, "momentum")
    assert not solved({"lr": 0.01, "momentum": True, "steps": 50}, "momentum")


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


@given(st.fixed_dictionaries({}, optional=dict.fromkeys(("lr", "steps", "momentum", "beta", "start", "curv"), raw_values)))
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
    from workshop_check import number, run_states

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


def test_the_page_and_the_glossary_call_eta_a_factor_and_lambda_a_curvature():
    """η turns the gradient into the step (the step is η·|∇L|, not η); λ is how curved the bowl is, and each
    weight has its own factor 1 − η·λᵢ."""
    from pathlib import Path

    from probierlabor.pageblocks import glossary

    page = " ".join((Path(__file__).resolve().parents[2] / "pages" / f"{SLUG}.md").read_text(encoding="utf-8").split())
    for text in (page, glossary.by_term()["Lernrate"].explanation, gd.PARAMS[0].help):
        assert "Faktor der Gradient zum Schritt wird" in text and "wie weit ein Schritt geht" not in text.lower()
    assert "mit seinem festen Faktor \\(1 - \\eta \\lambda_i\\) malgenommen" in page
    assert "viermal so stark gekrümmt" in page and "viermal so stark gekrümmt" in gd.LESSON.prediction.question


def test_no_state_the_page_shows_before_the_guess_names_the_limit():
    """„Erst vermuten“ asks where the path runs away: the limit 2/λ_max shows only where the path itself
    reaches it (or with momentum, where it is another number); no preset's sentence names it."""
    for raw in [{}, *(p.values for p in gd.PRESETS)]:
        out = run(**raw)
        if out["lesson"]["shown"] or out["result"]["momentum"]:
            continue
        assert "limit" not in {r["key"] for r in out["readouts"]}, raw
        assert "λ_max" not in out["summary"] and "Grenze" not in out["summary"], raw
    assert {r["key"]: r["value"] for r in run(lr=0.5)["readouts"]}["limit"] == "2/λ_max = 0,5"


def test_the_zigzag_needs_a_part_along_its_direction():
    """Started on the w₁ axis, w₂ stays 0: a factor below 0 (or below −1) there moves nothing."""
    out = run(lr=0.562, start="-3; 0")
    assert not out["result"]["diverges"] and all(p[1] == 0 for p in out["result"]["path"])
    assert "Zickzack" not in out["summary"] and "springt" not in out["summary"]


def test_a_tiny_loss_is_written_as_a_decimal_and_a_loss_of_0_as_0():
    for raw in ({"lr": 0.562, "start": "-3; 0"}, {"lr": 0.25, "steps": 50}):
        out = run(**raw)
        shown = out["summary"] + " ".join(r["value"] for r in out["readouts"])
        assert 0 < out["result"]["loss_end"] < 1e-6 and "E" not in shown and "fast 0 (unter 0,000001)" in shown
    exact = run(lr=1, curv="1; 1")["summary"]
    assert "auf 0." in exact and "weniger als" not in exact and "genau im Minimum" in exact


def test_strong_momentum_swings_and_does_not_crawl():
    out = run(lr=0.01, momentum=True, beta=0.99, steps=50)
    assert min(p[1] for p in out["result"]["path"]) < 0  # w₂ crossed the valley's floor
    assert "kriecht" not in out["summary"] and "pendelt er zurück" in out["summary"]


@pytest.mark.parametrize("beta, times", [(0.9, 19), (0.5, 3)])
def test_at_the_momentum_limit_the_swing_grows_to_its_bound_and_the_sentence_says_so(beta, times):
    """On the limit with momentum the roots are −1 and −β: the swing along w₂ grows towards (1 + β)/(1 − β)
    times the start's part and never beyond, and the loss grows with it. The sentence says both."""
    limit = 2 * (1 + beta) / 4
    out = run(lr=limit, momentum=True, beta=beta, steps=50)
    r, text = out["result"], out["summary"]
    swing = [abs(p[1]) for p in r["path"]]
    assert max(swing) < times * 2 and swing[-1] > 0.9 * times * 2
    assert f"nie über das {times}-Fache des Abstands am Start hinaus" in text
    assert "gewachsen" in text and r["loss_end"] > r["loss_start"]


def test_momentum_with_beta_zero_is_plain_descent_and_no_sentence_speaks_of_swing():
    out = run(lr=0.3, momentum=True, beta=0.0)
    assert "Schwung" not in out["summary"] and "Zickzack" in out["summary"]
    assert "schaukelt" not in run(lr=0.5, momentum=True, beta=0.0)["summary"]
    assert "schaukelt" not in run(lr=0.6, momentum=True, beta=0.0)["summary"]


def test_no_preset_title_names_the_limit_the_guess_asks_for():
    """A preset's title shows on hover before the guess: the rule 2/λ_max with the question's λ = 1 and 4
    is the answer, and so is a learning rate said to run away."""
    for preset in gd.PRESETS:
        assert "λ_max" not in preset.help and "läuft davon" not in preset.help, preset.label


def test_the_momentum_prose_says_the_swing_at_the_limit_is_bounded_but_large():
    from pathlib import Path

    page = " ".join((Path(__file__).resolve().parents[2] / "pages" / f"{SLUG}.md").read_text(encoding="utf-8").split())
    assert "Genau auf der Grenze beruhigt er sich nie" in page and "nicht ohne Grenze" in page
