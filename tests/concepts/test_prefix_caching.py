"""Prefix caching: every figure of CONCEPTS.md §15, the hash chain and the last-token rule."""

import hashlib
import struct
import xml.etree.ElementTree as ET

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from probierlabor.concepts import prefix_caching as pc
from probierlabor.kit import api

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


xs = st.sampled_from([*list(pc.CACHED), pc.NONE])
sizes = st.integers(1, 8)


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
@given(st.dictionaries(st.sampled_from(["x", "block_size", "cached", "prompt", "other"]),
                       st.one_of(xs, sizes, st.text(max_size=14), st.integers(-3, 9))))
def test_any_input_runs_and_draws_valid_svg(raw):
    out = api.run("prefix-caching", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert 0 <= out["result"]["reused_tokens"] <= len(out["result"]["tokens"]) - 1


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
    from workshop_check import number, run_states

    states = [{}, api.preset_values(pc.SLUG, "X statt A"), api.preset_values(pc.SLUG, "Gleiche Anfrage"),
              {"x": "F", "block_size": 4}, {"cached": "Hallo Welt", "prompt": "Hallo Wald", "block_size": 3},
              {"cached": "Hallo Welt", "x": "B"}, {"prompt": "ABCDEFGHIJ", "block_size": 5}]
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


# -- own texts: one token per character, block size 1–8 --------------------------------------------

def sha_chain(text, size):
    """The engine's rule written out again: sha256 over the parent hash and the character codes as int64."""
    out, parent = [], b""
    for start in range(0, len(text) - size + 1, size):
        parent = hashlib.sha256(parent + b"".join(struct.pack("<q", ord(c)) for c in text[start:start + size])).digest()
        out.append(parent)
    return out


def test_own_texts_reuse_the_leading_blocks_whose_chained_hashes_match():
    out = api.run(pc.SLUG, {"cached": "Hallo Welt", "prompt": "Hallo Wald", "block_size": 3})
    r = out["result"]
    old, new = sha_chain("Hallo Welt", 3), sha_chain("Hallo Wald", 3)
    assert r["cached_hashes"] == [h.hex()[:6] for h in old] and r["hashes"] == [h.hex()[:6] for h in new]
    # "Hal" and "lo " match, "Wal" does not: 6 tokens from the cache, "Wald" is computed
    assert [a == b for a, b in zip(old, new)] == [True, True, False]
    assert (r["common_prefix"], r["hit_blocks"], r["reused_tokens"], r["compute_tokens"]) == (7, 2, 6, 4)
    assert out["notes"] == [] and out["url"] == {"cached": "Hallo Welt", "prompt": "Hallo Wald", "block_size": "3"}
    assert out["summary"].startswith("Im Cache „Hallo Welt“, neue Anfrage „Hallo Wald“, Blöcke zu 3:")
    assert "kein voller Block" in out["figure"]  # the "t" and "d" after the last full block
    ET.fromstring(out["figure"])


def test_an_own_cached_text_alone_gets_x_at_the_letters_position():
    r = api.run(pc.SLUG, {"cached": "Hallo Welt", "x": "B"})["result"]
    assert "".join(r["tokens"]) == "HXllo Welt" and r["common_prefix"] == 1
    assert [c["x"] for c in r["table"]] == [*list("ABCDEFGH"), pc.NONE]
    short = api.run(pc.SLUG, {"cached": "AB", "x": "H"})
    assert short["result"]["tokens"] == ["A", "B"] and "keine Stelle für X" in short["summary"]


def test_the_last_token_rule_holds_for_a_whole_own_block():
    same = pc.compute(cached="ABCDEFGH", prompt="ABCDEFGH", block_size=8)
    assert (same["matching_blocks"], same["hit_blocks"], same["compute_tokens"]) == (1, 0, 8)
    longer = pc.compute(cached="ABCDEFGH", prompt="ABCDEFGHI", block_size=8)
    assert (longer["hit_blocks"], longer["compute_tokens"]) == (1, 1)


def test_own_texts_lose_odd_characters_and_their_tail_with_a_note_and_sizes_are_clamped():
    out = api.run(pc.SLUG, {"cached": "Grüße#@!", "prompt": "Grüße an dich und alle", "block_size": 12})
    assert out["params"]["cached"] == "Grüße" and out["params"]["prompt"] == "Grüße an dic"
    assert out["params"]["block_size"] == 8
    assert out["notes"][1:] == ["„Eigener Text im Cache“: Die Zeichen „#“, „@“, „!“ gehen hier nicht und wurden weggelassen.",
                                "„Eigene neue Anfrage“: Es gehen höchstens 12 Zeichen, die letzten 10 wurden weggelassen."]


def test_the_lesson_speaks_only_of_the_letters():
    assert "late_miss" in api.run(pc.SLUG, {"block_size": 4, "x": "D"})["lesson"]["solved"]
    assert "late_miss" not in api.run(pc.SLUG, {"block_size": 4, "x": "D", "cached": "ABCDEFGHIJ"})["lesson"]["solved"]


def test_one_reused_block_is_named_in_the_singular():
    # block size 4, an own text whose first block alone matches: „1 voller Block“, never „1 volle Block“
    figure = api.run(pc.SLUG, {"cached": "abcdxyzq", "prompt": "abcdefgh", "block_size": 4})["figure"]
    assert "(1 voller Block)" in figure and "1 volle Block" not in figure


@pytest.mark.parametrize("layout", ["narrow", "wide"])
@pytest.mark.parametrize("own", [{}, {"cached": "Hallo Welt", "prompt": "Hallo Wald"},
                                 {"cached": "ABCDEFGHIJKL", "prompt": "ABCDEFGHIJKX"}])
def test_no_two_texts_of_the_figure_come_closer_than_two_pixels(own, layout):
    """On a phone, blocks of 1 stagger their hashes on two lines: the lower line touched the =/≠ row."""
    from figure_text import font_sizes, gap, text_boxes
    sizes = font_sizes("pl-pc-", layout)
    for size in range(1, 9):
        boxes = text_boxes(api.run(pc.SLUG, own | {"block_size": size}, layout=layout)["figure"], sizes)
        for i, (a, box, _) in enumerate(boxes):
            for b, other, _ in boxes[i + 1:]:
                assert gap(box, other) >= 2, (own, size, a, b)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet=pc.TYPABLE, min_size=1, max_size=pc.LONGEST), st.text(alphabet=pc.TYPABLE, min_size=1, max_size=pc.LONGEST))
