"""Block pool: the articles' examples, clear errors, and a model-based hypothesis test."""

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.block_pool import ROOT_HASH, BlockPool, NoFreeBlocks, block_hash, short_hash

# ------------------------------------------------------------------ configuration errors


@pytest.mark.parametrize("num_blocks,block_size,name", [
    (4, 0, "block_size"), (0, 4, "num_blocks"), (-2, 4, "num_blocks"), (4, 2.0, "block_size"), (True, 4, "num_blocks"),
])
def test_invalid_pool_fails_clearly(num_blocks, block_size, name):
    with pytest.raises(ValueError, match=f"{name} must be a positive integer"):
        BlockPool(num_blocks, block_size)


def test_pool_smaller_than_one_request_fails_clearly_and_takes_nothing():
    pool = BlockPool(2, 4)
    with pytest.raises(ValueError, match="needs 3 blocks of 4 positions, but the pool has only 2"):
        pool.allocate("x", list(range(9)))
    assert pool.num_free == 2 and pool.tables == {}
    pool.allocate("y", [1, 2, 3])
    with pytest.raises(ValueError, match="pool has only 2"):
        pool.append("y", 9)


def test_misuse_fails_clearly():
    pool = BlockPool(4, 2)
    pool.allocate("a", [1, 2, 3])
    with pytest.raises(ValueError, match="already has a block table"):
        pool.allocate("a", [1])
    with pytest.raises(KeyError, match="unknown sequence 'b'"):
        pool.free("b")
    with pytest.raises(ValueError, match="at least one token"):
        pool.allocate("c", [])
    with pytest.raises(ValueError, match="cannot commit"):
        pool.commit("a", [1, 2, 3], 5)


# ------------------------------------------------------------------ the articles' examples


def test_paged_attention_article_blocks_and_free_slots():
    """CONCEPTS.md §14: blocks / free slots for n = 1…9 positions in blocks of 4."""
    pool = BlockPool(8, 4)
    got = [(pool.blocks_for(n), 4 * pool.blocks_for(n) - n) for n in range(1, 10)]
    assert got == [(1, 3), (1, 2), (1, 1), (1, 0), (2, 3), (2, 2), (2, 1), (2, 0), (3, 3)]
    pool.allocate(0, list(range(4)))
    assert len(pool.tables[0]) == 1
    assert pool.append(0, 5) != [] and len(pool.tables[0]) == 2  # the 4 → 5 step takes a new block


