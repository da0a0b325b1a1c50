"""Prefill: every figure of CONCEPTS.md §19, exact, and the causal mask under any chunking."""

import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import prefill
from probierlabor.kit import api


def test_causal_means_of_the_article():
    assert prefill.causal_means([2, 4, 8, 10]) == [2, 3, Fraction(14, 3), 6]
    assert [Fraction(x) for x in (2, Fraction(6, 2), Fraction(14, 3), Fraction(24, 4))] == [2, 3, Fraction(14, 3), 6]


def test_all_four_at_once():
    r = prefill.compute(chunk=4)
    assert r["n_chunks"] == 1 and r["equal"]
    assert r["outputs_exact"] == ["2", "3", "14/3", "6"]
    assert round(r["outputs"][2], 4) == 4.6667


def test_chunks_of_two_give_the_same_result_and_position_3_sees_1_and_2():
    runs = prefill.prefill([2, 4, 8, 10], 2)
    assert [run["positions"] for run in runs] == [[0, 1], [2, 3]]
    assert runs[0]["outputs"] == {0: 2, 1: 3}
    assert runs[1]["cached"] == [0, 1]  # chunk 2 reads the cached K/V of positions 1–2
    assert runs[1]["reads"][2] == [0, 1, 2]
    assert runs[1]["outputs"] == {2: Fraction(14, 3), 3: 6}
    r = prefill.compute(chunk=2)
    assert r["equal"] and r["out_num"] == [2, 3, 14, 6] and r["out_den"] == [1, 1, 3, 1]


def test_after_the_first_chunk_two_positions_are_cached():
    r = prefill.compute(chunk=2, step=1)
    assert r["outputs_exact"] == ["2", "3", None, None]
    assert r["cached_after"] == 2 and not r["finished"] and not r["equal"]


def test_forgetting_the_cache_is_wrong():
    r = prefill.compute(chunk=2, cache=False)
    assert r["outputs_exact"] == ["2", "3", "8", "9"]
    assert r["reads"][2] == [2] and r["wrong"] == [2, 3] and not r["equal"]
    assert r["cached_after"] == 2


def test_no_position_ever_reads_a_later_one():
    for size in range(1, 5):
        for run in prefill.prefill([2, 4, 8, 10], size):
            for i, reads in run["reads"].items():
                assert max(reads) == i and reads == sorted(set(reads))


values = st.integers(min_value=-99, max_value=99)


@given(st.integers(1, 4), st.lists(values, min_size=4, max_size=4))
def test_with_the_cache_every_chunking_equals_all_at_once(size, vs):
    runs = prefill.prefill(vs, size)
    outputs = {i: o for run in runs for i, o in run["outputs"].items()}
    assert [outputs[i] for i in range(4)] == prefill.causal_means(vs)
    # each K/V is computed exactly once
    assert sorted(i for run in runs for i in run["new"]) == [0, 1, 2, 3]


