"""EWC with two weights: every figure of CONCEPTS.md §5, and the exact optimality of each solution."""

import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.concepts import ewc
from probierlabor.kit import api


def rounded(values, digits=2):
    return tuple(round(float(v), digits) for v in values)


def test_without_protection_both_weights_move_to_2_and_the_old_loss_is_5_05():
    w = ewc.solve("none", 1)
    assert w == (2, 2)
    assert ewc.old_loss(w) == Fraction(505, 100)
    assert ewc.new_loss(w) == 0


def test_equal_penalty_stops_halfway():
    w = ewc.solve("equal", 1)
    assert w == (Fraction(5, 3), Fraction(5, 3))
    assert round(float(sum(w)), 2) == 3.33
    assert round(float(ewc.old_loss(w)), 6) == 2.244444
    assert round(float(ewc.new_loss(w)), 6) == 0.222222


def test_ewc_moves_the_unimportant_weight():
    w = ewc.solve("ewc", 1)
    assert rounded(w) == (1.02, 2.80)
    assert round(float(sum(w)), 2) == 3.82
    assert round(float(ewc.old_loss(w)), 2) == 0.16
    assert round(float(ewc.old_loss(w)), 6) == 0.163948
    assert round(float(ewc.new_loss(w)), 6) == 0.016232


@pytest.mark.parametrize("mode, lam, expected", [
    ("ewc", 0.1, (1.0196, 2.9608)), ("ewc", 10, (1.0100, 1.9950)),
    ("equal", 0.1, (1.9524, 1.9524)), ("equal", 10, (1.1667, 1.1667)),
])
def test_catalogue_values_for_other_lambdas(mode, lam, expected):
    assert rounded(ewc.solve(mode, lam), 4) == expected


def test_lambda_to_zero_is_not_unprotected_learning():
    w = ewc.solve("ewc", Fraction(1, 10**9))
    assert abs(float(w[0]) - 1.0198) < 1e-4 and abs(float(w[1]) - 2.9802) < 1e-4


lams = st.fractions(min_value=Fraction(1, 100), max_value=100)


@given(st.sampled_from(["equal", "ewc"]), lams)
def test_the_solution_is_the_exact_minimum(mode, lam):
    w = ewc.solve(mode, lam)
    weights = ewc.IMPORTANCE if mode == "ewc" else (1, 1)
    for wi, c, start in zip(w, weights, ewc.START):
        assert (sum(w) - 4) + lam * c * (wi - start) == 0  # gradient of the objective vanishes
    assert 2 < sum(w) < 4


@given(st.sampled_from(["equal", "ewc"]), lams, lams)
def test_a_stronger_penalty_never_moves_further(mode, a, b):
    small, large = min(a, b), max(a, b)
    assert sum(ewc.solve(mode, large)) <= sum(ewc.solve(mode, small))
    assert ewc.old_loss(ewc.solve(mode, large)) <= ewc.old_loss(ewc.solve(mode, small))


@given(st.sampled_from(["equal", "ewc"]))
def test_the_sum_approaches_4_as_lambda_goes_to_0(mode):
    gaps = [4 - sum(ewc.solve(mode, Fraction(1, 10**k))) for k in range(1, 8)]
    assert all(b < a for a, b in itertools.pairwise(gaps)) and gaps[-1] < Fraction(1, 10**5)


@given(st.sampled_from([m for m, _ in ewc.MODES]), st.floats(min_value=0.01, max_value=100))
def test_compute_and_view_never_fail(mode, lam):
    r = ewc.compute(mode=mode, lam=lam)
    view = ewc.view(r)
    assert view.figure.startswith("<svg") and len(view.readouts) == 4
    assert r["old_loss"] >= 0 and r["new_loss"] >= 0


def test_readouts_use_german_decimals():
    view = ewc.view(ewc.compute("ewc", 1.0))
    values = {r.key: r.value for r in view.readouts}
    assert values == {"w": "(1,02; 2,80)", "sum": "3,82", "old_loss": "0,16", "new_loss": "0,02"}


def test_the_next_larger_lambda_on_the_slider_misses_the_sum_of_3_9():
    def solved(**raw):
        return "learn_new" in api.run("ewc", raw)["lesson"]["solved"]
    assert solved(lam=0.501)  # 10^-0.3 on the slider: sum 3,906
    assert not solved(lam=0.562)  # 10^-0.25: sum 3,895
    assert not solved(mode="equal", lam=0.1)  # the sum is reached, but not by EWC


