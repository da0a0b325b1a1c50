"""Prefix caching: every figure of CONCEPTS.md §15, the hash chain and the last-token rule."""

import hashlib
import struct
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from probierlabor.kit import api
from probierlabor.concepts import prefix_caching as pc

# CONCEPTS.md §15 checklist: X replaces → (common prefix tokens, reused full blocks, reused tokens)
CHECKLIST = {
    "A": (0, 0, 0), "B": (1, 0, 0), "C": (2, 1, 2), "D": (3, 1, 2),
    "E": (4, 2, 4), "F": (5, 2, 4), "G": (6, 3, 6), "H": (7, 3, 6),
}


@pytest.mark.parametrize("x", list(CHECKLIST))
def test_checklist(x):
    r = pc.compute(x=x, block_size=2)
    assert (r["common_prefix"], r["hit_blocks"], r["reused_tokens"]) == CHECKLIST[x]


def test_h_to_x_keeps_7_common_tokens_but_reuses_only_6():
    r = pc.compute(x="H")
    assert r["common_prefix"] == 7 and r["reused_tokens"] == 6 and r["hit_blocks"] == 3


def test_a_to_x_reuses_nothing_although_7_later_tokens_match():
    r = pc.compute(x="A")
    assert r["reused_tokens"] == 0 and r["same_after"] == 7
    assert r["same_hash"] == [False] * 4  # the changed first block poisons every later hash


def test_formula_two_times_floor_half_index():
    for i, x in enumerate(pc.CACHED):
        assert pc.case(x, 2)["reused_tokens"] == 2 * (i // 2)


def test_the_cache_holds_four_full_blocks():
    assert len(pc.chain(pc.CACHED, 2)) == 4


def test_hashes_are_chained_over_parent_and_tokens_as_in_the_engine():
    def engine_style(parent, ids):  # engine/block_pool.py: sha256(parent + int64 little-endian ids)
        return hashlib.sha256(parent + b"".join(struct.pack("<q", i) for i in ids)).digest()
    first = engine_style(b"", [65, 66])
    second = engine_style(first, [67, 68])
    assert pc.chain(pc.CACHED, 2)[:2] == [first, second]
    # the same two tokens after another beginning get another hash
    assert pc.chain(list("XBCD"), 2)[1] != second


def test_identical_request_still_computes_its_last_token():
    r = pc.compute(x=pc.NONE, block_size=2)
    assert r["common_prefix"] == 8 and r["matching_blocks"] == 4
    assert r["hit_blocks"] == 3 and r["reused_tokens"] == 6 and r["compute_tokens"] == 2
    assert r["last_token_rule"]
    r1 = pc.compute(x=pc.NONE, block_size=1)
    assert r1["reused_tokens"] == 7 and r1["compute_tokens"] == 1


def test_block_size_one_reuses_the_whole_common_prefix():
    for i, x in enumerate(pc.CACHED):
        assert pc.case(x, 1)["reused_tokens"] == i


xs = st.sampled_from(list(pc.CACHED) + [pc.NONE])
sizes = st.sampled_from([1, 2, 4])


@given(xs, sizes)
def test_reuse_is_whole_blocks_within_the_common_prefix_and_leaves_the_last_token(x, size):
    r = pc.compute(x=x, block_size=size)
    assert r["reused_tokens"] % size == 0
    assert r["reused_tokens"] <= min(r["common_prefix"], len(pc.CACHED) - 1)
    assert r["common_prefix"] - r["reused_tokens"] < size or r["common_prefix"] == len(pc.CACHED)
    assert r["reused_tokens"] + r["compute_tokens"] == len(pc.CACHED)
    # the hits are a leading run
    assert r["same_hash"][:r["matching_blocks"]] == [True] * r["matching_blocks"]
    assert not any(r["same_hash"][r["matching_blocks"]:])


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(["x", "block_size", "other"]),
                       st.one_of(xs, sizes, st.text(max_size=3), st.integers(-3, 9))))
def test_any_input_runs_and_draws_valid_svg(raw):
    out = api.run("prefix-caching", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert 0 <= out["result"]["reused_tokens"] <= 7


def test_readouts_are_german():
    values = {r["key"]: r["value"] for r in api.run("prefix-caching")["readouts"]}
    assert values["reused_tokens"] == "6" and values["common_prefix"] == "7 Tokens"
    assert values["compute_tokens"] == "2 Tokens"


def test_lesson_keep_all_is_not_solved_by_blocks_of_four():
    # blocks of four keep only A B C D: the three equal tokens E F G sit in the block with X
    near = api.run("prefix-caching", {"x": "H", "block_size": 4})
    assert near["result"]["reused_tokens"] == 4
    assert "keep_all" not in near["lesson"]["solved"]
    assert "keep_all" in api.run("prefix-caching", {"x": "H", "block_size": 1})["lesson"]["solved"]


def test_workshop_script_recomputes_the_hashes_and_the_hit():
    """The numpy script (workshop/prefix_caching.py) at the default, two presets and blocks of 4: same hashes,
    same hit, the last-token rule included."""
    from workshop_check import run_states, number

    states = [{}, api.preset_values(pc.SLUG, "X statt A"), api.preset_values(pc.SLUG, "Gleiche Anfrage"),
              {"x": "F", "block_size": 4}]
    for state, out in zip(states, run_states(pc.SLUG, states)):
        result = api.run(pc.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert f"Anfrage: {' '.join(result['tokens'])}\n" in text
        assert f"Hashes: {' '.join(result['hashes'])}\n" in text
        assert number(text, "Passende Blöcke") == result["matching_blocks"]
        assert number(text, "Wiederverwendete Blöcke") == result["hit_blocks"]
        assert number(text, "Wiederverwendete Tokens") == result["reused_tokens"]
        assert number(text, "Neu zu rechnen") == result["compute_tokens"]
