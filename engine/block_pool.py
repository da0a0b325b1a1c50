"""Paged KV-cache bookkeeping: which physical block holds which part of which sequence.

This module moves no tensors (``paged_kv.py`` holds the K/V numbers); it decides *where* they go.

* The cache is cut into ``num_blocks`` blocks of ``block_size`` token positions each. A sequence's
  **block table** lists its physical blocks in text order: position p lives in block
  ``table[p // block_size]`` at offset ``p % block_size`` (Kwon et al., PagedAttention §4.2).
* The **sequence owns its block table** and the chain hashes of its committed blocks
  (``block_table``, ``block_hashes``: any object with these two lists and a ``seq_id``, such as
  ``SequenceBlocks`` or the scheduler's ``SequenceState``). The pool hands blocks out, counts their
  references and keeps the prefix cache; it keeps no list of sequences (as nano-vllm's block manager).
* A block may belong to several sequences at once (a shared prompt prefix), so each block counts its
  references. A block whose count drops to 0 goes to the **free queue**.
* **Prefix caching** (vLLM's automatic prefix caching): once a block is full *and its K/V has been
  written* (``commit``), it is registered under a hash chained over (parent block's hash, its token
  ids). A later prompt with the same leading blocks finds them by recomputing the chain and reuses
  them instead of recomputing their K/V. On a hit the stored tokens and parent hash are compared too,
  so a hash collision becomes a miss, never wrong K/V.
* A freed block keeps its K/V and its hash while it waits in the free queue; it is only **evicted**
  when the queue hands it out again. The queue is least-recently-released first, so the blocks that
  were used last survive longest (LRU). Blocks without a hash go to the front: reusing them loses
  nothing.
* The last prompt token is never served from the cache: the model must process at least one prompt
  position, otherwise there would be no logits to choose the first new token from.

* Every bookkeeping step is reported to ``on_event`` (a ``BlockEvent``), if someone subscribed; the
  pool itself keeps no record of them.

Errors: ``ValueError`` for a configuration or request that can never work (block size 0, a request
larger than the whole pool); ``NoFreeBlocks`` for a shortage that ends when other sequences finish
or are preempted (the scheduler's business); ``KeyError`` for a sequence that holds no blocks where
it must.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

ROOT_HASH = b""  # the parent of a sequence's first block

HashFn = Callable[[bytes, tuple[int, ...]], bytes]


def block_hash(parent: bytes, tokens: tuple[int, ...]) -> bytes:
    """Chained block hash: sha256 over the parent's hash and the block's token ids.

    Chaining makes a block's key depend on *everything before it*: the same two tokens after a
    different prefix have different K/V (every layer mixes in earlier positions), so they must not
    match. sha256 rather than Python's ``hash`` so that keys are identical on every machine and run,
    which keeps recorded traces reproducible.
    """
    data = parent + np.asarray(tokens, dtype="<i8").tobytes()
    return hashlib.sha256(data).digest()


def short_hash(h: bytes | None) -> str:
    """Eight hex digits for traces and messages."""
    return "-" if h is None else h.hex()[:8]


class NoFreeBlocks(RuntimeError):
    """Not enough free blocks right now; retry after other sequences free theirs (or preempt one)."""


@dataclass
class Block:
    block_id: int
    ref_count: int = 0
    block_hash: bytes | None = None  # set while registered in the prefix cache
    parent_hash: bytes | None = None
    token_ids: tuple[int, ...] = ()  # the tokens whose K/V the block holds, compared on a hit


class HoldsBlocks(Protocol):
    """What the pool needs of a sequence: its id (for events and messages) and the two lists it owns."""

    block_table: list[int]  # physical blocks in text order; empty while the sequence holds none
    block_hashes: list[bytes]  # chain hashes of its committed full blocks, in order

    @property
    def seq_id(self) -> Hashable: ...


@dataclass
class SequenceBlocks:
    """A sequence's share of the pool and nothing else: for a driver that has no sequence type of its own."""

    seq_id: Hashable = 0
    block_table: list[int] = field(default_factory=list)
    block_hashes: list[bytes] = field(default_factory=list)


