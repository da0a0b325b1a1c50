"""Block pool: the articles' examples, clear errors, and a model-based hypothesis test."""

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.block_pool import ROOT_HASH, BlockPool, NoFreeBlocks, SequenceBlocks, block_hash, short_hash


@pytest.fixture
def seq():
    """The test's sequences by name, each made on first use; each owns its block table."""
    made = {}
    return lambda name: made.setdefault(name, SequenceBlocks(name))


# ------------------------------------------------------------------ configuration errors


@pytest.mark.parametrize("num_blocks,block_size,name", [
    (4, 0, "block_size"), (0, 4, "num_blocks"), (-2, 4, "num_blocks"), (4, 2.0, "block_size"), (True, 4, "num_blocks"),
])
def test_invalid_pool_fails_clearly(num_blocks, block_size, name):
    with pytest.raises(ValueError, match=f"{name} must be a positive integer"):
        BlockPool(num_blocks, block_size)


def test_pool_smaller_than_one_request_fails_clearly_and_takes_nothing(seq):
    pool = BlockPool(2, 4)
    with pytest.raises(ValueError, match="needs 3 blocks of 4 positions, but the pool has only 2"):
        pool.allocate(seq("x"), list(range(9)))
    assert pool.num_free == 2 and seq("x").block_table == []
    pool.allocate(seq("y"), [1, 2, 3])
    with pytest.raises(ValueError, match="pool has only 2"):
        pool.append(seq("y"), 9)


def test_misuse_fails_clearly(seq):
    pool = BlockPool(4, 2)
    pool.allocate(seq("a"), [1, 2, 3])
    with pytest.raises(ValueError, match="already has a block table"):
        pool.allocate(seq("a"), [1])
    with pytest.raises(KeyError, match="unknown sequence 'b'"):
        pool.free(seq("b"))
    with pytest.raises(ValueError, match="at least one token"):
        pool.allocate(seq("c"), [])
    with pytest.raises(ValueError, match="cannot commit"):
        pool.commit(seq("a"), [1, 2, 3], 5)


# ------------------------------------------------------------------ the articles' examples


def test_paged_attention_article_blocks_and_free_slots(seq):
    """CONCEPTS.md §14: blocks / free slots for n = 1…9 positions in blocks of 4."""
    pool = BlockPool(8, 4)
    got = [(pool.blocks_for(n), 4 * pool.blocks_for(n) - n) for n in range(1, 10)]
    assert got == [(1, 3), (1, 2), (1, 1), (1, 0), (2, 3), (2, 2), (2, 1), (2, 0), (3, 3)]
    pool.allocate(seq(0), list(range(4)))
    assert len(seq(0).block_table) == 1
    assert pool.append(seq(0), 5) != [] and len(seq(0).block_table) == 2  # the 4 → 5 step takes a new block


