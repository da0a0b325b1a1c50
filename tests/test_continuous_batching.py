"""Continuous batching: the whole checklist of CONCEPTS.md §13 and the invariants of both schedules."""

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from probierlabor.kit import api
from probierlabor.concepts import continuous_batching as cb

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
    """The numpy script (workshop/continuous_batching.py) at the default, two presets and a late C: same waits,
    same finishing times, same idle slots for both strategies."""
    from workshop_check import run_states, number

    states = [{}, api.preset_values(cb.SLUG, "B braucht 6 Runden"), api.preset_values(cb.SLUG, "B braucht 7 Runden"),
              {"a_rounds": 2, "c_ready": 3, "c_rounds": 5}]
    for state, out in zip(states, run_states(cb.SLUG, states)):
        result = api.run(cb.SLUG, state)["result"]
        assert out["figures"] == 1
        for strategy, title in cb.STRATEGIES:
            r = result[strategy]
            assert number(out["stdout"], f"{title}, Wartezeit von C") == r["c_wait"]
            assert number(out["stdout"], f"{title}, mittlere Zeit bis fertig") == pytest.approx(r["mean_finish"])
            assert number(out["stdout"], f"{title}, alles fertig nach") == r["makespan"]
            assert number(out["stdout"], f"{title}, leere Platz-Runden") == r["idle"]
