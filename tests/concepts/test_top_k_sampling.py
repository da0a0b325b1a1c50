"""Top-k sampling: the article's 0.625/0.375 (CONCEPTS.md §28), Transformers' tie rule, seeded draws."""

import json
import math
import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from probierlabor.concepts import top_k_sampling as tk
from probierlabor.kit import api

F = Fraction


def chances(k, row="artikel"):
    probs = tk.ROWS[row]
    return tk.renormalise(probs, tk.top_k(probs, k))


def test_k_2_keeps_a_and_b_divided_by_0_8():
    probs = tk.ROWS["artikel"]
    kept = tk.top_k(probs, 2)
    assert kept == [True, True, False, False]
    assert sum(p for p, k in zip(probs, kept) if k) == F("0.8")
    assert chances(2) == [F("0.625"), F("0.375"), 0, 0]
    r = tk.compute(k=2)
    assert r["chances"][:2] == [0.625, 0.375] and r["mass"] == 0.8 and r["cut_mass"] == 0.2


def test_k_1_always_the_top_token_like_greedy():
    assert chances(1) == [1, 0, 0, 0]
    r = tk.compute(k=1, n=1000, seed=12345)
    assert r["counts"] == [1000, 0, 0, 0]


def test_k_3_and_k_4_with_the_catalogue_completion():
    assert chances(3) == [F(25, 46), F(15, 46), F(3, 23), 0]
    assert [round(float(c), 6) for c in chances(3)] == [0.543478, 0.326087, 0.130435, 0.0]
    assert chances(4) == [F("0.5"), F("0.3"), F("0.12"), F("0.08")]
    r = tk.compute(k=3)
    assert r["chances_num"] == [25, 15, 6, 0] and r["chances_den"] == 46


def test_the_rest_of_0_2_is_split_without_a_tie():
    probs = tk.ROWS["artikel"]
    assert probs[2] + probs[3] == F("0.2") and len(set(probs)) == 4 and sum(probs) == 1


def test_ties_at_the_kth_value_are_kept_as_in_transformers():
    # TopKLogitsWarper: scores < topk(scores, k)[0][..., -1] are removed, so equals survive
    probs = tk.ROWS["gleichstand"]
    assert tk.top_k(probs, 1) == [True, True, False, False]
    assert tk.top_k(probs, 2) == [True, True, False, False]
    assert tk.top_k(probs, 3) == [True, True, True, True]
    assert chances(1, "gleichstand") == [F(1, 2), F(1, 2), 0, 0]
    r = tk.compute(k=1, row="gleichstand")
    assert r["n_kept"] == 2 and r["tie_extra"] == 1 and 0 < r["counts"][1] < r["n"]


def transformers_rule(probs, k):
    """The warper's rule written out independently: remove strictly below the k-th largest."""
    kth = sorted(probs)[-k]
    return [not (p < kth) for p in probs]


probs_strategy = st.lists(st.integers(1, 20), min_size=4, max_size=4).map(
    lambda xs: [F(x, sum(xs)) for x in xs])


@given(probs_strategy, st.integers(1, 4))
def test_filter_matches_the_warper_rule_and_renormalises(probs, k):
    kept = tk.top_k(probs, k)
    assert kept == transformers_rule(probs, k)
    assert sum(kept) >= k
    new = tk.renormalise(probs, kept)
    assert sum(new) == 1
    # the ratios among kept tokens are unchanged
    for i in range(4):
        for j in range(4):
            if kept[i] and kept[j]:
                assert new[i] * probs[j] == new[j] * probs[i]


def test_draws_are_seeded_and_reproducible():
    a = tk.compute(k=2, n=1000, seed=1)
    assert a["counts"] == tk.compute(k=2, n=1000, seed=1)["counts"]
    assert a["counts"] != tk.compute(k=2, n=1000, seed=2)["counts"]
    # golden values of the documented generator (random.Random(seed), first kept token with cum > u)
    assert a["counts"] == [607, 393, 0, 0]
    assert tk.compute(k=3, n=10000, seed=5)["counts"] == [5398, 3277, 1325, 0]


def test_the_draw_is_the_documented_inverse_cdf():
    rng = random.Random(7)
    expected = [0, 0]
    for _ in range(100):
        expected[0 if rng.random() < 0.625 else 1] += 1
    assert tk.compute(k=2, n=100, seed=7)["counts"][:2] == expected


