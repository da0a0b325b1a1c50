"""Workloads and the benchmark's predictions: the analytic formulas must match the engine on small cases."""

import json
import re

import numpy as np
import pytest

from engine import pretrained
from engine.engine import LLMEngine
from engine.model import LlamaModel, tiny_config, tiny_model
from recorder import bench, workloads
from recorder.workloads import (
    CHARS,
    RequestSpec,
    Workload,
    expected_prefix_savings,
    memory_pressure,
    realistic,
    shared_prompt,
    submit,
    system_prompt,
)

# the tiny models' characters and the trained model's byte-level BPE (what the recorded runs use)
TOKENIZERS = {"chars": CHARS, "bpe": pretrained.load_tokenizer()}

GENERATORS = {"realistic": realistic, "shared_prompt": shared_prompt, "memory_pressure": memory_pressure}


def dry_run(workload: Workload, **overrides) -> LLMEngine:
    engine = LLMEngine(None, **dict(workload.engine, **overrides))
    submit(engine, workload.requests)
    engine.run()
    return engine


# ------------------------------------------------------------------ workloads


@pytest.mark.parametrize("tokens", sorted(TOKENIZERS))
@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_workloads_are_deterministic_and_valid(name, tokens):
    tokenizer = TOKENIZERS[tokens]
    make = GENERATORS[name]
    w = make(seed=3, tokenizer=tokenizer)
    assert w == make(seed=3, tokenizer=tokenizer) and w.to_dict() == make(seed=3, tokenizer=tokenizer).to_dict()
    assert w.requests != make(seed=4, tokenizer=tokenizer).requests
    ids = [r.req_id for r in w.requests]
    assert len(set(ids)) == len(ids)
    arrivals = [r.arrival_step for r in w.requests]
    assert arrivals == sorted(arrivals) and arrivals[0] == 0
    for r in w.requests:
        assert r.prompt and all(0 <= t < tokenizer.vocab_size for t in r.prompt) and r.max_new_tokens >= 1
        assert tokenizer.decode(r.prompt) == r.text
        if tokenizer is CHARS:
            assert all(t < 31 for t in r.prompt)  # small letters and the space
    json.dumps(w.to_dict(), ensure_ascii=False)  # plain data, ready for a trace header
    engine = dry_run(w)
    assert all(len(engine.sequences[r.req_id].output) == r.max_new_tokens for r in w.requests)
    engine.pool.check(engine.sequences.values())


def test_realistic_mixes_lengths_and_staggers_arrivals():
    w = realistic()
    prompts = [len(r.prompt) for r in w.requests]
    new = [r.max_new_tokens for r in w.requests]
    assert len(w.requests) == 16 and min(prompts) >= 4 and max(prompts) <= 40 and max(prompts) >= 3 * min(prompts)
    assert min(new) >= 2 and max(new) <= 24 and max(new) >= 3 * min(new)
    assert len({r.arrival_step for r in w.requests}) >= 8
    assert any(" " in r.text for r in w.requests)  # words, not noise


@pytest.mark.parametrize("tokens", sorted(TOKENIZERS))
def test_shared_prompt_prompts_agree_on_exactly_the_system_prompt(tokens):
    """S tokens, whole words of the system prompt, as many as fit in system_len: every two prompts agree on
    exactly them, and each prompt's text gives its tokens again."""
    tokenizer = TOKENIZERS[tokens]
    for n, s in ((8, 35), (5, 13), (12, 20)):
        text, shared = system_prompt(s, tokenizer)
        space = shared - len(tokenizer.encode(text))  # characters share the space before the question too
        one_more = " ".join(workloads.SYSTEM_PROMPT.split()[:len(text.split()) + 1])
        assert shared <= s < len(tokenizer.encode(one_more)) + space  # one word more would not fit
        w = shared_prompt(n=n, system_len=s, tokenizer=tokenizer)
        prompts = [r.prompt for r in w.requests]
        for r in w.requests:
            assert r.text.startswith(text + " ") and tuple(tokenizer.encode(r.text)) == r.prompt
        for i, a in enumerate(prompts):
            for b in prompts[i + 1:]:
                common = next(j for j, (x, y) in enumerate(zip(a, b)) if x != y)
                assert common == shared
    with pytest.raises(ValueError, match="first token"):
        shared_prompt(n=40)


