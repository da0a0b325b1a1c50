"""Attention: two kernels (how the softmax is computed) and two backends (where K/V come from).

Kernels share one signature, ``kernel(q, k, v, q_pos, k_pos, scale, causal=True, record=None)``, with
``q`` of shape ``[tokens, heads, head_dim]`` and ``k``, ``v`` of shape ``[keys, kv_heads, head_dim]``:

* ``dense_attention`` – the reference: the whole score matrix, one softmax.
* ``tiled_attention`` – FlashAttention's forward pass (Dao et al. 2022, Algorithm 1; the online
  softmax of Milakov & Gimelshein 2018): keys in tiles, a running maximum m, sum l and numerator u
  per query, rescaled by e^{m − m′} whenever a tile raises the maximum. The same result without ever
  holding a full row of scores.

Grouped-query attention: query head h reads K/V head ``h // (heads / kv_heads)`` (Transformers'
``repeat_kv`` order), so MHA, GQA and MQA are one code path. Causality is by position, not by index:
query at position p sees keys at positions ≤ p, which is what makes a chunk of a prompt, or a single
decode token, attend correctly to cached earlier positions.

Backends are what the model calls, ``attn(layer, q, k, v, positions, scale)``:

* ``NoCacheAttention`` – attends only within the tokens of this forward pass. Running the model on
  the whole prefix at every step with it is the *full recompute* reference.
* ``PagedAttention`` – writes the new K/V into the paged cache, then reads each sequence's K/V back
  through its block table. Several sequences (prefill chunks and decode tokens) can share one forward
  pass, each described by a ``Segment``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.paged_kv import KVCache

Kernel = Callable[..., np.ndarray]


def _expand_kv(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    heads, kv_heads = q.shape[1], k.shape[1]
    if heads % kv_heads:
        raise ValueError(f"{heads} query heads cannot share {kv_heads} K/V heads evenly")
    group = heads // kv_heads
    # Repeat each K/V head `group` times in place: [k0, k0, k1, k1] for 4 heads over 2 K/V heads.
    return np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)


def _mask(q_pos: np.ndarray, k_pos: np.ndarray) -> np.ndarray:
    """True where a key lies in the query's future (must not be seen)."""
    return np.asarray(k_pos)[None, :] > np.asarray(q_pos)[:, None]