def test_workshop_script_recomputes_the_weights_and_losses():
    """The numpy script (workshop/ewc.py) solves the same problems: same weights and losses
    for EWC, for equal penalties at another λ and without protection."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(ewc.SLUG, "Ohne Schutz"), {**api.preset_values(ewc.SLUG, "Gleiche Strafe"),
                                                               "lam": 3.3}]
    for state, out in zip(states, run_states(ewc.SLUG, states)):
        result = api.run(ewc.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "w₁") == pytest.approx(result["w"][0], abs=1e-4)
        assert number(out["stdout"], "w₂") == pytest.approx(result["w"][1], abs=1e-4)
        assert number(out["stdout"], "Summe") == pytest.approx(result["sum"], abs=1e-4)
        assert number(out["stdout"], "Verlust alte Aufgabe") == pytest.approx(result["old_loss"], abs=1e-4)
        assert number(out["stdout"], "Verlust neue Aufgabe") == pytest.approx(result["new_loss"], abs=1e-4)


# -- own importances F and an own start (Param kind „values“) -----------------------------------------

def cramer(importance, start, lam, mode):
    """The minimum from the two linear equations (w₁ + w₂ − 4) + λ·cᵢ·(wᵢ − sᵢ) = 0, by Cramer's rule."""
    c1, c2 = importance if mode == "ewc" else (1, 1)
    a, b, d = 1 + lam * c1, 1, 1 + lam * c2  # [[a, b], [b, d]] · w = r
    r1, r2 = 4 + lam * c1 * start[0], 4 + lam * c2 * start[1]
    det = a * d - b * b
    return (r1 * d - b * r2) / det, (a * r2 - b * r1) / det


@given(st.sampled_from(["equal", "ewc"]), st.integers(1, 10_000), st.integers(1, 10_000),
       st.integers(0, 400), st.integers(0, 400), st.sampled_from([0.01, 0.5, 1.0, 3.16, 100.0]))
def test_own_importances_and_start_give_the_exact_minimum(mode, f1, f2, s1, s2, lam):
    F, start = (f1 / 100, f2 / 100), (s1 / 100, s2 / 100)
    out = api.run("ewc", {"mode": mode, "lam": lam, "F": "; ".join(map(str, F)), "start": "; ".join(map(str, start))})
    assert out["notes"] == []
    exact = [Fraction(repr(x)) for x in F], [Fraction(repr(x)) for x in start]
    want = cramer(*exact, Fraction(repr(lam)), mode)
    assert tuple(Fraction(x) for x in out["result"]["w_exact"]) == want
    assert ewc.view(out["result"]).figure.startswith("<svg")


def test_own_values_move_the_start_and_the_stiff_weight():
    out = api.run("ewc", {"F": "0,1; 10", "start": "2; 0,5"})
    r = out["result"]
    assert out["url"] == {"F": "0.1_10", "start": "2_0.5"} and out["notes"] == []
    # F swapped: now w₂ is the stiff one and w₁ takes the change; start sum 2,5, so D = 1,5
    assert r["w_exact"] == [str(cramer((Fraction(1, 10), 10), (2, Fraction(1, 2)), 1, "ewc")[0]),
                            str(cramer((Fraction(1, 10), 10), (2, Fraction(1, 2)), 1, "ewc")[1])]
    assert r["all_modes"]["none"] == [2.75, 1.25]
    assert "w₁ (unwichtig, F = 0,1)" in out["figure"] and "Start (2; 0,5)" in out["figure"]
    # EWC's point (3,35; 0,51) lies near the usual place of the line's name: it moves to the other end
    where = lambda figure: re.search(r'pl-constraint-label" x="([\d.]+)" y="([\d.]+)"', figure).groups()  # noqa: E731
    (x, y), (x0, y0) = map(float, where(out["figure"])), map(float, where(api.run("ewc")["figure"]))
    assert x < x0 and y < y0  # left and higher up: the line's upper end
    assert out["lesson"]["solved"] == []  # the tasks are about the article's numbers


def test_the_defaults_are_the_articles_numbers_and_change_nothing():
    assert api.run("ewc", {"F": "10; 0,1", "start": "1; 1"})["figure"] == api.run("ewc")["figure"]
    assert api.run("ewc", {"F": "10; 0,1"})["url"] == {}


@pytest.mark.parametrize("raw, value, words", [
    ("5", (10.0, 0.1), "mindestens 2 Werte; verwendet wird 10; 0,1"),
    ("1; 2; 3", (1.0, 2.0), "höchstens 2 Werte, der letzte wurde weggelassen"),
    ("0; 1000", (0.01, 100.0), "2 Werte liegen außerhalb von 0,01 bis 100 und wurden begrenzt"),
    ("zehn; 1", (10.0, 0.1), "„zehn“ ist keine Zahl"),
])
def test_bad_importances_are_replaced_with_one_note(raw, value, words):
    out = api.run("ewc", {"F": raw})
    assert tuple(out["params"]["F"]) == value
    (note,) = out["notes"]
    assert note.startswith("„Wichtigkeit F von w₁ und w₂“:") and words in note


def test_workshop_script_takes_own_importances_and_start():
    from workshop_check import number, run_states

    states = [{"F": "0,1; 10", "start": "2; 0,5"}, {"mode": "equal", "start": "0; 3", "lam": 2.0}]
    for state, out in zip(states, run_states(ewc.SLUG, states)):
        result = api.run(ewc.SLUG, state)["result"]
        assert number(out["stdout"], "w₁") == pytest.approx(result["w"][0], abs=1e-4)
        assert number(out["stdout"], "w₂") == pytest.approx(result["w"][1], abs=1e-4)
        assert number(out["stdout"], "Verlust alte Aufgabe") == pytest.approx(result["old_loss"], abs=1e-4)