def test_memory_pressure_preempts_and_still_finishes():
    w = memory_pressure()
    pool_slots = w.engine["num_blocks"] * w.engine["block_size"]
    assert all(r.max_positions <= pool_slots for r in w.requests)  # each fits alone
    assert sum(r.max_positions for r in w.requests) > pool_slots  # all together do not
    engine = dry_run(w)
    assert sum(len(s["preempted"]) for s in engine.steps) > 0
    assert any(c["recompute"] for s in engine.steps for c in s["scheduled"])
    assert sum(len(s["preempted"]) for s in dry_run(w, num_blocks=64).steps) == 0  # the pool is the cause


def test_a_workload_for_another_tokenizer_is_refused_by_name():
    # the BPE's ids reach 1023, the tiny model knows 48 tokens
    engine = LLMEngine(tiny_model(), **realistic().engine)
    with pytest.raises(ValueError, match="token ids must lie in 0…47"):
        submit(engine, realistic(tokenizer=TOKENIZERS["bpe"]).requests)


# ------------------------------------------------------------------ d. prefix caching


@pytest.mark.parametrize("n,system_len,block_size", [(8, 35, 4), (8, 30, 16), (5, 12, 4), (4, 9, 1), (6, 16, 8)])
def test_prefix_savings_are_exactly_the_formula(n, system_len, block_size):
    w = shared_prompt(n=n, system_len=system_len, block_size=block_size)
    off, cached_off, _ = bench.prefill_work(None, w, False)
    on, cached_on, _ = bench.prefill_work(None, w, True)
    assert cached_off == 0 and off == sum(len(r.prompt) for r in w.requests)
    assert off - on == cached_on == expected_prefix_savings(n, system_prompt(system_len)[1], block_size)


def test_prefix_savings_formula_needs_its_conditions():
    """Two questions with the same first block after the system prompt save one block more; a request
    that arrives together with the first one saves nothing: the formula is not true by construction."""
    w = shared_prompt(n=4, system_len=8, block_size=4)
    assert system_prompt(8)[1] == 8
    twin = RequestSpec("twin", (*w.requests[1].prompt[:12], 1, 2), 3, 5)
    w2 = Workload("twin", (*w.requests, twin), dict(w.engine))
    assert bench.prefill_work(None, w2, True)[1] == expected_prefix_savings(5, 8, 4) + 4
    together = Workload("together", tuple(RequestSpec(r.req_id, r.prompt, r.max_new_tokens, 0) for r in w.requests),
                        dict(w.engine))
    assert bench.prefill_work(None, together, True)[1] == 0


def test_prefix_caching_keeps_the_tokens_of_a_real_model():
    model = LlamaModel(tiny_config("MQA", seed=2))
    w = shared_prompt(n=4, system_len=20)
    assert bench.prefill_work(model, w, True)[2] == bench.prefill_work(model, w, False)[2]


# ------------------------------------------------------------------ c. batching


@pytest.mark.parametrize("b_rounds,c_continuous,c_static", [(1, (1, 3), (6, 8)), (2, (2, 4), (6, 8)),
                                                            (6, (6, 8), (6, 8)), (7, (6, 8), (7, 9))])
def test_slot_model_and_engine_give_the_article_schedule(b_rounds, c_continuous, c_static):
    w = bench.section_13_workload(b_rounds)
    jobs = [(r.arrival_step, r.max_new_tokens) for r in w.requests]
    for policy, c in (("continuous", c_continuous), ("static", c_static)):
        predicted = bench.slot_model(jobs, 2, policy)
        assert predicted[2] == c
        assert bench.engine_spans(w, policy) == predicted


def test_slot_model_closed_forms():
    jobs = [(0, r) for r in (5, 1, 3, 2, 4)]
    static = bench.slot_model(jobs, 2, "static")
    assert max(e for _, e in static) == 5 + 3 + 4  # Σ over groups of the group's longest
    assert bench.slot_model(jobs, 2, "continuous") == [(0, 5), (0, 1), (1, 4), (4, 6), (5, 9)]
    assert bench.slot_model(jobs, 5, "static") == [(0, r) for _, r in jobs]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_engine_matches_the_slot_model_on_realistic_workloads(seed):
    w = realistic(seed=seed)
    jobs = [(r.arrival_step, r.max_new_tokens) for r in w.requests]
    stats = {}
    for policy in ("continuous", "static"):
        spans = bench.engine_spans(w, policy)
        assert spans == bench.slot_model(jobs, w.engine["max_num_seqs"], policy)
        stats[policy] = bench.schedule_stats(w, spans)
    assert stats["static"]["makespan"] > stats["continuous"]["makespan"]
    assert stats["static"]["mean_latency"] > stats["continuous"]["mean_latency"]


