"""pass@k: every figure of CONCEPTS.md §12 exactly, the estimator against brute-force enumeration, invariants."""

import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from itertools import combinations, pairwise
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import pass_at_k as pk
from probierlabor.kit import api

# -- the article's figures (CONCEPTS.md §12 checklist) ------------------------------------

def test_four_runs_one_success_pass_at_1_is_a_quarter():
    assert pk.estimate(4, 1, 1) == Fraction(1, 4)


def test_of_the_six_pairs_three_contain_the_success_so_pass_at_2_is_a_half():
    assert comb(4, 2) == 6
    assert pk.subsets_with_success(4, [0], 2) == (3, 6)
    assert pk.estimate(4, 1, 2) == Fraction(1, 2)


def test_pass_at_3_and_4_and_the_naive_contrast():
    assert pk.estimate(4, 1, 3) == Fraction(3, 4)
    assert pk.estimate(4, 1, 4) == 1
    assert pk.naive(4, 1, 2) == Fraction(7, 16)
    assert pk.naive(4, 1, 2) != pk.estimate(4, 1, 2)


def test_the_default_experiment_is_the_articles_example():
    r = api.run("pass-at-k")["result"]
    assert (r["n"], r["c_used"], r["k"]) == (4, 1, 2)
    assert (r["subsets_hit"], r["subsets_total"]) == (3, 6)
    assert r["pass_k_exact"] == "1/2" and r["pass_k"] == 0.5
    assert r["naive_exact"] == "7/16"
    assert len(r["shown"]) == 6 and sum(g["hit"] for g in r["shown"]) == 3
    assert r["curve_exact"] == ["1/4", "1/2", "3/4", "1"]


def test_presets_show_the_described_cases():
    run = lambda label: api.run("pass-at-k", api.preset_values("pass-at-k", label))["result"]  # noqa: E731
    assert run("pass@1")["pass_k_exact"] == "1/4"
    assert run("pass@2")["pass_k_exact"] == "1/2"
    assert run("Alle vier")["pass_k_exact"] == "1"
    beyond = run("Budget größer als Stichprobe")
    assert beyond["estimable"] is False and beyond["pass_k"] is None and beyond["subsets_total"] == 0
    big = run("20 Versuche")
    assert big["subsets_total"] == comb(20, 5) and big["capped"] and len(big["shown"]) == pk.DRAW_MAX


def test_readouts_are_german_and_exact():
    values = {r["key"]: r["value"] for r in api.run("pass-at-k")["readouts"]}
    assert values == {"pass_k": "pass@2: 1/2 = 0,5", "groups": "3 von 6", "naive": "7/16 ≈ 0,438",
                      "pass_n": "pass@4 = 1"}
    one = {r["key"]: r["value"] for r in api.run("pass-at-k", {"k": 1})["readouts"]}
    assert one["pass_k"] == "pass@1: 1/4 = 0,25" and one["groups"] == "1 von 4"


@pytest.mark.parametrize("raw", [{"k": 1}, {"k": 10}, {"n": 20, "c": 3, "k": 5}, {"n": 1, "c": 0, "k": 1}])
def test_readout_labels_and_emphasis_never_change(raw):
    # the page only swaps readout values, so labels must not depend on the parameters
    fixed = lambda out: [(r["key"], r["label"], r["emphasis"]) for r in out["readouts"]]  # noqa: E731
    assert fixed(api.run("pass-at-k", raw)) == fixed(api.run("pass-at-k"))


def test_the_average_over_tasks():
    r = pk.over_tasks(2)
    assert r["values"] == [Fraction(1, 2), 0, Fraction(5, 6)]
    assert r["mean"] == Fraction(4, 9)
    assert pk.over_tasks(1)["mean"] == Fraction(1, 4)


# -- the collected attempts are not the budget ---------------------------------------------

