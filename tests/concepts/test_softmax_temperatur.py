"""Softmax and temperature: the softmax against its definition, the limits T → 0 (exact, ties share) and
T → ∞, shift invariance, order, entropy in bits, the reader's own logits and the workshop script.

A softmax is irrational: floats with a stated tolerance (1e-12 against a direct evaluation)."""

import json
import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import solved_by_the_page, unmarked_roundings
from probierlabor.concepts import softmax_temperatur as sm
from probierlabor.kit import api, lesson

TOL = 1e-12
logit_lists = st.lists(st.floats(-20, 20, allow_nan=False), min_size=2, max_size=6)
temps = st.floats(sm.T_MIN, sm.T_MAX)


def direct(z, T):
    """The definition written out, without subtracting the largest logit."""
    e = [math.exp(v / T) for v in z]
    return [x / sum(e) for x in e]


def test_example_at_t_1_is_the_definition():
    r = sm.compute()
    assert r["logits"] == [2.0, 1.0, 0.5, -1.0]
    for got, want in zip(r["probs"], direct([2, 1, 0.5, -1], 1.0)):
        assert got == pytest.approx(want, abs=TOL)
    # the numbers the page prints, rounded to two places
    assert [round(p, 2) for p in r["probs"]] == [0.61, 0.22, 0.14, 0.03]
    assert r["probs"] == r["model_probs"]


@settings(max_examples=80, deadline=None)
@given(logit_lists, temps)
def test_softmax_sums_to_one_matches_the_definition_and_keeps_the_order(z, T):
    p = sm.softmax(z, T)
    assert sum(p) == pytest.approx(1, abs=1e-12)
    assert all(0 <= x <= 1 for x in p)
    if max(z) / T < 700 and min(z) / T > -700:  # where the definition itself does not overflow
        for got, want in zip(p, direct(z, T)):
            assert got == pytest.approx(want, abs=1e-9)
    for i in range(len(z)):
        for j in range(len(z)):
            if z[i] > z[j]:
                assert p[i] >= p[j]


@settings(max_examples=60, deadline=None)
@given(logit_lists, temps, st.floats(-50, 50))
def test_adding_the_same_number_to_every_logit_changes_nothing(z, T, c):
    for a, b in zip(sm.softmax(z, T), sm.softmax([v + c for v in z], T)):
        assert a == pytest.approx(b, abs=1e-9)


def test_the_row_shifted_by_ten_gives_the_example():
    a, b = sm.compute(row="beispiel"), sm.compute(row="verschoben")
    assert [y - x for x, y in zip(a["logits"], b["logits"])] == [10] * 4
    assert b["probs"] == pytest.approx(a["probs"], abs=TOL)


def test_temperature_divides_the_logits():
    z = [2.0, 1.0, 0.5, -1.0]
    assert sm.softmax(z, 0.5) == pytest.approx(sm.softmax([2 * v for v in z], 1.0), abs=TOL)
    assert sm.softmax(z, 2.0) == pytest.approx(sm.softmax([v / 2 for v in z], 1.0), abs=TOL)
    assert sm.compute(T=0.5)["scaled"] == [4.0, 2.0, 1.0, -2.0]


def test_t_0_is_greedy_exactly_and_ties_share():
    assert sm.argmax_limit([2, 1, 0.5, -1]) == [1, 0, 0, 0]
    assert sm.argmax_limit([2, 2, 0, -1]) == [Fraction(1, 2), Fraction(1, 2), 0, 0]
    assert sm.argmax_limit([1, 1, 1]) == [Fraction(1, 3)] * 3
    r = sm.compute(row="gleichstand", greedy=True)
    assert r["probs_exact"] == ["1/2", "1/2", "0", "0"] and r["top_tokens"] == ["A", "B"]
    assert r["entropy"] == 1 and r["perplexity"] == 2 and r["T"] == 0


def test_small_t_approaches_greedy_and_large_t_uniform():
    cold = sm.compute(T=sm.T_MIN)["probs"]
    assert cold[0] == 1.0 and 0 < max(cold[1:]) < 1e-40  # logits 1 apart at T = 0,01: e^−100
    hot = sm.compute(T=1e6)["probs"]  # beyond the slider: the limit
    assert hot == pytest.approx([0.25] * 4, abs=1e-5)
    r = sm.compute(T=sm.T_MAX)
    assert r["entropy"] < r["max_entropy"] == 2


def test_entropy_in_bits_and_equally_good_tokens():
    assert sm.entropy_bits([0.5, 0.5]) == 1
    assert sm.entropy_bits([0.25] * 4) == 2
    assert sm.entropy_bits([1, 0, 0]) == 0
    r = sm.compute()
    want = -sum(p * math.log2(p) for p in r["probs"])
    assert r["entropy"] == pytest.approx(want, abs=TOL)
    assert r["perplexity"] == pytest.approx(2 ** want, rel=TOL)
    assert round(r["entropy"], 2) == 1.46 and round(r["perplexity"], 2) == 2.76


