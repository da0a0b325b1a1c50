"""Differential tests: paged KV cache = dense kernel = tiled kernel = full recompute."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.attention import dense_attention, tiled
from engine.block_pool import BlockPool
from engine.generate import greedy_paged, greedy_recompute
from engine.model import LlamaModel, tiny_config
from engine.paged_kv import KVCache
from engine.tokenizer import CharTokenizer

TOK = CharTokenizer()
PROMPT = TOK.encode("heute trinke ich")  # 16 tokens
MODELS = {kind: LlamaModel(tiny_config(kind, seed=11)) for kind in ("MHA", "GQA", "MQA")}
REFERENCE = {kind: greedy_recompute(model, PROMPT, 10) for kind, model in MODELS.items()}


def max_diff(a, b):
    return max(float(np.abs(x - y).max()) for x, y in zip(a.logits, b.logits, strict=True))


@pytest.mark.parametrize("kind", ["MHA", "GQA", "MQA"])
@pytest.mark.parametrize("block_size,chunk_size,kernel", [
    (4, None, None), (1, None, None), (3, 5, None), (16, 1, None), (64, None, None),
    (4, None, 1), (5, 7, 7), (2, 3, 64),
])
def test_paged_equals_full_recompute(kind, block_size, chunk_size, kernel):
    model, ref = MODELS[kind], REFERENCE[kind]
    run = greedy_paged(model, PROMPT, 10, block_size=block_size, chunk_size=chunk_size,
                       kernel=tiled(kernel) if kernel else dense_attention)
    assert run.tokens == ref.tokens
    assert max_diff(run, ref) <= 1e-9


def test_the_reference_itself_is_not_trivial():
    """The compared runs generate varied tokens from clearly separated logits."""
    for ref in REFERENCE.values():
        assert len(set(ref.tokens)) >= 3
        top2 = [np.sort(l)[-2:] for l in ref.logits]
        assert min(b - a for a, b in top2) > 1e-6  # no near-ties that could flip a greedy choice
    assert REFERENCE["MHA"].tokens != REFERENCE["MQA"].tokens


@pytest.mark.parametrize("kind", ["MHA", "GQA", "MQA"])
def test_tiled_full_recompute_equals_dense(kind):
    run = greedy_recompute(MODELS[kind], PROMPT, 10, kernel=tiled(7))
    assert run.tokens == REFERENCE[kind].tokens and max_diff(run, REFERENCE[kind]) <= 1e-9


@pytest.mark.parametrize("kind", ["MHA", "GQA", "MQA"])
def test_float32_paged_equals_float32_recompute(kind):
    model = LlamaModel(tiny_config(kind, seed=11, dtype="float32"))
    ref = greedy_recompute(model, PROMPT, 6)
    run = greedy_paged(model, PROMPT, 6, block_size=4, chunk_size=5)
    assert run.tokens == ref.tokens and max_diff(run, ref) <= 1e-5
    assert run.logits[0].dtype == np.float32


def test_cached_decode_processes_one_token_per_step_recompute_all():
    ref, run = REFERENCE["GQA"], greedy_paged(MODELS["GQA"], PROMPT, 10, chunk_size=6)
    assert ref.forward_tokens == list(range(16, 26))
    assert run.forward_tokens == [6, 6, 4] + [1] * 9


def test_prefix_caching_on_equals_off():
    model = MODELS["GQA"]
    pool = BlockPool(num_blocks=16, block_size=4)
    cache = KVCache(model.config, 16, 4)
    first = TOK.encode("heute trinke ich tee")
    second = TOK.encode("heute trinke ich wasser")  # 17 shared characters
    greedy_paged(model, first, 3, pool=pool, cache=cache, seq_id="a")
    hit = greedy_paged(model, second, 5, pool=pool, cache=cache, seq_id="b")
    cold = greedy_paged(model, second, 5)
    assert hit.num_cached_tokens == 16 and cold.num_cached_tokens == 0  # ⌊17/4⌋ full blocks
    assert hit.forward_tokens[0] == len(second) - 16
    assert hit.tokens == cold.tokens == greedy_recompute(model, second, 5).tokens
    assert max_diff(hit, cold) <= 1e-9


def test_a_fully_cached_prompt_still_computes_its_last_block():
    model = MODELS["MHA"]
    pool, cache = BlockPool(8, 4), KVCache(model.config, 8, 4)
    greedy_paged(model, PROMPT, 2, pool=pool, cache=cache, seq_id=1)
    again = greedy_paged(model, PROMPT, 4, pool=pool, cache=cache, seq_id=2)
    assert again.num_cached_tokens == 12 and again.forward_tokens[0] == 4
    assert again.tokens == REFERENCE["MHA"].tokens[:4]


@given(seed=st.integers(0, 1000), kind=st.sampled_from(["MHA", "GQA", "MQA"]),
       prompt=st.lists(st.integers(0, 47), min_size=1, max_size=12), new=st.integers(1, 6),
       block_size=st.integers(1, 6), chunk=st.one_of(st.none(), st.integers(1, 8)), tile=st.integers(1, 9))
@settings(max_examples=25, deadline=None)
def test_paged_equals_recompute_for_random_models_and_prompts(seed, kind, prompt, new, block_size, chunk, tile):
    model = LlamaModel(tiny_config(kind, seed=seed, num_layers=1))
    ref = greedy_recompute(model, prompt, new)
    run = greedy_paged(model, prompt, new, block_size=block_size, chunk_size=chunk, kernel=tiled(tile))
    assert max_diff(run, ref) <= 1e-9
    # Tokens may only differ after an exact tie, which random weights do not produce.
    assert run.tokens == ref.tokens


def test_generation_errors_are_clear():
    model = MODELS["MHA"]
    with pytest.raises(ValueError, match="at least one token"):
        greedy_paged(model, [], 3)
    with pytest.raises(ValueError, match="max_new_tokens"):
        greedy_recompute(model, [1], 0)
    with pytest.raises(ValueError, match="chunk_size"):
        greedy_paged(model, [1, 2], 2, chunk_size=0)
    with pytest.raises(ValueError, match="pool has only 2 blocks"):
        greedy_paged(model, PROMPT, 4, num_blocks=2, block_size=4)
    with pytest.raises(ValueError, match="block_size must be a positive integer"):
        greedy_paged(model, PROMPT, 4, block_size=0, num_blocks=4)
    with pytest.raises(ValueError, match="same number and size"):
        greedy_paged(model, PROMPT, 4, pool=BlockPool(8, 4), cache=KVCache(model.config, 8, 2))
