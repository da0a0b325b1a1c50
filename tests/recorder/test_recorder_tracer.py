"""Traces: schema, replay invariants, determinism, the committed files, Chrome export, CLI."""

from __future__ import annotations

import copy
import importlib.util
import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trace_equal import same

from engine import backends
from engine.engine import LLMEngine
from engine.generate import greedy_recompute
from recorder import cli, scenarios, tracer

COMMITTED = sorted(scenarios.TRACES_DIR.glob("*.json"))


@pytest.fixture(scope="module")
def fresh() -> dict[str, dict]:
    return {name: s.record() for name, s in scenarios.SCENARIOS.items()}


def events(trace, kind):
    return [(s["step"], e) for s in trace["steps"] for e in s["events"] if e["type"] == kind]


# ----------------------------------------------------------------------------- committed files
def test_every_scenario_is_committed_and_nothing_else():
    assert {p.stem for p in COMMITTED} == set(scenarios.SCENARIOS)


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.stem)
def test_committed_trace_validates(path):
    tracer.validate(tracer.load(path))


def check_current(name: str, committed: dict, now: dict) -> None:
    """The committed trace is the run the engine records now: the same except measured times, the
    machine, and floats within the last bits (another CPU's BLAS kernel, ``trace_equal``)."""
    if committed["recorded"]["backend"] != "numpy":
        # recorded on PyTorch (a GPU machine): the run itself must still be what numpy computes here
        now = {**now, "recorded": {**now["recorded"], "backend": committed["recorded"]["backend"]}}
    try:
        same(tracer.without_measurements(committed), tracer.without_measurements(now), name)
    except AssertionError as change:
        raise AssertionError(f"static/traces/{name}.json is stale: {change}. "
                             "Run `python -m recorder record-all`") from None


@pytest.mark.parametrize("name", sorted(scenarios.SCENARIOS))
def test_committed_trace_is_what_the_engine_records_now(name, fresh):
    """Same scenario, same seed, same code → the same trace, on any CPU."""
    check_current(name, tracer.load(scenarios.path_of(name)), fresh[name])


def _floats_moved(value, ulps: int):
    """Every float of a trace moved by a few units in the last place: another CPU's result."""
    if isinstance(value, float):
        return value + ulps * math.ulp(value)
    if isinstance(value, dict):
        return {k: _floats_moved(v, ulps) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats_moved(v, ulps) for v in value]
    return value


def test_the_stale_check_tells_a_real_change_from_last_bit_noise(fresh):
    name = "flash-attention-tiles"
    committed = tracer.load(scenarios.path_of(name))
    noisy = _floats_moved(fresh[name], 3)
    assert tracer.without_measurements(noisy) != tracer.without_measurements(committed)  # the bits did move
    check_current(name, committed, noisy)
    tile = next(e for e in noisy["steps"][2]["events"] if e["type"] == "tile")
    tile["m"] *= 1 + 1e-9
    with pytest.raises(AssertionError, match=r"is stale: flash-attention-tiles\.steps\[2\]\.events\[\d+\]\.m: .*"
                                             r"a float off by 1\.0e-09 .*a real change, not last-bit noise"):
        check_current(name, committed, noisy)
    tile["m"] = next(e for e in committed["steps"][2]["events"] if e["type"] == "tile")["m"]
    emit = next(e for e in noisy["steps"][2]["events"] if e["type"] == "emit")
    emit["token"] += 1
    with pytest.raises(AssertionError, match=r"events\[\d+\]\.token: \d+ != \d+ \(a different token"):
        check_current(name, committed, noisy)
    emit["token"] -= 1
    noisy["steps"][2]["events"].pop()
    with pytest.raises(AssertionError, match=r"steps\[2\]\.events: \d+ != \d+ items"):
        check_current(name, committed, noisy)


def test_recording_twice_gives_the_same_trace(fresh):
    """On one machine a run is bit for bit the same (same BLAS kernel, same order of sums): the file
    written twice is the same file."""
    for name in ("continuous-batching-realistic", "speculative-decoding-pq", "flash-attention-tiles"):
        again = scenarios.get(name).record()
        assert tracer.without_measurements(again) == tracer.without_measurements(fresh[name])
        assert tracer.dumps(tracer.without_measurements(again)) == tracer.dumps(tracer.without_measurements(fresh[name]))