def test_entropy_grows_with_t():
    hs = [sm.compute(T=t)["entropy"] for t in (0.1, 0.5, 1, 2, 5, 20)]
    assert hs == sorted(hs) and len(set(hs)) == len(hs)


def test_own_logits_with_a_typographic_minus():
    out = api.run(sm.SLUG, {"logits": "2; 1; 0,5; −1"})
    assert not out["notes"]
    assert out["result"]["logits"] == [2.0, 1.0, 0.5, -1.0] and out["result"]["row"] == "eigen"
    assert out["summary"].startswith("Eigene Logits:")


def test_own_logits_are_clamped_and_counted_with_a_german_note():
    out = api.run(sm.SLUG, {"logits": "50; 1; x; 1; 1; 1; 1; 1"})
    r, note = out["result"], " ".join(out["notes"])
    assert r["logits"][0] == 20 and len(r["logits"]) == 6
    assert "begrenzt" in note and "keine Zahl" in note and "höchstens 6" in note
    out = api.run(sm.SLUG, {"T": "0"})
    assert out["result"]["T"] == sm.T_MIN and "außerhalb" in out["notes"][0]


def test_the_key_sentence_follows_the_state():
    texts = {api.run(sm.SLUG, api.preset_values(sm.SLUG, p.label))["summary"] for p in sm.PRESETS}
    assert len(texts) == len(sm.PRESETS) - 1  # „Alle Logits + 10“ reads like the example: that is the point
    assert "Greedy" in api.run(sm.SLUG, {"greedy": 1})["summary"]
    assert "je 1/2" in api.run(sm.SLUG, {"greedy": 1, "row": "gleichstand"})["summary"]
    assert "steiler" in api.run(sm.SLUG, {"T": 0.5})["summary"]
    assert "flacher" in api.run(sm.SLUG, {"T": 2})["summary"]
    assert "fast gleich verteilt" in api.run(sm.SLUG, {"T": 20, "logits": "0,1; 0"})["summary"]


@pytest.mark.parametrize("raw", [{"logits": "1; 1; 1; 1"}, {"logits": "0; 0", "T": 5}, {"logits": "−3; −3; −3", "T": 0.01},
                                 {"logits": "2; 2; 2", "greedy": 1}])
def test_equal_logits_are_exactly_uniform_at_every_t_and_the_page_says_so(raw):
    out = api.run(sm.SLUG, raw)
    r, text = out["result"], out["summary"]
    n = r["n"]
    assert r["probs_exact"] == [f"1/{n}"] * n and r["entropy"] == math.log2(n)
    assert f"genau 1/{n}" in text and "fast" not in text and "die anderen 0" not in text
    readout = out["readouts"][0]
    assert readout["label"] == "Wahrscheinlichkeiten (exakt)"
    assert "≈" not in readout["value"].replace(f"1/{n} ≈", "")  # 1/3 ≈ 0,33 names the exact value first


def test_no_preset_no_number_in_the_text_and_not_the_default_solves_a_task():
    assert solved_by_the_page(sm.SLUG) == {}


def test_rounded_numbers_in_the_text_carry_the_approx_sign_and_exact_ones_do_not():
    assert unmarked_roundings(sm.SLUG) == []


def test_a_task_on_a_band_takes_every_state_in_it_as_the_readout_shows_it():
    def solved(key, **raw):
        return key in api.run(sm.SLUG, raw)["lesson"]["solved"]

    stops = [float(f"{10 ** (k / 100):.3g}") for k in range(-100, 201)]  # the slider's temperatures
    ticked = {"sure": 0, "unsure": 0}
    for T in stops:  # the checks read the result only: no figure to draw for each stop
        r = sm.compute(T=T)
        done = lesson.status(sm.LESSON, {"T": T}, r)["solved"]
        assert ("sure" in done) == (0.9 <= round(r["probs"][0], 2) <= 0.95), T
        assert ("unsure" in done) == (3.7 <= round(r["perplexity"], 2) <= 3.9), T
        ticked.update({key: ticked[key] + 1 for key in done if key in ticked})
    assert min(ticked.values()) >= 5, ticked
    assert solved("sure", T=0.363) and solved("unsure", T=3.16)  # and through the page's own run
    for logits in ("2; 2; 2; −1", "0; 0; 0", "5; 5; 1; 5; −2; 0"):
        assert solved("tie", logits=logits, greedy=1), logits
    assert not solved("tie", logits="2; 2; 2; 2", greedy=1) and not solved("tie", row="gleichstand", greedy=1)


def test_the_page_names_entropy_h_of_p_and_bridges_to_cross_entropy():
    from pathlib import Path

    page = " ".join((Path(__file__).resolve().parents[2] / "pages" / f"{sm.SLUG}.md").read_text(encoding="utf-8").split())
    assert r"H(p) \;=\; -\sum_i p_i \log_2 p_i" in page and r"\(H(p, q)\)" in page
    assert r"H \;=\;" not in page and r"\(2^H\)" not in page
    assert "meist unendlich viele Nachkommastellen" in page and "genau \\(1/n\\)" in page
    assert "„Ein Logit von 12 heißt eine große Wahrscheinlichkeit.“" in sm.LESSON.misconceptions[1]


