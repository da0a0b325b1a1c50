"""Which sequences run in the next step, and how many of their tokens: iteration-level scheduling.

The scheduler decides anew before every forward pass (Orca's *iteration-level scheduling*,
CONCEPTS.md §13): a finished sequence leaves at once and a waiting one may take its place in the very
next step, instead of the whole batch waiting for its slowest member.

One step is limited in two ways: at most ``max_num_seqs`` sequences are running (hold KV blocks),
and at most ``max_num_batched_tokens`` tokens go through the model (the token budget). A decode costs
one token. A prompt may be spread over several steps in chunks that fill whatever budget the decodes
left (chunked prefill, CONCEPTS.md §19), so a long prompt does not stall everyone else's decoding.

Every sequence is handled the same way: ``tokens`` (prompt + generated) are known, the first
``num_computed`` of them have K/V in the cache, the rest are *pending*. A step processes some pending
tokens; when it reaches the last known token, the last row's logits choose the next token. After the
prefill one token is pending per step (the one chosen last), which is exactly decoding.

Order of work in a step (as vLLM's v1 scheduler):

1. Running sequences, oldest admission first. If the block pool cannot hold a sequence's new
   positions, the *latest admitted* running sequence is preempted by recompute: its blocks are freed,
   it returns to the front of the waiting queue, and when it is readmitted its prompt and the tokens
   it already generated are prefilled again (full blocks it had committed may still be in the prefix
   cache). The oldest sequence therefore always makes progress, and a pool that holds one whole
   request can never deadlock.
2. Waiting sequences, first come first served, while the budget, the sequence limit and the blocks
   allow; none in a step that preempted. Head-of-line: if the first one does not fit, later ones wait
   too, so a big request cannot be starved by a stream of small ones.

``policy="static"`` is the baseline: a group is admitted together and no new sequence joins until
every member of the group has finished (CONCEPTS.md §13 "feste Gruppe").

This module moves no numbers: ``engine.py`` runs the model on what ``schedule`` returns and reports
the chosen tokens back through ``update``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field

from engine.block_pool import BlockPool

POLICIES = ("continuous", "static")


@dataclass(frozen=True)
class Request:
    """What a client submits: a prompt, how many tokens at most, and the step at which it arrives."""

    req_id: Hashable
    prompt: tuple[int, ...]
    max_new_tokens: int
    arrival_step: int = 0
    eos_id: int | None = None  # generation also stops after this token (it is emitted)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prompt", tuple(int(t) for t in self.prompt))
        if not self.prompt:
            raise ValueError(f"request {self.req_id!r}: the prompt needs at least one token")
        if isinstance(self.max_new_tokens, bool) or not isinstance(self.max_new_tokens, int) or self.max_new_tokens < 1:
            raise ValueError(f"request {self.req_id!r}: max_new_tokens must be at least 1, got {self.max_new_tokens!r}")
        if isinstance(self.arrival_step, bool) or not isinstance(self.arrival_step, int) or self.arrival_step < 0:
            raise ValueError(f"request {self.req_id!r}: arrival_step must be a non-negative integer")

    @property
    def max_positions(self) -> int:
        """Positions that ever need K/V: the last chosen token is never processed."""
        return len(self.prompt) + self.max_new_tokens - 1


@dataclass
class SequenceState:
    """A request inside the engine."""

    request: Request
    output: list[int] = field(default_factory=list)
    status: str = "pending"  # pending (not yet arrived) → waiting → running → finished; preempted: → waiting
    num_computed: int = 0  # leading tokens whose K/V is in the cache
    prefill_target: int = 0  # len(tokens) when last admitted: everything before it is prefill work
    num_cached_tokens: int = 0  # served by the prefix cache at the last admission
    admitted: int = -1  # admission counter (order for preemption); -1 while not running
    first_step: int | None = None  # first step in which it was scheduled
    finished_step: int | None = None  # step in which it emitted its last token
    finish_reason: str | None = None  # "length" or "eos"
    num_preemptions: int = 0
    logits: list = field(default_factory=list)  # filled by the engine when asked to keep them
    # Its share of the block pool, owned here and filled by the pool (block_pool.HoldsBlocks).
    block_table: list[int] = field(default_factory=list)
    block_hashes: list[bytes] = field(default_factory=list)

    @property
    def seq_id(self) -> Hashable:
        return self.request.req_id

    @property
    def tokens(self) -> list[int]:
        return [*self.request.prompt, *self.output]

    @property
    def num_tokens(self) -> int:
        return len(self.request.prompt) + len(self.output)

    @property
    def span(self) -> tuple[int, int] | None:
        """Rounds [start, end) as in CONCEPTS.md §13: first scheduled step, step after the last token."""
        if self.first_step is None or self.finished_step is None:
            return None
        return self.first_step, self.finished_step + 1


@dataclass(frozen=True)
class ScheduledChunk:
    """One sequence's work in a step: ``num_tokens`` tokens from position ``start`` on."""

    seq: SequenceState
    start: int
    num_tokens: int
    kind: str  # "prefill" (all prefill work in one step), "prefill_chunk" or "decode"
    recompute: bool  # a prefill that recomputes generated tokens after a preemption

    @property
    def samples(self) -> bool:
        """Whether this chunk reaches the last known token, so its last row chooses a new token."""
        return self.start + self.num_tokens == self.seq.num_tokens

    @property
    def token_ids(self) -> list[int]:
        return self.seq.tokens[self.start:self.start + self.num_tokens]


