"""GQA: the KV-cache figures of CONCEPTS.md §23 in exact integers, the grouping, honest handling of bad G."""

import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import gqa
from probierlabor.kit import api

MIB = 2**20


@pytest.mark.parametrize("kv_heads, n_bytes, mib", [
    (8, 134_217_728, 128),  # MHA
    (4, 67_108_864, 64),
    (2, 33_554_432, 32),  # GQA with 2 groups of 4
    (1, 16_777_216, 16),  # MQA
])
def test_kv_cache_bytes_of_the_article(kv_heads, n_bytes, mib):
    assert gqa.kv_bytes(kv_heads) == n_bytes
    assert Fraction(n_bytes, MIB) == mib


@pytest.mark.parametrize("preset, sets, mib", [
    ("MHA (G = 8)", 8, 128), ("GQA, 2 Gruppen", 2, 32), ("GQA, 4 Gruppen", 4, 64), ("MQA (G = 1)", 1, 16),
])
def test_presets(preset, sets, mib):
    r = api.run("gqa", api.preset_values("gqa", preset))["result"]
    assert r["kv_sets"] == sets and r["mib"] == mib
    assert r["bytes_mha"] == 134_217_728 and r["bytes_mqa"] == 16_777_216


def test_eight_heads_in_two_groups_give_two_kv_sets_instead_of_eight():
    r = gqa.compute(groups=2, heads=8)
    assert r["kv_sets"] == 2 and r["heads_per_group"] == 4
    assert r["assignment"] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert r["note"] is None and r["mib_exact"] == "32"


def test_g_1_is_mqa_and_g_h_is_mha():
    mqa, mha = gqa.compute(groups=1), gqa.compute(groups=8)
    assert mqa["bytes"] == mqa["bytes_mqa"] and set(mqa["assignment"]) == {0}
    assert mha["bytes"] == mha["bytes_mha"] and mha["assignment"] == list(range(8))


@pytest.mark.parametrize("groups, heads, used", [(3, 8, 2), (5, 8, 4), (6, 8, 4), (7, 8, 8), (5, 12, 4),
                                                  (12, 8, 8), (64, 8, 8), (5, 7, 7), (4, 7, 1), (3, 7, 1)])
def test_a_group_count_that_does_not_divide_is_replaced_with_a_note(groups, heads, used):
    r = gqa.compute(groups=groups, heads=heads)
    assert r["groups"] == used and r["note"]
    assert f"G = {groups}" in r["note"] and f"G = {used}" in r["note"]
    view = gqa.view(r)
    assert f"G = {groups}" in view.summary and "pl-attn-note" in view.extra


def test_mib_text_is_exact_or_says_that_it_rounds():
    assert gqa.mib_text(134_217_728) == "128\u202fMiB"
    assert gqa.mib_text(gqa.kv_bytes(2, tokens=1000)) == "31,25\u202fMiB"
    assert gqa.mib_text(3).startswith("≈ ")
    assert gqa.mib_text(2**31) == "2048\u202fMiB (2\u202fGiB)"


@given(st.integers(1, 64), st.integers(1, 64))
def test_the_used_group_count_is_the_nearest_divisor(groups, heads):
    used, note = gqa.valid_groups(groups, heads)
    assert heads % used == 0 and 1 <= used <= heads
    divisors = [d for d in range(1, heads + 1) if heads % d == 0]
    if groups > heads:
        assert used == heads and "mehr als" in note
    elif heads % groups == 0:
        assert used == groups and note is None
    else:
        assert "teilt" in note
        gap = abs(used - groups)
        assert all(abs(d - groups) >= gap for d in divisors)  # no divisor is closer
        assert used == min(d for d in divisors if abs(d - groups) == gap)  # a tie goes down


factors = st.fixed_dictionaries({"batch": st.integers(1, 1024), "layers": st.integers(1, 512),
                                 "tokens": st.integers(1, 10_000_000), "head_dim": st.integers(1, 1024),
                                 "bytes_per": st.integers(1, 8)})


@given(st.integers(1, 64), factors, st.sampled_from(["batch", "layers", "tokens", "head_dim", "bytes_per"]))
def test_the_bytes_are_linear_in_every_factor(kv, f, name):
    doubled = dict(f, **{name: 2 * f[name]})
    assert gqa.kv_bytes(kv, **doubled) == 2 * gqa.kv_bytes(kv, **f)
    assert gqa.kv_bytes(kv, **f) == kv * gqa.kv_bytes(1, **f)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 64), st.integers(1, 64), factors)
def test_any_setting_gives_exact_integers_and_a_valid_figure(groups, heads, f):
    out = api.run("gqa", {"groups": groups, "heads": heads, **f})
    assert out["notes"] == []
    r = out["result"]
    json.dumps(out)
    assert r["bytes"] * r["heads"] == r["bytes_mha"] * r["groups"]  # the cache shrinks by exactly H/G
    assert r["bytes_mqa"] * r["groups"] == r["bytes"]
    assert isinstance(r["bytes"], int)
    ET.fromstring(out["figure"])
    ET.fromstring(f"<div>{out['extra']}</div>")


