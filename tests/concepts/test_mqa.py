"""MQA: the figures of CONCEPTS.md §24 (scores q·k/√2, softmax) and the cache count, plus invariants."""

import json
import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import unmarked_roundings
from probierlabor.concepts import mqa
from probierlabor.kit import api


def test_head_1_scores_are_root_2_and_0():
    h = mqa.attend((2.0, 0.0))
    assert h["scores"][0] == pytest.approx(math.sqrt(2), abs=1e-12) and h["scores"][1] == 0


def test_head_1_weights_are_0_804_and_0_196():
    w = mqa.attend((2.0, 0.0))["weights"]
    exact = math.exp(math.sqrt(2)) / (1 + math.exp(math.sqrt(2)))
    assert w[0] == pytest.approx(exact, abs=1e-12) and round(w[0], 6) == 0.804430
    assert round(w[1], 6) == 0.195570
    assert (round(w[0], 3), round(w[1], 3)) == (0.804, 0.196)


def test_head_2_reverses_the_weights():
    w1 = mqa.attend((2.0, 0.0))["weights"]
    w2 = mqa.attend((0.0, 2.0))["weights"]
    assert w2[0] == pytest.approx(w1[1], abs=1e-15) and w2[1] == pytest.approx(w1[0], abs=1e-15)


def test_outputs_have_the_weights_as_coordinates_and_differ():
    r = mqa.compute()
    h1, h2 = r["heads_out"]
    assert h1["query"] == [2.0, 0.0] and h2["query"] == [0.0, 2.0]
    assert h1["output"] == pytest.approx(h1["weights"]) and h2["output"] == pytest.approx(h2["weights"])
    assert [round(x, 3) for x in h1["output"]] == [0.804, 0.196]
    assert [round(x, 3) for x in h2["output"]] == [0.196, 0.804]
    assert not r["same_output"]


def test_the_cache_holds_8_kv_sets_for_mha_and_1_for_mqa():
    c = mqa.compute()["cache"]
    assert (c["mha_sets"], c["mqa_sets"], c["factor"]) == (8, 1, 8)
    assert (c["mha_mib"], c["mqa_mib"]) == (128, 16)  # the standard example, as on the GQA page


def test_the_scaling_convention_matters():
    # without the division by √2 the weights would be e²/(1 + e²) ≈ 0.881, not the article's 0.804
    assert round(mqa.attend((2.0, 0.0), dim=1)["weights"][0], 3) == 0.881


@given(st.integers(0, 23).map(lambda k: 15 * k), st.integers(0, 23).map(lambda k: 15 * k),
       st.integers(0, 12).map(lambda k: k / 4))
def test_invariants(a1, a2, length):
    r = mqa.compute(angle1=a1, angle2=a2, length=length)
    for h in r["heads_out"]:
        assert sum(h["weights"]) == pytest.approx(1)
        x, y = h["output"]
        assert x + y == pytest.approx(1) and 0 <= x <= 1  # on the segment between v₁ and v₂
        assert math.hypot(*h["query"]) == pytest.approx(length)
    # the weights depend only on q·k₁ − q·k₂ = length·√2·cos(angle + 45°): equal outputs exactly when that agrees
    c1, c2 = (math.cos(math.radians(a + 45)) for a in (a1, a2))
    assert r["same_output"] == (length == 0 or abs(c1 - c2) < 1e-9)
    if a1 == a2:
        assert r["same_output"]


@given(st.integers(0, 6).map(lambda k: 15 * k))
def test_mirrored_queries_swap_the_weights(angle):
    a = mqa.attend(mqa.query(angle, 2.0))["weights"]
    b = mqa.attend(mqa.query(90 - angle, 2.0))["weights"]
    assert a[0] == pytest.approx(b[1]) and a[1] == pytest.approx(b[0])


def test_length_zero_gives_half_and_half():
    assert mqa.compute(length=0)["heads_out"][0]["weights"] == [0.5, 0.5]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 345), st.integers(0, 345), st.floats(0, 3), st.sampled_from(["both", "1", "2"]),
       st.integers(1, 64))
def test_any_setting_gives_a_valid_figure(a1, a2, length, show, heads):
    out = api.run("mqa", {"angle1": a1, "angle2": a2, "length": length, "show": show, "heads": heads})
    assert out["notes"] == []
    json.dumps(out)
    ET.fromstring(out["figure"])
    ET.fromstring(f"<div>{out['extra']}</div>")
    assert out["result"]["cache"]["mha_sets"] == heads


def test_readouts_are_german():
    values = {r.key: r.value for r in mqa.view(mqa.compute()).readouts}
    assert values["weights1"] == "(0,804; 0,196)" and values["weights2"] == "(0,196; 0,804)"
    assert values["sets"] == "8 → 1" and values["factor"] == "8-mal kleiner"


def test_q2_one_step_short_of_the_mirror_direction_gives_another_result():
    """Near miss of the first task: 255° is close to the 270° that copies head 1's weights, but differs."""
    out = api.run("mqa", {"angle2": 255})
    assert not out["result"]["same_output"]
    assert "same_other" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_both_heads_and_the_cache():
    """The numpy script (workshop/mqa.py) at the default, two presets and other settings: same weights,
    same outputs, same cache sizes."""
    import re

    from workshop_check import number, run_states

    states = [{}, api.preset_values(mqa.SLUG, "Gleiche Frage"), api.preset_values(mqa.SLUG, "Dazwischen"),
              {"angle1": 300, "angle2": 165, "length": 1.25, "heads": 32}]
    for state, out in zip(states, run_states(mqa.SLUG, states)):
        r = api.run(mqa.SLUG, state)["result"]
        assert out["figures"] == 1
        for i, head in enumerate(r["heads_out"], start=1):
            for label, key in (("Gewichte", "weights"), ("Ergebnis", "output")):
                pair = re.search(rf"^Kopf {i}, {label}: (\S+); (\S+)$", out["stdout"], re.M).groups()
                assert [float(v.replace(",", ".")) for v in pair] == pytest.approx(head[key], abs=5e-5)
        assert number(out["stdout"], "Cache MHA") == pytest.approx(r["cache"]["mha_mib"])
        assert number(out["stdout"], "Cache MQA") == pytest.approx(r["cache"]["mqa_mib"])


def test_the_key_sentence_names_why_the_heads_agree_or_differ():
    """Under the figure: different weights from one memory by default; equal results said with their real
    reason – the same query, length 0, or different queries whose scores differ alike (not blamed on equal
    queries)."""
    default = api.run("mqa")["summary"]
    assert "Kopf 1 mit (0,804; 0,196), Kopf 2 mit (0,196; 0,804)" in default and "zwei Ergebnisse" in default
    assert "8 Query-Köpfe 8 K/V-Köpfe, MQA nur einen" in default and "dasselbe" not in default
    same = api.run("mqa", api.preset_values("mqa", "Gleiche Frage"))["summary"]
    assert "Beide Queries sind gleich" in same and "dasselbe Ergebnis (0,804; 0,196)" in same
    mirrored = api.run("mqa", {"angle1": 0, "angle2": 270})["summary"]
    assert "verschiedene Richtungen, trotzdem" in mirrored and "Beide Queries sind gleich" not in mirrored
    assert "Länge 0" in api.run("mqa", {"length": 0})["summary"]
    assert "MHA und MQA gleich viel" in api.run("mqa", {"heads": 1})["summary"]


def test_the_prose_marks_its_rounded_scores_and_weights():
    """2/√2 ≈ 1,414 and its softmax ≈ 0,804 are irrational: „≈“ before each, also in the table."""
    assert unmarked_roundings(mqa.SLUG) == []
