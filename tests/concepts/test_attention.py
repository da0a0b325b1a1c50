"""One attention head with 2-D vectors: the page's numbers, the head against an independent numpy
head (floats within a stated tolerance: the softmax is irrational), the exact cases (ties, the mask),
the reader's own vectors with their German notes, the key sentence, the drag handles and the script."""

import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import attention as att
from probierlabor.concepts import softmax_temperatur
from probierlabor.kit import api

SLUG = att.SLUG
TOL = 1e-12  # floats of one softmax over at most five scores: far below any digit the page shows


def run(**raw):
    return api.run(SLUG, raw)


def numpy_head(q, keys, vals, pos, mask, scale):
    """The head written the way a textbook writes it, for the comparison."""
    K, V = np.array(keys, float).reshape(-1, 2), np.array(vals, float).reshape(-1, 2)
    s = K @ np.array(q, float) / (np.sqrt(2) if scale else 1.0)
    if mask:
        s = np.where(np.arange(len(K)) < pos, s, -np.inf)
    w = np.exp(s - s.max())
    w /= w.sum()
    return w, w @ V


def test_the_page_example_scores_exactly_and_katze_wins():
    r = run()["result"]
    assert [Fraction(s) for s in r["scores_exact"]] == [Fraction(-3, 2), Fraction(9, 2), 3, 1, Fraction(-7, 2)]  # q = (2; 1)
    w, out = numpy_head(att.QUERY, att.KEYS, att.VALUES, 4, True, True)
    assert r["weights"] == pytest.approx(list(w), abs=TOL)
    assert r["output"] == pytest.approx(list(out), abs=TOL)
    assert r["best"] == 1 and round(r["weights"][1], 2) == 0.69
    assert r["weights_exact"] is None  # a softmax of different scores is irrational: shown rounded, with „≈“
    readouts = {x["key"]: x["value"] for x in run()["readouts"]}
    assert readouts["weights"] == "Die ≈ 0,01 · Katze ≈ 0,69 · jagt ≈ 0,24 · Mäuse ≈ 0,06 · nachts 0"
    assert readouts["scores"] == "−1,5; 4,5; 3; 1; −3,5"


pair = st.tuples(st.integers(-40, 40), st.integers(-40, 40)).map(lambda p: (p[0] / 10, p[1] / 10))


@given(pair, st.lists(pair, min_size=3, max_size=5), st.lists(pair, min_size=5, max_size=5),
       st.integers(1, 5), st.booleans(), st.booleans())
@settings(max_examples=80, deadline=None)
def test_the_head_is_the_textbook_head(q, keys, vals, pos, mask, scale):
    flat_k, flat_v = [x for p in keys for x in p], [x for p in vals[:len(keys)] for x in p]
    r = run(query=list(q), keys=flat_k, vals=flat_v, pos=pos, mask=mask, scale=scale)["result"]
    pos = min(pos, len(keys))
    w, out = numpy_head(q, flat_k, flat_v, pos, mask, scale)
    assert r["weights"] == pytest.approx(list(w), abs=1e-9)
    assert r["output"] == pytest.approx(list(out), abs=1e-9)
    assert sum(r["weights"]) == pytest.approx(1, abs=TOL)
    seen = [j for j in range(len(keys)) if r["visible"][j]]
    assert seen == list(range(pos if mask else len(keys)))
    assert all(r["weights"][j] == 0 for j in range(len(keys)) if j not in seen)  # masked: exactly 0
    # a weighted mean: the output lies within the visible values on both axes
    for axis in range(2):
        coords = [vals[j][axis] for j in seen]
        assert min(coords) - 1e-9 <= r["output"][axis] <= max(coords) + 1e-9