def test_traces_are_small_and_say_where_they_were_recorded():
    assert sum(p.stat().st_size for p in COMMITTED) < 600_000
    for path in COMMITTED:
        rec = tracer.load(path)["recorded"]
        assert rec["backend"] in ("numpy", "torch") and rec["device"] and rec["engine_revision"]
        if rec["backend"] == "numpy":
            assert rec["device"].startswith("CPU")


def test_dumps_round_trips(fresh):
    trace = fresh["paged-attention-pressure"]
    assert json.loads(tracer.dumps(trace)) == json.loads(json.dumps(trace))


# ----------------------------------------------------------------------------- the articles' figures
def test_decode_toy_trace_is_the_article_example(fresh):
    t = fresh["decode-toy"]
    assert t["result"]["outputs"]["A B"]["text"] == "ABABAB"
    scheduled = [e for _, e in events(t, "schedule")]
    # K/V is computed once per position: 2 in the prefill, then exactly one per decode step.
    assert [e["num_tokens"] for e in scheduled] == [2, 1, 1, 1, 1, 1]
    assert [e["positions"] for e in scheduled][1:] == [[2, 3], [3, 4], [4, 5], [5, 6], [6, 7]]


@pytest.mark.parametrize("name, steps", [("prefill-mean-whole", 1), ("prefill-mean-chunks", 2)])
def test_prefill_outputs_are_the_running_means(fresh, name, steps):
    t = fresh[name]
    outputs = {e["position"]: Fraction(e["value"]).limit_denominator(100) for _, e in events(t, "output")}
    assert outputs == {0: 2, 1: 3, 2: Fraction(14, 3), 3: 6}
    prefill = [e for _, e in events(t, "schedule") if e["kind"].startswith("prefill")]
    assert len(prefill) == steps
    if steps == 2:  # the second chunk reads positions 0 and 1 from the cache
        assert [e["positions"] for e in prefill] == [[0, 2], [2, 4]]


def test_continuous_batching_article_spans(fresh):
    cont = fresh["continuous-batching-article"]["result"]["outputs"]
    static = fresh["continuous-batching-article-static"]["result"]["outputs"]
    assert [cont[k]["span"] for k in "ABC"] == [[0, 6], [0, 2], [2, 4]]
    assert [static[k]["span"] for k in "ABC"] == [[0, 6], [0, 2], [6, 8]]


