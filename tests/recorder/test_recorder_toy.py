"""The Decode article's toy model run by the engine: CONCEPTS.md §17 figure by figure."""

import math

import numpy as np
import pytest

from engine.attention import NoCacheAttention, PagedAttention, Segment, tiled
from engine.block_pool import BlockPool, SequenceBlocks
from engine.generate import greedy_paged, greedy_recompute
from engine.paged_kv import KVCache
from recorder.toy import ToyDecodeModel

TOY = ToyDecodeModel()
A, B, C = TOY.tokenizer.encode("ABC")


def test_prefill_of_a_b_gives_the_articles_h_and_chooses_a():
    run = greedy_paged(TOY, [A, B], 1)
    e = math.exp(1 / math.sqrt(2))
    h0, h1 = 1 / (1 + e), e / (1 + e)  # exact: the query B sees A with score 0 and itself with 1/√2
    assert (round(h0, 3), round(h1, 3)) == (0.330, 0.670)
    np.testing.assert_allclose(run.logits[0], [h1, h0, -1.0], rtol=0, atol=1e-15)
    assert run.tokens == [A]


def test_attention_weights_of_the_prefill_and_the_first_decode_step():
    pool, cache, seq = BlockPool(4, 4), KVCache(TOY.config, 4, 4), SequenceBlocks("s")
    pool.allocate(seq, [A, B])
    table = seq.block_table
    prefill = PagedAttention(cache, [Segment(table, 0, 2)], record=True)
    TOY.forward([A, B], [0, 1], prefill)
    weights = prefill.records[0]["steps"][0]["weights"][0, -1]  # head 0, query at position 1
    np.testing.assert_allclose(weights, [0.3302, 0.6698], atol=5e-5)
    pool.append(seq, 3)
    step = PagedAttention(cache, [Segment(table, 2, 1)], record=True)
    h = TOY.hidden([A], [2], step)[0]
    np.testing.assert_allclose(step.records[0]["steps"][0]["weights"][0, 0], [0.4011, 0.1978, 0.4011], atol=5e-5)
    np.testing.assert_allclose(h, [0.8022, 0.1978], atol=5e-5)


def test_greedy_decoding_alternates_a_b_discrepancy_d2():
    run = greedy_paged(TOY, [A, B], 6)
    assert TOY.tokenizer.decode(run.tokens) == "ABABAB"  # not one repeated token
    h = [(float(l[1]), float(l[0])) for l in run.logits]  # logits [h1, h0, -h0-h1]
    np.testing.assert_allclose(h[:4], [(0.3302, 0.6698), (0.8022, 0.1978), (0.3302, 0.6698), (0.7526, 0.2474)],
                               atol=5e-5)
    assert all(float(l[2]) == pytest.approx(-1.0) for l in run.logits)  # C: −h0−h1 = −1 always


def test_cached_and_recomputed_runs_agree_and_count_k_v_positions():
    cached = greedy_paged(TOY, [A, B], 4, block_size=2)
    full = greedy_recompute(TOY, [A, B], 4)
    tiles = greedy_paged(TOY, [A, B], 4, block_size=3, kernel=tiled(1))
    assert cached.tokens == full.tokens == tiles.tokens
    for run in (cached, tiles):
        np.testing.assert_allclose(run.logits, full.logits, rtol=0, atol=1e-15)
    # K/V positions after each pass: 2 after prefill, then one more per step. The chosen token is
    # not yet processed, so 4 chosen tokens leave 2 + 3 = 5 positions with K/V.
    assert np.cumsum(cached.forward_tokens).tolist() == [2, 3, 4, 5]
    assert full.forward_tokens == [2, 3, 4, 5]  # recompute processes the whole prefix each time


def test_toy_float32_and_no_positions():
    toy32 = ToyDecodeModel("float32")
    run = greedy_paged(toy32, [A, B], 4)
    assert run.tokens == [A, B, A, B] and run.logits[0].dtype == np.float32
    # No position encoding: the same context at other positions gives the same output.
    shifted = TOY.forward([A, B], [10, 11], NoCacheAttention())
    np.testing.assert_array_equal(shifted, TOY.forward([A, B], [0, 1], NoCacheAttention()))
