"""Top-p sampling on the article's two rows (CONCEPTS.md §29): exact cuts, float traps, temperature."""

import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from probierlabor.concepts import top_p_sampling as tp
from probierlabor.kit import api

F = Fraction


def row(i, p=0.75, temperature=1.0):
    return tp.compute(p, temperature)["rows"][i]


def test_row_1_keeps_two_with_0_85():
    r = row(0)
    assert r["kept"] == 2 and r["mass_exact"] == "17/20" and r["mass"] == 0.85
    assert r["renorm_exact"] == ["14/17", "3/17"]
    assert [round(x, 6) for x in r["renorm"]] == [0.823529, 0.176471]


def test_row_2_needs_three_4_9_3_9_2_9():
    r = row(1)
    assert r["cum"][1] == 0.7 and r["kept"] == 3 and r["mass_exact"] == "9/10"
    assert r["renorm_exact"] == ["4/9", "3/9", "2/9"]
    assert r["renorm_num"] == [4, 3, 2] and r["renorm_den"] == 9
    assert r["kept_tokens"] == ["A", "B", "C"]  # D excluded


def test_exact_boundary_p_0_7_keeps_a_and_b():
    assert row(1, 0.7)["kept"] == 2
    assert row(0, 0.7)["kept"] == 1


def test_floats_cut_wrongly_at_p_0_9():
    r = row(1, 0.9)
    assert r["kept"] == 3
    assert 0.4 + 0.3 + 0.2 < 0.9 and r["float_cum"][2] == 0.8999999999999999
    assert r["float_desc"] == 4 and r["float_hf"] == 4
    assert not tp.compute(0.9)["float_ok"]


def test_transformers_float_rule_cuts_wrongly_at_p_0_4():
    r = row(1, 0.4)
    assert r["kept"] == 1 and r["float_hf"] == 2 and r["float_desc"] == 1
    assert r["float_cum_asc"][2] == 0.6000000000000001 > 1 - 0.4


def exact_hf_rule(chances, p):
    """Transformers' ascending rule in exact arithmetic: equivalent to the descending one."""
    ascending = sorted(chances)
    total, removed = F(0), 0
    for c in ascending[:-1]:
        total += c
        if total <= 1 - p:
            removed += 1
    return len(chances) - removed


@pytest.mark.parametrize("i", [0, 1])
def test_the_exact_rule_equals_the_smallest_prefix_reaching_p(i):
    for step in range(1, 21):
        p = F(step, 20)
        chances = [F(x) for x in tp.ROWS[i]]
        kept = tp.nucleus(chances, p)
        assert sum(chances[:kept]) >= p and (kept == 1 or sum(chances[:kept - 1]) < p)
        assert kept == exact_hf_rule(chances, p)


def test_floats_differ_only_at_the_two_known_places():
    wrong = []
    for step in range(1, 21):
        out = tp.compute(step / 20)
        for i, r in enumerate(out["rows"]):
            if r["float_desc"] != r["kept"] or r["float_hf"] != r["kept"]:
                wrong.append((step / 20, i))
    assert wrong == [(0.4, 1), (0.9, 1)]


def test_temperature_moves_the_cut():
    assert [r["kept"] for r in tp.compute(0.75, 0.5)["rows"]] == [1, 2]
    assert [r["kept"] for r in tp.compute(0.75, 1.0)["rows"]] == [2, 3]
    assert [r["kept"] for r in tp.compute(0.75, 2.0)["rows"]] == [3, 3]


def test_temperature_half_is_exact_squares():
    chances, exact = tp.tempered(tp.ROWS[1], 0.5)
    assert exact and chances == [F(16, 30), F(9, 30), F(4, 30), F(1, 30)]


def test_irrational_temperature_agrees_with_floats():
    chances, exact = tp.tempered(tp.ROWS[0], 2.0)
    assert not exact
    z = sum(math.sqrt(float(x)) for x in tp.ROWS[0])
    for c, x in zip(chances, tp.ROWS[0]):
        assert math.isclose(float(c), math.sqrt(float(x)) / z, rel_tol=1e-13)


def test_no_float_ambiguity_for_tempered_rows_on_the_slider_grid():
    """Where chances are irrational, no prefix sum comes within 1e-9 of a slider value of p."""
    for t100 in range(10, 301, 5):
        for i in (0, 1):
            chances, exact = tp.tempered(tp.ROWS[i], t100 / 100)
            if exact:
                continue
            cum = F(0)
            for c in chances[:-1]:
                cum += F(c)
                for step in range(1, 21):
                    assert abs(cum - F(step, 20)) > F(1, 10**9)


