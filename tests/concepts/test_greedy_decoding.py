"""Greedy decoding on the two-step tree: the figures of CONCEPTS.md §22, the tie rule, invariants."""

import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import told_states
from probierlabor.concepts import greedy_decoding as g
from probierlabor.kit import api

F = Fraction


def article():
    return g.distributions(0.6, 0.51, 0.99)


def test_greedy_takes_a_then_a_and_reaches_0_306():
    path, prob, ties = g.greedy(article())
    assert path == "AA" and prob == F("0.306") and ties == [False, False]


def test_the_path_through_b_has_0_396_and_is_the_best():
    paths = g.path_probs(article())
    assert paths["BA"] == F("0.396")
    assert g.best_path(paths) == "BA"
    assert paths["BA"] - paths["AA"] == F("0.09")


def test_catalogue_completion_of_all_paths_sums_to_one():
    paths = g.path_probs(article())
    assert paths == {"AA": F("0.306"), "AB": F("0.294"), "BA": F("0.396"), "BB": F("0.004")}
    assert sum(paths.values()) == 1


def test_compute_reports_the_article_numbers():
    r = g.compute()
    assert (r["greedy_path"], r["greedy_prob"], r["best_path"], r["best_prob"]) == ("AA", 0.306, "BA", 0.396)
    assert r["greedy_prob_exact"] == "153/500" and r["best_prob_exact"] == "99/250"
    assert r["step1"] == {"A": 0.6, "B": 0.4} and r["after_A"]["A"] == 0.51 and r["after_B"]["A"] == 0.99
    assert not r["greedy_is_best"]


def test_a_tie_goes_to_the_first_token():
    dists = g.distributions(0.5, 0.5, 0.3)
    assert g.argmax_first(dists[""]) == "A"
    path, prob, ties = g.greedy(dists)
    assert path == "AA" and prob == F(1, 4) and ties == [True, True]
    # the best path also breaks ties by order: AA and AB are equal here, BB is larger
    assert g.best_path(g.path_probs(g.distributions(0.5, 0.5, 0.5))) == "AA"


def test_greedy_is_right_when_the_hidden_branch_is_weak():
    r = api.run("greedy-decoding", api.preset_values("greedy-decoding", "Greedy liegt richtig"))["result"]
    assert r["greedy_is_best"] and r["best_path"] == "AA" and r["paths"]["BA"] == 0.28


def test_greedy_picks_b_when_b_leads():
    path, prob, _ = g.greedy(g.distributions(0.3, 0.9, 0.2))
    assert path == "BB" and prob == F("0.7") * F("0.8")


def test_the_hidden_branch_is_not_revealed_until_asked():
    hidden = api.run("greedy-decoding", {})
    shown = api.run("greedy-decoding", {"show_all": True})
    assert "0,396" not in hidden["figure"] and "0,396" in shown["figure"]
    assert "nie erfragt" in hidden["figure"]
    assert {r["key"] for r in hidden["readouts"]} == {"greedy_path", "greedy_prob", "asked"}
    values = {r["key"]: r["value"] for r in shown["readouts"]}
    assert values == {"greedy_path": "A, dann A", "greedy_prob": "0,306", "best": "B, dann A: 0,396", "gap": "0,09"}


def test_step_by_step():
    assert api.run("greedy-decoding", {"steps": 0})["readouts"][0]["value"] == "– noch nichts"
    assert api.run("greedy-decoding", {"steps": 1})["readouts"][0]["value"] == "A, dann …"


def brute_force_greedy(a, aa, ba):
    """Independent re-implementation: enumerate, pick max with first-in-order ties."""
    first = {"A": a, "B": 1 - a}
    after = {"A": {"A": aa, "B": 1 - aa}, "B": {"A": ba, "B": 1 - ba}}
    t1 = max("AB", key=lambda t: (first[t], t == "A"))
    t2 = max("AB", key=lambda t: (after[t1][t], t == "A"))
    return t1 + t2, first[t1] * after[t1][t2]


hundredths = st.integers(0, 100).map(lambda i: F(i, 100))


@given(hundredths, hundredths, hundredths)
def test_greedy_matches_a_brute_force_and_never_beats_the_best(a, aa, ba):
    dists = g.distributions(a, aa, ba)
    path, prob, _ = g.greedy(dists)
    assert (path, prob) == brute_force_greedy(a, aa, ba)
    paths = g.path_probs(dists)
    assert sum(paths.values()) == 1 and all(p >= 0 for p in paths.values())
    assert paths[g.best_path(paths)] == max(paths.values()) >= prob


@settings(max_examples=80, deadline=None)
@given(st.floats(-0.5, 1.5, allow_nan=False), st.floats(0, 1), st.floats(0, 1), st.sampled_from([0, 1, 2]),
       st.booleans())
def test_any_setting_runs_and_draws_valid_svg(a, aa, ba, steps, show_all):
    out = api.run("greedy-decoding", {"p_a": a, "p_aa": aa, "p_ba": ba, "steps": steps, "show_all": show_all})
    json.dumps(out, allow_nan=False)  # valid JSON: no NaN or infinity
    ET.fromstring(out["figure"])
    r = out["result"]
    assert abs(r["path_sum"] - 1) < 1e-12 and 0 <= r["greedy_prob"] <= r["best_prob"] <= 1


