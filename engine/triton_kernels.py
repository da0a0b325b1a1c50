"""The paged and the tiled attention kernel in Triton: the part of the engine that is compiled separately.

Drop-in kernels for the torch backend (``torch_backend.py``), with the same signatures as its torch
kernels:

* ``paged_attention(q, k_cache, v_cache, block_tables, seq_of_token, q_pos, scale)`` – every token of a
  forward pass (decode tokens and prefill chunks of several sequences) attends causally to its
  sequence's K/V, read straight from the paged cache through the block table: one program per
  (token, K/V head), the query heads of that K/V head together (GQA reads each key once for the
  group), one cache block per step of the online softmax. vLLM's PagedAttention, decode-style.
* ``tiled(tile_size)`` – FlashAttention's forward pass (Algorithm 1) on contiguous K/V: one program per
  (tile of 16 queries, head), keys in tiles of ``tile_size`` (a power of two), running m, l and
  accumulator in registers, masked causally by position.

Scores are broadcast products summed over head_dim, not ``tl.dot``: ``tl.dot`` needs every dimension
≥ 16 (the tiny models have head_dim 8) and rounds float32 inputs to TF32 by default, and these
kernels are the engine's parity-checked reference in float32 *and* float64. head_dim, group and
block size need not be powers of two: they are padded to one and masked.

Without a CUDA GPU the module switches Triton to its interpreter (``TRITON_INTERPRET=1``, set before
``triton`` is imported, unless the variable is already set), which runs the same kernel code on the
CPU with numpy semantics; ``INTERPRETED`` says which mode is in force. The interpreter checks the
kernels' logic, not the compiler or the GPU's arithmetic – the CUDA tests in tests/peer do that on a
GPU machine.
"""

from __future__ import annotations

import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

import triton
import triton.language as tl
from triton import knobs

INTERPRETED = bool(knobs.runtime.interpret)
BLOCK_M = 16  # queries per program of the tiled kernel


@triton.jit
def _paged_kernel(q_ptr, k_ptr, v_ptr, out_ptr, tables_ptr, seq_ptr, pos_ptr,
                  stride_qt, stride_qh, stride_kb, stride_ks, stride_kh, stride_tb,
                  block_size, head_dim, group,
                  BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_G: tl.constexpr):
    token = tl.program_id(0)
    kv_head = tl.program_id(1)
    g = tl.arange(0, BLOCK_G)
    d = tl.arange(0, BLOCK_D)
    n = tl.arange(0, BLOCK_N)
    g_ok = g < group
    d_ok = d < head_dim
    heads = kv_head * group + g  # the query heads that read this K/V head (repeat_kv order)
    q = tl.load(q_ptr + token * stride_qt + heads[:, None] * stride_qh + d[None, :],
                mask=g_ok[:, None] & d_ok[None, :], other=0.0)
    pos = tl.load(pos_ptr + token)
    row = tl.load(seq_ptr + token)
    m = tl.full([BLOCK_G], float("-inf"), dtype=q.dtype)
    l = tl.zeros([BLOCK_G], dtype=q.dtype)
    acc = tl.zeros([BLOCK_G, BLOCK_D], dtype=q.dtype)
    for j in range(pos // block_size + 1):  # the blocks holding positions 0…pos
        block = tl.load(tables_ptr + row * stride_tb + j)
        key_pos = j * block_size + n
        valid = (n < block_size) & (key_pos <= pos)
        offs = block * stride_kb + n[:, None] * stride_ks + kv_head * stride_kh + d[None, :]
        kv_mask = valid[:, None] & d_ok[None, :]
        # other=0.0: slots past pos may hold NaN (never written); masked loads never see them.
        k = tl.load(k_ptr + offs, mask=kv_mask, other=0.0)
        v = tl.load(v_ptr + offs, mask=kv_mask, other=0.0)
        s = tl.sum(q[:, None, :] * k[None, :, :], axis=2)  # [BLOCK_G, BLOCK_N]; q comes scaled
        s = tl.where(valid[None, :], s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))  # finite: block 0 always holds position 0 ≤ pos
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new[:, None])
        l = alpha * l + tl.sum(p, axis=1)
        acc = alpha[:, None] * acc + tl.sum(p[:, :, None] * v[None, :, :], axis=1)
        m = m_new
    out = acc / l[:, None]
    tl.store(out_ptr + token * stride_qt + heads[:, None] * stride_qh + d[None, :], out,
             mask=g_ok[:, None] & d_ok[None, :])


