"""Experience replay: the batch counts of CONCEPTS.md §7 and the random portion's exact chances."""

import json
import textwrap
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import experience_replay as er
from probierlabor.kit import api

SLUG = "experience-replay"


@pytest.mark.parametrize("replay, swap, size, counts, covered", [
    (False, False, 4, {"Reklamationen": 4, "Lieferung": 0, "Rücksendungen": 0}, 0),
    (True, False, 8, {"Reklamationen": 4, "Lieferung": 4, "Rücksendungen": 0}, 1),
    (True, True, 8, {"Reklamationen": 4, "Lieferung": 2, "Rücksendungen": 2}, 2),
])
def test_the_three_states_of_the_checklist(replay, swap, size, counts, covered):
    r = er.compute(replay=replay, swap=swap)
    assert r["size"] == size and r["counts"] == counts and r["old_covered"] == covered


def test_the_replayed_share_is_4_of_8_with_and_without_the_swap():
    for swap in (False, True):
        r = er.compute(replay=True, swap=swap)
        assert r["share_exact"] == "4/8" and Fraction(r["replayed"], r["size"]) == Fraction(1, 2)
        assert r["share_pct"] == 50.0
    assert er.compute()["share"] == 0.0


def test_the_buffer_keeps_four_places_and_the_articles_messages():
    plain, swapped = er.buffer(False), er.buffer(True)
    assert len(plain) == len(swapped) == 4
    assert ("Wo ist mein Paket?", "Lieferung") in plain and ("Wo ist mein Paket?", "Lieferung") in swapped
    assert {t for t, d in swapped if d == "Rücksendungen"} == {
        "Wie schicke ich meinen Einkauf zurück?", "Ich möchte ein T-Shirt zurückgeben"}
    assert all(d == "Lieferung" for _, d in plain)


def test_exact_chance_that_a_random_portion_covers_both_old_departments():
    assert er.chance_all_old(True, 4) == 1
    assert er.chance_all_old(True, 2) == Fraction(4, 6) == Fraction(2, 3)
    assert er.chance_all_old(True, 1) == 0
    for take in (1, 2, 4):
        assert er.chance_all_old(False, take) == 0


def test_drawing_two_from_the_swapped_buffer_covers_both_in_about_two_thirds_of_the_draws():
    hits = sum(er.compute(True, True, 2, seed)["old_covered"] == 2 for seed in range(3000))
    assert abs(hits / 3000 - 2 / 3) < 0.03


def test_a_random_portion_is_a_part_of_the_buffer():
    for seed in range(50):
        for take in (1, 2):
            r = er.compute(True, True, take, seed)
            replayed = [(c["text"], c["department"]) for c in r["portion"] if c["replayed"]]
            assert len(replayed) == take == len(set(replayed))
            assert set(replayed) <= set(er.buffer(True))
            assert r["share_exact"] == f"{take}/{4 + take}"


def test_without_replay_the_draw_and_the_seed_change_nothing():
    base = er.compute()
    for take in (1, 2, 4):
        for seed in (0, 1, 99):
            other = er.compute(False, True, take, seed)
            assert other["portion"] == base["portion"] and other["chance_all_old"] == 0


def test_readouts_and_summary_in_german():
    view = er.view(er.compute(True, True))
    values = {r.key: r.value for r in view.readouts}
    assert values["share"] == "4/8 = 50\u202f%"
    assert values["old_covered"] == "2 von 2"
    assert values["composition"] == "Reklamationen: 4 · Lieferung: 2 · Rücksendungen: 2"
    view2 = er.view(er.compute(True, True, 2))
    assert {r.key: r.value for r in view2.readouts}["chance_all_old"] == "2/3 ≈ 66,7\u202f%"


def test_every_card_of_the_portion_is_drawn():
    r = er.compute(True, True)
    root = ET.fromstring(er.view(r).figure)
    cards = [g for g in root.iter() if (g.get("class") or "").startswith("pl-er-card")]
    assert len(cards) == 8
    assert sum("pl-er-return" in g.get("class") for g in cards) == 2


