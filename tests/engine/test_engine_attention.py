"""Attention kernels and backends: dense = tiled = paged, against a loop written from the formula."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.attention import (
    NoCacheAttention,
    PagedAttention,
    Segment,
    attention_maps,
    dense_attention,
    positions_of,
    tiled,
    tiled_attention,
)
from engine.paged_kv import KVCache


def naive_attention(q, k, v, q_pos, k_pos, scale, causal):
    """Scaled dot-product attention one query and one head at a time, with math.exp."""
    tokens, heads, _ = q.shape
    group = heads // k.shape[1]
    out = np.zeros_like(q)
    for t in range(tokens):
        for h in range(heads):
            kv = h // group
            visible = [j for j in range(k.shape[0]) if not causal or k_pos[j] <= q_pos[t]]
            scores = [float(q[t, h] @ k[j, kv]) * scale for j in visible]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            out[t, h] = sum(w / total * v[j, kv] for w, j in zip(weights, visible))
    return out


def random_qkv(rng, tokens, keys, heads, kv_heads, dim=4):
    q = rng.standard_normal((tokens, heads, dim))
    k = rng.standard_normal((keys, kv_heads, dim))
    v = rng.standard_normal((keys, kv_heads, dim))
    return q, k, v


@pytest.mark.parametrize("heads,kv_heads", [(4, 4), (4, 2), (4, 1), (6, 3)])
@pytest.mark.parametrize("causal", [True, False])
def test_dense_matches_the_formula_for_mha_gqa_mqa(heads, kv_heads, causal):
    rng = np.random.default_rng(heads * 10 + kv_heads)
    q, k, v = random_qkv(rng, 5, 9, heads, kv_heads)
    q_pos, k_pos = np.arange(4, 9), np.arange(9)  # a chunk at positions 4…8 over 9 keys
    got = dense_attention(q, k, v, q_pos, k_pos, 0.5, causal)
    np.testing.assert_allclose(got, naive_attention(q, k, v, q_pos, k_pos, 0.5, causal), rtol=0, atol=1e-12)


def test_gqa_head_mapping_is_repeat_interleave_not_tile():
    """Query heads 0, 1 read K/V head 0 and heads 2, 3 read K/V head 1 (Transformers' repeat_kv)."""
    rng = np.random.default_rng(1)
    q = rng.standard_normal((1, 4, 2))
    k = np.zeros((1, 2, 2))  # a single key: every head puts weight 1 on it
    v = np.array([[[1.0, 1.0], [2.0, 2.0]]])
    out = dense_attention(q, k, v, [0], [0], 1.0)
    assert out[0, :, 0].tolist() == [1.0, 1.0, 2.0, 2.0]


TILES = [1, 7, 64, "N"]


@pytest.mark.parametrize("tile", TILES)
@pytest.mark.parametrize("causal", [True, False])
@pytest.mark.parametrize("heads,kv_heads", [(4, 4), (4, 2), (4, 1)])
def test_online_softmax_equals_dense(tile, causal, heads, kv_heads):
    rng = np.random.default_rng(7)
    n = 40
    q, k, v = random_qkv(rng, n, n, heads, kv_heads, dim=8)
    q = q * 3  # larger scores, so that the running maximum really moves between tiles
    pos = np.arange(n)
    size = n if tile == "N" else tile
    want = dense_attention(q, k, v, pos, pos, 8 ** -0.5, causal)
    with np.errstate(all="raise"):  # no NaN or overflow from fully masked tiles
        got = tiled_attention(q, k, v, pos, pos, 8 ** -0.5, causal, tile_size=size)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@given(tokens=st.integers(1, 12), extra=st.integers(0, 12), tile=st.integers(1, 30), kv=st.sampled_from([1, 2, 4]),
       causal=st.booleans(), seed=st.integers(0, 2**16))
@settings(max_examples=60, deadline=None)
def test_online_softmax_equals_dense_for_any_chunk_and_tile(tokens, extra, tile, kv, causal, seed):
    rng = np.random.default_rng(seed)
    keys = tokens + extra
    q, k, v = random_qkv(rng, tokens, keys, 4, kv)
    q_pos, k_pos = np.arange(extra, keys), np.arange(keys)  # the newest `tokens` positions query all keys
    want = dense_attention(q, k, v, q_pos, k_pos, 0.5, causal)
    got = tiled_attention(q, k, v, q_pos, k_pos, 0.5, causal, tile_size=tile)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def flash_article_inputs():
    """CONCEPTS.md §18: scores [0, 0, ln 3, ln 3], values [0, 0, 1, 1], one query, scalar values."""
    q = np.ones((1, 1, 1))
    k = np.array([0.0, 0.0, math.log(3), math.log(3)]).reshape(4, 1, 1)
    v = np.array([0.0, 0.0, 1.0, 1.0]).reshape(4, 1, 1)
    return q, k, v, [0], np.arange(4)


def test_recorded_m_l_u_follow_the_flash_attention_article():
    q, k, v, q_pos, k_pos = flash_article_inputs()
    steps = []
    out = tiled_attention(q, k, v, q_pos, k_pos, 1.0, causal=False, record=steps, tile_size=2)
    assert [s["keys"] for s in steps] == [(0, 2), (2, 4)]
    first, second = ([float(s[x].ravel()[0]) for x in "mlu"] for s in steps)
    assert first == [0.0, 2.0, 0.0]  # block 1: m = 0, l = 2, u = 0
    assert second[0] == pytest.approx(math.log(3), abs=1e-15)  # the maximum rose to ln 3 ...
    assert second[1] == pytest.approx(8 / 3, abs=1e-15)  # ... so the old l = 2 was rescaled to 2/3
    assert second[2] == pytest.approx(2.0, abs=1e-15)
    assert float(out.ravel()[0]) == pytest.approx(0.75, abs=1e-15)
    # The naive mean of the two block results (0 and 1) would be 0.5: the rescaling matters.
    block_results = [float(dense_attention(q, k[i:i + 2], v[i:i + 2], q_pos, k_pos[i:i + 2], 1.0, False).ravel()[0])
                     for i in (0, 2)]
    assert block_results == [0.0, pytest.approx(1.0)] and sum(block_results) / 2 == pytest.approx(0.5)


@pytest.mark.parametrize("tile", [1, 2, 4])
def test_article_example_is_exact_for_every_block_size(tile):
    q, k, v, q_pos, k_pos = flash_article_inputs()
    steps = []
    out = tiled_attention(q, k, v, q_pos, k_pos, 1.0, causal=False, record=steps, tile_size=tile)
    assert len(steps) == 4 // tile
    assert float(out.ravel()[0]) == pytest.approx(0.75, abs=1e-15)


def test_kernel_errors_are_clear():
    q, k, v = random_qkv(np.random.default_rng(0), 2, 2, 3, 2)
    with pytest.raises(ValueError, match="cannot share"):
        dense_attention(q, k, v, [0, 1], [0, 1], 1.0)
    with pytest.raises(ValueError, match="tile_size"):
        tiled(0)
    with pytest.raises(ValueError, match="tile_size"):
        tiled_attention(q, k[:, :1], v[:, :1], [0, 1], [0, 1], 1.0, tile_size=0)


# ------------------------------------------------------------------ paged attention


class Cfg:
    num_layers, num_kv_heads, head_dim, dtype = 1, 1, 1, "float64"


def test_paged_article_block_size_4_at_length_5():
    """CONCEPTS.md §14: 5 positions in blocks of 4 → 2 blocks; logical 0, 1 → physical 4, 1; mean 3."""
    cache = KVCache(Cfg, num_blocks=8, block_size=4)
    values = np.arange(1.0, 6.0).reshape(5, 1, 1)
    keys = np.zeros((5, 1, 1))  # all scores 0: equal weights, the output is the mean of the values
    outputs = {}
    for table in ([4, 1], [0, 7]):  # "Anordnung ändern": the same data in other physical blocks
        attn = PagedAttention(cache, [Segment(table, 0, 5)])
        out = attn(0, np.ones((5, 1, 1)), keys, values, np.arange(5), 1.0)
        outputs[tuple(table)] = out[:, 0, 0]
    assert outputs[(4, 1)].tolist() == pytest.approx([1, 1.5, 2, 2.5, 3])  # (n+1)/2
    assert outputs[(4, 1)].tolist() == outputs[(0, 7)].tolist()
    # The data really lies where the table says: block 4 holds positions 0-3, block 1 position 4.
    assert cache.v[0, 4, :, 0, 0].tolist() == [1, 2, 3, 4]
    assert cache.v[0, 1, 0, 0, 0] == 5 and np.isnan(cache.v[0, 1, 1:]).all()


@pytest.mark.parametrize("block_size", [1, 3, 4, 16])
@pytest.mark.parametrize("kv_heads", [4, 2, 1])
def test_paged_chunks_through_a_scrambled_table_equal_dense(block_size, kv_heads):
    rng = np.random.default_rng(block_size + kv_heads)
    n = 13
    q, k, v = random_qkv(rng, n, n, 4, kv_heads)

    class C:
        num_layers, num_kv_heads, head_dim, dtype = 1, kv_heads, 4, "float64"

    num_blocks = -(-n // block_size)
    cache = KVCache(C, num_blocks=num_blocks + 3, block_size=block_size)
    table = list(rng.permutation(num_blocks + 3)[:num_blocks])
    want = dense_attention(q, k, v, np.arange(n), np.arange(n), 0.5)
    got = np.empty_like(q)
    for start, stop in [(0, 5), (5, 6), (6, 13)]:  # prefill chunk, one token, the rest
        attn = PagedAttention(cache, [Segment(table, start, stop - start)])
        got[start:stop] = attn(0, q[start:stop], k[start:stop], v[start:stop], np.arange(start, stop), 0.5)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_one_forward_pass_can_carry_several_sequences():
    """A prefill chunk of one sequence and a decode token of another, batched = run apart."""
    rng = np.random.default_rng(3)

    class C:
        num_layers, num_kv_heads, head_dim, dtype = 1, 2, 4, "float64"

    q, k, v = random_qkv(rng, 7, 7, 4, 2)
    apart = KVCache(C, 8, 2)
    together = KVCache(C, 8, 2)
    # Sequence 1: 3 cached positions already (blocks 0, 1), now 1 decode token at position 3.
    # Sequence 2: a fresh prompt chunk of 3 tokens in blocks 5, 6.
    for cache in (apart, together):
        PagedAttention(cache, [Segment([0, 1], 0, 3)])(0, q[:3], k[:3], v[:3], np.arange(3), 0.5)
    segs = [Segment([0, 1], 3, 1), Segment([5, 6], 0, 3)]
    batched = PagedAttention(together, segs)(0, q[3:], k[3:], v[3:], positions_of(segs), 0.5)
    one = PagedAttention(apart, segs[:1])(0, q[3:4], k[3:4], v[3:4], np.arange(3, 4), 0.5)
    two = PagedAttention(apart, segs[1:])(0, q[4:], k[4:], v[4:], np.arange(3), 0.5)
    np.testing.assert_array_equal(batched, np.concatenate([one, two]))


def test_records_name_layer_segment_and_kernel():
    rng = np.random.default_rng(0)
    q, k, v = random_qkv(rng, 3, 3, 2, 1)
    attn = NoCacheAttention(tiled(2), record=True)
    attn(1, q, k, v, np.arange(3), 0.5)
    (rec,) = attn.records
    assert (rec["layer"], rec["segment"], rec["kernel"], len(rec["steps"])) == (1, 0, "tiled_2", 2)
    dense = NoCacheAttention(record=True)
    dense(0, q, k, v, np.arange(3), 0.5)
    weights = dense.records[0]["steps"][0]["weights"]
    assert weights.shape == (2, 3, 3) and np.allclose(weights.sum(-1), 1) and weights[0, 0, 1] == 0


def test_paged_errors_are_clear():
    cache = KVCache(Cfg, 2, 2)
    one = np.ones((3, 1, 1))
    with pytest.raises(IndexError, match="allocate before writing"):
        PagedAttention(cache, [Segment([0], 0, 3)])(0, one, one, one, np.arange(3), 1.0)
    with pytest.raises(ValueError, match="do not match"):
        PagedAttention(cache, [Segment([0, 1], 0, 3)])(0, one, one, one, np.arange(1, 4), 1.0)
    with pytest.raises(ValueError, match="at least one new token"):
        PagedAttention(cache, [Segment([0], 0, 0)])
    with pytest.raises(ValueError, match="positive"):
        KVCache(Cfg, 0, 4)


def test_attention_maps_are_causal_probabilities_per_layer_and_head():
    """engine.attention.attention_maps (the attention page's real-model heatmap; tests/peer checks it against
    Transformers): one row per query, summing to 1, nothing above the diagonal, and a prefix's maps are
    the top-left corner of a longer text's (a later token never changes an earlier row)."""
    from engine.model import tiny_model

    model = tiny_model("GQA")
    ids = [3, 1, 4, 1, 5, 9, 2]
    maps = attention_maps(model, ids)
    c = model.config
    assert maps.shape == (c.num_layers, c.num_heads, len(ids), len(ids))
    np.testing.assert_allclose(maps.sum(-1), 1.0, rtol=0, atol=1e-12)
    assert np.all(np.triu(maps, 1) == 0) and np.all(maps >= 0)
    np.testing.assert_allclose(attention_maps(model, ids[:4]), maps[:, :, :4, :4], rtol=0, atol=1e-12)
    assert maps[:, :, 0, 0].tolist() == [[1.0] * c.num_heads] * c.num_layers  # the first token sees only itself
