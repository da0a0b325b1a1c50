"""KL divergence: every figure of CONCEPTS.md §26, SciPy's edge cases, PyTorch's KLDivLoss, invariants."""

import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from probierlabor.concepts import kl_divergence as kl
from probierlabor.kit import api

Q = (Fraction(9, 10), Fraction(1, 10))
P = (Fraction(1, 2), Fraction(1, 2))


# -- the article's figures (CONCEPTS.md §26 checklist) ------------------------------------

def test_d_p_q_is_0_368():
    assert round(kl.kl(Q, P), 3) == 0.368
    assert math.isclose(kl.kl(Q, P), 0.9 * math.log(1.8) + 0.1 * math.log(0.2), rel_tol=1e-12)
    assert round(kl.kl(Q, P), 6) == 0.368064


def test_d_q_p_is_0_511():
    assert round(kl.kl(P, Q), 3) == 0.511
    assert math.isclose(kl.kl(P, Q), 0.5 * math.log(5 / 9) + 0.5 * math.log(5), rel_tol=1e-12)
    assert round(kl.kl(P, Q), 6) == 0.510826


def test_cross_entropy_and_entropy_of_the_example():
    assert math.isclose(kl.cross_entropy(Q, P), math.log(2), rel_tol=1e-12)
    assert round(kl.entropy(Q), 6) == 0.325083
    assert math.isclose(kl.cross_entropy(Q, P) - kl.entropy(Q), kl.kl(Q, P), rel_tol=1e-12)


def test_scipy_edge_cases_infinity_and_zero():
    # rel_entr(0.5, 0) = inf and rel_entr(0, 0.5) = 0
    assert kl.term(Fraction(1, 2), Fraction(0)) == math.inf
    assert kl.term(Fraction(0), Fraction(1, 2)) == 0
    assert kl.term(Fraction(0), Fraction(0)) == 0


def test_pytorch_kldivloss_on_one_1x2_example():
    inputs = [[math.log(0.5), math.log(0.5)]]  # log q, the model
    target = [[0.9, 0.1]]  # p, the reference
    assert round(kl.kl_div_loss(inputs, target, "batchmean"), 6) == 0.368064
    assert round(kl.kl_div_loss(inputs, target, "mean"), 6) == 0.184032
    assert round(kl.kl_div_loss(inputs, target, "sum"), 6) == 0.368064


def test_the_default_experiment_is_the_articles_example():
    out = api.run("kl-divergence")
    r = out["result"]
    assert r["p_exact"] == ["9/10", "1/10"] and r["q_exact"] == ["1/2", "1/2"]
    assert round(r["d_pq"], 3) == 0.368 and round(r["d_qp"], 3) == 0.511
    assert r["direction"] == "pq" and round(r["d"], 6) == 0.368064
    assert round(r["terms"][0], 6) == round(0.9 * math.log(1.8), 6) and r["terms"][1] < 0
    t = r["torch"]
    assert round(t["batchmean"]["single"], 6) == 0.368064 and round(t["mean"]["single"], 6) == 0.184032
    # the batch adds an exactly matched second row: sum unchanged, batchmean ÷ 2, mean ÷ 4
    assert math.isclose(t["sum"]["batch"], t["sum"]["single"])
    assert math.isclose(t["batchmean"]["batch"], t["sum"]["single"] / 2)
    assert math.isclose(t["mean"]["batch"], t["sum"]["single"] / 4)
    values = {x["key"]: x["value"] for x in out["readouts"]}
    assert values == {"d_pq": "0,368", "d_qp": "0,511", "cross_entropy": "H(p, q) = 0,693", "entropy": "H(p) = 0,325"}


@pytest.mark.parametrize("raw", [{"swap": True}, {"q_a": 1.0}, {"p_a": 0.0, "q_a": 1.0, "swap": True}])
def test_readout_labels_and_emphasis_never_change(raw):
    # the page only swaps readout values, so labels must not depend on the parameters
    fixed = lambda out: [(r["key"], r["label"], r["emphasis"]) for r in out["readouts"]]  # noqa: E731
    assert fixed(api.run("kl-divergence", raw)) == fixed(api.run("kl-divergence"))


