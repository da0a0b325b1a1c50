"""Speculative decoding: a cheap draft model proposes, the target model verifies (CONCEPTS.md §20).

One round (Leviathan et al. 2023, Algorithm 1; Chen et al. 2023):

1. The draft proposes k tokens one after the other, x₁ ~ q₁, x₂ ~ q₂, … (q: the draft's distribution
   after the sampling rules).
2. The target runs *once* over the sequence plus all k proposals. Because its forward pass returns
   logits for every position, that one pass gives p₁ … p_k for the proposals and p_{k+1} after them.
3. Proposal xᵢ is accepted with probability min(1, pᵢ(xᵢ)/qᵢ(xᵢ)). At the first rejection the rest
   is thrown away and a correction is drawn from the residual max(0, pᵢ − qᵢ), normalised. If all k
   are accepted, a bonus token is drawn from p_{k+1}. So a round emits between 1 and k + 1 tokens,
   and every one of them is distributed exactly as the target alone would have drawn it: per
   position, accepted mass min(p, q) plus rejected mass (1 − Σ min(p, q)) times the residual is p
   (``engine.acceptance``: the rule and its balance, in exact fractions for the article's example).
   Drawing the correction from p instead double-counts the accepted mass and is wrong.

Greedy mode compares argmaxes: a proposal is accepted while it equals the target's argmax, and the
target's argmax replaces the first one that does not (the one-hot limit of the rule above). So greedy
speculative output is identical to target greedy output; only the number of target passes changes.
With an acceptance rate α per token, a round emits (1 − α^{k+1})/(1 − α) tokens on average.

The draft. A draft needs to resemble the target, and two tiny models with independent random weights
do not (their argmaxes almost never agree). ``truncated_draft`` therefore builds it from the target
itself: the target's first layers, followed by the target's own final norm and LM head, sharing the
weight arrays (early exit / self-speculative decoding, as in Draft & Verify, Zhang et al. 2024, and
LayerSkip, Elhoushi et al. 2024). Measured on the 2-layer tiny models (MHA, GQA, MQA; seeds 0 and
11; five prompts, 40 tokens, k = 4) with a 1-layer draft: per-token acceptance α = 0.69–0.80 and
2.6–3.2 tokens per target pass at temperatures 0.7–1, α = 0.34–0.70 (1.5–2.6 tokens per pass)
greedy; a 1-layer model with its own random weights reaches α = 0.44–0.54 at temperature 1 only
because both distributions are flat, and α ≤ 0.06 greedy.

The cache. Both models keep their K/V in a paged cache of their own (``PagedSequence``: a block
pool and its K/V store), so a pass computes only positions the model has not seen: the target's
pass is the last emitted token plus the proposals, a draft step one token. Rejected proposals
leave both caches again by ``BlockPool.truncate`` (blocks past the kept length go back to the pool),
not by recomputing the sequence. Nothing is committed to a prefix cache: the pools run without one.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.acceptance import accept_prob, residual
from engine.attention import Kernel, PagedAttention, Segment, dense_attention
from engine.block_pool import BlockEvent, BlockPool
from engine.model import LlamaModel, weight_shapes
from engine.paged_kv import KVCache
from engine.sampler import GREEDY, SamplingParams, check_rng, draw, probabilities

# ------------------------------------------------------------------ one verification


@dataclass
class Verification:
    """One target pass over k proposals: plain data for the tracer."""

    position: int  # sequence position of the first proposal
    proposals: list[int]
    accepted: int  # proposals kept, a prefix of ``proposals``
    rejected: list[int]  # proposals thrown away: the first rejected one and all after it
    correction: int | None  # drawn after the first rejection (greedy: the target's argmax) …
    bonus: int | None  # … or, if all were accepted, one more token from the target
    accept_probs: list[float]  # min(1, p/q) of each examined proposal (greedy: 1 or 0)
    draft_probs: list[float]  # q(xᵢ) of every proposal (greedy: the one-hot 1)
    target_probs: list[float]  # p(xᵢ) of every proposal (greedy: 1 where it is the target's argmax)
    uniforms: list[float]  # u ∈ [0, 1) per examined proposal: accepted iff u < its accept_prob (greedy: none)

    @property
    def emitted(self) -> list[int]:
        last = self.correction if self.correction is not None else self.bonus
        return [*self.proposals[:self.accepted], last]

    def to_dict(self) -> dict:
        return dataclasses.asdict(self) | {"emitted": self.emitted}


def verify(p_rows: np.ndarray, q_rows: np.ndarray, proposals: Sequence[int], rng: np.random.Generator | None,
           *, greedy: bool = False, position: int = 0) -> Verification:
    """Accept or reject ``proposals`` given the target's ``p_rows`` ``[k + 1, vocab]`` (one row per
    proposal plus one after them) and the draft's ``q_rows`` ``[k, vocab]`` they were drawn from."""
    p_rows, q_rows = np.asarray(p_rows, dtype=np.float64), np.asarray(q_rows, dtype=np.float64)
    proposals = [int(x) for x in proposals]  # plain ints: the record goes into JSON traces
    k = len(proposals)
    if p_rows.shape[0] != k + 1 or q_rows.shape[0] != k or p_rows.shape[1:] != q_rows.shape[1:]:
        raise ValueError(f"{k} proposals need {k + 1} target rows and {k} draft rows of one vocabulary, "
                         f"got {p_rows.shape} and {q_rows.shape}")
    if not greedy:
        check_rng(rng)
    draft_probs = [float(q_rows[i, x]) for i, x in enumerate(proposals)]
    target_probs = [float(p_rows[i, x]) for i, x in enumerate(proposals)]
    accept_probs, uniforms = [], []
    for i, x in enumerate(proposals):
        p, q = p_rows[i], q_rows[i]
        if greedy:
            ok = x == int(np.argmax(p))
            accept_probs.append(1.0 if ok else 0.0)
        else:
            a = float(accept_prob(p, q, x))
            accept_probs.append(a)
            uniforms.append(float(rng.random()))
            ok = uniforms[-1] < a  # u ∈ [0, 1): a = 1 always accepts, a = 0 never
        if not ok:
            correction = int(np.argmax(p)) if greedy else int(draw(np.asarray(residual(p.tolist(), q.tolist())), rng))
            return Verification(position, proposals, i, proposals[i:], correction, None, accept_probs,
                                draft_probs, target_probs, uniforms)
    last = p_rows[k]
    bonus = int(np.argmax(last)) if greedy else int(draw(last, rng))
    return Verification(position, proposals, k, [], None, bonus, accept_probs, draft_probs, target_probs, uniforms)


