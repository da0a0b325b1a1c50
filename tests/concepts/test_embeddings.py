"""Embeddings: exact dot products and cosines, the sinusoidal positions, the table derived from the trained
weights (regenerated here within a tolerance), the typed word cut by the model's own tokenizer, clamping,
the key sentence and the numpy script."""

import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import embeddings as emb
from probierlabor.concepts import embeddings_table as table
from probierlabor.kit import api

from engine import pretrained
from tools import embedding_table

SLUG = emb.SLUG


def run(**raw):
    return api.run(SLUG, raw)


def test_the_page_example_has_dot_5_and_cosine_one_over_root_two():
    r = run()["result"]
    assert Fraction(r["dot_exact"]) == 5  # 3·1 + 1·2
    assert (Fraction(r["norm2_a"]), Fraction(r["norm2_b"])) == (10, 5)
    assert r["cos_exact"] is None  # 5/√50 = 1/√2 is irrational: shown rounded
    assert r["cos"] == pytest.approx(1 / math.sqrt(2), rel=1e-12)
    assert r["angle"] == pytest.approx(45, abs=1e-9)
    readouts = {x["key"]: x["value"] for x in run()["readouts"]}
    assert readouts["dot"] == "5" and readouts["cos"] == "≈ 0,707"


def test_a_rational_cosine_is_shown_exactly():
    out = run(a="3; 4", b="4; 3")  # 24/(5·5)
    assert Fraction(out["result"]["cos_exact"]) == Fraction(24, 25)
    readouts = {x["key"]: x["value"] for x in out["readouts"]}
    assert readouts["cos"] == "0,96" and readouts["lengths"] == "5; 5"


tenths = st.integers(-40, 40).map(lambda n: n / 10)


@given(tenths, tenths, tenths, tenths)
@settings(max_examples=80, deadline=None)
def test_dot_and_cosine_agree_with_numpy(a1, a2, b1, b2):
    r = emb.compute(a=(a1, a2), b=(b1, b2))
    a, b = np.array([a1, a2]), np.array([b1, b2])
    assert Fraction(r["dot_exact"]) == Fraction(a1 * 10) * Fraction(b1 * 10) / 100 + Fraction(a2 * 10) * Fraction(b2 * 10) / 100
    if not a.any() or not b.any():
        assert r["cos"] is None and "Nullvektor" in emb._key_sentence(r)
    else:
        assert r["cos"] == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b), abs=1e-12)
        assert -1 <= r["cos"] <= 1
        if r["cos_exact"] is not None:  # an exact cosine is the float one, exactly rounded
            assert float(Fraction(r["cos_exact"])) == pytest.approx(r["cos"], abs=1e-15)


@given(tenths, tenths, st.sampled_from(["0.25", "0.5", "2", "3"]))
def test_scaling_a_vector_scales_the_dot_product_and_keeps_the_cosine(x, y, factor):
    scaled = [Fraction(repr(v)) * Fraction(factor) for v in (x, y)]
    if (x == 0 and y == 0) or max(map(abs, scaled)) > 4:
        return
    same = emb.compute(a=(x, y), b=tuple(float(v) for v in scaled))  # what a reader types: b = factor·a
    assert Fraction(same["cos_exact"]) == 1
    assert Fraction(same["dot_exact"]) == Fraction(factor) * Fraction(same["norm2_a"])


def test_positions_are_the_fastest_sinusoidal_pair_and_change_the_product_at_the_same_distance():
    r = run(positions=True, pa=0, pb=0)["result"]
    assert r["pe_a"] == [0.0, 1.0]  # sin 0, cos 0: exact
    # the same two tokens at the same place, once at 1 and once at 4: distance 0 both times
    at1, at4 = (run(positions=True, pa=p, pb=p)["result"]["dot2"] for p in (1, 4))
    a, b = np.array(emb.A), np.array(emb.B)
    for p, dot in ((1, at1), (4, at4)):
        pe = np.array([np.sin(p), np.cos(p)])
        assert dot == pytest.approx((a + pe) @ (b + pe), abs=1e-12)
    assert at1 > 10 and at4 < 2  # addition makes the similarity depend on the absolute place


