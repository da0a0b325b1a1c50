"""Sequence packing: every figure of CONCEPTS.md §9 (with the documented lengths 3, 2, 2), the TRL
rules for bfd and wrapped, and invariants of the masks over the whole parameter space."""

import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.concepts import sequence_packing as sp
from probierlabor.kit import api

ALL = list(itertools.product([v for v, _ in sp.VARIANTS], [True, False], [s for s, _ in sp.STRATEGIES],
                             [True, False], [True, False]))


def run(**params):
    return sp.compute(**params)


# -- the checklist -------------------------------------------------------------

def test_three_examples_fill_seven_of_eight_slots_in_one_row():
    r = run()
    assert r["rows"] == [["A1", "A2", "■A", "B1", "■B", "C1", "■C", None]]
    assert (r["n_rows"], r["slots"], r["used"], r["padding"]) == (1, 8, 7, 1)


def test_without_packing_the_rows_are_padded_to_the_longest_example():
    r = run(packing=False)
    assert r["rows"] == [["A1", "A2", "■A"], ["B1", "■B", None], ["C1", "■C", None]]
    assert (r["slots"], r["padding"]) == (9, 2)
    assert (run()["other_slots"], run()["other_padding"]) == (9, 2)


def test_full_rows_save_nothing():
    packed, unpacked = run(variant="voll"), run(variant="voll", packing=False)
    assert packed["slots"] == unpacked["slots"] == 24
    assert packed["padding"] == unpacked["padding"] == 0
    assert packed["rows"] == unpacked["rows"]


def test_without_separation_b1_reads_a_and_the_causal_mask_allows_28_links():
    r = run(separation=False)
    assert r["links"] == 28 == 7 * 8 // 2
    assert r["b1_reads"] == ["A1", "A2", "■A", "B1"]
    assert r["cross_links"] == 16


def test_with_separation_the_links_are_block_diagonal():
    r = run()
    assert r["links"] == 12 == 6 + 3 + 3
    assert r["b1_reads"] == ["B1"]
    assert r["cross_links"] == 0
    assert r["blocked_by_separation"] == 16


def test_separation_gives_exactly_the_links_of_separate_rows():
    assert run()["grid"]["cells"] != run(packing=False)["grid"]["cells"]  # different rows, …
    assert run()["links"] == run(packing=False)["links"]  # … the same number of links
    for q, row in enumerate(run()["grid"]["cells"]):
        allowed = [k for k, v in enumerate(row) if v == 1]
        unpacked = [k for k, v in enumerate(run(packing=False)["grid"]["cells"][q]) if v == 1]
        assert allowed == unpacked


def test_example_starts_are_left_out_of_the_loss():
    r = run()
    assert r["excluded"] == ["B1", "C1"]
    assert r["scored"] == ["A2", "■A", "■B", "■C"]
    assert r["leak_targets"] == []


def test_without_the_start_mask_b1_is_learned_from_the_end_of_a():
    r = run(start_loss=False)
    assert r["scored"] == ["A2", "■A", "B1", "■B", "C1", "■C"]
    assert r["leak_targets"] == ["B1", "C1"]
    assert r["excluded"] == []


def test_the_two_masks_are_independent():
    # the loss mask does not block reading, the separation does not change the loss
    assert run(separation=False)["scored"] == run()["scored"]
    assert run(start_loss=False)["links"] == run()["links"]
    assert run(separation=False)["b1_reads"] == ["A1", "A2", "■A", "B1"]
    assert run(separation=False, start_loss=True)["leak_targets"] == []


# -- bfd and wrapped on a too-long example ---------------------------------------

def test_bfd_cuts_the_overflow_and_fits_whole_examples():
    r = run(variant="lang", strategy="bfd")
    assert r["rows"] == [["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"],
                         ["A1", "A2", "■A", "B1", "■B", "C1", "■C", None]]
    assert r["lost"] == ["D9", "■D"] and r["split"] == []
    assert (r["slots"], r["padding"]) == (16, 1)
    assert r["b1_reads"] == ["B1"] and r["bounded"]