def test_bad_url_values_are_clamped():
    out = api.run("gqa", {"groups": "99", "tokens": "-5", "bytes_per": "zwei"})
    assert len(out["notes"]) == 3
    assert out["params"]["groups"] == 64 and out["result"]["groups"] == 8  # then 64 > H = 8 → 8


def test_readouts_are_german():
    values = {r.key: r.value for r in gqa.view(gqa.compute()).readouts}
    assert values == {"kv_sets": "2", "heads_per_group": "4", "cache": "32\u202fMiB",
                      "cache_mha": "128\u202fMiB", "cache_mqa": "16\u202fMiB", "factor": "4-mal kleiner"}


def test_the_long_text_task_needs_a_larger_g_than_the_default():
    """With 4096 tokens G = 4 needs 256 MiB, the budget; the default G = 2 fits but is not the largest, so
    typing the long text alone solves nothing, and G = 8 (512 MiB) overshoots."""
    def solved(**raw):
        return "long_text" in api.run("gqa", raw)["lesson"]["solved"]
    assert api.run("gqa", {"tokens": 4096, "groups": 4})["result"]["bytes"] == 256 * MIB
    assert solved(tokens=4096, groups=4)
    assert not solved(tokens=4096) and not solved(tokens=4096, groups=1) and not solved(tokens=4096, groups=8)


def test_the_long_text_task_needs_the_rest_of_the_example():
    """With 8-bit numbers G = 8 fits in 256 MiB; the task (and its explanation of G = 4) is about the example's 2 bytes."""
    out = api.run("gqa", {"tokens": 4096, "groups": 8, "bytes_per": 1})
    assert out["result"]["bytes"] == 256 * MIB
    assert "long_text" not in out["lesson"]["solved"]


def test_workshop_script_recomputes_groups_and_cache():
    """The numpy script (workshop/gqa.py) at the default, two presets and a tie between divisors: same
    groups, same assignment, same cache sizes."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(gqa.SLUG, "G = 3 geht nicht"), api.preset_values(gqa.SLUG, "MQA (G = 1)"),
              {"groups": 6, "batch": 3, "tokens": 5000, "bytes_per": 1}, {"groups": 40, "heads": 12}]
    for state, out in zip(states, run_states(gqa.SLUG, states)):
        r = api.run(gqa.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Gruppen") == r["groups"]
        assert number(out["stdout"], "Köpfe je Gruppe") == r["heads_per_group"]
        assert f"Gruppe je Kopf: {' '.join(map(str, r['assignment']))}\n" in out["stdout"]
        for label, key in (("Cache GQA", "mib"), ("Cache MHA", "mib_mha"), ("Cache MQA", "mib_mqa")):
            assert number(out["stdout"], label) == pytest.approx(float(r[key]), abs=5e-5)


def test_the_key_sentence_places_the_cache_between_mha_and_mqa():
    """Under the figure: GQA is named as lying between the extremes with the factor to MHA; G = H is MHA,
    G = 1 is MQA, H = 1 makes all three the same; the note on a G that does not divide H stays in front."""
    default = api.run("gqa")["summary"].replace("\u202f", " ")
    assert "2 Gruppen zu je 4, also 2 K/V-Köpfe statt 8" in default and "32 MiB, zwischen den Extremen" in default
    assert "das 4-Fache (128 MiB), MQA nur 16 MiB" in default
    mha = api.run("gqa", api.preset_values("gqa", "MHA (G = 8)"))["summary"].replace("\u202f", " ")
    assert "Das ist MHA" in mha and "bleibt bei 128 MiB" in mha and "zwischen" not in mha
    mqa = api.run("gqa", api.preset_values("gqa", "MQA (G = 1)"))["summary"].replace("\u202f", " ")
    assert "Das ist MQA" in mqa and "von 128 MiB (MHA) auf 16 MiB, 8-mal kleiner" in mqa
    odd = api.run("gqa", api.preset_values("gqa", "G = 3 geht nicht"))["summary"]
    assert odd.startswith("G = 3 teilt H = 8 nicht") and "2 Gruppen zu je 4" in odd
    assert "dasselbe" in api.run("gqa", {"heads": 1, "groups": 1})["summary"]


def test_the_formula_names_the_head_dimension_as_its_field_does():
    label = next(p.label for p in gqa.PARAMS if p.name == "head_dim")
    page = (Path(__file__).resolve().parents[2] / "pages" / "gqa.md").read_text(encoding="utf-8")
    assert label == "Dimension je K/V-Kopf" and f"\\text{{{label}}}" in page


def test_the_lesson_names_the_shared_keys_and_values_k_v_heads():
    # „Satz“ only ever explains the term („ein Satz Keys und Values“); alone it is the glossary's avoided variant
    assert not [t for t in gqa.LESSON.misconceptions if re.search(r"\bSätze|\bSatz\b(?! Keys)", t)]
