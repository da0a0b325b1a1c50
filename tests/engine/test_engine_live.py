"""„Eigener Lauf“ (engine/live.py): a reader's settings → checked workload → the engine's trace."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import live, scenarios, tracer

BASE = {"model": "GQA", "block_size": "4", "num_blocks": "16", "max_num_seqs": "2", "max_num_batched_tokens": "8",
        "chunked_prefill": "1", "prefix_caching": "1", "policy": "continuous"}


def with_requests(requests: str, **changes) -> dict:
    return BASE | {"requests": requests} | {k: str(v) for k, v in changes.items()}


def renamed(trace: dict, names: dict) -> dict:
    """The trace with its request ids replaced (the live run names requests A, B, C …)."""
    out = json.loads(json.dumps(tracer.without_measurements(trace)))
    for r in out["workload"]["requests"]:
        r["id"] = names[r["id"]]
    for step in out["steps"]:
        for e in step["events"]:
            if "seq" in e:
                e["seq"] = names[e["seq"]]
        for key in ("running", "waiting"):
            step["end"][key] = [names[s] for s in step["end"][key]]
    out["result"]["outputs"] = {names[k]: v for k, v in out["result"]["outputs"].items()}
    del out["scenario"], out["recorded"], out["workload"]["seed"]  # what the run is called, not what it did
    return out


# Every recorded run of the tiny GQA model is a preset: run live from the settings its header holds,
# it must be the same run, event for event.
PRESETS = ["continuous-batching-article", "continuous-batching-article-static", "continuous-batching-realistic",
           "continuous-batching-realistic-static", "paged-attention-blocks", "paged-attention-pressure",
           "prefix-caching-shared", "prefill-interleaved", "kv-cache-growth"]


@pytest.mark.parametrize("name", PRESETS)
def test_a_recorded_run_as_settings_runs_again_event_for_event(name):
    recorded = tracer.load(scenarios.path_of(name))
    out = live.run_settings(live.settings_of_trace(recorded))
    assert out["notes"] == []
    names = {r["id"]: live.NAMES[i] for i, r in enumerate(recorded["workload"]["requests"])}
    assert renamed(out["trace"], {n: n for n in names.values()}) == renamed(recorded, names)


def test_a_live_trace_passes_the_full_check_and_names_no_git_revision():
    out = live.run_settings(with_requests("hallo welt | 6 | 0\nguten tag | 3 | 2"), concept="paged-attention",
                            device="Browser")
    trace = out["trace"]
    tracer.validate(trace)
    assert trace["recorded"]["engine_revision"] == live.REVISION
    assert trace["recorded"]["device"] == "Browser"
    assert trace["scenario"]["concepts"] == ["paged-attention"]
    assert [r["prompt_text"] for r in trace["workload"]["requests"]] == ["hallo welt", "guten tag"]
    assert [r["arrival_step"] for r in trace["workload"]["requests"]] == [0, 2]
    assert [len(o["tokens"]) for o in trace["result"]["outputs"].values()] == [6, 3]


def test_same_settings_same_trace():
    s = with_requests("7 | 5\n12 | 4 | 1\nkatze | 3 | 1")
    first, second = live.run_settings(s)["trace"], live.run_settings(s)["trace"]
    assert tracer.without_measurements(first) == tracer.without_measurements(second)
    # a bare number is a prompt of that many characters, drawn from a fixed seed
    assert [len(r["prompt"]) for r in first["workload"]["requests"]] == [7, 12, 5]


def test_settings_give_the_workload_back_also_for_a_prompt_that_ends_in_a_space():
    w = live.parse(with_requests("heute trinke  | 4 | 1\nwir|3"))
    assert [r.text for r in w.requests] == ["heute trinke ", "wir"]
    again = live.parse(w.settings())
    assert (again.requests, again.engine, again.model) == (w.requests, w.engine, w.model)


def test_progress_counts_every_step_up_to_the_dry_runs_count_and_stop_ends_the_run():
    w = live.parse(with_requests("a | 6 | 0\na | 2 | 0\na | 2 | 1", prefix_caching=0))
    seen = []
    trace = live.run(w, on_step=lambda done, total: seen.append((done, total)))
    n = trace["result"]["num_steps"]
    assert seen == [(i, n) for i in range(1, n + 1)] and w.expected_steps == n
    with pytest.raises(live.Stopped):
        live.run(w, should_stop=lambda: len(seen) > n + 2, on_step=lambda done, total: seen.append(done))
    assert len(seen) == n + 3


@pytest.mark.parametrize("requests, changes, words", [
    ("Hallo @welt | 4", {}, ["„@“", "kennt der Tokenizer nicht"]),
    ("hallo | 4", {"num_blocks": 0}, ["Ohne Blöcke"]),
    ("hallo welt wie geht es | 30", {"num_blocks": 4}, ["Anfrage A passt nie", "13 Blöcke", "nur 4"]),
    ("hallo | 4\nein langer prompt hier | 8", {"chunked_prefill": 0}, ["Anfrage B", "ohne Chunked Prefill",
                                                                          "Budget ist 8"]),
    ("", {}, ["Keine Anfrage"]),
    ("   \n  ", {}, ["Keine Anfrage"]),
    ("hallo | 4 | 0 | 9", {}, ["höchstens drei Teile"]),
    ("hallo | vier", {}, ["„vier“ ist keine ganze Zahl"]),
    ("hallo", {"max_num_seqs": "2,5"}, ["Sequenzen pro Schritt", "keine ganze Zahl"]),
    ("hallo", {"model": "XXL"}, ["Modell „XXL“"]),
    ("hallo", {"policy": "zufall"}, ["Batching"]),
    ("hallo", {"prefix_caching": "vielleicht"}, ["Präfix-Cache", "weder an"]),
    (" | 4", {}, ["Prompt ist leer"]),
])
def test_a_bad_workload_is_refused_in_german_before_anything_runs(requests, changes, words):
    with pytest.raises(live.WorkloadError) as caught:
        live.parse(with_requests(requests, **changes))
    for word in words:
        assert word in str(caught.value)


def test_absurd_sizes_are_capped_and_the_notes_say_so():
    w = live.parse(with_requests("\n".join(["x" * 100 + " | 99 | 500"] + ["a | 2"] * 19),
                            num_blocks=100000, block_size=0, max_num_seqs=99, max_num_batched_tokens=-3))
    assert len(w.requests) == 16
    first = w.requests[0]
    assert (len(first.prompt), first.max_new_tokens, first.arrival_step) == (64, 32, 64)
    assert [w.engine[k] for k in live.NUMBERS] == [1, 256, 16, 1]  # block size, blocks, sequences, budget
    text = " ".join(w.notes)
    for word in ("ersten 16 von 20", "nach 64 von 100 Zeichen", "99 liegt außerhalb von 1 bis 32",
                 "500 liegt außerhalb von 0 bis 64", "100000 liegt außerhalb", "Blockgröße: 0",
                 "Token-Budget pro Schritt: -3"):
        assert word in text


def test_capital_letters_are_written_small_with_a_note():
    w = live.parse(with_requests("Hallo Welt | 3"))
    assert w.requests[0].text == "hallo welt"
    assert any("Großbuchstaben" in note for note in w.notes)


def test_the_largest_capped_workload_runs():
    most = live.LIMITS
    w = live.parse(with_requests("\n".join([f"{most['prompt'][1]} | {most['max_new_tokens'][1]}"] * most["requests"][1]),
                            num_blocks=most["num_blocks"][1], max_num_seqs=most["max_num_seqs"][1],
                            max_num_batched_tokens=most["max_num_batched_tokens"][1]))
    trace = live.run(w)
    assert all(len(o["tokens"]) == most["max_new_tokens"][1] for o in trace["result"]["outputs"].values())


# Any text in any field: a workload within the limits, or a WorkloadError; never another exception.
_text = st.text(max_size=12) | st.integers(-10**6, 10**6).map(str) | st.sampled_from(["", " ", "1", "0", "²", "٣", "9" * 5000])
_lines = st.lists(st.tuples(st.text(alphabet=" abcäß|09?Z@\t", max_size=10), _text, _text), max_size=20).map(
    lambda rows: "\n".join(" | ".join(row) for row in rows))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests=_lines | _text, model=_text | st.sampled_from(live.MODELS), policy=_text | st.sampled_from(["static"]),
       numbers=st.fixed_dictionaries({k: _text for k in live.NUMBERS}),
       switches=st.fixed_dictionaries({k: _text for k in live.SWITCHES}))
def test_any_settings_give_a_workload_within_the_limits_or_a_german_refusal(requests, model, policy, numbers, switches):
    try:
        w = live.parse({"requests": requests, "model": model, "policy": policy, **numbers, **switches})
    except live.WorkloadError as refused:
        assert str(refused) and str(refused)[0].isupper()
        return
    assert 1 <= len(w.requests) <= live.LIMITS["requests"][1]
    for r in w.requests:
        assert 1 <= len(r.prompt) <= live.LIMITS["prompt"][1]
        assert 1 <= r.max_new_tokens <= live.LIMITS["max_new_tokens"][1]
        assert 0 <= r.arrival_step <= live.LIMITS["arrival_step"][1]
    for key in live.NUMBERS:
        low, high = live.LIMITS[key]
        assert low <= w.engine[key] <= high
    assert w.expected_steps >= 1
    again = live.parse(w.settings())
    assert (again.requests, again.engine, again.model, again.notes) == (w.requests, w.engine, w.model, ())