def test_prefix_caching_article_reuse(fresh):
    t = fresh["prefix-caching-article"]
    cached = {e["seq"]: e["num_cached_tokens"] for _, e in events(t, "schedule") if "num_cached_tokens" in e}
    base = "ABCDEFGH"
    assert all(len(r["prompt"]) == 8 for r in t["workload"]["requests"])  # one token per letter
    for i in range(8):
        assert cached[base[:i] + "X" + base[i + 1:]] == 2 * (i // 2)
    assert cached["ABCDEFGX"] == 6 and cached["XBCDEFGH"] == 0


def test_paged_attention_second_block_at_position_4(fresh):
    t = fresh["paged-attention-blocks"]
    tables: dict[str, list[int]] = {}
    for step in t["steps"]:
        for e in step["events"]:
            if e["type"] == "block" and e["op"] == "allocate":
                tables.setdefault(e["seq"], []).append(e["block"])
        for e in step["events"]:
            if e["type"] == "schedule" and e["seq"] == "hund":
                end = e["positions"][1]
                assert len(tables["hund"]) == -(-end // 4)  # exactly the blocks its positions need
                if end == 5:
                    assert len(tables["hund"]) == 2  # position 4 is the first that needs a second block
    # every position that needs K/V has its block, and they are not side by side in the pool (katze took
    # one between)
    hund = next(r for r in t["workload"]["requests"] if r["id"] == "hund")
    positions = len(hund["prompt"]) + hund["max_new_tokens"] - 1
    assert len(tables["hund"]) == -(-positions // 4) >= 2 and max(np.diff(tables["hund"])) > 1


def test_flash_tiles_end_in_the_dense_result(fresh):
    t = fresh["flash-attention-tiles"]
    model = scenarios.model()
    by_step: dict[int, list[dict]] = {}
    for step, e in events(t, "tile"):
        by_step.setdefault(step, []).append(e)
    for tiles in by_step.values():
        ms = [e["m"] for e in tiles]
        assert ms == sorted(ms)  # the running maximum never falls
        assert [e["keys"][0] for e in tiles] == list(range(0, tiles[-1]["keys"][1], scenarios.TILE))
        last = tiles[-1]
        np.testing.assert_allclose(np.array(last["u"]) / last["l"], last["out"], rtol=1e-12)
    # The last output row equals dense attention over the same context, recomputed independently.
    from engine.attention import NoCacheAttention, dense_attention
    prompt = t["workload"]["requests"][0]["prompt"]
    tokens = prompt + t["result"]["outputs"]["r"]["tokens"][:-1]
    recorded: list = []

    def capture(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
        out = dense_attention(q, k, v, q_pos, k_pos, scale, causal)
        recorded.append(out)
        return out

    model.forward(tokens, np.arange(len(tokens)), NoCacheAttention(capture))
    final = by_step[max(by_step)][-1]
    np.testing.assert_allclose(recorded[0][-1, 0], final["out"], atol=1e-12)


def test_speculative_pq_acceptance_is_the_article_rule(fresh):
    t = fresh["speculative-decoding-pq"]
    accept = {0: 1 / 3, 1: 1.0, 2: 1.0}  # min(1, p/q) for A, B, C
    for _, v in events(t, "verify"):
        for token, a in zip(v["proposals"], v["accept_probs"]):
            assert a == pytest.approx(accept[token])
        if v["correction"] is not None:
            assert v["correction"] in (1, 2)  # max(0, p − q) = [0, 0.2, 0.2]: never A
            assert v["proposals"][v["accepted"]] == 0  # only A can be rejected
    tokens = t["result"]["outputs"]["r"]["tokens"]
    assert len(tokens) == 60 and t["config"]["k"] == 2


def test_speculative_tiny_greedy_equals_target_greedy(fresh):
    t = fresh["speculative-decoding-tiny"]
    prompt = t["workload"]["requests"][0]["prompt"]
    target = greedy_recompute(scenarios.model(), prompt, 24).tokens
    assert t["result"]["outputs"]["r"]["tokens"] == target


def test_kv_head_traces_differ_only_in_kv_heads(fresh):
    models = [fresh[n]["model"] for n in ("gqa-kv-mha", "gqa-kv-gqa", "mqa-kv-mqa")]
    assert [m["num_kv_heads"] for m in models] == [8, 2, 1] and {m["num_heads"] for m in models} == {8}
    assert [m["attention"] for m in models] == ["MHA", "GQA", "MQA"]
    # MHA is GQA's K/V heads copied: the same text; MQA averages them without retraining: another text
    outputs = [{k: o["tokens"] for k, o in fresh[n]["result"]["outputs"].items()}
               for n in ("gqa-kv-mha", "gqa-kv-gqa", "mqa-kv-mqa")]
    assert outputs[0] == outputs[1] != outputs[2]
    blocks = [[s["end"]["blocks_used"] for s in fresh[n]["steps"]] for n in ("gqa-kv-mha", "gqa-kv-gqa", "mqa-kv-mqa")]
    assert blocks[0] == blocks[1] == blocks[2]  # same blocks; the bytes per block differ


def test_realistic_and_pressure_workloads_show_what_they_promise(fresh):
    real = fresh["continuous-batching-realistic"]
    assert len(real["workload"]["requests"]) == 16
    assert len({r["arrival_step"] for r in real["workload"]["requests"]}) > 4  # staggered
    assert events(real, "schedule") and any(e["kind"] == "prefill_chunk" for _, e in events(real, "schedule"))
    static = fresh["continuous-batching-realistic-static"]
    assert static["result"]["num_steps"] > real["result"]["num_steps"]
    assert events(fresh["paged-attention-pressure"], "preempt")
    assert any(e["op"] == "hit" for _, e in events(fresh["prefix-caching-shared"], "block"))


# ----------------------------------------------------------------------------- invariants
def _mutations(trace):
    """Corrupted copies of a trace, each breaking one invariant the replay must catch."""
    def first(kind, op=None):
        for s in trace["steps"]:
            for i, e in enumerate(s["events"]):
                if e["type"] == kind and (op is None or e.get("op") == op):
                    return s["step"], i
        raise AssertionError(kind)

    out = {}
    t = copy.deepcopy(trace)
    s, i = first("block", "allocate")
    t["steps"][s]["events"].insert(i + 1, dict(t["steps"][s]["events"][i]))  # the same block twice
    out["double allocate"] = t
    t = copy.deepcopy(trace)
    s, i = first("block", "free")
    del t["steps"][s]["events"][i]
    out["missing free"] = t
    t = copy.deepcopy(trace)
    s, i = first("emit")
    t["steps"][s]["events"][i]["position"] += 1
    out["token out of order"] = t
    t = copy.deepcopy(trace)
    t["steps"][3]["end"]["blocks_used"] += 1
    out["wrong block count"] = t
    t = copy.deepcopy(trace)
    t["schema_version"] = 2
    out["future schema"] = t
    t = copy.deepcopy(trace)
    t["steps"][0]["events"].append({"type": "block", "op": "allocate", "block": 999, "seq": "x", "hash": "-"})
    out["unknown block"] = t
    return out


@pytest.mark.parametrize("what", ["double allocate", "missing free", "token out of order", "wrong block count",
                                  "future schema", "unknown block"])
def test_replay_catches_a_corrupt_trace(fresh, what):
    bad = _mutations(fresh["paged-attention-pressure"])[what]
    with pytest.raises(tracer.TraceError):
        tracer.validate(bad)


requests_st = st.lists(st.tuples(st.integers(1, 12), st.integers(1, 8), st.integers(0, 6), st.integers(0, 2)),
                       min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(requests=requests_st, num_blocks=st.integers(6, 24), block_size=st.integers(1, 4),
       budget=st.integers(4, 16), max_seqs=st.integers(1, 4), caching=st.booleans())
def test_any_run_replays_to_the_engine_final_state(requests, num_blocks, block_size, budget, max_seqs, caching):
    """Random workloads and pool sizes (dry runs): the trace alone rebuilds the pool's end state."""
    engine = LLMEngine(None, num_blocks=num_blocks, block_size=block_size, max_num_seqs=max_seqs,
                       max_num_batched_tokens=budget, prefix_caching=caching)
    specs = []
    for i, (plen, new, arrival, variant) in enumerate(requests):
        prompt = [variant] * plen  # repeated prompts make prefix hits likely
        if engine.pool.blocks_for(plen + new) > num_blocks:
            continue
        engine.add_request(prompt, new, req_id=f"r{i}", arrival_step=arrival)
        specs.append(tracer.request_spec(f"r{i}", prompt, new, arrival))
    if not specs:
        return
    engine.run()
    trace = tracer.from_engine(engine, scenario={"name": "prop", "title": "", "description": "", "concepts": []},
                               requests=specs)
    tracer.validate(trace)
    state = tracer.replay(trace)
    pool = engine.pool
    assert state["refs"] == [b.ref_count for b in pool.blocks] == [0] * num_blocks
    assert set(state["cached"]) == {b.block_id for b in pool.blocks if b.block_hash is not None}
    assert state["outputs"] == dict(engine.outputs().items())
    assert state["finished"] == sorted(engine.outputs())


# ----------------------------------------------------------------------------- Chrome export
def test_chrome_export_is_a_trace_event_file(fresh):
    t = fresh["continuous-batching-realistic"]
    chrome = tracer.to_chrome(t)
    evs = chrome["traceEvents"]
    steps = [e for e in evs if e["ph"] == "X" and e["tid"] == 0]
    assert len(steps) == t["result"]["num_steps"]
    assert all(e["dur"] > 0 for e in steps)
    assert [e["ts"] for e in steps] == sorted(e["ts"] for e in steps)
    names = {e["args"]["name"] for e in evs if e["ph"] == "M" and e["name"] == "thread_name"}
    assert {f"Anfrage {r['id']}" for r in t["workload"]["requests"]} <= names
    per_request = [e for e in evs if e["ph"] == "X" and e["tid"] != 0]
    assert len(per_request) == len(events(t, "schedule"))
    json.dumps(chrome)  # serialisable


# ----------------------------------------------------------------------------- CLI
def test_cli_records_validates_and_exports(tmp_path, capsys):
    assert cli.main(["record", "decode-toy", "--dir", str(tmp_path)]) == 0
    path = tmp_path / "decode-toy.json"
    assert cli.main(["validate", str(path)]) == 0
    assert cli.main(["export-chrome", str(path), "-o", str(tmp_path / "c.json")]) == 0
    assert json.loads((tmp_path / "c.json").read_text())["traceEvents"]
    assert "decode-toy" in (capsys.readouterr().out)


def test_cli_backend_choices_fail_clearly_before_recording(tmp_path, capsys):
    assert cli.main(["record", "decode-toy", "--device", "cuda", "--dir", str(tmp_path)]) == 2
    assert "numpy backend computes on the CPU only" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:  # argparse names the choices
        cli.main(["record", "decode-toy", "--backend", "jax", "--dir", str(tmp_path)])
    assert exit_.value.code == 2 and "choose from 'numpy', 'torch'" in capsys.readouterr().err
    # asking torch of a scenario that has no Llama model names the ones that can (no torch needed to say so)
    with pytest.raises(ValueError, match=r"läuft nur mit numpy.*continuous-batching-realistic"):
        scenarios.get("decode-toy").record(backends.Backend("torch"))
    assert {n for n, s in scenarios.SCENARIOS.items() if s.torch} == {
        "continuous-batching-realistic", "continuous-batching-realistic-static", "prefix-caching-shared",
        "paged-attention-pressure"}
    if importlib.util.find_spec("torch") is None:
        assert cli.main(["record", "prefix-caching-shared", "--backend", "torch", "--dir", str(tmp_path)]) == 2
        assert "needs PyTorch" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_cli_fails_clearly(tmp_path, capsys):
    assert cli.main(["record", "gibt-es-nicht", "--dir", str(tmp_path)]) == 2
    assert "unbekanntes Szenario" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    trace = scenarios.get("decode-toy").record()
    trace["steps"][1]["events"] = [e for e in trace["steps"][1]["events"] if e["type"] != "emit"]
    bad.write_text(json.dumps(trace))
    assert cli.main(["validate", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err
    (tmp_path / "broken.json").write_text("{")
    assert cli.main(["validate", str(tmp_path / "broken.json")]) == 2


def _hostile(tmp_path, change):
    trace = json.loads(json.dumps(scenarios.get("paged-attention-blocks").record()))
    change(trace)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(trace))
    return path


@pytest.mark.parametrize("change", [
    lambda t: t["config"].update(num_blocks=2**40),  # was a MemoryError traceback
    lambda t: t["config"].update(num_blocks=1e9),  # was a TypeError traceback (as an int: gigabytes)
    lambda t: t["config"].update(num_blocks=4097),
    lambda t: t["config"].update(k="<img src=x onerror=alert(1)>"),
    lambda t: t["model"].update(num_kv_heads="<b>2</b>"),
    lambda t: t["workload"]["requests"][0].update(id="x" * 65),
    lambda t: t["steps"][0]["events"].append({"type": "block", "seq": "A", "op": "allocate", "block": 10**7,
                                              "hash": "-"}),
    lambda t: t["steps"][0].update(wall_time_s=1e300),  # was an infinite time in the Chrome export
], ids=["2**40 blocks", "1e9 blocks", "4097 blocks", "markup k", "markup heads", "long id", "huge block",
        "1e300 s step"])
def test_cli_refuses_a_hostile_trace_in_one_line(tmp_path, capsys, change):
    assert cli.main(["validate", str(_hostile(tmp_path, change))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Fehler: ") and err.count("\n") == 1 and "hostile.json" in err


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[]", '"x"', "\xff"],
                         ids=["nested lists", "nested objects", "list", "string", "not utf-8"])
def test_cli_answers_every_bad_file_with_one_line_and_status_2(tmp_path, capsys, text):
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("latin-1"))
    for command in (["validate", str(path)], ["export-chrome", str(path), "-o", str(tmp_path / "c.json")]):
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith("Fehler: ") and err.count("\n") == 1 and len(err) < 400
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("number, words", [
    ("NaN", "enthält NaN, das ist keine Zahl"), ("Infinity", "enthält Infinity, das ist keine Zahl"),
    ("-Infinity", "enthält -Infinity, das ist keine Zahl"), ("1e999", "die Zahl 1e999 ist zu groß"),
    ("9" * 5001, "eine ganze Zahl mit 5001 Ziffern"),  # was Python's English ValueError
], ids=["NaN", "Infinity", "-Infinity", "1e999", "5001 digits"])
def test_cli_refuses_numbers_json_does_not_have_in_german(tmp_path, capsys, number, words):
    """Python's parser reads NaN and Infinity (they passed validate and reached the Chrome file)."""
    text = tracer.dumps(scenarios.get("paged-attention-blocks").record())
    path = tmp_path / "zahlen.json"
    path.write_text(re.sub(r'"wall_time_s":[0-9.e-]+', f'"wall_time_s":{number}', text, count=1))
    for command in (["validate", str(path)], ["export-chrome", str(path), "-o", str(tmp_path / "c.json")]):
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert err.startswith("Fehler: ") and err.count("\n") == 1 and "zahlen.json" in err and words in err, err
    assert not (tmp_path / "c.json").exists()


def test_a_trace_with_nan_is_never_written():
    trace = scenarios.get("decode-toy").record()
    trace["steps"][0]["wall_time_s"] = math.nan
    with pytest.raises(ValueError, match="not JSON compliant"):
        tracer.dumps(trace)


def test_a_trace_file_beyond_the_schemas_size_bound_is_refused_before_parsing(tmp_path, monkeypatch):
    limit = tracer.schema()["x-max-bytes"]
    path = tmp_path / "big.json"
    path.write_text(" " * limit + "{}")
    with pytest.raises(tracer.TraceError, match="größer als"):
        tracer.load(path)
    parse = json.loads

    def loads_small(text, *args, **kwargs):
        assert len(text) <= limit, "parsed a file beyond the bound"
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", loads_small)
    with pytest.raises(tracer.TraceError):
        tracer.load(path)


def test_every_committed_trace_is_within_the_bounds_with_room_to_spare():
    limit = tracer.schema()["x-max-bytes"]
    assert all(path.stat().st_size < limit / 10 for path in COMMITTED)


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _leaves(item, (*path, i))
    yield path


def test_the_browsers_trace_check_agrees_with_jsonschema(tmp_path):
    """static/js/replay/trace-check.js reads the same schema; on 300 seeded mutations it must give jsonschema's verdict."""
    import random
    import shutil
    import subprocess

    import jsonschema

    node = shutil.which("node")
    assert node, "Node.js is needed for tests/js (npm is already needed for make setup)"
    rng = random.Random(17)
    swaps = ["<img src=x onerror=alert(1)>", -1, 2**40, 1.5, None, [], {}, "x" * 70, True, 0, "-", "GQA"]
    traces = []
    for name in ("paged-attention-blocks", "flash-attention-tiles", "speculative-decoding-pq", "gqa-kv-gqa"):
        base = tracer.load(scenarios.TRACES_DIR / f"{name}.json")
        paths = [p for p in _leaves(base) if p]
        for _ in range(75):
            trace = copy.deepcopy(base)
            *head, last = rng.choice(paths)
            parent = trace
            for key in head:
                parent = parent[key]
            parent[last] = rng.choice(swaps)
            traces.append(trace)
    (tmp_path / "traces.json").write_text(json.dumps(traces))
    script = ("const {check} = require(process.argv[1]); const fs = require('fs');"
              "const schema = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));"
              "const traces = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));"
              "console.log(JSON.stringify(traces.map((t) => { try { check(t, schema); return true; }"
              " catch (e) { return false; } })));")
    done = subprocess.run([node, "-e", script, str(tracer.ROOT / "static/js/replay/trace-check.js"), str(tracer.SCHEMA_PATH),
                           str(tmp_path / "traces.json")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    browser = json.loads(done.stdout)
    validator = jsonschema.Draft202012Validator(tracer.schema())
    python = [validator.is_valid(t) for t in traces]
    assert browser == python
    assert 50 < python.count(False) < 300  # the mutations reach both verdicts


def test_every_scenario_has_its_page_texts_and_names_real_pages():
    from probierlabor import SLUGS
    from probierlabor.pageblocks.replays import REPLAYS
    assert list(REPLAYS) == list(scenarios.SCENARIOS)
    assert {slug for r in REPLAYS.values() for slug in r.concepts} <= set(SLUGS)
    for name, shown in REPLAYS.items():
        head = tracer.load(scenarios.path_of(name))["scenario"]
        assert (head["title"], head["description"], head["concepts"]) == (shown.title, shown.description,
                                                                          list(shown.concepts))