@dataclass
class SchedulerOutput:
    step: int
    chunks: list[ScheduledChunk]
    arrived: list[Hashable]
    admitted: list[Hashable]
    preempted: list[Hashable]

    @property
    def num_tokens(self) -> int:
        return sum(c.num_tokens for c in self.chunks)


class Scheduler:
    def __init__(self, pool: BlockPool, *, max_num_seqs: int = 8, max_num_batched_tokens: int = 64,
                 chunked_prefill: bool = True, policy: str = "continuous"):
        for name, value in (("max_num_seqs", max_num_seqs), ("max_num_batched_tokens", max_num_batched_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}: "
                                 "a step that may run no sequence or no token never makes progress")
        if policy not in POLICIES:
            raise ValueError(f"unknown scheduling policy {policy!r}; choose one of {POLICIES}")
        self.pool = pool
        self.max_num_seqs = max_num_seqs
        self.max_num_batched_tokens = max_num_batched_tokens
        self.chunked_prefill = chunked_prefill
        self.policy = policy
        self.sequences: dict[Hashable, SequenceState] = {}  # every request ever added, in order
        self.pending: list[SequenceState] = []  # not yet arrived, by arrival step
        self.waiting: deque[SequenceState] = deque()
        self.running: list[SequenceState] = []  # in admission order
        self.group: set[Hashable] = set()  # static policy: the current group's unfinished members
        self._admissions = 0

    # ------------------------------------------------------------- requests
    def add_request(self, request: Request) -> SequenceState:
        if request.req_id in self.sequences:
            raise ValueError(f"request id {request.req_id!r} is already in use")
        # Fail now, not after a hundred steps: a request that cannot fit even alone never will.
        try:
            self.pool.check_fits(request.max_positions)
        except ValueError as e:
            raise ValueError(f"request {request.req_id!r} ({len(request.prompt)} prompt tokens + "
                             f"{request.max_new_tokens} new) can never run: {e}") from None
        if not self.chunked_prefill and request.max_positions > self.max_num_batched_tokens:
            # Without chunking a prefill runs in one step; after a preemption that prefill includes
            # the generated tokens, so the budget must cover the longest possible recompute.
            raise ValueError(
                f"request {request.req_id!r} may need a prefill of {request.max_positions} tokens in one step, "
                f"but max_num_batched_tokens is {self.max_num_batched_tokens}: "
                "enable chunked prefill or raise the budget")
        seq = SequenceState(request)
        self.sequences[request.req_id] = seq
        self.pending.append(seq)
        self.pending.sort(key=lambda s: s.request.arrival_step)  # stable: ties keep submission order
        return seq

    @property
    def has_unfinished(self) -> bool:
        return bool(self.pending or self.waiting or self.running)

    # ------------------------------------------------------------- schedule
    def schedule(self, step: int) -> SchedulerOutput:
        arrived = []
        while self.pending and self.pending[0].request.arrival_step <= step:
            seq = self.pending.pop(0)
            seq.status = "waiting"
            self.waiting.append(seq)
            arrived.append(seq.seq_id)

        budget = self.max_num_batched_tokens
        chunks: list[ScheduledChunk] = []
        preempted: list[Hashable] = []

        # 1. Running sequences, oldest first; make room by preempting the newest.
        i = 0
        while i < len(self.running) and budget > 0:
            seq = self.running[i]
            n = self._chunk_size(seq, budget)
            if n == 0:
                i += 1
                continue
            while not self.pool.can_append(seq, seq.num_computed + n):
                victim = self.running[-1]  # latest admitted; never one scheduled before seq
                self._preempt(victim)
                preempted.append(victim.seq_id)
                if victim is seq:
                    break
            if seq.status != "running":
                break  # seq preempted itself: everyone after it is gone too
            self.pool.append(seq, seq.num_computed + n)
            chunks.append(self._chunk(seq, n, step))
            budget -= n
            i += 1

        # 2. Waiting sequences, first come first served.
        admitted = []
        forming = not self.group  # static: a new group may form only when the last one is done
        while self.waiting and budget > 0 and len(self.running) < self.max_num_seqs and not preempted:
            seq = self.waiting[0]
            if self.policy == "static" and not forming and seq.seq_id not in self.group:
                break  # the current group has not finished yet
            tokens = seq.tokens
            cached = len(self.pool.cached_prefix(tokens)) * self.pool.block_size
            n = self._chunk_size(seq, budget, start=cached)
            if n == 0 or not self.pool.can_allocate(tokens, num_tokens=cached + n):
                break
            self.waiting.popleft()
            seq.num_cached_tokens = self.pool.allocate(seq, tokens, num_tokens=cached + n)
            assert seq.num_cached_tokens == cached
            seq.num_computed = cached
            seq.prefill_target = len(tokens)
            seq.status = "running"
            seq.admitted = self._admissions
            self._admissions += 1
            self.running.append(seq)
            admitted.append(seq.seq_id)
            if self.policy == "static":
                self.group.add(seq.seq_id)
            chunks.append(self._chunk(seq, n, step))
            budget -= n
        return SchedulerOutput(step, chunks, arrived, admitted, preempted)

    def _chunk_size(self, seq: SequenceState, budget: int, start: int | None = None) -> int:
        pending = seq.num_tokens - (seq.num_computed if start is None else start)
        if pending <= budget:
            return pending
        return budget if self.chunked_prefill else 0

    def _chunk(self, seq: SequenceState, n: int, step: int) -> ScheduledChunk:
        start = seq.num_computed
        if start >= seq.prefill_target:
            kind = "decode"
        elif start == seq.num_cached_tokens and start + n == seq.prefill_target:
            kind = "prefill"
        else:
            kind = "prefill_chunk"
        if seq.first_step is None:
            seq.first_step = step
        recompute = kind != "decode" and seq.prefill_target > len(seq.request.prompt)
        return ScheduledChunk(seq, start, n, kind, recompute)

    def _preempt(self, seq: SequenceState) -> None:
        """Preemption by recompute: drop the K/V, keep the generated tokens, queue up in front."""
        self.running.remove(seq)
        self.pool.free(seq)
        seq.status = "waiting"
        seq.num_computed = 0
        seq.admitted = -1
        seq.num_preemptions += 1
        self.waiting.appendleft(seq)

    # --------------------------------------------------------------- update
    def update(self, out: SchedulerOutput, new_tokens: dict[Hashable, int]) -> list[SequenceState]:
        """After the forward pass: K/V of the scheduled tokens is written; append the chosen tokens.

        ``new_tokens`` maps every sequence whose chunk reached its last token to the chosen token.
        Returns the sequences that finished (their blocks are freed; full blocks stay cached).
        """
        finished = []
        for chunk in out.chunks:
            seq = chunk.seq
            seq.num_computed = chunk.start + chunk.num_tokens
            # Commit only now that K/V is written: from here on a prefix hit may read these blocks.
            self.pool.commit(seq, seq.tokens, seq.num_computed)
            if not chunk.samples:
                if seq.seq_id in new_tokens:
                    raise ValueError(f"sequence {seq.seq_id!r} got a token although its prefill is not complete")
                continue
            token = int(new_tokens[seq.seq_id])
            seq.output.append(token)
            request = seq.request
            reason = ("eos" if request.eos_id is not None and token == request.eos_id
                      else "length" if len(seq.output) >= request.max_new_tokens else None)
            if reason:
                seq.status, seq.finish_reason, seq.finished_step = "finished", reason, out.step
                self.running.remove(seq)
                self.group.discard(seq.seq_id)
                self.pool.free(seq)
                finished.append(seq)
        return finished

