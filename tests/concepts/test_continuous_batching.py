"""Continuous batching: the whole checklist of CONCEPTS.md §13 and the invariants of both schedules."""

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import continuous_batching as cb
from probierlabor.kit import api

# CONCEPTS.md §13: B rounds → C (start, end) continuous, C (start, end) fixed group
CHECKLIST = {1: ((1, 3), (6, 8)), 2: ((2, 4), (6, 8)), 3: ((3, 5), (6, 8)), 4: ((4, 6), (6, 8)),
             5: ((5, 7), (6, 8)), 6: ((6, 8), (6, 8)), 7: ((6, 8), (7, 9))}


def span(r, strategy, name):
    run = r[strategy]["runs"][name]
    return run["start"], run["end"]


@pytest.mark.parametrize("b", sorted(CHECKLIST))
def test_checklist(b):
    r = cb.compute(b_rounds=b)
    assert (span(r, "continuous", "C"), span(r, "fixed", "C")) == CHECKLIST[b]


@pytest.mark.parametrize("b", [1, 2])
def test_a_and_b_rows_of_the_checklist(b):
    r = cb.compute(b_rounds=b)
    for strategy in ("continuous", "fixed"):
        assert span(r, strategy, "A") == (0, 6) and span(r, strategy, "B") == (0, b)


def test_the_article_default_c_runs_2_to_4_versus_6_to_8():
    r = cb.compute()
    assert span(r, "continuous", "C") == (2, 4) and span(r, "fixed", "C") == (6, 8)
    assert not r["same"]


def test_b_set_to_6_makes_both_schedules_identical():
    assert cb.compute(b_rounds=6)["same"]
    assert [b for b in range(1, 8) if cb.compute(b_rounds=b)["same"]] == [6]


def test_the_table_repeats_the_checklist():
    rows = cb.compute()["table"]
    assert {row["b"]: (tuple(row["continuous"][2]), tuple(row["fixed"][2])) for row in rows} == CHECKLIST


params = st.fixed_dictionaries({"b_rounds": st.integers(1, 7), "a_rounds": st.integers(1, 8),
                                "c_ready": st.integers(0, 6), "c_rounds": st.integers(1, 6)})


@given(params)
def test_schedules_are_valid_and_continuous_never_finishes_c_later(p):
    r = cb.compute(**p)
    needs = {"A": p["a_rounds"], "B": p["b_rounds"], "C": p["c_rounds"]}
    ready = {"A": 0, "B": 0, "C": p["c_ready"]}
    for strategy in ("continuous", "fixed"):
        runs = r[strategy]["runs"]
        for name, run in runs.items():
            assert run["end"] - run["start"] == needs[name]  # same work in both strategies
            assert run["start"] >= ready[name]
        for a in runs.values():  # never two requests in one slot at the same time
            for b in runs.values():
                if a is not b and a["slot"] == b["slot"]:
                    assert a["end"] <= b["start"] or b["end"] <= a["start"]
    assert r["continuous"]["runs"]["C"]["end"] <= r["fixed"]["runs"]["C"]["end"]
    assert r["continuous"]["makespan"] <= r["fixed"]["makespan"]


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(["b_rounds", "a_rounds", "c_ready", "c_rounds"]),
                       st.one_of(st.integers(-3, 12), st.text(max_size=3), st.floats(allow_nan=True))))
def test_any_input_runs_and_draws_valid_svg(raw):
    out = api.run("continuous-batching", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])


def test_readouts_are_german():
    values = {r["key"]: r["value"] for r in api.run("continuous-batching")["readouts"]}
    assert values["c_cont"] == "2→4" and values["c_fixed"] == "6→8" and values["same"] == "nein"
    assert values["c_wait"] == "1 / 5 Runden"


