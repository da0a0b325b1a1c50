"""Validation set: every figure of CONCEPTS.md §1 in exact fractions, the fitting, the test-day protocol."""

import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.concepts import validation_set as vs
from probierlabor.kit import api

SLUG = "validation-set"


def run(**raw):
    return api.run(SLUG, raw)


# -- the rules, fitted on the notebook only ----------------------------------------------

def test_the_line_is_2T_minus_20_and_the_best_line_by_absolute_error():
    assert vs.fit_line() == (-20, 2, 0)
    best = sum(abs(y - vs.predict(vs.fit_line(), t)) for t, y in vs.NOTEBOOK)
    # no line through any two notebook points, nor the least-squares line, does better
    for a in range(-40, 1):
        for b in (Fraction(k, 4) for k in range(17)):
            assert sum(abs(y - (a + b * t)) for t, y in vs.NOTEBOOK) >= best
    assert sum(abs(y - (Fraction(-18) + 2 * t)) for t, y in vs.NOTEBOOK) > best  # 2T − 18 is least squares


def test_the_curve_is_the_parabola_through_the_three_notebook_points():
    c = vs.fit_curve()
    assert c == (-740, 68, Fraction(-3, 2))
    for t, y in vs.NOTEBOOK:
        assert vs.predict(c, t) == y
    for t in range(10, 36):  # the catalogue's centred form 30.5 − (T−23) − 1.5(T−23)²
        assert vs.predict(c, t) == Fraction(61, 2) - (t - 23) - Fraction(3, 2) * (t - 23) ** 2


def test_the_third_rule_is_the_notebook_mean_26():
    assert vs.fit_mean() == (26, 0, 0)


@pytest.mark.parametrize("t, line, curve", [(21, 22, Fraction(53, 2)), (23, 26, Fraction(61, 2)),
                                            (25, 30, Fraction(45, 2))])
def test_predictions_on_the_validation_days(t, line, curve):
    rules = vs.rules()
    assert vs.predict(rules["line"], t) == line
    assert vs.predict(rules["curve"], t) == curve


def test_validation_sales_are_the_articles():
    assert vs.VALIDATION == ((21, 23), (23, 25), (25, 31))
    assert [t for t, _ in vs.NOTEBOOK] == [20, 22, 24] and vs.NOTEBOOK[1] == (22, 30)  # the tour group


# -- the catalogue's checklist, exactly ------------------------------------------------------

def test_validation_mae_curve_35_6_line_1_mean_3():
    rules = vs.rules()
    assert vs.mae(rules["curve"], vs.VALIDATION) == Fraction(35, 6)
    assert round(float(Fraction(35, 6)), 2) == 5.83
    assert vs.mae(rules["line"], vs.VALIDATION) == 1
    assert vs.mae(rules["mean"], vs.VALIDATION) == 3


def test_notebook_score_line_2_curve_0_mean_4():
    rules = vs.rules()
    assert vs.mae(rules["line"], vs.NOTEBOOK) == 2
    assert vs.mae(rules["curve"], vs.NOTEBOOK) == 0
    assert vs.mae(rules["mean"], vs.NOTEBOOK) == 4
    assert [abs(y - vs.predict(rules["line"], t)) for t, y in vs.NOTEBOOK] == [0, 6, 0]


def test_test_days_line_1_curve_51_4_mean_6():
    rules = vs.rules()
    assert vs.mae(rules["line"], vs.TEST) == 1
    assert [vs.predict(rules["line"], t) for t, _ in vs.TEST] == [18, 32]
    assert vs.mae(rules["curve"], vs.TEST) == Fraction(51, 4)
    assert vs.mae(rules["mean"], vs.TEST) == 6


def test_there_are_three_candidate_rules_and_the_winners_differ():
    r = vs.compute()
    assert len(r["coef"]) == 3
    assert r["winner"] == {"notebook": "curve", "validation": "line"}


# -- the protocol: test days open only after fixing, changing afterwards is flagged ----------

def test_test_days_are_hidden_until_a_rule_is_fixed():
    for rule, _ in vs.RULES:
        r = vs.compute(rule=rule, fixed="none")
        assert r["state"] == "hidden" and not r["test_open"]
        tests = [d for d in r["days"] if d["split"] == "test"]
        assert len(tests) == 2 and all(d["y"] is None and set(d["err"].values()) == {None} for d in tests)
        assert all(r["mae"][n]["test"] is None for n, _ in vs.RULES)
        out = run(rule=rule)
        test_rows = out["extra"].split("<tbody>")[1].split(">Test<")[1]
        assert "<td>31</td>" not in test_rows and "<td>19</td>" not in test_rows  # no sales shown
        assert test_rows.count(">?</td>") == 8
        assert {x["key"]: x["value"] for x in out["readouts"]}["test"] == "verdeckt"


def test_fixing_opens_the_test_for_the_fixed_rule_only():
    r = vs.compute(rule="line", fixed="line")
    assert r["state"] == "honest"
    assert r["mae_exact"]["line"]["test"] == "1"
    assert r["mae"]["curve"]["test"] is None and r["mae"]["mean"]["test"] is None
    out = run(rule="line", fixed="line")
    assert "Testtage wurden zur Auswahl benutzt" not in out["extra"] + out["summary"] + out["figure"]


