"""Speculative decoding: every figure of CONCEPTS.md §20 exactly, the invariants, and the real draws."""

import json
import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import speculative_decoding as sd
from probierlabor.kit import api

P = (F(1, 5), F(1, 2), F(3, 10))
Q = (F(3, 5), F(3, 10), F(1, 10))


def test_the_readers_decimals_become_exact_fractions():
    assert sd.distribution(0.2, 0.5) == (P, False)
    assert sd.distribution(0.6, 0.3) == (Q, False)


def test_accepted_mass_is_min_p_q():
    b = sd.balance(P, Q)
    assert b["accepted"] == (F(1, 5), F(3, 10), F(1, 10))
    assert b["rate"] == F(3, 5)


def test_rejected_mass_is_0_4():
    b = sd.balance(P, Q)
    assert b["rejected"] == F(2, 5)
    assert b["excess_total"] == F(2, 5)


def test_the_residual_is_split_equally_between_b_and_c():
    b = sd.balance(P, Q)
    assert b["excess"] == (0, F(1, 5), F(1, 5))
    assert b["correction"] == (0, F(1, 2), F(1, 2))


def test_the_correct_rule_gives_exactly_p():
    b = sd.balance(P, Q)
    assert b["final"] == P
    assert b["distance"] == 0


def test_the_wrong_correction_from_p_gives_0_28_0_50_0_22():
    b = sd.balance(P, Q, "plain")
    assert b["final"] == (F(28, 100), F(50, 100), F(22, 100))
    assert b["distance"] == F(8, 100)


def test_acceptance_probability_per_token():
    assert sd.balance(P, Q)["accept_prob"] == (F(1, 3), 1, 1)


def test_compute_serialises_the_exact_values():
    r = sd.compute()
    assert r["accepted_exact"] == ["1/5", "3/10", "1/10"]
    assert r["final_exact"] == ["1/5", "1/2", "3/10"]
    assert r["rate_exact"] == "3/5" and r["rejected_exact"] == "2/5"
    assert r["accept_prob_exact"] == ["1/3", "1", "1"]
    assert sd.compute(correction="plain")["final_exact"] == ["7/25", "1/2", "11/50"]
    json.dumps(api.run("speculative-decoding")["result"])


def test_equal_distributions_reject_nothing():
    b = sd.balance(P, P)
    assert b["rate"] == 1 and b["rejected"] == 0 and b["correction"] is None and b["final"] == P
    draws = sd.simulate(P, P, "residual", 2000, 5)
    assert draws["accepted"] == 2000


def test_a_pair_above_one_is_cut_back_with_a_note():
    r = sd.compute(pa=0.7, pb=0.7)
    assert r["p_exact"] == ["7/10", "3/10", "0"]
    assert r["notes"] and "gekürzt" in r["notes"][0]
    view = sd.view(r)
    assert "gekürzt" in view.figure and "gekürzt" in view.summary and "gekürzt" in view.extra


def test_a_token_the_draft_never_proposes_has_no_acceptance_probability():
    p, q = (F(1, 2), F(1, 4), F(1, 4)), (F(0), F(1, 2), F(1, 2))
    b = sd.balance(p, q)
    assert b["accept_prob"][0] is None and b["final"] == p
    draws = sd.simulate(p, q, "residual", 3000, 9)
    assert sum(draws["counts"]) == 3000 and abs(draws["counts"][0] / 3000 - 0.5) < 0.04


# -- the real draws -------------------------------------------------------------------

# Golden values of this generator (random.Random, one number for the proposal, one for the
# decision, one more after a rejection): the page quotes them for the preset „Viele Durchläufe“.
GOLDEN = {("residual", 10000, 1): ([2013, 5015, 2972], 5987),
          ("plain", 10000, 1): ([2870, 4964, 2166], 5987),
          ("residual", 1000, 1): ([195, 514, 291], 612)}


@pytest.mark.parametrize("key", GOLDEN)
def test_the_draws_are_reproducible_golden_values(key):
    correction, trials, seed = key
    draws = sd.simulate(P, Q, correction, trials, seed)
    assert (draws["counts"], draws["accepted"]) == GOLDEN[key]


def test_the_histogram_converges_to_p_only_with_the_correct_rule():
    good = sd.compute(trials=10000, seed=3)
    bad = sd.compute(trials=10000, seed=3, correction="plain")
    assert good["max_deviation"] < 0.02
    assert abs(bad["freq"][0] - 0.28) < 0.02 and abs(bad["freq"][0] - 0.2) > 0.05
    assert abs(good["rate_measured"] - 0.6) < 0.02


def test_different_seeds_give_different_draws():
    assert sd.compute(seed=1)["counts"] != sd.compute(seed=2)["counts"]


# -- invariants over all inputs ---------------------------------------------------------

probabilities = st.integers(0, 20).map(lambda k: F(k, 20))