def test_every_message_fits_its_card_in_two_lines():
    texts = er.NEW_MESSAGES + tuple(t for t, _ in er.STORED + er.SWAPPED_IN)
    for text in texts:
        lines = textwrap.wrap(text, er.CARD_CHARS)
        assert len(lines) <= 2 and " ".join(lines) == text
        assert all(len(line) <= er.CARD_CHARS for line in lines)


@settings(max_examples=40, deadline=None)
@given(st.booleans(), st.booleans(), st.sampled_from([4, 2, 1]), st.integers(0, 2**31 - 1))
def test_any_setting_gives_valid_results_and_figures(replay, swap, take, seed):
    out = api.run(SLUG, {"replay": replay, "swap": swap, "take": take, "seed": seed})
    assert out["notes"] == []
    json.dumps(out, allow_nan=False)
    r = out["result"]
    assert r["size"] == 4 + r["replayed"] and sum(r["counts"].values()) == r["size"]
    assert 0 <= r["chance_all_old"] <= 1 and r["old_covered"] in (0, 1, 2)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert [x["key"] for x in out["readouts"]] == ["size", "share", "old_covered", "composition", "chance_all_old"]


def test_the_same_replayed_share_without_the_swap_or_a_random_half_does_not_cover_both_for_sure():
    def solved(**raw):
        return "cover_both" in api.run(SLUG, raw)["lesson"]["solved"]
    assert solved(replay=True, swap=True)
    assert not solved(replay=True)  # 4/8 replayed, but only Lieferung
    assert not solved(replay=True, swap=True, take=2)  # both are in this draw, but only with chance 2/3


def test_workshop_script_recounts_the_portion():
    """The numpy script (workshop/experience_replay.py): same portion, same counts per department,
    same exact chance, also where a random part of the buffer is drawn."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(SLUG, "Mit Tausch"), api.preset_values(SLUG, "Zufällig 2 aus dem Puffer"),
              {"replay": True, "swap": True, "take": 1, "seed": 3}]
    for state, out in zip(states, run_states(SLUG, states)):
        result = api.run(SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Portion") == result["size"]
        assert number(out["stdout"], "Wiederholt") == result["replayed"]
        assert number(out["stdout"], "Anteil wiederholt") == pytest.approx(result["share"], abs=1e-4)
        for department, count in result["counts"].items():
            assert number(out["stdout"], department) == count
        assert number(out["stdout"], "Wahrscheinlichkeit für beide alten Abteilungen") == pytest.approx(
            result["chance_all_old"], abs=1e-4)


def test_the_key_sentence_says_whether_both_old_departments_are_practised_not_only_how_many_places():
    def summary(**raw):
        return api.run("experience-replay", raw)["summary"]
    assert "Für Lieferfragen und Rücksendungen übt das Modell kein einziges Mal" in summary()
    whole = summary(replay=True)
    assert whole.startswith("Mit Wiederholungen (der ganze Puffer) hat die Portion 8 Nachrichten "
                            "(Reklamationen: 4 · Lieferung: 4), 4/8 davon aus dem Puffer.")
    assert whole.endswith("Für Rücksendungen übt das Modell trotzdem kein einziges Mal: Der Puffer enthält keine.")
    swapped = summary(replay=True, swap=True)
    assert swapped.endswith("Beide alten Abteilungen sind vertreten.") and "kein einziges Mal" not in swapped
    one = summary(replay=True, swap=True, take=1)
    assert "trotzdem kein einziges Mal." in one and "Bei dieser Auswahl können nie beide dabei sein." in one
    two = api.run("experience-replay", {"replay": True, "swap": True, "take": 2})
    both = two["result"]["old_covered"] == 2
    assert ("das gelingt aber nur in 2/3 ≈ 66,7\u202f% der zufälligen Portionen" in two["summary"]) == both