def test_many_draws_converge_to_the_exact_chances():
    r = tk.compute(k=3, n=10000, seed=3)
    for share, exact in zip(r["shares"], r["chances"]):
        assert abs(share - exact) < 4 * math.sqrt(exact * (1 - exact) / 10000) + 1e-12
    assert r["running"][-1][0] == 10000 and r["running"][-1][1] == r["counts"]


def test_a_fixed_k_covers_different_mass():
    assert tk.compute(k=2, row="steil")["mass"] == 0.95
    assert tk.compute(k=2, row="flach")["mass"] == 0.54


@settings(max_examples=60, deadline=None)
@given(st.integers(-3, 9), st.sampled_from(list(tk.ROWS)), st.sampled_from((*tk.DRAWS, 7, "x")),
       st.integers(-5, 2**31 + 5))
def test_any_setting_runs_and_draws_valid_svg(k, row, n, seed):
    out = api.run("top-k-sampling", {"k": k, "row": row, "n": n, "seed": seed})
    json.dumps(out, allow_nan=False)  # valid JSON: no NaN or infinity
    ET.fromstring(out["figure"])
    ET.fromstring("<div>" + out["extra"] + "</div>")
    r = out["result"]
    assert sum(r["counts"]) == r["n"] and abs(sum(r["chances"]) - 1) < 1e-12
    assert all(c == 0 for c, keep in zip(r["counts"], r["kept"]) if not keep)