@settings(max_examples=80, deadline=None)
@given(st.floats(-1, 2, allow_nan=False), st.floats(0, 10, allow_nan=False))
def test_any_setting_runs(p, temperature):
    out = api.run("top-p-sampling", {"p": p, "temperature": temperature})
    json.dumps(out, allow_nan=False)  # valid JSON: no NaN or infinity
    ET.fromstring(out["figure"])
    ET.fromstring("<div>" + out["extra"] + "</div>")
    for r in out["result"]["rows"]:
        assert 1 <= r["kept"] <= 4 and math.isclose(sum(r["renorm"]), 1, rel_tol=1e-12)
        assert r["mass"] >= out["result"]["p"] - 1e-12 or r["kept"] == 4
        assert math.isclose(sum(r["chances"]), 1, rel_tol=1e-12)


def test_workshop_script_recomputes_the_cut():
    """The numpy script (workshop/top_p_sampling.py) at the default and two presets: same cut, same sums."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(tp.SLUG, "p = 0,9: Gleitkomma-Falle"), api.preset_values(tp.SLUG, "Heißer: T = 2")]
    for state, out in zip(states, run_states(tp.SLUG, states)):
        result = api.run(tp.SLUG, state)["result"]
        assert out["figures"] == 1
        for i, row in enumerate(result["rows"], start=1):
            assert number(out["stdout"], f"Zeile {i}: Anzahl") == row["kept"]
            assert number(out["stdout"], f"Zeile {i}: Summe") == pytest.approx(row["mass"], abs=5e-4)


# ---- an own distribution (kit/distribution.py) ----------------------------------------------------

def smallest_prefix(chances, p):
    """The nucleus written out independently: sort descending, take the fewest tokens whose exact sum reaches p."""
    ranked = sorted(chances.items(), key=lambda item: -item[1])
    for m in range(1, len(ranked) + 1):
        if sum(c for _, c in ranked[:m]) >= p:
            return ranked[:m]
    return ranked


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=2, max_size=8).filter(lambda xs: sum(xs) > 0),
       st.integers(1, 20))
def test_an_own_distribution_is_cut_like_the_independent_rule(weights, twentieths):
    p = twentieths / 20
    chances = {"ABCDEFGH"[i]: F(w, sum(weights)) for i, w in enumerate(weights)}
    out = api.run("top-p-sampling", {"dist": "; ".join(str(w) for w in weights), "p": p})
    (row,) = out["result"]["rows"]
    assert dict(zip(row["tokens"], map(F, row["chances_exact"]))) == chances  # divided by the sum, exactly
    expected = smallest_prefix(chances, F(repr(p)))
    assert row["kept_tokens"] == [t for t, _ in expected]
    mass = sum(c for _, c in expected)
    assert F(row["mass_exact"]) == mass
    assert [F(x) for x in row["renorm_exact"]] == [c / mass for _, c in expected]


def test_an_own_distribution_replaces_the_two_rows():
    out = api.run("top-p-sampling", {"dist": "0,1; 0,5; 0,25; 0,15", "p": "0,8"})
    assert out["notes"] == [] and out["url"] == {"p": "0.8", "dist": "0.1_0.5_0.25_0.15"}
    (row,) = out["result"]["rows"]
    # sorted: B 0,5, C 0,25, D 0,15, A 0,1; B + C = 0,75 < 0,8, with D 0,9
    assert row["tokens"] == ["B", "C", "D", "A"] and row["kept_tokens"] == ["B", "C", "D"]
    assert row["mass_exact"] == "9/10" and row["renorm_exact"] == ["10/18", "5/18", "3/18"]
    assert out["summary"] == "Bei p = 0,8 behält deine Verteilung 3 Tokens (B, C, D), Summe 0,9."
    assert [r["key"] for r in out["readouts"]] == ["row1", "row1_mass", "float"]
    assert out["controls"]["dist"] == "0,1; 0,5; 0,25; 0,15"


def test_an_own_distribution_that_does_not_sum_to_1_is_divided_with_a_note():
    out = api.run("top-p-sampling", {"dist": "3; 1", "p": "0,75"})
    assert out["notes"] == ["„Eigene Verteilung“: Die Werte ergaben zusammen 4; sie wurden durch 4 geteilt."]
    (row,) = out["result"]["rows"]
    assert row["values"] == [0.75, 0.25] and row["kept_tokens"] == ["A"] and row["mass_exact"] == "3/4"
    # the link holds the typed numbers: it divides the same way and says so the same way
    assert out["url"] == {"dist": "3_1"} and out["controls"]["dist"] == "3; 1"
    again = api.run("top-p-sampling", out["url"])
    assert (again["result"], again["notes"], again["summary"]) == (out["result"], out["notes"], out["summary"])


WEIGHTS = st.lists(st.integers(0, 9), min_size=2, max_size=8).filter(lambda xs: sum(xs) > 0)


@settings(max_examples=80, deadline=None)
@given(WEIGHTS, st.integers(1, 8))
@example([1, 1, 1], 2)  # p = 0,6667: 2/3 stays below it; rounded shares 0,3334 + 0,3333 reached it
def test_a_p_at_the_fourth_decimal_of_a_running_sum_is_cut_on_the_exact_shares(weights, m):
    """p at the sum of the first m chances rounded to 4 decimals, where rounded shares would land on p or cross it."""
    chances = {"ABCDEFGH"[i]: F(w, sum(weights)) for i, w in enumerate(weights)}
    ranked = sorted(chances.values(), reverse=True)
    p = min(max(round(float(sum(ranked[:m])), 4), 0.05), 1.0)
    (row,) = api.run("top-p-sampling", {"dist": "; ".join(map(str, weights)), "p": p})["result"]["rows"]
    assert row["kept_tokens"] == [t for t, _ in smallest_prefix(chances, F(repr(p)))]


@settings(max_examples=80, deadline=None)
@given(WEIGHTS.filter(lambda xs: 0 in xs), st.integers(1, 20), st.sampled_from([0.1, 0.3, 0.5, 0.7, 1.0, 1.3, 2.0, 3.0]))
@example([5, 3, 2, 0], 20, 0.7)  # 50-digit chances summed to just under 1: D (chance 0) was kept at p = 1
def test_a_token_of_chance_0_is_never_in_the_nucleus(weights, twentieths, temperature):
    out = api.run("top-p-sampling", {"dist": "; ".join(map(str, weights)), "p": twentieths / 20, "temperature": temperature})
    (row,) = out["result"]["rows"]
    zero = {"ABCDEFGH"[i] for i, w in enumerate(weights) if w == 0}
    assert not zero & set(row["kept_tokens"]), (row["kept_tokens"], zero)
    if twentieths == 20:  # p = 1 keeps every token with a chance above 0
        assert len(row["kept_tokens"]) == len(weights) - len(zero)


def test_a_too_long_own_distribution_keeps_the_first_eight():
    out = api.run("top-p-sampling", {"dist": "; ".join(["1"] * 10)})
    (note,) = out["notes"]
    assert "höchstens 8 Werte, die letzten 2 wurden weggelassen" in note and "durch 8 geteilt" in note
    assert out["result"]["rows"][0]["tokens"] == list("ABCDEFGH")
    assert out["result"]["rows"][0]["values"] == [0.125] * 8


def test_the_lesson_speaks_of_the_article_rows_only():
    """An own row where the float cut goes wrong does not solve the task about the article's rows."""
    own = api.run("top-p-sampling", {"dist": "0,4; 0,3; 0,2; 0,1", "p": 0.9})
    assert not own["result"]["float_ok"] and own["lesson"]["solved"] == []
    assert "float_trap" in api.run("top-p-sampling", {"p": 0.9})["lesson"]["solved"]