# ------------------------------------------------------------------ generation with two models


def truncated_draft(target: LlamaModel, num_layers: int) -> LlamaModel:
    """The target's first ``num_layers`` layers with its final norm and LM head (weights shared)."""
    valid = isinstance(num_layers, int) and not isinstance(num_layers, bool)
    if not valid or not 1 <= num_layers < target.config.num_layers:
        raise ValueError(f"a truncated draft needs 1 … {target.config.num_layers - 1} layers "
                         f"(fewer than the target's {target.config.num_layers}), got {num_layers!r}")
    config = dataclasses.replace(target.config, num_layers=num_layers)
    return LlamaModel(config, {name: target.weights[name] for name in weight_shapes(config)})


class PagedSequence:
    """One model's K/V of one sequence in a paged cache, and the tokens that K/V belongs to.

    The sequence owns its ``block_table`` and ``block_hashes``; ``pool`` hands out its blocks."""

    SEQ = "r"

    def __init__(self, model, num_blocks: int, block_size: int, kernel: Kernel = dense_attention):
        self.model = model
        self.pool = BlockPool(num_blocks, block_size, prefix_caching=False)
        self.cache = KVCache(model.config, num_blocks, block_size)
        self.kernel = kernel
        self.tokens: list[int] = []  # positions whose K/V the cache holds
        self.computed = 0  # positions the last pass ran
        self.block_table: list[int] = []
        self.block_hashes: list[bytes] = []

    @property
    def seq_id(self) -> str:
        return self.SEQ

    def logits(self, context: Sequence[int], first_row: int) -> np.ndarray:
        """Logits of positions ``first_row`` … end of ``context``, computing only what is not cached.

        The cache is first cut back to the longest prefix it shares with ``context`` (and never to the
        whole context: the last position must run to give its logits)."""
        keep = 0
        limit = min(len(self.tokens), len(context) - 1, first_row)
        while keep < limit and self.tokens[keep] == context[keep]:
            keep += 1
        self.truncate(keep)
        if self.block_table:
            self.pool.append(self, len(context))
        else:
            self.pool.allocate(self, list(context))
        segment = Segment(self.block_table, keep, len(context) - keep)
        logits = self.model.forward(list(context[keep:]), segment.positions(),
                                    PagedAttention(self.cache, [segment], self.kernel))
        self.tokens = list(context)
        self.computed = len(context) - keep
        return logits[first_row - keep:]

    def truncate(self, num_tokens: int) -> None:
        """Forget K/V of positions ``num_tokens`` … (rejected proposals); their blocks go back."""
        if num_tokens < len(self.tokens):
            if num_tokens == 0:
                self.pool.free(self)
            else:
                self.pool.truncate(self, num_tokens)
            del self.tokens[num_tokens:]

    def release(self) -> None:
        if self.block_table:
            self.pool.free(self)
        self.tokens = []


