"""The step loop: scheduler, one batched forward pass, sampling, bookkeeping – and a record of it all.

One ``step()``:

1. ``Scheduler.schedule`` picks this step's work: decode tokens and prefill chunks of several
   sequences, within the token budget and the block pool (it may preempt).
2. One forward pass over all of it. Every sequence is a ``Segment`` of the paged attention backend
   (its block table, where its new tokens start, how many), so a 5-token prefill chunk of one request
   and single decode tokens of three others go through the model together.
3. For every sequence whose chunk reached its last known token, the last row's logits choose the next
   token (``sample``, greedy by default). A prefill chunk that stops earlier chooses nothing: its
   logits would predict a token of the prompt, which is already known.
4. ``Scheduler.update`` commits the written K/V (full blocks enter the prefix cache), appends the
   tokens and frees the blocks of finished sequences.

Each step is recorded in ``steps`` as plain Python data (lists, dicts, ints, strings), which is what
the tracer will turn into trace events: arrivals, scheduled work with positions, block events,
preemptions, emitted tokens, and the state at the step's end. Only ``wall_time_s`` is measured; the
rest is deterministic.

``model=None`` is a dry run: the scheduling and block bookkeeping happen, no numbers are computed and
every emitted token is ``dry_token``. Schedules, makespans and block usage do not depend on the
token values unless prefix caching or an EOS id is in play.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable, Sequence

import numpy as np

from engine.attention import Kernel, PagedAttention, Segment, dense_attention
from engine.block_pool import BlockEvent, BlockPool, short_hash
from engine.paged_kv import KVCache
from engine.scheduler import Request, Scheduler, SchedulerOutput, SequenceState

# sample(logits of one sequence [vocab], its state) -> token id. The state gives a sampler what it
# may need per request (its id for a seeded generator, the tokens so far for penalties). With
# ``sampler.py``: ``lambda logits, seq: int(sampler.sample(logits, params, rng))``.
SampleFn = Callable[[np.ndarray, SequenceState], int]


def greedy(logits: np.ndarray, seq: SequenceState | None = None) -> int:
    """The most likely token; ties go to the lowest id (as ``np.argmax`` and ``generate.py``)."""
    return int(np.argmax(logits))


class LLMEngine:
    def __init__(self, model, *, num_blocks: int, block_size: int = 4, max_num_seqs: int = 8,
                 max_num_batched_tokens: int = 64, chunked_prefill: bool = True, prefix_caching: bool = True,
                 policy: str = "continuous", kernel: Kernel = dense_attention, sample: SampleFn = greedy,
                 keep_logits: bool = False, tokenizer=None, dry_token: int = 0):
        self.model = model
        # The pool reports its bookkeeping as it happens; the step record takes this step's share.
        self._step_blocks: list[BlockEvent] = []
        self.pool = BlockPool(num_blocks, block_size, prefix_caching=prefix_caching,
                              on_event=self._step_blocks.append)
        # A model may bring its own K/V store and attention backend (torch_backend.TorchLlamaModel:
        # tensors on a GPU); numpy's are the default.
        self.cache = None if model is None else (
            model.new_cache(num_blocks, block_size) if hasattr(model, "new_cache")
            else KVCache(model.config, num_blocks, block_size))
        self._attention = getattr(model, "paged_attention", PagedAttention)
        self.scheduler = Scheduler(self.pool, max_num_seqs=max_num_seqs,
                                   max_num_batched_tokens=max_num_batched_tokens,
                                   chunked_prefill=chunked_prefill, policy=policy)
        self.kernel = kernel
        self.sample = sample
        self.keep_logits = keep_logits
        self.tokenizer = tokenizer if tokenizer is not None else getattr(model, "tokenizer", None)
        self.dry_token = dry_token
        self.step_index = 0  # the logical clock: the next step's number
        self.steps: list[dict] = []
        self._ids = itertools.count()

    @property
    def config(self) -> dict:
        """The engine settings, for a trace header."""
        s = self.scheduler
        return {"num_blocks": self.pool.num_blocks, "block_size": self.pool.block_size,
                "max_num_seqs": s.max_num_seqs, "max_num_batched_tokens": s.max_num_batched_tokens,
                "chunked_prefill": s.chunked_prefill, "prefix_caching": self.pool.prefix_caching,
                "policy": s.policy, "kernel": getattr(self.kernel, "__name__", str(self.kernel)),
                "dry_run": self.model is None}

    # ------------------------------------------------------------- requests
    def add_request(self, prompt: Sequence[int], max_new_tokens: int, *, req_id: Hashable | None = None,
                    arrival_step: int | None = None, eos_id: int | None = None) -> Hashable:
        """Submit a request; it joins the waiting queue at ``arrival_step`` (default: the next step)."""
        if req_id is None:
            req_id = next(self._ids)
            while req_id in self.scheduler.sequences:
                req_id = next(self._ids)
        if arrival_step is None:
            arrival_step = self.step_index
        if arrival_step < self.step_index:
            raise ValueError(f"request {req_id!r}: arrival step {arrival_step} lies in the past "
                             f"(the engine is at step {self.step_index})")
        vocab = None if self.model is None else self.model.config.vocab_size
        if vocab is not None and any(not 0 <= int(t) < vocab for t in prompt):
            raise ValueError(f"request {req_id!r}: token ids must lie in 0…{vocab - 1}")
        self.scheduler.add_request(Request(req_id, tuple(prompt), max_new_tokens, arrival_step, eos_id))
        return req_id

    @property
    def sequences(self) -> dict[Hashable, SequenceState]:
        return self.scheduler.sequences

    def outputs(self) -> dict[Hashable, list[int]]:
        """Generated tokens per request, in submission order."""
        return {rid: list(seq.output) for rid, seq in self.scheduler.sequences.items()}

    def has_unfinished(self) -> bool:
        return self.scheduler.has_unfinished

    # ----------------------------------------------------------------- step
    def step(self) -> dict:
        started = time.perf_counter()
        out = self.scheduler.schedule(self.step_index)
        new_tokens = self._execute(out)
        emitted = []
        for chunk in out.chunks:
            if chunk.samples:
                token = new_tokens[chunk.seq.seq_id]
                emitted.append({"seq": chunk.seq.seq_id, "token": token, "position": chunk.seq.num_tokens,
                                **self._text(token)})
        finished = self.scheduler.update(out, new_tokens)
        record = self._record(out, emitted, finished, time.perf_counter() - started)
        self.steps.append(record)
        self.step_index += 1
        return record

    def run(self, max_steps: int = 100_000) -> dict[Hashable, list[int]]:
        """Step until every submitted request has finished; returns ``outputs()``."""
        start = self.step_index
        while self.scheduler.has_unfinished:
            if self.step_index - start >= max_steps:
                raise RuntimeError(f"not finished after {max_steps} steps")
            self.step()
        return self.outputs()

    def _execute(self, out: SchedulerOutput) -> dict[Hashable, int]:
        """One forward pass over all scheduled chunks; the chosen token per sampling sequence."""
        sampling = [c for c in out.chunks if c.samples]
        if self.model is None or not out.chunks:
            return {c.seq.seq_id: self.dry_token for c in sampling}
        segments = [Segment(c.seq.block_table, c.start, c.num_tokens) for c in out.chunks]
        token_ids = [t for c in out.chunks for t in c.token_ids]
        positions = np.concatenate([s.positions() for s in segments])
        logits = self.model.forward(token_ids, positions, self._attention(self.cache, segments, self.kernel))
        last_rows = np.cumsum([c.num_tokens for c in out.chunks]) - 1
        chosen = {}
        for chunk, row in zip(out.chunks, last_rows, strict=True):
            if chunk.samples:
                chosen[chunk.seq.seq_id] = int(self.sample(logits[row], chunk.seq))
                if self.keep_logits:
                    chunk.seq.logits.append(logits[row].copy())
        return chosen

    # --------------------------------------------------------------- record
    def _text(self, token: int) -> dict:
        if self.tokenizer is None:
            return {}
        try:
            return {"text": self.tokenizer.token_text(token)}
        except ValueError:
            return {}

    def _record(self, out: SchedulerOutput, emitted: list[dict], finished: list[SequenceState],
                wall_time_s: float) -> dict:
        events = list(self._step_blocks)
        self._step_blocks.clear()
        admitted = set(out.admitted)
        scheduled = []
        for c in out.chunks:
            item = {"seq": c.seq.seq_id, "kind": c.kind, "recompute": c.recompute, "start": c.start,
                    "num_tokens": c.num_tokens, "positions": [c.start, c.start + c.num_tokens],
                    "token_ids": c.token_ids}
            if c.seq.seq_id in admitted:
                item["num_cached_tokens"] = c.seq.num_cached_tokens
            scheduled.append(item)
        s = self.scheduler
        return {
            "step": out.step,
            "arrived": list(out.arrived),
            "admitted": list(out.admitted),
            "preempted": list(out.preempted),
            "scheduled": scheduled,  # positions: half-open [start, end)
            "num_batched_tokens": out.num_tokens,
            "blocks": [{"kind": e.kind, "block": e.block_id, "seq": e.seq_id, "hash": short_hash(e.block_hash)}
                       for e in events],
            "emitted": emitted,  # position: the index the token takes in its sequence
            "finished": [{"seq": f.seq_id, "reason": f.finish_reason} for f in finished],
            "blocks_used": self.pool.num_used,
            "blocks_cached": self.pool.num_cached,
            "running": [q.seq_id for q in s.running],
            "waiting": [q.seq_id for q in s.waiting],
            "wall_time_s": wall_time_s,
        }