def test_dividing_by_root_d_is_a_softmax_at_temperature_root_two():
    r = run(pos=5)["result"]  # every token visible
    assert r["weights"] == pytest.approx(softmax_temperatur.softmax(r["scores"], math.sqrt(2)), abs=TOL)
    doubled = run(query="4; 2", pos=5)["result"]  # twice the query: the same as half the temperature
    assert doubled["weights"] == pytest.approx(softmax_temperatur.softmax(r["scores"], math.sqrt(2) / 2), abs=TOL)
    assert doubled["weights"][1] > r["weights"][1]


@pytest.mark.parametrize("raw, m", [({"query": "0; 0"}, 4), ({"query": "0; 0", "pos": 5}, 5), ({"query": "0; 0", "pos": 2}, 2),
                                    ({"keys": "1; 1; 1; 1; 1; 1"}, 3), ({"pos": 1}, 1)])
def test_equal_scores_share_the_weight_exactly(raw, m):
    r = run(**raw)["result"]
    exact = [Fraction(w) for w in r["weights_exact"]]
    assert exact[:m] == [Fraction(1, m)] * m and all(w == 0 for w in exact[m:])
    values = [tuple(map(Fraction, v)) for v in r["vals"][:m]]
    assert [Fraction(x) for x in r["output_exact"]] == [sum(v[i] for v in values) / m for i in range(2)]


def test_the_mask_hides_exactly_the_later_tokens():
    early = run(pos=2)["result"]
    assert early["visible"] == [True, True, False, False, False] and early["weights"][2:] == [0.0] * 3
    unmasked = run(pos=2, mask=False)["result"]
    assert all(unmasked["visible"]) and unmasked["weights"] == pytest.approx(run(pos=5)["result"]["weights"], abs=TOL)
    table = run(pos=2)["extra"]
    assert table.count("−∞ (Maske)") == 3


def test_own_vectors_are_clamped_and_each_change_is_said_in_german():
    out = run(query="9; -1,5", keys="1; 2; 3; 4; 5; 6; 7", vals="1; 2; 3; 4; 5; 6; 7; 8", pos=5)
    assert out["url"]["query"] == "4_-1.5"
    assert any("außerhalb des erlaubten Bereichs" in n or "außerhalb von −4 bis 4" in n for n in out["notes"])
    r = out["result"]
    assert r["n"] == 3 and r["pos"] == 3 and r["keys"] == [[1.0, 2.0], [3.0, 4.0], [4.0, 4.0]]
    said = " ".join(r["notes"])
    assert "keinen Partner" in said and "Token 5 gibt es bei 3 Tokens nicht" in said
    assert "1 Paar wurde weggelassen" in said
    assert said in out["summary"]  # the notes stand first in the key sentence, for every reader to see
    short = run(vals=att._flat(att.VALUES_ALL[:4]))["result"]  # five keys, four values: the fifth is the page's own
    assert short["vals"][4] == list(att.VALUES_ALL[4]) and "1 Paar fehlte" in " ".join(short["notes"])
    assert "Token 5 gibt es bei 4 Tokens nicht" in run(keys=att._flat(att.KEYS_ALL[:4]), pos=5)["summary"]


def test_the_key_sentence_follows_every_control():
    states = ({}, {"pos": 5}, {"pos": 2}, {"pos": 2, "mask": False}, {"scale": False}, {"query": "4; 2"}, {"query": "0; 0"},
              {"keys": "3; 1,5; 2,5; -0,5; 0,5; 2; 1; -1; -1; -1,5"}, {"vals": "-2; 1; 3; 3; 1; -2; -1; -1; 0; 2,5"})
    summaries = [run(**raw)["summary"] for raw in states]
    assert len(set(summaries)) == len(states)
    assert "„Katze“ bekommt ≈ 0,69 des Gewichts" in summaries[0]
    assert "Die Maske verbirgt 1 späteres Token" in summaries[0] and "sieht alle 5" in summaries[1]
    assert "Die Maske verbirgt 3 spätere Tokens" in summaries[2]
    assert "Ohne Maske" in summaries[3] and "ungeteilt" in summaries[4]
    assert "genau 1/4" in summaries[6]
    assert "„Die“ bekommt" in summaries[7]
    assert "liegt fast auf seinem Value" in run(query="4; 1")["summary"]
    assert "„Die“ bekommt das ganze Gewicht 1" in run(pos=1)["summary"]