def test_a_budget_larger_than_the_sample_is_not_estimable_and_says_so():
    out = api.run("pass-at-k", {"n": 4, "c": 1, "k": 10})
    assert out["result"]["pass_k"] is None
    assert "nicht schätzbar" in out["readouts"][0]["value"]
    assert "nicht schätzen" in out["summary"]
    assert "nicht schätzbar" in out["figure"]


def test_one_of_all_collected_is_pass_at_n_not_pass_at_1():
    r = pk.compute(n=4, c=1, k=1)
    assert r["pass_n"] == 1 and r["pass_k"] == 0.25


def test_more_successes_than_attempts_count_as_n_and_the_summary_says_so():
    out = api.run("pass-at-k", {"n": 3, "c": 9, "k": 2})
    assert out["result"]["c_used"] == 3 and out["result"]["pass_k"] == 1
    assert "eingestellt waren 9" in out["summary"]


# -- enumeration, unranking, invariants --------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 9))
def test_unrank_follows_the_order_of_itertools(n):
    for k in range(1, n + 1):
        assert [pk.unrank(n, k, i) for i in range(comb(n, k))] == list(combinations(range(n), k))


small = st.integers(1, 10).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n)))


@settings(max_examples=150, deadline=None)
@given(small, st.integers(0, 2**31 - 1))
def test_the_formula_equals_the_enumeration_wherever_the_successes_sit(nck, seed):
    n, c, k = nck
    wins = pk.successes_at(n, c, seed)
    hit, total = pk.subsets_with_success(n, wins, k)
    assert pk.estimate(n, c, k) == Fraction(hit, total)
    r = pk.compute(n=n, c=c, k=k, seed=seed)
    assert (r["subsets_hit"], r["subsets_total"]) == (hit, total)
    if total <= pk.DRAW_MAX:  # every drawn group is flagged correctly
        assert sum(g["hit"] for g in r["shown"]) == hit
    for g in r["shown"]:
        assert g["hit"] == any(m in wins for m in g["members"]) and len(g["members"]) == k


@settings(max_examples=150, deadline=None)
@given(st.integers(1, pk.N_MAX).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_pass_at_k_is_a_probability_and_grows_with_k(nc):
    n, c = nc
    values = [pk.estimate(n, c, k) for k in range(1, n + 1)]
    assert all(0 <= v <= 1 for v in values)
    assert all(a <= b for a, b in pairwise(values))
    assert values[0] == Fraction(c, n)  # pass@1 is the plain success rate
    assert values[-1] == (1 if c else 0)
    # strictly growing while a failure-only group still exists, 1 from then on
    for k in range(1, n):
        if c and k < n - c + 1:
            assert values[k] > values[k - 1]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, pk.N_MAX).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_the_naive_plug_in_never_exceeds_the_estimator(nck):
    n, c, k = nck
    # (1 − c/n)^k ≥ C(n−c, k)/C(n, k): drawing without replacement makes all-failure groups rarer
    assert pk.naive(n, c, k) <= pk.estimate(n, c, k)


def test_the_successes_are_reproducible_from_the_seed():
    assert pk.successes_at(10, 3, 5) == pk.successes_at(10, 3, 5)
    assert len({tuple(pk.successes_at(10, 3, s)) for s in range(20)}) > 1


# -- the whole declared parameter space ----------------------------------------------------------

