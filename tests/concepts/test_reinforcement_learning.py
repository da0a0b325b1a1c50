"""Reinforcement learning: the returns of CONCEPTS.md §10, exact, and what the reader may know."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.concepts import reinforcement_learning as rl
from probierlabor.kit import api


def test_the_rewards_of_the_game():
    assert rl.REWARDS["A"] == (2, 0)
    assert rl.REWARDS["B"] == (0, 5)


@pytest.mark.parametrize("gamma, a, b", [
    (1, 2, 5), (Fraction(1, 5), 2, 1), (0, 2, 0), (Fraction(2, 5), 2, 2),
])
def test_returns_are_exact(gamma, a, b):
    assert rl.return_of("A", gamma) == a
    assert rl.return_of("B", gamma) == b


def test_gamma_enters_as_the_decimal_the_reader_chose():
    assert rl.return_of("B", 0.2) == 1  # not 1.0000000000000002
    assert rl.compute(gamma=0.2, reveal="both")["returns_exact"] == {"A": "2", "B": "1"}
    assert rl.compute(gamma=1.0, reveal="both")["returns"] == {"A": 2.0, "B": 5.0}


def test_the_paths_tie_at_gamma_two_fifths():
    assert rl.tie_gamma() == Fraction(2, 5)
    assert rl.compute(gamma=0.4)["better"] == "gleich"
    assert rl.compute(gamma=0.45)["better"] == "B"
    assert rl.compute(gamma=0.35)["better"] == "A"


@given(st.fractions(min_value=0, max_value=1))
def test_b_is_better_exactly_when_gamma_exceeds_the_tie(g):
    better_b = rl.return_of("B", g) > rl.return_of("A", g)
    assert better_b == (g > Fraction(2, 5))


def test_gamma_never_changes_the_coins():
    for g in (0.0, 0.2, 0.9, 1.0):
        assert rl.compute(gamma=g)["coins"] == {"A": 2.0, "B": 5.0}


def test_what_is_hidden_stays_hidden():
    r = rl.compute(path="A", reveal="none")
    values = {x.key: x.value for x in rl.view(r).readouts}
    assert values["return_a"] == values["return_b"] == "?"
    assert values["better"] == "noch unbekannt"
    r = rl.compute(path="A", reveal="own")
    values = {x.key: x.value for x in rl.view(r).readouts}
    assert values["return_a"] == "2" and values["return_b"] == "?"
    texts = [el.text for el in ET.fromstring(rl.view(r).figure).iter("{http://www.w3.org/2000/svg}text")]
    assert "5" not in texts and "?" in texts  # B's five coins are not on the board yet
    texts = [el.text for el in ET.fromstring(rl.view(rl.compute(reveal="both")).figure)
             .iter("{http://www.w3.org/2000/svg}text")]
    assert "5" in texts and "?" not in texts


def test_readouts_for_the_article_cases():
    def shown(**kw):
        return {x.key: x.value for x in rl.view(rl.compute(reveal="both", **kw)).readouts}
    assert (shown(gamma=1.0)["return_a"], shown(gamma=1.0)["return_b"], shown(gamma=1.0)["better"]) == ("2", "5", "Weg B")
    assert (shown(gamma=0.2)["return_a"], shown(gamma=0.2)["return_b"], shown(gamma=0.2)["better"]) == ("2", "1", "Weg A")
    assert shown(gamma=0.9)["return_b"] == "4,5"
    assert shown(gamma=0.4)["better"] == "beide gleich"
    assert shown(gamma=0.2, path="B")["coins"] == "0 + 5 = 5"
    assert shown(gamma=0.2, path="B")["own_return"] == "1"


def test_exact_text():
    assert rl.exact_text(Fraction(9, 2)) == "4,5"
    assert rl.exact_text(Fraction(1, 3)) == "1/3 ≈ 0,333"
    assert rl.exact_text(Fraction(1, 3000)).startswith("≈")


@given(st.fixed_dictionaries({
    "gamma": st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8)),
    "path": st.sampled_from(["A", "B", "C", ""]),
    "reveal": st.sampled_from(["none", "own", "both", "alles"]),
}))
def test_api_run_never_fails(raw):
    out = api.run("reinforcement-learning", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    res = out["result"]
    assert 0 <= res["gamma"] <= 1
    assert res["returns"]["A"] == 2 and 0 <= res["returns"]["B"] <= 5


def test_only_the_last_gamma_on_the_slider_before_the_tie_is_the_largest_for_a():
    def solved(**raw):
        return "last_for_a" in api.run("reinforcement-learning", raw)["lesson"]["solved"]
    assert solved(gamma=0.35, reveal="both")  # 2 against 1.75
    assert not solved(gamma=0.3, reveal="both")  # A still wins, but 0.35 is larger
    assert not solved(gamma=0.4, reveal="both")  # a tie, not a win for A
    assert not solved(gamma=0.35, reveal="own")  # B's return is still hidden


def test_workshop_script_recomputes_the_returns():
    """The numpy script (workshop/reinforcement_learning.py): the same returns where they are revealed,
    „verdeckt“ where not, the same better path and the tie at γ = 0,4."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(rl.SLUG, "Nur A gespielt"), api.preset_values(rl.SLUG, "γ = 1"),
              api.preset_values(rl.SLUG, "Gleichstand"), api.preset_values(rl.SLUG, "γ = 0,2"),
              {"rewards": "3; 1; 0; 6", "reveal": "both"}, {"rewards": "0,5; 0; 0; 1,5", "reveal": "own", "path": "B"},
              {"rewards": "1; 2; 1; 2", "reveal": "both", "gamma": 0.5}]
    for state, out in zip(states, run_states(rl.SLUG, states)):
        result = api.run(rl.SLUG, state)["result"]
        assert out["figures"] == 1
        for p in ("A", "B"):
            if result["known"][p]:
                assert number(out["stdout"], f"Return Weg {p}") == pytest.approx(result["returns"][p], abs=1e-4)
            else:
                assert f"Return Weg {p}: verdeckt" in out["stdout"]
        assert f"Weg {result['path']}: " in out["stdout"].split("(gewählt)")[0].splitlines()[-1]
        if all(result["known"].values()):
            better = "gleich" if result["better"] == "gleich" else f"Weg {result['better']}"
            assert f"Besser: {better}\n" in out["stdout"]
        if result["tie_gamma"] is None:
            assert "Gleichstand: nie\n" in out["stdout"]
        else:
            assert number(out["stdout"], "Gleichstand bei γ") == pytest.approx(result["tie_gamma"], abs=1e-4)


