"""KV cache: the A → B → C → D illustration and the byte calculator of CONCEPTS.md §27 (D9: 192 bytes)."""

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import kv_cache as kv
from probierlabor.kit import api


def test_the_small_example_is_192_bytes():
    assert kv.kv_bytes(layers=1, positions=4, kv_heads=2, dim=3, bytes_per=4) == 2 * 1 * 4 * 2 * 3 * 4 == 192
    r = kv.compute()
    assert r["bytes"] == 192 and r["per_position"] == 48


def test_the_first_factor_2_is_k_and_v():
    # without it (K only) the cache would be half as large
    assert kv.kv_bytes() == 2 * (1 * 4 * 2 * 3 * 4)


def test_d_reads_three_stored_pairs_and_adds_its_own():
    r = kv.compute(step=4)
    assert r["current"] == "D" and r["cached_read"] == ["A", "B", "C"] and r["new"] == ["D"]
    assert r["pairs"] == 4 and r["keys_compared"] == 4


def test_after_a_b_c_three_pairs_are_stored():
    r = kv.compute(step=3)
    assert r["pairs"] == 3 and r["cached_read"] == ["A", "B"] and r["bytes_stepper"] == 144


def test_without_the_cache_the_prefix_is_recomputed_every_step():
    r = kv.compute(step=4)
    assert r["kv_computed_with_cache"] == 4 and r["kv_computed_without_cache"] == 1 + 2 + 3 + 4


@pytest.mark.parametrize("changes, expected", [
    ({"bytes_per": 2}, 96), ({"positions": 8}, 384), ({"layers": 32}, 6144), ({"batch": 3}, 576),
    ({"kv_heads": 1}, 96), ({"dim": 6}, 384),
])
def test_every_factor_scales_the_result(changes, expected):
    assert api.run("kv-cache", changes)["result"]["bytes"] == expected


def test_larger_model_preset_is_512_mib():
    r = api.run("kv-cache", api.preset_values("kv-cache", "Größeres Modell"))
    assert r["result"]["bytes"] == 2 * 32 * 4096 * 8 * 128 * 2 == 512 * 2 ** 20
    shown = {x["key"]: x["value"] for x in r["readouts"]}
    assert shown["bytes"] == "536\u202f870\u202f912\u202fByte (512\u202fMiB)"


ints = st.one_of(st.integers(-10, 10 ** 8), st.text(max_size=4), st.floats())


@settings(max_examples=80, deadline=None)
@given(st.fixed_dictionaries(dict.fromkeys(("step", "layers", "positions", "kv_heads", "dim", "bytes_per", "batch"), ints)))
def test_run_never_fails_and_draws_valid_svg(raw):
    out = api.run("kv-cache", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    p = out["params"]
    assert r["bytes"] == 2 * p["layers"] * p["positions"] * p["kv_heads"] * p["dim"] * p["bytes_per"] * p["batch"]
    assert r["pairs"] == len(r["cached_read"]) + 1


@given(st.integers(1, 6))
def test_each_step_adds_exactly_one_pair(step):
    a, b = kv.compute(step=step), kv.compute(step=min(step + 1, 6))
    assert b["pairs"] - a["pairs"] == (1 if step < 6 else 0)
    assert a["tokens"] == list("ABCDEF"[:step])


def test_readouts_are_german():
    shown = {x["key"]: x["value"] for x in api.run("kv-cache")["readouts"]}
    assert shown["bytes"] == "192\u202fByte" and shown["per_position"] == "48\u202fByte" and shown["pairs"] == "4"


def test_lesson_three_times_is_not_reached_at_d():
    # at D recomputing costs 1 + 2 + 3 + 4 = 10 pairs against 4: only two and a half times
    near = api.run("kv-cache", {"step": 4})
    assert (near["result"]["kv_computed_without_cache"], near["result"]["kv_computed_with_cache"]) == (10, 4)
    assert "three_times" not in near["lesson"]["solved"]
    assert "three_times" in api.run("kv-cache", {"step": 5})["lesson"]["solved"]


def test_workshop_script_recomputes_steps_and_bytes():
    """The numpy script (workshop/kv_cache.py) at the default and two presets: same counts, same bytes."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(kv.SLUG, "A, B, C verarbeitet"), api.preset_values(kv.SLUG, "Größeres Modell")]
    for state, out in zip(states, run_states(kv.SLUG, states)):
        result = api.run(kv.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert f"Aktuelles Token: {result['current']}\n" in text
        assert number(text, "K/V-Paare im Cache") == result["pairs"]
        assert number(text, "K/V-Berechnungen mit Cache") == result["kv_computed_with_cache"]
        assert number(text, "K/V-Berechnungen ohne Cache") == result["kv_computed_without_cache"]
        assert number(text, "Byte je Position") == result["per_position"]
        assert number(text, "Byte gesamt") == result["bytes"]
        assert number(text, f"Byte für {', '.join(result['tokens'])}") == result["bytes_stepper"]
        assert number(text, "MiB") == pytest.approx(result["mib"], abs=1e-6)


def test_the_key_sentence_reads_the_saving_and_the_growth():
    """Under the figure: the token reads the cached pairs and computes one; recomputing would have cost the
    triangle number so far (10 instead of 4 at D); the first token has nothing to read; the product and the
    cost of one more position follow the calculator."""
    d = api.run("kv-cache")["summary"].replace("\u202f", " ")
    assert "D liest 3 K/V-Paare aus dem Cache" in d and "bis hier 10 K/V-Berechnungen statt 4" in d
    assert "2 × 1 × 4 × 2 × 3 × 4 × 1 = 192 Byte; jede weitere Position kostet 48 Byte mehr" in d
    first = api.run("kv-cache", {"step": 1, "bytes_per": 2})["summary"].replace("\u202f", " ")
    assert "A ist das erste Token: Der Cache ist noch leer" in first and "Ohne Cache" not in first
    assert "= 96 Byte; jede weitere Position kostet 24 Byte mehr" in first