def test_the_table_is_what_the_weights_give():
    """The committed table against a fresh derivation from model/weights: same token texts, map and
    cosines within rounding (another BLAS may differ in the last bits), neighbours equal up to ties."""
    fresh = embedding_table.derive()
    assert table.WEIGHTS_SHA256 == pretrained.manifest()["files"]["target.npz"]["sha256"] == fresh["weights_sha256"]
    assert [row[0] for row in table.TABLE] == fresh["tokens"]
    assert pytest.approx(fresh["map_share"], abs=2e-3) == table.MAP_SHARE
    for i, (_, near, cosines, xy) in enumerate(table.TABLE):
        assert xy == pytest.approx(fresh["map"][i], abs=2e-3)
        assert cosines == pytest.approx(fresh["cosines"][i], abs=2e-3)
        assert list(cosines) == sorted(cosines, reverse=True)
        for j, (mine, theirs) in enumerate(zip(near, fresh["neighbours"][i])):
            tied = any(abs(cosines[j] - c) <= 2e-3 for k, c in enumerate(cosines) if k != j)
            assert mine == theirs or tied, (i, j)


def test_the_neighbours_are_the_cosines_of_the_full_vectors():
    weights = np.load(pretrained.WEIGHTS / "target.npz")["model.embed_tokens.weight"].astype(np.float64)
    for token in (emb.tokens_of("und")[0], emb.tokens_of("2")[0], 46):
        _, near, cosines, _ = table.TABLE[token]
        for other, c in zip(near, cosines):
            u, v = weights[token], weights[other]
            assert u @ v / np.linalg.norm(u) / np.linalg.norm(v) == pytest.approx(c, abs=1e-3)


def test_the_page_cuts_words_with_the_model_tokenizer():
    tokenizer = pretrained.load_tokenizer()
    for word in ("und", "Straßenbahn", "2", ".", "Haus"):
        expected = tokenizer.encode(" " + word if word[0].isalnum() else word)
        assert emb.tokens_of(word) == expected
    assert emb.tokens_of("-weise") == tokenizer.encode("weise") != tokenizer.encode(" weise")  # a piece inside a word
    assert emb.tokens_of("-") == tokenizer.encode("-")
    r = run(word="Straßenbahn", piece=2)["result"]
    assert r["count"] > 2 and r["token"] == r["ids"][1]


def test_what_the_prose_says_about_the_neighbours_holds():
    """pages/embeddings.md names them: „␣oder“ next to „␣und“, „␣3“ next to „␣2“, „␣sind“ near „␣ist“, „ungen“ and „ierung“ near „ung“,
    „␣Symbolleiste“ among the neighbours of „␣ein“, and „Hund“ is no token of its own."""
    assert run()["result"]["neighbour_texts"][0] == " oder"
    assert run(word="2")["result"]["neighbour_texts"][0] == " 3"
    assert " sind" in run(word="ist")["result"]["neighbour_texts"]
    assert {"ungen", "ierung"} <= set(run(word="-ung")["result"]["neighbour_texts"])
    assert run(word="Hund")["result"]["pieces"] == [" H", "und"]
    assert " Symbolleiste" in run(word="ein", k=10)["result"]["neighbour_texts"]  # LibreOffice's help


def test_typed_input_is_clamped_and_noted_in_german():
    out = run(a="9; -1,5", word="Haus baum", piece=99, k=0)
    notes = " ".join(out["notes"])
    assert out["url"]["a"] == "4_-1.5"
    assert "Leerzeichen" in notes or "Zeichen" in notes
    assert "Nachbarn" in notes and "Teil des Worts" in notes
    r = out["result"]
    assert r["word"] == "Hausbaum" and r["k"] == 1
    # a word of fewer pieces than asked: the last one, and the key sentence says so
    short = run(word="und", piece=3)
    assert short["result"]["piece"] == 1 and short["result"]["piece_clamped"]
    assert "nur Teil 1, keinen Teil 3" in short["summary"]


def test_the_key_sentence_follows_every_control():
    summaries = {run(**raw)["summary"] for raw in (
        {}, {"a": "2; 2"}, {"b": "-1; 3"}, {"word": "der"}, {"k": 3},
        {"word": "Straßenbahn", "piece": 2}, {"positions": True}, {"positions": True, "pa": 3},
        {"positions": True, "pb": 4}, {"pa": 3}, {"piece": 2})}
    assert len(summaries) == 11
    assert "zählen erst, wenn du „Positionen addieren“ einschaltest" in run(pa=3)["summary"]
    assert "senkrecht" in run(b="-1; 3")["summary"]
    assert "genau gegeneinander" in run(b="-3; -1")["summary"]
    assert "Mit Positionen (a an Stelle 2, b an Stelle 5)" in run(positions=True, pa=2, pb=5)["summary"]


def test_the_tips_are_handles_on_both_axes():
    figure = run(a="1,5; -2")["figure"]
    assert 'data-drag-xy="a"' in figure and 'data-drag-value="1.5 -2.0"' in figure
    assert 'data-drag-xy="b"' in figure and figure.count('role="slider"') == 2


