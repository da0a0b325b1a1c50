"""FlashAttention's online softmax: every figure of CONCEPTS.md §18 and online = dense for any block size."""

import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from page_states import unmarked_roundings
from probierlabor.concepts import flash_attention as fa
from probierlabor.kit import api

LN3 = math.log(3)
S, V = [0, 0, LN3, LN3], [0, 0, 1, 1]


def close(a, b, tol=1e-12):
    return abs(a - b) <= tol


def test_unnormalised_weights_are_in_the_ratio_1_1_3_3():
    r = fa.compute()
    assert all(close(x, y) for x, y in zip(r["ratio"], [1, 1, 3, 3]))
    assert all(close(x, y) for x, y in zip(r["weights"], [1 / 8, 1 / 8, 3 / 8, 3 / 8]))


def test_exact_result_is_six_eighths():
    assert close(fa.dense(S, V), 6 / 8) and close(fa.dense(S, V), 0.75)


def test_blocks_of_two_give_0_and_1_and_their_plain_mean_is_the_wrong_half():
    r = fa.compute(block=2)
    assert [row["positions"] for row in r["rows"]] == [[0, 1], [2, 3]]
    assert close(r["rows"][0]["local"], 0) and close(r["rows"][1]["local"], 1)
    assert close(r["naive"], 0.5) and close(r["online"], 0.75)


def test_state_after_each_block_of_two():
    first, second = fa.online(S, V, 2)
    assert (first["m"], first["l"], first["u"]) == (0, 2, 0)
    assert close(second["m"], LN3)
    assert close(second["scale"], 1 / 3)  # e^{m − m′} = e^{−ln 3}
    assert close(second["l"], 2 / 3 + 2) and close(second["l"], 8 / 3)
    assert close(second["u"], 2) and close(second["result"], 0.75)


def test_correct_merge_weights_are_the_block_sums_2_and_6():
    r = fa.compute(block=2)
    assert close(r["block_sum"][0], 2) and close(r["block_sum"][1], 6)
    assert close((2 * 0 + 6 * 1) / 8, r["online"])
    assert close(r["block_share"][0], 0.25) and close(r["block_share"][1], 0.75)


@pytest.mark.parametrize("block, naive", [(1, 0.5), (2, 0.5), (3, 0.8), (4, 0.75)])
def test_any_block_size_gives_075_online_but_the_plain_mean_depends_on_it(block, naive):
    r = fa.compute(block=block)
    assert close(r["online"], 0.75) and close(r["naive"], naive)


def test_block_size_4_is_a_single_block():
    r = fa.compute(block=4)
    assert r["n_blocks"] == 1 and r["rows"][0]["scale"] is None


def test_after_block_one_only_the_first_block_counts():
    r = fa.compute(step=1)
    assert not r["finished"] and r["online"] == 0 and r["l"] == 2


def test_a_big_jump_rescales_the_old_state():
    r = fa.compute(s3=10.0, s4=10.0)
    assert close(r["rows"][1]["scale"], math.exp(-10))
    assert close(r["online"], r["dense"]) and r["dense"] > 0.9999
    assert close(r["naive"], 0.5)


def test_maximum_first_needs_no_rescaling():
    r = api.run("flash-attention", api.preset_values("flash-attention", "Maximum zuerst"))["result"]
    assert r["rows"][1]["scale"] == 1 and close(r["online"], 0.75)


def test_equal_scores_make_the_plain_mean_right_by_accident():
    r = fa.compute(s3=0.0, s4=0.0)
    assert close(r["naive"], r["dense"]) and close(r["dense"], 0.5)


scores = st.floats(min_value=-20, max_value=20, allow_nan=False)
values = st.floats(min_value=-100, max_value=100, allow_nan=False)


@given(st.lists(scores, min_size=4, max_size=4), st.lists(values, min_size=4, max_size=4), st.integers(1, 4))
def test_online_softmax_equals_dense_attention_for_any_block_size(s, v, size):
    rows = fa.online(s, v, size)
    assert math.isclose(rows[-1]["result"], fa.dense(s, v), rel_tol=1e-12, abs_tol=1e-12)
    # the running maximum never falls and ends at the global maximum
    assert all(a["m"] <= b["m"] for a, b in itertools.pairwise(rows)) and rows[-1]["m"] == max(s)
    assert all(0 < row["scale"] <= 1 for row in rows[1:])
    assert min(v) - 1e-9 <= rows[-1]["result"] <= max(v) + 1e-9


@settings(max_examples=80, deadline=None)
@example({"block": 0, "step": 0, "s1": "ln3", "s2": 0.0, "s3": 0.0, "s4": 0.0,  # found by CI: the smallest
          "x1": 1.0, "x2": 1.0, "x3": 1.0, "x4": 5e-324})                          # float once divided by 0