def test_the_swap_exchanges_reference_and_approximation():
    r = api.run("kl-divergence", {"swap": True})["result"]
    assert r["direction"] == "qp" and round(r["d"], 3) == 0.511
    assert round(r["torch"]["batchmean"]["single"], 6) == 0.510826
    assert math.isclose(r["cross_entropy"] - r["entropy"], r["d"], rel_tol=1e-12)


def test_a_zero_in_the_approximation_is_infinite_and_json_safe():
    out = api.run("kl-divergence", api.preset_values("kl-divergence", "Null in der Näherung"))
    r = out["result"]
    assert r["d_pq"] is None and r["d_pq_infinite"] is True
    assert r["d"] is None and r["terms_infinite"] == [False, True]
    assert math.isclose(r["d_qp"], math.log(1 / 0.9), rel_tol=1e-12)  # the other way round stays finite
    assert r["torch"]["batchmean"]["single"] is None
    json.dumps(out, allow_nan=False)
    shown = {x["key"]: x["value"] for x in out["readouts"]}
    assert shown["d_pq"] == "∞" and shown["d_qp"] == "0,105"
    assert "∞" in out["figure"] and "∞" in out["summary"]


def test_equal_distributions_give_zero():
    r = api.run("kl-divergence", api.preset_values("kl-divergence", "Gleiche Verteilungen"))["result"]
    assert r["d_pq"] == 0 and r["d_qp"] == 0 and r["equal"]


def test_probabilities_into_input_give_a_meaningless_negative_number():
    r = kl.compute()
    expected = 0.9 * (math.log(0.9) - 0.5) + 0.1 * (math.log(0.1) - 0.5)
    assert math.isclose(r["torch_wrong_input"], expected, rel_tol=1e-12) and expected < 0


def test_the_other_probability_is_exactly_the_rest():
    for x in (0.0, 0.07, 0.1, 0.33, 0.9, 1.0):
        a, b = kl.two(x)
        assert a + b == 1 and a == Fraction(str(x))


# -- invariants ------------------------------------------------------------------------------

grid = st.integers(0, 100).map(lambda i: Fraction(i, 100))


@settings(max_examples=300, deadline=None)
@given(grid, grid)
def test_gibbs_inequality_kl_is_nonnegative_and_zero_only_for_equal(a, b):
    p, q = kl.two(a), kl.two(b)
    d = kl.kl(p, q)
    assert d >= 0
    assert (d == 0) == (p == q)
    assert math.isinf(d) == any(x > 0 and y == 0 for x, y in zip(p, q))
    if math.isfinite(d):
        assert math.isclose(kl.cross_entropy(p, q) - kl.entropy(p), d, rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=200, deadline=None)
@given(grid, grid)
def test_kldivloss_batchmean_on_one_row_is_the_divergence(a, b):
    p, q = kl.two(a), kl.two(b)
    inputs = [[math.log(x) if x > 0 else -math.inf for x in q]]
    got = kl.kl_div_loss(inputs, [list(p)], "batchmean")
    want = kl.kl(p, q)
    assert (math.isinf(got) and math.isinf(want)) or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
    if math.isfinite(want):
        assert math.isclose(kl.kl_div_loss(inputs, [list(p)], "mean"), want / 2, rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.booleans())
def test_any_setting_runs_and_gives_valid_json_and_svg(p_a, q_a, swap):
    out = api.run("kl-divergence", {"p_a": p_a, "q_a": q_a, "swap": swap})
    assert out["notes"] == []
    json.loads(json.dumps(out, allow_nan=False))
    r = out["result"]
    for key in ("d_pq", "d_qp", "d"):
        assert (r[key] is None) == r[key + "_infinite"]
        assert r[key] is None or r[key] >= 0
    assert math.isfinite(r["entropy"]) and math.isfinite(r["torch_wrong_input"])
    ET.fromstring(out["figure"])
    ET.fromstring("<div>" + out["extra"] + "</div>")