def test_wrapped_keeps_every_token_but_splits_mid_text_and_forgets_the_boundaries():
    r = run(variant="lang", strategy="wrapped")
    assert r["rows"][0] == ["A1", "A2", "■A", "B1", "■B", "C1", "■C", "D1"]
    assert r["rows"][1] == ["D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"]
    assert r["rows"][2][0] == "■D"
    assert r["lost"] == [] and r["split_rows"] == {"D": 3}
    assert (r["slots"], r["padding"]) == (24, 7)
    assert not r["bounded"]
    # no lengths are kept: neither mask can act on a boundary it does not know
    assert r["b1_reads"] == ["A1", "A2", "■A", "B1"]
    assert r["leak_targets"] == ["B1", "C1", "D1"]
    assert run(variant="lang", strategy="wrapped", separation=False, start_loss=False)["grid"] == r["grid"]


def test_without_packing_the_long_example_is_truncated_too():
    r = run(variant="lang", packing=False)
    assert (r["slots"], r["padding"], r["lost"]) == (32, 17, ["D9", "■D"])


@pytest.mark.parametrize("lengths, bins", [
    ([3, 2, 2], [[0, 1, 2]]),
    ([8, 3, 2, 2], [[0], [1, 2, 3]]),
    ([5, 4, 3, 3], [[0, 2], [1, 3]]),  # 5+3 fills a row, 4 takes the other 3 (best fit, not first)
    ([6, 5, 2, 2, 1], [[0, 2], [1, 3, 4]]),
])
def test_best_fit_decreasing(lengths, bins):
    assert sp.best_fit_decreasing(lengths) == bins


# -- invariants over every combination -------------------------------------------