@pytest.mark.parametrize("i", range(8))
def test_prefix_cache_article_x_replacing_each_position(i, seq):
    """CONCEPTS.md §15: A…H cached in blocks of 2; X at index i reuses 2·⌊i/2⌋ tokens."""
    pool = BlockPool(8, 2)
    cached = list(range(8))  # A … H
    pool.allocate(seq("old"), cached)
    pool.commit(seq("old"), cached, 8)
    pool.free(seq("old"))
    new = [*cached[:i], 99, *cached[i + 1:]]
    assert pool.allocate(seq("new"), new) == 2 * (i // 2)
    assert [0, 0, 2, 2, 4, 4, 6, 6][i] == 2 * (i // 2)  # the article's table; H → X: 6, A → X: 0


def test_the_last_prompt_token_is_never_served_from_the_cache(seq):
    pool = BlockPool(8, 2)
    prompt = list(range(8))
    pool.allocate(seq(1), prompt)
    pool.commit(seq(1), prompt, 8)
    assert len(pool.cached_prefix(prompt)) == 3  # 4 full blocks cached, only 3 may be reused
    assert len(pool.cached_prefix([*prompt, 8])) == 4
    assert pool.allocate(seq(2), prompt) == 6


def test_blocks_enter_the_cache_only_after_commit(seq):
    pool = BlockPool(8, 2)
    prompt = [5, 6, 7, 8, 9]
    pool.allocate(seq("a"), prompt)
    assert pool.cached_prefix(prompt) == []  # reserved but K/V not written yet
    pool.commit(seq("a"), prompt, 3)  # first chunk: one full block
    assert pool.cached_prefix(prompt) == seq("a").block_table[:1]
    pool.commit(seq("a"), prompt, 5)
    assert pool.cached_prefix(prompt) == seq("a").block_table[:2]


def test_a_hash_collision_is_a_miss_not_a_wrong_hit(seq):
    pool = BlockPool(8, 2, hash_fn=lambda parent, tokens: b"same")
    pool.allocate(seq("a"), [1, 2, 3])
    pool.commit(seq("a"), [1, 2, 3], 2)
    assert pool.allocate(seq("b"), [3, 4, 5]) == 0  # same hash, other tokens: miss
    assert pool.allocate(seq("c"), [1, 2, 5]) == 2  # same tokens: hit


def test_a_hash_that_ignores_the_parent_is_caught_by_the_parent_check(seq):
    pool = BlockPool(8, 2, hash_fn=lambda parent, tokens: bytes(tokens))
    pool.allocate(seq("a"), [1, 2, 3, 4, 0])
    pool.commit(seq("a"), [1, 2, 3, 4, 0], 4)
    assert pool.allocate(seq("b"), [9, 9, 3, 4, 0]) == 0  # stops at the first block
    pool.commit(seq("b"), [9, 9, 3, 4, 0], 4)
    assert pool.allocate(seq("c"), [9, 9, 3, 4, 0]) == 2  # [3, 4] is cached only after [1, 2]


def test_hash_chain_depends_on_everything_before():
    h1 = block_hash(ROOT_HASH, (1, 2))
    assert block_hash(h1, (3, 4)) != block_hash(block_hash(ROOT_HASH, (9, 2)), (3, 4))
    assert block_hash(h1, (3, 4)) == block_hash(block_hash(ROOT_HASH, (1, 2)), (3, 4))
    assert len(short_hash(h1)) == 8 and short_hash(None) == "-"


def test_prefix_caching_off_never_hits(seq):
    pool = BlockPool(8, 2, prefix_caching=False)
    pool.allocate(seq("a"), [1, 2, 3])
    pool.commit(seq("a"), [1, 2, 3], 3)
    assert pool.num_cached == 0 and pool.allocate(seq("b"), [1, 2, 3]) == 0


def test_shortage_is_all_or_nothing_and_frees_restore_everything(seq):
    pool = BlockPool(4, 2)
    pool.allocate(seq("a"), [1, 2, 3, 4])
    pool.allocate(seq("b"), [8, 9])
    assert not pool.can_allocate([5, 6, 7])
    with pytest.raises(NoFreeBlocks, match="needs 2 new blocks, 1 are free"):
        pool.allocate(seq("c"), [5, 6, 7])
    assert pool.num_free == 1 and seq("c").block_table == []
    pool.append(seq("a"), 5)
    with pytest.raises(NoFreeBlocks, match="needs 1 more blocks for 7 tokens, 0 are free"):
        pool.append(seq("a"), 7)
    assert len(seq("a").block_table) == 3 and pool.num_free == 0
    pool.free(seq("a"))
    pool.free(seq("b"))
    assert pool.num_free == 4 and pool.num_used == 0


def test_lru_eviction_order(seq):
    """Uncached blocks are reused first, then cached blocks in the order they were released; of one
    sequence the last block is released first, so a prefix's head survives longest."""
    pool = BlockPool(6, 2)
    a, b = [1, 2, 3, 4], [5, 6, 7]
    pool.allocate(seq("a"), a)  # blocks 0, 1
    pool.commit(seq("a"), a, 4)
    pool.allocate(seq("b"), b)  # blocks 2, 3 (3 is half full: never cached)
    pool.commit(seq("b"), b, 3)
    pool.free(seq("a"))
    pool.free(seq("b"))
    assert pool.free_queue() == [3, 4, 5, 1, 0, 2]
    events = []
    pool.on_event = events.append
    pool.allocate(seq("c"), [9] * 11)  # 6 blocks: evicts every cached block, oldest first
    evicted = [e.block_id for e in events if e.kind == "evict"]
    assert evicted == [1, 0, 2]
    assert pool.num_cached == 0


def test_a_hit_on_a_free_block_takes_it_out_of_the_queue(seq):
    events = []
    pool = BlockPool(4, 2, on_event=events.append)
    pool.allocate(seq("a"), [1, 2, 3])
    pool.commit(seq("a"), [1, 2, 3], 3)
    pool.free(seq("a"))
    first = pool.blocks[0]
    assert first.ref_count == 0 and 0 in pool.free_queue()
    pool.allocate(seq("b"), [1, 2, 7])
    assert seq("b").block_table[0] == 0 and first.ref_count == 1 and 0 not in pool.free_queue()
    pool.allocate(seq("c"), [1, 2, 8])  # shared by two sequences
    assert first.ref_count == 2
    assert [e.kind for e in events].count("hit") == 2


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
        self.handles = {}  # seq id -> the SequenceBlocks that owns its block table
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
        handle = self.handles[seq_id] = SequenceBlocks(seq_id)
        if self.pool.blocks_for(len(prompt)) > self.pool.num_blocks:
            with pytest.raises(ValueError, match="pool has only"):
                self.pool.allocate(handle, prompt)
            return
        hits = self.expected_hits(prompt)
        need = self.pool.blocks_for(len(prompt)) - len(hits)
        available = len(self.queue) - sum(1 for b in hits if b in self.queue)
        if need > available:
            assert not self.pool.can_allocate(prompt)
            event("allocate: no free blocks")
            with pytest.raises(NoFreeBlocks):
                self.pool.allocate(handle, prompt)
            return
        assert self.pool.can_allocate(prompt)
        cached_tokens = self.pool.allocate(handle, prompt)
        event("prefix hit" if hits else "no prefix hit")
        table = self.handles[seq_id].block_table
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
        table = self.handles[seq_id].block_table
        hashes = self.chain(seq["tokens"], done // self.bs)
        for i in range(seq["done"] // self.bs, done // self.bs):
            b = table[i]
            self.content.setdefault(b, tuple(seq["tokens"][:(i + 1) * self.bs]))
            entry = (hashes[i], hashes[i - 1] if i else ROOT_HASH, tuple(seq["tokens"][i * self.bs:(i + 1) * self.bs]))
            if b not in self.registered and all(e[0] != hashes[i] for e in self.registered.values()):
                self.registered[b] = entry
        self.pool.commit(self.handles[seq_id], seq["tokens"], done)
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
        need = self.pool.blocks_for(target) - len(self.handles[seq_id].block_table)
        if self.pool.blocks_for(target) > self.pool.num_blocks:
            with pytest.raises(ValueError):
                self.pool.append(self.handles[seq_id], target)
            seq["tokens"] = seq["tokens"][:max(seq["done"], 1)]
            return
        if need > len(self.queue):
            before = list(self.handles[seq_id].block_table)
            with pytest.raises(NoFreeBlocks):
                self.pool.append(self.handles[seq_id], target)
            assert self.handles[seq_id].block_table == before  # all or nothing
            return
        self.take(self.pool.append(self.handles[seq_id], target))
        self.commit(seq_id, target)

    @rule(data=st.data())
    def free(self, data):
        if not self.seqs:
            return
        seq_id = data.draw(st.sampled_from(sorted(self.seqs)))
        table = self.handles[seq_id].block_table
        assert len(set(table)) == len(table)
        for b in reversed(table):
            if self.pool.blocks[b].ref_count == 1:
                if b in self.registered:
                    self.queue.append(b)
                else:
                    self.queue.insert(0, b)
        self.pool.free(self.handles[seq_id])
        del self.seqs[seq_id]

    @invariant()
    def blocks_are_accounted_for(self):
        if not hasattr(self, "pool"):
            return
        pool = self.pool
        refs = {}
        for table in (h.block_table for h in self.handles.values()):
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
        pool.check(self.handles.values())


TestPoolMachine = PoolMachine.TestCase
TestPoolMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)


def test_chunked_prefill_may_reserve_part_of_the_prompt(seq):
    pool = BlockPool(3, 4)
    prompt = list(range(10))
    assert pool.allocate(seq("a"), prompt, num_tokens=4) == 0 and len(seq("a").block_table) == 1
    pool.commit(seq("a"), prompt, 4)
    pool.append(seq("a"), 10)
    assert len(seq("a").block_table) == 3
    with pytest.raises(ValueError, match="pool has only 3"):
        pool.allocate(seq("b"), list(range(13)), num_tokens=4)  # the whole prompt could never fit


# ------------------------------------------------------------------ truncate (speculative decoding)


def test_truncate_gives_back_the_blocks_past_the_kept_positions_back_to_front(seq):
    pool = BlockPool(8, 2)
    pool.allocate(seq("a"), [1, 2, 3])
    pool.append(seq("a"), 9)  # 5 blocks: three proposals reach into blocks 3 and 4
    table = list(seq("a").block_table)
    events = []
    pool.on_event = events.append
    assert pool.truncate(seq("a"), 5) == table[3:]
    assert seq("a").block_table == table[:3] and pool.num_used == 3
    assert [(e.kind, e.block_id) for e in events] == [("free", table[4]), ("free", table[3])]
    assert pool.truncate(seq("a"), 6) == [] and seq("a").block_table == table[:3]  # inside the last block: nothing
    pool.check([seq("a")])
    pool.free(seq("a"))
    pool.check([seq("a")])
    assert pool.num_free == 8


def test_truncate_keeps_committed_blocks_and_shared_ones_stay_with_their_other_owner(seq):
    pool = BlockPool(8, 2)
    pool.allocate(seq("a"), [1, 2, 3, 4, 5])
    pool.commit(seq("a"), [1, 2, 3, 4, 5], 5)  # two full blocks registered
    with pytest.raises(ValueError, match="cannot truncate to 3 tokens, 4 are committed"):
        pool.truncate(seq("a"), 3)
    with pytest.raises(ValueError, match="at least one position"):
        pool.truncate(seq("a"), 0)
    pool.allocate(seq("b"), [1, 2, 3, 4, 9, 9])  # shares both registered blocks
    pool.append(seq("b"), 8)
    released = pool.truncate(seq("b"), 5)
    assert len(released) == 1 and pool.blocks[released[0]].ref_count == 0
    pool.check([seq("a"), seq("b")])
    with pytest.raises(KeyError, match="unknown sequence"):
        pool.truncate(seq("c"), 1)


# ------------------------------------------------------------------ the sequence owns its table, events go to a subscriber


def test_a_sequence_owns_its_table_and_hashes_and_its_freed_blocks_return(seq):
    pool = BlockPool(4, 2)
    a = seq("a")
    prompt = [1, 2, 3, 4, 5]
    assert pool.allocate(a, prompt) == 0
    pool.commit(a, prompt, 5)
    assert a.block_table == [0, 1, 2] and pool.free_queue() == [3]
    h1 = block_hash(ROOT_HASH, (1, 2))
    assert a.block_hashes == [h1, block_hash(h1, (3, 4))]  # the half-full third block has none
    pool.free(a)
    assert a.block_table == [] and a.block_hashes == []
    assert pool.num_free == 4 and sorted(pool.free_queue()) == [0, 1, 2, 3]
    assert pool.allocate(a, prompt) == 4  # the same sequence again, after a preemption: its blocks were kept cached
    pool.check([a])
    with pytest.raises(ValueError, match="reserve at least one position"):
        pool.allocate(seq("b"), [7, 8, 9], num_tokens=0)  # an empty table would read as "holds no blocks"


def test_the_pool_keeps_no_event_list_without_a_subscriber(seq):
    def held(pool):  # every list, dict and queue the pool keeps, by length
        return sum(len(v) for v in vars(pool).values() if hasattr(v, "__len__"))

    pool = BlockPool(4, 2)
    sizes = []
    for rounds in (10, 200):
        for i in range(rounds):
            s = seq(i % 3)
            pool.allocate(s, [1, 2, 3, i % 5])
            pool.commit(s, [1, 2, 3, i % 5], 4)
            pool.free(s)
        sizes.append(held(pool))
    assert sizes[0] == sizes[1]


def test_the_subscriber_sees_every_bookkeeping_step_in_order(seq):
    """Worked by hand from the module's rules: all six kinds, in the order the old event list held them."""
    events = []
    pool = BlockPool(4, 2, on_event=events.append)
    pool.allocate(seq("a"), [1, 2, 3])  # blocks 0, 1
    pool.commit(seq("a"), [1, 2, 3], 3)  # block 0 full: cached
    pool.allocate(seq("b"), [1, 2, 5])  # hit on block 0, new block 2
    pool.free(seq("a"))  # 1 goes to the queue's front (nothing cached), 0 stays with b
    pool.free(seq("b"))  # 2 to the front, 0 (cached) to the back: queue 2, 1, 3, 0
    pool.allocate(seq("c"), [7] * 7)  # all four blocks: the cached one last, evicted
    h = short_hash(block_hash(ROOT_HASH, (1, 2)))
    assert [(e.kind, e.block_id, e.seq_id, short_hash(e.block_hash)) for e in events] == [
        ("allocate", 0, "a", "-"), ("allocate", 1, "a", "-"), ("cache", 0, "a", h),
        ("hit", 0, "b", h), ("allocate", 2, "b", "-"),
        ("free", 1, "a", "-"), ("unref", 0, "a", h),
        ("free", 2, "b", "-"), ("free", 0, "b", h),
        ("allocate", 2, "c", "-"), ("allocate", 1, "c", "-"), ("allocate", 3, "c", "-"),
        ("evict", 0, "c", h), ("allocate", 0, "c", "-"),
    ]