# ------------------------------------------------------------------ b. KV memory


@pytest.mark.parametrize("block_size", [1, 2, 4, 8, 16])
def test_paged_waste_stays_below_the_bound(block_size):
    r = bench.kv_occupancy(None, realistic(), block_size)
    assert r["paged_waste"] <= r["bound"]
    assert r["paged_waste"] < r["exact_waste"] < r["max_length_waste"]
    if block_size == 1:
        assert r["paged_waste"] == 0
    else:
        assert abs(r["paged_waste"] / r["predicted"] - 1) < 0.25  # the last block is half full on average


def test_paged_waste_goal_at_small_blocks():
    assert bench.kv_occupancy(None, realistic(), 2)["paged_waste"] < 0.04


# ------------------------------------------------------------------ e. speculative decoding


def test_synthetic_pair_has_acceptance_alpha():
    p, q = bench.synthetic_pair(0.7, np.random.default_rng(0))
    assert np.isclose(np.minimum(p, q).sum(), 0.7) and np.isclose(p.sum(), 1) and np.isclose(q.sum(), 1)
    support = q > 0
    assert np.allclose(p[support] / q[support], 0.7)


@pytest.mark.parametrize("alpha,k", [(0.5, 3), (0.8, 4)])
def test_speculative_tokens_per_call_follow_the_formula(alpha, k):
    r = bench.speculative_rounds(alpha, k, 5000, seed=7)
    assert abs(r["alpha"] - alpha) < 0.02
    assert abs(r["tokens_per_call"] / bench.expected_tokens_per_call(r["alpha"], k) - 1) < 0.05
    assert abs(r["tokens_per_call"] / bench.expected_tokens_per_call(alpha, k) - 1) < 0.05
    # The window separates neighbouring acceptance rates, so the check can fail.
    assert abs(r["tokens_per_call"] / bench.expected_tokens_per_call(alpha - 0.15, k) - 1) > 0.05
    assert bench.expected_tokens_per_call(1.0, k) == k + 1


# ------------------------------------------------------------------ f. attention traffic


def test_tiled_attention_moves_less_memory_when_n_exceeds_the_tile():
    t = bench.attention_traffic(512, 16, 32)
    assert t["max_diff"] < 1e-9
    assert t["dense"] == t["dense_formula"] and t["tiled"] == t["tiled_formula"]
    assert t["tiled"] < t["dense"] / 3
    assert abs(t["dense"] / t["tiled"] / (2 * 32 / 16) - 1) < 0.1  # → 2·tile/d for N ≫ tile
    small = bench.attention_traffic(32, 16, 32)  # one query tile: K and V are read once either way
    assert small["tiled"] == 4 * 32 * 16 < small["dense"]


# ------------------------------------------------------------------ a. KV cache, and the driver


def test_cached_decode_is_faster_and_gives_the_same_tokens():
    r = bench.decode_speed(LlamaModel(tiny_config("GQA", dtype="float32")), 256, 2)
    assert len(r["tokens"]) == 3 and r["speedup"] > 1


def test_main_prints_a_table_of_measured_rows(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert bench.main(["--only", "cdf", "--json", str(out), "--strict"]) == 0
    text = capsys.readouterr().out
    assert "| gemessen / measured |" in text.replace("| | Messung / measurement ", "")
    rows = json.loads(out.read_text())["rows"]
    assert {r["part"] for r in rows} == set("cdf") and all(r["ok"] for r in rows)
    assert re.search(r"\| d \| gesparte Prompt-Token, N = 8, S = 35, B = 4 .*\| 224 \| = 224 \| 1\.000 \| ✓ \|", text)


def test_a_missed_goal_is_marked_and_fails_strict_mode(monkeypatch, capsys):
    missed = bench.Row("x", "goal", 3.0, 10.0, "≥", "x")
    assert missed.ok is False and "| 3.0× | ≥ 10.0× | 0.300 | ✗ |" in bench.table([missed])
    monkeypatch.setitem(bench.PARTS, "c", lambda: ([missed], []))
    assert bench.main(["--only", "c"]) == 0 and bench.main(["--only", "c", "--strict"]) == 1
    assert "1 ✗" in capsys.readouterr().out
