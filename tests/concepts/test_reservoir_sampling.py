"""Reservoir sampling: every figure of CONCEPTS.md §6, Algorithm R itself, the honest spread (D1)."""

import itertools
import json
import math
import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import reservoir_sampling as rs
from probierlabor.kit import api

SLUG = "reservoir-sampling"


# -- the article's exact figures ---------------------------------------------------

def test_entry_chances_of_the_fifth_and_the_hundredth_message():
    assert rs.entry_chance(5) == Fraction(4, 5)
    assert rs.entry_chance(100) == Fraction(4, 100)
    assert [rs.entry_chance(t) for t in range(1, 5)] == [1, 1, 1, 1]


def test_message_1_is_evicted_at_t5_with_chance_one_fifth_and_stays_with_four_fifths():
    evicted = rs.entry_chance(5) * Fraction(1, 4)
    assert evicted == Fraction(1, 5)
    assert 1 - evicted == Fraction(4, 5) == rs.stay_chance(5) == rs.entry_chance(5)
    assert rs.inclusion(1, 5) == Fraction(4, 5)


@pytest.mark.parametrize("k", range(1, 11))
def test_after_t_messages_each_one_is_in_memory_with_chance_k_over_t(k):
    for t in range(k, 41):
        assert {rs.inclusion(i, t, k) for i in range(1, t + 1)} == {Fraction(k, t)}
        assert rs.inclusions(t, k) == [rs.inclusion(i, t, k) for i in range(1, t + 1)]


def test_every_bar_is_exactly_4_of_20():
    ex = rs.exact("reservoir", 4)
    assert ex["bars"] == [Fraction(4, 20)] * 20
    r = rs.compute()
    assert r["exact_bar"] == 0.2 and r["exact_bar_pct"] == 20.0


def test_no_return_kept_is_3060_of_4845():
    ex = rs.exact("reservoir", 4)
    assert (ex["kept_num"][0], ex["den"]) == (3060, 4845)
    assert (math.comb(18, 4), math.comb(20, 4)) == (3060, 4845)
    assert Fraction(3060, 4845) == Fraction(12, 19)
    r = rs.compute()
    assert (r["exact_none_num"], r["exact_den"]) == (3060, 4845)
    assert round(r["exact_none"], 6) == 0.631579 and round(r["exact_none_pct"]) == 63


def test_exactly_one_or_both_returns_kept():
    ex = rs.exact("reservoir", 4)
    assert ex["kept_num"] == [3060, 1632, 153]
    assert sum(ex["kept_num"]) == ex["den"]
    assert round(1632 / 4845, 6) == 0.336842 and round(153 / 4845, 6) == 0.031579


def test_first_four_and_last_four_are_deterministic_and_never_keep_a_return():
    first, last = rs.compute(strategy="first"), rs.compute(strategy="last")
    assert first["bars"] == [1.0] * 4 + [0.0] * 16
    assert last["bars"] == [0.0] * 16 + [1.0] * 4
    for r in (first, last):
        assert r["none"] == 1.0 and r["exact_none"] == 1.0
        assert r["sd_bar_pp"] == 0 and r["sd_none_pp"] == 0
        assert r["kept_counts"] == [r["runs"], 0, 0]


def test_keeping_the_last_six_always_keeps_the_return_at_15():
    r = rs.compute(k=6, strategy="last")
    assert r["none"] == 0.0 and r["kept_share"] == [0.0, 1.0, 0.0]


def test_run_to_run_spread_is_0_89_per_bar_and_1_08_for_the_63_percent_figure():
    r = rs.compute()
    assert round(r["sd_bar_pp"], 2) == 0.89
    assert round(r["sd_none_pp"], 2) == 1.08
    assert math.isclose(rs.compute(runs=200)["sd_bar_pp"], r["sd_bar_pp"] * math.sqrt(10))