def test_every_vector_is_a_handle_in_2d():
    figure = run()["figure"]
    ET.fromstring(figure)
    assert 'data-drag-xy="query"' in figure and 'data-drag-value="2.0 1.0"' in figure
    for j in range(5):
        assert f'data-drag-xy="keys" data-drag-pair="{j}"' in figure
        assert f'data-drag-xy="vals" data-drag-pair="{j}"' in figure
    assert figure.count('role="slider"') == 11
    # each panel carries its own box and ranges, which the drag maps the pointer through
    assert figure.count('data-box="') == 3


def test_a_control_changes_attributes_not_the_elements_of_the_figure():
    """static/js/experiment/morph.js keeps the nodes on screen where the new figure has the same elements
    in the same order: the asking token, the mask and √d must not add or drop any (bench: slider → frame)."""
    def shape(raw):
        return re.findall(r"<(/?[a-z]+)((?: [a-z-]+=)*)", re.sub(r'="[^"]*"', "=", api.run(SLUG, raw)["figure"]))

    base = shape({})
    for raw in ({"pos": 1}, {"pos": 2}, {"pos": 5}, {"mask": False}, {"scale": False}, {"query": "0,5; 0"}):
        assert shape(raw) == base, raw


raw_values = st.one_of(st.none(), st.text(max_size=12), st.floats(allow_nan=True), st.integers(-10**6, 10**6),
                       st.lists(st.floats(-10, 10), max_size=12))


@given(st.fixed_dictionaries({}, optional=dict.fromkeys(("pos", "mask", "scale", "query", "keys", "vals"), raw_values)))
@settings(max_examples=80, deadline=None)
def test_any_input_gives_a_finite_result_and_valid_svg(raw):
    for layout in ("wide", "narrow"):
        out = api.run(SLUG, raw, layout=layout)
        r = out["result"]
        assert all(math.isfinite(x) for x in r["weights"] + r["output"])
        assert sum(r["weights"]) == pytest.approx(1, abs=TOL)
        ET.fromstring(out["figure"])
        ET.fromstring(out["extra"])