@settings(max_examples=80, deadline=None)
@given(st.fixed_dictionaries({
    "chunk": st.one_of(st.integers(-5, 9), st.text(max_size=4)),
    "step": st.integers(-3, 9),
    "cache": st.sampled_from(["0", "1", "ja", "x"]),
    "v1": values, "v2": values, "v3": st.floats(allow_nan=True), "v4": st.integers(-500, 500),
    "values": st.one_of(st.text(max_size=12), st.lists(st.floats(-200, 200), max_size=10)),
    "scores": st.lists(st.floats(-50, 50), max_size=10),
}))
def test_run_never_fails_and_draws_valid_svg(raw):
    out = api.run("prefill", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    assert all(o is None or abs(o) <= 99 + 1e-9 for o in r["outputs"])
    assert 1 <= r["done"] <= r["n_chunks"] <= 8


def test_readouts_are_german():
    shown = {x["key"]: x["value"] for x in api.run("prefill")["readouts"]}
    assert shown["outputs"] == "2; 3; 14/3 ≈ 4,67; 6"
    assert shown["equal"] == "ja" and shown["reads3"] == "1, 2, 3"


@pytest.mark.parametrize("preset", [p.label for p in prefill.PRESETS])
def test_presets_compute(preset):
    out = api.run("prefill", api.preset_values("prefill", preset))
    assert out["notes"] == []


def test_lesson_one_pass_is_not_solved_by_chunks_of_three_without_cache():
    # chunks of three still leave position 4 alone in a second chunk: it averages only itself
    near = api.run("prefill", {"cache": False, "chunk": 3})
    assert near["result"]["wrong"] == [3]
    assert "one_pass" not in near["lesson"]["solved"]
    assert "one_pass" in api.run("prefill", {"cache": False, "chunk": 4})["lesson"]["solved"]


def test_workshop_script_recomputes_the_chunks():
    """The numpy script (workshop/prefill.py) at the default and two presets: same outputs, same cache."""
    import re

    from workshop_check import number, run_states

    states = [{}, api.preset_values(prefill.SLUG, "Nur Abschnitt 1"),
              api.preset_values(prefill.SLUG, "Ohne Cache (falsch)"), {"values": "2; 4; 8; 10; 6", "chunk": 3},
              {"values": "1; 2; 3", "scores": "0; 0; 1", "chunk": 2}, {"scores": "0; 1; 0; 1; 2; 0; 0; 1", "chunk": 3,
                                                                       "cache": False, "step": 2}]
    for state, out in zip(states, run_states(prefill.SLUG, states)):
        result = api.run(prefill.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert number(text, "Abschnitte") == result["done"]
        assert number(text, "K/V im Cache danach") == result["cached_after"]
        for i, value in enumerate(result["outputs"], start=1):
            if value is None:
                assert re.search(rf"^Position {i}: noch offen", text, re.M)
            else:
                assert number(text, f"Position {i}") == pytest.approx(value, abs=1e-6)
        verdict = "noch nicht fertig" if not result["finished"] else "ja" if result["equal"] else "nein"
        assert f"Gleiches Ergebnis wie alle auf einmal: {verdict}\n" in text


# -- own positions: 2–8 values and scores, any chunk size -----------------------------------------------

def weighted(values, scores, visible):
    """Softmax attention of one query over the visible keys, written out once more."""
    weights = [math.exp(scores[j]) for j in visible]
    return sum(w * values[j] for w, j in zip(weights, visible)) / sum(weights)


def test_own_values_with_equal_scores_stay_exact_means():
    out = api.run(prefill.SLUG, {"values": "2; 4; 8; 10; 6", "chunk": 3})
    r = out["result"]
    assert r["outputs_exact"] == ["2", "3", "14/3", "6", "6"] and r["equal"] and out["notes"] == []
    assert out["summary"].startswith("Eigene fünf Positionen. Prefill in 2 Abschnitten zu höchstens 3")
    assert "aufgefüllt" not in out["summary"]  # the scores have no fields: equal is no filling


def test_own_scores_weight_every_position_by_softmax_in_chunks_as_at_once():
    values, scores = [1, 2, 3, 0, 5], [0, 0, 1, -1, 2]
    for chunk in range(1, 9):
        r = api.run(prefill.SLUG, {"values": "1; 2; 3; 0; 5", "scores": "0; 0; 1; -1; 2", "chunk": chunk})["result"]
        expected = [weighted(values, scores, range(i + 1)) for i in range(5)]
        assert r["outputs"] == pytest.approx(expected, rel=1e-12) and r["equal"], chunk
    wrong = api.run(prefill.SLUG, {"values": "1; 2; 3; 0; 5", "scores": "0; 0; 1; -1; 2", "chunk": 2, "cache": False})
    r = wrong["result"]
    assert r["outputs"][2] == pytest.approx(3) and r["outputs"][3] == pytest.approx(weighted(values, scores, [2, 3]))
    assert r["wrong"] == [2, 3, 4] and "≈" in wrong["summary"]


def test_own_lists_are_cut_at_8_clamped_and_a_short_one_is_filled_with_zeros():
    out = api.run(prefill.SLUG, {"values": "1; 2; 3; 4; 5; 6; 7; 8; 9", "scores": "30; 0"})
    assert out["params"]["values"] == [1, 2, 3, 4, 5, 6, 7, 8] and out["params"]["scores"] == [20, 0]
    assert out["notes"] == ["„Eigene Values“: Es gehen höchstens 8 Werte, der letzte wurde weggelassen.",
                            "„Eigene Scores“: 30 liegt außerhalb von −20 bis 20 und wurde begrenzt."]
    assert out["result"]["scores"] == [20, 0, 0, 0, 0, 0, 0, 0]
    assert out["summary"].endswith("6 fehlende Einträge wurden mit 0 aufgefüllt.")
    ET.fromstring(out["figure"])


def test_the_lesson_keeps_to_four_positions():
    assert "early_result" in api.run(prefill.SLUG, {"chunk": 1, "step": 3})["lesson"]["solved"]
    assert "early_result" not in api.run(prefill.SLUG, {"chunk": 1, "step": 3, "values": "1; 2; 3"})["lesson"]["solved"]


def test_the_key_sentence_says_whether_the_split_changes_the_result():
    """Under the grid: with the cache the split gives the outputs of all at once and says why; half-way it
    names what is still missing; without the cache it names the first wrong position."""
    split = api.run(prefill.SLUG)["summary"]
    assert "Ausgaben 2; 3; 14/3 ≈ 4,67; 6, genau wie alle auf einmal" in split
    assert "aus dem Cache" in split and "Falsch" not in split
    half = api.run(prefill.SLUG, api.preset_values(prefill.SLUG, "Nur Abschnitt 1"))["summary"]
    assert "nach 1 von 2: Ausgaben 2; 3; –; –, im Cache 2 Positionen" in half and "falsch" not in half
    wrong = api.run(prefill.SLUG, api.preset_values(prefill.SLUG, "Ohne Cache (falsch)"))["summary"]
    assert "Ausgaben 2; 3; 8; 9 statt 2; 3; 14/3 ≈ 4,67; 6. Falsch ab Position 3" in wrong
    early = api.run(prefill.SLUG, {"chunk": 1, "step": 3, "cache": False})["summary"]
    assert "schon jetzt falsch ab Position 2" in early