@dataclass(frozen=True)
class BlockEvent:
    """One bookkeeping step, in order; a recorder turns these into trace events.

    kind: ``allocate`` (taken from the free queue), ``evict`` (a cached block's hash dropped because
    the block is reused), ``hit`` (prefix-cache reuse), ``cache`` (registered after commit),
    ``free`` (a sequence dropped its reference and the count reached 0), ``unref`` (a sequence
    dropped its reference to a block still shared with others). With ``unref`` every reference
    change is an event, so a trace replays the reference counts without knowing the pool's code.
    """

    kind: str
    block_id: int
    seq_id: Hashable | None = None
    block_hash: bytes | None = None


@dataclass
class BlockPool:
    num_blocks: int
    block_size: int
    prefix_caching: bool = True
    hash_fn: HashFn = block_hash  # replaceable so tests can force collisions
    on_event: Callable[[BlockEvent], None] | None = None
    blocks: list[Block] = field(init=False)

    def __post_init__(self) -> None:
        for name in ("num_blocks", "block_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.blocks = [Block(i) for i in range(self.num_blocks)]
        # Free queue, front = handed out next. An OrderedDict gives O(1) removal from the middle,
        # which a prefix hit on a free (ref 0) cached block needs.
        self._free: OrderedDict[int, None] = OrderedDict((i, None) for i in range(self.num_blocks))
        self._cached: dict[bytes, int] = {}  # block hash -> block id

    # ----------------------------------------------------------------- sizes
    def blocks_for(self, num_tokens: int) -> int:
        """Blocks needed to hold ``num_tokens`` positions: ⌈n / block_size⌉."""
        return -(-num_tokens // self.block_size)

    @property
    def num_free(self) -> int:
        """Blocks that can be handed out now (including cached ones that would be evicted)."""
        return len(self._free)

    @property
    def num_used(self) -> int:
        """Blocks referenced by at least one sequence."""
        return self.num_blocks - len(self._free)

    @property
    def num_cached(self) -> int:
        return len(self._cached)

    def free_queue(self) -> list[int]:
        """Block ids in hand-out order (first = next to be reused or evicted)."""
        return list(self._free)

    def check_fits(self, num_tokens: int) -> None:
        """Raise ValueError if one sequence of ``num_tokens`` could never fit, even in an empty pool."""
        need = self.blocks_for(num_tokens)
        if need > self.num_blocks:
            raise ValueError(
                f"a sequence of {num_tokens} tokens needs {need} blocks of {self.block_size} positions, "
                f"but the pool has only {self.num_blocks} blocks: enlarge the pool or shorten the request"
            )

    # ----------------------------------------------------------- prefix cache
    def cached_prefix(self, token_ids: Sequence[int]) -> list[int]:
        """Physical blocks that already hold this prompt's leading full blocks (no side effects).

        Only ``len - 1`` tokens are eligible, so the last prompt token is always computed. The hit
        stops at the first block that is not cached: a later block matching alone is useless, its
        K/V was computed after a different prefix.
        """
        hits: list[int] = []
        if not self.prefix_caching:
            return hits
        parent = ROOT_HASH
        for i in range((len(token_ids) - 1) // self.block_size):
            tokens = tuple(int(t) for t in token_ids[i * self.block_size:(i + 1) * self.block_size])
            h = self.hash_fn(parent, tokens)
            block_id = self._cached.get(h)
            if block_id is None:
                break
            block = self.blocks[block_id]
            if block.token_ids != tokens or block.parent_hash != parent:
                break  # hash collision: treat as a miss rather than serve someone else's K/V
            hits.append(block_id)
            parent = h
        return hits

    # -------------------------------------------------------------- sequences
    def can_allocate(self, token_ids: Sequence[int], num_tokens: int | None = None) -> bool:
        hits = self.cached_prefix(token_ids)
        return self._new_blocks_needed(hits, token_ids, num_tokens) <= self._free_after_hits(hits)

    def allocate(self, seq: HoldsBlocks, token_ids: Sequence[int], num_tokens: int | None = None) -> int:
        """Fill a new sequence's block table; returns how many prompt tokens are already cached.

        Reuses cached prefix blocks, then reserves fresh blocks for the first ``num_tokens`` positions
        (default: the whole prompt; a chunked prefill may reserve less and grow with ``append``).
        """
        if seq.block_table:
            raise ValueError(f"sequence {seq.seq_id!r} already has a block table; free it first")
        if len(token_ids) == 0:
            raise ValueError("a prompt needs at least one token (its logits choose the first new token)")
        if num_tokens is not None and num_tokens < 1:
            # an empty table means "holds no blocks", so an allocated sequence holds at least one
            raise ValueError(f"sequence {seq.seq_id!r}: reserve at least one position, got {num_tokens!r}")
        self.check_fits(max(len(token_ids), num_tokens or 0))  # the whole prompt must fit eventually
        hits = self.cached_prefix(token_ids)
        need = self._new_blocks_needed(hits, token_ids, num_tokens)
        if need > self._free_after_hits(hits):
            raise NoFreeBlocks(f"sequence {seq.seq_id!r} needs {need} new blocks, {self.num_free} are free")
        seq.block_hashes.clear()
        for block_id in hits:
            block = self.blocks[block_id]
            if block.ref_count == 0:
                del self._free[block_id]
            block.ref_count += 1
            seq.block_table.append(block_id)
            seq.block_hashes.append(block.block_hash)
            self._emit("hit", block_id, seq, block.block_hash)
        num_cached_tokens = len(hits) * self.block_size
        self._grow(seq, seq.block_table, max(num_tokens if num_tokens is not None else len(token_ids),
                                             num_cached_tokens))
        return num_cached_tokens

    def can_append(self, seq: HoldsBlocks, num_tokens: int) -> bool:
        return self.blocks_for(num_tokens) - len(self._table(seq)) <= self.num_free

    def append(self, seq: HoldsBlocks, num_tokens: int) -> list[int]:
        """Grow the table so that it covers ``num_tokens`` positions; returns the new block ids.

        All-or-nothing: on a shortage nothing is taken, so the caller can preempt and retry.
        """
        return self._grow(seq, self._table(seq), num_tokens)

    def _grow(self, seq: HoldsBlocks, table: list[int], num_tokens: int) -> list[int]:
        self.check_fits(num_tokens)
        need = self.blocks_for(num_tokens) - len(table)
        if need > self.num_free:
            raise NoFreeBlocks(
                f"sequence {seq.seq_id!r} needs {need} more blocks for {num_tokens} tokens, {self.num_free} are free"
            )
        new = [self._take(seq) for _ in range(max(need, 0))]
        table.extend(new)
        return new

    def commit(self, seq: HoldsBlocks, token_ids: Sequence[int], num_computed: int) -> None:
        """Record that K/V of the first ``num_computed`` tokens is written; register full blocks.

        Registration waits for this call so that a prefix hit can never read K/V that is not yet
        computed (a block can be reserved a step before its chunk runs).
        """
        table = self._table(seq)
        hashes = seq.block_hashes
        if num_computed > len(token_ids) or self.blocks_for(num_computed) > len(table):
            raise ValueError(
                f"sequence {seq.seq_id!r}: cannot commit {num_computed} tokens "
                f"({len(token_ids)} known, table covers {len(table) * self.block_size})"
            )
        for i in range(len(hashes), num_computed // self.block_size):
            parent = hashes[i - 1] if i else ROOT_HASH
            tokens = tuple(int(t) for t in token_ids[i * self.block_size:(i + 1) * self.block_size])
            h = self.hash_fn(parent, tokens)
            hashes.append(h)
            block = self.blocks[table[i]]
            if not self.prefix_caching or block.block_hash is not None or h in self._cached:
                continue  # off, already registered, or the same content is cached in another block
            block.block_hash, block.parent_hash, block.token_ids = h, parent, tokens
            self._cached[h] = block.block_id
            self._emit("cache", block.block_id, seq, h)

    def truncate(self, seq: HoldsBlocks, num_tokens: int) -> list[int]:
        """Shrink a table to the blocks ``num_tokens`` positions need; the released ids, in table order.

        Speculative decoding writes K/V for proposals before it knows which stay; the rejected ones
        must go without recomputing the rest. Only positions not yet committed may be dropped: a
        registered block may be shared through the prefix cache, so its K/V must never change.
        Released back to front like ``free``, each one a ``free`` (or ``unref``) event.
        """
        table = self._table(seq)
        if isinstance(num_tokens, bool) or not isinstance(num_tokens, int | np.integer) or num_tokens < 1:
            raise ValueError(f"a sequence keeps at least one position, got {num_tokens!r}")
        committed = len(seq.block_hashes) * self.block_size
        if num_tokens < committed:
            raise ValueError(f"sequence {seq.seq_id!r}: cannot truncate to {num_tokens} tokens, "
                             f"{committed} are committed (their blocks may be shared)")
        keep = self.blocks_for(num_tokens)
        released = table[keep:]
        for block_id in reversed(released):
            self._release(block_id, seq)
        del table[keep:]
        return released

    def free(self, seq: HoldsBlocks) -> None:
        """Drop a finished (or preempted) sequence's references; its table and hashes are emptied.

        The table is released back to front: of one sequence's blocks the later ones are evicted
        first, because a cached block is only reachable through all blocks before it.
        """
        table = self._table(seq)
        for block_id in reversed(table):
            self._release(block_id, seq)
        table.clear()
        seq.block_hashes.clear()

    def _release(self, block_id: int, seq: HoldsBlocks) -> None:
        block = self.blocks[block_id]
        if block.ref_count <= 0:
            raise AssertionError(f"block {block_id} freed with reference count {block.ref_count}")
        block.ref_count -= 1
        if block.ref_count == 0:
            self._free[block_id] = None  # newest at the back: evicted last
            if block.block_hash is None:
                self._free.move_to_end(block_id, last=False)  # nothing worth keeping
            self._emit("free", block_id, seq, block.block_hash)
        else:
            self._emit("unref", block_id, seq, block.block_hash)

    # ---------------------------------------------------------------- helpers
    def _emit(self, kind: str, block_id: int, seq: HoldsBlocks, h: bytes | None = None) -> None:
        if self.on_event is not None:
            self.on_event(BlockEvent(kind, block_id, seq.seq_id, h))

    @staticmethod
    def _table(seq: HoldsBlocks) -> list[int]:
        if not seq.block_table:
            raise KeyError(f"unknown sequence {seq.seq_id!r}: it holds no blocks, allocate it first")
        return seq.block_table

    def _new_blocks_needed(self, hits: list[int], token_ids: Sequence[int], num_tokens: int | None) -> int:
        n = len(token_ids) if num_tokens is None else num_tokens
        return max(self.blocks_for(n) - len(hits), 0)

    def _free_after_hits(self, hits: list[int]) -> int:
        # A hit on a block that waits in the free queue takes it out of the queue.
        return self.num_free - sum(1 for b in hits if self.blocks[b].ref_count == 0)

    def _take(self, seq: HoldsBlocks) -> int:
        block_id, _ = self._free.popitem(last=False)
        block = self.blocks[block_id]
        if block.block_hash is not None:
            if self._cached.get(block.block_hash) == block_id:
                del self._cached[block.block_hash]
            self._emit("evict", block_id, seq, block.block_hash)
            block.block_hash, block.parent_hash, block.token_ids = None, None, ()
        block.ref_count = 1
        self._emit("allocate", block_id, seq)
        return block_id

    def check(self, sequences: Iterable[HoldsBlocks]) -> None:
        """Assert the pool's invariants against ``sequences``, every one that holds blocks of this pool
        (cheap; for tests and debugging)."""
        refs = [0] * self.num_blocks
        for seq in sequences:
            for b in seq.block_table:
                refs[b] += 1
        for block in self.blocks:
            assert block.ref_count == refs[block.block_id], f"block {block.block_id}: ref count off"
            assert (block.ref_count == 0) == (block.block_id in self._free), f"block {block.block_id}: queue"
        for h, b in self._cached.items():
            assert self.blocks[b].block_hash == h, f"cache entry {short_hash(h)} points to block {b}"
