"""Decode with the article's toy model: every figure of CONCEPTS.md §17 (seed 000) and the cache invariants."""

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import unmarked_roundings
from probierlabor.concepts import decode
from probierlabor.kit import api, fmt

E = math.exp(1 / math.sqrt(2))


def r4(xs):
    return [round(x, 4) for x in xs]


def test_prefill_of_a_b_gives_h_0330_0670_and_chooses_a():
    p = decode.run("AB", 0)[0]
    assert p["context"] == ["A", "B"] and p["counter"] == 2
    assert math.isclose(p["h"][0], 1 / (1 + E), rel_tol=1e-15) and math.isclose(p["h"][1], E / (1 + E), rel_tol=1e-15)
    assert [round(x, 3) for x in p["h"]] == [0.330, 0.670]
    assert [round(x, 6) for x in p["h"]] == [0.330238, 0.669762]
    assert r4(p["weights"]) == [0.3302, 0.6698]
    assert [round(x, 3) for x in p["logits"]] == [0.670, 0.330, -1]
    assert p["chosen"] == "A"


def test_after_prefill_the_cache_holds_only_the_two_prompt_positions():
    r = decode.compute(steps=0)
    assert r["counter"] == 2 and r["context"] == ["A", "B"] and r["chosen"] == "A"  # chosen, not yet processed


def test_step_1_processes_a_and_chooses_b():
    p = decode.run("AB", 1)[1]
    assert p["context"] == ["A", "B", "A"] and p["counter"] == 3 and p["processed"] == ["A"]
    assert r4(p["weights"]) == [0.4011, 0.1978, 0.4011]
    assert r4(p["h"]) == [0.8022, 0.1978]
    assert [round(x, 3) for x in p["logits"]] == [0.198, 0.802, -1]
    assert p["chosen"] == "B"


def test_steps_2_and_3():
    p2, p3 = decode.run("AB", 3)[2:]
    assert p2["counter"] == 4 and r4(p2["h"]) == [0.3302, 0.6698] and p2["chosen"] == "A"
    assert p3["counter"] == 5 and r4(p3["h"]) == [0.7526, 0.2474] and p3["chosen"] == "B"


def test_the_continuation_alternates_and_does_not_repeat_one_token():
    generated = decode.compute(steps=12)["generated"]
    assert generated == ["A", "B"] * 6 + ["A"]  # D2: the pattern A B repeats
    assert len(set(generated)) == 2


def test_cache_counts_one_new_kv_per_step_full_recompute_counts_n():
    passes = decode.run("AB", 5)
    assert [p["new_cache"] for p in passes] == [2, 1, 1, 1, 1, 1]
    assert [p["new_full"] for p in passes] == [2, 3, 4, 5, 6, 7]
    r = decode.compute(steps=12)
    assert r["kv_cache_total"] == 2 + 12 and r["kv_full_total"] == sum(range(2, 15)) == 104


def test_cached_and_recomputed_h_agree():
    assert all(p["diff"] <= 1e-15 for p in decode.run("AB", 12))


def test_the_counter_excludes_the_chosen_token():
    for p in decode.run("AB", 6):
        assert p["counter"] == len(p["context"])
        assert p["chosen"] not in p["context"][p["counter"]:]  # nothing beyond the counted positions


@given(st.sampled_from([v for v, _ in decode.PROMPTS]), st.integers(0, decode.MAX_STEPS))
def test_invariants_for_every_prompt_and_step(prompt, steps):
    r = decode.compute(steps=steps, prompt=prompt)
    passes = r["passes"]
    for n, p in enumerate(passes):
        assert math.isclose(sum(p["weights"]), 1, rel_tol=1e-12)
        assert p["counter"] == len(prompt) + n
        assert p["logits"][p["logits"].index(max(p["logits"]))] == max(p["logits"])
        assert decode.NAMES.index(p["chosen"]) == p["logits"].index(max(p["logits"]))
        if n:  # the token chosen in the previous pass is the one processed now
            assert p["processed"] == [passes[n - 1]["chosen"]]
    assert r["kv_full_total"] == sum(len(prompt) + n for n in range(steps + 1))
    assert r["max_diff"] <= 1e-12


