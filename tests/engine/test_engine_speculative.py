"""Speculative decoding: the §20 balance exactly, the output distribution, greedy = target greedy,
tokens per target call against (1 − α^{k+1})/(1 − α), and the records a tracer will read."""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import speculative
from engine.acceptance import accept_prob, balance, residual
from engine.attention import NoCacheAttention
from engine.generate import greedy_recompute
from engine.model import LlamaModel, tiny_config
from engine.sampler import GREEDY, SamplingParams, draw, probabilities
from engine.speculative import speculative_generate, truncated_draft, verify
from engine.tokenizer import CharTokenizer

F = Fraction
P = [F(2, 10), F(5, 10), F(3, 10)]  # CONCEPTS.md §20: target p over A, B, C
Q = [F(6, 10), F(3, 10), F(1, 10)]  # draft q
TOK = CharTokenizer()
PROMPTS = [TOK.encode(s) for s in ("heute trinke ich", "der hund", "es war einmal ein", "42")]
TARGETS = {kind: LlamaModel(tiny_config(kind, seed=11)) for kind in ("GQA", "MQA")}


def tv(a, b):
    return 0.5 * float(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float)).sum())


# ------------------------------------------------------------------ CONCEPTS.md §20, exactly


def test_the_articles_balance_in_exact_fractions():
    b = balance(P, Q)
    assert b["accept_prob"] == (F(1, 3), 1, 1)
    assert b["accepted"] == (F(2, 10), F(3, 10), F(1, 10)) and b["rate"] == F(6, 10)
    assert b["rejected"] == F(4, 10)
    assert residual(P, Q) == b["correction"] == (0, F(1, 2), F(1, 2))  # split equally between B and C
    assert b["final"] == tuple(P)
    assert balance(P, Q, "plain")["final"] == (F(28, 100), F(50, 100), F(22, 100))
    assert b["rate"] == 1 - F(1, 2) * sum(abs(a - c) for a, c in zip(P, Q, strict=True))  # = 1 − TV(p, q)


def probability_vectors(n):
    return st.lists(st.integers(0, 20), min_size=n, max_size=n).filter(any).map(lambda w: [F(x, sum(w)) for x in w])


@given(data=st.data(), n=st.integers(1, 6))
@settings(max_examples=100, deadline=None)
def test_acceptance_plus_correction_gives_p_for_any_p_and_q(data, n):
    p, q = data.draw(probability_vectors(n)), data.draw(probability_vectors(n))
    b = balance(p, q)
    assert list(b["final"]) == p
    # The wrong rule adds rejected mass · p; it only comes out right if the accepted mass happens to
    # be proportional to p already (p = q, or nothing accepted at all).
    proportional = list(b["accepted"]) == [b["rate"] * x for x in p]
    assert (list(balance(p, q, "plain")["final"]) == p) == proportional
    assert (b["rejected"] == 0) == (p == q)


def test_residual_and_accept_prob_in_floats_and_edge_cases():
    np.testing.assert_allclose(residual(np.array([0.2, 0.5, 0.3]), np.array([0.6, 0.3, 0.1])), [0, 0.5, 0.5])
    assert list(residual(np.array([0.5, 0.5]), np.array([0.5, 0.5]))) == [0.5, 0.5]  # p = q: nothing to correct
    assert accept_prob(np.array([0.2, 0.8]), np.array([0.1, 0.9]), 0) == 1
    with pytest.raises(ValueError, match="draft probability 0"):
        accept_prob([F(1), F(0)], [F(0), F(1)], 0)


def test_balance_holds_on_real_model_distributions():
    target = TARGETS["GQA"]
    draft = truncated_draft(target, 1)
    seq = PROMPTS[0]
    pos = np.arange(len(seq))
    for params in (SamplingParams(), SamplingParams(temperature=0.7, top_k=10), SamplingParams(top_p=0.9)):
        p = probabilities(target.forward(seq, pos, NoCacheAttention())[-1], params)
        q = probabilities(draft.forward(seq, pos, NoCacheAttention())[-1], params)
        assert np.allclose(balance(p, q)["final"], p, atol=1e-12)