@pytest.mark.parametrize("rule, fixed", [(a, b) for a, _ in vs.RULES for b, _ in vs.RULES if a != b])
def test_changing_the_rule_after_the_test_shows_the_warning(rule, fixed):
    out = run(rule=rule, fixed=fixed)
    assert out["result"]["state"] == "used"
    for text in (out["extra"], out["summary"], out["figure"]):
        assert "Testtage wurden zur Auswahl benutzt" in text
    assert {x["key"]: x["value"] for x in out["readouts"]}["state"] == "zur Auswahl benutzt"
    assert all(out["result"]["mae"][n]["test"] is not None for n, _ in vs.RULES)


def test_the_state_travels_in_the_url():
    out = run(rule="line", fixed="curve")
    assert out["url"] == {"rule": "line", "fixed": "curve"}
    again = api.run(SLUG, out["url"])
    assert again["summary"] == out["summary"] and again["result"]["state"] == "used"


def test_presets_cover_the_described_cases():
    states = {p.label: vs.compute(**api.preset_values(SLUG, p.label))["state"] for p in vs.PRESETS}
    assert states == {"Von vorn": "hidden", "Gerade": "hidden", "Gerade festlegen": "honest",
                      "Kurve festlegen": "honest", "Nach dem Test gewechselt": "used"}


# -- display ------------------------------------------------------------------------------

@pytest.mark.parametrize("value, text", [(Fraction(2), "2"), (Fraction(7, 2), "3,5"), (Fraction(51, 4), "12,75"),
                                         (Fraction(35, 6), "35/6 ≈ 5,83"), (Fraction(-1, 3), "−1/3 ≈ −0,33"),
                                         (Fraction(1, 8), "0,125"), (None, "–")])
def test_exact_fractions_in_german(value, text):
    assert vs.exact_de(value) == text


def test_readouts_and_table_show_exact_fractions():
    out = run(rule="curve")
    shown = {x["key"]: x["value"] for x in out["readouts"]}
    assert shown["notebook"] == "0" and shown["validation"] == "35/6 ≈ 5,83"
    assert "35/6<br>≈ 5,83" in out["extra"] and "3,5" in out["extra"] and "8,5" in out["extra"]
    assert run(rule="line")["summary"].startswith("Die Gerade liegt im Heft 2 Kugeln daneben, "
                                                   "bei der Validierung nur 1 Kugel")


def test_the_exact_values_are_serialised_as_floats_and_strings():
    r = run(rule="curve", fixed="curve")["result"]
    assert r["mae"]["curve"]["validation"] == pytest.approx(35 / 6)
    assert r["mae_exact"]["curve"]["validation"] == "35/6"
    assert r["mae_frac"]["curve"]["test"] == [51, 4]


@given(st.sampled_from([r for r, _ in vs.RULES] + ["unsinn", 3]),
       st.sampled_from([f for f, _ in vs.FIXED] + ["", "x"]))
def test_any_input_gives_a_valid_figure_and_table(rule, fixed):
    out = api.run(SLUG, {"rule": rule, "fixed": fixed})
    ET.fromstring(out["figure"])
    ET.fromstring("<div>" + out["extra"].replace("&shy;", "&#173;").replace("<br>", "<br/>") + "</div>")
    assert out["result"]["state"] in {"hidden", "honest", "used"}
    for rule_values in out["result"]["mae"].values():
        assert all(v is None or v >= 0 for v in rule_values.values())


def test_fixing_the_notebook_winner_or_switching_after_the_test_is_not_the_honest_choice():
    def solved(**raw):
        return "honest" in run(**raw)["lesson"]["solved"]
    assert solved(rule="line", fixed="line")
    assert not solved(rule="curve", fixed="curve")  # fixed and honest, but chosen by the notebook
    assert not solved(rule="curve", fixed="line")  # the validation's pick, abandoned after the test