def test_the_logit_bars_are_handles_that_set_their_entry():
    fig = api.run(sm.SLUG, {})["figure"]
    root = ET.fromstring(fig)
    handles = [el for el in root.iter() if el.get("data-drag") is not None]
    assert len(handles) == 4
    assert all(h.get("data-drag-field") == "logits" and h.get("data-drag-set") == "" for h in handles)
    assert [float(h.get("aria-valuenow")) for h in handles] == [2.0, 1.0, 0.5, -1.0]


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), logit_lists.map(lambda z: "_".join(map(repr, z))), st.text(max_size=30)),
       st.one_of(temps, st.floats(), st.text(max_size=5)), st.booleans(),
       st.sampled_from([*list(sm.ROWS), "x"]))
def test_any_input_runs_and_draws_valid_svg(logits, T, greedy, row):
    raw = {"T": T, "greedy": greedy, "row": row, **({"logits": logits} if logits is not None else {})}
    out = api.run(sm.SLUG, raw)
    json.dumps(out, allow_nan=False)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    assert sum(r["probs"]) == pytest.approx(1, abs=1e-12) and math.isfinite(r["entropy"])
    assert 0 <= r["entropy"] <= r["max_entropy"] + 1e-12 and r["order_kept"]


def test_workshop_script_recomputes_the_softmax():
    from workshop_check import number, run_states

    states = [{}, api.preset_values(sm.SLUG, "Gleichstand bei T = 0"), {"T": 0.3, "logits": "3; −2; 0,5; 1; 7"}]
    for state, out in zip(states, run_states(sm.SLUG, states)):
        r = api.run(sm.SLUG, state)["result"]
        assert out["figures"] == 1
        for token, p in zip(r["tokens"], r["probs"]):
            assert number(out["stdout"], f"p {token}") == pytest.approx(p, abs=5e-6)
        assert number(out["stdout"], "Entropie") == pytest.approx(r["entropy"], abs=5e-6)
        assert number(out["stdout"], "Gleich gute Tokens") == pytest.approx(r["perplexity"], abs=5e-6)


@pytest.mark.parametrize("raw, bits, good", [
    ({}, "≈ 1,46 Bit (höchstens 2)", "≈ 2,76"),
    ({"T": 100.0}, "≈ 2,00 Bit (höchstens 2)", "≈ 4"),  # 3,99996…: rounded, not exact
    ({"T": 0.01}, "≈ 0,00 Bit (höchstens 2)", "≈ 1"),
    ({"logits": "0; 0"}, "1 Bit (höchstens 1)", "2"),
    ({"logits": "1; 1; 1"}, "≈ 1,58 Bit (höchstens ≈ 1,58)", "3"),  # log₂ 3 is irrational, 3 tokens exact
    ({"row": "fuenf"}, "≈ 1,45 Bit (höchstens ≈ 2,32)", "≈ 2,74"),
])
def test_entropy_and_equally_good_tokens_carry_the_approx_sign_exactly_where_rounded(raw, bits, good):
    out = api.run(sm.SLUG, raw)
    readouts = {r["key"]: r["value"] for r in out["readouts"]}
    assert readouts["entropy"] == bits and readouts["perplexity"] == f"{good} gleich guten Tokens"
    assert f"Entropie {bits.split(' (')[0]}: so unsicher wie zwischen {good} gleich" in out["summary"]


def test_no_hint_types_the_solution_for_the_reader():
    """A hint helps; the last one does not hand over the numbers that solve the task."""
    for task in sm.LESSON.tasks:
        for hint in task.hints:
            for quoted in re.findall(r"„([^“]*\d[^“]*)“", hint):
                for greedy in (False, True):
                    solved = api.run(sm.SLUG, {"logits": quoted, "greedy": greedy})["lesson"]["solved"]
                    assert task.key not in solved, (task.key, hint)


def test_one_certain_token_is_no_choice_between_equally_good_ones():
    """At T = 0 with one largest logit 2^H is exactly 1: „zwischen 1 gleich guten Tokens“ says nothing."""
    out = api.run(sm.SLUG, {"greedy": True})
    readouts = {r["key"]: r["value"] for r in out["readouts"]}
    assert readouts["entropy"] == "0 Bit (höchstens 2)" and readouts["perplexity"] == "1 Token: gar nicht unsicher"
    assert "Entropie 0 Bit: gar nicht unsicher, ein Token bekommt alles." in out["summary"]
    assert "1 gleich guten" not in out["summary"]


def test_a_logit_one_larger_makes_its_token_e_times_as_likely_as_the_other():
    import math
    from pathlib import Path

    page = " ".join((Path(__file__).resolve().parents[2] / "pages/softmax-temperatur.md").read_text(encoding="utf-8").split())
    assert "ist sein Token genau \\(e\\)-mal (≈ 2,7-mal) so wahrscheinlich wie das andere" in page
    p = api.run(sm.SLUG, {"logits": "1; 0"})["result"]["probs"]
    assert p[0] / p[1] == pytest.approx(math.e, rel=1e-12)