@triton.jit
def _tiled_kernel(q_ptr, k_ptr, v_ptr, out_ptr, qpos_ptr, kpos_ptr,
                  num_queries, num_keys, head_dim, group,
                  stride_qt, stride_qh, stride_kt, stride_kh,
                  CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    head = tl.program_id(1)
    kv_head = head // group
    rows = start_m + tl.arange(0, BLOCK_M)
    d = tl.arange(0, BLOCK_D)
    n = tl.arange(0, BLOCK_N)
    r_ok = rows < num_queries
    d_ok = d < head_dim
    q = tl.load(q_ptr + rows[:, None] * stride_qt + head * stride_qh + d[None, :],
                mask=r_ok[:, None] & d_ok[None, :], other=0.0)
    q_pos = tl.load(qpos_ptr + rows, mask=r_ok, other=0)
    m = tl.full([BLOCK_M], float("-inf"), dtype=q.dtype)
    l = tl.zeros([BLOCK_M], dtype=q.dtype)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=q.dtype)
    for start_n in range(0, num_keys, BLOCK_N):
        cols = start_n + n
        c_ok = cols < num_keys
        kv_mask = c_ok[:, None] & d_ok[None, :]
        offs = cols[:, None] * stride_kt + kv_head * stride_kh + d[None, :]
        k = tl.load(k_ptr + offs, mask=kv_mask, other=0.0)
        v = tl.load(v_ptr + offs, mask=kv_mask, other=0.0)
        s = tl.sum(q[:, None, :] * k[None, :, :], axis=2)  # [BLOCK_M, BLOCK_N]; q comes scaled
        seen = c_ok[None, :]
        if CAUSAL:
            k_pos = tl.load(kpos_ptr + cols, mask=c_ok, other=0)
            seen = seen & (k_pos[None, :] <= q_pos[:, None])
        s = tl.where(seen, s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        # A row that has seen only masked keys keeps m = −inf: shift by 0 there (no −inf − (−inf)).
        shift = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.exp(m - shift)
        p = tl.exp(s - shift[:, None])
        l = alpha * l + tl.sum(p, axis=1)
        acc = alpha[:, None] * acc + tl.sum(p[:, :, None] * v[None, :, :], axis=1)
        m = m_new
    out = acc / l[:, None]
    tl.store(out_ptr + rows[:, None] * stride_qt + head * stride_qh + d[None, :], out,
             mask=r_ok[:, None] & d_ok[None, :])


def _check(q, *tensors):
    if q.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"the Triton kernels take float32 or float64, got {q.dtype}")
    if any(t.dtype != q.dtype for t in tensors):
        raise TypeError("q, k and v must have the same dtype")
    if not INTERPRETED and q.device.type != "cuda":
        raise ValueError("compiled Triton kernels need CUDA tensors (without a GPU, set TRITON_INTERPRET=1)")


def _scaled(q, scale):
    # The scale is applied here, in q's dtype: a Python float passed to a compiled Triton kernel
    # becomes a float32 scalar, which would cost a float64 model its last eight digits.
    return (q * scale).contiguous()


def paged_attention(q, k_cache, v_cache, block_tables, seq_of_token, q_pos, scale, record=None):
    """``torch_backend.paged_attention`` in Triton (same arguments, same result)."""
    if record is not None:
        raise ValueError("the paged kernel records nothing; use dense_attention or tiled(n) for records")
    _check(q, k_cache, v_cache)
    tokens, heads, head_dim = q.shape
    _, block_size, kv_heads, _ = k_cache.shape
    if heads % kv_heads:
        raise ValueError(f"{heads} query heads cannot share {kv_heads} K/V heads evenly")
    q, k_cache, v_cache = _scaled(q, scale), k_cache.contiguous(), v_cache.contiguous()
    block_tables = block_tables.contiguous()
    out = torch.empty_like(q)
    if tokens:
        group = heads // kv_heads
        _paged_kernel[(tokens, kv_heads)](
            q, k_cache, v_cache, out, block_tables, seq_of_token.contiguous(), q_pos.contiguous(),
            q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
            block_tables.stride(0), block_size, head_dim, group,
            BLOCK_N=triton.next_power_of_2(block_size), BLOCK_D=triton.next_power_of_2(head_dim),
            BLOCK_G=triton.next_power_of_2(group))
    return out


paged_attention.__name__ = "triton_paged_attention"
paged_attention.paged = True
paged_attention.backend = "triton"


def tiled_attention(q, k, v, q_pos, k_pos, scale, causal=True, record=None, *, tile_size):
    """FlashAttention forward in Triton; the numpy/torch ``tiled_attention`` without the records."""
    if record is not None:
        raise ValueError("the Triton kernel records nothing; use the torch or numpy tiled kernel for records")
    if tile_size < 1 or tile_size & (tile_size - 1):
        raise ValueError(f"tile_size must be a power of two, got {tile_size}")
    _check(q, k, v)
    tokens, heads, head_dim = q.shape
    keys, kv_heads = k.shape[0], k.shape[1]
    if heads % kv_heads:
        raise ValueError(f"{heads} query heads cannot share {kv_heads} K/V heads evenly")
    q, k, v = _scaled(q, scale), k.contiguous(), v.contiguous()
    out = torch.empty_like(q)
    if tokens:
        _tiled_kernel[(triton.cdiv(tokens, BLOCK_M), heads)](
            q, k, v, out, q_pos.contiguous(), k_pos.contiguous(),
            tokens, keys, head_dim, heads // kv_heads,
            q.stride(0), q.stride(1), k.stride(0), k.stride(1),
            CAUSAL=bool(causal), BLOCK_M=BLOCK_M, BLOCK_N=tile_size, BLOCK_D=triton.next_power_of_2(head_dim))
    return out


def tiled(tile_size: int):
    """The Triton tiled kernel with a fixed tile size, usable wherever a torch kernel is expected."""
    if tile_size < 1 or tile_size & (tile_size - 1):
        raise ValueError(f"tile_size must be a power of two, got {tile_size}")

    def kernel(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
        return tiled_attention(q, k, v, q_pos, k_pos, scale, causal, record, tile_size=tile_size)

    kernel.__name__ = f"triton_tiled_{tile_size}"
    kernel.backend = "triton"
    return kernel