@settings(max_examples=120, deadline=None)
@given(st.integers(1, pk.N_MAX), st.integers(0, pk.N_MAX), st.integers(1, pk.N_MAX), st.integers(0, 2**31 - 1))
def test_any_setting_runs_and_gives_valid_json_and_svg(n, c, k, seed):
    out = api.run("pass-at-k", {"n": n, "c": c, "k": k, "seed": seed})
    assert out["notes"] == []
    text = json.dumps(out, allow_nan=False)
    assert json.loads(text)["slug"] == "pass-at-k"
    r = out["result"]
    assert (r["pass_k"] is None) == (k > n)
    if r["pass_k"] is not None:
        assert 0 <= r["pass_k"] <= 1
    assert len(r["shown"]) <= pk.DRAW_MAX
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_the_largest_grid_is_redrawn_from_compact_markup(layout):
    """n = 20 draws 36 groups of 20 cells, and the browser parses and checks the figure's markup at every
    slider step: each group still holds n cells, its k members coloured, the others plain."""
    n, k = pk.N_MAX, 2
    out = api.run("pass-at-k", {"n": n, "k": k}, layout=layout)
    assert len(out["figure"]) < 60_000
    svg = ET.fromstring(out["figure"])
    groups = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if "pl-pk-group" in g.get("class", "")]
    assert len(groups) == len(out["result"]["shown"]) > 30
    for g in groups:
        cells = [r for r in g.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") != "pl-pk-frame"]
        assert len(cells) == n and sum(r.get("class") in ("pl-pk-ok", "pl-pk-fail") for r in cells) == k
        assert "pl-pk-tiny" in g.get("class")  # cells this small: plain outlines, no dashes


def test_tampered_values_are_clamped_with_a_note():
    out = api.run("pass-at-k", {"n": "999", "k": "-3"})
    assert out["params"]["n"] == pk.N_MAX and out["params"]["k"] == 1
    assert len(out["notes"]) == 2


def test_one_below_the_sure_budget_is_not_yet_sure():
    """Near miss of the first task: with one success in four, k = 3 leaves one group without it."""
    out = api.run("pass-at-k", {"k": 3})
    assert out["result"]["pass_k_exact"] == "3/4"
    assert "sure" not in out["lesson"]["solved"]


def test_the_naive_gap_task_reads_a_budget_that_cannot_be_estimated():
    """k > n has no estimate to compare with: the check says no instead of raising."""
    task = next(t for t in pk.LESSON.tasks if t.key == "naive_gap")
    assert task.solved({}, pk.compute(k=5)) is False


def test_workshop_script_recomputes_the_groups():
    """The numpy script (workshop/pass_at_k.py) at the default and two presets: same counts, same pass@k."""
    from workshop_check import number, run_states

    states = [{}] + [api.preset_values(pk.SLUG, p) for p in ("20 Versuche", "Budget größer als Stichprobe")]
    for state, out in zip(states, run_states(pk.SLUG, states)):
        r = api.run(pk.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Gruppen") == r["subsets_total"]
        assert number(out["stdout"], "Gruppen mit Erfolg") == r["subsets_hit"]
        assert number(out["stdout"], "Naiv") == pytest.approx(r["naive"], abs=5e-5)
        if r["estimable"]:
            assert number(out["stdout"], "pass@k") == pytest.approx(r["pass_k"], abs=5e-5)
        else:
            assert "pass@k: nicht schätzbar" in out["stdout"]


def test_the_key_sentence_sets_pass_at_k_against_a_single_attempt_and_warns_when_k_is_all_there_is():
    two = api.run("pass-at-k", {"n": 4, "c": 1, "k": 2})["summary"]
    assert two.endswith("3 von 6 Gruppen aus 2 Versuchen enthalten einen Erfolg: pass@2 = 1/2 = 0,5, "
                        "mehr als pass@1 = 1/4 = 0,25 für einen einzelnen Versuch.")
    one = api.run("pass-at-k", {"n": 4, "c": 1, "k": 1})["summary"]
    assert "pass@1 = 1/4 = 0,25, genau die Erfolgsquote eines einzelnen Versuchs" in one and "mehr als" not in one
    every = api.run("pass-at-k", api.preset_values("pass-at-k", "Alle vier"))["summary"]
    assert "nur eine Gruppe" in every and "pass@4 = 1 sagt nur" in every
    assert "weniger Fehlversuche als k = 3" in api.run("pass-at-k", {"n": 5, "c": 3, "k": 3})["summary"]
    assert api.run("pass-at-k", {"n": 4, "c": 0, "k": 2})["summary"].endswith("pass@2 = 0.")