@pytest.mark.parametrize("variant, packing, strategy, separation, start_loss", ALL)
def test_invariants(variant, packing, strategy, separation, start_loss):
    r = run(variant=variant, packing=packing, strategy=strategy, separation=separation, start_loss=start_loss)
    total = sum(length for _, _, length in sp.EXAMPLES[variant])
    assert r["used"] + r["lost_count"] == total
    assert r["slots"] == r["n_rows"] * r["width"] and r["padding"] == r["slots"] - r["used"]
    cells = r["grid"]["cells"]
    n = r["tokens"]
    assert n == r["used"] and len(cells) == n
    for q in range(n):
        assert cells[q][q] == 1  # every token reads itself
        for k in range(q + 1, n):
            assert cells[q][k] == 0  # never the future
    # links never exceed the causal triangle of each row, and separation never adds a link
    assert r["links"] <= sum(sum(1 for t in row if t) * (sum(1 for t in row if t) + 1) // 2 for row in r["rows"])
    assert r["links"] <= run(variant=variant, packing=packing, strategy=strategy, separation=False)["links"]
    # a scored target never starts a row, an excluded one never sits after padding
    for row, marks in zip(r["rows"], r["loss"]):
        assert marks[0] is None
        for c, m in enumerate(marks):
            if m is not None:
                assert row[c] is not None and row[c - 1] is not None
    if not packing:
        assert r["cross_links"] == 0 and r["leak_targets"] == [] and r["b1_reads"] == ["B1"]


@given(st.fixed_dictionaries({
    "variant": st.sampled_from(["kurz", "voll", "lang", "quatsch", 3]),
    "packing": st.sampled_from([True, False, "1", "0", "ja", "x"]),
    "strategy": st.sampled_from(["bfd", "wrapped", "", "BFD"]),
    "separation": st.booleans(),
    "start_loss": st.sampled_from([True, False, "an", "aus"]),
}))
def test_api_run_never_fails(raw):
    out = api.run("sequence-packing", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert out["summary"] and len(out["readouts"]) == 7
    assert all(r["value"] for r in out["readouts"])


def test_readouts_in_german():
    values = {r.key: r.value for r in sp.view(run(separation=False)).readouts}
    assert values["slots"] == "8 (1 Zeile × 8)"
    assert values["padding"] == "1"
    assert values["compare"] == "ohne Packing: 9 Plätze, 2 leer"
    assert values["links"] == "28, davon 16 über Grenzen"
    assert values["b1_reads"] == "A1, A2, ■A, B1"
    values = {r.key: r.value for r in sp.view(run(variant="lang")).readouts}
    assert values["whole"] == "2 Tokens abgeschnitten (D9, ■D)"
    values = {r.key: r.value for r in sp.view(run(variant="lang", strategy="wrapped")).readouts}
    assert values["whole"] == "D auf 3 Zeilen geteilt"


def test_presets_show_what_they_promise():
    assert api.run("sequence-packing", api.preset_values("sequence-packing", "Ohne Trennung"))["result"]["b1_reads"] \
        == ["A1", "A2", "■A", "B1"]
    assert api.run("sequence-packing", api.preset_values("sequence-packing", "Ohne Anfangs-Maske"))["result"][
        "leak_targets"] == ["B1", "C1"]


def test_packing_that_saves_some_slots_does_not_solve_no_gain():
    def solved(**raw):
        return "no_gain" in api.run("sequence-packing", raw)["lesson"]["solved"]
    assert solved(variant="voll")
    assert not solved(variant="kurz", packing=False)  # 9 slots against 8 packed: one saved
    assert not solved(variant="lang", strategy="wrapped")  # 24 against 32


def test_workshop_script_recounts_rows_links_and_scored_tokens():
    """The numpy script (workshop/sequence_packing.py) packs with its own masks: the same rows and counts as
    the module, packed and unpacked, without separation or start mask, and for the too-long example."""
    from workshop_check import number, run_states

    states = [{}, {"packing": False}, {"separation": False, "start_loss": False},
              api.preset_values(sp.SLUG, "Zu lang: bfd"), api.preset_values(sp.SLUG, "Zu lang: wrapped")]
    for state, out in zip(states, run_states(sp.SLUG, states)):
        result = api.run(sp.SLUG, state)["result"]
        assert out["figures"] == 1
        layout = " | ".join("".join(ex or "·" for ex in row) for row in result["row_examples"])
        assert f"Zeilen: {result['n_rows']} – {layout}\n" in out["stdout"]
        for label, key in (("Zeilen", "n_rows"), ("Plätze", "slots"), ("Leere Plätze", "padding"),
                           ("Verlorene Tokens", "lost_count"), ("Erlaubte Zugriffe", "links"),
                           ("Zugriffe über Grenzen", "cross_links"),
                           ("Durch Trennung gesperrt", "blocked_by_separation"),
                           ("Bewertete Tokens", "scored_count"), ("Über Grenzen gelernt", "leak_count")):
            assert number(out["stdout"], label) == result[key], label


def test_choosing_the_long_example_alone_solves_no_task():
    # the long example loses text by itself, so no task may be solved by choosing it alone
    assert api.run("sequence-packing", {"variant": "lang"})["lesson"]["solved"] == []
    out = api.run("sequence-packing", {"variant": "lang", "strategy": "wrapped"})
    assert out["result"]["lost_count"] == 0 and "nothing_lost" in out["lesson"]["solved"]
    assert "nothing_lost" not in api.run("sequence-packing", {"strategy": "wrapped"})["lesson"]["solved"]


def test_the_key_sentence_checks_reading_and_scoring_apart_and_says_what_packing_saves():
    def summary(**raw):
        return api.run("sequence-packing", raw)["summary"]
    packed = summary()
    assert packed.startswith("Drei kurze Beispiele mit Packing (bfd): 8 Plätze, 1 davon leer, ohne Packing 9 mit "
                             "2 leeren – Packing spart 1 Platz.")
    assert "B1 liest nur sich selbst; keine der 12 erlaubten Verbindungen" in packed
    assert packed.endswith("4 Vorhersagen zählen im Verlust, keine über eine Grenze.")
    open_ = summary(separation=False)
    assert "B1 liest auch A1, A2, ■A aus einem anderen Beispiel: 16 der 28 erlaubten Verbindungen" in open_
    assert open_.endswith("keine über eine Grenze.")  # reading and scoring are separate switches
    scored = summary(start_loss=False)
    assert "B1 liest nur sich selbst" in scored and "6 Vorhersagen zählen im Verlust, 2 davon über eine Grenze (B1, C1)" in scored
    assert "Packing spart hier keinen Platz" in summary(variant="voll")
    assert "Packing würde 1 Platz sparen" in summary(packing=False)