def test_lesson_late_c_is_not_solved_one_round_too_early():
    # C ready at round 5: the slot of B has been free since round 2, so continuous batching still wins
    near = api.run("continuous-batching", {"c_ready": 5})
    assert not near["result"]["same"]
    assert "late_c" not in near["lesson"]["solved"]
    assert "late_c" in api.run("continuous-batching", {"c_ready": 6})["lesson"]["solved"]


def test_workshop_script_recomputes_both_schedules():
    """The numpy script (workshop/continuous_batching.py) at the default, two presets, a late C and own requests
    on other numbers of slots: same waits, same finishing times, same idle slots for both strategies."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(cb.SLUG, "B braucht 6 Runden"), api.preset_values(cb.SLUG, "B braucht 7 Runden"),
              {"a_rounds": 2, "c_ready": 3, "c_rounds": 5}, {"lengths": "6; 2; 2; 4", "arrivals": "0; 0; 1; 3"},
              {"slots": 3, "lengths": "5; 1; 1; 1"}, {"slots": 1, "lengths": "3", "arrivals": "2; 5"}]
    for state, out in zip(states, run_states(cb.SLUG, states)):
        result = api.run(cb.SLUG, state)["result"]
        assert out["figures"] == 1
        for strategy, title in cb.STRATEGIES:
            r = result[strategy]
            assert number(out["stdout"], f"{title}, Wartezeit von {result['watched']}") == r["c_wait"]
            assert number(out["stdout"], f"{title}, mittlere Zeit bis fertig") == pytest.approx(r["mean_finish"])
            assert number(out["stdout"], f"{title}, alles fertig nach") == r["makespan"]
            assert number(out["stdout"], f"{title}, leere Platz-Runden") == r["idle"]


# -- own requests: 1–4 slots, up to six requests with own rounds and arrivals ------------------------

def test_own_requests_follow_a_schedule_worked_by_hand():
    # two slots; A 6 and B 2 rounds at once, C 2 from round 1, D 4 from round 3: C takes B's slot at 2 and
    # D takes it again at 4; the fixed group waits for A (6) and then starts C and D together
    out = api.run(cb.SLUG, {"lengths": "6; 2; 2; 4", "arrivals": "0; 0; 1; 3"})
    r = out["result"]
    assert out["notes"] == [] and out["url"] == {"lengths": "6_2_2_4", "arrivals": "0_0_1_3"}
    assert {n: span(r, "continuous", n) for n in "ABCD"} == {"A": (0, 6), "B": (0, 2), "C": (2, 4), "D": (4, 8)}
    assert {n: span(r, "fixed", n) for n in "ABCD"} == {"A": (0, 6), "B": (0, 2), "C": (6, 8), "D": (6, 10)}
    assert r["continuous"]["mean_finish"] == (6 + 2 + 3 + 5) / 4 and r["fixed"]["mean_finish"] == (6 + 2 + 7 + 7) / 4
    assert out["summary"].startswith("Eigene Anfragen auf zwei Plätzen (A: 6 Runden ab Runde 0, ")


def test_three_slots_let_the_short_ones_pass_the_long_one():
    r = api.run(cb.SLUG, {"slots": 3, "lengths": "5; 1; 1; 1"})["result"]
    assert span(r, "continuous", "D") == (1, 2) and span(r, "fixed", "D") == (5, 6)
    assert (r["continuous"]["makespan"], r["fixed"]["makespan"]) == (5, 6)
    assert (r["continuous"]["idle"], r["fixed"]["idle"]) == (3 * 5 - 8, 3 * 6 - 8)


def test_one_request_is_watched_itself_and_spare_arrivals_are_said():
    out = api.run(cb.SLUG, {"lengths": "3", "arrivals": "2; 5"})
    assert span(out["result"], "continuous", "A") == (2, 5)
    assert out["readouts"][0]["label"] == "A bei Continuous Batching"
    assert "1 Ankunftsrunde ohne Anfrage bleibt unbenutzt" in out["summary"]
    assert api.run(cb.SLUG, {"arrivals": "1"})["summary"].startswith("Ankunftsrunden gelten nur mit eigenen Anfragen.")


def test_own_rounds_are_rounded_and_clamped_and_a_seventh_request_is_dropped_with_one_note():
    out = api.run(cb.SLUG, {"lengths": "2,5; 9; 1; 1; 1; 1; 1", "arrivals": "-1; 2", "slots": 7})
    assert out["params"]["lengths"] == [3, 8, 1, 1, 1, 1] and out["params"]["arrivals"] == [0, 2]
    assert out["params"]["slots"] == 4
    lengths = next(n for n in out["notes"] if n.startswith("„Eigene Anfragen: Runden“"))
    assert "2,5 ist keine ganze Zahl und wurde gerundet" in lengths and "9 liegt außerhalb von 1 bis 8" in lengths
    assert "es gehen höchstens 6 Werte, der letzte wurde weggelassen" in lengths
    assert len(out["notes"]) == 3


own = st.fixed_dictionaries({"slots": st.integers(1, 4), "lengths": st.lists(st.integers(1, 8), min_size=1, max_size=6),
                             "arrivals": st.lists(st.integers(0, 8), max_size=6)})


@settings(max_examples=60)
@given(own)
def test_own_schedules_do_all_work_never_overfill_and_continuous_never_idles_while_one_waits(p):
    r = cb.compute(slots=p["slots"], lengths=tuple(p["lengths"]), arrivals=tuple(p["arrivals"]))
    ready = {n: (p["arrivals"][i] if i < len(p["arrivals"]) else 0) for i, n in enumerate("ABCDEF"[:len(p["lengths"])])}
    for strategy in ("continuous", "fixed"):
        runs = r[strategy]["runs"]
        assert set(runs) == set(ready)
        for i, (name, run) in enumerate(sorted(runs.items())):
            assert run["end"] - run["start"] == p["lengths"][i] and run["start"] >= ready[name]
            assert 0 <= run["slot"] < p["slots"]
        for t in range(r[strategy]["makespan"]):
            busy = [n for n, run in runs.items() if run["start"] <= t < run["end"]]
            assert len({runs[n]["slot"] for n in busy}) == len(busy) <= p["slots"]
            waiting = [n for n, run in runs.items() if ready[n] <= t < run["start"]]
            if strategy == "continuous" and waiting:
                assert len(busy) == p["slots"]  # a free slot is taken at once
    assert r["continuous"]["makespan"] <= r["fixed"]["makespan"]
    for layout in ("wide", "narrow"):
        ET.fromstring(cb.view(r, layout).figure)


def test_the_lesson_does_not_count_own_requests():
    assert "big_gain" in api.run(cb.SLUG, {"a_rounds": 8})["lesson"]["solved"]
    assert "big_gain" not in api.run(cb.SLUG, {"lengths": "8; 1; 1", "arrivals": "0; 0; 1", "slots": 1})["lesson"]["solved"]



def test_the_key_sentence_says_whether_c_waits_for_the_group():
    """Under the schedules: C takes a free slot at once (2→4) and the fixed group makes it wait (6→8), with
    the mean time until done; with B at 6 rounds both schedules agree and the sentence says it brings nothing."""
    default = api.run(cb.SLUG)["summary"]
    assert "beginnt C, sobald ein Platz frei ist, und läuft 2→4" in default
    assert "wartet C auf die ganze Gruppe und läuft erst 6→8" in default
    assert "nach 3,67 statt 5 Runden fertig" in default and "nichts" not in default
    six = api.run(cb.SLUG, {"b_rounds": 6})["summary"]
    assert "C läuft in beiden Zeitplänen 6→8" in six and "bringt Continuous Batching hier nichts" in six
    seven = api.run(cb.SLUG, {"b_rounds": 7})["summary"]
    assert "läuft 6→8" in seven and "erst 7→9" in seven
    assert ", auf einem Platz: " in api.run(cb.SLUG, {"slots": 1})["summary"]