@given(st.fixed_dictionaries({
    "block": st.one_of(st.integers(-3, 9), st.text(max_size=3)),
    "step": st.integers(-3, 9),
    "s1": st.one_of(scores, st.floats(), st.just("ln3")), "s2": scores,
    "s3": st.floats(min_value=-1e6, max_value=1e6), "s4": scores,
    "x1": values, "x2": st.floats(), "x3": values, "x4": values,
}))
def test_run_never_fails_and_draws_valid_svg(raw):
    out = api.run("flash-attention", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    for key in ("online", "dense", "naive", "l", "u", "m"):
        assert math.isfinite(r[key])
    assert math.isclose(r["rows"][-1]["result"], r["dense"], rel_tol=1e-12, abs_tol=1e-12)


def test_readouts_are_german():
    shown = {x["key"]: x["value"] for x in api.run("flash-attention")["readouts"]}
    assert shown["online"] == "0,75" and shown["naive"] == "0,5" and shown["m"] == "ln 3"
    assert shown["l"] == "2,66667" and shown["u"] == "2"


def test_tiny_numbers_in_powers_of_ten():
    assert fa.sci(5e-324) == "4,94 · 10⁻³²⁴"
    assert fa.sci(9.999e-6) == "1,00 · 10⁻⁵"
    assert fa.sci(-2.5e-7) == "−2,50 · 10⁻⁷"


def test_lesson_one_block_is_not_solved_by_blocks_of_three():
    # blocks of three and one: the plain mean is (0,6 + 1)/2 = 0,8, not 0,75
    near = api.run("flash-attention", {"block": 3})
    assert near["result"]["naive"] == pytest.approx(0.8)
    assert "one_block" not in near["lesson"]["solved"]
    assert "one_block" in api.run("flash-attention", {"block": 4})["lesson"]["solved"]


def test_workshop_script_recomputes_the_online_softmax():
    """The numpy script (workshop/flash_attention.py) at the default and two presets: same running state,
    same dense and naive results."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(fa.SLUG, "Nach Block 1"), api.preset_values(fa.SLUG, "Großer Sprung"),
              {"scores": "0; 1; 2; 0,5; 3", "values": "1; 0; 2; 1; 0", "block": 2},
              {"scores": "0; 1; 2; 0,5; 3; 1; 1; 2", "block": 3, "step": 2}, {"values": "5; 6; 7", "block": 8}]
    for state, out in zip(states, run_states(fa.SLUG, states)):
        result = api.run(fa.SLUG, state)["result"]
        assert out["figures"] == 1
        for label, key in (("Dicht", "dense"), ("Online", "online"), ("m", "m"), ("l", "l"), ("u", "u"),
                           ("Mittel der Blockergebnisse", "naive")):
            assert number(out["stdout"], label) == pytest.approx(result[key], abs=1e-6)


# -- own keys: 2–8 scores and values, any block size --------------------------------------------------

def softmax_mean(scores, values):
    """Attention written out once more: weights e^s over their sum (no shift, the scores here are small)."""
    weights = [math.exp(x) for x in scores]
    return sum(w * v for w, v in zip(weights, values)) / sum(weights)


def test_own_keys_give_dense_attention_for_every_block_size_and_blockwise_means_per_block():
    scores, values = [0, 1, 2, 0.5, 3], [1, 0, 2, 1, 0]
    dense = softmax_mean(scores, values)
    for block in range(1, 9):
        out = api.run(fa.SLUG, {"scores": "0; 1; 2; 0,5; 3", "values": "1; 0; 2; 1; 0", "block": block})
        r = out["result"]
        assert out["notes"] == [] and r["online"] == pytest.approx(dense, rel=1e-12)
        blocks = [list(range(a, min(a + block, 5))) for a in range(0, 5, block)]
        assert r["n_blocks"] == len(blocks)
        naive = sum(softmax_mean([scores[j] for j in b], [values[j] for j in b]) for b in blocks) / len(blocks)
        assert r["naive"] == pytest.approx(naive, rel=1e-12)
    assert out["summary"].startswith("Eigene fünf Keys. Ein Block mit allen fünf Keys")


def test_a_shorter_own_list_is_filled_with_zeros_and_said():
    r = api.run(fa.SLUG, {"values": "5; 6; 7"})
    assert r["result"]["scores"] == [0.0, 0.0, fa.LN3] and r["result"]["values"] == [5.0, 6.0, 7.0]
    filled = api.run(fa.SLUG, {"scores": "1; 2; 3; 4; 5"})
    assert filled["result"]["values"] == [0.0, 0.0, 1.0, 1.0, 0.0]
    assert filled["summary"].endswith("1 fehlende Eintrag wurde mit 0 aufgefüllt.")


def test_own_scores_are_clamped_and_a_ninth_key_is_cut_with_one_note():
    out = api.run(fa.SLUG, {"scores": "30; 1; 1; 1; 1; 1; 1; 1; 1"})
    assert out["result"]["scores"] == [20.0] + [1.0] * 7
    assert out["notes"] == ["„Eigene Scores“: 30 liegt außerhalb von −20 bis 20 und wurde begrenzt; "
                            "es gehen höchstens 8 Werte, der letzte wurde weggelassen."]
    assert math.isfinite(out["result"]["online"])


@settings(max_examples=60)
@given(st.lists(st.floats(-50, 50), max_size=10), st.lists(st.floats(-200, 200), max_size=10), st.integers(-2, 12))
def test_any_own_lists_give_the_dense_result_and_a_valid_figure(scores, values, block):
    out = api.run(fa.SLUG, {"scores": scores, "values": values, "block": block})
    r = out["result"]
    assert (len(r["scores"]) == len(r["values"]) and 2 <= len(r["scores"]) <= 8) or not (scores or values)
    assert math.isclose(r["rows"][-1]["result"], r["dense"], rel_tol=1e-9, abs_tol=1e-9)
    ET.fromstring(out["figure"])


def test_lesson_equal_mass_is_solved_with_the_scores_the_page_shows():
    # the page writes ln 3 ≈ 1,0986; typed into the first block's fields, the two blocks weigh the same
    # up to a step of the fields, and the plain mean is right at the digits shown
    shown = api.run("flash-attention", {"block": 2, "s1": "1,0986", "s2": "1,0986"})
    assert shown["params"]["s1"] == 1.0986 and abs(shown["result"]["naive_error"]) < 1e-5
    assert "equal_mass" in shown["lesson"]["solved"]
    assert "equal_mass" in api.run("flash-attention", {"s3": 0.0, "s4": 0.0})["lesson"]["solved"]
    for off in ({"s1": 1.0, "s2": 1.0}, {"s3": 0.1, "s4": 0.0}, {}):
        assert "equal_mass" not in api.run("flash-attention", off)["lesson"]["solved"], off


def test_the_page_shows_the_plain_mean_depend_on_the_split_with_two_different_values():
    # blocks of 1 and 2 both give 0,5: the page's proof that the mean depends on the split needs two that differ
    page = (Path(__file__).resolve().parents[2] / "pages" / "flash-attention.md").read_text(encoding="utf-8")
    blocks = [int(b) for b in re.findall(r'value\("flash-attention", "naive", 1, block=(\d)\)', page)]
    assert len(blocks) == 2
    assert len({round(fa.compute(block=b)["naive"], 1) for b in blocks}) == 2


def test_the_key_sentence_says_why_the_plain_average_is_right_or_wrong():
    """Under the blocks: the plain average is wrong when the blocks weigh differently (0,5 against 0,75,
    weights 0,25 and 0,75), right when they weigh the same; one block has nothing to average;
    a rise of the running maximum names the factor of the old state."""
    default = api.run("flash-attention")["summary"]
    assert "u/l = 0,75, genau die dichte Attention" in default
    assert "Blockergebnisse 0; 1 ergibt 0,5 – falsch" in default and "(0,25; 0,75)" in default
    assert "Block 2 hebt das Maximum von 0 auf ln 3" in default
    equal = api.run("flash-attention", api.preset_values("flash-attention", "Gleiche Scores"))["summary"]
    assert "ergibt 0,5 – hier richtig, weil alle Blöcke gleich schwer sind" in equal and "falsch" not in equal
    one = api.run("flash-attention", {"block": 4})["summary"]
    assert "Ein Block mit allen vier Keys" in one and "nichts zu mitteln" in one and "falsch" not in one
    first = api.run("flash-attention", api.preset_values("flash-attention", "Maximum zuerst"))["summary"]
    assert "Das Maximum kam zuerst" in first and "hebt" not in first
    half = api.run("flash-attention", {"block": 2, "step": 1})["summary"]
    assert "nach Block 1 von 2: Zwischenstand u/l = 0, am Ende exakt 0,75" in half


def test_the_prose_marks_its_rounded_numbers():
    """l = 8/3 ≈ 2,6667 and 1/(1 + e⁻¹⁰) ≈ 0,99995 are rounded. The block sum 3 + 3 = 6 is exact; only its
    floats (e^(ln 3) = 3,0000000000000004) are not."""
    assert unmarked_roundings(fa.SLUG) == ['value("flash-attention", "block_sum.1", 0) = 6']