@pytest.mark.parametrize("i", range(8))
def test_prefix_cache_article_x_replacing_each_position(i):
    """CONCEPTS.md §15: A…H cached in blocks of 2; X at index i reuses 2·⌊i/2⌋ tokens."""
    pool = BlockPool(8, 2)
    cached = list(range(8))  # A … H
    pool.allocate("old", cached)
    pool.commit("old", cached, 8)
    pool.free("old")
    new = cached[:i] + [99] + cached[i + 1:]
    assert pool.allocate("new", new) == 2 * (i // 2)
    assert [0, 0, 2, 2, 4, 4, 6, 6][i] == 2 * (i // 2)  # the article's table; H → X: 6, A → X: 0


def test_the_last_prompt_token_is_never_served_from_the_cache():
    pool = BlockPool(8, 2)
    prompt = list(range(8))
    pool.allocate(1, prompt)
    pool.commit(1, prompt, 8)
    assert len(pool.cached_prefix(prompt)) == 3  # 4 full blocks cached, only 3 may be reused
    assert len(pool.cached_prefix(prompt + [8])) == 4
    assert pool.allocate(2, prompt) == 6


def test_blocks_enter_the_cache_only_after_commit():
    pool = BlockPool(8, 2)
    prompt = [5, 6, 7, 8, 9]
    pool.allocate("a", prompt)
    assert pool.cached_prefix(prompt) == []  # reserved but K/V not written yet
    pool.commit("a", prompt, 3)  # first chunk: one full block
    assert pool.cached_prefix(prompt) == pool.tables["a"][:1]
    pool.commit("a", prompt, 5)
    assert pool.cached_prefix(prompt) == pool.tables["a"][:2]


def test_a_hash_collision_is_a_miss_not_a_wrong_hit():
    pool = BlockPool(8, 2, hash_fn=lambda parent, tokens: b"same")
    pool.allocate("a", [1, 2, 3])
    pool.commit("a", [1, 2, 3], 2)
    assert pool.allocate("b", [3, 4, 5]) == 0  # same hash, other tokens: miss
    assert pool.allocate("c", [1, 2, 5]) == 2  # same tokens: hit


def test_a_hash_that_ignores_the_parent_is_caught_by_the_parent_check():
    pool = BlockPool(8, 2, hash_fn=lambda parent, tokens: bytes(tokens))
    pool.allocate("a", [1, 2, 3, 4, 0])
    pool.commit("a", [1, 2, 3, 4, 0], 4)
    assert pool.allocate("b", [9, 9, 3, 4, 0]) == 0  # stops at the first block
    pool.commit("b", [9, 9, 3, 4, 0], 4)
    assert pool.allocate("c", [9, 9, 3, 4, 0]) == 2  # [3, 4] is cached only after [1, 2]


def test_hash_chain_depends_on_everything_before():
    h1 = block_hash(ROOT_HASH, (1, 2))
    assert block_hash(h1, (3, 4)) != block_hash(block_hash(ROOT_HASH, (9, 2)), (3, 4))
    assert block_hash(h1, (3, 4)) == block_hash(block_hash(ROOT_HASH, (1, 2)), (3, 4))
    assert len(short_hash(h1)) == 8 and short_hash(None) == "-"


def test_prefix_caching_off_never_hits():
    pool = BlockPool(8, 2, prefix_caching=False)
    pool.allocate("a", [1, 2, 3])
    pool.commit("a", [1, 2, 3], 3)
    assert pool.num_cached == 0 and pool.allocate("b", [1, 2, 3]) == 0


def test_shortage_is_all_or_nothing_and_frees_restore_everything():
    pool = BlockPool(4, 2)
    pool.allocate("a", [1, 2, 3, 4])
    pool.allocate("b", [8, 9])
    assert not pool.can_allocate([5, 6, 7])
    with pytest.raises(NoFreeBlocks, match="needs 2 new blocks, 1 are free"):
        pool.allocate("c", [5, 6, 7])
    assert pool.num_free == 1 and "c" not in pool.tables
    pool.append("a", 5)
    with pytest.raises(NoFreeBlocks, match="needs 1 more blocks for 7 tokens, 0 are free"):
        pool.append("a", 7)
    assert len(pool.tables["a"]) == 3 and pool.num_free == 0
    pool.free("a")
    pool.free("b")
    assert pool.num_free == 4 and pool.num_used == 0


def test_lru_eviction_order():
    """Uncached blocks are reused first, then cached blocks in the order they were released; of one
    sequence the last block is released first, so a prefix's head survives longest."""
    pool = BlockPool(6, 2)
    a, b = [1, 2, 3, 4], [5, 6, 7]
    pool.allocate("a", a)  # blocks 0, 1
    pool.commit("a", a, 4)
    pool.allocate("b", b)  # blocks 2, 3 (3 is half full: never cached)
    pool.commit("b", b, 3)
    pool.free("a")
    pool.free("b")
    assert pool.free_queue() == [3, 4, 5, 1, 0, 2]
    pool.events.clear()
    pool.allocate("c", [9] * 11)  # 6 blocks: evicts every cached block, oldest first
    evicted = [e.block_id for e in pool.events if e.kind == "evict"]
    assert evicted == [1, 0, 2]
    assert pool.num_cached == 0


def test_a_hit_on_a_free_block_takes_it_out_of_the_queue():
    pool = BlockPool(4, 2)
    pool.allocate("a", [1, 2, 3])
    pool.commit("a", [1, 2, 3], 3)
    pool.free("a")
    first = pool.blocks[0]
    assert first.ref_count == 0 and 0 in pool.free_queue()
    pool.allocate("b", [1, 2, 7])
    assert pool.tables["b"][0] == 0 and first.ref_count == 1 and 0 not in pool.free_queue()
    pool.allocate("c", [1, 2, 8])  # shared by two sequences
    assert first.ref_count == 2
    assert [e.kind for e in pool.events].count("hit") == 2


# ------------------------------------------------------------------ model-based property test


def weak_hash(parent, tokens):
    return bytes([sum(tokens) % 3])  # ignores the parent and collides constantly


class PoolMachine(RuleBasedStateMachine):
    """Random allocate / compute (prefill chunks, decode) / free against a plain model of the rules.

    The model keeps, per block, the full token prefix whose K/V it holds, the registered cache
    entries, and the free queue order, derived from the rules in block_pool's docstring rather than
    read from the pool.
    """

    @initialize(num_blocks=st.integers(1, 12), block_size=st.integers(1, 3), weak=st.booleans())
    def setup(self, num_blocks, block_size, weak):
        self.hash_fn = weak_hash if weak else block_hash
        self.weak = weak
        self.pool = BlockPool(num_blocks, block_size, hash_fn=self.hash_fn)
        self.bs = block_size
        self.seqs = {}  # seq id -> {"tokens": [...], "done": int}
        self.next_id = 0
        self.content = {}  # block -> full token prefix its K/V belongs to (full, computed blocks)
        self.registered = {}  # block -> (hash, parent hash, block tokens)
        self.queue = list(range(num_blocks))  # expected free queue, front first

    def chain(self, tokens, n_blocks):
        hashes, parent = [], ROOT_HASH
        for i in range(n_blocks):
            parent = self.hash_fn(parent, tuple(tokens[i * self.bs:(i + 1) * self.bs]))
            hashes.append(parent)
        return hashes

    def expected_hits(self, prompt):
        hits, parent = [], ROOT_HASH
        for i, h in enumerate(self.chain(prompt, (len(prompt) - 1) // self.bs)):
            block_tokens = tuple(prompt[i * self.bs:(i + 1) * self.bs])
            match = [b for b, entry in self.registered.items() if entry == (h, parent, block_tokens)]
            if not match:
                break
            hits.append(match[0])
            parent = h
        return hits

    def take(self, new_blocks):
        """The pool must hand out the front of the expected queue; evicted blocks leave the cache."""
        assert new_blocks == self.queue[:len(new_blocks)], "not least-recently-released first"
        if any(b in self.registered for b in new_blocks):
            event("evicted a cached block")
        del self.queue[:len(new_blocks)]
        for b in new_blocks:
            self.registered.pop(b, None)
            self.content.pop(b, None)

    # Prompts share prefixes often (a system prompt, a retry), so that hits and evictions happen.
    @rule(head=st.sampled_from([(), (0, 1), (0, 1, 2, 0), (2, 2, 2, 2, 2, 2)]),
          tail=st.lists(st.integers(0, 2), max_size=6))
    def allocate(self, head, tail):
        prompt = list(head) + tail
        if not prompt:
            return
        seq_id = self.next_id
        self.next_id += 1
        if self.pool.blocks_for(len(prompt)) > self.pool.num_blocks:
            with pytest.raises(ValueError, match="pool has only"):
                self.pool.allocate(seq_id, prompt)
            return
        hits = self.expected_hits(prompt)
        need = self.pool.blocks_for(len(prompt)) - len(hits)
        available = len(self.queue) - sum(1 for b in hits if b in self.queue)
        if need > available:
            assert not self.pool.can_allocate(prompt)
            event("allocate: no free blocks")
            with pytest.raises(NoFreeBlocks):
                self.pool.allocate(seq_id, prompt)
            return
        assert self.pool.can_allocate(prompt)
        cached_tokens = self.pool.allocate(seq_id, prompt)
        event("prefix hit" if hits else "no prefix hit")
        table = self.pool.tables[seq_id]
        assert cached_tokens == len(hits) * self.bs and table[:len(hits)] == hits
        assert cached_tokens < len(prompt)  # the last prompt token is always computed
        for i, b in enumerate(hits):  # prefix hits only when tokens match
            assert self.registered[b][2] == tuple(prompt[i * self.bs:(i + 1) * self.bs])
            if not self.weak:  # with a real chained hash, the whole prefix matches
                assert self.content[b] == tuple(prompt[:(i + 1) * self.bs])
        for b in hits:
            if b in self.queue:
                self.queue.remove(b)
        self.take(table[len(hits):])
        self.seqs[seq_id] = {"tokens": list(prompt), "done": cached_tokens}

    def commit(self, seq_id, done):
        seq = self.seqs[seq_id]
        table = self.pool.tables[seq_id]
        hashes = self.chain(seq["tokens"], done // self.bs)
        for i in range(seq["done"] // self.bs, done // self.bs):
            b = table[i]
            self.content.setdefault(b, tuple(seq["tokens"][:(i + 1) * self.bs]))
            entry = (hashes[i], hashes[i - 1] if i else ROOT_HASH, tuple(seq["tokens"][i * self.bs:(i + 1) * self.bs]))
            if b not in self.registered and all(e[0] != hashes[i] for e in self.registered.values()):
                self.registered[b] = entry
        self.pool.commit(seq_id, seq["tokens"], done)
        seq["done"] = done

    @rule(data=st.data(), chunk=st.one_of(st.integers(1, 5), st.just(100)), token=st.integers(0, 2))
    def compute(self, data, chunk, token):
        """One engine step for a sequence: a prefill chunk, or a decode token."""
        if not self.seqs:
            return
        seq_id = data.draw(st.sampled_from(sorted(self.seqs)))
        seq = self.seqs[seq_id]
        if seq["done"] == len(seq["tokens"]):  # decode: the chosen token gets a slot
            seq["tokens"].append(token)
        target = min(seq["done"] + chunk, len(seq["tokens"]))
        need = self.pool.blocks_for(target) - len(self.pool.tables[seq_id])
        if self.pool.blocks_for(target) > self.pool.num_blocks:
            with pytest.raises(ValueError):
                self.pool.append(seq_id, target)
            seq["tokens"] = seq["tokens"][:max(seq["done"], 1)]
            return
        if need > len(self.queue):
            before = list(self.pool.tables[seq_id])
            with pytest.raises(NoFreeBlocks):
                self.pool.append(seq_id, target)
            assert self.pool.tables[seq_id] == before  # all or nothing
            return
        self.take(self.pool.append(seq_id, target))
        self.commit(seq_id, target)

    @rule(data=st.data())
    def free(self, data):
        if not self.seqs:
            return
        seq_id = data.draw(st.sampled_from(sorted(self.seqs)))
        table = self.pool.tables[seq_id]
        assert len(set(table)) == len(table)
        for b in reversed(table):
            if self.pool.blocks[b].ref_count == 1:
                if b in self.registered:
                    self.queue.append(b)
                else:
                    self.queue.insert(0, b)
        self.pool.free(seq_id)
        del self.seqs[seq_id]

    @invariant()
    def blocks_are_accounted_for(self):
        if not hasattr(self, "pool"):
            return
        pool = self.pool
        refs = {}
        for table in pool.tables.values():
            assert len(set(table)) == len(table), "a block twice in one table"
            for b in table:
                refs[b] = refs.get(b, 0) + 1
        queue = pool.free_queue()
        assert len(queue) == len(set(queue)), "a block twice in the free queue (double free)"
        assert set(queue).isdisjoint(refs), "a block both used and free"
        assert set(queue) | set(refs) == set(range(pool.num_blocks)), "a block neither used nor free (leak)"
        for block in pool.blocks:
            assert block.ref_count >= 0
            assert block.ref_count == refs.get(block.block_id, 0)
        assert pool.num_used == len(refs) <= pool.num_blocks
        assert queue == self.queue, "free queue order differs from LRU"
        assert {b for b in range(pool.num_blocks) if pool.blocks[b].block_hash is not None} == set(self.registered)
        pool.check()


TestPoolMachine = PoolMachine.TestCase
TestPoolMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)


def test_chunked_prefill_may_reserve_part_of_the_prompt():
    pool = BlockPool(3, 4)
    prompt = list(range(10))
    assert pool.allocate("a", prompt, num_tokens=4) == 0 and len(pool.tables["a"]) == 1
    pool.commit("a", prompt, 4)
    pool.append("a", 10)
    assert len(pool.tables["a"]) == 3
    with pytest.raises(ValueError, match="pool has only 3"):
        pool.allocate("b", list(range(13)), num_tokens=4)  # the whole prompt could never fit


# ------------------------------------------------------------------ truncate (speculative decoding)


def test_truncate_gives_back_the_blocks_past_the_kept_positions_back_to_front():
    pool = BlockPool(8, 2)
    pool.allocate("a", [1, 2, 3])
    pool.append("a", 9)  # 5 blocks: three proposals reach into blocks 3 and 4
    table = list(pool.tables["a"])
    pool.events.clear()
    assert pool.truncate("a", 5) == table[3:]
    assert pool.tables["a"] == table[:3] and pool.num_used == 3
    assert [(e.kind, e.block_id) for e in pool.events] == [("free", table[4]), ("free", table[3])]
    assert pool.truncate("a", 6) == [] and pool.tables["a"] == table[:3]  # inside the last block: nothing
    pool.check()
    pool.free("a")
    pool.check()
    assert pool.num_free == 8


def test_truncate_keeps_committed_blocks_and_shared_ones_stay_with_their_other_owner():
    pool = BlockPool(8, 2)
    pool.allocate("a", [1, 2, 3, 4, 5])
    pool.commit("a", [1, 2, 3, 4, 5], 5)  # two full blocks registered
    with pytest.raises(ValueError, match="cannot truncate to 3 tokens, 4 are committed"):
        pool.truncate("a", 3)
    with pytest.raises(ValueError, match="at least one position"):
        pool.truncate("a", 0)
    pool.allocate("b", [1, 2, 3, 4, 9, 9])  # shares both registered blocks
    pool.append("b", 8)
    pool.events.clear()
    released = pool.truncate("b", 5)
    assert len(released) == 1 and pool.blocks[released[0]].ref_count == 0
    pool.check()
    with pytest.raises(KeyError, match="unknown sequence"):
        pool.truncate("c", 1)