def test_a_larger_memory_loses_both_returns_less_often():
    chances = [rs.exact("reservoir", k)["kept_num"][0] / rs.exact("reservoir", k)["den"] for k in range(1, 11)]
    assert all(b < a for a, b in itertools.pairwise(chances))
    assert Fraction(rs.exact("reservoir", 8)["kept_num"][0], rs.exact("reservoir", 8)["den"]) == Fraction(132, 380)


# -- the simulation ----------------------------------------------------------------

def test_the_inlined_loop_is_algorithm_r():
    for seed in range(30):
        for k in (1, 4, 10):
            _, _, last = rs.simulate.__wrapped__(k, 1, seed)
            assert last == tuple(sorted(rs.one_pass(random.Random(seed), k)))


def test_a_pass_keeps_k_different_messages_and_late_ones_enter_less_often():
    entered_20 = 0
    for seed in range(2000):
        memory = rs.one_pass(random.Random(seed), 4)
        assert len(set(memory)) == 4 and all(1 <= m <= 20 for m in memory)
        entered_20 += 20 in memory  # the last message is in memory iff it entered: chance 4/20
    assert abs(entered_20 / 2000 - 0.2) < 4 * math.sqrt(0.16 / 2000)


def test_golden_values_of_the_default_start():
    # random.Random(2024), Algorithm R with randrange: identical in CPython and Pyodide.
    counts, kept, last = rs.simulate(4, 2000, 2024)
    assert counts == (439, 382, 402, 373, 391, 402, 387, 392, 379, 411, 425, 387, 411, 409, 402, 392, 417, 378,
                      395, 426)
    assert kept == (1282, 655, 63) and last == (7, 15, 18, 20)
    r = rs.compute()
    assert r["none"] == 0.641 and round(r["max_dev_pp"], 2) == 1.95


def test_many_runs_agree_with_the_exact_values():
    runs, counts, kept = 0, [0] * 20, [0, 0, 0]
    for seed in range(10):
        c, kk, _ = rs.simulate.__wrapped__(4, 2000, 1000 + seed)
        runs += 2000
        counts = [a + b for a, b in zip(counts, c)]
        kept = [a + b for a, b in zip(kept, kk)]
    sd = math.sqrt(0.2 * 0.8 / runs)
    assert all(abs(c / runs - 0.2) < 4.5 * sd for c in counts)
    assert sum(counts) == 4 * runs and sum(kept) == runs
    q = 12 / 19
    assert abs(kept[0] / runs - q) < 4 * math.sqrt(q * (1 - q) / runs)


def test_different_starts_differ_and_the_same_seed_repeats():
    assert rs.compute(seed=1)["bars"] != rs.compute(seed=2)["bars"]
    assert rs.simulate.__wrapped__(4, 2000, 7) == rs.simulate.__wrapped__(4, 2000, 7)


def test_the_spread_is_not_a_fraction_of_a_percent_for_every_bar():
    study = rs.spread_study(100)
    assert 0.75 < study["sd_bar_pp"] < 1.05  # measured over 100 starts ≈ the binomial 0.89
    assert 0.9 < study["sd_none_pp"] < 1.3
    assert study["median_max_dev_pp"] > 1.3  # the largest bar is typically off by about 2 points
    assert study["share_starts_over_1pp"] > 0.9  # in nearly every start some bar deviates by > 1 point
    assert study["median_median_dev_pp"] < 1.0  # the typical bar does stay within a fraction of a percent


# -- the page ------------------------------------------------------------------------

def test_readouts_in_german():
    values = {r.key: r.value for r in rs.view(rs.compute()).readouts}
    assert values["exact_none"] == "3060/4845 ≈ 63,2\u202f%"
    assert values["bar"] == "4/20 = 20,0\u202f%"
    assert values["none"] == "64,1\u202f%"
    assert values["sd"] == "Balken ± 0,89, ohne Rücksendung ± 1,08 Prozentpunkte"


def test_the_returns_are_marked_in_the_figure():
    svg = rs.view(rs.compute()).figure
    root = ET.fromstring(svg)
    bars = [e for e in root.iter() if (e.get("class") or "").startswith("pl-rs-bar")]
    assert len(bars) == 20
    assert [i + 1 for i, e in enumerate(bars) if "pl-rs-return" in e.get("class")] == [9, 15]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.sampled_from([s for s, _ in rs.STRATEGIES]),
       st.sampled_from([r for r, _ in rs.RUN_CHOICES]), st.integers(0, 2**31 - 1))