@pytest.mark.parametrize("raw", [{"p_a": "2"}, {"q_a": "-1"}, {"p_a": "nan"}, {"swap": "vielleicht"}])
def test_tampered_values_are_clamped_with_a_note(raw):
    out = api.run("kl-divergence", raw)
    assert len(out["notes"]) == 1 and "verwendet wird" in out["notes"][0]
    json.dumps(out, allow_nan=False)


def test_one_step_past_the_mirror_the_two_directions_differ():
    """Near miss of the first task: q = (0,11; 0,89) is next to the mirror of p, but D(p‖q) ≠ D(q‖p)."""
    out = api.run("kl-divergence", {"q_a": 0.11})
    assert abs(out["result"]["d_pq"] - out["result"]["d_qp"]) > 0.01
    assert "mirror" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_both_directions():
    """The numpy script (workshop/kl_divergence.py) at the default and three presets: same divergences
    (∞ included), same cross-entropy and entropy of the reference."""
    from workshop_check import number, run_states

    states = [{}] + [api.preset_values(kl.SLUG, q) for q in ("Richtung getauscht", "Null in der Näherung",
                                                             "Gleiche Verteilungen")]
    for state, out in zip(states, run_states(kl.SLUG, states)):
        r = api.run(kl.SLUG, state)["result"]
        assert out["figures"] == 1
        for label, key in (("D(p‖q)", "d_pq"), ("D(q‖p)", "d_qp"), ("Kreuzentropie", "cross_entropy"),
                           ("Entropie der Referenz", "entropy")):
            if r[key] is None:
                assert f"{label}: ∞ Nat\n" in out["stdout"]
            else:
                assert number(out["stdout"], label) == pytest.approx(r[key], abs=5e-5)


# -- own distributions (kit/distribution.py) ------------------------------------------------------

def plain_kl(r, a):
    """Σ rᵢ·ln(rᵢ/aᵢ) written out on floats: ∞ where a misses an event of r."""
    if any(x > 0 and y == 0 for x, y in zip(r, a)):
        return None
    return max(0.0, math.fsum(x * math.log(x / y) for x, y in zip(r, a) if x > 0))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=8).filter(any),
       st.lists(st.integers(0, 9), min_size=2, max_size=8).filter(any), st.booleans())
def test_own_distributions_give_the_divergence_of_the_plain_formula(ps, qs, swap):
    out = api.run("kl-divergence", {"p_eigen": " ".join(map(str, ps)), "q_eigen": " ".join(map(str, qs)), "swap": swap})
    r = out["result"]
    n = max(len(ps), len(qs))
    p = [x / sum(ps) for x in ps] + [0.0] * (n - len(ps))
    q = [x / sum(qs) for x in qs] + [0.0] * (n - len(qs))
    assert r["p"] == p and r["q"] == q and r["events"] == list("ABCDEFGH"[:n])
    for key, (a, b) in (("d_pq", (p, q)), ("d_qp", (q, p))):
        want = plain_kl(a, b)
        assert (r[key] is None) == (want is None), key
        if want is not None:
            assert math.isclose(r[key], want, rel_tol=1e-9, abs_tol=1e-12), key
    json.dumps(out, allow_nan=False)
    ET.fromstring(out["figure"])
    ET.fromstring("<div>" + out["extra"] + "</div>")


def test_the_mirror_task_takes_any_two_distributions_with_equal_divergence_both_ways():
    def solved(**raw):
        return "mirror" in api.run("kl-divergence", raw)["lesson"]["solved"]
    assert solved(q_eigen="0,2; 0,3; 0,5", p_eigen="0,5; 0,3; 0,2") and solved(q_eigen="1; 2; 3; 4", p_eigen="4; 2; 3; 1")
    assert not solved(q_eigen="0,2; 0,3; 0,5", p_eigen="0,3; 0,5; 0,2")  # a rotation is not a mirror
    assert not solved(q_eigen="0,2; 0,3; 0,5", p_eigen="0,2; 0,3; 0,5")  # the same distribution twice