raw_values = st.one_of(st.none(), st.text(max_size=12), st.floats(allow_nan=True), st.integers(-10**6, 10**6))


@given(st.fixed_dictionaries({}, optional={p.name: raw_values for p in emb.PARAMS}))
@settings(max_examples=60, deadline=None)
def test_any_input_gives_a_result_and_valid_svg(raw):
    for layout in ("wide", "narrow"):
        out = api.run(SLUG, raw, layout=layout)
        ET.fromstring(out["figure"])
        ET.fromstring(out["extra"])
        assert out["summary"]
    r = out["result"]
    assert 1 <= len(r["neighbours"]) <= emb.NEIGHBOURS and 1 <= r["piece"] <= r["count"]


def test_workshop_script_recomputes_the_vectors():
    """The numpy script (workshop/embeddings.py) gives the page's dot product, cosine and positions."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(SLUG, "Senkrecht"), api.preset_values(SLUG, "Mit Positionen"),
              {"a": "1.5_-2", "b": "-0.5_3", "positions": True, "pa": 4, "pb": 4}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Skalarprodukt") == pytest.approx(result["dot"], abs=1e-6)
        assert number(out["stdout"], "Kosinus") == pytest.approx(result["cos"], abs=1e-6)
        if result["positions"]:
            assert number(out["stdout"], "mit Positionen") == pytest.approx(result["dot2"], abs=1e-6)


def test_no_click_solves_a_task():
    """The untouched page, every preset and every number of the prose leave all tasks to the reader."""
    from page_states import solved_by_the_page

    assert solved_by_the_page(SLUG) == {}


def test_the_place_task_is_solvable_after_the_first_task_with_any_a_and_b():
    """A reader who did task 1 first (a and b no longer the page's) can still solve task 3: it asks for the
    place where a′·b′ is lowest for the a and b on screen, and every other place is not it."""
    for a, b in (("3; 1", "1; 2"), ("3; 1", "-1; 3"), ("2; 1", "-1; 2"), ("-2; 0,5", "1,5; -3")):
        dots = [run(a=a, b=b, positions=True, pa=p, pb=p)["result"]["dot2"] for p in range(emb.MAX_POSITION + 1)]
        lowest = dots.index(min(dots))
        for p in range(emb.MAX_POSITION + 1):
            status = run(a=a, b=b, positions=True, pa=p, pb=p)["lesson"]
            assert ("place" in status["solved"]) == (p == lowest), (a, b, p)
        assert "place" not in run(a=a, b=b, positions=True, pa=lowest, pb=lowest + 1)["lesson"]["solved"]
    # b = −a: a′·b′ is the same at every place, there is no lowest one to find
    assert "place" not in run(b="-3; -1", positions=True, pa=4, pb=4)["lesson"]["solved"]


def test_the_perpendicular_task_takes_every_a_and_b_at_a_right_angle():
    for a, b in (("2; 1", "-1; 2"), ("1; 0", "0; -3"), ("-2,5; 1,5", "1,5; 2,5"), ("3; 1,5", "-0,5; 1")):
        assert "perpendicular" in run(a=a, b=b)["lesson"]["solved"], (a, b)
    assert "perpendicular" not in run(a="2; 1", b="0; 0")["lesson"]["solved"]  # b has no direction
    # the task asks for an a of the reader's own: the page's a with b = (−1; 3) is the preset „Senkrecht“
    assert "perpendicular" not in run(b="-1; 3")["lesson"]["solved"]


def test_a_word_nearer_the_goal_than_the_last_near_one_is_near_too():
    """„Fast“ had a gap: „die“ (≈ 0,49) was near, „und“ typed elsewhere (≈ 0,58) and „das“ (≈ 0,63) were not."""
    for word in ("das", "2", "eine"):
        cos = run(word=word)["result"]["cosines"][0]
        assert 0.5 < cos <= emb.CLOSE and "close" in run(word=word)["lesson"]["near"], word


@pytest.mark.parametrize("a, b, angle", [("3; 1", "1; 2", "45°"), ("3; 1", "−1; 3", "90°"), ("3; 1", "−3; −1", "180°"),
                                         ("2; 0", "0,5; 0", "0°"), ("1; 0", "−1; 1", "135°")])
def test_an_exact_angle_is_written_without_approx(a, b, angle):
    assert f"(Winkel {angle})" in api.run("embeddings", {"a": a, "b": b})["summary"]


def test_a_rounded_angle_keeps_its_approx():
    assert "(Winkel ≈ 63°)" in api.run("embeddings", {"a": "1; 0", "b": "1; 2"})["summary"]
