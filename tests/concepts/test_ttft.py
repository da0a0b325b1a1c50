"""TTFT: every figure of CONCEPTS.md §16 and how the phases move the three measurements."""

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import ttft
from probierlabor.kit import api


def test_intro_ttft_is_800_ms():
    assert ttft.intro()["ttft"] == 800


def test_client_ttft_is_400_and_server_interval_335():
    r = ttft.compute()
    assert r["client_ttft"] == 400
    assert r["server_interval"] == 335


def test_event_times():
    assert ttft.compute()["events"] == {"send": 0, "arrival": 30, "prep_end": 40, "queue_end": 240,
                                        "prefill_end": 360, "first_ready": 365, "received": 400}


def test_four_more_tokens_every_20_ms_end_at_480():
    r = ttft.compute()
    assert r["tokens"] == [400, 420, 440, 460, 480] and r["end"] == 480


def test_gaps_of_100_ms_move_only_the_end():
    r = ttft.compute(gap=100)
    assert r["end"] == 800 and r["client_ttft"] == 400 and r["server_interval"] == 335


def test_a_longer_queue_moves_ttft_server_and_end_together():
    r = ttft.compute(queue=400)
    assert (r["client_ttft"], r["server_interval"], r["end"]) == (600, 535, 680)


def test_the_defaults_are_the_articles():
    assert api.run("ttft")["params"] == {"up": 30, "prep": 10, "queue": 200, "prefill": 120, "first": 5,
                                         "down": 35, "gap": 20, "more": 4}


phase = st.integers(0, 300)
params = st.fixed_dictionaries({"up": phase, "prep": st.integers(0, 100), "queue": st.integers(0, 1000),
                                "prefill": st.integers(0, 500), "first": st.integers(0, 50), "down": phase,
                                "gap": st.integers(0, 200), "more": st.integers(0, 10)})


@given(params, st.sampled_from(["up", "prep", "queue", "prefill", "first", "down", "gap"]), st.integers(1, 50))
def test_which_measurement_a_phase_moves(p, name, delta):
    a = ttft.compute(**p)
    b = ttft.compute(**{**p, name: p[name] + delta})
    moved_ttft = b["client_ttft"] - a["client_ttft"]
    moved_server = b["server_interval"] - a["server_interval"]
    assert b["end"] - a["end"] == (delta * p["more"] if name == "gap" else delta)
    assert moved_ttft == (0 if name == "gap" else delta)
    assert moved_server == (delta if name in {"prep", "queue", "prefill", "first"} else 0)


@given(params)
def test_the_server_interval_lies_inside_the_client_ttft(p):
    r = ttft.compute(**p)
    assert r["server_interval"] + r["network"] == r["client_ttft"]
    assert r["client_ttft"] <= r["end"] == r["client_ttft"] + p["more"] * p["gap"]
    times = [r["phases"][n]["start"] for n, _, _ in ttft.PHASES] + [r["client_ttft"]]
    assert times == sorted(times)  # the phases follow each other without overlap


@settings(max_examples=60)
@given(st.dictionaries(st.sampled_from(["up", "prep", "queue", "prefill", "first", "down", "gap", "more"]),
                       st.one_of(st.integers(-100, 5000), st.text(max_size=4), st.floats(allow_nan=True))))
def test_any_input_runs_and_draws_valid_svg(raw):
    out = api.run("ttft", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert out["result"]["client_ttft"] >= 0


def test_readouts_are_german():
    values = {r["key"]: r["value"] for r in api.run("ttft")["readouts"]}
    assert values["client_ttft"] == "400 ms" and values["server_interval"] == "335 ms"
    assert values["end"] == "480 ms" and values["prefill_share"] == "30,0\u202f%"


def test_lesson_halve_needs_the_whole_queue():
    # a queue of 10 ms leaves 210 ms; a prefill of 0 ms (the other big phase) leaves 280 ms
    for near, expected in (({"queue": 10}, 210), ({"prefill": 0}, 280)):
        out = api.run("ttft", near)
        assert out["result"]["client_ttft"] == expected
        assert "halve" not in out["lesson"]["solved"]
    assert "halve" in api.run("ttft", {"queue": 0})["lesson"]["solved"]


def test_lesson_halve_ignores_the_gap_a_reader_set_for_the_guess():
    # the guess sets the gap to 100 ms first; halving the queue afterwards still counts as one phase
    assert "halve" in api.run("ttft", {"gap": 100, "queue": 0})["lesson"]["solved"]
    three = api.run("ttft", {"up": 0, "down": 5, "queue": 60})  # 200 ms too, but three phases changed
    assert three["result"]["client_ttft"] == 200 and not three["notes"]
    assert "halve" not in three["lesson"]["solved"]


def test_workshop_script_recomputes_the_trace():
    """The numpy script (workshop/ttft.py) at the default and two presets: same TTFT, server time, end and
    prefill share."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(ttft.SLUG, "Abstände 100 ms"), api.preset_values(ttft.SLUG, "Warteschlange 400 ms")]
    for state, out in zip(states, run_states(ttft.SLUG, states)):
        result = api.run(ttft.SLUG, state)["result"]
        text = out["stdout"]
        assert out["figures"] == 1
        assert number(text, "TTFT beim Client") == result["client_ttft"]
        assert number(text, "Zeit im Server") == result["server_interval"]
        assert number(text, "Netz hin und zurück") == result["network"]
        assert number(text, "Antwort komplett") == result["end"]
        assert number(text, "Anteil des Prefills an der TTFT") == pytest.approx(result["prefill_pct"], abs=1e-4)


def test_slow_net_is_solved_by_the_network_and_not_by_an_idle_server():
    # queue = prefill = 0 shrinks the server time; the task is about a slow network, so that must not pass it
    def solved(**raw):
        return "slow_net" in api.run("ttft", raw)["lesson"]["solved"]
    assert solved(up=200, down=200) and not solved(queue=0, prefill=0) and not solved(queue=0, up=200, down=200)


def test_the_key_sentence_reads_where_the_time_goes():
    """Under the timeline: the server's interval misses the network, the longest phase is named with the
    prefill's share, and a queue longer than the prefill is called waiting longer than computing."""
    default = api.run("ttft")["summary"].replace("\u202f", " ")
    assert "nach 400 ms, der Server misst davon nur 335 ms: Die 65 ms im Netz fehlen" in default
    assert "die Phase „Warteschlange“ (200 ms), das Prefill macht 30 % aus" in default
    assert "wartet länger, als das Modell an ihr rechnet" in default and "nach 480 ms komplett" in default
    fast = api.run("ttft", {"queue": 0, "up": 0, "down": 0})["summary"].replace("\u202f", " ")
    assert "ohne Netzzeit misst der Server dieselben 135 ms" in fast
    assert "Das Prefill macht 89 % davon aus, mehr als jede andere Phase" in fast and "wartet" not in fast
    zero = {name: 0 for name, _, _ in ttft.PHASES}
    assert "sofort beim Client" in api.run("ttft", {**zero, "more": 0})["summary"]