def test_three_of_the_flat_four_are_not_yet_most_of_the_probability():
    """Near miss of the first task: k = 3 on the flat row keeps 0,78, below 0,9."""
    out = api.run("top-k-sampling", {"row": "flach", "k": 3})
    assert Fraction(out["result"]["mass_exact"]) == Fraction("0.78")
    assert "flat_most" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_the_filter_and_the_draws():
    """The numpy script (workshop/top_k_sampling.py) at the default and two presets: same survivors,
    same chances and – drawn with the same random.Random(seed) – the same counts."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(tk.SLUG, "Gleichstand an der Grenze"),
              {**api.preset_values(tk.SLUG, "Flache Verteilung"), "n": 10000, "seed": 5}]
    for state, out in zip(states, run_states(tk.SLUG, states)):
        r = api.run(tk.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Behalten") == r["n_kept"]
        assert number(out["stdout"], "Abgedeckte Masse") == pytest.approx(r["mass"], abs=5e-5)
        for token, chance, count in zip(tk.TOKENS, r["chances"], r["counts"]):
            assert number(out["stdout"], f"Neu {token}") == pytest.approx(chance, abs=5e-5)
            assert number(out["stdout"], f"Gezogen {token}") == count


# ---- an own distribution (kit/distribution.py) ----------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=8).filter(lambda xs: sum(xs) > 0),
       st.integers(1, 8), st.integers(0, 1000))
@example([1, 1, 1], 1, 0)  # a typed tie: 4 decimals made it 0,3334 / 0,3333 / 0,3333, and k = 1 kept A alone
@example([3, 1, 1, 1], 2, 0)
def test_an_own_distribution_is_filtered_and_drawn_like_the_independent_rule(weights, k, seed):
    out = api.run("top-k-sampling", {"dist": ";".join(str(w) for w in weights), "k": k, "n": 100, "seed": seed})
    r = out["result"]
    probs = [F(w, sum(weights)) for w in weights]  # divided exactly: equal typed numbers stay a tie
    assert [F(p) for p in r["probs_exact"]] == probs
    kept = transformers_rule(probs, min(k, len(probs)))
    assert r["kept"] == kept and r["tokens"] == list("ABCDEFGH"[:len(weights)])
    mass = sum(p for p, keep in zip(probs, kept) if keep)
    assert [F(c) for c in r["chances_exact"]] == [p / mass if keep else 0 for p, keep in zip(probs, kept)]
    # the draws: u = random() against the cumulative exact chances, as documented
    rng, counts = random.Random(seed), [0] * len(probs)
    cum = [float(sum(p / mass for p, keep in zip(probs[:i + 1], kept[:i + 1]) if keep)) for i in range(len(probs))]
    last = max(i for i, keep in enumerate(kept) if keep and probs[i] > 0)
    for _ in range(100):
        u = rng.random()
        counts[min(next((i for i, c in enumerate(cum) if c > u), last), last)] += 1
    assert r["counts"] == counts


def test_an_own_distribution_takes_the_place_of_the_chosen_row():
    out = api.run("top-k-sampling", {"dist": "0,1; 0,6; 0,2; 0,05; 0,05", "k": 2, "row": "flach"})
    assert out["notes"] == [] and out["url"] == {"row": "flach", "dist": "0.1_0.6_0.2_0.05_0.05"}
    r = out["result"]
    assert r["row"] == "eigen" and r["kept_tokens"] == ["B", "C"] and r["mass_exact"] == "4/5"
    assert r["chances_exact"] == ["0", "3/4", "1/4", "0", "0"]
    assert out["summary"].startswith("Eigene Verteilung: k = 2 behält B und C, zusammen 0,8. Geteilt durch diese Summe "
                                     "werden daraus B 0,75 und C 0,25; ihr Verhältnis bleibt.")
    assert api.run("top-k-sampling", {"dist": "0,1; 0,6; 0,2; 0,05; 0,05", "k": 8})["result"]["n_kept"] == 5


def test_an_own_distribution_that_does_not_sum_to_1_is_divided_with_a_note():
    out = api.run("top-k-sampling", {"dist": "2; 1; 1", "k": 1})
    assert out["notes"] == ["„Eigene Verteilung“: Die Werte ergaben zusammen 4; sie wurden durch 4 geteilt."]
    assert out["result"]["probs_exact"] == ["1/2", "1/4", "1/4"] and out["result"]["chances_exact"] == ["1", "0", "0"]


def test_a_too_long_own_distribution_keeps_the_first_eight():
    out = api.run("top-k-sampling", {"dist": "0,1 " * 9 + "0,1", "k": 3})
    (note,) = out["notes"]
    assert "höchstens 8 Werte, die letzten 2 wurden weggelassen" in note and "durch 0,8 geteilt" in note
    assert out["result"]["probs_exact"] == ["1/8"] * 8 and out["result"]["n_kept"] == 8  # all tie with the 3rd


def test_an_own_distribution_does_not_solve_the_steep_row_task():
    assert "steep_one" not in api.run("top-k-sampling", {"dist": "0,95; 0,05", "k": 1})["lesson"]["solved"]
    assert "steep_one" in api.run("top-k-sampling", {"row": "steil", "k": 1})["lesson"]["solved"]


def test_workshop_script_filters_and_draws_an_own_distribution_like_the_page():
    from workshop_check import number, run_states

    states = [{"dist": "0,1; 0,6; 0,2; 0,05; 0,05", "k": 2, "seed": 4}, {"dist": "1; 1; 2", "k": 6}]
    for state, out in zip(states, run_states(tk.SLUG, states)):
        r = api.run(tk.SLUG, state)["result"]
        assert number(out["stdout"], "Behalten") == r["n_kept"]
        for token, chance, count in zip(r["tokens"], r["chances"], r["counts"]):
            assert number(out["stdout"], f"Neu {token}") == pytest.approx(chance, abs=5e-5)
            assert number(out["stdout"], f"Gezogen {token}") == count


def test_the_key_sentence_reads_the_division_and_knows_greedy_ties_and_a_k_that_cuts_nothing():
    two = api.run("top-k-sampling", {"k": 2})
    counts = two["result"]["counts"]
    assert two["summary"] == ("k = 2 behält A und B, zusammen 0,8. Geteilt durch diese Summe werden daraus A 0,625 "
                              f"und B 0,375; ihr Verhältnis bleibt. Gezogen in 1000 Zügen: A {counts[0]}-mal, "
                              f"B {counts[1]}-mal.")
    one = api.run("top-k-sampling", {"k": 1})["summary"]
    assert "behält nur A (0,5)" in one and "jeder der 1000 Züge ergibt A – wie bei Greedy" in one
    tie = api.run("top-k-sampling", api.preset_values("top-k-sampling", "Gleichstand an der Grenze"))["summary"]
    assert "wegen Gleichstands an der Grenze 2 Tokens statt 1: A und B" in tie and "Greedy" not in tie
    every = api.run("top-k-sampling", {"k": 4})["summary"]
    assert "nichts wird gestrichen" in every and "Geteilt" not in every
    assert "nichts wird gestrichen" not in two["summary"]