# -- own rewards ---------------------------------------------------------------------------------------

def test_own_rewards_give_exact_returns_and_their_own_tie():
    out = api.run(rl.SLUG, {"rewards": "3; 1; 0; 6", "reveal": "both", "gamma": 0.5})
    r = out["result"]
    # A: 3 + 0,5·1 = 3,5; B: 0 + 0,5·6 = 3; tie where 3 + γ = 6γ
    assert r["returns_exact"] == {"A": "7/2", "B": "3"} and r["better"] == "A"
    assert r["tie_gamma_exact"] == "3/5" and out["notes"] == []
    assert out["url"] == {"gamma": "0.5", "reveal": "both", "rewards": "3_1_0_6"}
    assert out["summary"].endswith("Eigene Münzen: A 3 und 1, B 0 und 6; Gleichstand bei γ = 0,6.")
    assert "Gleichstand bei γ = 0,6" in out["extra"]


def test_typed_decimals_stay_exact_and_a_tie_can_lie_outside_the_slider_or_not_exist():
    third = api.run(rl.SLUG, {"rewards": "0,5; 0; 0; 1,5"})["result"]
    assert third["tie_gamma_exact"] == "1/3" and third["returns_exact"]["B"] == str(Fraction(27, 20))
    late = api.run(rl.SLUG, {"rewards": "5; 0; 0; 4", "reveal": "both"})
    assert late["result"]["tie_gamma"] == 1.25 and "außerhalb von 0 bis 1" in late["summary"]
    assert "pl-rl-tie" not in late["extra"]
    never = api.run(rl.SLUG, {"rewards": "1; 2; 1; 2", "reveal": "both"})
    assert never["result"]["tie_gamma"] is None and never["result"]["better"] == "gleich"
    assert "bei jedem γ gleich gut" in never["summary"] and "unmöglich" not in never["summary"]
    apart = api.run(rl.SLUG, {"rewards": "2; 2; 1; 2", "reveal": "both"})
    assert apart["result"]["tie_gamma"] is None and "ein Gleichstand durch γ ist unmöglich" in apart["summary"]
    assert "stehen beide Wege gleich" not in never["figure"]  # both known: the verdict is the comparison


def test_own_rewards_are_clamped_and_need_exactly_four():
    out = api.run(rl.SLUG, {"rewards": "25; 1; 0; 6; 9"})
    assert out["params"]["rewards"] == [20, 1, 0, 6]
    assert out["notes"] == ["„Eigene Münzen (A1; A2; B1; B2)“: 25 liegt außerhalb von 0 bis 20 und wurde begrenzt; "
                            "es gehen höchstens 4 Werte, der letzte wurde weggelassen."]
    short = api.run(rl.SLUG, {"rewards": "1; 2; 3"})
    assert short["params"]["rewards"] == [] and "mindestens 4 Werte" in short["notes"][0]
    assert "Nach Runde 1 stehen beide Wege gleich" in api.run(rl.SLUG, {"rewards": "1; 2; 1; 5"})["figure"]


def test_the_lesson_speaks_of_the_games_coins():
    assert "last_for_a" in api.run(rl.SLUG, {"gamma": 0.35, "reveal": "both"})["lesson"]["solved"]
    assert "last_for_a" not in api.run(rl.SLUG, {"gamma": 0.35, "reveal": "both",
                                                   "rewards": "2; 0; 0; 5,5"})["lesson"]["solved"]


def test_the_key_sentence_says_whether_the_better_path_at_this_gamma_also_has_more_coins():
    hidden = api.run(rl.SLUG, {})["summary"]
    assert hidden == "Nach Runde 1 liegt Weg A vorn, 2 zu 0 Münzen. Runde 2 ist noch verdeckt; ihre Münzen zählen mit γ = 0,9."
    # γ changes nothing on the board yet, but the sentence follows it
    assert api.run(rl.SLUG, {"gamma": 1.0})["summary"].endswith("zählen mit γ = 1.")
    own = api.run(rl.SLUG, {"reveal": "own", "path": "B"})["summary"]
    assert "Return 0 + 0,9 · 5 = 4,5" in own and "Runde 2 von Weg A ist noch verdeckt" in own
    far = api.run(rl.SLUG, {"reveal": "both", "gamma": 1.0})["summary"]
    assert far == "Bei γ = 1 hat Weg A den Return 2, Weg B 5: B ist besser und bringt auch mehr Münzen (5 zu 2)."
    near = api.run(rl.SLUG, {"reveal": "both", "gamma": 0.2})["summary"]
    assert near == ("Bei γ = 0,2 hat Weg A den Return 2, Weg B 1: A ist besser, obwohl es weniger Münzen bringt "
                    "(2 zu 5) – γ wertet Runde 2 ab.")
    assert "Beide Wege sind gleich gut" in api.run(rl.SLUG, {"reveal": "both", "gamma": 0.4})["summary"]