# ------------------------------------------------------------------ the sampler's output distribution


def first_tokens(n, seed):
    """The token emitted at the first position by ``verify`` with k = 1, p and q of §20."""
    rng = np.random.default_rng(seed)
    p, q = np.array(P, dtype=float), np.array(Q, dtype=float)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        x = int(draw(q, rng))
        out[i] = verify(np.stack([p, p]), q[None], [x], rng).emitted[0]
    return np.bincount(out, minlength=3) / n


def test_rejection_sampling_reproduces_the_target_distribution():
    counts = first_tokens(20_000, seed=20)
    assert tv(counts, P) < 0.01


def test_correction_from_plain_p_fails_the_same_check(monkeypatch):
    monkeypatch.setattr(speculative, "residual", lambda p, q: p)  # the article's wrong toggle
    counts = first_tokens(20_000, seed=20)
    assert tv(counts, P) > 0.01
    assert tv(counts, [0.28, 0.50, 0.22]) < 0.01  # it gives the article's wrong numbers instead


# ------------------------------------------------------------------ greedy speculative = target greedy


@pytest.mark.parametrize("kind", ["GQA", "MQA"])
@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("draft_kind", ["truncated", "independent", "self"])
def test_greedy_speculative_equals_target_greedy(kind, k, draft_kind):
    target = TARGETS[kind]
    draft = {"truncated": lambda: truncated_draft(target, 1),
             "independent": lambda: LlamaModel(tiny_config(kind, seed=99, num_layers=1)),
             "self": lambda: target}[draft_kind]()
    for prompt in PROMPTS:
        run = speculative_generate(target, draft, prompt, 13, k=k)
        assert run.tokens == greedy_recompute(target, prompt, 13).tokens
        if draft_kind == "self":  # the target agrees with itself: every round emits k + 1 tokens
            assert run.acceptance_rate == 1.0
            assert run.target_calls == -(-13 // (k + 1))


def test_greedy_rule_is_the_one_hot_limit_of_the_general_rule():
    rng = np.random.default_rng(0)
    for _ in range(200):
        k = int(rng.integers(1, 5))
        p = np.eye(5)[rng.integers(0, 5, k + 1)]
        proposals = rng.integers(0, 5, k).tolist()
        q = np.eye(5)[proposals]
        general = verify(p, q, proposals, np.random.default_rng(1))
        greedy = verify(p, q, proposals, None, greedy=True)
        assert general.emitted == greedy.emitted and general.accepted == greedy.accepted


def test_truncated_draft_agrees_with_the_target_far_more_than_an_independent_model():
    target = TARGETS["GQA"]
    rates = {}
    for name, draft in (("truncated", truncated_draft(target, 1)),
                        ("independent", LlamaModel(tiny_config("GQA", seed=99, num_layers=1)))):
        runs = [speculative_generate(target, draft, prompt, 20, k=1) for prompt in PROMPTS]
        rates[name] = sum(r.num_accepted for r in runs) / sum(r.num_examined for r in runs)
    assert rates["truncated"] > 0.3 and rates["independent"] < 0.15, rates


# ------------------------------------------------------------------ sampling mode


def test_sampling_is_deterministic_by_seed_and_keeps_consistent_records():
    target = TARGETS["GQA"]
    draft = truncated_draft(target, 1)
    params = SamplingParams(temperature=0.8, top_k=30, top_p=0.95)
    runs = [speculative_generate(target, draft, PROMPTS[0], 25, k=3, params=params, rng=np.random.default_rng(s))
            for s in (7, 7, 8)]
    assert runs[0].tokens == runs[1].tokens and runs[0].verifications == runs[1].verifications
    assert runs[0].tokens != runs[2].tokens
    for run in runs:
        assert len(run.tokens) == 25
        position, emitted = len(PROMPTS[0]), []
        for v in run.verifications:
            assert v.position == position
            assert (v.correction is None) != (v.bonus is None)
            assert v.rejected == v.proposals[v.accepted:]
            assert (v.correction is not None) == bool(v.rejected)
            assert len(v.accept_probs) == v.accepted + bool(v.rejected)
            assert len(v.draft_probs) == len(v.target_probs) == len(v.proposals)
            assert [u < a for u, a in zip(v.uniforms, v.accept_probs, strict=True)] == \
                [True] * v.accepted + [False] * bool(v.rejected)
            assert all(a == 1.0 or a == pytest.approx(t / d) for a, t, d in
                       zip(v.accept_probs, v.target_probs, v.draft_probs, strict=False))
            assert json.loads(json.dumps(v.to_dict()))["emitted"] == v.emitted  # plain data for traces
            emitted += v.emitted
            position += len(v.emitted)
        assert emitted == run.tokens
        assert run.target_calls == len(run.verifications) and run.num_proposed == len(run.draft_forward_tokens)
        assert run.num_examined == sum(v.accepted + bool(v.rejected) for v in run.verifications)
        assert 0 < run.acceptance_rate < 1


def test_a_self_draft_accepts_everything_in_sampling_mode():
    target = TARGETS["MQA"]
    run = speculative_generate(target, target, PROMPTS[1], 20, k=4, params=SamplingParams(),
                               rng=np.random.default_rng(3))
    assert run.acceptance_rate == 1.0 and run.target_calls == 4


# ------------------------------------------------------------------ tokens per target call


def synthetic_rows(alpha, rng, vocab=8):
    """q on tokens 0…3, p = α·q + (1 − α)·r with r on tokens 4…7: p(x)/q(x) = α for every proposal."""
    q = np.zeros(vocab)
    q[:vocab // 2] = rng.dirichlet(np.ones(vocab // 2))
    r = np.zeros(vocab)
    r[vocab // 2:] = rng.dirichlet(np.ones(vocab // 2))
    return alpha * q + (1 - alpha) * r, q


def mean_tokens_per_round(alpha, k, trials, seed):
    rng = np.random.default_rng(seed)
    rows = [synthetic_rows(alpha, rng) for _ in range(k + 1)]
    p_rows = np.array([p for p, _ in rows])
    q_rows = np.array([q for _, q in rows[:k]])
    total = accepted = 0
    for _ in range(trials):
        proposals = draw(q_rows, rng).tolist()
        v = verify(p_rows, q_rows, proposals, rng)
        total += len(v.emitted)
        accepted += v.accepted
    return total / trials, accepted


def expected_tokens(alpha, k):
    return (1 - alpha ** (k + 1)) / (1 - alpha)


@pytest.mark.parametrize("alpha,k", [(0.5, 4), (0.6, 1), (0.8, 3), (0.9, 6)])
def test_tokens_per_target_call_match_the_formula(alpha, k):
    measured, _ = mean_tokens_per_round(alpha, k, 6000, seed=int(alpha * 10) + k)
    assert abs(measured / expected_tokens(alpha, k) - 1) < 0.05
    # The 5 % window separates neighbouring acceptance rates, so the check can fail.
    assert abs(measured / expected_tokens(alpha - 0.15, k) - 1) > 0.05
    assert abs(measured / expected_tokens(min(alpha + 0.15, 0.99), k) - 1) > 0.05


# ------------------------------------------------------------------ clear errors


def test_invalid_use_fails_clearly():
    target = TARGETS["GQA"]
    with pytest.raises(ValueError, match=r"k .* must be a positive integer"):
        speculative_generate(target, target, PROMPTS[0], 4, k=0)
    with pytest.raises(ValueError, match="share the vocabulary"):
        speculative_generate(target, LlamaModel(tiny_config("GQA", vocab_size=30)), PROMPTS[0], 4)
    with pytest.raises(TypeError, match=r"numpy.random.Generator"):
        speculative_generate(target, target, PROMPTS[0], 4, params=SamplingParams())
    with pytest.raises(ValueError, match="at least one token"):
        speculative_generate(target, target, [], 4)
    with pytest.raises(ValueError, match="max_new_tokens"):
        speculative_generate(target, target, PROMPTS[0], 0)
    for layers in (0, 2, 5):
        with pytest.raises(ValueError, match="truncated draft needs 1 … 1 layers"):
            truncated_draft(target, layers)
    with pytest.raises(ValueError, match="2 proposals need 3 target rows"):
        verify(np.ones((2, 4)) / 4, np.ones((2, 4)) / 4, [0, 1], np.random.default_rng(0))
    assert speculative_generate(target, truncated_draft(target, 1), PROMPTS[0], 1, k=4, params=GREEDY).tokens == \
        greedy_recompute(target, PROMPTS[0], 1).tokens


# ------------------------------------------------------------------ the paged cache


@pytest.mark.parametrize("params,seed", [(GREEDY, None), (SamplingParams(temperature=0.9), 5)])
@pytest.mark.parametrize("block_size", [1, 2, 4])
def test_rejected_proposals_leave_the_cache_and_the_pools_stay_consistent(params, seed, block_size):
    """Each round ends with exactly the K/V of the kept tokens but the newest (it runs next pass);
    a rejection that reaches past a block boundary gives those blocks back."""
    target = TARGETS["GQA"]
    draft = truncated_draft(target, 1)
    prompt = PROMPTS[2]
    seq = list(prompt)
    freed_on_rejection = []

    def after_round(run, target_kv, draft_kv):
        target_kv.pool.check([target_kv])
        draft_kv.pool.check([draft_kv])
        v = run.verifications[-1]
        done = len(run.tokens) >= 17
        start = len(seq)
        seq.extend(v.emitted)
        kept = 0 if done else len(seq) - 1
        assert target_kv.tokens == seq[:kept]
        assert draft_kv.tokens == seq[:min(kept, len(draft_kv.tokens))]
        assert run.target_blocks_used[-1] == target_kv.pool.num_used == target_kv.pool.blocks_for(kept)
        # The pass held blocks for every proposal; the rejected ones' blocks are freed in the same round.
        held = target_kv.pool.blocks_for(start + len(v.proposals))
        freed = [e.block_id for e in run.target_blocks[-1] if e.kind == "free"]
        assert len(freed) == held - target_kv.pool.blocks_for(kept)
        if v.rejected and not done:
            freed_on_rejection.append(len(freed))

    rng = None if params.greedy else np.random.default_rng(seed)
    run = speculative_generate(target, draft, prompt, 17, k=5, params=params, rng=rng, block_size=block_size,
                               after_round=after_round)
    assert run.tokens == seq[len(prompt):]
    assert any(freed_on_rejection)  # some rejection did give blocks back
    # The target ran the prompt once and afterwards one kept token plus the proposals per pass.
    assert run.target_forward_tokens[0] == len(prompt) + len(run.verifications[0].proposals)
    assert run.target_forward_tokens[1:] == [len(v.proposals) + 1 for v in run.verifications[1:]]


def test_paged_rounds_give_the_recomputed_tokens_in_sampling_mode():
    """The same draws as full recomputation over the whole sequence, the plain reference of the paged rounds."""
    target = TARGETS["MQA"]
    draft = truncated_draft(target, 1)
    params = SamplingParams(temperature=0.8, top_k=30)
    rng = np.random.default_rng(4)
    seq, out = list(PROMPTS[0]), []
    while len(out) < 20:
        n = min(3, 20 - len(out) - 1)
        proposals, q_rows = [], []
        for _ in range(n):
            ctx = seq + proposals
            q = probabilities(draft.forward(ctx, np.arange(len(ctx)), NoCacheAttention())[-1], params)
            proposals.append(int(draw(q, rng)))
            q_rows.append(q)
        ctx = seq + proposals
        p = probabilities(target.forward(ctx, np.arange(len(ctx)), NoCacheAttention())[len(seq) - 1:], params)
        v = verify(p, np.array(q_rows).reshape(n, p.shape[1]), proposals, rng, position=len(seq))
        out += v.emitted
        seq += v.emitted
    run = speculative_generate(target, draft, PROMPTS[0], 20, k=3, params=params, rng=np.random.default_rng(4))
    assert run.tokens == out
