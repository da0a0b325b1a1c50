"""PagedAttention: every figure of CONCEPTS.md §14, and the block table as the only way to the data."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import paged_attention as pa
from probierlabor.kit import api


def test_a_block_holds_four_positions_by_default():
    assert api.run("paged-attention")["params"]["block_size"] == 4


def test_five_positions_need_two_blocks_eight_slots():
    r = pa.compute(n=5)
    assert r["blocks"] == 2 and r["slots"] == 8
    assert r["used_last"] == 1 and r["free_slots"] == 3  # block 1 full, block 2: 1 used, 3 free


def test_four_positions_fit_one_block_and_the_fifth_opens_a_second():
    assert pa.compute(n=4)["blocks"] == 1 and pa.compute(n=4)["free_slots"] == 0
    assert pa.compute(n=5)["blocks"] == 2


def test_the_articles_mapping_is_4_and_1():
    assert pa.compute(n=5)["table"] == [4, 1]


@pytest.mark.parametrize("layout", list(pa.LAYOUTS))
def test_the_output_for_five_positions_is_3_in_every_layout(layout):
    assert pa.attend(5, 4, layout) == 3


def test_outputs_for_1_to_9_positions():
    expected = [1, Fraction(3, 2), 2, Fraction(5, 2), 3, Fraction(7, 2), 4, Fraction(9, 2), 5]
    assert [pa.attend(n, 4, "artikel") for n in range(1, 10)] == expected


def test_blocks_and_free_slots_for_1_to_9_positions():
    expected = [(1, 3), (1, 2), (1, 1), (1, 0), (2, 3), (2, 2), (2, 1), (2, 0), (3, 3)]
    assert [(pa.compute(n=n)["blocks"], pa.compute(n=n)["free_slots"]) for n in range(1, 10)] == expected


def test_a_new_block_leaves_the_prefix_where_it_was():
    before, after = pa.compute(n=4), pa.compute(n=5)
    for b in before["table"]:
        assert before["pool"][b] == after["pool"][b]


def test_re_layout_moves_the_data_but_not_the_result():
    a, b = pa.compute(n=5, layout="artikel"), pa.compute(n=5, layout="andere")
    assert a["table"] != b["table"] and a["pool"] != b["pool"]
    assert a["output_exact"] == b["output_exact"] == "3"


positions = st.integers(1, pa.MAX_POSITIONS)
layouts = st.sampled_from(list(pa.LAYOUTS))
sizes = st.sampled_from([2, 4, 8])


@given(positions, layouts, sizes)
def test_the_table_finds_every_value_and_nothing_else(n, layout, size):
    pool = pa.pool_contents(n, size, layout)
    table = pa.block_table(n, size, layout)
    assert len(set(table)) == len(table)  # no physical block used twice
    assert [pool[table[p // size]][p % size] for p in range(n)] == list(range(1, n + 1))
    stored = sorted(v for block in pool for v in block if v is not None)
    assert stored == list(range(1, n + 1))
    assert pa.attend(n, size, layout) == Fraction(n + 1, 2)


@given(positions, sizes)
def test_empty_slots_are_less_than_a_block(n, size):
    r = pa.compute(n=n, block_size=size)
    assert 0 <= r["free_slots"] < size
    assert r["free_slots"] == size * -(-n // size) - n


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(["n", "layout", "block_size"]),
                       st.one_of(st.integers(-5, 40), st.text(max_size=4), st.sampled_from(list(pa.LAYOUTS)),
                                 st.sampled_from([2, 4, 8]))))
def test_any_input_runs_and_draws_valid_svg(raw):
    out = api.run("paged-attention", raw)
    ET.fromstring(out["figure"])
    assert out["result"]["output"] == (out["result"]["n"] + 1) / 2


def test_readouts_are_german():
    values = {r["key"]: r["value"] for r in api.run("paged-attention", {"n": 6})["readouts"]}
    assert values["output"] == "3,5" and values["blocks"] == "2 (8 Plätze)" and values["free_slots"] == "2"


def test_lesson_most_waste_is_not_solved_one_position_later():
    # ten positions in blocks of 8: two places in the last block, six empty, not the worst case
    near = api.run("paged-attention", {"block_size": 8, "n": 10})
    assert near["result"]["free_slots"] == 6
    assert "most_waste" not in near["lesson"]["solved"]
    assert "most_waste" in api.run("paged-attention", {"block_size": 8, "n": 9})["lesson"]["solved"]


def test_workshop_script_reads_the_pool_through_the_table():
    """The numpy script (workshop/paged_attention.py) at the default, two presets and a small block size:
    same table, same waste, same output."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(pa.SLUG, "Vier Positionen"), api.preset_values(pa.SLUG, "Anordnung ändern"),
              {"n": 11, "block_size": 2, "layout": "zusammen"}]
    for state, out in zip(states, run_states(pa.SLUG, states)):
        result = api.run(pa.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert number(text, "Blöcke") == result["blocks"]
        assert f"Blocktabelle: {', '.join(map(str, result['table']))}\n" in text
        assert number(text, "Freie Plätze im letzten Block") == result["free_slots"]
        assert number(text, "Verschnitt") == pytest.approx(result["waste_share"], abs=1e-6)
        assert number(text, "Ausgabe") == pytest.approx(result["output"], abs=1e-6)


def test_the_key_sentence_reads_the_waste_and_the_layout():
    """Under the memory: blocks and table, the empty slots of the last block (none when it is full) against
    reserving all 16 positions, and the same result in either layout with the layout's own table."""
    five = api.run("paged-attention")["summary"]
    assert "5 Positionen brauchen 2 Blöcke zu 4 (Tabelle 0→4, 1→1). Im letzten bleiben 3 Plätze leer" in five
    assert "Reservierung für 16 Positionen ließe 11 leer" in five and "Das Ergebnis ist 3." in five
    # that the layout does not change it answers the lesson's guess: a sentence of its own, held back until the guess
    assert "in jeder Anordnung gleich" in api.run("paged-attention")["answer"] and "Anordnung" not in five
    four = api.run("paged-attention", api.preset_values("paged-attention", "Vier Positionen"))["summary"]
    assert "1 Block zu 4" in four and "genau voll, kein Platz bleibt leer" in four and "ließe 12 leer" in four
    other = api.run("paged-attention", api.preset_values("paged-attention", "Anordnung ändern"))["summary"]
    assert "(Tabelle 0→2, 1→7)" in other and "Das Ergebnis ist 3" in other
    full = api.run("paged-attention", {"n": 16})["summary"]
    assert "Reservierung" not in full  # reserving the maximum wastes nothing at the maximum