@example(" Hallo", "Hallo ")  # the spaces around a text were stripped without a note
def test_every_typed_character_is_a_token_a_space_around_the_text_too(cached, prompt):
    out = api.run(pc.SLUG, {"cached": cached, "prompt": prompt, "block_size": 1})
    r = out["result"]
    assert out["notes"] == [] and (out["params"]["cached"], out["params"]["prompt"]) == (cached, prompt)
    assert "".join(r["tokens"]) == prompt and r["common_prefix"] == next(
        (i for i, (a, b) in enumerate(zip(cached, prompt)) if a != b), min(len(cached), len(prompt)))
    assert api.run(pc.SLUG, out["url"])["params"] == out["params"]  # the link keeps the spaces


def test_same_request_is_solved_only_by_the_same_request():
    """X in a block left unfinished (here H in blocks of 3) also leaves every full block's hash equal; the
    task and its explanation are about the same request sent again, so that is only „fast“."""
    moved = api.run("prefix-caching", {"x": "H", "block_size": 3})
    assert all(moved["result"]["same_hash"]) and moved["result"]["compute_tokens"] > 0
    assert "same_request" not in moved["lesson"]["solved"] and "same_request" in moved["lesson"]["near"]
    again = api.run("prefix-caching", {"x": pc.NONE, "block_size": 3})
    assert "same_request" in again["lesson"]["solved"]


def test_the_key_sentence_says_what_of_the_common_start_comes_back():
    """Under the blocks: a started block does not count (7 common, 6 reused), a change at the start leaves
    no hit although the rest is equal, an aligned change reuses all, and the last token's block is dropped."""
    h = api.run("prefix-caching")["summary"]
    assert "Die ersten 7 Tokens stimmen überein. Aus dem Cache kommen aber nur 6, in 3 vollen Blöcken" in h
    assert "2 Tokens sind neu zu rechnen" in h and "angefangener Block zählt nicht" in h
    a = api.run("prefix-caching", {"x": "A"})["summary"]
    assert "Kein Treffer" in a and "Alle 8 Tokens werden neu gerechnet, obwohl die 7 folgenden gleich sind" in a
    g = api.run("prefix-caching", {"x": "G"})["summary"]
    assert "Die ersten 6 Tokens stimmen überein. Alle kommen in 3 vollen Blöcken aus dem Cache" in g
    assert "angefangener" not in g
    same = api.run("prefix-caching", {"x": "-"})["summary"]
    assert same.startswith("Keine Änderung, Blöcke zu 2: Die ersten 8 Tokens stimmen überein") and "letzte Token wird immer selbst gerechnet" in same
    short = api.run("prefix-caching", {"x": "B", "block_size": 4})["summary"]
    assert "Nur das erste Token stimmt überein, das füllt keinen ganzen Block. Nichts kommt aus dem Cache" in short
