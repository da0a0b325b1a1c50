"""The K/V numbers of the paged cache: one array per K and V, indexed by physical block.

``block_pool.py`` decides which block a position goes to; this module only stores and fetches. The
layout is ``[layer, block, offset in block, kv head, head dim]``, so one block of one layer is a
contiguous ``block_size × kv_heads × head_dim`` tile, as in vLLM. Only K/V heads are stored: with
GQA/MQA several query heads read the same stored head, which is the memory saving.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class KVCache:
    def __init__(self, config, num_blocks: int, block_size: int):
        """``config`` is any model config with num_layers, num_kv_heads, head_dim and dtype."""
        if num_blocks < 1 or block_size < 1:
            raise ValueError(f"num_blocks and block_size must be positive, got {num_blocks}, {block_size}")
        self.block_size = block_size
        self.num_blocks = num_blocks
        shape = (config.num_layers, num_blocks, block_size, config.num_kv_heads, config.head_dim)
        # NaN, not zeros: a read of a slot that was never written then poisons the result and a
        # test notices, instead of silently attending to a zero key.
        self.k = np.full(shape, np.nan, dtype=config.dtype)
        self.v = np.full(shape, np.nan, dtype=config.dtype)

    @property
    def bytes_reserved(self) -> int:
        return self.k.nbytes + self.v.nbytes

    def _slots(self, block_table: Sequence[int], positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        index = positions // self.block_size
        if len(positions) and int(index.max()) >= len(block_table):
            raise IndexError(
                f"position {int(positions.max())} needs logical block {int(index.max())}, but the block "
                f"table has only {len(block_table)} blocks: allocate before writing"
            )
        return np.asarray(block_table, dtype=np.int64)[index], positions % self.block_size

    def write(self, layer: int, block_table: Sequence[int], positions: np.ndarray, k: np.ndarray, v: np.ndarray):
        """Store K/V (shape ``[tokens, kv_heads, head_dim]``) of the given positions of one sequence."""
        blocks, offsets = self._slots(block_table, np.asarray(positions))
        self.k[layer, blocks, offsets] = k
        self.v[layer, blocks, offsets] = v

    def read(self, layer: int, block_table: Sequence[int], length: int) -> tuple[np.ndarray, np.ndarray]:
        """K/V of positions 0 … length−1 of one sequence, gathered through its block table."""
        n = -(-length // self.block_size)
        if n > len(block_table):
            raise IndexError(f"{length} positions need {n} blocks, the block table has {len(block_table)}")
        table = np.asarray(block_table[:n], dtype=np.int64)
        shape = (n * self.block_size, *self.k.shape[3:])
        return self.k[layer, table].reshape(shape)[:length], self.v[layer, table].reshape(shape)[:length]