def test_any_setting_gives_valid_results_and_figures(k, strategy, runs, seed):
    out = api.run(SLUG, {"k": k, "strategy": strategy, "runs": runs, "seed": seed})
    assert out["notes"] == []
    json.dumps(out, allow_nan=False)
    r = out["result"]
    assert len(r["bars"]) == 20 and all(0 <= b <= 1 for b in r["bars"])
    assert math.isclose(sum(r["bars"]), k)  # every run keeps exactly k messages
    assert sum(r["kept_counts"]) == runs and math.isclose(sum(r["exact_kept"]), 1)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert [x["key"] for x in out["readouts"]] == ["none", "exact_none", "bar", "max_dev", "sd"]


def test_presets_are_the_described_cases():
    assert api.preset_values(SLUG, "Reservoir")["strategy"] == "reservoir"
    assert api.preset_values(SLUG, "Die ersten vier") == {"k": 4, "strategy": "first", "runs": 2000, "seed": 2024,
                                                          "n": 20, "returns": (9, 15)}
    assert api.preset_values(SLUG, "Die letzten vier")["strategy"] == "last"
    assert api.preset_values(SLUG, "Nur 200 Durchläufe")["runs"] == 200


def test_neither_five_places_nor_a_larger_memory_than_needed_is_the_smallest_that_keeps_a_return():
    def solved(**raw):
        return "keep_a_return" in api.run(SLUG, raw)["lesson"]["solved"]
    assert solved(k=6)  # none kept 47.9 %
    assert not solved(k=5)  # none kept 55.3 %: still more than half
    assert not solved(k=7)  # more than half keeps a return, but 7 is not the smallest
    assert not solved(k=6, strategy="first")  # the first six never hold a return