def test_workshop_script_recomputes_the_errors():
    """The numpy script (workshop/validation_set.py): the same errors per split, test days only once fixed."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(SLUG, "Gerade festlegen"), api.preset_values(SLUG, "Nach dem Test gewechselt"),
              {"lam": 1, "rule": "curve", "fixed": "curve"}, {"lam": 100, "rule": "curve"}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        for split, label in (("notebook", "Heft"), ("validation", "Validierung"), ("test", "Test")):
            expected = result["mae"][result["rule"]][split]
            if expected is None:
                assert f"Fehler {label}:" not in out["stdout"]
            else:
                assert number(out["stdout"], f"Fehler {label}") == pytest.approx(expected, abs=1e-4)
        assert f"in der Validierung: {vs.RULE_LABEL[result['winner']['validation']]}\n" in out["stdout"]
        assert ("zur Auswahl benutzt" in out["stdout"]) == (result["state"] == "used")


# -- the curve's damping λ, a hyper-parameter chosen on the validation days --------------------------

def ridge_by_hand(lam):
    """Least squares with the penalty λ·c² once more, by elimination on floats (x = T − 23)."""
    xs = [t - 23 for t, _ in vs.NOTEBOOK]
    ys = [y for _, y in vs.NOTEBOOK]
    cols = [[1] * 3, xs, [x * x for x in xs]]
    a = [[sum(p * q for p, q in zip(cols[i], cols[j])) + (lam if i == j == 2 else 0) for j in range(3)]
         + [sum(p * y for p, y in zip(cols[i], ys))] for i in range(3)]
    for i in range(3):
        for k in range(i + 1, 3):
            f = a[k][i] / a[i][i]
            a[k] = [u - f * v for u, v in zip(a[k], a[i])]
    sol = [0.0] * 3
    for i in (2, 1, 0):
        sol[i] = (a[i][3] - sum(a[i][j] * sol[j] for j in range(i + 1, 3))) / a[i][i]
    return sol  # a, b, c around 23 °C


@pytest.mark.parametrize("lam", [0.1, 1, 10, 100])
def test_the_damped_curve_is_the_penalised_least_squares_parabola(lam):
    a, b, c = ridge_by_hand(lam)
    out = api.run(SLUG, {"lam": lam})
    c0, c1, c2 = out["result"]["coef"]["curve"]
    for t in (19, 21, 23, 25, 26):
        assert c0 + c1 * t + c2 * t * t == pytest.approx(a + b * (t - 23) + c * (t - 23) ** 2, rel=1e-9)
    assert out["notes"] == [] and out["url"] == {"lam": str(lam)}
    assert "gedämpft" in out["summary"]


def test_more_damping_bends_less_and_moves_the_curve_towards_the_line():
    bends = [abs(vs.rules(lam)["curve"][2]) for lam in (0, 0.1, 1, 10, 100)]
    assert bends == sorted(bends, reverse=True) and bends[0] == Fraction(3, 2)
    val = [vs.mae(vs.rules(lam)["curve"], vs.VALIDATION) for lam in (0, 1, 10, 100)]
    assert val == sorted(val, reverse=True)  # here every step of damping helps on new days
    assert all(v > 1 for v in val)  # and still the line wins the validation
    r = api.run(SLUG, {"lam": 10})
    assert r["result"]["mae_exact"]["curve"]["validation"] == "325/93"
    assert "Kurve: 29,3 + 0,452·(T − 23) − 0,774·(T − 23)²" in r["figure"]  # 3 digits, around 23 °C


def test_an_unknown_damping_falls_back_with_a_note_and_the_lesson_keeps_its_numbers():
    out = api.run(SLUG, {"lam": "7"})
    assert out["params"]["lam"] == 0 and out["notes"][0].startswith("„Dämpfung der Kurve λ“: „7“ ist keine")
    assert "notebook_pick" in api.run(SLUG, {"rule": "curve", "fixed": "curve"})["lesson"]["solved"]
    assert "notebook_pick" not in api.run(SLUG, {"rule": "curve", "fixed": "curve", "lam": 1})["lesson"]["solved"]


@pytest.mark.parametrize("slug", ["validation-set", "overfitting"])
def test_the_ice_cream_stand_has_one_vocabulary(slug):
    """The same ice-cream stand appears on two pages; both write in a Heft and sell Kugeln."""
    import inspect
    from pathlib import Path

    from probierlabor.concepts import overfitting
    root = Path(__file__).resolve().parents[2]
    module = {"validation-set": vs, "overfitting": overfitting}[slug]
    for text in ((root / "pages" / f"{slug}.md").read_text(encoding="utf-8"), inspect.getsource(module),
                 (root / "py" / "probierlabor" / "workshop" / f"{slug.replace('-', '_')}.py").read_text(encoding="utf-8")):
        assert "Heft" in text and "Kugeln" in text
        assert not re.search(r"Notizbuch|Portion", text)


def test_the_key_sentence_says_whether_validation_picks_the_rule_the_notebook_favours():
    curve = run(rule="curve")["summary"]
    assert curve.startswith("Die Kurve trifft das Heft am besten, im Mittel 0 Kugeln daneben. Bei der Validierung "
                            "liegt sie aber 35/6 ≈ 5,83 Kugeln daneben.")
    # which rule wins at validation answers the lesson's guess: a sentence of its own, held back until the guess
    assert run(rule="curve")["answer"] == "Bei der Validierung gewinnt die Gerade mit 1 Kugel."
    line = run(rule="line")
    assert "Die Validierung wählt sie, obwohl im Heft die Kurve besser ist" in line["summary"] and line["answer"] == ""
    mean = run(rule="mean")["summary"]
    assert "Der Mittelwert liegt im Heft 4 Kugeln daneben" in mean and "gewinnt die Gerade" in run(rule="mean")["answer"]
    assert "am besten" not in mean and "wählt" not in mean
    assert "verdeckt" in curve and "liegt er 6 Kugeln daneben" in run(rule="mean", fixed="mean")["summary"]
    assert "nicht mehr unabhängig" in run(rule="line", fixed="curve")["summary"]
