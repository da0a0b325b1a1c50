"""The Llama-architecture model: configuration, weights, RoPE convention, GQA head sharing, causality."""

import numpy as np
import pytest

from engine.attention import NoCacheAttention
from engine.model import LlamaModel, ModelConfig, init_weights, rms_norm, rope, silu, tiny_config, weight_shapes
from engine.tokenizer import DEFAULT_ALPHABET, CharTokenizer


def logits(model, ids):
    return model.forward(ids, np.arange(len(ids)), NoCacheAttention())


@pytest.mark.parametrize("overrides,message", [
    ({"num_heads": 4, "num_kv_heads": 3}, "not a multiple of num_kv_heads"),
    ({"head_dim": 7}, "must be even"),
    ({"num_layers": 0}, "num_layers must be a positive integer"),
    ({"vocab_size": -1}, "vocab_size must be a positive integer"),
    ({"hidden_size": 2.5}, "hidden_size must be a positive integer"),
    ({"dtype": "float16"}, "dtype must be one of"),
    ({"rope_theta": 0.0}, "must be positive"),
])
def test_invalid_configs_fail_with_a_clear_message(overrides, message):
    with pytest.raises(ValueError, match=message):
        ModelConfig(**overrides)


def test_tiny_configs_and_unknown_kind():
    assert [tiny_config(k).num_kv_heads for k in ("MHA", "GQA", "MQA")] == [4, 2, 1]
    assert [tiny_config(k).attention_kind for k in ("MHA", "GQA", "MQA")] == ["MHA", "GQA", "MQA"]
    with pytest.raises(ValueError, match="unknown attention kind"):
        tiny_config("MLA")


def test_weights_are_deterministic_from_the_seed_and_shaped_like_transformers():
    a, b, c = (init_weights(tiny_config(seed=s)) for s in (0, 0, 1))
    assert all(np.array_equal(a[n], b[n]) for n in a)
    assert not np.array_equal(a["lm_head.weight"], c["lm_head.weight"])
    shapes = weight_shapes(tiny_config("GQA"))
    assert shapes["model.layers.1.self_attn.k_proj.weight"] == (2 * 8, 32)  # kv_heads · head_dim rows
    assert shapes["model.layers.0.self_attn.q_proj.weight"] == (4 * 8, 32)
    assert len(shapes) == 2 * 9 + 3


def test_float32_is_the_same_model_as_float64():
    ids = [1, 5, 9, 2, 7, 7, 3]
    l64 = logits(LlamaModel(tiny_config()), ids)
    l32 = logits(LlamaModel(tiny_config(dtype="float32")), ids)
    assert l32.dtype == np.float32 and l64.dtype == np.float64
    np.testing.assert_allclose(l32, l64, atol=1e-5)
    assert np.abs(l64).max() > 0.5  # not a degenerate near-zero output


def test_silu_and_rms_norm_follow_their_definitions():
    x = np.array([-800.0, -3.0, -0.5, 0.0, 0.5, 3.0, 800.0])
    with np.errstate(over="ignore"):
        want = x / (1 + np.exp(-x))
    np.testing.assert_allclose(silu(x), want, rtol=1e-14, atol=1e-300)
    v = np.array([[3.0, 4.0]])
    np.testing.assert_allclose(rms_norm(v, np.array([1.0, 2.0]), 0.0), [[3 / 12.5 ** 0.5, 8 / 12.5 ** 0.5]])


def test_rope_uses_the_rotate_half_pairing():
    """Dimension i pairs with i + d/2 (Llama), not with its neighbour i + 1 (RoFormer paper)."""
    x = np.zeros((1, 1, 4))
    x[0, 0, 0] = 1.0
    got = rope(x, np.array([3]), theta=10000.0)[0, 0]
    np.testing.assert_allclose(got, [np.cos(3), 0, np.sin(3), 0], atol=1e-15)
    assert rope(x, np.array([0]), 10000.0).tolist() == x.tolist()  # position 0: no rotation