def test_every_preset_and_corner_runs():
    for a, aa, ba in product([0, 0.5, 1], repeat=3):
        ET.fromstring(api.run("greedy-decoding", {"p_a": a, "p_aa": aa, "p_ba": ba, "show_all": 1})["figure"])


def test_top_k_with_k_1_and_a_unique_maximum_picks_the_greedy_token():
    from probierlabor.concepts import top_k_sampling as tk

    for a in (F("0.6"), F("0.3"), F("0.51")):
        dist = g.distributions(a, 0.5, 0.5)[""]
        kept = tk.top_k([dist["A"], dist["B"]], 1)
        assert [t for t, k in zip("AB", kept) if k] == [g.argmax_first(dist)]
    # on a tie top-k keeps both while greedy needs its rule
    assert tk.top_k([F(1, 2), F(1, 2)], 1) == [True, True] and g.argmax_first({"A": F(1, 2), "B": F(1, 2)}) == "A"


def test_one_step_above_the_last_good_value_greedy_loses():
    """Near miss of the first task: at 0,77 the path BA (0,308) beats Greedy's AA (0,306)."""
    out = api.run("greedy-decoding", {"p_ba": 0.77})
    assert out["result"]["best_path"] == "BA"
    assert "last_best" not in out["lesson"]["solved"]
    below = api.run("greedy-decoding", {"p_ba": 0.75})
    assert below["result"]["greedy_is_best"] and "last_best" not in below["lesson"]["solved"]


def test_workshop_script_recomputes_both_paths():
    """The numpy script (workshop/greedy_decoding.py) at the default and two presets: same paths, same chances."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(g.SLUG, "Gleichstand"), api.preset_values(g.SLUG, "Greedy liegt richtig")]
    for state, out in zip(states, run_states(g.SLUG, states)):
        r = api.run(g.SLUG, state)["result"]
        assert out["figures"] == 1
        assert f"Greedy-Pfad: {r['greedy_path']}\n" in out["stdout"]
        assert f"Bester Pfad: {r['best_path']}\n" in out["stdout"]
        assert number(out["stdout"], "Wahrscheinlichkeit des Greedy-Pfads") == pytest.approx(r["greedy_prob"], abs=5e-5)
        assert number(out["stdout"], "Wahrscheinlichkeit des besten Pfads") == pytest.approx(r["best_prob"], abs=5e-5)
        assert number(out["stdout"], "Abstand") == pytest.approx(r["gap"], abs=5e-5)


def _texts(figure):
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(figure)
    return root, [(float(t.get("y")), t.get("class"), "".join(t.itertext())) for t in root.iter(ns + "text")]


def test_the_narrow_key_follows_the_tree_without_a_blank_band_and_the_tie_note_follows_the_key():
    for raw, note in (({}, False), ({"p_a": 0.3, "p_ba": 0.2, "show_all": True}, False),
                      ({"p_a": 0.5, "show_all": True}, True)):
        root, texts = _texts(api.run("greedy-decoding", raw, layout="narrow")["figure"])
        key = min(y for y, cls, _ in texts if cls == "pl-legend")
        tree = max(y for y, cls, _ in texts if cls not in ("pl-legend", "pl-tree-note"))
        assert 12 + 4 <= key - tree <= 36, (raw, tree, key)  # apart by a line, and no more than two
        notes = [y for y, cls, _ in texts if cls == "pl-tree-note"]
        assert bool(notes) == note and all(y > key + 18 for y in notes), raw
        height = float(root.get("viewBox").split()[3])
        assert height - max(y for y, _, _ in texts) <= 16, (raw, height)  # no blank band at the bottom either


def test_the_key_sentence_says_right_exactly_when_greedys_path_is_the_best():
    lost = api.run("greedy-decoding", api.preset_values("greedy-decoding", "Alle Pfade zeigen"))["summary"]
    assert "endet bei AA mit 0,306" in lost and "aber BA mit 0,396" in lost and "verschenkt 0,09" in lost
    assert "richtig" not in lost
    right = api.run("greedy-decoding", api.preset_values("greedy-decoding", "Greedy liegt richtig"))["summary"]
    assert "endet bei AA mit 0,306" in right and "Hier liegt Greedy richtig" in right and "verschenkt" not in right
    # before the whole tree is shown, the sentence does not give the answer away
    hidden = api.run("greedy-decoding", {})["summary"]
    assert "0,396" not in hidden and "richtig" not in hidden and "nach B hat Greedy nie erfragt" in hidden
    assert "bei Gleichstand" in api.run("greedy-decoding", {"p_a": 0.5})["summary"]


def test_no_task_text_or_hint_names_its_solution():
    """„beide nahe an 0,5“ was the answer to big_gap: p(A) = 0,5 and A after A 0,5 leave a gap of 0,245."""
    assert told_states(g.SLUG) == {}