def dense_attention(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
    """softmax(q·kᵀ·scale) v over all keys at once. Records the weights ``[heads, tokens, keys]``."""
    k, v = _expand_kv(q, k, v)
    scores = np.einsum("thd,shd->hts", q, k) * scale
    if causal:
        scores = np.where(_mask(q_pos, k_pos)[None], -np.inf, scores)
    # Subtracting the row maximum changes nothing mathematically and keeps exp from overflowing.
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    if record is not None:
        record.append({"weights": weights.copy()})
    return np.einsum("hts,shd->thd", weights, v)


def tiled_attention(q, k, v, q_pos, k_pos, scale, causal=True, record=None, *, tile_size):
    """Online softmax over key tiles of ``tile_size`` (FlashAttention Algorithm 1, forward).

    With ``record`` a list, appends one dict per tile: the key range and m, l, u after that tile
    (shapes ``[heads, tokens]``, ``[heads, tokens]``, ``[heads, tokens, head_dim]``).
    """
    if tile_size < 1:
        raise ValueError(f"tile_size must be at least 1, got {tile_size}")
    k, v = _expand_kv(q, k, v)
    heads, tokens, dim = q.shape[1], q.shape[0], q.shape[2]
    m = np.full((heads, tokens), -np.inf, dtype=q.dtype)
    l = np.zeros((heads, tokens), dtype=q.dtype)
    u = np.zeros((heads, tokens, dim), dtype=q.dtype)
    k_pos = np.asarray(k_pos)
    for start in range(0, k.shape[0], tile_size):
        stop = min(start + tile_size, k.shape[0])
        s = np.einsum("thd,shd->hts", q, k[start:stop]) * scale
        if causal:
            s = np.where(_mask(q_pos, k_pos[start:stop])[None], -np.inf, s)
        m_new = np.maximum(m, s.max(axis=-1))
        # A query that has seen only masked keys so far still has m = −inf; shift by 0 there so that
        # e^{−inf − (−inf)} does not turn into NaN (its l and u stay 0, which is right).
        shift = np.where(np.isneginf(m_new), 0.0, m_new)
        alpha = np.exp(m - shift)  # e^{m − m′}: rescales what was summed under the old maximum
        p = np.exp(s - shift[..., None])
        l = alpha * l + p.sum(axis=-1)
        u = alpha[..., None] * u + np.einsum("hts,shd->htd", p, v[start:stop])
        m = m_new
        if record is not None:
            record.append({"keys": (start, stop), "m": m.copy(), "l": l.copy(), "u": u.copy()})
    return (u / l[..., None]).transpose(1, 0, 2)


def tiled(tile_size: int) -> Kernel:
    """The tiled kernel with a fixed tile size, usable wherever a kernel is expected."""
    if tile_size < 1:
        raise ValueError(f"tile_size must be at least 1, got {tile_size}")

    def kernel(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
        return tiled_attention(q, k, v, q_pos, k_pos, scale, causal, record, tile_size=tile_size)

    kernel.__name__ = f"tiled_{tile_size}"
    return kernel


class NoCacheAttention:
    """Attention among the tokens of this forward pass only: the full-recompute reference."""

    def __init__(self, kernel: Kernel = dense_attention, record: bool = False):
        self.kernel = kernel
        self.records: list[dict] | None = [] if record else None

    def __call__(self, layer, q, k, v, positions, scale):
        steps = None if self.records is None else []
        out = self.kernel(q, k, v, positions, positions, scale, True, steps)
        if steps is not None:
            self.records.append({"layer": layer, "segment": 0, "kernel": self.kernel.__name__, "steps": steps})
        return out


@dataclass(frozen=True)
class Segment:
    """One sequence's share of a forward pass: ``length`` new tokens from position ``start`` on.

    ``start`` is how many of its positions already have K/V in the cache (cached prefix, earlier
    chunks, earlier decode steps).
    """

    block_table: Sequence[int]
    start: int
    length: int

    def positions(self) -> np.ndarray:
        return np.arange(self.start, self.start + self.length)


def positions_of(segments: Sequence[Segment]) -> np.ndarray:
    """Positions of all tokens of a forward pass, segment after segment."""
    return np.concatenate([s.positions() for s in segments]) if segments else np.zeros(0, dtype=np.int64)


class PagedAttention:
    """KV-cached attention over a paged cache, for a forward pass made of ``segments``."""

    def __init__(self, cache: KVCache, segments: Sequence[Segment], kernel: Kernel = dense_attention,
                 record: bool = False):
        if any(s.length < 1 or s.start < 0 for s in segments):
            raise ValueError("every segment needs at least one new token and a non-negative start")
        self.cache = cache
        self.segments = list(segments)
        self.kernel = kernel
        self.records: list[dict] | None = [] if record else None

    def __call__(self, layer, q, k, v, positions, scale):
        expected = positions_of(self.segments)
        if not np.array_equal(positions, expected):
            raise ValueError("the forward pass's positions do not match the attention segments")
        out = np.empty_like(q)
        offset = 0
        for index, seg in enumerate(self.segments):
            rows = slice(offset, offset + seg.length)
            pos = positions[rows]
            # Write first, then read: the new tokens attend to themselves (and to each other,
            # causally) through the same path as to the cached prefix.
            self.cache.write(layer, seg.block_table, pos, k[rows], v[rows])
            context = seg.start + seg.length
            k_ctx, v_ctx = self.cache.read(layer, seg.block_table, context)
            steps = None if self.records is None else []
            out[rows] = self.kernel(q[rows], k_ctx, v_ctx, pos, np.arange(context), scale, True, steps)
            if steps is not None:
                self.records.append({"layer": layer, "segment": index, "kernel": self.kernel.__name__,
                                     "steps": steps})
            offset += seg.length
        return out


def attention_maps(model, token_ids: Sequence[int]) -> np.ndarray:
    """The attention probabilities of every layer and query head when ``model`` reads ``token_ids`` from
    position 0: ``[layers, heads, tokens, tokens]``, row = query, column = key, 0 above the diagonal.
    The same numbers as Transformers' ``output_attentions=True`` with eager attention (tests/peer)."""
    attn = NoCacheAttention(record=True)
    model.forward(list(token_ids), np.arange(len(token_ids)), attn)
    return np.stack([record["steps"][0]["weights"] for record in attn.records])