def test_workshop_script_recomputes_the_shares():
    """The numpy script (workshop/reservoir_sampling.py) draws like Algorithm R here: the same share without
    a return message and the same largest deviation, for Reservoir, 200 runs, eight places, and „die letzten“."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(SLUG, "Nur 200 Durchläufe"), api.preset_values(SLUG, "Acht Plätze"),
              api.preset_values(SLUG, "Die letzten vier")]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Keine Rücksendung behalten") == pytest.approx(result["none_pct"], abs=0.006)
        if result["strategy"] == "reservoir":  # there the exact bars are all k/N
            assert number(out["stdout"], "Exakt") == pytest.approx(result["exact_none_pct"], abs=0.006)
            assert number(out["stdout"], "Größte Abweichung vom Balken k/N") == pytest.approx(result["max_dev_pp"],
                                                                                          abs=0.006)
        else:
            assert "Exakt" not in out["stdout"]


# -- an own stream: its length and where the Rücksendungen are (Param kinds int and „values“) ----------

def keep_none_by_counting(n, returns, k):
    """Probability that none of the returns is among k of n positions, by counting every memory there can be."""
    from itertools import combinations
    memories = list(combinations(range(1, n + 1), k))
    return Fraction(sum(1 for m in memories if not set(returns) & set(m)), len(memories))


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 12), st.lists(st.integers(1, 14), min_size=1, max_size=4, unique=True), st.integers(1, 10))
def test_an_own_stream_has_the_exact_chances_of_counting_every_memory(n, returns, k):
    out = api.run(SLUG, {"n": n, "returns": "; ".join(map(str, returns)), "k": k, "runs": 200})
    assert out["notes"] == []
    r = out["result"]
    inside = sorted(p for p in returns if p <= n)
    assert r["returns"] == inside and r["returns_outside"] == sorted(p for p in returns if p > n)
    used = min(k, n)
    assert r["k"] == used and r["exact_bars"] == [used / n] * n
    assert Fraction(r["exact_kept_num"][0], r["exact_den"]) == keep_none_by_counting(n, inside, used)
    assert sum(r["kept_counts"]) == 200 and len(r["kept_counts"]) == len(inside) + 1
    assert sum(r["bars"]) == pytest.approx(used)  # every run keeps exactly k positions
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])


def test_an_own_stream_is_simulated_with_algorithm_r():
    r = rs.compute(k=3, runs=500, seed=7, n=30, returns=(2, 17, 30))
    rng, counts, kept = random.Random(7), [0] * 31, [0] * 4
    for _ in range(500):
        slot = rs.one_pass(rng, 3, 30)
        for s in slot:
            counts[s] += 1
        kept[sum(p in slot for p in (2, 17, 30))] += 1
    assert r["bars"] == [c / 500 for c in counts[1:]] and r["kept_counts"] == kept


def test_positions_behind_the_end_and_a_memory_larger_than_the_stream_are_said():
    out = api.run(SLUG, {"n": 8, "returns": "3; 12", "k": 10})
    r = out["result"]
    assert r["returns"] == [3] and r["returns_outside"] == [12] and r["k"] == 8 and r["exact_none"] == 0
    assert out["summary"].endswith("Der Strom hat 8 Nachrichten, Rücksendungen an 3. Hinter dem Ende liegen und "
                                   "zählen nicht: 12. Der Speicher hat 10 Plätze, mehr als Nachrichten: Alle bleiben.")
    assert out["lesson"]["solved"] == []


def test_bad_positions_are_rounded_kept_once_and_said_in_one_note():
    out = api.run(SLUG, {"returns": "9,4; 15; 15; x"})
    assert out["params"]["returns"] == [9, 15]
    (note,) = out["notes"]
    assert note == ("„Positionen der Rücksendungen“: 9,4 ist keine ganze Zahl und wurde gerundet; "
                    "15 kam mehrfach vor und zählt einmal; „x“ ist keine Zahl und wurde weggelassen.")
    assert out["summary"] == api.run(SLUG)["summary"]  # the article's stream again


def test_workshop_script_draws_an_own_stream_like_the_page():
    from workshop_check import number, run_states

    states = [{"n": 30, "returns": "2; 17; 30", "runs": 500}, {"n": 8, "returns": "3; 12", "k": 10},
              {"n": 12, "returns": "11", "strategy": "last"}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert number(out["stdout"], "Keine Rücksendung behalten") == pytest.approx(result["none_pct"], abs=0.006)
        if result["strategy"] == "reservoir":  # there the exact bars are all k/n
            assert number(out["stdout"], "Exakt") == pytest.approx(result["exact_none_pct"], abs=0.006)
            assert number(out["stdout"], "Größte Abweichung vom Balken k/N") == pytest.approx(result["max_dev_pp"],
                                                                                          abs=0.006)


def test_the_key_sentence_reads_fair_per_message_and_yet_the_returns_mostly_lost():
    four = api.run(SLUG, {})["summary"]
    assert four.startswith("Mit 4 Plätzen landet jede Position in 20,0\u202f% der Durchläufe im Speicher")
    assert "Keine Nachricht wird bevorzugt. Trotzdem bleibt meistens keine Rücksendung übrig: in 64,1\u202f% " in four
    assert "(exakt 3060/4845 ≈ 63,2\u202f%)" in four
    six = api.run(SLUG, {"k": 8, "returns": "1; 2; 3; 4; 5; 6"})["summary"]
    assert "Keine Rücksendung übrig blieb in" in six and "meistens" not in six
    crowded = api.run(SLUG, {"n": 5, "k": 4, "returns": "1; 2"})["summary"]
    assert "Mindestens eine Rücksendung bleibt immer" in crowded
    first = api.run(SLUG, {"strategy": "first"})["summary"]
    assert "Positionen 1 bis 4, alle anderen nie; keine Rücksendung bleibt je im Speicher" in first
    last = api.run(SLUG, {"strategy": "last", "returns": "18; 19"})["summary"]
    assert "die Rücksendungen an Position 18 und 19 bleiben immer im Speicher" in last