def test_rope_scores_depend_only_on_the_distance():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 1, 1, 8))
    def dot(m, n):
        return float(rope(q, np.array([m]), 1e4).ravel() @ rope(k, np.array([n]), 1e4).ravel())
    assert dot(3, 7) == pytest.approx(dot(10, 14), abs=1e-12)
    assert dot(3, 7) == pytest.approx(dot(0, 4), abs=1e-12)
    assert dot(3, 7) != pytest.approx(dot(3, 8), abs=1e-6)
    np.testing.assert_allclose(np.linalg.norm(rope(q, np.array([5]), 1e4)), np.linalg.norm(q), atol=1e-12)


def duplicated_kv_weights(config, weights, to_kv_heads):
    """Weights of a model with more K/V heads that behaves identically: copy each K/V head."""
    out = dict(weights)
    repeat = to_kv_heads // config.num_kv_heads
    for i in range(config.num_layers):
        for name in ("k_proj", "v_proj"):
            key = f"model.layers.{i}.self_attn.{name}.weight"
            heads = weights[key].reshape(config.num_kv_heads, config.head_dim, -1)
            out[key] = np.repeat(heads, repeat, axis=0).reshape(to_kv_heads * config.head_dim, -1)
    return out


@pytest.mark.parametrize("kind", ["GQA", "MQA"])
def test_shared_kv_heads_equal_mha_with_copied_heads(kind):
    """GQA/MQA is MHA whose K/V heads are copies within each group: same logits."""
    config = tiny_config(kind, seed=3)
    shared = LlamaModel(config)
    mha = LlamaModel(tiny_config("MHA", seed=3), duplicated_kv_weights(config, shared.weights, 4))
    ids = [4, 8, 15, 16, 23, 42]
    np.testing.assert_allclose(logits(mha, ids), logits(shared, ids), rtol=0, atol=1e-12)


def test_earlier_logits_ignore_later_tokens():
    model = LlamaModel(tiny_config())
    a, b = logits(model, [1, 2, 3, 4, 5]), logits(model, [1, 2, 3, 9, 9])
    np.testing.assert_array_equal(a[:3], b[:3])
    assert not np.allclose(a[3], b[3])


def test_only_relative_positions_matter():
    """RoPE: shifting every position leaves the logits unchanged; changing distances does not."""
    model = LlamaModel(tiny_config())
    ids = [1, 2, 3]
    plain = logits(model, ids)
    shifted = model.forward(ids, np.arange(5, 8), NoCacheAttention())
    spread = model.forward(ids, np.array([0, 1, 6]), NoCacheAttention())
    np.testing.assert_allclose(shifted, plain, rtol=0, atol=1e-12)
    assert not np.allclose(spread[2], plain[2], atol=1e-3)


def test_weight_and_input_errors_are_clear():
    config = tiny_config()
    weights = init_weights(config)
    with pytest.raises(ValueError, match="missing"):
        LlamaModel(config, {k: v for k, v in weights.items() if k != "lm_head.weight"})
    with pytest.raises(ValueError, match="has shape"):
        LlamaModel(config, weights | {"model.norm.weight": np.ones(3)})
    with pytest.raises(ValueError, match="unexpected"):
        LlamaModel(config, weights | {"model.extra": np.ones(3)})
    loaded = LlamaModel.from_state_dict(config, weights | {"model.rotary_emb.inv_freq": np.ones(4)})
    assert np.array_equal(loaded.weights["lm_head.weight"], weights["lm_head.weight"])
    model = LlamaModel(config)
    with pytest.raises(ValueError, match="token ids must lie"):
        logits(model, [0, config.vocab_size])
    with pytest.raises(ValueError, match="same length"):
        model.forward([1, 2], [0], NoCacheAttention())


def test_tokenizer_round_trip_and_errors():
    tok = CharTokenizer()
    assert tok.vocab_size == len(DEFAULT_ALPHABET) == ModelConfig().vocab_size
    text = "heute trinke ich tee."
    assert tok.decode(tok.encode(text)) == text
    assert tok.encode("ab") == [1, 2] and tok.token_text(0) == " "
    with pytest.raises(ValueError, match="outside the tokenizer's alphabet"):
        tok.encode("Tee")
    with pytest.raises(ValueError, match="outside"):
        tok.decode([99])
    with pytest.raises(ValueError, match="twice"):
        CharTokenizer("abca")