@settings(max_examples=60, deadline=None)
@given(st.fixed_dictionaries({"steps": st.one_of(st.integers(-5, 50), st.text(max_size=3)),
                              "prompt": st.one_of(st.sampled_from(["AB", "C", "XYZ", ""]), st.text(max_size=3))}))
def test_run_never_fails_and_draws_valid_svg(raw):
    out = api.run("decode", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert all(math.isfinite(x) for x in out["result"]["h"])


def test_readouts_are_german():
    shown = {x["key"]: x["value"] for x in api.run("decode")["readouts"]}
    assert shown["h"] == "(0,330; 0,670)" and shown["chosen"] == "A" and shown["counter"] == "2 Positionen"
    assert shown["same"] == "ja"


@pytest.mark.parametrize("preset", [p.label for p in decode.PRESETS])
def test_presets_compute(preset):
    assert api.run("decode", api.preset_values("decode", preset))["notes"] == []


def test_lesson_five_times_is_not_reached_after_seven_passes():
    # after seven passes recomputing costs 44 K/V against 9: less than five times
    near = api.run("decode", {"steps": 7})
    assert (near["result"]["kv_full_total"], near["result"]["kv_cache_total"]) == (44, 9)
    assert "five_times" not in near["lesson"]["solved"]
    assert "five_times" in api.run("decode", {"steps": 8})["lesson"]["solved"]


def test_workshop_script_recomputes_the_passes():
    """The numpy script (workshop/decode.py) at the default and two presets: same h, same tokens, same counts."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(decode.SLUG, "Drei Durchläufe"), api.preset_values(decode.SLUG, "Prompt C")]
    for state, out in zip(states, run_states(decode.SLUG, states)):
        result = api.run(decode.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert f"Gewählt: {' '.join(result['generated'])}\n" in text
        h = [float(v.replace(",", ".")) for v in text.split("h: (", 1)[1].split(")", 1)[0].split("; ")]
        assert h == pytest.approx(result["h"], abs=1e-6)
        assert number(text, "Positionen im Cache") == result["counter"]
        assert number(text, "K/V-Berechnungen mit Cache") == result["kv_cache_total"]
        assert number(text, "K/V-Berechnungen ohne Cache") == result["kv_full_total"]


def test_the_key_sentence_reads_the_lag_and_the_saving():
    """Under the pass: the chosen token is not yet cached, and the cache saves nothing in the prefill but
    the difference to full recomputation after it (2 after one pass, 90 after twelve)."""
    prefill = api.run(decode.SLUG)["summary"]
    assert "Das Prefill verarbeitet A B: K/V-Zähler 2, h = (0,330; 0,670), gewählt A" in prefill
    assert "A kommt erst im nächsten Durchlauf in den Cache" in prefill and "gleich viele" in prefill
    assert "spart" not in prefill
    one = api.run(decode.SLUG, {"steps": 1})["summary"]
    assert "Durchlauf 1 verarbeitet A B A: K/V-Zähler 3" in one and "gewählt B" in one
    assert "Mit Cache bisher 3 K/V-Berechnungen, bei voller Neuberechnung 5: Der Cache spart 2" in one
    twelve = api.run(decode.SLUG, api.preset_values(decode.SLUG, "Zwölf Durchläufe"))["summary"]
    assert "bisher 14 K/V-Berechnungen, bei voller Neuberechnung 104: Der Cache spart 90" in twelve


def test_the_prose_marks_its_rounded_weights():
    """The weights e^(1/√2) / (1 + e^(1/√2)) ≈ 0,670 and the h, logits from them are irrational: „≈“ before each."""
    assert unmarked_roundings(decode.SLUG) == []


def test_the_prediction_quotes_the_logits_of_the_next_pass():
    why_not = decode.LESSON.prediction.why_not[0]
    logits = decode.compute(steps=1)["logits"]
    assert logits[1] > logits[0] > logits[2]  # B ahead of A, as the sentence says
    assert f"≈ {fmt.de(logits[1], 3)} gegen ≈ {fmt.de(logits[0], 3)} für A" in why_not