def test_workshop_script_recomputes_the_head():
    """The numpy script (workshop/attention.py) gives the same weights and output."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(SLUG, "Frühes Token"), api.preset_values(SLUG, "Drei Tokens"),
              {"query": "0_0"}, {"keys": "1_2_3_4_5_6_7", "vals": "1_2", "scale": False}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        for word, w in zip(result["words"], result["weights"]):
            assert number(out["stdout"], f"Gewicht {word}") == pytest.approx(w, abs=2e-6)
        assert number(out["stdout"], "Ausgabe 1") == pytest.approx(result["output"][0], abs=2e-6)
        assert number(out["stdout"], "Ausgabe 2") == pytest.approx(result["output"][1], abs=2e-6)


def test_no_click_solves_a_task():
    """The untouched page, every preset and every number of the prose leave all tasks to the reader."""
    from page_states import solved_by_the_page

    assert solved_by_the_page(SLUG) == {}


@pytest.mark.parametrize("pos", [1, 2, 3, 4, 5])
def test_the_mask_task_is_solved_exactly_where_the_mask_changes_nothing(pos):
    masked, unmasked = run(pos=pos, mask=True), run(pos=pos, mask=False)
    same = masked["result"]["weights"] == pytest.approx(unmasked["result"]["weights"], abs=TOL)
    for out in (masked, unmasked):
        assert ("mask" in out["lesson"]["solved"]) == same
    assert same == (pos == 5)
    three = run(keys=att._flat(att.KEYS_ALL[:3]), pos=pos)  # three tokens: the third is the last
    assert ("mask" in three["lesson"]["solved"]) == (min(pos, 3) == 3)


def test_a_tie_is_solved_however_it_is_reached_and_never_by_a_zero_query():
    """Equal scores give equal weights: by a key, by the query (perpendicular to two keys' difference) or by
    typed keys; q = (0; 0), which the prose shows, does not count."""
    by_key = run(keys="-1; 0,5; 2,5; -0,5; 2; 0,5; 1; -1; -1; -1,5")
    by_query = run(query="2,5; 2")  # q·(k_Katze − k_jagt) = 2,5·2 + 2·(−2,5) = 0
    for out in (by_key, by_query):
        r = out["result"]
        assert "equal" in out["lesson"]["solved"]
        assert r["weights"][1] == r["weights"][2]
    assert "equal" not in run(query="0; 0")["lesson"]["solved"]
    assert "equal" not in run()["lesson"]["solved"]


def test_the_key_task_takes_any_query_and_asking_token_once_die_wins():
    """After the other tasks the query or the asking token may have moved: „Die“ winning with its own
    dragged key counts everywhere two or more tokens are seen."""
    key = "3; 1,5; 2,5; -0,5; 0,5; 2; 1; -1; -1; -1,5"
    for raw in ({}, {"query": "4; 1"}, {"pos": 2}, {"pos": 5, "mask": False}):
        assert "key" in run(keys=key, **raw)["lesson"]["solved"], raw
    assert "key" not in run(keys=key, pos=1)["lesson"]["solved"]  # alone under the mask it wins anyway
    assert "key" not in run(query="-2; 1")["lesson"]["solved"]  # „Die“ wins by the query, its key unmoved


def _values_texts(figure: str) -> dict:
    from figure_text import font_sizes, text_boxes

    boxes = text_boxes(figure, font_sizes("pl-att"))
    return {text: box for text, box, cls in boxes if cls.startswith("pl-label") and text != "q"}


def _output_label_clear(raw, layout="wide"):
    from figure_text import gap

    figure = api.run(SLUG, raw, layout=layout)["figure"]
    panel = ET.fromstring(figure)
    ns = "{http://www.w3.org/2000/svg}"
    values = next(g for g in panel.iter(ns + "g") if g.get("data-box") and any(
        t.text == "Ausgabe" for t in g.iter(ns + "text")))
    texts = _values_texts(ET.tostring(values, encoding="unicode"))
    out = texts.pop("Ausgabe")
    return min(gap(out, box) for box in texts.values())


@pytest.mark.parametrize("label", [p.label for p in att.PRESETS])
def test_the_output_label_overlaps_no_value_word_in_any_preset(label):
    for layout in ("wide", "narrow"):
        assert _output_label_clear(api.preset_values(SLUG, label), layout) >= 0


def test_the_output_label_leaves_jagt_readable_where_it_stood_on_it():
    # the output below „jagt“'s word: the label stood 22 px below the output and ran through it
    assert _output_label_clear({"vals": "-2; 1; 2; 2; 1; -2; -1; -1; 0; 2,5", "query": "0,4; -2"}) >= 0
    assert _output_label_clear({"vals": "-2; 1; 2; 2; 0; -1,2; -1; -1; 0; 2,5", "query": "0,3; -1,5", "pos": 3}) >= 0


@given(st.lists(pair, min_size=5, max_size=5), pair, st.integers(1, 5))
@settings(max_examples=30, deadline=None)
def test_the_output_label_keeps_clear_of_every_value_word(vals, q, pos):
    """Wherever the reader drags the values, the query and the asking token, „Ausgabe“ stands on no word."""
    raw = {"vals": [x for p in vals for x in p], "query": list(q), "pos": pos}
    assert _output_label_clear(raw) >= 0


def test_every_token_asks_with_the_same_query_as_the_limits_say():
    """„Fragendes Token verschiebt nur die Maske“: without the mask every asking token gets the same weights."""
    weights = [run(pos=pos, mask=False)["result"]["weights"] for pos in range(1, 6)]
    assert all(w == weights[0] for w in weights)


def test_the_page_reads_the_embeddings_page_first():
    """It uses the dot product, which the embeddings page explains."""
    from probierlabor.concepts import graph

    assert "embeddings" in graph.READ_FIRST[SLUG]


def test_one_head_of_the_trained_model_looks_at_the_token_before_and_most_spread_wider():
    """The prose names Schicht 2, Kopf 8 (counted from 1, as the heatmap counts): on the block's own sentence
    it gives the token before more than half of its weight (rows with five or more tokens to look at); every
    other head gives it under 0,45, and most give even their largest weight less than that head does."""
    import numpy as np
    from probierlabor.realmodel import heads, models

    from engine.attention import attention_maps

    model, tokenizer = models.load("target")
    maps = attention_maps(model, tokenizer.encode(heads.DEFAULT_SENTENCE))
    rows = np.arange(4, maps.shape[2])
    before = maps[:, :, rows, rows - 1].mean(axis=-1)
    largest = np.array([[np.mean([maps[l, h, i, :i + 1].max() for i in rows]) for h in range(maps.shape[1])]
                        for l in range(maps.shape[0])])
    assert np.unravel_index(before.argmax(), before.shape) == (1, 7) and before[1, 7] > 0.5
    others = np.ones(before.shape, bool)
    others[1, 7] = False
    assert (largest[others] < largest[1, 7]).sum() >= 24 and before[others].max() < 0.45


def test_equal_best_scores_name_every_tied_token_and_no_single_winner():
    summary = run(keys="−1; 0,5; 2,5; −0,5; 2,5; −0,5; 1; −1; −1; −1,5")["summary"]
    assert "Am besten passen die Keys von „Katze“ und „jagt“, gleich gut" in summary
    assert "Am besten passt" not in summary


def test_a_typed_query_is_written_as_typed_and_a_longer_one_with_approx():
    assert "fragt mit q = (0,1; 0,3333)." in run(query="0,1; 0,3333")["summary"]
    assert "fragt mit q = (≈ 1,23; 0)." in run(query="1,23456; 0")["summary"]


def test_the_head_size_of_the_sites_model_is_not_left_out_of_the_real_ones():
    text = (Path(__file__).resolve().parents[2] / "pages/attention.md").read_text(encoding="utf-8")
    assert 'das Modell\ndieser Website {{ model_fact("head_dim") }}' in text and "Echte Modelle nehmen" not in text


def test_a_tie_for_the_most_weight_mixes_the_values_and_moves_to_no_single_one():
    """Two tied keys far ahead of the third: each weight is 0,5 in floats, and the output lies half way."""
    out = run(query="4; 4", keys="4; 4; 4; 4; −4; −4", pos=3)
    assert out["result"]["weights"][:2] == [0.5, 0.5]
    assert "mischt ihre Values" in out["summary"] and "seinem Value" not in out["summary"]


def test_the_table_caption_says_how_the_weights_are_rounded():
    assert "Gewichte auf zwei Stellen gerundet" in run()["extra"] and "irrational" not in run()["extra"]
    assert "Gewichte exakt" in run(pos=1)["extra"]


def test_the_values_help_says_what_happens_to_too_few_values():
    """Fewer than three pairs are refused as a whole; three or more fill the missing tokens from the page."""
    help_text = api.params_of(SLUG)["vals"].help
    assert "mindestens 3 Paare" in help_text
    assert "mindestens 6 Werte" in " ".join(run(vals="1; 2; 3; 4")["notes"])
    assert "2 Paare fehlten" in run(vals="1; 2; 3; 4; 0; 0")["summary"]


def test_no_vector_a_hint_names_solves_a_task_as_the_query():
    """A hint points the way; a query it names, typed in, leaves the tasks open."""
    for task in att.LESSON.tasks:
        for hint in task.hints:
            for x, y in re.findall(r"\((−?[\d,]+); (−?[\d,]+)\)", hint):
                query = f"{x}; {y}"
                assert run(query=query)["lesson"]["solved"] == [], (task.key, hint)