# the article's states and own starts in every corner and along the edges, where the points crowd together
NARROW_CASES = ([{}] + [api.preset_values("ewc", p.label) for p in ewc.PRESETS]
                + [{"start": "3; -1"}, {"start": "2; 0"}]
                + [{"start": start, "mode": mode, "lam": lam, "F": F}
                   for start in ("0; 0", "4; 4", "0; 4", "4; 0", "0; 3,5", "3,5; 0", "0; 2", "2; 2")
                   for mode in ("none", "equal", "ewc") for lam in (0.01, 1.0, 100.0)
                   for F in ("10; 0,1", "0,1; 10")])


def test_no_solution_label_crosses_the_constraint_line_on_a_narrow_figure():
    """The solutions lie on w₁ + w₂ = 4: on a phone a long label beside them ran over the line."""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    for raw in NARROW_CASES:
        fig = ET.fromstring(api.run("ewc", raw, layout="narrow")["figure"])
        left, top, right, bottom = map(float, fig.get("data-box").split())
        x0, x1 = map(float, fig.get("data-xrange").split())
        y0, y1 = map(float, fig.get("data-yrange").split())

        def line_y(px, box=(left, top, right, bottom), xs=(x0, x1), ys=(y0, y1)):  # w₂ = 4 − w₁, in pixels
            left, top, right, bottom = box
            x0, x1 = xs
            y0, y1 = ys
            w2 = 4 - (x0 + (px - left) / (right - left) * (x1 - x0))
            return bottom - (w2 - y0) / (y1 - y0) * (bottom - top)

        for t in fig.iter(ns + "text"):
            if not {"pl-value", "pl-faint"} & set(t.get("class").split()):
                continue
            x, y, reach = float(t.get("x")), float(t.get("y")), 7.5 * len(t.text)
            lo, hi = {"start": (x, x + reach), "end": (x - reach, x), "middle": (x - reach / 2, x + reach / 2)}[
                t.get("text-anchor")]
            ys = [line_y(px) for px in (max(lo, left), min(hi, right))]
            assert not (min(ys) <= y + 3 and max(ys) >= y - 12), (raw, t.text)


def test_a_narrow_figures_labels_keep_three_pixels_from_every_point_and_from_each_other():
    """The „Gleiche Strafe“ preset's numbers lay over the start's circle; with an own start in a corner
    two labels lay over each other. A label without a free place goes into the key, with its numbers."""
    import xml.etree.ElementTree as ET

    from figure_text import NS, font_sizes, gap, text_boxes
    sizes = font_sizes("pl-faint", "narrow")
    for raw in NARROW_CASES:
        figure = api.run("ewc", raw, layout="narrow")["figure"]
        labels = [(text, box) for text, box, cls in text_boxes(figure, sizes)
                  if {"pl-value", "pl-faint"} & set(cls.split())]
        dots = []
        for c in ET.fromstring(figure).iter(NS + "circle"):
            if {"pl-sol", "pl-start"} & set(c.get("class").split()):
                x, y, edge = float(c.get("cx")), float(c.get("cy")), float(c.get("r")) + 1.25  # half the stroke
                dots.append((x - edge, y - edge, x + edge, y + edge))
        for i, (text, box) in enumerate(labels):
            assert all(gap(box, dot) >= 3 for dot in dots), (raw, text)
            assert all(gap(box, other) >= 3 for _, other in labels[i + 1:]), (raw, text)
    crowded = api.run("ewc", api.preset_values("ewc", "Gleiche Strafe"), layout="narrow")["figure"]
    assert ">gleiche Strafe (1,67; 1,67)</text>" in crowded  # a row of the key, name and numbers


def test_the_key_sentence_weighs_the_old_loss_against_learning_without_protection():
    def summary(**raw):
        return api.run("ewc", raw)["summary"]
    assert summary(mode="none") == ("Ohne Schutz wandern beide Gewichte gleich weit, auf (2,00; 2,00), und die Summe "
                                    "erreicht 4. Doch der alte Verlust steigt auf 5,05.")
    ewc_ = summary(mode="ewc")
    assert "hält die Gewichte bei (1,02; 2,80), ihre Summe bei 3,82 (Ziel 4)" in ewc_
    assert "auf 0,16 statt 5,05 ohne Schutz" in ewc_ and ewc_.endswith("vor allem w₂, das weniger wichtige Gewicht.")
    equal = summary(mode="equal")
    assert "auf 2,24 statt 5,05 ohne Schutz" in equal and "weniger wichtige" not in equal
    assert "vor allem w₁" in summary(mode="ewc", F="0,1; 10")
    assert "Kein Gewicht muss wandern" in summary(start="2; 2")