def test_own_distributions_of_three_events():
    out = api.run("kl-divergence", {"p_eigen": "0,5; 0,3; 0,2", "q_eigen": "0,2; 0,3; 0,5"})
    assert out["notes"] == [] and out["url"] == {"p_eigen": "0.5_0.3_0.2", "q_eigen": "0.2_0.3_0.5"}
    r = out["result"]
    assert math.isclose(r["d_pq"], 0.3 * math.log(2.5), rel_tol=1e-12)  # 0,5·ln 2,5 + 0 + 0,2·ln 0,4
    assert math.isclose(r["d_qp"], 0.3 * math.log(2.5), rel_tol=1e-12)  # the mirror: both ways equal
    assert "mirror" in out["lesson"]["solved"]  # a swap of two entries: both ways equal, a right answer
    assert out["summary"].startswith("p = (0,5; 0,3; 0,2), q = (0,2; 0,3; 0,5): D(p‖q) = 0,275, D(q‖p) = 0,275")
    assert "beide Richtungen gleich groß, obwohl die Verteilungen verschieden sind" in out["summary"]
    assert "1 × 3" in out["extra"] and "pl-kl-forward" not in out["extra"]  # no curve for three events


def test_a_shorter_distribution_gives_the_missing_events_0():
    out = api.run("kl-divergence", {"p_eigen": "0,5; 0,3; 0,2"})  # q is still the slider's (0,5; 0,5)
    r = out["result"]
    assert r["q"] == [0.5, 0.5, 0.0] and r["d_pq"] is None and r["terms_infinite"] == [False, False, True]
    assert "q hat weniger Ereignisse; C bekommt bei q die Wahrscheinlichkeit 0." in out["summary"]


def test_own_distributions_that_do_not_sum_to_1_are_divided_with_a_note():
    out = api.run("kl-divergence", {"p_eigen": "9; 1", "q_eigen": "1; 1"})
    assert out["notes"] == ["„Eigene Verteilung p“: Die Werte ergaben zusammen 10; sie wurden durch 10 geteilt.",
                            "„Eigene Verteilung q“: Die Werte ergaben zusammen 2; sie wurden durch 2 geteilt."]
    assert round(out["result"]["d_pq"], 3) == 0.368  # the article's example again


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["0", "0,0001", "0,001", "1", "100"]), min_size=2, max_size=8).filter(lambda xs: set(xs) - {"0"}),
       st.lists(st.sampled_from(["0", "0,0001", "1", "100"]), min_size=2, max_size=8).filter(lambda xs: set(xs) - {"0"}))
@example(["100", "0,001"], ["1", "0"])  # q(B) = 1/100 001 was rounded to 0, and D(q‖p) showed 0 instead of ∞
def test_a_divergence_is_infinite_exactly_where_the_reference_has_an_event_the_other_lacks(qs, ps):
    """Tiny typed chances are chances: only a typed 0 (or a missing event) is 0."""
    r = api.run("kl-divergence", {"p_eigen": "; ".join(ps), "q_eigen": "; ".join(qs)})["result"]
    n = max(len(qs), len(ps))
    has = {name: [x != "0" for x in xs] + [False] * (n - len(xs)) for name, xs in (("q", qs), ("p", ps))}
    assert r["d_qp_infinite"] == any(a and not b for a, b in zip(has["q"], has["p"]))
    assert r["d_pq_infinite"] == any(a and not b for a, b in zip(has["p"], has["q"]))
    assert [x > 0 for x in r["q"]] == has["q"] and [x > 0 for x in r["p"]] == has["p"]