@dataclass
class SpeculativeRun:
    tokens: list[int] = field(default_factory=list)
    verifications: list[Verification] = field(default_factory=list)
    target_forward_tokens: list[int] = field(default_factory=list)  # positions computed per target pass
    draft_forward_tokens: list[int] = field(default_factory=list)  # positions computed per draft pass
    round_times: list[float] = field(default_factory=list)  # measured seconds per round, for traces
    target_blocks: list[list[BlockEvent]] = field(default_factory=list)  # the target pool's events per round
    target_blocks_used: list[int] = field(default_factory=list)  # the target's blocks at each round's end
    num_blocks: int = 0  # of the target's pool
    block_size: int = 0

    @property
    def target_calls(self) -> int:
        return len(self.target_forward_tokens)

    @property
    def num_proposed(self) -> int:
        return sum(len(v.proposals) for v in self.verifications)

    @property
    def num_accepted(self) -> int:
        return sum(v.accepted for v in self.verifications)

    @property
    def num_examined(self) -> int:
        """Proposals that met the accept/reject test: the accepted ones and each round's first rejection."""
        return sum(len(v.accept_probs) for v in self.verifications)

    @property
    def acceptance_rate(self) -> float:
        """Accepted per examined proposal: the per-token α of (1 − α^{k+1})/(1 − α). (Accepted per
        *proposed* token, which counts the discarded ones after a rejection too, is lower.)"""
        return self.num_accepted / self.num_examined if self.num_examined else float("nan")

    @property
    def tokens_per_target_call(self) -> float:
        return len(self.tokens) / self.target_calls


@dataclass
class Round:
    """One round's outcome: the verification, the target's logits (rows len(seq) − 1 … end: after the
    context, then after each proposal) and how many positions each pass computed (draft passes, then the
    target's one)."""

    verification: Verification
    target_logits: np.ndarray
    draft_computed: list[int]
    target_computed: int


def speculative_round(target_kv: PagedSequence, draft_kv: PagedSequence, seq: list[int], n: int,
                      params: SamplingParams, rng: np.random.Generator | None) -> Round:
    """The draft proposes n tokens after seq, one target pass checks them all, and both caches keep only
    what was accepted (the correction or bonus has no K/V yet: the next round's pass computes it)."""
    proposals, q_rows, draft_computed = [], [], []
    for _ in range(n):
        context = seq + proposals
        q = probabilities(draft_kv.logits(context, len(context) - 1)[-1], params)
        draft_computed.append(draft_kv.computed)
        proposals.append(int(np.argmax(q)) if params.greedy else int(draw(q, rng)))
        q_rows.append(q)
    logits = target_kv.logits(seq + proposals, len(seq) - 1)
    target_computed = target_kv.computed
    p_rows = probabilities(logits, params)
    v = verify(p_rows, np.array(q_rows).reshape(n, p_rows.shape[1]), proposals, rng,
               greedy=params.greedy, position=len(seq))
    target_kv.truncate(len(seq) + v.accepted)
    draft_kv.truncate(min(len(draft_kv.tokens), len(seq) + v.accepted))
    return Round(v, logits, draft_computed, target_computed)


def pool_size(prompt_len: int, max_new_tokens: int, k: int, block_size: int) -> int:
    """Blocks one sequence needs at most: its prompt, its tokens and a round's proposals beyond them."""
    return -(-(prompt_len + max_new_tokens + k) // block_size)


def speculative_generate(target, draft, prompt: Sequence[int], max_new_tokens: int, *, k: int = 4,
                         params: SamplingParams = GREEDY, rng: np.random.Generator | None = None,
                         kernel: Kernel = dense_attention, block_size: int = 4,
                         after_round: Callable[[SpeculativeRun, PagedSequence, PagedSequence], None] | None = None,
                         ) -> SpeculativeRun:
    """Generate ``max_new_tokens`` tokens in rounds of up to k proposals and one target pass.

    The last round proposes fewer than k if fewer tokens remain (k + 1 could otherwise overshoot).
    ``after_round(run, target_cache, draft_cache)`` sees every round's end (progress, tests).
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k (proposals per round) must be a positive integer, got {k!r}")
    if len(prompt) == 0:
        raise ValueError("the prompt must contain at least one token")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be at least 1, got {max_new_tokens}")
    if target.config.vocab_size != draft.config.vocab_size:
        raise ValueError(f"draft and target must share the vocabulary, got {draft.config.vocab_size} "
                         f"and {target.config.vocab_size} tokens")
    if not params.greedy:
        check_rng(rng)
    num_blocks = pool_size(len(prompt), max_new_tokens, k, block_size)
    target_kv = PagedSequence(target, num_blocks, block_size, kernel)
    draft_kv = PagedSequence(draft, num_blocks, block_size, kernel)
    run = SpeculativeRun(num_blocks=num_blocks, block_size=block_size)
    round_blocks: list[BlockEvent] = []
    target_kv.pool.on_event = round_blocks.append
    seq = [int(t) for t in prompt]
    while len(run.tokens) < max_new_tokens:
        started = time.perf_counter()
        n = min(k, max_new_tokens - len(run.tokens) - 1)
        r = speculative_round(target_kv, draft_kv, seq, n, params, rng)
        v = r.verification
        run.draft_forward_tokens += r.draft_computed
        run.target_forward_tokens.append(r.target_computed)
        run.verifications.append(v)
        run.tokens += v.emitted
        seq += v.emitted
        if len(run.tokens) >= max_new_tokens:
            target_kv.release()
            draft_kv.release()
        run.target_blocks.append(list(round_blocks))
        round_blocks.clear()
        run.target_blocks_used.append(target_kv.pool.num_used)
        run.round_times.append(time.perf_counter() - started)
        if after_round is not None:
            after_round(run, target_kv, draft_kv)
    return run