@given(probabilities, probabilities, probabilities, probabilities, st.sampled_from(["residual", "plain"]))
def test_bookkeeping_invariants(pa, pb, qa, qb, correction):
    p, _ = sd.distribution(pa, pb)
    q, _ = sd.distribution(qa, qb)
    assert sum(p) == 1 and sum(q) == 1 and min(p) >= 0 and min(q) >= 0
    b = sd.balance(p, q, correction)
    total_variation = sum(abs(x - y) for x, y in zip(p, q)) / 2
    assert b["rate"] == 1 - total_variation  # acceptance rate = 1 − TV(p, q)
    assert b["rejected"] == b["excess_total"]
    assert sum(b["final"]) == 1
    if correction == "residual":
        assert b["final"] == p  # Leviathan et al., §2.3 and A.1: the target distribution, exactly
    for x, prob in enumerate(b["accept_prob"]):
        if prob is not None:
            assert q[x] * prob == min(p[x], q[x])


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1),
       st.sampled_from(["residual", "plain"]), st.sampled_from([100, 1000]), st.integers(0, 2**31 - 1))
def test_any_setting_runs_and_gives_a_valid_figure(pa, pb, qa, qb, correction, trials, seed):
    raw = {"pa": pa, "pb": pb, "qa": qa, "qb": qb, "correction": correction, "trials": trials, "seed": seed}
    out = api.run("speculative-decoding", raw)
    assert out["notes"] == []
    r = out["result"]
    json.dumps(out)
    assert math.isclose(sum(r["final"]), 1) and sum(r["counts"]) == trials
    assert all(0 <= f <= 1 for f in r["freq"]) and 0 <= r["rate"] <= 1
    ET.fromstring(out["figure"])
    ET.fromstring(f"<div>{out['extra']}</div>")
    assert len(out["readouts"]) == 6


def test_bad_url_values_are_clamped_not_fatal():
    out = api.run("speculative-decoding", {"pa": "7", "trials": "5", "seed": "-3"})
    assert len(out["notes"]) == 3 and out["params"]["pa"] == 1.0


def test_readouts_are_german():
    values = {r.key: r.value for r in sd.view(sd.compute()).readouts}
    assert values["rate"] == "60\u202f%" and values["rejected"] == "0,4"
    assert values["final"] == "(0,2; 0,5; 0,3)" and values["distance"] == "0"
    wrong = {r.key: r.value for r in sd.view(sd.compute(correction="plain")).readouts}
    assert wrong["final"] == "(0,28; 0,5; 0,22)" and wrong["distance"] == "0,08"


def test_a_draft_just_short_of_nine_tenths_does_not_solve_the_first_task():
    """Near miss: q = (0,35; 0,4; 0,25) is close to p but is accepted only 17/20 of the time."""
    out = api.run("speculative-decoding", {"qa": 0.35, "qb": 0.4})
    assert out["result"]["rate_exact"] == "17/20"
    assert "close_draft" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_the_balance_and_the_runs():
    """The numpy script (workshop/speculative_decoding.py) at the default and three presets: same exact
    balance and – run with the same random.Random(seed) – the same counts."""
    from workshop_check import number, run_states

    states = [{}] + [api.preset_values(sd.SLUG, p) for p in ("Viele Durchläufe, falsch", "Gleiche Verteilungen")]
    states.append({"pa": 0.7, "pb": 0.6, "qa": 0.3, "qb": 0.7, "seed": 9})  # both pairs cut back, q(C) = 0
    for state, out in zip(states, run_states(sd.SLUG, states)):
        r = api.run(sd.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Annahmequote") == pytest.approx(r["rate"], abs=5e-5)
        assert number(out["stdout"], "Abstand zu p") == pytest.approx(r["distance"], abs=5e-5)
        assert number(out["stdout"], "Angenommene Vorschläge") == r["accepted_draws"]
        exact = re.search(r"^Heraus, exakt: (.*)$", out["stdout"], re.M).group(1).replace(",", ".").split()
        assert [float(v) for v in exact] == pytest.approx(r["final"], abs=5e-5)
        drawn = re.search(r"^Heraus, gezogen: (.*)$", out["stdout"], re.M).group(1).split()
        assert drawn == [str(c) for c in r["counts"]]


def test_the_key_sentence_says_whether_the_correction_gives_back_p():
    """Under the bars: with the residual the result is p; with p as the correction it misses by the distance,
    unless nothing is rejected or the residual happens to be shaped like p."""
    right = api.run("speculative-decoding")["summary"]
    assert "in 60\u202f% der Fälle angenommen" in right and "(0,2; 0,5; 0,3) – genau das Ziel p" in right
    assert "daneben" not in right and "1000 echte Durchläufe ergeben (0,195; 0,514; 0,291)" in right
    wrong = api.run("speculative-decoding", api.preset_values("speculative-decoding", "Falsche Korrektur"))["summary"]
    assert "(0,28; 0,5; 0,22) statt (0,2; 0,5; 0,3) – um 0,08 daneben" in wrong and "genau" not in wrong
    equal = api.run("speculative-decoding", {"qa": 0.2, "qb": 0.5, "correction": "plain"})["summary"]
    assert "Jeder Vorschlag wird angenommen (100\u202f%)" in equal and "daneben" not in equal
    lucky = api.run("speculative-decoding", {"pa": 0.5, "pb": 0.5, "qa": 0.25, "qb": 0.25, "correction": "plain"})
    assert "trotzdem (0,5; 0,5; 0) = p" in lucky["summary"]