def test_workshop_script_cuts_an_own_distribution_like_the_page():
    from workshop_check import number, run_states

    states = [{"dist": "0,1; 0,5; 0,25; 0,15", "p": 0.8}, {"dist": "0; 2; 1; 1", "temperature": 0.5}]
    for state, out in zip(states, run_states(tp.SLUG, states)):
        (row,) = api.run(tp.SLUG, state)["result"]["rows"]
        assert number(out["stdout"], "Zeile 1: Anzahl") == row["kept"]
        assert number(out["stdout"], "Zeile 1: Summe") == pytest.approx(row["mass"], abs=5e-4)
        assert f"Zeile 1: Kern: {', '.join(row['kept_tokens'])}" in out["stdout"]


def test_one_token_is_solved_by_p_and_not_by_the_temperature():
    # a cooler T leaves one token too; the task is about p, so T alone must not pass it
    def solved(**raw):
        return "one_token" in api.run("top-p-sampling", raw)["lesson"]["solved"]
    assert solved(p=0.7) and not solved(temperature=0.5) and not solved(temperature=0.5, p=0.7)


def test_the_key_sentence_reads_the_cut_of_each_state():
    """Under the figure: different cores at one threshold are named as such, equal ones as the exception,
    an exactly hit p and a float comparison that keeps one more token are said where they happen."""
    default = api.run("top-p-sampling")["summary"]
    assert "Zeile 1 2 Tokens (Summe 0,85), Zeile 2 braucht 3 (Summe 0,9)" in default
    assert "verschieden große Kerne" in default and "gleich groß" not in default
    assert "genau" not in default and "Gleitkomma" not in default
    trap = api.run("top-p-sampling", api.preset_values("top-p-sampling", "p = 0,9: Gleitkomma-Falle"))["summary"]
    assert "beide Zeilen 3 Tokens (Summe 0,95 und 0,9)" in trap and "verschieden" not in trap
    assert "Zeile 2 trifft p genau" in trap and "Gleitkommazahlen behielte Zeile 2 aber 4 statt 3" in trap
    hit = api.run("top-p-sampling", api.preset_values("top-p-sampling", "p = 0,7: genau getroffen"))["summary"]
    assert "Zeile 1 1 Token (Summe 0,7), Zeile 2 braucht 2 (Summe 0,7)" in hit and "Zeile 1 und Zeile 2 treffen p genau" in hit
    alone = api.run("top-p-sampling", {"dist": "0,9; 0,1", "p": "0,5"})["summary"]
    assert "1 Token (A)" in alone and "Gezogen wird immer A" in alone
