"""Greedy generation of one sequence, two ways: full recompute and paged KV cache.

These are the reference loops the tests compare, and the smallest complete use of the model, the
block pool, the K/V store and a kernel together. The scheduler (engine/scheduler.py) generalises the
paged loop to many sequences per step; it must produce the same tokens.

Both loops return the logits each generated token was chosen from. Following the Decode article, the
last chosen token is *not* processed: its K/V would only be needed for a further step.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.attention import Kernel, NoCacheAttention, PagedAttention, Segment, dense_attention
from engine.block_pool import BlockPool, SequenceBlocks
from engine.paged_kv import KVCache


@dataclass
class Generation:
    tokens: list[int] = field(default_factory=list)  # the generated tokens, in order
    logits: list[np.ndarray] = field(default_factory=list)  # logits each token was chosen from
    num_cached_tokens: int = 0  # prompt tokens served by the prefix cache
    forward_tokens: list[int] = field(default_factory=list)  # tokens processed per forward pass
    blocks: SequenceBlocks | None = None  # the sequence's share of the pool (still held with ``keep``)


def greedy_recompute(model, prompt: Sequence[int], max_new_tokens: int,
                     kernel: Kernel = dense_attention) -> Generation:
    """Every step runs the model over the whole sequence so far; no state survives between steps."""
    _check(prompt, max_new_tokens)
    seq = list(prompt)
    run = Generation()
    for _ in range(max_new_tokens):
        logits = model.forward(seq, np.arange(len(seq)), NoCacheAttention(kernel))[-1]
        run.forward_tokens.append(len(seq))
        _choose(run, seq, logits)
    return run


def greedy_paged(model, prompt: Sequence[int], max_new_tokens: int, *, block_size: int = 4,
                 num_blocks: int | None = None, chunk_size: int | None = None, kernel: Kernel = dense_attention,
                 pool: BlockPool | None = None, cache: KVCache | None = None, seq_id: Hashable = 0,
                 keep: bool = False) -> Generation:
    """Prefill (in chunks of ``chunk_size`` if given), then one token per step through the paged cache.

    Pass ``pool`` and ``cache`` to share them between calls (prefix caching across requests); with
    ``keep`` the sequence's blocks stay allocated afterwards until ``pool.free(run.blocks)``
    (otherwise they are freed at once and stay cached for later hits).
    """
    _check(prompt, max_new_tokens)
    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
    if pool is None:
        pool = BlockPool(num_blocks or -(-(len(prompt) + max_new_tokens) // block_size), block_size)
    if cache is None:
        cache = KVCache(model.config, pool.num_blocks, pool.block_size)
    if (cache.num_blocks, cache.block_size) != (pool.num_blocks, pool.block_size):
        raise ValueError("the K/V store and the block pool must have the same number and size of blocks")
    pool.check_fits(len(prompt) + max_new_tokens - 1)  # the last chosen token needs no slot

    blocks = SequenceBlocks(seq_id)
    run = Generation(num_cached_tokens=pool.allocate(blocks, prompt), blocks=blocks)
    table = blocks.block_table
    done = run.num_cached_tokens
    while done < len(prompt):  # prefill; the last chunk's last row gives the first token's logits
        n = min(chunk_size or len(prompt), len(prompt) - done)
        logits = _step(model, cache, table, prompt[done:done + n], done, kernel, run)
        done += n
        pool.commit(blocks, prompt, done)
    seq = list(prompt)
    for step in range(max_new_tokens):
        _choose(run, seq, logits)
        if step == max_new_tokens - 1:
            break
        pool.append(blocks, len(seq))  # may add a block when the last one is full
        logits = _step(model, cache, table, seq[-1:], len(seq) - 1, kernel, run)
        pool.commit(blocks, seq, len(seq))
    if not keep:
        pool.free(blocks)
    return run


def _step(model, cache, table, token_ids, start, kernel, run) -> np.ndarray:
    segment = Segment(table, start, len(token_ids))
    run.forward_tokens.append(len(token_ids))
    return model.forward(token_ids, segment.positions(), PagedAttention(cache, [segment], kernel))[-1]


def _choose(run: Generation, seq: list[int], logits: np.ndarray) -> None:
    token = int(np.argmax(logits))  # greedy; ties go to the lowest id
    run.tokens.append(token)
    run.logits.append(logits)
    seq.append(token)


def _check(prompt: Sequence[int], max_new_tokens: int) -> None:
    if len(prompt) == 0:
        raise ValueError("the prompt must contain at least one token")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be at least 1, got {max_new_tokens}")