def test_a_too_long_own_distribution_keeps_the_first_eight():
    out = api.run("kl-divergence", {"q_eigen": "1;1;1;1;1;1;1;1;1"})
    (note,) = out["notes"]
    assert note.startswith("„Eigene Verteilung q“: Es gehen höchstens 8 Werte, der letzte wurde weggelassen")
    assert out["result"]["q"] == [0.125] * 8 and out["result"]["p"] == [0.9, 0.1] + [0.0] * 6


def test_workshop_script_recomputes_own_distributions():
    from workshop_check import number, run_states

    states = [{"p_eigen": "0,5; 0,3; 0,2", "q_eigen": "0,2; 0,3; 0,5", "swap": True}, {"p_eigen": "0,5; 0,3; 0,2"},
              {"q_eigen": "0,7; 0,1; 0,1; 0,1"}]
    for state, out in zip(states, run_states(kl.SLUG, states)):
        r = api.run(kl.SLUG, state)["result"]
        assert out["figures"] == 1
        for label, key in (("D(p‖q)", "d_pq"), ("D(q‖p)", "d_qp"), ("Entropie der Referenz", "entropy")):
            if r[key] is None:
                assert f"{label}: ∞ Nat\n" in out["stdout"]
            else:
                assert number(out["stdout"], label) == pytest.approx(r[key], abs=5e-5)


def test_p_is_the_reference_as_on_the_speculative_decoding_page():
    """kl-divergence and speculative-decoding use p and q alike (p the reference, q the
    approximation), and each page says so."""
    from pathlib import Path
    pages = Path(__file__).resolve().parents[2] / "pages"
    r = api.run(kl.SLUG, {})["result"]
    assert kl.names(r) == ("p", "q") and r["p"] == [0.9, 0.1] and r["d_pq"] == pytest.approx(0.368, abs=5e-4)
    here = (pages / "kl-divergence.md").read_text(encoding="utf-8")
    assert "die **Referenz** \\(p\\), die andere die **Näherung** \\(q\\)" in here
    assert "\\(p\\) ist die\nReferenz, \\(q\\) die Näherung." in here
    there = (pages / "speculative-decoding.md").read_text(encoding="utf-8")
    assert "\\(p\\) sind dort die Wahrscheinlichkeiten des Zielmodells, \\(q\\) die des Entwurfs." in there
    assert "ist also \\(p\\) die Referenz, \\(q\\) die Näherung." in there


def test_an_old_link_keeps_its_meaning_after_p_and_q_changed_roles():
    # links from before p and q changed roles name the reference q: their q1 and q_dist set p
    old = api.run("kl-divergence", {"q1": 0.8, "p1": 0.3, "q_dist": "0,25; 0,75"})
    new = api.run("kl-divergence", {"p_a": 0.8, "q_a": 0.3, "p_eigen": "0,25; 0,75"})
    assert old["notes"] == [] and old["result"] == new["result"] and old["url"] == new["url"]
    assert new["result"]["p"] == [0.25, 0.75] and new["result"]["q"] == [0.3, 0.7]


def test_the_key_sentence_says_what_the_two_directions_mean():
    """Under the bars: two different values say the direction matters; equal distributions give 0 both
    ways; a zero in the approximation makes one direction infinite and names the event."""
    default = api.run("kl-divergence")["summary"]
    assert "D(p‖q) = 0,368, D(q‖p) = 0,511" in default and "Die Richtung zählt" in default
    assert "Referenz ist p" in default and "unendlich" not in default
    assert "Referenz ist q" in api.run("kl-divergence", {"swap": True})["summary"]
    same = api.run("kl-divergence", api.preset_values("kl-divergence", "Gleiche Verteilungen"))["summary"]
    assert "D(p‖q) = 0,000" in same and "in beiden Richtungen 0" in same and "Richtung zählt" not in same
    zero = api.run("kl-divergence", api.preset_values("kl-divergence", "Null in der Näherung"))["summary"]
    assert "D(p‖q) ist unendlich: q gibt B die Wahrscheinlichkeit 0" in zero and "D(q‖p) = 0,105" in zero
    assert "andere Richtung bleibt endlich" in zero
